//! [`Frozen`]: the compact read-only form of an [`Interner`].
//!
//! All strings are copied into one contiguous buffer with a `u32` (or, past
//! 4 GiB, `u64`) offset per string; lookups use one open-addressing table of
//! `hash32 << 32 | sym` words with linear probing at a load of at most 3/4.
//! The 32-bit hashes come from the interner's tables (no string is rehashed
//! unless its shard had switched to SipHash). If any probe run would exceed
//! [`MAX_CHAIN`](super::MAX_CHAIN), the table is rebuilt with keyed
//! SipHash-1-3 instead, as the interner's shards do.

use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::BuildHasher;

use super::shard::MAX_CHAIN;
use super::{Interner, Sym};

enum Offsets {
    Narrow(Box<[u32]>),
    Wide(Box<[u64]>),
}

impl Offsets {
    #[inline]
    fn get(&self, i: usize) -> usize {
        match self {
            Offsets::Narrow(v) => v[i] as usize,
            Offsets::Wide(v) => v[i] as usize,
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Offsets::Narrow(v) => v.len() * 4,
            Offsets::Wide(v) => v.len() * 8,
        }
    }
}

/// A read-only symbol table made by [`Interner::freeze`]: same symbols,
/// less memory (see the [module docs](super#memory-per-entry)), lookups
/// without any synchronisation.
///
/// ```
/// let interner = ito::Interner::new();
/// let syms: Vec<_> = ["a", "b", "c"].iter().map(|s| interner.intern(s)).collect();
/// let frozen = interner.freeze();
/// assert_eq!(frozen.len(), 3);
/// for (sym, s) in syms.iter().zip(["a", "b", "c"]) {
///     assert_eq!(frozen.get(s), Some(*sym));
///     assert_eq!(frozen.resolve(*sym), s);
/// }
/// assert_eq!(frozen.get("d"), None);
/// ```
pub struct Frozen {
    bytes: Box<[u8]>,
    /// `offsets[i]..offsets[i + 1]` are the bytes of dense index `i`.
    offsets: Offsets,
    /// Dense index of each shard's first record; `shards + 1` entries.
    shard_base: Box<[u32]>,
    shard_bits: u32,
    table: Box<[u64]>,
    seed: u64,
    sip: Option<RandomState>,
}

impl fmt::Debug for Frozen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Frozen")
            .field("len", &self.len())
            .field("memory_usage", &self.memory_usage())
            .finish()
    }
}

fn build_table(entries: &[(u32, u32)]) -> Option<Box<[u64]>> {
    let cap = (entries.len() * 4 / 3 + 1).next_power_of_two().max(8);
    let mask = cap - 1;
    let mut table = vec![0u64; cap].into_boxed_slice();
    for &(h32, raw) in entries {
        let mut i = h32 as usize & mask;
        let mut run = 0;
        while table[i] != 0 {
            i = (i + 1) & mask;
            run += 1;
            if run > MAX_CHAIN {
                return None;
            }
        }
        table[i] = (u64::from(h32) << 32) | u64::from(raw);
    }
    Some(table)
}

impl Frozen {
    pub(crate) fn from_interner(interner: &Interner) -> Frozen {
        let shards = interner.shard_slice();
        let bits = interner.shard_bits();
        let seed = interner.seed_value();
        let mut shard_base = Vec::with_capacity(shards.len() + 1);
        let mut total = 0usize;
        let mut count = 0u32;
        for shard in shards {
            shard_base.push(count);
            count += shard.len();
            for local in 0..shard.len() {
                total += shard.resolve(local).map_or(0, <[u8]>::len);
            }
        }
        shard_base.push(count);
        let mut bytes = Vec::with_capacity(total);
        let mut ends = Vec::with_capacity(count as usize + 1);
        ends.push(0usize);
        let mut entries: Vec<(u32, u32)> = Vec::with_capacity(count as usize);
        let mut scratch = Vec::new();
        for (index, shard) in shards.iter().enumerate() {
            for local in 0..shard.len() {
                bytes.extend_from_slice(shard.resolve(local).unwrap_or_default());
                ends.push(bytes.len());
            }
            scratch.clear();
            let sip = shard.entries(&mut scratch);
            for &(h32, local1) in &scratch {
                let h32 = if sip {
                    let b = shard.resolve(local1 - 1).unwrap_or_default();
                    super::shard::tag32(crate::hash::hash_bytes_with_seed(b, seed))
                } else {
                    h32
                };
                entries.push((h32, (local1 << bits) | index as u32));
            }
        }
        let offsets = if total <= u32::MAX as usize {
            Offsets::Narrow(ends.iter().map(|&e| e as u32).collect())
        } else {
            Offsets::Wide(ends.iter().map(|&e| e as u64).collect())
        };
        let mut frozen = Frozen {
            bytes: bytes.into_boxed_slice(),
            offsets,
            shard_base: shard_base.into_boxed_slice(),
            shard_bits: bits,
            table: Box::new([]),
            seed,
            sip: None,
        };
        frozen.table = match build_table(&entries) {
            Some(table) => table,
            None => {
                let key = RandomState::new();
                for e in &mut entries {
                    let sym = Sym::from_raw(e.1);
                    e.0 = key.hash_one(frozen.bytes_of(sym).unwrap_or_default()) as u32;
                }
                frozen.sip = Some(key);
                // Keyed SipHash makes a long run a ~2^-100 event; should
                // it happen anyway, probe runs are simply allowed to be long.
                build_table(&entries).unwrap_or_else(|| build_table_unbounded(&entries))
            }
        };
        frozen
    }

