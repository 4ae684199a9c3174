//! [`LmdbStore`]: the tables as LMDB databases (heed).
//!
//! LMDB has one writer and readers that never block it; pages are
//! copy-on-write, so a crash (even `kill -9`) leaves the last committed
//! state and the database opens without a repair step. A commit syncs
//! before it returns (the default flags), which is what lets the relay
//! answer `OK true` only after it.
//!
//! The map size is reserved address space, not disk: the default is
//! 64 GiB ([`DEFAULT_MAP_SIZE`]). When the map is full a write fails with an `MDB_MAP_FULL`
//! backend error and the relay answers `error:` until it is reopened with
//! a larger map.

use super::engine::{self, KeyIter, Read, Write};
use super::keys::{self, Table};
use super::{apply_batch, query, Batch, EventStore, QuerySink, StoreError};
use heed::types::Bytes;
use heed::{Database, Env, EnvOpenOptions, PutFlags, RoTxn, RwTxn, WithoutTls};
use ito::nostr::Filter;
use std::ops::Bound;
use std::path::Path;

type Db = Database<Bytes, Bytes>;

/// The default map size: 64 GiB of address space (1 GiB where pointers
/// are 32 bits).
#[cfg(target_pointer_width = "64")]
pub const DEFAULT_MAP_SIZE: usize = 64 << 30;
/// The default map size: 64 GiB of address space (1 GiB where pointers
/// are 32 bits).
#[cfg(not(target_pointer_width = "64"))]
pub const DEFAULT_MAP_SIZE: usize = 1 << 30;

/// The durable store on LMDB.
///
/// ```
/// use ito_relay::{EventStore, LmdbStore};
/// let dir = std::env::temp_dir().join(format!("ito-relay-doc-{}", std::process::id()));
/// let store = LmdbStore::open(&dir)?;
/// assert_eq!(store.count(&[ito::nostr::Filter::default()], 0)?, 0);
/// # drop(store); std::fs::remove_dir_all(&dir).ok();
/// # Ok::<(), ito_relay::StoreError>(())
/// ```
pub struct LmdbStore {
    env: Env<WithoutTls>,
    dbs: Vec<Db>,
}

impl std::fmt::Debug for LmdbStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LmdbStore")
            .field("path", &self.env.path())
            .finish()
    }
}

fn backend(e: heed::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

impl LmdbStore {
    /// Opens (creating if needed) the database in directory `dir`, with
    /// the default map size.
    pub fn open(dir: &Path) -> Result<LmdbStore, StoreError> {
        LmdbStore::open_with_map_size(dir, DEFAULT_MAP_SIZE)
    }

    /// Opens with a map size of `map_size` bytes (a multiple of the page
    /// size).
    pub fn open_with_map_size(dir: &Path, map_size: usize) -> Result<LmdbStore, StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| StoreError::Backend(e.to_string()))?;
        let mut options = EnvOpenOptions::new().read_txn_without_tls();
        options
            .map_size(map_size)
            .max_dbs(Table::ALL.len() as u32)
            .max_readers(1024);
        // SAFETY: heed requires that the same environment is not opened
        // twice in one process (LMDB's locks are per process) and that the
        // files are not truncated under it. The relay opens each database
        // directory once, and nothing else writes into it.
        let env = unsafe { options.open(dir) }.map_err(backend)?;
        let mut wtxn = env.write_txn().map_err(backend)?;
        let mut dbs = Vec::with_capacity(Table::ALL.len());
        for t in Table::ALL {
            dbs.push(
                env.create_database::<Bytes, Bytes>(&mut wtxn, Some(t.name()))
                    .map_err(backend)?,
            );
        }
        let meta = dbs[Table::Meta as usize];
        let found = match meta.get(&wtxn, keys::FORMAT_KEY).map_err(backend)? {
            Some(v) if v.len() == 8 => Some(keys::be64(v)),
            Some(_) => Some(0),
            // Format 1 kept no version; it wrote the batch number.
            None if meta.get(&wtxn, keys::SEQ_KEY).map_err(backend)?.is_some()
                || !dbs[Table::Events as usize]
                    .is_empty(&wtxn)
                    .map_err(backend)? =>
            {
                Some(1)
            }
            None => None,
        };
        match found {
            Some(keys::FORMAT) => {
                // A build of another format may have opened this database
                // and written its own rows into the same tables (a
                // rollback): the last row must be a sequence number below
                // the next one, or every append would fail.
                let next = meta.get(&wtxn, keys::NEXT_KEY).map_err(backend)?;
                let next = next.map(keys::be64).unwrap_or(0);
                if let Some((last, _)) = dbs[Table::Events as usize].last(&wtxn).map_err(backend)? {
                    if last.len() != 8 || keys::be64(last) >= next {
                        return Err(StoreError::Corrupt(format!(
                            "the events table holds a row this format did not write \
                             (key of {} bytes; next sequence number {next}): was the \
                             database opened by a build of another format?",
                            last.len()
                        )));
                    }
                }
            }
            // Dropping the transaction leaves the database as it was.
            Some(found) => {
                return Err(StoreError::Format {
                    found,
                    expected: keys::FORMAT,
                })
            }
            None => meta
                .put(&mut wtxn, keys::FORMAT_KEY, &keys::FORMAT.to_be_bytes())
                .map_err(backend)?,
        }
        wtxn.commit().map_err(backend)?;
        Ok(LmdbStore { env, dbs })
    }

    /// The number of stored events.
    pub fn len(&self) -> Result<u64, StoreError> {
        let rtxn = self.env.read_txn().map_err(backend)?;
        self.dbs[Table::Events as usize].len(&rtxn).map_err(backend)
    }

    /// Whether no event is stored.
    pub fn is_empty(&self) -> Result<bool, StoreError> {
        Ok(self.len()? == 0)
    }
}

