//! Sockets: HTTP on the listening port (the websocket upgrade, NIP-11),
//! one task per connection, queries on the blocking pool, verification on
//! rayon, writes on the writer thread.
//!
//! ```text
//! accept -> read the HTTP head
//!     Upgrade: websocket            -> 101, then the message loop
//!     Accept: application/nostr+json -> the NIP-11 document
//!     otherwise                     -> a short text page
//! message loop (one task reads, one writes the connection's queue):
//!     EVENT -> limits -> rayon: parse, verify id + signature -> writer
//!     REQ   -> register (pending) -> blocking pool: stream the stored
//!              answer into the queue (yielding the worker every 10 ms
//!              to waiting queries) -> EOSE, then live
//!     COUNT -> blocking pool: count -> COUNT
//!     CLOSE -> unregister
//!     other -> OK false / CLOSED / NOTICE, whichever names the message
//! ```
//!
//! WebSocket framing is tokio-tungstenite's: widely used, small, and it
//! takes over a socket whose HTTP head we already read
//! (`from_partially_read`), which is what lets NIP-11 share the port
//! without an HTTP server crate. A faster framing crate can replace it
//! behind the same queue once a measurement says it pays.

use crate::auth;
use crate::config::Config;
use crate::conn::{Conn, Out};
use crate::fanout::{self, Fanout};
use crate::policy::{AcceptAll, Policy};
use crate::store::{EventStore, QuerySink};
use crate::writer::{self, ok_frame, Job};
use futures_util::{SinkExt, StreamExt};
use ito::nostr::{ClientMessage, Event, Filter, RelayMessage};
use std::collections::HashSet;
use std::future::Future;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

const MAX_HEAD: usize = 16 * 1024;
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// How long shutdown waits for in-flight events to be answered.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the last frames and the close frame may take to be written.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(5);

struct Shared {
    store: Arc<dyn EventStore>,
    config: Config,
    fanout: Arc<Fanout>,
    writer: Mutex<Option<std_mpsc::Sender<Job>>>,
    next_conn: AtomicU64,
    connections: AtomicUsize,
    queries: Arc<Semaphore>,
    nip11: String,
    policy: Arc<dyn Policy>,
    /// The host of `config.relay_url`, which `AUTH` events must name.
    relay_host: Option<String>,
}

/// A relay: a store, a configuration, and the machinery between them.
///
/// ```no_run
/// use std::sync::Arc;
/// use ito_relay::{Config, LmdbStore, Relay};
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let store = Arc::new(LmdbStore::open("./ito-relay-db".as_ref())?);
/// let config = Config::default();
/// let listener = tokio::net::TcpListener::bind(config.listen).await?;
/// Relay::new(store, config)
///     .serve(listener, async { tokio::signal::ctrl_c().await.ok(); })
///     .await?;
/// # Ok(()) }
/// ```
pub struct Relay {
    shared: Arc<Shared>,
    writer: std::thread::JoinHandle<()>,
}

impl std::fmt::Debug for Relay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Relay")
            .field("config", &self.shared.config)
            .finish()
    }
}

impl Relay {
    /// A relay on `store` that accepts what the NIPs allow; starts the
    /// writer thread.
    pub fn new(store: Arc<dyn EventStore>, config: Config) -> Relay {
        Relay::with_policy(store, config, Arc::new(AcceptAll))
    }

