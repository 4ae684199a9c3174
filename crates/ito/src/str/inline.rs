//! The inline representation: up to 23 bytes inside the handle itself.
//!
//! ```text
//! Str (24 bytes)
//! +--------------------------------------------------+-----+
//! | bytes[0..23] (unused tail zeroed)                 | tag |
//! +--------------------------------------------------+-----+
//!   0                                             22   23
//! tag = 0b000 LLLLL   (bit 7 clear = not heap; bits 5, 6 clear)
//!             `---- len + 1  (1..=24, so the tag is never 0;
//!                             31 is reserved for the pointer forms)
//! ```
//!
//! Why 23 and not 24: the last byte then carries the length and the
//! representation in one load, and is never zero, which gives `Option<Str>`
//! its niche. A 24-byte inline form (compact_str's trick of reusing the last
//! UTF-8 byte, which is always < 0xC0) is not worth its complexity for a
//! length that is rare; 24-byte strings take one heap allocation.
//!
//! # Facts on demand
//!
//! An inline string does not classify its bytes when it is built (that
//! cost about 2x `CompactString::from` in a build-and-drop loop). The
//! facts are computed when asked, from the three words of the handle:
//!
//! ```text
//! ascii = (w0 | w1 | w2) & 0x80.. == 0        (padding is 0, the tag < 0x80)
//! safe  = swar_bad(w0) & lanes(n)[0] | ... == 0
//! ```
//!
//! `swar_bad` flags the zero padding and the tag byte (both are "controls"),
//! so the JSON test keeps only the lanes of the first `n` bytes, three words
//! read from a 48-byte table at offset `24 - n`. That is exact: a spurious
//! flag of `swar_bad` can only sit above a true one, so a clean prefix is
//! reported clean. About 25 register operations, no loop, no branch.
//!
//! # Building one: the image straight from the loads
//!
//! [`new`] never touches memory past the source slice and never builds the
//! image in memory first (that caused a store-forwarding stall). It reads
//! the bytes with a few overlapping in-bounds loads, whose union is exactly
//! the string, and shifts them into the three words of the handle:
//!
//! ```text
//! n >= 16:  a = [0..8]  b = [8..16]  t = [n-8..n]         image (a, b, t >> 8(24-n) or 0 if n = 16)
//! 8..=15:   a = [0..8]  t = [n-8..n]                      image (a, t >> 8(16-n), 0)
//! 4..=7:    lo = [0..4] hi = [n-4..n]  (u32)              image (lo | hi << 8(n-4))
//! 2..=3:    lo = [0..2] hi = [n-2..n]  (u16)              image (lo | hi << 8(n-2))
//! 1:        b = [0]                                       image (b)
//! ```

use super::{Str, INLINE_CAP};
use crate::simd::facts;
#[cfg(all(target_arch = "x86_64", not(miri)))]
use crate::simd::vector::{x86::Sse2, Vector};

/// The tag of an inline string of `len` bytes.
#[inline(always)]
pub(super) const fn tag(len: usize) -> u8 {
    len as u8 + 1
}

/// Build an inline `Str` by copying `bytes` (see the module doc).
///
/// # Safety
/// `bytes.len() <= INLINE_CAP` and `bytes` is UTF-8.
#[inline(always)]
pub(super) unsafe fn new(bytes: &[u8]) -> Str {
    debug_assert!(bytes.len() <= INLINE_CAP);
    let n = bytes.len();
    // SAFETY: forwarded contract (n <= 23).
    let [w0, w1, w2] = unsafe { image(bytes.as_ptr(), n) };
    let w2 = w2 | (tag(n) as u64) << 56;
    let words = [w0.to_le(), w1.to_le(), w2.to_le()];
    // SAFETY: `words` is the 24-byte inline image in memory order: content
    // in bytes 0..n, zeros up to byte 22, a valid non-zero inline tag in
    // byte 23.
    unsafe { std::mem::transmute::<[u64; 3], Str>(words) }
}

