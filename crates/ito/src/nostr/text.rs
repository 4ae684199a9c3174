//! The relay text toolkit: small JSON building and scanning pieces that relay
//! code strings together by hand, after next.orly.dev's `pkg/encoders/text`
//! (Go), with its defects fixed.
//!
//! It lives under `nostr` because its string rule is NIP-01's
//! ([`escape`](super::escape)) and its errors are [`Error`]s with offsets.
//!
//! Conventions:
//! - Writers append to a caller's `Vec<u8>`; readers take `src: &[u8]` and
//!   return the value plus the unread rest of `src` (borrowed), or append
//!   decoded bytes to a caller's buffer. Reusing the buffers, nothing
//!   allocates in steady state (the `text_alloc` test counts).
//! - Readers skip JSON whitespace before a token, never arbitrary bytes.
//! - Error offsets count from the start of the `src` passed in.
//!
//! What the Go package got wrong, and what happens here instead (each is a
//! named regression test in `tests/text_regressions.rs`):
//! - it escaped `\` before `u` as a single `\` (`C:\users` became invalid
//!   JSON): [`quote`] always writes `\\`;
//! - it panicked on a trailing lone backslash and on truncated arrays:
//!   those are `Err(UnexpectedEnd)`;
//! - `\u00zz` decoded to NUL: it is `Err(InvalidUnicodeEscape)`;
//! - an unterminated string returned no error: it is `Err(UnexpectedEnd)`;
//! - `AppendBrace` wrote `()` and `AppendParenthesis` `{}`: [`append_brace`]
//!   writes `{}`, [`append_parenthesis`] writes `()`.
//! - its readers skipped any bytes before an opening quote or bracket;
//!   these accept only whitespace.

use super::error::{Error, ErrorKind};
use super::scan::{self, skip_ws};
use std::ops::Range;

/// Appends `"key":` (the key escaped).
///
/// ```
/// let mut out = Vec::new();
/// ito::nostr::text::json_key(&mut out, b"kind");
/// assert_eq!(out, br#""kind":"#);
/// ```
#[inline]
pub fn json_key(dst: &mut Vec<u8>, key: &[u8]) {
    dst.push(b'"');
    super::escape(dst, key);
    dst.extend_from_slice(b"\":");
}

/// Appends `src` unchanged: the identity appender for the `append_*`
/// wrappers.
///
/// ```
/// use ito::nostr::text::{append_brackets, append_bytes};
/// let mut out = Vec::new();
/// append_brackets(&mut out, b"1,2", append_bytes);
/// assert_eq!(out, b"[1,2]");
/// ```
#[inline]
pub fn append_bytes(dst: &mut Vec<u8>, src: &[u8]) {
    dst.extend_from_slice(src);
}

/// Appends `src` as a JSON string: `"` + NIP-01 escaping + `"`.
///
/// ```
/// let mut out = Vec::new();
/// ito::nostr::text::quote(&mut out, br"C:\users");
/// assert_eq!(out, br#""C:\\users""#);
/// ```
#[inline]
pub fn quote(dst: &mut Vec<u8>, src: &[u8]) {
    dst.push(b'"');
    super::escape(dst, src);
    dst.push(b'"');
}

#[inline]
fn wrap(dst: &mut Vec<u8>, open: u8, close: u8, src: &[u8], f: impl FnOnce(&mut Vec<u8>, &[u8])) {
    dst.push(open);
    f(dst, src);
    dst.push(close);
}

/// Appends `"` + `f(src)` + `"`.
///
/// ```
/// use ito::nostr::{escape, text::append_quote};
/// let mut out = Vec::new();
/// append_quote(&mut out, b"a\"b", escape);
/// assert_eq!(out, br#""a\"b""#);
/// ```
#[inline]
pub fn append_quote(dst: &mut Vec<u8>, src: &[u8], f: impl FnOnce(&mut Vec<u8>, &[u8])) {
    wrap(dst, b'"', b'"', src, f)
}

