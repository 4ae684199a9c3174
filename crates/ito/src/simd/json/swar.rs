//! Portable 8-bytes-in-a-`u64` kernel ([`Kernel::Swar`]), also what Miri
//! runs and the detector falls back to.
//!
//! The vector is the crate's one (`simd::vector::swar`); its special-byte
//! test is the crate's one SWAR definition,
//! [`swar_special`](crate::simd::class::swar_special), cheaper than the
//! exact lane compares: borrows only start at real hits and only run
//! upwards, so the lowest flagged byte is always a real hit (the kernels
//! use no other one).
//!
//! [`Kernel::Swar`]: crate::Kernel::Swar

use super::{kernels, Block};
use crate::simd::vector::swar::Swar;

pub(crate) use crate::simd::class::swar_special;

impl Block for Swar {
    const OVERLAP_TAIL: bool = false;
    const DENSE_BITS: u32 = 2;

    #[inline(always)]
    unsafe fn special_mask(self) -> u64 {
        swar_special(self.0)
    }
}

kernels!(SWAR, swar, crate::simd::vector::swar::Swar,);
