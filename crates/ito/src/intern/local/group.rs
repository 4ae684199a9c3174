//! Control groups: 16 control bytes of the probe table compared at once
//! (SSE2 on x86_64, SWAR elsewhere and under Miri).

/// Control bytes per group.
pub(super) const WIDTH: usize = 16;

/// Bit `i` set = control byte `i` of the group matched.
#[derive(Clone, Copy)]
pub(super) struct BitMask(pub(super) u32);

impl BitMask {
    #[inline(always)]
    pub(super) fn any(self) -> bool {
        self.0 != 0
    }
    #[inline(always)]
    pub(super) fn lowest(self) -> usize {
        self.0.trailing_zeros() as usize
    }
}

impl Iterator for BitMask {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

#[cfg(all(target_arch = "x86_64", not(miri)))]
mod imp {
    use super::BitMask;
    use std::arch::x86_64::*;

    /// 16 control bytes in an SSE2 register (SSE2 is baseline on
    /// x86_64, so no runtime detection).
    #[derive(Clone, Copy)]
    pub(in super::super) struct Group(__m128i);

    impl Group {
        /// # Safety
        /// `ptr` must be valid for reading 16 bytes.
        #[inline(always)]
        pub(in super::super) unsafe fn load(ptr: *const u8) -> Group {
            // SAFETY: the caller guarantees 16 readable bytes; loadu
            // has no alignment requirement.
            Group(unsafe { _mm_loadu_si128(ptr.cast()) })
        }

        #[inline(always)]
        pub(in super::super) fn match_tag(self, tag: u8) -> BitMask {
            // SAFETY: SSE2 is baseline on x86_64.
            unsafe {
                let eq = _mm_cmpeq_epi8(self.0, _mm_set1_epi8(tag as i8));
                BitMask(_mm_movemask_epi8(eq) as u32 & 0xffff)
            }
        }

        /// Empty bytes are 0; full ones have the high bit set.
        #[inline(always)]
        pub(in super::super) fn match_empty(self) -> BitMask {
            // SAFETY: SSE2 is baseline on x86_64.
            unsafe { BitMask(!(_mm_movemask_epi8(self.0) as u32) & 0xffff) }
        }

        /// Full bytes (high bit set).
        #[inline(always)]
        pub(in super::super) fn match_full(self) -> BitMask {
            // SAFETY: SSE2 is baseline on x86_64.
            unsafe { BitMask(_mm_movemask_epi8(self.0) as u32 & 0xffff) }
        }
    }
}

/// The portable form; compiled everywhere so its tests run on x86_64
/// too.
#[cfg_attr(all(target_arch = "x86_64", not(miri)), allow(dead_code))]
pub(super) mod swar {
    use super::BitMask;

    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;

    /// Gather bit 7 of each byte of `m` (other bits zero) into 8 bits.
    #[inline(always)]
    fn compress(m: u64) -> u32 {
        ((m >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
    }

    /// 16 control bytes as two little-endian words (portable SWAR).
    #[derive(Clone, Copy)]
    pub(in super::super) struct Group([u64; 2]);

    impl Group {
        /// # Safety
        /// `ptr` must be valid for reading 16 bytes.
        #[inline(always)]
        pub(in super::super) unsafe fn load(ptr: *const u8) -> Group {
            // SAFETY: the caller guarantees 16 readable bytes.
            let bytes: [u8; 16] = unsafe { ptr.cast::<[u8; 16]>().read_unaligned() };
            let (a, b) = bytes.split_at(8);
            Group([
                u64::from_le_bytes(a.try_into().unwrap_or([0; 8])),
                u64::from_le_bytes(b.try_into().unwrap_or([0; 8])),
            ])
        }

        /// May report false positives (a byte just above a true match),
        /// never false negatives; callers verify every candidate.
        #[inline(always)]
        pub(in super::super) fn match_tag(self, tag: u8) -> BitMask {
            let t = LO.wrapping_mul(tag as u64);
            let m = |w: u64| {
                let x = w ^ t;
                compress(x.wrapping_sub(LO) & !x & HI)
            };
            BitMask(m(self.0[0]) | m(self.0[1]) << 8)
        }

        #[inline(always)]
        pub(in super::super) fn match_empty(self) -> BitMask {
            BitMask(compress(!self.0[0] & HI) | compress(!self.0[1] & HI) << 8)
        }

        #[inline(always)]
        pub(in super::super) fn match_full(self) -> BitMask {
            BitMask(compress(self.0[0] & HI) | compress(self.0[1] & HI) << 8)
        }
    }
}

#[cfg(all(target_arch = "x86_64", not(miri)))]
pub(super) use imp::Group;
#[cfg(not(all(target_arch = "x86_64", not(miri))))]
pub(super) use swar::Group;
