//! One shard of the [`Interner`](super::Interner): a linear-hashing table
//! with lock-free readers, plus the shard's string arena and symbol records.
//!
//! ## Table
//! Buckets are one cache line: seven `AtomicU64` slots and the index of an
//! overflow bucket. A slot holds `tag16 << 48 | record address` (0 = empty):
//! 16 bits of the hash (bits 32..48, low bit forced on) and the address of
//! the record in the shard's arena, whose header holds the 32-bit table
//! hash and the symbol (see `arena`). Slots of a chain fill in order, so a
//! reader stops at the first empty one.
//!
//! The table grows by *linear hashing* (Litwin, 1980): with `n0 = 2^level`
//! buckets plus `split` already-split ones, a key lives in bucket
//! `h & (n0 - 1)`, or `h & (2 n0 - 1)` if that is below `split`. Whenever the
//! shard holds more than five entries per bucket, the insert that crossed the
//! line splits exactly one bucket — bucket `split` — moving the entries whose
//! hash bit `level` is set to the new bucket `n0 + split`. So growth costs
//! one chain per insert, never a rehash of the table, and reads only the
//! stored 32-bit hashes in the record headers, never the strings. Buckets
//! live in a [`SegVec`](super::segvec::SegVec), so they never move either.
//!
//! ## Readers (`find_hit`, `find`)
//! Readers take no lock. One `Acquire` load of `shape` gives a reader both
//! the table shape and the shard's hash (a `SIP` bit); a hit then costs the
//! bucket line (seven tags compared branch-free) and the record line
//! (symbol, length, bytes) — no per-symbol cell in between. A reader that
//! *finds* the key is always right: it compared the full bytes of the
//! candidate record, and records never change (but for the stored hash,
//! which only the writer reads). That is the hit path of `intern`: one
//! optimistic probe, no sequence-lock load. A split or rehash moves entries,
//! so the writer wraps it in a sequence lock (`version` odd while in
//! progress); `find` (for `get`) re-reads `version` after a miss and retries
//! if a move overlapped the probe, and `intern`'s miss path re-walks the
//! chain under the shard lock, where nothing moves — unless no insert
//! completed in the shard since the probe began (a per-shard count,
//! bumped with `Release` after every change, loaded with `Acquire` before
//! the probe): then the probe saw the table as it is, and its chain tail
//! ([`MissHint`]) is used as is. Inserts that move nothing do not touch
//! `version`: a reader that misses an entry being inserted concurrently
//! simply ran first. Freed overflow buckets go to a free list, not back to
//! the allocator, so a reader running behind a writer reads
//! stale-but-valid memory, never freed memory. `tests/loom_interner.rs`
//! model-checks these protocols with loom.
//!
//! Record addresses must fit 48 bits. Heap addresses do on every 64-bit
//! target Rust supports unless the program asks the kernel for a larger
//! address space (x86-64 5-level paging, arm64 52-bit VA); if one does not,
//! the insert fails with `InternError::TooManyStrings` rather than storing a
//! truncated pointer. On 32-bit targets (wasm32, i686) every address fits,
//! and the slots stay 64-bit atomics. Slots turn addresses into integers and back with the
//! exposed-provenance API (`expose_provenance` / `with_exposed_provenance`),
//! which Miri checks.
//!
//! ## Bounded probing
//! If an insert finds more than [`MAX_CHAIN`] entries in its chain (random
//! hashes practically never do: 33+ keys in one bucket whose mean is ~5),
//! the shard switches to SipHash-1-3 (std's `RandomState`, keyed at random
//! per shard) and rehashes its entries once — the only operation that reads
//! stored strings. Keys built to collide under a known XXH3 seed are then
//! spread by a key the attacker does not know.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
// Under `--cfg loom` the shard's atomics and lock are loom's, so
// `tests/loom_interner.rs` model-checks this very code.
#[cfg(loom)]
use loom::sync::{
    atomic::{fence, AtomicU32, AtomicU64, AtomicUsize, Ordering},
    Mutex, MutexGuard,
};
#[cfg(not(loom))]
use std::sync::{
    atomic::{fence, AtomicU32, AtomicU64, AtomicUsize, Ordering},
    Mutex, MutexGuard,
};

use super::arena::{
    record_bytes, record_hash32, record_local1, record_ptr, set_record_hash32, Arena, Chunks,
    RecordRef,
};
use super::segvec::SegVec;

/// Slots per bucket (the eighth word holds the overflow link).
pub(crate) const BUCKET_SLOTS: usize = 7;
pub(crate) use super::MAX_CHAIN;
/// Split a bucket while the shard holds more than this many entries per bucket.
const SPLIT_LOAD: usize = 5;
/// Highest level: addresses use at most 32 hash bits.
const MAX_LEVEL: u32 = 30;

