//! The one vector trait the SIMD kernels are written over, and its one
//! type per instruction set.
//!
//! A kernel is generic code over [`Vector`] (plus, where a codec needs an
//! operation only some instruction sets do well, a small extension trait of
//! its own: `json::Block`, `hex::HexVector`, `facts::FactsVector`),
//! instantiated inside a `#[target_feature]` entry point per level:
//!
//! ```text
//! x86::Sse2    16 bytes  __m128i   masks: vectors, movemask (1 bit/lane)
//! x86::Avx2    32 bytes  __m256i   masks: vectors, movemask (1 bit/lane)
//! x86::Avx512  64 bytes  __m512i   masks: k registers (u64), masked tails
//! neon::Neon   16 bytes  uint8x16  masks: vectors, `shrn #4` (4 bits/lane)
//! simd128::Simd128
//!              16 bytes  v128      masks: vectors, bitmask (1 bit/lane)
//! swar::Swar    8 bytes  u64       masks: the top bit of each byte
//! ```
//!
//! Every method is `#[inline(always)]`, so the intrinsics inline into the
//! entry point and take its target features. A value of a vector type only
//! exists on a CPU that supports its instruction set: the constructors
//! ([`Vector::load`], [`Vector::splat`], ...) are `unsafe` and require it,
//! so the lane-wise methods taking `self` are safe.
//!
//! Masks ([`Vector::Mask`]) are whatever the instruction set compares into
//! (a vector of 0x00/0xFF lanes, or an AVX-512 `k` register); [`Vector::bits`]
//! turns one into a `u64` with [`Vector::STRIDE`] bits per lane, lane 0
//! lowest, for `trailing_zeros` and friends.

#[cfg(target_arch = "aarch64")]
pub(crate) mod neon;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) mod simd128;
pub(crate) mod swar;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

// Without a vector kernel (wasm32 without simd128, Miri) only SWAR and the JSON kernels
// use the trait; the hex kernels use the rest.
#[cfg_attr(not(all(vector_target, not(miri))), allow(dead_code))]
/// A vector of `W` bytes and the operations every kernel shares; see the
/// module docs.
pub(crate) trait Vector: Copy {
    /// Bytes per vector.
    const W: usize;
    /// Bits per lane in [`Vector::bits`] and [`Vector::high_bits`].
    const STRIDE: u32;
    /// [`Vector::bits`] of a mask with every lane set.
    const ALL_BITS: u64;
    /// A per-lane boolean: a vector of 0x00/0xFF lanes (SSE2/AVX2/NEON), a
    /// bit mask (AVX-512) or the top bit of each byte (SWAR).
    type Mask: Copy;

    /// Loads `W` bytes.
    ///
    /// # Safety
    /// The CPU supports the instruction set; `p..p + W` is readable.
    unsafe fn load(p: *const u8) -> Self;

    /// Loads `1 <= n <= W` bytes (SWAR: `n < W`); the other lanes hold
    /// `fill`, and nothing past `p + n` is read. The default copies through a fixed-size stack
    /// buffer (a buffer sized at run time would call memset); AVX-512
    /// overrides it with a masked load, SWAR with an assembly in a register.
    ///
    /// # Safety
    /// The CPU supports the instruction set; `p..p + n` is readable.
    #[inline(always)]
    unsafe fn load_partial(p: *const u8, n: usize, fill: u8) -> Self {
        /// # Safety
        /// As `load_partial`, and `V::W <= N`.
        #[inline(always)]
        unsafe fn padded<V: Vector, const N: usize>(p: *const u8, n: usize, fill: u8) -> V {
            let mut buf = [fill; N];
            // SAFETY: n <= W <= N bytes readable at p and writable in buf;
            // W <= N bytes of buf are loaded; the CPU requirement is passed
            // on.
            unsafe {
                core::ptr::copy_nonoverlapping(p, buf.as_mut_ptr(), n);
                V::load(buf.as_ptr())
            }
        }
        const { assert!(Self::W <= 64) };
        debug_assert!(0 < n && n <= Self::W);
        // SAFETY: per the caller; each arm's buffer holds at least W bytes.
        unsafe {
            if Self::W <= 16 {
                padded::<Self, 16>(p, n, fill)
            } else if Self::W <= 32 {
                padded::<Self, 32>(p, n, fill)
            } else {
                padded::<Self, 64>(p, n, fill)
            }
        }
    }

    /// Stores `W` bytes.
    ///
    /// # Safety
    /// `p..p + W` is writable.
    unsafe fn store(self, p: *mut u8);