struct View<'a> {
    txn: RoTxn<'a, WithoutTls>,
    dbs: &'a [Db],
}

struct Txn<'a, 'e> {
    txn: &'a mut RwTxn<'e>,
    dbs: &'a [Db],
}

impl Read for View<'_> {
    fn get(&self, table: Table, key: &[u8]) -> Result<Option<&[u8]>, StoreError> {
        self.dbs[table as usize]
            .get(&self.txn, key)
            .map_err(backend)
    }
    fn seek(&self, table: Table, from: &[u8]) -> Result<Option<&[u8]>, StoreError> {
        self.dbs[table as usize]
            .get_greater_than_or_equal_to(&self.txn, from)
            .map(|e| e.map(|(k, _)| k))
            .map_err(backend)
    }
    fn scan<'s>(&'s self, table: Table, from: &[u8]) -> Result<KeyIter<'s>, StoreError> {
        let range = self.dbs[table as usize]
            .range(&self.txn, &(Bound::Included(from), Bound::Unbounded))
            .map_err(backend)?;
        Ok(Box::new(range.map(|e| e.map(|(k, _)| k).map_err(backend))))
    }
}

impl Read for Txn<'_, '_> {
    fn get(&self, table: Table, key: &[u8]) -> Result<Option<&[u8]>, StoreError> {
        self.dbs[table as usize].get(self.txn, key).map_err(backend)
    }
    fn seek(&self, table: Table, from: &[u8]) -> Result<Option<&[u8]>, StoreError> {
        self.dbs[table as usize]
            .get_greater_than_or_equal_to(self.txn, from)
            .map(|e| e.map(|(k, _)| k))
            .map_err(backend)
    }
    fn scan<'s>(&'s self, table: Table, from: &[u8]) -> Result<KeyIter<'s>, StoreError> {
        let range = self.dbs[table as usize]
            .range(self.txn, &(Bound::Included(from), Bound::Unbounded))
            .map_err(backend)?;
        Ok(Box::new(range.map(|e| e.map(|(k, _)| k).map_err(backend))))
    }
}

impl Write for Txn<'_, '_> {
    fn put(&mut self, table: Table, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.dbs[table as usize]
            .put(self.txn, key, value)
            .map_err(backend)
    }
    fn append(&mut self, table: Table, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.dbs[table as usize]
            .put_with_flags(self.txn, PutFlags::APPEND, key, value)
            .map_err(backend)
    }
    fn del(&mut self, table: Table, key: &[u8]) -> Result<(), StoreError> {
        self.dbs[table as usize]
            .delete(self.txn, key)
            .map(drop)
            .map_err(backend)
    }
}

impl EventStore for LmdbStore {
    fn write_batch(&self, events: &[&[u8]], now: u64) -> Result<Batch, StoreError> {
        self.write_batch_with(events, now, &mut |_| {})
    }

    /// `applied` runs inside the write transaction, before the commit and
    /// its two syncs (data pages, then the meta page).
    fn write_batch_with(
        &self,
        events: &[&[u8]],
        now: u64,
        applied: &mut dyn FnMut(&Batch),
    ) -> Result<Batch, StoreError> {
        let mut wtxn = self.env.write_txn().map_err(backend)?;
        let batch = apply_batch(
            &mut Txn {
                txn: &mut wtxn,
                dbs: &self.dbs,
            },
            events,
            now,
        )?;
        applied(&batch);
        // An error before here drops the transaction: nothing of the
        // batch is kept.
        wtxn.commit().map_err(backend)?;
        Ok(batch)
    }

    fn query_sink(
        &self,
        filters: &[Filter<'_>],
        max_limit: u64,
        now: u64,
        sink: &mut dyn QuerySink,
    ) -> Result<u64, StoreError> {
        let view = View {
            txn: self.env.read_txn().map_err(backend)?,
            dbs: &self.dbs,
        };
        let seq = engine::seq(&view)?;
        query::run(&view, filters, max_limit, now, sink)?;
        Ok(seq)
    }

    fn purge_expired(&self, now: u64, max: usize) -> Result<usize, StoreError> {
        let mut wtxn = self.env.write_txn().map_err(backend)?;
        let n = engine::purge_expired(
            &mut Txn {
                txn: &mut wtxn,
                dbs: &self.dbs,
            },
            now,
            max,
        )?;
        wtxn.commit().map_err(backend)?;
        Ok(n)
    }
}
