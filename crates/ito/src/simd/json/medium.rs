//! The medium path of `json::quote` / `json::escape`: inputs of up to four
//! blocks, copied and checked in a fixed pattern of overlapping blocks,
//! then the escape loop for few escapes from the first escape. Vector
//! builds only (x86_64, aarch64, wasm32 with `simd128`; not under Miri).
//! [`escape_medium`] decides when it runs, with which block:
//!
//! - where the build guarantees a vector level, called directly
//!   ([`medium_base_call`]): 16-byte blocks up to 64 bytes, 32-byte
//!   blocks up to 128 where the build guarantees AVX2;
//! - in a portable build, through the level's table
//!   (`Kernels::quote_medium`, `Block::MEDIUM_BLOCKS`): the same with the
//!   level's block (SSE2, AVX2, NEON, `simd128`), since the full kernel's
//!   entry costs more than the copy on such inputs.

use super::few::{escape_blocks, escape_known, escape_known_wide};
use super::{best, escape_from, escape_medium, Base16, Block};
use crate::simd::vector::Vector;

/// The same bound for this build's own block ([`MediumBlock`]): four
/// 32-byte blocks cover up to 128 bytes where the build guarantees AVX2.
pub(super) const BUILD_MEDIUM: usize = 4 * MediumBlock::W;

/// The block of the inline medium path: 32 bytes where the build
/// guarantees AVX2, else the baseline 16.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
type MediumBlock = crate::simd::vector::x86::Avx2;
#[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
type MediumBlock = Base16;

/// [`escape_medium`]'s first call in a portable build: detect, then go on.
#[cold]
#[inline(never)]
pub(super) fn escape_medium_detect<const QUOTES: bool>(dst: &mut Vec<u8>, b: &[u8]) {
    best();
    escape_medium::<QUOTES>(dst, b)
}

/// The medium path with this build's block, out of line (the dispatch
/// above is inlined into every `json::quote` caller).
#[inline(never)]
pub(super) fn medium_base_call<const QUOTES: bool>(dst: &mut Vec<u8>, b: &[u8]) {
    // SAFETY: the block needs no CPU detection beyond what the build
    // guarantees; the three functions are this block's own.
    unsafe {
        medium_block::<MediumBlock, QUOTES>(
            dst,
            b,
            MediumFns {
                again: medium_base_again::<QUOTES>,
                rest: escape_rest::<QUOTES>,
                all: escape_all::<QUOTES>,
            },
        )
    }
}

/// [`medium_base_call`] as an `unsafe fn` (what [`MediumFns::again`] holds).
///
/// # Safety
/// None beyond the build's (it is safe to call).
unsafe fn medium_base_again<const QUOTES: bool>(dst: &mut Vec<u8>, b: &[u8]) {
    medium_base_call::<QUOTES>(dst, b)
}

/// The out-of-line parts of one level's medium path, each compiled with
/// that level's target features (a generic function called from a
/// `#[target_feature]` one without being inlined would lose them). After
/// [`medium_block`] is inlined they are constants: direct tail calls.
#[derive(Clone, Copy)]
pub(crate) struct MediumFns {
    /// The whole medium path again, after making room.
    pub(crate) again: unsafe fn(&mut Vec<u8>, &[u8]),
    /// [`medium_known`]: the escapes flagged in a mask of `b`, with the
    /// output holding the opening quote and the bytes before the first.
    pub(crate) rest: unsafe fn(&mut Vec<u8>, &[u8], u128),
    /// The opening quote, then all of `b` through [`escape_tail`].
    pub(crate) all: unsafe fn(&mut Vec<u8>, &[u8]),
}

/// The medium path with block `V` ([`medium_block`]), for the kernel
/// tables (`kernels!` instantiates it per level, inside that level's
/// target features).
///
/// # Safety
/// The CPU supports `V`; `src.len() <= 4 * V::W`; the functions are `V`'s
/// ([`MediumFns`]).
#[inline(always)]
pub(crate) unsafe fn medium_entry<V: Block, const QUOTES: bool>(
    dst: &mut Vec<u8>,
    src: &[u8],
    again: unsafe fn(&mut Vec<u8>, &[u8]),
    rest: unsafe fn(&mut Vec<u8>, &[u8], u128),
    all: unsafe fn(&mut Vec<u8>, &[u8]),
) {
    // SAFETY: per the contract.
    unsafe { medium_block::<V, QUOTES>(dst, src, MediumFns { again, rest, all }) }
}

