//! The correctly rounded double (or `f32`) nearest to `w × 10^q`, for a
//! significand `w` read exactly (at most 19 digits): Clinger's fast path,
//! then the Eisel-Lemire algorithm (Lemire, "Number Parsing at a Gigabyte
//! per Second", 2021), one code for both widths.
//!
//! The number's digits were already read and checked by the parser, so
//! this starts from `(w, q)` and never looks at the text again. It answers
//! `None` in the rare cases it cannot decide (an approximation too close
//! to a halfway point); the caller then parses the text with `core`'s
//! exact algorithm.
//!
//! An `f32` is rounded once, from the decimal value to `f32`, as
//! `str::parse::<f32>` does: never to `f64` first and then to `f32`, which
//! rounds twice and can land one `f32` away (json/de/mod.rs documents how
//! this differs from serde_json).

use super::pow5::{LARGEST_POWER_OF_TEN, POW5, SMALLEST_POWER_OF_TEN};

/// Powers of ten that are exact doubles.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Powers of ten that are exact `f32`s.
const POW10_F32: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];

/// An IEEE binary format's parameters, as Eisel-Lemire needs them.
trait Format {
    /// Explicit mantissa bits (52, 23).
    const MANTISSA_BITS: i32;
    /// The exponent field's bias (1023, 127).
    const BIAS: i32;
    /// The all-ones exponent field: infinity.
    const INFINITE_POWER: i32;
    /// Below this power of ten even `w = 10^19 - 1` rounds to zero.
    const SMALLEST_POWER_OF_TEN: i64;
    /// Above this power of ten every non-zero `w` overflows.
    const LARGEST_POWER_OF_TEN: i64;
    /// Exponents whose products can land exactly halfway between two
    /// values (beyond them `5^q` has too many bits, or too few, for a tie).
    const ROUND_TO_EVEN_EXPONENTS: std::ops::RangeInclusive<i64>;
}

struct F64;
struct F32;

impl Format for F64 {
    const MANTISSA_BITS: i32 = 52;
    const BIAS: i32 = 1023;
    const INFINITE_POWER: i32 = 0x7FF;
    const SMALLEST_POWER_OF_TEN: i64 = SMALLEST_POWER_OF_TEN;
    const LARGEST_POWER_OF_TEN: i64 = LARGEST_POWER_OF_TEN;
    const ROUND_TO_EVEN_EXPONENTS: std::ops::RangeInclusive<i64> = -4..=23;
}

impl Format for F32 {
    const MANTISSA_BITS: i32 = 23;
    const BIAS: i32 = 127;
    const INFINITE_POWER: i32 = 0xFF;
    // 10^19 × 10^-65 is below half the smallest f32 subnormal (2^-150).
    const SMALLEST_POWER_OF_TEN: i64 = -65;
    const LARGEST_POWER_OF_TEN: i64 = 38;
    const ROUND_TO_EVEN_EXPONENTS: std::ops::RangeInclusive<i64> = -17..=10;
}

/// `w × 10^q` correctly rounded (round half to even), or `None` when the
/// caller must fall back to an exact parse. `w` must be exact.
#[inline(always)]
pub(super) fn to_f64(w: u64, q: i64) -> Option<f64> {
    // Clinger: both operands exact doubles, one IEEE operation.
    if w <= 1 << 53 && (-22..=22).contains(&q) {
        let f = w as f64;
        return Some(if q >= 0 {
            f * POW10[q as usize]
        } else {
            f / POW10[(-q) as usize]
        });
    }
    eisel_lemire::<F64>(w, q).map(f64::from_bits)
}

/// The bits of `w × 10^q` correctly rounded, by Eisel-Lemire alone (no
/// Clinger step: correct for every `w`, and for a caller whose exponent is
/// a constant it folds to one multiply and a few shifts, all in integer
/// registers), or `None` when the caller must fall back to an exact parse.
/// `w` must be exact.
#[inline(always)]
pub(super) fn to_f64_bits(w: u64, q: i64) -> Option<u64> {
    eisel_lemire::<F64>(w, q)
}

