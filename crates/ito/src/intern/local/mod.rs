//! [`LocalInterner`]: a single-threaded interner (`&mut self` to insert)
//! with the same guarantees as [`Interner`](super::Interner), built for
//! speed and a small footprint.
//!
//! ## How it works
//! ```text
//! h      = XXH3-64(bytes, seed) as u32   // every byte; the Str cached hash is reused
//! entry  = entries[sym - 1] = { offset: u32, hash: u32 }   // 8 bytes
//! table  = ctrl: [u8; cap + 16]   0 = empty, 0x80 | h >> 25 = full (7-bit tag)
//!          slots: [u32; cap]      index into `entries`
//! probe  : pos = h & (cap - 1); load 16 ctrl bytes (SSE2, or SWAR elsewhere),
//!          for each tag match: entry.hash == h, then the stored length, then bytes;
//!          a group with an empty byte ends the search; else pos += 16·i (triangular)
//! grow   : at 7/8 load allocate the 2× table (zeroed: 0 = empty) and keep the
//!          old one; every later insert moves 16 old slots by their STORED hash
//!          (no string is read); lookups try the new table, then the old one;
//!          the drained table is then given back 16 KiB per insert (its
//!          pages discarded in place, the emptied buffer freed with the
//!          interner; shrunk in place where pages cannot be discarded),
//!          since freeing megabytes at once is itself a pause; and
//!          in the last 1/32 before a resize the 2x table is zeroed a step
//!          per insert, so the resize does not zero megabytes at once
//! attack : an insert probing more than MAX_PROBE_GROUPS groups switches the
//!          table to SipHash-1-3 with random keys (std RandomState) and
//!          rehashes every entry once (this reads the strings; only under attack)
//! bytes  : strings < 4 KiB behind their length (1 byte under 128 bytes,
//!          else 2); longer ones in their own Box<str>, offset = 1 << 31 | index
//! layout : entries and short strings in two contiguous arrays in reserved
//!          address space (4 GiB + 2 GiB, committed as they fill; offset =
//!          byte position), moved there once the interner outgrows 4 KiB of
//!          strings or 1,024 entries; before that, or where address space
//!          cannot be reserved, in 1,024-entry segments and 4/8/16 KiB
//!          chunks that never move (offset = chunk << 14 | position); the
//!          arrays are reserved, committed and first written a step per
//!          insert before the move, so the move only copies
//! ```
//! A hit is: hash → one 16-byte control group → slot → entry → length
//! and byte compare (the length sits in front of the bytes, on their line;
//! short strings are compared with two overlapping word loads, no `memcmp`
//! call). Neither layout ever moves a string or an entry once written
//! (the move to the reserved layout copies at most 12 KiB, once), so no
//! insert copies earlier data; the extra work of one insert is at most 16
//! migrated slots or 64 KiB of a drained table released. The reserved
//! layout saves a hit the segment and chunk pointer loads (8–12 % of a hit,
//! `intern_local` bench); how it reserves, commits and recycles pages is
//! in `region.rs`, the two layouts in `store.rs`.
//!
//! ## Memory per entry
//! 8 bytes of entry, a 1-byte length prefix (2 bytes from 128 bytes up), 5
//! bytes of table per slot at 7/16–7/8 load (plus the old table while it
//! is being drained), the string bytes, and the unwritten rest of the last
//! page of each reserved array (or, segmented, the chunk slack).
//! Keeping the length in the chunk instead of the entry (12 bytes until
//! 2026-11-22) saved 1.4–3 B per entry at the same hit speed (within
//! noise). Measured with a counting allocator by the `intern_local` bench,
//! bytes per entry beyond the string bytes:
//!
//! (the reserved layout's pages are mapped, not allocated: its column is
//! [`LocalInterner::memory_usage`], written pages plus the table):
//!
//! | strings | `LocalInterner` | segmented | string-interner | lasso `Rodeo` | `Interner` |
//! |---|---|---|---|---|---|
//! | 6,000 identifiers (12.5 B) | 16.2 | 18.3 | 21.0 | 32.6 | 45.8 |
//! | 2,130 twitter words (35.5 B) | 20.3 | 22.3 | 51.0 | 57.9 | 53.9 |
//! | 100,000 identifiers | 15.6 | 15.7 | 17.7 | 31.4 | 38.9 |
//! | 1,000,000 identifiers | 19.5 | 19.6 | 27.9 | 41.0 | 34.6 |
//!
//! (At 1,000,000 the numbers depend on where the last resize stands: while
//! a table is being drained both are allocated.)
//!
//! ## Worst case
//! Growth never reads a string and never copies or zeroes a table in one
//! go, but an insert can still fault in fresh pages, and the allocator does
//! the rest. The `intern_local` bench times 2,000,000 distinct inserts one
//! at a time, three runs with the same seed, and keeps each insert's
//! fastest time (a stall the table causes recurs in every run; a host stall
//! does not): the slowest insert is then 6.0–7.8 µs, p99.99 1.5–2.0 µs,
//! where string-interner and lasso take 157–589 ms for the insert that
//! rehashes every string. (The raw maximum of one run is the shared VM's:
//! a timed no-op stalls for 19–138 µs there.)
//!
//! Where system calls and page faults are dear (a Zen 3 VM, 2026-11-27:
//! 3–7 µs per `mmap`, `mprotect` or first write to a page), the same
//! figure taken over five fresh processes was 45–58 µs, from two kinds of
//! insert: the move to the reserved layout (two reservations, two commits
//! and three page faults in one insert) and the first `realloc` shrink of
//! each drained table (28–49 µs). Now each insert does at most one of
//! those steps, and drained tables give their pages back in place
//! (`region.rs`): 16.7–20.3 µs in portable and native builds, with the
//! same mean insert time (250–290 ns before and after) and 0.1 B more per
//! entry at 2,000,000 keys; a timed no-op reads 0.2–0.3 µs in the same
//! runs.
//!
//! ## What is not here, and why
//! * No removal: symbols are dense indices into the entry array, and the
//!   entry array is what makes resolve O(1) and growth hash-only.
//! * Not `Sync`-shareable for writes: use [`Interner`](super::Interner)
//!   for a table several threads insert into.
//! * Small strings share a 2 GiB offset space (in either layout), and the
//!   reserved layout has room for 2^29 entries (more than 2 GiB of
//!   distinct short strings can make); past them `try_intern` reports
//!   [`InternError::TooManyStrings`].
//! * Reserving is address space, not memory: each interner past its
//!   first 1,024 entries maps 6 GiB of it. A dropped interner's arrays go
//!   to a per-thread cache (4 arrays, each keeping at most 1 MiB of
//!   written pages) for the next interner on that thread, as an allocator
//!   keeps freed memory: a fresh page costs ~1.4 µs to fault in on a VM.
//!
//! ```
//! use ito::intern::LocalInterner;
//! let mut interner = LocalInterner::new();
//! let words: Vec<_> = "a rose is a rose".split(' ').map(|w| interner.intern(w)).collect();
//! assert_eq!(words[1], words[4]);
//! assert_eq!(interner.resolve(words[2]), "is");
//! assert_eq!(words[0].to_u32(), 1); // dense from 1
//! ```

