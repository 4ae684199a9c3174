//! The rows of one batch that land on random pages (`ids` and the index
//! tables) held back and written at the end of the batch, each table's
//! keys in ascending order.
//!
//! ```text
//! during the batch:  put(ids | index table) -> pending (a sorted map)
//!                    get                     -> pending, else the store
//!                    del                     -> pending and the store
//!                    seek / scan             -> both, merged
//!                    any other table         -> the store, at once
//! end of the batch:  pending, table by table, key by key -> the store
//! ```
//!
//! Each event adds a key to `ids`, `pubkey`, `pubkind` and one per tag,
//! each on a random page of its B-tree. In arrival order, every insert
//! walks the tree from the root to a cold leaf; in key order, successive
//! inserts walk the same upper pages and often the same leaf, and the
//! pages a commit writes back are dirtied in key order. What is stored
//! is the same: the engine reads its own writes through this buffer.

use super::engine::{KeyIter, Read, Write};
use super::keys::Table;
use super::StoreError;
use std::collections::BTreeMap;
use std::iter::Peekable;
use std::ops::Bound;

/// Whether `table`'s puts wait for the end of the batch: the tables whose
/// keys fall on random pages. `events` is appended in order anyway, and
/// the small tables are read back by the rules at once.
fn deferred(table: Table) -> bool {
    matches!(
        table,
        Table::Ids
            | Table::Created
            | Table::Pubkey
            | Table::Kind
            | Table::PubKind
            | Table::Tag
            | Table::Expiry
    )
}

/// A write transaction whose random-page puts wait for [`Sorted::flush`].
pub(crate) struct Sorted<'w, W> {
    inner: &'w mut W,
    pending: BTreeMap<(Table, Vec<u8>), Vec<u8>>,
}

impl<'w, W: Write> Sorted<'w, W> {
    pub(crate) fn new(inner: &'w mut W) -> Self {
        Sorted {
            inner,
            pending: BTreeMap::new(),
        }
    }

    /// Writes the pending rows, ascending by table then key.
    pub(crate) fn flush(self) -> Result<(), StoreError> {
        for ((table, key), value) in &self.pending {
            self.inner.put(*table, key, value)?;
        }
        Ok(())
    }

    /// The pending keys of `table` that are `>= from`, ascending.
    fn pending_from<'s>(&'s self, table: Table, from: &[u8]) -> impl Iterator<Item = &'s [u8]> {
        self.pending
            .range((Bound::Included((table, from.to_vec())), Bound::Unbounded))
            .take_while(move |((t, _), _)| *t == table)
            .map(|((_, k), _)| k.as_slice())
    }
}

impl<W: Write> Read for Sorted<'_, W> {
    fn get(&self, table: Table, key: &[u8]) -> Result<Option<&[u8]>, StoreError> {
        if deferred(table) {
            if let Some(v) = self.pending.get(&(table, key.to_vec())) {
                return Ok(Some(v));
            }
        }
        self.inner.get(table, key)
    }

    fn seek(&self, table: Table, from: &[u8]) -> Result<Option<&[u8]>, StoreError> {
        let stored = self.inner.seek(table, from)?;
        if !deferred(table) {
            return Ok(stored);
        }
        Ok(match (stored, self.pending_from(table, from).next()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        })
    }

    fn scan<'s>(&'s self, table: Table, from: &[u8]) -> Result<KeyIter<'s>, StoreError> {
        let stored = self.inner.scan(table, from)?;
        if !deferred(table) {
            return Ok(stored);
        }
        Ok(Box::new(Merge {
            stored: stored.peekable(),
            pending: (Box::new(self.pending_from(table, from)) as PendingIter<'s>).peekable(),
        }))
    }
}

impl<W: Write> Write for Sorted<'_, W> {
    fn put(&mut self, table: Table, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        if deferred(table) {
            self.pending.insert((table, key.to_vec()), value.to_vec());
            Ok(())
        } else {
            self.inner.put(table, key, value)
        }
    }

    fn append(&mut self, table: Table, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        if deferred(table) {
            self.put(table, key, value)
        } else {
            self.inner.append(table, key, value)
        }
    }

    fn del(&mut self, table: Table, key: &[u8]) -> Result<(), StoreError> {
        if deferred(table) {
            // A key put in this batch may also have been stored before.
            self.pending.remove(&(table, key.to_vec()));
        }
        self.inner.del(table, key)
    }
}

type PendingIter<'s> = Box<dyn Iterator<Item = &'s [u8]> + 's>;

/// Two ascending key streams as one, a key in both given once.
struct Merge<'s> {
    stored: Peekable<KeyIter<'s>>,
    pending: Peekable<PendingIter<'s>>,
}