/// Appends `'` + `f(src)` + `'`.
///
/// ```
/// use ito::nostr::text::{append_bytes, append_single_quote};
/// let mut out = Vec::new();
/// append_single_quote(&mut out, b"x", append_bytes);
/// assert_eq!(out, b"'x'");
/// ```
#[inline]
pub fn append_single_quote(dst: &mut Vec<u8>, src: &[u8], f: impl FnOnce(&mut Vec<u8>, &[u8])) {
    wrap(dst, b'\'', b'\'', src, f)
}

/// Appends `` ` `` + `f(src)` + `` ` ``.
///
/// ```
/// use ito::nostr::text::{append_backticks, append_bytes};
/// let mut out = Vec::new();
/// append_backticks(&mut out, b"x", append_bytes);
/// assert_eq!(out, b"`x`");
/// ```
#[inline]
pub fn append_backticks(dst: &mut Vec<u8>, src: &[u8], f: impl FnOnce(&mut Vec<u8>, &[u8])) {
    wrap(dst, b'`', b'`', src, f)
}

/// Appends `[` + `f(src)` + `]`.
///
/// ```
/// use ito::nostr::text::{append_brackets, append_bytes};
/// let mut out = Vec::new();
/// append_brackets(&mut out, b"x", append_bytes);
/// assert_eq!(out, b"[x]");
/// ```
#[inline]
pub fn append_brackets(dst: &mut Vec<u8>, src: &[u8], f: impl FnOnce(&mut Vec<u8>, &[u8])) {
    wrap(dst, b'[', b']', src, f)
}

/// Appends `{` + `f(src)` + `}`.
///
/// ```
/// use ito::nostr::text::{append_brace, append_bytes};
/// let mut out = Vec::new();
/// append_brace(&mut out, b"x", append_bytes);
/// assert_eq!(out, b"{x}");
/// ```
#[inline]
pub fn append_brace(dst: &mut Vec<u8>, src: &[u8], f: impl FnOnce(&mut Vec<u8>, &[u8])) {
    wrap(dst, b'{', b'}', src, f)
}

/// Appends `(` + `f(src)` + `)`.
///
/// ```
/// use ito::nostr::text::{append_bytes, append_parenthesis};
/// let mut out = Vec::new();
/// append_parenthesis(&mut out, b"x", append_bytes);
/// assert_eq!(out, b"(x)");
/// ```
#[inline]
pub fn append_parenthesis(dst: &mut Vec<u8>, src: &[u8], f: impl FnOnce(&mut Vec<u8>, &[u8])) {
    wrap(dst, b'(', b')', src, f)
}

/// Appends each item through `f`, with `separator` between items.
///
/// ```
/// use ito::nostr::text::{append_list, quote};
/// let mut out = Vec::new();
/// append_list(&mut out, &["a", "b\"c"], b',', |d, s| quote(d, s));
/// assert_eq!(out, br#""a","b\"c""#);
/// ```
#[inline]
pub fn append_list<T: AsRef<[u8]>>(
    dst: &mut Vec<u8>,
    items: &[T],
    separator: u8,
    mut f: impl FnMut(&mut Vec<u8>, &[u8]),
) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            dst.push(separator);
        }
        f(dst, item.as_ref());
    }
}

/// Appends `true` or `false`.
///
/// ```
/// let mut out = Vec::new();
/// ito::nostr::text::marshal_bool(&mut out, true);
/// assert_eq!(out, b"true");
/// ```
#[inline]
pub fn marshal_bool(dst: &mut Vec<u8>, value: bool) {
    dst.extend_from_slice(if value { b"true" } else { b"false" });
}

#[inline]
fn is_delimiter(c: Option<&u8>) -> bool {
    matches!(
        c,
        None | Some(b' ' | b'\t' | b'\n' | b'\r' | b',' | b']' | b'}')
    )
}

