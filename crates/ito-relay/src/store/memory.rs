//! [`MemoryStore`]: the tables as `BTreeMap`s behind one lock.

use super::engine::{self, KeyIter, Read, Write};
use super::keys::Table;
use super::{apply_batch, query, Batch, EventStore, QuerySink, StoreError};
use ito::nostr::Filter;
use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::RwLock;

type Tables = [BTreeMap<Vec<u8>, Vec<u8>>; Table::ALL.len()];

/// An in-memory store with the same rules and queries as
/// [`LmdbStore`](super::LmdbStore), for tests and for relays that need no
/// durability. Writers exclude readers (one `RwLock`).
///
/// ```
/// use ito_relay::{EventStore, MemoryStore};
/// let store = MemoryStore::new();
/// assert_eq!(store.count(&[ito::nostr::Filter::default()], 0)?, 0);
/// # Ok::<(), ito_relay::StoreError>(())
/// ```
#[derive(Debug, Default)]
pub struct MemoryStore {
    tables: RwLock<Tables>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }
}

struct View<'a>(&'a Tables);
struct Txn<'a>(&'a mut Tables);

fn seek<'a>(t: &'a BTreeMap<Vec<u8>, Vec<u8>>, from: &[u8]) -> Option<(&'a [u8], &'a [u8])> {
    t.range::<[u8], _>((Bound::Included(from), Bound::Unbounded))
        .next()
        .map(|(k, v)| (k.as_slice(), v.as_slice()))
}

fn scan<'a>(t: &'a BTreeMap<Vec<u8>, Vec<u8>>, from: &[u8]) -> KeyIter<'a> {
    Box::new(
        t.range::<[u8], _>((Bound::Included(from), Bound::Unbounded))
            .map(|(k, _)| Ok(k.as_slice())),
    )
}

impl Read for View<'_> {
    fn get(&self, table: Table, key: &[u8]) -> Result<Option<&[u8]>, StoreError> {
        Ok(self.0[table as usize].get(key).map(Vec::as_slice))
    }
    fn seek(&self, table: Table, from: &[u8]) -> Result<Option<&[u8]>, StoreError> {
        Ok(seek(&self.0[table as usize], from).map(|(k, _)| k))
    }
    fn scan<'s>(&'s self, table: Table, from: &[u8]) -> Result<KeyIter<'s>, StoreError> {
        Ok(scan(&self.0[table as usize], from))
    }
}

impl Read for Txn<'_> {
    fn get(&self, table: Table, key: &[u8]) -> Result<Option<&[u8]>, StoreError> {
        Ok(self.0[table as usize].get(key).map(Vec::as_slice))
    }
    fn seek(&self, table: Table, from: &[u8]) -> Result<Option<&[u8]>, StoreError> {
        Ok(seek(&self.0[table as usize], from).map(|(k, _)| k))
    }
    fn scan<'s>(&'s self, table: Table, from: &[u8]) -> Result<KeyIter<'s>, StoreError> {
        Ok(scan(&self.0[table as usize], from))
    }
}

impl Write for Txn<'_> {
    fn put(&mut self, table: Table, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.0[table as usize].insert(key.to_vec(), value.to_vec());
        Ok(())
    }
    fn del(&mut self, table: Table, key: &[u8]) -> Result<(), StoreError> {
        self.0[table as usize].remove(key);
        Ok(())
    }
}

impl EventStore for MemoryStore {
    fn write_batch(&self, events: &[&[u8]], now: u64) -> Result<Batch, StoreError> {
        let mut tables = self.tables.write().unwrap_or_else(|e| e.into_inner());
        // All or nothing, as a transaction: work on a copy only when a
        // backend error is possible. Memory has none, so apply in place.
        apply_batch(&mut Txn(&mut tables), events, now)
    }

    fn query_sink(
        &self,
        filters: &[Filter<'_>],
        max_limit: u64,
        now: u64,
        sink: &mut dyn QuerySink,
    ) -> Result<u64, StoreError> {
        let tables = self.tables.read().unwrap_or_else(|e| e.into_inner());
        let view = View(&tables);
        let seq = engine::seq(&view)?;
        query::run(&view, filters, max_limit, now, sink)?;
        Ok(seq)
    }

    fn purge_expired(&self, now: u64, max: usize) -> Result<usize, StoreError> {
        let mut tables = self.tables.write().unwrap_or_else(|e| e.into_inner());
        engine::purge_expired(&mut Txn(&mut tables), now, max)
    }
}
