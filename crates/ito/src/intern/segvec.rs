//! A segmented, append-only array whose elements never move.
//!
//! Segment `s` holds `FIRST << s` elements, so element `i` lives in segment
//! `log2(i + FIRST) - log2(FIRST)` at offset `(i + FIRST) - 2^log2(i + FIRST)`:
//! a shift, a subtraction and a leading-zero count, no branch. Segments are
//! allocated (uninitialised) by the single writer that holds the owning shard's
//! lock and published with `Release`; readers load them with `Acquire`.
//! Growing never copies anything, so a reference handed out to a reader stays
//! valid until the whole array drops — the property that lets `resolve` and
//! table probes run without a lock.

#[cfg(loom)]
use loom::sync::atomic::{AtomicPtr, Ordering};
use std::alloc::{self, Layout};
use std::ptr;
#[cfg(not(loom))]
use std::sync::atomic::{AtomicPtr, Ordering};

/// Enough segments to address every `u32` index for any `FIRST >= 1`.
const SEGMENTS: usize = 33;

/// Segmented array of `T`. Elements are never dropped (`T` must not need
/// drop) and are initialised by the writer before it makes them reachable.
/// `F` is log2 of the size of segment 0 (a constant, so locating an
/// element costs no load).
pub(crate) struct SegVec<T, const F: u32> {
    segments: [AtomicPtr<T>; SEGMENTS],
}

impl<T, const F: u32> SegVec<T, F> {
    const NO_DROP: () = assert!(!std::mem::needs_drop::<T>());

    /// An empty array whose first segment holds `1 << F` elements.
    pub(crate) fn new() -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Self::NO_DROP;
        assert!(F < 24);
        SegVec {
            segments: std::array::from_fn(|_| AtomicPtr::new(ptr::null_mut())),
        }
    }

    #[inline]
    fn locate(&self, index: usize) -> (usize, usize) {
        let j = index + (1usize << F);
        let top = usize::BITS - 1 - j.leading_zeros();
        ((top - F) as usize, j - (1usize << top))
    }

    #[inline]
    fn segment_len(&self, segment: usize) -> usize {
        1usize << (F as usize + segment)
    }

    fn layout(&self, segment: usize) -> Layout {
        Layout::array::<T>(self.segment_len(segment)).expect("segment size overflows")
    }

    /// Pointer to element `index`, or null if its segment is not allocated.
    /// Reading through the pointer is only sound if the element was
    /// initialised before the caller synchronised with its writer.
    #[inline]
    pub(crate) fn slot(&self, index: usize) -> *mut T {
        let (segment, offset) = self.locate(index);
        if segment >= SEGMENTS {
            return ptr::null_mut();
        }
        let base = self.segments[segment].load(Ordering::Acquire);
        if base.is_null() {
            return base;
        }
        // SAFETY: `offset < segment_len(segment)` by construction of
        // `locate`, and the segment allocation holds that many elements.
        unsafe { base.add(offset) }
    }

    /// Pointer to element `index`, without the range and null checks of
    /// [`slot`](Self::slot): the hot read path of probes and `resolve`.
    ///
    /// # Safety
    /// The segment holding `index` must have been allocated by
    /// [`reserve`](Self::reserve) before a `Release` store the caller
    /// synchronised with (an `Acquire` load of a shape, length or link that
    /// names `index`).
    #[inline]
    pub(crate) unsafe fn slot_live(&self, index: usize) -> *mut T {
        let (segment, offset) = self.locate(index);
        debug_assert!(segment < SEGMENTS);
        // SAFETY: the caller guarantees the segment exists, so `segment` is
        // in range; its pointer was stored before the publication the caller
        // synchronised with (Relaxed suffices: the caller's Acquire already
        // ordered that store before this load).
        let base = unsafe { self.segments.get_unchecked(segment) }.load(Ordering::Relaxed);
        debug_assert!(!base.is_null());
        // SAFETY: `offset < segment_len(segment)` by construction of
        // `locate`, and the segment allocation holds that many elements.
        unsafe { base.add(offset) }
    }

    /// Make sure the segment holding `index` exists; returns the pointer to
    /// the (possibly uninitialised) element and the number of bytes newly
    /// allocated. Only the single writer may call this.
    pub(crate) fn reserve(&self, index: usize) -> (*mut T, usize) {
        let (segment, offset) = self.locate(index);
        assert!(segment < SEGMENTS, "segmented array index out of range");
        let mut base = self.segments[segment].load(Ordering::Acquire);
        let mut added = 0;
        if base.is_null() {
            let layout = self.layout(segment);
            // SAFETY: the layout has non-zero size (segment_len >= 1 and T
            // is not zero-sized in our uses; a zero-sized T would give a
            // zero-size layout, which we reject here).
            assert!(layout.size() > 0);
            // SAFETY: non-zero size checked above.
            base = unsafe { alloc::alloc(layout) }.cast::<T>();
            if base.is_null() {
                alloc::handle_alloc_error(layout);
            }
            self.segments[segment].store(base, Ordering::Release);
            added = layout.size();
        }
        // SAFETY: as in `slot`: offset is within the segment.
        (unsafe { base.add(offset) }, added)
    }

    /// Bytes allocated by all segments.
    #[cfg(test)]
    pub(crate) fn allocated_bytes(&self) -> usize {
        (0..SEGMENTS)
            .filter(|&s| !self.segments[s].load(Ordering::Acquire).is_null())
            .map(|s| self.layout(s).size())
            .sum()
    }
}

impl<T, const F: u32> Drop for SegVec<T, F> {
    fn drop(&mut self) {
        for segment in 0..SEGMENTS {
            // `&mut self`: no other thread can store; Relaxed is enough.
            let base = self.segments[segment].load(Ordering::Relaxed);
            if !base.is_null() {
                // SAFETY: `base` was allocated in `reserve` with exactly this
                // layout and is freed once; `T` needs no drop.
                unsafe { alloc::dealloc(base.cast::<u8>(), self.layout(segment)) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_is_dense_and_in_bounds() {
        fn check<const F: u32>() {
            let v = SegVec::<u64, F>::new();
            let mut expected = (0usize, 0usize);
            for i in 0..5000usize {
                let (s, o) = v.locate(i);
                assert_eq!((s, o), expected, "F={F} i={i}");
                assert!(o < v.segment_len(s));
                expected = if o + 1 == v.segment_len(s) {
                    (s + 1, 0)
                } else {
                    (s, o + 1)
                };
            }
        }
        check::<0>();
        check::<1>();
        check::<3>();
        check::<5>();
    }

    #[test]
    fn elements_never_move() {
        let v = SegVec::<u64, 2>::new();
        let mut ptrs = Vec::new();
        for i in 0..1000usize {
            let (p, _) = v.reserve(i);
            // SAFETY: p points into an allocated segment; we initialise it.
            unsafe { p.write(i as u64 * 3) };
            ptrs.push(p);
        }
        for (i, p) in ptrs.iter().enumerate() {
            assert_eq!(v.slot(i), *p);
            // SAFETY: initialised above, same thread.
            assert_eq!(unsafe { **p }, i as u64 * 3);
        }
        assert!(v.slot(1 << 20).is_null());
        assert!(v.allocated_bytes() >= 1000 * 8);
    }
}
