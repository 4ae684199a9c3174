//! JSON string literals: render strings as JSON ([`quote`], [`escape`]) and
//! read them back ([`unquote`], [`unescape`]), with one-pass SIMD kernels.
//! On top of them, whole documents: the typed streaming [`Writer`] (std
//! only; structurally invalid JSON cannot be written through its safe API),
//! [`RawJson`] fragments written verbatim, and with the `serde` feature a
//! serializer (`to_vec`, `to_writer`, `to_vec_pretty`, `*_with`
//! [`Options`]; the `ser` module) byte-identical with serde_json. Lazy
//! access ([`get`], [`get_many`]; the [`lazy`] module) finds values by
//! path of keys and indices without parsing the rest of a document.
//!
//! ```
//! let mut out = Vec::new();
//! let mut msg = ito::json::Writer::new(&mut out).array();
//! msg.push("OK").push("ab12").push(true).push("");
//! msg.end();
//! assert_eq!(out, br#"["OK","ab12",true,""]"#);
//! ```
//!
//! ```
//! use ito::json;
//! let mut out = Vec::new();
//! json::quote(&mut out, "say \"hi\"\n");
//! assert_eq!(out, br#""say \"hi\"\n""#);
//!
//! let (value, used) = json::unquote(&out).unwrap();
//! assert_eq!(value, "say \"hi\"\n");
//! assert_eq!(used, out.len());
//! ```
//!
//! # Policy
//!
//! [`quote`]/[`escape`] use RFC 8259's minimal escaping, byte for byte what
//! `serde_json` writes: `\"`, `\\`, `\b \f \n \r \t`, every other byte below
//! 0x20 as lowercase `\u00xx`, everything else verbatim. [`Options`] opts into
//! more (ASCII-only output, `\/`, HTML- and JavaScript-safe output, DEL/C1,
//! uppercase hex).
//!
//! Decoding ([`unescape`], [`unquote`]) accepts exactly RFC 8259 string
//! contents: raw control characters, unknown escapes, malformed `\u`, lone
//! surrogate escapes, a raw `"` inside the text and invalid UTF-8 are
//! errors naming the byte offset ([`Error`]). [`unescape_with`] can replace
//! invalid UTF-8 and lone surrogates with U+FFFD, or keep lone surrogates as
//! WTF-8.
//!
//! JSONTestSuite's implementation-defined (`i_string_*`) cases, and what ito
//! does with each (tested in `tests/json_testsuite.rs`):
//!
//! | case | default | `replace_invalid` | `wtf8` |
//! |---|---|---|---|
//! | lone or unpaired surrogate escapes (`1st_surrogate_but_2nd_missing`, `1st_valid_surrogate_2nd_invalid`, `incomplete_surrogate_and_escape_valid`, `incomplete_surrogate_pair`, `incomplete_surrogates_escape_valid`, `invalid_lonely_surrogate`, `invalid_surrogate`, `inverted_surrogates_U+1D11E`, `lone_second_surrogate`) | error `LoneSurrogate` | U+FFFD per lone surrogate | the surrogate's WTF-8 bytes |
//! | invalid UTF-8 bytes (`UTF-8_invalid_sequence`, `UTF8_surrogate_U+D800`, `invalid_utf-8`, `iso_latin_1`, `lone_utf8_continuation_byte`, `not_in_unicode_range`, `overlong_sequence_*`, `truncated-utf-8`) | error `InvalidUtf8` | U+FFFD per maximal invalid subpart (as `String::from_utf8_lossy`) | error `InvalidUtf8` |
//! | UTF-16 documents (`UTF-16LE_with_BOM`, `utf16BE_no_BOM`, `utf16LE_no_BOM`) | rejected: ito reads UTF-8 only, the string does not start with `"` or holds raw NUL bytes | same | same |
//!
//! # How it works
//!
//! Escaping and unescaping both hunt for the same bytes (`"`, `\`, and the
//! controls below 0x20), and both are one pass over the input:
//!
//! ```text
//! loop:
//!     load a block (16/32/64 bytes), store it to dst unconditionally
//!     mask = which bytes are special
//!     if mask == 0: advance a whole block
//!     else: advance to the first special byte, escape (or decode) it,
//!           continue right after it
//! ```
//!
//! Clean text costs a load, a store and three compares per block. A block
//! with many escapes (at least one byte in eight) is instead translated
//! byte by byte through a branch-free table (each byte stores 8 bytes and
//! advances by its escaped length), so escape-dense text does not pay one
//! block step per escape. Kernels exist for AVX-512BW, AVX2, SSE2 (x86_64),
//! NEON (aarch64) and portable 8-byte SWAR; the best is chosen at compile
//! time when the build guarantees it, else detected once and cached.
//!
//! Short strings dominate real JSON (the median string of twitter.json and
//! citm_catalog.json is 8 bytes) and there the call is the cost, so clean
//! inputs never reach a kernel when they are short: up to 16 bytes the
//! inlined entry point checks two overlapping 8-byte words (one SSE2
//! compare on x86_64), 17..=32 bytes two overlapping 16-byte vectors, and
//! 17..=64 bytes (out of line, before dispatch) four overlapping ones with
//! no length-dependent branch; each stores into spare capacity while it
//! checks and commits the length only if nothing needed escaping (the
//! 17..=64 path instead resumes the kernel at the first escape). Builds
//! that guarantee AVX2/AVX-512/NEON call that kernel directly; portable
//! builds detect the CPU once. Tails never read past the input: overlapping reloads,
//! masked loads on AVX-512, or a padded copy. `dst` grows by what the next
//! block needs (amortised by `Vec`), never by 6× the input up front.
//!
//! [`unescape`] checks UTF-8 run by run: runs between escapes that contained
//! a byte >= 0x80 (a flag kept by the kernel) go through
//! `std::str::from_utf8` (which has its own ASCII fast path); pure-ASCII
//! runs are not looked at again. [`unquote`] scans the first 16 bytes
//! inline before dispatching (most literals end there) and borrows when
//! there is no escape; [`unquote_str`] skips validation for `&str` input.
//! [`quote_bytes`] validates inside the escaping loop: bytes >= 0x80 join
//! the mask, and each non-ASCII run is walked sequence by sequence.
//!
//! The `*_with_kernel` functions force one kernel, for tests and benchmarks;
//! [`Kernel::Scalar`] is a plain byte-at-a-time reference written apart from
//! the block loop.
//!
//! Not built, and why: the [`Options`] policies have no vector kernels of
//! their own (a table-driven scalar loop that copies clean runs in bulk;
//! they are rarely hot, and keeping them out of the kernels is what keeps
//! the default path free of them). UTF-8 validation is `std`'s per run (or
//! a sequence walk in `quote_bytes`), not a SIMD validator, so
//! `quote_bytes`/`unquote` on mostly non-ASCII text run at `std`'s
//! validation speed rather than at copy speed. There is no slice-writing
//! (`&mut [u8]`) variant yet.

