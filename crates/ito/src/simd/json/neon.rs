//! aarch64 NEON block (16 bytes).
//!
//! The vector is the crate's one (`simd::vector::neon`, masks of 4 bits per
//! byte); this adds the tail splice. Tails use the overlapping reload.

use std::arch::aarch64::*;

use super::{kernels, Block, SPLICE_MASK};
use crate::simd::vector::neon::Neon;

impl Block for Neon {
    const OVERLAP_TAIL: bool = true;
    const MEDIUM_BLOCKS: bool = true;
    const DENSE_BITS: u32 = 8;

    #[inline(always)]
    unsafe fn splice(keep: Self, v: Self, from: usize) -> Self {
        // SAFETY: from < 16, so the mask load stays inside SPLICE_MASK;
        // NEON is baseline on aarch64.
        unsafe {
            let m = vld1q_u8(SPLICE_MASK.as_ptr().add(64 - from));
            Neon(vbslq_u8(m, v.0, keep.0))
        }
    }
}

kernels!(NEON, neon, crate::simd::vector::neon::Neon, "neon");
