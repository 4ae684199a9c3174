//! Entries and string storage: where an interned string lives, its stored
//! hash, and the helpers that compare the bytes.

/// here: it prefixes the bytes in their chunk (see [`LocalInterner::store`](super::LocalInterner::store)),
/// which keeps the entry at 8 bytes; a hit reads the prefix from the line
/// it reads the bytes from anyway.
#[derive(Clone, Copy)]
pub(super) struct Entry {
    /// `chunk << CHUNK_BITS | position` of the length prefix for strings
    /// under `LARGE` bytes, else `LARGE_FLAG | index` into `large`.
    pub(super) offset: u32,
    pub(super) hash: u32,
}

const _: () = assert!(std::mem::size_of::<Entry>() == 8);

/// Marks an [`Entry::offset`] that indexes `large` (so small strings have
/// 31 bits of chunk address: 131,072 chunks of at most 16 KiB).
pub(super) const LARGE_FLAG: u32 = 1 << 31;

/// Bytes of the length prefix of a small string of `len` bytes (`len <
/// LARGE`, so two bytes always suffice).
#[inline(always)]
pub(super) const fn prefix_len(len: usize) -> usize {
    if len < 0x80 {
        1
    } else {
        2
    }
}

/// `a == b` for slices of equal length, without a `memcmp` call for the
/// short strings that dominate interning: two overlapping in-bounds loads.
#[inline(always)]
pub(super) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    debug_assert_eq!(n, b.len());
    if b.len() != n {
        return false;
    }
    let w8 = |x: &[u8], at: usize| u64::from_le_bytes(x[at..at + 8].try_into().unwrap_or([0; 8]));
    let w4 = |x: &[u8], at: usize| u32::from_le_bytes(x[at..at + 4].try_into().unwrap_or([0; 4]));
    let w16 =
        |x: &[u8], at: usize| u128::from_le_bytes(x[at..at + 16].try_into().unwrap_or([0; 16]));
    if (16..=32).contains(&n) {
        w16(a, 0) == w16(b, 0) && w16(a, n - 16) == w16(b, n - 16)
    } else if (8..16).contains(&n) {
        w8(a, 0) == w8(b, 0) && w8(a, n - 8) == w8(b, n - 8)
    } else if (4..8).contains(&n) {
        w4(a, 0) == w4(b, 0) && w4(a, n - 4) == w4(b, n - 4)
    } else {
        a == b
    }
}
