//! The error type shared by the NIP-01 parser, the escaping functions and the
//! relay text toolkit.

use std::fmt;

use crate::simd::fault::{Fault, FaultKind, ShowByte};

/// Which event field an [`Error`] is about.
///
/// ```
/// use ito::nostr::{Event, Field};
/// let err = Event::parse(br#"{"id":"zz"}"#).unwrap_err();
/// assert_eq!(err.field(), Some(Field::Id));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// `id`: 32-byte sha256 of the canonical serialization, 64 lowercase hex digits.
    Id,
    /// `pubkey`: 32-byte x-only public key, 64 lowercase hex digits.
    Pubkey,
    /// `created_at`: unix time in seconds, a non-negative integer.
    CreatedAt,
    /// `kind`: an integer 0..=65535.
    Kind,
    /// `tags`: an array of arrays of strings.
    Tags,
    /// `content`: a string.
    Content,
    /// `sig`: 64-byte Schnorr signature, 128 lowercase hex digits.
    Sig,
}

impl Field {
    /// The JSON key of the field.
    ///
    /// ```
    /// assert_eq!(ito::nostr::Field::CreatedAt.name(), "created_at");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Field::Id => "id",
            Field::Pubkey => "pubkey",
            Field::CreatedAt => "created_at",
            Field::Kind => "kind",
            Field::Tags => "tags",
            Field::Content => "content",
            Field::Sig => "sig",
        }
    }

    pub(crate) const ALL: [Field; 7] = [
        Field::Id,
        Field::Pubkey,
        Field::CreatedAt,
        Field::Kind,
        Field::Tags,
        Field::Content,
        Field::Sig,
    ];
}

/// What went wrong; see [`Error`] for where.
///
/// ```
/// use ito::nostr::{unescape, ErrorKind};
/// let err = unescape(&mut Vec::new(), br"\u00zz").unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::InvalidUnicodeEscape);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended where more was required.
    UnexpectedEnd,
    /// Something else was required here.
    Expected {
        /// What was required, e.g. "`:`" or "a string".
        what: &'static str,
        /// The byte found instead.
        found: u8,
    },
    /// A raw control character (below 0x20) inside a string.
    ControlCharacter(u8),
    /// A raw `"` in text that is supposed to be the inside of a string.
    UnescapedQuote,
    /// A backslash followed by a byte that does not start a JSON escape.
    InvalidEscape(u8),
    /// `\u` not followed by four hexadecimal digits.
    InvalidUnicodeEscape,
    /// A `\uXXXX` UTF-16 surrogate that is not part of a high-low pair.
    LoneSurrogate(u16),
    /// The input is not valid UTF-8 here.
    InvalidUtf8,
    /// A byte that is not a lowercase hex digit inside a hex string.
    HexDigit(u8),
    /// A hex string of the wrong length.
    HexLength {
        /// Required number of digits.
        expected: usize,
        /// Number of digits found.
        found: usize,
    },
    /// A hex string with an odd number of digits.
    OddHexLength {
        /// Number of digits found.
        found: usize,
    },
    /// A backslash escape inside a hex string. No longer produced: an
    /// escaped spelling of hex digits is decoded like any other string.
    EscapedHex,
    /// Not a non-negative integer in plain decimal notation (no sign,
    /// fraction, exponent or leading zero).
    Number,
    /// An integer larger than the field allows.
    OutOfRange {
        /// The largest value allowed.
        max: u64,
    },
    /// A required field is absent (reported at the closing `}`).
    MissingField,
    /// The field appears twice.
    DuplicateField,
    /// Non-whitespace after the end of the value.
    TrailingCharacters,
    /// Arrays/objects nested deeper than the parser allows.
    TooDeep,
    /// A client message whose first element is not a message type ito
    /// knows (`EVENT`, `REQ`, `COUNT`, `CLOSE`, `AUTH`).
    UnknownMessage,
    /// A subscription id that is empty or longer than 64 characters.
    SubscriptionIdLength {
        /// Its length in characters.
        chars: usize,
    },
}

/// An error from [`crate::nostr`]: a byte offset into the input, what went
/// wrong and, for event parsing, which field it concerns.
///
/// `Display` gives a sentence for people:
///
/// ```
/// use ito::nostr::Event;
/// let err = Event::parse(br#"{"kind": -1}"#).unwrap_err();
/// assert_eq!(err.offset(), 9);
/// assert_eq!(err.to_string(), "`kind`: not a non-negative integer at byte 9");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error {
    offset: usize,
    kind: ErrorKind,
    field: Option<Field>,
}

