//! [`Value`]: a parsed JSON document, for reading JSON without a schema.
//!
//! ```
//! use ito::json::Value;
//!
//! let text = r#"{"user": {"name": "ada", "langs": ["en", "fr"]}, "n": 1.5}"#;
//! let v = Value::from_str(text).unwrap();
//! assert_eq!(v["user"]["name"], "ada");
//! assert_eq!(v["user"]["langs"][1], "fr");
//! assert_eq!(v["missing"]["too"], Value::Null); // missing gives null
//! assert_eq!(v.pointer("/user/langs/0").and_then(Value::as_str), Some("en"));
//! assert_eq!(v.to_string(), r#"{"user":{"name":"ada","langs":["en","fr"]},"n":1.5}"#);
//! ```
//!
//! # Representation
//!
//! ```text
//! Value    32 bytes: Null | Bool | Number (u64, i64 or f64) | String(Text)
//!          | Array(Array) | Object(Map)
//! Text     24 bytes: &'a str borrowed from the input (no escape: known
//!          JSON-safe) or from the arena (decoded escapes) | Str
//!          (unescaped; inline up to 23 bytes)
//! Array    16 bytes: the elements, in an Arena or on the heap (seq.rs)
//! Map      (Text, Value) members in document order, stored as an Array's
//!          elements are, + a lazy hash index
//! ```
//!
//! The parser (`parse.rs`) builds every container's children on one
//! scratch stack and moves them into storage of exactly their number when
//! the container closes: with `Value::from_slice_in` a bump in the
//! document's [`Arena`] (`arena.rs`), else one heap allocation per
//! non-empty container; none per string unless it had an escape, is
//! longer than 23 bytes and there is no arena (with one, its decoded text
//! goes there). An arena value cannot outlive its arena; the
//! first change of a container's length moves its elements to the heap
//! (`array.rs`, `seq.rs`). Lookup in
//! an object scans up to 12 members and hashes beyond (`object.rs`).
//! Rendering (`render.rs`) is serde_json's compact and pretty text, byte
//! for byte; a borrowed string is copied between quotes without a scan.
//!
//! Numbers keep no text by default: like serde_json without
//! `arbitrary_precision`, integers that fit are `u64`/`i64` and the rest
//! `f64`, correctly rounded. [`Value::from_slice_exact`] keeps the text of
//! every number that is not such an integer (inline up to 23 bytes, so
//! `Value` stays 32 bytes), and renders it as written. The parser needs the `serde` feature (it shares the
//! deserializer's scanners, which live under that feature); the type,
//! its access, rendering and [`json!`](crate::json!) do not.

mod access;
mod arena;
mod array;
mod macros;
mod number;
mod object;
#[cfg(feature = "serde")]
mod parse;
mod render;
mod seq;
#[cfg(feature = "serde")]
mod serde_impls;
mod text;

pub use access::ValueIndex;
pub use arena::Arena;
pub use array::Array;
pub use number::Number;
pub use object::Map;
pub use text::Text;

use crate::Str;