#[cfg(feature = "serde")]
pub mod de;
mod emit;
mod error;
pub mod layout;
pub mod lazy;
mod literals;
mod options;
mod policy;
mod raw;
#[cfg(feature = "serde")]
pub mod ser;
pub mod value;
mod writer;

use std::borrow::Cow;

pub use crate::str::quote_str;
#[cfg(feature = "serde")]
pub use de::{from_reader, from_slice, from_str, Deserializer, StreamDeserializer};
pub use error::{Error, ErrorKind};
pub use lazy::{get, get_many, line_column, PathItem};
pub use literals::{literals, Literals};
pub use options::Options;
pub use raw::{RawJson, MAX_DEPTH};
#[cfg(feature = "serde")]
pub use ser::{
    to_string, to_string_pretty, to_string_with, to_vec, to_vec_pretty, to_vec_pretty_with,
    to_vec_with, to_writer, to_writer_pretty, to_writer_pretty_with, to_writer_with, Output,
    Serializer,
};
pub use value::{Arena, Map, Number, Text, Value, ValueIndex};
pub use writer::{Array, DefaultEscaping, Escaping, Key, Object, Scalar, WithOptions, Writer};

use crate::simd::fault::Fault;
use crate::simd::json::{self as kernels, swar_special, Kernels, UnescapeMode};
use crate::Kernel;

