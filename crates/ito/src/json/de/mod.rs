//! The serde JSON deserializer: [`from_slice`], [`from_str`],
//! [`from_reader`] and the [`Deserializer`] behind them, with serde_json's
//! grammar, values and errors (message, line, column) and the exact byte
//! offset of every error.
//!
//! ```
//! use serde::Deserialize;
//!
//! #[derive(Deserialize, Debug, PartialEq)]
//! struct Event<'a> {
//!     id: &'a str,
//!     kind: u16,
//!     tags: Vec<Vec<String>>,
//! }
//!
//! let text = br#"{"id": "ab12", "kind": 1, "tags": [["p", "cd"]]}"#;
//! let event: Event = ito::json::from_slice(text).unwrap();
//! assert_eq!(event.id, "ab12"); // borrowed from `text`
//! assert_eq!(event.tags, [["p", "cd"]]);
//!
//! let err = ito::json::from_slice::<Event>(br#"{"id": "ab12", "kind": 1,}"#).unwrap_err();
//! assert_eq!(err.to_string(), "trailing comma at line 1 column 26");
//! assert_eq!(err.offset(), 25);
//! ```
//!
//! # How it works
//!
//! One pass over the input in place, as serde_json's parser does, driven
//! by the type being built: no tape, no DOM, no copy of the input, no
//! padding, never a write to it, never a read past its end.
//!
//! ```text
//! value:     skip whitespace (a SIMD kernel once past the first byte)
//!            dispatch on the first byte
//! string:    SIMD scan to the first `"`, `\` or control byte (an object
//!            key of up to 31 ASCII bytes: two 16-byte blocks, inline)
//!            `"` first: borrow the slice (UTF-8 checked only if a byte
//!                       >= 0x80 was seen and the input is not a `&str`,
//!                       4 KiB at a time, the valid stretch kept)
//!            else:      decode escapes segment by segment into scratch
//! number:    integer digits into a u64 while they fit (serde_json's
//!            integer rules), floats from their text, correctly rounded
//! container: a depth counter (128, serde_json's limit, as an error)
//! ```
//!
//! Errors are serde_json's: the same condition is reported at the same
//! place with the same words, because the parser makes the same decisions
//! in the same order. Line and column are counted only when an error is
//! made. Struct field names reach the field visitor borrowed from the
//! input when they have no escape, so matching a field allocates nothing.
//!
//! An [`ito::Str`](crate::Str) read by this deserializer keeps what the
//! string scan learned: a string with no escape is known JSON-safe (no
//! `"`, `\` or control byte), so ito's serializer writes it back with one
//! copy and no second scan. The output is the same either way:
//!
//! ```
//! use ito::Str;
//!
//! let text = r#"{"name":"a name long enough to live on the heap","tags":["a\nb"]}"#;
//! #[derive(serde::Deserialize, serde::Serialize)]
//! struct Doc {
//!     name: Str,
//!     tags: Vec<Str>,
//! }
//! let doc: Doc = ito::json::from_str(text).unwrap();
//! assert!(doc.name.is_json_safe()); // known from the scan
//! assert!(!doc.tags[0].is_json_safe()); // escaped: computed by this query
//! assert_eq!(ito::json::to_string(&doc).unwrap(), text);
//! ```
//!
//! Strictness is serde_json's: RFC 8259, no trailing commas, no comments,
//! no raw control bytes in strings, lone surrogate escapes refused, and
//! with [`from_slice`] invalid UTF-8 in strings refused. Like serde_json,
//! skipping a value (`serde::de::IgnoredAny`, unknown fields) checks its
//! grammar but neither the UTF-8 nor the surrogates of its strings, and
//! has no depth limit (it keeps its own stack).
//!
//! # serde_json's private markers
//!
//! `Box<serde_json::value::RawValue>` and `&RawValue` (serde_json's
//! `raw_value` feature) deserialize exactly as with serde_json: the value's
//! text, borrowed or boxed. ito's own [`RawJson`](super::RawJson) works the
//! same way. When serde_json's `arbitrary_precision` feature is on in the
//! build (ito asks serde_json once, at run time), numbers reach
//! `serde_json::Value` and `serde_json::Number` as serde_json's own parser
//! hands them over: as their exact text, with no range limit.

mod access;
mod deserializer;
mod error;
mod float;
mod number;
mod pow5;
pub(in crate::json) mod precise;
mod raw;
mod read;
mod stream;
mod string;

use std::io;

use serde::de::{self, DeserializeOwned};

pub use error::{Category, Error};
pub use stream::StreamDeserializer;
pub(crate) use string::with_facts;
// The Value parser (json/value/parse.rs) drives the same scanners.
pub(in crate::json) use error::Code;
pub(in crate::json) use number::ParserNumber;
pub(in crate::json) use string::Reference;

/// A JSON deserializer over bytes or text held in memory.
///
/// Most callers use [`from_slice`] or [`from_str`]; the type itself is
/// for reading several values from one input ([`Deserializer::into_iter`])
/// or for checking what follows a value ([`Deserializer::end`]).
///
/// ```
/// use serde::Deserialize;
/// let mut de = ito::json::Deserializer::from_str("[1, 2] ");
/// let v = Vec::<u8>::deserialize(&mut de).unwrap();
/// de.end().unwrap();
/// assert_eq!(v, [1, 2]);
/// ```
pub struct Deserializer<'de> {
    pub(in crate::json) input: &'de [u8],
    pub(in crate::json) index: usize,
    /// `input[valid.0..valid.1]` is known to be UTF-8: all of it for a
    /// `&str`; for bytes, the stretch last checked (see `string.rs`).
    valid: (usize, usize),
    scratch: Vec<u8>,
    pub(in crate::json) remaining_depth: u8,
    /// Floats are being read for an `f32` (rounded once, to `f32`).
    single_precision: bool,
    /// Which bytes of the last block looked at are whitespace.
    space: crate::simd::json::SpaceCache,
}

