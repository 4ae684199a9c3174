//! Live delivery: one [`FilterIndex`] over every open subscription of
//! every connection.
//!
//! ```text
//! publish(event, json, batch):                   (batch applied, not yet synced)
//!     remember (batch, json) until synced()
//!     numbers = index.matches(event)             (a few hash probes)
//!     for each distinct subscription owning a number:
//!         pending (its stored answer still running): keep (batch, json)
//!         live since snapshot s: send ["EVENT",sub,json] if batch > s
//! subscribe(sub):   pending; keep each remembered event it matches
//! synced():         forget the remembered events (their batch is committed)
//! go_live(sub, s):  send EOSE, then the kept events with batch > s
//! ```
//!
//! The writer publishes a batch once it is applied, before its commit and
//! sync, so live delivery does not wait for the disk. A subscription is
//! registered before its snapshot is opened, so every event published
//! after the registration reaches it; one published before the
//! registration is either remembered (its batch not yet committed, so
//! perhaps not in the snapshot) or committed, hence in the snapshot. An
//! event the snapshot already holds (batch <= s) is not sent again.
//! Ephemeral events carry batch `u64::MAX`: never in a snapshot, always
//! delivered, never remembered (a subscription opened after one was
//! published does not get it, as before the sync was overlapped). The event's
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
    /// Stored events published whose batch is not committed yet (at most
    /// one batch: there is one writer).
    unsynced: Vec<(u64, Arc<[u8]>)>,
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
        // Published before this registration, perhaps not in the snapshot
        // about to be read: kept like an event published from now on.
        let mut kept = Vec::new();
        let mut bytes = 0;
        for (batch, json) in &inner.unsynced {
            let Ok(event) = Event::parse(json) else {
                continue;
            };
            if ito::nostr::matches_any(&filters, &event) && self.visible(&event, conn) {
                bytes += json.len();
                kept.push((*batch, json.clone()));
            }
        }
        if bytes > conn.soft_bound() {
            conn.kill();
            kept.clear();
        }
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
                state: State::Pending { kept, bytes },
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

    /// Whether `conn` may receive `event` (NIP-42 on: a direct message
    /// goes only to its author and recipients).
    fn visible(&self, event: &Event<'_>, conn: &Conn) -> bool {
        !(self.protect && auth::is_protected(event.kind))
            || conn.with_authed(|keys| auth::visible_to(event, keys))
    }

    /// Delivers one accepted event of batch `batch` (`u64::MAX`:
    /// ephemeral), applied and perhaps not yet committed; a stored one is
    /// remembered until [`Fanout::synced`].
    pub(crate) fn publish(&self, event: &Event<'_>, json: &Arc<[u8]>, batch: u64) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        if batch != u64::MAX {
            inner.unsynced.push((batch, json.clone()));
        }
        inner.index.matches(event, &mut inner.hits);
        if inner.hits.is_empty() {
            return;
        }
        // A subscription's filters get consecutive numbers (inserted
        // together under this lock, never reused) and the hits come
        // ascending, so one subscription's hits are adjacent.
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
            if !self.visible(event, &s.conn) {
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

    /// The batch of every event published so far is committed (or
    /// failed): a snapshot opened from now on holds what it stored.
    pub(crate) fn synced(&self) {
        self.lock().unsynced.clear();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::Out;
    use ito::nostr::{SecretKey, UnsignedEvent};

    fn signed(kind: u16, tags: &str) -> Arc<[u8]> {
        let key = SecretKey::generate().unwrap();
        let template =
            format!(r#"{{"created_at":1700000000,"kind":{kind},"tags":{tags},"content":"hi"}}"#);
        let mut json = Vec::new();
        UnsignedEvent::parse(template.as_bytes())
            .unwrap()
            .sign(&key)
            .to_json(&mut json);
        Arc::from(json)
    }

    fn publish(fanout: &Fanout, json: &Arc<[u8]>, batch: u64) {
        fanout.publish(&Event::parse(json).unwrap(), json, batch);
    }

    /// Subscribes to kinds 1 and 4, ends the stored part at `snapshot`,
    /// and returns the frames the connection got.
    fn open(fanout: &Fanout, snapshot: u64) -> Vec<String> {
        let (conn, mut rx) = Conn::new(7, 1 << 20);
        let conn = Arc::new(conn);
        let filters = vec![Filter::parse(br#"{"kinds":[1,4]}"#).unwrap().into_owned()];
        let cancel = fanout.subscribe(&conn, "s", filters);
        fanout.go_live(
            conn.id,
            "s",
            &cancel,
            snapshot,
            b"[\"EOSE\",\"s\"]".to_vec(),
        );
        let mut frames = Vec::new();
        while let Ok(Out::Text(text)) = rx.try_recv() {
            frames.push(text);
        }
        frames
    }

    #[test]
    fn an_event_published_before_the_subscription_and_not_committed_arrives_after_eose() {
        let fanout = Fanout::new(false);
        let json = signed(1, "[]");
        publish(&fanout, &json, 5);
        // The snapshot was read before batch 5 committed.
        let frames = open(&fanout, 4);
        let event = String::from_utf8(json.to_vec()).unwrap();
        assert_eq!(
            frames,
            [
                r#"["EOSE","s"]"#.to_owned(),
                format!(r#"["EVENT","s",{event}]"#)
            ]
        );
    }

    #[test]
    fn an_event_the_snapshot_holds_is_not_sent_again() {
        let fanout = Fanout::new(false);
        publish(&fanout, &signed(1, "[]"), 5);
        assert_eq!(open(&fanout, 5), [r#"["EOSE","s"]"#]);
    }

    #[test]
    fn a_synced_batch_is_left_to_the_snapshot() {
        let fanout = Fanout::new(false);
        publish(&fanout, &signed(1, "[]"), 5);
        fanout.synced();
        assert_eq!(open(&fanout, 4), [r#"["EOSE","s"]"#]);
    }

    #[test]
    fn ephemeral_and_unmatched_events_are_not_kept_for_a_later_subscription() {
        let fanout = Fanout::new(false);
        publish(&fanout, &signed(1, "[]"), u64::MAX);
        publish(&fanout, &signed(7, "[]"), 5);
        assert_eq!(open(&fanout, 4), [r#"["EOSE","s"]"#]);
    }

    #[test]
    fn a_remembered_direct_message_goes_only_to_its_parties() {
        let fanout = Fanout::new(true);
        let other = "ab".repeat(32);
        publish(&fanout, &signed(4, &format!(r#"[["p","{other}"]]"#)), 5);
        assert_eq!(open(&fanout, 4), [r#"["EOSE","s"]"#]);
    }
}
