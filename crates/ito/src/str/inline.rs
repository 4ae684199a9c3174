//! The inline representation: up to 23 bytes inside the handle itself.
//!
//! ```text
//! Str (24 bytes, align 8)
//! +--------------------------------------------------+-----+
//! | bytes[0..23] (unused tail zeroed)                 | tag |
//! +--------------------------------------------------+-----+
//!   0                                             22   23
//! tag = 0b0 S A LLLLL   (bit 7 clear = not heap)
//!         |  |   `---- len + 1  (1..=24, so the tag is never 0;
//!         |  |                   31 is reserved for the pointer forms)
//!         |  `-------- A: is_ascii
//!         `----------- S: is_json_safe
//! ```
//!
//! Why 23 and not 24: the last byte then carries the length, both facts and
//! the representation in one load, and is never zero, which gives
//! `Option<Str>` its niche. A 24-byte inline form (compact_str's trick of
//! reusing the last UTF-8 byte, which is always < 0xC0) would leave no room
//! for the facts, so 24-byte strings would need a rescan for `is_ascii` and
//! `is_json_safe` — and 24-byte strings are rare enough that one heap
//! allocation for them costs less than that complexity.
//!
//! # Building one: copy and classify in registers
//!
//! [`new_classify`] never touches memory past the source slice and never
//! builds the image in memory first (that caused a store-forwarding stall).
//! It reads the bytes with a few overlapping in-bounds loads, whose union is
//! exactly the string, and uses *the same loads* twice: shifted into the
//! three words of the handle, and classified.
//!
//! ```text
//! n >= 16:  a = [0..8]  b = [8..16]  t = [n-8..n]         image (a, b, t >> 8(24-n) or 0 if n = 16)
//! 8..=15:   a = [0..8]  t = [n-8..n]                      image (a, t >> 8(16-n), 0)
//! 4..=7:    lo = [0..4] hi = [n-4..n]  (u32)              image (lo | hi << 8(n-4))
//! 2..=3:    lo = [0..2] hi = [n-2..n]  (u16)              image (lo | hi << 8(n-2))
//! 1:        b = [0]                                       image (b)
//! ```
//!
//! Every loaded byte is a real byte of the string (overlaps only repeat
//! bytes), so the classification needs no masking of padding. On x86_64 the
//! classification runs on one or two SSE2 vectors built from those loads
//! (SSE2 is baseline there: no dispatch, no feature test); elsewhere, and
//! under Miri, on the same words with SWAR arithmetic (`simd/facts.rs`).
//! Either way it is straight-line code after one branch on the length
//! class: no loop, no call. The SSE2 path turns its two 16-bit movemasks
//! into the tag's fact bits with `mask - 1` (all high bits set iff the mask
//! was 0) and an `and`, without compares.

use super::{Str, INLINE_CAP};
use crate::simd::facts;

/// The tag of an inline string of `len` bytes with `facts`.
#[inline(always)]
pub(super) const fn tag(len: usize, facts: u8) -> u8 {
    (len as u8 + 1) | (facts << super::FACTS_SHIFT)
}

/// Build an inline `Str` by copying `bytes`, computing the facts during the
/// copy (see the module doc).
///
/// # Safety
/// `bytes.len() <= INLINE_CAP` and `bytes` is UTF-8.
#[inline(always)]
pub(super) unsafe fn new_classify(bytes: &[u8]) -> Str {
    debug_assert!(bytes.len() <= INLINE_CAP);
    let n = bytes.len();
    // SAFETY: forwarded contract (n <= 23).
    let (w0, w1, w2) = unsafe { parts(bytes.as_ptr(), n) };
    // `parts` put the facts bits in place; add `L = n + 1`.
    let w2 = w2 | (tag(n, 0) as u64) << 56;
    let words = [w0.to_le(), w1.to_le(), w2.to_le()];
    // SAFETY: `words` is the 24-byte inline image in memory order: content
    // in bytes 0..n, zeros up to byte 22, a valid non-zero inline tag in
    // byte 23 with the facts just computed.
    unsafe { std::mem::transmute::<[u64; 3], Str>(words) }
}

