//! [`Seq`]: the storage of an array's elements or an object's members,
//! either in an [`Arena`](super::Arena) or on the heap, in 16 bytes.
//!
//! ```text
//! ptr  len  cap
//!  .    n   >0   heap: a Vec's allocation, freed on drop
//!  .    n    0   arena (or empty): never freed here; the arena frees it
//!  .    n   MAX  arena, and nothing below owns memory: dropped without
//!                a walk (the parser proves it; `&mut` access ends it)
//! ```
//!
//! Reading and changing elements in place works on either. Whatever
//! changes the length goes through a `Vec`: a heap `Seq` lends its own
//! allocation, an arena one is first copied into a new heap allocation
//! (copy on grow; the arena's copy is then left unused). Dropping a `Seq`
//! drops its elements either way (a value moved into an arena slot, by
//! `get_mut` say, may own heap memory), unless it is marked pure: the
//! parser marks an arena container whose elements own nothing, down to
//! the leaves (borrowed or inline strings, plain numbers, pure containers,
//! no object large enough to build a lookup index), and the only way to
//! change an element, `as_mut_slice`, takes the mark off. Every container
//! on the path to a changed element was reached through `as_mut_slice`,
//! so none of them skips the walk that drops it. (Skipping a drop is
//! never unsafe, only a leak; Miri's leak check is the test.)
//!
//! Lengths and capacities are `u32`, so that an object (this, plus its
//! lookup index) and a string fit in a 32-byte `Value`; more than
//! `u32::MAX` elements in one container is an error in the parser and a
//! panic in `push` (as a `Vec`'s capacity overflow is).

use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::ptr::NonNull;

use super::Arena;

/// Elements in an arena or on the heap (see the module docs).
pub(super) struct Seq<'a, T> {
    ptr: NonNull<T>,
    len: u32,
    /// 0: not ours to free (arena, or nothing allocated); `PURE`: arena,
    /// and nothing to drop below.
    cap: u32,
    /// Borrows the arena the elements may live in.
    _arena: PhantomData<&'a Arena>,
}

// SAFETY: a `Seq` owns its elements as a `Vec` does: arena memory it
// points to is handed to exactly one `Seq` and never touched by the arena
// again until the arena is dropped or reset, which its `'a` borrow
// excludes. So sending or sharing it is as safe as sending or sharing `T`s.
unsafe impl<T: Send> Send for Seq<'_, T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for Seq<'_, T> {}

/// `cap` of an arena `Seq` whose elements own nothing (see the module docs).
const PURE: u32 = u32::MAX;

/// The message of a container too large for a `u32` length.
pub(super) const TOO_LONG: &str = "more than 4294967295 elements in one array or object";

impl<'a, T> Seq<'a, T> {
    /// No elements, nothing allocated.
    #[inline(always)]
    pub(super) const fn new() -> Self {
        Seq {
            ptr: NonNull::dangling(),
            len: 0,
            cap: 0,
            _arena: PhantomData,
        }
    }

    /// Takes over a `Vec`'s elements and allocation.
    ///
    /// # Panics
    ///
    /// When its capacity exceeds `u32::MAX`.
    #[inline(always)]
    pub(super) fn from_vec(v: Vec<T>) -> Self {
        let mut v = ManuallyDrop::new(v);
        let (Ok(len), Ok(cap)) = (u32::try_from(v.len()), u32::try_from(v.capacity())) else {
            // Give the Vec back to be dropped, then fail.
            drop(ManuallyDrop::into_inner(v));
            panic!("{TOO_LONG}");
        };
        if cap == PURE {
            drop(ManuallyDrop::into_inner(v));
            panic!("{TOO_LONG}");
        }
        if cap == 0 {
            return Seq::new();
        }
        Seq {
            ptr: NonNull::new(v.as_mut_ptr()).expect("a Vec's pointer is not null"),
            len,
            cap,
            _arena: PhantomData,
        }
    }

    /// Elements that live in an arena.
    ///
    /// # Safety
    ///
    /// `ptr` points to `len` initialised `T`s in memory that stays valid
    /// for `'a` and that nothing else reads, writes or drops: the `Seq`
    /// owns them.
    #[inline(always)]
    /// With `pure`, nothing the elements hold owns memory (no walk on drop).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))] // the parser (serde feature) is its user
    pub(super) unsafe fn from_arena(ptr: NonNull<T>, len: u32, pure: bool) -> Self {
        Seq {
            ptr,
            len,
            cap: if pure { PURE } else { 0 },
            _arena: PhantomData,
        }
    }

    /// Elements in a heap allocation of exactly their number.
    ///
    /// # Safety
    ///
    /// `ptr` is the pointer of a `Vec::<T>::with_capacity(len)` (which
    /// the caller forgot) holding `len > 0` initialised elements.
    #[inline(always)]
    #[cfg_attr(not(feature = "serde"), allow(dead_code))] // the parser (serde feature) is its user
    pub(super) unsafe fn from_raw_heap(ptr: NonNull<T>, len: u32) -> Self {
        debug_assert!(len > 0);
        Seq {
            ptr,
            len,
            cap: len,
            _arena: PhantomData,
        }
    }

