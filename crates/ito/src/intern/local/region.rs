//! Reserved address space, committed from its start as it fills.
//!
//! A [`Region`] reserves a large range of virtual addresses once (no memory
//! behind it) and makes a growing prefix of it readable and writable. The
//! prefix never moves, so an array kept in a region is contiguous (one base
//! pointer, no segment table) and growing it never copies: the two
//! properties `LocalInterner`'s hit path and its pause-free growth want at
//! the same time.
//!
//! Backends, chosen at compile time; [`Region::reserve`] returns `None`
//! where there is none or the OS refuses (address-space limits, 32-bit
//! targets), and the caller keeps its segmented layout:
//! * Unix (64-bit): `mmap(PROT_NONE)` to reserve (no commit charge), then
//!   `mprotect(READ | WRITE)` to commit, through `rustix`.
//! * Windows (64-bit): `VirtualAlloc(MEM_RESERVE)`, then
//!   `VirtualAlloc(MEM_COMMIT)`, through `windows-sys`.
//! * Miri: one heap allocation of the whole (small, see the callers'
//!   sizes) reservation, so the interpreter checks the layout's pointer
//!   arithmetic; committing is bookkeeping only.
//!
//! Committing doubles the committed prefix (at least 64 KiB at a time):
//! committed pages hold no memory until they are first written, so a few
//! system calls suffice for any size. First writes are what cost: a fresh
//! page faults in (about 1.4 µs per 4 KiB page measured on this project's
//! VM, against ~0.15 µs to reuse heap memory). So, as an allocator keeps
//! freed memory, a dropped region goes to a small per-thread cache with
//! up to [`KEEP`] bytes of its pages still committed ([`Region::recycle`]),
//! and the next reservation of the same size on that thread takes it: an
//! interner built, filled and dropped in a loop touches warm pages.

use std::cell::RefCell;
use std::ptr::NonNull;

/// Smallest commit step.
const STEP_MIN: usize = 64 * 1024;
/// Committed bytes a cached region keeps (the rest is decommitted when it
/// enters the cache, so the cache holds at most `SPARE * KEEP` bytes of
/// memory per thread).
const KEEP: usize = 1 << 20;
/// Regions cached per thread (an interner has two).
const SPARE: usize = 4;

thread_local! {
    static CACHE: RefCell<Vec<Region>> = const { RefCell::new(Vec::new()) };
}

/// A reserved range whose first [`committed`](Region::committed) bytes are
/// usable. Dropping it returns the whole range to the OS.
pub(super) struct Region {
    base: NonNull<u8>,
    reserved: usize,
    committed: usize,
}

// SAFETY: a Region owns its range exclusively (like a `Box<[u8]>`); writes
// go through `&mut self` of its owner, reads through `&self`.
unsafe impl Send for Region {}
// SAFETY: `&Region` only exposes the base pointer and sizes; shared readers
// never write through it.
unsafe impl Sync for Region {}

impl Region {
    /// Reserve `bytes` of address space (rounded up to whole pages), none
    /// of it committed yet. `None` if this platform has no reservation or
    /// the OS refuses.
    pub(super) fn reserve(bytes: usize) -> Option<Region> {
        let page = sys::page_size();
        let reserved = bytes.checked_next_multiple_of(page)?;
        let cached = CACHE
            .try_with(|c| {
                let mut c = c.try_borrow_mut().ok()?;
                let i = c.iter().position(|r| r.reserved == reserved)?;
                Some(c.swap_remove(i))
            })
            .ok()
            .flatten();
        if cached.is_some() {
            return cached;
        }
        let base = sys::reserve(reserved)?;
        Some(Region {
            base,
            reserved,
            committed: 0,
        })
    }

    /// First byte of the range.
    #[inline(always)]
    pub(super) fn base(&self) -> *mut u8 {
        self.base.as_ptr()
    }

