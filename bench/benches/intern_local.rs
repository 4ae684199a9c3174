//! Benchmarks of the single-threaded `ito::intern::LocalInterner` against
//! lasso's `Rodeo`, string-interner's default `StringInterner`, and ito's
//! thread-safe `Interner` (the same workloads as `benches/intern.rs`).
//!
//! `cargo bench -p ito-bench --bench intern_local -- --warm-up-time 1 --measurement-time 3`
//!
//! Printed sections (before criterion; `ITO_BENCH_ONLY=memory|ratios|growth`
//! runs one of them and exits, `ITO_BENCH_SKIP_CUSTOM` skips them):
//! - memory per entry (counting global allocator) at 6k/100k/1M identifiers
//!   and the twitter words;
//! - best-of-25 interleaved hit/miss ratios (the stable numbers on a noisy
//!   host), plus 800 similar 1 MiB strings beside a 1 MiB memcpy;
//! - growth: 2,000,000 distinct strings interned one at a time, p99.99 and
//!   maximum single-insert latency.
//!
//! Criterion groups: `intern_local/hit/*`, `intern_local/miss/*`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, Throughput};
use ito::intern::LocalInterner;

#[global_allocator]
static GLOBAL: ito_bench::CountingAlloc = ito_bench::CountingAlloc;

use ito_bench::{count_bytes as measure, distinct, identifiers, twitter_words};

type SI = string_interner::DefaultStringInterner;

// ---------------------------------------------------------------------------
// Criterion: single-thread hit and miss.

