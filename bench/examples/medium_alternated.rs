//! The SIMD layer's targets as wall-time ratios of contenders
//! alternated in one process: 200 rounds (fewer for the big inputs), best
//! round per contender (robust on a loaded machine). Inputs go through
//! `black_box` on every call and every result is consumed in the timed
//! loop.
//!
//! `cargo run --release -p ito-bench --example medium_alternated [SET]`:
//!
//! - quote (ito, sonic-rs, memcpy + 2 quotes, serde_json), per string:
//!   `all` (the medium-text set, the default), `s`/`m`/`l` (its strings of
//!   <= 32 B, 33–64 B, > 64 B), `e` (its strings with escapes), `c` (its
//!   clean strings), `es`/`em`/`el` (set `e` split like `s`/`m`/`l`),
//!   `4k` (one clean 4 KiB string), `corpus` (every string
//!   of twitter.json + citm_catalog.json), `short` (8–16 B clean), `d25` /
//!   `d50` (4 KiB with 25 % / 50 % of bytes escaped);
//! - hex (ito, const-hex, faster-hex), slice API against slice API:
//!   `hex32e` / `hex32d` (32-byte values from a pool of 1,024 random ones),
//!   `hex1me` / `hex1md` (1 MiB);
//! - `targets`: every set above, one after the other.
//!
//! `ONLY=<n>` runs contender `n` alone (0 = ito), for `perf stat` or
//! `perf record`; `ONLY_ROUNDS=<r>` sets its number of rounds.

use ito_bench::{medium_text, Rng};
use std::hint::black_box;
use std::time::Instant;

fn time(f: &mut dyn FnMut()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64()
}

/// A named timed loop.
type Contender<'a> = (&'a str, Box<dyn FnMut() + 'a>);

/// Best time per unit of each contender over `rounds` alternated rounds;
/// with `ONLY=<index>` in the environment, only that contender runs (for
/// `perf stat` instruction counts).
fn alternate(rounds: usize, units: usize, fs: &mut [Contender<'_>]) {
    if let Some(only) = std::env::var("ONLY")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
    {
        let rounds = std::env::var("ONLY_ROUNDS")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            .unwrap_or(rounds);
        for _ in 0..rounds {
            (fs[only].1)();
        }
        println!(
            "  ran {} alone: {} rounds of {units} units",
            fs[only].0, rounds
        );
        return;
    }
    let mut best = vec![f64::MAX; fs.len()];
    for _ in 0..rounds {
        for (b, (_, f)) in best.iter_mut().zip(fs.iter_mut()) {
            *b = b.min(time(f) / units as f64);
        }
    }
    for ((n, _), b) in fs.iter().zip(&best) {
        println!(
            "  {n:10} {:9.2} ns   ÷ ito (> 1: ito faster): {:.2}",
            b * 1e9,
            b / best[0]
        );
    }
}

/// `memcpy+2` in a function that is not inlined (a diagnostic: what an
/// out-of-line append to a `Vec` costs, like every peer's call).
#[inline(never)]
fn memcpy_call(out: &mut Vec<u8>, s: &[u8]) {
    out.push(b'"');
    out.extend_from_slice(s);
    out.push(b'"');
}

fn quote_set(name: &str, strings: &[String]) {
    let bytes: usize = strings.iter().map(|s| s.len()).sum();
    println!(
        "quote {name}: {} strings, {:.1} B mean, ns per string",
        strings.len(),
        bytes as f64 / strings.len() as f64
    );
    // About 100 KiB of input per timed call.
    let reps = (100_000 / bytes.max(1)).max(1);
    // One monomorphised loop per contender (no dispatch inside it).
    fn looped<'a>(
        strings: &'a [String],
        reps: usize,
        cap: usize,
        f: impl Fn(&mut Vec<u8>, &str) + 'a,
    ) -> Box<dyn FnMut() + 'a> {
        let mut out: Vec<u8> = Vec::with_capacity(cap);
        Box::new(move || {
            for _ in 0..reps {
                out.clear();
                for s in strings {
                    f(&mut out, black_box(s.as_str()));
                }
                black_box(out.len());
            }
        })
    }
    let cap = bytes * 6 + 2 * strings.len() + 64;
    alternate(
        200,
        reps * strings.len(),
        &mut [
            ("ito", looped(strings, reps, cap, ito::json::quote)),
            (
                "sonic-rs",
                looped(strings, reps, cap, |o, s| {
                    sonic_rs::to_writer(o, s).unwrap()
                }),
            ),
            (
                "memcpy+2",
                looped(strings, reps, cap, |o, s| {
                    o.push(b'"');
                    o.extend_from_slice(s.as_bytes());
                    o.push(b'"');
                }),
            ),
            (
                "serde_json",
                looped(strings, reps, cap, |o, s| {
                    serde_json::to_writer(o, s).unwrap()
                }),
            ),
            (
                "memcpy call",
                looped(strings, reps, cap, |o, s| memcpy_call(o, s.as_bytes())),
            ),
        ],
    );
}

