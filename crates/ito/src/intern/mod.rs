//! String interning with a bounded worst case.
//!
//! ## Which to pick
//!
//! | you have | use | measured per operation (hit / miss) | against the peer |
//! |---|---|---|---|
//! | one thread | [`LocalInterner`] | identifiers 16 / 48 ns, twitter words 15 / 58 ns | lasso `Rodeo` 2.2–2.3× / 1.8–2.0×; string-interner 0.95–0.99× / 0.91–1.01× |
//! | threads sharing one table | [`Interner`] | one thread: 22–25 / 97–106 ns; two threads: 29–36 / 74–92 ns | lasso `ThreadedRodeo`: one thread 1.8× / 1.6–1.9×, two threads 1.5–1.7× / 1.5–1.7× (target 2×: missed on this loaded host) |
//! | entries that must be freed | [`Pool`] | identifiers 49 / 157 ns, twitter words 26 / 97 ns | internment `ArcIntern<str>` 0.71× / 0.88× (identifiers), 1.37× / 1.43× (words) |
//!
//! Figures: `ITO_BENCH_ONLY=ratios cargo bench -p ito-bench --bench intern`
//! (and `--bench intern_local`), best of 25 interleaved runs, portable
//! release build, 2026-11-24 on a shared 2-vCPU AMD EPYC VM at load 10–14
//! (`intern` two runs, `intern_local` one; the two-thread figures suffer
//! most from that load). 6,000 identifiers of 12.5 bytes on average; the
//! twitter words of `data/corpus/twitter.json`. Details in
//! `bench/RESULTS.md`. A symbol of either interner resolves without a
//! lock; [`Interner::freeze`] gives a compact read-only [`Frozen`] once the
//! set is complete.
//!
//! * [`Interner`]: a thread-safe symbol table, `&str` → [`Sym`] (a
//!   `NonZeroU32`), append-only. Lookups and [`Interner::resolve`] take no
//!   lock. [`Interner::freeze`] turns it into a compact read-only [`Frozen`].
//!   [`Interner::intern_str`] takes a [`Str`](crate::Str) and reuses the
//!   hash it caches, so a string is hashed once however often it is interned.
//! * [`LocalInterner`]: the single-threaded variant (`&mut self` to insert;
//!   like lasso's `Rodeo` beside `ThreadedRodeo`): one SwissTable-style
//!   table with incremental resize, dense symbols, 8-byte entries (the
//!   length prefixes the bytes).
//! * [`Pool`]: collectable interning ([`Interned`] handles compare by
//!   pointer; an entry leaves the pool when its last handle drops).
//! * [`Stats`]: what interning a stream of strings would save.
//!
//! ## How the interner works
//! ```text
//! h      = XXH3-64(bytes, seed)          // every byte, per-process random seed
//! shard  = h >> 48 & (shards - 1)        // 16 shards by default
//! h32    = low 32 bits of h, bit 31 on   // bucket address; kept per entry
//! tag    = bits 32..48 of h, bit 0 on    // 16-bit slot tag (never 0 = empty)
//! hit    : ONE optimistic probe, no lock, no sequence-lock load:
//!          bucket chain of a linear-hashing table, slot = tag << 48 | &record
//!          compare all 7 tags branch-free, then the record the slot points
//!          at: [h32][local+1][LEB128 len][bytes] -> symbol, length, bytes
//! miss   : lock shard, re-walk the chain (nothing moves under the lock),
//!          copy header + bytes to the arena, publish the record's 32-bit
//!          reference (for resolve), then the slot            (Release)
//!          if entries > 5 × buckets: split ONE bucket by the stored h32
//!          if chain > 32 entries: shard switches to SipHash-1-3, rehashes
//! sym    = (local+1) << log2(shards) | shard
//! resolve: shard → refs[local] (chunk:offset) → chunk table → record (no lock)
//! ```
//! The details of the table, its concurrency and the SipHash fallback are in
//! the `shard` module source; the arena (1 KiB chunks growing by an eighth
//! of the shard's string bytes up to 32 KiB, records over 8 KiB in their own
//! allocation) in `arena`; never-moving segmented arrays in `segvec`.
//!
//! Why this shape: lasso and string-interner store no hash, so every probe
//! compares strings and every resize rehashes all of them (a 2M-entry table
//! pauses for milliseconds). LuaJIT samples bytes, so similar long strings
//! collide. Here each string is hashed once, in full; the table keeps 16
//! bits of it in the slot and 32 in the record, compares bytes only on a tag
//! match, and grows one bucket per insert from stored hashes alone. A hit
//! reads two lines of table memory (bucket, record); `get` (lookup only)
//! adds the sequence-lock check that makes a lock-free *miss* reliable.
//!
//! ## Memory per entry
//! One 8-byte slot in a 64-byte bucket at ≤ 5 entries per bucket (plus
//! overflow buckets), an 8-byte record header (stored hash, symbol), a
//! 4-byte record reference for `resolve`, a 1-byte length prefix (strings
//! under 128 bytes), the bytes themselves in the chunks, and the slack of
//! the doubling segments that hold buckets and references (they never move,
//! so they cannot be resized to fit: on average a quarter of the bucket
//! segments is unused). Measured with a counting allocator
//! (`tests/intern_memory.rs`, and the `intern` bench beside string-interner
//! and lasso) for identifiers of 12.5 bytes on average, in bytes per entry
//! beyond the string bytes:
//!
//! | entries | `Interner` | `Frozen` | string-interner | lasso `Rodeo` |
//! |---|---|---|---|---|
//! | 6,000 | 47 | 15 | 21 | 33 |
//! | 100,000 | 39 | 25 | 18 | 31 |
//! | 1,000,000 | 35 | 21 | 28 | 41 |
//!
//! The live table pays for lock-free reads, never-moving storage and a hit
//! path that goes from the slot straight to the record (4 bytes more per
//! entry than a slot holding a symbol index); [`Frozen`] is the compact form
//! once the set is complete.
//!
//! ## Worst case
//! An insert does one probe, one record copy and at most one bucket split
//! (one chain of ≤ `MAX_CHAIN` entries, moved by stored hash), plus an
//! occasional allocation that is never copied or zeroed. The `intern` bench
//! times 2,000,000 distinct inserts one at a time, three runs with the same
//! seed, and keeps each insert's fastest time, so that only stalls the
//! table causes (they recur in every run) remain: the slowest insert is
//! then 4.4–13.3 µs (p99.99 1.3–3.6 µs), where lasso and string-interner
//! take 157–589 ms for the insert that rehashes every string. The raw
//! maximum of one run is the shared VM's: a timed no-op stalls 19–138 µs.
//!
//! ## What is not here, and why
//! * Not as fast as string-interner on single-threaded hits (`Interner`
//!   about half its speed on 6,000 identifiers, [`LocalInterner`]
//!   0.75–0.9×; see `bench/RESULTS.md`). Not because of the hash: on these
//!   keys seeded XXH3 costs what its foldhash costs (7–9 ns each, mostly
//!   mispredicted length-class branches), and a fold-multiply short hash of
//!   our own made hits no faster. A hit is a chain of dependent loads.
//!   string-interner's is control group → bucket → `ends[sym]` → bytes;
//!   `LocalInterner` adds two (small, cache-resident) indirections, the
//!   entry segment and the string chunk, which keep its growth pause-free
//!   and its memory below string-interner's; `Interner` adds the shard and
//!   a table that readers probe while a writer grows it. The seven tags of
//!   a bucket are compared with scalar code: they are atomics, and a vector
//!   load of them would be a data race in Rust's memory model.
//! * No removal from an [`Interner`]: it is append-only, which is what lets
//!   readers go lock-free with no memory reclamation scheme. Use [`Pool`]
//!   for strings that come and go.
//! * No model check of the record bytes. loom runs the shard's own code
//!   (`tests/loom_interner.rs`, under `--cfg loom`: racing inserts, lookups
//!   and inserts racing a bucket split, two misses racing to insert one
//!   string; and `tests/loom_pool.rs` for [`Pool`]), but records are plain
//!   memory that loom does not track: their publication (the slot's
//!   `Release` store after the bytes are written) is exercised by the
//!   multi-threaded stress tests (`tests/intern_concurrency.rs`), and the
//!   single-threaded unsafe paths run under Miri:
//!   `MIRIFLAGS=-Zmiri-permissive-provenance cargo +nightly miri test -p ito
//!   --lib intern` (the unit tests) and the same with `--test intern_miri`
//!   (slots store record addresses as integers, via the exposed-provenance
//!   API; the flag silences Miri's warning about it).
//!
//! ```
//! use ito::{Interner, Sym};
//! let interner = Interner::new();
//! let words: Vec<Sym> = "a rose is a rose".split(' ').map(|w| interner.intern(w)).collect();
//! assert_eq!(words[1], words[4]);
//! assert_eq!(interner.len(), 3);
//! const _: () = assert!(std::mem::size_of::<Option<Sym>>() == 4);
//! ```

