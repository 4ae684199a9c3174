//! The copy + classify kernel behind `Str`'s facts.
//!
//! A `Str` learns two facts about its bytes on demand (see `str/mod.rs`);
//! this kernel computes them for the first query of a heap string or of a
//! `StrBuf` that does not know them ([`classify`]):
//!
//! - [`ASCII`]: no byte has its high bit set;
//! - [`JSON_SAFE`]: no byte needs escaping inside a JSON string, i.e. no byte
//!   is `"` (0x22), `\` (0x5C) or a control character below 0x20.
//!
//! Algorithm (all widths): load a block, store it to the destination at once,
//! then OR two accumulators: the block itself (its high bits answer "ASCII?")
//! and a "bad byte" mask (`== '"'`, `== '\\'`, `< 0x20`). After the loop the
//! two accumulators are reduced once. Tails use one *overlapping* in-bounds
//! block ending exactly at the last byte (re-storing a few bytes is harmless,
//! re-classifying them is idempotent); no kernel ever reads past the end of
//! the source.
//!
//! ```text
//! for block in src:      store(dst, block); bad |= classify(block); or |= block
//! tail:                  the last full block, overlapping the previous one
//! facts = (or & 0x80.. == 0 ? ASCII : 0) | (bad == 0 ? JSON_SAFE : 0)
//! ```
//!
//! The block loop is written once, [`copy_blocks`] (and the straight-line
//! [`copy_short`] for 16..=64 bytes), generic over the crate's one
//! [`Vector`] trait plus [`FactsVector`], the little that differs per
//! instruction set: how a block's "bad byte" lanes are computed and how
//! their OR is tested at the end, and whether the loop takes two blocks per
//! iteration. Each level is a thin entry point that instantiates it:
//!
//! ```text
//! SWAR      8 bytes   portable, what Miri runs; its own straight-line
//!                     code to 32 bytes (short inputs, no dispatch)
//! SSE2     16 bytes   x86_64 baseline; `copy_short` inline for 16..=64 bytes
//! AVX2     32 bytes   two blocks per iteration
//! AVX-512  64 bytes   below 128 bytes: AVX2; overlapping (not masked) tail
//! NEON     16 bytes   aarch64 baseline; two blocks per iteration,
//!                     `copy_short` inline for 16..=64 bytes
//! simd128  16 bytes   wasm32 builds with `+simd128`; as NEON
//! ```
//!
//! `Str`s are mostly short, so the inline paths (SWAR below 16 bytes, or 32
//! where no vector is baseline; `copy_short` to 64) are what matters most;
//! the wide kernels pay off for the long pieces of `format!`/`concat!`/
//! `StrBuf`.
//!
//! The SSE2/AVX2 kernels fold two of the three tests into one: `x ^ 0x02`
//! maps `"` (0x22) to 0x20 and keeps 0x00..=0x1F in place, so "control or
//! quote" is `(x ^ 0x02) <= 0x20`, computed as a saturating `0x21 - (x ^
//! 0x02)` that is non-zero exactly for those bytes (xor, subs, cmpeq for
//! `\`, two ors per block: one op fewer than the `min`-and-compare an
//! unsigned `<=` costs there). AVX-512 uses the crate's vector form of the
//! test, `class::special_lanes` (the same `x ^ 0x02` compared into a `k`
//! mask); NEON the SSE2 form (see its `FactsVector` impl for why), SWAR
//! its own [`swar_bad`].
//!
//! The SWAR "bad byte" test uses the same folding with the classic
//! exact-for-any formulas:
//! `has_less(x, n) = (x - 0x01..*n) & !x & 0x80..` and
//! `has_zero(x) = (x - 0x01..) & !x & 0x80..`; individual lanes may be
//! misreported after a borrow, but the word is non-zero iff some byte
//! matches, which is all an accumulator needs.

use super::dispatch::{Dispatch, KernelTable};
use super::vector::swar::Swar;
use super::vector::Vector;
use super::Kernel;

/// Fact bit: every byte is ASCII.
pub(crate) const ASCII: u8 = 1;
/// Fact bit: no byte needs JSON escaping (`"`, `\`, or < 0x20).
pub(crate) const JSON_SAFE: u8 = 2;
/// Both facts (the facts of the empty string).
pub(crate) const ALL: u8 = ASCII | JSON_SAFE;

/// Facts of one byte, the scalar reference.
#[inline]
pub(crate) const fn byte_facts(b: u8) -> u8 {
    let ascii = if b < 0x80 { ASCII } else { 0 };
    let safe = if b < 0x20 || b == b'"' || b == b'\\' {
        0
    } else {
        JSON_SAFE
    };
    ascii | safe
}

/// Classify `bytes` one byte at a time (usable in `const` contexts; the
/// reference every other kernel is tested against).
pub(crate) const fn classify_scalar(bytes: &[u8]) -> u8 {
    let mut facts = ALL;
    let mut i = 0;
    while i < bytes.len() {
        facts &= byte_facts(bytes[i]);
        i += 1;
    }
    facts
}

/// Signature of a dispatched kernel: copy `len` bytes from `src` to `dst`
/// and return their facts.
type CopyFn = unsafe fn(*const u8, usize, *mut u8) -> u8;

/// The facts kernel of one level (see `simd::dispatch`).
struct FactsKernel {
    copy: CopyFn,
}