/// Writes a clean input of at most 16 bytes (optionally quoted) with
/// overlapping SWAR loads and stores and no dispatch (17..=32 bytes: two
/// overlapping 16-byte vectors on x86_64/aarch64); `false` (nothing
/// written) if the input is longer or has a byte that needs escaping.
#[inline(always)]
fn short_clean<const QUOTES: bool>(dst: &mut Vec<u8>, b: &[u8]) -> bool {
    let n = b.len();
    if n > 16 {
        return kernels::pair_clean::<QUOTES>(dst, b);
    }
    let p = b.as_ptr();
    let q = QUOTES as usize;
    let read8 = |at: usize| -> u64 {
        // SAFETY: callers pass at + 8 <= n.
        u64::from_le_bytes(unsafe { (p.add(at) as *const [u8; 8]).read_unaligned() })
    };
    let read4 = |at: usize| -> u32 {
        // SAFETY: callers pass at + 4 <= n.
        u32::from_le_bytes(unsafe { (p.add(at) as *const [u8; 4]).read_unaligned() })
    };
    if n >= 8 {
        let (lo, hi) = (read8(0), read8(n - 8));
        if kernels::special_pair(lo, hi) {
            return false;
        }
        dst.reserve(n + 2 * q);
        // SAFETY: n + 2q bytes of spare capacity were reserved; the two
        // 8-byte stores cover [q, q + n) (overlapping when n < 16).
        unsafe {
            let o = dst.as_mut_ptr().add(dst.len());
            if QUOTES {
                *o = b'"';
                *o.add(q + n) = b'"';
            }
            (o.add(q) as *mut [u8; 8]).write_unaligned(lo.to_le_bytes());
            (o.add(q + n - 8) as *mut [u8; 8]).write_unaligned(hi.to_le_bytes());
            dst.set_len(dst.len() + n + 2 * q);
        }
    } else if n >= 4 {
        let (lo, hi) = (read4(0), read4(n - 4));
        if swar_special(lo as u64 | (hi as u64) << 32) != 0 {
            return false;
        }
        dst.reserve(n + 2 * q);
        // SAFETY: as above, with two 4-byte stores covering [q, q + n).
        unsafe {
            let o = dst.as_mut_ptr().add(dst.len());
            if QUOTES {
                *o = b'"';
                *o.add(q + n) = b'"';
            }
            (o.add(q) as *mut [u8; 4]).write_unaligned(lo.to_le_bytes());
            (o.add(q + n - 4) as *mut [u8; 4]).write_unaligned(hi.to_le_bytes());
            dst.set_len(dst.len() + n + 2 * q);
        }
    } else {
        // 0..=3 bytes: first, middle and last byte (some coincide).
        let (x0, x1, x2) = if n == 0 {
            (b' ', b' ', b' ')
        } else {
            (b[0], b[n / 2], b[n - 1])
        };
        let word = u64::from_le_bytes([x0, x1, x2, b' ', b' ', b' ', b' ', b' ']);
        if swar_special(word) != 0 {
            return false;
        }
        dst.reserve(n + 2 * q);
        // SAFETY: n + 2q bytes reserved; the byte stores stay in [q, q + n)
        // and the quotes at 0 and q + n exist only when QUOTES.
        unsafe {
            let o = dst.as_mut_ptr().add(dst.len());
            if QUOTES {
                *o = b'"';
                *o.add(q + n) = b'"';
            }
            if n > 0 {
                *o.add(q) = x0;
                *o.add(q + n / 2) = x1;
                *o.add(q + n - 1) = x2;
            }
            dst.set_len(dst.len() + n + 2 * q);
        }
    }
    true
}