#[repr(C, align(64))]
pub(crate) struct Bucket {
    slots: [AtomicU64; BUCKET_SLOTS],
    /// 1 + index of the next overflow bucket, 0 = end of chain.
    next: AtomicU32,
    _pad: u32,
}

impl Bucket {
    /// An empty bucket (all slots 0, end of chain). Written into fresh
    /// segment memory with `ptr::write` rather than zeroed bytes, so the
    /// same code runs with loom's atomics (which are not plain integers).
    fn empty() -> Bucket {
        Bucket {
            slots: std::array::from_fn(|_| AtomicU64::new(0)),
            next: AtomicU32::new(0),
            _pad: 0,
        }
    }
}

/// What a lock-free probe concluded.
enum Probe {
    Found(u32),
    Absent(Tail),
    Retry,
}

/// The end of a probed chain: its last bucket, that bucket's first empty
/// slot (`None` if full) and the entries the chain holds — where an insert
/// appends, and what the chain bound checks.
#[derive(Clone, Copy)]
pub(crate) struct Tail {
    bucket: *const Bucket,
    free: Option<usize>,
    entries: usize,
}

/// What an optimistic probe that missed saw, so that the insert that
/// follows can skip walking the chain again: if no insert completed in the
/// shard since (`inserts` unchanged under the lock), the table is exactly
/// as the probe saw it.
#[derive(Clone, Copy)]
pub(crate) struct MissHint {
    inserts: u32,
    tail: Option<Tail>,
}

/// Writer-only state, guarded by the shard lock.
struct Writer {
    arena: Arena,
    overflow_len: u32,
    free_overflow: Vec<u32>,
    scratch: Vec<u64>,
    /// Bytes of allocated segments (buckets, overflow, records).
    segment_bytes: usize,
    probes: u64,
    splits: u64,
}

/// A snapshot of one shard's table statistics.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ShardStats {
    pub(crate) longest_chain: usize,
    pub(crate) buckets: usize,
    pub(crate) overflow_buckets: usize,
    pub(crate) probes: u64,
    pub(crate) splits: u64,
    pub(crate) sip: bool,
}

/// Aligned to 128 bytes: shards written by different threads never share a
/// cache line (or an adjacent-line prefetch pair), and the size rounds up
/// to a power of two (1 KiB on 64-bit targets), so picking a shard is a
/// shift, not a multiply, on the hit path.
#[repr(align(128))]
pub(crate) struct Shard {
    /// `SIP | level << 32 | split` (one load gives a reader the hash to use
    /// and the table shape).
    shape: AtomicU64,
    /// Completed inserts: bumped with `Release` after an insert's last
    /// change to the table (see [`MissHint`]).
    inserts: AtomicU32,
    /// Number of published records (locals `0..len` are readable).
    len: AtomicU32,
    version: AtomicU64,
    /// Bytes allocated by this shard (updated by the writer).
    bytes: AtomicUsize,
    buckets: SegVec<Bucket, 0>,
    overflow: SegVec<Bucket, 2>,
    /// Record reference of each local (for `resolve`).
    records: SegVec<RecordRef, 4>,
    /// Base pointers of the arena's chunks (readers resolve references).
    chunks: Chunks,
    sip_key: RandomState,
    writer: Mutex<Writer>,
}

/// The 32-bit hash a slot stores: the low 32 bits of the 64-bit hash with
/// bit 31 forced on, so no stored tag equals an empty slot's 0 (addresses
/// use at most bits 0..=30: `MAX_LEVEL` is 30).
#[inline]
pub(crate) fn tag32(hash: u64) -> u32 {
    hash as u32 | 0x8000_0000
}

/// The 16-bit tag a slot keeps of the 64-bit hash: bits 32..48 (the
/// address uses bits 0..31, the shard bits 48..), low bit forced on so a
/// tag never matches an empty slot.
#[inline]
fn tag16(hash: u64) -> u64 {
    (hash >> 32) as u16 as u64 | 1
}

/// Bits of a slot that hold the record address.
const ADDR_BITS: u32 = 48;
const ADDR_MASK: u64 = (1 << ADDR_BITS) - 1;

/// The slot value for a record at `record` with tag `tag` (from
/// [`tag16`]), or `None` if the address does not fit 48 bits (heap
/// addresses do on every supported 64-bit target unless the program asks
/// the kernel for a larger address space; 32-bit targets always fit).
#[inline]
fn slot_value(tag: u64, record: *const u8) -> Option<u64> {
    let addr = record.expose_provenance() as u64;
    (addr >> ADDR_BITS == 0).then_some(tag << ADDR_BITS | addr)
}

/// The record a non-empty slot value points at.
#[inline]
fn slot_record(x: u64) -> *const u8 {
    std::ptr::with_exposed_provenance((x & ADDR_MASK) as usize)
}

/// Shape bit: the shard hashes with SipHash-1-3 instead of the default hash.
const SIP: u64 = 1 << 63;

#[inline]
fn level_of(shape: u64) -> u32 {
    (shape >> 32) as u32 & 0x3f
}

