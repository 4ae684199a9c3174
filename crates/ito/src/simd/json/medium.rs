//! The inline path of `json::quote` / `json::escape` for inputs of up to
//! 64 bytes (128 where the build guarantees AVX2), without CPU detection:
//! vector builds only (x86_64, aarch64, wasm32 with `simd128`; not under
//! Miri). [`escape_medium`] decides when it runs.

use super::few::escape_blocks;
use super::{best, escape_from, escape_medium, Base16, Block};
use crate::simd::vector::Vector;

/// Inputs up to this long run the baseline 16-byte kernel inline in a
/// portable build (no dispatch); longer ones the best kernel.
pub(super) const INLINE_MEDIUM: usize = 64;

/// The same bound where the build guarantees AVX2: four 32-byte blocks
/// cover up to 128 bytes.
pub(super) const BUILD_MEDIUM: usize = if cfg!(all(target_arch = "x86_64", target_feature = "avx2"))
{
    128
} else {
    INLINE_MEDIUM
};

/// [`escape_medium`]'s first call in a portable build: detect, then go on.
#[cold]
#[inline(never)]
pub(super) fn escape_medium_detect<const QUOTES: bool>(dst: &mut Vec<u8>, b: &[u8]) {
    best();
    escape_medium::<QUOTES>(dst, b)
}

/// [`medium_base`] out of line (the dispatch above is inlined into every
/// `json::quote` caller).
#[inline(never)]
pub(super) fn medium_base_call<const QUOTES: bool>(dst: &mut Vec<u8>, b: &[u8]) {
    medium_base::<QUOTES>(dst, b)
}

/// Escapes (with `QUOTES`, quotes) an input of at most [`BUILD_MEDIUM`] bytes without
/// CPU detection. Inputs of up to 32 bytes get here only when they need
/// escaping (`json::quote`'s inline paths took the clean ones), so they go
/// straight to the escape loop; longer ones are copied and checked in
/// overlapping blocks ([`clean_blocks`]), then [`escape_rest`] from the
/// first escape. No partial load: the clean path needs few registers and
/// no frame.
#[inline(always)]
fn medium_base<const QUOTES: bool>(dst: &mut Vec<u8>, b: &[u8]) {
    let (n, q) = (b.len(), QUOTES as usize);
    debug_assert!(n <= BUILD_MEDIUM);
    if n <= 32 {
        return escape_all::<QUOTES>(dst, b);
    }
    if dst.capacity() - dst.len() < n + 2 * q {
        // Grow out of line and come back: no value lives across a call on
        // the usual path, so it saves no registers.
        return reserve_then::<QUOTES>(dst, b);
    }
    // SAFETY: 32 < n <= 64; the room checked covers every store (each block
    // ends within n bytes after the quote); the blocks need no CPU
    // detection beyond what the build guarantees; only written bytes are
    // committed.
    unsafe {
        let o = dst.as_mut_ptr().add(dst.len());
        if QUOTES {
            *o = b'"';
        }
        match clean_blocks(b.as_ptr(), n, o.add(q)) {
            None => {
                if QUOTES {
                    *o.add(q + n) = b'"';
                }
                dst.set_len(dst.len() + n + 2 * q);
            }
            Some(i) => {
                dst.set_len(dst.len() + q + i);
                escape_rest::<QUOTES>(dst, b, i);
            }
        }
    }
}

