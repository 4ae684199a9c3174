//! [`Number`]: a JSON number as serde_json holds it: an unsigned or a
//! negative integer when it is one that fits, else a finite `f64`; or,
//! when parsed with exact precision, the number's own text.

use std::fmt;

use crate::Str;

/// A JSON number: `u64` for non-negative integers, `i64` for negative
/// ones, `f64` for everything else (as serde_json's `Number`, without
/// `arbitrary_precision`). Two numbers are equal when they hold the same
/// kind and value (`1` and `1.0` differ, as in serde_json).
///
/// ```
/// use ito::json::Number;
/// assert_eq!(Number::from(7u8).as_u64(), Some(7));
/// assert_eq!(Number::from(-7).as_i64(), Some(-7));
/// assert_eq!(Number::from_f64(0.5).unwrap().as_f64(), Some(0.5));
/// assert!(Number::from_f64(f64::NAN).is_none());
/// ```
///
/// # Exact precision
///
/// [`Value::from_slice_exact`](super::Value::from_slice_exact) keeps the
/// text of every number that is not an integer fitting `u64`/`i64`
/// (`1.10`, `1e400`, `-0`, `18446744073709551616`), so rendering the
/// document again writes those numbers exactly as they were read. Such a
/// number is neither `u64` nor `i64`; [`as_f64`](Number::as_f64) converts
/// its text (correctly rounded) when asked, and
/// [`as_exact_text`](Number::as_exact_text) gives the text itself.
///
/// ```
/// use ito::json::Value;
/// let v = Value::from_str_exact("[1.10, 1e400, 7]").unwrap();
/// assert_eq!(v.to_string(), "[1.10,1e400,7]");
/// assert_eq!(v[0].as_number().unwrap().as_exact_text(), Some("1.10"));
/// assert_eq!(v[0].as_f64(), Some(1.1));
/// assert_eq!(v[1].as_f64(), None); // beyond f64
/// assert_eq!(v[2], 7); // integers that fit are plain integers
/// ```
#[derive(Clone)]
pub struct Number(Repr);

#[derive(Clone)]
enum Repr {
    Plain(N),
    /// A JSON number's text, kept as written; never an integer that fits
    /// `u64` (without `-`) or `i64` (with `-`, and not `-0`).
    Exact(Str),
}

// Text inline up to 23 bytes: no allocation for any usual number; `Plain`
// lives in `Str`'s niche, so a `Value` stays 32 bytes.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Number>() == 24);

#[derive(Clone, Copy, PartialEq)]
pub(super) enum N {
    PosInt(u64),
    /// Always below zero.
    NegInt(i64),
    /// Always finite.
    Float(f64),
}

/// A number as one flat enum, for matching.
pub(super) enum View<'a> {
    PosInt(u64),
    NegInt(i64),
    Float(f64),
    Exact(&'a Str),
}

impl Number {
    #[inline(always)]
    pub(super) const fn plain(n: N) -> Number {
        Number(Repr::Plain(n))
    }

