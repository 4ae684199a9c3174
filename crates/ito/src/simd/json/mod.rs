//! One-pass block kernels for JSON string escaping and unescaping.
//!
//! Both directions look for the same byte set: `"`, `\` and the controls
//! below 0x20 (an escaper must rewrite them; an unescaper must stop at them).
//! Every kernel is the same loop, written once over the crate's vector
//! trait ([`Vector`], `simd/vector/`) and its small JSON extension
//! [`Block`], and instantiated per instruction set:
//!
//! ```text
//! loop:
//!     make sure dst has room for one block plus one escape (grow if not)
//!     v = load W bytes at src[s]        (tail: masked/padded/overlapping load)
//!     store v at dst[o]                 (unconditionally: clean bytes are done)
//!     m = special_mask(v)               (one bit per byte that needs work)
//!     if m == 0: s += W, o += W; continue
//!     i = first set bit of m; s += i; o += i
//!     handle src[s] (write an escape / decode one), advance, continue
//! ```
//!
//! There is no pre-scan: each byte is loaded once, and a clean block costs a
//! load, a store, three compares and a branch. After a byte needing work the
//! next load simply starts right after it (unaligned loads are cheap), so the
//! store of the following clean bytes lands where it belongs.
//!
//! The escaper does not throw away the rest of the mask after its first
//! escape: it walks the block's other flagged bytes (clear the lowest bit,
//! count trailing zeros), copying the run before each with one fixed
//! 16-byte move (or one 64-byte move for a longer run on AVX-512) and writing the
//! escape from a table of 8-byte entries (bytes, then the length in the top
//! byte). A run too near the end of the input for the fixed move goes back
//! to the block loop. Escape-dense blocks (at least `DENSE_BITS` flags) are
//! translated byte by byte through a table instead, which beats both.
//!
//! Medium inputs (up to four blocks) start with a fixed pattern of
//! overlapping in-bounds blocks instead of the loop: one block (a masked
//! load on AVX-512, a padded one elsewhere) below `W` bytes, else blocks at
//! `0, min(W, n - W), max(n, 2W) - 2W, n - W`, each stored where it belongs.
//! Their masks, shifted to their offsets, make one positional mask (no
//! length-dependent branches on SSE2/AVX2/SWAR); if it is zero the string
//! is done, else the block loop resumes at its lowest bit with the verbatim
//! prefix already in place. Long clean text takes four blocks per step.
//!
//! Tails never read past the end of the input. SSE2/AVX2/AVX-512/NEON
//! reload the last `W` bytes of the input (an overlapping load) and store
//! them so they end at the right place. That is only valid when the output
//! just before is a verbatim copy of the input just before (tracked as
//! `clean_from`); after an escape, the reloaded block is instead *spliced*
//! behind the output already written (store, reload the output, blend its
//! last `rem` lanes in, store), still without reading past the input. SWAR
//! loads the tail partially, in a register.
//!
//! Inputs of up to four blocks that the public entry points' inline paths
//! did not take (those take clean inputs of up to 32 bytes) run the
//! medium path (`medium.rs`, [`escape_medium`]): a fixed pattern of
//! overlapping blocks without the kernel's entry. A build that guarantees
//! a vector level calls it directly (16-byte blocks up to 64 bytes, 32-byte
//! blocks up to 128 where it guarantees AVX2); a portable build through
//! the level's table (`Kernels::quote_medium`, [`Block::MEDIUM_BLOCKS`]).
//! AVX-512 has its own escaper for these (`x86::escape_masked`,
//! [`Block::escape_whole`]). Longer inputs call the best kernel: by name
//! when the build guarantees its level (`dispatch::by_build_kernel!`),
//! through the cached table otherwise (a tail call: the dispatcher has no
//! frame of its own).
//!
//! The kernels only implement the *default* escaping policy (bytes >= 0x80
//! verbatim). The opt-in policies of `json::Options` run through a
//! separate table-driven path in `json/policy.rs`, so they cost the default
//! path nothing.

use std::marker::PhantomData;
use std::ptr;

use crate::simd::dispatch::{self, Dispatch, KernelTable};
use crate::simd::escape::{decode_escape, encode_utf8, escape_at, Surrogates, SIMPLE};
use crate::simd::fault::{Fault, FaultKind};
use crate::simd::vector::Vector;
use crate::Kernel;

pub(crate) mod bytes;
mod few;
pub(crate) use few::copy_short;
#[cfg(all(vector_target, not(miri)))]
mod medium;
#[cfg(all(vector_target, not(miri)))]
pub(crate) use medium::{medium_all, medium_entry, medium_known, medium_known_wide, pair_clean};
// The deserializer's and the lazy `json::get`'s whitespace scans.
pub(crate) mod space;
pub(crate) use space::SpaceCache;
#[cfg(all(test, unix))]
mod escape_tests;
#[cfg(target_arch = "aarch64")]
mod neon;
mod scalar;
#[cfg(all(test, unix))]
mod scan_tests;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;
mod swar;
#[cfg(target_arch = "x86_64")]
mod x86;

#[cfg(test)]
pub(crate) use scalar::escape_reference;
pub(crate) use swar::swar_special;

/// What the JSON kernels need of a [`Vector`] beyond the shared
/// operations: the special-byte test and a few per-level choices.
///
/// Masks are [`Vector::bits`] values: `STRIDE` bits per byte, lowest byte
/// in the lowest bits. Only the *lowest* set byte of a mask is relied upon
/// (the SWAR mask may flag bytes above a real hit spuriously).
pub(crate) trait Block: Vector {
    /// Whether tails may use the overlapping-reload trick (see module docs).
    const OVERLAP_TAIL: bool;
    /// Mask popcount from which a block counts as escape-dense and is
    /// translated byte by byte instead of one block step per escape.
    const DENSE_BITS: u32;
    /// What [`Vector::load_partial`] fills the lanes past a tail with:
    /// spaces (never special), or zero where the caller masks them off
    /// anyway and zeroing is the cheaper load (AVX-512).
    const TAIL_FILL: u8 = b' ';

    /// Bytes that are `"`, `\` or below 0x20: two byte compares and one
    /// unsigned `<= 0x1F`, or-ed, as [`Vector::bits`]. (The two-compare
    /// `(v ^ 2) <= 0x20` form of `class::special_lanes` measured 2–7 % more
    /// instructions here under callgrind: SSE2 and AVX2 kernels, `quote` of
    /// medium text and of 4 KiB, 2026-11-25.)
    ///
    /// # Safety
    /// The CPU must support the kernel.
    #[inline(always)]
    unsafe fn special_mask(self) -> u64 {
        // SAFETY: the CPU supports the kernel per the caller.
        let splat = |b: u8| unsafe { Self::splat(b) };
        Self::bits(Self::mask_or(
            Self::mask_or(self.eq(splat(b'"')), self.eq(splat(b'\\'))),
            self.le(splat(0x1F)),
        ))
    }
    /// Bytes >= 0x80 (exact per byte).
    ///
    /// # Safety
    /// The CPU must support the kernel.
    #[inline(always)]
    unsafe fn high_mask(self) -> u64 {
        self.high_bits()
    }
    /// Whether a portable build runs this level's medium inputs (up to
    /// `4 * W` bytes) through `medium.rs` with this block
    /// (`Kernels::quote_medium`) rather than the full kernel, whose entry
    /// costs more than the copy on such inputs: the 16- and 32-byte
    /// blocks, not AVX-512 (its own [`Block::escape_whole`]) nor SWAR.
    const MEDIUM_BLOCKS: bool = false;
    /// Escapes (with `QUOTES`, quotes) all of `src` onto `dst` with a
    /// default-policy kernel of the block's own and returns `true`; the
    /// default returns `false` and [`escape_core`] runs its generic loop.
    /// AVX-512 overrides it with its masked-block kernel.
    ///
    /// # Safety
    /// The CPU must support the kernel.
    #[inline(always)]
    unsafe fn escape_whole<const QUOTES: bool>(_dst: &mut Vec<u8>, _src: &[u8]) -> bool {
        false
    }
    /// How many input bytes [`Block::copy_tail`] reads before the end:
    /// by default the last block's `W` (it reloads that block).
    const TAIL_READ: usize = Self::W;
    /// The tail of the escape loop for few escapes (`few.rs`): copies the
    /// last `rem` input bytes before `end` (`1 <= rem < W`) to `d` and
    /// returns their mask (lowest byte first). By default the mask comes
    /// from a reload of the last `W` bytes and the copy is
    /// [`copy_short`]'s overlapping words.
    ///
    /// # Safety
    /// The CPU must support the kernel; `end - TAIL_READ..end` readable;
    /// `d` writable for `W` bytes.
    #[inline(always)]
    unsafe fn copy_tail(end: *const u8, rem: usize, d: *mut u8) -> u64 {
        // SAFETY: the reload is the TAIL_READ = W bytes before `end`; the
        // copy writes rem < W bytes at d.
        unsafe {
            let shift = (Self::W - rem) as u32 * Self::STRIDE;
            let m = Self::load(end.sub(Self::W)).special_mask() >> shift;
            copy_short(end.sub(rem), d, rem);
            m
        }
    }
    /// Lanes `0..from` of `keep` followed by lanes `from..W` of `v`
    /// (`from < W`). Only used by blocks with `OVERLAP_TAIL`.
    ///
    /// # Safety
    /// The CPU must support the kernel.
    #[inline(always)]
    unsafe fn splice(keep: Self, v: Self, from: usize) -> Self {
        let (mut a, mut b) = ([0u8; 64], [0u8; 64]);
        // SAFETY: W <= 64 bytes are written into and read from each buffer.
        unsafe {
            keep.store(a.as_mut_ptr());
            v.store(b.as_mut_ptr());
            a[from..Self::W].copy_from_slice(&b[from..Self::W]);
            Self::load(a.as_ptr())
        }
    }
}