/// `w × 10^q` correctly rounded to `f32` (round half to even), or `None`
/// when the caller must fall back to an exact parse. `w` must be exact.
#[inline(always)]
pub(super) fn to_f32(w: u64, q: i64) -> Option<f32> {
    // Clinger in f32: both operands exact, one IEEE operation.
    if w <= 1 << 24 && (-10..=10).contains(&q) {
        let f = w as f32;
        return Some(if q >= 0 {
            f * POW10_F32[q as usize]
        } else {
            f / POW10_F32[(-q) as usize]
        });
    }
    eisel_lemire::<F32>(w, q).map(|bits| f32::from_bits(bits as u32))
}

/// The bits of the value of format `F` nearest to `w × 10^q`.
#[inline(always)]
fn eisel_lemire<F: Format>(w: u64, q: i64) -> Option<u64> {
    let mantissa_bits = F::MANTISSA_BITS;
    let infinity = (F::INFINITE_POWER as u64) << mantissa_bits;
    if w == 0 || q < F::SMALLEST_POWER_OF_TEN {
        return Some(0);
    }
    if q > F::LARGEST_POWER_OF_TEN {
        return Some(infinity);
    }
    let lz = w.leading_zeros();
    let w = w << lz;
    let (lo, hi) = product_approximation(w, q, mantissa_bits);
    // A low word of all ones means the truncated table entry may have
    // lost a carry; outside these exponents the product is not exact.
    if lo == u64::MAX && !(-27..=55).contains(&q) {
        return None;
    }
    let upper_bit = (hi >> 63) as i32;
    let shift = upper_bit + 64 - mantissa_bits - 3;
    let mut mantissa = hi >> shift;
    // Binary exponent of the product, biased as the format's field.
    let mut power2 = binary_exponent(q) + upper_bit - lz as i32 + F::BIAS;
    if power2 <= 0 {
        // Subnormal (or zero): shift into place, then round.
        if -power2 + 1 >= 64 {
            return Some(0);
        }
        mantissa >>= -power2 + 1;
        mantissa += mantissa & 1;
        mantissa >>= 1;
        // Rounding up may carry into the smallest normal exponent.
        power2 = (mantissa >= 1 << mantissa_bits) as i32;
        return Some(mantissa | (power2 as u64) << mantissa_bits);
    }
    // Exactly halfway (the dropped bits are one 1 then zeros, and the
    // product had no remainder): round to even rather than up.
    if lo <= 1
        && F::ROUND_TO_EVEN_EXPONENTS.contains(&q)
        && mantissa & 3 == 1
        && mantissa << shift == hi
    {
        mantissa &= !1;
    }
    mantissa += mantissa & 1;
    mantissa >>= 1;
    if power2 >= F::INFINITE_POWER {
        return Some(infinity);
    }
    // `mantissa` has its implicit bit (bit `mantissa_bits`) set, or is
    // twice that when rounding carried out of it. Added to the exponent
    // field one below `power2`, that bit raises the field to `power2`, and
    // a carry raises it once more with a fraction of zero (up to infinity's
    // field): no test, fewer instructions on every number.
    Some((((power2 - 1) as u64) << mantissa_bits) + mantissa)
}

/// `floor(log2(10^q)) + 63`, exact for |q| ≤ 1,700 (217706 / 2^16 is
/// log2(10) to enough places).
#[inline(always)]
fn binary_exponent(q: i64) -> i32 {
    (((217706 * q) >> 16) + 63) as i32
}

