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
//!     each text frame -> session::on_text (the protocol, no socket)
//! ```
//!
//! WebSocket framing is tokio-tungstenite's: widely used, small, and it
//! takes over a socket whose HTTP head we already read
//! (`from_partially_read`), which is what lets NIP-11 share the port
//! without an HTTP server crate. A faster framing crate can replace it
//! behind the same queue once a measurement says it pays.

use crate::auth;
use crate::config::Config;
use crate::conn::{Conn, Frames, Out};
use crate::fanout::Fanout;
use crate::policy::{AcceptAll, Policy};
use crate::session::{self, ConnState, Session};
use crate::store::EventStore;
use crate::writer::{self, Job};
use futures_util::{SinkExt, StreamExt};
use std::future::Future;
use std::io;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Semaphore};
use tokio::task::JoinSet;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Bytes, Message, Utf8Bytes};
use tokio_tungstenite::WebSocketStream;

const MAX_HEAD: usize = 16 * 1024;
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// How long shutdown waits for in-flight events to be answered.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the last frames and the close frame may take to be written.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(5);

pub(crate) struct Shared {
    pub(crate) store: Arc<dyn EventStore>,
    pub(crate) config: Config,
    pub(crate) fanout: Arc<Fanout>,
    pub(crate) writer: Mutex<Option<std_mpsc::Sender<Job>>>,
    pub(crate) next_conn: AtomicU64,
    pub(crate) connections: AtomicUsize,
    pub(crate) queries: Arc<Semaphore>,
    pub(crate) nip11: String,
    pub(crate) policy: Arc<dyn Policy>,
    /// The host of `config.relay_url`, which `AUTH` events must name.
    pub(crate) relay_host: Option<String>,
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
        let workers = config.limits.query_workers.max(1);
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
                .write_buffer_size(64 * 1024)
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
                Out::Frames(frames) => {
                    let len = frames.len();
                    let sent = write_frames(&mut sink, frames, rx.is_empty()).await;
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

    let mut state = ConnState::open(shared, &conn, host);
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
                    Message::Text(text) => session::on_text(shared, &conn, &mut state, text.as_bytes()),
                    Message::Binary(_) => session::notice(&conn, "invalid: binary messages are not supported"),
                    Message::Close(_) => break false,
                    _ => {}
                }
            }
            () = conn.kill.notified() => break false,
            _ = stop.changed() => break true,
        }
    };
    state.close_all(shared, &conn);
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

/// Feeds a batch of text frames to the websocket, each a message that
/// shares the batch's buffer (no copy until the websocket's own output
/// buffer), and flushes after the last when `flush`. A frame that is not
/// UTF-8, which would be a bug, is dropped like in [`Conn::send`].
async fn write_frames<S>(sink: &mut S, frames: Frames, flush: bool) -> Result<(), S::Error>
where
    S: futures_util::Sink<Message> + Unpin,
{
    let (text, ends) = frames.into_parts();
    let text = Bytes::from(text);
    let mut start = 0;
    for end in ends {
        if let Ok(frame) = Utf8Bytes::try_from(text.slice(start..end)) {
            sink.feed(Message::Text(frame)).await?;
        }
        start = end;
    }
    if flush {
        sink.flush().await?;
    }
    Ok(())
}

/// The number of live filters over all connections (for tests and
/// monitoring).
impl Relay {
    /// A connection without a socket (see [`Session`]); `host` stands for
    /// the `Host` header a websocket client would send.
    pub fn session(&self, host: Option<&str>) -> Session {
        Session::new(self.shared.clone(), host.and_then(auth::url_host))
    }

    /// Open filters over all connections.
    pub fn open_filters(&self) -> usize {
        self.shared.fanout.filters()
    }
}
