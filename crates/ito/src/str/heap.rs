//! The heap representation: ONE allocation, header then bytes.
//!
//! ```text
//! allocation (align 8), HEADER = 24 bytes (64- and 32-bit targets):
//! +--------+-------+-----+----------------+--------+---------------+
//! | rc: u32| facts | pad | hash: AtomicU64| cap    | bytes[0..cap] |
//! | 0..4   | 4     | 5..8| 8..16          | 16..24 | 24..24+cap    |
//! +--------+-------+-----+----------------+--------+---------------+
//!                                                    ^
//! Str handle (24 bytes):  [ data ptr | len | pad | tag ]-'
//! tag = 0b1 0 0 11111   (bit 7 set: the only form that owns a count)
//! ```
//!
//! - On 32-bit targets (wasm32, i686) `cap` is 4 bytes followed by 4 bytes
//!   of padding (`AtomicU64` is 8-aligned everywhere): still 24 bytes,
//!   asserted below.
//! - The handle points at the *bytes*, not the header, so `Deref` is
//!   `(ptr, len)` straight from the handle, shared with the static
//!   representation; the header sits at `ptr - HEADER`. The length lives
//!   only in the handle (every handle of one allocation has the same one).
//! - `rc` counts handles. Clone is one `fetch_add(Relaxed)`. Drop first
//!   loads the count (`Acquire`): at 1 this handle is the only one (no
//!   other can be cloned from, as cloning needs a handle), so it frees
//!   without a locked instruction; otherwise `fetch_sub(Release)` and, for
//!   the last handle, an `Acquire` fence and one `dealloc` (the `Arc`
//!   protocol). The shortcut matters because a string is usually dropped
//!   by its only owner soon after it was built: a locked decrement waits
//!   for the copy's stores to drain, ~4 ns of a 64-byte build + drop on
//!   Zen 5 (13.2 -> 9.3 ns; 2026-11-25), while clone + drop of a shared
//!   string stays at 1.00x `Arc<str>`. The count is 32 bits (so the facts
//!   byte fits beside it); like `Arc`, more than `i32::MAX` handles abort
//!   the process (they can only come from leaking handles in a loop).
//! - `facts` is what is known of the bytes' facts (a [`Known`] byte):
//!   builders store what they got for free, often nothing; the first
//!   `is_ascii`/`is_json_safe`/`quote_str` that needs an unknown fact
//!   computes it and stores it here, where every clone sees it. A relaxed
//!   load and a relaxed store suffice: every thread computes the same value
//!   of the same immutable bytes, so racing stores only ever write true
//!   knowledge (a store that loses a race can forget a fact another thread
//!   learned at the same moment; it is then computed again, never wrong).
//! - `hash` caches [`crate::hash::hash_bytes`] of the bytes; 0 means "not yet
//!   computed" (a string whose real hash is 0 is simply recomputed each time,
//!   a 2^-64 event), so a string that is never hashed is never hashed.
//! - `cap >= len` is the allocation's byte capacity: exact-size builders
//!   (`format!`, `concat!`, `Str::from(&str)`) have `cap == len`; a frozen
//!   `StrBuf` keeps its spare capacity (that is what makes `freeze` O(1)).
//!   Only the free reads it.
//!
//! Under `--cfg loom` the atomics are loom's, so `tests/loom_str.rs`
//! model-checks this very code (the count and the facts cache).