/// The high 128 bits of `w × 5^q` (normalised `w`), computed with the
/// table's high word and, when the bits that decide rounding (for a
/// format of `mantissa_bits`) are all ones, also its low word.
#[inline(always)]
fn product_approximation(w: u64, q: i64, mantissa_bits: i32) -> (u64, u64) {
    let (hi5, lo5) = POW5[(q - SMALLEST_POWER_OF_TEN) as usize];
    let first = w as u128 * hi5 as u128;
    let (mut lo, mut hi) = (first as u64, (first >> 64) as u64);
    // mantissa + implicit bit + upper bit + round bit decide the result.
    let precision_mask = u64::MAX >> (mantissa_bits + 3);
    if hi & precision_mask == precision_mask {
        let second_hi = ((w as u128 * lo5 as u128) >> 64) as u64;
        let (sum, carry) = lo.overflowing_add(second_hi);
        lo = sum;
        hi += carry as u64;
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn core_parse(w: u64, q: i64) -> f64 {
        format!("{w}e{q}").parse().unwrap()
    }

    fn check(w: u64, q: i64) {
        let want = core_parse(w, q);
        if let Some(got) = to_f64(w, q) {
            assert_eq!(got.to_bits(), want.to_bits(), "{w}e{q}");
        }
    }

    /// Significands whose rounding carries out of the mantissa (all ones
    /// down to the rounding bit, or exactly halfway below a power of two,
    /// which ties to even: up): the value is the power of two, its
    /// exponent one higher and its fraction zero. Both widths, through
    /// Eisel-Lemire alone and through the entries with Clinger's step;
    /// then the same significands scaled, against `core`.
    #[test]
    fn rounding_carry_raises_the_exponent() {
        for k in 25..=63u32 {
            let power = (1u64 << k) as f64;
            let f32_carries = [(1u64 << k) - 1, (1u64 << k) - (1 << (k - 25))];
            let f64_carries = [(1u64 << k) - 1, (1u64 << k) - (1 << k.saturating_sub(54))];
            for w in f32_carries {
                assert_eq!(to_f32(w, 0), Some(power as f32), "f32 {w}");
            }
            if k >= 54 {
                for w in f64_carries {
                    assert_eq!(to_f64_bits(w, 0), Some(power.to_bits()), "{w}");
                    assert_eq!(to_f64(w, 0), Some(power), "{w}");
                }
            }
            for w in f32_carries.into_iter().chain(f64_carries) {
                for q in -3..=3 {
                    check(w, q);
                    check_f32(w, q);
                }
            }
        }
    }

    /// Small xorshift: repeatable, no dependency.
    fn rng(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    #[test]
    fn every_exponent_against_core() {
        let mut seed = 0x9E37_79B9_7F4A_7C15;
        for q in SMALLEST_POWER_OF_TEN - 3..=LARGEST_POWER_OF_TEN + 3 {
            for digits in 1..=19u32 {
                for _ in 0..12 {
                    let w = rng(&mut seed) % 10u64.pow(digits);
                    check(w, q);
                }
                check(10u64.pow(digits) - 1, q);
                check(10u64.pow(digits - 1), q);
            }
        }
    }

    /// Halfway points between adjacent doubles, and their neighbours,
    /// written exactly with at most 19 digits: `(2m + 1) × 2^(e-1)` for
    /// small binary exponents.
    #[test]
    fn halfway_cases_round_to_even() {
        for m in [
            (1u64 << 53) - 1,
            1 << 52,
            (1 << 52) + 1,
            9_007_199_254_740_993 / 2,
        ] {
            for e in 0..=10u32 {
                let halfway = (2 * m + 1) << e;
                if halfway >= 10_000_000_000_000_000_000 {
                    continue;
                }
                for w in [halfway - 1, halfway, halfway + 1] {
                    for q in -5..=5 {
                        check(w, q);
                    }
                }
            }
        }
        // Decimal halfway points with negative exponents.
        for (w, q) in [
            (9_007_199_254_740_993u64, 0),
            (45_035_996_273_704_975, -1),
            (225_179_981_368_524_825, -2),
        ] {
            check(w, q);
        }
    }

    /// The word path's conversion, `W × 10^-16` by Eisel-Lemire alone
    /// (`to_f64_bits`), for significands of every length, the small ones
    /// that Clinger's step would otherwise take included, and zero.
    #[test]
    fn constant_exponent_without_clinger() {
        let mut seed = 0x9E37_79B9_7F4A_7C15;
        for digits in 1..=19u32 {
            for _ in 0..2_000 {
                let w = rng(&mut seed) % 10u64.pow(digits);
                let want = core_parse(w, -16);
                assert_eq!(to_f64_bits(w, -16), Some(want.to_bits()), "{w}e-16");
            }
        }
        for w in [0, 1, 5, 1 << 53, (1 << 53) + 1, 9_999_999_999_999_999_999] {
            assert_eq!(
                to_f64_bits(w, -16),
                Some(core_parse(w, -16).to_bits()),
                "{w}e-16"
            );
        }
    }

    #[test]
    fn subnormals_and_extremes() {
        let mut seed = 7;
        for q in -345..=-300 {
            for _ in 0..400 {
                let w = rng(&mut seed) % 10_000_000_000_000_000_000;
                check(w, q);
            }
        }
        for (w, q) in [
            (49_406_564_584_124_654, -340), // the smallest subnormal
            (24_703_282_292_062_328, -340), // just above half of it
            (24_703_282_292_062_327, -340),
            (22_250_738_585_072_011, -324), // largest subnormal
            (22_250_738_585_072_014, -324), // smallest normal
            (17_976_931_348_623_157, 292),  // f64::MAX
            (17_976_931_348_623_159, 292),  // rounds to infinity
            (1, 308),
            (1, -324),
            (3, -324),
            (1_000_000_000_000_000_000, 289),
        ] {
            check(w, q);
        }
    }

    fn check_f32(w: u64, q: i64) {
        let want: f32 = format!("{w}e{q}").parse().unwrap();
        if let Some(got) = to_f32(w, q) {
            assert_eq!(got.to_bits(), want.to_bits(), "{w}e{q} as f32");
        }
    }

    #[test]
    fn f32_every_exponent_against_core() {
        let mut seed = 0x2545_F491_4F6C_DD1D;
        for q in -90..=60 {
            for digits in 1..=19u32 {
                for _ in 0..40 {
                    let w = rng(&mut seed) % 10u64.pow(digits);
                    check_f32(w, q);
                }
                check_f32(10u64.pow(digits) - 1, q);
                check_f32(10u64.pow(digits - 1), q);
            }
        }
    }

    /// Halfway points between adjacent `f32`s and their neighbours, exact
    /// in at most 19 digits, at every binary exponent they reach; and the
    /// edges: subnormals, the smallest subnormal's half, `f32::MAX` and
    /// the first value that rounds to infinity.
    #[test]
    fn f32_halfway_cases_and_edges() {
        for m in [(1u64 << 24) - 1, 1 << 23, (1 << 23) + 1, 12_345_677] {
            for e in 0..=38u32 {
                let Some(halfway) = (2 * m + 1).checked_shl(e) else {
                    continue;
                };
                if halfway >= 10_000_000_000_000_000_000 || halfway >> e != 2 * m + 1 {
                    continue;
                }
                for w in [halfway - 1, halfway, halfway + 1] {
                    for q in -12..=12 {
                        check_f32(w, q);
                    }
                }
            }
        }
        // Decimal halfway points below one: (2m + 1) × 5^k / 10^k.
        for m in [1u64 << 23, (1 << 24) - 1, 9_999_999] {
            let mut w = 2 * m + 1;
            for k in 1..=17 {
                w *= 5;
                if w >= 10_000_000_000_000_000_000 / 5 {
                    break;
                }
                for d in [w - 1, w, w + 1] {
                    check_f32(d, -k);
                }
            }
        }
        for (w, q) in [
            (14_012_984_643_248_171, -61), // the smallest subnormal
            (7_006_492_321_624_085, -61),  // half of it: rounds to even (0)
            (7_006_492_321_624_086, -61),  // just above half
            (11_754_942_106_924_411, -54), // the largest subnormal
            (11_754_943_508_222_875, -54), // the smallest normal
            (34_028_234_663_852_886, 22),  // f32::MAX
            (34_028_235_677_973_366, 22),  // rounds to infinity
            (34_028_235_677_973_365, 22),  // just below: f32::MAX
            (1, 39),
            (1, -46),
            (1, -45),
        ] {
            check_f32(w, q);
        }
    }

    #[test]
    fn f32_fallback_is_rare() {
        let mut seed = 13;
        let mut undecided = 0;
        for _ in 0..200_000 {
            let w = rng(&mut seed) % 100_000_000_000_000_000;
            let q = (rng(&mut seed) % 60) as i64 - 40;
            if to_f32(w, q).is_none() {
                undecided += 1;
            }
            check_f32(w, q);
        }
        assert!(undecided < 20, "{undecided}");
    }

    #[test]
    fn fallback_is_rare() {
        let mut seed = 11;
        let mut undecided = 0;
        for _ in 0..200_000 {
            let w = rng(&mut seed) % 100_000_000_000_000_000;
            let q = (rng(&mut seed) % 40) as i64 - 30;
            if to_f64(w, q).is_none() {
                undecided += 1;
            }
            check(w, q);
        }
        assert!(undecided < 20, "{undecided}");
    }

    /// A little-endian big integer, just enough to check the table.
    #[derive(Clone, PartialEq, Eq, Debug)]
    struct Big(Vec<u64>);

    impl Big {
        fn from_u128(v: u128) -> Big {
            Big(vec![v as u64, (v >> 64) as u64]).trim()
        }
        fn pow2(n: u32) -> Big {
            let mut limbs = vec![0; n as usize / 64 + 1];
            limbs[n as usize / 64] = 1 << (n % 64);
            Big(limbs)
        }
        fn trim(mut self) -> Big {
            while self.0.len() > 1 && *self.0.last().unwrap() == 0 {
                self.0.pop();
            }
            self
        }
        fn mul(&self, k: &Big) -> Big {
            let mut out = vec![0u64; self.0.len() + k.0.len()];
            for (i, &a) in self.0.iter().enumerate() {
                let mut carry = 0u128;
                for (j, &b) in k.0.iter().enumerate() {
                    let t = a as u128 * b as u128 + out[i + j] as u128 + carry;
                    out[i + j] = t as u64;
                    carry = t >> 64;
                }
                out[i + k.0.len()] = carry as u64;
            }
            Big(out).trim()
        }
        fn pow5(n: u32) -> Big {
            let mut v = Big::from_u128(1);
            for _ in 0..n {
                v = v.mul(&Big::from_u128(5));
            }
            v
        }
        fn bits(&self) -> u32 {
            let top = *self.0.last().unwrap();
            (self.0.len() as u32 - 1) * 64 + (64 - top.leading_zeros())
        }
        /// The top 128 bits (shifting up when shorter), truncated.
        fn top128(&self) -> u128 {
            let bits = self.bits();
            let mut v = 0u128;
            for i in 0..128u32 {
                if bits + i >= 128 {
                    let bit = bits + i - 128; // bit index counted from 0
                    if self.0[bit as usize / 64] >> (bit % 64) & 1 == 1 {
                        v |= 1 << i;
                    }
                }
            }
            v
        }
        fn cmp(&self, other: &Big) -> std::cmp::Ordering {
            let (a, b) = (self.clone().trim(), other.clone().trim());
            a.0.len()
                .cmp(&b.0.len())
                .then_with(|| a.0.iter().rev().cmp(b.0.iter().rev()))
        }
    }

    #[test]
    fn table_matches_big_integers() {
        use std::cmp::Ordering::*;
        for q in SMALLEST_POWER_OF_TEN..=LARGEST_POWER_OF_TEN {
            let (hi, lo) = POW5[(q - SMALLEST_POWER_OF_TEN) as usize];
            let v = (hi as u128) << 64 | lo as u128;
            assert_eq!(v >> 127, 1, "5^{q} not normalised");
            if q >= 0 {
                assert_eq!(v, Big::pow5(q as u32).top128(), "5^{q}");
                continue;
            }
            // v = floor(2^b / p) + 1, truncated to 128 bits by s bits:
            // (v·2^s − 1)·p ≤ 2^b < ((v+1)·2^s − 1)·p, with s = 0 and b
            // = z + 127 down to 5^-27, s = z + 1 and b = 2z + 128 below.
            let p = Big::pow5((-q) as u32);
            let z = p.bits();
            let (b, s) = if q >= -27 {
                (z + 127, 0)
            } else {
                (2 * z + 128, z + 1)
            };
            let two_b = Big::pow2(b);
            let low = Big::from_u128(v).mul(&Big::pow2(s)).minus_one().mul(&p);
            let high = Big::from_u128(v)
                .plus_one()
                .mul(&Big::pow2(s))
                .minus_one()
                .mul(&p);
            assert_ne!(low.cmp(&two_b), Greater, "5^{q} too large");
            assert_eq!(two_b.cmp(&high), Less, "5^{q} too small");
        }
    }

    impl Big {
        fn minus_one(mut self) -> Big {
            for limb in &mut self.0 {
                let (v, borrow) = limb.overflowing_sub(1);
                *limb = v;
                if !borrow {
                    break;
                }
            }
            self.trim()
        }
        fn plus_one(mut self) -> Big {
            self.0.push(0);
            for limb in &mut self.0 {
                let (v, carry) = limb.overflowing_add(1);
                *limb = v;
                if !carry {
                    break;
                }
            }
            self.trim()
        }
    }
}
