//! Re-layout of JSON text that is already known to be valid: [`compact`]
//! drops every whitespace byte between tokens, [`pretty`] lays the tokens
//! out as serde_json's pretty printer does (two-space indentation, `": "`,
//! empty `[]` and `{}` kept on one line). Tokens are copied byte for byte:
//! numbers as written, strings with their escape spellings, so the result
//! is the same document with only the layout changed.
//!
//! ```
//! use ito::json::layout;
//! let text = br#" { "a" : [ 1.50 , "\u00e9\/" ] , "b" : { } } "#;
//! let mut out = Vec::new();
//! layout::compact(&mut out, text);
//! assert_eq!(out, br#"{"a":[1.50,"\u00e9\/"],"b":{}}"#);
//! out.clear();
//! layout::pretty(&mut out, text);
//! assert_eq!(out, b"{\n  \"a\": [\n    1.50,\n    \"\\u00e9\\/\"\n  ],\n  \"b\": {}\n}");
//! ```
//!
//! # How it works
//!
//! One forward pass. Outside strings each byte is structure, whitespace or
//! part of a literal; a string is skipped to its closing quote with the
//! crate's string scan kernel (the one `unquote` uses, which stops at `"`,
//! `\` or a control byte), hopping over each escape. `compact` copies the
//! runs between whitespace in bulk, so an input that is already compact
//! is one copy. `pretty` looks past an opening bracket for its closing one
//! (an empty container stays `[]`/`{}`).
//!
//! ```text
//! compact: run start = i
//!          whitespace at i: copy the run, skip the whitespace, new run
//!          '"' at i:        i = after the closing quote (scan kernel)
//!          other:           i + 1
//! pretty:  '[' '{'  -> open (or "[]"/"{}"), newline, indent one deeper
//!          ']' '}'  -> newline, indent one shallower, close
//!          ','      -> ",", newline, indent;   ':' -> ": "
//!          strings and literals copied as they are; whitespace dropped
//! ```
//!
//! The input is not validated (check it first, e.g. with
//! [`RawJson::from_bytes`](super::RawJson::from_bytes)). On text that is not
//! JSON the output is unspecified, but the call stays memory-safe, never
//! panics and never reads past the input.

use std::borrow::Cow;

use super::emit;
use crate::simd::json::{self as kernels, Kernels};

/// Appends `src` (one valid JSON value, or several separated by
/// whitespace) to `dst` without whitespace between tokens.
///
/// ```
/// let mut out = Vec::new();
/// ito::json::layout::compact(&mut out, b"[1, \"a b\",\n\t{\"k\" :null}]");
/// assert_eq!(out, br#"[1,"a b",{"k":null}]"#);
/// ```
pub fn compact(dst: &mut Vec<u8>, src: &[u8]) {
    let k = kernels::best();
    dst.reserve(src.len());
    let mut run = 0;
    let mut i = 0;
    while let Some(&c) = src.get(i) {
        match c {
            b'"' => i = string_end(k, src, i),
            b' ' | b'\t' | b'\n' | b'\r' => {
                dst.extend_from_slice(&src[run..i]);
                i = skip_whitespace(src, i + 1);
                run = i;
            }
            _ => i += 1,
        }
    }
    dst.extend_from_slice(&src[run..]);
}

/// Appends `src` (one valid JSON value) to `dst` in serde_json's pretty
/// layout, with no newline after the value.
///
/// ```
/// let mut out = Vec::new();
/// ito::json::layout::pretty(&mut out, br#"{"a":[],"b":[1e2,{}]}"#);
/// assert_eq!(out, b"{\n  \"a\": [],\n  \"b\": [\n    1e2,\n    {}\n  ]\n}");
/// ```
pub fn pretty(dst: &mut Vec<u8>, src: &[u8]) {
    let k = kernels::best();
    dst.reserve(src.len() + src.len() / 2);
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(&c) = src.get(i) {
        match c {
            b'[' | b'{' => {
                // `]` and `}` are two past `[` and `{` in ASCII.
                let close = c + 2;
                let next = skip_whitespace(src, i + 1);
                if src.get(next) == Some(&close) {
                    dst.extend_from_slice(&[c, close]);
                    i = next + 1;
                } else {
                    dst.push(c);
                    depth += 1;
                    emit::newline_indent(dst, true, depth);
                    i = next;
                }
            }
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                emit::newline_indent(dst, true, depth);
                dst.push(c);
                i += 1;
            }
            b',' => {
                emit::newline_indent(dst, false, depth);
                i += 1;
            }
            b':' => {
                dst.extend_from_slice(b": ");
                i += 1;
            }
            b'"' => {
                let end = string_end(k, src, i);
                dst.extend_from_slice(&src[i..end]);
                i = end;
            }
            b' ' | b'\t' | b'\n' | b'\r' => i = skip_whitespace(src, i + 1),
            _ => {
                // A number or a literal: up to the next delimiter.
                let end = src[i..]
                    .iter()
                    .position(|&b| is_delimiter(b))
                    .map_or(src.len(), |n| i + n);
                dst.extend_from_slice(&src[i..end]);
                i = end;
            }
        }
    }
}