/// The image words of the module doc (content bytes 0..n, zero after, tag
/// byte still zero), as little-endian values.
///
/// # Safety
/// `p` is readable for `n <= 23` bytes.
#[inline(always)]
unsafe fn image(p: *const u8, n: usize) -> [u64; 3] {
    let load8 = |q: *const u8| {
        // SAFETY: callers below only pass offsets `o` with `o + 8 <= n`.
        u64::from_le(unsafe { q.cast::<u64>().read_unaligned() })
    };
    // SAFETY: every load lies within `p[..n]`: 8-byte loads only when
    // n >= 8 (at 0, at 8 when n >= 16, and at n - 8), 4-byte loads at 0 and
    // n - 4 when n >= 4, 2-byte loads at 0 and n - 2 when n >= 2, one byte
    // when n == 1.
    unsafe {
        if n >= 16 {
            let a = load8(p);
            let b = load8(p.add(8));
            let t = load8(p.add(n - 8));
            // n == 16: the shift would be 64; the tail word is 0.
            let w2 = if n > 16 { t >> (8 * (24 - n)) } else { 0 };
            [a, b, w2]
        } else if n >= 8 {
            let a = load8(p);
            let t = load8(p.add(n - 8));
            // (t >> 8(15-n)) >> 8 == t >> 8(16-n), and 0 for n == 8.
            [a, (t >> (8 * (15 - n))) >> 8, 0]
        } else if n >= 4 {
            let lo = u32::from_le(p.cast::<u32>().read_unaligned()) as u64;
            let hi = u32::from_le(p.add(n - 4).cast::<u32>().read_unaligned()) as u64;
            [lo | hi << (8 * (n - 4)), 0, 0]
        } else if n >= 2 {
            let lo = u16::from_le(p.cast::<u16>().read_unaligned()) as u64;
            let hi = u16::from_le(p.add(n - 2).cast::<u16>().read_unaligned()) as u64;
            [lo | hi << (8 * (n - 2)), 0, 0]
        } else if n == 1 {
            [*p as u64, 0, 0]
        } else {
            [0; 3]
        }
    }
}

/// `LANES[24 - n..48 - n]` has 0x80 in its first `n` bytes and 0 after:
/// the lanes of the content of an `n`-byte inline string.
#[cfg_attr(all(target_arch = "x86_64", not(miri)), allow(dead_code))]
#[repr(align(64))]
struct Lanes([u8; 48]);
#[cfg_attr(all(target_arch = "x86_64", not(miri)), allow(dead_code))]
static LANES: Lanes = {
    let mut t = [0u8; 48];
    let mut i = 0;
    while i < 24 {
        t[i] = 0x80;
        i += 1;
    }
    Lanes(t)
};

/// The three words of an inline handle, as little-endian values.
#[inline(always)]
fn words(s: &Str) -> [u64; 3] {
    // SAFETY: every byte of an inline handle is initialised (content, zero
    // padding, tag), and `Str` is 24 bytes.
    let w = unsafe { std::ptr::read_unaligned((s as *const Str).cast::<[u64; 3]>()) };
    w.map(u64::from_le)
}

/// Whether the inline string `s` is ASCII (see [`ascii_words`]).
#[inline(always)]
pub(super) fn is_ascii(s: &Str) -> bool {
    ascii_words(words(s))
}

/// Whether the inline string `s` of `n` bytes is JSON safe: SSE2 on
/// x86_64 ([`json_safe_sse2`]), SWAR elsewhere and under Miri
/// ([`json_safe_words`]).
#[inline(always)]
pub(super) fn is_json_safe(s: &Str, n: usize) -> bool {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        // SAFETY: a `Str` is 24 initialised bytes for an inline string.
        unsafe { json_safe_sse2((s as *const Str).cast::<u8>(), n) }
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    {
        json_safe_words(words(s), n)
    }
}

