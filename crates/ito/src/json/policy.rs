//! The opt-in escaping policies of [`Options`], kept apart from the SIMD
//! kernels so that the default path pays nothing for them.
//!
//! A 128-bit set says which ASCII bytes the options escape; runs of other
//! ASCII bytes are copied in one `extend_from_slice`; non-ASCII input is
//! decoded one character at a time (validating it) and escaped when the
//! options ask for it. This is table-driven scalar code: the opt-in policies
//! are rare enough that they do not carry their own vector kernels.

use super::{Error, ErrorKind, Options};
use crate::simd::json::{utf8_sequence, ESCAPES, ESCAPES_UPPER};

/// Appends `\uXXXX` for a UTF-16 code unit.
#[inline]
fn push_u(dst: &mut Vec<u8>, unit: u32, upper: bool) {
    let hex: &[u8; 16] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    dst.extend_from_slice(&[
        b'\\',
        b'u',
        hex[(unit >> 12 & 15) as usize],
        hex[(unit >> 8 & 15) as usize],
        hex[(unit >> 4 & 15) as usize],
        hex[(unit & 15) as usize],
    ]);
}

/// Appends the `\uXXXX` form of `cp`, as a surrogate pair above U+FFFF.
fn push_code_point(dst: &mut Vec<u8>, cp: u32, upper: bool) {
    if cp >= 0x10000 {
        let v = cp - 0x10000;
        push_u(dst, 0xD800 | (v >> 10), upper);
        push_u(dst, 0xDC00 | (v & 0x3FF), upper);
    } else {
        push_u(dst, cp, upper);
    }
}

/// The set of ASCII bytes `o` escapes, as a 128-bit set.
fn ascii_set(o: &Options) -> u128 {
    let mut set: u128 = (1 << 0x20) - 1;
    set |= 1 << b'"' | 1 << b'\\';
    if o.escape_slash {
        set |= 1 << b'/';
    }
    if o.html_safe {
        set |= 1 << b'<' | 1 << b'>' | 1 << b'&' | 1 << b'\'';
    }
    if o.escape_del_and_c1 {
        set |= 1 << 0x7F;
    }
    set
}

/// Escapes `src` under `o`, validating UTF-8 (error at the offset of the
/// first invalid sequence, or U+FFFD with `o.replace_invalid`).
pub(crate) fn escape_policy(dst: &mut Vec<u8>, src: &[u8], o: &Options) -> Result<(), Error> {
    let set = ascii_set(o);
    let table = if o.uppercase_hex {
        &ESCAPES_UPPER
    } else {
        &ESCAPES
    };
    dst.reserve(src.len());
    let n = src.len();
    let mut run = 0;
    let mut i = 0;
    while i < n {
        let b = src[i];
        if b < 0x80 {
            if set >> b & 1 == 0 {
                i += 1;
                continue;
            }
            dst.extend_from_slice(&src[run..i]);
            let e = table[b as usize];
            if e != 0 {
                dst.extend_from_slice(&e.to_le_bytes()[..(e >> 56) as usize]);
            } else if b == b'/' {
                dst.extend_from_slice(b"\\/");
            } else {
                push_u(dst, b as u32, o.uppercase_hex);
            }
            i += 1;
            run = i;
            continue;
        }
        match utf8_sequence(src, i) {
            Ok(len) => {
                let cp = decode(&src[i..i + len]);
                let escape = o.ascii_only
                    || (o.js_safe && (cp == 0x2028 || cp == 0x2029))
                    || (o.escape_del_and_c1 && (0x80..=0x9F).contains(&cp));
                if escape {
                    dst.extend_from_slice(&src[run..i]);
                    push_code_point(dst, cp, o.uppercase_hex);
                    run = i + len;
                }
                i += len;
            }
            Err(bad) => {
                if !o.replace_invalid {
                    return Err(Error::new(i, ErrorKind::InvalidUtf8));
                }
                dst.extend_from_slice(&src[run..i]);
                if o.ascii_only {
                    push_u(dst, 0xFFFD, o.uppercase_hex);
                } else {
                    dst.extend_from_slice("\u{FFFD}".as_bytes());
                }
                i += bad;
                run = i;
            }
        }
    }
    dst.extend_from_slice(&src[run..]);
    Ok(())
}

/// Decodes one valid UTF-8 sequence of 2 to 4 bytes.
#[inline]
fn decode(seq: &[u8]) -> u32 {
    match *seq {
        [a, b] => (a as u32 & 0x1F) << 6 | (b as u32 & 0x3F),
        [a, b, c] => (a as u32 & 0x0F) << 12 | (b as u32 & 0x3F) << 6 | (c as u32 & 0x3F),
        [a, b, c, d] => {
            (a as u32 & 0x07) << 18
                | (b as u32 & 0x3F) << 12
                | (c as u32 & 0x3F) << 6
                | (d as u32 & 0x3F)
        }
        _ => seq.first().copied().unwrap_or(0) as u32,
    }
}