/// `SPLICE_MASK[64 - from..][..W]`: 0x00 in lanes below `from`, 0xFF
/// from there on (for the vector `splice` implementations).
#[cfg_attr(not(all(vector_target, not(miri))), allow(dead_code))]
pub(crate) static SPLICE_MASK: [u8; 128] = {
    let mut m = [0u8; 128];
    let mut i = 64;
    while i < 128 {
        m[i] = 0xFF;
        i += 1;
    }
    m
};

/// Index of the lowest flagged byte of a non-zero mask.
#[inline(always)]
fn first<V: Block>(m: u64) -> usize {
    (m.trailing_zeros() / V::STRIDE) as usize
}

/// `m` without its lowest flagged byte: all `STRIDE` bits of it (NEON
/// masks carry 4 bits per byte; clearing only the lowest *bit* would leave
/// the same byte flagged).
#[inline(always)]
fn without_first<V: Block>(m: u64) -> u64 {
    if V::STRIDE == 1 {
        m & m.wrapping_sub(1)
    } else {
        let keep_from = (first::<V>(m) as u32 + 1) * V::STRIDE;
        if keep_from >= 64 {
            0
        } else {
            m & (!0u64 << keep_from)
        }
    }
}

/// Mask bits covering the lowest `len` bytes (`1 <= len <= 64 / STRIDE`):
/// one shift, and the same expression as AVX-512's tail load mask
/// (`vector::x86::low_lanes`), so the two are computed once.
#[inline(always)]
fn low_bytes<V: Block>(len: usize) -> u64 {
    debug_assert!(len >= 1 && len as u32 * V::STRIDE <= 64);
    u64::MAX >> (64 - len as u32 * V::STRIDE)
}

/// Raw append cursor into a `Vec<u8>`'s spare capacity.
///
/// Invariant: the vector's buffer up to `pos` is initialised output and
/// `pos <= cap_end`, the end of its allocation. The cold helpers take and
/// return plain pointers (in registers), never `&mut Out`, so the hot loops
/// keep `pos`/`cap_end` in registers instead of on the stack.
pub(crate) struct Out<'a> {
    vec: *mut Vec<u8>,
    pub(crate) pos: *mut u8,
    cap_end: *mut u8,
    _vec: PhantomData<&'a mut Vec<u8>>,
}

impl<'a> Out<'a> {
    #[inline(always)]
    pub(crate) fn new(vec: &'a mut Vec<u8>, reserve: usize) -> Self {
        vec.reserve(reserve);
        let base = vec.as_mut_ptr();
        // SAFETY: len and capacity are within the allocation.
        let (pos, cap_end) = unsafe { (base.add(vec.len()), base.add(vec.capacity())) };
        Out {
            vec,
            pos,
            cap_end,
            _vec: PhantomData,
        }
    }

    /// Room left in the allocation after `pos`.
    #[inline(always)]
    pub(crate) fn room(&self) -> usize {
        self.cap_end as usize - self.pos as usize
    }

    /// Makes sure at least `need` bytes can be written at `pos`; grows by at
    /// least `need + hint` when it has to.
    #[inline(always)]
    pub(crate) fn ensure(&mut self, need: usize, hint: usize) {
        if self.room() < need {
            // SAFETY: `vec` is the exclusively borrowed vector and `pos`
            // lies within its initialised output.
            let (pos, cap_end) = unsafe { grow(self.vec, self.pos, need.saturating_add(hint)) };
            self.pos = pos;
            self.cap_end = cap_end;
        }
    }

    /// Sets the vector's length to the written output; the cursor must not
    /// be used afterwards.
    #[inline(always)]
    pub(crate) fn finish(self) {
        // SAFETY: `vec` is the exclusively borrowed vector (lifetime 'a) and
        // everything before pos is initialised output.
        unsafe {
            let vec = &mut *self.vec;
            let len = self.pos as usize - vec.as_ptr() as usize;
            vec.set_len(len);
        }
    }
}

/// Grows the vector so `additional` bytes fit after `pos`; returns the new
/// `(pos, cap_end)`.
///
/// # Safety
/// `vec` must be valid and exclusively ours; everything in its buffer
/// before `pos` must be initialised.
#[cold]
#[inline(never)]
unsafe fn grow(vec: *mut Vec<u8>, pos: *mut u8, additional: usize) -> (*mut u8, *mut u8) {
    // SAFETY: per the contract; after reserve, len <= capacity.
    unsafe {
        let vec = &mut *vec;
        let len = pos as usize - vec.as_ptr() as usize;
        vec.set_len(len);
        vec.reserve(additional);
        let base = vec.as_mut_ptr();
        (base.add(len), base.add(vec.capacity()))
    }
}

/// `ESCAPES[b]`: the escape of byte `b` in its low bytes (little-endian) and
/// its length in the top byte; 0 for bytes that are not escaped by default.
pub(crate) static ESCAPES: [u64; 256] = build_escapes(false);
/// The same with uppercase hex digits.
pub(crate) static ESCAPES_UPPER: [u64; 256] = build_escapes(true);

const fn build_escapes(upper: bool) -> [u64; 256] {
    let hex: &[u8; 16] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let (bytes, len): ([u8; 6], u64) = match b as u8 {
            b'"' => ([b'\\', b'"', 0, 0, 0, 0], 2),
            b'\\' => ([b'\\', b'\\', 0, 0, 0, 0], 2),
            0x08 => ([b'\\', b'b', 0, 0, 0, 0], 2),
            0x0C => ([b'\\', b'f', 0, 0, 0, 0], 2),
            b'\n' => ([b'\\', b'n', 0, 0, 0, 0], 2),
            b'\r' => ([b'\\', b'r', 0, 0, 0, 0], 2),
            b'\t' => ([b'\\', b't', 0, 0, 0, 0], 2),
            c if c < 0x20 => (
                [
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    hex[(c >> 4) as usize],
                    hex[(c & 15) as usize],
                ],
                6,
            ),
            _ => ([0; 6], 0),
        };
        t[b] = u64::from_le_bytes([
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], 0, 0,
        ]) | (len << 56);
        b += 1;
    }
    t
}

/// `TRANSLATE[b]`: like [`ESCAPES`], but every other byte maps to itself
/// with length 1, so a byte loop can translate without branches.
static TRANSLATE: [u64; 256] = {
    let mut t = build_escapes(false);
    let mut b = 0;
    while b < 256 {
        if t[b] == 0 {
            t[b] = b as u64 | (1 << 56);
        }
        b += 1;
    }
    t
};

/// Writes the default escape of each of the `len` bytes at `src` to `dst`
/// through the branch-free [`TRANSLATE`] table; returns the new end.
///
/// # Safety
/// `src..src + len` readable; `6 * len + 8` bytes writable at `dst`.
#[inline(never)]
unsafe fn translate(src: *const u8, len: usize, mut dst: *mut u8) -> *mut u8 {
    for j in 0..len {
        // SAFETY: j < len bytes of src; each store ends at most 8 bytes
        // after dst, which advances by at most 6 per byte.
        unsafe {
            let e = TRANSLATE[*src.add(j) as usize];
            ptr::write_unaligned(dst as *mut [u8; 8], e.to_le_bytes());
            dst = dst.add((e >> 56) as usize);
        }
    }
    dst
}

/// Writes the default escape of special byte `b` at `out.pos`.
///
/// # Safety
/// At least 8 bytes of room at `out.pos`; `b` is `"`, `\` or < 0x20.
#[inline(always)]
unsafe fn write_escape(out: &mut Out<'_>, b: u8) {
    let e = ESCAPES[b as usize];
    // SAFETY: caller guarantees 8 bytes of room.
    unsafe {
        ptr::write_unaligned(out.pos as *mut [u8; 8], e.to_le_bytes());
        out.pos = out.pos.add((e >> 56) as usize);
    }
}

/// Result of decoding one UTF-8 sequence: `Ok(len)` or `Err(len of the
/// maximal invalid subpart)`, the unit `String::from_utf8_lossy` replaces.
#[inline]
pub(crate) fn utf8_sequence(src: &[u8], s: usize) -> Result<usize, usize> {
    let b0 = src[s];
    let cont = |i: usize, lo: u8, hi: u8| -> bool {
        match src.get(s + i) {
            Some(&b) => (lo..=hi).contains(&b),
            None => false,
        }
    };
    let (len, lo1, hi1) = match b0 {
        0x00..=0x7F => return Ok(1),
        0xC2..=0xDF => (2, 0x80, 0xBF),
        0xE0 => (3, 0xA0, 0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80, 0xBF),
        0xED => (3, 0x80, 0x9F),
        0xF0 => (4, 0x90, 0xBF),
        0xF1..=0xF3 => (4, 0x80, 0xBF),
        0xF4 => (4, 0x80, 0x8F),
        _ => return Err(1),
    };
    if !cont(1, lo1, hi1) {
        return Err(1);
    }
    for i in 2..len {
        if !cont(i, 0x80, 0xBF) {
            return Err(i);
        }
    }
    Ok(len)
}

