//! Numbers: serde_json's grammar checks and error positions, values from
//! the exact text.
//!
//! The shapes most documents use (integers of up to 7 digits; 1 to 3
//! integer and 1 to 15 fraction digits, no exponent) are read first from
//! a 24-byte window at the cursor with no branch per digit
//! (`parse_number_words`), when 24 bytes are left; everything else, and
//! every error, goes the general way below, from the number's start. On
//! x86_64 the window's digit mask and the fraction's 16 digits are each
//! one SSE2 register (`simd::digits`; part of every x86_64 CPU, so no
//! dispatch); other targets, and Miri, use the SWAR forms, which the unit
//! tests check against the same references. No wider vectors: the window is 24
//! bytes, and a build for a newer CPU gains nothing from them here.
//!
//! Integers stay integers while they fit a `u64` (serde_json's rule:
//! non-negative up to `u64::MAX`, negative down to `i64::MIN`, `-0` a
//! float). Their first two digits are read one by one, the rest eight at
//! a time, and only a 20-digit integer is checked for overflow.
//! Everything else is a float, correctly rounded (the value serde_json
//! gives with `float_roundtrip`): its significand is read while the
//! grammar is checked, eight digits at a time, and turned into a double by
//! `float` (Clinger's fast path, then Eisel-Lemire). Significands longer
//! than 19 digits, and the rare cases Eisel-Lemire cannot decide, go to
//! `core`'s exact parser on the text.
//!
//! An `f32` is rounded once, from the decimal to the nearest `f32`, with
//! the same two steps sized for `f32` (`float::to_f32`): the value
//! `str::parse::<f32>` gives, and serde_json's with its `float_roundtrip`
//! feature. Without that feature serde_json reads an `f64` and casts it,
//! rounding twice: a decimal within an `f64` of the midpoint between two
//! `f32`s then ties to even instead of going to its own side
//! (`1.000000059604644776` reads as `1.0000001` here, `1.0` there), and a
//! value past `f32::MAX` becomes infinity where ito reports it out of range.

use serde::de;

use super::error::{Code, Error};
use super::{float, Deserializer};

/// The value of a run of ASCII digits, or `None` if it overflows a `u64`
/// (serde_json's rule: such an integer is read as a float).
#[cold]
fn checked_integer(digits: &[u8]) -> Option<u64> {
    digits.iter().try_fold(0u64, |acc, &c| {
        acc.checked_mul(10)?.checked_add((c - b'0') as u64)
    })
}

/// A parsed number, as the visitor will see it.
pub(in crate::json) enum ParserNumber {
    F64(f64),
    U64(u64),
    I64(i64),
}

impl ParserNumber {
    #[inline]
    pub(super) fn visit<'de, V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            ParserNumber::F64(x) => visitor.visit_f64(x),
            ParserNumber::U64(x) => visitor.visit_u64(x),
            ParserNumber::I64(x) => visitor.visit_i64(x),
        }
    }

    #[cold]
    pub(super) fn invalid_type(self, exp: &dyn de::Expected) -> Error {
        use serde::de::{Error as _, Unexpected};
        match self {
            ParserNumber::F64(x) => Error::invalid_type(Unexpected::Float(x), exp),
            ParserNumber::U64(x) => Error::invalid_type(Unexpected::Unsigned(x), exp),
            ParserNumber::I64(x) => Error::invalid_type(Unexpected::Signed(x), exp),
        }
    }
}

impl<'de> Deserializer<'de> {
    /// Parses a number whose sign (if `-`) was consumed; the cursor is at
    /// its first digit.
    #[inline(always)]
    pub(in crate::json) fn parse_integer(&mut self, positive: bool) -> Result<ParserNumber, Error> {
        if let Some(n) = self.parse_number_words(positive) {
            return Ok(n);
        }
        self.parse_integer_general(positive)
    }

    /// [`parse_integer`](Self::parse_integer) for the typed deserializer:
    /// only the word path is inlined at each call site, the general path
    /// is one call away. A typed `Vec` of tuples then keeps its elements in
    /// registers from the digits to the `Vec` (with the general path
    /// inlined too, the tuple was too large to inline, and each element
    /// went through memory: a stalled store-to-load forward per number).
    #[inline(always)]
    pub(super) fn parse_integer_typed(&mut self, positive: bool) -> Result<ParserNumber, Error> {
        if let Some(n) = self.parse_number_words(positive) {
            return Ok(n);
        }
        self.parse_integer_outlined(positive)
    }

