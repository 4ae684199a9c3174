//! The open-addressing table of symbol indices: control bytes (a tag per
//! slot, mirrored for in-bounds group loads) and one entry index per slot.

use super::MIN_CAP;
use crate::simd::group::{Group, WIDTH};

pub(super) struct Table {
    /// `cap + WIDTH` control bytes; the last `WIDTH` mirror the first, so a
    /// group load at any position `< cap` stays in bounds.
    pub(super) ctrl: Box<[u8]>,
    /// Entry index per slot (meaningful only where the control byte is full).
    pub(super) slots: Box<[u32]>,
    pub(super) mask: usize,
    pub(super) items: usize,
    pub(super) growth_left: usize,
}

#[inline(always)]
pub(super) fn tag_of(h: u32) -> u8 {
    0x80 | (h >> 25) as u8
}

impl Table {
    pub(super) fn new(cap: usize) -> Table {
        debug_assert!(cap.is_power_of_two() && cap >= MIN_CAP);
        // vec![0; n] allocates zeroed memory (calloc): large tables come
        // straight from fresh pages, with no memset pause.
        Table {
            ctrl: vec![0u8; cap + WIDTH].into_boxed_slice(),
            slots: vec![0u32; cap].into_boxed_slice(),
            mask: cap - 1,
            items: 0,
            growth_left: cap / 8 * 7,
        }
    }

    #[inline]
    pub(super) fn cap(&self) -> usize {
        self.mask + 1
    }

    #[inline]
    pub(super) fn bytes(&self) -> usize {
        self.ctrl.len() + self.slots.len() * 4
    }

    #[inline(always)]
    pub(super) fn group(&self, pos: usize) -> Group {
        debug_assert!(pos + WIDTH <= self.ctrl.len());
        // SAFETY: pos <= mask, and ctrl has mask + 1 + WIDTH bytes.
        unsafe { Group::load(self.ctrl.as_ptr().add(pos & self.mask)) }
    }

    #[inline(always)]
    pub(super) fn set(&mut self, i: usize, tag: u8, idx: u32) {
        self.ctrl[i] = tag;
        // The mirror of slots 0..WIDTH lives at cap..cap + WIDTH; for other
        // slots this rewrites the same byte.
        self.ctrl[(i.wrapping_sub(WIDTH) & self.mask) + WIDTH] = tag;
        self.slots[i] = idx;
        self.items += 1;
        self.growth_left -= 1;
    }

    /// First empty slot on `h`'s probe sequence (no key comparisons: used
    /// when moving entries known to be distinct). Returns the slot and the
    /// groups visited.
    #[inline]
    pub(super) fn find_empty(&self, h: u32) -> (usize, usize) {
        let mut pos = h as usize & self.mask;
        let mut stride = 0;
        let mut groups = 1;
        loop {
            let empty = self.group(pos).match_empty();
            if empty.any() {
                return ((pos + empty.lowest()) & self.mask, groups);
            }
            stride += WIDTH;
            pos = (pos + stride) & self.mask;
            groups += 1;
        }
    }
}