    /// A relay on `store` that also asks `policy`; starts the writer
    /// thread.
    pub fn with_policy(
        store: Arc<dyn EventStore>,
        config: Config,
        policy: Arc<dyn Policy>,
    ) -> Relay {
        let fanout = Arc::new(Fanout::new(config.auth));
        let (tx, rx) = std_mpsc::channel();
        let writer = {
            let (store, fanout, every) = (store.clone(), fanout.clone(), config.purge_interval);
            std::thread::Builder::new()
                .name("ito-relay-writer".into())
                .spawn(move || writer::run(store, fanout, rx, every))
                .expect("spawn the writer thread")
        };
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get()) * 2;
        Relay {
            shared: Arc::new(Shared {
                nip11: config.nip11(),
                relay_host: config.relay_url.as_deref().and_then(auth::url_host),
                store,
                config,
                fanout,
                writer: Mutex::new(Some(tx)),
                next_conn: AtomicU64::new(1),
                connections: AtomicUsize::new(0),
                queries: Arc::new(Semaphore::new(workers)),
                policy,
            }),
            writer,
        }
    }

    /// Accepts connections on `listener` until `shutdown` completes; then
    /// stops accepting, answers every event already received (after its
    /// commit), closes every socket with 1001 (going away), and waits for
    /// the writer to finish.
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()>,
    ) -> io::Result<()> {
        let (stop_tx, stop_rx) = watch::channel(false);
        let mut tasks = JoinSet::new();
        tokio::pin!(shutdown);
        loop {
            tokio::select! {
                accepted = listener.accept() => {
                    let Ok((tcp, peer)) = accepted else { continue };
                    let _ = tcp.set_nodelay(true);
                    let shared = self.shared.clone();
                    let stop = stop_rx.clone();
                    tasks.spawn(async move { handle(shared, tcp, peer, stop).await });
                }
                Some(_) = tasks.join_next(), if !tasks.is_empty() => {}
                () = &mut shutdown => break,
            }
        }
        drop(listener);
        let _ = stop_tx.send(true);
        while tasks.join_next().await.is_some() {}
        // No connection is left to send events: let the writer finish the
        // queue and stop.
        self.shared
            .writer
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        let writer = self.writer;
        tokio::task::spawn_blocking(move || writer.join())
            .await
            .map_err(io::Error::other)?
            .map_err(|_| io::Error::other("the writer thread panicked"))?;
        Ok(())
    }
}