/// Copies `n` bytes (33..=[`BUILD_MEDIUM`]) from `src` to `o` and returns
/// the index of the first byte needing an escape, if any: four overlapping
/// blocks, 32 bytes wide where the build guarantees AVX2 (up to 128
/// bytes), else 16 (up to 64), branch-free on x86.
///
/// # Safety
/// `src..src + n` readable, `o..o + n` writable, `32 < n <= BUILD_MEDIUM`.
#[inline(always)]
unsafe fn clean_blocks(src: *const u8, n: usize, o: *mut u8) -> Option<usize> {
    debug_assert!(n > 32 && n <= BUILD_MEDIUM);
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    // SAFETY: 32 < n <= 128: the 32-byte loads and stores at 0 and
    // n - 32 (and, past 64 bytes, at 32 and n - 64) lie within [0, n) and
    // cover it; the build guarantees AVX2.
    unsafe {
        use crate::simd::vector::x86::Avx2;
        let (a, z) = (Avx2::load(src), Avx2::load(src.add(n - 32)));
        a.store(o);
        z.store(o.add(n - 32));
        if n <= 64 {
            let m = a.special_mask() | z.special_mask() << (n - 32);
            return (m != 0).then(|| m.trailing_zeros() as usize);
        }
        let (b, y) = (Avx2::load(src.add(32)), Avx2::load(src.add(n - 64)));
        b.store(o.add(32));
        y.store(o.add(n - 64));
        // The first 64 bytes, then the last 64.
        let head = a.special_mask() | b.special_mask() << 32;
        let tail = y.special_mask() | z.special_mask() << 32;
        if head != 0 {
            Some(head.trailing_zeros() as usize)
        } else {
            (tail != 0).then(|| n - 64 + tail.trailing_zeros() as usize)
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    // SAFETY: the four 16-byte loads and stores lie within [0, n)
    // (n - 32 >= 1); baseline instructions only.
    unsafe {
        let (a, b, y, z) = (
            Base16::load(src),
            Base16::load(src.add(16)),
            Base16::load(src.add(n - 32)),
            Base16::load(src.add(n - 16)),
        );
        a.store(o);
        b.store(o.add(16));
        y.store(o.add(n - 32));
        z.store(o.add(n - 16));
        let (ma, mb, my, mz) = (
            a.special_mask(),
            b.special_mask(),
            y.special_mask(),
            z.special_mask(),
        );
        if Base16::STRIDE == 1 {
            // The first 32 bytes, then the last 32 (a 128-bit positional
            // mask measured slower: its shifts take registers and a frame).
            let (head, tail) = (ma | mb << 16, my | mz << 16);
            if head != 0 {
                return Some(head.trailing_zeros() as usize);
            }
            return (tail != 0).then(|| n - 32 + tail.trailing_zeros() as usize);
        }
        // Masks of several bits per byte (NEON): the first flagged block.
        if ma | mb | my | mz == 0 {
            return None;
        }
        Some(if ma != 0 {
            super::first::<Base16>(ma)
        } else if mb != 0 {
            16 + super::first::<Base16>(mb)
        } else if my != 0 {
            n - 32 + super::first::<Base16>(my)
        } else {
            n - 16 + super::first::<Base16>(mz)
        })
    }
}

/// [`medium_base`] after making room for a clean copy of `b`.
#[cold]
#[inline(never)]
fn reserve_then<const QUOTES: bool>(dst: &mut Vec<u8>, b: &[u8]) {
    dst.reserve(b.len() + 2 * QUOTES as usize);
    medium_base::<QUOTES>(dst, b)
}

/// Escapes all of `b` through the escape loop (out of line: the inputs
/// that need it are the minority).
#[inline(never)]
fn escape_all<const QUOTES: bool>(dst: &mut Vec<u8>, b: &[u8]) {
    if QUOTES {
        dst.push(b'"');
    }
    escape_tail::<false, QUOTES>(dst, b, 0);
}

/// The rest of an inline medium escape from its first escape at `start`
/// (out of line: the clean path above keeps few registers).
#[inline(never)]
fn escape_rest<const QUOTES: bool>(dst: &mut Vec<u8>, b: &[u8], start: usize) {
    escape_tail::<true, QUOTES>(dst, b, start)
}

/// Escapes `b[start..]`: inputs at least one block long through
/// [`escape_blocks`], shorter ones through the general loop. With
/// `SPECIAL`, `b[start]` is known to need an escape.
#[inline(always)]
fn escape_tail<const SPECIAL: bool, const QUOTES: bool>(dst: &mut Vec<u8>, b: &[u8], start: usize) {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    if b.len() >= 32 {
        // SAFETY: the build guarantees AVX2; n >= W; dst ends with a
        // verbatim copy of b[..start] (and the opening quote).
        return unsafe {
            escape_blocks::<crate::simd::vector::x86::Avx2, SPECIAL, QUOTES>(dst, b, start)
        };
    }
    if b.len() >= Base16::W {
        // SAFETY: baseline block; n >= W; as above.
        return unsafe { escape_blocks::<Base16, SPECIAL, QUOTES>(dst, b, start) };
    }
    // SAFETY: dst ends with a verbatim copy of b[..start] (and the opening
    // quote); the baseline block needs no CPU detection; cannot fail.
    let _ = unsafe { escape_from::<Base16, false, QUOTES>(dst, b, start, false) };
}

/// Inline fast path for clean inputs of 17..=32 bytes: two overlapping
/// baseline 16-byte blocks, stored into spare capacity and committed only
/// if clean. `false` (nothing committed) otherwise.
#[inline(always)]
pub(crate) fn pair_clean<const QUOTES: bool>(dst: &mut Vec<u8>, b: &[u8]) -> bool {
    let n = b.len();
    if n > 32 {
        return false;
    }
    let q = QUOTES as usize;
    dst.reserve(n + 2 * q);
    // SAFETY: 16 < n <= 32, so both loads are in bounds; n + 2q bytes of
    // spare capacity hold both stores and the quotes; baseline
    // instructions only.
    unsafe {
        let o = dst.as_mut_ptr().add(dst.len());
        let a = Base16::load(b.as_ptr());
        let z = Base16::load(b.as_ptr().add(n - 16));
        a.store(o.add(q));
        z.store(o.add(q + n - 16));
        if a.special_mask() | z.special_mask() != 0 {
            return false;
        }
        if QUOTES {
            *o = b'"';
            *o.add(q + n) = b'"';
        }
        dst.set_len(dst.len() + n + 2 * q);
    }
    true
}