static SCALAR: FactsKernel = FactsKernel { copy: scalar };
static SWAR: FactsKernel = FactsKernel { copy: swar };
#[cfg(all(target_arch = "x86_64", not(miri)))]
static SSE2: FactsKernel = FactsKernel { copy: x86::sse2 };
#[cfg(all(target_arch = "x86_64", not(miri)))]
static AVX2: FactsKernel = FactsKernel { copy: x86::avx2 };
#[cfg(all(target_arch = "x86_64", not(miri)))]
static AVX512: FactsKernel = FactsKernel { copy: x86::avx512 };
#[cfg(all(target_arch = "aarch64", not(miri)))]
static NEON: FactsKernel = FactsKernel { copy: neon::neon };
#[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(miri)))]
static SIMD128: FactsKernel = FactsKernel {
    copy: simd128::simd128,
};

impl KernelTable for FactsKernel {
    #[inline(always)]
    fn table(kernel: Kernel) -> Option<&'static FactsKernel> {
        match kernel {
            Kernel::Scalar => Some(&SCALAR),
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            Kernel::Sse2 => Some(&SSE2),
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            Kernel::Avx2 => Some(&AVX2),
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            Kernel::Avx512 => Some(&AVX512),
            #[cfg(all(target_arch = "aarch64", not(miri)))]
            Kernel::Neon => Some(&NEON),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(miri)))]
            Kernel::Simd128 => Some(&SIMD128),
            // SWAR itself, and levels this build has no kernel for.
            _ => Some(&SWAR),
        }
    }

    fn fallback() -> &'static FactsKernel {
        &SWAR
    }
}

// Unused when the build guarantees a level (`by_build_kernel!` calls it by name).
#[allow(dead_code)]
static COPY: Dispatch<FactsKernel> = Dispatch::new();

/// Below this many bytes the SWAR path runs inline, without dispatch.
const SHORT: usize = 32;

/// Copy `src` to `dst` and return the facts of the copied bytes.
///
/// Always inlined: short inputs (the common case for `format!` pieces) run
/// the SWAR path or, up to 64 bytes, [`copy_short`] (x86_64, aarch64,
/// wasm32 with `simd128`) in
/// place, without a call; longer ones make one call to the dispatched
/// kernel (indirect in a portable x86_64 build).
///
/// # Safety
/// `dst` must be valid for writes of `src.len()` bytes and must not overlap
/// `src`.
#[inline(always)]
pub(crate) unsafe fn copy_classify(src: &[u8], dst: *mut u8) -> u8 {
    let n = src.len();
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    if (16..=64).contains(&n) {
        // SSE2 is baseline on x86_64: no dispatch needed for mid-sized
        // pieces, which saves the indirect call `format!` pays per piece.
        // SAFETY: forwarded caller contract; 16 <= n <= 64.
        return unsafe { x86::sse2_short(src.as_ptr(), n, dst) };
    }
    #[cfg(all(target_arch = "aarch64", not(miri)))]
    if (16..=64).contains(&n) {
        // NEON is baseline on aarch64: the same straight-line path.
        // SAFETY: forwarded caller contract; 16 <= n <= 64.
        return unsafe { neon::neon_short(src.as_ptr(), n, dst) };
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(miri)))]
    if (16..=64).contains(&n) {
        // The build enables simd128 for the whole module: the same
        // straight-line path.
        // SAFETY: forwarded caller contract; 16 <= n <= 64.
        return unsafe { simd128::simd128_short(src.as_ptr(), n, dst) };
    }
    if n < SHORT {
        // SAFETY: forwarded caller contract.
        return unsafe { swar(src.as_ptr(), n, dst) };
    }
    // SAFETY: forwarded caller contract.
    unsafe { copy_classify_long(src, dst) }
}

/// The dispatched path of [`copy_classify`].
///
/// # Safety
/// As [`copy_classify`].
#[inline(never)]
unsafe fn copy_classify_long(src: &[u8], dst: *mut u8) -> u8 {
    let (p, n) = (src.as_ptr(), src.len());
    // SAFETY: the caller's contract is the kernel's contract; the build
    // guarantees the named level, or COPY only returns kernels this CPU
    // runs.
    unsafe {
        super::dispatch::by_build_kernel!(
            avx512 => x86::avx512(p, n, dst),
            avx2 => x86::avx2(p, n, dst),
            neon => neon::neon(p, n, dst),
            simd128 => simd128::simd128(p, n, dst),
            // The hot path keeps no frame: a table already chosen is a
            // tail jump, detection (once) is a cold tail call of its own.
            runtime => match COPY.chosen() {
                Some(t) => (t.copy)(p, n, dst),
                None => copy_classify_detect(p, n, dst),
            },
        )
    }
}

/// The first [`copy_classify_long`] of the process: detect, then copy.
///
/// # Safety
/// As [`copy_classify`].
// Unused when the build guarantees a level, like `COPY`.
#[allow(dead_code)]
#[cold]
#[inline(never)]
unsafe fn copy_classify_detect(p: *const u8, n: usize, dst: *mut u8) -> u8 {
    // SAFETY: forwarded caller contract; COPY only returns kernels this CPU
    // runs.
    unsafe { (COPY.get().copy)(p, n, dst) }
}

/// Facts of `src` without keeping a copy (the first query of a heap
/// `Str`'s facts). On x86_64, 16..=256 bytes are scanned in place with
/// SSE2 ([`scan_blocks`]); other lengths go through the dispatched copy
/// kernel into a stack buffer, 256 bytes at a time (the stores go to L1; a
/// scan-only entry point per level is not built).
#[inline]
pub(crate) fn classify(src: &[u8]) -> u8 {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    if (16..=SCAN_INLINE).contains(&src.len()) {
        // SSE2 is baseline: up to a few hundred bytes a scan in place
        // beats the calls and the indirect jump of the dispatched kernel.
        // SAFETY: SSE2 is baseline on x86_64; 16 <= len; `src` readable.
        return unsafe { scan_blocks::<super::vector::x86::Sse2>(src.as_ptr(), src.len()) };
    }
    classify_chunked(src)
}

