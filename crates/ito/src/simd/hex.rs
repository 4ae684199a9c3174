//! Hex encode/decode kernels, one per [`Kernel`] level, and their dispatch.
//!
//! **Encode** (`n` bytes -> `2n` digits). Each byte splits into its high and
//! low nibble; a nibble `v` becomes `b'0' + v`, plus `7` (upper) or `39`
//! (lower) when `v > 9`.
//! - Scalar: the reference, one nibble at a time through a 16-byte table.
//! - SWAR: four bytes are spread into the 16-bit lanes of a `u64`, the
//!   nibbles become bytes, and the `+7/+39` correction is added with
//!   `((v + 6) >> 4) & 1` per byte — no table, no branches.
//! - SSE2: the same arithmetic on 16 bytes (`pcmpgtb` for `v > 9`), then
//!   `punpcklbw/punpckhbw` interleave high and low digits. SSE2 only: we do
//!   not require SSSE3 (which [`Kernel`] does not name), and the arithmetic is
//!   as fast as a `pshufb` table at this width.
//! - AVX2: 32 bytes per step: nibbles split, interleaved per 128-bit lane
//!   (`vpunpck[lh]bw`), lanes put back in order (`vperm2i128`), one
//!   `vpshufb` table look-up per 32 digits. A 16-byte step for the rest
//!   zero-extends bytes to 16-bit lanes (`vpmovzxbw`, high nibble in the low
//!   byte) so one look-up yields digits already in order.
//! - AVX-512 (F+BW): the AVX2 scheme on 32 bytes per half, 64 input bytes per
//!   step; the tail (< 64 bytes) uses a masked load and masked stores
//!   (inputs under 64 bytes go to the AVX2 kernel instead). Decoding takes 128 digits per step (`vpackuswb` + one `vpermq` restore
//!   the order) with a masked tail; inputs under 128 digits go to the AVX2
//!   kernel, whose single step is cheaper there.
//! - NEON: `tbl` look-ups and an interleaving `st2` store.
//!
//! **Decode** (`2n` digits -> `n` bytes). Per digit `c`: `d = c - '0'`,
//! `l = (c | 0x20) - 'a'` (or `c - 'a'` when only lowercase is accepted).
//! The digit is valid iff `d <= 9` or `l <= 5` (unsigned); its value is
//! `min(d, l + 10)` (for a valid digit the other candidate is always larger
//! than 15). Pairs are combined as `hi * 16 + lo` (`pmaddubsw` on AVX2/512,
//! shifts on SSE2/SWAR) and narrowed to bytes. A block with any invalid digit
//! reports the offset of its first one; blocks are processed in order, so
//! that is the first invalid digit of the input.
//!
//! **64 digits** (a 32-byte id, key or event id: the relay's common case)
//! have their own cached pointer: one AVX-512 step (one load, mask
//! compares, `vpmaddubsw`, `vpmovwb` store) or one AVX2 step, else SSE2.
//! The public entry points inline down to that one indirect call; every
//! other length goes through an out-of-line function (inline SSE2 up to 64
//! digits, the dispatched kernel above).
//!
//! **Tails never read past the input.** SSE2/AVX2/NEON redo the last full
//! block at `len - block` (overlapping, in bounds; rewriting the same output
//! bytes is harmless), and inputs shorter than one block go to the next
//! narrower kernel, ending at SWAR. AVX-512 uses masked loads/stores, whose
//! masked-off lanes are never accessed.
//!
//! Not built: an AVX-512 VBMI variant (`vpermb` would save one instruction per
//! 64 bytes; the kernel is store-bound already), and an SSSE3 level.

use crate::Kernel;
use std::sync::atomic::{AtomicPtr, Ordering};

/// Encode kernel: writes `2 * src.len()` digits to `dst`.
///
/// Callers must guarantee that `dst` is valid for `2 * src.len()` byte writes
/// and that the CPU supports the kernel.
pub(crate) type EncodeFn = unsafe fn(src: &[u8], dst: *mut u8, upper: bool);

/// Decode kernel: reads `src` (even length), writes `src.len() / 2` bytes to
/// `dst`, or returns the offset of the first invalid digit.
///
/// Callers must guarantee that `src.len()` is even, that `dst` is valid for
/// `src.len() / 2` byte writes and that the CPU supports the kernel.
pub(crate) type DecodeFn =
    unsafe fn(src: &[u8], dst: *mut u8, lower_only: bool) -> Result<(), usize>;

const LOWER: &[u8; 16] = b"0123456789abcdef";
const UPPER: &[u8; 16] = b"0123456789ABCDEF";

#[inline(always)]
fn digits(upper: bool) -> &'static [u8; 16] {
    if upper {
        UPPER
    } else {
        LOWER
    }
}

/// The value of one hex digit, or `None`.
#[inline(always)]
pub(crate) fn digit_value(c: u8, lower_only: bool) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' if !lower_only => Some(c - b'A' + 10),
        _ => None,
    }
}

// ---------------------------------------------------------------- scalar

/// Reference encoder, one nibble at a time.
///
/// # Safety
/// `dst` must be valid for `2 * src.len()` byte writes.
pub(crate) unsafe fn encode_scalar(src: &[u8], dst: *mut u8, upper: bool) {
    let table = digits(upper);
    for (i, &b) in src.iter().enumerate() {
        // SAFETY: i < src.len(), so 2i + 1 < 2 * src.len(), which the caller
        // guarantees is writable.
        unsafe {
            *dst.add(2 * i) = table[(b >> 4) as usize];
            *dst.add(2 * i + 1) = table[(b & 15) as usize];
        }
    }
}

