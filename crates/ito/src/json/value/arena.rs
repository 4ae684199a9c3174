//! [`Arena`]: memory for the arrays and objects of parsed documents,
//! freed all at once.
//!
//! ```text
//! chunks:  a few large blocks (4 KiB, then doubling, or the size asked for)
//! alloc:   bump a cursor through the current block; a request that does
//!          not fit opens a new block (the rest of the old one is unused)
//! free:    nothing per allocation; every block when the arena is dropped
//!          (or all but the largest on `reset`)
//! ```
//!
//! A parse into an arena ([`Value::from_slice_in`]) moves each closed
//! container's children here instead of into a heap allocation of their
//! own: one bump instead of a `malloc`, and no `free` per container when
//! the document is dropped. The `Value` borrows the arena (`'a`), so the
//! arena cannot be dropped or reset while a value points into it.
//!
//! [`Value::from_slice_in`]: super::Value::from_slice_in

use std::alloc::{self, Layout};
use std::cell::{Cell, UnsafeCell};
use std::fmt;
use std::ptr::NonNull;

/// Alignment of every block and every allocation (`Value`'s, and that of
/// an object member).
const ALIGN: usize = 8;

/// The first block when none was asked for.
const FIRST: usize = 4096;

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
            arena.open(bytes);
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
    pub(super) fn alloc<T>(&self, n: usize) -> NonNull<T> {
        const { assert!(std::mem::align_of::<T>() <= ALIGN && std::mem::size_of::<T>() > 0) };
        let bytes = n
            .checked_mul(std::mem::size_of::<T>())
            .and_then(|b| b.checked_next_multiple_of(ALIGN))
            .expect("arena allocation size overflows");
        if bytes > self.left.get() {
            self.open(bytes);
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

    /// Opens a block of at least `bytes` bytes (and twice the last one).
    #[cold]
    #[inline(never)]
    fn open(&self, bytes: usize) {
        // SAFETY: no other reference to `blocks` is alive (see `allocated`).
        let blocks = unsafe { &mut *self.blocks.get() };
        let size = bytes
            .max(blocks.last().map_or(FIRST, |b| b.1.saturating_mul(2)))
            .max(ALIGN);
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
        for &(ptr, size) in self.blocks.get_mut().iter() {
            // SAFETY: allocated in `open` with this size and `ALIGN`; no
            // value points into it any more (they borrowed the arena).
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