async fn handle(
    shared: Arc<Shared>,
    mut tcp: TcpStream,
    peer: std::net::SocketAddr,
    stop: watch::Receiver<bool>,
) {
    let Ok(Ok(Some((head, rest)))) = tokio::time::timeout(HEAD_TIMEOUT, read_head(&mut tcp)).await
    else {
        return;
    };
    let head = Head::parse(&head);
    if let Some(key) = head.websocket_key.filter(|_| head.upgrade) {
        if !shared.policy.accept_connection(peer) {
            let _ = tcp
                .write_all(
                    b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                )
                .await;
            return;
        }
        let open = shared.connections.fetch_add(1, Ordering::AcqRel);
        if open >= shared.config.limits.max_connections {
            shared.connections.fetch_sub(1, Ordering::AcqRel);
            let _ = tcp
                .write_all(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                .await;
            return;
        }
        let response = format!(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {}\r\n\r\n",
            derive_accept_key(key.as_bytes())
        );
        if tcp.write_all(response.as_bytes()).await.is_ok() {
            let limit = shared.config.limits.max_message_length;
            let ws_config = WebSocketConfig::default()
                .read_buffer_size(4096)
                .write_buffer_size(16 * 1024)
                .max_message_size(Some(limit * 2))
                .max_frame_size(Some(limit * 2));
            let ws = WebSocketStream::from_partially_read(tcp, rest, Role::Server, Some(ws_config))
                .await;
            connection(&shared, ws, head.host, stop).await;
        }
        shared.connections.fetch_sub(1, Ordering::AcqRel);
    } else if head.options {
        let _ = tcp
            .write_all(b"HTTP/1.1 204 No Content\r\nAccess-Control-Allow-Origin: *\r\nAccess-Control-Allow-Headers: *\r\nAccess-Control-Allow-Methods: GET, OPTIONS\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            .await;
    } else if head.nostr_json {
        let body = &shared.nip11;
        let response = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/nostr+json\r\nAccess-Control-Allow-Origin: *\r\nAccess-Control-Allow-Headers: *\r\nAccess-Control-Allow-Methods: GET, OPTIONS\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let _ = tcp.write_all(response.as_bytes()).await;
    } else {
        let body = "ito relay: connect with a Nostr client (WebSocket), or ask with Accept: application/nostr+json\n";
        let response = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let _ = tcp.write_all(response.as_bytes()).await;
    }
}

/// Reads up to the end of the HTTP head; returns the head and any bytes
/// read past it.
async fn read_head(tcp: &mut TcpStream) -> io::Result<Option<(Vec<u8>, Vec<u8>)>> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    loop {
        let n = tcp.read(&mut chunk).await?;
        if n == 0 {
            return Ok(None);
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let rest = buf.split_off(end + 4);
            return Ok(Some((buf, rest)));
        }
        if buf.len() > MAX_HEAD {
            return Ok(None);
        }
    }
}

#[derive(Default)]
struct Head {
    upgrade: bool,
    websocket_key: Option<String>,
    nostr_json: bool,
    options: bool,
    host: Option<String>,
}

impl Head {
    fn parse(head: &[u8]) -> Head {
        let text = String::from_utf8_lossy(head);
        let mut lines = text.split("\r\n");
        let mut out = Head {
            options: lines.next().is_some_and(|l| l.starts_with("OPTIONS ")),
            ..Head::default()
        };
        for line in lines {
            let Some((name, value)) = line.split_once(':') else {
                continue;
            };
            let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
            match name.as_str() {
                "upgrade" => out.upgrade = value.to_ascii_lowercase().contains("websocket"),
                "sec-websocket-key" => out.websocket_key = Some(value.to_owned()),
                "accept" => out.nostr_json = value.contains("application/nostr+json"),
                "host" => out.host = auth::url_host(value),
                _ => {}
            }
        }
        out
    }
}

/// One websocket connection, until it closes, misbehaves or the relay
/// stops.
async fn connection(
    shared: &Arc<Shared>,
    ws: WebSocketStream<TcpStream>,
    host: Option<String>,
    mut stop: watch::Receiver<bool>,
) {
    let id = shared.next_conn.fetch_add(1, Ordering::Relaxed);
    let (conn, mut rx) = Conn::new(id, shared.config.limits.max_outbound_bytes);
    let conn = Arc::new(conn);
    let (mut sink, mut stream) = ws.split();
    let out_conn = conn.clone();
    let writer = tokio::spawn(async move {
        while let Some(out) = rx.recv().await {
            match out {
                Out::Text(text) => {
                    let len = text.len();
                    let sent = if rx.is_empty() {
                        sink.send(Message::text(text)).await
                    } else {
                        sink.feed(Message::text(text)).await
                    };
                    out_conn.written(len);
                    if sent.is_err() {
                        break;
                    }
                }
                Out::Close(code, reason) => {
                    let frame = CloseFrame {
                        code: CloseCode::from(code),
                        reason: reason.into(),
                    };
                    let _ = sink.send(Message::Close(Some(frame))).await;
                    break;
                }
            }
        }
        let _ = sink.close().await;
    });

    let mut state = ConnState {
        subs: HashSet::new(),
        bucket: f64::from(shared.config.limits.events_per_second),
        last_refill: Instant::now(),
        challenge: shared.config.auth.then(auth::challenge),
        relay_host: shared.relay_host.clone().or(host),
    };
    if let Some(challenge) = &state.challenge {
        let mut out = Vec::new();
        RelayMessage::Auth { challenge }.write(&mut out);
        conn.send(out);
    }
    let max_in_flight = shared.config.limits.max_events_in_flight.max(1);
    let stopping = loop {
        // Backpressure: read no more while too many EVENTs are unanswered.
        if conn.in_flight.load(Ordering::Acquire) >= max_in_flight {
            tokio::select! {
                () = conn.answered.notified() => continue,
                () = conn.kill.notified() => break false,
                _ = stop.changed() => break true,
            }
        }
        tokio::select! {
            frame = stream.next() => {
                let Some(Ok(message)) = frame else { break false };
                match message {
                    Message::Text(text) => on_text(shared, &conn, &mut state, text.as_bytes()),
                    Message::Binary(_) => notice(&conn, "invalid: binary messages are not supported"),
                    Message::Close(_) => break false,
                    _ => {}
                }
            }
            () = conn.kill.notified() => break false,
            _ = stop.changed() => break true,
        }
    };
    shared.fanout.remove_conn(id, state.subs.drain());
    if stopping {
        // Answer what is in flight (each answer comes after its commit),
        // then say goodbye.
        let deadline = tokio::time::Instant::now() + DRAIN_TIMEOUT;
        while conn.in_flight.load(Ordering::Acquire) > 0 {
            let drained = conn.drained.notified();
            if conn.in_flight.load(Ordering::Acquire) == 0 {
                break;
            }
            if tokio::time::timeout_at(deadline, drained).await.is_err() {
                break;
            }
        }
        conn.close(1001, "relay shutting down");
    } else if conn.is_killed() {
        // A reader that does not read would also not read a close frame:
        // drop the socket.
        writer.abort();
        return;
    } else {
        conn.close(1000, "");
    }
    let mut writer = writer;
    if tokio::time::timeout(CLOSE_TIMEOUT, &mut writer)
        .await
        .is_err()
    {
        writer.abort();
    }
}

struct ConnState {
    subs: HashSet<String>,
    bucket: f64,
    last_refill: Instant,
    /// This connection's NIP-42 challenge (`None`: AUTH is off).
    challenge: Option<String>,
    /// The host `AUTH` events must name.
    relay_host: Option<String>,
}

impl ConnState {
    /// Takes one event from the per-second bucket.
    fn take_token(&mut self, rate: u32) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last_refill).as_secs_f64() * f64::from(rate);
        self.last_refill = now;
        self.bucket = (self.bucket + refill).min(f64::from(rate));
        if self.bucket >= 1.0 {
            self.bucket -= 1.0;
            true
        } else {
            false
        }
    }
}

