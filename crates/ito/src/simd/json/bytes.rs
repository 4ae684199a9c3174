//! Unescaping JSON string text to *bytes*, for `nostr::unescape` and
//! `nostr::unescape_in_place`: bytes >= 0x80 are copied verbatim (no UTF-8
//! check: relays treat content as bytes), so the loop is the block loop of
//! the parent module without the validation bookkeeping.
//!
//! ```text
//! loop:
//!     v = load W bytes at src[i]; m = special_mask(v)
//!     copy:     store v at out[w] first; if m == 0: i += W, w += W; continue
//!     in place: if m == 0: store v at out[w] (only bytes already loaded are
//!               overwritten), i += W, w += W; continue
//!     for each flagged byte of the block, lowest first:
//!         move the run before it (copy: one fixed W-byte move; in place:
//!         an exact move, every load before any store, so no unread byte
//!         is overwritten)
//!         decode the escape with two table look-ups (`\n`, `\"`, ...) or
//!         four (`\uXXXX`), write its UTF-8 (at most as long as the escape)
//!         clear the mask bits of the bytes the escape used
//! ```
//!
//! Escapes are decoded by the crate's one decoder (`simd::escape`, its
//! fast `escape_at` form). Any failure returns the offset of the byte that
//! starts it; the caller re-reads that spot with `simd::escape::fault_at`
//! to say what is wrong, so the kernel carries no error detail. Tails reuse the overlapping load of the
//! parent module when the bytes before are a verbatim copy (copy form),
//! else a padded partial load; the in-place form only ever moves exact
//! lengths there.
//!
//! Every kernel level instantiates it (`kernels!`), and inputs of 64 bytes
//! or more take the best one through the cached table; shorter inputs run
//! the baseline 16-byte block (SSE2 / NEON; SWAR elsewhere and under Miri)
//! inline, where a wide block would only take the slower partial-load
//! tail. Within a block, the flagged bytes are handled from the mask in
//! hand, so a wider block means fewer reloads between close escapes.

use std::ptr;

use super::{first, low_bytes, Block};
use crate::simd::escape::escape_at;

/// Moves `k < 16` bytes from `src` to `dst` (`dst <= src`, possibly
/// overlapping): every load before any store.
///
/// # Safety
/// `src..src + k` readable, `dst..dst + k` writable.
#[inline(always)]
unsafe fn move_short(src: *const u8, dst: *mut u8, k: usize) {
    // SAFETY: every access stays within the first k bytes of either side.
    unsafe {
        if k >= 8 {
            let a = ptr::read_unaligned(src as *const u64);
            let b = ptr::read_unaligned(src.add(k - 8) as *const u64);
            ptr::write_unaligned(dst as *mut u64, a);
            ptr::write_unaligned(dst.add(k - 8) as *mut u64, b);
        } else if k >= 4 {
            let a = ptr::read_unaligned(src as *const u32);
            let b = ptr::read_unaligned(src.add(k - 4) as *const u32);
            ptr::write_unaligned(dst as *mut u32, a);
            ptr::write_unaligned(dst.add(k - 4) as *mut u32, b);
        } else if k > 0 {
            let a = *src;
            let b = *src.add(k / 2);
            let c = *src.add(k - 1);
            *dst = a;
            *dst.add(k / 2) = b;
            *dst.add(k - 1) = c;
        }
    }
}

/// Moves `k < 64` bytes (`k < 16` unless `wide`) from `src` to `dst`
/// (`dst <= src`, possibly overlapping): 16-byte chunks front to back (each loaded before it is
/// stored, and a store never reaches bytes a later chunk loads), then
/// [`move_short`] for the rest.
///
/// # Safety
/// `src..src + k` readable, `dst..dst + k` writable.
#[inline(always)]
unsafe fn move_exact(wide: bool, mut src: *const u8, mut dst: *mut u8, mut k: usize) {
    if wide {
        while k >= 16 {
            // SAFETY: 16 <= k bytes on both sides.
            unsafe {
                let a = ptr::read_unaligned(src as *const [u8; 16]);
                ptr::write_unaligned(dst as *mut [u8; 16], a);
                src = src.add(16);
                dst = dst.add(16);
            }
            k -= 16;
        }
    }
    // SAFETY: k < 16 bytes remain on both sides.
    unsafe { move_short(src, dst, k) }
}

