//! Byte-level building blocks shared by the parser, the escaping functions and
//! the text toolkit: finding the next byte that needs attention inside a
//! string, decoding one escape, validating a string body.
//!
//! The search for `"`, `\` or a control byte runs eight bytes at a time in a
//! `u64` (exact per-byte comparisons, no false positives), which is within a
//! small factor of SIMD on the short strings of Nostr events; the heavy
//! lifting of escaping is done by the `ito::json` kernels.

use super::error::{Error, ErrorKind};

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Top bit set in each byte of `x` that is below `n` (`n <= 0x80`). Exact.
#[inline(always)]
fn lt(x: u64, n: u8) -> u64 {
    // (b & 0x7f) + (0x80 - n) never carries out of its byte.
    let t = (x & !HIGHS) + ONES * (0x80 - n as u64);
    !t & !x & HIGHS
}

/// Top bit set in each byte of `x` equal to `c` (`c < 0x80`). Exact.
#[inline(always)]
fn eq(x: u64, c: u8) -> u64 {
    lt(x ^ (ONES * c as u64), 1)
}

/// Index of the first `"`, `\` or byte < 0x20 in `src[from..]` (absolute),
/// or `src.len()`.
#[inline]
pub(crate) fn find_special(src: &[u8], from: usize) -> usize {
    let mut i = from;
    while i + 8 <= src.len() {
        let mut b = [0u8; 8];
        b.copy_from_slice(&src[i..i + 8]);
        let x = u64::from_le_bytes(b);
        let m = lt(x, 0x20) | eq(x, b'"') | eq(x, b'\\');
        if m != 0 {
            return i + m.trailing_zeros() as usize / 8;
        }
        i += 8;
    }
    while i < src.len() {
        let c = src[i];
        if c < 0x20 || c == b'"' || c == b'\\' {
            return i;
        }
        i += 1;
    }
    src.len()
}

#[inline]
fn hex4(src: &[u8], at: usize) -> Option<u32> {
    let d = src.get(at..at + 4)?;
    let mut v = 0u32;
    for &c in d {
        let x = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => return None,
        };
        v = (v << 4) | x as u32;
    }
    Some(v)
}

/// Decodes the escape at `src[at] == b'\\'`: the code point it stands for
/// and its length in bytes (2, 6 or 12 for a surrogate pair).
#[inline]
pub(crate) fn decode_escape(src: &[u8], at: usize) -> Result<(u32, usize), Error> {
    let Some(&c) = src.get(at + 1) else {
        return Err(Error::new(at, ErrorKind::UnexpectedEnd));
    };
    let simple = match c {
        b'"' => b'"',
        b'\\' => b'\\',
        b'/' => b'/',
        b'b' => 0x08,
        b'f' => 0x0c,
        b'n' => b'\n',
        b'r' => b'\r',
        b't' => b'\t',
        b'u' => {
            let Some(cp) = hex4(src, at + 2) else {
                if src.len() < at + 6 && src[at + 2..].iter().all(|c| c.is_ascii_hexdigit()) {
                    return Err(Error::new(at, ErrorKind::UnexpectedEnd));
                }
                return Err(Error::new(at, ErrorKind::InvalidUnicodeEscape));
            };
            return match cp {
                0xd800..=0xdbff => {
                    if src.get(at + 6) == Some(&b'\\') && src.get(at + 7) == Some(&b'u') {
                        if let Some(lo @ 0xdc00..=0xdfff) = hex4(src, at + 8) {
                            return Ok((0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00), 12));
                        }
                    }
                    Err(Error::new(at, ErrorKind::LoneSurrogate(cp as u16)))
                }
                0xdc00..=0xdfff => Err(Error::new(at, ErrorKind::LoneSurrogate(cp as u16))),
                _ => Ok((cp, 6)),
            };
        }
        _ => return Err(Error::new(at, ErrorKind::InvalidEscape(c))),
    };
    Ok((simple as u32, 2))
}

/// UTF-8 encoding of `cp` (a scalar value) into `buf`; returns the length.
#[inline]
pub(crate) fn encode_utf8(cp: u32, buf: &mut [u8; 4]) -> usize {
    match char::from_u32(cp) {
        Some(c) => c.encode_utf8(buf).len(),
        None => {
            // decode_escape never yields surrogates; write U+FFFD defensively.
            buf[..3].copy_from_slice("\u{fffd}".as_bytes());
            3
        }
    }
}

/// Validates a string body `src[from..]` up to its closing quote: returns the
/// index of the closing `"` and whether any escape was seen. Raw control
/// bytes, bad escapes and a missing closing quote are errors.
#[inline]
pub(crate) fn string_end(src: &[u8], from: usize) -> Result<(usize, bool), Error> {
    let mut i = from;
    let mut escaped = false;
    loop {
        i = find_special(src, i);
        match src.get(i) {
            None => return Err(Error::new(src.len(), ErrorKind::UnexpectedEnd)),
            Some(b'"') => return Ok((i, escaped)),
            Some(b'\\') => {
                let (_, n) = decode_escape(src, i)?;
                escaped = true;
                i += n;
            }
            Some(&c) => return Err(Error::new(i, ErrorKind::ControlCharacter(c))),
        }
    }
}