fn notice(conn: &Conn, message: &str) {
    let mut out = Vec::new();
    RelayMessage::Notice { message }.write(&mut out);
    conn.send(out);
}

fn closed(conn: &Conn, sub: &str, message: &str) {
    let mut out = Vec::new();
    RelayMessage::Closed {
        subscription_id: sub,
        message,
    }
    .write(&mut out);
    conn.send(out);
}

fn on_text(shared: &Arc<Shared>, conn: &Arc<Conn>, state: &mut ConnState, text: &[u8]) {
    let limits = &shared.config.limits;
    if text.len() > limits.max_message_length {
        // Still say which message it was when that can be read.
        refuse(conn, text, "invalid: message too large");
        return;
    }
    let message = match ClientMessage::parse(text) {
        Ok(m) => m,
        Err(e) => {
            refuse(conn, text, &format!("invalid: {e}"));
            return;
        }
    };
    match message {
        ClientMessage::Event { event, raw } => {
            if !state.take_token(limits.events_per_second) {
                conn.send(ok_frame(&event.id, false, "rate-limited: slow down"));
                return;
            }
            if event.tags.len() > limits.max_event_tags {
                conn.send(ok_frame(&event.id, false, "invalid: too many tags"));
                return;
            }
            let Some(tx) = shared
                .writer
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone()
            else {
                conn.send(ok_frame(
                    &event.id,
                    false,
                    "error: the relay is shutting down",
                ));
                return;
            };
            let raw = raw.as_str().as_bytes().to_vec();
            let (conn, policy) = (conn.clone(), shared.policy.clone());
            conn.begin_event();
            rayon::spawn(move || verify_and_queue(raw, conn, tx, &*policy));
        }
        ClientMessage::Req {
            subscription_id,
            filters,
        } => {
            let sub = subscription_id.as_ref();
            let refusal = if filters.len() > limits.max_filters {
                Some("invalid: too many filters".to_owned())
            } else if !state.subs.contains(sub) && state.subs.len() >= limits.max_subscriptions {
                Some("blocked: too many open subscriptions".to_owned())
            } else if let Some(message) = shared.policy.reject_filters(&filters) {
                Some(message)
            } else if let Some(message) = needs_auth(shared, conn, &filters) {
                Some(message.to_owned())
            } else if !begin_query(conn, limits.max_queries_in_flight) {
                Some("rate-limited: too many queries in flight".to_owned())
            } else {
                None
            };
            if let Some(message) = refusal {
                // A refused REQ that names an open subscription ends it:
                // CLOSED means closed.
                if state.subs.remove(sub) {
                    shared.fanout.unsubscribe(conn.id, sub);
                }
                closed(conn, sub, &message);
                return;
            }
            state.subs.insert(sub.to_owned());
            let filters: Vec<Filter<'static>> =
                filters.into_iter().map(Filter::into_owned).collect();
            let viewer = viewer(shared, conn, &filters);
            let cancel = shared.fanout.subscribe(conn, sub, filters.clone());
            spawn_query(
                shared.clone(),
                conn.clone(),
                sub.to_owned(),
                filters,
                viewer,
                cancel,
            );
        }
        ClientMessage::Count {
            subscription_id,
            filters,
        } => {
            let sub = subscription_id.into_owned();
            if filters.len() > limits.max_filters {
                closed(conn, &sub, "invalid: too many filters");
                return;
            }
            if let Some(message) = shared.policy.reject_filters(&filters) {
                closed(conn, &sub, &message);
                return;
            }
            if let Some(message) = needs_auth(shared, conn, &filters) {
                closed(conn, &sub, message);
                return;
            }
            if !begin_query(conn, limits.max_queries_in_flight) {
                closed(conn, &sub, "rate-limited: too many queries in flight");
                return;
            }
            let viewer = viewer(shared, conn, &filters);
            let filters: Vec<Filter<'static>> =
                filters.into_iter().map(Filter::into_owned).collect();
            let (shared, conn) = (shared.clone(), conn.clone());
            tokio::spawn(async move {
                let _query = QueryGuard(conn.clone());
                let Ok(_permit) = shared.queries.acquire().await else {
                    return;
                };
                let store = shared.store.clone();
                let counted = tokio::task::spawn_blocking(move || match viewer {
                    None => store.count(&filters, writer::now()),
                    Some(keys) => count_visible(&*store, &filters, keys),
                })
                .await;
                let mut out = Vec::new();
                match counted {
                    Ok(Ok(count)) => {
                        RelayMessage::Count {
                            subscription_id: &sub,
                            count,
                            approximate: false,
                        }
                        .write(&mut out);
                        conn.send(out);
                    }
                    _ => closed(&conn, &sub, "error: the count failed"),
                }
            });
        }
        ClientMessage::Close { subscription_id } => {
            state.subs.remove(subscription_id.as_ref());
            shared.fanout.unsubscribe(conn.id, &subscription_id);
        }
        ClientMessage::Auth { event, .. } => {
            let Some(challenge) = &state.challenge else {
                conn.send(ok_frame(
                    &event.id,
                    false,
                    "restricted: AUTH is not enabled on this relay",
                ));
                return;
            };
            // Checked here, on the socket task: one signature, rare, and
            // the client's next REQ must already see the result.
            let refusal = auth::check(
                &event,
                challenge,
                state.relay_host.as_deref(),
                writer::now(),
            )
            .err()
            .or_else(|| shared.policy.on_auth(&event.pubkey));
            match refusal {
                Some(message) => conn.send(ok_frame(&event.id, false, &message)),
                None => {
                    conn.add_authed(event.pubkey);
                    conn.send(ok_frame(&event.id, true, ""))
                }
            };
        }
        _ => notice(conn, "invalid: unsupported message"),
    }
}

