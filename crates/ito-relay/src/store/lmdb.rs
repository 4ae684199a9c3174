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
//!
//! The `events` table is keyed by the sequence number as a native-endian
//! integer (`MDB_INTEGERKEY`): a query looks one row up per event it
//! sends, and LMDB compares integer keys in registers where byte keys
//! cost a `memcmp` call per step of the search. The engine speaks of that
//! key as the big-endian `seq` of `keys.rs`; [`row_key`] translates.

use super::engine::{self, KeyIter, Read, Write};
use super::keys::{self, Table};
use super::{apply_batch, query, Batch, EventStore, QuerySink, StoreError};
use heed::types::Bytes;
use heed::{Database, Env, EnvOpenOptions, IntegerComparator, PutFlags, RoTxn, RwTxn, WithoutTls};
use ito::nostr::Filter;
use std::ops::Bound;
use std::path::Path;

type Db = Database<Bytes, Bytes>;
/// The `events` table: native-endian `u64` keys, compared as integers.
type Rows = Database<Bytes, Bytes, IntegerComparator>;

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
    tables: Tables,
}

/// The open tables: `events` apart (integer keys), every other table at
/// `dbs[table as usize - 1]` (`Table::Events` is the first table).
struct Tables {
    rows: Rows,
    dbs: Vec<Db>,
}

const _: () = assert!(Table::Events as usize == 0);

impl Tables {
    fn db(&self, table: Table) -> Db {
        self.dbs[table as usize - 1]
    }
}

/// The `events` key LMDB stores for the engine's big-endian `seq`.
fn row_key(key: &[u8]) -> Result<[u8; 8], StoreError> {
    match <[u8; 8]>::try_from(key) {
        Ok(be) => Ok(u64::from_be_bytes(be).to_ne_bytes()),
        Err(_) => Err(StoreError::Backend(format!(
            "an events key is 8 bytes, not {}",
            key.len()
        ))),
    }
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
        let meta = env
            .create_database::<Bytes, Bytes>(&mut wtxn, Some(Table::Meta.name()))
            .map_err(backend)?;
        // The format decides how `events` opens (its key flags), so it is
        // read first.
        let found = match meta.get(&wtxn, keys::FORMAT_KEY).map_err(backend)? {
            Some(v) if v.len() == 8 => Some(keys::be64(v)),
            Some(_) => Some(0),
            // Format 1 kept no version; it wrote the batch number.
            None if meta.get(&wtxn, keys::SEQ_KEY).map_err(backend)?.is_some() => Some(1),
            None => match env
                .open_database::<Bytes, Bytes>(&wtxn, Some(Table::Events.name()))
                .map_err(backend)?
            {
                Some(events) if !events.is_empty(&wtxn).map_err(backend)? => Some(1),
                _ => None,
            },
        };
        match found {
            Some(keys::FORMAT) | None => {}
            // Dropping the transaction leaves the database as it was.
            Some(found) => {
                return Err(StoreError::Format {
                    found,
                    expected: keys::FORMAT,
                })
            }
        }
        let rows = env
            .database_options()
            .types::<Bytes, Bytes>()
            .key_comparator::<IntegerComparator>()
            .name(Table::Events.name())
            .create(&mut wtxn)
            .map_err(backend)?;
        let mut dbs = Vec::with_capacity(Table::ALL.len() - 1);
        for t in &Table::ALL[1..] {
            dbs.push(match t {
                Table::Meta => meta,
                t => env
                    .create_database::<Bytes, Bytes>(&mut wtxn, Some(t.name()))
                    .map_err(backend)?,
            });
        }
        if found.is_some() {
            // A build of another format may have opened this database
            // and written its own rows into the same tables (a
            // rollback): the last row must be a sequence number below
            // the next one, or every append would fail.
            let next = meta.get(&wtxn, keys::NEXT_KEY).map_err(backend)?;
            let next = next.map(keys::be64).unwrap_or(0);
            if let Some((last, _)) = rows.last(&wtxn).map_err(backend)? {
                let seq = <[u8; 8]>::try_from(last).map(u64::from_ne_bytes);
                if seq.is_err() || seq.is_ok_and(|s| s >= next) {
                    return Err(StoreError::Corrupt(format!(
                        "the events table holds a row this format did not write \
                         (key of {} bytes; next sequence number {next}): was the \
                         database opened by a build of another format?",
                        last.len()
                    )));
                }
            }
        } else {
            meta.put(&mut wtxn, keys::FORMAT_KEY, &keys::FORMAT.to_be_bytes())
                .map_err(backend)?;
        }
        wtxn.commit().map_err(backend)?;
        Ok(LmdbStore {
            env,
            tables: Tables { rows, dbs },
        })
    }

    /// The number of stored events.
    pub fn len(&self) -> Result<u64, StoreError> {
        let rtxn = self.env.read_txn().map_err(backend)?;
        self.tables.rows.len(&rtxn).map_err(backend)
    }

    /// Whether no event is stored.
    pub fn is_empty(&self) -> Result<bool, StoreError> {
        Ok(self.len()? == 0)
    }
}