    #[inline(never)]
    fn parse_integer_outlined(&mut self, positive: bool) -> Result<ParserNumber, Error> {
        self.parse_integer_general(positive)
    }

    /// Every number the word path leaves: from its first digit, with
    /// serde_json's errors.
    #[inline(always)]
    fn parse_integer_general(&mut self, positive: bool) -> Result<ParserNumber, Error> {
        let start = self.index;
        let next = match self.next_char() {
            Some(b) => b,
            None => return Err(self.error(Code::EofWhileParsingValue)),
        };
        match next {
            b'0' => match self.peek_or_null() {
                b'0'..=b'9' => Err(self.peek_error(Code::InvalidNumber)),
                _ => self.parse_number(positive, 0, start),
            },
            c @ b'1'..=b'9' => {
                // One- and two-digit integers (counts, a coordinate's
                // integer part) digit by digit; longer ones eight digits
                // at a time from the third (wrapping: up to 19 digits in
                // all cannot overflow a u64, 20 may, more always do).
                let mut significand = (c - b'0') as u64;
                match self.peek_or_null() {
                    c @ b'0'..=b'9' => {
                        significand = significand * 10 + (c - b'0') as u64;
                        self.eat_char();
                    }
                    _ => return self.parse_number(positive, significand, start),
                }
                if !self.peek_or_null().is_ascii_digit() {
                    return self.parse_number(positive, significand, start);
                }
                let (mut significand, rest) = self.eat_digits(significand);
                if rest >= 18 {
                    match checked_integer(&self.input[start..self.index]) {
                        Some(exact) => significand = exact,
                        None => {
                            return self
                                .parse_float_tail(positive, start, None)
                                .map(ParserNumber::F64)
                        }
                    }
                }
                self.parse_number(positive, significand, start)
            }
            _ => Err(self.error(Code::InvalidNumber)),
        }
    }

    #[inline]
    fn parse_number(
        &mut self,
        positive: bool,
        significand: u64,
        start: usize,
    ) -> Result<ParserNumber, Error> {
        Ok(match self.peek_or_null() {
            b'.' | b'e' | b'E' => {
                ParserNumber::F64(self.parse_float_tail(positive, start, Some(significand))?)
            }
            _ => integer(positive, significand),
        })
    }

    /// The two shapes most numbers have, read from a 24-byte window at the
    /// cursor with no branch per digit: an integer of 1 to 7 digits, and a
    /// number of 1 to 3 integer and 1 to 15 fraction digits with no
    /// exponent (canada.json's coordinates, `-65.613616999999977`). `None`
    /// for any other shape, for every error, and when fewer than 24 bytes
    /// are left (the window is read only inside the input): the general
    /// path then reads the number from the start.
    ///
    /// ```text
    /// nd  = one bit per window byte that is not a digit (window_non_digits)
    /// n   = the first set bit: the integer's digits (1..=7)
    /// int = w0's n digits           (the byte at n is not . e E)
    /// end = the second set bit: the fraction is bytes n+1..end (1..=15)
    /// W   = int·10^16 + w1·10^8 + w2, w1 and w2 the fraction's two words
    ///       with the bytes from `end` on read as zeros
    /// value = W × 10^-16            (W < 10^19: exact; one Eisel-Lemire
    ///                                entry whose exponent is a constant)
    /// ```
    ///
    /// Both positions come from the one mask of the whole window, so where
    /// the number ends does not wait for a second load at an offset that
    /// depends on the integer's length: the next value's parse starts
    /// sooner.
    #[inline(always)]
    fn parse_number_words(&mut self, positive: bool) -> Option<ParserNumber> {
        let i = self.index;
        let bytes: &[u8; 24] = self.input.get(i..i.wrapping_add(24))?.try_into().ok()?;
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
        let nd = window_non_digits(bytes);
        let n = nd.trailing_zeros() as usize;
        // Not a number, 8 digits or more, or a leading zero (an error).
        if n == 0 || n >= 8 || (bytes[0] == b'0' && n > 1) {
            return None;
        }
        // The n digits as the last of eight, the first 8 - n being zero
        // (the shift is 8 to 56).
        let shift = 8 * (8 - n) as u32;
        let int = digit_values((word(0).wrapping_sub(ZEROS)) << shift);
        let after = bytes[n];
        if after != b'.' {
            if after | 0x20 == b'e' {
                return None;
            }
            self.index = i + n;
            return Some(integer(positive, int));
        }
        if n > 3 {
            return None;
        }
        // The second non-digit: the fraction's end (24 when the window
        // has none: too long here).
        let end = (nd & (nd - 1)).trailing_zeros() as usize;
        let frac = end - n - 1;
        // No fraction digit (an error), or 16 and perhaps more.
        if frac == 0 || frac > 15 {
            return None;
        }
        if bytes[end] | 0x20 == b'e' {
            return None;
        }
        let w = int * 10_000_000_000_000_000 + fraction16(bytes, n + 1, frac);
        let bits = if self.single_precision {
            f64::from(float::to_f32(w, -16)?).to_bits()
        } else {
            float::to_f64_bits(w, -16)?
        };
        self.index = i + end;
        // The sign as a bit: no branch, and the value stays in integer
        // registers until it is stored.
        Some(ParserNumber::F64(f64::from_bits(
            bits | u64::from(!positive) << 63,
        )))
    }

