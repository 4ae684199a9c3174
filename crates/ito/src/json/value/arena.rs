//! [`Arena`]: memory for the arrays, objects and decoded strings of
//! parsed documents, freed all at once.
//!
//! ```text
//! chunks:  a few large blocks: 4 KiB, then doubling up to 256 KiB (or
//!          the size asked for, when larger)
//! alloc:   bump a cursor through the current block; a request that does
//!          not fit opens a new block (the rest of the old one is unused)
//! free:    nothing per allocation; every block when the arena is dropped
//!          (or all but the largest on `reset`)
//! spare:   a thread keeps up to 8 MiB of 256 KiB blocks from its dropped
//!          arenas, and its next arenas take them before the allocator
//! indexes: the lookup indexes that large objects build on their first
//!          lookup are handed to the arena, which frees them with its
//!          blocks (`object.rs`)
//! ```
//!
//! Why the spare blocks: an arena per document frees megabytes at once,
//! which the system allocator (glibc) gives back to the kernel, and the
//! next document faults every page in again: 427 page faults per citm
//! parse, 1.7× the time of the heap parse (bench/RESULTS.md,
//! 2026-11-29 05:50). sonic-rs keeps a per-thread buffer for the same
//! reason.
//!
//! A parse into an arena ([`Value::from_slice_in`]) moves each closed
//! container's children here instead of into a heap allocation of their
//! own, and the decoded text of each escaped string: one bump instead of a
//! `malloc`, and no `free` per container or string when the document is
//! dropped. With the indexes, nothing of such a document is on the heap
//! (except duplicate-key objects and long exact numbers), so dropping it
//! walks nothing. The `Value` borrows the arena (`'a`), so the
//! arena cannot be dropped or reset while a value points into it.
//!
//! [`Value::from_slice_in`]: super::Value::from_slice_in

use std::alloc::{self, Layout};
use std::cell::{Cell, RefCell, UnsafeCell};
use std::fmt;
use std::ptr::NonNull;

use super::object::Indexes;

/// Alignment of every block and every allocation (`Value`'s, and that of
/// an object member).
const ALIGN: usize = 8;

/// The first block when none was asked for.
const FIRST: usize = 4096;

/// The largest block the doubling reaches (a single larger request gets
/// a block of its size): the unused tail of the last block stays under
/// it, so a document holds at most this much more than it uses.
const BLOCK_MAX: usize = 256 * 1024;

/// How many `BLOCK_MAX` blocks a thread keeps from dropped arenas (8 MiB).
const SPARE_MAX: usize = 32;

/// Blocks of `BLOCK_MAX` bytes from this thread's dropped arenas.
struct Spare(Vec<NonNull<u8>>);

impl Drop for Spare {
    fn drop(&mut self) {
        for &ptr in &self.0 {
            // SAFETY: each was a `BLOCK_MAX` block of an arena, allocated
            // in `open` with `layout(BLOCK_MAX)`, and is owned by `Spare`
            // alone since that arena's drop.
            unsafe { alloc::dealloc(ptr.as_ptr(), layout(BLOCK_MAX)) };
        }
    }
}

thread_local! {
    static SPARE: RefCell<Spare> = const { RefCell::new(Spare(Vec::new())) };
}

/// Memory for the containers of parsed documents (see
/// [`Value::from_slice_in`](super::Value::from_slice_in)): a few large
/// blocks, filled in order and freed together when the arena is dropped.
///
/// ```
/// use ito::json::{Arena, Value};
/// let arena = Arena::new();
/// let v = Value::from_str_in(&arena, r#"{"a": [1, 2, 3]}"#).unwrap();
/// assert_eq!(v["a"][2], 3);
/// assert!(arena.allocated() > 0);
/// ```
///
/// A value cannot outlive its arena:
///
/// ```compile_fail
/// use ito::json::{Arena, Value};
/// let v;
/// {
///     let arena = Arena::new();
///     v = Value::from_str_in(&arena, "[1]").unwrap();
/// } // `arena` dropped here while `v` still borrows it
/// assert_eq!(v[0], 1);
/// ```
pub struct Arena {
    /// The next free byte of the current block (dangling when there is none).
    cursor: Cell<NonNull<u8>>,
    /// Bytes left in the current block after `cursor`.
    left: Cell<usize>,
    /// Every block, the current one last, with its size in bytes.
    blocks: UnsafeCell<Vec<(NonNull<u8>, usize)>>,
    /// The lookup indexes its large objects built (`object.rs`).
    indexes: Indexes,
}

// SAFETY: the arena owns its blocks (plain bytes, no thread affinity);
// moving it to another thread moves that ownership. It is not `Sync`
// (`Cell`): two threads never bump the cursor at once.
unsafe impl Send for Arena {}

impl Arena {
    /// An empty arena; its first block is allocated on first use.
    ///
    /// ```
    /// let arena = ito::json::Arena::new();
    /// assert_eq!(arena.allocated(), 0);
    /// ```
    pub fn new() -> Arena {
        Arena {
            cursor: Cell::new(NonNull::dangling()),
            left: Cell::new(0),
            blocks: UnsafeCell::new(Vec::new()),
            indexes: Indexes::new(),
        }
    }

