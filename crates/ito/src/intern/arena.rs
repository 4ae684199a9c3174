//! Chunked byte arena holding the interned strings.
//!
//! Each record is `hash32 ++ local + 1` (4 bytes each, little-endian)
//! `++ LEB128(len) ++ bytes`. The table's slot points straight at the
//! record, which holds the stored hash (for growth, which never reads the
//! bytes), the symbol to return on a hit, the length and the bytes, so a hit
//! reads one record line after the bucket line (1 length byte for strings
//! under 128 bytes). Records are bump-allocated in chunks of 1 KiB, each new
//! chunk an eighth of the chunk bytes so far, up to 32 KiB (so the unused
//! tail of the current chunk stays small beside the strings in every shard);
//! a record larger than 8 KiB gets a chunk of its own (so a 1 MiB string
//! never wastes most of a chunk).
//!
//! A record is named by a 32-bit [`RecordRef`]: `chunk << 15 | offset`
//! (chunks are at most 32 KiB, so an offset fits 15 bits; 2^17 chunks per
//! shard). Chunk base pointers live in a never-moving [`SegVec`] that
//! readers index without a lock. Chunks never move or shrink and are freed
//! only when the arena drops, so `&str`s into them live as long as the
//! arena. The arena is not synchronised: its owner (a shard) only writes it
//! while holding the shard's writer lock; readers reach records through
//! references published with `Release`.

use std::alloc::{self, Layout};
use std::ptr::NonNull;

use super::segvec::SegVec;

const FIRST_CHUNK: usize = 1024;
const MAX_CHUNK: usize = 32 * 1024;
const LARGE: usize = MAX_CHUNK / 4;
/// Bits of a [`RecordRef`] that hold the offset within its chunk.
const OFFSET_BITS: u32 = 15;
const _: () = assert!(MAX_CHUNK <= 1 << OFFSET_BITS);
/// Chunks a shard may allocate (the rest of the 32 bits of a reference).
pub(crate) const MAX_CHUNKS: usize = 1 << (32 - OFFSET_BITS);
/// Bytes of the `hash32, local + 1` header in front of the length prefix.
const HEADER: usize = 8;

/// A record's address in its shard's arena: `chunk << 15 | offset`.
pub(crate) type RecordRef = u32;

/// Chunk base pointers, indexed by the chunk number of a [`RecordRef`].
pub(crate) type Chunks = SegVec<*const u8, 3>;

pub(crate) struct Arena {
    cursor: *mut u8,
    left: usize,
    /// Chunk number and base address of the current bump chunk.
    current: u32,
    base: *mut u8,
    /// Bytes of bump chunks allocated so far (sizes the next one).
    chunk_bytes: usize,
    allocations: Vec<(NonNull<u8>, Layout)>,
    allocated: usize,
}

// SAFETY: the arena owns its allocations outright; the raw pointers are
// only a cursor into memory it owns, so moving it to another thread is fine.
unsafe impl Send for Arena {}

/// Bytes the LEB128 length prefix of `len` takes.
#[inline]
pub(crate) fn prefix_len(len: usize) -> usize {
    let bits = usize::BITS - (len | 1).leading_zeros();
    (bits as usize).div_ceil(7)
}

/// Pointer to the record named by `r`.
///
/// # Safety
/// `r` must have been returned by [`Arena::push`] of the arena that owns
/// `chunks`, and the caller must have synchronised (by an `Acquire` load of
/// something published after the push) with the writer that pushed it.
#[inline]
pub(crate) unsafe fn record_ptr(chunks: &Chunks, r: RecordRef) -> *const u8 {
    // SAFETY: the chunk was stored in the table before the record was
    // published (see the contract), and `offset` is inside that chunk.
    unsafe {
        let base = *chunks.slot_live((r >> OFFSET_BITS) as usize);
        base.add((r & ((1 << OFFSET_BITS) - 1)) as usize)
    }
}

/// The `local + 1` stored in the header of the record at `record`.
///
/// # Safety
/// As for [`record_bytes`].
#[inline]
pub(crate) unsafe fn record_local1(record: *const u8) -> u32 {
    // SAFETY: a complete record starts with its 8 header bytes.
    u32::from_le(unsafe { record.add(4).cast::<u32>().read_unaligned() })
}

/// The 32-bit table hash stored in the header of the record at `record`.
///
/// # Safety
/// As for [`record_bytes`]; and only the shard's writer (holding its lock)
/// may call this, since [`set_record_hash32`] rewrites it.
#[inline]
pub(crate) unsafe fn record_hash32(record: *const u8) -> u32 {
    // SAFETY: a complete record starts with its 8 header bytes.
    u32::from_le(unsafe { record.cast::<u32>().read_unaligned() })
}

