//! Where events live: the [`EventStore`] trait, [`MemoryStore`] (tests and
//! embedding) and [`LmdbStore`] (the default, durable).
//!
//! Both stores are ordered key-value tables underneath (see `keys.rs` for
//! the layout); the NIP rules for writing and the query engine are written
//! once over those tables, so the two stores cannot disagree.
//!
//! How a store for a distributed database plugs in is described in the
//! crate documentation.

mod engine;
mod keys;
mod lmdb;
mod memory;
mod query;
mod sorted;

pub use lmdb::{LmdbStore, DEFAULT_MAP_SIZE};
pub use memory::MemoryStore;

use ito::nostr::{Event, Filter};
use std::fmt;

/// What became of one event given to [`EventStore::write_batch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Stored (and committed, once `write_batch` returns).
    Stored,
    /// Ephemeral: accepted for live delivery, never stored.
    Ephemeral,
    /// Already stored.
    Duplicate,
    /// A replaceable or addressable event older than the one stored at its
    /// address (or as old with a higher id): not stored.
    Superseded,
    /// Named by its author's deletion request: not stored.
    Deleted,
    /// Expired (NIP-40) on arrival: not stored.
    Expired,
    /// Not a parseable event: not stored.
    Invalid,
}

impl Outcome {
    /// The `OK` message's `accepted` flag and text (NIP-01 prefixes).
    ///
    /// ```
    /// use ito_relay::Outcome;
    /// assert_eq!(Outcome::Stored.ok_message(), (true, ""));
    /// assert!(Outcome::Deleted.ok_message().1.starts_with("blocked:"));
    /// ```
    pub fn ok_message(self) -> (bool, &'static str) {
        match self {
            Outcome::Stored | Outcome::Ephemeral => (true, ""),
            Outcome::Duplicate => (true, "duplicate: already have this event"),
            Outcome::Superseded => (false, "duplicate: a newer event is stored at this address"),
            Outcome::Deleted => (false, "blocked: this event was deleted by its author"),
            Outcome::Expired => (false, "invalid: event has expired"),
            Outcome::Invalid => (false, "invalid: not a well-formed event"),
        }
    }

    /// Whether the event goes to live subscribers.
    pub fn is_live(self) -> bool {
        matches!(self, Outcome::Stored | Outcome::Ephemeral)
    }
}

/// A store failure.
#[derive(Debug)]
#[non_exhaustive]
pub enum StoreError {
    /// The database engine failed (I/O, map full, ...).
    Backend(String),
    /// A stored row does not parse.
    Corrupt(String),
    /// An event given to `write_batch` does not parse.
    Invalid(String),
    /// The database was written in another storage format than this
    /// build reads. Its events move with `ito relay export` run by the
    /// build that wrote it, then `ito relay import` run by this one.
    ///
    /// ```
    /// let e = ito_relay::StoreError::Format { found: 1, expected: 2 };
    /// assert!(e.to_string().contains("format 1"));
    /// ```
    Format {
        /// The format the database holds.
        found: u64,
        /// The format this build reads and writes.
        expected: u64,
    },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Backend(m) => write!(f, "database: {m}"),
            StoreError::Corrupt(m) => write!(f, "corrupt stored event: {m}"),
            StoreError::Invalid(m) => write!(f, "invalid event: {m}"),
            StoreError::Format { found, expected } => write!(
                f,
                "the database is in storage format {found}, this build reads format \
                 {expected}: export its events with the ito that wrote it \
                 (`ito relay export`) and import them into a new database with \
                 this one (`ito relay import`)"
            ),
        }
    }
}

impl std::error::Error for StoreError {}

