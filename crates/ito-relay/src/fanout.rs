//! Live delivery: one [`FilterIndex`] over every open subscription of
//! every connection.
//!
//! ```text
//! publish(event, json, batch):
//!     numbers = index.matches(event)             (a few hash probes)
//!     for each distinct subscription owning a number:
//!         pending (its stored answer still running): keep (batch, json)
//!         live since snapshot s: send ["EVENT",sub,json] if batch > s
//! go_live(sub, s):  send EOSE, then the kept events with batch > s
//! ```
//!
//! A subscription is registered before its snapshot is opened, so every
//! event committed after the snapshot reaches it; an event the snapshot
//! already holds (batch <= s) is not sent again. Ephemeral events carry
//! batch `u64::MAX`: never in a snapshot, always delivered. The event's
//! JSON is shared; each delivery copies it between the subscription's
//! precomputed `["EVENT","<id>",` and `]`, never re-serializing it.
//! With NIP-42 on, a direct message (kind 4 or 1059) skips every
//! subscription whose connection is not authenticated as its author or a
//! `p`-tagged recipient, pending or live.

use crate::auth;
use crate::conn::Conn;
use ito::nostr::{Event, Filter, FilterIndex};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

type Key = (u64, Arc<str>);

enum State {
    Pending {
        kept: Vec<(u64, Arc<[u8]>)>,
        bytes: usize,
    },
    Live {
        snapshot: u64,
    },
}

struct Sub {
    conn: Arc<Conn>,
    numbers: Vec<u32>,
    prefix: Vec<u8>,
    state: State,
    cancel: Arc<AtomicBool>,
}

#[derive(Default)]
struct Inner {
    index: FilterIndex,
    owner: HashMap<u32, Key>,
    subs: HashMap<Key, Sub>,
    hits: Vec<u32>,
}

/// The live subscriptions of all connections.
#[derive(Default)]
pub(crate) struct Fanout {
    inner: Mutex<Inner>,
    /// Whether kinds 4 and 1059 go only to their author and recipients
    /// (NIP-42 on).
    protect: bool,
}

/// `["EVENT","<sub>",`
pub(crate) fn event_prefix(sub: &str) -> Vec<u8> {
    let mut p = Vec::with_capacity(12 + sub.len());
    p.extend_from_slice(b"[\"EVENT\",\"");
    ito::nostr::escape(&mut p, sub.as_bytes());
    p.extend_from_slice(b"\",");
    p
}

pub(crate) fn frame(prefix: &[u8], json: &[u8]) -> Vec<u8> {
    let mut f = Vec::with_capacity(prefix.len() + json.len() + 1);
    f.extend_from_slice(prefix);
    f.extend_from_slice(json);
    f.push(b']');
    f
}

impl Fanout {
    /// An empty fan-out; `protect`: deliver kinds 4 and 1059 only to
    /// connections authenticated as their author or a recipient.
    pub(crate) fn new(protect: bool) -> Fanout {
        Fanout {
            inner: Mutex::default(),
            protect,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Opens (or replaces) subscription `sub` of `conn` in the pending
    /// state; returns the token that cancels it.
    pub(crate) fn subscribe(
        &self,
        conn: &Arc<Conn>,
        sub: &str,
        filters: Vec<Filter<'static>>,
    ) -> Arc<AtomicBool> {
        let mut inner = self.lock();
        let key: Key = (conn.id, Arc::from(sub));
        inner.remove(&key);
        let mut numbers = Vec::with_capacity(filters.len());
        for f in filters {
            let n = inner.index.insert(f);
            inner.owner.insert(n, key.clone());
            numbers.push(n);
        }
        let cancel = Arc::new(AtomicBool::new(false));
        inner.subs.insert(
            key,
            Sub {
                conn: conn.clone(),
                numbers,
                prefix: event_prefix(sub),
                state: State::Pending {
                    kept: Vec::new(),
                    bytes: 0,
                },
                cancel: cancel.clone(),
            },
        );
        cancel
    }

    /// Closes subscription `sub` of connection `conn`.
    pub(crate) fn unsubscribe(&self, conn: u64, sub: &str) {
        self.lock().remove(&(conn, Arc::from(sub)));
    }

    /// Closes every subscription of connection `conn`.
    pub(crate) fn remove_conn(&self, conn: u64, subs: impl Iterator<Item = String>) {
        let mut inner = self.lock();
        for sub in subs {
            inner.remove(&(conn, Arc::from(sub.as_str())));
        }
    }

    /// Ends the stored part of a subscription: sends `eose`, then what
    /// arrived meanwhile and is not in the snapshot. Does nothing if the
    /// subscription was replaced or closed (`cancel` no longer its token).
    pub(crate) fn go_live(
        &self,
        conn: u64,
        sub: &str,
        cancel: &Arc<AtomicBool>,
        snapshot: u64,
        eose: Vec<u8>,
    ) {
        let mut inner = self.lock();
        let Some(s) = inner.subs.get_mut(&(conn, Arc::from(sub))) else {
            return;
        };
        if !Arc::ptr_eq(&s.cancel, cancel) {
            return;
        }
        s.conn.send(eose);
        if let State::Pending { kept, .. } =
            std::mem::replace(&mut s.state, State::Live { snapshot })
        {
            for (batch, json) in kept {
                if batch > snapshot {
                    s.conn.send(frame(&s.prefix, &json));
                }
            }
        }
    }

    /// Delivers one accepted event committed in batch `batch`.
    pub(crate) fn publish(&self, event: &Event<'_>, json: &Arc<[u8]>, batch: u64) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        inner.index.matches(event, &mut inner.hits);
        if inner.hits.is_empty() {
            return;
        }
        // A subscription's filters get consecutive numbers (inserted
        // together under this lock, never reused) and the hits come
        // ascending, so one subscription's hits are adjacent.
        let protected = self.protect && auth::is_protected(event.kind);
        let mut last: Option<&Key> = None;
        for n in &inner.hits {
            let Some(key) = inner.owner.get(n) else {
                continue;
            };
            if last == Some(key) {
                continue;
            }
            last = Some(key);
            let Some(s) = inner.subs.get_mut(key) else {
                continue;
            };
            if protected && !s.conn.with_authed(|keys| auth::visible_to(event, keys)) {
                continue;
            }
            match &mut s.state {
                State::Pending { kept, bytes } => {
                    *bytes += json.len();
                    if *bytes > s.conn.soft_bound() {
                        // The reader is not keeping up with its own query.
                        s.conn.kill();
                    } else {
                        kept.push((batch, json.clone()));
                    }
                }
                State::Live { snapshot } => {
                    if batch > *snapshot {
                        s.conn.send(frame(&s.prefix, json));
                    }
                }
            }
        }
    }

    /// How many filters are open over all connections.
    pub(crate) fn filters(&self) -> usize {
        self.lock().index.len()
    }
}

impl Inner {
    fn remove(&mut self, key: &Key) {
        if let Some(sub) = self.subs.remove(key) {
            sub.cancel.store(true, Ordering::Relaxed);
            for n in sub.numbers {
                self.index.remove(n);
                self.owner.remove(&n);
            }
        }
    }
}