/// [`classify`] through the dispatched copy kernel, 256 bytes at a time (a
/// function of its own, so the in-place scan keeps no stack frame).
#[inline(never)]
fn classify_chunked(src: &[u8]) -> u8 {
    let mut facts = ALL;
    // Never read: left uninitialised (zeroing it cost a 256-byte memset
    // per call).
    let mut buf = [std::mem::MaybeUninit::<u8>::uninit(); 256];
    for chunk in src.chunks(buf.len()) {
        // SAFETY: `buf` is valid for writes of `chunk.len() <= 256` bytes
        // and is a distinct local, so it cannot overlap `chunk`.
        facts &= unsafe { copy_classify(chunk, buf.as_mut_ptr().cast::<u8>()) };
    }
    facts
}

/// Copy and classify with a forced kernel (tests and benchmarks). Kernels
/// this build or CPU cannot run fall back to SWAR.
///
/// # Panics
/// If `dst` is shorter than `src`.
pub(crate) fn copy_classify_with_kernel(kernel: Kernel, src: &[u8], dst: &mut [u8]) -> u8 {
    assert!(dst.len() >= src.len(), "destination too short");
    let f: CopyFn = super::dispatch::for_kernel::<FactsKernel>(kernel)
        .unwrap_or(&SWAR)
        .copy;
    // SAFETY: `dst` is a distinct `&mut` slice of at least `src.len()`
    // bytes, and `f` is only a vector kernel when the CPU supports it.
    unsafe { f(src.as_ptr(), src.len(), dst.as_mut_ptr()) }
}

/// # Safety
/// `src` readable and `dst` writable for `len` bytes, not overlapping.
unsafe fn scalar(src: *const u8, len: usize, dst: *mut u8) -> u8 {
    let mut facts = ALL;
    for i in 0..len {
        // SAFETY: `i < len`, within both ranges by the caller's contract.
        unsafe {
            let b = *src.add(i);
            *dst.add(i) = b;
            facts &= byte_facts(b);
        }
    }
    facts
}

const LO: u64 = 0x0101_0101_0101_0101;
pub(crate) const HI: u64 = 0x8080_8080_8080_8080;

/// Non-zero iff some byte of `w` is `"`, `\` or < 0x20. A lane's flag
/// can only be spuriously set by a borrow from a *lower* lane that truly
/// matched, so masking off the top lanes (padding) keeps the test exact.
#[inline(always)]
pub(crate) fn swar_bad(w: u64) -> u64 {
    // Controls and '"': (w ^ 0x02..) has a byte < 0x21.
    let x = w ^ (LO * 0x02);
    let cq = x.wrapping_sub(LO * 0x21) & !x;
    // '\\': (w ^ 0x5C..) has a zero byte.
    let b = w ^ (LO * 0x5C);
    let b = b.wrapping_sub(LO) & !b;
    (cq | b) & HI
}

#[inline(always)]
fn swar_facts(or: u64, bad: u64) -> u8 {
    (if or & HI == 0 { ASCII } else { 0 }) | (if bad == 0 { JSON_SAFE } else { 0 })
}

/// The portable 8-bytes-at-a-time kernel.
///
/// # Safety
/// `src` readable and `dst` writable for `len` bytes, not overlapping.
#[inline(always)]
unsafe fn swar(src: *const u8, len: usize, dst: *mut u8) -> u8 {
    if len < 8 {
        if len >= 4 {
            // SAFETY: two overlapping 4-byte accesses at 0 and len-4, both in
            // bounds since 4 <= len < 8.
            unsafe {
                let a = src.cast::<u32>().read_unaligned();
                let b = src.add(len - 4).cast::<u32>().read_unaligned();
                dst.cast::<u32>().write_unaligned(a);
                dst.add(len - 4).cast::<u32>().write_unaligned(b);
                let w = a as u64 | (b as u64) << 32;
                return swar_facts(w, swar_bad(w));
            }
        }
        // 0..=3 bytes: fill a word with spaces (ASCII, JSON-safe) around them.
        let mut w = LO * b' ' as u64;
        let mut i = 0;
        while i < len {
            // SAFETY: `i < len`.
            unsafe {
                let b = *src.add(i);
                *dst.add(i) = b;
                w = (w & !(0xFF << (8 * i))) | (b as u64) << (8 * i);
            }
            i += 1;
        }
        return swar_facts(w, swar_bad(w));
    }
    if len <= 32 {
        // Straight-line for the common short case: words at 0, 8, 16 as
        // far as they fit, plus the last word (overlapping). Written out so
        // the stores stay fused with the loads (a loop here gets turned into
        // a `memcpy` call plus a second pass over the source).
        // SAFETY: every 8-byte access starts at an offset `o` with
        // `o + 8 <= len` (0; 8 if len >= 16; 16 if len >= 24; len - 8).
        unsafe {
            let mv = |o: usize| {
                let w = src.add(o).cast::<u64>().read_unaligned();
                dst.add(o).cast::<u64>().write_unaligned(w);
                w
            };
            let a = mv(0);
            let b = if len >= 16 { mv(8) } else { a };
            let c = if len >= 24 { mv(16) } else { a };
            let d = mv(len - 8);
            let or = a | b | c | d;
            let bad = swar_bad(a) | swar_bad(b) | swar_bad(c) | swar_bad(d);
            return swar_facts(or, bad);
        }
    }
    // SAFETY: 32 < len; the rest forwarded.
    unsafe { copy_blocks::<Swar>(src, len, dst) }
}

