//! Hex encode/decode kernels, one per [`Kernel`] level, and their dispatch.
//!
//! The vector kernels (SSE2, AVX2, AVX-512, NEON) are one algorithm,
//! [`encode_with`] / [`decode_with`] in `hex/generic.rs`, generic over the
//! crate's one vector trait (`simd::vector::Vector`: loads, stores, byte
//! arithmetic and compares) and the small [`HexVector`] extension; each
//! level only implements the extension for the crate's vector type of its
//! level (below) and instantiates the generic body inside its
//! `#[target_feature]` entry point (the memchr/simdutf8 shape). Steps that
//! really differ per level are trait methods, not copies of the loops:
//! spreading nibbles, the digit look-up, packing digit pairs, masked
//! partial loads/stores (AVX-512) and a 16-byte half step (AVX2). Scalar
//! and SWAR stay plain code: the reference, and the portable path Miri
//! runs.
//!
//! **Encode** (`n` bytes -> `2n` digits), `W` bytes per step:
//!
//! ```text
//! (a, b) = spread_nibbles(load W bytes)   2W nibbles, high first, in order
//! store nibble_digits(a), nibble_digits(b)
//! ```
//!
//! - Scalar: the reference, one nibble at a time through a 16-byte table.
//! - SWAR: four bytes are spread into the 16-bit lanes of a `u64`, the
//!   nibbles become bytes, and the `+7/+39` correction is added with
//!   `((v + 6) >> 4) & 1` per byte — no table, no branches.
//! - SSE2: nibbles interleaved with `punpck[lh]bw`; a nibble `v` becomes
//!   `'0' + v`, plus 7 (upper) or 39 (lower) when `v > 9` (`pcmpgtb`). SSE2
//!   only: we do not require SSSE3 (which [`Kernel`] does not name), and the
//!   arithmetic is as fast as a `pshufb` table at this width.
//! - AVX2: nibbles interleaved per 128-bit lane, lanes put back in order
//!   (`vperm2i128`), one `vpshufb` table look-up per 32 digits. Inputs of
//!   16..32 bytes and tails of up to 16 take a 16-byte half step instead:
//!   `vpmovzxbw` (high nibble to the low byte) and one `vpshufb`.
//! - AVX-512 (F+BW): each 32-byte half zero-extended to 16-bit lanes
//!   (`vpmovzxbw`, high nibble to the low byte), so one `vpshufb` yields 64
//!   digits in order. Inputs of 1 KiB and more first encode a short head so
//!   that the 64-byte stores are aligned.
//! - NEON: `zip1/zip2` interleave, `tbl` look-ups.
//! - WebAssembly `simd128`: the NEON shape with `i8x16.shuffle` for the
//!   interleave and `i8x16.swizzle` for the look-up; decoding packs pairs
//!   with two shuffles (even and odd lanes).
//!
//! **Decode** (`2n` digits -> `n` bytes), `2W` digits per step. Per digit
//! `c`: `d = c - '0'`, `l = (c | 0x20) - 'a'` (or `c - 'a'` when only
//! lowercase is accepted). The digit is valid iff `d <= 9` or `l <= 5`
//! (unsigned); its value is `min(d, l + 10)` (for a valid digit the other
//! candidate is always larger than 15). Pairs are combined as `hi * 16 + lo`
//! (`pmaddubsw` + `packuswb` + a lane permute on AVX2/512, shifts +
//! `packuswb` on SSE2, `uzp1/uzp2` on NEON). A step with any invalid digit
//! reports the offset of its first one (from a movemask, an AVX-512 compare
//! mask, or NEON's `shrn`-narrowed mask); steps run in order, so that is the
//! first invalid digit of the input.
//!
//! AVX2 classifies with three `vpshufb` tables instead (`x86.rs`): a flag
//! byte from the low and high nibbles (top bit set iff invalid) and the
//! value as `c` plus an offset chosen by the high nibble, seven operations
//! per 32 digits instead of eleven, and one movemask per step for both
//! vectors (figures in `bench/RESULTS.md`).
//!
//! **64 digits** (a 32-byte id, key or event id: the relay's common case)
//! have their own entry in the kernel table: one AVX-512 step (one load, mask
//! compares, `vpmaddubsw`, `vpmovwb` store) or one AVX2 step, else SSE2.
//! The public entry points inline down to that one call (indirect in a
//! portable build, direct when the build guarantees AVX2/AVX-512); every
//! other length goes through an out-of-line function (inline SSE2 up to 64
//! digits, the dispatched kernel above).
//!
//! **Tails never read past the input.** SSE2/AVX2/NEON redo the last full
//! step at `len - step` (overlapping, in bounds; rewriting the same output
//! bytes is harmless), and inputs shorter than one step go to the next
//! narrower kernel (AVX-512 -> AVX2 -> SSE2 -> SWAR; NEON, simd128 ->
//! SWAR). AVX-512 uses masked loads/stores, whose masked-off lanes are
//! never accessed.
//!
//! Not built: an AVX-512 VBMI variant (`vpermb` would save one instruction per
//! 64 bytes; the kernel is store-bound already), and an SSSE3 level.