/// The escapes of a medium input from a mask of it, for the kernel tables
/// (as [`medium_entry`]): blocks of one bit per byte take the whole mask
/// ([`escape_known`] up to two blocks, [`escape_known_wide`] past them);
/// others (NEON's four bits per byte) get only the first escape's bit and
/// go on through [`escape_tail`] from there. With 32-byte blocks, inputs
/// past two blocks go to `wide` ([`medium_known_wide`] out of line):
/// inlined here, the wide loop's registers gave every 33–64-byte call a
/// frame (5 % slower on such strings with escapes). With 16-byte blocks
/// every input here is past two blocks, so the wide loop stays inline.
///
/// # Safety
/// The CPU supports `V`; `32 < src.len() <= 4 * V::W`; `m` non-zero, the
/// special mask of `src` when `V::STRIDE == 1`, else only the first
/// escape's bit; `dst` ends with the opening quote (with `QUOTES`) and
/// the bytes before the first escape; `wide` is [`medium_known_wide`]
/// with `V` (or anything meeting its contract).
#[inline(always)]
pub(crate) unsafe fn medium_known<V: Block, const QUOTES: bool>(
    dst: &mut Vec<u8>,
    src: &[u8],
    m: u128,
    wide: unsafe fn(&mut Vec<u8>, &[u8], u128),
) {
    // SAFETY: per the contract (src.len() > 32 >= TAIL_READ).
    unsafe {
        if V::STRIDE == 1 && src.len() <= 2 * V::W {
            escape_known::<V, QUOTES>(dst, src, m as u64)
        } else if V::STRIDE == 1 && V::W > 16 {
            wide(dst, src, m)
        } else if V::STRIDE == 1 {
            medium_known_wide::<V, QUOTES>(dst, src, m)
        } else {
            escape_tail::<V, true, QUOTES>(dst, src, m.trailing_zeros() as usize)
        }
    }
}

/// [`medium_known`] for inputs of more than two blocks of one bit per
/// byte ([`escape_known_wide`]), for the kernel tables to put out of line.
///
/// # Safety
/// As [`medium_known`]; `V::STRIDE == 1`, `src.len() > 2 * V::W`.
#[inline(always)]
pub(crate) unsafe fn medium_known_wide<V: Block, const QUOTES: bool>(
    dst: &mut Vec<u8>,
    src: &[u8],
    m: u128,
) {
    // SAFETY: per the contract: the whole mask of src, as two words.
    unsafe { escape_known_wide::<V, QUOTES>(dst, src, m as u64, (m >> 64) as u64) }
}

/// Escapes (with `QUOTES`, quotes) an input of at most `4 * V::W` bytes
/// (and 16 <= `V::W` <= 32). Inputs of up to 32 bytes get here only when
/// they need escaping (`json::quote`'s inline paths took the clean ones),
/// so they go straight to the escape loop; longer ones are copied and
/// checked in overlapping blocks ([`clean_blocks`]), then the escape loop
/// from the first escape. No partial load: the clean path needs few
/// registers and no frame.
///
/// # Safety
/// The CPU supports `V`; `fns` are `V`'s (see [`MediumFns`]).
#[inline(always)]
pub(crate) unsafe fn medium_block<V: Block, const QUOTES: bool>(
    dst: &mut Vec<u8>,
    b: &[u8],
    fns: MediumFns,
) {
    let (n, q) = (b.len(), QUOTES as usize);
    debug_assert!(n <= 4 * V::W && (16..=32).contains(&V::W));
    if n <= 32 {
        // SAFETY: per the contract.
        return unsafe { (fns.all)(dst, b) };
    }
    if dst.capacity() - dst.len() < n + 2 * q {
        // Grow out of line and come back: no value lives across a call on
        // the usual path, so it saves no registers.
        return grow_then(dst, b, n + 2 * q, fns.again);
    }
    // SAFETY: 32 < n <= 4W; the room checked covers every store (each
    // block ends within n bytes after the quote); the CPU supports V; only
    // written bytes are committed.
    unsafe {
        let o = dst.as_mut_ptr().add(dst.len());
        if QUOTES {
            *o = b'"';
        }
        match clean_blocks::<V>(b.as_ptr(), n, o.add(q)) {
            None => {
                if QUOTES {
                    *o.add(q + n) = b'"';
                }
                dst.set_len(dst.len() + n + 2 * q);
            }
            Some(m) => {
                dst.set_len(dst.len() + q + m.trailing_zeros() as usize);
                (fns.rest)(dst, b, m);
            }
        }
    }
}

