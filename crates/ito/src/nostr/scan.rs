//! Byte-level building blocks shared by the parser, the escaping functions and
//! the text toolkit: finding the next byte that needs attention inside a
//! string, decoding one escape, validating a string body.
//!
//! The search for `"`, `\` or a control byte (the crate's one definition,
//! `simd::class`) looks at the first 16 bytes inline, eight at a time in a
//! `u64`, since most runs between escapes are short; longer runs go to the
//! `ito::json` SIMD scan kernel. Escaping itself is the `ito::json` escape kernel, and
//! unescaping to bytes is the block kernel in `simd::json::bytes` (the
//! scalar versions kept here are the test references).

use super::error::{Error, ErrorKind};

/// Index of the first `"`, `\` or byte < 0x20 in `src[from..]` (absolute),
/// or `src.len()`.
#[inline(always)]
pub(crate) fn find_special(src: &[u8], from: usize) -> usize {
    use crate::simd::class::swar_special as special;
    #[inline(always)]
    fn load(src: &[u8], i: usize) -> u64 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&src[i..i + 8]);
        u64::from_le_bytes(b)
    }
    /// The first special byte of `src[i..i + 16]`, if any.
    #[inline(always)]
    fn probe16(src: &[u8], i: usize) -> Option<usize> {
        let (a, b) = (special(load(src, i)), special(load(src, i + 8)));
        if a != 0 {
            Some(i + a.trailing_zeros() as usize / 8)
        } else if b != 0 {
            Some(i + 8 + b.trailing_zeros() as usize / 8)
        } else {
            None
        }
    }
    let mut i = from;
    if i + 16 <= src.len() {
        // Most runs between escapes are short: look at 16 bytes inline.
        if let Some(at) = probe16(src, i) {
            return at;
        }
        i += 16;
        if src.len() - i >= 32 {
            // A long run: hand it to the json module's SIMD scan kernel.
            // SAFETY: best() only returns kernels this CPU supports.
            let (k, _) = unsafe { (crate::simd::json::best().scan)(&src[i..]) };
            return i + k;
        }
    }
    while i + 16 <= src.len() {
        if let Some(at) = probe16(src, i) {
            return at;
        }
        i += 16;
    }
    if i + 8 <= src.len() {
        let m = special(load(src, i));
        if m != 0 {
            return i + m.trailing_zeros() as usize / 8;
        }
        i += 8;
    }
    while i < src.len() {
        if is_special(src[i]) {
            return i;
        }
        i += 1;
    }
    src.len()
}

pub(crate) use crate::simd::class::is_special;

// The crate's one escape decoder (and, for the test references' fast
// path, its tables).
use crate::simd::escape::encode_utf8;
use crate::simd::escape::{fault_at, Surrogates};
#[cfg(test)]
use crate::simd::escape::{HEX as HEX_VALUE, SIMPLE as SIMPLE_ESCAPE};

/// NIP-01 escape sequence of each byte that needs one (length in byte 7).
#[cfg(test)]
static ESCAPE_SEQ: [[u8; 8]; 256] = {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut t = [[0u8; 8]; 256];
    let mut c = 0;
    while c < 0x20 {
        t[c] = [b'\\', b'u', b'0', b'0', D[c >> 4], D[c & 15], 0, 6];
        c += 1;
    }
    t[0x08] = [b'\\', b'b', 0, 0, 0, 0, 0, 2];
    t[0x09] = [b'\\', b't', 0, 0, 0, 0, 0, 2];
    t[0x0a] = [b'\\', b'n', 0, 0, 0, 0, 0, 2];
    t[0x0c] = [b'\\', b'f', 0, 0, 0, 0, 0, 2];
    t[0x0d] = [b'\\', b'r', 0, 0, 0, 0, 0, 2];
    t[b'"' as usize] = [b'\\', b'"', 0, 0, 0, 0, 0, 2];
    t[b'\\' as usize] = [b'\\', b'\\', 0, 0, 0, 0, 0, 2];
    t
};

