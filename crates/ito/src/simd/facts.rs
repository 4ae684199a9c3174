//! The fused copy + classify kernel behind `Str`'s cached facts.
//!
//! Every `Str` knows two facts about its bytes, computed while the bytes are
//! copied into place (never in a separate pass):
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
//! re-classifying them is idempotent), or a masked load/store on AVX-512; no
//! kernel ever reads past the end of the source.
//!
//! ```text
//! for block in src:      store(dst, block); bad |= classify(block); or |= block
//! tail:                  the last full block, overlapping the previous one
//! facts = (or & 0x80.. == 0 ? ASCII : 0) | (bad == 0 ? JSON_SAFE : 0)
//! ```
//!
//! Widths: SWAR (8 bytes in a `u64`, portable, what Miri runs and what short
//! inputs use without dispatch), SSE2 (16), AVX2 (32) and AVX-512BW (64 with
//! masked tails). There is no NEON variant yet: aarch64 uses SWAR (no test
//! hardware here to validate one). `Str`s are mostly short, so the inline
//! SWAR path below 32 bytes is what matters most; the wide kernels pay off
//! for the long pieces of `format!`/`concat!`/`StrBuf`.
//!
//! The vector kernels fold two of the three tests into one: `x ^ 0x02` maps
//! `"` (0x22) to 0x20 and keeps 0x00..=0x1F in place, so "control or quote"
//! is `(x ^ 0x02) <= 0x20`, computed as a saturating `0x21 - (x ^ 0x02)`
//! that is non-zero exactly for those bytes (SSE2/AVX2: xor, subs, cmpeq
//! for `\`, two ors per block), or one unsigned compare on AVX-512.
//!
//! The SWAR "bad byte" test uses the same folding with the classic
//! exact-for-any formulas:
//! `has_less(x, n) = (x - 0x01..*n) & !x & 0x80..` and
//! `has_zero(x) = (x - 0x01..) & !x & 0x80..`; individual lanes may be
//! misreported after a borrow, but the word is non-zero iff some byte
//! matches, which is all an accumulator needs.

use super::dispatch::{Dispatch, KernelTable};
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
            // No NEON kernel yet: SWAR.
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
/// the SWAR path in place, without a call; longer ones make one indirect
/// call to the dispatched kernel.
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
            neon => swar(p, n, dst),
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

/// Facts of `src` without keeping a copy (used where no copy happens, e.g.
/// `Str::from_static` at run time). Uses the dispatched kernel into a small
/// stack buffer, block by block.
pub(crate) fn classify(src: &[u8]) -> u8 {
    let mut facts = ALL;
    let mut buf = [0u8; 256];
    for chunk in src.chunks(buf.len()) {
        // SAFETY: `buf` is valid for `chunk.len() <= 256` bytes and is a
        // distinct local, so it cannot overlap `chunk`.
        facts &= unsafe { copy_classify(chunk, buf.as_mut_ptr()) };
    }
    facts
}

/// Copy and classify with a forced kernel (tests and benchmarks). Kernels
/// this build or CPU cannot run fall back to SWAR, and `Neon` (not written
/// yet) runs SWAR too.
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
    let mut or = 0u64;
    let mut bad = 0u64;
    let mut i = 0;
    while i + 8 <= len {
        // SAFETY: `i + 8 <= len`.
        unsafe {
            let w = src.add(i).cast::<u64>().read_unaligned();
            dst.add(i).cast::<u64>().write_unaligned(w);
            or |= w;
            bad |= swar_bad(w);
        }
        i += 8;
    }
    if i < len {
        // SAFETY: len >= 8, so the last 8 bytes are in bounds; they overlap
        // bytes already copied, which are rewritten with the same values.
        unsafe {
            let w = src.add(len - 8).cast::<u64>().read_unaligned();
            dst.add(len - 8).cast::<u64>().write_unaligned(w);
            or |= w;
            bad |= swar_bad(w);
        }
    }
    swar_facts(or, bad)
}

#[cfg(all(target_arch = "x86_64", not(miri)))]
mod x86 {
    use super::{swar, ASCII, JSON_SAFE};
    use std::arch::x86_64::*;

