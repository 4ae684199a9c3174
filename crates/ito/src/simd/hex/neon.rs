//! The NEON vector and its entry points.

use super::{decode_swar, encode_swar, HexVector};
use core::arch::aarch64::*;

/// 16 bytes in a NEON register (NEON is part of the aarch64 baseline).
#[derive(Clone, Copy)]
pub(crate) struct Neon(uint8x16_t);

impl HexVector for Neon {
    const W: usize = 16;
    /// [`HexVector::unset_bits`] narrows each lane to 4 bits (`shrn`):
    /// NEON has no byte movemask.
    const STRIDE: u32 = 4;
    const MASKED_TAIL: bool = false;
    const ALIGN_STORES: bool = false;
    const HALF_STEP: bool = false;
    type Mask = uint8x16_t;

    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: 16 readable bytes per the caller.
        Neon(unsafe { vld1q_u8(p) })
    }
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: NEON is baseline.
        Neon(unsafe { vdupq_n_u8(b) })
    }
    #[inline(always)]
    unsafe fn digit_table(upper: bool) -> Self {
        // SAFETY: the table is 16 readable bytes.
        Neon(unsafe { vld1q_u8(super::digits(upper).as_ptr()) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: 16 writable bytes per the caller.
        unsafe { vst1q_u8(p, self.0) }
    }
    lanewise_ops! {
        add => vaddq_u8,
        sub => vsubq_u8,
        or => vorrq_u8,
        min => vminq_u8,
    }
    #[inline(always)]
    fn le(self, o: Self) -> uint8x16_t {
        // SAFETY: NEON is baseline.
        unsafe { vcleq_u8(self.0, o.0) }
    }
    #[inline(always)]
    fn mask_or(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // SAFETY: NEON is baseline.
        unsafe { vorrq_u8(a, b) }
    }
    #[inline(always)]
    fn unset_bits(m: uint8x16_t) -> u64 {
        // Each 16-bit lane (two 0x00/0xff bytes) shifted right by 4 and
        // narrowed keeps 4 bits of each byte: lane k -> bits 4k..4k+4.
        // SAFETY: NEON is baseline.
        !unsafe {
            vget_lane_u64::<0>(vreinterpret_u64_u8(vshrn_n_u16::<4>(vreinterpretq_u16_u8(
                m,
            ))))
        }
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