/// Appends the decoded bytes of string text `src` (no surrounding quotes) to
/// `dst`. Bytes >= 0x80 are copied verbatim (UTF-8 or not).
pub(crate) fn unescape_into(dst: &mut Vec<u8>, src: &[u8]) -> Result<(), Error> {
    dst.reserve(src.len());
    let mut i = 0;
    loop {
        let j = find_special(src, i);
        dst.extend_from_slice(&src[i..j]);
        match src.get(j) {
            None => return Ok(()),
            Some(b'\\') => {
                let (cp, n) = decode_escape(src, j)?;
                if cp < 0x80 {
                    dst.push(cp as u8);
                } else {
                    let mut buf = [0u8; 4];
                    let len = encode_utf8(cp, &mut buf);
                    dst.extend_from_slice(&buf[..len]);
                }
                i = j + n;
            }
            Some(b'"') => return Err(Error::new(j, ErrorKind::UnescapedQuote)),
            Some(&c) => return Err(Error::new(j, ErrorKind::ControlCharacter(c))),
        }
    }
}

/// In-place form of [`unescape_into`]: returns the decoded length.
pub(crate) fn unescape_in_place(buf: &mut [u8]) -> Result<usize, Error> {
    let mut i = 0; // read
    let mut w = 0; // write, always <= i
    loop {
        let j = find_special(buf, i);
        if w != i {
            buf.copy_within(i..j, w);
        }
        w += j - i;
        match buf.get(j) {
            None => return Ok(w),
            Some(b'\\') => {
                let (cp, n) = decode_escape(buf, j)?;
                let mut tmp = [0u8; 4];
                let len = encode_utf8(cp, &mut tmp);
                // An escape is at least 2 bytes and decodes to at most as many
                // (2 -> 1, 6 -> <= 3, 12 -> 4), so w + len <= j + n.
                buf[w..w + len].copy_from_slice(&tmp[..len]);
                w += len;
                i = j + n;
            }
            Some(b'"') => return Err(Error::new(j, ErrorKind::UnescapedQuote)),
            Some(&c) => return Err(Error::new(j, ErrorKind::ControlCharacter(c))),
        }
    }
}

/// Appends NIP-01 canonical escaping of one code point.
#[inline]
pub(crate) fn push_canonical_char(dst: &mut Vec<u8>, cp: u32) {
    match cp {
        0x22 => dst.extend_from_slice(b"\\\""),
        0x5c => dst.extend_from_slice(b"\\\\"),
        0x0a => dst.extend_from_slice(b"\\n"),
        0x0d => dst.extend_from_slice(b"\\r"),
        0x09 => dst.extend_from_slice(b"\\t"),
        0x08 => dst.extend_from_slice(b"\\b"),
        0x0c => dst.extend_from_slice(b"\\f"),
        0..=0x1f => {
            const D: &[u8; 16] = b"0123456789abcdef";
            dst.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                D[(cp >> 4) as usize],
                D[(cp & 15) as usize],
            ]);
        }
        0x20..=0x7f => dst.push(cp as u8),
        _ => {
            let mut buf = [0u8; 4];
            let n = encode_utf8(cp, &mut buf);
            dst.extend_from_slice(&buf[..n]);
        }
    }
}

/// Appends the NIP-01 canonical form of already-validated JSON string text
/// `raw` (escapes decoded, then re-escaped canonically) in one pass, without
/// an intermediate buffer.
pub(crate) fn recanonicalize(dst: &mut Vec<u8>, raw: &[u8]) {
    dst.reserve(raw.len());
    let mut i = 0;
    loop {
        let j = find_special(raw, i);
        dst.extend_from_slice(&raw[i..j]);
        if j >= raw.len() {
            return;
        }
        if raw[j] == b'\\' {
            if let Ok((cp, n)) = decode_escape(raw, j) {
                push_canonical_char(dst, cp);
                i = j + n;
                continue;
            }
        }
        // Not reachable for validated text; keep the byte's canonical form.
        push_canonical_char(dst, raw[j] as u32);
        i = j + 1;
    }
}

/// JSON whitespace.
#[inline(always)]
pub(crate) fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// Index of the first non-whitespace byte at or after `i`.
#[inline(always)]
pub(crate) fn skip_ws(src: &[u8], mut i: usize) -> usize {
    while let Some(&c) = src.get(i) {
        if !is_ws(c) {
            break;
        }
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_special_matches_naive_at_every_position() {
        for special in 0..=255u8 {
            let is_special = special < 0x20 || special == b'"' || special == b'\\';
            for len in 0..20 {
                for pos in 0..len {
                    let mut v = vec![b'a'; len];
                    v[pos] = special;
                    let want = if is_special { pos } else { len };
                    assert_eq!(
                        find_special(&v, 0),
                        want,
                        "byte {special:#x} len {len} pos {pos}"
                    );
                }
            }
        }
        // Bytes >= 0x80 never match, whatever their low bits.
        let v: Vec<u8> = (0x80..=0xffu8).collect();
        assert_eq!(find_special(&v, 0), v.len());
    }
}