/// Where a query's events go.
///
/// Any `FnMut(&[u8]) -> bool` closure is a sink (returning `false`
/// stops the query). A sink that also wants to yield during a long scan
/// implements [`QuerySink::tick`], which the engine calls every
/// [`TICK_EVERY`] candidates it examines, matching or not.
///
/// ```
/// use ito_relay::{EventStore, MemoryStore, QuerySink};
/// struct Count(u64);
/// impl QuerySink for Count {
///     fn event(&mut self, _json: &[u8]) -> bool { self.0 += 1; true }
/// }
/// let mut count = Count(0);
/// MemoryStore::new().query_sink(&[ito::nostr::Filter::default()], 500, 0, &mut count)?;
/// assert_eq!(count.0, 0);
/// # Ok::<(), ito_relay::StoreError>(())
/// ```
pub trait QuerySink {
    /// One event's JSON; `false` stops the query.
    fn event(&mut self, json: &[u8]) -> bool;

    /// Called every [`TICK_EVERY`] candidates examined; `false` stops the
    /// query. A relay uses it to give its worker to other queries now and
    /// then (time slices).
    fn tick(&mut self) -> bool {
        true
    }

    /// Whether the reader may see `event`, one that matches the filters;
    /// `false` skips it before it counts against any `limit` (a relay
    /// hides direct messages from other parties this way, so an answer
    /// still holds `min(limit, visible matches)` events).
    fn admits(&mut self, event: &Event<'_>) -> bool {
        let _ = event;
        true
    }

    /// `true` promises that [`admits`](Self::admits) admits every event
    /// of this query, so the store may skip parsing events it can match
    /// from its indexes alone. The default, `false`, is always correct.
    ///
    /// ```
    /// use ito_relay::{EventStore, MemoryStore, QuerySink};
    /// /// Collects every stored event it is given; hides nothing.
    /// struct All(Vec<Vec<u8>>);
    /// impl QuerySink for All {
    ///     fn event(&mut self, json: &[u8]) -> bool { self.0.push(json.to_vec()); true }
    ///     fn admits_all(&self) -> bool { true }
    /// }
    /// let mut all = All(Vec::new());
    /// let filter = ito::nostr::Filter::parse(br#"{"kinds":[1]}"#)?;
    /// MemoryStore::new().query_sink(&[filter], 500, 0, &mut all)?;
    /// assert!(all.0.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn admits_all(&self) -> bool {
        false
    }
}

impl<F: FnMut(&[u8]) -> bool> QuerySink for F {
    fn event(&mut self, json: &[u8]) -> bool {
        self(json)
    }

    fn admits_all(&self) -> bool {
        true
    }
}

/// How many candidates the engine examines between two
/// [`QuerySink::tick`] calls.
pub const TICK_EVERY: u32 = 64;

/// The result of one committed batch.
#[derive(Debug)]
pub struct Batch {
    /// One outcome per event, in input order.
    pub outcomes: Vec<Outcome>,
    /// The batch number this commit got (grows by one per commit).
    pub seq: u64,
}