/// [`short_clean`]`::<true>` for at most 16 bytes, into memory already
/// reserved: writes `"b"` at `o` and returns its length (`b.len() + 2`),
/// or `None` (nothing written) if `b` is longer or needs escaping.
///
/// # Safety
/// `o` must be writable for 18 bytes.
#[inline(always)]
pub(crate) unsafe fn quoted_short_at(o: *mut u8, b: &[u8]) -> Option<usize> {
    let n = b.len();
    let p = b.as_ptr();
    // SAFETY: reads: each branch reads [at, at + 8) or [at, at + 4) with
    // at + 8 <= n (resp. at + 4 <= n) by its length test; writes: the
    // caller gives 18 >= n + 2 bytes at `o`; the quotes are at 0 and
    // n + 1, the word stores inside [1, 1 + n); written only when clean.
    unsafe {
        if n > 16 {
            return None;
        }
        if n >= 8 {
            let lo = u64::from_le_bytes((p as *const [u8; 8]).read_unaligned());
            let hi = u64::from_le_bytes((p.add(n - 8) as *const [u8; 8]).read_unaligned());
            if kernels::special_pair(lo, hi) {
                return None;
            }
            (o.add(1) as *mut [u8; 8]).write_unaligned(lo.to_le_bytes());
            (o.add(n - 7) as *mut [u8; 8]).write_unaligned(hi.to_le_bytes());
        } else if n >= 4 {
            let lo = u32::from_le_bytes((p as *const [u8; 4]).read_unaligned());
            let hi = u32::from_le_bytes((p.add(n - 4) as *const [u8; 4]).read_unaligned());
            if swar_special(lo as u64 | (hi as u64) << 32) != 0 {
                return None;
            }
            (o.add(1) as *mut [u8; 4]).write_unaligned(lo.to_le_bytes());
            (o.add(n - 3) as *mut [u8; 4]).write_unaligned(hi.to_le_bytes());
        } else if n > 0 {
            let (x0, x1, x2) = (b[0], b[n / 2], b[n - 1]);
            let word = u64::from_le_bytes([x0, x1, x2, b' ', b' ', b' ', b' ', b' ']);
            if swar_special(word) != 0 {
                return None;
            }
            *o.add(1) = x0;
            *o.add(1 + n / 2) = x1;
            *o.add(n) = x2;
        }
        *o = b'"';
        *o.add(n + 1) = b'"';
    }
    Some(n + 2)
}

#[inline(always)]
fn quote_long(dst: &mut Vec<u8>, b: &[u8]) {
    kernels::escape_medium::<true>(dst, b);
}

#[inline(never)]
fn escape_long(dst: &mut Vec<u8>, b: &[u8]) {
    kernels::escape_medium::<false>(dst, b);
}

/// Appends `s` as a JSON string literal (with quotes), using RFC 8259's
/// minimal escaping; the bytes equal `serde_json`'s for every `&str`.
///
/// ```
/// let mut out = Vec::new();
/// ito::json::quote(&mut out, "tab\there, é, \u{1}");
/// assert_eq!(out, "\"tab\\there, é, \\u0001\"".as_bytes());
/// ```
#[inline]
pub fn quote(dst: &mut Vec<u8>, s: &str) {
    if short_clean::<true>(dst, s.as_bytes()) {
        return;
    }
    quote_long(dst, s.as_bytes());
}

