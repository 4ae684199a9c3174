//! The token emitter shared by [`Writer`](super::Writer) and the serde
//! serializer: every byte of a JSON document that is not structure-tracking
//! is written here, straight into a `Vec<u8>`.
//!
//! Each token costs one capacity check (`reserve` of its worst-case size)
//! followed by unchecked stores into the spare capacity and one length
//! update:
//!
//! ```text
//! integer:  itoa into a padded stack buffer -> reserve(24) -> one fixed
//!           24-byte copy, length advanced by the digits' (no length branches)
//! float:    finite? zmij into its 24-byte stack buffer -> same : "null"
//! key:      clean and <= 32 bytes? reserve(len + 4) -> `,"key":` stored
//!           as overlapping words : `,` + quote(key) + `:`
//! string:   json::quote (SIMD kernels), or quote_with under Options
//! ```
//!
//! Numbers are `itoa`'s and `zmij`'s text, the crates serde_json uses, so
//! they are byte-identical with serde_json's. Non-finite floats are `null`,
//! as serde_json writes them.

use super::{quote, quote_with, Options};
use crate::simd::json::{copy_short, swar_special};
use crate::Str;

/// The escaping in force: `None` is the default policy (SIMD kernels,
/// serde_json's bytes); `Some` carries non-default [`Options`].
pub(crate) type Esc<'a> = Option<&'a Options>;

/// `None` for options whose escaping is the default, so the hot path tests
/// one pointer per string.
#[inline]
pub(crate) fn esc(options: &Options) -> Esc<'_> {
    if options.default_escaping() {
        None
    } else {
        Some(options)
    }
}

/// Appends `bytes` (short: numbers, punctuation) with one reserve.
#[inline(always)]
pub(crate) fn bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    let n = bytes.len();
    out.reserve(n);
    // SAFETY: `n` bytes of spare capacity were reserved; `bytes` is not
    // part of `out` (it is borrowed separately).
    unsafe {
        let len = out.len();
        copy_short(bytes.as_ptr(), out.as_mut_ptr().add(len), n);
        out.set_len(len + n);
    }
}

/// Appends one byte (one reserve, one store).
#[inline(always)]
pub(crate) fn byte(out: &mut Vec<u8>, b: u8) {
    out.push(b);
}

/// Appends `bytes` between double quotes (one reserve): quoted numbers
/// (map keys) and strings already known to need no escaping.
#[inline(always)]
pub(crate) fn quoted_verbatim(out: &mut Vec<u8>, bytes: &[u8]) {
    let n = bytes.len();
    out.reserve(n + 2);
    // SAFETY: n + 2 bytes of spare capacity were reserved and are all
    // written before `set_len`; `bytes` does not overlap `out`.
    unsafe {
        let len = out.len();
        let p = out.as_mut_ptr().add(len);
        *p = b'"';
        copy_short(bytes.as_ptr(), p.add(1), n);
        *p.add(n + 1) = b'"';
        out.set_len(len + n + 2);
    }
}

/// `null`.
#[inline(always)]
pub(crate) fn null(out: &mut Vec<u8>) {
    bytes(out, b"null");
}

/// `true` or `false`.
#[inline(always)]
pub(crate) fn bool(out: &mut Vec<u8>, v: bool) {
    bytes(out, if v { b"true" } else { b"false" });
}

/// An integer as `itoa` writes it.
#[inline(always)]
pub(crate) fn int<I: itoa::Integer>(out: &mut Vec<u8>, v: I) {
    let mut buf = Digits::new();
    let (digits, n) = buf.format(v);
    // SAFETY: `(digits, n)` were just formatted into `buf`.
    unsafe { int_from(out, &buf, digits, n) };
}

/// Appends the `n` digits at offset `at` of `buf` with one reserve.
///
/// # Safety
/// `(at, n)` must come from `buf.format`.
#[inline(always)]
unsafe fn int_from(out: &mut Vec<u8>, buf: &Digits, at: usize, n: usize) {
    out.reserve(n.max(Digits::COPY));
    // SAFETY: max(n, COPY) bytes of spare capacity are reserved; `copy_to`
    // writes that many, of which the first `n` are the digits; `(at, n)`
    // come from `format` on `buf` by the caller's guarantee.
    unsafe {
        let len = out.len();
        buf.copy_to(at, n, out.as_mut_ptr().add(len));
        out.set_len(len + n);
    }
}

