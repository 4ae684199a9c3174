//! The error type of the JSON string codec.

use std::fmt;

use crate::simd::fault::{Fault, FaultKind, ShowByte};

/// What went wrong; see [`Error`] for where.
///
/// ```
/// use ito::json::{unescape, ErrorKind};
/// let err = unescape(&mut Vec::new(), br"ab\q").unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::InvalidEscape(b'q'));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The bytes at the offset are not valid UTF-8.
    InvalidUtf8,
    /// A raw control character (below U+0020), which JSON requires to be
    /// escaped inside strings.
    ControlCharacter(u8),
    /// A raw `"` inside the text of a string ([`unescape`](super::unescape)
    /// takes the text *between* the quotes).
    UnescapedQuote,
    /// A backslash followed by a byte that does not start a JSON escape.
    InvalidEscape(u8),
    /// `\u` not followed by four hexadecimal digits (other than by the
    /// end of the input: that is [`ErrorKind::UnexpectedEnd`]).
    InvalidUnicodeEscape,
    /// A `\uXXXX` escape of a UTF-16 surrogate that is not part of a
    /// high-low pair.
    LoneSurrogate(u16),
    /// The input ends in the middle of an escape (`\`, `\u`, `\u12`).
    UnexpectedEnd,
    /// [`unquote`](super::unquote) input that does not start with `"`.
    MissingQuote,
    /// [`unquote`](super::unquote) input without a closing `"`.
    Unterminated,
    /// [`RawJson`](super::RawJson) validation: a byte that cannot appear
    /// here in a JSON document.
    UnexpectedByte(u8),
    /// [`RawJson`](super::RawJson) validation: the input ends before the
    /// value is complete.
    Truncated,
    /// [`RawJson`](super::RawJson) validation: a number that breaks
    /// JSON's grammar (`01` ends at `0`; `1.`, `-`, `1e` are errors).
    InvalidNumber,
    /// [`RawJson`](super::RawJson) validation: something other than
    /// whitespace after the value.
    TrailingCharacters,
    /// [`RawJson`](super::RawJson) validation: more than
    /// [`MAX_DEPTH`](super::MAX_DEPTH) nested objects and arrays.
    TooDeep,
}

/// An error of the JSON string codec: a byte offset into the input and an
/// [`ErrorKind`].
///
/// Its `Display` is a sentence meant for people:
///
/// ```
/// use ito::json::unescape;
/// let err = unescape(&mut Vec::new(), br"tab\qed").unwrap_err();
/// assert_eq!(err.offset(), 3);
/// assert_eq!(err.to_string(), r"invalid escape `\q` at byte 3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error {
    offset: usize,
    kind: ErrorKind,
}

impl Error {
    #[inline]
    pub(crate) fn new(offset: usize, kind: ErrorKind) -> Self {
        Error { offset, kind }
    }

    /// Offset in bytes, from the start of the input passed to the function
    /// that failed, of the first byte of the offending sequence (or the
    /// input length when the input ended too early).
    ///
    /// ```
    /// let err = ito::json::unquote(b"\"abc").unwrap_err();
    /// assert_eq!(err.offset(), 4);
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What went wrong.
    ///
    /// ```
    /// use ito::json::{unquote, ErrorKind};
    /// assert_eq!(unquote(b"abc").unwrap_err().kind(), ErrorKind::MissingQuote);
    /// ```
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
}

/// The problem alone, without its position (for tools that print their own
/// `file:line:col:` prefix).
///
/// ```
/// use ito::json::ErrorKind;
/// assert_eq!(ErrorKind::InvalidEscape(b'q').to_string(), r"invalid escape `\q`");
/// ```
impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // String-text faults in the crate's one wording (shared with
        // `nostr::Error`).
        match *self {
            ErrorKind::InvalidUtf8 => FaultKind::InvalidUtf8.message(f),
            ErrorKind::ControlCharacter(b) => FaultKind::ControlCharacter(b).message(f),
            ErrorKind::UnescapedQuote => FaultKind::UnescapedQuote.message(f),
            ErrorKind::InvalidEscape(c) => FaultKind::InvalidEscape(c).message(f),
            ErrorKind::InvalidUnicodeEscape => FaultKind::InvalidUnicodeEscape.message(f),
            ErrorKind::LoneSurrogate(u) => FaultKind::LoneSurrogate(u).message(f),
            ErrorKind::UnexpectedEnd => FaultKind::UnexpectedEnd.message(f),
            ErrorKind::Unterminated => FaultKind::Unterminated.message(f),
            ErrorKind::MissingQuote => f.write_str("expected an opening `\"`"),
            ErrorKind::UnexpectedByte(c) => write!(f, "unexpected {}", ShowByte(c)),
            ErrorKind::Truncated => f.write_str("input ends before the JSON value is complete"),
            ErrorKind::InvalidNumber => f.write_str("invalid number"),
            ErrorKind::TrailingCharacters => {
                f.write_str("trailing characters after the JSON value")
            }
            ErrorKind::TooDeep => f.write_str("objects and arrays nested too deeply"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind, self.offset)
    }
}

impl std::error::Error for Error {}

impl From<Fault> for Error {
    #[inline]
    fn from(f: Fault) -> Error {
        let kind = match f.kind {
            FaultKind::InvalidUtf8 => ErrorKind::InvalidUtf8,
            FaultKind::ControlCharacter(b) => ErrorKind::ControlCharacter(b),
            FaultKind::UnescapedQuote => ErrorKind::UnescapedQuote,
            FaultKind::InvalidEscape(c) => ErrorKind::InvalidEscape(c),
            FaultKind::InvalidUnicodeEscape => ErrorKind::InvalidUnicodeEscape,
            FaultKind::LoneSurrogate(u) => ErrorKind::LoneSurrogate(u),
            FaultKind::UnexpectedEnd => ErrorKind::UnexpectedEnd,
            FaultKind::Unterminated => ErrorKind::Unterminated,
        };
        Error::new(f.offset, kind)
    }
}