use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::BuildHasher;
use std::ops::Index;

use super::{InternError, Sym};

/// Probe groups (of 16 slots) an insert may visit before the table
/// switches to keyed SipHash-1-3. With a random seed a probe of more than a
/// handful of groups at 7/8 load is vanishingly rare.
///
/// ```
/// assert_eq!(ito::intern::LOCAL_MAX_PROBE_GROUPS, 32);
/// ```
pub const LOCAL_MAX_PROBE_GROUPS: usize = 32;

/// Old-table slots moved to the new table per insert while resizing.
const MIGRATE_PER_INSERT: usize = 16;
/// Control bytes and slots of the next (2x) table zeroed per insert once
/// the current one is nearly full (see `prepare_step`).
const PREPARE_CTRL: usize = 256;
const PREPARE_SLOTS: usize = 256;
/// Bytes of a drained table released per insert (see `release_step`).
const RELEASE_STEP: usize = 16 * 1024;
/// Smallest table (one group).
const MIN_CAP: usize = 16;
/// Strings of at least this many bytes get their own allocation (just
/// under 4 KiB, so that any smaller one plus its length prefix fits the
/// first chunk).
const LARGE: usize = 4096 - 2;
/// Offset bits inside a chunk: chunks hold at most 16 KiB (small, so the
/// unused tail of the newest chunk stays small for small interners).
const CHUNK_BITS: u32 = 14;
/// Largest chunk.
const MAX_CHUNK: usize = 1 << CHUNK_BITS;
/// First chunk (must hold any string shorter than `LARGE`, prefixed).
const FIRST_CHUNK: usize = 4096;
const _: () = assert!(entry::prefix_len(LARGE - 1) + LARGE - 1 <= FIRST_CHUNK);
/// Entries per segment of the entry array.
const SEG_BITS: u32 = 10;
const SEG: usize = 1 << SEG_BITS;

mod entry;
mod region;
mod store;
mod table;

use crate::simd::group::WIDTH;
use entry::{same_bytes, Entry};
use store::Store;
use table::{tag_of, Table};

/// Configures a [`LocalInterner`]: initial capacity, byte cap and (for
/// tests) the hash seed. The same knobs as [`Builder`](super::Builder),
/// minus the shard count.
///
/// ```
/// let mut interner = ito::intern::LocalBuilder::new()
///     .capacity(1000)
///     .max_bytes(1 << 20)
///     .build();
/// assert!(interner.try_intern("x").is_ok());
/// ```
#[derive(Clone, Debug, Default)]
pub struct LocalBuilder {
    capacity: usize,
    max_bytes: Option<usize>,
    seed: Option<u64>,
    segmented: bool,
}

impl LocalBuilder {
    /// Defaults: no reserved capacity, no byte cap, the per-process random
    /// seed.
    ///
    /// ```
    /// assert!(ito::intern::LocalBuilder::new().build().is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Pre-size the table and the entry array for about `capacity`
    /// strings (no resize until then).
    ///
    /// ```
    /// let interner = ito::intern::LocalBuilder::new().capacity(10_000).build();
    /// assert!(interner.memory_usage() > 10_000);
    /// ```
    pub fn capacity(mut self, capacity: usize) -> Self {
        self.capacity = capacity;
        self
    }