/// The loads of the module doc: the loaded words (all real bytes, for
/// classification) and the image words that are not loaded words as they
/// are (content bytes 0..n, zero after, tag byte still zero). Little-endian
/// values.
///
/// # Safety
/// `p` is readable for `n <= 23` bytes.
#[inline(always)]
unsafe fn loads(p: *const u8, n: usize) -> Loaded {
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
            // n == 16: t == b and the shift would be 64; the tail word is 0.
            let w2 = if n > 16 { t >> (8 * (24 - n)) } else { 0 };
            Loaded::Three(a, b, t, w2)
        } else if n >= 8 {
            let a = load8(p);
            let t = load8(p.add(n - 8));
            // (t >> 8(15-n)) >> 8 == t >> 8(16-n), and 0 for n == 8.
            let w1 = (t >> (8 * (15 - n))) >> 8;
            Loaded::Two(a, t, w1)
        } else if n >= 4 {
            let lo = u32::from_le(p.cast::<u32>().read_unaligned()) as u64;
            let hi = u32::from_le(p.add(n - 4).cast::<u32>().read_unaligned()) as u64;
            Loaded::One(lo | hi << 32, lo | hi << (8 * (n - 4)))
        } else if n >= 2 {
            let lo = u16::from_le(p.cast::<u16>().read_unaligned()) as u64;
            let hi = u16::from_le(p.add(n - 2).cast::<u16>().read_unaligned()) as u64;
            let c = lo | hi << 16; // four real bytes (overlapping when n == 3)
            Loaded::One(c | c << 32, lo | hi << (8 * (n - 2)))
        } else if n == 1 {
            let b = *p as u64;
            Loaded::One(b * 0x0101_0101_0101_0101, b)
        } else {
            Loaded::Empty
        }
    }
}

/// Position of the facts bits in the last word (the tag is its top byte).
const FACTS_AT: u32 = 56 + super::FACTS_SHIFT;

/// The last image word's facts bits for `facts`.
#[inline(always)]
const fn facts_word(facts: u8) -> u64 {
    (facts as u64) << FACTS_AT
}

/// What [`loads`] read.
#[derive(Clone, Copy)]
enum Loaded {
    /// 16..=23 bytes: words at 0, 8, n-8, and the image's third word.
    Three(u64, u64, u64, u64),
    /// 8..=15 bytes: words at 0 and n-8, and the image's second word.
    Two(u64, u64, u64),
    /// 1..=7 bytes: eight real bytes (overlapping/repeated) and the image's
    /// first word.
    One(u64, u64),
    /// The empty string.
    Empty,
}

/// Image words, with the facts bits already in the last word (tag `L`
/// still 0); SSE2 classification.
///
/// # Safety
/// `p` is readable for `n <= 23` bytes.
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[inline(always)]
unsafe fn parts(p: *const u8, n: usize) -> (u64, u64, u64) {
    use std::arch::x86_64::*;
    // SAFETY: forwarded contract.
    let ld = unsafe { loads(p, n) };
    // SAFETY: SSE2 is part of the x86_64 baseline; these are register-only
    // intrinsics.
    unsafe {
        // 0xFF in the lanes of `v` that need JSON escaping: `"`, `\` and
        // controls. `v ^ 2` maps controls to 0x00..=0x1F and `"` to 0x20,
        // so "control or quote" is `min(v ^ 2, 0x20) == v ^ 2`.
        let bad = |v: __m128i| {
            let y = _mm_xor_si128(v, _mm_set1_epi8(0x02));
            let cq = _mm_cmpeq_epi8(_mm_min_epu8(y, _mm_set1_epi8(0x20)), y);
            _mm_or_si128(cq, _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8)))
        };
        let v64 = |x: u64| x as i64;
        let (w0, w1, w2, or, bad) = match ld {
            Loaded::Three(a, b, t, w2) => {
                let v = _mm_set_epi64x(v64(b), v64(a));
                let u = _mm_set_epi64x(v64(t), v64(t));
                (a, b, w2, _mm_or_si128(v, u), _mm_or_si128(bad(v), bad(u)))
            }
            Loaded::Two(a, t, w1) => {
                let v = _mm_set_epi64x(v64(t), v64(a));
                (a, w1, 0, v, bad(v))
            }
            Loaded::One(real, w0) => {
                let v = _mm_set1_epi64x(v64(real));
                (w0, 0, 0, v, bad(v))
            }
            Loaded::Empty => return (0, 0, facts_word(facts::ALL)),
        };
        // A 16-bit movemask minus one has every high bit set iff it was
        // zero: each fact bit is one `dec` and one `and`, no compare.
        let ma = _mm_movemask_epi8(or) as u32 as u64;
        let mb = _mm_movemask_epi8(bad) as u32 as u64;
        let fw = (ma.wrapping_sub(1) & facts_word(facts::ASCII))
            | (mb.wrapping_sub(1) & facts_word(facts::JSON_SAFE));
        (w0, w1, w2 | fw)
    }
}