    /// An arena whose first block holds `bytes` bytes (about 32 per array
    /// element and 56 per object member on 64-bit targets).
    ///
    /// ```
    /// let arena = ito::json::Arena::with_capacity(1 << 16);
    /// assert!(arena.allocated() >= 1 << 16);
    /// ```
    pub fn with_capacity(bytes: usize) -> Arena {
        let arena = Arena::new();
        if bytes > 0 {
            arena.open(bytes, true);
        }
        arena
    }

    /// The bytes held in blocks (used or not).
    ///
    /// ```
    /// let arena = ito::json::Arena::new();
    /// let _v = ito::json::Value::from_str_in(&arena, "[[1], [2]]").unwrap();
    /// assert!(arena.allocated() >= 3 * 32);
    /// ```
    pub fn allocated(&self) -> usize {
        // SAFETY: `blocks` is only changed by `open` and `reset`, neither
        // of which is running (no reference to it escapes them).
        unsafe { &*self.blocks.get() }.iter().map(|b| b.1).sum()
    }

    /// Frees every block but the largest and makes it empty again, for
    /// the next document (needs `&mut`: no value points into the arena).
    ///
    /// ```
    /// let mut arena = ito::json::Arena::new();
    /// for text in ["[1, [2]]", "[3]"] {
    ///     let v = ito::json::Value::from_str_in(&arena, text).unwrap();
    ///     assert!(v[0].is_u64());
    ///     drop(v);
    ///     arena.reset();
    /// }
    /// ```
    pub fn reset(&mut self) {
        self.indexes.clear();
        let blocks = self.blocks.get_mut();
        let Some(largest) = blocks.iter().map(|b| b.1).max() else {
            return;
        };
        let mut kept = None;
        for (ptr, size) in blocks.drain(..) {
            if kept.is_none() && size == largest {
                kept = Some((ptr, size));
            } else {
                // SAFETY: allocated in `open` with this size and `ALIGN`,
                // and no longer listed.
                unsafe { alloc::dealloc(ptr.as_ptr(), layout(size)) };
            }
        }
        let (ptr, size) = kept.expect("the largest block is among them");
        blocks.push((ptr, size));
        self.cursor.set(ptr);
        self.left.set(size);
    }

    /// Room for `n` values of type `T`, uninitialised, aligned for `T`.
    ///
    /// # Panics
    ///
    /// When `n` values of `T` overflow `isize`, or the global allocator
    /// fails (as `Vec` does).
    #[inline(always)]
    #[cfg_attr(not(feature = "serde"), allow(dead_code))] // the parser (serde feature) is its user
    pub(super) fn alloc<T>(&self, n: usize) -> NonNull<T> {
        const { assert!(std::mem::align_of::<T>() <= ALIGN && std::mem::size_of::<T>() > 0) };
        let bytes = n
            .checked_mul(std::mem::size_of::<T>())
            .and_then(|b| b.checked_next_multiple_of(ALIGN))
            .expect("arena allocation size overflows");
        if bytes > self.left.get() {
            self.open(bytes, false);
        }
        let at = self.cursor.get();
        // SAFETY: `bytes <= left`, so `at + bytes` stays in the current
        // block (or one past its end).
        self.cursor.set(unsafe { at.add(bytes) });
        self.left.set(self.left.get() - bytes);
        // Blocks start `ALIGN`-aligned and every allocation is a multiple
        // of `ALIGN` bytes, so `at` is aligned for `T`.
        at.cast()
    }

    /// The free room of the current block, as space for `T`s, without
    /// taking it (a new block first when fewer than `min` fit): where the
    /// parser writes an array of numbers in place, so that it needs no
    /// copy from its scratch stack. Nothing else may allocate from the
    /// arena until [`take`](Self::take) (or until the room is abandoned).
    ///
    /// # Panics
    ///
    /// As [`alloc`](Self::alloc).
    #[inline(always)]
    #[cfg_attr(not(feature = "serde"), allow(dead_code))] // the parser (serde feature) is its user
    pub(super) fn room<T>(&self, min: usize) -> (NonNull<T>, usize) {
        const { assert!(std::mem::align_of::<T>() <= ALIGN && std::mem::size_of::<T>() > 0) };
        let size = std::mem::size_of::<T>();
        if self.left.get() / size < min {
            let bytes = min
                .checked_mul(size)
                .and_then(|b| b.checked_next_multiple_of(ALIGN))
                .expect("arena allocation size overflows");
            self.open(bytes, false);
        }
        // The cursor is `ALIGN`-aligned (see `alloc`), so aligned for `T`.
        (self.cursor.get().cast(), self.left.get() / size)
    }