    /// Bytes usable from [`base`](Region::base).
    pub(super) fn committed(&self) -> usize {
        self.committed
    }

    /// Bytes reserved.
    #[cfg(test)]
    pub(super) fn reserved(&self) -> usize {
        self.reserved
    }

    /// Make the first `need` bytes usable, doubling the committed prefix
    /// (see the module docs). `Err(())` if `need` exceeds the reservation;
    /// a refusal by the OS to commit memory is treated as allocation
    /// failure (as `Vec` does).
    #[inline]
    pub(super) fn commit(&mut self, need: usize) -> Result<(), ()> {
        if need <= self.committed {
            return Ok(());
        }
        self.grow(need)
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, need: usize) -> Result<(), ()> {
        if need > self.reserved {
            return Err(());
        }
        let page = sys::page_size();
        let step = self.committed.max(STEP_MIN);
        let target = need
            .max(self.committed + step)
            .next_multiple_of(page)
            .min(self.reserved);
        // SAFETY: `committed..target` lies inside the reservation (target <=
        // reserved) and both ends are page multiples (committed is 0 or an
        // earlier page-rounded target, or `reserved`, itself page-rounded).
        let ok = unsafe { sys::commit(self.base, self.committed, target - self.committed) };
        if !ok {
            // Same outcome as a failed heap allocation of the missing bytes.
            let layout = std::alloc::Layout::from_size_align(target - self.committed, 1)
                .unwrap_or(std::alloc::Layout::new::<u8>());
            std::alloc::handle_alloc_error(layout);
        }
        self.committed = target;
        Ok(())
    }
}

impl Region {
    /// A region that reserves nothing (what [`recycle`](Region::recycle)
    /// leaves behind).
    pub(super) fn empty() -> Region {
        Region {
            base: NonNull::dangling(),
            reserved: 0,
            committed: 0,
        }
    }

    /// Hand this region to the thread's cache for the next
    /// [`reserve`](Region::reserve) of the same size, keeping at most
    /// [`KEEP`] committed bytes (their contents are stale: users write
    /// before they read); release it if the cache is full. Leaves `self`
    /// empty.
    pub(super) fn recycle(&mut self) {
        let mut r = std::mem::replace(self, Region::empty());
        if r.reserved == 0 {
            return;
        }
        if r.committed > KEEP {
            // SAFETY: `KEEP..committed` lies in the reservation and both
            // ends are page multiples (KEEP is a power of two above any page
            // size; committed is page-rounded).
            if unsafe { sys::decommit(r.base, KEEP, r.committed - KEEP) } {
                r.committed = KEEP;
            } else {
                return; // dropped: released whole
            }
        }
        let _ = CACHE.try_with(|c| {
            if let Ok(mut c) = c.try_borrow_mut() {
                if c.len() < SPARE {
                    c.push(std::mem::replace(&mut r, Region::empty()));
                }
            }
        });
        // `r` is released here unless the cache took it.
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        if self.reserved == 0 {
            return;
        }
        // SAFETY: `base..base + reserved` is the range `sys::reserve`
        // returned, released once here.
        unsafe { sys::release(self.base, self.reserved) }
    }
}