/// `itoa`'s buffer followed by padding, so that the digits (which itoa
/// writes at the end of its buffer) can be copied as one fixed 24-byte
/// block whatever their length: two stores and no length-dependent
/// branches, where a copy of exactly `n` bytes branches on `n` (citm's
/// integers alternate between short and long ones).
#[repr(C)]
pub(crate) struct Digits {
    itoa: itoa::Buffer,
    pad: std::mem::MaybeUninit<[u8; Digits::COPY]>,
}

impl Digits {
    /// The fixed copy: every `u64`/`i64` fits (20 bytes at most).
    pub(crate) const COPY: usize = 24;

    #[inline(always)]
    pub(crate) fn new() -> Self {
        Digits {
            itoa: itoa::Buffer::new(),
            pad: std::mem::MaybeUninit::uninit(),
        }
    }

    /// Formats `v`; returns the digits' offset in `self` and their length.
    #[inline(always)]
    pub(crate) fn format<I: itoa::Integer>(&mut self, v: I) -> (usize, usize) {
        let base = (self as *const Self).cast::<u8>();
        let text = self.itoa.format(v);
        // The text lies inside `self.itoa` (offset 0 of this repr(C)
        // struct). `copy_to` reads COPY bytes from `at` on the strength of
        // that, so it is checked rather than assumed of itoa's internals:
        // one predictable compare, and a panic instead of an out-of-bounds
        // read should a future itoa return text from elsewhere. A text of
        // up to COPY bytes is read as COPY bytes from `at`, inside `self`
        // whenever `at` lies in `itoa` (padding follows); only a longer one
        // (128-bit) is read to its end, which must then lie in `itoa`. For
        // `u64` LLVM knows the length is at most 20: one compare.
        let at = (text.as_ptr() as usize).wrapping_sub(base as usize);
        assert!(
            at <= std::mem::size_of::<itoa::Buffer>()
                && (text.len() <= Self::COPY
                    || text.len() <= std::mem::size_of::<itoa::Buffer>() - at),
            "itoa text outside its buffer"
        );
        (at, text.len())
    }

    /// Copies the `n` digits at offset `at` to `dst`, as COPY bytes when
    /// they fit (bytes past the digits are padding, copied as
    /// `MaybeUninit`), else exactly `n` (128-bit integers).
    ///
    /// # Safety
    /// `(at, n)` must come from `format` on this value, and `dst` must be
    /// writable for `max(n, COPY)` bytes, outside `self`.
    #[inline(always)]
    pub(crate) unsafe fn copy_to(&self, at: usize, n: usize, dst: *mut u8) {
        let base = (self as *const Self).cast::<u8>();
        // SAFETY: `format` asserted at <= size_of::<itoa::Buffer>(), so
        // at + COPY <= size_of::<Self>() (padding follows), and for
        // n > COPY that the digits lie within `itoa`; `dst` is writable
        // for COPY (or n) bytes by the caller's guarantee.
        unsafe {
            if n <= Self::COPY {
                type Block = std::mem::MaybeUninit<[u8; Digits::COPY]>;
                std::ptr::copy_nonoverlapping(base.add(at).cast::<Block>(), dst.cast::<Block>(), 1);
            } else {
                copy_short(base.add(at), dst, n);
            }
        }
    }
}

/// An integer in quotes (a map key).
#[inline(always)]
#[cfg_attr(not(feature = "serde"), allow(dead_code))]
pub(crate) fn int_quoted<I: itoa::Integer>(out: &mut Vec<u8>, v: I) {
    let mut buf = itoa::Buffer::new();
    quoted_verbatim(out, buf.format(v).as_bytes());
}

/// An integer map key in compact output, `,"123":`, with one reserve.
#[inline(always)]
#[cfg_attr(not(feature = "serde"), allow(dead_code))]
pub(crate) fn int_key<I: itoa::Integer>(out: &mut Vec<u8>, first: bool, v: I) {
    let mut buf = Digits::new();
    let (digits, n) = buf.format(v);
    let c = !first as usize;
    out.reserve(n.max(Digits::COPY) + 4);
    // SAFETY: max(n, COPY) + 4 >= c + 1 + max(n, COPY) bytes reserved
    // (what `copy_to` may write after `,"`) and >= c + n + 3 (the key);
    // the key is written before `set_len`; `buf` is not in `out`.
    unsafe {
        let len = out.len();
        let o = out.as_mut_ptr().add(len);
        *o = b',';
        *o.add(c) = b'"';
        buf.copy_to(digits, n, o.add(c + 1));
        *o.add(c + 1 + n) = b'"';
        *o.add(c + 2 + n) = b':';
        out.set_len(len + c + n + 3);
    }
}