/// Default-policy escaper over `src`, appending to `dst`.
///
/// With `VALIDATE`, bytes >= 0x80 are also flagged: each non-ASCII run is
/// checked sequence by sequence (copied verbatim when valid); invalid UTF-8
/// is an error, or U+FFFD when `replace`. Without it, bytes >= 0x80 are
/// copied verbatim and the function cannot fail.
///
/// # Safety
/// The CPU must support `V`'s instructions.
#[inline(always)]
pub(crate) unsafe fn escape_core<V: Block, const VALIDATE: bool, const QUOTES: bool>(
    dst: &mut Vec<u8>,
    src: &[u8],
    replace: bool,
) -> Result<(), Fault> {
    // SAFETY: CPU support per the caller.
    if !VALIDATE && unsafe { V::escape_whole::<QUOTES>(dst, src) } {
        return Ok(());
    }
    let n = src.len();
    let sp = src.as_ptr();
    let pad = V::W + 8;
    let mut out = Out::new(dst, n + pad + 2 * QUOTES as usize);
    if QUOTES {
        // SAFETY: Out::new reserved more than one byte.
        unsafe {
            *out.pos = b'"';
            out.pos = out.pos.add(1);
        }
    }
    let mut s = 0usize;
    if n <= 4 * V::W {
        // Medium input: a fixed pattern of overlapping in-bounds blocks,
        // each stored where it belongs; then either done, or on to the loop
        // from the first byte needing work (the output before it is a
        // verbatim copy, so the loop may use the overlapping tail).
        // SAFETY: n bytes of src; n + W + 8 bytes of room.
        match unsafe { medium_first::<V, VALIDATE>(sp, n, out.pos) } {
            None => s = n,
            Some(i) => s = i,
        }
        // SAFETY: s <= n bytes of verbatim output were written.
        out.pos = unsafe { out.pos.add(s) };
        if !VALIDATE && V::OVERLAP_TAIL && n >= V::W && s < n {
            // A medium input with an escape: the loop for few escapes
            // (`few`), from that escape on.
            out.finish();
            // SAFETY: dst ends with the opening quote (with QUOTES) and a
            // verbatim copy of src[..s]; src[s] needs an escape; n >= W;
            // CPU support per the caller.
            unsafe { few::escape_blocks::<V, true, QUOTES>(dst, src, s) };
            return Ok(());
        }
    }
    // SAFETY: the output ends with a verbatim copy of src[..s].
    unsafe { escape_loop::<V, VALIDATE, QUOTES>(out, src, s, replace) }
}

/// [`escape_core`] resumed at `src[start]`, where `dst` already ends with
/// the opening quote (with `QUOTES`) and a verbatim copy of `src[..start]`.
///
/// # Safety
/// As [`escape_core`]; `start <= src.len()`.
#[cfg_attr(not(all(vector_target, not(miri))), allow(dead_code))]
#[inline(always)]
unsafe fn escape_from<V: Block, const VALIDATE: bool, const QUOTES: bool>(
    dst: &mut Vec<u8>,
    src: &[u8],
    start: usize,
    replace: bool,
) -> Result<(), Fault> {
    let out = Out::new(dst, src.len() - start + V::W + 8 + QUOTES as usize);
    // SAFETY: per the contract.
    unsafe { escape_loop::<V, VALIDATE, QUOTES>(out, src, start, replace) }
}

/// The block loop of [`escape_core`] from `src[s]` on, with the output
/// ending in a verbatim copy of `src[..s]`; writes the closing quote.
///
/// # Safety
/// As [`escape_core`]; `s <= src.len()`.
#[inline(always)]
unsafe fn escape_loop<V: Block, const VALIDATE: bool, const QUOTES: bool>(
    mut out: Out<'_>,
    src: &[u8],
    mut s: usize,
    replace: bool,
) -> Result<(), Fault> {
    let n = src.len();
    let sp = src.as_ptr();
    let pad = V::W + 8;
    // Output ending at `out.pos` is a verbatim copy of src[clean_from..s].
    let mut clean_from = 0usize;
    while s < n {
        out.ensure(pad, n - s);
        let rem = n - s;
        let (i, m);
        if rem >= UNROLL * V::W && out.room() >= UNROLL * V::W {
            // Long clean text: four blocks per step, one branch on the OR of
            // their masks. A dirty step falls through to the one-block step
            // below, which redoes its first block (the stores were only
            // verbatim copies into spare room).
            // SAFETY: s + 4W <= n and 4W bytes of room.
            let any = unsafe {
                let mut any = 0;
                for k in 0..UNROLL {
                    let v = V::load(sp.add(s + k * V::W));
                    v.store(out.pos.add(k * V::W));
                    any |= v.special_mask();
                    if VALIDATE {
                        any |= v.high_mask();
                    }
                }
                any
            };
            if any == 0 {
                s += UNROLL * V::W;
                // SAFETY: 4W bytes were just written within the room.
                out.pos = unsafe { out.pos.add(UNROLL * V::W) };
                continue;
            }
        }
        if rem >= V::W {
            // SAFETY: s + W <= n; ensure() gave W + 8 bytes of room.
            m = unsafe {
                let v = V::load(sp.add(s));
                v.store(out.pos);
                let mut m = v.special_mask();
                if VALIDATE {
                    m |= v.high_mask();
                }
                m
            };
            if m == 0 {
                s += V::W;
                // SAFETY: W bytes were just written within the room.
                out.pos = unsafe { out.pos.add(V::W) };
                continue;
            }
            i = first::<V>(m);
            if !VALIDATE && without_first::<V>(m) != 0 && m.count_ones() >= V::DENSE_BITS {
                // Escape-dense block: rather than one step per escape,
                // translate from its first flagged byte on, byte by byte
                // (out of line, so the clean loop keeps its registers). The
                // bytes before the first one are already stored and are
                // committed before ensure() may move the buffer. A 64-byte
                // block stops after its last flagged byte and lets the
                // clean rest start the next block (measured faster there;
                // for narrower blocks translating the short rest is).
                let end = if V::W >= 64 {
                    (64 - m.leading_zeros()) as usize / V::STRIDE as usize
                } else {
                    V::W
                };
                s += i;
                // SAFETY: i < W bytes of the block store are verbatim output.
                out.pos = unsafe { out.pos.add(i) };
                let len = end - i;
                out.ensure(6 * len + 8, n - s);
                // SAFETY: s + len <= n (end <= W); room for 6 bytes per
                // input byte + 8.
                out.pos = unsafe { translate(sp.add(s), len, out.pos) };
                s += len;
                clean_from = s;
                continue;
            }
        } else {
            if rem == 0 {
                break;
            }
            m = if V::OVERLAP_TAIL && n >= V::W && n - V::W >= clean_from {
                let shift = V::W - rem;
                // SAFETY: n - W >= 0 so the load is in bounds; the store
                // starts `shift` bytes before pos, inside the verbatim copy of
                // src[clean_from..s] (shift = s - (n - W) <= s - clean_from),
                // rewriting those bytes with the same values, and ends at
                // pos + rem <= pos + room.
                unsafe {
                    let v = V::load(sp.add(n - V::W));
                    v.store(out.pos.sub(shift));
                    let mut m = v.special_mask();
                    if VALIDATE {
                        m |= v.high_mask();
                    }
                    m >> (shift as u32 * V::STRIDE)
                }
            } else if V::OVERLAP_TAIL && n >= V::W {
                // The tail after an escape: the output before pos is not a
                // verbatim copy, so reload the last W bytes (in bounds) and
                // splice their last `rem` lanes in after the output already
                // written, which is at least s >= W - rem bytes of this
                // call's own output (every input byte gave at least one).
                let shift = V::W - rem;
                // SAFETY: the load is within src (n >= W); the first store
                // only initialises the room at pos (W + 8 bytes); the
                // reload and the spliced store span pos - shift .. pos + rem,
                // all initialised output of this call or room.
                unsafe {
                    let v = V::load(sp.add(n - V::W));
                    v.store(out.pos);
                    let keep = V::load(out.pos.sub(shift));
                    V::splice(keep, v, shift).store(out.pos.sub(shift));
                    let mut m = v.special_mask();
                    if VALIDATE {
                        m |= v.high_mask();
                    }
                    m >> (shift as u32 * V::STRIDE)
                }
            } else {
                // SAFETY: s..n is in bounds; W bytes of room.
                unsafe {
                    let v = V::load_partial(sp.add(s), rem, V::TAIL_FILL);
                    v.store(out.pos);
                    let mut m = v.special_mask();
                    if VALIDATE {
                        m |= v.high_mask();
                    }
                    m & low_bytes::<V>(rem)
                }
            };
            if m == 0 {
                // SAFETY: rem bytes were just written within the room.
                out.pos = unsafe { out.pos.add(rem) };
                break;
            }
            i = first::<V>(m);
        }
        s += i;
        // SAFETY: i < W bytes of the block store are verbatim output.
        out.pos = unsafe { out.pos.add(i) };
        let b = src[s];
        if VALIDATE && b >= 0x80 {
            // Walk the whole non-ASCII run here rather than one block per
            // character.
            while s < n && src[s] >= 0x80 {
                out.ensure(8, n - s);
                match utf8_sequence(src, s) {
                    Ok(len) => {
                        // SAFETY: len <= 4 bytes in bounds; 8 bytes of room.
                        unsafe { ptr::copy_nonoverlapping(sp.add(s), out.pos, len) };
                        // SAFETY: within the room just ensured.
                        out.pos = unsafe { out.pos.add(len) };
                        s += len;
                    }
                    Err(bad) => {
                        if !replace {
                            out.finish();
                            return Err(Fault::new(s, FaultKind::InvalidUtf8));
                        }
                        // SAFETY: 8 bytes of room.
                        unsafe {
                            ptr::copy_nonoverlapping("\u{FFFD}".as_ptr(), out.pos, 3);
                            out.pos = out.pos.add(3);
                        }
                        s += bad;
                        clean_from = s;
                    }
                }
            }
        } else {
            // SAFETY: room for W + 8 >= 8 bytes at pos (i < W bytes used).
            unsafe { write_escape(&mut out, b) };
            s += 1;
            if !VALIDATE {
                // The block's other flagged bytes, from the mask already in
                // hand: copy the short run before each with one fixed
                // 16-byte move, then write its escape. A long run (or one
                // near the end of the input) goes back to the block loop.
                let block = s - 1 - i;
                let mut m = without_first::<V>(m);
                while m != 0 {
                    let gap = block + first::<V>(m) - s;
                    // gap < W: the flag is inside the block.
                    out.ensure(V::W + 8, n - s);
                    // SAFETY: the copy reads 16 (or W) bytes at s, in bounds
                    // by the checks, and writes them at pos, followed by an
                    // 8-byte escape store after `gap` bytes: all within the
                    // W + 8 bytes of room (gap < W). TRANSLATE maps a byte
                    // that needs no escape (a spurious SWAR flag) to itself.
                    unsafe {
                        if gap <= 16 && s + 16 <= n {
                            ptr::copy_nonoverlapping(sp.add(s), out.pos, 16);
                        } else if V::W >= 64 && s + V::W <= n {
                            // Longer runs with one 64-byte move (measured
                            // a win for AVX-512 only; narrower blocks
                            // reload instead).
                            V::load(sp.add(s)).store(out.pos);
                        } else {
                            break;
                        }
                        out.pos = out.pos.add(gap);
                        s += gap;
                        let e = TRANSLATE[*sp.add(s) as usize];
                        ptr::write_unaligned(out.pos as *mut [u8; 8], e.to_le_bytes());
                        out.pos = out.pos.add((e >> 56) as usize);
                    }
                    s += 1;
                    m = without_first::<V>(m);
                }
            }
            clean_from = s;
        }
    }
    if QUOTES {
        out.ensure(1, 0);
        // SAFETY: one byte of room.
        unsafe {
            *out.pos = b'"';
            out.pos = out.pos.add(1);
        }
    }
    out.finish();
    Ok(())
}

