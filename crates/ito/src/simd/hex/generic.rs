//! The hex kernels written once: [`encode_with`] and [`decode_with`],
//! generic over the crate's [`Vector`](crate::simd::vector::Vector) and the
//! [`HexVector`] extension that each of its vector types implements in the
//! parent module's `x86.rs` / `neon.rs`. The algorithm is described in the
//! parent module's docs.

use super::{DecodeFn, EncodeFn};
pub(crate) use crate::simd::vector::first_lane;
use crate::simd::vector::Vector;

/// What the hex kernels need of a [`Vector`] beyond the shared operations:
/// the nibble shuffles (a byte shuffle where the instruction set has one,
/// arithmetic on SSE2) and a few per-level choices.
///
/// The kernels are written once, over this trait ([`encode_with`],
/// [`decode_with`]); the crate's vector types (`simd::vector::x86::{Sse2,
/// Avx2, Avx512}`, `simd::vector::neon::Neon`) implement it. Every method
/// is `#[inline(always)]`, so when the generic body is instantiated inside a
/// `#[target_feature]` entry point the intrinsics inline with that entry
/// point's features.
pub(crate) trait HexVector: Vector {
    /// Tails use [`Vector::load_partial`] / [`Vector::store_partial`]
    /// (masked, cheap) instead of redoing the last full step at `len - step`
    /// (overlapping).
    const MASKED_TAIL: bool;
    /// Large encodes first write a short head (with the next narrower
    /// kernel) so that the main loop's `W`-byte stores are aligned to `W`.
    const ALIGN_STORES: bool;
    /// [`HexVector::encode_half`] is cheap: encodes of `W/2..W` bytes and
    /// short tails use it instead of the narrower kernel or a full step.
    const HALF_STEP: bool;

    /// The table [`HexVector::nibble_digits`] reads: the digits of
    /// `upper` or lower case, in whatever form the instruction set wants.
    ///
    /// # Safety
    /// The CPU supports the instruction set.
    unsafe fn digit_table(upper: bool) -> Self;

    /// Encodes `W/2` bytes at `s` to `W` digits at `d`. The default goes
    /// through [`Vector::load_partial`] (only kernels with `HALF_STEP`
    /// call it).
    ///
    /// # Safety
    /// `s..s + W/2` readable, `d..d + W` writable (the CPU is supported, as
    /// `table` shows).
    #[inline(always)]
    unsafe fn encode_half(s: *const u8, d: *mut u8, table: Self) {
        // SAFETY: per the caller; the CPU supports Self since table exists.
        unsafe {
            let (a, _) = Self::load_partial(s, Self::W / 2, 0).spread_nibbles();
            a.nibble_digits(table).store(d);
        }
    }

    /// The `2W` nibbles of the `W` bytes, one per byte, in output order
    /// (high nibble first): bytes `0..W/2` in the first vector, the rest in
    /// the second.
    fn spread_nibbles(self) -> (Self, Self);
    /// Every lane (a nibble, 0..=15) replaced by its digit from `table`
    /// ([`HexVector::digit_table`]): a byte shuffle, or arithmetic.
    fn nibble_digits(self, table: Self) -> Self;
    /// `hi * 16 + lo` of each pair of digit values (0..=15), `a` holding
    /// digits `0..W` and `b` digits `W..2W`: the `W` bytes in order.
    fn pack_pairs(a: Self, b: Self) -> Self;

    /// Decodes the `2W` digits in `a` and `b` into `W` bytes, or returns
    /// the index (0..2W) of the first invalid digit. The default is the
    /// compare arithmetic of [`digit_values`]; a level with a byte shuffle
    /// may classify with tables instead.
    ///
    /// # Safety
    /// The CPU supports the instruction set (as `a`'s existence shows).
    #[inline(always)]
    unsafe fn decode_pair(a: Self, b: Self, lower_only: bool) -> Result<Self, usize> {
        // SAFETY: per the caller.
        let ((va, bad_a), (vb, bad_b)) =
            unsafe { (digit_values(a, lower_only), digit_values(b, lower_only)) };
        // Two tests rather than one on `bad_a | bad_b`: AVX-512 then tests
        // each pair of compare masks with one `kortestq`, and elsewhere it
        // costs the same.
        if bad_a != 0 {
            return Err(first_lane::<Self>(bad_a));
        }
        if bad_b != 0 {
            return Err(Self::W + first_lane::<Self>(bad_b));
        }
        Ok(Self::pack_pairs(va, vb))
    }
}