use crate::simd::dispatch::{self, Dispatch, KernelTable};
use crate::Kernel;

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

// ---------------------------------------------------------------- generic

/// The generic kernels and the vector trait they need.
#[cfg(any(
    all(target_arch = "x86_64", not(miri)),
    all(target_arch = "aarch64", target_feature = "neon", not(miri)),
    all(target_arch = "wasm32", target_feature = "simd128", not(miri))
))]
mod generic;
#[cfg(any(
    all(target_arch = "x86_64", not(miri)),
    all(target_arch = "aarch64", target_feature = "neon", not(miri)),
    all(target_arch = "wasm32", target_feature = "simd128", not(miri))
))]
use generic::{decode_with, encode_with, HexVector};

// ---------------------------------------------------------------- x86_64

/// The x86_64 vectors (SSE2, AVX2, AVX-512F+BW) and their entry points.
///
/// Each entry point is `#[target_feature]` and instantiates the generic
/// [`encode_with`](super::encode_with) / [`decode_with`](super::decode_with)
/// with its vector type; everything below it is `#[inline(always)]`.
#[cfg(all(target_arch = "x86_64", not(miri)))]
pub(crate) mod x86;

// ---------------------------------------------------------------- aarch64

/// The NEON vector and its entry points.
#[cfg(all(target_arch = "aarch64", target_feature = "neon", not(miri)))]
pub(crate) mod neon;

// ---------------------------------------------------------------- wasm32

/// The WebAssembly SIMD vector's entry points (builds with `+simd128`).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(miri)))]
pub(crate) mod simd128;

// ---------------------------------------------------------------- dispatch

/// The hex kernels of one level (see `simd::dispatch`).
pub(crate) struct HexKernels {
    /// Any length.
    pub(crate) encode: EncodeFn,
    /// Any even length.
    pub(crate) decode: DecodeFn,
    /// Exactly 64 digits (a 32-byte id or key), in one step where the level
    /// has one.
    #[allow(dead_code)] // called by name when the build guarantees a level
    pub(crate) decode64: DecodeFn,
}

static SCALAR: HexKernels = HexKernels {
    encode: encode_scalar,
    decode: decode_scalar,
    decode64: decode_scalar,
};
static SWAR: HexKernels = HexKernels {
    encode: encode_swar,
    decode: decode_swar,
    decode64: decode_swar,
};
#[cfg(all(target_arch = "x86_64", not(miri)))]
static SSE2: HexKernels = HexKernels {
    encode: x86::encode_sse2,
    decode: x86::decode_sse2,
    decode64: x86::decode_sse2,
};
#[cfg(all(target_arch = "x86_64", not(miri)))]
static AVX2: HexKernels = HexKernels {
    encode: x86::encode_avx2,
    decode: x86::decode_avx2,
    decode64: x86::decode64_avx2,
};
#[cfg(all(target_arch = "x86_64", not(miri)))]
static AVX512: HexKernels = HexKernels {
    encode: x86::encode_avx512,
    decode: x86::decode_avx512,
    decode64: x86::decode64_avx512,
};
#[cfg(all(target_arch = "aarch64", target_feature = "neon", not(miri)))]
static NEON: HexKernels = HexKernels {
    encode: neon::encode_neon,
    decode: neon::decode_neon,
    decode64: neon::decode_neon,
};
#[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(miri)))]
static SIMD128: HexKernels = HexKernels {
    encode: simd128::encode_simd128,
    decode: simd128::decode_simd128,
    decode64: simd128::decode_simd128,
};

impl KernelTable for HexKernels {
    #[inline(always)]
    fn table(kernel: Kernel) -> Option<&'static HexKernels> {
        match kernel {
            Kernel::Scalar => Some(&SCALAR),
            Kernel::Swar => Some(&SWAR),
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            Kernel::Sse2 => Some(&SSE2),
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            Kernel::Avx2 => Some(&AVX2),
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            Kernel::Avx512 => Some(&AVX512),
            #[cfg(all(target_arch = "aarch64", target_feature = "neon", not(miri)))]
            Kernel::Neon => Some(&NEON),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(miri)))]
            Kernel::Simd128 => Some(&SIMD128),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    fn fallback() -> &'static HexKernels {
        &SWAR
    }
}