/// One monomorphised loop per contender over `items`, `reps` times.
fn looped_items<'a, T, O: 'a>(
    items: &'a [T],
    reps: usize,
    mut out: O,
    f: impl Fn(&T, &mut O) + 'a,
) -> Box<dyn FnMut() + 'a> {
    Box::new(move || {
        for _ in 0..reps {
            for x in items {
                f(black_box(x), &mut out);
                black_box(&out);
            }
        }
    })
}

fn hex_pool(decode: bool) {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let pool: Vec<[u8; 32]> = (0..1024)
        .map(|_| std::array::from_fn(|_| rng.next_u64() as u8))
        .collect();
    let digits: Vec<[u8; 64]> = pool.iter().map(ito::hex::encode_array).collect();
    println!(
        "hex {} 32 B, pool of 1,024, ns per value",
        if decode { "decode" } else { "encode" }
    );
    let reps = 20;
    let units = reps * pool.len();
    if decode {
        alternate(
            200,
            units,
            &mut [
                (
                    "ito",
                    looped_items(&digits, reps, [0u8; 32], |d, o: &mut [u8; 32]| {
                        ito::hex::decode_to_slice(d, o, ito::hex::Accept::AnyCase).unwrap()
                    }),
                ),
                (
                    "const-hex",
                    looped_items(&digits, reps, [0u8; 32], |d, o: &mut [u8; 32]| {
                        const_hex::decode_to_slice(d, o).unwrap()
                    }),
                ),
                (
                    "faster-hex",
                    looped_items(&digits, reps, [0u8; 32], |d, o: &mut [u8; 32]| {
                        faster_hex::hex_decode(d, o).unwrap();
                    }),
                ),
            ],
        );
    } else {
        alternate(
            200,
            units,
            &mut [
                (
                    "ito",
                    looped_items(&pool, reps, [0u8; 64], |v, o: &mut [u8; 64]| {
                        ito::hex::encode_to_slice(v, o, ito::hex::Case::Lower).unwrap()
                    }),
                ),
                (
                    "const-hex",
                    looped_items(&pool, reps, [0u8; 64], |v, o: &mut [u8; 64]| {
                        const_hex::encode_to_slice(v, o).unwrap()
                    }),
                ),
                (
                    "faster-hex",
                    looped_items(&pool, reps, [0u8; 64], |v, o: &mut [u8; 64]| {
                        faster_hex::hex_encode(v, o).unwrap();
                    }),
                ),
            ],
        );
    }
}

