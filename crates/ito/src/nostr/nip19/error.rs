//! What can be wrong with a NIP-19 string, and where.

use std::fmt;

/// A NIP-19 string that does not decode, or a value that cannot be encoded.
/// Positions in the string are byte offsets from 0 (the string is ASCII up to
/// any error); positions in the payload are byte offsets into the decoded
/// bytes, where the TLV records start.
///
/// ```
/// use ito::nostr::nip19::{self, Error};
/// let err = nip19::decode("npub1Qqqq").unwrap_err();
/// assert_eq!(err, Error::MixedCase { offset: 5 });
/// assert_eq!(err.to_string(), "mixed upper and lower case at byte 5");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A byte that may not appear here: outside printable ASCII, or not in
    /// the bech32 alphabet after the separator.
    InvalidChar {
        /// Offset of the byte.
        offset: usize,
        /// The byte.
        byte: u8,
    },
    /// Upper and lower case letters mixed (BIP-173 allows either, not both);
    /// the offset is the first letter whose case differs from the first's.
    MixedCase {
        /// Offset of the letter.
        offset: usize,
    },
    /// No `1` separating the prefix from the data, or nothing before it.
    MissingSeparator,
    /// Fewer than the six checksum characters after the separator.
    TooShort {
        /// Data characters found.
        found: usize,
    },
    /// Longer than NIP-19 strings may be ([`MAX_LENGTH`](super::MAX_LENGTH)).
    TooLong {
        /// Length of the string (or of the string an encoding would make).
        length: usize,
    },
    /// The checksum does not match: some character is wrong.
    Checksum,
    /// The data's last character carries more than 4 padding bits, or
    /// padding bits that are not zero.
    Padding,
    /// A prefix NIP-19 does not define.
    UnknownPrefix {
        /// The prefix, lowercased.
        prefix: String,
    },
    /// A valid NIP-19 string of another type than the caller asked for.
    WrongPrefix {
        /// The prefix asked for.
        expected: &'static str,
        /// The prefix found, lowercased.
        found: String,
    },
    /// `npub`, `nsec` or `note` data that is not 32 bytes.
    Length {
        /// The prefix.
        prefix: &'static str,
        /// Bytes found.
        found: usize,
    },
    /// A TLV record that runs past the end of the data.
    TlvTruncated {
        /// Payload offset of the record.
        offset: usize,
    },
    /// A TLV record of a known type with the wrong length.
    TlvLength {
        /// Payload offset of the record.
        offset: usize,
        /// The record's type.
        tlv_type: u8,
        /// Required length.
        expected: usize,
        /// Length found.
        found: usize,
    },
    /// A TLV record holding text that is not UTF-8.
    TlvUtf8 {
        /// Payload offset of the record.
        offset: usize,
        /// The record's type.
        tlv_type: u8,
    },
    /// A required TLV record (0 for every type, and 2 and 3 for `naddr`)
    /// is absent.
    TlvMissing {
        /// The prefix.
        prefix: &'static str,
        /// The record's type.
        tlv_type: u8,
    },
    /// A value too long for one TLV record (255 bytes at most).
    TlvTooLong {
        /// The record's type.
        tlv_type: u8,
        /// Its length in bytes.
        length: usize,
    },
}

impl Error {
    /// The byte offset in the string of the character at fault, for the
    /// errors that concern one character ([`Error::InvalidChar`],
    /// [`Error::MixedCase`]).
    ///
    /// ```
    /// let err = ito::nostr::nip19::decode("npub1qqb").unwrap_err();
    /// assert_eq!(err.offset(), Some(7));
    /// assert_eq!(ito::nostr::nip19::decode("").unwrap_err().offset(), None);
    /// ```
    pub fn offset(&self) -> Option<usize> {
        match self {
            Error::InvalidChar { offset, .. } | Error::MixedCase { offset } => Some(*offset),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidChar { offset, byte } => match byte {
                0x21..=0x7e => write!(f, "invalid character `{}` at byte {offset}", *byte as char),
                _ => write!(f, "invalid byte 0x{byte:02x} at byte {offset}"),
            },
            Error::MixedCase { offset } => {
                write!(f, "mixed upper and lower case at byte {offset}")
            }
            Error::MissingSeparator => f.write_str("no `1` separating a prefix from the data"),
            Error::TooShort { found } => write!(
                f,
                "data part too short for a checksum: {found} characters, need at least 6"
            ),
            Error::TooLong { length } => write!(
                f,
                "{length} characters, longer than the {} NIP-19 allows",
                super::MAX_LENGTH
            ),
            Error::Checksum => f.write_str("checksum mismatch (a character is wrong)"),
            Error::Padding => f.write_str("invalid padding bits at the end of the data"),
            Error::UnknownPrefix { prefix } => write!(
                f,
                "unknown prefix `{prefix}` (expected npub, nsec, note, nprofile, nevent or naddr)"
            ),
            Error::WrongPrefix { expected, found } => {
                write!(f, "expected an `{expected}` string, found `{found}`")
            }
            Error::Length { prefix, found } => {
                write!(f, "{prefix} data must be 32 bytes, found {found}")
            }
            Error::TlvTruncated { offset } => {
                write!(f, "TLV record runs past the end of the data at payload byte {offset}")
            }
            Error::TlvLength {
                offset,
                tlv_type,
                expected,
                found,
            } => write!(
                f,
                "TLV type {tlv_type} must be {expected} bytes, found {found} at payload byte {offset}"
            ),
            Error::TlvUtf8 { offset, tlv_type } => write!(
                f,
                "TLV type {tlv_type} is not UTF-8 text at payload byte {offset}"
            ),
            Error::TlvMissing { prefix, tlv_type } => {
                write!(f, "{prefix} without the required TLV type {tlv_type}")
            }
            Error::TlvTooLong { tlv_type, length } => write!(
                f,
                "TLV type {tlv_type} value of {length} bytes is longer than 255"
            ),
        }
    }
}

impl std::error::Error for Error {}