/// The values of `W` digits and a mask (see [`Vector::unset_bits`]) of the
/// invalid ones; see the module docs for the arithmetic.
///
/// # Safety
/// The CPU supports `V`'s instruction set (as `c`'s existence shows; the
/// constants are built with [`Vector::splat`]).
#[inline(always)]
pub(crate) unsafe fn digit_values<V: HexVector>(c: V, lower_only: bool) -> (V, u64) {
    // SAFETY: the CPU supports V, per the caller.
    let splat = |b: u8| unsafe { V::splat(b) };
    let d = c.sub(splat(b'0'));
    let folded = if lower_only { c } else { c.or(splat(0x20)) };
    let l = folded.sub(splat(b'a'));
    let valid = V::mask_or(d.le(splat(9)), l.le(splat(5)));
    (d.min(l.add(splat(10))), V::unset_bits(valid))
}

/// Encodes `W` bytes at `s` to `2W` digits at `d`.
///
/// # Safety
/// The CPU supports `V`; `s..s + W` readable, `d..d + 2W` writable.
#[inline(always)]
unsafe fn encode_step<V: HexVector>(s: *const u8, d: *mut u8, table: V) {
    // SAFETY: per the caller.
    unsafe {
        let (a, b) = V::load(s).spread_nibbles();
        a.nibble_digits(table).store(d);
        b.nibble_digits(table).store(d.add(V::W));
    }
}

/// Decodes the `2W` digits at `s` into `W` bytes at `d`, or returns the
/// index of the first invalid digit.
///
/// # Safety
/// The CPU supports `V`; `s..s + 2W` readable, `d..d + W` writable.
#[inline(always)]
pub(crate) unsafe fn decode_block<V: HexVector>(
    s: *const u8,
    d: *mut u8,
    lower_only: bool,
) -> Result<(), usize> {
    // SAFETY: per the caller.
    unsafe {
        V::decode_pair(V::load(s), V::load(s.add(V::W)), lower_only)?.store(d);
    }
    Ok(())
}

