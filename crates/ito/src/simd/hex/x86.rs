//! The hex operations of the x86_64 vectors (SSE2, AVX2, AVX-512F+BW; the
//! types and their shared operations are `simd::vector::x86`) and the entry
//! points.
//!
//! Each entry point is `#[target_feature]` and instantiates the generic
//! [`encode_with`](super::encode_with) / [`decode_with`](super::decode_with)
//! with its vector type; everything below it is `#[inline(always)]`.

use super::{decode_swar, encode_swar, HexVector};
use crate::simd::vector::x86::{Avx2, Avx512, Sse2};
use crate::simd::vector::Vector;
use core::arch::x86_64::*;

// ------------------------------------------------------------ SSE2

impl HexVector for Sse2 {
    const MASKED_TAIL: bool = false;
    const ALIGN_STORES: bool = false;
    const HALF_STEP: bool = false;

    /// No table: [`HexVector::nibble_digits`] adds `'0'`, plus this
    /// step (7 upper, 39 lower) above 9. SSE2 has no byte shuffle
    /// (`pshufb` is SSSE3), and the arithmetic is as fast at this width.
    #[inline(always)]
    unsafe fn digit_table(upper: bool) -> Self {
        // SAFETY: SSE2 is baseline.
        Sse2(unsafe { _mm_set1_epi8(if upper { 7 } else { 39 }) })
    }
    #[inline(always)]
    fn spread_nibbles(self) -> (Self, Self) {
        // SAFETY: SSE2 is baseline.
        unsafe {
            let m = _mm_set1_epi8(0x0f);
            let hi = _mm_and_si128(_mm_srli_epi16(self.0, 4), m);
            let lo = _mm_and_si128(self.0, m);
            (
                Sse2(_mm_unpacklo_epi8(hi, lo)),
                Sse2(_mm_unpackhi_epi8(hi, lo)),
            )
        }
    }
    #[inline(always)]
    fn nibble_digits(self, step: Self) -> Self {
        // SAFETY: SSE2 is baseline.
        unsafe {
            let gt9 = _mm_cmpgt_epi8(self.0, _mm_set1_epi8(9));
            let ascii = _mm_add_epi8(self.0, _mm_set1_epi8(b'0' as i8));
            Sse2(_mm_add_epi8(ascii, _mm_and_si128(gt9, step.0)))
        }
    }
    #[inline(always)]
    fn pack_pairs(a: Self, b: Self) -> Self {
        // SAFETY: SSE2 is baseline.
        unsafe {
            // Per 16-bit lane: (hi << 4 | lo) in the low byte, then narrow.
            let pairs = |v: __m128i| {
                let w = _mm_or_si128(_mm_slli_epi16(v, 4), _mm_srli_epi16(v, 8));
                _mm_and_si128(w, _mm_set1_epi16(0xff))
            };
            Sse2(_mm_packus_epi16(pairs(a.0), pairs(b.0)))
        }
    }
}

/// SSE2 encoder (16 bytes per step, overlapping last step).
///
/// # Safety
/// `dst` must be valid for `2 * src.len()` byte writes.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) unsafe fn encode_sse2(src: &[u8], dst: *mut u8, upper: bool) {
    // SAFETY: SSE2 is enabled here; the rest per the caller.
    unsafe { super::encode_with::<Sse2>(src, dst, upper, encode_swar) }
}

/// SSE2 decoder (32 digits per step, overlapping last step).
///
/// # Safety
/// `src.len()` even; `dst` valid for `src.len() / 2` writes.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) unsafe fn decode_sse2(src: &[u8], dst: *mut u8, lower_only: bool) -> Result<(), usize> {
    // SAFETY: SSE2 is enabled here; the rest per the caller.
    unsafe { super::decode_with::<Sse2>(src, dst, lower_only, decode_swar) }
}

// ------------------------------------------------------------ AVX2

impl HexVector for Avx2 {
    const MASKED_TAIL: bool = false;
    const ALIGN_STORES: bool = false;
    const HALF_STEP: bool = true;