/// Appends the escaped text of `s` without the surrounding quotes (the
/// inside of [`quote`]'s output).
///
/// ```
/// let mut out = b"key: ".to_vec();
/// ito::json::escape(&mut out, "a\\b");
/// assert_eq!(out, br"key: a\\b");
/// ```
#[inline]
pub fn escape(dst: &mut Vec<u8>, s: &str) {
    if short_clean::<false>(dst, s.as_bytes()) {
        return;
    }
    escape_long(dst, s.as_bytes());
}

/// The default escaping on arbitrary bytes: `"`, `\` and controls escaped,
/// bytes >= 0x80 copied verbatim with no UTF-8 check. This is NIP-01's
/// escaping for Nostr events; for text, use [`escape`].
#[inline]
#[allow(dead_code)]
pub(crate) fn escape_bytes(dst: &mut Vec<u8>, src: &[u8]) {
    if short_clean::<false>(dst, src) {
        return;
    }
    escape_long(dst, src);
}

/// Whether [`escape`] would change `s`, i.e. whether it holds a `"`, a `\`
/// or a byte below 0x20. (Bytes >= 0x80 are not checked for UTF-8.)
///
/// ```
/// assert!(!ito::json::needs_escape(b"plain text, \xC3\xA9"));
/// assert!(ito::json::needs_escape(b"line\n"));
/// ```
#[inline]
pub fn needs_escape(s: &[u8]) -> bool {
    if s.len() <= 16 {
        return s.iter().any(|&b| crate::simd::class::is_special(b));
    }
    // SAFETY: `best()` only returns kernels the CPU supports.
    unsafe { (kernels::best().scan)(s).0 < s.len() }
}

/// Appends `s` as a JSON string literal under `options` (see [`Options`]).
/// `Options::default()` gives exactly [`quote`]'s output, through the same
/// kernels.
///
/// ```
/// use ito::json::{quote_with, Options};
/// let mut out = Vec::new();
/// quote_with(&mut out, "</script>😀", &Options::new().escape_slash(true).ascii_only(true));
/// assert_eq!(out, br#""<\/script>\ud83d\ude00""#);
/// ```
pub fn quote_with(dst: &mut Vec<u8>, s: &str, options: &Options) {
    if options.default_escaping() {
        return quote(dst, s);
    }
    dst.push(b'"');
    // A &str is valid UTF-8, so the policy path cannot fail.
    let _ = policy::escape_policy(dst, s.as_bytes(), options);
    dst.push(b'"');
}

/// [`escape`] under `options`: [`quote_with`] without the quotes.
///
/// ```
/// use ito::json::{escape_with, Options};
/// let mut out = Vec::new();
/// escape_with(&mut out, "a&b", &Options::new().html_safe(true));
/// assert_eq!(out, br"a\u0026b");
/// ```
pub fn escape_with(dst: &mut Vec<u8>, s: &str, options: &Options) {
    if options.default_escaping() {
        return escape(dst, s);
    }
    let _ = policy::escape_policy(dst, s.as_bytes(), options);
}

/// Appends `s`, which is not known to be UTF-8, as a JSON string literal
/// under `options`, validating UTF-8 in the same pass.
///
/// Invalid UTF-8 is an [`ErrorKind::InvalidUtf8`] error at the offset of
/// the first bad byte (and `dst` is left as it was), or U+FFFD per maximal
/// invalid subpart with [`Options::replace_invalid`].
///
/// ```
/// use ito::json::{quote_bytes, ErrorKind, Options};
/// let mut out = Vec::new();
/// let err = quote_bytes(&mut out, b"ok\xFFno", &Options::default()).unwrap_err();
/// assert_eq!((err.offset(), err.kind()), (2, ErrorKind::InvalidUtf8));
/// assert!(out.is_empty());
///
/// quote_bytes(&mut out, b"ok\xFFno", &Options::new().replace_invalid(true)).unwrap();
/// assert_eq!(out, "\"ok\u{FFFD}no\"".as_bytes());
/// ```
pub fn quote_bytes(dst: &mut Vec<u8>, s: &[u8], options: &Options) -> Result<(), Error> {
    quote_bytes_impl(kernels::best(), dst, s, options)
}