fn single_thread(c: &mut Criterion, name: &str, words: &[String]) {
    let uniq = distinct(words);
    let mut g = c.benchmark_group(format!("intern_local/hit/{name}"));
    g.throughput(Throughput::Elements(words.len() as u64));
    let mut local = LocalInterner::new();
    let shared = ito::Interner::new();
    let mut rodeo = lasso::Rodeo::default();
    let mut si = SI::new();
    for s in &uniq {
        local.intern(s);
        shared.intern(s);
        rodeo.get_or_intern(s);
        si.get_or_intern(s);
    }
    g.bench_function("ito-LocalInterner", |b| {
        b.iter(|| {
            for s in words {
                black_box(local.intern(s));
            }
        })
    });
    g.bench_function("ito-LocalInterner-get", |b| {
        b.iter(|| {
            for s in words {
                black_box(local.get(s));
            }
        })
    });
    g.bench_function("ito-Interner", |b| {
        b.iter(|| {
            for s in words {
                black_box(shared.intern(s));
            }
        })
    });
    g.bench_function("lasso-Rodeo", |b| {
        b.iter(|| {
            for s in words {
                black_box(rodeo.get_or_intern(s));
            }
        })
    });
    g.bench_function("string-interner", |b| {
        b.iter(|| {
            for s in words {
                black_box(si.get_or_intern(s));
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group(format!("intern_local/miss/{name}"));
    g.throughput(Throughput::Elements(uniq.len() as u64));
    g.bench_function("ito-LocalInterner", |b| {
        b.iter_batched(
            LocalInterner::new,
            |mut t| {
                for s in &uniq {
                    black_box(t.intern(s));
                }
                t
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function("ito-Interner", |b| {
        b.iter_batched(
            ito::Interner::new,
            |t| {
                for s in &uniq {
                    black_box(t.intern(s));
                }
                t
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function("lasso-Rodeo", |b| {
        b.iter_batched(
            lasso::Rodeo::default,
            |mut t| {
                for s in &uniq {
                    black_box(t.get_or_intern(s));
                }
                t
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function("string-interner", |b| {
        b.iter_batched(
            SI::new,
            |mut t| {
                for s in &uniq {
                    black_box(t.get_or_intern(s));
                }
                t
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

// ---------------------------------------------------------------------------
// Memory per entry.

fn memory_report(datasets: &[(&str, Vec<String>)]) {
    println!("\n== memory per entry (counting allocator; bytes beyond the string bytes in parentheses) ==");
    for (name, words) in datasets {
        let n = words.len() as f64;
        let bytes: usize = words.iter().map(String::len).sum();
        let per = |total: isize| {
            format!(
                "{:6.1} B/entry ({:5.1})",
                total as f64 / n,
                (total as f64 - bytes as f64) / n
            )
        };
        let (local, local_b) = measure(|| {
            let mut t = LocalInterner::new();
            words.iter().for_each(|s| {
                t.intern(s);
            });
            t
        });
        let reported = local.memory_usage();
        let (shared, shared_b) = measure(|| {
            let t = ito::Interner::new();
            words.iter().for_each(|s| {
                t.intern(s);
            });
            t
        });
        let (rodeo, rodeo_b) = measure(|| {
            let mut t = lasso::Rodeo::default();
            words.iter().for_each(|s| {
                t.get_or_intern(s);
            });
            t
        });
        let (si, si_b) = measure(|| {
            let mut t = SI::new();
            words.iter().for_each(|s| {
                t.get_or_intern(s);
            });
            t
        });
        println!(
            "{name:>22}: n={:7} avg {:5.1} B | LocalInterner {} [memory_usage() {:.1}] | Interner {} | lasso Rodeo {} | string-interner {} | local/string-interner {:.2}",
            words.len(),
            bytes as f64 / n,
            per(local_b),
            reported as f64 / n,
            per(shared_b),
            per(rodeo_b),
            per(si_b),
            local_b as f64 / si_b as f64,
        );
        drop((local, shared, rodeo, si));
    }
}

// ---------------------------------------------------------------------------
// Growth latency.

fn preemptions() -> i64 {
    // SAFETY: getrusage writes one `rusage` struct we own.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_THREAD, &mut usage);
        usage.ru_nivcsw
    }
}

/// Print latency percentiles; `preempted` marks inserts during which the
/// thread was descheduled (so their time is the scheduler's, not ours).
fn percentiles(name: &str, lat: &mut [u32], preempted: &[bool]) {
    let clean_max = lat
        .iter()
        .zip(preempted)
        .filter(|(_, &p)| !p)
        .map(|(&l, _)| l)
        .max()
        .unwrap_or(0);
    let clean_over = lat
        .iter()
        .zip(preempted)
        .filter(|(&l, &p)| !p && l > 50_000)
        .count();
    let n_preempted = preempted.iter().filter(|&&p| p).count();
    // Where the slowest clean inserts happened (to relate them to resizes).
    let mut worst: Vec<(u32, usize)> = lat
        .iter()
        .zip(preempted)
        .enumerate()
        .filter(|(_, (_, &p))| !p)
        .map(|(i, (&l, _))| (l, i))
        .collect();
    worst.sort_unstable_by(|a, b| b.cmp(a));
    worst.truncate(4);
    lat.sort_unstable();
    let at = |q: f64| lat[((lat.len() as f64 * q) as usize).min(lat.len() - 1)];
    let (p50, p99, p9999, max) = (at(0.5), at(0.99), at(0.9999), lat[lat.len() - 1]);
    println!(
        "{name:>22}: p50 {p50:>6} ns  p99 {p99:>6} ns  p99.99 {p9999:>8} ns  max {max:>10} ns | not preempted: max {clean_max:>9} ns, >50 µs: {clean_over} ({n_preempted} preempted) | slowest clean (ns @ insert #): {worst:?}"
    );
}

fn growth_report() {
    const N: usize = 2_000_000;
    let runs: usize = std::env::var("ITO_BENCH_GROWTH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    println!("\n== growth: {N} distinct strings interned one at a time ({runs} runs each) ==");
    let keys: Vec<String> = (0..N).map(|i| format!("grow_{i}_key")).collect();
    let mut lat = vec![0u32; N];
    let mut preempted = vec![false; N];
    let time = |lat: &mut Vec<u32>, preempted: &mut Vec<bool>, mut f: Box<dyn FnMut(&str) + '_>| {
        let mut seen = preemptions();
        for ((slot, p), k) in lat.iter_mut().zip(preempted.iter_mut()).zip(&keys) {
            let start = Instant::now();
            f(k);
            let ns = start.elapsed().as_nanos().min(u32::MAX as u128) as u32;
            *slot = ns;
            *p = false;
            if ns > 20_000 {
                let now = preemptions();
                *p = now != seen;
                seen = now;
            }
        }
    };
    for run in 0..runs {
        {
            let mut t = LocalInterner::new();
            time(
                &mut lat,
                &mut preempted,
                Box::new(|k| {
                    black_box(t.intern(k));
                }),
            );
            percentiles(&format!("LocalInterner #{run}"), &mut lat, &preempted);
        }
        {
            let t = ito::Interner::new();
            time(
                &mut lat,
                &mut preempted,
                Box::new(|k| {
                    black_box(t.intern(k));
                }),
            );
            percentiles(&format!("Interner #{run}"), &mut lat, &preempted);
        }
        {
            let mut t = lasso::Rodeo::default();
            time(
                &mut lat,
                &mut preempted,
                Box::new(|k| {
                    black_box(t.get_or_intern(k));
                }),
            );
            percentiles(&format!("lasso Rodeo #{run}"), &mut lat, &preempted);
        }
        {
            let mut t = SI::new();
            time(
                &mut lat,
                &mut preempted,
                Box::new(|k| {
                    black_box(t.get_or_intern(k));
                }),
            );
            percentiles(&format!("string-interner #{run}"), &mut lat, &preempted);
        }
    }
}

// ---------------------------------------------------------------------------
// Interleaved best-of-N ratios.

use ito_bench::best_of;

fn print_ratios(title: &str, per: u64, results: &[(String, Duration)]) {
    let ito = results[0].1.as_nanos() as f64;
    let cells: Vec<String> = results
        .iter()
        .map(|(n, d)| {
            let ns = d.as_nanos() as f64 / per as f64;
            if n == &results[0].0 {
                format!("{n} {ns:.1} ns")
            } else {
                format!("{n} {ns:.1} ns ({:.2}x)", d.as_nanos() as f64 / ito)
            }
        })
        .collect();
    println!("{title:>34}: {}", cells.join(" | "));
}

fn timed(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

fn ratio_report(ids: &[String], words: &[String]) {
    println!(
        "\n== best of 25 interleaved runs, per operation (x = how much faster LocalInterner is) =="
    );
    for (name, data) in [("identifiers", ids), ("twitter words", words)] {
        let uniq = distinct(data);
        let mut local = LocalInterner::new();
        let shared = ito::Interner::new();
        let mut rodeo = lasso::Rodeo::default();
        let mut si = SI::new();
        for s in &uniq {
            local.intern(s);
            shared.intern(s);
            rodeo.get_or_intern(s);
            si.get_or_intern(s);
        }
        let r = best_of(
            25,
            &mut [
                (
                    "LocalInterner",
                    Box::new(|| {
                        timed(|| {
                            data.iter().for_each(|s| {
                                black_box(local.intern(s));
                            })
                        })
                    }),
                ),
                (
                    "Interner",
                    Box::new(|| {
                        timed(|| {
                            data.iter().for_each(|s| {
                                black_box(shared.intern(s));
                            })
                        })
                    }),
                ),
                (
                    "lasso",
                    Box::new(|| {
                        timed(|| {
                            data.iter().for_each(|s| {
                                black_box(rodeo.get_or_intern(s));
                            })
                        })
                    }),
                ),
                (
                    "string-interner",
                    Box::new(|| {
                        timed(|| {
                            data.iter().for_each(|s| {
                                black_box(si.get_or_intern(s));
                            })
                        })
                    }),
                ),
            ],
        );
        print_ratios(&format!("hit {name}"), data.len() as u64, &r);
        let r = best_of(
            25,
            &mut [
                (
                    "LocalInterner",
                    Box::new(|| {
                        let mut t = LocalInterner::new();
                        let d = timed(|| {
                            uniq.iter().for_each(|s| {
                                black_box(t.intern(s));
                            })
                        });
                        drop(t);
                        d
                    }),
                ),
                (
                    "Interner",
                    Box::new(|| {
                        let t = ito::Interner::new();
                        let d = timed(|| {
                            uniq.iter().for_each(|s| {
                                black_box(t.intern(s));
                            })
                        });
                        drop(t);
                        d
                    }),
                ),
                (
                    "lasso",
                    Box::new(|| {
                        let mut t = lasso::Rodeo::default();
                        let d = timed(|| {
                            uniq.iter().for_each(|s| {
                                black_box(t.get_or_intern(s));
                            })
                        });
                        drop(t);
                        d
                    }),
                ),
                (
                    "string-interner",
                    Box::new(|| {
                        let mut t = SI::new();
                        let d = timed(|| {
                            uniq.iter().for_each(|s| {
                                black_box(t.get_or_intern(s));
                            })
                        });
                        drop(t);
                        d
                    }),
                ),
            ],
        );
        print_ratios(&format!("miss {name}"), uniq.len() as u64, &r);
    }
    similar_megabytes();
}

// ---------------------------------------------------------------------------
// 800 similar 1 MiB strings: per string, beside a 1 MiB memcpy.

const MIB: usize = 1 << 20;
const SIMILAR: usize = 800;

/// Make `buf` the `i`-th similar string (one byte near the end differs).
fn set_similar(buf: &mut [u8], i: usize) {
    let n = buf.len();
    buf[n - 1] = b'A' + (i % 26) as u8;
    buf[n - 2] = b'0' + (i / 26 % 10) as u8;
    buf[n - 3] = b'0' + (i / 260 % 10) as u8;
}

fn as_str(buf: &[u8]) -> &str {
    std::str::from_utf8(buf).expect("ascii")
}

fn similar_megabytes() {
    let mut buf = vec![b'a'; MIB];
    let mut dst = vec![0u8; MIB];
    let src = vec![b'a'; MIB];
    let mut local = LocalInterner::new();
    let mut rodeo = lasso::Rodeo::default();
    for i in 0..SIMILAR {
        set_similar(&mut buf, i);
        local.intern(as_str(&buf));
        rodeo.get_or_intern(as_str(&buf));
    }
    set_similar(&mut buf, 123);
    let s = as_str(&buf).to_owned();
    let r = best_of(
        25,
        &mut [
            (
                "LocalInterner hit",
                Box::new(|| {
                    timed(|| {
                        black_box(local.intern(&s));
                    })
                }),
            ),
            (
                "memcpy",
                Box::new(|| timed(|| dst.copy_from_slice(black_box(&src)))),
            ),
            (
                "lasso hit",
                Box::new(|| {
                    timed(|| {
                        black_box(rodeo.get_or_intern(&s));
                    })
                }),
            ),
        ],
    );
    print_ratios("1 MiB similar, hit", 1, &r);
    drop((local, rodeo));
    let mut n = 0usize;
    let mut fresh = LocalInterner::new();
    let r = best_of(
        25,
        &mut [
            (
                "LocalInterner miss",
                Box::new(|| {
                    n += 1;
                    set_similar(&mut buf, n);
                    let s = as_str(&buf);
                    timed(|| {
                        black_box(fresh.intern(s));
                    })
                }),
            ),
            (
                "memcpy",
                Box::new(|| timed(|| dst.copy_from_slice(black_box(&src)))),
            ),
        ],
    );
    print_ratios("1 MiB similar, miss", 1, &r);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--test" || a == "--list");
    let ids = identifiers(6000, 0x1d5);
    let words = twitter_words();
    let only = std::env::var("ITO_BENCH_ONLY").ok();
    let want = |section: &str| only.as_deref().is_none_or(|o| o == section);
    if !quick && std::env::var_os("ITO_BENCH_SKIP_CUSTOM").is_none() {
        println!("CPU: {}", cpu_name());
        if only.as_deref() == Some("profile-hit") {
            // A loop to run under `perf record`: LocalInterner hits only.
            let mut t = LocalInterner::new();
            ids.iter().for_each(|s| {
                t.intern(s);
            });
            for _ in 0..20_000 {
                for s in &ids {
                    black_box(t.intern(black_box(s)));
                }
            }
            return;
        }
        if want("memory") {
            memory_report(&[
                ("identifiers (6000)", ids.clone()),
                ("twitter words", distinct(&words)),
                ("identifiers (100k)", identifiers(100_000, 7)),
                ("identifiers (1M)", identifiers(1_000_000, 9)),
            ]);
        }
        if want("ratios") {
            ratio_report(&ids, &words);
        }
        if want("growth") {
            growth_report();
        }
        if only.is_some() {
            return;
        }
    }
    let mut c = Criterion::default().configure_from_args();
    single_thread(&mut c, "identifiers", &ids);
    single_thread(&mut c, "twitter-words", &words);
    c.final_summary();
}

fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".into())
}
