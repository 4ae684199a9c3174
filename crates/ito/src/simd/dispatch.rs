//! The one CPU-dispatch mechanism every kernel family uses.
//!
//! A kernel family (JSON, hex, the `Str` facts scan) describes one
//! instruction-set level as a `'static` table of function pointers and
//! implements [`KernelTable`]: "the table compiled for this [`Kernel`]".
//! [`Dispatch`] then picks the table in one of two ways:
//!
//! ```text
//! build guarantees a level      (BUILD_KERNEL = Some(k), e.g. -C target-cpu=native,
//!                                aarch64 NEON, wasm32 +simd128):
//!                                T::table(k) folds to a constant;
//!                                the call through it is a direct call, inlinable
//! portable build (BUILD_KERNEL = None):
//!     first call:  detect CPU -> store &table in an AtomicPtr -> use it
//!     later calls: one relaxed load -> indirect call
//! ```
//!
//! The compile-time choice is what memchr does for `target_feature = "avx2"`:
//! no cached-pointer load and no indirect call, so short calls pay nothing
//! for dispatch. The test hooks ([`for_kernel`], used by every
//! `*_with_kernel` function) still hand out every table the *CPU* can run,
//! so a native build tests the narrower kernels too.
//!
//! Under Miri [`BUILD_KERNEL`] is `None` and detection yields SWAR.

use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};

use super::Kernel;

/// The widest level the build itself guarantees (from `cfg(target_feature)`),
/// or `None` for a portable build that must detect the CPU at run time.
///
/// The AVX levels also need POPCNT (their kernels are compiled with it).
pub(crate) const BUILD_KERNEL: Option<Kernel> = if cfg!(all(
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx512bw",
    target_feature = "popcnt",
    not(miri)
)) {
    Some(Kernel::Avx512)
} else if cfg!(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    target_feature = "popcnt",
    not(miri)
)) {
    Some(Kernel::Avx2)
} else if cfg!(all(
    target_arch = "aarch64",
    target_feature = "neon",
    not(miri)
)) {
    Some(Kernel::Neon)
} else if cfg!(all(
    target_arch = "wasm32",
    target_feature = "simd128",
    not(miri)
)) {
    Some(Kernel::Simd128)
} else {
    None
};

/// A kernel family's table of functions for one level.
pub(crate) trait KernelTable: Sync + 'static {
    /// The table compiled for `kernel`, without looking at the CPU; `None`
    /// when this build has no such table (wrong architecture, Miri). Must be
    /// a plain `match` over statics so that a constant `kernel` folds.
    fn table(kernel: Kernel) -> Option<&'static Self>;

    /// The table used when detection finds nothing better (always compiled).
    fn fallback() -> &'static Self;
}

/// The table for `kernel` if this CPU can run it (tests, benchmarks and the
/// `*_with_kernel` hooks).
pub(crate) fn for_kernel<T: KernelTable>(kernel: Kernel) -> Option<&'static T> {
    if kernel.is_available() {
        T::table(kernel)
    } else {
        None
    }
}

/// The chosen table of one kernel family; see the module docs.
pub(crate) struct Dispatch<T: KernelTable> {
    chosen: AtomicPtr<T>,
}

impl<T: KernelTable> Dispatch<T> {
    /// An empty slot (detection runs on first use).
    pub(crate) const fn new() -> Self {
        Dispatch {
            chosen: AtomicPtr::new(ptr::null_mut()),
        }
    }

    /// The best table for this build and CPU.
    #[inline(always)]
    pub(crate) fn get(&'static self) -> &'static T {
        if let Some(k) = BUILD_KERNEL {
            if let Some(t) = T::table(k) {
                return t;
            }
        }
        let p = self.chosen.load(Ordering::Relaxed);
        if !p.is_null() {
            // SAFETY: `chosen` is only ever set (below) from a `&'static T`.
            return unsafe { &*p };
        }
        self.detect()
    }

    /// The table already chosen: the build's, or the one detection stored;
    /// `None` before the first detection. Lets a hot path leave detection
    /// to a cold tail call of its own (so it needs no frame to come back
    /// to), then call [`Dispatch::get`] there.
    #[cfg_attr(not(all(vector_target, not(miri))), allow(dead_code))]
    #[inline(always)]
    pub(crate) fn chosen(&'static self) -> Option<&'static T> {
        if let Some(k) = BUILD_KERNEL {
            if let Some(t) = T::table(k) {
                return Some(t);
            }
        }
        let p = self.chosen.load(Ordering::Relaxed);
        // SAFETY: `chosen` is only ever set (below) from a `&'static T`.
        (!p.is_null()).then(|| unsafe { &*p })
    }

    #[cold]
    #[inline(never)]
    fn detect(&'static self) -> &'static T {
        let t = for_kernel::<T>(Kernel::best()).unwrap_or_else(T::fallback);
        self.chosen
            .store(t as *const T as *mut T, Ordering::Relaxed);
        t
    }
}

/// Evaluates the arm for the level the build guarantees — the same
/// conditions as [`BUILD_KERNEL`], kept here side by side — or `runtime`
/// in a portable build. Used where a kernel family calls its functions by
/// name (`x86::avx2::quote(..)`), so a native build makes a direct,
/// inlinable call instead of loading a pointer from the kernel table.
macro_rules! by_build_kernel {
    (
        avx512 => $avx512:expr,
        avx2 => $avx2:expr,
        neon => $neon:expr,
        simd128 => $simd128:expr,
        runtime => $runtime:expr $(,)?
    ) => {{
        #[cfg(all(
            target_arch = "x86_64",
            target_feature = "avx512f",
            target_feature = "avx512bw",
            target_feature = "popcnt",
            not(miri)
        ))]
        let r = $avx512;
        #[cfg(all(
            target_arch = "x86_64",
            target_feature = "avx2",
            target_feature = "popcnt",
            not(all(target_feature = "avx512f", target_feature = "avx512bw")),
            not(miri)
        ))]
        let r = $avx2;
        #[cfg(all(target_arch = "aarch64", target_feature = "neon", not(miri)))]
        let r = $neon;
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(miri)))]
        let r = $simd128;
        #[cfg(not(any(
            all(
                target_arch = "x86_64",
                target_feature = "avx2",
                target_feature = "popcnt",
                not(miri)
            ),
            all(target_arch = "aarch64", target_feature = "neon", not(miri)),
            all(target_arch = "wasm32", target_feature = "simd128", not(miri))
        )))]
        let r = $runtime;
        r
    }};
}
pub(crate) use by_build_kernel;

#[cfg(test)]
mod tests {
    use super::*;

    /// The macro's arms and `BUILD_KERNEL` agree.
    #[test]
    fn build_kernel_matches_macro() {
        let by_macro = by_build_kernel!(
            avx512 => Some(Kernel::Avx512),
            avx2 => Some(Kernel::Avx2),
            neon => Some(Kernel::Neon),
            simd128 => Some(Kernel::Simd128),
            runtime => None,
        );
        assert_eq!(by_macro, BUILD_KERNEL);
        if let Some(k) = BUILD_KERNEL {
            assert!(k.is_available());
            assert_eq!(Kernel::best(), k);
        }
    }
}
