//! WebAssembly SIMD block (`simd128`, 16 bytes), compiled only when the
//! build enables the feature (see `simd::vector::simd128`).
//!
//! The vector is the crate's one (`simd::vector::simd128`, one mask bit
//! per byte); this adds the tail splice (`v128.bitselect` with a mask from
//! `SPLICE_MASK`). Tails use the overlapping reload, as SSE2's do, and the
//! density threshold is SSE2's.

use std::arch::wasm32::*;

use super::{kernels, Block, SPLICE_MASK};
use crate::simd::vector::simd128::Simd128;

impl Block for Simd128 {
    const OVERLAP_TAIL: bool = true;
    const MEDIUM_BLOCKS: bool = true;
    const DENSE_BITS: u32 = 2;

    #[inline(always)]
    unsafe fn splice(keep: Self, v: Self, from: usize) -> Self {
        // SAFETY: from < 16, so the 16-byte mask load stays inside
        // SPLICE_MASK (bytes 64 - from .. 80 - from of 128).
        let m = unsafe { v128_load(SPLICE_MASK.as_ptr().add(64 - from) as *const v128) };
        Simd128(v128_bitselect(v.0, keep.0, m))
    }
}

kernels!(
    SIMD128,
    simd128,
    crate::simd::vector::simd128::Simd128,
    "simd128"
);