fn quote_bytes_impl(
    k: &Kernels,
    dst: &mut Vec<u8>,
    s: &[u8],
    options: &Options,
) -> Result<(), Error> {
    let start = dst.len();
    dst.reserve(s.len() + 2);
    dst.push(b'"');
    let result = if options.default_escaping() {
        // SAFETY: `k` comes from `best()` or `kernels_for`, which only return
        // kernels the CPU supports.
        unsafe { (k.escape_utf8)(dst, s, options.replace_invalid) }.map_err(Error::from)
    } else {
        policy::escape_policy(dst, s, options)
    };
    match result {
        Ok(()) => {
            dst.push(b'"');
            Ok(())
        }
        Err(e) => {
            dst.truncate(start);
            Err(e)
        }
    }
}

/// Appends the decoded value of `src`, the text between a JSON string's
/// quotes, to `dst`.
///
/// Every JSON escape is decoded, surrogate pairs included. Raw control
/// characters, a raw `"`, unknown escapes, malformed `\u`, lone surrogates
/// and invalid UTF-8 are errors (and `dst` is left as it was); see
/// [`unescape_with`] for lenient decoding. On success the appended bytes are
/// valid UTF-8.
///
/// ```
/// let mut out = Vec::new();
/// ito::json::unescape(&mut out, br"caf\u00e9 \ud83d\ude00\n").unwrap();
/// assert_eq!(out, "café 😀\n".as_bytes());
///
/// let err = ito::json::unescape(&mut out, br"bad \x").unwrap_err();
/// assert_eq!(err.to_string(), r"invalid escape `\x` at byte 4");
/// ```
#[inline]
pub fn unescape(dst: &mut Vec<u8>, src: &[u8]) -> Result<(), Error> {
    unescape_impl(kernels::best(), dst, src, &Options::new())
}

/// [`unescape`] with lenient decoding: [`Options::replace_invalid`] turns
/// invalid UTF-8 and lone surrogate escapes into U+FFFD;
/// [`Options::wtf8`] keeps lone surrogates as WTF-8 (the output is then not
/// necessarily UTF-8). The escaping fields of `options` are ignored. Syntax
/// errors (control characters, bad escapes, raw quotes) are still errors.
///
/// ```
/// use ito::json::{unescape_with, Options};
/// let mut out = Vec::new();
/// unescape_with(&mut out, br"\ud800!", &Options::new().replace_invalid(true)).unwrap();
/// assert_eq!(out, "\u{FFFD}!".as_bytes());
///
/// out.clear();
/// unescape_with(&mut out, br"\ud800", &Options::new().wtf8(true)).unwrap();
/// assert_eq!(out, b"\xED\xA0\x80");
/// ```
pub fn unescape_with(dst: &mut Vec<u8>, src: &[u8], options: &Options) -> Result<(), Error> {
    unescape_impl(kernels::best(), dst, src, options)
}

fn unescape_impl(
    k: &Kernels,
    dst: &mut Vec<u8>,
    src: &[u8],
    options: &Options,
) -> Result<(), Error> {
    let start = dst.len();
    let mode = UnescapeMode {
        replace: options.replace_invalid,
        wtf8: options.wtf8,
        stop_at_quote: false,
        trusted: false,
    };
    // SAFETY: `k` only ever comes from `best()`/`kernels_for`, which return
    // kernels the CPU supports.
    match unsafe { (k.unescape)(dst, src, 0, mode) } {
        Ok(_) => Ok(()),
        Err(f) => {
            dst.truncate(start);
            Err(f.into())
        }
    }
}