/// Unescapes `src..src + n` to `out`; returns the decoded length, or the
/// offset of the first byte that is not allowed (a raw `"` or control byte,
/// or the `\` of a bad or cut-off escape).
///
/// Copy form (`IN_PLACE == false`): `out` must not overlap the input and
/// needs `n + W` writable bytes. In place: `out == src`.
///
/// # Safety
/// `src..src + n` readable; the `out` requirement above; the CPU supports
/// `V`. `V::W <= 64`.
#[inline(always)]
pub(crate) unsafe fn unescape<V: Block, const IN_PLACE: bool>(
    src: *const u8,
    n: usize,
    out: *mut u8,
) -> Result<usize, usize> {
    const { assert!(V::W <= 64) };
    let mut i = 0usize; // read position
                        // Write position, w <= i.
    let mut w = 0usize;
    // Copy form: out[w - (i - clean_from)..w] is a verbatim copy of
    // src[clean_from..i].
    let mut clean_from = 0usize;
    loop {
        let rem = n - i;
        let mut m;
        // SAFETY: loads stay within src (i + W <= n, or the overlapping
        // load at n - W >= 0, or a partial load of rem bytes); copy-form
        // stores land within out's n + W bytes (w <= i); in-place stores of
        // a clean block only overwrite bytes already loaded.
        unsafe {
            if rem >= V::W {
                let v = V::load(src.add(i));
                m = v.special_mask();
                if !IN_PLACE || m == 0 {
                    v.store(out.add(w));
                }
                if m == 0 {
                    i += V::W;
                    w += V::W;
                    continue;
                }
            } else {
                if rem == 0 {
                    return Ok(w);
                }
                if V::OVERLAP_TAIL && n >= V::W && (IN_PLACE || n - V::W >= clean_from) {
                    let shift = V::W - rem;
                    let v = V::load(src.add(n - V::W));
                    m = v.special_mask() >> (shift as u32 * V::STRIDE);
                    if !IN_PLACE {
                        // Rewrites the verbatim copy before w with the same
                        // bytes (shift <= i - clean_from).
                        v.store(out.add(w).sub(shift));
                    }
                } else {
                    let v = V::load_partial(src.add(i), rem, V::TAIL_FILL);
                    m = v.special_mask() & low_bytes::<V>(rem);
                    if !IN_PLACE {
                        v.store(out.add(w));
                    }
                }
                if m == 0 {
                    if IN_PLACE {
                        move_exact(V::W > 16, src.add(i), out.add(w), rem);
                    }
                    return Ok(w + rem);
                }
            }
        }
        // The block at `base` has flagged bytes: handle them lowest first.
        let base = i;
        let end = base + rem.min(V::W);
        let j = first::<V>(m);
        if IN_PLACE {
            // SAFETY: j < W bytes within the block; w <= i.
            unsafe { move_exact(V::W > 16, src.add(i), out.add(w), j) };
        }
        i += j;
        w += j;
        loop {
            // SAFETY: i < n; out has room for 4 bytes at w (copy form:
            // n + W bytes from w <= i; in place: a `\u` escape writes 4 <= 6
            // bytes, a two-byte one 1).
            let c = unsafe { *src.add(i) };
            if c == b'\\' {
                // This escape and any that follow it directly (escape-dense
                // text), without going back to the mask.
                loop {
                    // SAFETY: as above, for each escape in turn.
                    match unsafe { escape_at(src, n, i, out.add(w)) } {
                        Some((len, k)) => {
                            i += len;
                            w += k;
                        }
                        None => return Err(i),
                    }
                    // SAFETY: i < n is checked first.
                    if i >= n || unsafe { *src.add(i) } != b'\\' {
                        break;
                    }
                }
            } else if c < 0x20 || c == b'"' {
                return Err(i);
            } else {
                // A flag above a real one (SWAR) on a plain byte.
                // SAFETY: w <= i < n.
                unsafe { *out.add(w) = c };
                i += 1;
                w += 1;
            }
            // Flags of bytes the escape used are dropped.
            if i >= end {
                break;
            }
            m &= !low_bytes::<V>(i - base);
            if m == 0 {
                break;
            }
            let gap = base + first::<V>(m) - i;
            // SAFETY: gap < W bytes of src from i are in the block; the copy
            // form moves a fixed W (or 16) bytes, in bounds by the checks,
            // into its n + W bytes of room (w <= i).
            unsafe {
                if IN_PLACE {
                    move_exact(V::W > 16, src.add(i), out.add(w), gap);
                } else if i + V::W <= n {
                    V::load(src.add(i)).store(out.add(w));
                } else if V::W > 16 && gap < 16 && i + 16 <= n {
                    ptr::copy_nonoverlapping(src.add(i), out.add(w), 16);
                } else {
                    break;
                }
            }
            i += gap;
            w += gap;
        }
        clean_from = i;
    }
}

