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
/// and copied by [`Block::copy_tail`]. With `SPECIAL`, `b[start]` needs an escape (its block is not
/// checked again).
///
/// # Safety
/// The CPU supports `V`; `b.len() >= V::TAIL_READ`; `start < b.len()` with
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
    debug_assert!(n >= V::TAIL_READ && start <= n);
    // Each byte takes at most 6 output bytes; an escape entry is stored
    // as 8 bytes and a block as W, so W + 8 of slack covers every store.
    dst.reserve(6 * (n - start) + QUOTES as usize + V::W + 8);
    let sp = b.as_ptr();
    // SAFETY: every load lies in b (s + W <= n, or the tail's reads, n >=
    // TAIL_READ); every store starts at d, which never passes the reserved room
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

/// Escapes (with `QUOTES`, then the closing quote) an input of `W..=2W`
/// bytes whose whole special mask `m` is known (non-zero, one bit per
/// byte), onto `dst`, which ends with the opening quote and a verbatim copy
/// of the bytes before the first escape. Every escape's place is known up
/// front, so no block is checked again: per escape, its table entry, then
/// all the input after it copied to the output (two overlapping blocks,
/// or [`Block::copy_tail`] for less than `W` bytes), which the next
/// escape's entry overwrites from its place on. The output position is the
/// only value carried from one escape to the next, and the table loads do
/// not wait for it.
///
/// # Safety
/// The CPU supports `V`; `V::STRIDE == 1`; `W <= b.len() <= 2W`; `m` is
/// the special mask of `b` (bits above `b.len()` clear) and non-zero;
/// `dst` ends with the opening quote (with `QUOTES`) and
/// `b[..m.trailing_zeros()]`.
// Only the medium path (`medium.rs`) uses it, built for vector targets.
#[cfg_attr(not(all(vector_target, not(miri))), allow(dead_code))]
#[inline(always)]
pub(super) unsafe fn escape_known<V: Block, const QUOTES: bool>(
    dst: &mut Vec<u8>,
    b: &[u8],
    mut m: u64,
) {
    let n = b.len();
    debug_assert!(V::STRIDE == 1 && (V::W..=2 * V::W).contains(&n) && m != 0);
    let mut j = m.trailing_zeros() as usize;
    // As in `escape_blocks`: 6 output bytes per input byte at most, and W
    // + 8 of slack for the widest store.
    dst.reserve(6 * (n - j) + QUOTES as usize + V::W + 8);
    let sp = b.as_ptr();
    // SAFETY: j < n (a bit of m); every load lies in b (at p with p + W <=
    // n, at n - W >= 0, or the tail's reads, n >= W >= TAIL_READ); d
    // advances by at most 6 per consumed byte, and every store from d
    // spans the rem bytes still to copy (rem of room) or at most W + 8
    // bytes (the slack); only written bytes are committed.
    unsafe {
        let base = dst.as_mut_ptr();
        let mut d = base.add(dst.len());
        loop {
            let e = ESCAPES[*sp.add(j) as usize];
            ptr::write_unaligned(d as *mut [u8; 8], e.to_le_bytes());
            d = d.add((e >> 56) as usize);
            m &= m - 1;
            let p = j + 1;
            let rem = n - p;
            if rem >= V::W {
                V::load(sp.add(p)).store(d);
                V::load(sp.add(n - V::W)).store(d.add(rem - V::W));
            } else if rem > 0 {
                V::copy_tail(sp.add(n), rem, d);
            }
            if m == 0 {
                return finish::<QUOTES>(dst, base, d.add(rem));
            }
            j = m.trailing_zeros() as usize;
            d = d.add(j - p);
        }
    }
}

/// [`escape_known`] for inputs of `2W + 1..=4W` bytes (at most 128), with
/// the special mask as two words: `lo` for bytes 0..64, `hi` for 64..128.
/// Each word's escapes are walked in turn (a 128-bit mask in the loop
/// measured slower: its shifts take registers and a frame); after each
/// escape, all the input after it is copied (four overlapping blocks, two,
/// or [`Block::copy_tail`]), which the next escape's entry overwrites.
///
/// # Safety
/// The CPU supports `V`; `V::STRIDE == 1`; `2W < b.len() <= 4W <= 128`;
/// `lo | hi << 64` is the special mask of `b` and non-zero; `dst` ends
/// with the opening quote (with `QUOTES`) and the bytes before the first
/// escape.
#[cfg_attr(not(all(vector_target, not(miri))), allow(dead_code))]
#[inline(always)]
pub(super) unsafe fn escape_known_wide<V: Block, const QUOTES: bool>(
    dst: &mut Vec<u8>,
    b: &[u8],
    lo: u64,
    hi: u64,
) {
    let n = b.len();
    debug_assert!(V::STRIDE == 1 && n > 2 * V::W && n <= 4 * V::W && n <= 128);
    debug_assert!(lo | hi != 0);
    // `at`: the input position the output has reached (bytes before it
    // are written).
    let mut at = if lo != 0 {
        lo.trailing_zeros() as usize
    } else {
        64 + hi.trailing_zeros() as usize
    };
    // As in `escape_known`.
    dst.reserve(6 * (n - at) + QUOTES as usize + V::W + 8);
    // SAFETY: as in `escape_known`: every escape position j < n (a bit of
    // the mask), loads lie in b (see `copy_rest`), and d advances by at
    // most 6 per consumed byte within the room reserved; only written
    // bytes are committed.
    unsafe {
        let base = dst.as_mut_ptr();
        let mut d = base.add(dst.len());
        word::<V>(b.as_ptr(), n, lo, 0, &mut at, &mut d);
        word::<V>(b.as_ptr(), n, hi, 64, &mut at, &mut d);
        finish::<QUOTES>(dst, base, d.add(n - at))
    }
}

