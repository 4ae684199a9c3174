//! What a string kernel can find wrong, without any module's error type.
//!
//! The kernels in `simd/` sit below `json` and `nostr`; they report a byte
//! offset and a [`FaultKind`], and each module converts that into its own
//! public error (`From<Fault>` in `json/error.rs` and `nostr/error.rs`).

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