/// Rewrite the stored table hash of a record (when its shard switches
/// hash). Readers never read this field, only the writer does.
///
/// # Safety
/// `record` must be a complete record of an arena the caller owns through
/// its shard's writer lock.
#[inline]
pub(crate) unsafe fn set_record_hash32(record: *const u8, hash32: u32) {
    // SAFETY: per the contract, the 4 bytes are in bounds and written
    // only by the lock holder; concurrent readers touch other bytes.
    unsafe {
        record
            .cast_mut()
            .cast::<u32>()
            .write_unaligned(hash32.to_le())
    }
}

/// The string bytes of the record at `record`.
///
/// # Safety
/// `record` must point to a complete record written by [`Arena::push`] of
/// an arena that is still alive, and the caller must have synchronised with
/// the thread that wrote it.
#[inline]
pub(crate) unsafe fn record_bytes<'a>(record: *const u8) -> &'a [u8] {
    // SAFETY: the caller guarantees a complete record: the header and the
    // prefix bytes are in bounds and followed by `len` bytes.
    unsafe {
        let record = record.add(HEADER);
        let first = *record;
        if first < 0x80 {
            return std::slice::from_raw_parts(record.add(1), first as usize);
        }
        let mut len = 0usize;
        let mut shift = 0;
        let mut p = record;
        loop {
            let b = *p;
            p = p.add(1);
            len |= ((b & 0x7f) as usize) << shift;
            if b < 0x80 {
                break;
            }
            shift += 7;
        }
        std::slice::from_raw_parts(p, len)
    }
}

impl Arena {
    pub(crate) fn new() -> Self {
        Arena {
            cursor: std::ptr::null_mut(),
            left: 0,
            current: 0,
            base: std::ptr::null_mut(),
            chunk_bytes: 0,
            allocations: Vec::new(),
            allocated: 0,
        }
    }

    /// Bytes allocated for chunks and large records.
    pub(crate) fn allocated_bytes(&self) -> usize {
        self.allocated + self.allocations.capacity() * std::mem::size_of::<(NonNull<u8>, Layout)>()
    }

    /// Bytes a record of `len` string bytes will take, counting a fresh
    /// chunk if it does not fit the current one (for the byte cap).
    pub(crate) fn cost(&self, len: usize) -> usize {
        let need = HEADER + prefix_len(len) + len;
        if need > LARGE {
            need
        } else if need <= self.left {
            0
        } else {
            self.next_chunk().max(need)
        }
    }

    /// Size of the next bump chunk: an eighth of the chunk bytes so far,
    /// within 1–32 KiB, so the unused tail of the current chunk stays near
    /// 1/16 of the string bytes on average (1 KiB chunks up to 8 KiB).
    fn next_chunk(&self) -> usize {
        (self.chunk_bytes / 8).clamp(FIRST_CHUNK, MAX_CHUNK)
    }

    /// `false` if pushing a record of `len` bytes would need a chunk number
    /// beyond what a [`RecordRef`] can name.
    pub(crate) fn has_room(&self, len: usize) -> bool {
        let need = HEADER + prefix_len(len) + len;
        (need <= LARGE && need <= self.left) || self.allocations.len() < MAX_CHUNKS
    }

    /// Allocate a chunk of `size` bytes, register it in `chunks` and return
    /// its number, pointer and the bytes the chunk table grew by.
    #[cold]
    #[inline(never)]
    fn alloc(&mut self, size: usize, chunks: &Chunks) -> (u32, *mut u8, usize) {
        let layout = Layout::from_size_align(size, 1).expect("record too large");
        let number = self.allocations.len();
        assert!(number < MAX_CHUNKS, "arena chunk numbers exhausted");
        // SAFETY: size > 0 (every record has at least its header).
        let p = unsafe { alloc::alloc(layout) };
        let Some(p) = NonNull::new(p) else {
            alloc::handle_alloc_error(layout)
        };
        let (cell, added) = chunks.reserve(number);
        // SAFETY: `cell` is in an allocated segment of the chunk table and
        // not yet reachable: no published reference names chunk `number`.
        unsafe { cell.write(p.as_ptr().cast_const()) };
        self.allocations.push((p, layout));
        self.allocated += size + added;
        (number as u32, p.as_ptr(), added)
    }