#[inline]
fn address(h32: u32, shape: u64) -> usize {
    let level = level_of(shape);
    let split = shape as u32 as usize;
    let n0 = 1usize << level;
    let a = h32 as usize & (n0 - 1);
    if a < split {
        h32 as usize & (2 * n0 - 1)
    } else {
        a
    }
}

/// Byte equality with an inlined path for short strings (most interned
/// strings are identifiers): two overlapping in-bounds loads per side
/// instead of a call to `memcmp`.
#[inline]
pub(crate) fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n >= 8 {
        if n <= 16 {
            let w =
                |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().unwrap_or([0; 8]));
            return (w(a, 0) ^ w(b, 0)) | (w(a, n - 8) ^ w(b, n - 8)) == 0;
        }
        if n <= 32 {
            // Two overlapping 16-byte words per side: no call to `memcmp`
            // for the long identifiers and words that are common keys.
            let w = |s: &[u8], i: usize| {
                u128::from_le_bytes(s[i..i + 16].try_into().unwrap_or([0; 16]))
            };
            return (w(a, 0) ^ w(b, 0)) | (w(a, n - 16) ^ w(b, n - 16)) == 0;
        }
        return a == b;
    }
    if n >= 4 {
        let w = |s: &[u8], i: usize| u32::from_le_bytes(s[i..i + 4].try_into().unwrap_or([0; 4]));
        return (w(a, 0) ^ w(b, 0)) | (w(a, n - 4) ^ w(b, n - 4)) == 0;
    }
    a == b
}

#[inline]
fn live_buckets(shape: u64) -> usize {
    (1usize << level_of(shape)) + shape as u32 as usize
}

impl Shard {
    /// A shard pre-sized for about `capacity` entries.
    pub(crate) fn new(capacity: usize) -> Self {
        let want = capacity.div_ceil(SPLIT_LOAD).max(1);
        let level = (usize::BITS - (want - 1).leading_zeros()).min(20);
        let shard = Shard {
            version: AtomicU64::new(0),
            shape: AtomicU64::new(u64::from(level) << 32),
            sip_key: RandomState::new(),
            len: AtomicU32::new(0),
            inserts: AtomicU32::new(0),
            bytes: AtomicUsize::new(0),
            buckets: SegVec::new(),
            overflow: SegVec::new(),
            records: SegVec::new(),
            chunks: Chunks::new(),
            writer: Mutex::new(Writer {
                arena: Arena::new(),
                overflow_len: 0,
                free_overflow: Vec::new(),
                scratch: Vec::new(),
                segment_bytes: 0,
                probes: 0,
                splits: 0,
            }),
        };
        let mut added = 0;
        for i in 0..(1usize << level) {
            let (p, bytes) = shard.buckets.reserve(i);
            added += bytes;
            // SAFETY: `p` points to an (uninitialised) element of an
            // allocated segment that no reader can reach yet.
            unsafe { p.write(Bucket::empty()) };
        }
        {
            let mut w = shard.lock();
            w.segment_bytes = added;
            shard.update_bytes(&w);
        }
        shard
    }

    fn update_bytes(&self, w: &Writer) {
        let total = w.segment_bytes
            + w.arena.allocated_bytes()
            + w.free_overflow.capacity() * 4
            + w.scratch.capacity() * 8;
        self.bytes.store(total, Ordering::Relaxed);
    }

    /// Bytes allocated by this shard.
    pub(crate) fn allocated_bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Published entries.
    #[inline]
    pub(crate) fn len(&self) -> u32 {
        self.len.load(Ordering::Acquire)
    }

    /// The 64-bit hash of `key` for this shard: `hash` (the default hash)
    /// or, once the shard switched, its keyed SipHash-1-3.
    #[inline]
    fn table_hash(&self, hash: u64, key: &[u8], shape: u64) -> u64 {
        if shape & SIP != 0 {
            self.sip_key.hash_one(key)
        } else {
            hash
        }
    }

    /// The bucket with table index `index`.
    ///
    /// # Safety
    /// `index` must be below the live bucket count of a shape the caller
    /// loaded with `Acquire` (so the bucket was initialised before).
    #[inline]
    unsafe fn bucket(&self, index: usize) -> &Bucket {
        // SAFETY: per the contract the bucket is allocated and initialised.
        unsafe { &*self.buckets.slot_live(index) }
    }

    /// The overflow bucket with index `index`.
    ///
    /// # Safety
    /// `index` must have been published (in a `next` link) by a writer the
    /// caller synchronised with.
    #[inline]
    unsafe fn overflow_bucket(&self, index: u32) -> &Bucket {
        // SAFETY: per the contract the bucket is allocated and initialised.
        unsafe { &*self.overflow.slot_live(index as usize) }
    }