/// Blocks per step of the clean fast loop in [`escape_core`].
const UNROLL: usize = 4;

/// The medium path of [`escape_core`] for `n <= 4W`: copies `src[..n]` to
/// `o` with one block (a masked/partial load below `W` bytes), two
/// overlapping blocks (at 0 and `n - W`) or four (0, `W`, `n - 2W`,
/// `n - W`), and returns the index of the first byte that needs work (with
/// `VALIDATE`, also bytes >= 0x80), or `None`. Two or three branches on the
/// length class instead of a loop whose exit mispredicts.
///
/// # Safety
/// `src..src + n` readable, `o..o + max(n, W)` writable, CPU support.
#[inline(always)]
unsafe fn medium_first<V: Block, const VALIDATE: bool>(
    src: *const u8,
    n: usize,
    o: *mut u8,
) -> Option<usize> {
    let mask = |v: V| {
        // SAFETY: CPU support per the caller.
        unsafe {
            if VALIDATE {
                v.special_mask() | v.high_mask()
            } else {
                v.special_mask()
            }
        }
    };
    let w = V::W;
    // SAFETY: every load lies within src[..n] (all offsets are >= 0 and
    // end <= n in their length class: 0, min(W, n - W), max(n, 2W) - 2W,
    // W, n - 2W, n - W for n >= W; a partial load below W) and every store
    // is at the same offset of `o`, within the caller's room.
    unsafe {
        if n < w {
            if n == 0 {
                return None;
            }
            let v = V::load_partial(src, n, V::TAIL_FILL);
            v.store(o);
            let m = mask(v) & low_bytes::<V>(n);
            return (m != 0).then(|| first::<V>(m));
        }
        if V::STRIDE == 1 && 4 * w <= 128 {
            // Branch-free for every n in W..=4W: four blocks at 0, o1, o2
            // and n - W cover the input (o1 = min(W, n - W),
            // o2 = max(n, 2W) - 2W), and their masks shifted to their
            // offsets give one positional mask whose lowest bit is the
            // first byte needing work (a spurious SWAR flag always sits
            // above a real one).
            let (o1, o2, o3) = (w.min(n - w), n.max(2 * w) - 2 * w, n - w);
            let (a, b, y, z) = (
                V::load(src),
                V::load(src.add(o1)),
                V::load(src.add(o2)),
                V::load(src.add(o3)),
            );
            a.store(o);
            b.store(o.add(o1));
            y.store(o.add(o2));
            z.store(o.add(o3));
            if 4 * w <= 64 {
                let m = mask(a) | mask(b) << o1 | mask(y) << o2 | mask(z) << o3;
                return (m != 0).then(|| m.trailing_zeros() as usize);
            }
            // 32-byte blocks: the first min(n, 2W) bytes in one 64-bit
            // mask, the last ones in another (a 128-bit mask measured
            // slower: its shifts are two instructions and a select each).
            // A flag in the head is the first one (the head starts at 0);
            // the tail's matter only when the head has none.
            let head = mask(a) | mask(b) << o1;
            let tail = mask(y) | mask(z) << (o3 - o2);
            if head != 0 {
                return Some(head.trailing_zeros() as usize);
            }
            return (tail != 0).then(|| o2 + tail.trailing_zeros() as usize);
        }
        let (a, z) = (V::load(src), V::load(src.add(n - w)));
        a.store(o);
        if n <= 2 * w {
            z.store(o.add(n - w));
            let (ma, mz) = (mask(a), mask(z));
            if ma | mz == 0 {
                return None;
            }
            return Some(if ma != 0 {
                first::<V>(ma)
            } else {
                n - w + first::<V>(mz)
            });
        }
        let (b, y) = (V::load(src.add(w)), V::load(src.add(n - 2 * w)));
        b.store(o.add(w));
        y.store(o.add(n - 2 * w));
        z.store(o.add(n - w));
        let (ma, mb, my, mz) = (mask(a), mask(b), mask(y), mask(z));
        if ma | mb | my | mz == 0 {
            return None;
        }
        Some(if ma != 0 {
            first::<V>(ma)
        } else if mb != 0 {
            w + first::<V>(mb)
        } else if my != 0 {
            n - 2 * w + first::<V>(my)
        } else {
            n - w + first::<V>(mz)
        })
    }
}

/// Finds the first `"`, `\` or control byte of `src` (or `src.len()`), and
/// whether any byte >= 0x80 comes before it (exactly: bytes after it in the
/// same block do not count, so the deserializer's facts do not depend on
/// the block width).
///
/// # Safety
/// The CPU must support `V`'s instructions.
#[inline(always)]
pub(crate) unsafe fn scan_core<V: Block>(src: &[u8]) -> (usize, bool) {
    let n = src.len();
    let sp = src.as_ptr();
    let mut s = 0;
    let mut hi = 0u64;
    while n - s >= V::W {
        // SAFETY: s + W <= n.
        let (m, h) = unsafe {
            let v = V::load(sp.add(s));
            (v.special_mask(), v.high_mask())
        };
        if m != 0 {
            return (s + first::<V>(m), hi | before_first(h, m) != 0);
        }
        hi |= h;
        s += V::W;
    }
    let rem = n - s;
    if rem == 0 {
        return (n, hi != 0);
    }
    // SAFETY: the loads stay within src (n >= W for the overlapping one).
    let (m, h) = unsafe {
        if V::OVERLAP_TAIL && n >= V::W {
            let shift = (V::W - rem) as u32 * V::STRIDE;
            let v = V::load(sp.add(n - V::W));
            (v.special_mask() >> shift, v.high_mask() >> shift)
        } else {
            let v = V::load_partial(sp.add(s), rem, V::TAIL_FILL);
            let low = low_bytes::<V>(rem);
            (v.special_mask() & low, v.high_mask() & low)
        }
    };
    if m != 0 {
        (s + first::<V>(m), hi | before_first(h, m) != 0)
    } else {
        (n, hi | h != 0)
    }
}