/// Give back up to `step` bytes of a buffer that will never be read again
/// (a drained table), from its end; `kept` counts the elements not yet
/// given back (start it at the capacity). Returns whether any are left.
///
/// Where pages can be discarded (Linux: `madvise(MADV_DONTNEED)`), the
/// whole pages among those bytes are, in place: the allocation stays, its
/// memory goes, and the caller keeps the emptied buffer instead of freeing
/// it. Freeing or shrinking a large block is what
/// stalls: the allocator unmaps it or trims its heap, which on this
/// project's Zen 3 VM (2026-11-27) took 13–15 µs per 64 KiB shrink, 28–49
/// µs for the first shrink of each table, and up to 167 µs to free an
/// emptied 8 MiB table, against 1–6 µs per discarded 16 KiB. Elsewhere the
/// buffer shrinks in place (`realloc`) and is freed when empty.
pub(super) fn release_step<T: Copy>(buf: &mut Vec<T>, kept: &mut usize, step: usize) -> bool {
    let size = size_of::<T>();
    *kept = (*kept).min(buf.capacity());
    let n = (step / size).max(1).min(*kept);
    let from = *kept - n;
    if sys::CAN_DISCARD {
        let page = sys::page_size();
        let base = buf.as_mut_ptr().cast::<u8>() as usize;
        let start = (base + from * size).next_multiple_of(page);
        let end = (base + *kept * size) / page * page;
        if start < end {
            // SAFETY: `start..end` is whole pages inside the buffer's
            // allocation, which `&mut` makes ours alone; its elements are
            // `Copy` (no drop reads them) and never read again, and any
            // bytes a discarded page reads back as are valid for them.
            let _ = unsafe { sys::discard(start as *mut u8, end - start) };
        }
        *kept = from;
        return from > 0;
    }
    buf.truncate(from);
    buf.shrink_to_fit();
    *kept = from.min(buf.capacity());
    buf.capacity() > 0
}

#[cfg(all(unix, target_pointer_width = "64", not(miri)))]
mod sys {
    use rustix::mm::{mmap_anonymous, mprotect, munmap, MapFlags, MprotectFlags, ProtFlags};
    use std::ptr::NonNull;

    pub(super) fn page_size() -> usize {
        rustix::param::page_size()
    }

    /// Whether [`discard`] frees pages.
    pub(super) const CAN_DISCARD: bool = cfg!(any(target_os = "linux", target_os = "android"));

    /// Free the pages of `at..at + len` in place (they read back as zeros).
    ///
    /// # Safety
    /// Whole pages of memory the caller owns exclusively and whose contents
    /// it no longer needs.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    pub(super) unsafe fn discard(at: *mut u8, len: usize) -> bool {
        // SAFETY: per the caller: our own pages, contents dead.
        unsafe { rustix::mm::madvise(at.cast(), len, rustix::mm::Advice::LinuxDontNeed) }.is_ok()
    }

    /// # Safety
    /// Never called ([`CAN_DISCARD`] is false here).
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    pub(super) unsafe fn discard(_at: *mut u8, _len: usize) -> bool {
        false
    }

    pub(super) fn reserve(len: usize) -> Option<NonNull<u8>> {
        // SAFETY: a fresh private anonymous mapping at an address of the
        // kernel's choosing aliases nothing; PROT_NONE commits no memory.
        let p = unsafe {
            mmap_anonymous(
                std::ptr::null_mut(),
                len,
                ProtFlags::empty(),
                MapFlags::PRIVATE,
            )
        };
        NonNull::new(p.ok()?.cast())
    }

    /// # Safety
    /// `at..at + len` lies inside a range from [`reserve`], page-aligned.
    pub(super) unsafe fn commit(base: NonNull<u8>, at: usize, len: usize) -> bool {
        // SAFETY: the caller's range is part of our own mapping; making it
        // writable cannot affect memory anyone else owns.
        unsafe {
            mprotect(
                base.as_ptr().add(at).cast(),
                len,
                MprotectFlags::READ | MprotectFlags::WRITE,
            )
        }
        .is_ok()
    }

    /// Give back the pages of `at..at + len` (a fresh PROT_NONE mapping
    /// replaces them in place).
    ///
    /// # Safety
    /// `at..at + len` lies inside a range from [`reserve`], page-aligned,
    /// and nothing refers into it.
    pub(super) unsafe fn decommit(base: NonNull<u8>, at: usize, len: usize) -> bool {
        // SAFETY: MAP_FIXED over part of our own mapping, which nothing
        // uses any more: it discards those pages and nothing else.
        unsafe {
            mmap_anonymous(
                base.as_ptr().add(at).cast(),
                len,
                ProtFlags::empty(),
                MapFlags::PRIVATE | MapFlags::FIXED,
            )
        }
        .is_ok()
    }

    /// # Safety
    /// `base, len` is exactly a range from [`reserve`], released once.
    pub(super) unsafe fn release(base: NonNull<u8>, len: usize) {
        // SAFETY: forwarded; nothing refers into the range any more.
        let _ = unsafe { munmap(base.as_ptr().cast(), len) };
    }
}

