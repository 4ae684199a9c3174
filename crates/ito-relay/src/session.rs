//! One connection's protocol, without its socket: each client message in,
//! frames out through the connection's queue ([`Conn`]). The socket task
//! in `server.rs` feeds it websocket text frames; [`Session`] feeds it
//! bytes directly, for tests and the `relay_conn` fuzz target.
//!
//! ```text
//! on_text(frame):
//!     too large / does not parse -> OK false, CLOSED or NOTICE (refuse)
//!     EVENT -> rate and tag limits -> rayon: parse, verify, policy -> writer
//!     REQ   -> limits, policy, NIP-42 -> register in the fan-out (pending)
//!              -> blocking pool: stored answer in 10 ms slices -> EOSE, live
//!     COUNT -> limits, policy, NIP-42 -> blocking pool: count in slices -> COUNT
//!     CLOSE -> unregister
//!     AUTH  -> auth::check, Policy::on_auth -> OK
//! ```
//!
//! Every `EVENT` and `AUTH` gets exactly one `OK`; every `REQ` gets `EOSE`
//! or `CLOSED` unless a later `REQ` or `CLOSE` with its id replaced it
//! first; every `COUNT` gets `COUNT` or `CLOSED`; a frame that names
//! nothing gets one `NOTICE`. The fuzz target checks these.

use crate::auth;
use crate::conn::{Conn, Frames, Out};
use crate::fanout;
use crate::policy::Policy;
use crate::server::Shared;
use crate::store::{EventStore, QuerySink};
use crate::turn::{Place, Turn};
use crate::writer::{self, ok_frame, Job};
use ito::nostr::{ClientMessage, Event, Filter, RelayMessage};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc as std_mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// What one connection's message handling remembers between messages.
pub(crate) struct ConnState {
    subs: HashSet<String>,
    bucket: f64,
    last_refill: Instant,
    /// This connection's NIP-42 challenge (`None`: AUTH is off).
    challenge: Option<String>,
    /// The host `AUTH` events must name.
    relay_host: Option<String>,
}