mod arena;
mod frozen;
mod interner;
mod local;
mod pool;
mod segvec;
mod shard;
mod stats;

use std::fmt;
use std::num::NonZeroU32;

pub use frozen::{Frozen, FrozenIter};
pub use interner::{Builder, Diagnostics, Interner, Iter};
pub use local::{LocalBuilder, LocalDiagnostics, LocalInterner, LocalIter, LOCAL_MAX_PROBE_GROUPS};
pub use pool::{Interned, Pool};
pub use stats::Stats;

/// Longest bucket chain (in entries) a shard tolerates before it switches
/// from the seeded XXH3 hash to keyed SipHash-1-3 (LuaJIT uses the same
/// bound).
///
/// ```
/// assert_eq!(ito::intern::MAX_CHAIN, 32);
/// ```
pub const MAX_CHAIN: usize = 32;

/// A symbol: the handle of an interned string. A `NonZeroU32`, so
/// `Option<Sym>` is 4 bytes.
///
/// ```
/// use ito::Sym;
/// assert_eq!(std::mem::size_of::<Option<Sym>>(), 4);
/// let interner = ito::Interner::new();
/// let s = interner.intern("x");
/// assert_eq!(Sym::from_u32(s.to_u32()), Some(s));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Sym(NonZeroU32);

