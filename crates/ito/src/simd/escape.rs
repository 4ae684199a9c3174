//! The one decoder of JSON escapes (`\n`, `\"`, `\u00e9`, surrogate
//! pairs), shared by `json` and `nostr`, and the faults it reports.
//!
//! Two doors over the same tables ([`HEX`], [`SIMPLE`]):
//!
//! - [`escape_at`]: the kernels' fast form. One 8-byte load answers the
//!   common escapes (`\X` and `\u00XX`) with table look-ups; the rest is
//!   four digit look-ups and a UTF-8 encode written straight to the
//!   output. It only says "not a valid escape" (`None`), which includes a
//!   lone surrogate, so the block kernels carry no error detail.
//! - [`decode_escape`]: the scalar form with the caller's surrogate policy
//!   (reject, replace with U+FFFD, keep as WTF-8) and the exact [`Fault`].
//!   The UTF-8 unescaper (`json::unescape`/`unquote`) falls back to it when
//!   `escape_at` declines, `nostr` validates string text with it, and
//!   [`fault_at`] turns the offset where any kernel stopped into a fault.
//!
//! One rule for every caller: an escape cut off by the end of the input
//! while what is there could still start a valid one (`\`, `\u`, `\u12`)
//! is [`FaultKind::UnexpectedEnd`]; `\u` followed by anything else that
//! is not four hex digits is [`FaultKind::InvalidUnicodeEscape`]; a high
//! surrogate not followed by `\u` and a low one is a lone surrogate.

use std::ptr;

use super::fault::{Fault, FaultKind};

/// Value of each hex digit (either case), 0xff for other bytes.
pub(crate) static HEX: [u8; 256] = {
    let mut t = [0xffu8; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = match c as u8 {
            b'0'..=b'9' => c as u8 - b'0',
            b'a'..=b'f' => c as u8 - b'a' + 10,
            b'A'..=b'F' => c as u8 - b'A' + 10,
            _ => 0xff,
        };
        c += 1;
    }
    t
};

/// What a two-byte escape `\X` decodes to, indexed by `X`; 0 when it is
/// not one (`u` included).
pub(crate) static SIMPLE: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t[b'/' as usize] = b'/';
    t[b'b' as usize] = 0x08;
    t[b'f' as usize] = 0x0c;
    t[b'n' as usize] = b'\n';
    t[b'r' as usize] = b'\r';
    t[b't' as usize] = b'\t';
    t
};

/// Four hex digits at `p`, or a value with bits above 16 set if any is not
/// a hex digit.
///
/// # Safety
/// `p..p + 4` must be readable.
#[inline(always)]
unsafe fn hex4_at(p: *const u8) -> u32 {
    // SAFETY: the caller guarantees four readable bytes.
    let (a, b, c, d) = unsafe {
        (
            HEX[*p as usize] as u32,
            HEX[*p.add(1) as usize] as u32,
            HEX[*p.add(2) as usize] as u32,
            HEX[*p.add(3) as usize] as u32,
        )
    };
    // An invalid digit (0xff) leaves bits 4..8 set in its lane; fold them
    // into bits above 16.
    ((a << 12) | (b << 8) | (c << 4) | d) | ((a | b | c | d) & 0xf0) << 16
}

