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

/// Read exactly `n <= 8` bytes at `p` into the low bytes of a little-endian
/// word (upper bytes zero), with at most two overlapping in-bounds loads.
///
/// # Safety
/// `p` is readable for `n` bytes and `n <= 8`.
#[inline(always)]
unsafe fn load_le(p: *const u8, n: usize) -> u64 {
    debug_assert!(n <= 8);
    // SAFETY: every load below lies within `p[..n]`.
    unsafe {
        if n >= 4 {
            let lo = u32::from_le(p.cast::<u32>().read_unaligned()) as u64;
            let hi = u32::from_le(p.add(n - 4).cast::<u32>().read_unaligned()) as u64;
            lo | (hi << (8 * (n - 4)))
        } else if n >= 2 {
            let lo = u16::from_le(p.cast::<u16>().read_unaligned()) as u64;
            let hi = u16::from_le(p.add(n - 2).cast::<u16>().read_unaligned()) as u64;
            lo | (hi << (8 * (n - 2)))
        } else if n == 1 {
            *p as u64
        } else {
            0
        }
    }
}

/// Spaces (ASCII, JSON safe) in the byte lanes of word `k` (0..3) at or
/// beyond `n`: OR-ed into the word before classifying, so the zero padding
/// is not mistaken for control characters.
#[inline(always)]
fn pad(n: usize, k: usize) -> u64 {
    const SPACES: u64 = 0x2020_2020_2020_2020;
    let m = n.saturating_sub(8 * k);
    if m >= 8 {
        0
    } else {
        SPACES << (8 * m)
    }
}

/// Build an inline `Str` by copying `bytes`, computing the facts during the
/// copy. The copy goes through registers: three little-endian words are
/// assembled with overlapping in-bounds loads, classified SWAR-style (the
/// zero padding filled with spaces for the test), and become the handle
/// directly, so no byte is stored and reloaded (a store-forwarding stall
/// that made the memory round trip several times slower).
///
/// # Safety
/// `bytes.len() <= INLINE_CAP` and `bytes` is UTF-8.
#[inline(always)]
pub(super) unsafe fn new_classify(bytes: &[u8]) -> Str {
    let n = bytes.len();
    debug_assert!(n <= INLINE_CAP);
    let p = bytes.as_ptr();
    // SAFETY: all loads are within `bytes`: 8-byte loads only when n >= 8
    // (at 0, at 8 when n > 16, and at n - 8), `load_le` reads `n` bytes.
    let (w0, w1, w2) = unsafe {
        if n >= 8 {
            let load8 = |q: *const u8| u64::from_le(q.cast::<u64>().read_unaligned());
            let w0 = load8(p);
            let tail = load8(p.add(n - 8)); // bytes n-8..n
            if n > 16 {
                (w0, load8(p.add(8)), tail >> (8 * (24 - n)))
            } else if n > 8 {
                (w0, tail >> (8 * (16 - n)), 0)
            } else {
                (w0, 0, 0)
            }
        } else {
            (load_le(p, n), 0, 0)
        }
    };
    let bad = facts::swar_bad(w0 | pad(n, 0))
        | facts::swar_bad(w1 | pad(n, 1))
        | facts::swar_bad(w2 | pad(n, 2));
    let ascii = (w0 | w1 | w2) & facts::HI == 0;
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
