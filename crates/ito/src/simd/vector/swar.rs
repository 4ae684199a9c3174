//! The portable vector: eight bytes in a `u64`, first byte in the low bits
//! (what Miri runs and the detector falls back to).
//!
//! Masks hold the top bit of each true lane (`STRIDE = 8`, bit `8k + 7`
//! for lane `k`). The compares are the exact forms (no borrow crosses a
//! lane); `json::Block` overrides its special-byte test with the cheaper
//! [`swar_special`](crate::simd::class::swar_special), exact for the lowest
//! flagged byte only.

use super::Vector;

/// `0x01` in every lane.
const L: u64 = 0x0101_0101_0101_0101;
/// `0x80` in every lane.
const H: u64 = 0x8080_8080_8080_8080;

/// Eight bytes, first byte in the low bits.
#[derive(Clone, Copy)]
pub(crate) struct Swar(pub(crate) u64);

impl Vector for Swar {
    const W: usize = 8;
    const STRIDE: u32 = 8;
    const ALL_BITS: u64 = H;
    /// The top bit of each true lane.
    type Mask = u64;

    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: 8 readable bytes per the caller.
        Swar(u64::from_le_bytes(unsafe {
            (p as *const [u8; 8]).read_unaligned()
        }))
    }

    /// Assembles the bytes in a register (no stack round trip): two
    /// overlapping 4-byte loads from 4 bytes on, byte by byte below. Only
    /// for `n < 8` (the JSON tails; a full word is [`Vector::load`]).
    #[inline(always)]
    unsafe fn load_partial(p: *const u8, n: usize, fill: u8) -> Self {
        debug_assert!(n < 8);
        let mut x = fill as u64 * L;
        // SAFETY: every read is below p + n, which the caller guarantees.
        unsafe {
            if n >= 4 {
                let lo = u32::from_le_bytes((p as *const [u8; 4]).read_unaligned()) as u64;
                let hi =
                    u32::from_le_bytes((p.add(n - 4) as *const [u8; 4]).read_unaligned()) as u64;
                let keep = !0u64 << (n * 8);
                x = (x & keep) | lo | (hi << ((n - 4) * 8));
            } else {
                for i in 0..n {
                    let shift = i * 8;
                    x = (x & !(0xFF << shift)) | ((*p.add(i) as u64) << shift);
                }
            }
        }
        Swar(x)
    }

    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: 8 writable bytes per the caller.
        unsafe { (p as *mut [u8; 8]).write_unaligned(self.0.to_le_bytes()) }
    }

    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        Swar(b as u64 * L)
    }

    #[inline(always)]
    fn add(self, o: Self) -> Self {
        // Low seven bits add without crossing lanes; the top bits by xor.
        let low = (self.0 & !H).wrapping_add(o.0 & !H);
        Swar(low ^ ((self.0 ^ o.0) & H))
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        // Each lane's top bit set first so no borrow leaves the lane.
        let low = (self.0 | H).wrapping_sub(o.0 & !H);
        Swar(low ^ ((self.0 ^ !o.0) & H))
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        Swar(self.0 | o.0)
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        Swar(self.0 ^ o.0)
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        Swar(self.0 & o.0)
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        // 0xFF in the lanes where self <= o: select self there, o elsewhere.
        let le = (self.le(o) >> 7).wrapping_mul(0xff);
        Swar((self.0 & le) | (o.0 & !le))
    }
    #[inline(always)]
    fn eq(self, o: Self) -> u64 {
        let t = self.0 ^ o.0;
        // Top bit set in the lanes where t is non-zero (exact per lane).
        let nonzero = ((t & !H).wrapping_add(!H) | t) & H;
        !nonzero & H
    }
    #[inline(always)]
    fn le(self, o: Self) -> u64 {
        let (a, b) = (self.0, o.0);
        // Top bit of each lane of (b | 0x80) - (a & 0x7f): set where the
        // low seven bits of b are >= those of a (no borrow leaves a lane).
        let low_ge = (b | H).wrapping_sub(a & !H);
        // a <= b: a's top bit below b's, or equal top bits and low_ge.
        ((!a & b) | (!(a ^ b) & low_ge)) & H
    }
    #[inline(always)]
    fn mask_or(a: u64, b: u64) -> u64 {
        a | b
    }
    #[inline(always)]
    fn bits(m: u64) -> u64 {
        m
    }
    #[inline(always)]
    fn high_bits(self) -> u64 {
        self.0 & H
    }
}
