//! The escape loop for inputs with few escapes and a known end: one
//! reservation for the worst case up front, then per escape its table
//! entry and one block copied and checked from the byte after it. The
//! general loop (`escape_loop`) re-checks its room on every block and
//! handles escape-dense runs and UTF-8 validation; a medium string with a
//! few escapes needs none of that, and this loop measured 1.25–1.6× faster
//! on such strings (bench/RESULTS.md, 2026-11-29 09:05).

use std::ptr;

use super::{first, Block, ESCAPES};

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
pub(super) unsafe fn escape_blocks<V: Block, const SPECIAL: bool, const QUOTES: bool>(
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