/// Append the inline string `s` of `n` bytes to `dst` as a JSON string
/// literal if it needs no escaping, and return whether it did. On x86_64
/// the two vectors of the JSON-safe test are stored as they are: the whole
/// handle lands after the opening quote (the bytes after the content fall
/// in spare capacity, or are overwritten by the closing quote).
#[inline(always)]
pub(super) fn quote_if_safe(dst: &mut Vec<u8>, s: &Str, n: usize) -> bool {
    debug_assert!(n <= INLINE_CAP);
    let src = (s as *const Str).cast::<u8>();
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    // SAFETY: SSE2 is baseline on x86_64; `src` is the 24 initialised bytes
    // of the handle; `reserve` makes room for the 25 bytes stored after
    // `len` (quote + 24), of which the first `n + 2` are counted.
    unsafe {
        let (v0, v1) = load_handle(src);
        if !json_safe_prefix(v0, v1, n) {
            return false;
        }
        dst.reserve(1 + std::mem::size_of::<Str>());
        let len = dst.len();
        let p = dst.as_mut_ptr().add(len);
        *p = b'"';
        v0.store(p.add(1));
        v1.store_low(p.add(17));
        *p.add(n + 1) = b'"';
        dst.set_len(len + n + 2);
        true
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    {
        if !json_safe_words(words(s), n) {
            return false;
        }
        dst.reserve(1 + std::mem::size_of::<Str>());
        let len = dst.len();
        // SAFETY: as above: room for 25 bytes after `len`, the handle's 24
        // bytes are initialised and not part of `dst`.
        unsafe {
            let p = dst.as_mut_ptr().add(len);
            *p = b'"';
            std::ptr::copy_nonoverlapping(src, p.add(1), 24);
            *p.add(n + 1) = b'"';
            dst.set_len(len + n + 2);
        }
        true
    }
}

/// The 24 bytes at `p` as SSE2 vectors: bytes 0..16, and 16..24 in the
/// low half of the second (its high half zero).
///
/// # Safety
/// `p` is readable for 24 bytes.
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[inline(always)]
unsafe fn load_handle(p: *const u8) -> (Sse2, Sse2) {
    // SAFETY: SSE2 is part of the x86_64 baseline; the loads cover bytes
    // 0..16 and 16..24 of the 24 readable bytes.
    unsafe { (Sse2::load(p), Sse2::load_low(p.add(16))) }
}

/// Whether the first `n <= 23` of the 24 bytes held by `v0`, `v1` (see
/// [`load_handle`]) need no JSON escaping: the crate's one vector form of
/// the test, [`special_lanes`](crate::simd::class::special_lanes), two
/// movemasks and the low `n` bits of the 24-bit mask.
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[inline(always)]
fn json_safe_prefix(v0: Sse2, v1: Sse2, n: usize) -> bool {
    debug_assert!(n <= INLINE_CAP);
    let bad = |v: Sse2| Sse2::bits(crate::simd::class::special_lanes(v));
    let m = bad(v0) | bad(v1) << 16;
    m & !(u64::MAX << n) == 0
}

/// JSON-safe test of the 24-byte inline image at `p` with `n` content
/// bytes, on SSE2 (baseline on x86_64): one 16-byte and one 8-byte load,
/// the "needs escaping" compare of `simd/class.rs` (`v ^ 2` maps controls
/// to 0x00..=0x1F and `"` to 0x20, so "control or quote" is
/// `min(v ^ 2, 0x20) == v ^ 2`; `\` is one more compare), two movemasks
/// and the low `n` bits of the 24-bit mask.
///
/// # Safety
/// `p` is readable for 24 bytes.
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[inline(always)]
unsafe fn json_safe_sse2(p: *const u8, n: usize) -> bool {
    // SAFETY: forwarded contract.
    let (v0, v1) = unsafe { load_handle(p) };
    json_safe_prefix(v0, v1, n)
}

/// The facts bits of the inline string `s` of `n` bytes.
#[cfg(test)]
pub(super) fn facts_of(s: &Str, n: usize) -> u8 {
    facts_words(words(s), n)
}

/// ASCII test of an inline image: its padding is 0 and its tag is below
/// 0x80, so all 24 bytes can be tested at once.
#[inline(always)]
fn ascii_words([w0, w1, w2]: [u64; 3]) -> bool {
    (w0 | w1 | w2) & facts::HI == 0
}

/// JSON-safe test of an inline image of `n` bytes (see the module doc).
#[cfg_attr(all(target_arch = "x86_64", not(miri)), allow(dead_code))]
#[inline(always)]
fn json_safe_words([w0, w1, w2]: [u64; 3], n: usize) -> bool {
    debug_assert!(n <= INLINE_CAP);
    // SAFETY: n <= 23, so `24 - n + 24 <= 48`: three in-bounds words.
    let [m0, m1, m2] =
        unsafe { std::ptr::read_unaligned(LANES.0.as_ptr().add(24 - n).cast::<[u64; 3]>()) }
            .map(u64::from_le);
    (facts::swar_bad(w0) & m0) | (facts::swar_bad(w1) & m1) | (facts::swar_bad(w2) & m2) == 0
}

#[cfg(test)]
fn facts_words(w: [u64; 3], n: usize) -> u8 {
    (if ascii_words(w) { facts::ASCII } else { 0 })
        | (if json_safe_words(w, n) {
            facts::JSON_SAFE
        } else {
            0
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The image and the on-demand facts against the scalar reference:
    /// every length, every position, each special byte, with the slice at
    /// the very end of its allocation (a read past the end would be caught
    /// by Miri, and by the image check here).
    #[test]
    fn image_and_facts_every_length_position_and_special() {
        let specials: &[u8] = &[
            b'"', b'\\', 0x00, 0x01, 0x1F, 0x20, 0x21, 0x23, 0x7F, 0x80, 0xC3, 0xFF,
        ];
        let step = if cfg!(miri) { 5 } else { 1 };
        for n in 0..=INLINE_CAP {
            let base: Vec<u8> = (0..n).map(|i| b'a' + i as u8).collect();
            let mut cases = vec![base.clone()];
            for pos in (0..n).step_by(step) {
                for &s in specials {
                    let mut v = base.clone();
                    v[pos] = s;
                    cases.push(v);
                }
            }
            for v in cases {
                // An exact-size boxed slice: nothing readable after it.
                let b: Box<[u8]> = v.clone().into_boxed_slice();
                let mut want = [0u8; 24];
                want[..n].copy_from_slice(&v);
                // SAFETY: `b` holds n <= 23 readable bytes.
                let [w0, w1, w2] = unsafe { image(b.as_ptr(), n) };
                let mut img = [0u8; 24];
                img[..8].copy_from_slice(&w0.to_le_bytes());
                img[8..16].copy_from_slice(&w1.to_le_bytes());
                img[16..].copy_from_slice(&w2.to_le_bytes());
                assert_eq!(img, want, "image of {v:?}");
                // The facts of the image with its tag, as `Str` asks.
                let mut w = [w0, w1, w2];
                w[2] |= u64::from(tag(n)) << 56;
                assert_eq!(
                    facts_words(w, n),
                    facts::classify_scalar(&v),
                    "facts of {v:?}"
                );
                #[cfg(all(target_arch = "x86_64", not(miri)))]
                {
                    let mut img = img;
                    img[23] = tag(n);
                    let want = facts::classify_scalar(&v) & facts::JSON_SAFE != 0;
                    // SAFETY: `img` is 24 readable bytes.
                    assert_eq!(unsafe { json_safe_sse2(img.as_ptr(), n) }, want, "{v:?}");
                }
            }
        }
    }
}
