//! `Str`, `format!`/`concat!` and `quote_str` against named peers, side by
//! side in one run.
//!
//! Run: `cargo bench -p ito-bench --bench str -- --warm-up-time 1 --measurement-time 3`
//!
//! Groups:
//! - `interp/ruby_36B`: "hello" + ", " + a 29-byte string (the Ruby 3.3
//!   talk's case): `ito::format!` vs `std::format!` vs
//!   `compact_str::format_compact!` vs hand-written `String::with_capacity`
//!   + `push_str` (and `ito::concat!`).
//! - `interp/5x_60B`, `interp/5x_200B`: five string pieces.
//! - `from/*`: `Str::from(&str)` inline vs `CompactString`, 36 and 64 B
//!   heap vs `Box<str>` and `Arc<str>`.
//! - `clone/*`: heap `Str` vs `Arc<str>`, inline `Str` vs `CompactString`.
//! - `facts/inline_11B`: `is_json_safe` of an inline `Str` (computed on
//!   demand).
//! - `facts/heap_200B`: `Str::from` + the first `is_json_safe` (one scan,
//!   cached in the header) + drop, and `is_json_safe` once known.
//! - `quote_str/*`: JSON-safe heap `Str` vs a `memcpy` of its bytes; an
//!   inline `Str` vs `json::quote` of the same `&str`.
//! - `facts/4KiB`: the copy+classify kernel of the first query, per
//!   `Kernel`, vs a plain copy.
//!
//! Nothing here can be optimised away: every input passes through
//! `black_box` on *every iteration* (with a loop-invariant input LLVM
//! hoisted `CompactString::from` out of the loop until 2026-11-22, and
//! hoisted the length sums and loads of the `interp` inputs until
//! 2026-11-24), every result goes through `black_box` and is dropped inside
//! the timed loop, so every contender pays its free.
//!
//! On a shared, loaded machine criterion's means swing by 2x between runs
//! and it times contenders one after the other.
//! `ITO_STR_ALTERNATE=1 cargo bench -p ito-bench --bench str` instead
//! prints the lifecycle table: each pair of contenders timed in
//! alternation (A B, then B A, ...) for many short rounds, with the median
//! of the per-round ratios (each round's two timings share the host's
//! state) and the ratio of the fastest rounds. It also times the old
//! `interp` loops (inputs hoisted) beside the corrected ones.
use compact_str::{format_compact, CompactString};
use criterion::{criterion_group, Criterion};
use ito::{Kernel, Str};
use std::hint::black_box;
use std::sync::Arc;

