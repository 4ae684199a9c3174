//! Where a [`LocalInterner`](super::LocalInterner)'s entries and strings
//! live: two contiguous arrays in reserved address space (the *flat*
//! layout), or, where reservation is unavailable or refused, segments and
//! chunks that never move (the *segmented* layout).
//!
//! ```text
//! flat       entry i    = entries[i]                     one base pointer
//!            string     = bytes[offset..]  (length prefix, then the bytes)
//! segmented  entry i    = segs[i >> 10][i & 1023]        one more load
//!            string     = chunks[offset >> 14][offset & 0x3fff..]
//! both       large (>= 4094 B) strings: large[offset & !(1 << 31)]
//! ```
//! Every interner starts segmented (a new interner reserves nothing, so
//! small and short-lived ones cost no system calls) and moves to the flat
//! layout once, when its first chunk (4 KiB) or its first entry segment
//! (1,024 entries) is full: at that point there is exactly one chunk,
//! whose offsets (`0 << 14 | position`) are already flat offsets, so the
//! move copies at most 4 KiB of strings and 8 KiB of entries and rewrites
//! nothing. If the reservation fails the interner stays segmented for good.

use super::entry::{prefix_len, Entry, LARGE_FLAG};
use super::region::Region;
use super::{CHUNK_BITS, FIRST_CHUNK, LARGE, MAX_CHUNK, SEG, SEG_BITS};
use crate::intern::InternError;

/// Entries the flat layout reserves room for (4 GiB of address space; under
/// Miri, whose reservation is a real heap allocation, a small one). Small
/// strings take at least two bytes of the 2 GiB byte region each, and no
/// more than a few hundred distinct strings fit in fewer than five, so
/// the byte region always fills first.
const FLAT_ENTRIES: usize = if cfg!(miri) { 1 << 13 } else { 1 << 29 };
/// Bytes of small strings the flat layout reserves room for: the whole
/// 31-bit offset space (the segmented layout's limit too).
const FLAT_BYTES: usize = if cfg!(miri) { 1 << 18 } else { 1 << 31 };
const _: () = assert!(FLAT_BYTES <= LARGE_FLAG as usize);

/// Pages of the entry region the move to the flat layout fills (a full
/// first segment).
const ENTRY_PAGES: u8 = (SEG * size_of::<Entry>()).div_ceil(4096) as u8;

/// Entries and string bytes of one interner.
pub(super) struct Store {
    /// The flat layout, once moved there.
    flat: Option<Flat>,
    /// Segmented layout: entries, `SEG` per segment (the first grows up to
    /// `SEG`); empty once flat.
    segs: Vec<Vec<Entry>>,
    /// Segmented layout: chunks for strings under `LARGE` bytes; never
    /// reallocated (a string is appended only if it fits the capacity).
    chunks: Vec<Vec<u8>>,
    /// Strings of at least `LARGE` bytes, in either layout.
    large: Vec<Box<str>>,
    /// Capacity of the chunks plus the large strings' bytes.
    arena_bytes: usize,
    /// Entries pushed.
    pushed: usize,
    /// Whether to try the flat layout when the segmented one outgrows its
    /// first chunk or segment.
    reserve: bool,
    /// The flat layout's regions, made ready one step per insert before the
    /// move (see [`Store::stage`]).
    staged: Staged,
}

/// The regions of the flat layout while they are made ready: reserving,
/// committing and first-touching a page each cost a system call or a page
/// fault (2–7 µs each on a VM), and doing all of them in the insert that
/// moves the layout made that insert the slowest of a 2,000,000-key
/// growth (54 µs). Spread out, each insert does at most one of them.
#[derive(Default)]
struct Staged {
    entries: Option<Region>,
    bytes: Option<Region>,
    /// Steps done (see [`Store::stage`]).
    step: u8,
}

struct Flat {
    entries: Region,
    bytes: Region,
    /// Bytes of `bytes` written (the next string's offset).
    used: usize,
}

impl Staged {
    /// Bytes of pages written so far (the memory staging holds).
    fn touched(&self) -> usize {
        usize::from(self.step.saturating_sub(4)).min(usize::from(ENTRY_PAGES) + 1) * 4096
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        // Warm pages for the next interner on this thread, as for `Flat`.
        if let Some(r) = &mut self.entries {
            r.recycle();
        }
        if let Some(r) = &mut self.bytes {
            r.recycle();
        }
    }
}

impl Drop for Flat {
    fn drop(&mut self) {
        // Warm pages for the next interner on this thread (see `region`).
        self.entries.recycle();
        self.bytes.recycle();
    }
}