/// The escapes of one mask word of [`escape_known_wide`] (bit `k` is byte
/// `off + k`): per escape, the run before it skipped (already copied), its
/// table entry, then all the input after it copied.
///
/// # Safety
/// As [`escape_known_wide`]; every bit's byte lies at or after `*at`.
#[inline(always)]
unsafe fn word<V: Block>(
    sp: *const u8,
    n: usize,
    mut m: u64,
    off: usize,
    at: &mut usize,
    d: &mut *mut u8,
) {
    // SAFETY: per the contract.
    unsafe {
        while m != 0 {
            let j = off + m.trailing_zeros() as usize;
            m &= m - 1;
            *d = d.add(j - *at);
            let e = ESCAPES[*sp.add(j) as usize];
            ptr::write_unaligned(*d as *mut [u8; 8], e.to_le_bytes());
            *d = d.add((e >> 56) as usize);
            *at = j + 1;
            copy_rest::<V>(sp, *at, n, *d);
        }
    }
}

/// Copies `src[p..n]` to `d`: four overlapping blocks past `2W` bytes,
/// two from `W`, else [`Block::copy_tail`].
///
/// # Safety
/// The CPU supports `V`; `p <= n`, `n >= V::TAIL_READ`, `src..src + n`
/// readable; `d` writable for `max(n - p, W)` bytes.
#[inline(always)]
unsafe fn copy_rest<V: Block>(sp: *const u8, p: usize, n: usize, d: *mut u8) {
    let (w, rem) = (V::W, n - p);
    // SAFETY: past 2W, loads at p, p + W, n - 2W and n - W lie in [p, n)
    // and cover it; from W, those at p and n - W; the stores mirror them
    // at d; copy_tail reads TAIL_READ bytes before the end.
    unsafe {
        if rem > 2 * w {
            V::load(sp.add(p)).store(d);
            V::load(sp.add(p + w)).store(d.add(w));
            V::load(sp.add(n - 2 * w)).store(d.add(rem - 2 * w));
            V::load(sp.add(n - w)).store(d.add(rem - w));
        } else if rem >= w {
            V::load(sp.add(p)).store(d);
            V::load(sp.add(n - w)).store(d.add(rem - w));
        } else if rem > 0 {
            V::copy_tail(sp.add(n), rem, d);
        }
    }
}

/// Copies `src[*s..]` verbatim to `*d` up to the next byte that needs an
/// escape, advancing both: `true` with `*s` at that byte, `false` at the
/// end of the input.
///
/// # Safety
/// As [`escape_blocks`]: `n >= V::TAIL_READ`, `*s <= n`, room for `6 * (n - *s) + W +
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
        let m = V::copy_tail(sp.add(n), rem, *d);
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

/// Copies `n` bytes from `src` to `dst` with at most two overlapping loads
/// and stores per width (no `memcpy` call for short, variable lengths).
///
/// # Safety
/// `src` must be readable and `dst` writable for `n` bytes, and they must
/// not overlap.
#[inline(always)]
pub(crate) unsafe fn copy_short(src: *const u8, dst: *mut u8, n: usize) {
    // SAFETY: in every branch, each load and store lies in [0, n) of its
    // buffer, by the length test guarding it; the caller guarantees those.
    unsafe {
        if n >= 16 {
            if n > 32 {
                std::ptr::copy_nonoverlapping(src, dst, n);
                return;
            }
            let a = (src as *const [u8; 16]).read_unaligned();
            let b = (src.add(n - 16) as *const [u8; 16]).read_unaligned();
            (dst as *mut [u8; 16]).write_unaligned(a);
            (dst.add(n - 16) as *mut [u8; 16]).write_unaligned(b);
        } else if n >= 8 {
            let a = (src as *const u64).read_unaligned();
            let b = (src.add(n - 8) as *const u64).read_unaligned();
            (dst as *mut u64).write_unaligned(a);
            (dst.add(n - 8) as *mut u64).write_unaligned(b);
        } else if n >= 4 {
            let a = (src as *const u32).read_unaligned();
            let b = (src.add(n - 4) as *const u32).read_unaligned();
            (dst as *mut u32).write_unaligned(a);
            (dst.add(n - 4) as *mut u32).write_unaligned(b);
        } else if n > 0 {
            *dst = *src;
            *dst.add(n / 2) = *src.add(n / 2);
            *dst.add(n - 1) = *src.add(n - 1);
        }
    }
}