fn interp(c: &mut Criterion) {
    // "hello" + ", " + 29 bytes = 36 bytes.
    let a = black_box("hello");
    let b = black_box("a string of twenty-nine bytes");
    assert_eq!(b.len(), 29);
    let mut g = c.benchmark_group("interp/ruby_36B");
    g.bench_function("ito::format", |bn| {
        bn.iter(|| {
            let (a, b) = black_box((a, b));
            black_box(ito::format!("{a}, {b}"))
        })
    });
    g.bench_function("ito::concat", |bn| {
        bn.iter(|| {
            let (a, b) = black_box((a, b));
            black_box(ito::concat!(a, ", ", b))
        })
    });
    g.bench_function("std::format", |bn| {
        bn.iter(|| {
            let (a, b) = black_box((a, b));
            black_box(std::format!("{a}, {b}"))
        })
    });
    g.bench_function("compact_str::format_compact", |bn| {
        bn.iter(|| {
            let (a, b) = black_box((a, b));
            black_box(format_compact!("{a}, {b}"))
        })
    });
    g.bench_function("hand_written", |bn| {
        bn.iter(|| {
            let (a, b) = black_box((a, b));
            let mut s = String::with_capacity(a.len() + 2 + b.len());
            s.push_str(a);
            s.push_str(", ");
            s.push_str(b);
            black_box(s)
        })
    });
    g.finish();

    for (name, lens) in [
        ("interp/5x_60B", [8usize, 16, 12, 20, 4]),
        ("interp/5x_200B", [30, 50, 40, 60, 20]),
    ] {
        let owned: Vec<String> = lens
            .iter()
            .enumerate()
            .map(|(i, n)| ((b'a' + i as u8) as char).to_string().repeat(*n))
            .collect();
        let [p1, p2, p3, p4, p5] = [0, 1, 2, 3, 4].map(|i| black_box(owned[i].as_str()));
        let total: usize = lens.iter().sum();
        let mut g = c.benchmark_group(name);
        let ps = (p1, p2, p3, p4, p5);
        g.bench_function("ito::format", |bn| {
            bn.iter(|| {
                let (p1, p2, p3, p4, p5) = black_box(ps);
                black_box(ito::format!("{p1}{p2}{p3}{p4}{p5}"))
            })
        });
        g.bench_function("ito::concat", |bn| {
            bn.iter(|| {
                let (p1, p2, p3, p4, p5) = black_box(ps);
                black_box(ito::concat!(p1, p2, p3, p4, p5))
            })
        });
        g.bench_function("std::format", |bn| {
            bn.iter(|| {
                let (p1, p2, p3, p4, p5) = black_box(ps);
                black_box(std::format!("{p1}{p2}{p3}{p4}{p5}"))
            })
        });
        g.bench_function("compact_str::format_compact", |bn| {
            bn.iter(|| {
                let (p1, p2, p3, p4, p5) = black_box(ps);
                black_box(format_compact!("{p1}{p2}{p3}{p4}{p5}"))
            })
        });
        g.bench_function("hand_written", |bn| {
            bn.iter(|| {
                let (p1, p2, p3, p4, p5) = black_box(ps);
                let mut s =
                    String::with_capacity(p1.len() + p2.len() + p3.len() + p4.len() + p5.len());
                s.push_str(p1);
                s.push_str(p2);
                s.push_str(p3);
                s.push_str(p4);
                s.push_str(p5);
                black_box(s)
            })
        });
        assert_eq!(ito::format!("{p1}{p2}{p3}{p4}{p5}").len(), total);
        g.finish();
    }
}

fn from_and_clone(c: &mut Criterion) {
    // 3, 11 (the median JSON string) and 21 bytes: inline.
    for short in ["abc", "short_key_1", "a_twenty_one_byte_key"] {
        let mut g = c.benchmark_group(format!("from/inline_{}B", short.len()));
        g.bench_function("Str::from", |bn| {
            bn.iter(|| black_box(Str::from(black_box(short))))
        });
        g.bench_function("CompactString::from", |bn| {
            bn.iter(|| black_box(CompactString::from(black_box(short))))
        });
        g.finish();
    }

    for n in [36, 64] {
        let long = "x".repeat(n);
        let long = long.as_str();
        let mut g = c.benchmark_group(format!("from/heap_{n}B"));
        g.bench_function("Str::from", |bn| {
            bn.iter(|| black_box(Str::from(black_box(long))))
        });
        g.bench_function("Box<str>::from", |bn| {
            bn.iter(|| black_box(Box::<str>::from(black_box(long))))
        });
        g.bench_function("Arc<str>::from", |bn| {
            bn.iter(|| black_box(Arc::<str>::from(black_box(long))))
        });
        g.bench_function("CompactString::from", |bn| {
            bn.iter(|| black_box(CompactString::from(black_box(long))))
        });
        g.finish();
    }

    let short = "short_key_1";
    let long = "x".repeat(64);
    let s_heap = Str::from(long.as_str());
    let a_heap: Arc<str> = Arc::from(long.as_str());
    let mut g = c.benchmark_group("clone/heap_64B");
    g.bench_function("Str", |bn| {
        bn.iter(|| black_box(black_box(&s_heap).clone()))
    });
    g.bench_function("Arc<str>", |bn| {
        bn.iter(|| black_box(black_box(&a_heap).clone()))
    });
    g.finish();

    let s_inline = Str::from(short);
    let c_inline = CompactString::from(short);
    let mut g = c.benchmark_group("clone/inline_11B");
    g.bench_function("Str", |bn| {
        bn.iter(|| black_box(black_box(&s_inline).clone()))
    });
    g.bench_function("CompactString", |bn| {
        bn.iter(|| black_box(black_box(&c_inline).clone()))
    });
    g.finish();

    let mut g = c.benchmark_group("facts/inline_11B");
    g.bench_function("is_json_safe", |bn| {
        bn.iter(|| black_box(black_box(&s_inline).is_json_safe()))
    });
    g.bench_function("is_ascii", |bn| {
        bn.iter(|| black_box(black_box(&s_inline).is_ascii()))
    });
    g.finish();

    let long = "x".repeat(200);
    let known = Str::from(long.as_str());
    assert!(known.is_json_safe());
    let mut g = c.benchmark_group("facts/heap_200B");
    g.bench_function("from+first_is_json_safe+drop", |bn| {
        bn.iter(|| {
            let s = Str::from(black_box(long.as_str()));
            black_box(s.is_json_safe());
            drop(black_box(s))
        })
    });
    g.bench_function("from+drop", |bn| {
        bn.iter(|| drop(black_box(Str::from(black_box(long.as_str())))))
    });
    g.bench_function("is_json_safe_known", |bn| {
        bn.iter(|| black_box(black_box(&known).is_json_safe()))
    });
    g.finish();
}