/// Reference decoder, one digit at a time.
///
/// # Safety
/// `src.len()` must be even and `dst` valid for `src.len() / 2` writes.
pub(crate) unsafe fn decode_scalar(
    src: &[u8],
    dst: *mut u8,
    lower_only: bool,
) -> Result<(), usize> {
    for (i, pair) in src.chunks_exact(2).enumerate() {
        let hi = digit_value(pair[0], lower_only).ok_or(2 * i)?;
        let lo = digit_value(pair[1], lower_only).ok_or(2 * i + 1)?;
        // SAFETY: i < src.len() / 2, writable per the caller's guarantee.
        unsafe { *dst.add(i) = (hi << 4) | lo };
    }
    Ok(())
}

// ---------------------------------------------------------------- SWAR

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Four bytes (little-endian in `x`) to eight digits (little-endian).
#[inline(always)]
fn swar_encode4(x: u32, upper: bool) -> u64 {
    let x = x as u64;
    // Spread byte k into bits 16k..16k+8.
    let s = (x & 0xff) | ((x & 0xff00) << 8) | ((x & 0xff_0000) << 16) | ((x & 0xff00_0000) << 24);
    // High nibble into the low byte of each lane, low nibble into the high byte.
    let n = ((s >> 4) & 0x000f_000f_000f_000f) | ((s & 0x000f_000f_000f_000f) << 8);
    // Per byte: 1 if the nibble is > 9 (n + 6 carries into bit 4).
    let letters = ((n + 6 * ONES) >> 4) & ONES;
    let step = if upper { 7 } else { 39 };
    n + 0x30 * ONES + letters * step
}

/// Eight digits (little-endian in `x`) to four bytes, or the index (0..8) of
/// the first invalid digit.
#[inline(always)]
fn swar_decode8(x: u64, lower_only: bool) -> Result<u32, usize> {
    #[inline(always)]
    fn in_range(v: u64, lo: u8, hi: u8) -> u64 {
        // v has no byte above 0x7f, so neither sum carries across bytes.
        let ge = v + ONES * (0x80 - lo as u64);
        let gt = v + ONES * (0x7f - hi as u64);
        ge & !gt & HIGHS
    }
    let x7 = x & !HIGHS;
    let digit = in_range(x7, b'0', b'9');
    let folded = if lower_only { x7 } else { x7 | (ONES * 0x20) };
    let letter = in_range(folded, b'a', b'f');
    let valid = (digit | letter) & !(x & HIGHS);
    if valid != HIGHS {
        let bad = !valid & HIGHS;
        return Err(bad.trailing_zeros() as usize / 8);
    }
    // '0'..'9' -> low nibble; 'a'..'f' / 'A'..'F' -> low nibble + 9.
    let v = (x & (ONES * 0x0f)) + (letter >> 7) * 9;
    let w = ((v & 0x00ff_00ff_00ff_00ff) << 4) | ((v >> 8) & 0x00ff_00ff_00ff_00ff);
    let w = (w | (w >> 8)) & 0x0000_ffff_0000_ffff;
    let w = (w | (w >> 16)) & 0xffff_ffff;
    Ok(w as u32)
}

/// SWAR encoder: four bytes per step, table for the last 0..3.
///
/// # Safety
/// `dst` must be valid for `2 * src.len()` byte writes.
pub(crate) unsafe fn encode_swar(src: &[u8], dst: *mut u8, upper: bool) {
    let mut chunks = src.chunks_exact(4);
    let mut out = dst;
    for chunk in &mut chunks {
        let x = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        let digits = swar_encode4(x, upper).to_le_bytes();
        // SAFETY: each chunk of 4 input bytes owns 8 output bytes; `out`
        // advances in step with the chunks, staying within 2 * src.len().
        unsafe {
            core::ptr::copy_nonoverlapping(digits.as_ptr(), out, 8);
            out = out.add(8);
        }
    }
    // SAFETY: the remainder's output follows the chunks' output.
    unsafe { encode_scalar(chunks.remainder(), out, upper) }
}

/// SWAR decoder: eight digits per step, one at a time for the rest.
///
/// # Safety
/// `src.len()` must be even and `dst` valid for `src.len() / 2` writes.
pub(crate) unsafe fn decode_swar(src: &[u8], dst: *mut u8, lower_only: bool) -> Result<(), usize> {
    let mut chunks = src.chunks_exact(8);
    let mut i = 0;
    for chunk in &mut chunks {
        let mut b = [0u8; 8];
        b.copy_from_slice(chunk);
        let bytes = swar_decode8(u64::from_le_bytes(b), lower_only).map_err(|k| i + k)?;
        // SAFETY: 8 digits -> 4 bytes at dst + i/2, within src.len() / 2.
        unsafe { core::ptr::copy_nonoverlapping(bytes.to_le_bytes().as_ptr(), dst.add(i / 2), 4) };
        i += 8;
    }
    // SAFETY: the remainder (even length) decodes into the bytes after.
    unsafe { decode_scalar(chunks.remainder(), dst.add(i / 2), lower_only) }.map_err(|k| i + k)
}

// ---------------------------------------------------------------- x86_64

#[cfg(all(target_arch = "x86_64", not(miri)))]
pub(crate) mod x86 {
    use core::arch::x86_64::*;

    // ------------------------------------------------------------ SSE2

    #[inline(always)]
    unsafe fn sse2_ascii(n: __m128i, step: __m128i) -> __m128i {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe {
            let gt9 = _mm_cmpgt_epi8(n, _mm_set1_epi8(9));
            _mm_add_epi8(
                _mm_add_epi8(n, _mm_set1_epi8(b'0' as i8)),
                _mm_and_si128(gt9, step),
            )
        }
    }