    #[inline]
    fn bytes_of(&self, sym: Sym) -> Option<&[u8]> {
        let raw = sym.to_u32();
        let shard = raw as usize & ((1usize << self.shard_bits) - 1);
        let local = (raw >> self.shard_bits).checked_sub(1)?;
        let dense = self.shard_base[shard].checked_add(local)?;
        if dense >= self.shard_base[shard + 1] {
            return None;
        }
        let dense = dense as usize;
        Some(&self.bytes[self.offsets.get(dense)..self.offsets.get(dense + 1)])
    }

    /// The symbol of `s`, if it was interned before freezing.
    ///
    /// ```
    /// let i = ito::Interner::new();
    /// let a = i.intern("a");
    /// let f = i.freeze();
    /// assert_eq!(f.get("a"), Some(a));
    /// assert_eq!(f.get("b"), None);
    /// ```
    #[inline]
    pub fn get(&self, s: &str) -> Option<Sym> {
        let key = s.as_bytes();
        let h32 = match &self.sip {
            None => super::shard::tag32(crate::hash::hash_bytes_with_seed(key, self.seed)),
            Some(sip) => sip.hash_one(key) as u32,
        };
        let mask = self.table.len() - 1;
        let mut i = h32 as usize & mask;
        loop {
            let x = self.table[i];
            if x == 0 {
                return None;
            }
            if (x >> 32) as u32 == h32 {
                let sym = Sym::from_raw(x as u32);
                if self
                    .bytes_of(sym)
                    .is_some_and(|b| super::shard::bytes_eq(b, key))
                {
                    return Some(sym);
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// The string of `sym`.
    ///
    /// # Panics
    /// If `sym` is not a symbol of the frozen interner.
    ///
    /// ```
    /// let i = ito::Interner::new();
    /// let a = i.intern("a");
    /// assert_eq!(i.freeze().resolve(a), "a");
    /// ```
    #[inline]
    pub fn resolve(&self, sym: Sym) -> &str {
        match self.try_resolve(sym) {
            Some(s) => s,
            None => panic!("Frozen::resolve: {sym:?} does not belong to this table"),
        }
    }

    /// The string of `sym`, or `None` if it is not a symbol of this table.
    ///
    /// ```
    /// let i = ito::Interner::new();
    /// let a = i.intern("a");
    /// let f = ito::Interner::new().freeze();
    /// assert_eq!(f.try_resolve(a), None);
    /// ```
    #[inline]
    pub fn try_resolve(&self, sym: Sym) -> Option<&str> {
        let bytes = self.bytes_of(sym)?;
        // SAFETY: the buffer holds only whole `&str`s copied from the
        // interner, and offsets fall on their boundaries.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    }

    /// Number of strings.
    ///
    /// ```
    /// assert_eq!(ito::Interner::new().freeze().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.shard_base.last().map_or(0, |&n| n as usize)
    }

    /// `true` if there are no strings.
    ///
    /// ```
    /// assert!(ito::Interner::new().freeze().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes allocated by the table.
    ///
    /// ```
    /// let i = ito::Interner::new();
    /// for n in 0..100 { i.intern(&n.to_string()); }
    /// let before = i.memory_usage();
    /// assert!(i.freeze().memory_usage() < before);
    /// ```
    pub fn memory_usage(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.bytes.len()
            + self.offsets.bytes()
            + self.shard_base.len() * 4
            + self.table.len() * 8
    }

    /// Every `(Sym, &str)` pair, in the interner's iteration order.
    ///
    /// ```
    /// let i = ito::Interner::new();
    /// i.intern("a");
    /// let f = i.freeze();
    /// assert_eq!(f.iter().map(|(_, s)| s).collect::<Vec<_>>(), ["a"]);
    /// ```
    pub fn iter(&self) -> FrozenIter<'_> {
        FrozenIter {
            frozen: self,
            shard: 0,
            dense: 0,
        }
    }
}

fn build_table_unbounded(entries: &[(u32, u32)]) -> Box<[u64]> {
    let cap = (entries.len() * 4 / 3 + 1).next_power_of_two().max(8);
    let mask = cap - 1;
    let mut table = vec![0u64; cap].into_boxed_slice();
    for &(h32, raw) in entries {
        let mut i = h32 as usize & mask;
        while table[i] != 0 {
            i = (i + 1) & mask;
        }
        table[i] = (u64::from(h32) << 32) | u64::from(raw);
    }
    table
}

/// Iterator over the `(Sym, &str)` pairs of a [`Frozen`] table.
///
/// ```
/// let f = ito::Interner::new().freeze();
/// assert_eq!(f.iter().count(), 0);
/// ```
#[derive(Clone, Debug)]
pub struct FrozenIter<'a> {
    frozen: &'a Frozen,
    shard: usize,
    dense: u32,
}

impl fmt::Debug for Offsets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Offsets")
    }
}

impl<'a> Iterator for FrozenIter<'a> {
    type Item = (Sym, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        let f = self.frozen;
        while self.shard + 1 < f.shard_base.len() {
            if self.dense < f.shard_base[self.shard + 1] {
                let local1 = self.dense - f.shard_base[self.shard] + 1;
                let sym = Sym::from_raw((local1 << f.shard_bits) | self.shard as u32);
                self.dense += 1;
                return Some((sym, f.resolve(sym)));
            }
            self.shard += 1;
        }
        None
    }
}