    /// Pointer to the record named by `r`.
    ///
    /// # Safety
    /// The caller must have synchronised (by an `Acquire` load of a slot or
    /// cell holding `r`, or of `len`) with the writer that published it.
    #[inline]
    unsafe fn record_at(&self, r: RecordRef) -> *const u8 {
        // SAFETY: per the contract, `r` was pushed to this shard's arena
        // and published after its chunk entered the table.
        unsafe { record_ptr(&self.chunks, r) }
    }

    /// The bytes of record `local`.
    ///
    /// # Safety
    /// The caller must have synchronised (by an `Acquire` load of `len` or
    /// of a slot naming the record) with the writer that published it.
    #[inline]
    unsafe fn record(&self, local: u32) -> &[u8] {
        // SAFETY: the cell was written before the publication the caller
        // synchronised with, and names a complete arena record that lives
        // as long as `self`.
        unsafe { record_bytes(self.record_at(*self.records.slot_live(local as usize))) }
    }

    /// The string of record `local`, if published.
    #[inline]
    pub(crate) fn resolve(&self, local: u32) -> Option<&[u8]> {
        if local < self.len.load(Ordering::Acquire) {
            // SAFETY: `local < len`, loaded with Acquire, which the writer
            // stored with Release after writing the record cell.
            Some(unsafe { self.record(local) })
        } else {
            None
        }
    }

    #[inline]
    fn probe(&self, hash: u64, key: &[u8], version: Option<u64>) -> Probe {
        let shape = self.shape.load(Ordering::Acquire);
        let full = self.table_hash(hash, key, shape);
        let tag = tag16(full);
        // SAFETY: `address` is below the live bucket count of `shape`.
        let mut bucket = unsafe { self.bucket(address(tag32(full), shape)) };
        let mut hops = 0u32;
        loop {
            // Load the whole bucket, then test all tags without branching:
            // where the key sits in the bucket is random, and a branch per
            // slot would mispredict once per lookup.
            let xs: [u64; BUCKET_SLOTS] =
                std::array::from_fn(|k| bucket.slots[k].load(Ordering::Acquire));
            // Empty slots (0) never match: tags have their low bit set.
            let mut matches = 0u32;
            for (k, &x) in xs.iter().enumerate() {
                matches |= u32::from(x >> ADDR_BITS == tag) << k;
            }
            while matches != 0 {
                // Reload the matching slot rather than index `xs` (which
                // would make the compiler spill all seven words to the
                // stack). A concurrent move may have changed it since: any
                // non-zero slot still names a published record, and the
                // byte compare below decides, so a changed slot can only
                // cost a miss (which the caller validates), never a wrong
                // hit.
                let x = bucket.slots[matches.trailing_zeros() as usize].load(Ordering::Acquire);
                if x != 0 {
                    // Every non-zero slot value was stored with Release
                    // after its record was written; our Acquire load of it
                    // synchronises with that store, so the record below is
                    // complete, and it lives as long as the shard.
                    let record = slot_record(x);
                    // SAFETY: as above, a complete record.
                    if bytes_eq(unsafe { record_bytes(record) }, key) {
                        // SAFETY: as above.
                        return Probe::Found(unsafe { record_local1(record) });
                    }
                }
                matches &= matches - 1;
            }
            // Slots fill in order: a chain continues only past a full bucket.
            if xs[BUCKET_SLOTS - 1] == 0 {
                // Reload rather than keep `xs` (which would spill it to the
                // stack on the hit path). A slot that changed since belongs
                // to an insert that bumps `inserts`, which voids the hint.
                let filled = bucket
                    .slots
                    .iter()
                    .take_while(|x| x.load(Ordering::Relaxed) != 0)
                    .count();
                return Probe::Absent(Tail {
                    bucket,
                    free: Some(filled),
                    entries: hops as usize * BUCKET_SLOTS + filled,
                });
            }
            let next = bucket.next.load(Ordering::Acquire);
            if next == 0 {
                return Probe::Absent(Tail {
                    bucket,
                    free: None,
                    entries: (hops as usize + 1) * BUCKET_SLOTS,
                });
            }
            hops += 1;
            if hops.is_multiple_of(8) {
                // A move can relink chains under a reader; re-check now and
                // then so a probe never chases links forever. Without a
                // version (optimistic probes), give up: the caller follows
                // up with a validated lookup.
                match version {
                    Some(v) if self.version.load(Ordering::Acquire) == v => {}
                    _ => return Probe::Retry,
                }
            }
            // SAFETY: `next - 1` was published in a link we loaded with
            // Acquire; overflow buckets are initialised before being linked
            // and never freed while the shard lives.
            bucket = unsafe { self.overflow_bucket(next - 1) };
        }
    }