    #[inline(always)]
    unsafe fn sse2_encode16(s: *const u8, d: *mut u8, step: __m128i) {
        // SAFETY: the caller guarantees 16 readable bytes at s and 32
        // writable bytes at d; SSE2 is baseline.
        unsafe {
            let x = _mm_loadu_si128(s as *const __m128i);
            let m = _mm_set1_epi8(0x0f);
            let hi = sse2_ascii(_mm_and_si128(_mm_srli_epi16(x, 4), m), step);
            let lo = sse2_ascii(_mm_and_si128(x, m), step);
            _mm_storeu_si128(d as *mut __m128i, _mm_unpacklo_epi8(hi, lo));
            _mm_storeu_si128(d.add(16) as *mut __m128i, _mm_unpackhi_epi8(hi, lo));
        }
    }

    /// SSE2 encoder (16 bytes per step, overlapping last step).
    ///
    /// # Safety
    /// `dst` must be valid for `2 * src.len()` byte writes.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(crate) unsafe fn encode_sse2(src: &[u8], dst: *mut u8, upper: bool) {
        let len = src.len();
        if len < 16 {
            // SAFETY: same contract.
            return unsafe { super::encode_swar(src, dst, upper) };
        }
        let step = _mm_set1_epi8(if upper { 7 } else { 39 });
        let s = src.as_ptr();
        let mut i = 0;
        while i + 16 <= len {
            // SAFETY: i + 16 <= len; output 2i..2i+32 <= 2 len.
            unsafe { sse2_encode16(s.add(i), dst.add(2 * i), step) };
            i += 16;
        }
        if i < len {
            let j = len - 16;
            // SAFETY: len >= 16, so j..len is in bounds (and re-encodes
            // bytes already written with identical digits).
            unsafe { sse2_encode16(s.add(j), dst.add(2 * j), step) };
        }
    }

    /// Values of 16 digits and a 16-bit mask of the invalid ones.
    #[inline(always)]
    unsafe fn sse2_values(c: __m128i, lower_only: bool) -> (__m128i, u32) {
        // SAFETY: SSE2 is baseline.
        unsafe {
            let d = _mm_sub_epi8(c, _mm_set1_epi8(b'0' as i8));
            let folded = if lower_only {
                c
            } else {
                _mm_or_si128(c, _mm_set1_epi8(0x20))
            };
            let l = _mm_sub_epi8(folded, _mm_set1_epi8(b'a' as i8));
            let is_d = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
            let is_l = _mm_cmpeq_epi8(_mm_min_epu8(l, _mm_set1_epi8(5)), l);
            let valid = _mm_movemask_epi8(_mm_or_si128(is_d, is_l)) as u32;
            let value = _mm_min_epu8(d, _mm_add_epi8(l, _mm_set1_epi8(10)));
            (value, !valid & 0xffff)
        }
    }

    #[inline(always)]
    unsafe fn sse2_pairs(v: __m128i) -> __m128i {
        // SAFETY: SSE2 is baseline.
        unsafe {
            let w = _mm_or_si128(_mm_slli_epi16(v, 4), _mm_srli_epi16(v, 8));
            _mm_and_si128(w, _mm_set1_epi16(0xff))
        }
    }

    #[inline(always)]
    unsafe fn sse2_decode32(s: *const u8, d: *mut u8, lower_only: bool) -> Result<(), usize> {
        // SAFETY: the caller guarantees 32 readable bytes at s and 16
        // writable at d.
        unsafe {
            let (va, ba) = sse2_values(_mm_loadu_si128(s as *const __m128i), lower_only);
            let (vb, bb) = sse2_values(_mm_loadu_si128(s.add(16) as *const __m128i), lower_only);
            let bad = ba | (bb << 16);
            if bad != 0 {
                return Err(bad.trailing_zeros() as usize);
            }
            _mm_storeu_si128(
                d as *mut __m128i,
                _mm_packus_epi16(sse2_pairs(va), sse2_pairs(vb)),
            );
            Ok(())
        }
    }

    /// SSE2 decoder (32 digits per step, overlapping last step).
    ///
    /// # Safety
    /// `src.len()` even; `dst` valid for `src.len() / 2` writes.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(crate) unsafe fn decode_sse2(
        src: &[u8],
        dst: *mut u8,
        lower_only: bool,
    ) -> Result<(), usize> {
        let len = src.len();
        if len < 32 {
            // SAFETY: same contract.
            return unsafe { super::decode_swar(src, dst, lower_only) };
        }
        let s = src.as_ptr();
        let mut i = 0;
        while i + 32 <= len {
            // SAFETY: i + 32 <= len; output i/2 .. i/2 + 16 <= len / 2.
            unsafe { sse2_decode32(s.add(i), dst.add(i / 2), lower_only) }.map_err(|k| i + k)?;
            i += 32;
        }
        if i < len {
            let j = len - 32; // even, since len and 32 are
                              // SAFETY: j..len in bounds; j/2 + 16 == len / 2.
            unsafe { sse2_decode32(s.add(j), dst.add(j / 2), lower_only) }.map_err(|k| j + k)?;
        }
        Ok(())
    }

    // ------------------------------------------------------------ AVX2

    #[inline(always)]
    unsafe fn avx2_encode16(s: *const u8, d: *mut u8, lut: __m256i) {
        // SAFETY: called only from AVX2 functions; 16 readable bytes at s,
        // 32 writable at d per the caller.
        unsafe {
            let x = _mm256_cvtepu8_epi16(_mm_loadu_si128(s as *const __m128i));
            let lo = _mm256_slli_epi16(_mm256_and_si256(x, _mm256_set1_epi16(0x0f)), 8);
            let t = _mm256_or_si256(_mm256_srli_epi16(x, 4), lo);
            _mm256_storeu_si256(d as *mut __m256i, _mm256_shuffle_epi8(lut, t));
        }
    }

    #[inline(always)]
    unsafe fn avx2_encode32(s: *const u8, d: *mut u8, lut: __m256i) {
        // SAFETY: called only from AVX2 functions; 32 readable bytes at s,
        // 64 writable at d per the caller.
        unsafe {
            let x = _mm256_loadu_si256(s as *const __m256i);
            let m = _mm256_set1_epi8(0x0f);
            let hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), m);
            let lo = _mm256_and_si256(x, m);
            // Per 128-bit lane: bytes 0..8 and 8..16 with their nibbles
            // interleaved; the lane permutes restore input order.
            let a = _mm256_unpacklo_epi8(hi, lo);
            let b = _mm256_unpackhi_epi8(hi, lo);
            let first = _mm256_permute2x128_si256::<0x20>(a, b);
            let second = _mm256_permute2x128_si256::<0x31>(a, b);
            _mm256_storeu_si256(d as *mut __m256i, _mm256_shuffle_epi8(lut, first));
            _mm256_storeu_si256(d.add(32) as *mut __m256i, _mm256_shuffle_epi8(lut, second));
        }
    }

    /// AVX2 encoder.
    ///
    /// # Safety
    /// CPU has AVX2; `dst` valid for `2 * src.len()` writes.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn encode_avx2(src: &[u8], dst: *mut u8, upper: bool) {
        let len = src.len();
        if len < 16 {
            // SAFETY: same contract.
            return unsafe { super::encode_swar(src, dst, upper) };
        }
        // SAFETY: the table is 16 readable bytes.
        let lut = unsafe {
            _mm256_broadcastsi128_si256(_mm_loadu_si128(
                super::digits(upper).as_ptr() as *const __m128i
            ))
        };
        let s = src.as_ptr();
        let mut i = 0;
        while i + 32 <= len {
            // SAFETY: i + 32 <= len; output within 2 len.
            unsafe { avx2_encode32(s.add(i), dst.add(2 * i), lut) };
            i += 32;
        }
        if i + 16 <= len {
            // SAFETY: as above.
            unsafe { avx2_encode16(s.add(i), dst.add(2 * i), lut) };
            i += 16;
        }
        if i < len {
            let j = len - 16;
            // SAFETY: len >= 16; overlapping, in bounds.
            unsafe { avx2_encode16(s.add(j), dst.add(2 * j), lut) };
        }
    }

    #[inline(always)]
    unsafe fn avx2_values(c: __m256i, lower_only: bool) -> (__m256i, u32) {
        // SAFETY: called only from AVX2 functions.
        unsafe {
            let d = _mm256_sub_epi8(c, _mm256_set1_epi8(b'0' as i8));
            let folded = if lower_only {
                c
            } else {
                _mm256_or_si256(c, _mm256_set1_epi8(0x20))
            };
            let l = _mm256_sub_epi8(folded, _mm256_set1_epi8(b'a' as i8));
            let is_d = _mm256_cmpeq_epi8(_mm256_min_epu8(d, _mm256_set1_epi8(9)), d);
            let is_l = _mm256_cmpeq_epi8(_mm256_min_epu8(l, _mm256_set1_epi8(5)), l);
            let valid = _mm256_movemask_epi8(_mm256_or_si256(is_d, is_l)) as u32;
            let value = _mm256_min_epu8(d, _mm256_add_epi8(l, _mm256_set1_epi8(10)));
            (value, !valid)
        }
    }

    #[inline(always)]
    unsafe fn avx2_decode64(s: *const u8, d: *mut u8, lower_only: bool) -> Result<(), usize> {
        // SAFETY: called only from AVX2 functions; 64 readable bytes at s,
        // 32 writable at d per the caller.
        unsafe {
            let (va, ba) = avx2_values(_mm256_loadu_si256(s as *const __m256i), lower_only);
            let (vb, bb) = avx2_values(_mm256_loadu_si256(s.add(32) as *const __m256i), lower_only);
            let bad = ba as u64 | ((bb as u64) << 32);
            if bad != 0 {
                return Err(bad.trailing_zeros() as usize);
            }
            let w = _mm256_set1_epi16(0x0110); // bytes 16, 1: hi * 16 + lo
            let p = _mm256_packus_epi16(_mm256_maddubs_epi16(va, w), _mm256_maddubs_epi16(vb, w));
            let p = _mm256_permute4x64_epi64(p, 0b11_01_10_00);
            _mm256_storeu_si256(d as *mut __m256i, p);
            Ok(())
        }
    }

    /// AVX2 decoder (64 digits per step).
    ///
    /// # Safety
    /// CPU has AVX2; `src.len()` even; `dst` valid for `src.len() / 2` writes.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn decode_avx2(
        src: &[u8],
        dst: *mut u8,
        lower_only: bool,
    ) -> Result<(), usize> {
        let len = src.len();
        if len < 64 {
            // SAFETY: same contract.
            return unsafe { decode_sse2(src, dst, lower_only) };
        }
        let s = src.as_ptr();
        let mut i = 0;
        while i + 64 <= len {
            // SAFETY: i + 64 <= len; output within len / 2.
            unsafe { avx2_decode64(s.add(i), dst.add(i / 2), lower_only) }.map_err(|k| i + k)?;
            i += 64;
        }
        if i < len {
            let j = len - 64;
            // SAFETY: len >= 64; overlapping, in bounds.
            unsafe { avx2_decode64(s.add(j), dst.add(j / 2), lower_only) }.map_err(|k| j + k)?;
        }
        Ok(())
    }

    /// Exactly 64 digits (a 32-byte id) in one AVX2 step, for the
    /// detection-free short path of [`super::decode`].
    ///
    /// # Safety
    /// CPU has AVX2; `src.len() == 64`; `dst` valid for 32 writes.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn decode64_avx2(
        src: &[u8],
        dst: *mut u8,
        lower_only: bool,
    ) -> Result<(), usize> {
        debug_assert_eq!(src.len(), 64);
        // SAFETY: 64 readable digits, 32 writable bytes, AVX2 per the caller.
        unsafe { avx2_decode64(src.as_ptr(), dst, lower_only) }
    }

    // ------------------------------------------------------------ AVX-512

    #[inline(always)]
    unsafe fn avx512_encode32(x: __m256i, lut: __m512i) -> __m512i {
        // SAFETY: called only from AVX-512F+BW functions.
        unsafe {
            let x = _mm512_cvtepu8_epi16(x);
            let lo = _mm512_slli_epi16(_mm512_and_si512(x, _mm512_set1_epi16(0x0f)), 8);
            _mm512_shuffle_epi8(lut, _mm512_or_si512(_mm512_srli_epi16(x, 4), lo))
        }
    }

    /// AVX-512 encoder (64 bytes per step, masked tail).
    ///
    /// # Safety
    /// CPU has AVX-512F and BW; `dst` valid for `2 * src.len()` writes.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(crate) unsafe fn encode_avx512(src: &[u8], dst: *mut u8, upper: bool) {
        let len = src.len();
        if len < 64 {
            // Two AVX2 steps beat the masked step at this size.
            // SAFETY: AVX-512F implies AVX2; the rest is the same contract.
            return unsafe { encode_avx2(src, dst, upper) };
        }
        // SAFETY: the table is 16 readable bytes.
        let lut = unsafe {
            _mm512_broadcast_i32x4(_mm_loadu_si128(
                super::digits(upper).as_ptr() as *const __m128i
            ))
        };
        let s = src.as_ptr();
        let mut i = 0;
        // Large outputs: encode a short head first so that the 64-byte stores
        // below start on a cache-line boundary (a misaligned 64-byte store
        // touches two lines every time).
        let mis = dst as usize % 64;
        if len >= 1024 && mis != 0 && mis.is_multiple_of(2) {
            i = (64 - mis) / 2;
            // SAFETY: i < 32 <= len bytes in, 2i out; AVX-512F implies AVX2.
            unsafe { encode_avx2(&src[..i], dst, upper) };
        }
        while i + 64 <= len {
            // SAFETY: 64 readable bytes at s + i, 128 writable at dst + 2i.
            unsafe {
                let v = _mm512_loadu_si512(s.add(i) as *const __m512i);
                let lo = avx512_encode32(_mm512_castsi512_si256(v), lut);
                let hi = avx512_encode32(_mm512_extracti64x4_epi64::<1>(v), lut);
                _mm512_storeu_si512(dst.add(2 * i) as *mut __m512i, lo);
                _mm512_storeu_si512(dst.add(2 * i + 64) as *mut __m512i, hi);
            }
            i += 64;
        }
        let r = len - i;
        if r > 0 {
            let in_mask: u64 = (1u64 << r) - 1; // r < 64
            let out = 2 * r; // 2..=126
            let lo_mask = if out >= 64 {
                u64::MAX
            } else {
                (1u64 << out) - 1
            };
            // SAFETY: the masked load touches only the r remaining bytes; the
            // masked stores only the 2r output bytes (the second store is
            // issued only when some of its lanes are in bounds).
            unsafe {
                let v = _mm512_maskz_loadu_epi8(in_mask, s.add(i) as *const i8);
                let lo = avx512_encode32(_mm512_castsi512_si256(v), lut);
                _mm512_mask_storeu_epi8(dst.add(2 * i) as *mut i8, lo_mask, lo);
                if out > 64 {
                    let hi = avx512_encode32(_mm512_extracti64x4_epi64::<1>(v), lut);
                    let hi_mask = (1u64 << (out - 64)) - 1;
                    _mm512_mask_storeu_epi8(dst.add(2 * i + 64) as *mut i8, hi_mask, hi);
                }
            }
        }
    }

    #[inline(always)]
    unsafe fn avx512_values(c: __m512i, lower_only: bool) -> (__m512i, u64) {
        // SAFETY: called only from AVX-512F+BW functions.
        unsafe {
            let d = _mm512_sub_epi8(c, _mm512_set1_epi8(b'0' as i8));
            let folded = if lower_only {
                c
            } else {
                _mm512_or_si512(c, _mm512_set1_epi8(0x20))
            };
            let l = _mm512_sub_epi8(folded, _mm512_set1_epi8(b'a' as i8));
            let valid = _mm512_cmple_epu8_mask(d, _mm512_set1_epi8(9))
                | _mm512_cmple_epu8_mask(l, _mm512_set1_epi8(5));
            let value = _mm512_min_epu8(d, _mm512_add_epi8(l, _mm512_set1_epi8(10)));
            (value, !valid)
        }
    }

    #[inline(always)]
    unsafe fn avx512_decode128(a: __m512i, b: __m512i, lower_only: bool) -> Result<__m512i, usize> {
        // SAFETY: called only from AVX-512F+BW functions.
        unsafe {
            let (va, ba) = avx512_values(a, lower_only);
            let (vb, bb) = avx512_values(b, lower_only);
            if ba != 0 {
                return Err(ba.trailing_zeros() as usize);
            }
            if bb != 0 {
                return Err(64 + bb.trailing_zeros() as usize);
            }
            let w = _mm512_set1_epi16(0x0110);
            // packus interleaves the 128-bit lanes of a and b; the permute
            // puts the eight 64-bit halves back in input order.
            let p = _mm512_packus_epi16(_mm512_maddubs_epi16(va, w), _mm512_maddubs_epi16(vb, w));
            Ok(_mm512_permutexvar_epi64(
                _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7),
                p,
            ))
        }
    }

    /// Exactly 64 digits (a 32-byte id) in one AVX-512 step: one load,
    /// mask compares, `vpmaddubsw` pairs and a `vpmovwb` narrowing store.
    ///
    /// # Safety
    /// CPU has AVX-512F and BW; `src.len() == 64`; `dst` valid for 32 writes.
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
            let (v, bad) = avx512_values(
                _mm512_loadu_si512(src.as_ptr() as *const __m512i),
                lower_only,
            );
            if bad != 0 {
                return Err(bad.trailing_zeros() as usize);
            }
            let pairs = _mm512_maddubs_epi16(v, _mm512_set1_epi16(0x0110));
            _mm256_storeu_si256(dst as *mut __m256i, _mm512_cvtepi16_epi8(pairs));
        }
        Ok(())
    }

    /// AVX-512 decoder (128 digits per step, masked tail).
    ///
    /// # Safety
    /// CPU has AVX-512F and BW; `src.len()` even; `dst` valid for
    /// `src.len() / 2` writes.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(crate) unsafe fn decode_avx512(
        src: &[u8],
        dst: *mut u8,
        lower_only: bool,
    ) -> Result<(), usize> {
        let len = src.len();
        if len < 128 {
            // One AVX2 step beats the masked 128-digit step at this size.
            // SAFETY: AVX-512F implies AVX2; the rest is the same contract.
            return unsafe { decode_avx2(src, dst, lower_only) };
        }
        let s = src.as_ptr();
        let mut i = 0;
        while i + 128 <= len {
            // SAFETY: 128 readable bytes at s + i; 64 writable at dst + i/2.
            unsafe {
                let a = _mm512_loadu_si512(s.add(i) as *const __m512i);
                let b = _mm512_loadu_si512(s.add(i + 64) as *const __m512i);
                let out = avx512_decode128(a, b, lower_only).map_err(|k| i + k)?;
                _mm512_storeu_si512(dst.add(i / 2) as *mut __m512i, out);
            }
            i += 128;
        }
        let r = len - i; // even, < 128
        if r > 0 {
            let a_mask = if r >= 64 { u64::MAX } else { (1u64 << r) - 1 };
            // SAFETY: masked loads touch only the r remaining digits (the
            // second is issued only when r > 64); masked-off lanes read as
            // '0', a valid digit. The store touches only r/2 (< 64) bytes.
            unsafe {
                let fill = _mm512_set1_epi8(b'0' as i8);
                let a = _mm512_mask_loadu_epi8(fill, a_mask, s.add(i) as *const i8);
                let b = if r > 64 {
                    _mm512_mask_loadu_epi8(fill, (1u64 << (r - 64)) - 1, s.add(i + 64) as *const i8)
                } else {
                    fill
                };
                let out = avx512_decode128(a, b, lower_only).map_err(|k| i + k)?;
                _mm512_mask_storeu_epi8(dst.add(i / 2) as *mut i8, (1u64 << (r / 2)) - 1, out);
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------- aarch64

#[cfg(all(target_arch = "aarch64", target_feature = "neon", not(miri)))]
pub(crate) mod neon {
    use core::arch::aarch64::*;

    #[inline(always)]
    unsafe fn encode16(s: *const u8, d: *mut u8, lut: uint8x16_t) {
        // SAFETY: 16 readable bytes at s, 32 writable at d per the caller.
        unsafe {
            let x = vld1q_u8(s);
            let hi = vqtbl1q_u8(lut, vshrq_n_u8::<4>(x));
            let lo = vqtbl1q_u8(lut, vandq_u8(x, vdupq_n_u8(0x0f)));
            vst2q_u8(d, uint8x16x2_t(hi, lo));
        }
    }

    /// NEON encoder.
    ///
    /// # Safety
    /// `dst` valid for `2 * src.len()` writes.
    #[target_feature(enable = "neon")]
    pub(crate) unsafe fn encode_neon(src: &[u8], dst: *mut u8, upper: bool) {
        let len = src.len();
        if len < 16 {
            // SAFETY: same contract.
            return unsafe { super::encode_swar(src, dst, upper) };
        }
        // SAFETY: the table is 16 readable bytes.
        let lut = unsafe { vld1q_u8(super::digits(upper).as_ptr()) };
        let s = src.as_ptr();
        let mut i = 0;
        while i + 16 <= len {
            // SAFETY: in bounds as in the SSE2 kernel.
            unsafe { encode16(s.add(i), dst.add(2 * i), lut) };
            i += 16;
        }
        if i < len {
            let j = len - 16;
            // SAFETY: len >= 16; overlapping, in bounds.
            unsafe { encode16(s.add(j), dst.add(2 * j), lut) };
        }
    }

    #[inline(always)]
    unsafe fn values(c: uint8x16_t, lower_only: bool) -> (uint8x16_t, uint8x16_t) {
        // SAFETY: NEON is enabled for the caller.
        unsafe {
            let d = vsubq_u8(c, vdupq_n_u8(b'0'));
            let folded = if lower_only {
                c
            } else {
                vorrq_u8(c, vdupq_n_u8(0x20))
            };
            let l = vsubq_u8(folded, vdupq_n_u8(b'a'));
            let valid = vorrq_u8(vcleq_u8(d, vdupq_n_u8(9)), vcleq_u8(l, vdupq_n_u8(5)));
            (vminq_u8(d, vaddq_u8(l, vdupq_n_u8(10))), valid)
        }
    }

    /// NEON decoder (32 digits per step; `ld2` splits high and low digits).
    ///
    /// # Safety
    /// `src.len()` even; `dst` valid for `src.len() / 2` writes.
    #[target_feature(enable = "neon")]
    pub(crate) unsafe fn decode_neon(
        src: &[u8],
        dst: *mut u8,
        lower_only: bool,
    ) -> Result<(), usize> {
        let len = src.len();
        if len < 32 {
            // SAFETY: same contract.
            return unsafe { super::decode_swar(src, dst, lower_only) };
        }
        let s = src.as_ptr();
        let block = |i: usize| -> Result<(), usize> {
            // SAFETY: callers below pass i with i + 32 <= len.
            unsafe {
                let c = vld2q_u8(s.add(i));
                let (hi, vh) = values(c.0, lower_only);
                let (lo, vl) = values(c.1, lower_only);
                if vminvq_u8(vandq_u8(vh, vl)) == 0 {
                    let bad = src[i..i + 32]
                        .iter()
                        .position(|&c| super::digit_value(c, lower_only).is_none())
                        .unwrap_or(0);
                    return Err(i + bad);
                }
                vst1q_u8(dst.add(i / 2), vorrq_u8(vshlq_n_u8::<4>(hi), lo));
            }
            Ok(())
        };
        let mut i = 0;
        while i + 32 <= len {
            block(i)?;
            i += 32;
        }
        if i < len {
            block(len - 32)?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------- dispatch

/// The encode kernel for `kernel`, if this CPU can run it.
pub(crate) fn encode_kernel(kernel: Kernel) -> Option<EncodeFn> {
    if !kernel.is_available() {
        return None;
    }
    Some(match kernel {
        Kernel::Scalar => encode_scalar,
        Kernel::Swar => encode_swar,
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        Kernel::Sse2 => x86::encode_sse2,
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        Kernel::Avx2 => x86::encode_avx2,
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        Kernel::Avx512 => x86::encode_avx512,
        #[cfg(all(target_arch = "aarch64", target_feature = "neon", not(miri)))]
        Kernel::Neon => neon::encode_neon,
        #[allow(unreachable_patterns)]
        _ => return None,
    })
}

/// The decode kernel for `kernel`, if this CPU can run it.
pub(crate) fn decode_kernel(kernel: Kernel) -> Option<DecodeFn> {
    if !kernel.is_available() {
        return None;
    }
    Some(match kernel {
        Kernel::Scalar => decode_scalar,
        Kernel::Swar => decode_swar,
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        Kernel::Sse2 => x86::decode_sse2,
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        Kernel::Avx2 => x86::decode_avx2,
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        Kernel::Avx512 => x86::decode_avx512,
        #[cfg(all(target_arch = "aarch64", target_feature = "neon", not(miri)))]
        Kernel::Neon => neon::decode_neon,
        #[allow(unreachable_patterns)]
        _ => return None,
    })
}

static ENCODE: AtomicPtr<()> = AtomicPtr::new(encode_detect as *mut ());
static DECODE: AtomicPtr<()> = AtomicPtr::new(decode_detect as *mut ());

/// # Safety
/// As [`EncodeFn`] (minus the CPU requirement, which detection provides).
unsafe fn encode_detect(src: &[u8], dst: *mut u8, upper: bool) {
    let f = encode_kernel(Kernel::best()).unwrap_or(encode_swar);
    ENCODE.store(f as *mut (), Ordering::Relaxed);
    // SAFETY: f was chosen for this CPU; the caller upholds the rest.
    unsafe { f(src, dst, upper) }
}

/// The 64-digit kernel of [`decode`] (x86_64): AVX-512 or AVX2 in one step,
/// else SSE2.
#[cfg(all(target_arch = "x86_64", not(miri)))]
static DECODE64: AtomicPtr<()> = AtomicPtr::new(decode64_detect as *mut ());

/// # Safety
/// As [`DecodeFn`] with `src.len() == 64` (minus the CPU requirement, which
/// detection provides).
#[cfg(all(target_arch = "x86_64", not(miri)))]
unsafe fn decode64_detect(src: &[u8], dst: *mut u8, lower_only: bool) -> Result<(), usize> {
    let f: DecodeFn = match Kernel::best() {
        Kernel::Avx512 => x86::decode64_avx512,
        Kernel::Avx2 => x86::decode64_avx2,
        _ => x86::decode_sse2,
    };
    DECODE64.store(f as *mut (), Ordering::Relaxed);
    // SAFETY: f was chosen for this CPU; the caller upholds the rest.
    unsafe { f(src, dst, lower_only) }
}

/// # Safety
/// As [`DecodeFn`] (minus the CPU requirement, which detection provides).
unsafe fn decode_detect(src: &[u8], dst: *mut u8, lower_only: bool) -> Result<(), usize> {
    let f = decode_kernel(Kernel::best()).unwrap_or(decode_swar);
    DECODE.store(f as *mut (), Ordering::Relaxed);
    // SAFETY: f was chosen for this CPU; the caller upholds the rest.
    unsafe { f(src, dst, lower_only) }
}

/// Encode with the best kernel for this CPU.
///
/// # Safety
/// `dst` must be valid for `2 * src.len()` byte writes.
#[inline]
pub(crate) unsafe fn encode(src: &[u8], dst: *mut u8, upper: bool) {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    if src.len() < 16 {
        // SAFETY: SSE2 is part of the x86_64 baseline; dst per the caller.
        return unsafe { x86::encode_sse2(src, dst, upper) };
    }
    #[cfg(miri)]
    {
        // SAFETY: per the caller.
        unsafe { encode_swar(src, dst, upper) }
    }
    #[cfg(not(miri))]
    {
        let p = ENCODE.load(Ordering::Relaxed);
        // SAFETY: ENCODE only ever holds `EncodeFn`s (encode_detect or a
        // kernel chosen for this CPU), stored as `*mut ()`.
        let f = unsafe { core::mem::transmute::<*mut (), EncodeFn>(p) };
        // SAFETY: per the caller; f runs on this CPU.
        unsafe { f(src, dst, upper) }
    }
}

/// Decode with the best kernel for this CPU.
///
/// Small enough to inline everywhere: 64 digits (a 32-byte id or key) go
/// straight to their cached one-step kernel, everything else to
/// [`decode_any`].
///
/// # Safety
/// `src.len()` even; `dst` valid for `src.len() / 2` byte writes.
#[inline(always)]
pub(crate) unsafe fn decode(src: &[u8], dst: *mut u8, lower_only: bool) -> Result<(), usize> {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    if src.len() == 64 {
        let p = DECODE64.load(Ordering::Relaxed);
        // SAFETY: DECODE64 only ever holds `DecodeFn`s for exactly 64
        // digits (decode64_detect or one chosen for this CPU).
        let f = unsafe { core::mem::transmute::<*mut (), DecodeFn>(p) };
        // SAFETY: 64 digits and 32 bytes of room per the caller; f runs on
        // this CPU.
        return unsafe { f(src, dst, lower_only) };
    }
    // SAFETY: per the caller.
    unsafe { decode_any(src, dst, lower_only) }
}

/// [`decode`] for every length: up to 64 digits inline with SSE2 on
/// x86_64, longer inputs through the dispatched kernel.
///
/// # Safety
/// As [`decode`].
#[inline(never)]
unsafe fn decode_any(src: &[u8], dst: *mut u8, lower_only: bool) -> Result<(), usize> {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    if src.len() <= 64 {
        // SAFETY: SSE2 is part of the x86_64 baseline; rest per the caller.
        return unsafe { x86::decode_sse2(src, dst, lower_only) };
    }
    #[cfg(miri)]
    {
        // SAFETY: per the caller.
        unsafe { decode_swar(src, dst, lower_only) }
    }
    #[cfg(not(miri))]
    {
        let p = DECODE.load(Ordering::Relaxed);
        // SAFETY: DECODE only ever holds `DecodeFn`s, stored as `*mut ()`.
        let f = unsafe { core::mem::transmute::<*mut (), DecodeFn>(p) };
        // SAFETY: per the caller; f runs on this CPU.
        unsafe { f(src, dst, lower_only) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swar_encode_matches_scalar_on_all_bytes() {
        for b in 0..=255u8 {
            for upper in [false, true] {
                let x = u32::from_le_bytes([b, b.wrapping_add(1), 0xff - b, b ^ 0x5a]);
                let got = swar_encode4(x, upper).to_le_bytes();
                let mut want = [0u8; 8];
                // SAFETY: 8 writable bytes for 4 input bytes.
                unsafe { encode_scalar(&x.to_le_bytes(), want.as_mut_ptr(), upper) };
                assert_eq!(got, want, "byte {b:#x}");
            }
        }
    }

    #[test]
    fn swar_decode_rejects_each_invalid_byte_at_each_position() {
        for b in 0..=255u8 {
            for pos in 0..8 {
                let mut digits = *b"0a1B2c3D";
                digits[pos] = b;
                for lower_only in [false, true] {
                    let got = swar_decode8(u64::from_le_bytes(digits), lower_only);
                    let first_bad = digits
                        .iter()
                        .position(|&c| digit_value(c, lower_only).is_none());
                    match first_bad {
                        Some(k) => assert_eq!(got, Err(k), "byte {b:#x} pos {pos}"),
                        None => {
                            let mut want = [0u8; 4];
                            // SAFETY: 4 writable bytes for 8 digits.
                            unsafe { decode_scalar(&digits, want.as_mut_ptr(), lower_only) }
                                .unwrap();
                            assert_eq!(got, Ok(u32::from_le_bytes(want)));
                        }
                    }
                }
            }
        }
    }

    /// The one-step 64-digit kernels against the scalar decoder: every byte
    /// value at every position (so every first-invalid offset), both
    /// accept modes, plus valid digits of every value.
    #[test]
    fn decode64_kernels_match_scalar_at_every_position() {
        let mut kernels: Vec<(&str, DecodeFn)> = vec![("decode()", decode)];
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        {
            if std::is_x86_feature_detected!("avx2") {
                kernels.push(("avx2", x86::decode64_avx2));
            }
            if Kernel::Avx512.is_available() {
                kernels.push(("avx512", x86::decode64_avx512));
            }
        }
        let valid: Vec<u8> = b"0123456789abcdefABCDEF"
            .iter()
            .copied()
            .cycle()
            .take(64)
            .collect();
        let lower: Vec<u8> = b"0123456789abcdef"
            .iter()
            .copied()
            .cycle()
            .take(64)
            .collect();
        let mut inputs = vec![valid.clone(), lower];
        for pos in 0..64 {
            for b in 0..=255u8 {
                let mut v = valid.clone();
                v[pos] = b;
                // A second bad byte later must not win.
                if pos + 3 < 64 {
                    v[pos + 3] = b'g';
                }
                inputs.push(v);
            }
        }
        for src in &inputs {
            for lower_only in [false, true] {
                let mut want = [0u8; 32];
                // SAFETY: 64 digits, 32 writable bytes.
                let want_r = unsafe { decode_scalar(src, want.as_mut_ptr(), lower_only) };
                for (name, f) in &kernels {
                    let mut got = [0u8; 32];
                    // SAFETY: every listed kernel runs on this CPU; 64
                    // digits, 32 writable bytes.
                    let got_r = unsafe { f(src, got.as_mut_ptr(), lower_only) };
                    assert_eq!(got_r, want_r, "{name} {src:?} lower_only {lower_only}");
                    if want_r.is_ok() {
                        assert_eq!(got, want, "{name}");
                    }
                }
            }
        }
    }
}
