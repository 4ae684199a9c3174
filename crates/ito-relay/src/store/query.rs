//! The query engine: filters to streams of stored events, in NIP-01 order.
//!
//! ```text
//! for each filter:
//!     pick its index:  ids            -> look the ids up, sort
//!                      authors(+kinds)-> pubkey.kind or pubkey ranges
//!                      #x (fewest values) -> tag ranges
//!                      kinds          -> kind ranges
//!                      otherwise      -> the created_at index
//!     one range per value, each starting at `until` and ending at `since`
//!     load each candidate by its seq (its full id and JSON)
//!     merge the ranges by order key (a heap), drop repeats
//!     keep a candidate if Filter::matches and not expired,
//!     stop after `limit` kept (when the index range alone decides the
//!     filter, the event is not parsed: its expiration is looked up in
//!     the ids the expiry index holds as expired at the query's start)
//! merge the filters' streams by order key, drop repeats, hand each on
//! ```
//!
//! Index suffixes (`!created_at . id[..8] . seq`) sort newest first with
//! ties by lowest id prefix, so every scan is a forward seek. Candidates
//! are merged by their full order key (`!created_at . id`, read with the
//! event): a range hands the heap every key of a run that shares
//! `!created_at . id[..8]` at once, so the rare run whose seq order is not
//! its id order is still merged in NIP-01's order. Nothing else is sorted
//! in memory except an `ids` list.

use super::engine::{self, KeyIter, Read};
use super::keys::{self, Table, ORDER_LEN, SUFFIX_HEAD, SUFFIX_LEN};
use super::{QuerySink, StoreError, TICK_EVERY};
use crate::nip;
use ito::nostr::{Event, Filter};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::iter::Peekable;

type Order = [u8; ORDER_LEN];

/// Above this many author × kind pairs a filter scans by author alone.
const MAX_PAIRS: usize = 256;

/// One index range: keys `prefix . suffix` with `!created_at` from
/// `until`'s down to `since`'s, read through one cursor.
struct Range<'r> {
    table: Table,
    prefix: Vec<u8>,
    /// Where the cursor starts.
    start: Vec<u8>,
    /// The last `!created_at` accepted (from `since`).
    last_inv: u64,
    keys: Option<Peekable<KeyIter<'r>>>,
    done: bool,
}

/// A candidate: its order key and stored JSON.
type Candidate<'r> = (Order, &'r [u8]);