    /// Checks the rest of a float (more integer digits, fraction,
    /// exponent) with serde_json's errors, then computes its value from
    /// the digits read on the way (the sign is `positive`). `small` is the
    /// significand when the integer part fit in a `u64`; `start` is where
    /// the digits begin, for the exact fallback on long significands.
    fn parse_float_tail(
        &mut self,
        positive: bool,
        start: usize,
        small: Option<u64>,
    ) -> Result<f64, Error> {
        // Remaining integer digits (only when the significand overflowed).
        while let b'0'..=b'9' = self.peek_or_null() {
            self.eat_char();
        }
        let int_digits = self.index - start;
        let mut significand = small.unwrap_or(0);
        let mut frac_digits = 0usize;
        if self.peek_or_null() == b'.' {
            self.eat_char();
            (significand, frac_digits) = self.eat_digits(significand);
            if frac_digits == 0 {
                return Err(match self.peek() {
                    Some(_) => self.peek_error(Code::InvalidNumber),
                    None => self.peek_error(Code::EofWhileParsingValue),
                });
            }
        }
        let mantissa_end = self.index;
        let mut exp: i64 = 0;
        if let b'e' | b'E' = self.peek_or_null() {
            self.eat_char();
            let positive_exp = match self.peek_or_null() {
                b'+' => {
                    self.eat_char();
                    true
                }
                b'-' => {
                    self.eat_char();
                    false
                }
                _ => true,
            };
            let first = match self.next_char() {
                Some(b) => b,
                None => return Err(self.error(Code::EofWhileParsingValue)),
            };
            let mut e = match first {
                c @ b'0'..=b'9' => (c - b'0') as i32,
                _ => return Err(self.error(Code::InvalidNumber)),
            };
            while let c @ b'0'..=b'9' = self.peek_or_null() {
                self.eat_char();
                let digit = (c - b'0') as i32;
                match e.checked_mul(10).and_then(|e| e.checked_add(digit)) {
                    Some(v) => e = v,
                    None => {
                        // serde_json stops at the digit that overflows an
                        // i32: an error for a growing non-zero number, else
                        // zero.
                        let zero = self.input[start..mantissa_end]
                            .iter()
                            .all(|&b| b == b'0' || b == b'.');
                        if !zero && positive_exp {
                            return Err(self.error(Code::NumberOutOfRange));
                        }
                        while let b'0'..=b'9' = self.peek_or_null() {
                            self.eat_char();
                        }
                        return Ok(if positive { 0.0 } else { -0.0 });
                    }
                }
            }
            exp = if positive_exp { e as i64 } else { -(e as i64) };
        }

        // The significand is exact when it has at most 19 significant
        // digits (leading zeros add nothing to it).
        let exact = small.is_some()
            && (int_digits + frac_digits <= 19
                || significant_digits(&self.input[start..mantissa_end]) <= 19);
        let f = if self.single_precision {
            // Rounded once, to f32, from the digits already read.
            match exact.then(|| float::to_f32(significand, exp - frac_digits as i64)) {
                Some(Some(f)) => f64::from(f),
                _ => f64::from(self.text_float::<f32>(start)),
            }
        } else if let Some(f) = exact
            .then(|| float::to_f64(significand, exp - frac_digits as i64))
            .flatten()
        {
            f
        } else {
            self.text_float::<f64>(start)
        };
        if f.is_infinite() {
            return Err(self.error(Code::NumberOutOfRange));
        }
        Ok(if positive { f } else { -f })
    }