    /// Copy `bytes` into the arena as the record of symbol `local1` with
    /// table hash `hash32`; return its reference and address. Call
    /// [`has_room`](Self::has_room) first.
    #[inline]
    pub(crate) fn push(
        &mut self,
        bytes: &[u8],
        hash32: u32,
        local1: u32,
        chunks: &Chunks,
    ) -> (RecordRef, *const u8) {
        let len = bytes.len();
        let need = HEADER + prefix_len(len) + len;
        let (chunk, base, dst) = if need > LARGE {
            let (number, p, _) = self.alloc(need, chunks);
            (number, p, p)
        } else {
            if need > self.left {
                // A record of up to LARGE bytes may not fit a small chunk.
                let size = self.next_chunk().max(need);
                self.chunk_bytes += size;
                let (number, p, _) = self.alloc(size, chunks);
                self.current = number;
                self.base = p;
                self.cursor = p;
                self.left = size;
            }
            let dst = self.cursor;
            // SAFETY: need <= left, so the cursor stays within the chunk.
            self.cursor = unsafe { self.cursor.add(need) };
            self.left -= need;
            (self.current, self.base, dst)
        };
        // SAFETY: `dst` has room for `need` bytes: the header, the prefix
        // and the string; `bytes` cannot overlap freshly allocated memory.
        // The offset of `dst` in its chunk is below MAX_CHUNK.
        let offset = unsafe {
            dst.cast::<u32>().write_unaligned(hash32.to_le());
            dst.add(4).cast::<u32>().write_unaligned(local1.to_le());
            let mut p = dst.add(HEADER);
            let mut v = len;
            while v >= 0x80 {
                *p = (v as u8) | 0x80;
                p = p.add(1);
                v >>= 7;
            }
            *p = v as u8;
            p = p.add(1);
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), p, len);
            dst.offset_from(base) as u32
        };
        debug_assert!(offset < MAX_CHUNK as u32);
        ((chunk << OFFSET_BITS) | offset, dst.cast_const())
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        for &(p, layout) in &self.allocations {
            // SAFETY: allocated in `alloc` with this layout, freed once.
            unsafe { alloc::dealloc(p.as_ptr(), layout) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip() {
        let chunks = Chunks::new();
        let mut arena = Arena::new();
        let mut recs = Vec::new();
        let lens = [0usize, 1, 127, 128, 300, 16383, 16384, 9000, 70000, 5];
        for round in 0..if cfg!(miri) { 2 } else { 40u32 } {
            for (i, &len) in lens.iter().enumerate() {
                let s: Vec<u8> = (0..len).map(|j| (i * 31 + j) as u8).collect();
                let local1 = round * 100 + i as u32 + 1;
                assert!(arena.has_room(len));
                let (r, p) = arena.push(&s, local1 ^ 0xdead, local1, &chunks);
                recs.push((r, p, local1, s));
            }
        }
        for (r, q, local1, s) in &recs {
            // SAFETY: records written above by this arena, same thread.
            unsafe {
                let p = record_ptr(&chunks, *r);
                assert_eq!(p, *q);
                assert_eq!(record_bytes(p), &s[..]);
                assert_eq!(record_local1(p), *local1);
                assert_eq!(record_hash32(p), *local1 ^ 0xdead);
                set_record_hash32(p, 7);
                assert_eq!(record_hash32(p), 7);
                assert_eq!(record_local1(p), *local1);
                assert_eq!(record_bytes(p), &s[..]);
            }
        }
    }

    #[test]
    fn mid_sized_records_get_a_chunk_big_enough() {
        // Regression: a record of 1–8 KiB into a fresh arena used to get a
        // chunk of `next_chunk` bytes (1 KiB) whatever its size.
        for len in [1000usize, 1017, 1024, 2000, 4096, 8000, 8180] {
            let chunks = Chunks::new();
            let mut arena = Arena::new();
            let s: Vec<u8> = (0..len).map(|j| j as u8).collect();
            let (r, _) = arena.push(&s, 1, 1, &chunks);
            let (r2, _) = arena.push(b"tail", 2, 2, &chunks);
            // SAFETY: records written above by this arena, same thread.
            unsafe {
                assert_eq!(record_bytes(record_ptr(&chunks, r)), &s[..]);
                assert_eq!(record_bytes(record_ptr(&chunks, r2)), b"tail");
            }
            assert!(arena.allocated_bytes() >= len);
        }
    }

    #[test]
    fn prefix_lengths() {
        assert_eq!(prefix_len(0), 1);
        assert_eq!(prefix_len(127), 1);
        assert_eq!(prefix_len(128), 2);
        assert_eq!(prefix_len(16383), 2);
        assert_eq!(prefix_len(16384), 3);
    }
}