/// Reads `true` or `false` (after whitespace); returns it and the rest.
///
/// ```
/// use ito::nostr::text::unmarshal_bool;
/// assert_eq!(unmarshal_bool(b" false,1"), Ok((false, &b",1"[..])));
/// assert!(unmarshal_bool(b"truely").is_err());
/// ```
pub fn unmarshal_bool(src: &[u8]) -> Result<(bool, &[u8]), Error> {
    let i = skip_ws(src, 0);
    for (word, value) in [(&b"true"[..], true), (&b"false"[..], false)] {
        if src.get(i) == Some(&word[0]) {
            for (k, &c) in word.iter().enumerate() {
                match src.get(i + k) {
                    Some(&b) if b == c => {}
                    Some(_) => return Err(Error::expected(src, i + k, "`true` or `false`")),
                    None => return Err(Error::new(src.len(), ErrorKind::UnexpectedEnd)),
                }
            }
            let end = i + word.len();
            if !is_delimiter(src.get(end)) {
                return Err(Error::expected(src, end, "a delimiter after the boolean"));
            }
            return Ok((value, &src[end..]));
        }
    }
    Err(Error::expected(src, i, "`true` or `false`"))
}

/// Skips whitespace and one `,`; returns the rest after the comma.
///
/// ```
/// use ito::nostr::text::skip_comma;
/// assert_eq!(skip_comma(b" , \"x\""), Ok(&b" \"x\""[..]));
/// assert!(skip_comma(b" ]").is_err());
/// ```
pub fn skip_comma(src: &[u8]) -> Result<&[u8], Error> {
    let i = skip_ws(src, 0);
    match src.get(i) {
        Some(b',') => Ok(&src[i + 1..]),
        _ => Err(Error::expected(src, i, "`,`")),
    }
}

/// Index of the first `"` in `src[from..]`.
#[inline]
fn find_quote(src: &[u8], from: usize) -> Option<usize> {
    src[from.min(src.len())..]
        .iter()
        .position(|&c| c == b'"')
        .map(|k| from + k)
}

/// Finds a quoted string (after whitespace) without decoding it: returns the
/// range of its raw text (between the quotes) and the index just after the
/// closing quote. The closing quote is the first `"` preceded by an even
/// number of backslashes. The text is not validated; decode it with
/// [`unescape`](super::unescape) or use [`unmarshal_quoted`].
///
/// ```
/// use ito::nostr::text::quoted_range;
/// let src = br#"  "a\"b\\" rest"#;
/// let (raw, end) = quoted_range(src).unwrap();
/// assert_eq!(&src[raw], br#"a\"b\\"#);
/// assert_eq!(&src[end..], b" rest");
/// ```
pub fn quoted_range(src: &[u8]) -> Result<(Range<usize>, usize), Error> {
    let open = skip_ws(src, 0);
    if src.get(open) != Some(&b'"') {
        return Err(Error::expected(src, open, "`\"`"));
    }
    let start = open + 1;
    let mut from = start;
    while let Some(q) = find_quote(src, from) {
        let backslashes = src[start..q]
            .iter()
            .rev()
            .take_while(|&&c| c == b'\\')
            .count();
        if backslashes % 2 == 0 {
            return Ok((start..q, q + 1));
        }
        from = q + 1;
    }
    Err(Error::new(src.len(), ErrorKind::UnexpectedEnd))
}

/// Reads a quoted string (after whitespace), appends its decoded bytes to
/// `dst` and returns the rest of `src`. On error `dst` is left as it was.
///
/// ```
/// use ito::nostr::text::unmarshal_quoted;
/// let mut out = Vec::new();
/// let rest = unmarshal_quoted(&mut out, br#" "line\nnext", 5"#).unwrap();
/// assert_eq!((&out[..], rest), (&b"line\nnext"[..], &b", 5"[..]));
/// ```
pub fn unmarshal_quoted<'a>(dst: &mut Vec<u8>, src: &'a [u8]) -> Result<&'a [u8], Error> {
    let (raw, end) = quoted_range(src)?;
    let at = raw.start;
    super::unescape(dst, &src[raw]).map_err(|e| e.shifted(at))?;
    Ok(&src[end..])
}