    /// Consumes a run of digits, appending them to `acc` (wrapping: the
    /// caller knows when the result is exact); returns the new value and
    /// how many digits there were. Eight bytes at a time while eight are
    /// left (no branch per digit), never reading past the input.
    #[inline(always)]
    fn eat_digits(&mut self, mut acc: u64) -> (u64, usize) {
        let input = self.input;
        let begin = self.index;
        let mut i = begin;
        while let Some(chunk) = input.get(i..i + 8) {
            let word = u64::from_le_bytes(chunk.try_into().unwrap());
            let n = leading_digits(word);
            if n == 8 {
                acc = acc
                    .wrapping_mul(100_000_000)
                    .wrapping_add(eight_digits(word));
                i += 8;
                continue;
            }
            if n > 0 {
                // Keep the n digits as the last ones of eight, the first
                // 8 - n being '0'.
                let shift = 8 * (8 - n) as u32;
                let padded = word << shift | 0x3030_3030_3030_3030 >> (64 - shift);
                acc = acc
                    .wrapping_mul(POW10[n])
                    .wrapping_add(eight_digits(padded));
                i += n;
            }
            self.index = i;
            return (acc, i - begin);
        }
        while let Some(&c) = input.get(i) {
            let d = c.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            acc = acc.wrapping_mul(10).wrapping_add(d as u64);
            i += 1;
        }
        self.index = i;
        (acc, i - begin)
    }

    /// The correctly rounded value of the digits, fraction and exponent in
    /// `input[start..index]`.
    #[inline(never)]
    fn text_float<F: std::str::FromStr + Default>(&self, start: usize) -> F {
        // SAFETY: the number's text was checked byte by byte to be ASCII
        // digits, `.`, `e`/`E` and signs.
        let text = unsafe { std::str::from_utf8_unchecked(&self.input[start..self.index]) };
        text.parse::<F>().unwrap_or_default()
    }
}

/// An integer whose digits were read: `u64` when positive, `i64` when
/// negative, a float for `-0` and below `i64::MIN` (serde_json's rule).
#[inline(always)]
fn integer(positive: bool, significand: u64) -> ParserNumber {
    if positive {
        return ParserNumber::U64(significand);
    }
    let neg = (significand as i64).wrapping_neg();
    if neg >= 0 {
        ParserNumber::F64(-(significand as f64))
    } else {
        ParserNumber::I64(neg)
    }
}

/// The number of digits from the first non-zero one on, in `text`
/// (digits and at most one `.`).
fn significant_digits(text: &[u8]) -> usize {
    let first = text
        .iter()
        .position(|&b| b != b'0' && b != b'.')
        .unwrap_or(text.len());
    text[first..].iter().filter(|b| b.is_ascii_digit()).count()
}

/// Powers of ten that fit a `u64`, up to the eight a word holds.
const POW10: [u64; 9] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
];

/// How many of the bytes of `word`, from the lowest (the first in the
/// input), are ASCII digits before the first that is not.
#[inline(always)]
fn leading_digits(word: u64) -> usize {
    non_digits(word).trailing_zeros() as usize / 8
}

/// The top bit of each byte of a word.
const NON_DIGIT: u64 = 0x8080_8080_8080_8080;

/// The top bit of the first byte of `word` (from the lowest) that is not
/// an ASCII digit is set, and none below it; bits above it mean nothing.
#[inline(always)]
fn non_digits(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    // t is 0..=9 in a digit's byte. A byte's top bit ends up set when t
    // is 10 or more (t + 0x76 reaches 0x80, or t had it already). A carry
    // out of a non-digit byte can only disturb later bytes, never the
    // first non-digit one or the digits before it.
    let t = word ^ (0x30 * ONES);
    (t.wrapping_add(0x76 * ONES) | t) & NON_DIGIT
}

/// The value of eight ASCII digits, first digit in the lowest byte.
#[inline(always)]
fn eight_digits(word: u64) -> u64 {
    digit_values(word - ZEROS)
}

/// `'0'` in every byte of a word.
const ZEROS: u64 = 0x3030_3030_3030_3030;

/// One bit per byte of `window`, set where the byte is not an ASCII digit
/// (bit k for byte k), and bits 24 to 31 set, so that the first and the
/// second set bit always exist.
#[inline(always)]
fn window_non_digits(window: &[u8; 24]) -> u32 {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        crate::simd::digits::sse2_non_digits(window)
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    {
        swar_non_digits(window)
    }
}

