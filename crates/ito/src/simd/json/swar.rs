//! Portable 8-bytes-in-a-`u64` kernel ([`Kernel::Swar`]), also what Miri
//! runs and the detector falls back to.
//!
//! The special-byte test is the crate's one SWAR definition,
//! [`swar_special`](crate::simd::class::swar_special): borrows only start
//! at real hits and only run upwards, so the lowest flagged byte is always
//! a real hit (the kernels use no other one).

use super::{kernels, Block};

const H: u64 = 0x8080_8080_8080_8080;

pub(crate) use crate::simd::class::swar_special;

/// Eight bytes, first byte in the low bits.
#[derive(Clone, Copy)]
pub(crate) struct Swar(u64);

impl Block for Swar {
    const W: usize = 8;
    const STRIDE: u32 = 8;
    const OVERLAP_TAIL: bool = false;
    const DENSE_BITS: u32 = 2;

    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: caller guarantees 8 readable bytes.
        Swar(u64::from_le_bytes(unsafe {
            (p as *const [u8; 8]).read_unaligned()
        }))
    }

    #[inline(always)]
    unsafe fn load_partial(p: *const u8, len: usize) -> Self {
        // Assemble the bytes in a register (no stack round trip), padding
        // with spaces, which are never special.
        let mut x = 0x2020_2020_2020_2020u64;
        // SAFETY: every read is below p + len, which the caller guarantees.
        unsafe {
            if len >= 4 {
                let lo = u32::from_le_bytes((p as *const [u8; 4]).read_unaligned()) as u64;
                let hi =
                    u32::from_le_bytes((p.add(len - 4) as *const [u8; 4]).read_unaligned()) as u64;
                let keep = !0u64 << (len * 8);
                x = (x & keep) | lo | (hi << ((len - 4) * 8));
            } else {
                for i in 0..len {
                    let shift = i * 8;
                    x = (x & !(0xFF << shift)) | ((*p.add(i) as u64) << shift);
                }
            }
        }
        Swar(x)
    }

    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: caller guarantees 8 writable bytes.
        unsafe { (p as *mut [u8; 8]).write_unaligned(self.0.to_le_bytes()) }
    }

    #[inline(always)]
    unsafe fn special_mask(self) -> u64 {
        swar_special(self.0)
    }

    #[inline(always)]
    unsafe fn high_mask(self) -> u64 {
        self.0 & H
    }
}

kernels!(SWAR, swar, crate::simd::json::swar::Swar,);