/// `n` rounded up to whole 4 KiB pages: the memory the first `n` bytes of a
/// region occupy once written.
fn pages(n: usize) -> usize {
    n.next_multiple_of(4096)
}

impl Store {
    /// An empty store with room for `capacity` entries before it grows.
    pub(super) fn new(capacity: usize, reserve: bool) -> Store {
        let mut store = Store {
            flat: None,
            segs: Vec::new(),
            chunks: Vec::new(),
            large: Vec::new(),
            arena_bytes: 0,
            pushed: 0,
            reserve,
            staged: Staged::default(),
        };
        if capacity > SEG && store.flatten() {
            let flat = store.flat.as_mut().expect("just flattened");
            let want = capacity.min(FLAT_ENTRIES) * size_of::<Entry>();
            // Within the reservation by the `min`.
            let _ = flat.entries.commit(want);
            return store;
        }
        let mut left = capacity.min(u32::MAX as usize);
        while left > 0 {
            let n = left.min(SEG);
            let seg_cap = if store.segs.is_empty() { n } else { SEG };
            store.segs.push(Vec::with_capacity(seg_cap));
            left -= n;
        }
        store
    }

    /// Whether entries and strings are in reserved address space.
    pub(super) fn is_flat(&self) -> bool {
        self.flat.is_some()
    }

    /// Entry `idx`.
    ///
    /// # Panics
    /// If `idx` was never pushed.
    #[inline(always)]
    pub(super) fn entry(&self, idx: u32) -> &Entry {
        assert!((idx as usize) < self.pushed, "entry {idx} out of range");
        // SAFETY: checked just above.
        unsafe { self.entry_unchecked(idx) }
    }

    /// # Safety
    /// `idx` must be below the number of pushed entries.
    #[inline(always)]
    pub(super) unsafe fn entry_unchecked(&self, idx: u32) -> &Entry {
        let i = idx as usize;
        debug_assert!(i < self.pushed);
        match &self.flat {
            // SAFETY: entries `0..pushed` were written by `push` into the
            // committed prefix of the region, which never moves.
            Some(f) => unsafe { &*f.entries.base().cast::<Entry>().add(i) },
            // SAFETY: entry `i` lives in segment `i >> SEG_BITS` at `i %
            // SEG` (segments fill in order), which exist by the contract.
            None => unsafe {
                self.segs
                    .get_unchecked(i >> SEG_BITS)
                    .get_unchecked(i & (SEG - 1))
            },
        }
    }

    /// Entry `idx`, to change its stored hash.
    ///
    /// # Panics
    /// If `idx` was never pushed.
    pub(super) fn entry_mut(&mut self, idx: u32) -> &mut Entry {
        let i = idx as usize;
        assert!(i < self.pushed, "entry {idx} out of range");
        match &mut self.flat {
            // SAFETY: `i < pushed`: written and committed, see
            // `entry_unchecked`; `&mut self` makes the access exclusive.
            Some(f) => unsafe { &mut *f.entries.base().cast::<Entry>().add(i) },
            None => &mut self.segs[i >> SEG_BITS][i & (SEG - 1)],
        }
    }

    /// The string an entry stores.
    #[inline(always)]
    pub(super) fn bytes_of(&self, e: &Entry) -> &str {
        if e.offset & LARGE_FLAG != 0 {
            return &self.large[(e.offset & !LARGE_FLAG) as usize];
        }
        let at = match &self.flat {
            Some(f) => {
                debug_assert!((e.offset as usize) < f.used);
                // SAFETY: `store` returned this offset below `used`, which
                // is within the committed prefix.
                unsafe { f.bytes.base().add(e.offset as usize) as *const u8 }
            }
            None => {
                let ci = (e.offset >> CHUNK_BITS) as usize;
                debug_assert!(ci < self.chunks.len());
                // SAFETY: `store` returned this chunk index for an existing
                // chunk; chunks are never removed while segmented.
                let chunk = unsafe { self.chunks.get_unchecked(ci) };
                let at = (e.offset & (MAX_CHUNK as u32 - 1)) as usize;
                debug_assert!(at < chunk.len());
                // SAFETY: `at` is below the chunk's initialised length.
                unsafe { chunk.as_ptr().add(at) }
            }
        };
        // SAFETY: `store` wrote a length prefix at `at` (one byte below
        // 0x80, else 0x80 | low 7 bits then the high bits) followed by the
        // bytes of a whole `&str`, all initialised and never moved or
        // overwritten while `self` lives.
        unsafe {
            let b0 = *at as usize;
            let (len, start) = if b0 < 0x80 {
                (b0, at.add(1))
            } else {
                ((b0 & 0x7f) | (*at.add(1) as usize) << 7, at.add(2))
            };
            std::str::from_utf8_unchecked(std::slice::from_raw_parts(start, len))
        }
    }

