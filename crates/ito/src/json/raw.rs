//! [`RawJson`]: a fragment of JSON text written verbatim, and the validator
//! that guards its safe constructors.
//!
//! The validator is one forward pass with no allocation: a byte loop that
//! skips string runs eight bytes at a time, and a bit stack (one bit per
//! open container, object or array) for nesting, up to [`MAX_DEPTH`]
//! levels. It checks RFC 8259's grammar exactly as serde_json's parser
//! does when it skips a value for `RawValue`: numbers by syntax (any
//! magnitude), `\u` escapes by form (lone surrogates are accepted, as
//! serde_json accepts them there).

use std::borrow::Borrow;
use std::fmt;

use super::{Error, ErrorKind};
use crate::simd::json::swar_special;

/// A JSON value as text, written verbatim by [`Writer`](super::Writer) and
/// by ito's serializer (a relay forwards stored events this way).
///
/// `RawJson` is unsized like `str`: borrow it as `&RawJson`, own it as
/// `Box<RawJson>`. The safe constructors validate the text (one pass, no
/// allocation) and drop surrounding whitespace; the `unchecked` ones trust
/// the caller.
///
/// ```
/// use ito::json::{RawJson, Writer};
/// let event = RawJson::new(r#" {"id": "ab", "kind": 1} "#).unwrap();
/// assert_eq!(event.as_str(), r#"{"id": "ab", "kind": 1}"#);
///
/// let mut out = Vec::new();
/// let mut msg = Writer::new(&mut out).array();
/// msg.push("EVENT").push("sub").push(event);
/// msg.end();
/// assert_eq!(out, br#"["EVENT","sub",{"id": "ab", "kind": 1}]"#);
///
/// assert!(RawJson::new("[1, 2,]").is_err());
/// ```
#[derive(PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct RawJson(str);

/// The deepest nesting of objects and arrays [`RawJson`]'s validator
/// accepts (serde_json's parser stops at 128).
///
/// ```
/// use ito::json::{RawJson, MAX_DEPTH};
/// let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
/// assert!(RawJson::new(&ok).is_ok());
/// let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
/// assert!(RawJson::new(&deep).is_err());
/// ```
pub const MAX_DEPTH: usize = 1024;

impl RawJson {
    /// Validates `text` as one JSON value (surrounding whitespace allowed)
    /// and borrows it without that whitespace.
    ///
    /// ```
    /// let raw = ito::json::RawJson::new("\n[true, null]\n").unwrap();
    /// assert_eq!(raw.as_str(), "[true, null]");
    /// let err = ito::json::RawJson::new("[true, nul]").unwrap_err();
    /// assert_eq!(err.offset(), 10); // the `]` where `l` should be
    /// ```
    pub fn new(text: &str) -> Result<&RawJson, Error> {
        let (start, end) = validate(text.as_bytes())?;
        // SAFETY: `validate` returns the bounds of a JSON value, which
        // start and end at ASCII bytes, hence at char boundaries.
        Ok(unsafe { RawJson::new_unchecked(text.get_unchecked(start..end)) })
    }

    /// [`RawJson::new`] for bytes not known to be UTF-8 (invalid UTF-8 is
    /// an [`ErrorKind::InvalidUtf8`] error at its offset).
    ///
    /// ```
    /// assert!(ito::json::RawJson::from_bytes(b"\"caf\xC3\xA9\"").is_ok());
    /// assert!(ito::json::RawJson::from_bytes(b"\"caf\xC3\"").is_err());
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<&RawJson, Error> {
        let text = crate::simd::utf8::validate(bytes)
            .map_err(|at| Error::new(at, ErrorKind::InvalidUtf8))?;
        RawJson::new(text)
    }

    /// Validates an owned string; surrounding whitespace is removed.
    ///
    /// ```
    /// let raw = ito::json::RawJson::from_string(" 1.5 ".to_string()).unwrap();
    /// assert_eq!(raw.as_str(), "1.5");
    /// ```
    pub fn from_string(text: String) -> Result<Box<RawJson>, Error> {
        let (start, end) = validate(text.as_bytes())?;
        let mut text = text;
        text.truncate(end);
        text.drain(..start);
        // SAFETY: the text was just validated.
        Ok(unsafe { RawJson::from_boxed_unchecked(text.into_boxed_str()) })
    }