/// As [`parts`], with SWAR classification (portable; what Miri runs).
///
/// # Safety
/// `p` is readable for `n <= 23` bytes.
#[cfg_attr(all(target_arch = "x86_64", not(miri)), allow(dead_code))]
#[cfg_attr(not(all(target_arch = "x86_64", not(miri))), inline(always))]
unsafe fn parts_swar(p: *const u8, n: usize) -> (u64, u64, u64) {
    // SAFETY: forwarded contract.
    let (w0, w1, w2, or, bad) = match unsafe { loads(p, n) } {
        Loaded::Three(a, b, t, w2) => (
            a,
            b,
            w2,
            a | b | t,
            facts::swar_bad(a) | facts::swar_bad(b) | facts::swar_bad(t),
        ),
        Loaded::Two(a, t, w1) => (a, w1, 0, a | t, facts::swar_bad(a) | facts::swar_bad(t)),
        Loaded::One(real, w0) => (w0, 0, 0, real, facts::swar_bad(real)),
        Loaded::Empty => return (0, 0, facts_word(facts::ALL)),
    };
    let ascii = (or & facts::HI == 0) as u8;
    let safe = (bad == 0) as u8;
    let f = (ascii * facts::ASCII) | (safe * facts::JSON_SAFE);
    (w0, w1, w2 | facts_word(f))
}

/// Portable targets (and Miri) classify with SWAR.
///
/// # Safety
/// `p` is readable for `n <= 23` bytes.
#[cfg(not(all(target_arch = "x86_64", not(miri))))]
#[inline(always)]
unsafe fn parts(p: *const u8, n: usize) -> (u64, u64, u64) {
    // SAFETY: forwarded contract.
    unsafe { parts_swar(p, n) }
}

/// Build an inline `Str` from `bytes` whose facts are already known.
///
/// # Safety
/// `bytes.len() <= INLINE_CAP`, `bytes` is UTF-8 and `facts` are its facts.
#[inline(always)]
pub(super) unsafe fn new_known(bytes: &[u8], facts: u8) -> Str {
    debug_assert!(bytes.len() <= INLINE_CAP);
    let mut raw = [0u8; 24];
    raw[..bytes.len()].copy_from_slice(bytes);
    raw[23] = tag(bytes.len(), facts);
    // SAFETY: as in `new_classify`, per the caller's contract.
    unsafe { Str::from_inline_raw(raw) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both classifiers (SSE2 where compiled, and SWAR) against the scalar
    /// reference: every length, every position, each special byte, with
    /// the slice at the very end of its allocation (a read past the end
    /// would be caught by Miri, and by the image check here).
    #[test]
    fn parts_every_length_position_and_special() {
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
                let f = facts::classify_scalar(&v);
                // SAFETY: `b` holds n <= 23 readable bytes.
                let got = [unsafe { parts(b.as_ptr(), n) }, unsafe {
                    parts_swar(b.as_ptr(), n)
                }];
                for (w0, w1, w2) in got {
                    let gf = (w2 >> FACTS_AT) as u8;
                    let w2 = w2 & ((1 << FACTS_AT) - 1);
                    let mut img = [0u8; 24];
                    img[..8].copy_from_slice(&w0.to_le_bytes());
                    img[8..16].copy_from_slice(&w1.to_le_bytes());
                    img[16..].copy_from_slice(&w2.to_le_bytes());
                    assert_eq!(img, want, "image of {v:?}");
                    assert_eq!(gf, f, "facts of {v:?}");
                }
            }
        }
    }
}