impl<'de> Deserializer<'de> {
    /// Reads JSON from bytes; strings must be valid UTF-8 (checked).
    ///
    /// ```
    /// use serde::Deserialize;
    /// let mut de = ito::json::Deserializer::from_slice(b"true");
    /// assert!(bool::deserialize(&mut de).unwrap());
    /// ```
    pub fn from_slice(input: &'de [u8]) -> Self {
        Deserializer {
            input,
            index: 0,
            valid: (0, 0),
            scratch: Vec::new(),
            remaining_depth: 128,
            single_precision: false,
            space: crate::simd::json::SpaceCache::new(),
        }
    }

    /// Reads JSON from text (no UTF-8 check needed).
    ///
    /// ```
    /// use serde::Deserialize;
    /// let mut de = ito::json::Deserializer::from_str("\"été\"");
    /// assert_eq!(String::deserialize(&mut de).unwrap(), "été");
    /// ```
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(input: &'de str) -> Self {
        Deserializer {
            valid: (0, input.len()),
            ..Deserializer::from_slice(input.as_bytes())
        }
    }

    /// Checks that only whitespace follows the value just read (call it
    /// after deserializing; [`from_slice`] does).
    ///
    /// ```
    /// use serde::Deserialize;
    /// let mut de = ito::json::Deserializer::from_str("1 2");
    /// assert_eq!(u8::deserialize(&mut de).unwrap(), 1);
    /// let err = de.end().unwrap_err();
    /// assert_eq!(err.to_string(), "trailing characters at line 1 column 3");
    /// ```
    pub fn end(&mut self) -> Result<(), Error> {
        match self.parse_whitespace() {
            Some(_) => Err(self.peek_error(error::Code::TrailingCharacters)),
            None => Ok(()),
        }
    }

    /// A stream of the whitespace-separated values in the input (JSON
    /// lines, or values simply concatenated), each read as a `T`; the
    /// stream tells where each value starts
    /// ([`StreamDeserializer::value_offset`]).
    ///
    /// ```
    /// let de = ito::json::Deserializer::from_str("{\"a\":1}\n{\"a\":2}\n");
    /// let mut stream = de.into_iter::<serde_json::Value>();
    /// assert_eq!(stream.next().unwrap().unwrap()["a"], 1);
    /// assert_eq!(stream.value_offset(), 0);
    /// assert_eq!(stream.next().unwrap().unwrap()["a"], 2);
    /// assert_eq!(stream.value_offset(), 8);
    /// assert!(stream.next().is_none());
    /// ```
    #[allow(clippy::should_implement_trait)]
    pub fn into_iter<T: de::Deserialize<'de>>(self) -> StreamDeserializer<'de, T> {
        StreamDeserializer::new(self)
    }

    /// The byte offset of the cursor: after a value was read, where it
    /// ended.
    ///
    /// ```
    /// use serde::Deserialize;
    /// let mut de = ito::json::Deserializer::from_str(" [1] [2]");
    /// Vec::<u8>::deserialize(&mut de).unwrap();
    /// assert_eq!(de.byte_offset(), 4);
    /// ```
    pub fn byte_offset(&self) -> usize {
        self.index
    }
}

fn from_trait<'de, T: de::Deserialize<'de>>(mut de: Deserializer<'de>) -> Result<T, Error> {
    let value = T::deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// Deserializes a `T` from JSON bytes: exactly one value, optionally
/// surrounded by whitespace. Strings must be valid UTF-8.
///
/// Strings and byte strings without escapes can be borrowed from `v`
/// (`&str`, `&[u8]`, `Cow<str>` with `#[serde(borrow)]`); with an escape,
/// `&str` is refused as serde_json refuses it.
///
/// ```
/// let v: Vec<&str> = ito::json::from_slice(br#"["a", "b"]"#).unwrap();
/// assert_eq!(v, ["a", "b"]);
/// let err = ito::json::from_slice::<Vec<&str>>(br#"["a\n"]"#).unwrap_err();
/// assert!(err.to_string().starts_with("invalid type: string \"a\\n\", expected a borrowed string"));
/// ```
pub fn from_slice<'a, T: de::Deserialize<'a>>(v: &'a [u8]) -> Result<T, Error> {
    from_trait(Deserializer::from_slice(v))
}

/// Deserializes a `T` from JSON text: exactly one value, optionally
/// surrounded by whitespace.
///
/// ```
/// use std::collections::BTreeMap;
/// let m: BTreeMap<String, f64> = ito::json::from_str(r#"{"pi": 3.14159}"#).unwrap();
/// assert_eq!(m["pi"], 3.14159);
/// ```
pub fn from_str<'a, T: de::Deserialize<'a>>(s: &'a str) -> Result<T, Error> {
    from_trait(Deserializer::from_str(s))
}

/// Deserializes a `T` from a reader: reads the reader to its end into a
/// buffer, then parses the buffer as [`from_slice`] does (one read loop,
/// then the in-memory parser; serde_json instead parses byte by byte from
/// the reader). An I/O error is returned as [`Category::Io`].
///
/// ```
/// let input = std::io::Cursor::new(b"[1, 2, 3]");
/// let v: Vec<u32> = ito::json::from_reader(input).unwrap();
/// assert_eq!(v, [1, 2, 3]);
/// ```
pub fn from_reader<R: io::Read, T: DeserializeOwned>(mut rdr: R) -> Result<T, Error> {
    let mut buf = Vec::new();
    rdr.read_to_end(&mut buf).map_err(Error::io)?;
    from_slice(&buf)
}