/// A float as `zmij` writes it (serde_json's text); `null` if not finite.
#[inline(always)]
pub(crate) fn float<F: zmij::Float + Finite>(out: &mut Vec<u8>, v: F) {
    if v.finite() {
        finite_float(out, v);
    } else {
        null(out);
    }
}

/// The size of `zmij::Buffer`: its whole text buffer (checked below).
const ZMIJ_BUFFER: usize = 24;
const _: () = assert!(std::mem::size_of::<zmij::Buffer>() == ZMIJ_BUFFER);

/// A finite float: zmij writes into its stack buffer, then the whole
/// buffer (a fixed 24 bytes: two stores, no length-dependent branches) is
/// copied into the spare capacity and the length advanced by the text's.
#[inline(always)]
fn finite_float<F: zmij::Float>(out: &mut Vec<u8>, v: F) {
    let mut buf = zmij::Buffer::new();
    let text = buf.format_finite(v);
    let (start, n) = (text.as_ptr(), text.len());
    let whole = (&buf as *const zmij::Buffer).cast::<u8>();
    out.reserve(ZMIJ_BUFFER);
    // SAFETY: ZMIJ_BUFFER bytes of spare capacity are reserved. `Buffer`
    // is exactly its ZMIJ_BUFFER-byte array (size asserted above, so the
    // single field sits at offset 0), read here through a pointer to the
    // whole struct, and the text starts at its first byte (tested; else
    // the short copy of the text alone). Bytes past the text may be
    // uninitialised: they are copied as `MaybeUninit` into spare capacity
    // that stays beyond the new length.
    unsafe {
        let len = out.len();
        let dst = out.as_mut_ptr().add(len);
        if start == whole {
            std::ptr::copy_nonoverlapping(
                whole.cast::<std::mem::MaybeUninit<[u8; ZMIJ_BUFFER]>>(),
                dst.cast::<std::mem::MaybeUninit<[u8; ZMIJ_BUFFER]>>(),
                1,
            );
        } else {
            copy_short(start, dst, n);
        }
        out.set_len(len + n);
    }
}

/// A finite float in quotes (a map key); the caller checks finiteness.
#[inline(always)]
#[cfg_attr(not(feature = "serde"), allow(dead_code))]
pub(crate) fn float_quoted<F: zmij::Float>(out: &mut Vec<u8>, v: F) {
    let mut buf = zmij::Buffer::new();
    quoted_verbatim(out, buf.format_finite(v).as_bytes());
}

/// `is_finite` for the two float types `zmij` formats.
pub(crate) trait Finite: Copy {
    /// Neither NaN nor infinite.
    fn finite(self) -> bool;
}

impl Finite for f32 {
    #[inline(always)]
    fn finite(self) -> bool {
        self.is_finite()
    }
}

impl Finite for f64 {
    #[inline(always)]
    fn finite(self) -> bool {
        self.is_finite()
    }
}

/// A string literal under `esc`.
#[inline(always)]
pub(crate) fn str(out: &mut Vec<u8>, s: &str, esc: Esc<'_>) {
    match esc {
        None => quote(out, s),
        Some(o) => quote_with(out, s, o),
    }
}

/// A [`Str`] literal under `esc`: a JSON-safe `Str` is copied without a
/// scan under the default policy.
#[inline(always)]
pub(crate) fn ito_str(out: &mut Vec<u8>, s: &Str, esc: Esc<'_>) {
    match esc {
        None => crate::str::quote_str(out, s),
        Some(o) => quote_with(out, s.as_str(), o),
    }
}

/// A string known to hold no `"`, `\` or control byte (a JSON-safe `Str`):
/// copied between quotes without a scan under the default policy.
#[inline(always)]
#[cfg_attr(not(feature = "serde"), allow(dead_code))]
pub(crate) fn safe_str(out: &mut Vec<u8>, s: &str, esc: Esc<'_>) {
    match esc {
        None => quoted_verbatim(out, s.as_bytes()),
        Some(o) => quote_with(out, s, o),
    }
}

use crate::simd::class::is_special as special_byte;

