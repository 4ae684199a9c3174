//! Digit windows for the JSON number reader (`json::de::number`): the
//! SSE2 forms of its two window operations. Every x86_64 CPU has SSE2, so
//! these need no dispatch; other targets and Miri use the reader's SWAR
//! forms, and its unit tests check both against the same references.
//! No wider vectors: the window is 24 bytes.

use core::arch::x86_64::*;

/// The number reader's `window_non_digits` with two 16-byte loads: two
/// compares, one mask per load, the second shifted over the first (their
/// 8 shared bytes agree).
// Under Miri only the unit tests use it (the SWAR form reads).
#[cfg_attr(miri, allow(dead_code))]
#[inline(always)]
pub(crate) fn sse2_non_digits(window: &[u8; 24]) -> u32 {
    // SAFETY: `window` is 24 readable bytes, 0..16 and 8..24; SSE2 is
    // part of every x86_64 target.
    unsafe {
        let digits = |v: __m128i| {
            // Signed compares: bytes from 0x80 are negative, below '0'.
            let ge0 = _mm_cmpgt_epi8(v, _mm_set1_epi8(b'0' as i8 - 1));
            let le9 = _mm_cmpgt_epi8(_mm_set1_epi8(b'9' as i8 + 1), v);
            _mm_movemask_epi8(_mm_and_si128(ge0, le9)) as u32
        };
        let p = window.as_ptr();
        let lo = digits(_mm_loadu_si128(p.cast()));
        let hi = digits(_mm_loadu_si128(p.add(8).cast()));
        !(lo | hi << 8)
    }
}

/// `0xFF` then `0x00` bytes: 16 bytes from `16 - k` keep the first `k`.
// Under Miri only the unit tests use it (the SWAR form reads).
#[cfg_attr(miri, allow(dead_code))]
static KEEP: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut i = 0;
    while i < 16 {
        t[i] = 0xFF;
        i += 1;
    }
    t
};

/// The number reader's `fraction16` in one register: digit values, the
/// bytes past the fraction cleared, then pairs (one 16-bit multiply: a lane `a + 256b`
/// times 2561 is `256(10a + b) + a`), quads and eights by multiply-add.
// Under Miri only the unit tests use it (the SWAR form reads).
#[cfg_attr(miri, allow(dead_code))]
#[inline(always)]
pub(crate) fn sse2_fraction16(window: &[u8; 24], at: usize, frac: usize) -> u64 {
    assert!(at + 16 <= 24 && (1..=15).contains(&frac));
    // SAFETY: 16 readable bytes at `window[at..]` and at `KEEP[16 -
    // frac..]` (asserted above); SSE2 is part of every x86_64 target.
    let eights = unsafe {
        let v = _mm_loadu_si128(window.as_ptr().add(at).cast());
        let keep = _mm_loadu_si128(KEEP.as_ptr().add(16 - frac).cast());
        let t = _mm_and_si128(_mm_sub_epi8(v, _mm_set1_epi8(b'0' as i8)), keep);
        let pairs = _mm_srli_epi16(_mm_mullo_epi16(t, _mm_set1_epi16(2561)), 8);
        let quads = _mm_madd_epi16(pairs, _mm_set1_epi32(100 | 1 << 16));
        let quads = _mm_packs_epi32(quads, quads);
        let eights = _mm_madd_epi16(quads, _mm_set1_epi32(10_000 | 1 << 16));
        _mm_cvtsi128_si64(eights) as u64
    };
    (eights & 0xFFFF_FFFF) * 100_000_000 + (eights >> 32)
}
