//! Interning benchmarks: ito vs lasso, string-interner and internment.
//!
//! Criterion groups (ratios are what matter; run with
//! `cargo bench -p ito-bench --bench intern -- --warm-up-time 1 --measurement-time 3`):
//! - `intern/hit/*`, `intern/miss/*`: 6,000 synthetic identifiers (mean
//!   12.5 bytes) and the whitespace-separated words of twitter.json's
//!   strings; single thread, vs `lasso::Rodeo` and `string_interner`.
//! - `intern/2threads-hit/*`, `intern/2threads-miss/*`: two threads on one
//!   shared table, vs `lasso::ThreadedRodeo`.
//! - `intern/1MiB-similar/*`: 800 distinct 1 MiB strings differing in one
//!   byte near the end: miss and hit per string, beside a 1 MiB memcpy.
//!
//! Printed sections (custom timing loops, run before criterion unless
//! `ITO_BENCH_SKIP_CUSTOM` is set or criterion runs in `--test`/`--list` mode;
//! `ITO_BENCH_ONLY=memory|ratios|growth` runs just one of them):
//! - memory per entry (counting global allocator);
//! - best-of-25 interleaved hit/miss ratios (single thread, 2 threads,
//!   1 MiB similar strings): the stable numbers on a noisy host;
//! - growth: 2,000,000 distinct strings interned one at a time, p99.99 and
//!   maximum single-insert latency.
//! - `ITO_BENCH_ONLY=ops ITO_OPS=<impl>-<hit|miss>[-words] ITO_ROUNDS=<n>`
//!   (impl: ito, lasso, si) runs one implementation `n` rounds over the
//!   6,000 identifiers (or twitter words) and nothing else: a driver for
//!   `valgrind --tool=callgrind`. Instructions per operation are
//!   `(Ir(n = 11) - Ir(n = 1)) / (10 × strings)`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, Throughput};

#[global_allocator]
static GLOBAL: ito_bench::CountingAlloc = ito_bench::CountingAlloc;

use ito_bench::{count_bytes as measure, distinct, identifiers, twitter_words, Rng};

type SI = string_interner::DefaultStringInterner;

// ---------------------------------------------------------------------------
// Single thread.