impl ConnState {
    /// The state of a new connection to `host` (its `Host` header), after
    /// greeting it with the NIP-42 challenge when `AUTH` is on.
    pub(crate) fn open(shared: &Shared, conn: &Conn, host: Option<String>) -> ConnState {
        let state = ConnState {
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
        state
    }

    /// Closes every subscription of the connection.
    pub(crate) fn close_all(&mut self, shared: &Shared, conn: &Conn) {
        shared.fanout.remove_conn(conn.id, self.subs.drain());
    }

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

pub(crate) fn notice(conn: &Conn, message: &str) {
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

/// Handles one client message.
pub(crate) fn on_text(shared: &Arc<Shared>, conn: &Arc<Conn>, state: &mut ConnState, text: &[u8]) {
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
            let place = Place::take(&shared.queries);
            tokio::spawn(async move {
                let _query = QueryGuard(conn.clone());
                let Some(turn) = place.turn().await else {
                    return;
                };
                let store = shared.store.clone();
                let counted =
                    tokio::task::spawn_blocking(move || count(&*store, &filters, viewer, turn))
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

/// With NIP-42 on, the `CLOSED` message for filters that ask for direct
/// messages by kind, from a connection that has not authenticated.
fn needs_auth(shared: &Shared, conn: &Conn, filters: &[Filter<'_>]) -> Option<&'static str> {
    (shared.config.auth
        && filters.iter().any(auth::asks_for_protected)
        && conn.with_authed(|keys| keys.is_empty()))
    .then_some("auth-required: kinds 4 and 1059 are served only to their author and recipients")
}

/// The keys whose direct messages a query may return, when it must be
/// checked per event (NIP-42 on and a filter that could return one).
fn viewer(shared: &Shared, conn: &Conn, filters: &[Filter<'_>]) -> Option<Vec<[u8; 32]>> {
    (shared.config.auth && filters.iter().any(auth::may_return_protected)).then(|| conn.authed())
}

/// NIP-45: the stored events matching any filter (`limit` ignored) that
/// the reader may see (`viewer`: with NIP-42 on, the keys whose direct
/// messages it may count), in time slices like a `REQ`.
fn count(
    store: &dyn EventStore,
    filters: &[Filter<'_>],
    viewer: Option<Vec<[u8; 32]>>,
    mut turn: Turn,
) -> Result<u64, crate::store::StoreError> {
    struct Count {
        n: u64,
        viewer: Option<Vec<[u8; 32]>>,
        turn: Turn,
    }
    impl QuerySink for Count {
        fn event(&mut self, _json: &[u8]) -> bool {
            self.n += 1;
            true
        }
        fn tick(&mut self) -> bool {
            self.turn.tick()
        }
        fn admits(&mut self, event: &Event<'_>) -> bool {
            self.viewer
                .as_ref()
                .is_none_or(|keys| auth::visible_to(event, keys))
        }
        fn admits_all(&self) -> bool {
            self.viewer.is_none()
        }
    }
    let unlimited: Vec<Filter<'_>> = filters
        .iter()
        .map(|f| Filter {
            limit: None,
            ..f.clone()
        })
        .collect();
    turn.start();
    let mut count = Count { n: 0, viewer, turn };
    store.query_sink(&unlimited, u64::MAX, writer::now(), &mut count)?;
    Ok(count.n)
}

/// Answers a message that did not parse with whatever names it best: `OK`
/// for an `EVENT` or `AUTH` whose id can be read (in any case), `CLOSED` for a
/// `REQ`/`COUNT` whose id can be read, else `NOTICE`.
fn refuse(conn: &Conn, text: &[u8], message: &str) {
    if let Ok(serde_json::Value::Array(items)) = serde_json::from_slice::<serde_json::Value>(text) {
        match (items.first().and_then(|v| v.as_str()), items.get(1)) {
            (Some("EVENT" | "AUTH"), Some(serde_json::Value::Object(event))) => {
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

/// Where a `REQ`'s stored events go: framed into a batch that goes to the
/// connection's queue when it reaches [`ReqSink::batch_bytes`], at a
/// [`TICK_EVERY`](crate::store::TICK_EVERY) tick once its first event has
/// waited [`MAX_BATCH_WAIT`], and at the end ([`ReqSink::flush`], before
/// `EOSE`); waiting for a slow reader (up to 30 s, then the reader is
/// dropped, its worker given back meanwhile), and giving up its worker
/// every slice when other queries wait (turn.rs).
struct ReqSink {
    prefix: Vec<u8>,
    conn: Arc<Conn>,
    cancel: Arc<AtomicBool>,
    turn: Turn,
    /// With NIP-42 on: the keys whose direct messages this reader may see.
    viewer: Option<Vec<[u8; 32]>>,
    /// Framed events not yet queued.
    batch: Frames,
    /// When the batch's first event was framed.
    batch_since: Instant,
}

/// The most a query frames before queueing the batch: a stored query's
/// answer (500 events of about 600 bytes) goes in three batches, so the
/// socket task is woken three times, not once per tick.
const MAX_BATCH: usize = 128 * 1024;

/// Room past [`ReqSink::batch_bytes`] for the event that crosses it.
const BATCH_SLACK: usize = 4096;

/// How long a framed event waits for more before a tick queues it (a
/// scan that matches little still delivers as it goes).
const MAX_BATCH_WAIT: Duration = Duration::from_millis(2);

impl ReqSink {
    /// The batch size: [`MAX_BATCH`], or a quarter of the wait threshold
    /// when the bound is small, so a batch never decides the bound alone.
    fn batch_bytes(&self) -> usize {
        MAX_BATCH.min(self.conn.soft_bound() / 4)
    }

    /// Queues the framed events; false when the connection is gone.
    fn flush(&mut self) -> bool {
        self.conn.send_frames(std::mem::take(&mut self.batch))
    }
}

impl QuerySink for ReqSink {
    fn event(&mut self, json: &[u8]) -> bool {
        if self.batch.len() >= self.batch_bytes() && !self.flush() {
            return false;
        }
        if self.batch.is_empty() {
            self.batch_since = Instant::now();
            // One allocation at the batch's full size, instead of a buffer
            // that grows (and is copied) as events are framed.
            self.batch.reserve(self.batch_bytes() + BATCH_SLACK);
        }
        let mut waited = 0;
        while self.conn.queued() > self.conn.soft_bound() {
            if self.cancel.load(Ordering::Relaxed) || self.conn.is_killed() {
                return false;
            }
            if waited > 30_000 {
                self.conn.kill();
                return false;
            }
            // A reader that does not read holds up nobody else's query.
            self.turn.pause();
            std::thread::sleep(Duration::from_millis(1));
            waited += 1;
        }
        if !self.turn.resume() || self.cancel.load(Ordering::Relaxed) {
            return false;
        }
        self.batch.push(&self.prefix, json, b"]");
        true
    }

    fn tick(&mut self) -> bool {
        if self.cancel.load(Ordering::Relaxed) {
            return false;
        }
        let due = !self.batch.is_empty() && self.batch_since.elapsed() >= MAX_BATCH_WAIT;
        if due && !self.flush() {
            return false;
        }
        // Giving the worker up for a slice (turn.rs) queues what waits
        // first: the reader is not held up by other queries.
        if self.turn.due() && !self.flush() {
            return false;
        }
        self.turn.tick()
    }

    fn admits(&mut self, event: &Event<'_>) -> bool {
        self.viewer
            .as_ref()
            .is_none_or(|keys| auth::visible_to(event, keys))
    }

    fn admits_all(&self) -> bool {
        self.viewer.is_none()
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
    let place = Place::take(&shared.queries);
    tokio::spawn(async move {
        let query = QueryGuard(conn.clone());
        let Some(turn) = place.turn().await else {
            return;
        };
        let store = shared.store.clone();
        let fanout = shared.fanout.clone();
        let max_limit = shared.config.limits.max_limit;
        let mut sink = ReqSink {
            prefix: fanout::event_prefix(&sub),
            conn: conn.clone(),
            cancel: cancel.clone(),
            turn,
            viewer,
            batch: Frames::default(),
            batch_since: Instant::now(),
        };
        // Not awaited: nothing is left to do here once the query ends, so
        // its end wakes no task (the guard ends the query's count there).
        drop(tokio::task::spawn_blocking(move || {
            let _query = query;
            sink.turn.start();
            let answered = store.query_sink(&filters, max_limit, writer::now(), &mut sink);
            // The stored events go before EOSE or CLOSED (and before the
            // live events go_live may send); a replaced REQ's are dropped.
            if !sink.cancel.load(Ordering::Relaxed) {
                sink.flush();
            }
            match answered {
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
            drop(sink);
        }));
    });
}

/// One connection driven without a socket: client messages in as bytes,
/// the relay's answers out as text frames. Tests and fuzzing use it to
/// reach the protocol without the network; its answers are those a
/// websocket client of [`Relay::serve`](crate::Relay::serve) would read.
///
/// `receive` must run inside a tokio runtime (queries run on its blocking
/// pool). Unlike the socket loop, nothing holds back a caller that sends
/// many events at once: wait for [`Session::settled`] now and then.
///
/// ```
/// use std::sync::Arc;
/// use ito_relay::{Config, MemoryStore, Relay};
/// # let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build()?;
/// # rt.block_on(async {
/// let relay = Relay::new(Arc::new(MemoryStore::new()), Config::default());
/// let mut session = relay.session(None);
/// session.receive(br#"["REQ","feed",{"kinds":[1]}]"#);
/// session.settled().await; // the stored part runs on another thread
/// assert_eq!(session.take_frames(), [r#"["EOSE","feed"]"#]);
/// session.receive(b"not json");
/// assert!(session.take_frames()[0].starts_with(r#"["NOTICE","invalid: "#));
/// # });
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Session {
    shared: Arc<Shared>,
    conn: Arc<Conn>,
    state: ConnState,
    rx: mpsc::UnboundedReceiver<Out>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("conn", &self.conn.id)
            .finish()
    }
}

impl Session {
    pub(crate) fn new(shared: Arc<Shared>, host: Option<String>) -> Session {
        let id = shared.next_conn.fetch_add(1, Ordering::Relaxed);
        let (conn, rx) = Conn::new(id, shared.config.limits.max_outbound_bytes);
        let conn = Arc::new(conn);
        let state = ConnState::open(&shared, &conn, host);
        Session {
            shared,
            conn,
            state,
            rx,
        }
    }

    /// Handles one client message, as a websocket text frame holding
    /// `text` would be.
    pub fn receive(&mut self, text: &[u8]) {
        on_text(&self.shared, &self.conn, &mut self.state, text);
    }

    /// Resolves when every `EVENT` received so far is answered and every
    /// `REQ` and `COUNT` has finished its stored part.
    pub async fn settled(&self) {
        while self.conn.in_flight.load(Ordering::Acquire) > 0
            || self.conn.queries.load(Ordering::Acquire) > 0
        {
            tokio::time::sleep(Duration::from_micros(200)).await;
        }
    }

    /// The frames queued for the client so far, oldest first.
    pub fn take_frames(&mut self) -> Vec<String> {
        let mut frames = Vec::new();
        while let Ok(out) = self.rx.try_recv() {
            match out {
                Out::Text(text) => {
                    self.conn.written(text.len());
                    frames.push(text);
                }
                Out::Frames(batch) => {
                    self.conn.written(batch.len());
                    // As the socket task does: a frame that is not UTF-8
                    // is dropped.
                    let texts = batch.iter().map(|f| String::from_utf8(f.to_vec()));
                    frames.extend(texts.filter_map(Result::ok));
                }
                Out::Close(..) => {}
            }
        }
        frames
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.state.close_all(&self.shared, &self.conn);
    }
}
