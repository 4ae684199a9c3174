//! The one internal home for SIMD kernels and CPU dispatch.
//!
//! The bottom layer is `vector/`: one trait, `vector::Vector` (loads,
//! in-bounds partial loads and stores, splat, byte arithmetic, compares
//! into a per-level mask, mask bits), and one type per instruction set that
//! implements it (`x86::{Sse2, Avx2, Avx512}`, `neon::Neon`,
//! `simd128::Simd128`, `swar::Swar`).
//! The JSON, hex and `Str` facts kernels are generic code over it, each
//! adding a small extension trait for what only it needs (`json::Block`:
//! the tail splice and AVX-512's own escaper; `hex::HexVector`: the nibble
//! shuffles; `facts::FactsVector`: the unroll and the bad-byte
//! accumulator), and `class.rs` holds the one special-byte test in scalar,
//! SWAR and vector form.
//!
//! Every codec with a vector kernel (JSON escaping/unescaping, hex, the
//! fact scan behind `Str`) is instantiated once per instruction-set level
//! and chosen through the one mechanism in `dispatch.rs`: at compile time
//! when the build guarantees the features (`-C target-cpu=native`, aarch64
//! NEON, wasm32 with `+simd128`), else at run time:
//!
//! ```text
//! first call:  detect CPU -> store the best kernel table in an AtomicPtr
//! later calls: load AtomicPtr -> indirect call
//! ```
//!
//! [`Kernel`] names the levels. Tests loop over [`Kernel::available`] so each
//! kernel the host can run is tested on its own, and the per-codec
//! `*_with_kernel` entry points let benchmarks force one.
//!
//! Levels and why each exists:
//! - `Avx512`: 64-byte blocks with masked loads/stores for tails (needs
//!   AVX-512F + AVX-512BW).
//! - `Avx2`: 32-byte blocks, the common x86_64 server/desktop level.
//! - `Sse2`: 16-byte blocks, present on every x86_64 CPU.
//! - `Neon`: 16-byte blocks, present on every aarch64 CPU.
//! - `Simd128`: 16-byte blocks, WebAssembly SIMD. WebAssembly cannot detect
//!   features at run time (a module using an instruction the engine lacks
//!   does not load), so this level is compiled in only when the build
//!   enables it (`RUSTFLAGS="-C target-feature=+simd128"`) and is then the
//!   one used; a wasm32 build without the flag runs `Swar`.
//! - `Swar`: 8-byte blocks in a `u64`, portable (and what Miri runs).
//! - `Scalar`: one byte at a time; the plain reference the tests compare
//!   every other kernel against. Never chosen automatically.

use std::fmt;

pub(crate) mod class;
#[cfg(all(target_arch = "x86_64", feature = "serde"))]
pub(crate) mod digits;
pub(crate) mod dispatch;
pub(crate) mod escape;
pub(crate) mod facts;
pub(crate) mod fault;
pub(crate) mod group;
#[cfg(all(test, unix))]
pub(crate) mod guard;
pub(crate) mod hex;
pub(crate) mod json;
pub(crate) mod utf8;
pub(crate) mod vector;

/// An instruction-set level that ito's SIMD kernels are compiled for.
///
/// The library picks the best available level automatically; this type
/// exists so tests and benchmarks can force a particular kernel and so tools
/// can report which one runs.
///
/// ```
/// use ito::Kernel;
/// let best = Kernel::best();
/// assert!(best.is_available());
/// assert!(Kernel::available().any(|k| k == Kernel::Scalar));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kernel {
    /// Byte-at-a-time reference implementation (tests only; never chosen
    /// by [`Kernel::best`]).
    Scalar,
    /// Portable 8-bytes-at-a-time kernel using `u64` arithmetic.
    Swar,
    /// x86_64 SSE2, 16-byte vectors.
    Sse2,
    /// x86_64 AVX2, 32-byte vectors.
    Avx2,
    /// x86_64 AVX-512 (F + BW), 64-byte vectors with masked tails.
    Avx512,
    /// aarch64 NEON, 16-byte vectors.
    Neon,
    /// WebAssembly SIMD (`simd128`), 16-byte vectors. Available only in
    /// wasm32 builds that enable the feature at compile time
    /// (`-C target-feature=+simd128`), where it is the kernel used.
    ///
    /// ```
    /// use ito::Kernel;
    /// let wasm_simd = cfg!(all(target_arch = "wasm32", target_feature = "simd128"));
    /// assert_eq!(Kernel::Simd128.is_available(), wasm_simd);
    /// assert_eq!(Kernel::Simd128.name(), "simd128");
    /// ```
    Simd128,
}

impl Kernel {
    /// Every kernel level, available on this CPU or not.
    ///
    /// ```
    /// assert_eq!(ito::Kernel::ALL.len(), 7);
    /// ```
    pub const ALL: [Kernel; 7] = [
        Kernel::Scalar,
        Kernel::Swar,
        Kernel::Sse2,
        Kernel::Avx2,
        Kernel::Avx512,
        Kernel::Neon,
        Kernel::Simd128,
    ];

