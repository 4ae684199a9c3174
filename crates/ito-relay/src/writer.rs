//! The one writer: group commit with no timer.
//!
//! ```text
//! loop:
//!     wait for one event (or the purge interval)
//!     take every event already waiting too (up to MAX_BATCH)
//!     one transaction: apply each                   (EventStore::write_batch_with)
//!         publish the accepted ones live
//!         commit, sync
//!     answer each event's OK
//! ```
//!
//! Under light load a batch is one event and waits for nobody; under heavy
//! load the events that arrive during one commit's sync form the next
//! batch, so the cost of a sync is shared by all of them. `OK true` is
//! sent only after `write_batch_with` returned, that is after the commit.
//!
//! Live delivery does not wait for the sync (a few milliseconds on a
//! shared disk, most of a small batch's time): a subscriber may see an
//! event that a crash or a failed commit then loses, whose publisher got
//! no `OK true` and will send it again. `fanout.rs` says why no
//! subscription misses an event or gets one twice around its `EOSE`.

use crate::conn::Conn;
use crate::fanout::Fanout;
use crate::store::{Batch, EventStore, Outcome};
use ito::nostr::{Event, RelayMessage};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The most events in one transaction.
pub(crate) const MAX_BATCH: usize = 4096;

/// A verified event on its way to the store.
pub(crate) struct Job {
    /// Canonical JSON.
    pub(crate) json: Vec<u8>,
    pub(crate) id: [u8; 32],
    /// Where the `OK` goes (`None`: nobody waits, as in an import).
    pub(crate) conn: Option<Arc<Conn>>,
}

pub(crate) fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

pub(crate) fn ok_frame(id: &[u8; 32], accepted: bool, message: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(100 + message.len());
    RelayMessage::Ok {
        event_id: id,
        accepted,
        message,
    }
    .write(&mut out);
    out
}

/// Runs until every sender is gone and the queue is empty.
pub(crate) fn run(
    store: Arc<dyn EventStore>,
    fanout: Arc<Fanout>,
    rx: Receiver<Job>,
    purge_every: Duration,
) {
    let mut jobs: Vec<Job> = Vec::new();
    let mut last_purge = Instant::now();
    loop {
        let wait = purge_every.saturating_sub(last_purge.elapsed());
        match rx.recv_timeout(wait) {
            Ok(job) => jobs.push(job),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
        while jobs.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(job) => jobs.push(job),
                Err(_) => break,
            }
        }
        if !jobs.is_empty() {
            commit(&*store, &fanout, &mut jobs);
        }
        if last_purge.elapsed() >= purge_every {
            // Bounded: a large backlog is purged over several rounds.
            let _ = store.purge_expired(now(), 10_000);
            last_purge = Instant::now();
        }
    }
}

fn commit(store: &dyn EventStore, fanout: &Fanout, jobs: &mut Vec<Job>) {
    let events: Vec<&[u8]> = jobs.iter().map(|j| j.json.as_slice()).collect();
    // Live delivery first (before the sync), then the OK: a client that
    // waits for its OK and then subscribes never sees the event arrive
    // live after that subscription's EOSE.
    let mut publish = |batch: &Batch| {
        for (json, &outcome) in events.iter().zip(&batch.outcomes) {
            if !outcome.is_live() {
                continue;
            }
            let seq = if outcome == Outcome::Ephemeral {
                u64::MAX
            } else {
                batch.seq
            };
            if let Ok(event) = Event::parse(json) {
                let json: Arc<[u8]> = Arc::from(*json);
                fanout.publish(&event, &json, seq);
            }
        }
    };
    let result = store.write_batch_with(&events, now(), &mut publish);
    fanout.synced();
    drop(events);
    match result {
        Ok(batch) => {
            for (job, outcome) in jobs.drain(..).zip(batch.outcomes) {
                if let Some(conn) = &job.conn {
                    let (accepted, message) = outcome.ok_message();
                    conn.send(ok_frame(&job.id, accepted, message));
                    conn.end_event();
                }
            }
        }
        Err(e) => {
            let message = format!("error: could not store the event: {e}");
            for job in jobs.drain(..) {
                if let Some(conn) = &job.conn {
                    conn.send(ok_frame(&job.id, false, &message));
                    conn.end_event();
                }
            }
        }
    }
}
