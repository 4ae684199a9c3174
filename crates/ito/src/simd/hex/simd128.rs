//! The hex operations of the WebAssembly SIMD vector (the type and its
//! shared operations are `simd::vector::simd128`) and the entry points.
//! Only compiled when the build enables `simd128`.

use super::{decode_swar, encode_swar, HexVector};
use crate::simd::vector::simd128::Simd128;
use core::arch::wasm32::*;

impl HexVector for Simd128 {
    const MASKED_TAIL: bool = false;
    const ALIGN_STORES: bool = false;
    const HALF_STEP: bool = false;

    #[inline(always)]
    unsafe fn digit_table(upper: bool) -> Self {
        // SAFETY: the table is 16 readable bytes.
        Simd128(unsafe { v128_load(super::digits(upper).as_ptr() as *const v128) })
    }
    #[inline(always)]
    fn spread_nibbles(self) -> (Self, Self) {
        let hi = u8x16_shr(self.0, 4);
        let lo = v128_and(self.0, u8x16_splat(0x0f));
        // Interleave: hi0 lo0 hi1 lo1 ... (lanes 16.. are `lo`'s).
        let first = i8x16_shuffle::<0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23>(hi, lo);
        let second =
            i8x16_shuffle::<8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31>(hi, lo);
        (Simd128(first), Simd128(second))
    }
    #[inline(always)]
    fn nibble_digits(self, table: Self) -> Self {
        // Every lane is a nibble (< 16), so no lane reads as zero.
        Simd128(i8x16_swizzle(table.0, self.0))
    }
    #[inline(always)]
    fn pack_pairs(a: Self, b: Self) -> Self {
        // Even lanes of a:b are the high digits, odd lanes the low.
        let hi =
            i8x16_shuffle::<0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30>(a.0, b.0);
        let lo =
            i8x16_shuffle::<1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31>(a.0, b.0);
        // Digit values are < 16: the 16-bit shift moves no bit across a
        // byte.
        Simd128(v128_or(i16x8_shl(hi, 4), lo))
    }
}

/// `simd128` encoder (16 bytes per step, overlapping last step).
///
/// # Safety
/// `dst` valid for `2 * src.len()` writes.
#[target_feature(enable = "simd128")]
pub(crate) unsafe fn encode_simd128(src: &[u8], dst: *mut u8, upper: bool) {
    // SAFETY: the build enables simd128; the rest per the caller.
    unsafe { super::encode_with::<Simd128>(src, dst, upper, encode_swar) }
}

/// `simd128` decoder (32 digits per step, overlapping last step).
///
/// # Safety
/// `src.len()` even; `dst` valid for `src.len() / 2` writes.
#[target_feature(enable = "simd128")]
pub(crate) unsafe fn decode_simd128(
    src: &[u8],
    dst: *mut u8,
    lower_only: bool,
) -> Result<(), usize> {
    // SAFETY: the build enables simd128; the rest per the caller.
    unsafe { super::decode_with::<Simd128>(src, dst, lower_only, decode_swar) }
}
