//! The hex operations of the NEON vector (the type and its shared
//! operations are `simd::vector::neon`) and the entry points.

use super::{decode_swar, encode_swar, HexVector};
use crate::simd::vector::neon::Neon;
use core::arch::aarch64::*;

impl HexVector for Neon {
    const MASKED_TAIL: bool = false;
    const ALIGN_STORES: bool = false;
    const HALF_STEP: bool = false;

    #[inline(always)]
    unsafe fn digit_table(upper: bool) -> Self {
        // SAFETY: the table is 16 readable bytes.
        Neon(unsafe { vld1q_u8(super::digits(upper).as_ptr()) })
    }
    #[inline(always)]
    fn spread_nibbles(self) -> (Self, Self) {
        // SAFETY: NEON is baseline.
        unsafe {
            let hi = vshrq_n_u8::<4>(self.0);
            let lo = vandq_u8(self.0, vdupq_n_u8(0x0f));
            (Neon(vzip1q_u8(hi, lo)), Neon(vzip2q_u8(hi, lo)))
        }
    }
    #[inline(always)]
    fn nibble_digits(self, table: Self) -> Self {
        // SAFETY: NEON is baseline.
        Neon(unsafe { vqtbl1q_u8(table.0, self.0) })
    }
    #[inline(always)]
    fn pack_pairs(a: Self, b: Self) -> Self {
        // Even lanes of a:b are the high digits, odd lanes the low.
        // SAFETY: NEON is baseline.
        unsafe {
            let hi = vuzp1q_u8(a.0, b.0);
            let lo = vuzp2q_u8(a.0, b.0);
            Neon(vorrq_u8(vshlq_n_u8::<4>(hi), lo))
        }
    }
}

/// NEON encoder (16 bytes per step, overlapping last step).
///
/// # Safety
/// `dst` valid for `2 * src.len()` writes.
#[target_feature(enable = "neon")]
pub(crate) unsafe fn encode_neon(src: &[u8], dst: *mut u8, upper: bool) {
    // SAFETY: NEON is enabled here; the rest per the caller.
    unsafe { super::encode_with::<Neon>(src, dst, upper, encode_swar) }
}

/// NEON decoder (32 digits per step, overlapping last step).
///
/// # Safety
/// `src.len()` even; `dst` valid for `src.len() / 2` writes.
#[target_feature(enable = "neon")]
pub(crate) unsafe fn decode_neon(src: &[u8], dst: *mut u8, lower_only: bool) -> Result<(), usize> {
    // SAFETY: NEON is enabled here; the rest per the caller.
    unsafe { super::decode_with::<Neon>(src, dst, lower_only, decode_swar) }
}