    /// One optimistic lock-free probe: `Some(local + 1)` if it found `key`
    /// (always right: it compared the bytes). `None` proves nothing (a
    /// concurrent move may have hidden the key): callers follow up with
    /// [`find`](Self::find) or the locked insert. The hot path of hits: no
    /// sequence-lock load, no retry loop.
    #[inline]
    pub(crate) fn find_hit(&self, hash: u64, key: &[u8]) -> Result<u32, MissHint> {
        let inserts = self.inserts.load(Ordering::Acquire);
        match self.probe(hash, key, None) {
            Probe::Found(local1) => Ok(local1),
            Probe::Absent(tail) => Err(MissHint {
                inserts,
                tail: Some(tail),
            }),
            Probe::Retry => Err(MissHint {
                inserts,
                tail: None,
            }),
        }
    }

    /// Lock-free lookup: `Some(local + 1)` if `key` (with default hash
    /// `hash`) is interned in this shard.
    #[inline]
    pub(crate) fn find(&self, hash: u64, key: &[u8]) -> Option<u32> {
        let mut spins = 0u32;
        loop {
            let version = self.version.load(Ordering::Acquire);
            match self.probe(hash, key, Some(version)) {
                Probe::Found(local1) => return Some(local1),
                Probe::Absent(_) => {
                    fence(Ordering::Acquire);
                    if version & 1 == 0 && self.version.load(Ordering::Relaxed) == version {
                        return None;
                    }
                }
                Probe::Retry => {}
            }
            spins += 1;
            // Under loom a spinning reader must hand the (model) processor
            // back, or the writer it waits for would never be scheduled.
            if cfg!(loom) {
                #[cfg(loom)]
                loom::thread::yield_now();
            } else if spins > 64 {
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
        }
    }

    fn lock(&self) -> MutexGuard<'_, Writer> {
        // A panic while holding the lock can only come from allocation
        // failure paths before any shared state is modified.
        self.writer.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn begin_move(&self) {
        let v = self.version.load(Ordering::Relaxed);
        self.version.store(v + 1, Ordering::Relaxed);
        fence(Ordering::Release);
    }

    fn end_move(&self) {
        let v = self.version.load(Ordering::Relaxed);
        self.version.store(v + 1, Ordering::Release);
    }

    /// Walk the chain of `index` under the lock: the key's `local + 1` if
    /// present, else the chain's [`Tail`], for an append without a second
    /// walk.
    fn walk(&self, w: &mut Writer, index: usize, tag: u64, key: &[u8]) -> Result<u32, Tail> {
        // SAFETY: writer context: `index` is live for the current shape.
        let mut bucket = unsafe { self.bucket(index) };
        let mut entries = 0;
        loop {
            for (k, slot) in bucket.slots.iter().enumerate() {
                let x = slot.load(Ordering::Relaxed);
                if x == 0 {
                    w.probes += entries as u64;
                    return Err(Tail {
                        bucket,
                        free: Some(k),
                        entries,
                    });
                }
                entries += 1;
                if x >> ADDR_BITS == tag {
                    let record = slot_record(x);
                    // SAFETY: as above.
                    if bytes_eq(unsafe { record_bytes(record) }, key) {
                        w.probes += entries as u64;
                        // SAFETY: as above.
                        return Ok(unsafe { record_local1(record) });
                    }
                }
            }
            let next = bucket.next.load(Ordering::Relaxed);
            if next == 0 {
                w.probes += entries as u64;
                return Err(Tail {
                    bucket,
                    free: None,
                    entries,
                });
            }
            // SAFETY: linked overflow buckets are initialised.
            bucket = unsafe { self.overflow_bucket(next - 1) };
        }
    }

    /// Store `x` at `tail` (found by `walk`, or by a probe that a
    /// [`MissHint`] proves current; nothing changed since).
    fn append_tail(&self, w: &mut Writer, tail: Tail, x: u64) {
        // SAFETY: `tail.bucket` is a live bucket of this shard (buckets never
        // move or get freed), and the chain ends there (see above).
        let bucket = unsafe { &*tail.bucket };
        match tail.free {
            Some(k) => bucket.slots[k].store(x, Ordering::Release),
            None => {
                let fresh = self.new_overflow(w);
                // SAFETY: `fresh` was just initialised.
                let b = unsafe { self.overflow_bucket(fresh) };
                b.slots[0].store(x, Ordering::Relaxed);
                bucket.next.store(fresh + 1, Ordering::Release);
            }
        }
    }

    fn new_overflow(&self, w: &mut Writer) -> u32 {
        let (index, reused) = match w.free_overflow.pop() {
            Some(i) => (i, true),
            None => {
                let i = w.overflow_len;
                w.overflow_len += 1;
                w.segment_bytes += self.overflow.reserve(i as usize).1;
                (i, false)
            }
        };
        let p = self.overflow.slot(index as usize);
        if reused {
            // SAFETY: a reused bucket is initialised; stale readers may still
            // be reading it, so it is cleared with atomic stores.
            let b = unsafe { &*p };
            for s in &b.slots {
                s.store(0, Ordering::Relaxed);
            }
            b.next.store(0, Ordering::Relaxed);
        } else {
            // SAFETY: the segment was reserved above; the fresh bucket is
            // unreachable until linked.
            unsafe { p.write(Bucket::empty()) };
        }
        index
    }

    /// Append slot value `x` to the chain of bucket `index`.
    fn append(&self, w: &mut Writer, index: usize, x: u64) {
        // SAFETY: writer context: `index` is live.
        let mut bucket = unsafe { self.bucket(index) };
        loop {
            for slot in &bucket.slots {
                if slot.load(Ordering::Relaxed) == 0 {
                    slot.store(x, Ordering::Release);
                    return;
                }
            }
            let next = bucket.next.load(Ordering::Relaxed);
            if next == 0 {
                let fresh = self.new_overflow(w);
                // SAFETY: `fresh` was just initialised.
                let b = unsafe { self.overflow_bucket(fresh) };
                b.slots[0].store(x, Ordering::Relaxed);
                bucket.next.store(fresh + 1, Ordering::Release);
                return;
            }
            // SAFETY: linked overflow buckets are initialised.
            bucket = unsafe { self.overflow_bucket(next - 1) };
        }
    }

    /// Remove every entry of the chain of bucket `index` into `w.scratch`,
    /// returning its overflow buckets to the free list. Call inside a move.
    fn drain_chain(&self, w: &mut Writer, index: usize) {
        // SAFETY: writer context: `index` is live.
        let mut bucket = unsafe { self.bucket(index) };
        loop {
            for slot in &bucket.slots {
                let x = slot.load(Ordering::Relaxed);
                if x != 0 {
                    w.scratch.push(x);
                    slot.store(0, Ordering::Relaxed);
                }
            }
            let next = bucket.next.load(Ordering::Relaxed);
            bucket.next.store(0, Ordering::Relaxed);
            if next == 0 {
                return;
            }
            w.free_overflow.push(next - 1);
            // SAFETY: linked overflow buckets are initialised.
            bucket = unsafe { self.overflow_bucket(next - 1) };
        }
    }

    /// Split bucket `split`, advancing the shape by one bucket.
    fn split_one(&self, w: &mut Writer) {
        let shape = self.shape.load(Ordering::Relaxed);
        let level = level_of(shape);
        if level >= MAX_LEVEL {
            return;
        }
        let split = shape as u32 as usize;
        let n0 = 1usize << level;
        let target = n0 + split;
        let (p, added) = self.buckets.reserve(target);
        w.segment_bytes += added;
        // SAFETY: `target` is not yet live, so no reader can see it.
        unsafe { p.write(Bucket::empty()) };
        w.scratch.clear();
        self.begin_move();
        self.drain_chain(w, split);
        let next_shape = if split + 1 == n0 {
            (shape & SIP) | u64::from(level + 1) << 32
        } else {
            shape + 1
        };
        self.shape.store(next_shape, Ordering::Release);
        let mut moved = std::mem::take(&mut w.scratch);
        // Both chains start empty (bucket `split` was just drained), so
        // keep a write cursor per chain instead of walking it per entry.
        // SAFETY: writer context: bucket `split` is live, `p` initialised.
        let mut cursors = [
            (unsafe { self.bucket(split) } as *const Bucket, 0),
            (p.cast_const(), 0),
        ];
        for &x in &moved {
            // The stored hash says where the entry goes; the string bytes
            // are never read. SAFETY: writer context, complete record.
            let h32 = unsafe { record_hash32(slot_record(x)) };
            let c = &mut cursors[usize::from(h32 as usize & n0 != 0)];
            self.push_at(w, c, x);
        }
        moved.clear();
        w.scratch = moved;
        self.end_move();
        w.splits += 1;
    }

    /// Store `x` at cursor `c` (a bucket and its next free slot), linking a
    /// fresh overflow bucket when the bucket is full. Writer only.
    fn push_at(&self, w: &mut Writer, c: &mut (*const Bucket, usize), x: u64) {
        if c.1 == BUCKET_SLOTS {
            let fresh = self.new_overflow(w);
            // SAFETY: `fresh` was just initialised; `c.0` is a live bucket
            // of this shard (buckets never move or get freed).
            unsafe {
                (*c.0).next.store(fresh + 1, Ordering::Release);
                *c = (self.overflow_bucket(fresh) as *const Bucket, 0);
            }
        }
        // SAFETY: as above, `c.0` is a live bucket and `c.1 < BUCKET_SLOTS`.
        unsafe { (*c.0).slots[c.1].store(x, Ordering::Release) };
        c.1 += 1;
    }

    /// Switch this shard to SipHash-1-3 and rehash every entry.
    #[cold]
    fn switch_to_sip(&self, w: &mut Writer) {
        let shape = self.shape.load(Ordering::Relaxed);
        w.scratch.clear();
        self.begin_move();
        // Readers that load the new shape validate against `version`.
        self.shape.store(shape | SIP, Ordering::Relaxed);
        for index in 0..live_buckets(shape) {
            self.drain_chain(w, index);
        }
        let mut all = std::mem::take(&mut w.scratch);
        for &x in &all {
            let record = slot_record(x);
            // SAFETY: writer context, complete record.
            let full = self.sip_key.hash_one(unsafe { record_bytes(record) });
            let h32 = tag32(full);
            // SAFETY: writer context: readers never read the stored hash.
            unsafe { set_record_hash32(record, h32) };
            let x = (tag16(full) << ADDR_BITS) | (x & ADDR_MASK);
            self.append(w, address(h32, shape), x);
        }
        all.clear();
        w.scratch = all;
        self.end_move();
    }

    /// Insert `key` (default hash `hash`) unless present; `max_local1` is the
    /// largest `local + 1` the symbol encoding allows, `budget` the bytes
    /// this insert may allocate (checked before anything changes). `hint`
    /// is what [`find_hit`](Self::find_hit) saw of the key's chain: when no
    /// insert completed since, the chain is not walked again.
    ///
    /// Returns `Ok(local + 1)`, or `Err(needed bytes)` if the budget is too
    /// small, or `Err(0)` if the shard is full.
    pub(crate) fn insert(
        &self,
        hash: u64,
        key: &[u8],
        max_local1: u32,
        budget: Option<&dyn Fn(usize) -> bool>,
        hint: Option<MissHint>,
    ) -> Result<u32, usize> {
        let mut guard = self.lock();
        let w = &mut *guard;
        let shape = self.shape.load(Ordering::Relaxed);
        let sip = shape & SIP != 0;
        let mut full = self.table_hash(hash, key, shape);
        // Every change to the table happens in an insert, under this lock,
        // before that insert bumps `inserts` (Release). The probe loaded
        // `hint.inserts` (Acquire) before it started, so it saw every change
        // up to then; if the count is still the same, nothing changed since
        // and its miss and tail are exact. Otherwise walk the chain again.
        let current = hint.filter(|h| h.inserts == self.inserts.load(Ordering::Relaxed));
        let tail = match current.and_then(|h| h.tail) {
            Some(tail) => {
                w.probes += tail.entries as u64;
                #[cfg(debug_assertions)]
                {
                    // Debug builds check the hint against a fresh walk.
                    let probes = w.probes;
                    let walked = self.walk(w, address(tag32(full), shape), tag16(full), key);
                    w.probes = probes;
                    match walked {
                        Ok(_) => panic!("a current MissHint missed a present key"),
                        Err(t) => debug_assert!(
                            (t.bucket, t.free, t.entries) == (tail.bucket, tail.free, tail.entries),
                            "a current MissHint disagrees with the chain"
                        ),
                    }
                }
                tail
            }
            None => match self.walk(w, address(tag32(full), shape), tag16(full), key) {
                Ok(local1) => return Ok(local1),
                Err(tail) => tail,
            },
        };
        let entries = tail.entries;
        let local = self.len.load(Ordering::Relaxed);
        if local + 1 > max_local1 {
            return Err(0);
        }
        if !w.arena.has_room(key.len()) {
            return Err(0);
        }
        if let Some(fits) = budget {
            let needed = w.arena.cost(key.len()) + 16;
            if !fits(needed) {
                return Err(needed);
            }
        }
        let switch = entries >= MAX_CHAIN && !sip;
        if switch {
            self.switch_to_sip(w);
            // The table changed: void every outstanding hint now, in case
            // this insert fails below.
            self.bump_inserts();
            full = self.sip_key.hash_one(key);
        }
        let h32 = tag32(full);
        let (record, at) = w.arena.push(key, h32, local + 1, &self.chunks);
        let Some(x) = slot_value(tag16(full), at) else {
            // Unreachable on supported targets; the unpublished record is
            // left unused (never referenced, freed with the arena).
            return Err(0);
        };
        let (cell, added) = self.records.reserve(local as usize);
        w.segment_bytes += added;
        // SAFETY: `cell` is in an allocated segment and not yet published
        // (`local >= len`), so no reader looks at it.
        unsafe { cell.write(record) };
        self.len.store(local + 1, Ordering::Release);
        if switch {
            self.append(w, address(h32, self.shape.load(Ordering::Relaxed)), x);
        } else {
            self.append_tail(w, tail, x);
        }
        let shape = self.shape.load(Ordering::Relaxed);
        if (local as usize + 1) > live_buckets(shape) * SPLIT_LOAD {
            self.split_one(w);
        }
        self.update_bytes(w);
        self.bump_inserts();
        Ok(local + 1)
    }

    /// Record that the table changed (see [`MissHint`]). Writer only: every
    /// change must be followed by a bump before the lock is released.
    fn bump_inserts(&self) {
        let inserts = self.inserts.load(Ordering::Relaxed);
        self.inserts
            .store(inserts.wrapping_add(1), Ordering::Release);
    }

    /// Table statistics (walks every chain under the lock).
    pub(crate) fn stats(&self) -> ShardStats {
        let w = self.lock();
        let shape = self.shape.load(Ordering::Relaxed);
        let mut longest = 0;
        for index in 0..live_buckets(shape) {
            // SAFETY: writer context, live bucket.
            let mut bucket = unsafe { self.bucket(index) };
            let mut entries = 0;
            loop {
                entries += bucket
                    .slots
                    .iter()
                    .filter(|s| s.load(Ordering::Relaxed) != 0)
                    .count();
                let next = bucket.next.load(Ordering::Relaxed);
                if next == 0 {
                    break;
                }
                // SAFETY: linked overflow buckets are initialised.
                bucket = unsafe { self.overflow_bucket(next - 1) };
            }
            longest = longest.max(entries);
        }
        ShardStats {
            longest_chain: longest,
            buckets: live_buckets(shape),
            overflow_buckets: w.overflow_len as usize - w.free_overflow.len(),
            probes: w.probes,
            splits: w.splits,
            sip: shape & SIP != 0,
        }
    }

    /// `(hash32, local + 1)` of every entry, and whether the hashes are
    /// SipHash values rather than the default hash (for `freeze`).
    pub(crate) fn entries(&self, out: &mut Vec<(u32, u32)>) -> bool {
        let _w = self.lock();
        let shape = self.shape.load(Ordering::Relaxed);
        for index in 0..live_buckets(shape) {
            // SAFETY: writer context, live bucket.
            let mut bucket = unsafe { self.bucket(index) };
            loop {
                for s in &bucket.slots {
                    let x = s.load(Ordering::Relaxed);
                    if x != 0 {
                        // SAFETY: writer context, complete record.
                        let record = slot_record(x);
                        // SAFETY: as above.
                        out.push(unsafe { (record_hash32(record), record_local1(record)) });
                    }
                }
                let next = bucket.next.load(Ordering::Relaxed);
                if next == 0 {
                    break;
                }
                // SAFETY: linked overflow buckets are initialised.
                bucket = unsafe { self.overflow_bucket(next - 1) };
            }
        }
        shape & SIP != 0
    }
}

// SAFETY: the record cells are raw pointers into the shard's own arena
// (owned, freed only on drop) and are written only under the lock before
// being published with Release; every other field is atomic or locked.
unsafe impl Send for Shard {}
// SAFETY: as above: shared access reads published, immutable records.
unsafe impl Sync for Shard {}
// SAFETY: the writer state owns its arena and vectors; it is only accessed
// under the shard mutex.
unsafe impl Send for Writer {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_eq_matches_slice_eq() {
        // Every length class (byte loop, 4-, 8-, 16-byte words, memcmp),
        // a difference at every position, and unequal lengths.
        for n in 0..=40usize {
            let a: Vec<u8> = (0..n as u8).map(|i| i.wrapping_mul(37)).collect();
            assert!(bytes_eq(&a, &a.clone()), "n={n}");
            for i in 0..n {
                let mut b = a.clone();
                b[i] ^= 0x80;
                assert!(!bytes_eq(&a, &b), "n={n} i={i}");
                assert!(!bytes_eq(&b, &a), "n={n} i={i}");
            }
            if n > 0 {
                assert!(!bytes_eq(&a, &a[..n - 1]), "n={n}");
            }
        }
    }