/// What precedes an object key in compact output: nothing (the first key
/// of an object whose `{` is written), `,`, or `{` (the first key of a
/// struct whose opening brace was deferred to be stored with it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Lead(u8);

impl Lead {
    pub(crate) const NONE: Lead = Lead(0);
    pub(crate) const COMMA: Lead = Lead(b',');
    pub(crate) const BRACE: Lead = Lead(b'{');

    /// `NONE` for the first key, `COMMA` after it (the serializer's maps).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    #[inline(always)]
    pub(crate) fn after(first: bool) -> Lead {
        if first {
            Lead::NONE
        } else {
            Lead::COMMA
        }
    }

    /// `BRACE` for the member that opens an object (its `{` not yet
    /// written), `COMMA` after it: the `Writer`'s deferred brace.
    #[inline(always)]
    pub(crate) fn opening(open: bool) -> Lead {
        if open {
            Lead::BRACE
        } else {
            Lead::COMMA
        }
    }

    /// The number of bytes it takes (0 or 1).
    #[inline(always)]
    fn len(self) -> usize {
        (self.0 != 0) as usize
    }

    /// The byte to store at the lead's position: `{` for `BRACE`, else
    /// `,` (for `NONE` it is overwritten by the key's quote). A constant
    /// where the caller's lead is known to be `COMMA` or `NONE` (a later
    /// struct field), where storing `self.0` would be a select per key.
    #[inline(always)]
    fn store(self) -> u8 {
        if self == Lead::BRACE {
            b'{'
        } else {
            b','
        }
    }
}

/// Writes `,"key":` (or `{"key":`, or `"key":`, after `lead`) for a clean
/// key of at most 32 bytes, with one reserve and overlapping word stores;
/// `false` (nothing written) if the key is longer or needs escaping.
#[inline(always)]
fn short_key(out: &mut Vec<u8>, lead: Lead, k: &[u8]) -> bool {
    if k.len() > 32 {
        return false;
    }
    out.reserve(k.len() + 4);
    let len = out.len();
    // SAFETY: k.len() + 4 bytes of spare capacity are reserved; what
    // `short_key_at` writes is initialised before `set_len`.
    unsafe {
        match short_key_at(out.as_mut_ptr().add(len), lead, k) {
            Some(w) => {
                out.set_len(len + w);
                true
            }
            None => false,
        }
    }
}

/// `short_key` into memory already reserved: writes the lead and
/// `"key":` at `o` and returns their length, or `None` (nothing written)
/// if the key is longer than 32 bytes or needs escaping.
///
/// # Safety
/// `o` must be writable for `k.len() + 4` bytes.
#[inline(always)]
unsafe fn short_key_at(o: *mut u8, lead: Lead, k: &[u8]) -> Option<usize> {
    let n = k.len();
    if n > 32 {
        return None;
    }
    let p = k.as_ptr();
    let r8 = |at: usize| {
        // SAFETY: callers pass at + 8 <= n (the length test of each branch).
        unsafe { (p.add(at) as *const u64).read_unaligned() }
    };
    let r4 = |at: usize| {
        // SAFETY: callers pass at + 4 <= n.
        unsafe { (p.add(at) as *const u32).read_unaligned() }
    };
    let sp = |w: u64| swar_special(u64::from_le(w));
    let c = lead.len();
    // SAFETY: the caller guarantees n + 4 >= c + n + 3 writable bytes at
    // `o`; the lead, the word stores (each inside [c + 1, c + 1 + n)) and
    // the quotes and colon all lie there, and are written only when the
    // key is clean.
    unsafe {
        let q = o.add(c + 1);
        if n >= 16 {
            let (a, b, x, y) = (r8(0), r8(8), r8(n - 16), r8(n - 8));
            if sp(a) | sp(b) | sp(x) | sp(y) != 0 {
                return None;
            }
            (q as *mut u64).write_unaligned(a);
            (q.add(8) as *mut u64).write_unaligned(b);
            (q.add(n - 16) as *mut u64).write_unaligned(x);
            (q.add(n - 8) as *mut u64).write_unaligned(y);
        } else if n >= 8 {
            let (a, b) = (r8(0), r8(n - 8));
            if sp(a) | sp(b) != 0 {
                return None;
            }
            (q as *mut u64).write_unaligned(a);
            (q.add(n - 8) as *mut u64).write_unaligned(b);
        } else if n >= 4 {
            let (a, b) = (r4(0), r4(n - 4));
            if sp(u32::from_le(a) as u64 | (u32::from_le(b) as u64) << 32) != 0 {
                return None;
            }
            (q as *mut u32).write_unaligned(a);
            (q.add(n - 4) as *mut u32).write_unaligned(b);
        } else if n > 0 {
            let (a, b, d) = (k[0], k[n / 2], k[n - 1]);
            if special_byte(a) | special_byte(b) | special_byte(d) {
                return None;
            }
            *q = a;
            *q.add(n / 2) = b;
            *q.add(n - 1) = d;
        }
        // Without a lead (c = 0) this byte is the quote stored next.
        *o = lead.store();
        *o.add(c) = b'"';
        *q.add(n) = b'"';
        *q.add(n + 1) = b':';
    }
    Some(c + n + 3)
}