    /// Takes the first `n` `T`s of the room [`room`](Self::room) returned,
    /// as [`alloc`](Self::alloc) would have.
    ///
    /// # Safety
    ///
    /// `n` is at most the count `room` returned, and nothing was taken
    /// from the arena since.
    #[inline(always)]
    #[cfg_attr(not(feature = "serde"), allow(dead_code))] // the parser (serde feature) is its user
    pub(super) unsafe fn take<T>(&self, n: usize) {
        // `n * size_of::<T>() <= left` (the caller's promise): no overflow.
        // Rounded up to `ALIGN` so that the cursor stays aligned, as
        // `alloc` does (a `Value` is 32 bytes on 64-bit targets, 20 or 24
        // on 32-bit ones); at most to the block's end, where `left` is 0
        // and the next allocation opens a block.
        let bytes = n * std::mem::size_of::<T>();
        debug_assert!(bytes <= self.left.get());
        let bytes = bytes.next_multiple_of(ALIGN).min(self.left.get());
        // SAFETY: `bytes <= left`: `cursor + bytes` stays in the block.
        self.cursor.set(unsafe { self.cursor.get().add(bytes) });
        self.left.set(self.left.get() - bytes);
    }

    /// The list of lookup indexes that its objects hand over.
    #[inline(always)]
    #[cfg_attr(not(feature = "serde"), allow(dead_code))] // the parser (serde feature) is its user
    pub(super) fn indexes(&self) -> &Indexes {
        &self.indexes
    }

    /// A copy of `s` in the arena (the decoded text of an escaped string).
    #[inline]
    #[cfg_attr(not(feature = "serde"), allow(dead_code))] // the parser (serde feature) is its user
    pub(super) fn alloc_str(&self, s: &str) -> &str {
        if s.is_empty() {
            return "";
        }
        let dst = self.alloc::<u8>(s.len());
        // SAFETY: `dst` is `s.len()` fresh bytes of this arena, which
        // nothing else writes or frees until the arena is dropped or
        // reset, both of which need the `&self` borrow returned to have
        // ended; they now hold a copy of `s`, so they are UTF-8.
        unsafe {
            std::ptr::copy_nonoverlapping(s.as_ptr(), dst.as_ptr(), s.len());
            std::str::from_utf8_unchecked(std::slice::from_raw_parts(dst.as_ptr(), s.len()))
        }
    }

    /// Opens a block of `bytes` bytes (`exact`), or of at least `bytes`
    /// and twice the last one, up to `BLOCK_MAX` (a spare block first).
    #[cold]
    #[inline(never)]
    fn open(&self, bytes: usize, exact: bool) {
        // SAFETY: no other reference to `blocks` is alive (see `allocated`).
        let blocks = unsafe { &mut *self.blocks.get() };
        if !exact && bytes <= BLOCK_MAX {
            // A spare block if the thread has one (none while the thread's
            // locals are being destroyed).
            let spare = SPARE
                .try_with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.0.pop()))
                .ok()
                .flatten();
            if let Some(ptr) = spare {
                blocks.push((ptr, BLOCK_MAX));
                self.cursor.set(ptr);
                self.left.set(BLOCK_MAX);
                return;
            }
        }
        let next = blocks.last().map_or(FIRST, |b| b.1.saturating_mul(2));
        let size = if exact {
            bytes.max(ALIGN)
        } else {
            bytes.max(next.min(BLOCK_MAX)).max(ALIGN)
        };
        let layout = layout(size);
        // SAFETY: `size > 0`.
        let Some(ptr) = NonNull::new(unsafe { alloc::alloc(layout) }) else {
            alloc::handle_alloc_error(layout)
        };
        blocks.push((ptr, size));
        self.cursor.set(ptr);
        self.left.set(size);
    }
}

fn layout(size: usize) -> Layout {
    Layout::from_size_align(size, ALIGN).expect("arena block size overflows isize")
}

impl Drop for Arena {
    fn drop(&mut self) {
        let blocks = std::mem::take(self.blocks.get_mut());
        let mut blocks = blocks.into_iter();
        // No value points into the blocks any more (they borrowed the
        // arena): the thread keeps the full-size ones as spares.
        let _ = SPARE.try_with(|s| {
            if let Ok(mut s) = s.try_borrow_mut() {
                for (ptr, size) in blocks.by_ref() {
                    if size == BLOCK_MAX && s.0.len() < SPARE_MAX {
                        s.0.push(ptr);
                    } else {
                        // SAFETY: allocated in `open` (or taken as a spare)
                        // with this size and `ALIGN`.
                        unsafe { alloc::dealloc(ptr.as_ptr(), layout(size)) };
                    }
                }
            }
        });
        // Left when the thread's spares are gone or borrowed.
        for (ptr, size) in blocks {
            // SAFETY: as above.
            unsafe { alloc::dealloc(ptr.as_ptr(), layout(size)) };
        }
    }
}

impl Default for Arena {
    fn default() -> Self {
        Arena::new()
    }
}

impl fmt::Debug for Arena {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Arena")
            .field("allocated", &self.allocated())
            .field("left", &self.left.get())
            .finish()
    }
}