    /// Cap the interner's memory at about `max_bytes`:
    /// [`LocalInterner::try_intern`] fails once a new string would not fit
    /// (checked against [`LocalInterner::memory_usage`] before each insert).
    ///
    /// ```
    /// let mut interner = ito::intern::LocalBuilder::new().max_bytes(64 * 1024).build();
    /// assert!(interner.try_intern(&"x".repeat(100_000)).is_err());
    /// assert!(interner.try_intern("small").is_ok());
    /// ```
    pub fn max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = Some(max_bytes);
        self
    }

    /// Use a fixed hash seed instead of the per-process random one.
    ///
    /// Only for tests and reproducible experiments: with a known seed an
    /// attacker can build colliding keys (the table still bounds the damage
    /// by switching to keyed SipHash, at the cost of one full rehash).
    ///
    /// ```
    /// let mut a = ito::intern::LocalBuilder::new().seed(7).build();
    /// let mut b = ito::intern::LocalBuilder::new().seed(7).build();
    /// assert_eq!(a.intern("k"), b.intern("k"));
    /// ```
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }

    /// Whether to move entries and strings into reserved address space
    /// once the interner outgrows its first 4 KiB of strings or 1,024
    /// entries (default `true`). There, both are contiguous arrays that
    /// never move, so a lookup makes two fewer dependent loads and growth
    /// still copies nothing; the interner reserves 6 GiB of address space
    /// (no memory: pages are committed as they fill). With `false`, or
    /// where the platform cannot reserve (32-bit targets, an address-space
    /// limit), entries and strings stay in segments that never move.
    /// [`LocalDiagnostics::reserved`] tells which layout is in use.
    ///
    /// ```
    /// let mut interner = ito::intern::LocalBuilder::new()
    ///     .reserve_address_space(false)
    ///     .build();
    /// for i in 0..5_000 {
    ///     interner.intern(&i.to_string());
    /// }
    /// assert!(!interner.diagnostics().reserved);
    /// ```
    pub fn reserve_address_space(mut self, reserve: bool) -> Self {
        self.segmented = !reserve;
        self
    }

    /// Build the interner.
    ///
    /// ```
    /// assert_eq!(ito::intern::LocalBuilder::new().build().len(), 0);
    /// ```
    pub fn build(self) -> LocalInterner {
        let cap = (self.capacity.saturating_mul(8) / 7 + 1)
            .max(MIN_CAP)
            .next_power_of_two();
        LocalInterner {
            table: Table::new(cap),
            old: None,
            migrated: 0,
            retired_ctrl: Vec::new(),
            retired_slots: Vec::new(),
            retired_kept: 0,
            emptied: Vec::new(),
            next_ctrl: Vec::new(),
            next_slots: Vec::new(),
            store: Store::new(self.capacity, !self.segmented),
            len: 0,
            seed: self.seed.unwrap_or_else(crate::hash::seed),
            strong: None,
            max_bytes: self.max_bytes,
            longest_probe: 0,
            probe_groups: 0,
        }
    }
}

/// Table statistics of a [`LocalInterner`], from
/// [`LocalInterner::diagnostics`].
///
/// ```
/// let mut interner = ito::intern::LocalInterner::new();
/// for i in 0..1000 {
///     interner.intern(&format!("k{i}"));
/// }
/// let d = interner.diagnostics();
/// assert!(d.longest_probe <= ito::intern::LOCAL_MAX_PROBE_GROUPS);
/// assert!(!d.strong_hash);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct LocalDiagnostics {
    /// Most 16-slot groups any insert visited.
    pub longest_probe: usize,
    /// Groups visited by all inserts (a measure of probe work).
    pub probe_groups: u64,
    /// Whether the table switched to SipHash-1-3 after an overlong probe.
    pub strong_hash: bool,
    /// Slots in the current table.
    pub capacity: usize,
    /// Whether an old table is still being drained into the current one.
    pub migrating: bool,
    /// Whether entries and strings live in reserved address space (see
    /// [`LocalBuilder::reserve_address_space`]).
    pub reserved: bool,
}