    #[inline(always)]
    unsafe fn digit_table(upper: bool) -> Self {
        // SAFETY: AVX2 per the caller; the table is 16 readable bytes.
        Avx2(unsafe {
            _mm256_broadcastsi128_si256(_mm_loadu_si128(
                super::digits(upper).as_ptr() as *const __m128i
            ))
        })
    }
    /// One `vpmovzxbw` spreads the 16 bytes to 16-bit lanes (high nibble
    /// to the low byte), one `vpshufb` makes the 32 digits in order.
    #[inline(always)]
    unsafe fn encode_half(s: *const u8, d: *mut u8, table: Self) {
        // SAFETY: 16 readable bytes at s and 32 writable at d per the
        // caller; AVX2 since table exists.
        unsafe {
            let x = _mm256_cvtepu8_epi16(_mm_loadu_si128(s as *const __m128i));
            let lo = _mm256_slli_epi16(_mm256_and_si256(x, _mm256_set1_epi16(0x0f)), 8);
            let t = _mm256_or_si256(_mm256_srli_epi16(x, 4), lo);
            _mm256_storeu_si256(d as *mut __m256i, _mm256_shuffle_epi8(table.0, t));
        }
    }
    #[inline(always)]
    fn spread_nibbles(self) -> (Self, Self) {
        // SAFETY: AVX2, since self exists.
        unsafe {
            let m = _mm256_set1_epi8(0x0f);
            let hi = _mm256_and_si256(_mm256_srli_epi16(self.0, 4), m);
            let lo = _mm256_and_si256(self.0, m);
            // Per 128-bit lane: bytes 0..8 and 8..16 with their nibbles
            // interleaved; the lane permutes restore input order.
            let a = _mm256_unpacklo_epi8(hi, lo);
            let b = _mm256_unpackhi_epi8(hi, lo);
            (
                Avx2(_mm256_permute2x128_si256::<0x20>(a, b)),
                Avx2(_mm256_permute2x128_si256::<0x31>(a, b)),
            )
        }
    }
    #[inline(always)]
    fn nibble_digits(self, table: Self) -> Self {
        // SAFETY: AVX2, since self exists.
        Avx2(unsafe { _mm256_shuffle_epi8(table.0, self.0) })
    }
    #[inline(always)]
    fn pack_pairs(a: Self, b: Self) -> Self {
        // SAFETY: AVX2, since a exists.
        unsafe {
            let w = _mm256_set1_epi16(0x0110); // bytes 16, 1: hi * 16 + lo
            let p = _mm256_packus_epi16(_mm256_maddubs_epi16(a.0, w), _mm256_maddubs_epi16(b.0, w));
            // packus works per 128-bit lane; put the quarters in order.
            Avx2(_mm256_permute4x64_epi64::<0b11_01_10_00>(p))
        }
    }
    /// Three `vpshufb` look-ups per 32 digits instead of the compare
    /// arithmetic (seven operations, not eleven), and one movemask for
    /// both vectors; the tables are [`DECODE_LOW`], [`DECODE_HIGH`] and
    /// [`DECODE_OFFSET`].
    #[inline(always)]
    unsafe fn decode_pair(a: Self, b: Self, lower_only: bool) -> Result<Self, usize> {
        // SAFETY: AVX2, since a exists; each table is 16 readable bytes.
        unsafe {
            let table =
                |t: &[u8; 16]| _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast()));
            let low = table(&DECODE_LOW);
            let high = table(if lower_only {
                &DECODE_HIGH_LOWER_ONLY
            } else {
                &DECODE_HIGH
            });
            let offset = table(&DECODE_OFFSET);
            let nibble = _mm256_set1_epi8(0x0f);
            // (value, flags): a flag byte has its top bit set iff the digit
            // is invalid. `vpshufb` indexes by the low four bits and gives 0
            // for a byte >= 0x80, whose high-nibble entry is 0x80 anyway.
            let classify = |c: __m256i| {
                let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(c), nibble);
                let flags =
                    _mm256_add_epi8(_mm256_shuffle_epi8(low, c), _mm256_shuffle_epi8(high, hi));
                (_mm256_add_epi8(c, _mm256_shuffle_epi8(offset, hi)), flags)
            };
            let (va, fa) = classify(a.0);
            let (vb, fb) = classify(b.0);
            if _mm256_movemask_epi8(_mm256_or_si256(fa, fb)) != 0 {
                let bad = _mm256_movemask_epi8(fa) as u32 as u64
                    | (_mm256_movemask_epi8(fb) as u32 as u64) << 32;
                return Err(super::generic::first_lane::<Self>(bad));
            }
            Ok(Self::pack_pairs(Avx2(va), Avx2(vb)))
        }
    }
}

