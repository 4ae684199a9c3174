//! Skipping JSON whitespace (space, `\n`, `\r`, `\t`) for the parser.
//!
//! Runs of whitespace in real JSON are short (none in compact text; a
//! newline and some indentation in pretty text), so the kernels use the
//! baseline 16-byte vector (SSE2 on x86_64, NEON on aarch64, `simd128` on
//! wasm32 builds that enable it, SWAR elsewhere and under Miri) inline,
//! with no dispatch. The parser keeps a [`SpaceCache`]: one 64-byte mask
//! answers every run inside its block.
//! Filling that mask is the one step that uses a wider level: on x86_64
//! with AVX2 (known at build time, or detected once per cache) it is one
//! `vpshufb` look-up and one compare per 32 bytes instead of four
//! compares and three ORs per 16 (3.4 % fewer instructions for a typed
//! parse of twitter.json under callgrind, portable build, 2026-11-27).
//! Near the end of the input, fewer than 64 bytes left, the block loop:
//!
//! ```text
//! while 16 bytes remain:
//!     v = load 16; m = lanes that are not whitespace
//!     m != 0: return i + first lane of m
//!     i += 16
//! tail: one overlapping load of the last 16 bytes (inputs >= 16),
//!       else byte by byte: nothing past the input is read
//! ```

use crate::simd::vector::Vector;

#[cfg(all(target_arch = "x86_64", not(miri)))]
type Base = crate::simd::vector::x86::Sse2;
#[cfg(all(target_arch = "aarch64", not(miri)))]
type Base = crate::simd::vector::neon::Neon;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(miri)))]
type Base = crate::simd::vector::simd128::Simd128;
#[cfg(not(all(vector_target, not(miri))))]
type Base = crate::simd::vector::swar::Swar;

#[inline(always)]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t')
}

/// The index of the first byte at or after `i` that is not JSON
/// whitespace, or `input.len()`: the stateless form, the reference the
/// cached one is tested against.
#[cfg(test)]
pub(crate) fn skip_whitespace(input: &[u8], mut i: usize) -> usize {
    // Most runs are one or two bytes (`": "`, `", "`, `"\n"`).
    for _ in 0..2 {
        match input.get(i) {
            Some(&b) if is_space(b) => i += 1,
            _ => return i,
        }
    }
    skip_block::<Base>(input, i)
}

/// [`skip_whitespace`] for a parser that skips many short runs in one
/// input: it keeps one mask of which bytes of a block are not whitespace,
/// so the next run inside that block costs a shift and a count of
/// trailing zeros instead of new loads, and a run's length never decides
/// a branch.
///
/// ```text
/// skip(i): i inside the cached block: m = mask >> (i - start)
///              m != 0: return i + first set bit of m
///              else: the run reaches the block's end; refill there
///          refill(j): 64 bytes from j (64 / STRIDE: one NEON vector, one
///              SWAR word) into a new mask, repeat while all whitespace;
///              fewer left: the byte loop of skip_whitespace (never
///              reading past the input)
/// ```
///
/// The refill is [`x86_space::bits_avx2`] where AVX2 is available (see
/// the module docs).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SpaceCache {
    /// Index of the cached block's first byte. None cached: a start past
    /// every slice (lengths stay below `isize::MAX`), so that no index
    /// falls in the block.
    start: usize,
    /// `STRIDE` bits per byte of the block, set where it is not whitespace.
    bits: u64,
    /// Refill with AVX2 (x86_64 only; a portable build asks the CPU once).
    #[cfg_attr(not(all(target_arch = "x86_64", not(miri))), allow(dead_code))]
    avx2: bool,
}

/// Bytes one mask covers.
const BLOCK: usize = 64 / Base::STRIDE as usize;

impl SpaceCache {
    /// No block cached yet; the refill kernel is the best this CPU runs.
    pub(crate) fn new() -> SpaceCache {
        SpaceCache::with_avx2(true)
    }

    /// No block cached yet, refilling with AVX2 if `avx2` and the build or
    /// CPU has it (tests pass `false` to run the baseline refill too).
    pub(crate) fn with_avx2(avx2: bool) -> SpaceCache {
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        let avx2 = avx2 && (cfg!(target_feature = "avx2") || crate::Kernel::Avx2.is_available());
        #[cfg(not(all(target_arch = "x86_64", not(miri))))]
        let avx2 = {
            let _ = avx2;
            false
        };
        SpaceCache {
            start: 1 << (usize::BITS - 1),
            bits: 0,
            avx2,
        }
    }

    /// The index of the first byte at or after `i` that is not JSON
    /// whitespace, or `input.len()` (as [`skip_whitespace`]). `input` must
    /// be the same slice on every call.
    #[inline(always)]
    pub(crate) fn skip(&mut self, input: &[u8], i: usize) -> usize {
        let offset = i.wrapping_sub(self.start);
        if offset < BLOCK {
            let m = self.bits >> (offset as u32 * Base::STRIDE);
            if m != 0 {
                return i + crate::simd::vector::first_lane::<Base>(m);
            }
            return self.refill(input, self.start + BLOCK);
        }
        self.refill(input, i)
    }