fn hex_1m(decode: bool) {
    let mut rng = Rng(0x1111_2222_3333_4444);
    let bytes: Vec<u8> = (0..1 << 20).map(|_| rng.next_u64() as u8).collect();
    let digits = ito::hex::encode(&bytes).into_bytes();
    println!(
        "hex {} 1 MiB, ns per call",
        if decode { "decode" } else { "encode" }
    );
    let (b, d) = ([bytes], [digits]);
    if decode {
        alternate(
            60,
            1,
            &mut [
                (
                    "ito",
                    looped_items(&d, 1, Vec::new(), |d, o: &mut Vec<u8>| {
                        o.resize(d.len() / 2, 0);
                        ito::hex::decode_to_slice(d, o, ito::hex::Accept::AnyCase).unwrap()
                    }),
                ),
                (
                    "const-hex",
                    looped_items(&d, 1, Vec::new(), |d, o: &mut Vec<u8>| {
                        o.resize(d.len() / 2, 0);
                        const_hex::decode_to_slice(d, o).unwrap()
                    }),
                ),
                (
                    "faster-hex",
                    looped_items(&d, 1, Vec::new(), |d, o: &mut Vec<u8>| {
                        o.resize(d.len() / 2, 0);
                        faster_hex::hex_decode(d, o).unwrap();
                    }),
                ),
            ],
        );
    } else {
        alternate(
            60,
            1,
            &mut [
                (
                    "ito",
                    looped_items(&b, 1, Vec::new(), |v, o: &mut Vec<u8>| {
                        o.resize(2 * v.len(), 0);
                        ito::hex::encode_to_slice(v, o, ito::hex::Case::Lower).unwrap()
                    }),
                ),
                (
                    "const-hex",
                    looped_items(&b, 1, Vec::new(), |v, o: &mut Vec<u8>| {
                        o.resize(2 * v.len(), 0);
                        const_hex::encode_to_slice(v, o).unwrap()
                    }),
                ),
                (
                    "faster-hex",
                    looped_items(&b, 1, Vec::new(), |v, o: &mut Vec<u8>| {
                        o.resize(2 * v.len(), 0);
                        faster_hex::hex_encode(v, o).unwrap();
                    }),
                ),
            ],
        );
    }
}

fn density(len: usize, percent: u64, rng: &mut Rng) -> String {
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

fn run(which: &str) {
    let set = medium_text(4096, 0x5eed_0012_7e47_0001);
    let pick = |f: &dyn Fn(&String) -> bool| -> Vec<String> {
        set.iter().filter(|s| f(s)).cloned().collect()
    };
    let mut rng = Rng(0x1234_5678_9abc_def1);
    match which {
        "s" => quote_set("medium <= 32 B", &pick(&|s| s.len() <= 32)),
        "m" => quote_set("medium 33-64 B", &pick(&|s| s.len() > 32 && s.len() <= 64)),
        "l" => quote_set("medium > 64 B", &pick(&|s| s.len() > 64)),
        "e" => quote_set(
            "medium, with escapes",
            &pick(&|s| ito::json::needs_escape(s.as_bytes())),
        ),
        "es" | "em" | "el" => {
            let (lo, hi) = match which {
                "es" => (0, 32),
                "em" => (33, 64),
                _ => (65, usize::MAX),
            };
            quote_set(
                &format!("medium, with escapes, {which}"),
                &pick(&|s| (lo..=hi).contains(&s.len()) && ito::json::needs_escape(s.as_bytes())),
            )
        }
        "c" => quote_set(
            "medium, clean",
            &pick(&|s| !ito::json::needs_escape(s.as_bytes())),
        ),
        "4k" => {
            let clean: String = (0..4096).map(|i| (b'a' + (i % 26) as u8) as char).collect();
            quote_set("clean 4 KiB (reused)", &[clean]);
        }
        "corpus" => quote_set("twitter + citm strings", &ito_bench::corpus_strings()),
        "short" => {
            const ALPHA: &[u8] =
                b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;-_/@#";
            let short: Vec<String> = (0..1024)
                .map(|_| {
                    let len = 8 + rng.below(9) as usize;
                    (0..len)
                        .map(|_| ALPHA[rng.below(ALPHA.len() as u64) as usize] as char)
                        .collect()
                })
                .collect();
            quote_set("clean 8-16 B", &short);
        }
        "d25" => quote_set("4 KiB, 25 % escaped", &[density(4096, 25, &mut rng)]),
        "d50" => quote_set("4 KiB, 50 % escaped", &[density(4096, 50, &mut rng)]),
        "hex32e" => hex_pool(false),
        "hex32d" => hex_pool(true),
        "hex1me" => hex_1m(false),
        "hex1md" => hex_1m(true),
        "targets" => {
            for w in [
                "all", "s", "m", "l", "e", "c", "4k", "corpus", "short", "d25", "d50", "hex32e",
                "hex32d", "hex1me", "hex1md",
            ] {
                run(w);
            }
        }
        _ => quote_set("medium set", &set),
    }
}

fn main() {
    println!("ito kernel: {}", ito::Kernel::best());
    run(&std::env::args().nth(1).unwrap_or_default());
}