/// A single-threaded string interner: each distinct string gets one
/// [`Sym`], dense from 1 in insertion order.
///
/// Inserting takes `&mut self`; the interner is `Send`, so it can move
/// between threads. For a table shared by threads use
/// [`Interner`](super::Interner).
///
/// ```
/// use ito::intern::LocalInterner;
///
/// let mut interner = LocalInterner::new();
/// let a = interner.intern("alpha");
/// assert_eq!(interner.intern("alpha"), a);
/// assert_eq!(interner.resolve(a), "alpha");
/// assert_eq!(&interner[a], "alpha");
/// assert_eq!(interner.get("beta"), None); // `get` never inserts
/// assert_eq!(interner.len(), 1);
/// ```
pub struct LocalInterner {
    table: Table,
    /// The table being drained during an incremental resize.
    old: Option<Table>,
    /// Slots of `old` already moved.
    migrated: usize,
    /// A drained table's memory, given back `RELEASE_STEP` bytes per
    /// insert: freeing a multi-MiB table at once returns every page to the
    /// OS in one call (about 60 µs per MiB measured here), a pause of its
    /// own.
    retired_ctrl: Vec<u8>,
    retired_slots: Vec<u32>,
    /// Elements of the retired buffer being released not yet given back
    /// (see `region::release_step`).
    retired_kept: usize,
    /// Retired buffers whose pages were discarded in place (where the OS
    /// can): freed with the interner, as freeing them during growth is
    /// itself a pause (the allocator unmaps or trims megabytes at once).
    /// They hold address space, and at most their partial end pages.
    emptied: Vec<Emptied>,
    /// The next table, zeroed a step per insert in the last 1/32 before a
    /// resize, so the resize itself neither zeroes megabytes (`calloc` from
    /// a reused heap block must) nor faults in all its pages at once.
    next_ctrl: Vec<u8>,
    next_slots: Vec<u32>,
    /// Entries and string bytes (flat or segmented, see `store`).
    store: Store,
    len: usize,
    seed: u64,
    /// Keys of the SipHash fallback, once switched.
    strong: Option<RandomState>,
    max_bytes: Option<usize>,
    longest_probe: usize,
    probe_groups: u64,
}

impl Default for LocalInterner {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for LocalInterner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LocalInterner")
            .field("len", &self.len)
            .field("capacity", &self.table.cap())
            .field("memory_usage", &self.memory_usage())
            .field("strong_hash", &self.strong.is_some())
            .finish()
    }
}