    /// Caches the block at `i` and answers from it, moving on while a
    /// block is all whitespace.
    #[inline(always)]
    fn refill(&mut self, input: &[u8], i: usize) -> usize {
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        // A build that guarantees AVX2 never takes the baseline refill.
        if cfg!(target_feature = "avx2") || self.avx2 {
            // SAFETY: the build guarantees AVX2, or `avx2` was only set
            // after the CPU reported it.
            return unsafe { self.refill_avx2(input, i) };
        }
        self.refill_base(input, i)
    }

    #[inline(never)]
    fn refill_base(&mut self, input: &[u8], i: usize) -> usize {
        self.refill_with(input, i, block_bits::<Base>)
    }

    /// # Safety
    /// The CPU supports AVX2.
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    unsafe fn refill_avx2(&mut self, input: &[u8], i: usize) -> usize {
        // SAFETY: AVX2 per the caller; inlined into this AVX2 function.
        self.refill_with(input, i, |input, i| unsafe {
            x86_space::bits_avx2(input, i)
        })
    }

    #[inline(always)]
    fn refill_with(
        &mut self,
        input: &[u8],
        mut i: usize,
        block: impl Fn(&[u8], usize) -> u64,
    ) -> usize {
        while i + BLOCK <= input.len() {
            let bits = block(input, i);
            self.start = i;
            self.bits = bits;
            if bits != 0 {
                return i + crate::simd::vector::first_lane::<Base>(bits);
            }
            i += BLOCK;
        }
        skip_block::<Base>(input, i)
    }
}

/// The AVX2 block of [`SpaceCache`].
#[cfg(all(target_arch = "x86_64", not(miri)))]
mod x86_space {
    use core::arch::x86_64::*;

    /// JSON whitespace by low nibble: `b` is whitespace exactly when
    /// `TABLE[b & 15] == b` (a byte >= 0x80 looks up 0 and never matches;
    /// every other entry is 0, which only a 0 byte could match, and its
    /// entry is `' '`).
    const TABLE: [u8; 16] = {
        let mut t = [0u8; 16];
        t[0] = b' ';
        t[9] = b'\t';
        t[10] = b'\n';
        t[13] = b'\r';
        t
    };

    /// One bit per byte of `input[i..i + 64]`, set where the byte is not
    /// JSON whitespace.
    ///
    /// # Safety
    /// The CPU supports AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn bits_avx2(input: &[u8], i: usize) -> u64 {
        assert!(i + 64 <= input.len());
        // SAFETY: 64 readable bytes at i (asserted); AVX2 per the caller;
        // TABLE is 16 readable bytes.
        unsafe {
            let p = input.as_ptr().add(i);
            let t = _mm256_broadcastsi128_si256(_mm_loadu_si128(TABLE.as_ptr().cast()));
            let space = |v: __m256i| {
                _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(t, v), v)) as u32
            };
            let lo = space(_mm256_loadu_si256(p.cast()));
            let hi = space(_mm256_loadu_si256(p.add(32).cast()));
            !(lo as u64 | (hi as u64) << 32)
        }
    }
}

/// `STRIDE` bits per byte of `input[i..i + 64 / STRIDE]`, set where the
/// byte is not whitespace.
#[inline(always)]
fn block_bits<V: Vector>(input: &[u8], i: usize) -> u64 {
    let block = 64 / V::STRIDE as usize;
    assert!(i + block <= input.len());
    let p = input.as_ptr();
    // SAFETY: `V` is the baseline vector of this target (always supported)
    // or SWAR (portable).
    let (sp, nl, cr, tab) = unsafe {
        (
            V::splat(b' '),
            V::splat(b'\n'),
            V::splat(b'\r'),
            V::splat(b'\t'),
        )
    };
    let mut bits = 0u64;
    let mut k = 0;
    while k < block {
        // SAFETY: i + k + W <= i + block <= input.len() bytes are readable.
        let v = unsafe { V::load(p.add(i + k)) };
        let m = V::mask_or(
            V::mask_or(v.eq(sp), v.eq(nl)),
            V::mask_or(v.eq(cr), v.eq(tab)),
        );
        // One vector is 64 bits when STRIDE > 1: the shift is then 0.
        bits |= V::unset_bits(m) << (k as u32 * V::STRIDE);
        k += V::W;
    }
    bits
}