/// Appends `src` (one valid JSON value) to `dst` without whitespace, with
/// the members of every object in the order of their keys: by the keys'
/// unescaped text, byte by byte (which is code point order, the order of
/// serde_json's default `Map` and of `jq --sort-keys`). Keys and values keep
/// their spelling, and members with equal keys keep their document order
/// (nothing is dropped). Pass the result to [`pretty`] for a sorted pretty
/// layout.
///
/// ```
/// let mut out = Vec::new();
/// ito::json::layout::sort_keys(&mut out, br#"{"b": 1, "\u0061": {"y": [], "x": 2.50}}"#);
/// assert_eq!(out, br#"{"\u0061":{"x":2.50,"y":[]},"b":1}"#);
/// ```
///
/// Objects nested deeper than [`MAX_DEPTH`](super::MAX_DEPTH) (which no
/// valid document has) are copied compact without sorting, so the call
/// never recurses further than that on any input.
pub fn sort_keys(dst: &mut Vec<u8>, src: &[u8]) {
    let k = kernels::best();
    dst.reserve(src.len());
    let mut i = skip_whitespace(src, 0);
    while i < src.len() {
        i = sorted_value(k, src, i, dst, 0);
        i = skip_whitespace(src, i);
    }
}

/// Writes the value at `src[i..]` (`i` at its first byte) compact and
/// sorted; returns the index after it.
fn sorted_value(
    k: &'static Kernels,
    src: &[u8],
    i: usize,
    dst: &mut Vec<u8>,
    depth: usize,
) -> usize {
    match src[i] {
        b'{' | b'[' if depth >= super::MAX_DEPTH => {
            let end = container_end(k, src, i);
            compact(dst, &src[i..end]);
            end
        }
        b'{' => sorted_object(k, src, i, dst, depth),
        b'[' => {
            dst.push(b'[');
            let mut i = skip_whitespace(src, i + 1);
            while let Some(&c) = src.get(i) {
                match c {
                    b']' => {
                        dst.push(b']');
                        return i + 1;
                    }
                    b',' => {
                        dst.push(b',');
                        i = skip_whitespace(src, i + 1);
                    }
                    _ => i = skip_whitespace(src, sorted_value(k, src, i, dst, depth + 1)),
                }
            }
            i
        }
        b'"' => {
            let end = string_end(k, src, i);
            dst.extend_from_slice(&src[i..end]);
            end
        }
        _ => {
            // A number or literal, or one stray byte of text that is not
            // JSON (consumed, so the caller always moves on).
            let end = src[i + 1..]
                .iter()
                .position(|&b| is_delimiter(b))
                .map_or(src.len(), |n| i + 1 + n);
            dst.extend_from_slice(&src[i..end]);
            end
        }
    }
}

/// `sorted_value` for an object at `src[open]`: its members are written in
/// document order, then rewritten in key order if they were not in it.
fn sorted_object(
    k: &'static Kernels,
    src: &[u8],
    open: usize,
    dst: &mut Vec<u8>,
    depth: usize,
) -> usize {
    struct Member {
        /// The key's string token in `src`, quotes included.
        key: (usize, usize),
        /// The member's compact `"key":value` in `dst`.
        text: (usize, usize),
    }
    dst.push(b'{');
    let body = dst.len();
    let mut members: Vec<Member> = Vec::new();
    let mut i = skip_whitespace(src, open + 1);
    while let Some(&c) = src.get(i) {
        match c {
            b'}' => {
                i += 1;
                break;
            }
            b',' => i = skip_whitespace(src, i + 1),
            _ => {
                let start = dst.len();
                let key_end = if c == b'"' { string_end(k, src, i) } else { i };
                dst.extend_from_slice(&src[i..key_end]);
                let key = (i, key_end);
                i = skip_whitespace(src, key_end);
                if src.get(i) == Some(&b':') {
                    dst.push(b':');
                    i = skip_whitespace(src, i + 1);
                }
                if let Some(&c) = src.get(i) {
                    if c != b'}' && c != b',' {
                        i = skip_whitespace(src, sorted_value(k, src, i, dst, depth + 1));
                    }
                }
                members.push(Member {
                    key,
                    text: (start, dst.len()),
                });
            }
        }
    }
    let text_of = |m: &Member| key_text(&src[m.key.0..m.key.1]);
    let keys: Vec<Cow<'_, [u8]>> = members.iter().map(text_of).collect();
    if keys.windows(2).any(|w| w[0] > w[1]) {
        let mut order: Vec<usize> = (0..members.len()).collect();
        // Stable: members with equal keys stay in document order.
        order.sort_by(|&a, &b| keys[a].cmp(&keys[b]));
        let written = dst.split_off(body);
        for (n, &m) in order.iter().enumerate() {
            if n > 0 {
                dst.push(b',');
            }
            let (s, e) = members[m].text;
            dst.extend_from_slice(&written[s - body..e - body]);
        }
    } else {
        // Already in order: only the commas are missing.
        let written = dst.split_off(body);
        for (n, m) in members.iter().enumerate() {
            if n > 0 {
                dst.push(b',');
            }
            dst.extend_from_slice(&written[m.text.0 - body..m.text.1 - body]);
        }
    }
    dst.push(b'}');
    i
}