/// A place to keep events, with NIP-01/09/40 semantics.
///
/// ```
/// use ito_relay::{EventStore, MemoryStore, Outcome};
/// # use ito::nostr::{SecretKey, UnsignedEvent, Filter};
/// let key = SecretKey::generate()?;
/// let event = UnsignedEvent::parse(br#"{"created_at":1700000000,"kind":1,"tags":[],"content":"gm"}"#)?.sign(&key);
/// let mut json = Vec::new();
/// event.to_json(&mut json);
///
/// let store = MemoryStore::new();
/// let batch = store.write_batch(&[&json], 1_700_000_100)?;
/// assert_eq!(batch.outcomes, [Outcome::Stored]);
///
/// let mut got = Vec::new();
/// store.query(&[Filter::parse(br#"{"kinds":[1]}"#)?], 500, 1_700_000_100, &mut |e| { got.push(e.to_vec()); true })?;
/// assert_eq!(got, [json]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait EventStore: Send + Sync + 'static {
    /// Applies verified events (each its canonical JSON) in order, in one
    /// transaction, at time `now`; returns after the commit is durable.
    fn write_batch(&self, events: &[&[u8]], now: u64) -> Result<Batch, StoreError>;

    /// [`EventStore::write_batch`], calling `applied` with the batch's
    /// outcomes and number once every event is applied, before the
    /// commit is made durable where the store can (a durable store's sync
    /// takes milliseconds; the relay publishes live events from
    /// `applied`, so live delivery does not wait for the disk). `applied`
    /// must not call the store. If the commit then fails, the result is
    /// the error, as from `write_batch`. The default calls `applied` after
    /// the commit.
    ///
    /// ```
    /// use ito_relay::{EventStore, MemoryStore, Outcome};
    /// # use ito::nostr::{SecretKey, UnsignedEvent};
    /// # let key = SecretKey::generate()?;
    /// # let event = UnsignedEvent::parse(br#"{"created_at":1700000000,"kind":1,"tags":[],"content":"gm"}"#)?.sign(&key);
    /// # let mut json = Vec::new();
    /// # event.to_json(&mut json);
    /// let store = MemoryStore::new();
    /// let mut seen = None;
    /// let batch = store.write_batch_with(&[&json], 1_700_000_100, &mut |b| seen = Some(b.seq))?;
    /// assert_eq!(batch.outcomes, [Outcome::Stored]);
    /// assert_eq!(seen, Some(batch.seq));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn write_batch_with(
        &self,
        events: &[&[u8]],
        now: u64,
        applied: &mut dyn FnMut(&Batch),
    ) -> Result<Batch, StoreError> {
        let batch = self.write_batch(events, now)?;
        applied(&batch);
        Ok(batch)
    }

    /// Streams the stored events matching any filter to `sink`: newest
    /// first, ties by lowest id, `min(limit, max_limit)` per filter (a
    /// filter without `limit` gets `max_limit`), no event twice, nothing
    /// expired at `now`. `sink` returns `false` to stop. Returns the batch
    /// number the snapshot read includes.
    fn query(
        &self,
        filters: &[Filter<'_>],
        max_limit: u64,
        now: u64,
        sink: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Result<u64, StoreError> {
        self.query_sink(filters, max_limit, now, &mut |json: &[u8]| sink(json))
    }

    /// [`EventStore::query`] into a [`QuerySink`], whose
    /// [`tick`](QuerySink::tick) is called during long scans (the method a
    /// store implements).
    fn query_sink(
        &self,
        filters: &[Filter<'_>],
        max_limit: u64,
        now: u64,
        sink: &mut dyn QuerySink,
    ) -> Result<u64, StoreError>;

    /// NIP-45: how many stored events match any of the filters (each
    /// filter's `limit` ignored).
    fn count(&self, filters: &[Filter<'_>], now: u64) -> Result<u64, StoreError> {
        let unlimited: Vec<Filter<'_>> = filters
            .iter()
            .map(|f| Filter {
                limit: None,
                ..f.clone()
            })
            .collect();
        let mut n = 0;
        self.query(&unlimited, u64::MAX, now, &mut |_| {
            n += 1;
            true
        })?;
        Ok(n)
    }

    /// Removes up to `max` events expired at `now` (NIP-40); returns how
    /// many.
    fn purge_expired(&self, now: u64, max: usize) -> Result<usize, StoreError>;
}

/// Applies a batch with the shared rules; used by both stores. The rows
/// that land on random pages are written at the end, sorted (`sorted.rs`).
pub(crate) fn apply_batch<W: engine::Write>(
    w: &mut W,
    events: &[&[u8]],
    now: u64,
) -> Result<Batch, StoreError> {
    let mut outcomes = Vec::with_capacity(events.len());
    let mut sorted = sorted::Sorted::new(w);
    for json in events {
        outcomes.push(match engine::apply(&mut sorted, json, now) {
            Ok(o) => o,
            // A bad event refuses itself, not the batch.
            Err(StoreError::Invalid(_)) => Outcome::Invalid,
            Err(e) => return Err(e),
        });
    }
    sorted.flush()?;
    let seq = engine::bump_seq(w)?;
    Ok(Batch { outcomes, seq })
}
