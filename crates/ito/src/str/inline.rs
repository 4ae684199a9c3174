//! The inline representation: up to 23 bytes inside the handle itself.
//!
//! ```text
//! Str (24 bytes, align 8)
//! +--------------------------------------------------+-----+
//! | bytes[0..23] (unused tail zeroed)                 | tag |
//! +--------------------------------------------------+-----+
//!   0                                             22   23
//! tag = 0b0 S A LLLLL   (bit 7 clear = inline)
//!         |  |   `---- len + 1  (1..=24, so the tag is never 0)
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

use super::{Str, INLINE_CAP};
use crate::simd::facts;

/// The tag of an inline string of `len` bytes with `facts`.
#[inline(always)]
pub(super) const fn tag(len: usize, facts: u8) -> u8 {
    (len as u8 + 1) | (facts << super::FACTS_SHIFT)
}

/// Build an inline `Str` by copying `bytes`, computing the facts during the
/// copy. The copy goes through registers: the bytes are read with a few
/// overlapping in-bounds loads, those same loads are classified SWAR-style
/// (they hold only real bytes, so no padding can be mistaken for a control
/// character), and shifted into the three words of the handle. Nothing is
/// stored and reloaded: building the image in memory first caused a
/// store-forwarding stall that made this several times slower.
///
/// # Safety
/// `bytes.len() <= INLINE_CAP` and `bytes` is UTF-8.
#[inline(always)]
pub(super) unsafe fn new_classify(bytes: &[u8]) -> Str {
    const LO: u64 = 0x0101_0101_0101_0101;
    let n = bytes.len();
    debug_assert!(n <= INLINE_CAP);
    let p = bytes.as_ptr();
    // `(w0, w1, w2)` is the image; `(or, bad)` the facts accumulators.
    // SAFETY: every load lies within `bytes`: 8-byte loads only when n >= 8
    // (at 0, at 8 when n > 16, and at n - 8), 4-byte loads at 0 and n - 4
    // when n >= 4, 2-byte loads at 0 and n - 2 when n >= 2, one byte when
    // n == 1.
    let (w0, w1, w2, or, bad) = unsafe {
        let load8 = |q: *const u8| u64::from_le(q.cast::<u64>().read_unaligned());
        if n >= 8 {
            let a = load8(p);
            let t = load8(p.add(n - 8)); // bytes n-8..n
            if n > 16 {
                let b = load8(p.add(8));
                let bad = facts::swar_bad(a) | facts::swar_bad(b) | facts::swar_bad(t);
                (a, b, t >> (8 * (24 - n)), a | b | t, bad)
            } else {
                let w1 = if n > 8 { t >> (8 * (16 - n)) } else { 0 };
                (a, w1, 0, a | t, facts::swar_bad(a) | facts::swar_bad(t))
            }
        } else if n >= 4 {
            let lo = u32::from_le(p.cast::<u32>().read_unaligned()) as u64;
            let hi = u32::from_le(p.add(n - 4).cast::<u32>().read_unaligned()) as u64;
            let c = lo | hi << 32; // 8 real bytes (overlapping)
            (lo | hi << (8 * (n - 4)), 0, 0, c, facts::swar_bad(c))
        } else if n >= 2 {
            let lo = u16::from_le(p.cast::<u16>().read_unaligned()) as u64;
            let hi = u16::from_le(p.add(n - 2).cast::<u16>().read_unaligned()) as u64;
            let c = lo | hi << 16;
            let c = c | c << 32; // 8 real bytes (repeated)
            (lo | hi << (8 * (n - 2)), 0, 0, c, facts::swar_bad(c))
        } else if n == 1 {
            let b = *p as u64;
            (b, 0, 0, b, facts::swar_bad(b * LO))
        } else {
            (0, 0, 0, 0, 0)
        }
    };
    let ascii = or & facts::HI == 0;
    let f = (if ascii { facts::ASCII } else { 0 }) | (if bad == 0 { facts::JSON_SAFE } else { 0 });
    let w2 = w2 | (tag(n, f) as u64) << 56;
    let words = [w0.to_le(), w1.to_le(), w2.to_le()];
    // SAFETY: `words` is the 24-byte inline image in memory order: content
    // in bytes 0..n, zeros up to byte 22, a valid non-zero inline tag in
    // byte 23 with the facts just computed.
    unsafe { std::mem::transmute::<[u64; 3], Str>(words) }
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