/// A retired table buffer whose whole pages were discarded in place: held,
/// never read, freed with the interner.
enum Emptied {
    Ctrl(#[allow(dead_code)] Vec<u8>),
    Slots(#[allow(dead_code)] Vec<u32>),
}

impl Emptied {
    /// An upper bound of the memory it still holds: its partial first and
    /// last pages.
    fn held(&self) -> usize {
        let bytes = match self {
            Emptied::Ctrl(v) => v.capacity(),
            Emptied::Slots(v) => v.capacity() * 4,
        };
        bytes.min(2 * 4096)
    }
}

/// Outcome of a probe: the symbol index, or where to insert.
enum Probe {
    Found(u32),
    /// Empty slot in the current table, and groups visited there.
    Vacant(usize, usize),
}

impl LocalInterner {
    /// An empty interner with default settings (allocates nothing but the
    /// smallest table).
    ///
    /// ```
    /// let interner = ito::intern::LocalInterner::new();
    /// assert!(interner.is_empty());
    /// ```
    pub fn new() -> Self {
        LocalBuilder::new().build()
    }

    /// An empty interner sized for about `capacity` strings.
    ///
    /// ```
    /// let mut interner = ito::intern::LocalInterner::with_capacity(100);
    /// interner.intern("x");
    /// assert_eq!(interner.diagnostics().capacity, 128);
    /// ```
    pub fn with_capacity(capacity: usize) -> Self {
        LocalBuilder::new().capacity(capacity).build()
    }

    /// A [`LocalBuilder`] to set capacity, byte cap or seed.
    ///
    /// ```
    /// let interner = ito::intern::LocalInterner::builder().max_bytes(1 << 16).build();
    /// assert!(interner.is_empty());
    /// ```
    pub fn builder() -> LocalBuilder {
        LocalBuilder::new()
    }

    #[inline(always)]
    fn hash(&self, bytes: &[u8]) -> u32 {
        match &self.strong {
            None => crate::hash::hash_bytes_with_seed(bytes, self.seed) as u32,
            Some(keys) => keys.hash_one(bytes) as u32,
        }
    }

    #[inline(always)]
    fn entry(&self, idx: u32) -> &Entry {
        self.store.entry(idx)
    }

    #[inline(always)]
    fn bytes_of(&self, e: &Entry) -> &str {
        self.store.bytes_of(e)
    }

    /// Search one table for `s` (hash `h`).
    #[inline(always)]
    fn find_in(&self, t: &Table, h: u32, s: &str) -> Result<u32, (usize, usize)> {
        let tag = tag_of(h);
        let mut pos = h as usize & t.mask;
        let mut stride = 0;
        let mut groups = 1;
        loop {
            let g = t.group(pos);
            for bit in g.match_tag(tag) {
                let slot = (pos + bit) & t.mask;
                // SAFETY: slot <= mask < slots.len().
                let idx = unsafe { *t.slots.get_unchecked(slot) };
                // SAFETY: a full slot holds the index of a pushed entry
                // (`set` runs after `push_entry`), and entries are never
                // removed.
                let e = unsafe { self.store.entry_unchecked(idx) };
                if e.hash == h && {
                    let stored = self.bytes_of(e).as_bytes();
                    // `s` first: its length, known before any load, picks
                    // the comparison's length class.
                    stored.len() == s.len() && same_bytes(s.as_bytes(), stored)
                } {
                    return Ok(idx);
                }
            }
            let empty = g.match_empty();
            if empty.any() {
                return Err(((pos + empty.lowest()) & t.mask, groups));
            }
            stride += WIDTH;
            pos = (pos + stride) & t.mask;
            groups += 1;
        }
    }

    #[inline(always)]
    fn probe(&self, h: u32, s: &str) -> Probe {
        match self.find_in(&self.table, h, s) {
            Ok(idx) => Probe::Found(idx),
            Err((slot, groups)) => {
                if let Some(old) = &self.old {
                    if let Ok(idx) = self.find_in(old, h, s) {
                        return Probe::Found(idx);
                    }
                }
                Probe::Vacant(slot, groups)
            }
        }
    }

    /// Intern `s`: its symbol, inserting it if new.
    ///
    /// # Panics
    /// If the byte cap ([`LocalBuilder::max_bytes`]) or the symbol space is
    /// exhausted; [`try_intern`](Self::try_intern) returns an error instead.
    ///
    /// ```
    /// let mut interner = ito::intern::LocalInterner::new();
    /// let a = interner.intern("a");
    /// let b = interner.intern("b");
    /// assert_eq!((a.to_u32(), b.to_u32()), (1, 2));
    /// assert_eq!(interner.intern("a"), a);
    /// ```
    #[inline(always)]
    pub fn intern(&mut self, s: &str) -> Sym {
        match self.try_intern(s) {
            Ok(sym) => sym,
            Err(e) => panic!("LocalInterner::intern: {e}"),
        }
    }

    /// Like [`intern`](Self::intern), but returns an error instead of
    /// panicking when the byte cap or the symbol space is exhausted.
    /// Strings already interned are always found.
    ///
    /// ```
    /// use ito::intern::{InternError, LocalInterner};
    /// let mut interner = LocalInterner::builder().max_bytes(32 * 1024).build();
    /// let err = interner.try_intern(&"y".repeat(40_000)).unwrap_err();
    /// assert!(matches!(err, InternError::CapacityExceeded { .. }));
    /// ```
    #[inline(always)]
    pub fn try_intern(&mut self, s: &str) -> Result<Sym, InternError> {
        let h = self.hash(s.as_bytes());
        self.intern_hashed(h, s)
    }

    /// Intern a [`Str`](crate::Str), reusing its cached
    /// [`content_hash`](crate::Str::content_hash) instead of hashing the
    /// bytes again (unless this interner has a custom seed or switched to
    /// SipHash: then the bytes are hashed as for [`intern`](Self::intern)).
    ///
    /// # Panics
    /// As [`intern`](Self::intern).
    ///
    /// ```
    /// let mut interner = ito::intern::LocalInterner::new();
    /// let s = ito::Str::from("a string long enough to live on the heap");
    /// let sym = interner.intern_str(&s);
    /// assert_eq!(interner.intern(s.as_str()), sym);
    /// ```
    #[inline]
    pub fn intern_str(&mut self, s: &crate::Str) -> Sym {
        match self.try_intern_str(s) {
            Ok(sym) => sym,
            Err(e) => panic!("LocalInterner::intern_str: {e}"),
        }
    }

    /// Like [`intern_str`](Self::intern_str), returning an error instead of
    /// panicking.
    ///
    /// ```
    /// let mut interner = ito::intern::LocalInterner::new();
    /// let s = ito::Str::from("x");
    /// assert_eq!(interner.try_intern_str(&s).unwrap(), interner.intern("x"));
    /// ```
    #[inline]
    pub fn try_intern_str(&mut self, s: &crate::Str) -> Result<Sym, InternError> {
        let h = self.hash_str(s);
        self.intern_hashed(h, s.as_str())
    }

    #[inline(always)]
    fn hash_str(&self, s: &crate::Str) -> u32 {
        if self.strong.is_none() && self.seed == crate::hash::seed() {
            s.content_hash() as u32
        } else {
            self.hash(s.as_bytes())
        }
    }

    /// The symbol of a [`Str`](crate::Str) if interned, reusing its cached
    /// hash; never inserts.
    ///
    /// ```
    /// let mut interner = ito::intern::LocalInterner::new();
    /// let s = ito::Str::from("k");
    /// assert_eq!(interner.get_str(&s), None);
    /// let sym = interner.intern("k");
    /// assert_eq!(interner.get_str(&s), Some(sym));
    /// ```
    #[inline]
    pub fn get_str(&self, s: &crate::Str) -> Option<Sym> {
        match self.probe(self.hash_str(s), s.as_str()) {
            Probe::Found(idx) => Some(Sym::from_raw(idx + 1)),
            Probe::Vacant(..) => None,
        }
    }

    #[inline(always)]
    fn intern_hashed(&mut self, h: u32, s: &str) -> Result<Sym, InternError> {
        match self.probe(h, s) {
            Probe::Found(idx) => Ok(Sym::from_raw(idx + 1)),
            Probe::Vacant(slot, groups) => self.insert(h, s, slot, groups),
        }
    }

    #[cold]
    #[inline(never)]
    fn insert(
        &mut self,
        h: u32,
        s: &str,
        mut slot: usize,
        groups: usize,
    ) -> Result<Sym, InternError> {
        if let Some(limit) = self.max_bytes {
            let used = self.memory_usage();
            let needed = s.len();
            if used.saturating_add(needed) > limit {
                return Err(InternError::CapacityExceeded {
                    limit,
                    used,
                    needed,
                });
            }
        }
        if self.len >= u32::MAX as usize - 1 || s.len() > u32::MAX as usize {
            return Err(InternError::TooManyStrings);
        }
        let offset = self.store.store(s)?;
        let idx = self.len as u32;
        self.store.push(Entry { offset, hash: h })?;

        let mut h = h;
        let mut groups = groups;
        if groups > LOCAL_MAX_PROBE_GROUPS && self.strong.is_none() {
            // Flooded: switch to keyed SipHash and rebuild (reads every
            // string once; never happens with an unknown seed).
            self.switch_to_strong();
            h = self.entry(idx).hash;
            (slot, groups) = self.table.find_empty(h);
        }
        self.longest_probe = self.longest_probe.max(groups);
        self.probe_groups += groups as u64;

        if self.table.growth_left == 0 {
            // Start an incremental resize (finishing any previous one, which
            // the sizing below makes impossible in practice).
            self.finish_migration();
            let new = self.take_prepared();
            self.old = Some(std::mem::replace(&mut self.table, new));
            self.migrated = 0;
            slot = self.table.find_empty(h).0;
        }
        self.table.set(slot, tag_of(h), idx);
        self.len += 1;
        if self.old.is_some() {
            self.migrate(MIGRATE_PER_INSERT);
        } else if self.retired_ctrl.capacity() > 0 {
            self.release_step();
        } else if self.table.growth_left <= self.table.cap() / 32 {
            self.prepare_step();
        }
        Ok(Sym::from_raw(idx + 1))
    }

    /// Move up to `n` slots of the old table into the current one, by
    /// stored hash.
    fn migrate(&mut self, n: usize) {
        let Some(old) = self.old.take() else { return };
        let end = (self.migrated + n).min(old.cap());
        let mut i = self.migrated;
        while i < end {
            // One group at a time (the last may read into the mirror, which
            // is masked off by `end`).
            let full = old.group(i).match_full();
            for bit in full {
                let j = i + bit;
                if j >= end {
                    break;
                }
                let idx = old.slots[j];
                let h = self.entry(idx).hash;
                let (slot, _) = self.table.find_empty(h);
                self.table.set(slot, tag_of(h), idx);
            }
            i += WIDTH;
        }
        self.migrated = end;
        if end < old.cap() {
            self.old = Some(old);
        } else {
            // Drained: release its memory a step at a time from now on.
            self.retired_ctrl = old.ctrl.into_vec();
            self.retired_slots = old.slots.into_vec();
            self.retired_kept = self.retired_slots.capacity();
        }
    }

    /// Zero the next step of the 2x table (plain `Vec` pushes of zeros into
    /// reserved capacity: no reallocation, pages faulted in gradually).
    fn prepare_step(&mut self) {
        let cap2 = self.table.cap() * 2;
        // One allocation per insert (each may be an `mmap`).
        if self.next_ctrl.capacity() != cap2 + WIDTH {
            self.next_ctrl = Vec::with_capacity(cap2 + WIDTH);
            return;
        }
        if self.next_slots.capacity() != cap2 {
            self.next_slots = Vec::with_capacity(cap2);
            return;
        }
        let n = (self.next_ctrl.len() + PREPARE_CTRL).min(cap2 + WIDTH);
        self.next_ctrl.resize(n, 0);
        let n = (self.next_slots.len() + PREPARE_SLOTS).min(cap2);
        self.next_slots.resize(n, 0);
    }

    /// The 2x table, from the prepared buffers (finishing them if needed).
    fn take_prepared(&mut self) -> Table {
        let cap2 = self.table.cap() * 2;
        if self.next_slots.capacity() != cap2 || self.next_ctrl.capacity() != cap2 + WIDTH {
            self.next_ctrl = Vec::new();
            self.next_slots = Vec::new();
            return Table::new(cap2);
        }
        let mut ctrl = std::mem::take(&mut self.next_ctrl);
        let mut slots = std::mem::take(&mut self.next_slots);
        // Only if the table filled faster than it was prepared (never with
        // the step sizes above).
        ctrl.resize(cap2 + WIDTH, 0);
        slots.resize(cap2, 0);
        Table {
            // Length == capacity, so these conversions do not reallocate.
            ctrl: ctrl.into_boxed_slice(),
            slots: slots.into_boxed_slice(),
            mask: cap2 - 1,
            items: 0,
            growth_left: cap2 / 8 * 7,
        }
    }

    /// Give back up to `RELEASE_STEP` bytes of the retired table, slots
    /// first (see `region::release_step`: whole pages discarded in place,
    /// the emptied buffer kept until the interner is dropped; or a shrink
    /// in place where pages cannot be discarded).
    #[inline]
    fn release_step(&mut self) {
        if self.retired_slots.capacity() > 0 {
            if !region::release_step(
                &mut self.retired_slots,
                &mut self.retired_kept,
                RELEASE_STEP,
            ) {
                let slots = std::mem::take(&mut self.retired_slots);
                if slots.capacity() > 0 {
                    self.emptied.push(Emptied::Slots(slots));
                }
                self.retired_kept = self.retired_ctrl.capacity();
            }
        } else if self.retired_ctrl.capacity() > 0
            && !region::release_step(&mut self.retired_ctrl, &mut self.retired_kept, RELEASE_STEP)
        {
            let ctrl = std::mem::take(&mut self.retired_ctrl);
            if ctrl.capacity() > 0 {
                self.emptied.push(Emptied::Ctrl(ctrl));
            }
        }
    }

    fn finish_migration(&mut self) {
        if let Some(old) = &self.old {
            let rest = old.cap() - self.migrated;
            self.migrate(rest);
        }
    }

    /// Rehash every entry with fresh SipHash-1-3 keys and rebuild the table
    /// in one go (reads every string: only ever after an overlong probe).
    /// Entry `self.len` (just pushed, not yet in a table) gets its new hash
    /// too; `insert` places it.
    #[cold]
    fn switch_to_strong(&mut self) {
        let keys = RandomState::new();
        self.old = None;
        self.migrated = 0;
        let mut table = Table::new(self.table.cap());
        for idx in 0..=self.len as u32 {
            let e = *self.entry(idx);
            let h = keys.hash_one(self.bytes_of(&e).as_bytes()) as u32;
            self.store.entry_mut(idx).hash = h;
            if (idx as usize) < self.len {
                let (slot, _) = table.find_empty(h);
                table.set(slot, tag_of(h), idx);
            }
        }
        self.table = table;
        self.strong = Some(keys);
    }

    /// The symbol of `s` if it was interned; never inserts (safe for
    /// untrusted input).
    ///
    /// ```
    /// let mut interner = ito::intern::LocalInterner::new();
    /// assert_eq!(interner.get("k"), None);
    /// let k = interner.intern("k");
    /// assert_eq!(interner.get("k"), Some(k));
    /// assert_eq!(interner.len(), 1);
    /// ```
    #[inline(always)]
    pub fn get(&self, s: &str) -> Option<Sym> {
        match self.probe(self.hash(s.as_bytes()), s) {
            Probe::Found(idx) => Some(Sym::from_raw(idx + 1)),
            Probe::Vacant(..) => None,
        }
    }

    /// The string of `sym`, in O(1).
    ///
    /// # Panics
    /// If `sym` was not produced by this interner (see
    /// [`try_resolve`](Self::try_resolve)).
    ///
    /// ```
    /// let mut interner = ito::intern::LocalInterner::new();
    /// let s = interner.intern("hello");
    /// assert_eq!(interner.resolve(s), "hello");
    /// ```
    #[inline]
    pub fn resolve(&self, sym: Sym) -> &str {
        match self.try_resolve(sym) {
            Some(s) => s,
            None => panic!("LocalInterner::resolve: {sym:?} is not from this interner"),
        }
    }

    /// The string of `sym`, or `None` if this interner never produced it.
    ///
    /// ```
    /// let mut interner = ito::intern::LocalInterner::new();
    /// let s = interner.intern("x");
    /// assert_eq!(interner.try_resolve(s), Some("x"));
    /// assert_eq!(interner.try_resolve(ito::Sym::from_u32(99).unwrap()), None);
    /// ```
    #[inline]
    pub fn try_resolve(&self, sym: Sym) -> Option<&str> {
        let i = sym.to_u32() as usize - 1;
        if i >= self.len {
            return None;
        }
        Some(self.bytes_of(self.entry(i as u32)))
    }

    /// Number of distinct strings interned.
    ///
    /// ```
    /// let mut interner = ito::intern::LocalInterner::new();
    /// interner.extend(["a", "b", "a"]);
    /// assert_eq!(interner.len(), 2);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing has been interned.
    ///
    /// ```
    /// assert!(ito::intern::LocalInterner::new().is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes allocated: table(s), entry segments, string chunks and large
    /// strings (capacities, not lengths).
    ///
    /// ```
    /// let mut interner = ito::intern::LocalInterner::new();
    /// let before = interner.memory_usage();
    /// interner.intern(&"z".repeat(10_000));
    /// assert!(interner.memory_usage() >= before + 10_000);
    /// ```
    pub fn memory_usage(&self) -> usize {
        self.table.bytes()
            + self.old.as_ref().map_or(0, Table::bytes)
            + self.retired_bytes()
            + self.next_ctrl.capacity()
            + self.next_slots.capacity() * 4
            + self.store.memory_usage()
    }

    /// Bytes of the retired table not yet given back (and, at most, the
    /// partial end pages of the emptied ones).
    fn retired_bytes(&self) -> usize {
        self.retired_left() + self.emptied.iter().map(Emptied::held).sum::<usize>()
    }

    fn retired_left(&self) -> usize {
        if self.retired_slots.capacity() > 0 {
            self.retired_kept * 4 + self.retired_ctrl.capacity()
        } else if self.retired_ctrl.capacity() > 0 {
            self.retired_kept
        } else {
            0
        }
    }

    /// Every `(Sym, &str)` in symbol order (insertion order).
    ///
    /// ```
    /// let mut interner = ito::intern::LocalInterner::new();
    /// interner.extend(["x", "y"]);
    /// let all: Vec<_> = interner.iter().map(|(s, t)| (s.to_u32(), t)).collect();
    /// assert_eq!(all, [(1, "x"), (2, "y")]);
    /// ```
    pub fn iter(&self) -> LocalIter<'_> {
        LocalIter {
            interner: self,
            next: 0,
        }
    }

    /// Table statistics (probe lengths, whether the SipHash fallback is
    /// active, resize state).
    ///
    /// ```
    /// let d = ito::intern::LocalInterner::new().diagnostics();
    /// assert_eq!(d.longest_probe, 0);
    /// assert!(!d.migrating);
    /// ```
    pub fn diagnostics(&self) -> LocalDiagnostics {
        LocalDiagnostics {
            longest_probe: self.longest_probe,
            probe_groups: self.probe_groups,
            strong_hash: self.strong.is_some(),
            capacity: self.table.cap(),
            migrating: self.old.is_some(),
            reserved: self.store.is_flat(),
        }
    }
}

/// Iterator over a [`LocalInterner`]'s `(Sym, &str)` pairs in symbol order,
/// from [`LocalInterner::iter`].
///
/// ```
/// let mut interner = ito::intern::LocalInterner::new();
/// interner.intern("only");
/// let mut it = interner.iter();
/// assert_eq!(it.next().map(|(_, s)| s), Some("only"));
/// assert!(it.next().is_none());
/// ```
#[derive(Clone)]
pub struct LocalIter<'a> {
    interner: &'a LocalInterner,
    next: usize,
}