/// The bits of `h` for the bytes before the first byte flagged in `m`
/// (non-zero). That byte itself is `"`, `\` or a control byte, never
/// flagged in `h`, so the bits up to `m`'s lowest one are exactly those.
#[inline(always)]
fn before_first(h: u64, m: u64) -> u64 {
    h & (m ^ (m - 1))
}

/// How the unescaper treats what it finds.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct UnescapeMode {
    /// Replace invalid UTF-8 and lone surrogates with U+FFFD.
    pub(crate) replace: bool,
    /// Keep lone surrogates as WTF-8 (wins over `replace` for surrogates).
    pub(crate) wtf8: bool,
    /// A raw `"` ends the string (unquote) instead of being an error.
    pub(crate) stop_at_quote: bool,
    /// The input is known to be UTF-8 (it came from a `&str`): skip the
    /// run validation.
    pub(crate) trusted: bool,
}

impl UnescapeMode {
    /// The shared decoder's policy for lone surrogates.
    #[inline(always)]
    pub(crate) fn surrogates(self) -> Surrogates {
        if self.wtf8 {
            Surrogates::Wtf8
        } else if self.replace {
            Surrogates::Replace
        } else {
            Surrogates::Reject
        }
    }
}

/// Validates the verbatim run `src[run_start..s]` that ends at `out.pos`;
/// with `replace`, rewrites it lossily (moving `out.pos`). On error the
/// output is finished (its length set) before returning.
#[cold]
#[inline(never)]
fn check_run(
    out: &Out<'_>,
    src: &[u8],
    run_start: usize,
    s: usize,
    replace: bool,
) -> Result<(*mut u8, *mut u8), Fault> {
    let run = &src[run_start..s];
    let mut cursor = Out {
        vec: out.vec,
        pos: out.pos,
        cap_end: out.cap_end,
        _vec: PhantomData,
    };
    match super::utf8::validate(run) {
        Ok(_) => Ok((cursor.pos, cursor.cap_end)),
        Err(valid_up_to) if !replace => {
            cursor.finish();
            Err(Fault::new(run_start + valid_up_to, FaultKind::InvalidUtf8))
        }
        Err(_) => {
            let fixed = String::from_utf8_lossy(run);
            // SAFETY: the run's verbatim copy ends at pos, so pos - run.len()
            // is still inside the initialised output.
            cursor.pos = unsafe { cursor.pos.sub(run.len()) };
            cursor.ensure(fixed.len(), 64);
            // SAFETY: ensure() made room; `fixed` is a separate allocation
            // or a borrow of `src`, never the output buffer.
            unsafe {
                ptr::copy_nonoverlapping(fixed.as_ptr(), cursor.pos, fixed.len());
                cursor.pos = cursor.pos.add(fixed.len());
            }
            Ok((cursor.pos, cursor.cap_end))
        }
    }
}

/// Decodes the escape at `src[s] == b'\\'` and writes its UTF-8 at `o`
/// (at most 4 bytes) with the crate's one decoder (`simd::escape`); returns
/// the escape's length and the bytes written. A two-byte escape (`\n`,
/// `\"`) is decoded inline with one table look-up; everything else goes
/// out of line to [`unescape_other`] (inlined whole, the decoder costs the
/// clean block loop registers: measured, more saved registers on every
/// call, for text where escapes are rare).
///
/// # Safety
/// `s < src.len()`; `o..o + 4` writable and not overlapping `src`.
#[inline(always)]
unsafe fn unescape_one(
    src: &[u8],
    s: usize,
    o: *mut u8,
    mode: UnescapeMode,
) -> Result<(usize, usize), Fault> {
    if let Some(&c) = src.get(s + 1) {
        let simple = SIMPLE[c as usize];
        if simple != 0 {
            // SAFETY: one writable byte at o.
            unsafe { *o = simple };
            return Ok((2, 1));
        }
    }
    // SAFETY: per the contract.
    unsafe { unescape_other(src, s, o, mode) }
}

/// The rest of [`unescape_one`]: the decoder's fast form, then its scalar
/// form for lone surrogates under a lenient policy and for faults.
///
/// # Safety
/// As [`unescape_one`].
#[inline(never)]
unsafe fn unescape_other(
    src: &[u8],
    s: usize,
    o: *mut u8,
    mode: UnescapeMode,
) -> Result<(usize, usize), Fault> {
    // SAFETY: per the contract.
    if let Some(done) = unsafe { escape_at(src.as_ptr(), src.len(), s, o) } {
        return Ok(done);
    }
    let (cp, len) = decode_escape(src, s, mode.surrogates())?;
    let mut buf = [0u8; 4];
    let k = encode_utf8(cp, &mut buf);
    // SAFETY: 4 writable bytes at o.
    unsafe { ptr::copy_nonoverlapping(buf.as_ptr(), o, 4) };
    Ok((len, k))
}

/// Unescapes `src[start..]` (with `src[..start]` already copied verbatim to
/// `dst` by the caller and still to be validated). Returns the index where
/// it stopped: `src.len()`, or the closing quote with `stop_at_quote`.
///
/// # Safety
/// The CPU must support `V`'s instructions.
#[inline(always)]
pub(crate) unsafe fn unescape_core<V: Block>(
    dst: &mut Vec<u8>,
    src: &[u8],
    start: usize,
    mode: UnescapeMode,
) -> Result<usize, Fault> {
    let n = src.len();
    let sp = src.as_ptr();
    let pad = V::W + 8;
    let first_reserve = if mode.stop_at_quote {
        (n - start).min(256)
    } else {
        n - start
    };
    let mut out = Out::new(dst, first_reserve + pad);
    let mut s = start;
    let mut run_start = 0usize;
    // Conservatively set when the current run may hold bytes >= 0x80.
    let mut hi: u64 = (start > 0) as u64;
    let mut clean_from = 0usize;
    loop {
        out.ensure(pad, if mode.stop_at_quote { 64 } else { n - s });
        let rem = n - s;
        let i;
        if rem >= V::W {
            // SAFETY: s + W <= n; W + 8 bytes of room.
            let m = unsafe {
                let v = V::load(sp.add(s));
                v.store(out.pos);
                hi |= v.high_mask();
                v.special_mask()
            };
            if m == 0 {
                s += V::W;
                // SAFETY: W bytes were just written within the room.
                out.pos = unsafe { out.pos.add(V::W) };
                continue;
            }
            i = first::<V>(m);
        } else {
            if rem == 0 {
                break;
            }
            let m = if V::OVERLAP_TAIL && n >= V::W && n - V::W >= clean_from {
                let shift = V::W - rem;
                // SAFETY: as in escape_core: in-bounds load, the store
                // rewrites verbatim output with the same bytes.
                unsafe {
                    let v = V::load(sp.add(n - V::W));
                    v.store(out.pos.sub(shift));
                    let sh = shift as u32 * V::STRIDE;
                    hi |= v.high_mask() >> sh;
                    v.special_mask() >> sh
                }
            } else {
                // SAFETY: s..n in bounds; W bytes of room.
                unsafe {
                    let v = V::load_partial(sp.add(s), rem, V::TAIL_FILL);
                    v.store(out.pos);
                    let low = low_bytes::<V>(rem);
                    hi |= v.high_mask() & low;
                    v.special_mask() & low
                }
            };
            if m == 0 {
                // SAFETY: rem bytes were just written within the room.
                out.pos = unsafe { out.pos.add(rem) };
                break;
            }
            i = first::<V>(m);
        }
        s += i;
        // SAFETY: i < W verbatim bytes of the block store.
        out.pos = unsafe { out.pos.add(i) };
        if hi != 0 && !mode.trusted {
            (out.pos, out.cap_end) = check_run(&out, src, run_start, s, mode.replace)?;
            // A lossy rewrite may have used up the room: restore it before
            // writing the escape below.
            out.ensure(pad, 64);
            hi = 0;
        }
        let b = src[s];
        if b == b'\\' {
            // SAFETY: s < n; W + 8 >= 4 bytes of room at pos, in the
            // output buffer, which does not overlap src.
            match unsafe { unescape_one(src, s, out.pos, mode) } {
                Ok((len, k)) => {
                    // SAFETY: k <= 4 bytes were written within the room.
                    out.pos = unsafe { out.pos.add(k) };
                    s += len;
                }
                Err(f) => {
                    out.finish();
                    return Err(f);
                }
            }
        } else if b == b'"' && mode.stop_at_quote {
            out.finish();
            return Ok(s);
        } else {
            out.finish();
            let kind = if b == b'"' {
                FaultKind::UnescapedQuote
            } else {
                FaultKind::ControlCharacter(b)
            };
            return Err(Fault::new(s, kind));
        }
        run_start = s;
        clean_from = s;
    }
    if hi != 0 && !mode.trusted {
        (out.pos, out.cap_end) = check_run(&out, src, run_start, n, mode.replace)?;
    }
    out.finish();
    if mode.stop_at_quote {
        Err(Fault::new(n, FaultKind::Unterminated))
    } else {
        Ok(n)
    }
}

