//! What a string kernel can find wrong, without any module's error type.
//!
//! The kernels in `simd/` sit below `json` and `nostr`; they report a byte
//! offset and a [`FaultKind`], and each module converts that into its own
//! public error (`From<Fault>` in `json/error.rs` and `nostr/error.rs`).
//! [`FaultKind::message`] is the one wording of these faults for the crate:
//! both modules' `Display` use it (and the same order, message first, then
//! `at byte N`), so the same malformed string text reads the same whichever
//! module decoded it.

use std::fmt;

/// A fault found by a string kernel: where (a byte offset into the input
/// the kernel was given) and what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fault {
    /// Offset of the first byte of the offending sequence (the input length
    /// when the input ended too early for a string's closing quote).
    pub(crate) offset: usize,
    /// What is wrong there.
    pub(crate) kind: FaultKind,
}

impl Fault {
    #[inline]
    pub(crate) fn new(offset: usize, kind: FaultKind) -> Fault {
        Fault { offset, kind }
    }
}

/// The faults the string kernels detect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FaultKind {
    /// Bytes that are not valid UTF-8.
    InvalidUtf8,
    /// A raw byte below 0x20.
    ControlCharacter(u8),
    /// A raw `"` inside string text.
    UnescapedQuote,
    /// `\` followed by a byte that does not start an escape.
    InvalidEscape(u8),
    /// `\u` not followed by four hex digits.
    InvalidUnicodeEscape,
    /// A `\uXXXX` surrogate that is not part of a high-low pair.
    LoneSurrogate(u16),
    /// The input ends inside an escape (`\`, `\u`, `\u12`, ...).
    UnexpectedEnd,
    /// No closing `"` before the end of the input.
    Unterminated,
}

/// `` `c` `` for a printable ASCII byte, else `byte 0xHH`: how every error
/// message of the crate shows a byte.
pub(crate) struct ShowByte(pub(crate) u8);

impl fmt::Display for ShowByte {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        if b.is_ascii_graphic() {
            write!(f, "`{}`", b as char)
        } else {
            write!(f, "byte 0x{b:02X}")
        }
    }
}

impl FaultKind {
    /// Writes the crate's one wording of this fault (without the offset).
    pub(crate) fn message(self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FaultKind::InvalidUtf8 => f.write_str("invalid UTF-8"),
            FaultKind::ControlCharacter(b) => {
                write!(f, "raw control character U+{b:04X} (it must be escaped)")
            }
            FaultKind::UnescapedQuote => f.write_str("unescaped `\"`"),
            FaultKind::InvalidEscape(c) if c.is_ascii_graphic() => {
                write!(f, "invalid escape `\\{}`", c as char)
            }
            FaultKind::InvalidEscape(c) => {
                write!(f, "invalid escape: `\\` followed by {}", ShowByte(c))
            }
            FaultKind::InvalidUnicodeEscape => {
                f.write_str("malformed unicode escape (`\\u` needs four hex digits)")
            }
            FaultKind::LoneSurrogate(u) => write!(f, "unpaired surrogate `\\u{u:04X}`"),
            FaultKind::UnexpectedEnd => f.write_str("unexpected end of input"),
            FaultKind::Unterminated => {
                f.write_str("unterminated string: no closing `\"` before the end of input")
            }
        }
    }
}