#[cfg(all(windows, target_pointer_width = "64", not(miri)))]
mod sys {
    use std::ptr::NonNull;
    use windows_sys::Win32::System::Memory::{
        VirtualAlloc, VirtualFree, MEM_COMMIT, MEM_DECOMMIT, MEM_RELEASE, MEM_RESERVE,
        PAGE_NOACCESS, PAGE_READWRITE,
    };

    pub(super) fn page_size() -> usize {
        // Commit granularity on every 64-bit Windows target.
        4096
    }

    /// Whether [`discard`] frees pages (no: buffers shrink in place).
    pub(super) const CAN_DISCARD: bool = false;

    /// # Safety
    /// Never called ([`CAN_DISCARD`] is false).
    pub(super) unsafe fn discard(_at: *mut u8, _len: usize) -> bool {
        false
    }

    pub(super) fn reserve(len: usize) -> Option<NonNull<u8>> {
        // SAFETY: reserving fresh address space of the system's choosing
        // aliases nothing and commits no memory.
        let p = unsafe { VirtualAlloc(std::ptr::null(), len, MEM_RESERVE, PAGE_NOACCESS) };
        NonNull::new(p.cast())
    }

    /// # Safety
    /// `at..at + len` lies inside a range from [`reserve`], page-aligned.
    pub(super) unsafe fn commit(base: NonNull<u8>, at: usize, len: usize) -> bool {
        // SAFETY: the range is part of our own reservation.
        let p = unsafe {
            VirtualAlloc(
                base.as_ptr().add(at).cast::<core::ffi::c_void>(),
                len,
                MEM_COMMIT,
                PAGE_READWRITE,
            )
        };
        !p.is_null()
    }

    /// # Safety
    /// `at..at + len` lies inside a range from [`reserve`], page-aligned,
    /// and nothing refers into it.
    pub(super) unsafe fn decommit(base: NonNull<u8>, at: usize, len: usize) -> bool {
        // SAFETY: our own committed pages, unused.
        unsafe { VirtualFree(base.as_ptr().add(at).cast(), len, MEM_DECOMMIT) != 0 }
    }

    /// # Safety
    /// `base` is the start of a range from [`reserve`], released once.
    pub(super) unsafe fn release(base: NonNull<u8>, _len: usize) {
        // SAFETY: forwarded; MEM_RELEASE takes size 0 and the base.
        let _ = unsafe { VirtualFree(base.as_ptr().cast(), 0, MEM_RELEASE) };
    }
}

#[cfg(miri)]
mod sys {
    use std::alloc::{alloc, dealloc, Layout};
    use std::ptr::NonNull;

    pub(super) fn page_size() -> usize {
        4096
    }

    /// Whether [`discard`] frees pages (no: buffers shrink in place).
    pub(super) const CAN_DISCARD: bool = false;

    /// # Safety
    /// Never called ([`CAN_DISCARD`] is false).
    pub(super) unsafe fn discard(_at: *mut u8, _len: usize) -> bool {
        false
    }

    fn layout(len: usize) -> Option<Layout> {
        Layout::from_size_align(len, 4096).ok()
    }

    pub(super) fn reserve(len: usize) -> Option<NonNull<u8>> {
        // SAFETY: `len` is non-zero (callers reserve at least a page).
        NonNull::new(unsafe { alloc(layout(len)?) })
    }