/// Decodes the escape at `src[i] == b'\\'` and writes its bytes at `o`.
/// Returns `(escape length, bytes written)`, or `None` if it is invalid or
/// cut off. Every read of the escape happens before any write, and at most
/// `escape length` bytes are written, so `o` may trail `src + i` in the same
/// buffer.
///
/// # Safety
/// `src..src + n` readable, `i < n`; `o..o + 4` writable (for a `\u`
/// escape) or `o..o + 1` (for a two-byte one), and `o + 4 <= src + i + 6`
/// when they share a buffer.
#[inline(always)]
pub(crate) unsafe fn escape_at(
    src: *const u8,
    n: usize,
    i: usize,
    o: *mut u8,
) -> Option<(usize, usize)> {
    if i + 8 <= n {
        // The common escapes from one 8-byte load: `\X` and `\u00XX`.
        // SAFETY: i + 8 <= n.
        let x = u64::from_le_bytes(unsafe { ptr::read_unaligned(src.add(i) as *const [u8; 8]) });
        let simple = SIMPLE[(x >> 8) as u8 as usize];
        if simple != 0 {
            // SAFETY: one writable byte at o.
            unsafe { *o = simple };
            return Some((2, 1));
        }
        if x as u32 == u32::from_le_bytes(*b"\\u00") {
            let hi = HEX[(x >> 32) as u8 as usize];
            let lo = HEX[(x >> 40) as u8 as usize];
            if (hi | lo) < 16 {
                let v = (hi << 4) | lo;
                // SAFETY: at most 2 bytes at o, after all reads.
                unsafe {
                    if v < 0x80 {
                        *o = v;
                        return Some((6, 1));
                    }
                    *o = 0xc0 | (v >> 6);
                    *o.add(1) = 0x80 | (v & 0x3f);
                }
                return Some((6, 2));
            }
        }
    }
    if i + 1 >= n {
        return None;
    }
    // SAFETY: i + 1 < n.
    let c = unsafe { *src.add(i + 1) };
    let simple = SIMPLE[c as usize];
    if simple != 0 {
        // SAFETY: one writable byte at o.
        unsafe { *o = simple };
        return Some((2, 1));
    }
    if c != b'u' || i + 6 > n {
        return None;
    }
    // SAFETY: i + 6 <= n.
    let cp = unsafe { hex4_at(src.add(i + 2)) };
    let (bytes, k, len): (u32, usize, usize) = if cp < 0x80 {
        (cp, 1, 6)
    } else if cp < 0x800 {
        (0x80c0 | (cp >> 6) | (cp & 0x3f) << 8, 2, 6)
    } else if !(0xd800..=0xdfff).contains(&cp) {
        if cp > 0xffff {
            return None; // a non-hex digit
        }
        (
            0x0080_80e0 | (cp >> 12) | ((cp >> 6) & 0x3f) << 8 | (cp & 0x3f) << 16,
            3,
            6,
        )
    } else {
        // A surrogate: only a high one followed by `\u` and a low one.
        if cp >= 0xdc00 || i + 12 > n {
            return None;
        }
        // SAFETY: i + 12 <= n.
        let (b6, b7, lo) = unsafe { (*src.add(i + 6), *src.add(i + 7), hex4_at(src.add(i + 8))) };
        if b6 != b'\\' || b7 != b'u' || !(0xdc00..=0xdfff).contains(&lo) {
            return None;
        }
        let v = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        (
            0x8080_80f0
                | (v >> 18)
                | ((v >> 12) & 0x3f) << 8
                | ((v >> 6) & 0x3f) << 16
                | (v & 0x3f) << 24,
            4,
            12,
        )
    };
    // SAFETY: four writable bytes at o (all reads are done above).
    unsafe { ptr::write_unaligned(o as *mut [u8; 4], bytes.to_le_bytes()) };
    Some((len, k))
}

/// Four hex digits at `src[at..at + 4]`, or `None` if cut off or not hex.
#[inline(always)]
fn hex4(src: &[u8], at: usize) -> Option<u32> {
    let d = src.get(at..at + 4)?;
    let (a, b, c, e) = (
        HEX[d[0] as usize],
        HEX[d[1] as usize],
        HEX[d[2] as usize],
        HEX[d[3] as usize],
    );
    if (a | b | c | e) & 0xf0 != 0 {
        return None;
    }
    Some(((a as u32) << 12) | ((b as u32) << 8) | ((c as u32) << 4) | e as u32)
}

/// What to do with a `\uXXXX` surrogate that is not part of a pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Surrogates {
    /// A [`FaultKind::LoneSurrogate`] fault.
    #[default]
    Reject,
    /// Decode to U+FFFD.
    Replace,
    /// Decode to the surrogate itself (WTF-8 once encoded).
    Wtf8,
}

