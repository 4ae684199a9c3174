//! `ito::json` against serde_json and sonic-rs (and memcpy where the input
//! needs no escaping), side by side in one run.
//!
//! Inputs: every string of twitter.json + citm_catalog.json; 8–16-byte clean
//! ASCII strings; 4 KiB clean ASCII; 4 KiB CJK/emoji; 1 MiB clean ASCII;
//! 4 KiB at escape densities 1/6/25/50%; and, for `unquote`, the string
//! literals of twitter.json. Throughput is in input bytes (elements for the
//! short strings, so the report reads as time per string).
//!
//! `unquote` takes bytes and validates UTF-8; `unquote_str` takes a `&str`
//! and, like `serde_json::from_str` and `sonic_rs::from_str`, does not
//! re-validate; `ito_owned` adds the `String` allocation that the peers
//! always make.
//!
//! Peers use their fastest honest `&str` → `Vec<u8>` paths:
//! `serde_json::to_writer(&mut Vec<u8>, &str)` and
//! `sonic_rs::to_writer(&mut Vec<u8>, &str)`; decoding uses
//! `serde_json::from_str::<String>` and `sonic_rs::from_str::<String>`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use ito_bench::Rng;

fn clean_ascii(len: usize, rng: &mut Rng) -> String {
    const ALPHA: &[u8] =
        b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;-_/@#";
    (0..len)
        .map(|_| ALPHA[rng.below(ALPHA.len() as u64) as usize] as char)
        .collect()
}

/// `len` bytes where about `percent`% of the bytes need escaping.
fn with_density(len: usize, percent: u64, rng: &mut Rng) -> String {
    const SPECIAL: &[char] = &['"', '\\', '\n', '\t', '\u{1}', '\r'];
    let mut s = String::with_capacity(len);
    while s.len() < len {
        if rng.below(100) < percent {
            s.push(SPECIAL[rng.below(SPECIAL.len() as u64) as usize]);
        } else {
            s.push((b'a' + rng.below(26) as u8) as char);
        }
    }
    s
}

fn cjk(len: usize) -> String {
    let unit = "日本語のテキストと中文字符😀🎉, 한국어 ";
    let mut s = String::new();
    for c in unit.chars().cycle() {
        if s.len() + c.len_utf8() > len {
            break;
        }
        s.push(c);
    }
    s
}

/// Benchmarks quoting every string of `strings` (one output buffer, reused).
fn quote_group(c: &mut Criterion, name: &str, strings: &[String], memcpy: bool, per_string: bool) {
    let bytes: usize = strings.iter().map(|s| s.len()).sum();
    let mut g = c.benchmark_group(format!("quote/{name}"));
    if per_string {
        g.throughput(Throughput::Elements(strings.len() as u64));
    } else {
        g.throughput(Throughput::Bytes(bytes as u64));
    }
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
    g.bench_function("serde_json", |b| {
        b.iter(|| {
            out.clear();
            for s in strings {
                serde_json::to_writer(&mut out, black_box(s.as_str())).unwrap();
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
    if memcpy {
        g.bench_function("memcpy", |b| {
            b.iter(|| {
                out.clear();
                for s in strings {
                    out.extend_from_slice(black_box(s.as_bytes()));
                }
                black_box(out.len())
            })
        });
    }
    g.finish();
}

fn quote(c: &mut Criterion) {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let corpus = ito_bench::corpus_strings();
    quote_group(c, "corpus", &corpus, true, false);

    let short: Vec<String> = (0..1024)
        .map(|_| {
            let len = 8 + rng.below(9) as usize;
            clean_ascii(len, &mut rng)
        })
        .collect();
    quote_group(c, "short_8_16", &short, true, true);

    quote_group(c, "clean_4k", &[clean_ascii(4096, &mut rng)], true, false);
    quote_group(c, "cjk_4k", &[cjk(4096)], true, false);
    quote_group(
        c,
        "clean_1m",
        &[clean_ascii(1 << 20, &mut rng)],
        true,
        false,
    );
    for percent in [1, 6, 25, 50] {
        let s = with_density(4096, percent, &mut rng);
        quote_group(c, &format!("density_{percent}"), &[s], false, false);
    }
}

fn unquote(c: &mut Criterion) {
    let literals = ito_bench::quoted_literals_of(ito_bench::TWITTER);
    let bytes: usize = literals.iter().map(|s| s.len()).sum();
    let mut g = c.benchmark_group("unquote/twitter");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("ito", |b| {
        b.iter(|| {
            let mut n = 0;
            for lit in &literals {
                let (v, used) = ito::json::unquote(black_box(lit.as_bytes())).unwrap();
                n += v.len() + used;
            }
            black_box(n)
        })
    });
    g.bench_function("ito_str", |b| {
        b.iter(|| {
            let mut n = 0;
            for lit in &literals {
                let (v, used) = ito::json::unquote_str(black_box(lit.as_str())).unwrap();
                n += v.len() + used;
            }
            black_box(n)
        })
    });
    g.bench_function("ito_owned", |b| {
        b.iter(|| {
            let mut n = 0;
            for lit in &literals {
                let (v, _) = ito::json::unquote(black_box(lit.as_bytes())).unwrap();
                let owned: String = v.into_owned();
                n += owned.len();
            }
            black_box(n)
        })
    });
    g.bench_function("serde_json", |b| {
        b.iter(|| {
            let mut n = 0;
            for lit in &literals {
                let v: String = serde_json::from_str(black_box(lit)).unwrap();
                n += v.len();
            }
            black_box(n)
        })
    });
    g.bench_function("sonic_rs", |b| {
        b.iter(|| {
            let mut n = 0;
            for lit in &literals {
                let v: String = sonic_rs::from_str(black_box(lit)).unwrap();
                n += v.len();
            }
            black_box(n)
        })
    });
    g.finish();
}

/// Each kernel forced on 4 KiB clean ASCII and at 25% density, to see what
/// each width buys.
fn kernels(c: &mut Criterion) {
    let mut rng = Rng(0x0bad_cafe_f00d_d00d);
    for (name, s) in [
        ("clean_4k", clean_ascii(4096, &mut rng)),
        ("density_25", with_density(4096, 25, &mut rng)),
    ] {
        let mut g = c.benchmark_group(format!("kernels/escape_{name}"));
        g.throughput(Throughput::Bytes(s.len() as u64));
        let mut out = Vec::with_capacity(s.len() * 6 + 64);
        for k in ito::Kernel::available() {
            g.bench_with_input(BenchmarkId::from_parameter(k), &s, |b, s| {
                b.iter(|| {
                    out.clear();
                    ito::json::escape_with_kernel(k, &mut out, black_box(s));
                    black_box(out.len())
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, quote, unquote, kernels);
criterion_main!(benches);
