//! The inline path of `json::quote` / `json::escape` for inputs of up to
//! 64 bytes (128 where the build guarantees AVX2), without CPU detection:
//! vector builds only (x86_64, aarch64, wasm32 with `simd128`; not under
//! Miri). [`escape_medium`] decides when it runs.

use std::ptr;

use super::{best, escape_from, escape_medium, first, Base16, Block, ESCAPES};
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
            // One positional mask: its lowest bit is the first flagged byte.
            let m = (ma | mb << 16) as u128 | (my as u128) << (n - 32) | (mz as u128) << (n - 16);
            return (m != 0).then(|| m.trailing_zeros() as usize);
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

/// Escapes `b[start..]` (with `QUOTES`, then the closing quote) onto `dst`
/// for a medium input with few escapes: one reservation for the worst
/// case up front, then per escape its table entry and one block copied
/// and checked from the byte after it; the last partial block is checked
/// by a reload of the input's last `W` bytes and copied in overlapping
/// words. With `SPECIAL`, `b[start]` needs an escape (its block is not
/// checked again).
///
/// # Safety
/// The CPU supports `V`; `b.len() >= V::W`; `start < b.len()` with
/// `SPECIAL`, else `start <= b.len()`; `dst` ends with a verbatim copy of
/// `b[..start]` (and, with `QUOTES`, the opening quote before it); with
/// `SPECIAL`, `b[start]` is `"`, `\` or below 0x20.
#[inline(always)]
unsafe fn escape_blocks<V: Block, const SPECIAL: bool, const QUOTES: bool>(
    dst: &mut Vec<u8>,
    b: &[u8],
    start: usize,
) {
    let n = b.len();
    debug_assert!(n >= V::W && start <= n);
    // Each byte takes at most 6 output bytes; an escape entry is stored
    // as 8 bytes and a block as W, so W + 8 of slack covers every store.
    dst.reserve(6 * (n - start) + QUOTES as usize + V::W + 8);
    let sp = b.as_ptr();
    // SAFETY: every load lies in b (s + W <= n, or the last W bytes, n >=
    // W); every store starts at d, which never passes the reserved room
    // minus W + 8 (d advances by at most 6 per consumed byte), and is at
    // most max(W, 8) bytes long; only written bytes are committed.
    unsafe {
        let base = dst.as_mut_ptr();
        let mut d = base.add(dst.len());
        let mut s = start;
        if !SPECIAL {
            // Scan first: the loop below starts at an escape.
            match next_special::<V>(sp, n, &mut s, &mut d) {
                true => {}
                false => return finish::<QUOTES>(dst, base, d),
            }
        }
        loop {
            let e = ESCAPES[*sp.add(s) as usize];
            ptr::write_unaligned(d as *mut [u8; 8], e.to_le_bytes());
            d = d.add((e >> 56) as usize);
            s += 1;
            if !next_special::<V>(sp, n, &mut s, &mut d) {
                return finish::<QUOTES>(dst, base, d);
            }
        }
    }
}

/// Copies `src[*s..]` verbatim to `*d` up to the next byte that needs an
/// escape, advancing both: `true` with `*s` at that byte, `false` at the
/// end of the input.
///
/// # Safety
/// As [`escape_blocks`]: `n >= W`, `*s <= n`, room for `6 * (n - *s) + W +
/// 8` bytes at `*d`.
#[inline(always)]
unsafe fn next_special<V: Block>(sp: *const u8, n: usize, s: &mut usize, d: &mut *mut u8) -> bool {
    // SAFETY: per the contract: loads within [0, n), stores within the room.
    unsafe {
        while *s + V::W <= n {
            let v = V::load(sp.add(*s));
            v.store(*d);
            let m = v.special_mask();
            if m != 0 {
                let t = first::<V>(m);
                *s += t;
                *d = d.add(t);
                return true;
            }
            *s += V::W;
            *d = d.add(V::W);
        }
        let rem = n - *s;
        if rem == 0 {
            return false;
        }
        let shift = V::W - rem;
        let m = V::load(sp.add(n - V::W)).special_mask() >> (shift as u32 * V::STRIDE);
        copy_short(sp.add(*s), *d, rem);
        if m == 0 {
            *d = d.add(rem);
            return false;
        }
        let t = first::<V>(m);
        *s += t;
        *d = d.add(t);
        true
    }
}

/// Writes the closing quote (with `QUOTES`) at `d` and commits `dst` up to
/// it.
///
/// # Safety
/// `base..d` lies in `dst`'s allocation, written, with a byte of room at
/// `d` when `QUOTES`.
#[inline(always)]
unsafe fn finish<const QUOTES: bool>(dst: &mut Vec<u8>, base: *mut u8, mut d: *mut u8) {
    // SAFETY: per the contract.
    unsafe {
        if QUOTES {
            *d = b'"';
            d = d.add(1);
        }
        dst.set_len(d.offset_from(base) as usize);
    }
}

/// Copies `1 <= len < 32` bytes in at most two overlapping moves of the
/// widest word that fits (no call to `memcpy` for a length known only at
/// run time).
///
/// # Safety
/// `src..src + len` readable, `dst..dst + len` writable, no overlap.
#[inline(always)]
unsafe fn copy_short(src: *const u8, dst: *mut u8, len: usize) {
    debug_assert!((1..32).contains(&len));
    /// Moves the `T`s at 0 and at `len - size_of::<T>()`.
    ///
    /// # Safety
    /// As `copy_short`, and `len >= size_of::<T>()`.
    #[inline(always)]
    unsafe fn two<T>(src: *const u8, dst: *mut u8, len: usize) {
        let k = len - size_of::<T>();
        // SAFETY: both moves lie within [0, len) of each range.
        unsafe {
            let (a, z) = (
                ptr::read_unaligned(src as *const T),
                ptr::read_unaligned(src.add(k) as *const T),
            );
            ptr::write_unaligned(dst as *mut T, a);
            ptr::write_unaligned(dst.add(k) as *mut T, z);
        }
    }
    // SAFETY: each arm's word is at most len bytes; the last arm's three
    // byte moves lie within [0, len).
    unsafe {
        if len >= 16 {
            two::<u128>(src, dst, len)
        } else if len >= 8 {
            two::<u64>(src, dst, len)
        } else if len >= 4 {
            two::<u32>(src, dst, len)
        } else {
            *dst = *src;
            *dst.add(len / 2) = *src.add(len / 2);
            *dst.add(len - 1) = *src.add(len - 1);
        }
    }
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