/// The best hex kernels for this build and CPU.
// Unused when the build guarantees a level (`by_build_kernel!` calls it by name).
#[allow(dead_code)]
#[inline(always)]
fn best() -> &'static HexKernels {
    static CHOSEN: Dispatch<HexKernels> = Dispatch::new();
    CHOSEN.get()
}

/// The encode kernel for `kernel`, if this CPU can run it.
pub(crate) fn encode_kernel(kernel: Kernel) -> Option<EncodeFn> {
    dispatch::for_kernel::<HexKernels>(kernel).map(|t| t.encode)
}

/// The decode kernel for `kernel`, if this CPU can run it.
pub(crate) fn decode_kernel(kernel: Kernel) -> Option<DecodeFn> {
    dispatch::for_kernel::<HexKernels>(kernel).map(|t| t.decode)
}

/// Encode with the best kernel for this CPU.
///
/// # Safety
/// `dst` must be valid for `2 * src.len()` byte writes.
#[inline]
pub(crate) unsafe fn encode(src: &[u8], dst: *mut u8, upper: bool) {
    // Short inputs (up to a 32-byte id in a portable build, where the
    // alternative is an indirect call) run SSE2 inline: it is part of the
    // x86_64 baseline, so the generic body inlines here without
    // `#[target_feature]`.
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    if src.len() < 16 || (dispatch::BUILD_KERNEL.is_none() && src.len() <= 32) {
        // SAFETY: SSE2 is baseline; dst per the caller.
        return unsafe {
            encode_with::<crate::simd::vector::x86::Sse2>(src, dst, upper, encode_swar)
        };
    }
    // SAFETY: per the caller; the build guarantees the named level, or
    // `best()` only returns kernels this CPU runs.
    unsafe {
        dispatch::by_build_kernel!(
            avx512 => x86::encode_avx512(src, dst, upper),
            avx2 => x86::encode_avx2(src, dst, upper),
            neon => neon::encode_neon(src, dst, upper),
            simd128 => simd128::encode_simd128(src, dst, upper),
            runtime => (best().encode)(src, dst, upper),
        )
    }
}

/// Decode with the best kernel for this CPU.
///
/// Small enough to inline everywhere: 64 digits (a 32-byte id or key) go
/// straight to their one-step kernel, everything else to [`decode_any`].
///
/// # Safety
/// `src.len()` even; `dst` valid for `src.len() / 2` byte writes.
#[inline(always)]
pub(crate) unsafe fn decode(src: &[u8], dst: *mut u8, lower_only: bool) -> Result<(), usize> {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    if src.len() == 64 {
        // SAFETY: 64 digits and 32 bytes of room per the caller; the build
        // guarantees the named level, or `best()` only returns kernels this
        // CPU runs.
        return unsafe {
            dispatch::by_build_kernel!(
                avx512 => x86::decode64_avx512(src, dst, lower_only),
                avx2 => x86::decode64_avx2(src, dst, lower_only),
                neon => (best().decode64)(src, dst, lower_only),
                simd128 => (best().decode64)(src, dst, lower_only),
                runtime => (best().decode64)(src, dst, lower_only),
            )
        };
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
        // SAFETY: SSE2 is part of the x86_64 baseline, so the generic body
        // inlines here without `#[target_feature]` (a call to
        // `x86::decode_sse2` is not reliably inlined); rest per the caller.
        return unsafe {
            decode_with::<crate::simd::vector::x86::Sse2>(src, dst, lower_only, decode_swar)
        };
    }
    // SAFETY: per the caller; the build guarantees the named level, or
    // `best()` only returns kernels this CPU runs.
    unsafe {
        dispatch::by_build_kernel!(
            avx512 => x86::decode_avx512(src, dst, lower_only),
            avx2 => x86::decode_avx2(src, dst, lower_only),
            neon => neon::decode_neon(src, dst, lower_only),
            simd128 => simd128::decode_simd128(src, dst, lower_only),
            runtime => (best().decode)(src, dst, lower_only),
        )
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

    /// The AVX2 decode tables, read as scalar code, against the digit
    /// rule: all 256 bytes, both accept modes.
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    #[test]
    fn avx2_tables_match_digit_value() {
        for c in 0..=255u8 {
            for lower_only in [false, true] {
                assert_eq!(
                    x86::avx2_table_value(c, lower_only),
                    digit_value(c, lower_only),
                    "byte {c:#x} lower_only {lower_only}"
                );
            }
        }
    }

    /// The one-step 64-digit kernels against the scalar decoder: every byte
    /// value at every position (so every first-invalid offset), both
    /// accept modes, plus valid digits of every value.
    #[test]
    fn decode64_kernels_match_scalar_at_every_position() {
        #[cfg_attr(not(all(target_arch = "x86_64", not(miri))), allow(unused_mut))]
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