const _: () = assert!(std::mem::size_of::<Option<Sym>>() == 4);

impl Sym {
    #[inline]
    pub(crate) fn from_raw(raw: u32) -> Sym {
        match NonZeroU32::new(raw) {
            Some(n) => Sym(n),
            None => unreachable!("symbols are never zero"),
        }
    }

    /// The symbol as a non-zero integer (for storage or serialisation).
    ///
    /// ```
    /// let s = ito::Interner::new().intern("x");
    /// assert_ne!(s.to_u32(), 0);
    /// ```
    #[inline]
    pub fn to_u32(self) -> u32 {
        self.0.get()
    }

    /// Rebuild a symbol from [`to_u32`](Self::to_u32); `None` for 0.
    /// Resolving a symbol that its interner never produced panics (or
    /// returns `None` from `try_resolve`); it is never unsafe.
    ///
    /// ```
    /// assert!(ito::Sym::from_u32(0).is_none());
    /// assert!(ito::Sym::from_u32(17).is_some());
    /// ```
    #[inline]
    pub fn from_u32(raw: u32) -> Option<Sym> {
        NonZeroU32::new(raw).map(Sym)
    }
}

impl fmt::Debug for Sym {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sym({})", self.0)
    }
}

/// Why [`Interner::try_intern`] could not intern a string.
///
/// ```
/// let interner = ito::Interner::builder().max_bytes(1).build();
/// let err = interner.try_intern("abc").unwrap_err();
/// assert!(err.to_string().contains("cap"));
/// let _: &dyn std::error::Error = &err;
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InternError {
    /// The byte cap set with [`Builder::max_bytes`] would be exceeded.
    CapacityExceeded {
        /// The cap.
        limit: usize,
        /// Bytes in use.
        used: usize,
        /// Bytes the new string would have needed.
        needed: usize,
    },
    /// The shard's symbol space (2^32 / shards) or its arena's 2^17 chunk
    /// numbers are exhausted (or, on a target whose heap addresses do not
    /// fit 48 bits, a record could not be addressed from the table).
    TooManyStrings,
}

impl fmt::Display for InternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InternError::CapacityExceeded {
                limit,
                used,
                needed,
            } => write!(
                f,
                "byte cap of {limit} exceeded: {used} bytes in use, {needed} more needed"
            ),
            InternError::TooManyStrings => write!(f, "symbol space exhausted"),
        }
    }
}

impl std::error::Error for InternError {}