use super::known::Known;
#[cfg(loom)]
use loom::sync::atomic::{fence, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::alloc::{self, Layout};
#[cfg(not(loom))]
use std::sync::atomic::{fence, AtomicU32, AtomicU64, AtomicU8, Ordering};

/// The header in front of the bytes of a heap `Str`.
#[repr(C)]
pub(crate) struct Header {
    pub(crate) rc: AtomicU32,
    pub(crate) facts: AtomicU8,
    pub(crate) hash: AtomicU64,
    pub(crate) cap: usize,
}

/// Bytes before the data: the header rounded up to its alignment.
pub(crate) const HEADER: usize = std::mem::size_of::<Header>();
// 64-bit: 4 + 1 (+ 3 padding) + 8 + 8. 32-bit: 4 + 1 (+ 3) + 8 + 4,
// rounded up to 24. (loom's atomics are larger.)
#[cfg(not(loom))]
const _: () = assert!(HEADER == 24);
const _: () = assert!(HEADER.is_multiple_of(std::mem::align_of::<Header>()));

/// The layout of an allocation with room for `cap` bytes after the header.
///
/// # Panics
/// If `cap` is so large the size overflows `isize`.
#[inline]
pub(crate) fn layout(cap: usize) -> Layout {
    match HEADER
        .checked_add(cap)
        .and_then(|size| Layout::from_size_align(size, std::mem::align_of::<Header>()).ok())
    {
        Some(l) => l,
        None => capacity_overflow(),
    }
}

#[cold]
fn capacity_overflow() -> ! {
    panic!("ito::Str: capacity overflow")
}

/// Allocate room for a header and `cap` bytes; returns the *data* pointer.
/// The header is left uninitialised (see [`init_header`]).
#[inline]
pub(crate) fn alloc_data(cap: usize) -> *mut u8 {
    let layout = layout(cap);
    // SAFETY: the layout has non-zero size (HEADER > 0).
    let base = unsafe { alloc::alloc(layout) };
    if base.is_null() {
        alloc::handle_alloc_error(layout);
    }
    // SAFETY: the allocation is HEADER + cap bytes long.
    unsafe { base.add(HEADER) }
}

/// Grow an allocation made by [`alloc_data`] from `old_cap` to `new_cap`
/// bytes, keeping its contents; returns the new data pointer.
///
/// # Safety
/// `data` came from [`alloc_data`]/[`realloc_data`] with capacity `old_cap`
/// and has not been freed.
pub(crate) unsafe fn realloc_data(data: *mut u8, old_cap: usize, new_cap: usize) -> *mut u8 {
    let new_layout = layout(new_cap);
    // SAFETY: `data - HEADER` is the start of the allocation made with
    // `layout(old_cap)`; the new size is non-zero and fits isize (checked by
    // `layout`).
    let base = unsafe { alloc::realloc(data.sub(HEADER), layout(old_cap), new_layout.size()) };
    if base.is_null() {
        alloc::handle_alloc_error(new_layout);
    }
    // SAFETY: the allocation is HEADER + new_cap bytes long.
    unsafe { base.add(HEADER) }
}

/// Free an allocation made by [`alloc_data`] with capacity `cap`.
///
/// # Safety
/// `data` came from [`alloc_data`]/[`realloc_data`] with capacity `cap`, is
/// not used afterwards, and no handle refers to it any more.
#[inline]
pub(crate) unsafe fn free_data(data: *mut u8, cap: usize) {
    // SAFETY: per the contract, `data - HEADER` is the allocation's start
    // and it was made with `layout(cap)`, whose checks passed then: the
    // same size and alignment are valid now, so they need no new check.
    unsafe {
        let layout =
            Layout::from_size_align_unchecked(HEADER + cap, std::mem::align_of::<Header>());
        alloc::dealloc(data.sub(HEADER), layout)
    }
}

/// Write a fresh header (refcount 1, facts `known`, hash unknown) in front
/// of `data`.
///
/// # Safety
/// `data` came from [`alloc_data`]/[`realloc_data`] with capacity `cap`, and
/// `known` is true of the bytes the `Str` will hold.
#[inline]
pub(crate) unsafe fn init_header(data: *mut u8, cap: usize, known: Known) {
    // SAFETY: the header slot precedes `data` in the same allocation, is
    // suitably aligned (allocation align 8, HEADER multiple of 8), and is not
    // shared with anybody yet.
    unsafe {
        data.sub(HEADER).cast::<Header>().write(Header {
            rc: AtomicU32::new(1),
            facts: AtomicU8::new(known.bits()),
            hash: AtomicU64::new(0),
            cap,
        })
    }
}

/// The header of a live heap string.
///
/// # Safety
/// `data` is the data pointer of a heap `Str` that is still alive for `'a`.
#[inline]
pub(crate) unsafe fn header<'a>(data: *const u8) -> &'a Header {
    // SAFETY: per the contract the header was initialised by `init_header`
    // and lives as long as any handle.
    unsafe { &*data.sub(HEADER).cast::<Header>() }
}

/// One more handle: one atomic increment.
///
/// # Safety
/// `data` is the data pointer of a live heap `Str`.
#[inline]
pub(crate) unsafe fn retain(data: *const u8) {
    // SAFETY: forwarded contract.
    let old = unsafe { header(data) }.rc.fetch_add(1, Ordering::Relaxed);
    // Like `Arc`: more than i32::MAX handles means leaked handles were
    // being created in a loop; abort instead of risking an overflow (the
    // other half of the range is headroom for racing increments).
    if old > i32::MAX as u32 {
        std::process::abort();
    }
}

/// One handle fewer; frees the allocation with the last one.
///
/// A sole owner frees at once; otherwise the `Arc` protocol: a Release
/// decrement, and an Acquire fence only on the last one (see the module
/// docs).
///
/// # Safety
/// `data` is the data pointer of a live heap `Str` whose handle is being
/// dropped (and not used again).
#[inline]
pub(crate) unsafe fn release(data: *const u8) {
    // SAFETY: forwarded contract; the handle being dropped still counts.
    let rc = &unsafe { header(data) }.rc;
    // Sole owner (see the module docs): a count of 1 cannot grow while we
    // hold the only handle, and the Acquire load orders the other handles'
    // earlier Release decrements (and their reads of the bytes) before the
    // free.
    if rc.load(Ordering::Acquire) == 1 {
        // SAFETY: this is the last handle.
        return unsafe { release_last(data) };
    }
    if rc.fetch_sub(1, Ordering::Release) == 1 {
        // SAFETY: that was the last handle.
        unsafe { release_last(data) }
    }
}

/// Free the allocation after the last handle's decrement. Inlined: a
/// string is usually dropped by its only owner, so this is the common
/// path of a drop, not a cold one (a call here cost about a nanosecond of
/// a 17 ns build + drop).
///
/// # Safety
/// `data` is the data pointer of a heap `Str` whose count just dropped to 0.
#[inline]
unsafe fn release_last(data: *const u8) {
    // Pairs with the other handles' Release decrements: their uses of the
    // bytes happen before the free.
    fence(Ordering::Acquire);
    // SAFETY: forwarded contract: no handle is left, so the header is ours.
    let cap = unsafe { header(data) }.cap;
    // SAFETY: the allocation was made with `cap` by `alloc_data`.
    unsafe { free_data(data.cast_mut(), cap) }
}

/// The cached content hash, computing and caching it on first use.
///
/// # Safety
/// `data`/`len` are the data pointer and length of a live heap `Str`.
#[inline]
pub(crate) unsafe fn content_hash(data: *const u8, len: usize) -> u64 {
    // SAFETY: forwarded contract.
    let h = unsafe { header(data) };
    let cached = h.hash.load(Ordering::Relaxed);
    if cached != 0 {
        return cached;
    }
    // SAFETY: the bytes are initialised and immutable while handles live.
    let fresh = crate::hash::hash_bytes(unsafe { std::slice::from_raw_parts(data, len) });
    // Racing threads compute the same value; Relaxed is enough because the
    // value is a pure function of immutable bytes.
    h.hash.store(fresh, Ordering::Relaxed);
    fresh
}

/// What is known of the facts of a live heap string's bytes.
///
/// # Safety
/// `data` is the data pointer of a live heap `Str`.
#[inline(always)]
pub(crate) unsafe fn known(data: *const u8) -> Known {
    // SAFETY: forwarded contract.
    Known::from_bits(unsafe { header(data) }.facts.load(Ordering::Relaxed))
}

/// Add `k` to what is known of a live heap string's facts.
///
/// A relaxed load and store, not a locked `fetch_or`: see the module doc
/// for why a lost race is harmless.
///
/// # Safety
/// `data` is the data pointer of a live heap `Str`, and `k` is true of its
/// bytes.
#[inline(always)]
pub(crate) unsafe fn learn(data: *const u8, k: Known) {
    // SAFETY: forwarded contract.
    let f = &unsafe { header(data) }.facts;
    let old = Known::from_bits(f.load(Ordering::Relaxed));
    f.store(old.learn(k).bits(), Ordering::Relaxed);
}