/// Criterion group `name`: `quote_str` of `s` beside `peer` writing the
/// same string into the same (cleared) buffer.
fn quote_pair(
    c: &mut Criterion,
    name: &str,
    s: &Str,
    peer_name: &str,
    peer: impl Fn(&mut Vec<u8>, &Str),
) {
    let mut g = c.benchmark_group(name);
    g.throughput(criterion::Throughput::Bytes(s.len() as u64));
    quote_case(&mut g, "quote_str", s, ito::str::quote_str);
    quote_case(&mut g, peer_name, s, peer);
    g.finish();
}

/// One case of [`quote_pair`], monomorphised for `f`.
fn quote_case(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    id: &str,
    s: &Str,
    f: impl Fn(&mut Vec<u8>, &Str),
) {
    let mut dst: Vec<u8> = Vec::with_capacity(8192);
    g.bench_function(id, |bn| {
        bn.iter(|| {
            dst.clear();
            f(&mut dst, black_box(s));
            black_box(dst.len())
        })
    });
}

fn quote(c: &mut Criterion) {
    let text: String = (0..4096).map(|i| (b'a' + (i % 26) as u8) as char).collect();
    let s = Str::from(text.as_str());
    assert!(s.is_json_safe() && s.is_heap());
    quote_pair(c, "quote_str/4KiB", &s, "memcpy", |dst, s| {
        dst.extend_from_slice(s.as_bytes())
    });
    let short = Str::from("short_key_1");
    quote_pair(
        c,
        "quote_str/inline_11B",
        &short,
        "json::quote",
        |dst, s| ito::json::quote(dst, s.as_str()),
    );

    let mut out = vec![0u8; 4096];
    let mut g = c.benchmark_group("facts/4KiB");
    g.throughput(criterion::Throughput::Bytes(4096));
    for k in Kernel::available() {
        g.bench_function(k.name(), |bn| {
            bn.iter(|| {
                black_box(ito::str::copy_facts_with_kernel(
                    k,
                    black_box(text.as_bytes()),
                    &mut out,
                ))
            })
        });
    }
    g.bench_function("copy_only", |bn| {
        bn.iter(|| {
            out.copy_from_slice(black_box(text.as_bytes()));
            black_box(out[17])
        })
    });
    g.finish();
}

/// A contender of the alternating runner: runs its operation `n` times.
type Contender<'a> = Box<dyn FnMut(u64) + 'a>;

/// Wrap one operation into a [`Contender`] (the loop is monomorphised, so
/// the per-call cost is the operation's own).
fn op<'a, F: FnMut() + 'a>(mut f: F) -> Contender<'a> {
    Box::new(move |n| {
        for _ in 0..n {
            f();
        }
    })
}