    /// Stores the first `0 < n <= W` bytes and nothing else. The default
    /// goes through a stack buffer; AVX-512 overrides it with a masked
    /// store.
    ///
    /// # Safety
    /// `p..p + n` is writable.
    #[inline(always)]
    unsafe fn store_partial(self, p: *mut u8, n: usize) {
        const { assert!(Self::W <= 64) };
        debug_assert!(0 < n && n <= Self::W);
        let mut buf = [0u8; 64];
        // SAFETY: the buffer holds 64 >= W bytes; n <= W bytes writable at
        // p per the caller.
        unsafe {
            self.store(buf.as_mut_ptr());
            core::ptr::copy_nonoverlapping(buf.as_ptr(), p, n);
        }
    }

    /// Loads `W / 2` bytes into the low half; the high half is zero. The
    /// default goes through [`Vector::load_partial`]; SSE2 overrides it
    /// with one 8-byte load (`movq`), which the inline `Str` uses for its
    /// last 8 bytes.
    ///
    /// # Safety
    /// The CPU supports the instruction set; `p..p + W / 2` is readable.
    // Only the x86_64 inline `Str` uses it (and its counterpart below).
    #[cfg_attr(not(all(target_arch = "x86_64", not(miri))), allow(dead_code))]
    #[inline(always)]
    unsafe fn load_low(p: *const u8) -> Self {
        // SAFETY: forwarded contract; 0 < W / 2 < W.
        unsafe { Self::load_partial(p, Self::W / 2, 0) }
    }

    /// Stores the low `W / 2` bytes and nothing else (the counterpart of
    /// [`Vector::load_low`]; SSE2: one `movq`).
    ///
    /// # Safety
    /// `p..p + W / 2` is writable.
    #[cfg_attr(not(all(target_arch = "x86_64", not(miri))), allow(dead_code))]
    #[inline(always)]
    unsafe fn store_low(self, p: *mut u8) {
        // SAFETY: forwarded contract; 0 < W / 2 <= W.
        unsafe { self.store_partial(p, Self::W / 2) }
    }

    /// Every byte `b`.
    ///
    /// # Safety
    /// The CPU supports the instruction set.
    unsafe fn splat(b: u8) -> Self;