/// Reads one JSON string literal from the start of `src` (which must begin
/// with `"`), returning its value and the number of bytes consumed through
/// the closing quote. Bytes after the closing quote are not looked at.
///
/// When the literal has no escapes the value borrows from `src` and nothing
/// is allocated. Errors as in [`unescape`], plus [`ErrorKind::MissingQuote`]
/// and [`ErrorKind::Unterminated`]; offsets count from the start of `src`.
///
/// ```
/// use std::borrow::Cow;
/// let (v, used) = ito::json::unquote(br#""plain", 1]"#).unwrap();
/// assert!(matches!(v, Cow::Borrowed("plain")));
/// assert_eq!(used, 7);
///
/// let (v, used) = ito::json::unquote(br#""a\"b""#).unwrap();
/// assert_eq!((v.as_ref(), used), ("a\"b", 6));
/// ```
pub fn unquote(src: &[u8]) -> Result<(Cow<'_, str>, usize), Error> {
    unquote_impl(kernels::best(), src, false)
}

/// [`unquote`] for input already known to be UTF-8 (for example a `&str`
/// document being parsed): the same result, minus the UTF-8 validation.
///
/// ```
/// let doc = r#"{"name": "café!"}"#;
/// let start = doc.find(": ").unwrap() + 2;
/// let (v, used) = ito::json::unquote_str(&doc[start..]).unwrap();
/// assert_eq!(v, "café!");
/// assert_eq!(&doc[start + used..], "}");
/// ```
pub fn unquote_str(src: &str) -> Result<(Cow<'_, str>, usize), Error> {
    unquote_impl(kernels::best(), src.as_bytes(), true)
}

#[inline]
fn unquote_impl<'a>(
    k: &'static Kernels,
    src: &'a [u8],
    trusted: bool,
) -> Result<(Cow<'a, str>, usize), Error> {
    let Some((&b'"', body)) = src.split_first() else {
        return Err(Error::new(0, ErrorKind::MissingQuote));
    };
    // Kernel offsets count from the body; ours from the opening quote.
    let shift = |f: Fault| Error::from(Fault::new(f.offset + 1, f.kind));
    let (i, hi) = kernels::scan_start(k, body);
    match body.get(i) {
        None => {
            if hi && !trusted {
                if let Err(at) = crate::simd::utf8::validate(body) {
                    return Err(Error::new(at + 1, ErrorKind::InvalidUtf8));
                }
            }
            Err(Error::new(src.len(), ErrorKind::Unterminated))
        }
        Some(b'"') => {
            let text = &body[..i];
            let value = if hi && !trusted {
                crate::simd::utf8::validate(text)
                    .map_err(|at| Error::new(at + 1, ErrorKind::InvalidUtf8))?
            } else {
                // SAFETY: either `hi` is false, so every byte of `text` is
                // ASCII, or the input is a `&str` and `text` lies between
                // two ASCII bytes (or the start) of it, hence is UTF-8.
                unsafe { std::str::from_utf8_unchecked(text) }
            };
            Ok((Cow::Borrowed(value), i + 2))
        }
        Some(b'\\') => {
            let mut out = Vec::with_capacity(i + 16);
            out.extend_from_slice(&body[..i]);
            let mode = UnescapeMode {
                replace: false,
                wtf8: false,
                stop_at_quote: true,
                trusted,
            };
            // SAFETY: as above.
            let end = unsafe { (k.unescape)(&mut out, body, i, mode) }.map_err(shift)?;
            // SAFETY: strict mode validated every verbatim run and encodes
            // only scalar values, so `out` is UTF-8.
            let value = unsafe { String::from_utf8_unchecked(out) };
            Ok((Cow::Owned(value), end + 2))
        }
        Some(&b) => {
            if hi && !trusted {
                if let Err(at) = crate::simd::utf8::validate(&body[..i]) {
                    return Err(Error::new(at + 1, ErrorKind::InvalidUtf8));
                }
            }
            Err(Error::new(i + 1, ErrorKind::ControlCharacter(b)))
        }
    }
}

fn forced(kernel: Kernel) -> &'static Kernels {
    match kernels::kernels_for(kernel) {
        Some(k) => k,
        None => panic!("the {kernel} kernel is not available on this CPU/build"),
    }
}