/// Time `a` and `b` alternately, `rounds` rounds of `iters` calls each
/// (order swapped every round). Returns (median ns of a, median ns of b,
/// median of the per-round ratios b/a, ratio of the fastest rounds).
fn alternate(rounds: usize, iters: u64, a: &mut Contender<'_>, b: &mut Contender<'_>) -> [f64; 4] {
    let time = |f: &mut Contender<'_>| {
        let t = std::time::Instant::now();
        f(iters);
        t.elapsed().as_secs_f64() * 1e9 / iters as f64
    };
    a(iters / 4 + 1); // warm up both
    b(iters / 4 + 1);
    let (mut ta, mut tb, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for r in 0..rounds {
        let (x, y) = if r % 2 == 0 {
            let x = time(a);
            (x, time(b))
        } else {
            let y = time(b);
            (time(a), y)
        };
        ta.push(x);
        tb.push(y);
        ratios.push(y / x);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let best = |v: &[f64]| v.iter().copied().fold(f64::MAX, f64::min);
    let (ba, bb) = (best(&ta), best(&tb));
    [
        median(&mut ta),
        median(&mut tb),
        median(&mut ratios),
        bb / ba,
    ]
}

/// One line of the lifecycle table.
fn row(name: &str, peer: &str, target: &str, r: [f64; 4]) {
    println!(
        "{name:34} ito {:7.2} ns  {peer:22} {:7.2} ns  peer/ito median {:5.2}  best {:5.2}  {target}",
        r[0], r[1], r[2], r[3]
    );
}

/// A build + drop loop reuses one allocation, so its place decides the
/// copy's cost for the whole row: bytes that straddle a 4 KiB page cost a
/// split store per copy (64 bytes: 22.7 ns instead of 16.4 ns; 150 bytes:
/// 28-29 ns instead of 16-17 ns; Zen 3, portable build, 2026-11-28, at
/// af068c7), whichever type is built. Before a heap row, allocations that
/// would straddle are set aside (held until the row is done), so a LIFO
/// allocator (glibc's) hands each contender's loop one that does not.
fn set_aside_straddling<T>(
    n: usize,
    make: impl Fn() -> T,
    bytes: impl Fn(&T) -> *const u8,
) -> Vec<T> {
    let mut held = Vec::new();
    for _ in 0..64 {
        let x = make();
        if (bytes(&x) as usize % 4096) + n <= 4096 {
            break; // dropped here: the loop's first build reuses it
        }
        held.push(x);
    }
    held
}

/// The lifecycle table (see the module doc): build + drop, clone + drop,
/// facts and quoting, every input `black_box`ed per call, every result
/// dropped inside the loop.
fn lifecycle() {
    let rounds: usize = std::env::var("ITO_STR_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    println!(
        "lifecycle table: {rounds} alternating rounds per pair; peer/ito > 1: ito faster ({})",
        ito_bench::cpu_name()
    );
    for s in ["abc", "short_key_1", "a_twenty_one_byte_key"] {
        let target = if s.len() == 21 { ">= 0.9" } else { ">= 1.0" };
        let r = alternate(
            rounds,
            20_000,
            &mut op(|| drop(black_box(Str::from(black_box(s))))),
            &mut op(|| drop(black_box(CompactString::from(black_box(s))))),
        );
        row(
            &format!("from+drop inline {}B", s.len()),
            "CompactString::from",
            target,
            r,
        );
    }
    for n in [36, 64, 200] {
        let long = "x".repeat(n);
        let long = long.as_str();
        let held = (
            set_aside_straddling(n, || Str::from(long), |s| s.as_ptr()),
            set_aside_straddling(n, || Box::<str>::from(long), |s| s.as_ptr()),
            set_aside_straddling(n, || Arc::<str>::from(long), |s| s.as_ptr()),
        );
        let r = alternate(
            rounds,
            10_000,
            &mut op(|| drop(black_box(Str::from(black_box(long))))),
            &mut op(|| drop(black_box(Box::<str>::from(black_box(long))))),
        );
        row(
            &format!("from+drop heap {n}B"),
            "Box<str>::from",
            ">= 0.95",
            r,
        );
        let r = alternate(
            rounds,
            10_000,
            &mut op(|| drop(black_box(Str::from(black_box(long))))),
            &mut op(|| drop(black_box(Arc::<str>::from(black_box(long))))),
        );
        row(&format!("from+drop heap {n}B"), "Arc<str>::from", "-", r);
        if !(held.0.is_empty() && held.1.is_empty() && held.2.is_empty()) {
            println!(
                "  (set aside page-straddling allocations before the {n}B rows: Str {}, Box {}, Arc {})",
                held.0.len(),
                held.1.len(),
                held.2.len()
            );
        }
        drop(held);
    }
    let long = "x".repeat(64);
    let (sh, ah) = (Str::from(long.as_str()), Arc::<str>::from(long.as_str()));
    let r = alternate(
        rounds,
        20_000,
        &mut op(|| drop(black_box(black_box(&sh).clone()))),
        &mut op(|| drop(black_box(black_box(&ah).clone()))),
    );
    row("clone+drop shared heap 64B", "Arc<str>", ">= 0.95", r);

    // Facts on demand: a fresh heap string pays its first query (a scan,
    // cached in the header); before 2026-11-27 `Str::from` paid a fused
    // classify instead, so "from+is_json_safe+drop" is compared with the
    // old "from+drop" row against the same peer. Later queries are one
    // load from the header.
    let long = "x".repeat(200);
    let long = long.as_str();
    let r = alternate(
        rounds,
        10_000,
        &mut op(|| {
            let s = Str::from(black_box(long));
            black_box(s.is_json_safe());
            drop(black_box(s))
        }),
        &mut op(|| drop(black_box(Box::<str>::from(black_box(long))))),
    );
    row(
        "from+is_json_safe+drop heap 200B",
        "Box<str>::from",
        "<= old from+drop",
        r,
    );
    let known = Str::from(long);
    assert!(known.is_json_safe());
    let c200 = CompactString::from(long);
    let r = alternate(
        rounds,
        20_000,
        &mut op(|| {
            black_box(black_box(&known).is_json_safe());
        }),
        &mut op(|| {
            black_box(black_box(&c200).len());
        }),
    );
    row(
        "is_json_safe heap 200B, known",
        "CompactString::len",
        "ito <= 2 ns",
        r,
    );
    // `quote_str` of a fresh heap string learns "JSON safe" from the
    // escaper's output length: against `json::quote` of the same `&str`,
    // both after the same `Str::from`.
    let mut q1: Vec<u8> = Vec::with_capacity(8192);
    let mut q2: Vec<u8> = Vec::with_capacity(8192);
    let escaped = format!("{}\"{}", "y".repeat(60), "z".repeat(139));
    for (name, text) in [
        ("36B", "a 36-byte string for quote_str tests"),
        ("200B", long),
        ("200B with a quote", escaped.as_str()),
    ] {
        let r = alternate(
            rounds,
            10_000,
            &mut op(|| {
                let s = Str::from(black_box(text));
                q1.clear();
                ito::str::quote_str(&mut q1, &s);
                black_box(q1.len());
                drop(black_box(s))
            }),
            &mut op(|| {
                let s = Str::from(black_box(text));
                q2.clear();
                ito::json::quote(&mut q2, s.as_str());
                black_box(q2.len());
                drop(black_box(s))
            }),
        );
        row(
            &format!("from+quote_str fresh heap {name}"),
            "from+json::quote(&str)",
            ">= 0.95 (<= 1.05x)",
            r,
        );
    }
    let text4k: String = (0..4096).map(|i| (b'a' + (i % 26) as u8) as char).collect();
    let s4k = Str::from(text4k.as_str());
    assert!(s4k.is_json_safe());
    let r = alternate(
        rounds,
        2_000,
        &mut op(|| {
            q1.clear();
            ito::str::quote_str(&mut q1, black_box(&s4k));
            black_box(q1.len());
        }),
        &mut op(|| {
            q2.clear();
            q2.extend_from_slice(black_box(&s4k).as_bytes());
            black_box(q2.len());
        }),
    );
    row("quote_str known safe 4KiB", "memcpy", ">= 0.9", r);
    let (si, ci) = (Str::from("short_key_1"), CompactString::from("short_key_1"));
    let r = alternate(
        rounds,
        20_000,
        &mut op(|| drop(black_box(black_box(&si).clone()))),
        &mut op(|| drop(black_box(black_box(&ci).clone()))),
    );
    row("clone+drop inline 11B", "CompactString", ">= 1.0", r);
    let r = alternate(
        rounds,
        20_000,
        &mut op(|| {
            black_box(black_box(&si).is_json_safe());
        }),
        &mut op(|| {
            black_box(black_box(&ci).len());
        }),
    );
    row(
        "is_json_safe inline 11B",
        "CompactString::len",
        "ito <= 2 ns",
        r,
    );
    let mut d1: Vec<u8> = Vec::with_capacity(256);
    let mut d2: Vec<u8> = Vec::with_capacity(256);
    for s in ["abc", "short_key_1", "a_twenty_one_byte_key"] {
        let st = Str::from(s);
        let r = alternate(
            rounds,
            20_000,
            &mut op(|| {
                d1.clear();
                ito::str::quote_str(&mut d1, black_box(&st));
                black_box(d1.len());
            }),
            &mut op(|| {
                d2.clear();
                ito::json::quote(&mut d2, black_box(s));
                black_box(d2.len());
            }),
        );
        row(
            &format!("quote_str inline {}B", s.len()),
            "json::quote(&str)",
            ">= 1.0",
            r,
        );
    }

    // format!/concat! vs the hand-written String, inputs black_boxed per
    // call ("per-call"), and the pre-2026-11-24 loops that black_boxed them
    // once outside the loop ("hoisted"), to show which figure is real.
    let (a, b) = ("hello", "a string of twenty-nine bytes");
    let hand2 = |a: &str, b: &str| {
        let mut s = String::with_capacity(a.len() + 2 + b.len());
        s.push_str(a);
        s.push_str(", ");
        s.push_str(b);
        s
    };
    const BOUND: &str = ">= 0.91 (<= 1.1x)";
    vs_hand(
        rounds,
        "format! 36B (3 pieces) per-call",
        BOUND,
        || {
            let (a, b) = black_box((a, b));
            drop(black_box(ito::format!("{a}, {b}")))
        },
        || {
            let (a, b) = black_box((a, b));
            drop(black_box(hand2(a, b)))
        },
    );
    vs_hand(
        rounds,
        "concat! 36B (3 pieces) per-call",
        BOUND,
        || {
            let (a, b) = black_box((a, b));
            drop(black_box(ito::concat!(a, ", ", b)))
        },
        || {
            let (a, b) = black_box((a, b));
            drop(black_box(hand2(a, b)))
        },
    );
    let (ha, hb) = black_box((a, b));
    vs_hand(
        rounds,
        "format! 36B hoisted (old loop)",
        "-",
        || drop(black_box(ito::format!("{ha}, {hb}"))),
        || drop(black_box(hand2(ha, hb))),
    );
    for lens in [[8usize, 16, 12, 20, 4], [30, 50, 40, 60, 20]] {
        let owned: Vec<String> = lens
            .iter()
            .enumerate()
            .map(|(i, n)| ((b'a' + i as u8) as char).to_string().repeat(*n))
            .collect();
        let ps = (
            owned[0].as_str(),
            owned[1].as_str(),
            owned[2].as_str(),
            owned[3].as_str(),
            owned[4].as_str(),
        );
        let total: usize = lens.iter().sum();
        let hand5 = |(p1, p2, p3, p4, p5): (&str, &str, &str, &str, &str)| {
            let mut s = String::with_capacity(p1.len() + p2.len() + p3.len() + p4.len() + p5.len());
            s.push_str(p1);
            s.push_str(p2);
            s.push_str(p3);
            s.push_str(p4);
            s.push_str(p5);
            s
        };
        vs_hand(
            rounds,
            &format!("format! {total}B (5 pieces) per-call"),
            BOUND,
            || {
                let (p1, p2, p3, p4, p5) = black_box(ps);
                drop(black_box(ito::format!("{p1}{p2}{p3}{p4}{p5}")))
            },
            || drop(black_box(hand5(black_box(ps)))),
        );
        vs_hand(
            rounds,
            &format!("concat! {total}B (5 pieces) per-call"),
            BOUND,
            || {
                let (p1, p2, p3, p4, p5) = black_box(ps);
                drop(black_box(ito::concat!(p1, p2, p3, p4, p5)))
            },
            || drop(black_box(hand5(black_box(ps)))),
        );
        let (p1, p2, p3, p4, p5) = black_box(ps);
        vs_hand(
            rounds,
            &format!("format! {total}B hoisted (old loop)"),
            "-",
            || drop(black_box(ito::format!("{p1}{p2}{p3}{p4}{p5}"))),
            || drop(black_box(hand5((p1, p2, p3, p4, p5)))),
        );
    }
}

/// One row of the lifecycle table: `ito` against the hand-written `String`.
fn vs_hand(rounds: usize, name: &str, target: &str, ito: impl FnMut(), hand: impl FnMut()) {
    let r = alternate(rounds, 10_000, &mut op(ito), &mut op(hand));
    row(name, "String hand-written", target, r);
}

criterion_group!(benches, interp, from_and_clone, quote);

fn main() {
    if std::env::var_os("ITO_STR_ALTERNATE").is_some() {
        lifecycle();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