    /// Borrows `text` as raw JSON without checking it.
    ///
    /// # Safety
    /// `text` must be exactly one valid JSON value (no surrounding
    /// whitespace needed). This is not a memory-safety requirement: it is
    /// what lets [`Writer`](super::Writer) promise that its safe API only
    /// produces valid JSON. Break it and the output is not JSON.
    ///
    /// ```
    /// // SAFETY: a literal known to be JSON.
    /// let raw = unsafe { ito::json::RawJson::new_unchecked("[1,2]") };
    /// assert_eq!(raw.as_str(), "[1,2]");
    /// ```
    pub const unsafe fn new_unchecked(text: &str) -> &RawJson {
        // SAFETY: `RawJson` is `repr(transparent)` over `str`, so the
        // pointer cast keeps layout and metadata.
        unsafe { &*(text as *const str as *const RawJson) }
    }

    /// Takes ownership of `text` as raw JSON without checking it.
    ///
    /// # Safety
    /// As for [`RawJson::new_unchecked`].
    ///
    /// ```
    /// // SAFETY: a literal known to be JSON.
    /// let raw = unsafe { ito::json::RawJson::from_boxed_unchecked("null".into()) };
    /// assert_eq!(raw.as_str(), "null");
    /// ```
    pub unsafe fn from_boxed_unchecked(text: Box<str>) -> Box<RawJson> {
        // SAFETY: `repr(transparent)` over `str`: same layout and metadata,
        // and the allocation is freed with the same layout.
        unsafe { Box::from_raw(Box::into_raw(text) as *mut RawJson) }
    }

    /// The JSON text.
    ///
    /// ```
    /// assert_eq!(ito::json::RawJson::new("{}").unwrap().as_str(), "{}");
    /// ```
    #[inline]
    pub const fn as_str(&self) -> &str {
        &self.0
    }

    /// The JSON text as bytes.
    ///
    /// ```
    /// assert_eq!(ito::json::RawJson::new("0").unwrap().as_bytes(), b"0");
    /// ```
    #[inline]
    pub const fn as_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }

    /// Gives the text back.
    ///
    /// ```
    /// let raw = ito::json::RawJson::from_string("[]".into()).unwrap();
    /// assert_eq!(&*raw.into_boxed_str(), "[]");
    /// ```
    pub fn into_boxed_str(self: Box<RawJson>) -> Box<str> {
        // SAFETY: the inverse cast of `from_boxed_unchecked`.
        unsafe { Box::from_raw(Box::into_raw(self) as *mut str) }
    }
}

impl ToOwned for RawJson {
    type Owned = Box<RawJson>;
    fn to_owned(&self) -> Box<RawJson> {
        // SAFETY: copied from a `RawJson`, hence valid.
        unsafe { RawJson::from_boxed_unchecked(self.0.into()) }
    }
}

impl Clone for Box<RawJson> {
    fn clone(&self) -> Self {
        (**self).to_owned()
    }
}

impl AsRef<str> for RawJson {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for RawJson {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RawJson").field(&&self.0).finish()
    }
}

impl<'a> TryFrom<&'a str> for &'a RawJson {
    type Error = Error;
    fn try_from(text: &'a str) -> Result<Self, Error> {
        RawJson::new(text)
    }
}

impl TryFrom<String> for Box<RawJson> {
    type Error = Error;
    fn try_from(text: String) -> Result<Self, Error> {
        RawJson::from_string(text)
    }
}

#[inline]
fn err<T>(at: usize, kind: ErrorKind) -> Result<T, Error> {
    Err(Error::new(at, kind))
}

#[inline]
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = b.get(i) {
        i += 1;
    }
    i
}