/// Decodes the escape at `src[at] == b'\\'`: the code point it stands for
/// and its length in bytes (2, 6, or 12 for a surrogate pair). A lone
/// surrogate gives U+FFFD or the surrogate itself under the lenient
/// [`Surrogates`] policies.
#[inline]
pub(crate) fn decode_escape(
    src: &[u8],
    at: usize,
    surrogates: Surrogates,
) -> Result<(u32, usize), Fault> {
    let Some(&c) = src.get(at + 1) else {
        return Err(Fault::new(at, FaultKind::UnexpectedEnd));
    };
    let simple = SIMPLE[c as usize];
    if simple != 0 {
        return Ok((simple as u32, 2));
    }
    if c != b'u' {
        return Err(Fault::new(at, FaultKind::InvalidEscape(c)));
    }
    let Some(cp) = hex4(src, at + 2) else {
        return Err(bad_unicode(src, at));
    };
    let lone = |cp: u32| match surrogates {
        Surrogates::Reject => Err(Fault::new(at, FaultKind::LoneSurrogate(cp as u16))),
        Surrogates::Replace => Ok((0xFFFD, 6)),
        Surrogates::Wtf8 => Ok((cp, 6)),
    };
    match cp {
        0xd800..=0xdbff => {
            if src.get(at + 6) == Some(&b'\\') && src.get(at + 7) == Some(&b'u') {
                if let Some(lo @ 0xdc00..=0xdfff) = hex4(src, at + 8) {
                    return Ok((0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00), 12));
                }
            }
            lone(cp)
        }
        0xdc00..=0xdfff => lone(cp),
        _ => Ok((cp, 6)),
    }
}

/// The fault of a `\u` at `at` that is not followed by four hex digits.
#[cold]
#[inline(never)]
fn bad_unicode(src: &[u8], at: usize) -> Fault {
    let rest = &src[at + 2..];
    let kind = if rest.len() < 4 && rest.iter().all(u8::is_ascii_hexdigit) {
        FaultKind::UnexpectedEnd
    } else {
        FaultKind::InvalidUnicodeEscape
    };
    Fault::new(at, kind)
}

/// The fault at `src[at]`, where a string kernel stopped: a `\` that does
/// not start a valid escape (under [`Surrogates::Reject`]), a raw `"` or a
/// raw control byte; the end of the input if `at == src.len()`.
#[cold]
#[inline(never)]
pub(crate) fn fault_at(src: &[u8], at: usize) -> Fault {
    let kind = match src.get(at) {
        Some(b'\\') => match decode_escape(src, at, Surrogates::Reject) {
            Err(f) => return f,
            // The kernels and this decoder agree on every input (tested);
            // keep a sensible fault if they ever did not.
            Ok(_) => FaultKind::InvalidUnicodeEscape,
        },
        Some(b'"') => FaultKind::UnescapedQuote,
        Some(&c) => FaultKind::ControlCharacter(c),
        None => FaultKind::UnexpectedEnd,
    };
    Fault::new(at, kind)
}

/// Encodes `cp` (< 0x110000; surrogates give their WTF-8 form) into `buf`,
/// returning the length.
#[inline(always)]
pub(crate) fn encode_utf8(cp: u32, buf: &mut [u8; 4]) -> usize {
    if cp < 0x80 {
        buf[0] = cp as u8;
        1
    } else if cp < 0x800 {
        buf[0] = 0xC0 | (cp >> 6) as u8;
        buf[1] = 0x80 | (cp & 0x3F) as u8;
        2
    } else if cp < 0x10000 {
        buf[0] = 0xE0 | (cp >> 12) as u8;
        buf[1] = 0x80 | ((cp >> 6) & 0x3F) as u8;
        buf[2] = 0x80 | (cp & 0x3F) as u8;
        3
    } else {
        buf[0] = 0xF0 | (cp >> 18) as u8;
        buf[1] = 0x80 | ((cp >> 12) & 0x3F) as u8;
        buf[2] = 0x80 | ((cp >> 6) & 0x3F) as u8;
        buf[3] = 0x80 | (cp & 0x3F) as u8;
        4
    }
}