/// Reads a quoted string at the start of `buf` (after whitespace) and decodes
/// it in place: returns the range of the decoded bytes and the index just
/// after the closing quote.
///
/// ```
/// use ito::nostr::text::unmarshal_quoted_in_place;
/// let mut buf = *br#""a\u0062c" tail"#;
/// let (value, end) = unmarshal_quoted_in_place(&mut buf).unwrap();
/// assert_eq!(&buf[value], b"abc");
/// assert_eq!(&buf[end..], b" tail");
/// ```
pub fn unmarshal_quoted_in_place(buf: &mut [u8]) -> Result<(Range<usize>, usize), Error> {
    let (raw, end) = quoted_range(buf)?;
    let at = raw.start;
    let n = super::unescape_in_place(&mut buf[raw]).map_err(|e| e.shifted(at))?;
    Ok((at..at + n, end))
}

/// The raw digits of a quoted hex string and the index after it.
fn hex_digits(src: &[u8]) -> Result<(Range<usize>, usize), Error> {
    let open = skip_ws(src, 0);
    if src.get(open) != Some(&b'"') {
        return Err(Error::expected(src, open, "a hex string"));
    }
    let start = open + 1;
    match find_quote(src, start) {
        Some(close) => Ok((start..close, close + 1)),
        None => {
            // Report a bad digit before reporting the missing quote.
            let bad = src[start..]
                .iter()
                .position(|&c| !matches!(c, b'0'..=b'9' | b'a'..=b'f'));
            match bad {
                Some(k) => Err(Error::new(start + k, ErrorKind::HexDigit(src[start + k]))),
                None => Err(Error::new(src.len(), ErrorKind::UnexpectedEnd)),
            }
        }
    }
}

fn hex_error(e: crate::hex::Error, at: usize, found: usize, expected: usize) -> Error {
    match e {
        crate::hex::Error::InvalidDigit { offset, byte }
        | crate::hex::Error::Uppercase { offset, byte } => {
            Error::new(at + offset, ErrorKind::HexDigit(byte))
        }
        _ => Error::new(at, ErrorKind::HexLength { expected, found }),
    }
}

/// Reads a quoted hex string (lowercase digits, even length), appends the
/// decoded bytes to `dst` and returns the rest of `src`. On error `dst` is
/// left as it was.
///
/// ```
/// use ito::nostr::{text::unmarshal_hex, ErrorKind};
/// let mut out = Vec::new();
/// assert_eq!(unmarshal_hex(&mut out, br#""00ff","x""#), Ok(&br#","x""#[..]));
/// assert_eq!(out, [0, 255]);
/// let err = unmarshal_hex(&mut out, br#""0F""#).unwrap_err();
/// assert_eq!((err.offset(), err.kind()), (2, ErrorKind::HexDigit(b'F')));
/// ```
pub fn unmarshal_hex<'a>(dst: &mut Vec<u8>, src: &'a [u8]) -> Result<&'a [u8], Error> {
    let (digits, end) = hex_digits(src)?;
    let found = digits.len();
    let at = digits.start;
    crate::hex::decode_to_vec(dst, &src[digits], crate::hex::Accept::Lowercase).map_err(
        |e| match e {
            crate::hex::Error::OddLength { .. } => {
                Error::new(at, ErrorKind::OddHexLength { found })
            }
            e => hex_error(e, at, found, found),
        },
    )?;
    Ok(&src[end..])
}

