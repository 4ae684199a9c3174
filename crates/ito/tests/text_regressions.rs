//! One test per defect of next.orly.dev `pkg/encoders/text` (Go) that ito's
//! toolkit must not copy. Each input is the one that broke the Go code.

use ito::nostr::text::{self, append_brace, append_bytes, append_parenthesis, Strings};
use ito::nostr::{self, ErrorKind};

/// Go wrote a single `\` before `u`: `C:\users` became `C:\users` in JSON,
/// which is an invalid `\u` escape (or a different string, and a different
/// event id).
#[test]
fn go_defect_single_backslash_before_u() {
    let mut out = Vec::new();
    text::quote(&mut out, br"C:\users\u0000");
    assert_eq!(out, br#""C:\\users\\u0000""#);
    let back: String = serde_json::from_slice(&out).unwrap();
    assert_eq!(back, r"C:\users\u0000");
    let mut raw = Vec::new();
    nostr::escape(&mut raw, br"\u");
    assert_eq!(raw, br"\\u");
}

/// Go panicked (index out of range) on a string ending in a lone backslash.
#[test]
fn go_defect_trailing_lone_backslash_panicked() {
    let err = nostr::unescape(&mut Vec::new(), b"abc\\").unwrap_err();
    assert_eq!((err.offset(), err.kind()), (3, ErrorKind::UnexpectedEnd));
    let mut buf = *b"abc\\";
    assert_eq!(
        nostr::unescape_in_place(&mut buf).unwrap_err().kind(),
        ErrorKind::UnexpectedEnd
    );
    // Quoted: the backslash escapes the closing quote, so the string never ends.
    let err = text::unmarshal_quoted(&mut Vec::new(), b"\"abc\\\"").unwrap_err();
    assert_eq!((err.offset(), err.kind()), (6, ErrorKind::UnexpectedEnd));
}

/// Go panicked on arrays cut off after an element (it indexed `rem[0]`).
#[test]
fn go_defect_truncated_arrays_panicked() {
    let mut ids: Vec<[u8; 2]> = Vec::new();
    for cut in [
        &b"[\"abcd\""[..],
        b"[\"abcd\",",
        b"[\"ab",
        b"[",
        b"[ \"abcd\" ,  \"ef01\"",
    ] {
        let err = text::unmarshal_hex_array(&mut ids, cut).unwrap_err();
        assert_eq!(
            err.kind(),
            ErrorKind::UnexpectedEnd,
            "{:?}",
            String::from_utf8_lossy(cut)
        );
        assert!(ids.is_empty(), "no partial output on error");
    }
    let mut strings = Strings::new();
    for cut in [&b"[\"a\""[..], b"[\"a\",", b"[\"a", b"["] {
        let err = text::unmarshal_string_array(&mut strings, cut).unwrap_err();
        assert_eq!(
            err.kind(),
            ErrorKind::UnexpectedEnd,
            "{:?}",
            String::from_utf8_lossy(cut)
        );
        assert!(strings.is_empty());
    }
}

/// The later Go version decoded non-hex digits in `\u00zz` to NUL.
#[test]
fn go_defect_u00zz_decoded_to_nul() {
    let err = nostr::unescape(&mut Vec::new(), br"a\u00zzb").unwrap_err();
    assert_eq!(
        (err.offset(), err.kind()),
        (1, ErrorKind::InvalidUnicodeEscape)
    );
    let err = text::unmarshal_quoted(&mut Vec::new(), br#""a\u00zzb""#).unwrap_err();
    assert_eq!(
        (err.offset(), err.kind()),
        (2, ErrorKind::InvalidUnicodeEscape)
    );
    // The real NUL escape still works.
    let mut out = Vec::new();
    nostr::unescape(&mut out, br"\u0000").unwrap();
    assert_eq!(out, [0]);
}

/// Go returned no error for an unterminated quoted string.
#[test]
fn go_defect_unterminated_string_without_error() {
    for src in [&b"\"abc"[..], b"\"", b"  \"x\\\\\\\""] {
        let err = text::unmarshal_quoted(&mut Vec::new(), src).unwrap_err();
        assert_eq!(
            (err.offset(), err.kind()),
            (src.len(), ErrorKind::UnexpectedEnd)
        );
        assert!(text::quoted_range(src).is_err());
    }
    let err = text::unmarshal_hex(&mut Vec::new(), b"\"abcd").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
}

/// Go's AppendBrace wrote `()` and AppendParenthesis wrote `{}`.
#[test]
fn go_defect_brace_and_parenthesis_swapped() {
    let mut out = Vec::new();
    append_brace(&mut out, b"x", append_bytes);
    append_parenthesis(&mut out, b"y", append_bytes);
    assert_eq!(out, b"{x}(y)");
}

/// Go's readers skipped any bytes before the opening quote or bracket, so
/// `garbage"abcd"` decoded as if it were valid.
#[test]
fn go_defect_skipped_garbage_before_tokens() {
    let err = text::unmarshal_hex(&mut Vec::new(), b"xx\"abcd\"").unwrap_err();
    assert_eq!(
        (err.offset(), err.kind()),
        (
            0,
            ErrorKind::Expected {
                what: "a hex string",
                found: b'x'
            }
        )
    );
    let err = text::unmarshal_quoted(&mut Vec::new(), b"x\"a\"").unwrap_err();
    assert_eq!(err.offset(), 0);
    let err = text::unmarshal_bool(b"xtrue").unwrap_err();
    assert_eq!(err.offset(), 0);
}

/// Go's hex unmarshal accepted uppercase digits; NIP-01 hex is lowercase.
#[test]
fn go_defect_uppercase_hex_accepted() {
    let err = text::unmarshal_hex(&mut Vec::new(), b"\"ABCD\"").unwrap_err();
    assert_eq!((err.offset(), err.kind()), (1, ErrorKind::HexDigit(b'A')));
    let err = text::unmarshal_hex(&mut Vec::new(), b"\"abc\"").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::OddHexLength { found: 3 });
}