    /// Copy `s` in; the offset for its entry. Small strings go behind a
    /// length prefix (one byte under 128 bytes, else two: `0x80 | len &
    /// 0x7f`, `len >> 7`), large ones into their own allocation.
    pub(super) fn store(&mut self, s: &str) -> Result<u32, InternError> {
        if s.len() >= LARGE {
            let i = self.large.len();
            if i >= LARGE_FLAG as usize {
                return Err(InternError::TooManyStrings);
            }
            self.large.push(s.into());
            self.arena_bytes += s.len();
            return Ok(LARGE_FLAG | i as u32);
        }
        let need = prefix_len(s.len()) + s.len();
        if self.flat.is_none() {
            let fits = self
                .chunks
                .last()
                .is_some_and(|c| c.capacity() - c.len() >= need);
            if fits || !(self.reserve && self.chunks.len() == 1 && self.flatten()) {
                return self.store_segmented(s, fits);
            }
        }
        let Some(f) = &mut self.flat else {
            unreachable!("flattened above")
        };
        let at = f.used;
        if at + need > FLAT_BYTES || f.bytes.commit(at + need).is_err() {
            return Err(InternError::TooManyStrings);
        }
        let len = s.len();
        let prefix = [0x80 | (len & 0x7f) as u8, (len >> 7) as u8];
        let prefix: &[u8] = if len < 0x80 { &[len as u8] } else { &prefix };
        // SAFETY: `at..at + need` is committed (above), unused so far, and
        // `&mut self` makes the write exclusive; `need` is the prefix plus
        // the string.
        unsafe {
            let p = f.bytes.base().add(at);
            std::ptr::copy_nonoverlapping(prefix.as_ptr(), p, prefix.len());
            std::ptr::copy_nonoverlapping(s.as_ptr(), p.add(prefix.len()), len);
        }
        f.used = at + need;
        Ok(at as u32)
    }

    fn store_segmented(&mut self, s: &str, fits: bool) -> Result<u32, InternError> {
        let need = prefix_len(s.len()) + s.len();
        if !fits {
            let n = self.chunks.len();
            if n >= 1 << (31 - CHUNK_BITS) {
                return Err(InternError::TooManyStrings);
            }
            let cap = (FIRST_CHUNK << n.min(2)).min(MAX_CHUNK);
            self.chunks.push(Vec::with_capacity(cap));
            self.arena_bytes += cap;
        }
        let n = self.chunks.len() - 1;
        let chunk = &mut self.chunks[n];
        debug_assert!(chunk.capacity() - chunk.len() >= need);
        let start = chunk.len();
        // Everything fits in the capacity: no reallocation, earlier strings
        // stay put.
        let len = s.len();
        if len < 0x80 {
            chunk.push(len as u8);
        } else {
            chunk.extend_from_slice(&[0x80 | (len & 0x7f) as u8, (len >> 7) as u8]);
        }
        chunk.extend_from_slice(s.as_bytes());
        Ok((n as u32) << CHUNK_BITS | start as u32)
    }

    /// Append an entry; `Err` if the symbol space is full.
    pub(super) fn push(&mut self, e: Entry) -> Result<(), InternError> {
        if self.flat.is_none() && self.reserve && self.chunks.len() <= 1 {
            if self.pushed == SEG {
                self.flatten();
            } else if self.pushed >= SEG / 2
                || self
                    .chunks
                    .first()
                    .is_some_and(|c| c.len() >= FIRST_CHUNK / 2)
            {
                self.stage();
            }
        }
        match &mut self.flat {
            Some(f) => {
                let i = self.pushed;
                let end = (i + 1) * size_of::<Entry>();
                if i >= FLAT_ENTRIES || f.entries.commit(end).is_err() {
                    return Err(InternError::TooManyStrings);
                }
                // SAFETY: slot `i` is committed (above) and not yet
                // written; `&mut self` makes the write exclusive.
                unsafe { f.entries.base().cast::<Entry>().add(i).write(e) };
            }
            None => match self.segs.get_mut(self.pushed >> SEG_BITS) {
                Some(seg) => seg.push(e),
                None => {
                    let mut seg = Vec::with_capacity(if self.segs.is_empty() { 0 } else { SEG });
                    seg.push(e);
                    self.segs.push(seg);
                }
            },
        }
        self.pushed += 1;
        Ok(())
    }