impl<'r> Range<'r> {
    fn new(table: Table, prefix: Vec<u8>, f: &Filter<'_>) -> Range<'r> {
        let first_inv = !f.until.unwrap_or(u64::MAX);
        let last_inv = !f.since.unwrap_or(0);
        let mut start = prefix.clone();
        start.extend_from_slice(&first_inv.to_be_bytes());
        Range {
            table,
            prefix,
            start,
            last_inv,
            keys: None,
            done: false,
        }
    }

    /// The suffix of the next key in range, without taking it.
    fn peek<R: Read>(&mut self, r: &'r R) -> Result<Option<&'r [u8]>, StoreError> {
        if self.done {
            return Ok(None);
        }
        let keys = match &mut self.keys {
            Some(keys) => keys,
            None => self
                .keys
                .insert(r.scan(self.table, &self.start)?.peekable()),
        };
        loop {
            let k = match keys.peek() {
                Some(Ok(k)) => *k,
                Some(Err(_)) => match keys.next() {
                    Some(Err(e)) => return Err(e),
                    _ => continue,
                },
                None => break,
            };
            if !k.starts_with(&self.prefix) {
                break;
            }
            let rest = &k[self.prefix.len()..];
            if rest.len() != SUFFIX_LEN {
                // Cannot happen with prefix-free keys; never misread one.
                keys.next();
                continue;
            }
            if keys::be64(rest) > self.last_inv {
                break;
            }
            return Ok(Some(rest));
        }
        self.done = true;
        self.keys = None;
        Ok(None)
    }

    /// Appends the next run of candidates (keys sharing `!created_at .
    /// id[..8]`, usually one) to `out`; appends nothing only when the
    /// range is done.
    fn next_run<R: Read>(
        &mut self,
        r: &'r R,
        out: &mut Vec<Candidate<'r>>,
    ) -> Result<(), StoreError> {
        let start = out.len();
        while out.len() == start && !self.done {
            self.read_run(r, out)?;
        }
        Ok(())
    }

    /// One run's keys, each with its stored row (a key whose row is
    /// missing, which a consistent store never has, is skipped).
    fn read_run<R: Read>(
        &mut self,
        r: &'r R,
        out: &mut Vec<Candidate<'r>>,
    ) -> Result<(), StoreError> {
        let mut head: Option<[u8; SUFFIX_HEAD]> = None;
        while let Some(rest) = self.peek(r)? {
            if head.is_some_and(|h| rest[..SUFFIX_HEAD] != h) {
                break;
            }
            if let Some(keys) = &mut self.keys {
                keys.next();
            }
            let mut h = [0u8; SUFFIX_HEAD];
            h.copy_from_slice(&rest[..SUFFIX_HEAD]);
            head = Some(h);
            if let Some((id, json)) = engine::load(r, keys::be64(&rest[SUFFIX_HEAD..]))? {
                let mut o = [0u8; ORDER_LEN];
                o[..8].copy_from_slice(&rest[..8]);
                o[8..].copy_from_slice(id);
                out.push((o, json));
            }
        }
        Ok(())
    }
}

/// Calls the sink's `tick` every `TICK_EVERY` candidates; remembers a
/// `false`.
struct Ticks<'s> {
    sink: &'s mut dyn QuerySink,
    /// The sink's [`QuerySink::admits_all`], asked once.
    admits_all: bool,
    /// [`expired_ids`] at the query's start.
    expired: Option<&'s [[u8; 32]]>,
    n: u32,
    stopped: bool,
}

impl Ticks<'_> {
    fn step(&mut self) -> bool {
        self.n += 1;
        if self.n >= TICK_EVERY {
            self.n = 0;
            if !self.stopped && !self.sink.tick() {
                self.stopped = true;
            }
        }
        !self.stopped
    }
}

/// The candidates of one filter, merged by order key, repeats dropped.
enum Candidates<'r> {
    /// Sorted descending, so `pop` gives the next.
    Ids(Vec<Candidate<'r>>),
    Ranges {
        ranges: Vec<Range<'r>>,
        heap: BinaryHeap<Reverse<(Candidate<'r>, usize)>>,
        /// How many candidates of each range the heap holds.
        held: Vec<usize>,
        started: bool,
        last: Option<Order>,
        run: Vec<Candidate<'r>>,
    },
}

impl<'r> Candidates<'r> {
    fn next<R: Read>(&mut self, r: &'r R) -> Result<Option<Candidate<'r>>, StoreError> {
        match self {
            Candidates::Ids(list) => Ok(list.pop()),
            Candidates::Ranges {
                ranges,
                heap,
                held,
                started,
                last,
                run,
            } => {
                // Every range's smallest unread candidate is in the heap:
                // a range is read again only once the heap holds none of
                // its run, and the rest of a range sorts after its run.
                let mut refill = |i: usize,
                                  ranges: &mut Vec<Range<'r>>,
                                  heap: &mut BinaryHeap<_>,
                                  held: &mut Vec<usize>|
                 -> Result<(), StoreError> {
                    ranges[i].next_run(r, run)?;
                    held[i] = run.len();
                    heap.extend(run.drain(..).map(|c| Reverse((c, i))));
                    Ok(())
                };
                if !*started {
                    *started = true;
                    held.resize(ranges.len(), 0);
                    for i in 0..ranges.len() {
                        refill(i, ranges, heap, held)?;
                    }
                }
                while let Some(Reverse((c, i))) = heap.pop() {
                    held[i] -= 1;
                    if held[i] == 0 {
                        refill(i, ranges, heap, held)?;
                    }
                    if *last == Some(c.0) {
                        continue;
                    }
                    *last = Some(c.0);
                    return Ok(Some(c));
                }
                Ok(None)
            }
        }
    }
}

/// One filter's answer, streamed.
struct FilterStream<'f, 'a, 'r> {
    filter: &'f Filter<'a>,
    candidates: Candidates<'r>,
    remaining: u64,
    /// Every candidate of the chosen ranges matches the filter: the index
    /// holds exactly the conditions it has (`since`/`until` are the
    /// ranges' ends).
    covered: bool,
}

/// Above this many expired events not yet purged, a query checks each
/// candidate's expiration by parsing it instead of by id.
const MAX_EXPIRED: usize = 4096;

/// The ids of stored events that have expired by `now` but are not purged
/// yet (the purge runs every few seconds, so usually none), sorted; `None`
/// if there are more than [`MAX_EXPIRED`].
fn expired_ids<R: Read>(r: &R, now: u64) -> Result<Option<Vec<[u8; 32]>>, StoreError> {
    let mut ids = Vec::new();
    for k in r.scan(Table::Expiry, &[0; 8])? {
        let k = k?;
        if k.len() != 16 || keys::be64(k) > now {
            break;
        }
        if ids.len() == MAX_EXPIRED {
            return Ok(None);
        }
        if let Some((id, _)) = engine::load(r, keys::be64(&k[8..]))? {
            let mut a = [0u8; 32];
            a.copy_from_slice(id);
            ids.push(a);
        }
    }
    ids.sort_unstable();
    Ok(Some(ids))
}

fn ranges<'r>(table: Table, prefixes: Vec<Vec<u8>>, f: &Filter<'_>) -> Candidates<'r> {
    Candidates::Ranges {
        ranges: prefixes
            .into_iter()
            .map(|p| Range::new(table, p, f))
            .collect(),
        heap: BinaryHeap::new(),
        held: Vec::new(),
        started: false,
        last: None,
        run: Vec::new(),
    }
}

