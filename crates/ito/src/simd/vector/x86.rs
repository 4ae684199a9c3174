//! The x86_64 vectors: SSE2 (16 bytes), AVX2 (32 bytes), AVX-512F+BW (64
//! bytes).
//!
//! SSE2 and AVX2 have no unsigned byte compare: `a <= b` is
//! `min(a, b) == a`. AVX-512BW compares straight into a `k` register, and
//! its masked loads and stores touch only the lanes of their mask, which
//! makes in-bounds partial loads and stores one instruction each.

use super::{lanewise_ops, Vector};
use core::arch::x86_64::*;

// ------------------------------------------------------------ SSE2

/// 16 bytes in an SSE2 register (SSE2 is part of the x86_64 baseline).
#[derive(Clone, Copy)]
pub(crate) struct Sse2(pub(crate) __m128i);

impl Vector for Sse2 {
    const W: usize = 16;
    const STRIDE: u32 = 1;
    const ALL_BITS: u64 = 0xffff;
    /// 0x00/0xFF lanes.
    type Mask = Sse2;

    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: 16 readable bytes per the caller; SSE2 is baseline.
        Sse2(unsafe { _mm_loadu_si128(p as *const __m128i) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: 16 writable bytes per the caller.
        unsafe { _mm_storeu_si128(p as *mut __m128i, self.0) }
    }
    #[inline(always)]
    unsafe fn load_low(p: *const u8) -> Self {
        // SAFETY: 8 readable bytes per the caller; SSE2 is baseline.
        Sse2(unsafe { _mm_loadl_epi64(p as *const __m128i) })
    }
    #[inline(always)]
    unsafe fn store_low(self, p: *mut u8) {
        // SAFETY: 8 writable bytes per the caller.
        unsafe { _mm_storel_epi64(p as *mut __m128i, self.0) }
    }
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: SSE2 is baseline.
        Sse2(unsafe { _mm_set1_epi8(b as i8) })
    }
    lanewise_ops! {
        add => _mm_add_epi8,
        sub => _mm_sub_epi8,
        or => _mm_or_si128,
        xor => _mm_xor_si128,
        and => _mm_and_si128,
        min => _mm_min_epu8,
    }
    #[inline(always)]
    fn eq(self, o: Self) -> Self {
        // SAFETY: SSE2 is baseline.
        Sse2(unsafe { _mm_cmpeq_epi8(self.0, o.0) })
    }
    #[inline(always)]
    fn le(self, o: Self) -> Self {
        // SAFETY: SSE2 is baseline.
        Sse2(unsafe { _mm_cmpeq_epi8(_mm_min_epu8(self.0, o.0), self.0) })
    }
    #[inline(always)]
    fn mask_or(a: Self, b: Self) -> Self {
        a.or(b)
    }
    #[inline(always)]
    fn bits(m: Self) -> u64 {
        // SAFETY: SSE2 is baseline.
        unsafe { _mm_movemask_epi8(m.0) as u32 as u64 }
    }
    #[inline(always)]
    fn high_bits(self) -> u64 {
        Self::bits(self)
    }
}

// ------------------------------------------------------------ AVX2

/// 32 bytes in an AVX2 register; exists only on CPUs with AVX2.
#[derive(Clone, Copy)]
pub(crate) struct Avx2(pub(crate) __m256i);

impl Vector for Avx2 {
    const W: usize = 32;
    const STRIDE: u32 = 1;
    const ALL_BITS: u64 = 0xffff_ffff;
    /// 0x00/0xFF lanes, wrapped so that their existence still proves AVX2.
    type Mask = Avx2;

    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: AVX2 and 32 readable bytes per the caller.
        Avx2(unsafe { _mm256_loadu_si256(p as *const __m256i) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: 32 writable bytes per the caller; AVX2 since self
        // exists.
        unsafe { _mm256_storeu_si256(p as *mut __m256i, self.0) }
    }
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: AVX2 per the caller.
        Avx2(unsafe { _mm256_set1_epi8(b as i8) })
    }
    lanewise_ops! {
        add => _mm256_add_epi8,
        sub => _mm256_sub_epi8,
        or => _mm256_or_si256,
        xor => _mm256_xor_si256,
        and => _mm256_and_si256,
        min => _mm256_min_epu8,
    }
    #[inline(always)]
    fn eq(self, o: Self) -> Self {
        // SAFETY: AVX2, since self exists.
        Avx2(unsafe { _mm256_cmpeq_epi8(self.0, o.0) })
    }
    #[inline(always)]
    fn le(self, o: Self) -> Self {
        // SAFETY: AVX2, since self exists.
        Avx2(unsafe { _mm256_cmpeq_epi8(_mm256_min_epu8(self.0, o.0), self.0) })
    }
    #[inline(always)]
    fn mask_or(a: Self, b: Self) -> Self {
        a.or(b)
    }
    #[inline(always)]
    fn bits(m: Self) -> u64 {
        // SAFETY: AVX2, since m exists.
        unsafe { _mm256_movemask_epi8(m.0) as u32 as u64 }
    }
    #[inline(always)]
    fn high_bits(self) -> u64 {
        Self::bits(self)
    }
}