impl<'a> Iterator for LocalIter<'a> {
    type Item = (Sym, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.interner.len {
            return None;
        }
        let i = self.next;
        self.next += 1;
        let s = self.interner.bytes_of(self.interner.entry(i as u32));
        Some((Sym::from_raw(i as u32 + 1), s))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.interner.len - self.next;
        (n, Some(n))
    }
}

impl ExactSizeIterator for LocalIter<'_> {}

impl<'a> IntoIterator for &'a LocalInterner {
    type Item = (Sym, &'a str);
    type IntoIter = LocalIter<'a>;

    fn into_iter(self) -> LocalIter<'a> {
        self.iter()
    }
}

impl Index<Sym> for LocalInterner {
    type Output = str;

    /// As [`LocalInterner::resolve`].
    fn index(&self, sym: Sym) -> &str {
        self.resolve(sym)
    }
}

impl<'a> Extend<&'a str> for LocalInterner {
    fn extend<I: IntoIterator<Item = &'a str>>(&mut self, iter: I) {
        for s in iter {
            self.intern(s);
        }
    }
}

impl<'a> FromIterator<&'a str> for LocalInterner {
    fn from_iter<I: IntoIterator<Item = &'a str>>(iter: I) -> Self {
        let mut interner = LocalInterner::new();
        interner.extend(iter);
        interner
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_bytes_matches_slice_eq() {
        for n in 0..70usize {
            let a: Vec<u8> = (0..n as u8).collect();
            assert!(same_bytes(&a, &a.clone()));
            for i in 0..n {
                let mut b = a.clone();
                b[i] ^= 0x40;
                assert!(!same_bytes(&a, &b), "{n} {i}");
            }
        }
    }

