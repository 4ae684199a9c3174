//! The aarch64 NEON vector (16 bytes).
//!
//! NEON has no byte movemask; [`Vector::bits`] narrows each 0x00/0xFF
//! compare lane to 4 bits with `shrn #4`, giving a 64-bit mask with
//! `STRIDE = 4` bits per lane.

use super::{lanewise_ops, Vector};
use core::arch::aarch64::*;

/// 16 bytes in a NEON register (NEON is part of the aarch64 baseline).
#[derive(Clone, Copy)]
pub(crate) struct Neon(pub(crate) uint8x16_t);

impl Vector for Neon {
    const W: usize = 16;
    const STRIDE: u32 = 4;
    const ALL_BITS: u64 = u64::MAX;
    /// 0x00/0xFF lanes.
    type Mask = Neon;

    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: 16 readable bytes per the caller.
        Neon(unsafe { vld1q_u8(p) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: 16 writable bytes per the caller.
        unsafe { vst1q_u8(p, self.0) }
    }
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: NEON is baseline.
        Neon(unsafe { vdupq_n_u8(b) })
    }
    lanewise_ops! {
        add => vaddq_u8,
        sub => vsubq_u8,
        or => vorrq_u8,
        xor => veorq_u8,
        and => vandq_u8,
        min => vminq_u8,
    }
    #[inline(always)]
    fn eq(self, o: Self) -> Self {
        // SAFETY: NEON is baseline.
        Neon(unsafe { vceqq_u8(self.0, o.0) })
    }
    #[inline(always)]
    fn le(self, o: Self) -> Self {
        // SAFETY: NEON is baseline.
        Neon(unsafe { vcleq_u8(self.0, o.0) })
    }
    #[inline(always)]
    fn mask_or(a: Self, b: Self) -> Self {
        a.or(b)
    }
    #[inline(always)]
    fn bits(m: Self) -> u64 {
        // Each 16-bit lane (two 0x00/0xff bytes) shifted right by 4 and
        // narrowed keeps 4 bits of each byte: lane k -> bits 4k..4k+4.
        // SAFETY: NEON is baseline.
        unsafe {
            let narrowed = vshrn_n_u16::<4>(vreinterpretq_u16_u8(m.0));
            vget_lane_u64::<0>(vreinterpret_u64_u8(narrowed))
        }
    }
    #[inline(always)]
    fn high_bits(self) -> u64 {
        // SAFETY: NEON is baseline.
        Self::bits(Neon(unsafe { vcgeq_u8(self.0, vdupq_n_u8(0x80)) }))
    }
}
