//! A counting global allocator. It forwards every call to [`System`] and
//! counts, per thread, the allocations made (`alloc`, `alloc_zeroed` and
//! `realloc` calls) and the live bytes (bytes allocated minus bytes freed; a
//! `realloc` adds its change in size). Per-thread counters let the test
//! harness run tests in parallel without disturbing each other's counts.
//!
//! A test binary installs it with
//!
//! ```ignore
//! mod common;
//!
//! #[global_allocator]
//! static GLOBAL: common::alloc::Counting = common::alloc::Counting;
//! ```
//!
//! and measures a closure with [`allocations`] or [`live_bytes`]. Without
//! that line both count nothing (and return 0).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The counting allocator; see the module docs.
pub(crate) struct Counting;

thread_local! {
    // `const` thread-locals without `Drop`: reading or writing them never
    // allocates, so the allocator can use them.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static LIVE_BYTES: Cell<isize> = const { Cell::new(0) };
}

/// Counts one allocation of `bytes` bytes on this thread.
fn note_alloc(bytes: isize) {
    // try_with: the allocator may run while this thread's locals are torn
    // down; those calls go uncounted.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
    note_bytes(bytes);
}

/// Adds `bytes` (negative when freeing) to this thread's live bytes.
fn note_bytes(bytes: isize) {
    let _ = LIVE_BYTES.try_with(|c| c.set(c.get() + bytes));
}

// SAFETY: every call is forwarded to `System` unchanged, with the caller's
// arguments, so `System`'s guarantees are ours; the counting only touches
// const-initialised thread-locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_alloc(layout.size() as isize);
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which
        // is `System.alloc`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_alloc(layout.size() as isize);
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note_bytes(-(layout.size() as isize));
        // SAFETY: `ptr` came from this allocator, which got it from
        // `System` with the same `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_alloc(new_size as isize - layout.size() as isize);
        // SAFETY: as for `dealloc`; the caller upholds `realloc`'s contract
        // on `new_size`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Runs `f` and returns its result with the number of allocations (`alloc`,
/// `alloc_zeroed` and `realloc` calls) made on this thread meanwhile.
pub(crate) fn allocations<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = ALLOCATIONS.with(Cell::get);
    let out = f();
    (out, ALLOCATIONS.with(Cell::get) - before)
}

/// Runs `f` and returns its result with the change in live heap bytes on
/// this thread meanwhile: bytes allocated minus bytes freed (negative when
/// `f` frees more than it keeps). Memory freed by another thread than the
/// one that allocated it counts on the freeing thread.
pub(crate) fn live_bytes<T>(f: impl FnOnce() -> T) -> (T, isize) {
    let before = LIVE_BYTES.with(Cell::get);
    let out = f();
    (out, LIVE_BYTES.with(Cell::get) - before)
}
