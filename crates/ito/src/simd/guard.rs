//! Guard-page buffers for tests: one read/write page followed by a page
//! mapped `PROT_NONE`. Bytes placed so that they end right at the guard
//! page make any read or write past their end fault, even by one byte, even
//! where the same page would otherwise have been readable.
//!
//! The one copy for the crate's unit tests (`simd::guard`) and its
//! integration tests (`tests/common/mod.rs` includes this file by path).
//! Under Miri, which has no `mmap`, each buffer is a heap allocation of
//! exactly the requested size, where Miri reports any access past the end
//! itself.

/// One read/write page and a `PROT_NONE` page after it, unmapped on drop.
#[cfg(not(miri))]
pub(crate) struct Guarded {
    base: *mut u8,
    page: usize,
}

#[cfg(not(miri))]
impl Guarded {
    /// Maps the two pages. Panics if the mapping fails.
    pub(crate) fn new() -> Guarded {
        // SAFETY: sysconf has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as usize;
        // SAFETY: a fresh anonymous private mapping of two pages (no address
        // hint, no file); the result is checked below.
        let base = unsafe {
            libc::mmap(
                core::ptr::null_mut(),
                2 * page,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(base, libc::MAP_FAILED);
        // SAFETY: the second page belongs to the mapping we just made.
        let rc =
            unsafe { libc::mprotect((base as *mut u8).add(page) as *mut _, page, libc::PROT_NONE) };
        assert_eq!(rc, 0);
        Guarded {
            base: base as *mut u8,
            page,
        }
    }

    /// The `len` bytes that end exactly at the guard page (`len` at most
    /// one page).
    pub(crate) fn tail(&mut self, len: usize) -> &mut [u8] {
        assert!(len <= self.page);
        // SAFETY: the `len` bytes before the guard page lie in the mapped
        // read/write page and are reachable only through this `&mut self`
        // borrow.
        unsafe { core::slice::from_raw_parts_mut(self.base.add(self.page - len), len) }
    }

    /// `bytes` copied so that they end exactly at the guard page (at most
    /// one page of them).
    pub(crate) fn place(&mut self, bytes: &[u8]) -> &[u8] {
        let tail = self.tail(bytes.len());
        tail.copy_from_slice(bytes);
        tail
    }
}

#[cfg(not(miri))]
impl Drop for Guarded {
    fn drop(&mut self) {
        // SAFETY: unmapping exactly the mapping made in `new`, whose slices
        // cannot outlive this value.
        unsafe { libc::munmap(self.base as *mut _, 2 * self.page) };
    }
}

/// Miri's stand-in: an exact-size heap buffer (kept while the length stays
/// the same, like the mapping's bytes).
#[cfg(miri)]
pub(crate) struct Guarded {
    buf: Box<[u8]>,
}

#[cfg(miri)]
impl Guarded {
    pub(crate) fn new() -> Guarded {
        Guarded { buf: Box::new([]) }
    }

    pub(crate) fn tail(&mut self, len: usize) -> &mut [u8] {
        if self.buf.len() != len {
            self.buf = vec![0; len].into_boxed_slice();
        }
        &mut self.buf
    }

    pub(crate) fn place(&mut self, bytes: &[u8]) -> &[u8] {
        let tail = self.tail(bytes.len());
        tail.copy_from_slice(bytes);
        tail
    }
}