/// Copies `n` bytes (33..=`4 * V::W`) from `src` to `o` and returns,
/// if any byte needs an escape, a mask of them for [`medium_known`]: the
/// whole positional mask with one bit per byte (`V::STRIDE == 1`), else
/// the first escape's bit alone. Two overlapping blocks up to `2 * V::W`
/// bytes, else four (branch-free on x86).
///
/// # Safety
/// `src..src + n` readable, `o..o + n` writable, `32 < n <= 4 * V::W`,
/// `16 <= V::W <= 32`; the CPU supports `V`.
#[inline(always)]
unsafe fn clean_blocks<V: Block>(src: *const u8, n: usize, o: *mut u8) -> Option<u128> {
    let w = V::W;
    debug_assert!(n > 32 && n <= 4 * w);
    // SAFETY: w < n: the loads and stores at 0 and n - w lie within [0,
    // n); past 2w bytes so do those at w and n - 2w (n - 2w > 0), and the
    // four cover [0, n); the CPU supports V per the caller.
    unsafe {
        let (a, z) = (V::load(src), V::load(src.add(n - w)));
        a.store(o);
        z.store(o.add(n - w));
        if n <= 2 * w {
            let (ma, mz) = (a.special_mask(), z.special_mask());
            if V::STRIDE == 1 {
                // w <= 32: the shifted mask fits in 64 bits.
                let m = ma | mz << (n - w);
                return (m != 0).then_some(m as u128);
            }
            return if ma != 0 {
                Some(1 << super::first::<V>(ma))
            } else {
                (mz != 0).then(|| 1 << (n - w + super::first::<V>(mz)))
            };
        }
        let (b, y) = (V::load(src.add(w)), V::load(src.add(n - 2 * w)));
        b.store(o.add(w));
        y.store(o.add(n - 2 * w));
        let (ma, mb, my, mz) = (
            a.special_mask(),
            b.special_mask(),
            y.special_mask(),
            z.special_mask(),
        );
        if V::STRIDE == 1 {
            // The first 2w bytes, then the last 2w, as two 64-bit words (a
            // 128-bit positional mask of the four measured slower: its
            // shifts take registers and a frame), joined only when one is
            // non-zero.
            let (head, tail) = (ma | mb << w, my | mz << w);
            if head | tail == 0 {
                return None;
            }
            if 2 * w == 64 {
                // The head is bytes 0..64 whole: the tail adds only bytes
                // 64..n, its bits from 128 - n up. No 128-bit shift.
                return Some(head as u128 | ((tail >> (4 * w - n)) as u128) << 64);
            }
            // n <= 4w <= 64: the tail's shift stays within the word.
            return Some((head | tail << (n - 2 * w)) as u128);
        }
        // Masks of several bits per byte (NEON): the first flagged block.
        if ma | mb | my | mz == 0 {
            return None;
        }
        Some(
            1 << if ma != 0 {
                super::first::<V>(ma)
            } else if mb != 0 {
                w + super::first::<V>(mb)
            } else if my != 0 {
                n - 2 * w + super::first::<V>(my)
            } else {
                n - w + super::first::<V>(mz)
            },
        )
    }
}