    /// Lane-wise wrapping `self + o`.
    fn add(self, o: Self) -> Self;
    /// Lane-wise wrapping `self - o`.
    fn sub(self, o: Self) -> Self;
    /// Lane-wise `self | o`.
    fn or(self, o: Self) -> Self;
    /// Lane-wise `self ^ o`.
    fn xor(self, o: Self) -> Self;
    /// Lane-wise `self & o` (no kernel needs it yet; the byte-class
    /// kernels of `Str` and the fact scan will).
    #[allow(dead_code)]
    fn and(self, o: Self) -> Self;
    /// Lane-wise unsigned minimum.
    fn min(self, o: Self) -> Self;
    /// Lane-wise `self == o`.
    fn eq(self, o: Self) -> Self::Mask;
    /// Lane-wise unsigned `self <= o`.
    fn le(self, o: Self) -> Self::Mask;
    /// `a | b` of two masks.
    fn mask_or(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    /// `STRIDE` set bits per lane that is true in `m`, lane 0 lowest (SWAR:
    /// only the top bit of each lane's 8).
    fn bits(m: Self::Mask) -> u64;
    /// [`Vector::bits`] of the lanes whose byte is >= 0x80 (exact per lane).
    fn high_bits(self) -> u64;

    /// [`Vector::bits`] of the lanes that are *false* in `m`.
    #[inline(always)]
    fn unset_bits(m: Self::Mask) -> u64 {
        !Self::bits(m) & Self::ALL_BITS
    }
}

/// Index of the lowest lane flagged in a non-zero [`Vector::bits`] value.
#[cfg_attr(not(all(vector_target, not(miri))), allow(dead_code))]
#[inline(always)]
pub(crate) fn first_lane<V: Vector>(bits: u64) -> usize {
    (bits.trailing_zeros() / V::STRIDE) as usize
}

/// The lane-wise [`Vector`] methods of a one-register vector type, each one
/// intrinsic on the two registers.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! lanewise_ops {
    ($($name:ident => $op:path,)*) => {$(
        #[inline(always)]
        fn $name(self, o: Self) -> Self {
            // SAFETY: the CPU supports the instruction set, as the existence
            // of `self` shows (see `Vector`).
            Self(unsafe { $op(self.0, o.0) })
        }
    )*};
}
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use lanewise_ops;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every lane-wise operation of `V` against the scalar definition, on
    /// byte pairs covering every value of `a` and the boundaries of `b`.
    ///
    /// # Safety
    /// The CPU supports `V`.
    unsafe fn check_ops<V: Vector>() {
        let w = V::W;
        let mut a = [0u8; 64];
        let mut b = [0u8; 64];
        let mut out = [0u8; 64];
        for base in (0..=255usize).step_by(w.min(256)) {
            for shift in [0usize, 1, 0x1f, 0x20, 0x7f, 0x80, 0xff] {
                for i in 0..w {
                    a[i] = (base + i) as u8;
                    b[i] = (base + i * 7 + shift) as u8;
                }
                // SAFETY: the CPU supports V per the caller; 64 >= W bytes.
                let (x, y) = unsafe { (V::load(a.as_ptr()), V::load(b.as_ptr())) };
                let lanes = |f: &dyn Fn(u8, u8) -> bool| {
                    (0..w).filter(|&i| f(a[i], b[i])).fold(0u64, |m, i| {
                        m | (((1u64 << V::STRIDE) - 1) << (i as u32 * V::STRIDE))
                    })
                };
                // SWAR masks keep only the top bit of each lane.
                let keep = V::ALL_BITS;
                assert_eq!(V::bits(x.eq(y)), lanes(&|p, q| p == q) & keep);
                assert_eq!(V::bits(x.le(y)), lanes(&|p, q| p <= q) & keep);
                assert_eq!(
                    V::bits(V::mask_or(x.eq(y), x.le(y))),
                    lanes(&|p, q| p <= q) & keep
                );
                assert_eq!(V::unset_bits(x.le(y)), lanes(&|p, q| p > q) & keep);
                assert_eq!(x.high_bits(), lanes(&|p, _| p >= 0x80) & keep);
                type Op = fn(u8, u8) -> u8;
                let ops: [(V, Op); 6] = [
                    (x.add(y), |p, q| p.wrapping_add(q)),
                    (x.sub(y), |p, q| p.wrapping_sub(q)),
                    (x.or(y), |p, q| p | q),
                    (x.xor(y), |p, q| p ^ q),
                    (x.and(y), |p, q| p & q),
                    (x.min(y), |p, q| p.min(q)),
                ];
                for (v, f) in ops {
                    // SAFETY: 64 >= W writable bytes.
                    unsafe { v.store(out.as_mut_ptr()) };
                    for i in 0..w {
                        assert_eq!(out[i], f(a[i], b[i]), "lane {i}: {} {}", a[i], b[i]);
                    }
                }
                // SWAR's partial load takes fewer than W bytes.
                let most = if V::W == 8 { w - 1 } else { w };
                for n in 1..=most {
                    // SAFETY: n <= W readable bytes.
                    let v = unsafe { V::load_partial(a.as_ptr(), n, 0x5a) };
                    out = [0; 64];
                    // SAFETY: 64 >= W writable bytes.
                    unsafe { v.store(out.as_mut_ptr()) };
                    for i in 0..w {
                        assert_eq!(out[i], if i < n { a[i] } else { 0x5a });
                    }
                    if n > 0 {
                        out = [0xee; 64];
                        // SAFETY: n writable bytes.
                        unsafe { v.store_partial(out.as_mut_ptr(), n) };
                        assert_eq!(&out[..n], &a[..n]);
                        assert!(out[n..].iter().all(|&c| c == 0xee));
                    }
                }
                // SAFETY: the CPU supports V.
                let s = unsafe { V::splat(0xa5) };
                // SAFETY: 64 >= W writable bytes.
                unsafe { s.store(out.as_mut_ptr()) };
                assert!(out[..w].iter().all(|&c| c == 0xa5));
            }
        }
    }

    #[test]
    fn swar_ops() {
        // SAFETY: SWAR is portable.
        unsafe { check_ops::<swar::Swar>() }
    }

    #[cfg(all(target_arch = "x86_64", not(miri)))]
    #[test]
    fn x86_ops() {
        use crate::Kernel;
        // SAFETY: SSE2 is baseline; the others are checked first.
        unsafe {
            check_ops::<x86::Sse2>();
            if Kernel::Avx2.is_available() {
                check_ops::<x86::Avx2>();
            }
            if Kernel::Avx512.is_available() {
                check_ops::<x86::Avx512>();
            }
        }
    }

    #[cfg(all(target_arch = "aarch64", not(miri)))]
    #[test]
    fn neon_ops() {
        // SAFETY: NEON is baseline on aarch64.
        unsafe { check_ops::<neon::Neon>() }
    }

    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[test]
    fn simd128_ops() {
        // SAFETY: the build enables simd128 for the whole module.
        unsafe { check_ops::<simd128::Simd128>() }
    }
}