/// The SWAR form of the "bad byte" test, [`swar_bad`]: non-zero iff some
/// byte is bad (lanes above a true hit may be flagged spuriously, which an
/// accumulator does not mind).
impl FactsVector for Swar {
    const UNROLL: bool = false;
    #[inline(always)]
    unsafe fn no_bad() -> u64 {
        0
    }
    #[inline(always)]
    fn bad(self) -> u64 {
        swar_bad(self.0)
    }
}

#[inline(always)]
fn facts(ascii: bool, safe: bool) -> u8 {
    (if ascii { ASCII } else { 0 }) | (if safe { JSON_SAFE } else { 0 })
}

/// What the facts kernel needs of a [`Vector`] beyond the shared
/// operations: the per-block "bad byte" lanes, the test of their OR, and
/// the loop's unrolling. Implemented next to each entry point (`x86`,
/// `neon` below); every method is `#[inline(always)]`, so the generic body
/// inlines with the entry point's target features.
trait FactsVector: Vector {
    /// [`copy_blocks`] copies two blocks per iteration (both loads, then
    /// both stores), then one more block if it fits.
    const UNROLL: bool;

    /// An accumulator with no bad lane (what [`FactsVector::clean`] is
    /// true of).
    ///
    /// # Safety
    /// The CPU supports the instruction set.
    unsafe fn no_bad() -> Self::Mask;

    /// A mask, possibly loose (any non-zero lane value), of the lanes whose
    /// byte is `"`, `\` or < 0x20; ORed into the accumulator with
    /// [`Vector::mask_or`]. The default is the exact
    /// `class::special_lanes`.
    #[inline(always)]
    fn bad(self) -> Self::Mask {
        super::class::special_lanes(self)
    }

    /// Whether an OR of [`FactsVector::bad`] masks has no bad lane. The
    /// default reads [`Vector::bits`], right for exact masks.
    #[inline(always)]
    fn clean(acc: Self::Mask) -> bool {
        Self::bits(acc) == 0
    }
}

/// The facts of a copy whose blocks ORed to `or` and whose bad lanes ORed
/// to `bad`.
#[inline(always)]
fn reduce<V: FactsVector>(or: V, bad: V::Mask) -> u8 {
    facts(or.high_bits() == 0, V::clean(bad))
}

/// The block loop, written once for every width (SWAR's too):
/// `W`-byte blocks (two per iteration with
/// [`FactsVector::UNROLL`]), each stored at once and ORed into the two
/// accumulators, then the last `W` bytes again as an overlapping tail.
///
/// # Safety
/// The CPU supports `V`; `len >= V::W`; `src` readable and `dst` writable
/// for `len` bytes, not overlapping.
#[inline(always)]
unsafe fn copy_blocks<V: FactsVector>(src: *const u8, len: usize, dst: *mut u8) -> u8 {
    debug_assert!(len >= V::W);
    let w = V::W;
    // SAFETY: the CPU supports V per the caller; every access is at `i`
    // with `i + W <= len` (`i + 2W <= len` for the pairs), or at
    // `len - W >= 0`.
    unsafe {
        let mut or = V::splat(0);
        let mut bad = V::no_bad();
        let mut step = |v: V| {
            bad = V::mask_or(bad, v.bad());
            or = or.or(v);
        };
        let mut i = 0;
        if V::UNROLL {
            while i + 2 * w <= len {
                let a = V::load(src.add(i));
                let b = V::load(src.add(i + w));
                a.store(dst.add(i));
                b.store(dst.add(i + w));
                step(a);
                step(b);
                i += 2 * w;
            }
            if i + w <= len {
                let v = V::load(src.add(i));
                v.store(dst.add(i));
                step(v);
                i += w;
            }
        } else {
            while i + w <= len {
                let v = V::load(src.add(i));
                v.store(dst.add(i));
                step(v);
                i += w;
            }
        }
        if i < len {
            let v = V::load(src.add(len - w));
            v.store(dst.add(len - w));
            step(v);
        }
        reduce(or, bad)
    }
}

/// Up to this many bytes [`classify`] scans with SSE2 in place (x86_64).
#[cfg(all(target_arch = "x86_64", not(miri)))]
const SCAN_INLINE: usize = 256;

/// [`copy_blocks`] without the copy: the facts of `len >= W` bytes, `W` at
/// a time, the last block overlapping.
///
/// # Safety
/// The CPU supports `V`; `len >= V::W`; `src` readable for `len` bytes.
#[cfg_attr(not(all(target_arch = "x86_64", not(miri))), allow(dead_code))]
#[inline(always)]
unsafe fn scan_blocks<V: FactsVector>(src: *const u8, len: usize) -> u8 {
    debug_assert!(len >= V::W);
    let w = V::W;
    // SAFETY: the CPU supports V per the caller; every load is at `i` with
    // `i + W <= len`, or at `len - W >= 0`.
    unsafe {
        // Two pairs of accumulators: each OR chain then carries one block
        // per iteration of two, not two.
        let (mut or, mut or2) = (V::splat(0), V::splat(0));
        let (mut bad, mut bad2) = (V::no_bad(), V::no_bad());
        let mut i = 0;
        while i + 2 * w <= len {
            let a = V::load(src.add(i));
            let b = V::load(src.add(i + w));
            bad = V::mask_or(bad, a.bad());
            bad2 = V::mask_or(bad2, b.bad());
            or = or.or(a);
            or2 = or2.or(b);
            i += 2 * w;
        }
        if i + w <= len {
            let v = V::load(src.add(i));
            bad = V::mask_or(bad, v.bad());
            or = or.or(v);
            i += w;
        }
        if i < len {
            let v = V::load(src.add(len - w));
            bad2 = V::mask_or(bad2, v.bad());
            or2 = or2.or(v);
        }
        reduce(or.or(or2), V::mask_or(bad, bad2))
    }
}