    #[test]
    fn address_covers_live_buckets() {
        for level in 0..6u32 {
            let n0 = 1usize << level;
            for split in 0..n0 {
                let shape = (u64::from(level) << 32) | split as u64;
                for h in 0..512u32 {
                    assert!(address(h, shape) < live_buckets(shape));
                }
            }
        }
    }

    #[test]
    fn insert_find_split() {
        let shard = Shard::new(0);
        // Under Miri: fewer keys, still enough for many splits and
        // overflow buckets.
        let n = if cfg!(miri) { 400 } else { 5000 };
        let keys: Vec<String> = (0..n).map(|i| format!("key{i}")).collect();
        for (i, k) in keys.iter().enumerate() {
            let h = crate::hash::hash_bytes(k.as_bytes());
            assert_eq!(shard.find(h, k.as_bytes()), None);
            let l = shard.insert(h, k.as_bytes(), u32::MAX, None, None).unwrap();
            assert_eq!(l, i as u32 + 1);
            assert_eq!(shard.find(h, k.as_bytes()), Some(l));
        }
        for (i, k) in keys.iter().enumerate() {
            let h = crate::hash::hash_bytes(k.as_bytes());
            assert_eq!(shard.find(h, k.as_bytes()), Some(i as u32 + 1));
            assert_eq!(shard.resolve(i as u32), Some(k.as_bytes()));
        }
        let stats = shard.stats();
        assert!(stats.buckets >= n / SPLIT_LOAD);
        assert!(!stats.sip);
        assert!(stats.longest_chain <= MAX_CHAIN);
    }
}
