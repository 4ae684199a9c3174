//! Loops for the SWAR/simd128 comparison page (feature `bench`, never in
//! the package): each call repeats one codec `rounds` times inside the
//! module, so the page's timer measures the codec and not the call into
//! it. Built twice by scripts/browser-bench.sh, with and without
//! `+simd128`; the library picks its kernel at compile time on wasm32.

use std::hint::black_box;
use wasm_bindgen::prelude::*;

/// A set of strings (the page passes those of twitter.json) with their
/// JSON forms, for quote and unquote.
#[wasm_bindgen(js_name = BenchStrings)]
pub struct BenchStrings {
    plain: Vec<String>,
    quoted: Vec<Vec<u8>>,
    out: Vec<u8>,
}

#[wasm_bindgen(js_class = BenchStrings)]
impl BenchStrings {
    /// The strings of `list` (a JavaScript array of strings).
    #[wasm_bindgen(constructor)]
    pub fn new(list: Vec<String>) -> BenchStrings {
        let quoted = list
            .iter()
            .map(|s| {
                let mut q = Vec::new();
                ito::json::quote(&mut q, s);
                q
            })
            .collect();
        BenchStrings {
            plain: list,
            quoted,
            out: Vec::new(),
        }
    }

    /// The UTF-8 bytes of all strings: the throughput's numerator.
    pub fn bytes(&self) -> f64 {
        self.plain.iter().map(String::len).sum::<usize>() as f64
    }

    /// `ito::json::quote` of every string, `rounds` times.
    pub fn quote(&mut self, rounds: u32) -> u32 {
        let mut sum = 0u32;
        for _ in 0..rounds {
            for s in &self.plain {
                self.out.clear();
                ito::json::quote(&mut self.out, black_box(s));
                sum = sum.wrapping_add(self.out.len() as u32);
            }
        }
        sum
    }

    /// `ito::json::unquote` of every quoted string, `rounds` times.
    pub fn unquote(&self, rounds: u32) -> u32 {
        let mut sum = 0u32;
        for _ in 0..rounds {
            for q in &self.quoted {
                if let Ok((s, _)) = ito::json::unquote(black_box(q)) {
                    sum = sum.wrapping_add(s.len() as u32);
                }
            }
        }
        sum
    }
}

/// Hex encode then decode of `size` bytes, `rounds` times each way;
/// answers a checksum so that nothing is optimised away.
#[wasm_bindgen(js_name = benchHexEncode)]
pub fn bench_hex_encode(size: usize, rounds: u32) -> u32 {
    let src: Vec<u8> = (0..size).map(|i| (i * 31 + 7) as u8).collect();
    let mut dst = vec![0u8; 2 * size];
    let mut sum = 0u32;
    for _ in 0..rounds {
        let _ = ito::hex::encode_to_slice(black_box(&src), &mut dst, ito::hex::Case::Lower);
        sum = sum.wrapping_add(u32::from(dst[size]));
    }
    sum
}

/// Hex decode of `size` bytes' worth of lowercase hex, `rounds` times.
#[wasm_bindgen(js_name = benchHexDecode)]
pub fn bench_hex_decode(size: usize, rounds: u32) -> u32 {
    let src = ito::hex::encode(&(0..size).map(|i| (i * 31 + 7) as u8).collect::<Vec<_>>());
    let mut dst = vec![0u8; size];
    let mut sum = 0u32;
    for _ in 0..rounds {
        let _ = ito::hex::decode_to_slice(
            black_box(src.as_bytes()),
            &mut dst,
            ito::hex::Accept::AnyCase,
        );
        sum = sum.wrapping_add(u32::from(dst[size / 2]));
    }
    sum
}