/// Appends `src` with NIP-01 escaping: runs of plain bytes are copied, runs
/// of bytes needing escapes go through a table with one 8-byte store each.
/// A scalar reference for the tests; [`super::escape`] uses the `json`
/// kernel.
#[cfg(test)]
pub(crate) fn escape_into(dst: &mut Vec<u8>, src: &[u8]) {
    let n = src.len();
    dst.reserve(n + 8);
    let mut i = 0;
    loop {
        let j = find_special(src, i);
        dst.extend_from_slice(&src[i..j]);
        if j >= n {
            return;
        }
        // A run of bytes needing escapes: up to 64 at a time with room for
        // the longest escapes reserved once, one 8-byte store per byte.
        let mut k = j;
        loop {
            let end = n.min(k + 64);
            if dst.capacity() - dst.len() < 6 * 64 + 8 {
                dst.reserve(6 * 64 + 8 + (n - k));
            }
            let len = dst.len();
            let mut w = 0;
            // SAFETY: at most 64 escapes of at most 6 bytes each, plus 2
            // bytes of slack for the last 8-byte store, fit in the reserved
            // room; only the first w bytes count as initialised.
            unsafe {
                let p = dst.as_mut_ptr().add(len);
                while k < end {
                    let seq = &ESCAPE_SEQ[src[k] as usize];
                    if seq[7] == 0 {
                        break;
                    }
                    core::ptr::copy_nonoverlapping(seq.as_ptr(), p.add(w), 8);
                    w += seq[7] as usize;
                    k += 1;
                }
                dst.set_len(len + w);
            }
            if k < end || k == n {
                break;
            }
        }
        i = k;
    }
}

/// Writes the UTF-8 encoding of scalar value `cp` at `out`; returns the length.
///
/// # Safety
/// `out` must be valid for as many byte writes as the encoding of `cp` needs.
#[cfg(test)]
#[inline(always)]
unsafe fn put_utf8(out: *mut u8, cp: u32) -> usize {
    // SAFETY: the caller guarantees room for the encoding (1..=4 bytes).
    unsafe {
        if cp < 0x80 {
            *out = cp as u8;
            1
        } else if cp < 0x800 {
            *out = 0xc0 | (cp >> 6) as u8;
            *out.add(1) = 0x80 | (cp & 0x3f) as u8;
            2
        } else if cp < 0x10000 {
            *out = 0xe0 | (cp >> 12) as u8;
            *out.add(1) = 0x80 | ((cp >> 6) & 0x3f) as u8;
            *out.add(2) = 0x80 | (cp & 0x3f) as u8;
            3
        } else {
            *out = 0xf0 | (cp >> 18) as u8;
            *out.add(1) = 0x80 | ((cp >> 12) & 0x3f) as u8;
            *out.add(2) = 0x80 | ((cp >> 6) & 0x3f) as u8;
            *out.add(3) = 0x80 | (cp & 0x3f) as u8;
            4
        }
    }
}

