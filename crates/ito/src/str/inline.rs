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
/// copy.
///
/// # Safety
/// `bytes.len() <= INLINE_CAP` and `bytes` is UTF-8.
#[inline(always)]
pub(super) unsafe fn new_classify(bytes: &[u8]) -> Str {
    debug_assert!(bytes.len() <= INLINE_CAP);
    let mut raw = [0u8; 24];
    // SAFETY: `raw` has room for 23 >= bytes.len() bytes and is a distinct
    // local.
    let f = unsafe { facts::copy_classify(bytes, raw.as_mut_ptr()) };
    raw[23] = tag(bytes.len(), f);
    // SAFETY: raw[..len] is the UTF-8 content (caller contract), the rest is
    // zero and the tag describes an inline string of that length.
    unsafe { Str::from_inline_raw(raw) }
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