/// Makes room for `extra` bytes, then runs `again` (out of line and cold:
/// the medium paths grow only when the output runs out).
#[cold]
#[inline(never)]
fn grow_then(dst: &mut Vec<u8>, b: &[u8], extra: usize, again: unsafe fn(&mut Vec<u8>, &[u8])) {
    dst.reserve(extra);
    // SAFETY: `again` is the medium path that called this one, whose
    // requirements its caller met.
    unsafe { again(dst, b) }
}

/// The opening quote, then all of `b` through the escape loop (out of
/// line: the inputs that need it are the minority).
#[inline(never)]
unsafe fn escape_all<const QUOTES: bool>(dst: &mut Vec<u8>, b: &[u8]) {
    // SAFETY: the build's block needs no detection.
    unsafe { medium_all::<MediumBlock, QUOTES>(dst, b) }
}

/// The opening quote, then all of `b` (at most 32 bytes, which
/// `json::quote`'s inline paths send here only with an escape) through
/// the escape loop: 16..=32 bytes through [`escape_pair16`] where the
/// baseline block has one bit per byte, the rest through [`escape_tail`].
/// For the kernel tables too (as [`medium_entry`]).
///
/// # Safety
/// The CPU supports `V`; `b.len() <= 32`.
#[inline(always)]
pub(crate) unsafe fn medium_all<V: Block, const QUOTES: bool>(dst: &mut Vec<u8>, b: &[u8]) {
    if Base16::STRIDE == 1 && (16..=32).contains(&b.len()) {
        // SAFETY: the baseline block, one bit per byte, 16..=32 bytes.
        return unsafe { escape_pair16::<QUOTES>(dst, b) };
    }
    if QUOTES {
        dst.push(b'"');
    }
    // SAFETY: per the contract; dst ends with the opening quote.
    unsafe { escape_tail::<V, false, QUOTES>(dst, b, 0) };
}

/// Escapes (with `QUOTES`, quotes) an input of 16..=32 bytes: its whole
/// special mask from two overlapping baseline blocks, copied to the output
/// on the way, then [`escape_known`] from the first escape, so no block is
/// checked twice (the escape loop re-checks a block after each escape).
///
/// # Safety
/// `Base16::STRIDE == 1`; `16 <= b.len() <= 32`.
#[inline(always)]
unsafe fn escape_pair16<const QUOTES: bool>(dst: &mut Vec<u8>, b: &[u8]) {
    let (n, q) = (b.len(), QUOTES as usize);
    debug_assert!(Base16::STRIDE == 1 && (16..=32).contains(&n));
    // The quote and the bytes before the first escape j, then what
    // `escape_known` reserves after them (6 (n - j) + q + W + 8): at most
    // 6n + 2q + W + 8 in all, so its own reservation finds the room.
    dst.reserve(6 * n + 2 * q + Base16::W + 8);
    // SAFETY: 16 <= n, so both loads lie in b; both stores end within q +
    // n bytes of the reserved room; the baseline block needs no
    // detection; only written bytes are committed, and dst then ends with
    // the quote and b[..j], as `escape_known` requires (16 <= n <= 32,
    // the whole mask, one bit per byte).
    unsafe {
        let o = dst.as_mut_ptr().add(dst.len());
        if QUOTES {
            *o = b'"';
        }
        let (a, z) = (
            Base16::load(b.as_ptr()),
            Base16::load(b.as_ptr().add(n - 16)),
        );
        a.store(o.add(q));
        z.store(o.add(q + n - 16));
        let m = a.special_mask() | z.special_mask() << (n - 16);
        if m == 0 {
            if QUOTES {
                *o.add(q + n) = b'"';
            }
            return dst.set_len(dst.len() + n + 2 * q);
        }
        dst.set_len(dst.len() + q + m.trailing_zeros() as usize);
        escape_known::<Base16, QUOTES>(dst, b, m)
    }
}

