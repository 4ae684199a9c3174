//! The WebAssembly SIMD vector (`simd128`, 16 bytes).
//!
//! WebAssembly has no run-time feature detection: a module that uses a
//! `v128` instruction fails to validate on an engine without SIMD, before
//! any code runs. So this vector exists only in builds that enable the
//! feature for the whole module (`-C target-feature=+simd128`), and such a
//! build selects it at compile time, as aarch64 builds select NEON;
//! without the flag a wasm32 build runs SWAR. Every engine in current use
//! (V8, SpiderMonkey, JavaScriptCore, Wasmtime) has had `simd128` since
//! 2021–2023.
//!
//! The instruction set is SSE2-like with what SSE2 lacks: unsigned byte
//! compares (`u8x16_le`), a byte shuffle with run-time indices
//! (`i8x16_swizzle`, lanes >= 16 give zero) and one with constant indices
//! (`i8x16_shuffle`). [`Vector::bits`] is `i8x16.bitmask` (one bit per
//! lane, `STRIDE = 1`). Engines lower it to `pmovmskb` on x86 and to a
//! few instructions on arm64.
//!
//! Loads and stores are plain linear-memory accesses: unaligned ones are
//! allowed, and one past the end of the memory traps, so the in-bounds
//! rule of the kernels is checked by the engine itself at the memory's end
//! (but not within it, where memory is ordinary bytes).

use super::Vector;
use core::arch::wasm32::*;

/// 16 bytes in a `v128` (only compiled when the build enables `simd128`).
#[derive(Clone, Copy)]
pub(crate) struct Simd128(pub(crate) v128);

impl Vector for Simd128 {
    const W: usize = 16;
    const STRIDE: u32 = 1;
    const ALL_BITS: u64 = 0xffff;
    /// 0x00/0xFF lanes.
    type Mask = Simd128;

    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: 16 readable bytes per the caller (unaligned is allowed).
        Simd128(unsafe { v128_load(p as *const v128) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: 16 writable bytes per the caller (unaligned is allowed).
        unsafe { v128_store(p as *mut v128, self.0) }
    }
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        Simd128(u8x16_splat(b))
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        Simd128(u8x16_add(self.0, o.0))
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        Simd128(u8x16_sub(self.0, o.0))
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        Simd128(v128_or(self.0, o.0))
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        Simd128(v128_xor(self.0, o.0))
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        Simd128(v128_and(self.0, o.0))
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        Simd128(u8x16_min(self.0, o.0))
    }
    #[inline(always)]
    fn eq(self, o: Self) -> Self {
        Simd128(u8x16_eq(self.0, o.0))
    }
    #[inline(always)]
    fn le(self, o: Self) -> Self {
        Simd128(u8x16_le(self.0, o.0))
    }
    #[inline(always)]
    fn mask_or(a: Self, b: Self) -> Self {
        a.or(b)
    }
    #[inline(always)]
    fn bits(m: Self) -> u64 {
        u8x16_bitmask(m.0) as u64
    }
    #[inline(always)]
    fn high_bits(self) -> u64 {
        // The bitmask is the top bit of each lane.
        Self::bits(self)
    }
}