// The decode tables of the AVX2 kernel. A digit `c` is valid iff
// `DECODE_LOW[c & 15] + DECODE_HIGH[c >> 4]` stays below 0x80: the high
// nibble picks a row (3: digits, 4 and 6: letters, anything else: 0x80,
// invalid whatever the low nibble), the low nibble adds 0x70 where no row
// accepts it (A..F), 0x40 where only the digit row does (0, 7, 8, 9), and
// 0 where both do (1..6). Row weights 0x10 (digits) and 0x40 (letters)
// make exactly those sums reach 0x80, and no sum exceeds 0xF0. The value is
// `c + DECODE_OFFSET[c >> 4]` (wrapping): `c - '0'`, `c - 'A' + 10` or
// `c - 'a' + 10`. `tests::avx2_tables_match_digit_value` checks all 256
// bytes in both modes against the scalar rule.
const DECODE_LOW: [u8; 16] = [
    0x40, 0, 0, 0, 0, 0, 0, 0x40, 0x40, 0x40, 0x70, 0x70, 0x70, 0x70, 0x70, 0x70,
];
const DECODE_HIGH: [u8; 16] = {
    let mut t = [0x80; 16];
    t[3] = 0x10;
    t[4] = 0x40;
    t[6] = 0x40;
    t
};
const DECODE_HIGH_LOWER_ONLY: [u8; 16] = {
    let mut t = DECODE_HIGH;
    t[4] = 0x80;
    t
};
const DECODE_OFFSET: [u8; 16] = {
    let mut t = [0; 16];
    t[3] = b'0'.wrapping_neg();
    t[4] = (b'A' - 10).wrapping_neg();
    t[6] = (b'a' - 10).wrapping_neg();
    t
};

/// The scalar meaning of the AVX2 tables, for the exhaustive test.
#[cfg(test)]
pub(crate) fn avx2_table_value(c: u8, lower_only: bool) -> Option<u8> {
    let high = if lower_only {
        &DECODE_HIGH_LOWER_ONLY
    } else {
        &DECODE_HIGH
    };
    let low = if c >= 0x80 {
        0
    } else {
        DECODE_LOW[(c & 15) as usize]
    };
    let flags = low.wrapping_add(high[(c >> 4) as usize]);
    (flags < 0x80).then(|| c.wrapping_add(DECODE_OFFSET[(c >> 4) as usize]))
}

/// AVX2 encoder (32 bytes per step, overlapping last step; shorter
/// inputs go to SSE2).
///
/// # Safety
/// CPU has AVX2; `dst` valid for `2 * src.len()` writes.
// Inlinable where the caller has the same features (a native build).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn encode_avx2(src: &[u8], dst: *mut u8, upper: bool) {
    // SAFETY: AVX2 per the caller (and it implies SSE2); the rest per
    // the caller.
    unsafe { super::encode_with::<Avx2>(src, dst, upper, encode_sse2) }
}

/// AVX2 decoder (64 digits per step, overlapping last step; shorter
/// inputs go to SSE2).
///
/// # Safety
/// CPU has AVX2; `src.len()` even; `dst` valid for `src.len() / 2` writes.
// Inlinable where the caller has the same features (a native build).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn decode_avx2(src: &[u8], dst: *mut u8, lower_only: bool) -> Result<(), usize> {
    // SAFETY: AVX2 per the caller (and it implies SSE2); the rest per
    // the caller.
    unsafe { super::decode_with::<Avx2>(src, dst, lower_only, decode_sse2) }
}

/// Exactly 64 digits (a 32-byte id) in one AVX2 step, for the
/// detection-free short path of [`super::decode`].
///
/// # Safety
/// CPU has AVX2; `src.len() == 64`; `dst` valid for 32 writes.
// Inlinable where the caller has the same features (a native build).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn decode64_avx2(
    src: &[u8],
    dst: *mut u8,
    lower_only: bool,
) -> Result<(), usize> {
    debug_assert_eq!(src.len(), 64);
    // SAFETY: 64 readable digits, 32 writable bytes, AVX2 per the caller.
    unsafe { super::generic::decode_block::<Avx2>(src.as_ptr(), dst, lower_only) }
}

// ------------------------------------------------------------ AVX-512

impl HexVector for Avx512 {
    const MASKED_TAIL: bool = true;
    const ALIGN_STORES: bool = true;
    const HALF_STEP: bool = false;