struct View<'a> {
    txn: RoTxn<'a, WithoutTls>,
    tables: &'a Tables,
}

struct Txn<'a, 'e> {
    txn: &'a mut RwTxn<'e>,
    tables: &'a Tables,
}

/// [`Read`] for any transaction: LMDB's reads are the same in both.
impl Tables {
    fn get<'t>(
        &self,
        txn: &'t RoTxn<'_>,
        table: Table,
        key: &[u8],
    ) -> Result<Option<&'t [u8]>, StoreError> {
        match table {
            Table::Events => self.rows.get(txn, &row_key(key)?),
            t => self.db(t).get(txn, key),
        }
        .map_err(backend)
    }

    fn seek<'t>(
        &self,
        txn: &'t RoTxn<'_>,
        table: Table,
        from: &[u8],
    ) -> Result<Option<&'t [u8]>, StoreError> {
        // `events` is read by key only (its keys are not the engine's
        // byte order).
        debug_assert!(table != Table::Events);
        self.db(table)
            .get_greater_than_or_equal_to(txn, from)
            .map(|e| e.map(|(k, _)| k))
            .map_err(backend)
    }

    fn scan<'t>(
        &self,
        txn: &'t RoTxn<'_>,
        table: Table,
        from: &[u8],
    ) -> Result<KeyIter<'t>, StoreError> {
        debug_assert!(table != Table::Events);
        let range = self
            .db(table)
            .range(txn, &(Bound::Included(from), Bound::Unbounded))
            .map_err(backend)?;
        Ok(Box::new(range.map(|e| e.map(|(k, _)| k).map_err(backend))))
    }
}

impl Read for View<'_> {
    fn get(&self, table: Table, key: &[u8]) -> Result<Option<&[u8]>, StoreError> {
        self.tables.get(&self.txn, table, key)
    }
    fn seek(&self, table: Table, from: &[u8]) -> Result<Option<&[u8]>, StoreError> {
        self.tables.seek(&self.txn, table, from)
    }
    fn scan<'s>(&'s self, table: Table, from: &[u8]) -> Result<KeyIter<'s>, StoreError> {
        self.tables.scan(&self.txn, table, from)
    }
}

impl Read for Txn<'_, '_> {
    fn get(&self, table: Table, key: &[u8]) -> Result<Option<&[u8]>, StoreError> {
        self.tables.get(self.txn, table, key)
    }
    fn seek(&self, table: Table, from: &[u8]) -> Result<Option<&[u8]>, StoreError> {
        self.tables.seek(self.txn, table, from)
    }
    fn scan<'s>(&'s self, table: Table, from: &[u8]) -> Result<KeyIter<'s>, StoreError> {
        self.tables.scan(self.txn, table, from)
    }
}

impl Write for Txn<'_, '_> {
    fn put(&mut self, table: Table, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        match table {
            Table::Events => self.tables.rows.put(self.txn, &row_key(key)?, value),
            t => self.tables.db(t).put(self.txn, key, value),
        }
        .map_err(backend)
    }
    fn append(&mut self, table: Table, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        match table {
            Table::Events => {
                self.tables
                    .rows
                    .put_with_flags(self.txn, PutFlags::APPEND, &row_key(key)?, value)
            }
            t => self
                .tables
                .db(t)
                .put_with_flags(self.txn, PutFlags::APPEND, key, value),
        }
        .map_err(backend)
    }
    fn del(&mut self, table: Table, key: &[u8]) -> Result<(), StoreError> {
        match table {
            Table::Events => self.tables.rows.delete(self.txn, &row_key(key)?),
            t => self.tables.db(t).delete(self.txn, key),
        }
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
                tables: &self.tables,
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
            tables: &self.tables,
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
                tables: &self.tables,
            },
            now,
            max,
        )?;
        wtxn.commit().map_err(backend)?;
        Ok(n)
    }
}