/// Default-policy escape validating UTF-8 (`bool` = replace invalid).
pub(crate) type EscapeUtf8Fn = unsafe fn(&mut Vec<u8>, &[u8], bool) -> Result<(), Fault>;
/// See [`unescape_core`].
pub(crate) type UnescapeFn =
    unsafe fn(&mut Vec<u8>, &[u8], usize, UnescapeMode) -> Result<usize, Fault>;

/// The kernel functions for one instruction-set level.
pub(crate) struct Kernels {
    /// Default-policy escape, bytes >= 0x80 verbatim.
    pub(crate) escape: unsafe fn(&mut Vec<u8>, &[u8]),
    /// [`Kernels::escape`] with the surrounding quotes.
    #[allow(dead_code)] // called by name when the build guarantees a level
    pub(crate) quote: unsafe fn(&mut Vec<u8>, &[u8]),
    /// Default-policy escape validating UTF-8 (`bool` = replace).
    pub(crate) escape_utf8: EscapeUtf8Fn,
    /// See [`unescape_core`].
    pub(crate) unescape: UnescapeFn,
    /// See [`scan_core`].
    pub(crate) scan: unsafe fn(&[u8]) -> (usize, bool),
    /// Unescape to bytes, copy form (see `bytes.rs`).
    pub(crate) unescape_bytes: BytesFn,
    /// Unescape to bytes, in place (`out == src`).
    pub(crate) unescape_bytes_in_place: BytesFn,
    /// Inputs up to this long run [`Kernels::quote_medium`] /
    /// [`Kernels::escape_medium`] in a portable build (0: none do); see
    /// [`Block::MEDIUM_BLOCKS`].
    #[cfg_attr(not(all(vector_target, not(miri))), allow(dead_code))]
    pub(crate) medium_max: usize,
    /// The medium path with this level's block, quoting.
    #[allow(dead_code)] // as `medium_max`
    pub(crate) quote_medium: unsafe fn(&mut Vec<u8>, &[u8]),
    /// The medium path with this level's block.
    #[allow(dead_code)] // as `medium_max`
    pub(crate) escape_medium: unsafe fn(&mut Vec<u8>, &[u8]),
}

/// `(src, len, out) -> decoded length | offset of the failure`; see
/// `bytes::unescape`.
pub(crate) type BytesFn = unsafe fn(*const u8, usize, *mut u8) -> Result<usize, usize>;