    /// Copies `n` elements from `src` into `arena`, or into an exact-size
    /// heap allocation without one.
    ///
    /// # Safety
    ///
    /// `src` points to `n` initialised `T`s, which the caller gives up
    /// (it must not drop them: they are moved), and `n <= u32::MAX`.
    #[inline(always)]
    #[cfg_attr(not(feature = "serde"), allow(dead_code))] // the parser (serde feature) is its user
    pub(super) unsafe fn move_from(
        src: *const T,
        n: usize,
        arena: Option<&'a Arena>,
        pure: bool,
    ) -> Self {
        debug_assert!(n <= u32::MAX as usize);
        if n == 0 {
            return Seq::new();
        }
        let dst = match arena {
            Some(arena) => arena.alloc::<T>(n),
            None => {
                let mut v = ManuallyDrop::new(Vec::<T>::with_capacity(n));
                // A `Vec` of `n > 0` non-zero-sized elements has a
                // capacity of exactly `n` (std allocates what was asked).
                debug_assert_eq!(v.capacity(), n);
                NonNull::new(v.as_mut_ptr()).expect("a Vec's pointer is not null")
            }
        };
        // SAFETY: `src` holds `n` elements (the caller's promise) and `dst`
        // has room for `n` and is a fresh allocation, so they do not
        // overlap.
        unsafe { copy_few(src, dst.as_ptr(), n) };
        Seq {
            ptr: dst,
            len: n as u32,
            cap: match arena {
                Some(_) if pure => PURE,
                Some(_) => 0,
                None => n as u32,
            },
            _arena: PhantomData,
        }
    }

    /// The number of elements.
    #[inline(always)]
    pub(super) fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the elements live on the heap (an empty `Seq` does not).
    #[inline]
    pub(super) fn is_heap(&self) -> bool {
        self.cap != 0 && self.cap != PURE
    }

    #[inline(always)]
    pub(super) fn as_slice(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised elements that this `Seq`
        // owns (dangling and aligned when `len` is 0).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len as usize) }
    }

    #[inline(always)]
    pub(super) fn as_mut_slice(&mut self) -> &mut [T] {
        // An element may now be given something to own.
        if self.cap == PURE {
            self.cap = 0;
        }
        // SAFETY: as in `as_slice`; `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len as usize) }
    }

    /// The elements as a `Vec` (arena elements copied to the heap), this
    /// left empty.
    pub(super) fn take_vec(&mut self) -> Vec<T> {
        let this = std::mem::take(self);
        let this = ManuallyDrop::new(this);
        let len = this.len as usize;
        if this.is_heap() {
            // SAFETY: a heap `cap` means `ptr`, `len` and `cap` came
            // from a `Vec` (`from_vec`, `move_from`); `this` will not free
            // them (`ManuallyDrop`), so the `Vec` is their one owner.
            return unsafe { Vec::from_raw_parts(this.ptr.as_ptr(), len, this.cap as usize) };
        }
        let mut v = Vec::with_capacity(len);
        // SAFETY: `ptr` holds `len` elements that `this` owns and will not
        // drop (`ManuallyDrop`); they move into `v`, which has room, and
        // their arena slots are never read again.
        unsafe {
            std::ptr::copy_nonoverlapping(this.ptr.as_ptr(), v.as_mut_ptr(), len);
            v.set_len(len);
        }
        v
    }

    /// Runs `f` on the elements as a `Vec` (copy on grow for an arena
    /// `Seq`), then takes the `Vec` back. Were `f` to panic, the `Vec`
    /// and its elements are dropped and this stays empty.
    #[inline]
    pub(super) fn with_vec<R>(&mut self, f: impl FnOnce(&mut Vec<T>) -> R) -> R {
        let mut v = self.take_vec();
        let r = f(&mut v);
        *self = Seq::from_vec(v);
        r
    }
}

impl<T> Drop for Seq<'_, T> {
    fn drop(&mut self) {
        if self.cap == PURE {
            return; // nothing below owns memory; the arena frees this
        }
        // SAFETY: the `len` elements are initialised and owned here.
        unsafe { std::ptr::drop_in_place(self.as_mut_slice()) };
        if self.cap != 0 {
            // SAFETY: a non-zero `cap` other than `PURE` (returned above)
            // means a `Vec`'s allocation (see
            // `take_vec`); its elements were dropped above, so a `Vec` of
            // length 0 frees just the memory.
            drop(unsafe { Vec::from_raw_parts(self.ptr.as_ptr(), 0, self.cap as usize) });
        }
    }
}

impl<T: Clone> Clone for Seq<'_, T> {
    /// A heap copy (of arena elements too).
    fn clone(&self) -> Self {
        Seq::from_vec(self.as_slice().to_vec())
    }
}

impl<T> Default for Seq<'_, T> {
    fn default() -> Self {
        Seq::new()
    }
}

/// `copy_nonoverlapping`, element by element for a few: a call to
/// `memmove` per small container was 11 % of a canada parse (its
/// coordinates are two-element arrays).
///
/// # Safety
///
/// As `std::ptr::copy_nonoverlapping(src, dst, n)`.
#[inline(always)]
#[cfg_attr(not(feature = "serde"), allow(dead_code))] // the parser (serde feature) is its user
pub(super) unsafe fn copy_few<T>(src: *const T, dst: *mut T, n: usize) {
    if n <= 4 {
        for i in 0..n {
            // SAFETY: `i < n`: in both ranges (the caller's promise).
            unsafe { std::ptr::copy_nonoverlapping(src.add(i), dst.add(i), 1) };
        }
    } else {
        // SAFETY: the caller's promise.
        unsafe { std::ptr::copy_nonoverlapping(src, dst, n) };
    }
}