// ------------------------------------------------------------ AVX-512

/// 64 bytes in an AVX-512 register; exists only on CPUs with AVX-512F and
/// AVX-512BW.
#[derive(Clone, Copy)]
pub(crate) struct Avx512(pub(crate) __m512i);

/// Lanes `0..n` of a 64-lane mask, for `1 <= n <= 64` (one shift, no
/// branch).
#[inline(always)]
pub(crate) fn low_lanes(n: usize) -> u64 {
    debug_assert!((1..=64).contains(&n));
    u64::MAX >> (64 - n)
}

impl Avx512 {
    /// Stores the lanes set in `k` (any set, not only a prefix) at their
    /// offsets from `p`; the others are never accessed.
    ///
    /// # Safety
    /// The bytes at `p + i` for every lane `i` in `k` are writable.
    #[inline(always)]
    pub(crate) unsafe fn store_masked(self, p: *mut u8, k: u64) {
        // SAFETY: per the caller; AVX-512BW since self exists.
        unsafe { _mm512_mask_storeu_epi8(p as *mut i8, k, self.0) }
    }
}

impl Vector for Avx512 {
    const W: usize = 64;
    const STRIDE: u32 = 1;
    const ALL_BITS: u64 = u64::MAX;
    /// A `k` register.
    type Mask = u64;

    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: AVX-512F and 64 readable bytes per the caller.
        Avx512(unsafe { _mm512_loadu_si512(p as *const __m512i) })
    }
    /// A masked load: masked-off lanes are never accessed. A zero `fill`
    /// (a constant at every call site) is the zero-masking form, which
    /// needs no fill register.
    #[inline(always)]
    unsafe fn load_partial(p: *const u8, n: usize, fill: u8) -> Self {
        let k = low_lanes(n);
        // SAFETY: AVX-512BW and n readable bytes per the caller; the load
        // touches only lanes 0..n.
        Avx512(unsafe {
            if fill == 0 {
                _mm512_maskz_loadu_epi8(k, p as *const i8)
            } else {
                _mm512_mask_loadu_epi8(_mm512_set1_epi8(fill as i8), k, p as *const i8)
            }
        })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: 64 writable bytes per the caller; AVX-512F since self
        // exists.
        unsafe { _mm512_storeu_si512(p as *mut __m512i, self.0) }
    }
    /// A masked store: masked-off lanes are never accessed.
    #[inline(always)]
    unsafe fn store_partial(self, p: *mut u8, n: usize) {
        // SAFETY: n writable bytes per the caller; the store touches only
        // lanes 0..n; AVX-512BW since self exists.
        unsafe { _mm512_mask_storeu_epi8(p as *mut i8, low_lanes(n), self.0) }
    }
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: AVX-512F per the caller.
        Avx512(unsafe { _mm512_set1_epi8(b as i8) })
    }
    lanewise_ops! {
        add => _mm512_add_epi8,
        sub => _mm512_sub_epi8,
        or => _mm512_or_si512,
        xor => _mm512_xor_si512,
        and => _mm512_and_si512,
        min => _mm512_min_epu8,
    }
    #[inline(always)]
    fn eq(self, o: Self) -> u64 {
        // SAFETY: AVX-512BW, since self exists.
        unsafe { _mm512_cmpeq_epi8_mask(self.0, o.0) }
    }
    #[inline(always)]
    fn le(self, o: Self) -> u64 {
        // SAFETY: AVX-512BW, since self exists.
        unsafe { _mm512_cmple_epu8_mask(self.0, o.0) }
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
        // SAFETY: AVX-512BW, since self exists.
        unsafe { _mm512_movepi8_mask(self.0) }
    }
}