/// Reads a quoted hex string of exactly `2 * N` lowercase digits into
/// `[u8; N]`; returns it and the rest of `src`.
///
/// ```
/// use ito::nostr::{text::unmarshal_hex_fixed, ErrorKind};
/// assert_eq!(unmarshal_hex_fixed::<2>(br#""beef""#), Ok(([0xbe, 0xef], &b""[..])));
/// let err = unmarshal_hex_fixed::<2>(br#""bee""#).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::HexLength { expected: 4, found: 3 });
/// ```
pub fn unmarshal_hex_fixed<const N: usize>(src: &[u8]) -> Result<([u8; N], &[u8]), Error> {
    // Fast path: the closing quote sits exactly 2N digits after the opening
    // one (a `"` among the digits would fail the hex decode).
    let open = skip_ws(src, 0);
    if src.get(open) == Some(&b'"') && src.get(open + 1 + 2 * N) == Some(&b'"') {
        if let Ok(value) = crate::hex::decode_array_lower::<N>(&src[open + 1..open + 1 + 2 * N]) {
            return Ok((value, &src[open + 2 + 2 * N..]));
        }
    }
    let (digits, end) = hex_digits(src)?;
    let found = digits.len();
    let at = digits.start;
    let value = crate::hex::decode_array_lower::<N>(&src[digits])
        .map_err(|e| hex_error(e, at, found, 2 * N))?;
    Ok((value, &src[end..]))
}

/// Appends a JSON array of lowercase hex strings.
///
/// ```
/// let mut out = Vec::new();
/// ito::nostr::text::marshal_hex_array(&mut out, &[[0xab; 2], [0x01; 2]]);
/// assert_eq!(out, br#"["abab","0101"]"#);
/// ```
pub fn marshal_hex_array<T: AsRef<[u8]>>(dst: &mut Vec<u8>, items: &[T]) {
    let total: usize = items.iter().map(|x| 2 * x.as_ref().len() + 3).sum();
    dst.reserve(total + 2);
    dst.push(b'[');
    append_list(dst, items, b',', |d, s| {
        d.push(b'"');
        crate::hex::encode_to_vec(d, s, crate::hex::Case::Lower);
        d.push(b'"');
    });
    dst.push(b']');
}

/// Reads a JSON array (after whitespace) of quoted lowercase hex strings of
/// exactly `2 * N` digits each, appending them to `out`; returns the rest of
/// `src`. On error `out` is left as it was.
///
/// ```
/// use ito::nostr::text::unmarshal_hex_array;
/// let mut ids: Vec<[u8; 2]> = Vec::new();
/// let rest = unmarshal_hex_array(&mut ids, br#"[ "0001", "ffff" ] tail"#).unwrap();
/// assert_eq!((&ids[..], rest), (&[[0, 1], [255, 255]][..], &b" tail"[..]));
/// ```
pub fn unmarshal_hex_array<'a, const N: usize>(
    out: &mut Vec<[u8; N]>,
    src: &'a [u8],
) -> Result<&'a [u8], Error> {
    let before = out.len();
    array(src, |item| {
        let (v, rest) = unmarshal_hex_fixed::<N>(item)?;
        out.push(v);
        Ok(rest)
    })
    .inspect_err(|_| out.truncate(before))
}

/// Reads `[ item, item, ... ]` with `read` consuming one item and returning
/// the rest; offsets in `read`'s errors are shifted to be relative to `src`.
fn array<'a>(
    src: &'a [u8],
    mut read: impl FnMut(&'a [u8]) -> Result<&'a [u8], Error>,
) -> Result<&'a [u8], Error> {
    let open = skip_ws(src, 0);
    if src.get(open) != Some(&b'[') {
        return Err(Error::expected(src, open, "`[`"));
    }
    let mut i = skip_ws(src, open + 1);
    if src.get(i) == Some(&b']') {
        return Ok(&src[i + 1..]);
    }
    loop {
        let rest = read(&src[i..]).map_err(|e| e.shifted(i))?;
        i = skip_ws(src, src.len() - rest.len());
        match src.get(i) {
            Some(b',') => i += 1,
            Some(b']') => return Ok(&src[i + 1..]),
            _ => return Err(Error::expected(src, i, "`,` or `]`")),
        }
    }
}

/// Appends a JSON array of strings, each NIP-01 escaped.
///
/// ```
/// let mut out = Vec::new();
/// ito::nostr::text::marshal_string_array(&mut out, &["e", "a\"b"]);
/// assert_eq!(out, br#"["e","a\"b"]"#);
/// ```
pub fn marshal_string_array<T: AsRef<[u8]>>(dst: &mut Vec<u8>, items: &[T]) {
    dst.push(b'[');
    append_list(dst, items, b',', quote);
    dst.push(b']');
}

