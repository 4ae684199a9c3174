//! [`Number`]: a JSON number as serde_json holds it: an unsigned or a
//! negative integer when it is one that fits, else a finite `f64`.

use std::fmt;

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
#[derive(Clone, Copy, PartialEq)]
pub struct Number(pub(super) N);

#[derive(Clone, Copy, PartialEq)]
pub(super) enum N {
    PosInt(u64),
    /// Always below zero.
    NegInt(i64),
    /// Always finite.
    Float(f64),
}

impl Number {
    /// A float, or `None` if it is not finite (JSON has no NaN or infinity).
    ///
    /// ```
    /// assert!(ito::json::Number::from_f64(f64::INFINITY).is_none());
    /// ```
    #[inline]
    pub fn from_f64(f: f64) -> Option<Number> {
        f.is_finite().then_some(Number(N::Float(f)))
    }

    /// The value as a `u64`, if it is a non-negative integer.
    ///
    /// ```
    /// assert_eq!(ito::json::Number::from(-1).as_u64(), None);
    /// ```
    #[inline]
    pub fn as_u64(&self) -> Option<u64> {
        match self.0 {
            N::PosInt(n) => Some(n),
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
        match self.0 {
            N::PosInt(n) => i64::try_from(n).ok(),
            N::NegInt(n) => Some(n),
            N::Float(_) => None,
        }
    }

    /// The value as an `f64` (integers converted, maybe rounded).
    ///
    /// ```
    /// assert_eq!(ito::json::Number::from(3).as_f64(), Some(3.0));
    /// ```
    #[inline]
    pub fn as_f64(&self) -> Option<f64> {
        Some(match self.0 {
            N::PosInt(n) => n as f64,
            N::NegInt(n) => n as f64,
            N::Float(f) => f,
        })
    }

    /// Whether it is a `u64`.
    ///
    /// ```
    /// assert!(ito::json::Number::from(1u8).is_u64());
    /// ```
    #[inline]
    pub fn is_u64(&self) -> bool {
        matches!(self.0, N::PosInt(_))
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
        matches!(self.0, N::Float(_))
    }

    /// Appends the number as serde_json writes it.
    #[inline(always)]
    pub(super) fn render(&self, out: &mut Vec<u8>) {
        use crate::json::emit;
        match self.0 {
            N::PosInt(n) => emit::int(out, n),
            N::NegInt(n) => emit::int(out, n),
            N::Float(f) => emit::float(out, f),
        }
    }
}

macro_rules! from_unsigned {
    ($($t:ty)*) => {$(
        impl From<$t> for Number {
            #[inline]
            fn from(n: $t) -> Number {
                Number(N::PosInt(n as u64))
            }
        }
    )*};
}
macro_rules! from_signed {
    ($($t:ty)*) => {$(
        impl From<$t> for Number {
            #[inline]
            fn from(n: $t) -> Number {
                Number(if n < 0 { N::NegInt(n as i64) } else { N::PosInt(n as u64) })
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