/// A JSON value; strings may borrow from the text it was parsed from
/// (`'a`). See [the module docs](crate::json::value).
///
/// ```
/// let v = ito::json!({"id": 7, "tags": ["a", "b"], "ok": true, "none": null});
/// assert_eq!(v["id"], 7);
/// assert!(v["ok"].as_bool().unwrap());
/// assert_eq!(v["tags"].as_array().unwrap().len(), 2);
/// assert!(v["none"].is_null());
/// ```
#[derive(Clone, Default)]
pub enum Value<'a> {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string.
    String(Text<'a>),
    /// An array.
    Array(Array<'a>),
    /// An object.
    Object(Map<'a>),
}

#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Value<'static>>() == 32);

/// What a missing key or index reads as.
pub(super) const NULL: &Value<'static> = &Value::Null;

impl<'a> Value<'a> {
    /// The same value, owning all its strings (borrowed strings copied
    /// into `Str`s).
    ///
    /// ```
    /// let text = String::from(r#"["a"]"#);
    /// let v = ito::json::Value::from_str(&text).unwrap().into_owned();
    /// drop(text);
    /// assert_eq!(v[0], "a");
    /// ```
    pub fn into_owned(self) -> Value<'static> {
        match self {
            Value::Null => Value::Null,
            Value::Bool(b) => Value::Bool(b),
            Value::Number(n) => Value::Number(n),
            Value::String(s) => Value::String(s.into_owned()),
            Value::Array(a) => Value::Array(a.into_iter().map(Value::into_owned).collect()),
            Value::Object(o) => Value::Object(o.into_owned()),
        }
    }
}

impl From<bool> for Value<'_> {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

macro_rules! from_integer {
    ($($t:ty)*) => {$(
        impl From<$t> for Value<'_> {
            #[inline]
            fn from(n: $t) -> Self {
                Value::Number(n.into())
            }
        }
    )*};
}
from_integer!(u8 u16 u32 u64 usize i8 i16 i32 i64 isize);

impl From<f64> for Value<'_> {
    /// A number, or null when `f` is not finite (as serde_json).
    fn from(f: f64) -> Self {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

impl From<f32> for Value<'_> {
    /// A number (widened as serde_json widens it), or null when not finite.
    fn from(f: f32) -> Self {
        Value::from(f as f64)
    }
}

impl From<Number> for Value<'_> {
    fn from(n: Number) -> Self {
        Value::Number(n)
    }
}

impl<'a> From<&'a str> for Value<'a> {
    fn from(s: &'a str) -> Self {
        Value::String(s.into())
    }
}

impl From<String> for Value<'_> {
    fn from(s: String) -> Self {
        Value::String(s.into())
    }
}

impl From<&String> for Value<'_> {
    fn from(s: &String) -> Self {
        Value::String(s.into())
    }
}

impl From<Str> for Value<'_> {
    fn from(s: Str) -> Self {
        Value::String(s.into())
    }
}

impl<'a> From<Text<'a>> for Value<'a> {
    fn from(s: Text<'a>) -> Self {
        Value::String(s)
    }
}

impl<'a> From<Map<'a>> for Value<'a> {
    fn from(o: Map<'a>) -> Self {
        Value::Object(o)
    }
}

impl<'a, T: Into<Value<'a>>> From<Vec<T>> for Value<'a> {
    fn from(v: Vec<T>) -> Self {
        Value::Array(v.into_iter().map(Into::into).collect())
    }
}

impl<'a> From<Array<'a>> for Value<'a> {
    fn from(a: Array<'a>) -> Self {
        Value::Array(a)
    }
}

impl<'a, T: Into<Value<'a>>> From<Option<T>> for Value<'a> {
    /// The value, or null for `None`.
    fn from(v: Option<T>) -> Self {
        v.map_or(Value::Null, Into::into)
    }
}

impl From<()> for Value<'_> {
    fn from((): ()) -> Self {
        Value::Null
    }
}

impl<'a, T: Into<Value<'a>>> FromIterator<T> for Value<'a> {
    /// An array of the items.
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Value::Array(iter.into_iter().map(Into::into).collect())
    }
}

impl PartialEq for Value<'_> {
    /// serde_json's equality: same kind and value; objects equal when
    /// their members are, in any order.
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Value::Null, Value::Null) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Number(a), Value::Number(b)) => a == b,
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => a == b,
            (Value::Object(a), Value::Object(b)) => a == b,
            _ => false,
        }
    }
}

impl std::fmt::Debug for Value<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Null => f.write_str("Null"),
            Value::Bool(b) => write!(f, "Bool({b})"),
            Value::Number(n) => write!(f, "Number({n})"),
            Value::String(s) => write!(f, "String({s:?})"),
            Value::Array(a) => {
                f.write_str("Array ")?;
                f.debug_list().entries(a).finish()
            }
            Value::Object(o) => {
                f.write_str("Object ")?;
                std::fmt::Debug::fmt(o, f)
            }
        }
    }
}