/// The block loop of [`skip_whitespace`] with vector `V`.
#[inline]
pub(crate) fn skip_block<V: Vector>(input: &[u8], mut i: usize) -> usize {
    let n = input.len();
    let p = input.as_ptr();
    // SAFETY: `V` is the baseline vector of this target (always supported)
    // or SWAR (portable).
    let (sp, nl, cr, tab) = unsafe {
        (
            V::splat(b' '),
            V::splat(b'\n'),
            V::splat(b'\r'),
            V::splat(b'\t'),
        )
    };
    let not_space = |v: V| -> u64 {
        let m = V::mask_or(
            V::mask_or(v.eq(sp), v.eq(nl)),
            V::mask_or(v.eq(cr), v.eq(tab)),
        );
        V::unset_bits(m)
    };
    while i + V::W <= n {
        // SAFETY: i + W <= n bytes are readable at p.
        let m = not_space(unsafe { V::load(p.add(i)) });
        if m != 0 {
            return i + crate::simd::vector::first_lane::<V>(m);
        }
        i += V::W;
    }
    if i >= n {
        return n;
    }
    if n >= V::W {
        // The last W bytes, overlapping what was already checked.
        // SAFETY: n - W >= 0 and n bytes are readable at p.
        let m = not_space(unsafe { V::load(p.add(n - V::W)) });
        let skip = (V::W - (n - i)) as u32 * V::STRIDE;
        let m = m >> skip;
        return if m != 0 {
            i + crate::simd::vector::first_lane::<V>(m)
        } else {
            n
        };
    }
    while i < n && is_space(input[i]) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh cache per refill kernel this host runs.
    fn caches() -> Vec<SpaceCache> {
        let mut v = vec![SpaceCache::with_avx2(false)];
        if SpaceCache::new().avx2 {
            v.push(SpaceCache::with_avx2(true));
        }
        v
    }

    /// Every byte value at every position of a block, for each refill
    /// kernel: the whitespace classification is exact.
    #[test]
    fn every_byte_at_every_block_position() {
        for b in 0..=255u8 {
            for pos in 0..64 {
                let mut v = vec![b' '; 64];
                v[pos] = b;
                v.extend_from_slice(b"x");
                for mut cache in caches() {
                    assert_eq!(
                        cache.skip(&v, 0),
                        reference(&v, 0),
                        "byte {b:#x} at {pos} ({cache:?})"
                    );
                }
            }
        }
    }

    fn reference(input: &[u8], mut i: usize) -> usize {
        while i < input.len() && is_space(input[i]) {
            i += 1;
        }
        i
    }

    /// The cache against the reference over runs that start, end and
    /// span anywhere in and across blocks, in the order a parser asks.
    #[test]
    fn cache_agrees_with_reference_on_every_walk() {
        for len in [0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 200] {
            for pattern in 0..6u64 {
                // Runs of whitespace of varying lengths between tokens.
                let v: Vec<u8> = (0..len as u64)
                    .map(|k| {
                        let x = k.wrapping_mul(0x9E37_79B9) ^ pattern;
                        match (x >> 3) % (pattern + 2) {
                            0 => b'x',
                            _ => b" \n\r\t"[(x % 4) as usize],
                        }
                    })
                    .collect();
                for mut cache in caches() {
                    let mut i = 0;
                    while i <= len {
                        let want = reference(&v, i);
                        assert_eq!(cache.skip(&v, i), want, "{v:?} at {i} ({cache:?})");
                        i = want + 1;
                    }
                    // Asked out of order (a new value, a rewind) it still
                    // agrees.
                    for i in (0..=len).rev() {
                        assert_eq!(cache.skip(&v, i), reference(&v, i), "{v:?} back at {i}");
                    }
                }
            }
        }
    }

    #[test]
    fn agrees_with_reference_at_every_length_start_and_stop() {
        for len in 0..80 {
            for start in 0..=len {
                for stop in start..=len {
                    for stop_byte in [b'x', 0u8, 0x0B, 0x0C, b'"', 0xFF] {
                        let mut v: Vec<u8> = (0..len).map(|k| b" \n\r\t"[k % 4]).collect();
                        if stop < len {
                            v[stop] = stop_byte;
                        }
                        let want = reference(&v, start);
                        assert_eq!(skip_whitespace(&v, start), want, "{v:?} from {start}");
                        assert_eq!(
                            skip_block::<crate::simd::vector::swar::Swar>(&v, start),
                            want
                        );
                    }
                }
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn never_reads_past_the_end() {
        let mut g = crate::simd::guard::Guarded::new();
        for len in 0..100 {
            for stop in 0..=len {
                let mut v: Vec<u8> = vec![b' '; len];
                if stop < len {
                    v[stop] = b'1';
                }
                let placed = g.place(&v);
                let mut cs = caches();
                for start in 0..=len {
                    assert_eq!(skip_whitespace(placed, start), reference(&v, start));
                    for cache in &mut cs {
                        assert_eq!(cache.skip(placed, start), reference(&v, start));
                    }
                    assert_eq!(
                        skip_block::<crate::simd::vector::swar::Swar>(placed, start),
                        reference(&v, start)
                    );
                }
            }
        }
    }
}