impl Error {
    #[inline]
    pub(crate) fn new(offset: usize, kind: ErrorKind) -> Error {
        Error {
            offset,
            kind,
            field: None,
        }
    }

    #[inline]
    pub(crate) fn in_field(mut self, field: Field) -> Error {
        self.field = Some(field);
        self
    }

    #[inline]
    pub(crate) fn shifted(mut self, by: usize) -> Error {
        self.offset += by;
        self
    }

    #[inline]
    pub(crate) fn expected(src: &[u8], at: usize, what: &'static str) -> Error {
        match src.get(at) {
            Some(&found) => Error::new(at, ErrorKind::Expected { what, found }),
            None => Error::new(at, ErrorKind::UnexpectedEnd),
        }
    }

    /// Offset in bytes from the start of the input of the offending byte (the
    /// input length if it ended early).
    ///
    /// ```
    /// let err = ito::nostr::unescape(&mut Vec::new(), b"ab\\").unwrap_err();
    /// assert_eq!(err.offset(), 2);
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What went wrong.
    ///
    /// ```
    /// use ito::nostr::{unescape, ErrorKind};
    /// assert_eq!(unescape(&mut Vec::new(), b"ab\\").unwrap_err().kind(), ErrorKind::UnexpectedEnd);
    /// ```
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The event field the error concerns, if any.
    ///
    /// ```
    /// use ito::nostr::{Event, Field};
    /// let err = Event::parse(br#"{"content": 5}"#).unwrap_err();
    /// assert_eq!(err.field(), Some(Field::Content));
    /// ```
    pub fn field(&self) -> Option<Field> {
        self.field
    }
}

impl fmt::Display for ErrorKind {
    /// The problem alone, without its position. String-text problems read
    /// exactly as in [`crate::json::Error`] (one wording for the crate).
    ///
    /// ```
    /// use ito::nostr::ErrorKind;
    /// assert_eq!(ErrorKind::InvalidEscape(b'q').to_string(), r"invalid escape `\q`");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ErrorKind::UnexpectedEnd => FaultKind::UnexpectedEnd.message(f),
            ErrorKind::ControlCharacter(b) => FaultKind::ControlCharacter(b).message(f),
            ErrorKind::UnescapedQuote => FaultKind::UnescapedQuote.message(f),
            ErrorKind::InvalidEscape(c) => FaultKind::InvalidEscape(c).message(f),
            ErrorKind::InvalidUnicodeEscape => FaultKind::InvalidUnicodeEscape.message(f),
            ErrorKind::LoneSurrogate(u) => FaultKind::LoneSurrogate(u).message(f),
            ErrorKind::InvalidUtf8 => FaultKind::InvalidUtf8.message(f),
            ErrorKind::Expected { what, found } => {
                write!(f, "expected {what}, found {}", ShowByte(found))
            }
            ErrorKind::HexDigit(b) if b.is_ascii_uppercase() && b <= b'F' => {
                write!(f, "uppercase hex digit {} (must be lowercase)", ShowByte(b))
            }
            ErrorKind::HexDigit(b) => write!(f, "invalid hex digit {}", ShowByte(b)),
            ErrorKind::HexLength { expected, found } => {
                write!(f, "expected {expected} hex digits, found {found}")
            }
            ErrorKind::OddHexLength { found } => write!(f, "odd number of hex digits ({found})"),
            ErrorKind::EscapedHex => f.write_str("escape sequence inside a hex string"),
            ErrorKind::Number => f.write_str("not a non-negative integer"),
            ErrorKind::OutOfRange { max } => write!(f, "integer larger than {max}"),
            ErrorKind::MissingField => f.write_str("missing field"),
            ErrorKind::DuplicateField => f.write_str("duplicate field"),
            ErrorKind::TrailingCharacters => f.write_str("unexpected characters after the value"),
            ErrorKind::TooDeep => f.write_str("nesting too deep"),
            ErrorKind::UnknownMessage => {
                f.write_str("unknown message type (expected EVENT, REQ, COUNT, CLOSE or AUTH)")
            }
            ErrorKind::SubscriptionIdLength { chars } => write!(
                f,
                "a subscription id must have 1 to 64 characters, found {chars}"
            ),
        }
    }
}

/// The crate's one order: the field (if any), the problem, then the offset.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(field) = self.field {
            write!(f, "`{}`: ", field.name())?;
        }
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
            // NIP-01 text has one "ended too early" kind.
            FaultKind::UnexpectedEnd | FaultKind::Unterminated => ErrorKind::UnexpectedEnd,
        };
        Error::new(f.offset, kind)
    }
}