/// Copy + classify of `W..=4W` bytes, straight-line: blocks at 0, `W` and
/// `2W` as far as they fit, plus the last `W` bytes (overlapping).
///
/// # Safety
/// The CPU supports `V`; `W <= len <= 4W`; `src` readable and `dst`
/// writable for `len` bytes, not overlapping.
// Unused without a baseline vector (wasm32, Miri).
#[cfg_attr(not(all(vector_target, not(miri))), allow(dead_code))]
#[inline(always)]
unsafe fn copy_short<V: FactsVector>(src: *const u8, len: usize, dst: *mut u8) -> u8 {
    let w = V::W;
    debug_assert!((w..=4 * w).contains(&len));
    // SAFETY: the CPU supports V per the caller; every access starts at 0,
    // W (len >= 2W), 2W (len >= 3W) or len - W, all in bounds.
    unsafe {
        let load = |o: usize| V::load(src.add(o));
        let store = |o: usize, v: V| v.store(dst.add(o));
        // Every load before any store: a store followed by a load whose
        // address matches it modulo 4 KiB waits for the store on x86
        // (4K aliasing), which made some source/destination address
        // pairs 40 % slower (bimodal per process).
        let a = load(0);
        let t = load(len - w);
        let b = if len >= 2 * w { load(w) } else { a };
        let c = if len >= 3 * w { load(2 * w) } else { a };
        store(0, a);
        store(len - w, t);
        if len >= 2 * w {
            store(w, b);
        }
        if len >= 3 * w {
            store(2 * w, c);
        }
        let or = a.or(t).or(b.or(c));
        let bad = V::mask_or(V::mask_or(a.bad(), t.bad()), V::mask_or(b.bad(), c.bad()));
        reduce(or, bad)
    }
}

#[cfg(all(target_arch = "x86_64", not(miri)))]
mod x86 {
    use super::{copy_blocks, copy_short, swar, FactsVector};
    use crate::simd::vector::x86::{Avx2, Avx512, Sse2};
    use std::arch::x86_64::*;

    /// Non-zero lanes: `(v ^ 2) < 0x21` (controls, `"`) as a saturating
    /// `0x21 - (v ^ 2)`; 0xFF lanes: `\`. One op shorter than
    /// `class::special_lanes`, whose unsigned `<=` is a `min` and a compare
    /// here; the lanes are loose, so [`FactsVector::clean`] compares with
    /// zero.
    impl FactsVector for Sse2 {
        const UNROLL: bool = false;
        #[inline(always)]
        unsafe fn no_bad() -> Sse2 {
            // SAFETY: SSE2 is baseline.
            Sse2(unsafe { _mm_setzero_si128() })
        }
        #[inline(always)]
        fn bad(self) -> Sse2 {
            // SAFETY: SSE2 is baseline.
            unsafe {
                let cq = _mm_subs_epu8(
                    _mm_set1_epi8(0x21),
                    _mm_xor_si128(self.0, _mm_set1_epi8(0x02)),
                );
                Sse2(_mm_or_si128(
                    cq,
                    _mm_cmpeq_epi8(self.0, _mm_set1_epi8(b'\\' as i8)),
                ))
            }
        }
        #[inline(always)]
        fn clean(acc: Sse2) -> bool {
            // SAFETY: SSE2 is baseline.
            unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(acc.0, _mm_setzero_si128())) == 0xFFFF }
        }
    }

    /// The SSE2 form at 32 bytes; the OR is tested with `vptest`.
    impl FactsVector for Avx2 {
        const UNROLL: bool = true;
        #[inline(always)]
        unsafe fn no_bad() -> Avx2 {
            // SAFETY: AVX2 per the caller.
            Avx2(unsafe { _mm256_setzero_si256() })
        }
        #[inline(always)]
        fn bad(self) -> Avx2 {
            // SAFETY: AVX2, since self exists.
            unsafe {
                let cq = _mm256_subs_epu8(
                    _mm256_set1_epi8(0x21),
                    _mm256_xor_si256(self.0, _mm256_set1_epi8(0x02)),
                );
                Avx2(_mm256_or_si256(
                    cq,
                    _mm256_cmpeq_epi8(self.0, _mm256_set1_epi8(b'\\' as i8)),
                ))
            }
        }
        #[inline(always)]
        fn clean(acc: Avx2) -> bool {
            // SAFETY: AVX2, since acc exists.
            unsafe { _mm256_testz_si256(acc.0, acc.0) == 1 }
        }
    }

    /// The defaults: `class::special_lanes` is two compares straight into
    /// `k` masks here (`vpcmpltub` of `v ^ 2` against 0x21, `vpcmpeqb`
    /// against `\`, the same code as the hand-written kernel had), and the
    /// mask is exact.
    impl FactsVector for Avx512 {
        const UNROLL: bool = false;
        #[inline(always)]
        unsafe fn no_bad() -> u64 {
            0
        }
    }

    /// # Safety
    /// SSE2 (always on x86_64); `src` readable and `dst` writable for `len`
    /// bytes, not overlapping.
    pub(super) unsafe fn sse2(src: *const u8, len: usize, dst: *mut u8) -> u8 {
        if len < 16 {
            // SAFETY: forwarded contract.
            return unsafe { swar(src, len, dst) };
        }
        // SAFETY: SSE2 is baseline; 16 <= len; the rest forwarded.
        unsafe { copy_blocks::<Sse2>(src, len, dst) }
    }

    /// SSE2 copy + classify of 16..=64 bytes, straight-line (see
    /// [`copy_short`]).
    ///
    /// # Safety
    /// `16 <= len <= 64`; `src` readable and `dst` writable for `len`
    /// bytes, not overlapping.
    #[inline(always)]
    pub(super) unsafe fn sse2_short(src: *const u8, len: usize, dst: *mut u8) -> u8 {
        // SAFETY: SSE2 is baseline; the rest forwarded.
        unsafe { copy_short::<Sse2>(src, len, dst) }
    }

    /// # Safety
    /// The CPU supports AVX2; `src` readable and `dst` writable for `len`
    /// bytes, not overlapping.
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn avx2(src: *const u8, len: usize, dst: *mut u8) -> u8 {
        if len < 32 {
            // SAFETY: forwarded contract.
            return unsafe { swar(src, len, dst) };
        }
        // SAFETY: AVX2 per the caller; 32 <= len; the rest forwarded.
        unsafe { copy_blocks::<Avx2>(src, len, dst) }
    }

    /// # Safety
    /// The CPU supports AVX-512F and AVX-512BW; `src` readable and `dst`
    /// writable for `len` bytes, not overlapping.
    // Never inlined: inlined into `copy_classify_long` in builds that
    // guarantee the level, LLVM's loop-idiom pass turned the copy into a
    // `memcpy` call plus a second, classifying pass over the bytes (heap
    // 200 B `Str::from` 0.68-0.72x `Box<str>` native against 0.79x
    // portable). The same holds for `avx2` above.
    #[inline(never)]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn avx512(src: *const u8, len: usize, dst: *mut u8) -> u8 {
        if len < 128 {
            // Short pieces (typical `format!` arguments): two overlapping
            // 32-byte blocks beat a masked 64-byte store. AVX-512F implies
            // AVX2 (rustc enables it with `avx512f`).
            // SAFETY: forwarded contract; AVX2 is available (see above).
            return unsafe { avx2(src, len, dst) };
        }
        // The tail is the last 64 bytes again (len >= 128: in bounds), not
        // a masked load and store: those cost ~40 % of a 200-byte copy on
        // Zen 5. Bytes seen twice change neither fact.
        // SAFETY: AVX-512F/BW per the caller; 128 <= len; the rest
        // forwarded.
        unsafe { copy_blocks::<Avx512>(src, len, dst) }
    }
}