    #[inline(always)]
    fn facts(ascii: bool, safe: bool) -> u8 {
        (if ascii { ASCII } else { 0 }) | (if safe { JSON_SAFE } else { 0 })
    }

    /// # Safety
    /// SSE2 (always on x86_64); `src` readable and `dst` writable for `len`
    /// bytes, not overlapping.
    pub(super) unsafe fn sse2(src: *const u8, len: usize, dst: *mut u8) -> u8 {
        if len < 16 {
            // SAFETY: forwarded contract.
            return unsafe { swar(src, len, dst) };
        }
        // SAFETY: SSE2 is baseline on x86_64; all loads/stores are at
        // offsets `i` with `i + 16 <= len`, or at `len - 16 >= 0`.
        unsafe {
            let two = _mm_set1_epi8(0x02);
            let lim = _mm_set1_epi8(0x21);
            let bs = _mm_set1_epi8(b'\\' as i8);
            let mut or = _mm_setzero_si128();
            let mut bad = _mm_setzero_si128();
            let step = |v: __m128i, or: &mut __m128i, bad: &mut __m128i| {
                // Non-zero lanes: (v ^ 2) < 0x21 (controls, '"'); 0xFF: '\\'.
                let cq = _mm_subs_epu8(lim, _mm_xor_si128(v, two));
                let b = _mm_cmpeq_epi8(v, bs);
                *bad = _mm_or_si128(*bad, _mm_or_si128(cq, b));
                *or = _mm_or_si128(*or, v);
            };
            let mut i = 0;
            while i + 16 <= len {
                let v = _mm_loadu_si128(src.add(i).cast());
                _mm_storeu_si128(dst.add(i).cast(), v);
                step(v, &mut or, &mut bad);
                i += 16;
            }
            if i < len {
                let v = _mm_loadu_si128(src.add(len - 16).cast());
                _mm_storeu_si128(dst.add(len - 16).cast(), v);
                step(v, &mut or, &mut bad);
            }
            facts(
                _mm_movemask_epi8(or) == 0,
                _mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) == 0xFFFF,
            )
        }
    }

    /// SSE2 copy + classify of 16..=64 bytes, straight-line: blocks at 0, 16
    /// and 32 as far as they fit, plus the last 16 bytes (overlapping).
    ///
    /// # Safety
    /// `16 <= len <= 64`; `src` readable and `dst` writable for `len`
    /// bytes, not overlapping.
    #[inline(always)]
    pub(super) unsafe fn sse2_short(src: *const u8, len: usize, dst: *mut u8) -> u8 {
        debug_assert!((16..=64).contains(&len));
        // SAFETY: SSE2 is baseline on x86_64; every 16-byte access starts at
        // 0, 16 (len >= 32), 32 (len >= 48) or len - 16, all in bounds.
        unsafe {
            let two = _mm_set1_epi8(0x02);
            let lim = _mm_set1_epi8(0x21);
            let bs = _mm_set1_epi8(b'\\' as i8);
            let load = |o: usize| _mm_loadu_si128(src.add(o).cast());
            let store = |o: usize, v: __m128i| _mm_storeu_si128(dst.add(o).cast(), v);
            let bad_of = |v: __m128i| {
                _mm_or_si128(
                    _mm_subs_epu8(lim, _mm_xor_si128(v, two)),
                    _mm_cmpeq_epi8(v, bs),
                )
            };
            // Every load before any store: a store followed by a load whose
            // address matches it modulo 4 KiB waits for the store on x86
            // (4K aliasing), which made some source/destination address
            // pairs 40 % slower (bimodal per process).
            let a = load(0);
            let t = load(len - 16);
            let b = if len >= 32 { load(16) } else { a };
            let c = if len >= 48 { load(32) } else { a };
            store(0, a);
            store(len - 16, t);
            if len >= 32 {
                store(16, b);
            }
            if len >= 48 {
                store(32, c);
            }
            let or = _mm_or_si128(_mm_or_si128(a, t), _mm_or_si128(b, c));
            let bad = _mm_or_si128(
                _mm_or_si128(bad_of(a), bad_of(t)),
                _mm_or_si128(bad_of(b), bad_of(c)),
            );
            facts(
                _mm_movemask_epi8(or) == 0,
                _mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) == 0xFFFF,
            )
        }
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
        // SAFETY: AVX2 is enabled by the caller's contract; every access is
        // at `i` with `i + 32 <= len`, or at `len - 32 >= 0`.
        unsafe {
            let two = _mm256_set1_epi8(0x02);
            let lim = _mm256_set1_epi8(0x21);
            let bs = _mm256_set1_epi8(b'\\' as i8);
            let mut or = _mm256_setzero_si256();
            let mut bad = _mm256_setzero_si256();
            macro_rules! step {
                ($v:expr) => {{
                    let v = $v;
                    // Non-zero lanes: (v ^ 2) < 0x21 (controls, '"'); '\\'.
                    let cq = _mm256_subs_epu8(lim, _mm256_xor_si256(v, two));
                    let b = _mm256_cmpeq_epi8(v, bs);
                    bad = _mm256_or_si256(bad, _mm256_or_si256(cq, b));
                    or = _mm256_or_si256(or, v);
                }};
            }
            let mut i = 0;
            while i + 64 <= len {
                let a = _mm256_loadu_si256(src.add(i).cast());
                let b = _mm256_loadu_si256(src.add(i + 32).cast());
                _mm256_storeu_si256(dst.add(i).cast(), a);
                _mm256_storeu_si256(dst.add(i + 32).cast(), b);
                step!(a);
                step!(b);
                i += 64;
            }
            if i + 32 <= len {
                let v = _mm256_loadu_si256(src.add(i).cast());
                _mm256_storeu_si256(dst.add(i).cast(), v);
                step!(v);
                i += 32;
            }
            if i < len {
                let v = _mm256_loadu_si256(src.add(len - 32).cast());
                _mm256_storeu_si256(dst.add(len - 32).cast(), v);
                step!(v);
            }
            facts(
                _mm256_movemask_epi8(or) == 0,
                _mm256_testz_si256(bad, bad) == 1,
            )
        }
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
        // SAFETY: AVX-512F/BW enabled by the caller's contract. Full blocks
        // are at `i + 64 <= len`, the tail block at `len - 64 >= 64`: all in
        // bounds.
        unsafe {
            let two = _mm512_set1_epi8(0x02);
            let lim = _mm512_set1_epi8(0x21);
            let bs = _mm512_set1_epi8(b'\\' as i8);
            let mut or = _mm512_setzero_si512();
            let mut bad: u64 = 0;
            let mut i = 0;
            while i + 64 <= len {
                let v = _mm512_loadu_si512(src.add(i).cast());
                _mm512_storeu_si512(dst.add(i).cast(), v);
                bad |= _mm512_cmplt_epu8_mask(_mm512_xor_si512(v, two), lim)
                    | _mm512_cmpeq_epi8_mask(v, bs);
                or = _mm512_or_si512(or, v);
                i += 64;
            }
            if i < len {
                // The last 64 bytes again (len >= 128: in bounds), not a
                // masked load and store: those cost ~40 % of a 200-byte
                // copy on Zen 5. Bytes seen twice change neither fact.
                let at = len - 64;
                let v = _mm512_loadu_si512(src.add(at).cast());
                _mm512_storeu_si512(dst.add(at).cast(), v);
                bad |= _mm512_cmplt_epu8_mask(_mm512_xor_si512(v, two), lim)
                    | _mm512_cmpeq_epi8_mask(v, bs);
                or = _mm512_or_si512(or, v);
            }
            facts(_mm512_movepi8_mask(or) == 0, bad == 0)
        }
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
    fn scalar_reference() {
        assert_eq!(classify_scalar(b""), ALL);
        assert_eq!(classify_scalar(b"abc"), ALL);
        assert_eq!(classify_scalar(b"a\"c"), ASCII);
        assert_eq!(classify_scalar("é".as_bytes()), JSON_SAFE);
        assert_eq!(classify_scalar("é\n".as_bytes()), 0);
    }
}
