//! The SIMD layer's targets, each contender side by side in one
//! run, inputs through `black_box` on every iteration:
//!
//! - `quote/medium`: a fixed-seed medium-text set — lengths 20–200 B
//!   (median ≈ 50, p90 ≈ 90), 8 % of strings with 1–3 escapes (`"`, `\`,
//!   `\n`, `\t`, one control byte) at random positions, 0.4 % with a 2–4-byte
//!   UTF-8 character — against sonic-rs, serde_json and memcpy + 2 quotes.
//! - `quote/nostr_content`: the `content` fields of `data/nostr/events.jsonl`.
//! - `quote/clean_4k_reused`: one 4 KiB clean string, cache-resident.
//! - `hex_pool`: 32-byte values from a pool of 1,024 random ones (so the
//!   branch predictor and the caches see a realistic mix, not one value),
//!   slice API against slice API.
//!
//! Throughput is per string (per value for hex), so the report reads as
//! time per call.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use ito_bench::{medium_text, Rng};

/// The `content` fields of the Nostr events in `data/`.
fn nostr_contents() -> Vec<String> {
    include_str!("../../data/nostr/events.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("valid event");
            v["content"].as_str().expect("content").to_owned()
        })
        .collect()
}

fn quote_group(c: &mut Criterion, name: &str, strings: &[String]) {
    let bytes: usize = strings.iter().map(|s| s.len()).sum();
    let mut g = c.benchmark_group(format!("quote/{name}"));
    g.throughput(Throughput::Elements(strings.len() as u64));
    let mut out: Vec<u8> = Vec::with_capacity(bytes * 6 + 64 * strings.len());
    g.bench_function("ito", |b| {
        b.iter(|| {
            out.clear();
            for s in strings {
                ito::json::quote(&mut out, black_box(s));
            }
            black_box(out.len())
        })
    });
    g.bench_function("sonic_rs", |b| {
        b.iter(|| {
            out.clear();
            for s in strings {
                sonic_rs::to_writer(&mut out, black_box(s.as_str())).unwrap();
            }
            black_box(out.len())
        })
    });
    g.bench_function("serde_json", |b| {
        b.iter(|| {
            out.clear();
            for s in strings {
                serde_json::to_writer(&mut out, black_box(s.as_str())).unwrap();
            }
            black_box(out.len())
        })
    });
    g.bench_function("memcpy_quotes", |b| {
        b.iter(|| {
            out.clear();
            for s in strings {
                out.push(b'"');
                out.extend_from_slice(black_box(s.as_bytes()));
                out.push(b'"');
            }
            black_box(out.len())
        })
    });
    g.finish();
}

fn quote(c: &mut Criterion) {
    let medium = medium_text(4096, 0x5eed_0012_7e47_0001);
    quote_group(c, "medium", &medium);
    quote_group(c, "nostr_content", &nostr_contents());
    let mut rng = Rng(0x4b1d_4b1d_4b1d_4b1d);
    let clean: String = (0..4096)
        .map(|_| (b'a' + rng.below(26) as u8) as char)
        .collect();
    quote_group(c, "clean_4k_reused", &[clean]);
}

fn hex_pool(c: &mut Criterion) {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let pool: Vec<[u8; 32]> = (0..1024)
        .map(|_| std::array::from_fn(|_| rng.next_u64() as u8))
        .collect();
    let digits: Vec<[u8; 64]> = pool.iter().map(ito::hex::encode_array).collect();
    let mut g = c.benchmark_group("hex_pool_32B");
    g.throughput(Throughput::Elements(pool.len() as u64));
    let mut out = [0u8; 64];
    let mut back = [0u8; 32];
    g.bench_function("encode/ito", |b| {
        b.iter(|| {
            for v in &pool {
                ito::hex::encode_to_slice(black_box(v), &mut out, ito::hex::Case::Lower).unwrap();
                black_box(&out);
            }
        })
    });
    g.bench_function("encode/const-hex", |b| {
        b.iter(|| {
            for v in &pool {
                const_hex::encode_to_slice(black_box(v), &mut out).unwrap();
                black_box(&out);
            }
        })
    });
    g.bench_function("encode/faster-hex", |b| {
        b.iter(|| {
            for v in &pool {
                faster_hex::hex_encode(black_box(v), &mut out).unwrap();
                black_box(&out);
            }
        })
    });
    g.bench_function("decode/ito", |b| {
        b.iter(|| {
            for d in &digits {
                ito::hex::decode_to_slice(black_box(d), &mut back, ito::hex::Accept::AnyCase)
                    .unwrap();
                black_box(&back);
            }
        })
    });
    g.bench_function("decode/const-hex", |b| {
        b.iter(|| {
            for d in &digits {
                const_hex::decode_to_slice(black_box(d), &mut back).unwrap();
                black_box(&back);
            }
        })
    });
    g.bench_function("decode/faster-hex", |b| {
        b.iter(|| {
            for d in &digits {
                faster_hex::hex_decode(black_box(d), &mut back).unwrap();
                black_box(&back);
            }
        })
    });
    g.finish();
}

/// Checks that the generated set has the shape the module docs promise.
fn check_shape() {
    let set = medium_text(4096, 0x5eed_0012_7e47_0001);
    let mut lens: Vec<usize> = set.iter().map(|s| s.len()).collect();
    lens.sort_unstable();
    let escaped = set
        .iter()
        .filter(|s| ito::json::needs_escape(s.as_bytes()))
        .count();
    let wide = set.iter().filter(|s| !s.is_ascii()).count();
    eprintln!(
        "medium set: {} strings, median {} B, p90 {} B, max {} B, {:.1} % escaped, {:.1} % non-ASCII",
        set.len(),
        lens[lens.len() / 2],
        lens[lens.len() * 9 / 10],
        lens[lens.len() - 1],
        100.0 * escaped as f64 / set.len() as f64,
        100.0 * wide as f64 / set.len() as f64,
    );
}

fn shape(_: &mut Criterion) {
    check_shape();
}

criterion_group!(benches, shape, quote, hex_pool);
criterion_main!(benches);