    #[inline(always)]
    pub(super) fn view(&self) -> View<'_> {
        match &self.0 {
            Repr::Plain(N::PosInt(n)) => View::PosInt(*n),
            Repr::Plain(N::NegInt(n)) => View::NegInt(*n),
            Repr::Plain(N::Float(f)) => View::Float(*f),
            Repr::Exact(t) => View::Exact(t),
        }
    }

    /// A float, or `None` if it is not finite (JSON has no NaN or infinity).
    ///
    /// ```
    /// assert!(ito::json::Number::from_f64(f64::INFINITY).is_none());
    /// ```
    #[inline]
    pub fn from_f64(f: f64) -> Option<Number> {
        f.is_finite().then_some(Number::plain(N::Float(f)))
    }

    /// The value as a `u64`, if it is a non-negative integer.
    ///
    /// ```
    /// assert_eq!(ito::json::Number::from(-1).as_u64(), None);
    /// ```
    #[inline]
    pub fn as_u64(&self) -> Option<u64> {
        match self.view() {
            View::PosInt(n) => Some(n),
            _ => None,
        }
    }

    /// The value as an `i64`, if it is an integer in range.
    ///
    /// ```
    /// assert_eq!(ito::json::Number::from(u64::MAX).as_i64(), None);
    /// ```
    #[inline]
    pub fn as_i64(&self) -> Option<i64> {
        match self.view() {
            View::PosInt(n) => i64::try_from(n).ok(),
            View::NegInt(n) => Some(n),
            View::Float(_) | View::Exact(_) => None,
        }
    }

    /// The value as an `f64` (integers converted, maybe rounded); for an
    /// exact number, its text correctly rounded, or `None` beyond `f64`'s
    /// range.
    ///
    /// ```
    /// assert_eq!(ito::json::Number::from(3).as_f64(), Some(3.0));
    /// ```
    #[inline]
    pub fn as_f64(&self) -> Option<f64> {
        Some(match self.view() {
            View::PosInt(n) => n as f64,
            View::NegInt(n) => n as f64,
            View::Float(f) => f,
            View::Exact(t) => return exact_f64(t),
        })
    }

    /// The number's text as it was read, if it was parsed with exact
    /// precision (and is not an integer that fits `u64`/`i64`).
    ///
    /// ```
    /// let v = ito::json::Value::from_str_exact("[0.30000000000000000001, 2]").unwrap();
    /// assert_eq!(v[0].as_number().unwrap().as_exact_text(), Some("0.30000000000000000001"));
    /// assert_eq!(v[1].as_number().unwrap().as_exact_text(), None);
    /// ```
    #[inline]
    pub fn as_exact_text(&self) -> Option<&str> {
        match self.view() {
            View::Exact(t) => Some(t.as_str()),
            _ => None,
        }
    }

    /// A number with exact precision from its JSON text: `None` unless
    /// `text` is exactly one JSON number. An integer that fits `u64`/`i64`
    /// becomes a plain integer, as in a parse.
    ///
    /// ```
    /// use ito::json::Number;
    /// let n = Number::from_exact_text("-1.50e+3").unwrap();
    /// assert_eq!(n.to_string(), "-1.50e+3");
    /// assert_eq!(n.as_f64(), Some(-1500.0));
    /// assert_eq!(Number::from_exact_text("12").unwrap(), Number::from(12));
    /// assert!(Number::from_exact_text("1.").is_none());
    /// assert!(Number::from_exact_text(" 1").is_none());
    /// ```
    pub fn from_exact_text(text: &str) -> Option<Number> {
        if is_json_number(text.as_bytes()) {
            Some(Number::exact(text))
        } else {
            None
        }
    }

    /// Whether dropping it frees memory (kept text not stored inline).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    #[inline(always)]
    pub(super) fn owns_memory(&self) -> bool {
        match &self.0 {
            Repr::Plain(_) => false,
            Repr::Exact(s) => !s.is_inline(),
        }
    }

    /// `text`, known to be one JSON number, as a number with exact
    /// precision.
    pub(super) fn exact(text: &str) -> Number {
        if let Some(digits) = text.strip_prefix('-') {
            if digits != "0" {
                if let Ok(n) = text.parse::<i64>() {
                    return Number::plain(N::NegInt(n));
                }
            }
        } else if let Ok(n) = text.parse::<u64>() {
            return Number::plain(N::PosInt(n));
        }
        Number(Repr::Exact(Str::from_str_copy(text)))
    }

    /// Whether it is a `u64`.
    ///
    /// ```
    /// assert!(ito::json::Number::from(1u8).is_u64());
    /// ```
    #[inline]
    pub fn is_u64(&self) -> bool {
        matches!(self.view(), View::PosInt(_))
    }

    /// Whether it is an integer that fits an `i64`.
    ///
    /// ```
    /// assert!(ito::json::Number::from(-1).is_i64());
    /// ```
    #[inline]
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// Whether it is held as a float.
    ///
    /// ```
    /// assert!(ito::json::Number::from_f64(1.0).unwrap().is_f64());
    /// ```
    #[inline]
    pub fn is_f64(&self) -> bool {
        match self.view() {
            View::Float(_) => true,
            View::Exact(t) => exact_f64(t).is_some(),
            _ => false,
        }
    }

    /// Appends the number as serde_json writes it.
    #[inline(always)]
    pub(super) fn render(&self, out: &mut Vec<u8>) {
        use crate::json::emit;
        match self.view() {
            View::PosInt(n) => emit::int(out, n),
            View::NegInt(n) => emit::int(out, n),
            View::Float(f) => emit::float(out, f),
            View::Exact(t) => out.extend_from_slice(t.as_bytes()),
        }
    }
}

/// An exact number's value, if finite as an `f64`.
fn exact_f64(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// Whether `b` is exactly one JSON number (RFC 8259's grammar).
fn is_json_number(b: &[u8]) -> bool {
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if let Some(b'e' | b'E') = b.get(i) {
        i += 1;
        if let Some(b'+' | b'-') = b.get(i) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

impl PartialEq for Number {
    /// Equal when they hold the same kind and value; an exact number
    /// equals another number when both render the same text.
    fn eq(&self, other: &Number) -> bool {
        match (self.view(), other.view()) {
            (View::PosInt(a), View::PosInt(b)) => a == b,
            (View::NegInt(a), View::NegInt(b)) => a == b,
            (View::Float(a), View::Float(b)) => a == b,
            (View::Exact(a), View::Exact(b)) => a == b,
            (View::Exact(_), View::Float(_)) | (View::Float(_), View::Exact(_)) => {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                self.render(&mut a);
                other.render(&mut b);
                a == b
            }
            _ => false,
        }
    }
}

macro_rules! from_unsigned {
    ($($t:ty)*) => {$(
        impl From<$t> for Number {
            #[inline]
            fn from(n: $t) -> Number {
                Number::plain(N::PosInt(n as u64))
            }
        }
    )*};
}
macro_rules! from_signed {
    ($($t:ty)*) => {$(
        impl From<$t> for Number {
            #[inline]
            fn from(n: $t) -> Number {
                Number::plain(if n < 0 { N::NegInt(n as i64) } else { N::PosInt(n as u64) })
            }
        }
    )*};
}
from_unsigned!(u8 u16 u32 u64 usize);
from_signed!(i8 i16 i32 i64 isize);

impl fmt::Debug for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Number({self})")
    }
}

impl fmt::Display for Number {
    /// The number as serde_json writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = Vec::new();
        self.render(&mut out);
        // SAFETY: numbers are written in ASCII.
        f.write_str(unsafe { std::str::from_utf8_unchecked(&out) })
    }
}
