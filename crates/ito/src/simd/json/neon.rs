//! aarch64 NEON block (16 bytes).
//!
//! NEON has no movemask; the usual replacement narrows each 0x00/0xFF
//! compare byte to 4 bits with `shrn #4`, giving a 64-bit mask with
//! `STRIDE = 4` bits per byte. Tails use the overlapping reload.

use std::arch::aarch64::*;

use super::{kernels, Block, SPLICE_MASK};

/// 16 bytes in a NEON register.
#[derive(Clone, Copy)]
pub(crate) struct Neon(uint8x16_t);

#[inline(always)]
unsafe fn to_mask(c: uint8x16_t) -> u64 {
    // SAFETY: NEON is baseline on aarch64.
    unsafe {
        let narrowed = vshrn_n_u16::<4>(vreinterpretq_u16_u8(c));
        vget_lane_u64::<0>(vreinterpret_u64_u8(narrowed))
    }
}

impl Block for Neon {
    const W: usize = 16;
    const STRIDE: u32 = 4;
    const OVERLAP_TAIL: bool = true;
    const DENSE_BITS: u32 = 8;

    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: caller guarantees 16 readable bytes.
        Neon(unsafe { vld1q_u8(p) })
    }

    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: caller guarantees 16 writable bytes.
        unsafe { vst1q_u8(p, self.0) }
    }

    #[inline(always)]
    unsafe fn special_mask(self) -> u64 {
        // SAFETY: NEON is baseline on aarch64.
        unsafe {
            let v = self.0;
            let c = vorrq_u8(
                vorrq_u8(
                    vceqq_u8(v, vdupq_n_u8(b'"')),
                    vceqq_u8(v, vdupq_n_u8(b'\\')),
                ),
                vcltq_u8(v, vdupq_n_u8(0x20)),
            );
            to_mask(c)
        }
    }

    #[inline(always)]
    unsafe fn high_mask(self) -> u64 {
        // SAFETY: NEON is baseline on aarch64.
        unsafe { to_mask(vcgeq_u8(self.0, vdupq_n_u8(0x80))) }
    }

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

kernels!(NEON, neon, crate::simd::json::neon::Neon, "neon");