/// [`escape`] forced through one kernel, for tests and benchmarks.
///
/// # Panics
/// If `!kernel.is_available()`.
///
/// ```
/// for k in ito::Kernel::available() {
///     let mut out = Vec::new();
///     ito::json::escape_with_kernel(k, &mut out, "a\"b");
///     assert_eq!(out, br#"a\"b"#);
/// }
/// ```
pub fn escape_with_kernel(kernel: Kernel, dst: &mut Vec<u8>, s: &str) {
    // SAFETY: `forced` only returns available kernels.
    unsafe { (forced(kernel).escape)(dst, s.as_bytes()) }
}

/// [`quote_bytes`] forced through one kernel (non-default escaping options
/// use the scalar policy path whatever the kernel).
///
/// # Panics
/// If `!kernel.is_available()`.
///
/// ```
/// use ito::json::{quote_bytes_with_kernel, Options};
/// for k in ito::Kernel::available() {
///     let mut out = Vec::new();
///     quote_bytes_with_kernel(k, &mut out, b"\xC3\xA9", &Options::default()).unwrap();
///     assert_eq!(out, "\"é\"".as_bytes());
/// }
/// ```
pub fn quote_bytes_with_kernel(
    kernel: Kernel,
    dst: &mut Vec<u8>,
    s: &[u8],
    options: &Options,
) -> Result<(), Error> {
    quote_bytes_impl(forced(kernel), dst, s, options)
}

/// [`unescape_with`] forced through one kernel.
///
/// # Panics
/// If `!kernel.is_available()`.
///
/// ```
/// use ito::json::{unescape_with_kernel, Options};
/// for k in ito::Kernel::available() {
///     let mut out = Vec::new();
///     unescape_with_kernel(k, &mut out, br"\t", &Options::default()).unwrap();
///     assert_eq!(out, b"\t");
/// }
/// ```
pub fn unescape_with_kernel(
    kernel: Kernel,
    dst: &mut Vec<u8>,
    src: &[u8],
    options: &Options,
) -> Result<(), Error> {
    unescape_impl(forced(kernel), dst, src, options)
}

/// [`unquote`] forced through one kernel.
///
/// # Panics
/// If `!kernel.is_available()`.
///
/// ```
/// for k in ito::Kernel::available() {
///     let (v, n) = ito::json::unquote_with_kernel(k, br#""x\u0041""#).unwrap();
///     assert_eq!((v.as_ref(), n), ("xA", 9));
/// }
/// ```
pub fn unquote_with_kernel(kernel: Kernel, src: &[u8]) -> Result<(Cow<'_, str>, usize), Error> {
    unquote_impl(forced(kernel), src, false)
}

/// [`needs_escape`] forced through one kernel.
///
/// # Panics
/// If `!kernel.is_available()`.
///
/// ```
/// for k in ito::Kernel::available() {
///     assert!(ito::json::needs_escape_with_kernel(k, b"\\"));
/// }
/// ```
pub fn needs_escape_with_kernel(kernel: Kernel, s: &[u8]) -> bool {
    // SAFETY: `forced` only returns available kernels.
    unsafe { (forced(kernel).scan)(s).0 < s.len() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_path_matches_reference() {
        let alphabet = [b'a', b'"', b'\\', 0x00, 0x1F, 0x7F, 0x80, 0xFF, b' '];
        for n in 0..=17usize {
            for pos in 0..n.max(1) {
                for &special in &alphabet {
                    let mut input = vec![b'x'; n];
                    if n > 0 {
                        input[pos] = special;
                    }
                    let mut want = b"[".to_vec();
                    kernels::escape_reference(&mut want, &input);
                    let mut got = b"[".to_vec();
                    escape_bytes(&mut got, &input);
                    assert_eq!(got, want, "{input:?}");
                }
            }
        }
    }
}