/// Decodes the escape at `src[at] == b'\\'` with the crate's one decoder
/// (`simd::escape`, lone surrogates rejected): the code point it stands
/// for and its length in bytes (2, 6 or 12 for a surrogate pair).
#[inline]
pub(crate) fn decode_escape(src: &[u8], at: usize) -> Result<(u32, usize), Error> {
    match crate::simd::escape::decode_escape(src, at, Surrogates::Reject) {
        Ok(d) => Ok(d),
        Err(f) => Err(f.into()),
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
/// `dst`. Bytes >= 0x80 are copied verbatim (UTF-8 or not). On error `dst`
/// keeps its length (spare capacity may have been written).
///
/// The work is the block kernel in `simd::json::bytes`; this only sizes the
/// buffer (decoding never lengthens) and turns a failure offset into an
/// error by re-reading that spot with the crate's scalar decoder.
#[inline]
pub(crate) fn unescape_into(dst: &mut Vec<u8>, src: &[u8]) -> Result<(), Error> {
    let n = src.len();
    dst.reserve(n + crate::simd::json::UNESCAPE_SLACK);
    let base = dst.len();
    // SAFETY: reserve made n + UNESCAPE_SLACK bytes after base writable,
    // and that room is not part of src (src is borrowed while dst is
    // exclusively borrowed).
    let r = unsafe { crate::simd::json::unescape_bytes(src, dst.as_mut_ptr().add(base)) };
    match r {
        Ok(k) => {
            // SAFETY: the kernel wrote k bytes after base.
            unsafe { dst.set_len(base + k) };
            Ok(())
        }
        Err(at) => Err(error_at(src, at)),
    }
}

/// The error for the byte at `at`, where the unescape kernel stopped.
#[cold]
#[inline(never)]
fn error_at(src: &[u8], at: usize) -> Error {
    fault_at(src, at).into()
}

#[cfg(test)]
/// Scalar reference for [`unescape_into`] (tests only): appends the decoded bytes of string text `src` (no surrounding quotes) to
/// `dst`. Bytes >= 0x80 are copied verbatim (UTF-8 or not). On error `dst`
/// keeps its length (spare capacity may have been written).
///
///
/// Plain runs are found eight bytes at a time and copied; runs of escapes
/// are decoded in a tight loop with a fast path for `\u00XX` (one 8-byte
/// load, a pattern compare and two table look-ups).
pub(crate) fn unescape_into_reference(dst: &mut Vec<u8>, src: &[u8]) -> Result<(), Error> {
    let n = src.len();
    // Decoding never lengthens: every escape decodes to at most its length.
    // 16 bytes of slack let short runs be copied with one fixed-size move.
    dst.reserve(n + 16);
    let base = dst.len();
    // SAFETY: reserve made n + 16 bytes after base writable.
    let out = unsafe { dst.as_mut_ptr().add(base) };
    let mut w = 0; // bytes written; invariant w <= i <= n
    let mut i = 0;
    let result = 'outer: loop {
        let j = find_special(src, i);
        // SAFETY: w <= i, so out + w + 16 <= out + n + 16 (reserved); the
        // fixed 16-byte copy reads src[i..i + 16], in bounds by the check;
        // bytes past j - i are scratch, overwritten or beyond the final len.
        unsafe {
            if j - i <= 16 && i + 16 <= n {
                core::ptr::copy_nonoverlapping(src.as_ptr().add(i), out.add(w), 16);
            } else {
                core::ptr::copy_nonoverlapping(src.as_ptr().add(i), out.add(w), j - i);
            }
        }
        w += j - i;
        i = j;
        // A run of escapes.
        loop {
            match src.get(i) {
                None => break 'outer Ok(()),
                Some(b'\\') => {}
                Some(&c) if is_special(c) => break 'outer Err(special_error(i, c)),
                Some(_) => continue 'outer,
            }
            if i + 8 <= n {
                let mut b = [0u8; 8];
                b.copy_from_slice(&src[i..i + 8]);
                if let Some((bytes, k, len)) = short_escape(u64::from_le_bytes(b)) {
                    // SAFETY: w <= i < n, so both bytes lie within the n + 16
                    // reserved; a second byte beyond k is scratch, rewritten
                    // later or past the final length.
                    unsafe {
                        *out.add(w) = bytes[0];
                        *out.add(w + 1) = bytes[1];
                    }
                    w += k;
                    i += len;
                    continue;
                }
            }
            match decode_escape(src, i) {
                Ok((cp, len)) => {
                    // SAFETY: a `len`-byte escape encodes to at most `len`
                    // bytes (2 -> 1, 6 -> <= 3, 12 -> 4), so w stays <= i.
                    w += unsafe { put_utf8(out.add(w), cp) };
                    i += len;
                }
                Err(e) => break 'outer Err(e),
            }
        }
    };
    if result.is_ok() {
        // SAFETY: the w bytes after base were written above.
        unsafe { dst.set_len(base + w) };
    }
    result
}

/// The common escapes, decoded from the 8 input bytes `x` (little-endian)
/// that start with a backslash: `\X` (one of the two-byte escapes) and
/// `\u00XX`. Returns the decoded bytes (the second is padding when the
/// count is 1), their count, and the escape's length; `None` for the rest
/// (`\uXXXX` above U+00FF, surrogate pairs, errors), which
/// `decode_escape` handles. (The scalar references' fast path; the library
/// decodes with the block kernel in `simd::json::bytes`.)
#[cfg(test)]
#[inline(always)]
fn short_escape(x: u64) -> Option<([u8; 2], usize, usize)> {
    let simple = SIMPLE_ESCAPE[(x >> 8) as u8 as usize];
    if simple != 0 {
        return Some(([simple, 0], 1, 2));
    }
    if x as u32 == u32::from_le_bytes(*b"\\u00") {
        let hi = HEX_VALUE[(x >> 32) as u8 as usize];
        let lo = HEX_VALUE[(x >> 40) as u8 as usize];
        if (hi | lo) & 0xf0 == 0 {
            let v = (hi << 4) | lo;
            return Some(if v < 0x80 {
                ([v, 0], 1, 6)
            } else {
                ([0xc0 | (v >> 6), 0x80 | (v & 0x3f)], 2, 6)
            });
        }
    }
    None
}

#[cfg(test)]
#[cold]
fn special_error(at: usize, c: u8) -> Error {
    Error::new(
        at,
        if c == b'"' {
            ErrorKind::UnescapedQuote
        } else {
            ErrorKind::ControlCharacter(c)
        },
    )
}

/// In-place form of [`unescape_into`]: returns the decoded length.
#[inline]
pub(crate) fn unescape_in_place(buf: &mut [u8]) -> Result<usize, Error> {
    match crate::simd::json::unescape_bytes_in_place(buf) {
        Ok(k) => Ok(k),
        Err(at) => Err(error_at(buf, at)),
    }
}

#[cfg(test)]
/// Scalar reference for [`unescape_in_place`] (tests only).
pub(crate) fn unescape_in_place_reference(buf: &mut [u8]) -> Result<usize, Error> {
    let n = buf.len();
    let mut i = 0; // read
    let mut w = 0; // write, always <= i
    'outer: loop {
        let j = find_special(buf, i);
        if w != i {
            buf.copy_within(i..j, w);
        }
        w += j - i;
        i = j;
        // A run of escapes, with the same fast paths as unescape_into.
        loop {
            match buf.get(i) {
                None => return Ok(w),
                Some(b'\\') => {}
                Some(&c) if is_special(c) => return Err(special_error(i, c)),
                Some(_) => continue 'outer,
            }
            if i + 8 <= n {
                let mut b = [0u8; 8];
                b.copy_from_slice(&buf[i..i + 8]);
                if let Some((bytes, k, len)) = short_escape(u64::from_le_bytes(b)) {
                    buf[w..w + k].copy_from_slice(&bytes[..k]);
                    w += k;
                    i += len;
                    continue;
                }
            }
            let (cp, len) = decode_escape(buf, i)?;
            let mut tmp = [0u8; 4];
            let k = encode_utf8(cp, &mut tmp);
            // A `len`-byte escape decodes to at most `len` bytes, so w + k
            // <= i + len: the write never passes the bytes still to read.
            buf[w..w + k].copy_from_slice(&tmp[..k]);
            w += k;
            i += len;
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

    /// Every form of the unescape kernel against the scalar reference:
    /// output on success, the failing offset (and, through the public
    /// entry points, the same error) on failure.
    fn check_unescape(src: &[u8]) {
        let mut want = Vec::new();
        let want = unescape_into_reference(&mut want, src)
            .map(|_| want)
            .map_err(|e| e.offset());
        for (name, got) in crate::simd::json::bytes::every_form(src) {
            assert_eq!(got, want, "{name} {src:?}");
        }
        let mut buf = src.to_vec();
        let want_in_place = unescape_in_place_reference(&mut buf);
        let mut buf = src.to_vec();
        let got = unescape_in_place(&mut buf);
        match (got, want_in_place) {
            (Ok(a), Ok(b)) => assert_eq!(a, b),
            (Err(a), Err(b)) => assert_eq!((a.offset(), a.kind()), (b.offset(), b.kind())),
            (a, b) => panic!("in place {src:?}: {a:?} vs {b:?}"),
        }
        let mut out = Vec::new();
        let mut reference = Vec::new();
        match (
            unescape_into(&mut out, src),
            unescape_into_reference(&mut reference, src),
        ) {
            (Ok(()), Ok(())) => assert_eq!(out, reference),
            (Err(a), Err(b)) => assert_eq!((a.offset(), a.kind()), (b.offset(), b.kind())),
            (a, b) => panic!("{src:?}: {a:?} vs {b:?}"),
        }
    }

    #[test]
    fn unescape_kernel_matches_reference_for_every_piece_offset_and_repeat() {
        let pieces: [&[u8]; 19] = [
            b"\\n",
            b"\\\"",
            b"\\\\",
            b"\\/",
            b"\\u0000",
            b"\\u00e9",
            b"\\u07FF",
            b"\\u0800",
            b"\\uffff",
            b"\\ud83d\\ude00",
            b"\\ud83d\\u0041",
            b"\\udc00",
            b"\\u12g4",
            b"\xc3\xa9",
            b"\\",
            b"\\u12",
            b"\\x",
            b"\"",
            b"\x1f",
        ];
        // Miri runs the portable kernels only, 8-byte blocks: offsets around
        // one and two blocks are enough there (the full sweep takes hours).
        let (pres, posts): (Vec<usize>, &[usize]) = if cfg!(miri) {
            (vec![0, 1, 7, 8, 9, 16, 17], &[0, 1, 9])
        } else {
            ((0..40).collect(), &[0, 1, 5, 15, 16, 17, 33])
        };
        for p in pieces {
            for &pre in &pres {
                for &post in posts {
                    let mut v = vec![b'a'; pre];
                    v.extend_from_slice(p);
                    v.extend(std::iter::repeat_n(b'z', post));
                    check_unescape(&v);
                    // The piece repeated, so escapes meet block edges.
                    let mut r = vec![b'a'; pre % 7];
                    for _ in 0..pre {
                        r.extend_from_slice(p);
                    }
                    r.extend(std::iter::repeat_n(b'z', post));
                    check_unescape(&r);
                }
            }
        }
    }

    #[test]
    fn unescape_kernel_matches_reference_on_mixed_escape_runs() {
        // Pseudo-random mixes of the pieces above and plain bytes, every
        // length up to 200 (deterministic, no seed to keep).
        let pieces: [&[u8]; 10] = [
            b"\\n",
            b"\\\"",
            b"\\\\",
            b"\\u00e9",
            b"\\u0001",
            b"\\u20ac",
            b"\\ud83d\\ude00",
            b"a",
            b"bcdefghijklmnopqrstuvw",
            b"\xf0",
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..if cfg!(miri) { 60 } else { 3000 } {
            let mut v = Vec::new();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 200) as usize;
            let mut y = x;
            while v.len() < len {
                y = y
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                v.extend_from_slice(pieces[(y >> 60) as usize % pieces.len()]);
            }
            check_unescape(&v);
            // And with a bad byte somewhere.
            if !v.is_empty() {
                let at = (y >> 20) as usize % v.len();
                v[at] = [b'"', 0x01, b'\\'][(y >> 40) as usize % 3];
                check_unescape(&v);
            }
        }
    }

    #[test]
    fn json_kernel_matches_reference_escape_on_dense_and_sparse_bytes() {
        let dense: Vec<u8> = (0..8192).map(|i| (i % 256) as u8).collect();
        let sparse: Vec<u8> = (0..8192)
            .map(|i| {
                if i % 97 == 0 {
                    (i % 32) as u8
                } else {
                    b'a' + (i % 26) as u8
                }
            })
            .collect();
        for src in [&dense[..], &sparse[..]] {
            for len in [0, 1, 7, 8, 15, 16, 31, 32, 63, 64, 65, 127, 128, 1000, 8192] {
                let mut want = Vec::new();
                escape_into(&mut want, &src[..len]);
                let mut got = Vec::new();
                super::super::escape(&mut got, &src[..len]);
                assert_eq!(got, want, "len {len}");
            }
        }
    }

    #[test]
    fn escape_table_matches_canonical_rule_for_every_byte() {
        for b in 0..=255u8 {
            let mut want = Vec::new();
            if b < 0x80 {
                push_canonical_char(&mut want, b as u32);
            } else {
                want.push(b);
            }
            for pad in 0..20 {
                let mut src = vec![b'x'; pad];
                src.push(b);
                src.extend(std::iter::repeat_n(b, pad));
                let mut got = Vec::new();
                escape_into(&mut got, &src);
                let mut expect = vec![b'x'; pad];
                for _ in 0..=pad {
                    expect.extend_from_slice(&want);
                }
                assert_eq!(got, expect, "byte {b:#x} pad {pad}");
            }
        }
    }

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