fn single_thread(c: &mut Criterion, name: &str, words: &[String]) {
    let uniq = distinct(words);
    let mut g = c.benchmark_group(format!("intern/hit/{name}"));
    g.throughput(Throughput::Elements(words.len() as u64));
    {
        let interner = ito::Interner::new();
        uniq.iter().for_each(|s| {
            interner.intern(s);
        });
        g.bench_function("ito", |b| {
            b.iter(|| {
                for s in words {
                    black_box(interner.intern(s));
                }
            })
        });
        g.bench_function("ito-get", |b| {
            b.iter(|| {
                for s in words {
                    black_box(interner.get(s));
                }
            })
        });
        let frozen = interner.freeze();
        g.bench_function("ito-frozen-get", |b| {
            b.iter(|| {
                for s in words {
                    black_box(frozen.get(s));
                }
            })
        });
    }
    {
        let mut rodeo = lasso::Rodeo::default();
        uniq.iter().for_each(|s| {
            rodeo.get_or_intern(s);
        });
        g.bench_function("lasso-Rodeo", |b| {
            b.iter(|| {
                for s in words {
                    black_box(rodeo.get_or_intern(s));
                }
            })
        });
    }
    {
        let mut si = SI::new();
        uniq.iter().for_each(|s| {
            si.get_or_intern(s);
        });
        g.bench_function("string-interner", |b| {
            b.iter(|| {
                for s in words {
                    black_box(si.get_or_intern(s));
                }
            })
        });
    }
    g.finish();

    // Miss: intern every distinct word into a fresh table (growth included).
    let mut g = c.benchmark_group(format!("intern/miss/{name}"));
    g.throughput(Throughput::Elements(uniq.len() as u64));
    g.bench_function("ito", |b| {
        b.iter_batched(
            ito::Interner::new,
            |interner| {
                for s in &uniq {
                    black_box(interner.intern(s));
                }
                interner
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function("lasso-Rodeo", |b| {
        b.iter_batched(
            lasso::Rodeo::default,
            |mut rodeo| {
                for s in &uniq {
                    black_box(rodeo.get_or_intern(s));
                }
                rodeo
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function("string-interner", |b| {
        b.iter_batched(
            SI::new,
            |mut si| {
                for s in &uniq {
                    black_box(si.get_or_intern(s));
                }
                si
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

// ---------------------------------------------------------------------------
// Two threads on one shared table.

/// Run `work` on two threads `iters` times each; wall time.
fn two_threads(iters: u64, work: impl Fn(u64) + Sync) -> Duration {
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                for i in 0..iters {
                    work(i);
                }
            });
        }
    });
    start.elapsed()
}

fn two_threaded(c: &mut Criterion, name: &str, words: &[String]) {
    let uniq = distinct(words);
    let mut g = c.benchmark_group(format!("intern/2threads-hit/{name}"));
    g.throughput(Throughput::Elements(2 * words.len() as u64));
    {
        let interner = ito::Interner::new();
        uniq.iter().for_each(|s| {
            interner.intern(s);
        });
        g.bench_function("ito", |b| {
            b.iter_custom(|iters| {
                two_threads(iters, |_| {
                    for s in words {
                        black_box(interner.intern(s));
                    }
                })
            })
        });
    }
    {
        let rodeo = lasso::ThreadedRodeo::default();
        uniq.iter().for_each(|s| {
            rodeo.get_or_intern(s);
        });
        g.bench_function("lasso-ThreadedRodeo", |b| {
            b.iter_custom(|iters| {
                two_threads(iters, |_| {
                    for s in words {
                        black_box(rodeo.get_or_intern(s));
                    }
                })
            })
        });
    }
    g.finish();

    // Both threads intern every distinct word into a fresh shared table:
    // each word is one miss and one (racing) hit.
    let mut g = c.benchmark_group(format!("intern/2threads-miss/{name}"));
    g.throughput(Throughput::Elements(2 * uniq.len() as u64));
    g.bench_function("ito", |b| {
        b.iter_custom(|iters| {
            let tables: Vec<ito::Interner> = (0..iters).map(|_| ito::Interner::new()).collect();
            two_threads(iters, |i| {
                let t = &tables[i as usize];
                for s in &uniq {
                    black_box(t.intern(s));
                }
            })
        })
    });
    g.bench_function("lasso-ThreadedRodeo", |b| {
        b.iter_custom(|iters| {
            let tables: Vec<lasso::ThreadedRodeo> = (0..iters)
                .map(|_| lasso::ThreadedRodeo::default())
                .collect();
            two_threads(iters, |i| {
                let t = &tables[i as usize];
                for s in &uniq {
                    black_box(t.get_or_intern(s));
                }
            })
        })
    });
    g.finish();
}

// ---------------------------------------------------------------------------
// 800 similar 1 MiB strings.

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

/// Time `iters` misses: each interns the next similar string into `table`,
/// which is replaced (untimed) after every `SIMILAR` strings.
fn miss_loop<T>(iters: u64, new: impl Fn() -> T, mut intern: impl FnMut(&mut T, &str)) -> Duration {
    let mut buf = vec![b'a'; MIB];
    let mut table = new();
    let mut total = Duration::ZERO;
    for k in 0..iters as usize {
        let i = k % SIMILAR;
        if i == 0 && k > 0 {
            table = new();
        }
        set_similar(&mut buf, i);
        let s = as_str(&buf); // UTF-8 check outside the timed region
        let start = Instant::now();
        intern(&mut table, s);
        total += start.elapsed();
    }
    total
}

fn hit_loop(iters: u64, mut intern: impl FnMut(&str)) -> Duration {
    let mut buf = vec![b'a'; MIB];
    let mut total = Duration::ZERO;
    for k in 0..iters as usize {
        set_similar(&mut buf, k % SIMILAR);
        let s = as_str(&buf); // UTF-8 check outside the timed region
        let start = Instant::now();
        intern(s);
        total += start.elapsed();
    }
    total
}

fn similar_megabytes(c: &mut Criterion) {
    let mut g = c.benchmark_group("intern/1MiB-similar");
    g.throughput(Throughput::Bytes(MIB as u64));
    g.sample_size(20);
    let src = vec![b'a'; MIB];
    let mut dst = vec![0u8; MIB];
    g.bench_function("memcpy", |b| {
        b.iter(|| dst.copy_from_slice(black_box(&src)));
    });
    g.bench_function("alloc+memcpy", |b| {
        b.iter(|| black_box(black_box(&src).to_vec()));
    });
    g.bench_function("miss/ito", |b| {
        b.iter_custom(|iters| {
            miss_loop(iters, ito::Interner::new, |t, s| {
                black_box(t.intern(s));
            })
        })
    });
    g.bench_function("miss/ito-Pool", |b| {
        b.iter_custom(|iters| {
            miss_loop(
                iters,
                || (ito::Pool::new(), Vec::new()),
                |(pool, keep), s| keep.push(pool.intern(s)),
            )
        })
    });
    g.bench_function("miss/lasso-Rodeo", |b| {
        b.iter_custom(|iters| {
            miss_loop(iters, lasso::Rodeo::default, |t, s| {
                black_box(t.get_or_intern(s));
            })
        })
    });
    g.bench_function("miss/internment-ArcIntern", |b| {
        b.iter_custom(|iters| {
            miss_loop(iters, Vec::new, |keep, s| {
                keep.push(internment::ArcIntern::<str>::from(s))
            })
        })
    });
    let mut buf = vec![b'a'; MIB];
    {
        let interner = ito::Interner::new();
        for i in 0..SIMILAR {
            set_similar(&mut buf, i);
            interner.intern(as_str(&buf));
        }
        g.bench_function("hit/ito", |b| {
            b.iter_custom(|iters| {
                hit_loop(iters, |s| {
                    black_box(interner.intern(s));
                })
            })
        });
    }
    {
        let pool = ito::Pool::new();
        let mut keep = Vec::new();
        for i in 0..SIMILAR {
            set_similar(&mut buf, i);
            keep.push(pool.intern(as_str(&buf)));
        }
        g.bench_function("hit/ito-Pool", |b| {
            b.iter_custom(|iters| {
                hit_loop(iters, |s| {
                    black_box(pool.intern(s));
                })
            })
        });
    }
    {
        let mut rodeo = lasso::Rodeo::default();
        for i in 0..SIMILAR {
            set_similar(&mut buf, i);
            rodeo.get_or_intern(as_str(&buf));
        }
        g.bench_function("hit/lasso-Rodeo", |b| {
            b.iter_custom(|iters| {
                hit_loop(iters, |s| {
                    black_box(rodeo.get_or_intern(s));
                })
            })
        });
    }
    {
        let mut keep = Vec::new();
        for i in 0..SIMILAR {
            set_similar(&mut buf, i);
            keep.push(internment::ArcIntern::<str>::from(as_str(&buf)));
        }
        g.bench_function("hit/internment-ArcIntern", |b| {
            b.iter_custom(|iters| {
                hit_loop(iters, |s| {
                    black_box(internment::ArcIntern::<str>::from(s));
                })
            })
        });
    }
    g.finish();
}

// ---------------------------------------------------------------------------
// Printed sections: memory per entry, growth latency.

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
        let (ito_t, ito_b) = measure(|| {
            let t = ito::Interner::new();
            words.iter().for_each(|s| {
                t.intern(s);
            });
            t
        });
        let reported = ito_t.memory_usage();
        let (frozen, frozen_b) = measure(|| ito_t.freeze());
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
            "{name:>22}: n={:7} avg {:5.1} B | ito {} [memory_usage() {:.1}] | ito Frozen {} | lasso Rodeo {} | string-interner {} | ito/string-interner {:.2}",
            words.len(),
            bytes as f64 / n,
            per(ito_b),
            reported as f64 / n,
            per(ito_b + frozen_b),
            per(rodeo_b),
            per(si_b),
            ito_b as f64 / si_b as f64,
        );
        drop((frozen, rodeo, si));
    }
}

/// Involuntary context switches of this thread so far.
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
    lat.sort_unstable();
    let at = |q: f64| lat[((lat.len() as f64 * q) as usize).min(lat.len() - 1)];
    let (p50, p99, p9999, max) = (at(0.5), at(0.99), at(0.9999), lat[lat.len() - 1]);
    println!(
        "{name:>22}: p50 {p50:>6} ns  p99 {p99:>6} ns  p99.99 {p9999:>8} ns  max {max:>10} ns | not preempted: max {clean_max:>9} ns, >50 µs: {clean_over} ({n_preempted} preempted)"
    );
}

fn growth_report() {
    const N: usize = 2_000_000;
    println!("\n== growth: {N} distinct strings interned one at a time (3 runs each) ==");
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
    for run in 0..3 {
        {
            let t = ito::Interner::new();
            time(
                &mut lat,
                &mut preempted,
                Box::new(|k| {
                    black_box(t.intern(k));
                }),
            );
            percentiles(&format!("ito #{run}"), &mut lat, &preempted);
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
// Interleaved best-of-N ratios: on a shared, noisy host the minimum of many
// alternating runs is the most stable estimate of each implementation's cost.

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
                format!(
                    "{n} {ns:.1} ns (ito {:.2}x faster)",
                    d.as_nanos() as f64 / ito
                )
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
    println!("\n== best of 25 interleaved runs, per operation ==");
    for (name, data) in [("identifiers", ids), ("twitter words", words)] {
        let uniq = distinct(data);
        let ito_t = ito::Interner::new();
        let mut rodeo = lasso::Rodeo::default();
        let mut si = SI::new();
        let threaded = lasso::ThreadedRodeo::default();
        for s in &uniq {
            ito_t.intern(s);
            rodeo.get_or_intern(s);
            si.get_or_intern(s);
            threaded.get_or_intern(s);
        }
        let r = best_of(
            25,
            &mut [
                (
                    "ito",
                    Box::new(|| {
                        timed(|| {
                            data.iter().for_each(|s| {
                                black_box(ito_t.intern(s));
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
                    "ito",
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
        let r = best_of(
            25,
            &mut [
                (
                    "ito",
                    Box::new(|| {
                        two_threads(4, |_| {
                            data.iter().for_each(|s| {
                                black_box(ito_t.intern(s));
                            })
                        })
                    }),
                ),
                (
                    "lasso ThreadedRodeo",
                    Box::new(|| {
                        two_threads(4, |_| {
                            data.iter().for_each(|s| {
                                black_box(threaded.get_or_intern(s));
                            })
                        })
                    }),
                ),
            ],
        );
        print_ratios(&format!("2 threads hit {name}"), 8 * data.len() as u64, &r);
        let r = best_of(
            25,
            &mut [
                (
                    "ito",
                    Box::new(|| {
                        let t = ito::Interner::new();
                        two_threads(1, |_| {
                            uniq.iter().for_each(|s| {
                                black_box(t.intern(s));
                            })
                        })
                    }),
                ),
                (
                    "lasso ThreadedRodeo",
                    Box::new(|| {
                        let t = lasso::ThreadedRodeo::default();
                        two_threads(1, |_| {
                            uniq.iter().for_each(|s| {
                                black_box(t.get_or_intern(s));
                            })
                        })
                    }),
                ),
            ],
        );
        print_ratios(&format!("2 threads miss {name}"), 2 * uniq.len() as u64, &r);
    }
    // 1 MiB similar strings: per string, beside a 1 MiB memcpy.
    let mut buf = vec![b'a'; MIB];
    let mut dst = vec![0u8; MIB];
    let src = vec![b'a'; MIB];
    let t = ito::Interner::new();
    let mut rodeo = lasso::Rodeo::default();
    let mut keep = Vec::new();
    for i in 0..SIMILAR {
        set_similar(&mut buf, i);
        t.intern(as_str(&buf));
        rodeo.get_or_intern(as_str(&buf));
        keep.push(internment::ArcIntern::<str>::from(as_str(&buf)));
    }
    set_similar(&mut buf, 123);
    let s = as_str(&buf).to_owned();
    let r = best_of(
        25,
        &mut [
            (
                "ito hit",
                Box::new(|| {
                    timed(|| {
                        black_box(t.intern(&s));
                    })
                }),
            ),
            (
                "memcpy",
                Box::new(|| timed(|| dst.copy_from_slice(black_box(&src)))),
            ),
            (
                "alloc+memcpy",
                Box::new(|| {
                    timed(|| {
                        black_box(black_box(&src).to_vec());
                    })
                }),
            ),
            (
                "lasso hit",
                Box::new(|| {
                    timed(|| {
                        black_box(rodeo.get_or_intern(&s));
                    })
                }),
            ),
            (
                "internment hit",
                Box::new(|| {
                    timed(|| {
                        black_box(internment::ArcIntern::<str>::from(s.as_str()));
                    })
                }),
            ),
        ],
    );
    print_ratios("1 MiB similar, hit (x = vs ito)", 1, &r);
    drop((t, rodeo, keep));
    let (mut n, mut m, mut k) = (0usize, 0usize, 0usize);
    let fresh = ito::Interner::new();
    let mut fresh_rodeo = lasso::Rodeo::default();
    let mut fresh_keep = Vec::new();
    let r = best_of(
        25,
        &mut [
            (
                "ito miss",
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
            (
                "alloc+memcpy",
                Box::new(|| {
                    timed(|| {
                        black_box(black_box(&src).to_vec());
                    })
                }),
            ),
            (
                "lasso miss",
                Box::new(|| {
                    m += 1;
                    let mut b = vec![b'b'; MIB];
                    set_similar(&mut b, m);
                    let s = as_str(&b).to_owned();
                    timed(|| {
                        black_box(fresh_rodeo.get_or_intern(&s));
                    })
                }),
            ),
            (
                "internment miss",
                Box::new(|| {
                    k += 1;
                    let mut b = vec![b'c'; MIB];
                    set_similar(&mut b, k);
                    let s = as_str(&b).to_owned();
                    timed(|| fresh_keep.push(internment::ArcIntern::<str>::from(s.as_str())))
                }),
            ),
        ],
    );
    print_ratios("1 MiB similar, miss (x = vs ito)", 1, &r);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--test" || a == "--list");
    let ids = identifiers(6000, 0x1d5);
    let words = twitter_words();
    // ITO_BENCH_ONLY=memory|ratios|growth runs one printed section and
    // exits; ITO_BENCH_SKIP_CUSTOM skips them all (criterion only).
    let only = std::env::var("ITO_BENCH_ONLY").ok();
    let want = |section: &str| only.as_deref().is_none_or(|o| o == section);
    if !quick && std::env::var_os("ITO_BENCH_SKIP_CUSTOM").is_none() {
        println!("CPU: {}", cpu_name());
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
        if only.as_deref() == Some("ops") {
            ops_driver(&ids, &words);
        }
        if only.is_some() {
            return;
        }
    }
    let mut c = Criterion::default().configure_from_args();
    single_thread(&mut c, "identifiers", &ids);
    single_thread(&mut c, "twitter-words", &words);
    two_threaded(&mut c, "identifiers", &ids);
    two_threaded(&mut c, "twitter-words", &words);
    similar_megabytes(&mut c);
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

/// One implementation, one operation, `ITO_ROUNDS` rounds: a quiet driver
/// for instruction counting under callgrind (see the module docs).
fn ops_driver(ids: &[String], words: &[String]) {
    let what = std::env::var("ITO_OPS").unwrap_or_else(|_| "ito-hit".into());
    let rounds: usize = std::env::var("ITO_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1);
    let mut data = if what.ends_with("-words") { words } else { ids }.to_vec();
    let uniq = distinct(&data);
    if std::env::var_os("ITO_SHUFFLE").is_some() {
        let mut rng = Rng(0x5eed);
        for i in (1..data.len()).rev() {
            data.swap(i, rng.below(i as u64 + 1) as usize);
        }
    }
    let data = &data;
    let hit = what.contains("-hit");
    macro_rules! run {
        ($new:expr, $intern:expr) => {{
            if hit {
                let mut t = $new;
                for s in &uniq {
                    black_box($intern(&mut t, s.as_str()));
                }
                for _ in 0..rounds {
                    for s in data {
                        black_box($intern(&mut t, s.as_str()));
                    }
                }
            } else {
                for _ in 0..rounds {
                    let mut t = $new;
                    for s in &uniq {
                        black_box($intern(&mut t, s.as_str()));
                    }
                }
            }
        }};
    }
    match what.split('-').next().unwrap_or("") {
        "ito" => run!(ito::Interner::new(), |t: &mut ito::Interner, s| t.intern(s)),
        "ito1" => run!(
            ito::Interner::builder().shards(1).build(),
            |t: &mut ito::Interner, s| t.intern(s)
        ),
        "lasso" => run!(lasso::Rodeo::default(), |t: &mut lasso::Rodeo, s| t
            .get_or_intern(s)),
        "si" => run!(SI::new(), |t: &mut SI, s| t.get_or_intern(s)),
        other => eprintln!("unknown implementation {other:?}"),
    }
}