/// With NIP-42 on, the `CLOSED` message for filters that could return a
/// direct message to a connection that has not authenticated.
fn needs_auth(shared: &Shared, conn: &Conn, filters: &[Filter<'_>]) -> Option<&'static str> {
    (shared.config.auth
        && filters.iter().any(auth::may_return_protected)
        && conn.with_authed(|keys| keys.is_empty()))
    .then_some("auth-required: kinds 4 and 1059 are served only to their author and recipients")
}

/// The keys whose direct messages a query may return, when it must be
/// checked per event (NIP-42 on and a filter that could return one).
fn viewer(shared: &Shared, conn: &Conn, filters: &[Filter<'_>]) -> Option<Vec<[u8; 32]>> {
    (shared.config.auth && filters.iter().any(auth::may_return_protected)).then(|| conn.authed())
}

/// NIP-45 over the events `keys` may see.
fn count_visible(
    store: &dyn EventStore,
    filters: &[Filter<'_>],
    keys: Vec<[u8; 32]>,
) -> Result<u64, crate::store::StoreError> {
    struct Count {
        n: u64,
        keys: Vec<[u8; 32]>,
    }
    impl QuerySink for Count {
        fn event(&mut self, _json: &[u8]) -> bool {
            self.n += 1;
            true
        }
        fn admits(&mut self, event: &Event<'_>) -> bool {
            auth::visible_to(event, &self.keys)
        }
    }
    let unlimited: Vec<Filter<'_>> = filters
        .iter()
        .map(|f| Filter {
            limit: None,
            ..f.clone()
        })
        .collect();
    let mut count = Count { n: 0, keys };
    store.query_sink(&unlimited, u64::MAX, writer::now(), &mut count)?;
    Ok(count.n)
}

/// Answers a message that did not parse with whatever names it best: `OK`
/// for an `EVENT` whose id can be read (in any case), `CLOSED` for a
/// `REQ`/`COUNT` whose id can be read, else `NOTICE`.
fn refuse(conn: &Conn, text: &[u8], message: &str) {
    if let Ok(serde_json::Value::Array(items)) = serde_json::from_slice::<serde_json::Value>(text) {
        match (items.first().and_then(|v| v.as_str()), items.get(1)) {
            (Some("EVENT"), Some(serde_json::Value::Object(event))) => {
                let id = event
                    .get("id")
                    .and_then(|v| v.as_str())
                    .and_then(|s| ito::hex::decode_array::<32>(s.as_bytes()).ok());
                if let Some(id) = id {
                    conn.send(ok_frame(&id, false, message));
                    return;
                }
            }
            (Some("REQ" | "COUNT"), Some(serde_json::Value::String(sub))) => {
                closed(conn, sub, message);
                return;
            }
            _ => {}
        }
    }
    notice(conn, message);
}

fn verify_and_queue(raw: Vec<u8>, conn: Arc<Conn>, tx: std_mpsc::Sender<Job>, policy: &dyn Policy) {
    let event = match Event::parse(&raw) {
        Ok(e) => e,
        Err(_) => {
            conn.end_event();
            return;
        }
    };
    if !ito::nostr::verify_id(&event) {
        conn.send(ok_frame(
            &event.id,
            false,
            "invalid: event id does not match",
        ));
        conn.end_event();
        return;
    }
    if !ito::nostr::verify_signature(&event) {
        conn.send(ok_frame(&event.id, false, "invalid: bad signature"));
        conn.end_event();
        return;
    }
    if let Some(message) = policy.reject_event(&event) {
        conn.send(ok_frame(&event.id, false, &message));
        conn.end_event();
        return;
    }
    let mut json = Vec::with_capacity(raw.len());
    event.to_json(&mut json);
    let id = event.id;
    if let Err(std_mpsc::SendError(job)) = tx.send(Job {
        json,
        id,
        conn: Some(conn),
    }) {
        if let Some(conn) = job.conn {
            conn.send(ok_frame(&id, false, "error: the relay is shutting down"));
            conn.end_event();
        }
    }
}

/// Counts a query against the connection's bound; false when it is full.
fn begin_query(conn: &Conn, max: usize) -> bool {
    conn.queries
        .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
            (n < max).then_some(n + 1)
        })
        .is_ok()
}

/// Ends a query's count when dropped (also when its task is cancelled).
struct QueryGuard(Arc<Conn>);

impl Drop for QueryGuard {
    fn drop(&mut self) {
        self.0.queries.fetch_sub(1, Ordering::AcqRel);
    }
}

/// How long a query runs before it lets waiting queries have its worker.
const SLICE: Duration = Duration::from_millis(10);

/// Where a `REQ`'s stored events go: framed into the connection's queue,
/// waiting for a slow reader (up to 30 s, then the reader is dropped),
/// and giving up its worker every [`SLICE`] when other queries wait.
struct ReqSink {
    prefix: Vec<u8>,
    conn: Arc<Conn>,
    cancel: Arc<AtomicBool>,
    workers: Arc<Semaphore>,
    permit: Option<OwnedSemaphorePermit>,
    slice: Instant,
    runtime: tokio::runtime::Handle,
    /// With NIP-42 on: the keys whose direct messages this reader may see.
    viewer: Option<Vec<[u8; 32]>>,
}

impl QuerySink for ReqSink {
    fn event(&mut self, json: &[u8]) -> bool {
        let mut waited = 0;
        while self.conn.queued() > self.conn.soft_bound() {
            if self.cancel.load(Ordering::Relaxed) || self.conn.is_killed() {
                return false;
            }
            if waited > 30_000 {
                self.conn.kill();
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
            waited += 1;
        }
        !self.cancel.load(Ordering::Relaxed) && self.conn.send(fanout::frame(&self.prefix, json))
    }

    fn tick(&mut self) -> bool {
        if self.cancel.load(Ordering::Relaxed) || self.conn.is_killed() {
            return false;
        }
        if self.slice.elapsed() >= SLICE && self.workers.available_permits() == 0 {
            // The semaphore is fair: queries already waiting run first.
            self.permit = None;
            match self.runtime.block_on(self.workers.clone().acquire_owned()) {
                Ok(p) => self.permit = Some(p),
                Err(_) => return false,
            }
            self.slice = Instant::now();
        }
        true
    }

    fn admits(&mut self, event: &Event<'_>) -> bool {
        self.viewer
            .as_ref()
            .is_none_or(|keys| auth::visible_to(event, keys))
    }
}

fn spawn_query(
    shared: Arc<Shared>,
    conn: Arc<Conn>,
    sub: String,
    filters: Vec<Filter<'static>>,
    viewer: Option<Vec<[u8; 32]>>,
    cancel: Arc<AtomicBool>,
) {
    tokio::spawn(async move {
        let _query = QueryGuard(conn.clone());
        let Ok(permit) = shared.queries.clone().acquire_owned().await else {
            return;
        };
        let store = shared.store.clone();
        let fanout = shared.fanout.clone();
        let max_limit = shared.config.limits.max_limit;
        let mut sink = ReqSink {
            prefix: fanout::event_prefix(&sub),
            conn: conn.clone(),
            cancel: cancel.clone(),
            workers: shared.queries.clone(),
            permit: Some(permit),
            slice: Instant::now(),
            runtime: tokio::runtime::Handle::current(),
            viewer,
        };
        let _ = tokio::task::spawn_blocking(move || {
            sink.slice = Instant::now();
            match store.query_sink(&filters, max_limit, writer::now(), &mut sink) {
                Ok(snapshot) => {
                    let mut eose = Vec::new();
                    RelayMessage::Eose {
                        subscription_id: &sub,
                    }
                    .write(&mut eose);
                    fanout.go_live(conn.id, &sub, &cancel, snapshot, eose);
                }
                Err(_) => {
                    fanout.unsubscribe(conn.id, &sub);
                    closed(&conn, &sub, "error: the query failed");
                }
            }
            drop(sink.permit.take());
        })
        .await;
    });
}

/// The number of live filters over all connections (for tests and
/// monitoring).
impl Relay {
    /// Open filters over all connections.
    pub fn open_filters(&self) -> usize {
        self.shared.fanout.filters()
    }
}