impl<'f, 'a, 'r> FilterStream<'f, 'a, 'r> {
    fn new<R: Read>(r: &'r R, filter: &'f Filter<'a>, limit: u64) -> Result<Self, StoreError> {
        let empty = filter.ids.as_ref().is_some_and(|s| s.is_empty())
            || filter.authors.as_ref().is_some_and(|s| s.is_empty())
            || filter.kinds.as_ref().is_some_and(|s| s.is_empty())
            || filter.tags.iter().any(|t| t.values.is_empty())
            || matches!((filter.since, filter.until), (Some(s), Some(u)) if s > u);
        let remaining = if empty { 0 } else { limit };
        let no_tags = filter.tags.is_empty();
        let mut covered = false;
        let candidates = if remaining == 0 {
            Candidates::Ids(Vec::new())
        } else if let Some(ids) = &filter.ids {
            let mut list = Vec::with_capacity(ids.len());
            for id in ids.iter() {
                let Some(seq) = engine::seq_of(r, id)? else {
                    continue;
                };
                if let Some((_, json)) = engine::load(r, seq)? {
                    let event =
                        Event::parse(json).map_err(|e| StoreError::Corrupt(e.to_string()))?;
                    list.push((keys::order(event.created_at, id), json));
                }
            }
            list.sort_unstable_by_key(|c| Reverse(c.0));
            list.dedup_by(|a, b| a.0 == b.0);
            Candidates::Ids(list)
        } else if let Some(authors) = &filter.authors {
            match &filter.kinds {
                Some(kinds) if authors.len() * kinds.len() <= MAX_PAIRS => {
                    let mut prefixes = Vec::with_capacity(authors.len() * kinds.len());
                    for a in authors.iter() {
                        for k in kinds.iter() {
                            let mut p = a.to_vec();
                            p.extend_from_slice(&k.to_be_bytes());
                            prefixes.push(p);
                        }
                    }
                    covered = no_tags;
                    ranges(Table::PubKind, prefixes, filter)
                }
                _ => {
                    covered = no_tags && filter.kinds.is_none();
                    ranges(
                        Table::Pubkey,
                        authors.iter().map(|a| a.to_vec()).collect(),
                        filter,
                    )
                }
            }
        } else if let Some(cond) = filter.tags.iter().min_by_key(|t| t.values.len()) {
            // The index holds a tag's first value under its letter, in
            // full up to keys::SHORT_TEXT bytes (hashed beyond).
            covered = filter.tags.len() == 1
                && filter.kinds.is_none()
                && cond.name.is_ascii_alphabetic()
                && cond.values.iter().all(|v| v.len() <= keys::SHORT_TEXT);
            ranges(
                Table::Tag,
                cond.values
                    .iter()
                    .map(|v| keys::tag_prefix(cond.name, v.as_bytes()))
                    .collect(),
                filter,
            )
        } else if let Some(kinds) = &filter.kinds {
            covered = no_tags;
            ranges(
                Table::Kind,
                kinds.iter().map(|k| k.to_be_bytes().to_vec()).collect(),
                filter,
            )
        } else {
            covered = no_tags;
            ranges(Table::Created, vec![Vec::new()], filter)
        };
        Ok(FilterStream {
            filter,
            candidates,
            remaining,
            covered,
        })
    }