/// Validates one JSON value with optional surrounding whitespace; returns
/// the value's bounds.
pub(crate) fn validate(b: &[u8]) -> Result<(usize, usize), Error> {
    let mut stack = [0u64; MAX_DEPTH / 64]; // bit set: open object
    let mut depth = 0usize;
    let mut i = skip_ws(b, 0);
    let start = i;
    'value: loop {
        // A value starts at `i`.
        match b.get(i) {
            None => return err(i, ErrorKind::Truncated),
            Some(&c @ (b'{' | b'[')) => {
                if depth == MAX_DEPTH {
                    return err(i, ErrorKind::TooDeep);
                }
                let object = c == b'{';
                let close = if object { b'}' } else { b']' };
                i = skip_ws(b, i + 1);
                if b.get(i) == Some(&close) {
                    i += 1;
                } else {
                    let (word, bit) = (depth / 64, depth % 64);
                    stack[word] = stack[word] & !(1 << bit) | (object as u64) << bit;
                    depth += 1;
                    if object {
                        i = member_key(b, i)?;
                    }
                    continue 'value;
                }
            }
            Some(b'"') => i = string(b, i)?,
            Some(b'-' | b'0'..=b'9') => i = number(b, i)?,
            Some(b't') => i = literal(b, i, b"true")?,
            Some(b'f') => i = literal(b, i, b"false")?,
            Some(b'n') => i = literal(b, i, b"null")?,
            Some(&c) => return err(i, ErrorKind::UnexpectedByte(c)),
        }
        // A value ended at `i`: close containers, or go on to the next
        // element or member.
        while depth > 0 {
            let d = depth - 1;
            let object = stack[d / 64] >> (d % 64) & 1 == 1;
            i = skip_ws(b, i);
            match b.get(i) {
                Some(b',') => {
                    i = skip_ws(b, i + 1);
                    if object {
                        i = member_key(b, i)?;
                    }
                    continue 'value;
                }
                Some(b'}') if object => {
                    depth -= 1;
                    i += 1;
                }
                Some(b']') if !object => {
                    depth -= 1;
                    i += 1;
                }
                Some(&c) => return err(i, ErrorKind::UnexpectedByte(c)),
                None => return err(i, ErrorKind::Truncated),
            }
        }
        break;
    }
    let end = i;
    let after = skip_ws(b, end);
    if after != b.len() {
        return err(after, ErrorKind::TrailingCharacters);
    }
    Ok((start, end))
}

/// `"key"` `:` and the whitespace after it; `i` is at the key.
fn member_key(b: &[u8], i: usize) -> Result<usize, Error> {
    match b.get(i) {
        Some(b'"') => {}
        Some(&c) => return err(i, ErrorKind::UnexpectedByte(c)),
        None => return err(i, ErrorKind::Truncated),
    }
    let i = skip_ws(b, string(b, i)?);
    match b.get(i) {
        Some(b':') => Ok(skip_ws(b, i + 1)),
        Some(&c) => err(i, ErrorKind::UnexpectedByte(c)),
        None => err(i, ErrorKind::Truncated),
    }
}

/// A string literal starting at the `"` at `i`; returns the index after
/// its closing quote.
fn string(b: &[u8], i: usize) -> Result<usize, Error> {
    let mut j = i + 1;
    loop {
        // Skip clean runs eight bytes at a time.
        while j + 8 <= b.len() {
            let word = u64::from_le_bytes(b[j..j + 8].try_into().unwrap_or([0; 8]));
            let special = swar_special(word);
            if special != 0 {
                j += special.trailing_zeros() as usize / 8;
                break;
            }
            j += 8;
        }
        match b.get(j) {
            None => return err(b.len(), ErrorKind::Unterminated),
            Some(b'"') => return Ok(j + 1),
            Some(b'\\') => match b.get(j + 1) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => j += 2,
                Some(b'u') => {
                    match b.get(j + 2..j + 6) {
                        Some(hex) if hex.iter().all(u8::is_ascii_hexdigit) => {}
                        Some(_) => return err(j, ErrorKind::InvalidUnicodeEscape),
                        None if b[j + 2..].iter().all(u8::is_ascii_hexdigit) => {
                            return err(b.len(), ErrorKind::UnexpectedEnd)
                        }
                        None => return err(j, ErrorKind::InvalidUnicodeEscape),
                    }
                    j += 6;
                }
                Some(&c) => return err(j, ErrorKind::InvalidEscape(c)),
                None => return err(b.len(), ErrorKind::UnexpectedEnd),
            },
            Some(&c) if c < 0x20 => return err(j, ErrorKind::ControlCharacter(c)),
            Some(_) => j += 1,
        }
    }
}