/// Both forms with every kernel this CPU runs and with the inline
/// [`super::UnescapeBlock`], for tests that hold them against a scalar
/// reference: `(name, result)`.
#[cfg(test)]
pub(crate) fn every_form(src: &[u8]) -> Vec<(String, Result<Vec<u8>, usize>)> {
    fn both(
        copy: super::BytesFn,
        in_place: super::BytesFn,
        src: &[u8],
    ) -> [Result<Vec<u8>, usize>; 2] {
        let mut out = vec![0u8; src.len() + super::UNESCAPE_SLACK];
        // SAFETY: out has n + 64 bytes and does not overlap src; the
        // kernels passed in run on this CPU.
        let a =
            unsafe { copy(src.as_ptr(), src.len(), out.as_mut_ptr()) }.map(|k| out[..k].to_vec());
        let mut buf = src.to_vec();
        let p = buf.as_mut_ptr();
        // SAFETY: in place within buf.
        let b = unsafe { in_place(p, buf.len(), p) }.map(|k| buf[..k].to_vec());
        [a, b]
    }
    /// # Safety
    /// As `unescape` (copy form).
    unsafe fn inline_copy(src: *const u8, n: usize, out: *mut u8) -> Result<usize, usize> {
        // SAFETY: per the caller; the inline block needs no detection.
        unsafe { unescape::<super::UnescapeBlock, false>(src, n, out) }
    }
    /// # Safety
    /// As `unescape` (in place).
    unsafe fn inline_in_place(src: *const u8, n: usize, out: *mut u8) -> Result<usize, usize> {
        // SAFETY: per the caller; the inline block needs no detection.
        unsafe { unescape::<super::UnescapeBlock, true>(src, n, out) }
    }
    let mut all = Vec::new();
    let [a, b] = both(inline_copy, inline_in_place, src);
    all.push(("inline copy".to_string(), a));
    all.push(("inline in place".to_string(), b));
    for k in crate::Kernel::available() {
        let t = super::kernels_for(k).unwrap();
        let [a, b] = both(t.unescape_bytes, t.unescape_bytes_in_place, src);
        all.push((format!("{k} copy"), a));
        all.push((format!("{k} in place"), b));
    }
    // And the entry points.
    let mut out = vec![0u8; src.len() + super::UNESCAPE_SLACK];
    // SAFETY: room for n + 64 bytes, no overlap.
    let a = unsafe { super::unescape_bytes(src, out.as_mut_ptr()) }.map(|k| out[..k].to_vec());
    all.push(("unescape_bytes".to_string(), a));
    let mut buf = src.to_vec();
    let b = super::unescape_bytes_in_place(&mut buf).map(|k| buf[..k].to_vec());
    all.push(("unescape_bytes_in_place".to_string(), b));
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_short_moves_every_length_and_overlap() {
        for k in 0..16 {
            for back in 0..20 {
                let mut buf: Vec<u8> = (0..64).collect();
                let want: Vec<u8> = buf[back..back + k].to_vec();
                let p = buf.as_mut_ptr();
                // SAFETY: both ranges lie within buf.
                unsafe { move_short(p.add(back), p, k) };
                assert_eq!(&buf[..k], &want[..], "k {k} back {back}");
            }
        }
    }
}