/// The text a key's string token stands for (quotes off, escapes decoded;
/// invalid escapes become U+FFFD so that any input has an order).
fn key_text(token: &[u8]) -> Cow<'_, [u8]> {
    let inner = token
        .strip_prefix(b"\"")
        .map(|t| t.strip_suffix(b"\"").unwrap_or(t))
        .unwrap_or(token);
    if !inner.contains(&b'\\') {
        return Cow::Borrowed(inner);
    }
    let mut out = Vec::with_capacity(inner.len());
    let lenient = super::Options::new().replace_invalid(true);
    if super::unescape_with(&mut out, inner, &lenient).is_err() {
        out.clear();
        out.extend_from_slice(inner);
    }
    Cow::Owned(out)
}

/// The index after the container that opens at `src[open]` (`src.len()`
/// if it is not closed), strings skipped whole.
fn container_end(k: &'static Kernels, src: &[u8], open: usize) -> usize {
    let mut depth = 0usize;
    let mut i = open;
    while let Some(&c) = src.get(i) {
        match c {
            b'"' => {
                i = string_end(k, src, i);
                continue;
            }
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    src.len()
}

/// Whether `b` ends a number or literal.
#[inline]
fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b',' | b']' | b'}' | b':' | b'[' | b'{' | b'"' | b' ' | b'\t' | b'\n' | b'\r'
    )
}

#[inline]
fn skip_whitespace(src: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = src.get(i) {
        i += 1;
    }
    i
}

/// The index after the closing quote of the string whose opening quote is
/// at `open` (`src.len()` if it has none).
#[inline]
fn string_end(k: &'static Kernels, src: &[u8], open: usize) -> usize {
    let mut i = open + 1;
    loop {
        let (n, _) = kernels::scan_start(k, &src[i..]);
        i += n;
        match src.get(i) {
            Some(b'"') => return i + 1,
            // An escape: its second byte is never the closing quote
            // (`\u` digits are not special either).
            Some(b'\\') => i = (i + 2).min(src.len()),
            // A raw control byte (not valid JSON): part of the string.
            Some(_) => i += 1,
            None => return src.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both(src: &str) -> (String, String) {
        let (mut c, mut p) = (Vec::new(), Vec::new());
        compact(&mut c, src.as_bytes());
        pretty(&mut p, src.as_bytes());
        (String::from_utf8(c).unwrap(), String::from_utf8(p).unwrap())
    }

    #[test]
    fn strings_keep_their_spelling_and_hide_structure() {
        // Escaped quotes and backslashes, structure bytes and whitespace
        // inside strings, at every length around the kernel's blocks.
        for pad in 0..70 {
            let body = format!("{}\\\\\\\" ,:[]{{}}\\u0041\\/\t", "x".repeat(pad));
            let doc = format!("[ \"{body}\" , \"{body}\" ]");
            let (c, p) = both(&doc);
            assert_eq!(c, format!("[\"{body}\",\"{body}\"]"));
            assert_eq!(p, format!("[\n  \"{body}\",\n  \"{body}\"\n]"));
        }
    }

    #[test]
    fn empty_containers_and_scalars() {
        assert_eq!(both(" [ \n] "), ("[]".into(), "[]".into()));
        assert_eq!(both("{\t}"), ("{}".into(), "{}".into()));
        assert_eq!(both(" -1.5E+3 "), ("-1.5E+3".into(), "-1.5E+3".into()));
        assert_eq!(both("true"), ("true".into(), "true".into()));
        assert_eq!(
            both(r#"{"a" : { "b" : [ [ ] , { } , null ] } }"#).1,
            "{\n  \"a\": {\n    \"b\": [\n      [],\n      {},\n      null\n    ]\n  }\n}"
        );
    }

    #[test]
    fn text_that_is_not_json_is_safe() {
        for bad in [
            "\"abc",
            "\"ab\\",
            "]]]}}",
            "[[[",
            "\"\u{1}\"",
            "\\",
            ",,::",
            "[1 2",
        ] {
            for cut in 0..=bad.len() {
                let s = &bad.as_bytes()[..cut];
                let (mut c, mut p) = (Vec::new(), Vec::new());
                compact(&mut c, s);
                pretty(&mut p, s);
            }
        }
    }
}
