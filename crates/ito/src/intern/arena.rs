//! Chunked byte arena holding the interned strings.
//!
//! Each record is `LEB128(len) ++ bytes`, so a symbol needs one pointer to
//! find its string (1 length byte for strings under 128 bytes). Records are
//! bump-allocated in chunks that start at 1 KiB and double up to 32 KiB;
//! a record larger than 8 KiB gets an allocation of its own (so a 1 MiB
//! string never wastes most of a chunk). Chunks never move or shrink and are
//! freed only when the arena drops, so `&str`s into them live as long as the
//! arena. The arena is not synchronised: its owner (a shard) only touches it
//! while holding the shard's writer lock; readers reach records through
//! pointers published with `Release`.

use std::alloc::{self, Layout};
use std::ptr::NonNull;

const FIRST_CHUNK: usize = 1024;
const MAX_CHUNK: usize = 32 * 1024;
const LARGE: usize = MAX_CHUNK / 4;

pub(crate) struct Arena {
    cursor: *mut u8,
    left: usize,
    next_chunk: usize,
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

/// Decode the record at `record`.
///
/// # Safety
/// `record` must point to a complete record written by [`Arena::push`] of
/// an arena that is still alive, and the caller must have synchronised with
/// the thread that wrote it.
#[inline]
pub(crate) unsafe fn record_bytes<'a>(record: *const u8) -> &'a [u8] {
    // SAFETY: the caller guarantees a complete record: the prefix bytes are
    // in bounds and followed by `len` bytes.
    unsafe {
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
            next_chunk: FIRST_CHUNK,
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
        let need = prefix_len(len) + len;
        if need > LARGE {
            need
        } else if need <= self.left {
            0
        } else {
            self.next_chunk.max(need)
        }
    }

    fn alloc(&mut self, size: usize) -> *mut u8 {
        let layout = Layout::from_size_align(size, 1).expect("record too large");
        // SAFETY: size > 0 (every record has at least one prefix byte).
        let p = unsafe { alloc::alloc(layout) };
        let Some(p) = NonNull::new(p) else {
            alloc::handle_alloc_error(layout)
        };
        self.allocations.push((p, layout));
        self.allocated += size;
        p.as_ptr()
    }

    /// Copy `bytes` into the arena and return the record pointer.
    pub(crate) fn push(&mut self, bytes: &[u8]) -> *const u8 {
        let len = bytes.len();
        let need = prefix_len(len) + len;
        let dst = if need > LARGE {
            self.alloc(need)
        } else {
            if need > self.left {
                let size = self.next_chunk;
                self.next_chunk = (size * 2).min(MAX_CHUNK);
                self.cursor = self.alloc(size);
                self.left = size;
            }
            let dst = self.cursor;
            // SAFETY: need <= left, so the cursor stays within the chunk.
            self.cursor = unsafe { self.cursor.add(need) };
            self.left -= need;
            dst
        };
        // SAFETY: `dst` has room for `need` bytes: the prefix followed by
        // the string; `bytes` cannot overlap freshly allocated memory.
        unsafe {
            let mut p = dst;
            let mut v = len;
            while v >= 0x80 {
                *p = (v as u8) | 0x80;
                p = p.add(1);
                v >>= 7;
            }
            *p = v as u8;
            p = p.add(1);
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), p, len);
        }
        dst
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
        let mut arena = Arena::new();
        let mut recs = Vec::new();
        let lens = [0usize, 1, 127, 128, 300, 16383, 16384, 9000, 70000, 5];
        for (i, &len) in lens.iter().enumerate() {
            let s: Vec<u8> = (0..len).map(|j| (i * 31 + j) as u8).collect();
            recs.push((arena.push(&s), s));
        }
        for (r, s) in &recs {
            // SAFETY: records written above by this arena, same thread.
            assert_eq!(unsafe { record_bytes(*r) }, &s[..]);
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
