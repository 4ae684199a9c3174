//! Control groups of the interners' SwissTable probe: 16 control bytes
//! compared with one tag at once (the crate's `Sse2` vector on x86_64,
//! where it is baseline and needs no dispatch; SWAR over two words
//! elsewhere and under Miri). Here, not in
//! `intern/`, so that every vector instruction in the crate lives in
//! `simd/`.

/// Control bytes per group.
pub(crate) const WIDTH: usize = 16;

/// Bit `i` set = control byte `i` of the group matched.
#[derive(Clone, Copy)]
pub(crate) struct BitMask(pub(crate) u32);

impl BitMask {
    #[inline(always)]
    pub(crate) fn any(self) -> bool {
        self.0 != 0
    }
    #[inline(always)]
    pub(crate) fn lowest(self) -> usize {
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
    use crate::simd::vector::{x86::Sse2, Vector};

    /// 16 control bytes in the crate's SSE2 vector (SSE2 is baseline on
    /// x86_64, so no runtime detection).
    #[derive(Clone, Copy)]
    pub(crate) struct Group(Sse2);

    impl Group {
        /// # Safety
        /// `ptr` must be valid for reading 16 bytes.
        #[inline(always)]
        pub(crate) unsafe fn load(ptr: *const u8) -> Group {
            // SAFETY: the caller guarantees 16 readable bytes; the load
            // has no alignment requirement.
            Group(unsafe { Sse2::load(ptr) })
        }

        #[inline(always)]
        pub(crate) fn match_tag(self, tag: u8) -> BitMask {
            // SAFETY: SSE2 is baseline on x86_64.
            let t = unsafe { Sse2::splat(tag) };
            BitMask(Sse2::bits(self.0.eq(t)) as u32)
        }

        /// Empty bytes are 0; full ones have the high bit set.
        #[inline(always)]
        pub(crate) fn match_empty(self) -> BitMask {
            BitMask(!(self.0.high_bits() as u32) & 0xffff)
        }

        /// Full bytes (high bit set).
        #[inline(always)]
        pub(crate) fn match_full(self) -> BitMask {
            BitMask(self.0.high_bits() as u32)
        }
    }
}

/// The portable form; compiled everywhere so its tests run on x86_64
/// too.
#[cfg_attr(all(target_arch = "x86_64", not(miri)), allow(dead_code))]
pub(crate) mod swar {
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
    pub(crate) struct Group([u64; 2]);

    impl Group {
        /// # Safety
        /// `ptr` must be valid for reading 16 bytes.
        #[inline(always)]
        pub(crate) unsafe fn load(ptr: *const u8) -> Group {
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
        pub(crate) fn match_tag(self, tag: u8) -> BitMask {
            let t = LO.wrapping_mul(tag as u64);
            let m = |w: u64| {
                let x = w ^ t;
                compress(x.wrapping_sub(LO) & !x & HI)
            };
            BitMask(m(self.0[0]) | m(self.0[1]) << 8)
        }

        #[inline(always)]
        pub(crate) fn match_empty(self) -> BitMask {
            BitMask(compress(!self.0[0] & HI) | compress(!self.0[1] & HI) << 8)
        }

        #[inline(always)]
        pub(crate) fn match_full(self) -> BitMask {
            BitMask(compress(self.0[0] & HI) | compress(self.0[1] & HI) << 8)
        }
    }
}

#[cfg(all(target_arch = "x86_64", not(miri)))]
pub(crate) use imp::Group;
#[cfg(not(all(target_arch = "x86_64", not(miri))))]
pub(crate) use swar::Group;

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar(bytes: &[u8; 16], f: impl Fn(u8) -> bool) -> u32 {
        (0..16).filter(|&i| f(bytes[i])).map(|i| 1 << i).sum()
    }

    #[test]
    fn group_masks_match_scalar() {
        check_group::<Group>(cfg!(all(target_arch = "x86_64", not(miri))));
        check_group::<swar::Group>(false);
    }

    trait AnyGroup: Copy {
        /// # Safety
        /// 16 readable bytes.
        unsafe fn load_(p: *const u8) -> Self;
        fn tag(self, t: u8) -> u32;
        fn empty(self) -> u32;
        fn full(self) -> u32;
    }
    macro_rules! any_group {
        ($t:ty) => {
            impl AnyGroup for $t {
                unsafe fn load_(p: *const u8) -> Self {
                    // SAFETY: forwarded contract.
                    unsafe { <$t>::load(p) }
                }
                fn tag(self, t: u8) -> u32 {
                    self.match_tag(t).0
                }
                fn empty(self) -> u32 {
                    self.match_empty().0
                }
                fn full(self) -> u32 {
                    self.match_full().0
                }
            }
        };
    }
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    any_group!(Group);
    any_group!(swar::Group);

    fn check_group<G: AnyGroup>(exact: bool) {
        let mut rng = 0x1234_5678_9abc_def1u64;
        for round in 0..20_000 {
            let mut bytes = [0u8; 16];
            for b in &mut bytes {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                // Control bytes are 0 or 0x80..=0xff; few distinct tags so
                // matches are common.
                *b = if rng & 3 == 0 {
                    0
                } else {
                    0x80 | (rng >> 8) as u8 & 7
                };
            }
            // SAFETY: `bytes` has 16 bytes.
            let g = unsafe { G::load_(bytes.as_ptr()) };
            assert_eq!(g.empty(), scalar(&bytes, |b| b == 0), "{round}");
            assert_eq!(g.full(), scalar(&bytes, |b| b >= 0x80), "{round}");
            let tag = 0x80 | (round % 8) as u8;
            let got = g.tag(tag);
            let want = scalar(&bytes, |b| b == tag);
            // SWAR may add false positives, never miss a match.
            assert_eq!(got & want, want, "{round}");
            if exact {
                assert_eq!(got, want, "{round}");
            }
        }
    }
}