    /// # Safety
    /// Inside a range from [`reserve`] (already writable on the heap).
    pub(super) unsafe fn commit(_base: NonNull<u8>, _at: usize, _len: usize) -> bool {
        true
    }

    /// # Safety
    /// Inside a range from [`reserve`] (the heap keeps it).
    pub(super) unsafe fn decommit(_base: NonNull<u8>, _at: usize, _len: usize) -> bool {
        true
    }

    /// # Safety
    /// Exactly a range from [`reserve`], released once.
    pub(super) unsafe fn release(base: NonNull<u8>, len: usize) {
        if let Some(l) = layout(len) {
            // SAFETY: allocated by `reserve` with this layout.
            unsafe { dealloc(base.as_ptr(), l) }
        }
    }
}

#[cfg(not(any(
    miri,
    all(unix, target_pointer_width = "64"),
    all(windows, target_pointer_width = "64")
)))]
mod sys {
    use std::ptr::NonNull;

    pub(super) fn page_size() -> usize {
        4096
    }

    /// Whether [`discard`] frees pages (no: buffers shrink in place).
    pub(super) const CAN_DISCARD: bool = false;

    /// # Safety
    /// Never called ([`CAN_DISCARD`] is false).
    pub(super) unsafe fn discard(_at: *mut u8, _len: usize) -> bool {
        false
    }

    /// No reservation here: callers keep their segmented layout.
    pub(super) fn reserve(_len: usize) -> Option<NonNull<u8>> {
        None
    }

    /// # Safety
    /// Never called (no region exists).
    pub(super) unsafe fn commit(_base: NonNull<u8>, _at: usize, _len: usize) -> bool {
        false
    }

    /// # Safety
    /// Never called (no region exists).
    pub(super) unsafe fn decommit(_base: NonNull<u8>, _at: usize, _len: usize) -> bool {
        false
    }

    /// # Safety
    /// Never called (no region exists).
    pub(super) unsafe fn release(_base: NonNull<u8>, _len: usize) {}
}

#[cfg(test)]
mod tests {
    use super::{release_step, Region};

    #[test]
    fn release_step_gives_back_everything_in_bounded_steps() {
        for len in [0usize, 1, 1000, 4096, 70_000, 1 << 20] {
            let mut buf = vec![7u32; len];
            let mut kept = buf.capacity();
            let mut steps = 0;
            while release_step(&mut buf, &mut kept, 16 * 1024) {
                steps += 1;
                assert_eq!(kept, len - steps * 4096, "{len}");
                assert!(buf.capacity() <= len, "{len}");
            }
            assert_eq!(kept, 0, "{len}");
            // 4-byte elements: 4,096 per 16 KiB step.
            assert_eq!(steps + 1, len.div_ceil(4096).max(1), "{len}");
            // The buffer is either emptied in place (its pages discarded)
            // or shrunk to nothing.
            assert!(buf.capacity() == 0 || buf.capacity() == len);
        }
    }

    #[test]
    fn commit_grows_in_page_steps_and_the_bytes_stay_put() {
        let Some(mut r) = Region::reserve(1 << 24) else {
            return; // no reservation on this platform: nothing to test
        };
        assert_eq!(r.committed(), 0);
        r.commit(10).unwrap();
        let first = r.committed();
        assert!(first >= 10 && first % 4096 == 0);
        let base = r.base();
        // SAFETY: 10 bytes are committed.
        unsafe { base.write_bytes(0xab, 10) };
        r.commit(first + 1).unwrap();
        assert!(r.committed() > first);
        assert_eq!(r.base(), base);
        // SAFETY: still committed, never moved.
        assert_eq!(unsafe { *base.add(9) }, 0xab);
        r.commit(r.reserved()).unwrap();
        assert_eq!(r.committed(), r.reserved());
        assert!(r.commit(r.reserved() + 1).is_err());
        // SAFETY: the last byte of the reservation is committed.
        unsafe { r.base().add(r.reserved() - 1).write(1) };
    }
}