/// A struct field whose value is an integer, in compact output:
/// `,"key":123` with one reserve and one length update for both (the
/// integer formatted first, so that the key's stores overlap itoa's work).
#[inline(always)]
pub(crate) fn key_int<I: itoa::Integer>(
    out: &mut Vec<u8>,
    lead: Lead,
    k: &str,
    esc: Esc<'_>,
    v: I,
) {
    let mut buf = Digits::new();
    let (digits, n) = buf.format(v);
    let kb = k.as_bytes();
    if esc.is_none() && kb.len() <= 32 {
        out.reserve(kb.len() + 4 + n.max(Digits::COPY));
        let len = out.len();
        // SAFETY: kb.len() + 4 + max(n, COPY) bytes are reserved: the key
        // (at most kb.len() + 4 bytes written at `o`) and then what
        // `copy_to` writes after it (max(n, COPY), of which n are the
        // digits); everything up to the new length is initialised before
        // `set_len`; `buf` is not in `out`.
        unsafe {
            let o = out.as_mut_ptr().add(len);
            if let Some(w) = short_key_at(o, lead, kb) {
                buf.copy_to(digits, n, o.add(w));
                out.set_len(len + w + n);
                return;
            }
        }
    }
    key_slow(out, lead, k, esc);
    // SAFETY: `(digits, n)` were formatted into `buf` above.
    unsafe { int_from(out, &buf, digits, n) };
}

/// An object member whose value is a literal (`true`, `false`, `null`):
/// `,"key":true` with one reserve and one length update for both.
#[inline(always)]
pub(crate) fn key_literal(out: &mut Vec<u8>, lead: Lead, k: &str, esc: Esc<'_>, lit: &[u8]) {
    let kb = k.as_bytes();
    if esc.is_none() && kb.len() <= 32 {
        out.reserve(kb.len() + 4 + lit.len());
        let len = out.len();
        // SAFETY: kb.len() + 4 + lit.len() bytes are reserved: the key (at
        // most kb.len() + 4 bytes written at `o`) and the literal after
        // its `w` bytes; everything up to the new length is initialised
        // before `set_len`; `lit` is not in `out`.
        unsafe {
            let o = out.as_mut_ptr().add(len);
            if let Some(w) = short_key_at(o, lead, kb) {
                copy_short(lit.as_ptr(), o.add(w), lit.len());
                out.set_len(len + w + lit.len());
                return;
            }
        }
    }
    key_slow(out, lead, k, esc);
    bytes(out, lit);
}

/// An object member whose value is a string: `,"key":"value"` with one
/// reserve and one length update when the key is clean and at most 32
/// bytes and the value clean and at most 16 bytes (the default policy);
/// otherwise the key and then the string as [`str`] writes it.
#[inline(always)]
pub(crate) fn key_str(out: &mut Vec<u8>, lead: Lead, k: &str, esc: Esc<'_>, s: &str) {
    let kb = k.as_bytes();
    if esc.is_none() && kb.len() <= 32 {
        out.reserve(kb.len() + 4 + 18);
        let len = out.len();
        // SAFETY: kb.len() + 4 + 18 bytes are reserved: the key (at most
        // kb.len() + 4 bytes written at `o`) and the quoted value (at most
        // 18) after its `w` bytes; everything up to each new length is
        // initialised before `set_len`; `s` is not in `out`.
        unsafe {
            let o = out.as_mut_ptr().add(len);
            if let Some(w) = short_key_at(o, lead, kb) {
                if let Some(m) = super::quoted_short_at(o.add(w), s.as_bytes()) {
                    out.set_len(len + w + m);
                    return;
                }
                out.set_len(len + w);
                quote(out, s);
                return;
            }
        }
    }
    key_slow(out, lead, k, esc);
    str(out, s, esc);
}

