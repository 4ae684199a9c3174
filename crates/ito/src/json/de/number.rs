//! Numbers: serde_json's grammar checks and error positions, values from
//! the exact text.
//!
//! Integers are accumulated while they fit a `u64` (serde_json's rule for
//! which numbers stay integers: non-negative up to `u64::MAX`, negative
//! down to `i64::MIN`, `-0` a float). Everything else is a float, computed
//! from the number's text by `core`'s correctly rounded parser (the value
//! serde_json gives with `float_roundtrip`), with a fast exact path for
//! short significands and small exponents (Clinger's: both operands are
//! exact doubles, so one IEEE operation rounds correctly).

use serde::de;

use super::error::{Code, Error};
use super::Deserializer;

/// A parsed number, as the visitor will see it.
pub(super) enum ParserNumber {
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

/// Powers of ten that are exact doubles.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

impl<'de> Deserializer<'de> {
    /// Parses a number whose sign (if `-`) was consumed; the cursor is at
    /// its first digit.
    #[inline]
    pub(super) fn parse_integer(&mut self, positive: bool) -> Result<ParserNumber, Error> {
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
                let mut significand = (c - b'0') as u64;
                loop {
                    match self.peek_or_null() {
                        c @ b'0'..=b'9' => {
                            let digit = (c - b'0') as u64;
                            match significand
                                .checked_mul(10)
                                .and_then(|s| s.checked_add(digit))
                            {
                                Some(s) => {
                                    significand = s;
                                    self.eat_char();
                                }
                                None => {
                                    return self
                                        .parse_float_tail(positive, start, None)
                                        .map(ParserNumber::F64)
                                }
                            }
                        }
                        _ => return self.parse_number(positive, significand, start),
                    }
                }
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
            _ => {
                if positive {
                    ParserNumber::U64(significand)
                } else {
                    let neg = (significand as i64).wrapping_neg();
                    // A float on `-0` and below `i64::MIN`.
                    if neg >= 0 {
                        ParserNumber::F64(-(significand as f64))
                    } else {
                        ParserNumber::I64(neg)
                    }
                }
            }
        })
    }

    /// Checks the rest of a float (more integer digits, fraction,
    /// exponent) with serde_json's errors, then computes its value from
    /// the text `input[start..]` (digits only; the sign is `positive`).
    /// `small` is the significand when the integer part fit in a `u64`.
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
        let int_end = self.index;
        let mut frac_digits = 0usize;
        if self.peek_or_null() == b'.' {
            self.eat_char();
            let frac_start = self.index;
            while let b'0'..=b'9' = self.peek_or_null() {
                self.eat_char();
            }
            frac_digits = self.index - frac_start;
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

        let f = if self.single_precision {
            self.text_float::<f32>(start) as f64
        } else if let Some(f) = small.and_then(|s| {
            fast_path(
                s,
                exp - frac_digits as i64,
                int_end,
                start,
                frac_digits,
                self.input,
            )
        }) {
            f
        } else {
            self.text_float::<f64>(start)
        };
        if f.is_infinite() {
            return Err(self.error(Code::NumberOutOfRange));
        }
        Ok(if positive { f } else { -f })
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

/// Clinger's fast path: the significand (integer and fraction digits
/// together) below 2^53 and a power of ten up to 22 are both exact, so one
/// multiplication or division rounds correctly.
#[inline(always)]
fn fast_path(
    int_part: u64,
    exp10: i64,
    int_end: usize,
    start: usize,
    frac_digits: usize,
    input: &[u8],
) -> Option<f64> {
    let _ = start;
    let mut m = int_part;
    if frac_digits > 0 {
        let frac = &input[int_end + 1..int_end + 1 + frac_digits];
        if frac.len() > 19 {
            return None;
        }
        for &d in frac {
            m = m.checked_mul(10)?.checked_add((d - b'0') as u64)?;
        }
    }
    if m > (1u64 << 53) || !(-22..=22).contains(&exp10) {
        return None;
    }
    let f = m as f64;
    Some(if exp10 >= 0 {
        f * POW10[exp10 as usize]
    } else {
        f / POW10[(-exp10) as usize]
    })
}