/// The rest of an inline medium escape from the escapes flagged in `m`
/// (out of line: the clean path above keeps few registers).
#[inline(never)]
unsafe fn escape_rest<const QUOTES: bool>(dst: &mut Vec<u8>, b: &[u8], m: u128) {
    // SAFETY: the build's block; per [`MediumFns::rest`]; the wide path is
    // this block's.
    unsafe { medium_known::<MediumBlock, QUOTES>(dst, b, m, escape_rest_wide::<QUOTES>) }
}

/// [`escape_rest`] for inputs of more than two blocks, out of line (see
/// [`medium_known`]).
///
/// # Safety
/// As [`escape_rest`]; `b.len() > 2 * MediumBlock::W`.
#[inline(never)]
unsafe fn escape_rest_wide<const QUOTES: bool>(dst: &mut Vec<u8>, b: &[u8], m: u128) {
    // SAFETY: per the contract: the build's block, the whole mask of b.
    unsafe { medium_known_wide::<MediumBlock, QUOTES>(dst, b, m) }
}

/// Escapes `b[start..]`: inputs of at least `V::TAIL_READ` bytes (a block,
/// or 16 bytes for AVX2) through [`escape_blocks`], shorter ones of at least 16 bytes through it with the
/// baseline block, the rest through the general loop. With `SPECIAL`,
/// `b[start]` is known to need an escape.
///
/// # Safety
/// The CPU supports `V`; `dst` ends with a verbatim copy of `b[..start]`
/// (and the opening quote); with `SPECIAL`, `b[start]` needs an escape.
#[inline(always)]
pub(crate) unsafe fn escape_tail<V: Block, const SPECIAL: bool, const QUOTES: bool>(
    dst: &mut Vec<u8>,
    b: &[u8],
    start: usize,
) {
    // SAFETY: per the contract; the baseline block needs no detection.
    unsafe {
        if V::W > Base16::W && b.len() >= V::TAIL_READ {
            return escape_blocks::<V, SPECIAL, QUOTES>(dst, b, start);
        }
        if b.len() >= Base16::W {
            return escape_blocks::<Base16, SPECIAL, QUOTES>(dst, b, start);
        }
        let _ = escape_from::<Base16, false, QUOTES>(dst, b, start, false);
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

/// Inline fast path for inputs of 33..=64 bytes where the build
/// guarantees AVX2: two overlapping 32-byte blocks, stored into spare
/// capacity after the opening quote. Clean: committed whole (`true`). With
/// an escape: the opening quote and the verbatim bytes before the first
/// escape are committed and the escape loop goes on from there (`true`),
/// so the blocks are not checked a second time by the medium path.
/// `false` (nothing committed) when the input is longer or `dst` lacks
/// room.
// Its one caller's cfg: AVX-512 builds take the AVX-512 kernel instead.
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    not(target_feature = "avx512bw")
))]
#[inline(always)]
pub(crate) fn pair32<const QUOTES: bool>(dst: &mut Vec<u8>, b: &[u8]) -> bool {
    use crate::simd::vector::x86::Avx2;
    let (n, q) = (b.len(), QUOTES as usize);
    if n > 64 || dst.capacity() - dst.len() < n + 2 * q {
        return false;
    }
    // SAFETY: 32 < n <= 64 (callers pass n > 32), so both loads are in
    // bounds; the room checked holds both stores and the quotes; the build
    // guarantees AVX2; what is committed was written (the quote and the
    // bytes before the first escape).
    unsafe {
        let o = dst.as_mut_ptr().add(dst.len());
        let a = Avx2::load(b.as_ptr());
        let z = Avx2::load(b.as_ptr().add(n - 32));
        a.store(o.add(q));
        z.store(o.add(q + n - 32));
        if QUOTES {
            *o = b'"';
        }
        let m = a.special_mask() | z.special_mask() << (n - 32);
        if m != 0 {
            dst.set_len(dst.len() + q + m.trailing_zeros() as usize);
            escape_rest::<QUOTES>(dst, b, m as u128);
            return true;
        }
        if QUOTES {
            *o.add(q + n) = b'"';
        }
        dst.set_len(dst.len() + n + 2 * q);
    }
    true
}