    /// Whether this CPU (and this build) can run the kernel.
    ///
    /// ```
    /// assert!(ito::Kernel::Swar.is_available());
    /// ```
    pub fn is_available(self) -> bool {
        match self {
            Kernel::Scalar | Kernel::Swar => true,
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            Kernel::Sse2 => true,
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            // The AVX kernels are also compiled with POPCNT, which every
            // CPU with AVX2 has in practice.
            Kernel::Avx2 => {
                std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("popcnt")
            }
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            Kernel::Avx512 => {
                std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
                    && std::is_x86_feature_detected!("popcnt")
            }
            #[cfg(all(target_arch = "aarch64", target_feature = "neon", not(miri)))]
            Kernel::Neon => true,
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(miri)))]
            Kernel::Simd128 => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// The fastest kernel this CPU can run (detected once, then cached;
    /// a constant when the build guarantees the features).
    ///
    /// Under Miri this is [`Kernel::Swar`], since Miri cannot run vendor
    /// intrinsics.
    ///
    /// In a portable build, the environment variable `ITO_KERNEL` names a
    /// lower level to use instead (`swar`, `sse2`, `avx2`, ...), read at
    /// the first call: a way to test and measure on one machine the path
    /// an older CPU takes. A name this CPU cannot run, or `scalar`, is
    /// ignored. A build that guarantees a level (`-C target-cpu=...`)
    /// always uses that level.
    ///
    /// ```
    /// let k = ito::Kernel::best();
    /// assert_ne!(k, ito::Kernel::Scalar);
    /// ```
    pub fn best() -> Kernel {
        use std::sync::atomic::{AtomicU8, Ordering};
        if let Some(k) = dispatch::BUILD_KERNEL {
            return k;
        }
        static BEST: AtomicU8 = AtomicU8::new(u8::MAX);
        let cached = BEST.load(Ordering::Relaxed);
        if let Some(k) = Kernel::ALL.get(cached as usize) {
            return *k;
        }
        let best = Kernel::requested().unwrap_or_else(|| {
            [
                Kernel::Avx512,
                Kernel::Avx2,
                Kernel::Neon,
                Kernel::Simd128,
                Kernel::Sse2,
            ]
            .into_iter()
            .find(|k| k.is_available())
            .unwrap_or(Kernel::Swar)
        });
        let index = Kernel::ALL.iter().position(|k| *k == best).unwrap_or(1);
        BEST.store(index as u8, Ordering::Relaxed);
        best
    }

    /// The level `ITO_KERNEL` names, if this CPU can run it (never
    /// [`Kernel::Scalar`]).
    fn requested() -> Option<Kernel> {
        let name = std::env::var("ITO_KERNEL").ok()?;
        Kernel::ALL
            .into_iter()
            .find(|k| *k != Kernel::Scalar && k.name() == name && k.is_available())
    }

    /// The kernels this CPU can run, slowest first (always includes
    /// [`Kernel::Scalar`] and [`Kernel::Swar`]).
    ///
    /// ```
    /// for kernel in ito::Kernel::available() {
    ///     assert!(kernel.is_available());
    /// }
    /// ```
    pub fn available() -> impl Iterator<Item = Kernel> {
        Kernel::ALL.into_iter().filter(|k| k.is_available())
    }

    /// A short lowercase name: `"scalar"`, `"swar"`, `"sse2"`, `"avx2"`,
    /// `"avx512"`, `"neon"` or `"simd128"`.
    ///
    /// ```
    /// assert_eq!(ito::Kernel::Avx2.name(), "avx2");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Scalar => "scalar",
            Kernel::Swar => "swar",
            Kernel::Sse2 => "sse2",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
            Kernel::Neon => "neon",
            Kernel::Simd128 => "simd128",
        }
    }
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_is_available_and_stable() {
        let a = Kernel::best();
        assert!(a.is_available());
        assert_eq!(a, Kernel::best());
        assert_ne!(a, Kernel::Scalar);
    }

    /// Meaningful when the environment names a level (scripts/test.sh runs
    /// the codec tests once per level below this CPU's best).
    #[test]
    fn ito_kernel_names_the_level() {
        let name = std::env::var("ITO_KERNEL").unwrap_or_default();
        if name.is_empty() {
            return;
        }
        let k = Kernel::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .expect("ITO_KERNEL names a kernel");
        if k != Kernel::Scalar && k.is_available() && dispatch::BUILD_KERNEL.is_none() {
            assert_eq!(Kernel::best(), k);
        }
    }

    #[test]
    fn names_are_distinct() {
        let mut names: Vec<_> = Kernel::ALL.iter().map(|k| k.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), Kernel::ALL.len());
    }

    #[cfg(all(target_arch = "x86_64", not(miri)))]
    #[test]
    fn x86_64_always_has_sse2() {
        assert!(Kernel::Sse2.is_available());
        assert!(!Kernel::Neon.is_available());
        assert!(!Kernel::Simd128.is_available());
    }

    /// A wasm32 build with `+simd128` uses it; one without runs SWAR.
    #[cfg(target_arch = "wasm32")]
    #[test]
    fn wasm32_uses_simd128_exactly_when_built_with_it() {
        let simd = cfg!(target_feature = "simd128");
        assert_eq!(Kernel::Simd128.is_available(), simd);
        let want = if simd { Kernel::Simd128 } else { Kernel::Swar };
        assert_eq!(Kernel::best(), want);
    }
}