/// Instantiates a [`Kernels`] table for a block type inside functions
/// compiled with the given target features.
macro_rules! kernels {
    ($name:ident, $module:ident, $block:ty, $($feature:literal),*) => {
        /// The kernel functions of this level, nameable so that a build
        /// guaranteeing the level can call them directly.
        #[allow(dead_code)]
        pub(crate) mod $module {
            #[allow(unused_imports)]
            use $crate::simd::json::{escape_core, scan_core, unescape_core, UnescapeMode};
            use $crate::simd::fault::Fault;

            /// # Safety
            /// The CPU must support the kernel's target features.
            // Inlinable where the caller has the same features (a build
            // that guarantees the level calls these by name): the AVX-512
            // fast path then runs in the caller's loop.
            #[inline]
            $(#[target_feature(enable = $feature)])*
            pub(crate) unsafe fn escape(dst: &mut Vec<u8>, src: &[u8]) {
                // SAFETY: caller guarantees CPU support; cannot fail.
                let _ = unsafe { escape_core::<$block, false, false>(dst, src, false) };
            }
            /// # Safety
            /// The CPU must support the kernel's target features.
            // Inlinable where the caller has the same features (a build
            // that guarantees the level calls these by name): the AVX-512
            // fast path then runs in the caller's loop.
            #[inline]
            $(#[target_feature(enable = $feature)])*
            pub(crate) unsafe fn quote(dst: &mut Vec<u8>, src: &[u8]) {
                // SAFETY: caller guarantees CPU support; cannot fail.
                let _ = unsafe { escape_core::<$block, false, true>(dst, src, false) };
            }
            /// The medium path (`medium.rs`) with this level's block.
            ///
            /// # Safety
            /// The CPU must support the kernel's target features;
            /// `src.len() <= 4 * W`.
            $(#[target_feature(enable = $feature)])*
            pub(crate) unsafe fn quote_medium(dst: &mut Vec<u8>, src: &[u8]) {
                // SAFETY: per the caller; the functions are this level's.
                unsafe { $crate::simd::json::medium_entry::<$block, true>(dst, src, quote_medium, medium_rest::<true>, medium_all::<true>) }
            }
            /// [`quote_medium`] without the quotes.
            ///
            /// # Safety
            /// As [`quote_medium`].
            $(#[target_feature(enable = $feature)])*
            pub(crate) unsafe fn escape_medium(dst: &mut Vec<u8>, src: &[u8]) {
                // SAFETY: per the caller; the functions are this level's.
                unsafe { $crate::simd::json::medium_entry::<$block, false>(dst, src, escape_medium, medium_rest::<false>, medium_all::<false>) }
            }
            /// The medium path's escape loop from the escapes flagged in
            /// `m` (`medium::MediumFns::rest`), out of line. (A `#[target_feature]` function's
            /// `#[inline(never)]` is not kept: measured inlined into its
            /// caller, frame and all. This wrapper has no features, so
            /// the body below cannot be inlined into it either.)
            ///
            /// # Safety
            /// CPU support; as `medium::MediumFns::rest`.
            #[inline(never)]
            unsafe fn medium_rest<const QUOTES: bool>(dst: &mut Vec<u8>, src: &[u8], m: u128) {
                // SAFETY: per the caller.
                unsafe { medium_rest_body::<QUOTES>(dst, src, m) }
            }
            /// # Safety
            /// As [`medium_rest`].
            $(#[target_feature(enable = $feature)])*
            unsafe fn medium_rest_body<const QUOTES: bool>(dst: &mut Vec<u8>, src: &[u8], m: u128) {
                // SAFETY: per the caller.
                unsafe { $crate::simd::json::medium_known::<$block, QUOTES>(dst, src, m, medium_wide::<QUOTES>) }
            }
            /// `medium_known`'s inputs of more than two blocks, out of
            /// line (as [`medium_rest`]): inlined in [`medium_rest_body`],
            /// their loop gave every shorter input's call a frame.
            ///
            /// # Safety
            /// CPU support; as `medium::medium_known_wide`.
            #[inline(never)]
            unsafe fn medium_wide<const QUOTES: bool>(dst: &mut Vec<u8>, src: &[u8], m: u128) {
                // SAFETY: per the caller.
                unsafe { medium_wide_body::<QUOTES>(dst, src, m) }
            }
            /// # Safety
            /// As [`medium_wide`].
            $(#[target_feature(enable = $feature)])*
            unsafe fn medium_wide_body<const QUOTES: bool>(dst: &mut Vec<u8>, src: &[u8], m: u128) {
                // SAFETY: per the caller.
                unsafe { $crate::simd::json::medium_known_wide::<$block, QUOTES>(dst, src, m) }
            }
            /// The opening quote, then all of `src` through the escape
            /// loop, out of line (as [`medium_rest`]).
            ///
            /// # Safety
            /// CPU support.
            #[inline(never)]
            unsafe fn medium_all<const QUOTES: bool>(dst: &mut Vec<u8>, src: &[u8]) {
                // SAFETY: per the caller.
                unsafe { medium_all_body::<QUOTES>(dst, src) }
            }
            /// # Safety
            /// As [`medium_all`].
            $(#[target_feature(enable = $feature)])*
            unsafe fn medium_all_body<const QUOTES: bool>(dst: &mut Vec<u8>, src: &[u8]) {
                // SAFETY: per the caller (`medium_block` sends at most 32 bytes).
                unsafe { $crate::simd::json::medium_all::<$block, QUOTES>(dst, src) }
            }
            /// # Safety
            /// The CPU must support the kernel's target features.
            $(#[target_feature(enable = $feature)])*
            pub(crate) unsafe fn escape_utf8(dst: &mut Vec<u8>, src: &[u8], replace: bool) -> Result<(), Fault> {
                // SAFETY: caller guarantees CPU support.
                unsafe { escape_core::<$block, true, false>(dst, src, replace) }
            }
            /// # Safety
            /// The CPU must support the kernel's target features.
            $(#[target_feature(enable = $feature)])*
            pub(crate) unsafe fn unescape(
                dst: &mut Vec<u8>,
                src: &[u8],
                start: usize,
                mode: UnescapeMode,
            ) -> Result<usize, Fault> {
                // SAFETY: caller guarantees CPU support.
                unsafe { unescape_core::<$block>(dst, src, start, mode) }
            }
            /// # Safety
            /// The CPU must support the kernel's target features.
            $(#[target_feature(enable = $feature)])*
            pub(crate) unsafe fn scan(src: &[u8]) -> (usize, bool) {
                // SAFETY: caller guarantees CPU support.
                unsafe { scan_core::<$block>(src) }
            }
            /// # Safety
            /// As `bytes::unescape` (copy form), and CPU support.
            $(#[target_feature(enable = $feature)])*
            pub(crate) unsafe fn unescape_bytes(src: *const u8, n: usize, out: *mut u8) -> Result<usize, usize> {
                // SAFETY: per the caller.
                unsafe { $crate::simd::json::bytes::unescape::<$block, false>(src, n, out) }
            }
            /// # Safety
            /// As `bytes::unescape` (in place), and CPU support.
            $(#[target_feature(enable = $feature)])*
            pub(crate) unsafe fn unescape_bytes_in_place(src: *const u8, n: usize, out: *mut u8) -> Result<usize, usize> {
                // SAFETY: per the caller.
                unsafe { $crate::simd::json::bytes::unescape::<$block, true>(src, n, out) }
            }
        }
        pub(crate) static $name: $crate::simd::json::Kernels = $crate::simd::json::Kernels {
            escape: $module::escape,
            quote: $module::quote,
            escape_utf8: $module::escape_utf8,
            unescape: $module::unescape,
            scan: $module::scan,
            unescape_bytes: $module::unescape_bytes,
            unescape_bytes_in_place: $module::unescape_bytes_in_place,
            medium_max: if <$block as $crate::simd::json::Block>::MEDIUM_BLOCKS {
                4 * <$block as $crate::simd::vector::Vector>::W
            } else {
                0
            },
            quote_medium: $module::quote_medium,
            escape_medium: $module::escape_medium,
        };
    };
}
pub(crate) use kernels;

impl KernelTable for Kernels {
    #[inline(always)]
    fn table(kernel: Kernel) -> Option<&'static Kernels> {
        match kernel {
            Kernel::Scalar => Some(&scalar::SCALAR),
            Kernel::Swar => Some(&swar::SWAR),
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            Kernel::Sse2 => Some(&x86::SSE2),
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            Kernel::Avx2 => Some(&x86::AVX2),
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            Kernel::Avx512 => Some(&x86::AVX512),
            #[cfg(all(target_arch = "aarch64", not(miri)))]
            Kernel::Neon => Some(&neon::NEON),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(miri)))]
            Kernel::Simd128 => Some(&simd128::SIMD128),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    fn fallback() -> &'static Kernels {
        &swar::SWAR
    }
}

/// The kernel table for `kernel`, or `None` if this build/CPU cannot run it.
pub(crate) fn kernels_for(kernel: Kernel) -> Option<&'static Kernels> {
    dispatch::for_kernel(kernel)
}

/// The best kernel table for this build and CPU (see `simd::dispatch`).
#[inline(always)]
pub(crate) fn best() -> &'static Kernels {
    CHOSEN.get()
}

/// The JSON kernel table in use (see `simd::dispatch`).
static CHOSEN: Dispatch<Kernels> = Dispatch::new();

/// The baseline 16-byte block of this architecture (no detection needed).
#[cfg(all(target_arch = "x86_64", not(miri)))]
type Base16 = crate::simd::vector::x86::Sse2;
#[cfg(all(target_arch = "aarch64", not(miri)))]
type Base16 = crate::simd::vector::neon::Neon;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(miri)))]
type Base16 = crate::simd::vector::simd128::Simd128;

/// The block [`unescape_bytes`] uses for inputs under 64 bytes, inline and
/// without dispatch: the baseline 16-byte vector where there is one, SWAR
/// elsewhere and under Miri.
#[cfg(all(vector_target, not(miri)))]
pub(crate) type UnescapeBlock = Base16;
#[cfg(not(all(vector_target, not(miri))))]
pub(crate) type UnescapeBlock = crate::simd::vector::swar::Swar;

/// Spare room [`unescape_bytes`] needs after the output start, beyond the
/// input length (the widest block).
pub(crate) const UNESCAPE_SLACK: usize = 64;

/// Unescapes JSON string text `src` to bytes at `out` (bytes >= 0x80
/// verbatim, no UTF-8 check); returns the decoded length or the offset of
/// the first byte that is not allowed. See `bytes.rs`. Inputs under 64
/// bytes run the baseline block inline; longer ones the best kernel's
/// (AVX-512 re-reads fewer blocks between escapes).
///
/// # Safety
/// `out` must be valid for `src.len() + UNESCAPE_SLACK` byte writes and
/// must not overlap `src`.
#[inline(never)]
pub(crate) unsafe fn unescape_bytes(src: &[u8], out: *mut u8) -> Result<usize, usize> {
    const { assert!(<UnescapeBlock as Vector>::W <= UNESCAPE_SLACK) };
    if src.len() < 64 {
        // SAFETY: the caller's room covers n + W; the baseline block (or
        // SWAR) needs no CPU detection.
        return unsafe { bytes::unescape::<UnescapeBlock, false>(src.as_ptr(), src.len(), out) };
    }
    // SAFETY: best() only returns kernels this CPU supports; every block
    // is at most UNESCAPE_SLACK wide.
    unsafe { (best().unescape_bytes)(src.as_ptr(), src.len(), out) }
}

/// In-place form of [`unescape_bytes`]: decodes `buf` into its own start.
#[inline(never)]
pub(crate) fn unescape_bytes_in_place(buf: &mut [u8]) -> Result<usize, usize> {
    let p = buf.as_mut_ptr();
    if buf.len() < 64 {
        // SAFETY: reads and writes stay within buf; baseline instructions.
        return unsafe { bytes::unescape::<UnescapeBlock, true>(p, buf.len(), p) };
    }
    // SAFETY: as above, with a kernel this CPU supports.
    unsafe { (best().unescape_bytes_in_place)(p, buf.len(), p) }
}

/// Escapes (with `QUOTES`, quotes) an input that [`json::quote`]'s inline
/// paths did not take (longer than 32 bytes, or needing an escape):
///
/// - builds that guarantee AVX-512: that kernel, called by name (its masked
///   blocks cover up to 64 bytes in one step);
/// - builds that guarantee AVX2: up to 128 bytes, overlapping 32-byte
///   blocks (`medium::medium_base_call`, one direct call), longer inputs
///   the AVX2 kernel by name; NEON and wasm32 `simd128` the same with
///   16-byte blocks up to 64 bytes;
/// - portable builds: one load of the cached table, then a tail call:
///   the level's medium path up to its bound (`Kernels::medium_max`: 64
///   bytes with 16-byte blocks, 128 with AVX2's, none on AVX-512), else
///   the level's kernel. No frame of its own, so the callee's is the only
///   one.
///
/// [`json::quote`]: crate::json::quote
#[inline(always)]
pub(crate) fn escape_medium<const QUOTES: bool>(dst: &mut Vec<u8>, b: &[u8]) {
    #[cfg(all(vector_target, not(miri)))]
    {
        if dispatch::BUILD_KERNEL.is_none() {
            let Some(k) = CHOSEN.chosen() else {
                return medium::escape_medium_detect::<QUOTES>(dst, b);
            };
            if b.len() <= k.medium_max {
                // SAFETY: best() only returns kernels this CPU supports;
                // the length is within the level's medium bound.
                return unsafe {
                    if QUOTES {
                        (k.quote_medium)(dst, b)
                    } else {
                        (k.escape_medium)(dst, b)
                    }
                };
            }
            // SAFETY: best() only returns kernels this CPU supports.
            return unsafe {
                if QUOTES {
                    (k.quote)(dst, b)
                } else {
                    (k.escape)(dst, b)
                }
            };
        }
        // Clean 33..=64 bytes where the build guarantees AVX2 (not
        // AVX-512): two blocks at the call site, no call. Measured on the
        // medium-text set: 33-64-byte strings 4.15 -> 2.4 ns, the whole
        // set 3.7 -> 3.45 ns (bench/RESULTS.md, 2026-11-29 12:30). The
        // same inline in portable builds (four 16-byte blocks) measured
        // slower on the whole set, so they keep the table's call.
        #[cfg(all(
            target_arch = "x86_64",
            target_feature = "avx2",
            not(target_feature = "avx512bw")
        ))]
        if b.len() > 32 && medium::pair32::<QUOTES>(dst, b) {
            return;
        }
        if dispatch::BUILD_KERNEL != Some(Kernel::Avx512) && b.len() <= medium::BUILD_MEDIUM {
            // Out of line: `json::quote` inlines this dispatch into its
            // callers, and the four-block path is too big to copy there.
            return medium::medium_base_call::<QUOTES>(dst, b);
        }
    }
    // SAFETY: the build guarantees the named level, or best() only returns
    // kernels this CPU supports.
    unsafe {
        if QUOTES {
            dispatch::by_build_kernel!(
                avx512 => x86::avx512::quote(dst, b),
                avx2 => x86::avx2::quote(dst, b),
                neon => neon::neon::quote(dst, b),
                simd128 => simd128::simd128::quote(dst, b),
                runtime => (best().quote)(dst, b),
            )
        } else {
            dispatch::by_build_kernel!(
                avx512 => x86::avx512::escape(dst, b),
                avx2 => x86::avx2::escape(dst, b),
                neon => neon::neon::escape(dst, b),
                simd128 => simd128::simd128::escape(dst, b),
                runtime => (best().escape)(dst, b),
            )
        }
    }
}

/// Whether either of two 8-byte words holds a `"`, `\` or control byte
/// (one SSE2 compare on x86_64, SWAR elsewhere).
#[inline(always)]
pub(crate) fn special_pair(lo: u64, hi: u64) -> bool {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        use std::arch::x86_64::_mm_set_epi64x;
        // SAFETY: SSE2 is baseline on x86_64.
        unsafe {
            crate::simd::vector::x86::Sse2(_mm_set_epi64x(hi as i64, lo as i64)).special_mask() != 0
        }
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    {
        swar_special(lo) | swar_special(hi) != 0
    }
}

/// Builds without the medium path (no vector block, or Miri): no pair
/// fast path, and the kernel tables' medium entries (which no dispatch
/// calls there) run the general loop.
#[cfg(not(all(vector_target, not(miri))))]
mod no_medium {
    use super::{escape_core, escape_from, Block};

    #[inline(always)]
    pub(crate) fn pair_clean<const QUOTES: bool>(_dst: &mut Vec<u8>, _b: &[u8]) -> bool {
        false
    }

    /// # Safety
    /// The CPU supports `V`.
    #[inline(always)]
    pub(crate) unsafe fn medium_entry<V: Block, const QUOTES: bool>(
        dst: &mut Vec<u8>,
        src: &[u8],
        _again: unsafe fn(&mut Vec<u8>, &[u8]),
        _rest: unsafe fn(&mut Vec<u8>, &[u8], u128),
        _all: unsafe fn(&mut Vec<u8>, &[u8]),
    ) {
        // SAFETY: CPU support per the contract; cannot fail.
        let _ = unsafe { escape_core::<V, false, QUOTES>(dst, src, false) };
    }

    /// # Safety
    /// The CPU supports `V`; `dst` ends with the opening quote and the
    /// bytes of `src` before the lowest bit of `m`.
    #[inline(always)]
    pub(crate) unsafe fn medium_known<V: Block, const QUOTES: bool>(
        dst: &mut Vec<u8>,
        src: &[u8],
        m: u128,
        _wide: unsafe fn(&mut Vec<u8>, &[u8], u128),
    ) {
        // SAFETY: per the contract.
        unsafe { medium_known_wide::<V, QUOTES>(dst, src, m) }
    }

    /// # Safety
    /// As [`medium_known`].
    #[inline(always)]
    pub(crate) unsafe fn medium_known_wide<V: Block, const QUOTES: bool>(
        dst: &mut Vec<u8>,
        src: &[u8],
        m: u128,
    ) {
        // SAFETY: per the contract; cannot fail.
        let _ = unsafe {
            escape_from::<V, false, QUOTES>(dst, src, m.trailing_zeros() as usize, false)
        };
    }

    /// # Safety
    /// The CPU supports `V`.
    #[inline(always)]
    pub(crate) unsafe fn medium_all<V: Block, const QUOTES: bool>(dst: &mut Vec<u8>, src: &[u8]) {
        // SAFETY: per the contract; cannot fail.
        let _ = unsafe { escape_core::<V, false, QUOTES>(dst, src, false) };
    }
}
#[cfg(not(all(vector_target, not(miri))))]
pub(crate) use no_medium::{medium_all, medium_entry, medium_known, medium_known_wide, pair_clean};

/// The closing quote of a short ASCII string without escapes at the start
/// of `body`: its index when a `"` lies in the first 32 bytes with only
/// bytes 0x20..=0x7F but `\\` before it, else `None` (a block would pass
/// the end, an escape, a control or non-ASCII byte first, or no quote
/// there; [`scan_start`] answers those). Object keys are short ASCII
/// words: this is the whole scan for most of them, small enough to inline
/// where keys are read.
#[cfg(feature = "serde")] // the serde (de)serializer is its only user
#[inline(always)]
pub(crate) fn scan_short_ascii(body: &[u8]) -> Option<usize> {
    #[cfg(all(vector_target, not(miri)))]
    if !ptr::eq(best(), &scalar::SCALAR) {
        // A build that guarantees AVX2 reads the 32 bytes in one block:
        // one branch instead of one per 16-byte block, the hottest
        // instructions of a native build's object loop.
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        if body.len() >= 32 {
            use crate::simd::vector::x86::Avx2;
            // SAFETY: 32 bytes are in bounds; the build guarantees AVX2.
            let (q, bad) = unsafe { short_masks(Avx2::load(body.as_ptr())) };
            // No quote in 32 bytes, or another stop at or before it.
            if q == 0 || bad & (q ^ (q - 1)) != 0 {
                return None;
            }
            return Some(first::<Avx2>(q));
        }
        // Two blocks: keys of up to 31 bytes.
        let mut at = 0;
        while at + 16 <= body.len() && at < 32 {
            // SAFETY: 16 bytes are in bounds; baseline instructions only.
            let (q, bad) = unsafe { short_masks(Base16::load(body.as_ptr().add(at))) };
            if q != 0 {
                // Any other stop at or before the quote: not ours.
                if bad & (q ^ (q - 1)) != 0 {
                    return None;
                }
                return Some(at + first::<Base16>(q));
            }
            if bad != 0 {
                return None;
            }
            at += 16;
        }
    }
    let _ = body;
    None
}

/// The masks of [`scan_short_ascii`]: the quotes, and the bytes that end
/// a short ASCII string otherwise (`\\`, below 0x20, 0x80 and above; one
/// wrapping subtract and one unsigned compare find the last two, in place
/// of the special-byte compare and the high-bit mask).
///
/// # Safety
/// The CPU supports `V`.
#[cfg(all(feature = "serde", vector_target, not(miri)))]
#[inline(always)]
unsafe fn short_masks<V: Block>(v: V) -> (u64, u64) {
    // SAFETY: the CPU supports `V` (the caller's contract).
    let splat = |b: u8| unsafe { V::splat(b) };
    let q = V::bits(v.eq(splat(b'"')));
    let outside = V::unset_bits(v.sub(splat(0x20)).le(splat(0x5F)));
    (q, outside | V::bits(v.eq(splat(b'\\'))))
}

/// [`scan_start`] with its first block `V` in hand: the answer when the
/// block has a special byte, else the kernel's scan of the rest.
///
/// # Safety
/// The CPU supports `V`; `body.len() >= V::W`; `k` is supported.
#[cfg(all(vector_target, not(miri)))]
#[inline(always)]
unsafe fn scan_after_block<V: Block>(k: &'static Kernels, body: &[u8]) -> (usize, bool) {
    // SAFETY: `V::W` bytes are in bounds and `V` is supported (the
    // caller's contract).
    let (m, h) = unsafe {
        let v = V::load(body.as_ptr());
        (v.special_mask(), v.high_mask())
    };
    if m != 0 {
        return (first::<V>(m), before_first(h, m) != 0);
    }
    // SAFETY: `k` comes from best()/kernels_for (CPU supported).
    let (i, hi) = unsafe { (k.scan)(&body[V::W..]) };
    (i + V::W, hi || h != 0)
}

/// [`scan_core`] for the start of an `unquote` body: most literals end
/// within 16 bytes, so look there first with the baseline block (or byte by
/// byte below 16 bytes) and only dispatch when they do not.
#[inline(always)]
pub(crate) fn scan_start(k: &'static Kernels, body: &[u8]) -> (usize, bool) {
    if ptr::eq(k, &scalar::SCALAR) {
        // Keep the reference free of vector code.
        // SAFETY: the scalar kernel runs everywhere.
        return unsafe { (k.scan)(body) };
    }
    // A build that guarantees AVX2 looks at 32 bytes first.
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2", not(miri)))]
    if body.len() >= 32 {
        // SAFETY: 32 bytes are in bounds; the build guarantees AVX2.
        return unsafe { scan_after_block::<crate::simd::vector::x86::Avx2>(k, body) };
    }
    #[cfg(all(vector_target, not(miri)))]
    if body.len() >= 16 {
        // SAFETY: 16 bytes are in bounds; baseline instructions only.
        return unsafe { scan_after_block::<Base16>(k, body) };
    }
    if body.len() < 16 {
        // One or two SWAR words (the second assembled from the remaining
        // bytes in a register), never reading past the end.
        let p = body.as_ptr();
        let n = body.len();
        let (mut at, mut hi) = (0, 0u64);
        if n >= 8 {
            // SAFETY: 8 bytes in bounds.
            let w = unsafe { crate::simd::vector::swar::Swar::load(p) };
            // SAFETY: SWAR is portable.
            let (m, h) = unsafe { (w.special_mask(), w.high_mask()) };
            if m != 0 {
                return (
                    first::<crate::simd::vector::swar::Swar>(m),
                    before_first(h, m) != 0,
                );
            }
            hi = h;
            at = 8;
        }
        if at < n {
            // SAFETY: n - at < 8 bytes in bounds; spaces pad the rest.
            let w =
                unsafe { crate::simd::vector::swar::Swar::load_partial(p.add(at), n - at, b' ') };
            // SAFETY: SWAR is portable.
            let (m, h) = unsafe { (w.special_mask(), w.high_mask()) };
            if m != 0 {
                let hi = hi | before_first(h, m);
                return (at + first::<crate::simd::vector::swar::Swar>(m), hi != 0);
            }
            hi |= h;
        }
        return (n, hi != 0);
    }
    // SAFETY: `k` comes from best()/kernels_for (CPU supported).
    unsafe { (k.scan)(body) }
}