/// Whether `b` is exactly one JSON number (RFC 8259 grammar, any
/// magnitude, no surrounding whitespace).
#[cfg_attr(not(feature = "serde"), allow(dead_code))]
pub(crate) fn is_number(b: &[u8]) -> bool {
    matches!(b.first(), Some(b'-' | b'0'..=b'9')) && number(b, 0) == Ok(b.len())
}

/// A number at `i` (`-` or a digit), by RFC 8259's grammar; returns the
/// index after it. Shared with the lazy `get`'s walk.
#[inline]
pub(super) fn number(b: &[u8], i: usize) -> Result<usize, Error> {
    let digits = |mut j: usize| {
        while b.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        j
    };
    let mut j = i + (b.get(i) == Some(&b'-')) as usize;
    match b.get(j) {
        Some(b'0') => j += 1,
        Some(b'1'..=b'9') => j = digits(j + 1),
        _ => return err(j, ErrorKind::InvalidNumber),
    }
    if b.get(j) == Some(&b'.') {
        let k = digits(j + 1);
        if k == j + 1 {
            return err(k, ErrorKind::InvalidNumber);
        }
        j = k;
    }
    if let Some(b'e' | b'E') = b.get(j) {
        j += 1;
        if let Some(b'+' | b'-') = b.get(j) {
            j += 1;
        }
        let k = digits(j);
        if k == j {
            return err(k, ErrorKind::InvalidNumber);
        }
        j = k;
    }
    Ok(j)
}

/// `true`, `false` or `null` at `i`.
#[inline]
pub(super) fn literal(b: &[u8], i: usize, word: &[u8]) -> Result<usize, Error> {
    if b.get(i..i + word.len()) == Some(word) {
        return Ok(i + word.len());
    }
    for (k, &w) in word.iter().enumerate() {
        match b.get(i + k) {
            Some(&c) if c == w => {}
            Some(&c) => return err(i + k, ErrorKind::UnexpectedByte(c)),
            None => return err(i + k, ErrorKind::Truncated),
        }
    }
    Ok(i + word.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_and_trims() {
        for (text, want) in [
            ("0", "0"),
            (" -0.5e+10 ", "-0.5e+10"),
            ("\t[ ]\n", "[ ]"),
            ("{\"a\" : [1, {\"b\": null}], \"c\": \"\\u00e9\\n\"}", ""),
            ("\"\\ud800\"", "\"\\ud800\""),
        ] {
            let raw = RawJson::new(text).unwrap();
            let want = if want.is_empty() { text } else { want };
            assert_eq!(raw.as_str(), want);
        }
    }

    #[test]
    fn rejects_with_offsets() {
        for (text, at, kind) in [
            ("", 0, ErrorKind::Truncated),
            ("[1,]", 3, ErrorKind::UnexpectedByte(b']')),
            ("{\"a\" 1}", 5, ErrorKind::UnexpectedByte(b'1')),
            ("01", 1, ErrorKind::TrailingCharacters),
            ("1.", 2, ErrorKind::InvalidNumber),
            ("-", 1, ErrorKind::InvalidNumber),
            ("1e+", 3, ErrorKind::InvalidNumber),
            ("\"abc", 4, ErrorKind::Unterminated),
            ("\"a\\x\"", 2, ErrorKind::InvalidEscape(b'x')),
            ("\"a\\u12\"", 2, ErrorKind::InvalidUnicodeEscape),
            ("\"tab\there\"", 4, ErrorKind::ControlCharacter(b'\t')),
            ("[1}", 2, ErrorKind::UnexpectedByte(b'}')),
            ("tru", 3, ErrorKind::Truncated),
            ("[1] x", 4, ErrorKind::TrailingCharacters),
        ] {
            let e = RawJson::new(text).unwrap_err();
            assert_eq!((e.offset(), e.kind()), (at, kind), "{text:?}");
        }
    }

    #[test]
    fn depth_limit() {
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(RawJson::new(&ok).is_ok());
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert_eq!(RawJson::new(&deep).unwrap_err().kind(), ErrorKind::TooDeep);
        let mixed = "{\"a\":[".repeat(100) + &"]}".repeat(100);
        assert!(RawJson::new(&mixed).is_ok());
    }
}