    /// Every key forced onto one hash: keys of the same length that
    /// differ in one byte (at every position, every length up to 70, so
    /// every compare class) must still get their own symbols, in both
    /// layouts. Under 100 keys share the hash per interner, so their probe
    /// stays short of the SipHash switch (which would rehash them away
    /// from the forced value). `tests/intern_collisions.rs` finds real
    /// collisions.
    #[test]
    fn one_forced_hash_keeps_same_length_keys_apart() {
        const H: u32 = 0x1234_5678;
        for filler in [0usize, 2_000] {
            for n in 1..70usize {
                let mut interner = LocalInterner::new();
                for i in 0..filler {
                    interner.intern(&format!("filler {i}"));
                }
                let base: String = (0..n).map(|i| (b'a' + (i % 26) as u8) as char).collect();
                let mut keys = vec![base.clone()];
                for i in 0..n {
                    let mut k = base.clone().into_bytes();
                    k[i] = b'Z';
                    keys.push(String::from_utf8(k).unwrap());
                }
                let syms: Vec<Sym> = keys
                    .iter()
                    .map(|k| interner.intern_hashed(H, k).unwrap())
                    .collect();
                for (k, &sym) in keys.iter().zip(&syms) {
                    assert_eq!(interner.resolve(sym), k);
                    assert_eq!(interner.intern_hashed(H, k).unwrap(), sym, "{k}");
                }
                assert_eq!(interner.len(), filler + keys.len());
                assert!(!interner.diagnostics().strong_hash);
            }
        }
    }

    #[test]
    fn mirror_bytes_follow_the_first_group() {
        let mut t = Table::new(64);
        for i in [0usize, 5, 15, 16, 40, 63] {
            t.set(i, 0x80 | i as u8, i as u32);
        }
        assert_eq!(&t.ctrl[64..80], &t.ctrl[0..16]);
    }
}