/// A reusable list of byte strings stored in one buffer: the output of
/// [`unmarshal_string_array`]. Clearing keeps the capacity, so refilling it
/// does not allocate.
///
/// ```
/// let mut s = ito::nostr::text::Strings::new();
/// s.push(b"ab");
/// s.push(b"");
/// assert_eq!(s.len(), 2);
/// assert_eq!(s.get(0), Some(&b"ab"[..]));
/// assert_eq!(s.iter().collect::<Vec<_>>(), [&b"ab"[..], b""]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Strings {
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

impl Strings {
    /// An empty list.
    ///
    /// ```
    /// assert!(ito::nostr::text::Strings::new().is_empty());
    /// ```
    pub fn new() -> Strings {
        Strings::default()
    }

    /// Removes all strings, keeping the capacity.
    ///
    /// ```
    /// let mut s = ito::nostr::text::Strings::new();
    /// s.push(b"x");
    /// s.clear();
    /// assert!(s.is_empty());
    /// ```
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.ends.clear();
    }

    /// Number of strings.
    ///
    /// ```
    /// assert_eq!(ito::nostr::text::Strings::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no strings.
    ///
    /// ```
    /// assert!(ito::nostr::text::Strings::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Appends a string.
    ///
    /// ```
    /// let mut s = ito::nostr::text::Strings::new();
    /// s.push(b"x");
    /// assert_eq!(s.get(0), Some(&b"x"[..]));
    /// ```
    pub fn push(&mut self, s: &[u8]) {
        self.bytes.extend_from_slice(s);
        self.ends.push(self.bytes.len());
    }

    /// The `i`-th string.
    ///
    /// ```
    /// assert_eq!(ito::nostr::text::Strings::new().get(0), None);
    /// ```
    pub fn get(&self, i: usize) -> Option<&[u8]> {
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        Some(&self.bytes[start..end])
    }

    /// Iterates over the strings.
    ///
    /// ```
    /// let mut s = ito::nostr::text::Strings::new();
    /// s.push(b"a");
    /// assert_eq!(s.iter().count(), 1);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> + '_ {
        (0..self.len()).filter_map(move |i| self.get(i))
    }

    fn truncate(&mut self, n: usize) {
        self.ends.truncate(n);
        self.bytes.truncate(self.ends.last().copied().unwrap_or(0));
    }
}

/// Reads a JSON array (after whitespace) of strings, appending each decoded
/// string to `out`; returns the rest of `src`. On error `out` is left as it
/// was.
///
/// ```
/// use ito::nostr::text::{unmarshal_string_array, Strings};
/// let mut tag = Strings::new();
/// let rest = unmarshal_string_array(&mut tag, br#"["e", "x\ty"],"#).unwrap();
/// assert_eq!(tag.iter().collect::<Vec<_>>(), [&b"e"[..], b"x\ty"]);
/// assert_eq!(rest, b",");
/// ```
pub fn unmarshal_string_array<'a>(out: &mut Strings, src: &'a [u8]) -> Result<&'a [u8], Error> {
    let before = out.len();
    array(src, |item| {
        let rest = unmarshal_quoted(&mut out.bytes, item)?;
        out.ends.push(out.bytes.len());
        Ok(rest)
    })
    .inspect_err(|_| out.truncate(before))
}

/// Validates `src` as the text of a JSON string without decoding it: the
/// index of the closing quote starting at `from` and whether any escape was
/// seen. Exposed for relays that keep raw text and decode lazily.
///
/// ```
/// use ito::nostr::text::validate_string;
/// assert_eq!(validate_string(br#"ab\n" x"#, 0), Ok((4, true)));
/// assert!(validate_string(b"ab\x01\"", 0).is_err());
/// ```
pub fn validate_string(src: &[u8], from: usize) -> Result<(usize, bool), Error> {
    scan::string_end(src, from)
}