#[cfg(all(target_arch = "aarch64", not(miri)))]
mod neon {
    use super::{copy_blocks, copy_short, swar, FactsVector};
    use crate::simd::vector::neon::Neon;
    use crate::simd::vector::Vector;
    use core::arch::aarch64::*;

    /// The SSE2 form (`uqsub`, `cmeq`): `class::special_lanes` costs the
    /// same four ops here (NEON has an unsigned compare), but LLVM ORs its
    /// two compare masks as booleans and re-widens them in the loop (`shl
    /// #7`, `cmlt #0`: two more ops per pair of blocks). The lanes are
    /// loose, so [`FactsVector::clean`] takes the maximum of the four
    /// 32-bit lanes instead of `shrn #4` (which drops bits 0..4 of every
    /// other byte). Two blocks per iteration become `ldp`/`stp` pairs.
    impl FactsVector for Neon {
        const UNROLL: bool = true;
        #[inline(always)]
        unsafe fn no_bad() -> Neon {
            // SAFETY: NEON per the caller.
            unsafe { Neon::splat(0) }
        }
        #[inline(always)]
        fn bad(self) -> Neon {
            // SAFETY: NEON is baseline.
            unsafe {
                let cq = vqsubq_u8(vdupq_n_u8(0x21), veorq_u8(self.0, vdupq_n_u8(0x02)));
                Neon(vorrq_u8(cq, vceqq_u8(self.0, vdupq_n_u8(b'\\'))))
            }
        }
        #[inline(always)]
        fn clean(acc: Neon) -> bool {
            // SAFETY: NEON is baseline.
            unsafe { vmaxvq_u32(vreinterpretq_u32_u8(acc.0)) == 0 }
        }
    }

    /// # Safety
    /// `src` readable and `dst` writable for `len` bytes, not overlapping
    /// (NEON is baseline on aarch64).
    // Never inlined, like the x86 `avx2`/`avx512`: builds on aarch64 always
    // guarantee NEON, so `copy_classify_long` calls this by name, where
    // inlining let LLVM's loop-idiom pass split the x86 copies into a
    // `memcpy` plus a second pass. (With plain `#[inline]` rustc 1.95
    // keeps it out of line anyway; this makes sure it stays so.)
    #[inline(never)]
    #[target_feature(enable = "neon")]
    pub(super) unsafe fn neon(src: *const u8, len: usize, dst: *mut u8) -> u8 {
        if len < 16 {
            // SAFETY: forwarded contract.
            return unsafe { swar(src, len, dst) };
        }
        // SAFETY: NEON is enabled here; 16 <= len; the rest forwarded.
        unsafe { copy_blocks::<Neon>(src, len, dst) }
    }