    /// One step towards the flat layout, once the segmented one is half
    /// way to moving (half its first chunk or segment used): reserve the
    /// entry region, reserve the byte region, commit the prefix the move
    /// will copy into in each, then write once to each of those pages
    /// (the page faults), one step per call. [`flatten`](Store::flatten)
    /// finishes whatever is left. Costs the three pages the move fills
    /// anyway, a little earlier.
    #[cold]
    fn stage(&mut self) {
        let st = &mut self.staged;
        let step = st.step;
        st.step = step.saturating_add(1);
        match step {
            0 => match FLAT_ENTRIES.checked_mul(size_of::<Entry>()) {
                Some(room) => st.entries = Region::reserve(room),
                None => self.reserve = false,
            },
            1 => st.bytes = Region::reserve(FLAT_BYTES),
            2 | 3 => {
                let (r, need) = if step == 2 {
                    (&mut st.entries, SEG * size_of::<Entry>())
                } else {
                    (&mut st.bytes, FIRST_CHUNK)
                };
                if let Some(region) = r {
                    // Far below the reservation; on a refusal the move
                    // commits (and fails) itself.
                    let _ = region.commit(need);
                }
            }
            _ => {
                let page = usize::from(step - 4);
                let (r, at) = if page < usize::from(ENTRY_PAGES) {
                    (&st.entries, page * 4096)
                } else if page == usize::from(ENTRY_PAGES) {
                    (&st.bytes, 0)
                } else {
                    return;
                };
                if let Some(region) = r.as_ref().filter(|r| r.committed() > at) {
                    // SAFETY: byte `at` is committed (checked), nothing
                    // refers into the region yet, and its contents are
                    // unspecified until the move writes them.
                    unsafe { region.base().add(at).write_volatile(0) };
                }
            }
        }
    }

    /// Move to the flat layout (see the module docs); false, and never
    /// tried again, if the address space cannot be reserved.
    #[cold]
    fn flatten(&mut self) -> bool {
        debug_assert!(self.flat.is_none() && self.chunks.len() <= 1);
        self.reserve = false;
        let mut staged = std::mem::take(&mut self.staged);
        // With 32-bit pointers the entry reservation does not even fit in
        // `usize` (and `Region` reserves nothing there): keep segments.
        let Some(entry_room) = FLAT_ENTRIES.checked_mul(size_of::<Entry>()) else {
            return false;
        };
        let Some(mut entries) = staged
            .entries
            .take()
            .or_else(|| Region::reserve(entry_room))
        else {
            return false;
        };
        let Some(mut bytes) = staged.bytes.take().or_else(|| Region::reserve(FLAT_BYTES)) else {
            return false;
        };
        let used = self.chunks.first().map_or(0, Vec::len);
        // Both far below the reservations (one chunk, at most SEG entries
        // plus large strings' entries).
        if bytes.commit(used).is_err() || entries.commit(self.pushed * size_of::<Entry>()).is_err()
        {
            return false;
        }
        // SAFETY: the regions' committed prefixes hold `used` bytes and
        // `pushed` entries; the sources are our own initialised chunk and
        // segments, which do not overlap fresh mappings.
        unsafe {
            if let Some(chunk) = self.chunks.first() {
                std::ptr::copy_nonoverlapping(chunk.as_ptr(), bytes.base(), used);
            }
            let mut to = entries.base().cast::<Entry>();
            for seg in &self.segs {
                std::ptr::copy_nonoverlapping(seg.as_ptr(), to, seg.len());
                to = to.add(seg.len());
            }
        }
        // Chunk 0's offsets are `0 << CHUNK_BITS | position`: the same
        // numbers address the copy at the start of the byte region.
        self.arena_bytes -= self.chunks.iter().map(Vec::capacity).sum::<usize>();
        self.chunks = Vec::new();
        self.segs = Vec::new();
        self.flat = Some(Flat {
            entries,
            bytes,
            used,
        });
        true
    }

    /// Bytes held: entries and chunks (capacities, not lengths) or the
    /// pages of the regions written so far (committed pages that were
    /// never written hold no memory), and large strings.
    pub(super) fn memory_usage(&self) -> usize {
        let layout = match &self.flat {
            Some(f) => pages(self.pushed * size_of::<Entry>()) + pages(f.used),
            None => {
                self.segs.capacity() * size_of::<Vec<Entry>>()
                    + self
                        .segs
                        .iter()
                        .map(|s| s.capacity() * size_of::<Entry>())
                        .sum::<usize>()
                    + self.chunks.capacity() * size_of::<Vec<u8>>()
            }
        };
        layout
            + self.staged.touched()
            + self.large.capacity() * size_of::<Box<str>>()
            + self.arena_bytes
    }
}