/// An object member whose value needs no escaping (a `Str` known
/// JSON-safe): `,"key":"value"` with one reserve and one length update
/// when the key is clean and at most 32 bytes; the value is copied as
/// [`safe_str`] copies it.
#[cfg(feature = "serde")] // the serde (de)serializer is its only user
#[inline(always)]
pub(crate) fn key_safe_str(out: &mut Vec<u8>, lead: Lead, k: &str, esc: Esc<'_>, s: &str) {
    let kb = k.as_bytes();
    let n = s.len();
    if esc.is_none() && kb.len() <= 32 {
        out.reserve(kb.len() + 4 + n + 2);
        let len = out.len();
        // SAFETY: kb.len() + 4 + n + 2 bytes are reserved: the key (at
        // most kb.len() + 4 bytes written at `o`) and the quoted value
        // (n + 2) after its `w` bytes; everything up to the new length is
        // initialised before `set_len`; `s` is not in `out`.
        unsafe {
            let o = out.as_mut_ptr().add(len);
            if let Some(w) = short_key_at(o, lead, kb) {
                let v = o.add(w);
                *v = b'"';
                copy_short(s.as_ptr(), v.add(1), n);
                *v.add(n + 1) = b'"';
                out.set_len(len + w + n + 2);
                return;
            }
        }
    }
    key_slow(out, lead, k, esc);
    safe_str(out, s, esc);
}

/// An object key with what precedes and follows it in compact output:
/// `lead` (`,`, `{` or nothing), then `"key":`. Clean keys of up to 32
/// bytes (nearly every struct field name) cost one reserve and a few word
/// stores; others go through the string kernels.
#[inline(always)]
pub(crate) fn key_after(out: &mut Vec<u8>, lead: Lead, k: &str, esc: Esc<'_>) {
    if esc.is_none() && short_key(out, lead, k.as_bytes()) {
        return;
    }
    key_slow(out, lead, k, esc);
}

#[inline(always)]
fn key_slow(out: &mut Vec<u8>, lead: Lead, k: &str, esc: Esc<'_>) {
    if lead != Lead::NONE {
        out.push(lead.0);
    }
    str(out, k, esc);
    out.push(b':');
}

/// Two-space indentation for pretty output: `,` (unless first), a newline
/// and `depth` indents.
#[inline]
#[cfg_attr(not(feature = "serde"), allow(dead_code))]
pub(crate) fn newline_indent(out: &mut Vec<u8>, first: bool, depth: usize) {
    const SPACES: [u8; 64] = [b' '; 64];
    if !first {
        out.push(b',');
    }
    out.push(b'\n');
    let mut left = depth * 2;
    while left > 0 {
        let n = left.min(SPACES.len());
        out.extend_from_slice(&SPACES[..n]);
        left -= n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_short_every_length() {
        let src: Vec<u8> = (0..40u8).collect();
        for n in 0..=40 {
            let mut dst = [0xAAu8; 48];
            // SAFETY: both buffers hold at least n bytes.
            unsafe { copy_short(src.as_ptr(), dst.as_mut_ptr(), n) };
            assert_eq!(&dst[..n], &src[..n], "n = {n}");
            assert!(dst[n..].iter().all(|&b| b == 0xAA), "n = {n}");
        }
    }

    #[test]
    fn keys_match_the_slow_path() {
        // Every length around the word sizes, with one special byte (or
        // none) at every position.
        for n in 0..=40usize {
            for pos in 0..=n {
                for special in ['"', '\\', '\n', '\u{1f}', 'é', '/'] {
                    let mut k: String = (0..n).map(|i| (b'a' + (i % 26) as u8) as char).collect();
                    if pos < n {
                        k.replace_range(pos..pos + 1, special.encode_utf8(&mut [0; 4]));
                    }
                    for lead in [Lead::NONE, Lead::COMMA, Lead::BRACE] {
                        let mut fast = b"{".to_vec();
                        key_after(&mut fast, lead, &k, None);
                        let mut slow = b"{".to_vec();
                        key_slow(&mut slow, lead, &k, None);
                        assert_eq!(fast, slow, "{k:?}");
                    }
                }
            }
        }
    }
}