    /// NEON copy + classify of 16..=64 bytes, straight-line (see
    /// [`copy_short`]).
    ///
    /// # Safety
    /// `16 <= len <= 64`; `src` readable and `dst` writable for `len`
    /// bytes, not overlapping.
    #[inline(always)]
    pub(super) unsafe fn neon_short(src: *const u8, len: usize, dst: *mut u8) -> u8 {
        // SAFETY: NEON is baseline; the rest forwarded.
        unsafe { copy_short::<Neon>(src, len, dst) }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(miri)))]
mod simd128 {
    use super::{copy_blocks, copy_short, swar, FactsVector};
    use crate::simd::vector::simd128::Simd128;
    use core::arch::wasm32::*;

    /// The SSE2 form (`u8x16.sub_sat`, `i8x16.eq`): loose lanes, so
    /// [`FactsVector::clean`] is one `v128.any_true`.
    impl FactsVector for Simd128 {
        const UNROLL: bool = true;
        #[inline(always)]
        unsafe fn no_bad() -> Simd128 {
            Simd128(u8x16_splat(0))
        }
        #[inline(always)]
        fn bad(self) -> Simd128 {
            let cq = u8x16_sub_sat(u8x16_splat(0x21), v128_xor(self.0, u8x16_splat(0x02)));
            Simd128(v128_or(cq, u8x16_eq(self.0, u8x16_splat(b'\\'))))
        }
        #[inline(always)]
        fn clean(acc: Simd128) -> bool {
            !v128_any_true(acc.0)
        }
    }

    /// # Safety
    /// `src` readable and `dst` writable for `len` bytes, not overlapping
    /// (the build enables simd128).
    #[inline(never)]
    #[target_feature(enable = "simd128")]
    pub(super) unsafe fn simd128(src: *const u8, len: usize, dst: *mut u8) -> u8 {
        if len < 16 {
            // SAFETY: forwarded contract.
            return unsafe { swar(src, len, dst) };
        }
        // SAFETY: simd128 is enabled; 16 <= len; the rest forwarded.
        unsafe { copy_blocks::<Simd128>(src, len, dst) }
    }

