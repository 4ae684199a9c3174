//! The one definition of the bytes a JSON string cannot hold verbatim:
//! `"`, `\` and the controls below 0x20 (what `json` escapes, what NIP-01
//! escapes, what makes a `Str` not JSON-safe). Every module tests bytes
//! through these functions (the vector form, [`special_lanes`], over the
//! crate's one vector trait) or through a vector kernel's
//! `Block::special_mask`; the one deliberate exception is the scalar
//! reference in `simd/json/scalar.rs`, kept independent because it is the
//! oracle the kernels are tested against at every byte value and position.

use crate::simd::vector::Vector;

/// Whether `b` must be escaped inside a JSON string.
///
/// ```ignore
/// assert!(is_special(b'"') && is_special(b'\\') && is_special(0x1f));
/// assert!(!is_special(b' ') && !is_special(0x7f) && !is_special(0xc3));
/// ```
#[inline(always)]
pub(crate) const fn is_special(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// The lanes of `v` that [`is_special`], in vector form: `(v ^ 2) <= 0x20`
/// catches the controls and `"` (0x22 becomes 0x20) in one unsigned compare,
/// `== '\'` the backslash. SWAR has the cheaper [`swar_special`] instead.
// Users: the AVX-512 escaper, the inline `Str` classifier, the AVX-512
// facts kernel (SSE2/AVX2/NEON facts keep a saturating-subtract form that
// is one operation shorter).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
pub(crate) fn special_lanes<V: Vector>(v: V) -> V::Mask {
    // SAFETY: the CPU supports V, as the existence of `v` shows.
    let splat = |b: u8| unsafe { V::splat(b) };
    V::mask_or(v.xor(splat(0x02)).le(splat(0x20)), v.eq(splat(b'\\')))
}

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// The top bit of each byte of `w` (first byte in the low bits) that
/// [`is_special`], exact for the *lowest* flagged byte: a borrow can set a
/// higher byte's flag spuriously, but only above a true hit, so `w != 0`,
/// the lowest flag's position, and any test masked to a clean prefix are
/// exact.
///
/// Three borrow tests (below 0x20; `^ 0x22` is zero; `^ 0x5C` is zero),
/// `& !w` dropping bytes >= 0x80. A two-test form (controls and `"` as
/// "`^ 0x02` is at most 0x20") is one subtraction shorter but measured
/// 4–8 % slower on the medium `quote` set (`examples/medium_alternated`,
/// 2026-11-25, two runs each): the three independent subtractions overlap
/// better.
#[inline(always)]
pub(crate) const fn swar_special(w: u64) -> u64 {
    (w.wrapping_sub(0x20 * LO)
        | (w ^ (0x22 * LO)).wrapping_sub(LO)
        | (w ^ (0x5C * LO)).wrapping_sub(LO))
        & !w
        & HI
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`special_lanes`] against [`is_special`] for every byte value in
    /// every lane of every vector this CPU has (and SWAR's exact compares).
    #[test]
    fn special_lanes_is_is_special() {
        /// # Safety
        /// The CPU supports `V`.
        unsafe fn check<V: Vector>() {
            for b in 0..=255u8 {
                for lane in 0..V::W {
                    let mut bytes = [b'a'; 64];
                    bytes[lane] = b;
                    // SAFETY: 64 >= W readable bytes; CPU per the caller.
                    let m = V::bits(special_lanes(unsafe { V::load(bytes.as_ptr()) }));
                    let want = is_special(b).then_some(lane);
                    let got = (m != 0).then(|| m.trailing_zeros() / V::STRIDE);
                    assert_eq!(got.map(|g| g as usize), want, "{b:#04x} in lane {lane}");
                }
            }
        }
        // SAFETY: SWAR is portable; SSE2/NEON are baseline; the others
        // are checked first.
        unsafe {
            check::<crate::simd::vector::swar::Swar>();
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            {
                use crate::simd::vector::x86;
                check::<x86::Sse2>();
                if crate::Kernel::Avx2.is_available() {
                    check::<x86::Avx2>();
                }
                if crate::Kernel::Avx512.is_available() {
                    check::<x86::Avx512>();
                }
            }
            #[cfg(all(target_arch = "aarch64", not(miri)))]
            check::<crate::simd::vector::neon::Neon>();
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(miri)))]
            check::<crate::simd::vector::simd128::Simd128>();
        }
    }

    #[test]
    fn is_special_is_quote_backslash_and_controls() {
        let set: Vec<u8> = (0..=255u8).filter(|&b| is_special(b)).collect();
        let mut want: Vec<u8> = (0..0x20).collect();
        want.extend([b'"', b'\\']);
        want.sort();
        assert_eq!(set, want);
    }

    /// Every byte value in every lane, over backgrounds of clean bytes,
    /// of bytes >= 0x80, and of specials above it: the lowest flag is
    /// exact and a clean word flags nothing.
    #[test]
    fn swar_lowest_flag_is_exact_for_every_byte_in_every_lane() {
        for background in [b'a', 0xff, 0x80, b' ', 0x7f, 0x21, 0x23, 0x5b, 0x5d] {
            for lane in 0..8 {
                for b in 0..=255u8 {
                    let mut bytes = [background; 8];
                    bytes[lane] = b;
                    let w = u64::from_le_bytes(bytes);
                    let m = swar_special(w);
                    let want = bytes.iter().position(|&c| is_special(c));
                    let got = (m != 0).then(|| m.trailing_zeros() as usize / 8);
                    assert_eq!(got, want, "{bytes:02x?}");
                    // Bytes above the hit: specials of every kind.
                    for above in [0u8, b'"', b'\\', 0x1f] {
                        let mut more = bytes;
                        for c in more.iter_mut().skip(lane + 1) {
                            *c = above;
                        }
                        let m = swar_special(u64::from_le_bytes(more));
                        let want = more.iter().position(|&c| is_special(c));
                        let got = (m != 0).then(|| m.trailing_zeros() as usize / 8);
                        assert_eq!(got, want, "{more:02x?}");
                    }
                }
            }
        }
    }
}