/// [`window_non_digits`] from three words: an exact per-byte test (no
/// carry crosses a byte), each word's eight top bits gathered by one
/// multiply.
#[cfg_attr(all(target_arch = "x86_64", not(miri)), allow(dead_code))]
#[inline(always)]
fn swar_non_digits(window: &[u8; 24]) -> u32 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let bits = |at: usize| {
        let w = u64::from_le_bytes(window[at..at + 8].try_into().unwrap());
        // t is 0..=9 in a digit's byte; (t & 0x7F) + 0x76 stays within its
        // byte and reaches 0x80 exactly when t & 0x7F >= 10.
        let t = w ^ ZEROS;
        let top = ((t & LOW7).wrapping_add(0x76 * (u64::MAX / 255)) | t) & NON_DIGIT;
        // Byte k's top bit to bit 56 + k (no two products overlap).
        ((top >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
    };
    bits(0) | bits(8) << 8 | bits(16) << 16 | 0xFF00_0000
}

/// The 16-digit value of the `frac` (1..=15) digits at `window[at..]`
/// followed by zeros (`at + 16 <= 24`).
#[inline(always)]
fn fraction16(window: &[u8; 24], at: usize, frac: usize) -> u64 {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        crate::simd::digits::sse2_fraction16(window, at, frac)
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    {
        swar_fraction16(window, at, frac)
    }
}

/// [`fraction16`] from two words: digit values, a byte mask of the
/// first `frac` over both (the shift is at most 120), eight at a time.
#[cfg_attr(all(target_arch = "x86_64", not(miri)), allow(dead_code))]
#[inline(always)]
fn swar_fraction16(window: &[u8; 24], at: usize, frac: usize) -> u64 {
    let word = |at: usize| u64::from_le_bytes(window[at..at + 8].try_into().unwrap());
    let keep = (1u128 << (8 * frac)) - 1;
    let (k1, k2) = (keep as u64, (keep >> 64) as u64);
    let f1 = digit_values(word(at).wrapping_sub(ZEROS) & k1);
    let f2 = digit_values(word(at + 8).wrapping_sub(ZEROS) & k2);
    f1 * 100_000_000 + f2
}

/// The value of eight digit values (0..=9 each, first digit in the lowest
/// byte).
#[inline(always)]
fn digit_values(v: u64) -> u64 {
    const MASK: u64 = 0x0000_00FF_0000_00FF;
    // Pairs, then quads, then the eight, by multiply-and-shift.
    let v = v.wrapping_mul(10).wrapping_add(v >> 8);
    let lo = (v & MASK).wrapping_mul(100 + (1_000_000 << 32));
    let hi = ((v >> 16) & MASK).wrapping_mul(1 + (10_000 << 32));
    lo.wrapping_add(hi) >> 32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decimals next to the midpoint between two adjacent `f32`s: each
    /// rounds to that midpoint as an `f64`, so rounding twice (to `f64`,
    /// then to `f32`) ties to even, while rounding once goes to the side
    /// the decimal is on. ito reads `f32` as `str::parse::<f32>` does: once.
    #[test]
    fn f32_is_rounded_once() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut differ = 0;
        for i in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Normal and subnormal f32s, both signs.
            let x = f32::from_bits((seed as u32) & 0x7F7F_FFFF | (i & 1) << 31);
            let next = f32::from_bits(x.to_bits() + 1);
            let midpoint = (f64::from(x) + f64::from(next)) / 2.0;
            for text in [format!("{midpoint:.18e}"), format!("{midpoint:.17e}")] {
                let once: f32 = text.parse().unwrap();
                let twice = text.parse::<f64>().unwrap() as f32;
                differ += usize::from(once.to_bits() != twice.to_bits());
                let ours: f32 = crate::json::from_str(&text).unwrap();
                assert_eq!(ours.to_bits(), once.to_bits(), "{text}");
                let wrapped: Vec<f32> = crate::json::from_str(&format!("[{text}]")).unwrap();
                assert_eq!(wrapped[0].to_bits(), once.to_bits(), "[{text}]");
            }
        }
        // The inputs do tell the two roundings apart.
        assert!(differ > 5_000, "{differ}");
        // One example, as the module documents it.
        assert_eq!(
            crate::json::from_str::<f32>("1.000000059604644776").unwrap(),
            1.000_000_1
        );
        assert_eq!("1.000000059604644776".parse::<f64>().unwrap() as f32, 1.0);
        // Out of range for f32 is an error, as for f64.
        assert!(crate::json::from_str::<f32>("3.5e38").is_err());
        assert!(crate::json::from_str::<f32>("1e-50").unwrap() == 0.0);
    }

    #[test]
    fn eight_digits_against_parse() {
        for n in [
            0u64, 1, 9, 10, 12_345_678, 87_654_321, 99_999_999, 10_000_000, 1_000_001,
        ] {
            let text = format!("{n:08}");
            let word = u64::from_le_bytes(text.as_bytes().try_into().unwrap());
            assert_eq!(leading_digits(word), 8, "{text}");
            assert_eq!(eight_digits(word), n, "{text}");
        }
        for (bad, n) in [
            (b"1234567/", 7),
            (b"12345:78", 5),
            (b"1234 678", 4),
            (b"\x001234567", 0),
            (b"12e45678", 2),
            (b"1\xff345678", 1),
            (b"9\xb9\xc0\x3a\x2f000", 1),
        ] {
            assert_eq!(leading_digits(u64::from_le_bytes(*bad)), n, "{bad:?}");
        }
    }

    /// Every byte value at every position, after digits and before
    /// anything.
    #[test]
    fn leading_digits_every_byte_everywhere() {
        for pos in 0..8 {
            for b in 0..=255u8 {
                for after in [b'0', b'9', 0x00, 0xff, b'.', 0x8a] {
                    let mut bytes = [after; 8];
                    bytes[..pos].copy_from_slice(&b"12345678"[..pos]);
                    bytes[pos] = b;
                    let want = bytes.iter().take_while(|c| c.is_ascii_digit()).count();
                    assert_eq!(leading_digits(u64::from_le_bytes(bytes)), want, "{bytes:?}");
                }
            }
        }
    }

    /// The window mask, both ways (SSE2 and SWAR), against a byte-by-byte
    /// reference: every byte value at every position of the window, after
    /// digits and before each kind of byte.
    #[test]
    fn window_non_digits_every_byte_everywhere() {
        let reference = |w: &[u8; 24]| {
            w.iter()
                .enumerate()
                .filter(|(_, b)| !b.is_ascii_digit())
                .fold(0xFF00_0000u32, |m, (k, _)| m | 1 << k)
        };
        for pos in 0..24 {
            for b in 0..=255u8 {
                for after in [b'0', b'9', b'.', 0x00, 0x2f, 0x3a, 0x80, 0xb0, 0xff] {
                    let mut w = [after; 24];
                    for (k, d) in w[..pos].iter_mut().enumerate() {
                        *d = b'0' + (k % 10) as u8;
                    }
                    w[pos] = b;
                    let want = reference(&w);
                    assert_eq!(swar_non_digits(&w), want, "swar {w:?}");
                    #[cfg(target_arch = "x86_64")]
                    assert_eq!(crate::simd::digits::sse2_non_digits(&w), want, "sse2 {w:?}");
                    assert_eq!(window_non_digits(&w), want, "{w:?}");
                }
            }
        }
    }

    /// The fraction's value, both ways, against a digit-by-digit
    /// reference: every count of digits at every place it can start,
    /// followed by digits, a non-digit or bytes above 0x80.
    #[test]
    fn fraction16_every_count_everywhere() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for at in 0..=8 {
            for frac in 1..=15 {
                for round in 0..40 {
                    let mut w = [0u8; 24];
                    for b in w.iter_mut() {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        *b = match round % 4 {
                            0 => b'0' + (seed % 10) as u8,
                            1 => b'9',
                            2 => seed as u8,
                            _ => b'0',
                        };
                    }
                    for d in &mut w[at..at + frac] {
                        if !d.is_ascii_digit() {
                            *d = b'0' + *d % 10;
                        }
                    }
                    let want = w[at..at + 16]
                        .iter()
                        .enumerate()
                        .fold(0u64, |acc, (k, &d)| {
                            acc * 10 + if k < frac { (d - b'0') as u64 } else { 0 }
                        });
                    assert_eq!(
                        swar_fraction16(&w, at, frac),
                        want,
                        "swar {w:?} {at} {frac}"
                    );
                    #[cfg(target_arch = "x86_64")]
                    assert_eq!(
                        crate::simd::digits::sse2_fraction16(&w, at, frac),
                        want,
                        "sse2 {w:?} {at} {frac}"
                    );
                    assert_eq!(fraction16(&w, at, frac), want, "{w:?} {at} {frac}");
                }
            }
        }
    }

    #[test]
    fn significant_digits_skip_leading_zeros() {
        assert_eq!(significant_digits(b"0.000123"), 3);
        assert_eq!(significant_digits(b"100.50"), 5);
        assert_eq!(significant_digits(b"0.0"), 0);
    }
}