    /// `simd128` copy + classify of 16..=64 bytes, straight-line (see
    /// [`copy_short`]).
    ///
    /// # Safety
    /// `16 <= len <= 64`; `src` readable and `dst` writable for `len`
    /// bytes, not overlapping.
    #[inline(always)]
    pub(super) unsafe fn simd128_short(src: *const u8, len: usize, dst: *mut u8) -> u8 {
        // SAFETY: the build enables simd128; the rest forwarded.
        unsafe { copy_short::<Simd128>(src, len, dst) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(kernel: Kernel, src: &[u8]) {
        let mut dst = vec![0xAAu8; src.len() + 3];
        let got = copy_classify_with_kernel(kernel, src, &mut dst[..src.len()]);
        assert_eq!(
            got,
            classify_scalar(src),
            "kernel {kernel} facts on {src:?}"
        );
        assert_eq!(&dst[..src.len()], src, "kernel {kernel} copy");
        assert!(
            dst[src.len()..].iter().all(|&b| b == 0xAA),
            "wrote past end"
        );
    }

    #[test]
    #[cfg_attr(miri, ignore = "exhaustive: too slow under Miri; see miri_small_cases")]
    fn exhaustive_positions_every_kernel() {
        // Every length 0..=100, every position, each special byte class.
        let specials = [b'"', b'\\', 0x00, 0x1F, 0x0A, 0x80, 0xFF, 0xC3, 0x7F, 0x20];
        for kernel in Kernel::available() {
            for len in 0..=100usize {
                let base: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
                check(kernel, &base);
                for pos in 0..len {
                    for &s in &specials {
                        let mut v = base.clone();
                        v[pos] = s;
                        check(kernel, &v);
                    }
                }
            }
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "too slow under Miri")]
    fn long_lengths_every_kernel() {
        // Past the short-input cut-overs (AVX-512 hands < 128 bytes to AVX2):
        // every length up to 320 with specials at the ends and the middle,
        // and every position for lengths around the block boundaries.
        let specials = [b'"', b'\\', 0x00, 0x1F, 0x80, 0xFF];
        for kernel in Kernel::available() {
            for len in 100..=320usize {
                let base: Vec<u8> = (0..len).map(|i| b'A' + (i % 26) as u8).collect();
                check(kernel, &base);
                let every = matches!(len, 127 | 128 | 129 | 191 | 192 | 193 | 255 | 256 | 320);
                let positions: Vec<usize> = if every {
                    (0..len).collect()
                } else {
                    vec![0, len / 2, len - 1]
                };
                for pos in positions {
                    for &sp in &specials {
                        let mut v = base.clone();
                        v[pos] = sp;
                        check(kernel, &v);
                    }
                }
            }
        }
    }

    #[test]
    fn miri_small_cases() {
        // A Miri-sized slice of the exhaustive test: every tail shape of the
        // SWAR kernel (lengths 0..=20) with one special byte at each end.
        for kernel in Kernel::available() {
            for len in 0..=20usize {
                let base = vec![b'k'; len];
                check(kernel, &base);
                for pos in [0, len.saturating_sub(1)] {
                    for s in [b'"', 0x01, 0xC3] {
                        if len > 0 {
                            let mut v = base.clone();
                            v[pos] = s;
                            check(kernel, &v);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn inline_paths_every_length_and_position() {
        // `copy_classify` itself (SWAR below 16, SSE2 16..=64 on x86_64,
        // dispatch above): every length to 160, every position, a few
        // special bytes. Under Miri: every length to 72 (all tail shapes of
        // the short paths and the first dispatched ones), positions at the
        // ends and the middle.
        let max_len: usize = if cfg!(miri) { 72 } else { 160 };
        for len in 0..=max_len {
            let base: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            let mut cases = vec![base.clone()];
            let positions: Vec<usize> = if cfg!(miri) {
                [0, len / 2, len.saturating_sub(1)]
                    .into_iter()
                    .filter(|&p| p < len)
                    .collect()
            } else {
                (0..len).collect()
            };
            for pos in positions {
                for sp in [b'"', b'\\', 0x1F, 0x20, 0x21, 0x5B, 0x80] {
                    let mut v = base.clone();
                    v[pos] = sp;
                    cases.push(v);
                }
            }
            for v in cases {
                let mut dst = vec![0u8; len + 2];
                // SAFETY: `dst` is a distinct buffer of len + 2 bytes.
                let f = unsafe { copy_classify(&v, dst.as_mut_ptr()) };
                assert_eq!(f, classify_scalar(&v), "{v:?}");
                assert_eq!(&dst[..len], &v[..]);
                assert_eq!(&dst[len..], &[0, 0]);
            }
        }
    }

    #[test]
    fn dispatched_matches_scalar() {
        for len in [0, 1, 7, 8, 31, 32, 33, 63, 64, 65, 200, 1000] {
            for special in [None, Some(b'"'), Some(0x85), Some(0x01)] {
                let mut v = vec![b'x'; len];
                if let (Some(s), true) = (special, len > 0) {
                    v[len / 2] = s;
                }
                let mut dst = vec![0; len];
                // SAFETY: dst is a distinct buffer of len bytes.
                let f = unsafe { copy_classify(&v, dst.as_mut_ptr()) };
                assert_eq!(f, classify_scalar(&v));
                assert_eq!(dst, v);
                assert_eq!(classify(&v), classify_scalar(&v));
            }
        }
    }

    #[test]
    fn every_level_runs_its_own_kernel() {
        // The tests above loop over `Kernel::available()`; this makes sure
        // each vector level there is its own kernel, not the SWAR fallback
        // (NEON on aarch64, SSE2/AVX2/AVX-512 on x86_64).
        for kernel in Kernel::available() {
            let table = super::super::dispatch::for_kernel::<FactsKernel>(kernel);
            let is_swar = table.is_some_and(|t| std::ptr::eq(t, &SWAR));
            assert_eq!(is_swar, kernel == Kernel::Swar, "kernel {kernel}");
        }
        #[cfg(all(target_arch = "aarch64", not(miri)))]
        assert!(Kernel::available().any(|k| k == Kernel::Neon));
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(miri)))]
        assert!(Kernel::available().any(|k| k == Kernel::Simd128));
    }

    /// Source and destination both end right at a `PROT_NONE` page, so
    /// any read past the source or write past the destination faults:
    /// every kernel this CPU runs and the inline paths, every length to
    /// 300 (all tails of every width, the AVX-512 and unrolled cut-overs),
    /// with a special byte last.
    #[test]
    #[cfg(all(unix, not(miri)))]
    fn guard_pages_every_kernel_and_length() {
        use crate::simd::guard::Guarded;

        let (mut src_map, mut dst_map) = (Guarded::new(), Guarded::new());
        for len in 0..=300usize {
            for last in [b'x', b'"', b'\\', 0x1F, 0xC3] {
                let mut v: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
                if let Some(l) = v.last_mut() {
                    *l = last;
                }
                let want = classify_scalar(&v);
                src_map.tail(len).copy_from_slice(&v);
                let src: &[u8] = src_map.tail(len);
                assert_eq!(classify(src), want, "classify, len {len}");
                for kernel in Kernel::available() {
                    let dst = dst_map.tail(len);
                    dst.fill(0);
                    let got = copy_classify_with_kernel(kernel, src, dst);
                    assert_eq!(got, want, "kernel {kernel}, len {len}");
                    assert_eq!(&dst[..], &v[..], "kernel {kernel} copy, len {len}");
                }
                let dst = dst_map.tail(len);
                dst.fill(0);
                // SAFETY: `dst` holds `len` writable bytes of another mapping.
                let got = unsafe { copy_classify(src, dst.as_mut_ptr()) };
                assert_eq!(got, want, "inline, len {len}");
                assert_eq!(&dst[..], &v[..], "inline copy, len {len}");
            }
        }
    }

    /// `classify` (the first query of a heap `Str`): the in-place SSE2 scan
    /// up to 256 bytes and the chunked kernel above, every length to 300
    /// with a special byte at every position (ends and middle under Miri).
    #[test]
    fn classify_every_length_and_position() {
        let max: usize = if cfg!(miri) { 40 } else { 300 };
        for len in 0..=max {
            let base: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            assert_eq!(classify(&base), classify_scalar(&base));
            let positions: Vec<usize> = if cfg!(miri) {
                [0, len / 2, len.saturating_sub(1)]
                    .into_iter()
                    .filter(|&p| p < len)
                    .collect()
            } else {
                (0..len).collect()
            };
            for pos in positions {
                for sp in [b'"', b'\\', 0x1F, 0x80, 0xC3] {
                    let mut v = base.clone();
                    v[pos] = sp;
                    assert_eq!(classify(&v), classify_scalar(&v), "len {len} pos {pos}");
                }
            }
        }
    }

    #[test]
    fn scalar_reference() {
        assert_eq!(classify_scalar(b""), ALL);
        assert_eq!(classify_scalar(b"abc"), ALL);
        assert_eq!(classify_scalar(b"a\"c"), ASCII);
        assert_eq!(classify_scalar("é".as_bytes()), JSON_SAFE);
        assert_eq!(classify_scalar("é\n".as_bytes()), 0);
    }
}