impl<'s> Iterator for Merge<'s> {
    type Item = Result<&'s [u8], StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        let stored = match self.stored.peek() {
            Some(Ok(k)) => Some(*k),
            Some(Err(_)) => return self.stored.next(),
            None => None,
        };
        match (stored, self.pending.peek().copied()) {
            (Some(a), Some(b)) if b < a => self.pending.next().map(Ok),
            (Some(a), Some(b)) => {
                if a == b {
                    self.pending.next();
                }
                self.stored.next()
            }
            (Some(_), None) => self.stored.next(),
            (None, Some(_)) => self.pending.next().map(Ok),
            (None, None) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::keys::Table;

    /// A plain ordered store for the buffer to sit on.
    #[derive(Default)]
    struct Plain(BTreeMap<(Table, Vec<u8>), Vec<u8>>);

    impl Read for Plain {
        fn get(&self, table: Table, key: &[u8]) -> Result<Option<&[u8]>, StoreError> {
            Ok(self.0.get(&(table, key.to_vec())).map(Vec::as_slice))
        }
        fn seek(&self, table: Table, from: &[u8]) -> Result<Option<&[u8]>, StoreError> {
            self.scan(table, from)?.next().transpose()
        }
        fn scan<'s>(&'s self, table: Table, from: &[u8]) -> Result<KeyIter<'s>, StoreError> {
            Ok(Box::new(
                self.0
                    .range((Bound::Included((table, from.to_vec())), Bound::Unbounded))
                    .take_while(move |((t, _), _)| *t == table)
                    .map(|((_, k), _)| Ok(k.as_slice())),
            ))
        }
    }

    impl Write for Plain {
        fn put(&mut self, table: Table, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
            self.0.insert((table, key.to_vec()), value.to_vec());
            Ok(())
        }
        fn del(&mut self, table: Table, key: &[u8]) -> Result<(), StoreError> {
            self.0.remove(&(table, key.to_vec()));
            Ok(())
        }
    }

    fn keys<R: Read>(r: &R, table: Table) -> Vec<Vec<u8>> {
        r.scan(table, &[])
            .unwrap()
            .map(|k| k.unwrap().to_vec())
            .collect()
    }

    /// Every sequence of puts and deletes over a few keys of a deferred
    /// and a direct table reads the same through the buffer as on the
    /// store itself, before and after the flush (puts and deletes of keys
    /// stored before the batch and of keys put in it, in every order).
    #[test]
    fn reads_and_flushes_like_the_store() {
        let ops = 6u32;
        for code in 0..3u32.pow(ops) {
            for table in [Table::Tag, Table::Meta] {
                let mut model = Plain::default();
                let mut base = Plain::default();
                for k in [1u8, 3] {
                    model.put(table, &[k], &[k]).unwrap();
                    base.put(table, &[k], &[k]).unwrap();
                }
                let mut buf = Sorted::new(&mut base);
                let mut c = code;
                for step in 0..ops {
                    let key = [(step % 4) as u8];
                    match c % 3 {
                        0 => {
                            model.put(table, &key, &[9, step as u8]).unwrap();
                            buf.put(table, &key, &[9, step as u8]).unwrap();
                        }
                        1 => {
                            model.del(table, &key).unwrap();
                            buf.del(table, &key).unwrap();
                        }
                        _ => {}
                    }
                    c /= 3;
                    assert_eq!(keys(&buf, table), keys(&model, table), "code {code}");
                    for k in 0..5u8 {
                        assert_eq!(
                            buf.get(table, &[k]).unwrap(),
                            model.get(table, &[k]).unwrap()
                        );
                        assert_eq!(
                            buf.seek(table, &[k]).unwrap(),
                            model.seek(table, &[k]).unwrap()
                        );
                    }
                }
                buf.flush().unwrap();
                assert_eq!(base.0, model.0, "code {code}");
            }
        }
    }

    /// The flush writes each table's keys in ascending order.
    #[test]
    fn flushes_in_key_order() {
        struct Log(Vec<(Table, Vec<u8>)>);
        impl Read for Log {
            fn get(&self, _: Table, _: &[u8]) -> Result<Option<&[u8]>, StoreError> {
                Ok(None)
            }
            fn seek(&self, _: Table, _: &[u8]) -> Result<Option<&[u8]>, StoreError> {
                Ok(None)
            }
            fn scan<'s>(&'s self, _: Table, _: &[u8]) -> Result<KeyIter<'s>, StoreError> {
                Ok(Box::new(std::iter::empty()))
            }
        }
        impl Write for Log {
            fn put(&mut self, table: Table, key: &[u8], _: &[u8]) -> Result<(), StoreError> {
                self.0.push((table, key.to_vec()));
                Ok(())
            }
            fn del(&mut self, _: Table, _: &[u8]) -> Result<(), StoreError> {
                Ok(())
            }
        }
        let mut log = Log(Vec::new());
        let mut buf = Sorted::new(&mut log);
        for k in [7u8, 2, 9, 4] {
            buf.put(Table::Pubkey, &[k], &[]).unwrap();
            buf.put(Table::Ids, &[k], &[]).unwrap();
        }
        buf.flush().unwrap();
        let mut sorted = log.0.clone();
        sorted.sort();
        assert_eq!(log.0, sorted);
    }
}