/// The encoder, generic over the vector: `W` bytes per step. Inputs under
/// `W` bytes take two overlapping half steps (`V::HALF_STEP`, from `W/2`
/// bytes) or go to `narrower`; the tail is masked (`V::MASKED_TAIL`), one
/// overlapping half step, or an overlapping full step.
///
/// # Safety
/// The CPU supports `V` and `narrower`'s kernel; `dst` is valid for
/// `2 * src.len()` byte writes.
#[inline(always)]
pub(crate) unsafe fn encode_with<V: HexVector>(
    src: &[u8],
    dst: *mut u8,
    upper: bool,
    narrower: EncodeFn,
) {
    let len = src.len();
    let s = src.as_ptr();
    let half = V::W / 2;
    if len < V::W {
        if V::HALF_STEP && len >= half {
            // SAFETY: the CPU supports V; half <= len, so both half steps
            // (the second overlapping the first) stay in bounds.
            unsafe {
                let table = V::digit_table(upper);
                V::encode_half(s, dst, table);
                if len > half {
                    V::encode_half(s.add(len - half), dst.add(2 * (len - half)), table);
                }
            }
            return;
        }
        // SAFETY: same contract.
        return unsafe { narrower(src, dst, upper) };
    }
    // SAFETY: the CPU supports V.
    let table = unsafe { V::digit_table(upper) };
    let mut i = 0;
    // Large outputs: a short head first, so that the stores below start on
    // a W-byte boundary (a misaligned 64-byte store touches two cache lines
    // every time).
    let mis = dst as usize % V::W;
    if V::ALIGN_STORES && len >= 1024 && mis != 0 && mis.is_multiple_of(2) {
        i = (V::W - mis) / 2;
        // SAFETY: i < W <= len bytes in, 2i out.
        unsafe { narrower(&src[..i], dst, upper) };
    }
    while i + V::W <= len {
        // SAFETY: i + W <= len; output 2i..2i + 2W <= 2 len.
        unsafe { encode_step(s.add(i), dst.add(2 * i), table) };
        i += V::W;
    }
    let r = len - i; // < W
    if r == 0 {
        return;
    }
    if V::MASKED_TAIL {
        // SAFETY: the partial load reads only the r remaining bytes, the
        // partial stores write only their 2r digits (the second store only
        // when some of its bytes are in bounds).
        unsafe {
            let (a, b) = V::load_partial(s.add(i), r, 0).spread_nibbles();
            let d = dst.add(2 * i);
            a.nibble_digits(table).store_partial(d, (2 * r).min(V::W));
            if 2 * r > V::W {
                let rest = 2 * r - V::W;
                b.nibble_digits(table).store_partial(d.add(V::W), rest);
            }
        }
    } else if V::HALF_STEP && r <= half {
        let j = len - half;
        // SAFETY: len >= W > half, so j..len is in bounds (and re-encodes
        // bytes already written with identical digits).
        unsafe { V::encode_half(s.add(j), dst.add(2 * j), table) };
    } else {
        let j = len - V::W;
        // SAFETY: len >= W, so j..len is in bounds (as above).
        unsafe { encode_step(s.add(j), dst.add(2 * j), table) };
    }
}

/// The decoder, generic over the vector: `2W` digits per step; inputs under
/// `2W` digits go to `narrower`; the tail is masked or an overlapping last
/// step. Steps run in order, so the first invalid digit found is the
/// input's first.
///
/// # Safety
/// The CPU supports `V` and `narrower`'s kernel; `src.len()` is even and
/// `dst` valid for `src.len() / 2` byte writes.
#[inline(always)]
pub(crate) unsafe fn decode_with<V: HexVector>(
    src: &[u8],
    dst: *mut u8,
    lower_only: bool,
    narrower: DecodeFn,
) -> Result<(), usize> {
    let len = src.len();
    let step = 2 * V::W;
    if len < step {
        // SAFETY: same contract.
        return unsafe { narrower(src, dst, lower_only) };
    }
    let s = src.as_ptr();
    let mut i = 0;
    while i + step <= len {
        // SAFETY: i + 2W <= len; output i/2..i/2 + W <= len / 2.
        unsafe { decode_block::<V>(s.add(i), dst.add(i / 2), lower_only) }.map_err(|k| i + k)?;
        i += step;
    }
    if i == len {
        return Ok(());
    }
    if V::MASKED_TAIL {
        // r is even, 0 < r < 2W.
        let r = len - i;
        // SAFETY: the partial loads read only the r remaining digits (the
        // second only when r > W); their other lanes are '0', a valid
        // digit. The partial store writes only r/2 < W bytes.
        unsafe {
            let zero = V::splat(b'0');
            let a = V::load_partial(s.add(i), r.min(V::W), b'0');
            let b = if r > V::W {
                V::load_partial(s.add(i + V::W), r - V::W, b'0')
            } else {
                zero
            };
            let out = V::decode_pair(a, b, lower_only).map_err(|k| i + k)?;
            out.store_partial(dst.add(i / 2), r / 2);
        }
    } else {
        // j is even, since len and 2W are.
        let j = len - step;
        // SAFETY: len >= 2W, so j..len is in bounds; j/2 + W == len / 2.
        unsafe { decode_block::<V>(s.add(j), dst.add(j / 2), lower_only) }.map_err(|k| j + k)?;
    }
    Ok(())
}