    fn next<R: Read>(
        &mut self,
        r: &'r R,
        now: u64,
        ticks: &mut Ticks<'_>,
    ) -> Result<Option<(Order, &'r [u8])>, StoreError> {
        while self.remaining > 0 {
            if !ticks.step() {
                self.remaining = 0;
                break;
            }
            let Some((o, json)) = self.candidates.next(r)? else {
                self.remaining = 0;
                break;
            };
            if self.covered && ticks.admits_all {
                if let Some(expired) = ticks.expired {
                    if expired.binary_search(&keys::order_id(&o)).is_err() {
                        self.remaining -= 1;
                        return Ok(Some((o, json)));
                    }
                    continue;
                }
            }
            let event = Event::parse(json).map_err(|e| StoreError::Corrupt(e.to_string()))?;
            if !self.filter.matches(&event)
                || nip::is_expired(&event, now)
                || !ticks.sink.admits(&event)
            {
                continue;
            }
            self.remaining -= 1;
            return Ok(Some((o, json)));
        }
        Ok(None)
    }
}

/// Streams the stored events matching any of `filters` to `sink`, newest
/// first, ties by lowest id, each filter giving at most `min(limit,
/// max_limit)` of its matches, no event twice. `sink` returns `false` to
/// stop early. Returns the number of events handed on.
pub(crate) fn run<R: Read>(
    r: &R,
    filters: &[Filter<'_>],
    max_limit: u64,
    now: u64,
    sink: &mut dyn QuerySink,
) -> Result<u64, StoreError> {
    let mut streams = Vec::with_capacity(filters.len());
    for f in filters {
        let limit = f.limit.unwrap_or(max_limit).min(max_limit);
        streams.push(FilterStream::new(r, f, limit)?);
    }
    let admits_all = sink.admits_all();
    let expired = if admits_all {
        expired_ids(r, now)?
    } else {
        None
    };
    let mut ticks = Ticks {
        sink,
        admits_all,
        expired: expired.as_deref(),
        n: 0,
        stopped: false,
    };
    let mut heads: Vec<Option<(Order, &[u8])>> = Vec::with_capacity(streams.len());
    for s in streams.iter_mut() {
        heads.push(s.next(r, now, &mut ticks)?);
    }
    let mut last: Option<Order> = None;
    let mut sent = 0;
    loop {
        let mut best: Option<usize> = None;
        for (i, h) in heads.iter().enumerate() {
            if let Some((o, _)) = h {
                if best.is_none_or(|b| heads[b].is_some_and(|(bo, _)| *o < bo)) {
                    best = Some(i);
                }
            }
        }
        let Some(i) = best else { break };
        let (o, json) = heads[i].take().expect("a head");
        heads[i] = streams[i].next(r, now, &mut ticks)?;
        if last == Some(o) {
            continue;
        }
        last = Some(o);
        sent += 1;
        if ticks.stopped || !ticks.sink.event(json) {
            break;
        }
    }
    Ok(sent)
}