    #[inline(always)]
    unsafe fn digit_table(upper: bool) -> Self {
        // SAFETY: AVX-512F per the caller; the table is 16 readable bytes.
        Avx512(unsafe {
            _mm512_broadcast_i32x4(_mm_loadu_si128(
                super::digits(upper).as_ptr() as *const __m128i
            ))
        })
    }
    /// Each 32-byte half zero-extended to 16-bit lanes, high nibble in
    /// the low byte: the nibbles come out already in order.
    #[inline(always)]
    fn spread_nibbles(self) -> (Self, Self) {
        // SAFETY: AVX-512F+BW, since self exists.
        unsafe {
            let spread = |h: __m256i| {
                let x = _mm512_cvtepu8_epi16(h);
                let lo = _mm512_slli_epi16(_mm512_and_si512(x, _mm512_set1_epi16(0x0f)), 8);
                Avx512(_mm512_or_si512(_mm512_srli_epi16(x, 4), lo))
            };
            (
                spread(_mm512_castsi512_si256(self.0)),
                spread(_mm512_extracti64x4_epi64::<1>(self.0)),
            )
        }
    }
    #[inline(always)]
    fn nibble_digits(self, table: Self) -> Self {
        // SAFETY: AVX-512BW, since self exists.
        Avx512(unsafe { _mm512_shuffle_epi8(table.0, self.0) })
    }
    #[inline(always)]
    fn pack_pairs(a: Self, b: Self) -> Self {
        // SAFETY: AVX-512F+BW, since a exists.
        unsafe {
            let w = _mm512_set1_epi16(0x0110);
            // packus interleaves the 128-bit lanes of a and b; the
            // permute puts the eight 64-bit halves back in input order.
            let p = _mm512_packus_epi16(_mm512_maddubs_epi16(a.0, w), _mm512_maddubs_epi16(b.0, w));
            Avx512(_mm512_permutexvar_epi64(
                _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7),
                p,
            ))
        }
    }
}

/// AVX-512 encoder (64 bytes per step, aligned stores for large
/// outputs, masked tail; inputs under 64 bytes go to AVX2, whose two
/// steps beat the masked one there).
///
/// # Safety
/// CPU has AVX-512F and BW; `dst` valid for `2 * src.len()` writes.
// Inlinable where the caller has the same features (a native build).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn encode_avx512(src: &[u8], dst: *mut u8, upper: bool) {
    // SAFETY: AVX-512F+BW per the caller (AVX-512F implies AVX2); the
    // rest per the caller.
    unsafe { super::encode_with::<Avx512>(src, dst, upper, encode_avx2) }
}

/// AVX-512 decoder (128 digits per step, masked tail; inputs under 128
/// digits go to AVX2, whose single step is cheaper there).
///
/// # Safety
/// CPU has AVX-512F and BW; `src.len()` even; `dst` valid for
/// `src.len() / 2` writes.
// Inlinable where the caller has the same features (a native build).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn decode_avx512(
    src: &[u8],
    dst: *mut u8,
    lower_only: bool,
) -> Result<(), usize> {
    // SAFETY: AVX-512F+BW per the caller (AVX-512F implies AVX2); the
    // rest per the caller.
    unsafe { super::decode_with::<Avx512>(src, dst, lower_only, decode_avx2) }
}

/// Exactly 64 digits (a 32-byte id) in one AVX-512 step: one load,
/// mask compares, `vpmaddubsw` pairs and a `vpmovwb` narrowing store.
/// The only kernel that decodes a single vector of digits, so it is not
/// a [`HexVector`] method.
///
/// # Safety
/// CPU has AVX-512F and BW; `src.len() == 64`; `dst` valid for 32 writes.
// Inlinable where the caller has the same features (a native build).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn decode64_avx512(
    src: &[u8],
    dst: *mut u8,
    lower_only: bool,
) -> Result<(), usize> {
    debug_assert_eq!(src.len(), 64);
    // SAFETY: 64 readable digits, 32 writable bytes, AVX-512F+BW per the
    // caller.
    unsafe {
        let (v, bad) = super::generic::digit_values(Avx512::load(src.as_ptr()), lower_only);
        if bad != 0 {
            return Err(super::generic::first_lane::<Avx512>(bad));
        }
        let pairs = _mm512_maddubs_epi16(v.0, _mm512_set1_epi16(0x0110));
        _mm256_storeu_si256(dst as *mut __m256i, _mm512_cvtepi16_epi8(pairs));
    }
    Ok(())
}
