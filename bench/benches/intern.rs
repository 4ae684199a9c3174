//! Interning benchmarks: ito vs lasso, string-interner and internment.
//!
//! Criterion groups (ratios are what matter; run with
//! `cargo bench -p ito-bench --bench intern -- --warm-up-time 1 --measurement-time 3`):
//! - `intern/hit/*`, `intern/miss/*`: 6,000 synthetic identifiers (mean
//!   12.5 bytes) and the whitespace-separated words of twitter.json's
//!   strings; single thread, vs `lasso::ThreadedRodeo` (the thread-safe
//!   peer of the thread-safe `Interner`), `lasso::Rodeo` and
//!   `string_interner`.
//! - `intern/2threads-hit/*`, `intern/2threads-miss/*`: two threads on one
//!   shared table, vs `lasso::ThreadedRodeo`. The two threads intern the
//!   same keys in different orders (the first in input order, the second
//!   in a fixed shuffle): in the same order they collided in lockstep on
//!   the same chains, and how often that happened decided the figure.
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
//! - `ITO_BENCH_ONLY=fresh-mib`: 1 MiB misses into each interner in a
//!   fresh process (every allocation faults in new pages) beside a kept
//!   `to_vec`, the floor for any miss.
//! - `ITO_BENCH_ONLY=ops ITO_OPS=<impl>-<hit|miss>[-words] ITO_ROUNDS=<n>`
//!   (impl: ito, lasso, si) runs one implementation `n` rounds over the
//!   6,000 identifiers (or twitter words) and nothing else: a driver for
//!   `valgrind --tool=callgrind`. Instructions per operation are
//!   `(Ir(n = 11) - Ir(n = 1)) / (10 × strings)`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput};

#[global_allocator]
static GLOBAL: ito_bench::CountingAlloc = ito_bench::CountingAlloc;

use ito_bench::{
    alloc_keep_entry, alloc_memcpy_entry, as_str, best_of, count_bytes as measure, distinct,
    identifiers, memcpy_entry, memory_report, print_ratios, set_similar, timed, twitter_words,
    Growth, Ratio, Rng, Sections, Timed, GROWTH_KEYS, MIB, SIMILAR,
};

mod common;
use common::{
    bench_hit, bench_miss, filled, grow, hit_entry, miss_entry, once_entry, printed_sections,
    similar_miss_entry, Peer, SI,
};

// ---------------------------------------------------------------------------
// Single thread.

fn single_thread(c: &mut Criterion, name: &str, words: &[String]) {
    let uniq = distinct(words);
    let mut g = c.benchmark_group(format!("intern/hit/{name}"));
    g.throughput(Throughput::Elements(words.len() as u64));
    {
        let mut interner = filled::<ito::Interner>(&uniq);
        bench_hit(&mut g, "ito", &mut interner, words);
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
        let mut threaded = filled::<lasso::ThreadedRodeo>(&uniq);
        bench_hit(&mut g, "lasso-ThreadedRodeo", &mut threaded, words);
    }
    {
        let mut rodeo = filled::<lasso::Rodeo>(&uniq);
        bench_hit(&mut g, "lasso-Rodeo", &mut rodeo, words);
    }
    {
        let mut si = filled::<SI>(&uniq);
        bench_hit(&mut g, "string-interner", &mut si, words);
    }
    g.finish();

    // Miss: intern every distinct word into a fresh table (growth included).
    let mut g = c.benchmark_group(format!("intern/miss/{name}"));
    g.throughput(Throughput::Elements(uniq.len() as u64));
    bench_miss::<ito::Interner>(&mut g, "ito", &uniq);
    bench_miss::<lasso::ThreadedRodeo>(&mut g, "lasso-ThreadedRodeo", &uniq);
    bench_miss::<lasso::Rodeo>(&mut g, "lasso-Rodeo", &uniq);
    bench_miss::<SI>(&mut g, "string-interner", &uniq);
    g.finish();
}

// ---------------------------------------------------------------------------
// Two threads on one shared table.

/// Run `work(thread, i)` on two threads (`thread` 0 and 1) `iters` times
/// each; wall time.
fn two_threads(iters: u64, work: impl Fn(usize, u64) + Sync) -> Duration {
    let start = Instant::now();
    std::thread::scope(|scope| {
        for thread in 0..2 {
            let work = &work;
            scope.spawn(move || {
                for i in 0..iters {
                    work(thread, i);
                }
            });
        }
    });
    start.elapsed()
}

/// The same keys in two orders: input order for thread 0, a fixed
/// Fisher-Yates shuffle for thread 1 (so the threads do not walk the same
/// chains in lockstep).
fn two_orders(words: &[String]) -> [Vec<&str>; 2] {
    let first: Vec<&str> = words.iter().map(String::as_str).collect();
    let mut second = first.clone();
    let mut rng = Rng(0x2_7412_ead5_u64.wrapping_add(words.len() as u64));
    for i in (1..second.len()).rev() {
        second.swap(i, rng.below(i as u64 + 1) as usize);
    }
    [first, second]
}

/// A thread-safe table of the two-thread measurements.
trait SharedPeer: Sync {
    /// What interning returns.
    type Sym;
    /// An empty table.
    fn new() -> Self;
    /// The symbol of `s`, added to the table if new.
    fn intern(&self, s: &str) -> Self::Sym;
}

impl SharedPeer for ito::Interner {
    type Sym = ito::Sym;
    fn new() -> Self {
        ito::Interner::new()
    }
    fn intern(&self, s: &str) -> ito::Sym {
        ito::Interner::intern(self, s)
    }
}

impl SharedPeer for lasso::ThreadedRodeo {
    type Sym = lasso::Spur;
    fn new() -> Self {
        lasso::ThreadedRodeo::default()
    }
    fn intern(&self, s: &str) -> lasso::Spur {
        self.get_or_intern(s)
    }
}

/// Criterion case `id`: both threads intern every string of `words` into
/// the shared `t` (hits when `t` already holds them).
fn bench_two_hit<P: SharedPeer>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    id: &str,
    t: &P,
    words: &[String],
) {
    let orders = two_orders(words);
    g.bench_function(id, |b| {
        b.iter_custom(|iters| {
            two_threads(iters, |thread, _| {
                for s in &orders[thread] {
                    black_box(t.intern(s));
                }
            })
        })
    });
}

/// Criterion case `id`: both threads intern every distinct word into a
/// fresh shared table (made untimed): each word is one miss and one
/// (racing) hit.
fn bench_two_miss<P: SharedPeer>(g: &mut BenchmarkGroup<'_, WallTime>, id: &str, uniq: &[String]) {
    let orders = two_orders(uniq);
    g.bench_function(id, |b| {
        b.iter_custom(|iters| {
            let tables: Vec<P> = (0..iters).map(|_| P::new()).collect();
            two_threads(iters, |thread, i| {
                let t = &tables[i as usize];
                for s in &orders[thread] {
                    black_box(t.intern(s));
                }
            })
        })
    });
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
        bench_two_hit(&mut g, "ito", &interner, words);
    }
    {
        let rodeo = lasso::ThreadedRodeo::default();
        uniq.iter().for_each(|s| {
            rodeo.get_or_intern(s);
        });
        bench_two_hit(&mut g, "lasso-ThreadedRodeo", &rodeo, words);
    }
    g.finish();

    let mut g = c.benchmark_group(format!("intern/2threads-miss/{name}"));
    g.throughput(Throughput::Elements(2 * uniq.len() as u64));
    bench_two_miss::<ito::Interner>(&mut g, "ito", &uniq);
    bench_two_miss::<lasso::ThreadedRodeo>(&mut g, "lasso-ThreadedRodeo", &uniq);
    g.finish();
}

// ---------------------------------------------------------------------------
// 800 similar 1 MiB strings.

/// Criterion case `id`: each iteration interns the next similar string into
/// a table from `new`, replaced (untimed) after every `SIMILAR` strings.
fn bench_similar_miss<T>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    id: &str,
    new: impl Fn() -> T,
    mut intern: impl FnMut(&mut T, &str),
) {
    g.bench_function(id, |b| {
        b.iter_custom(|iters| {
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
        })
    });
}

/// Criterion case `id`: `fill` puts all `SIMILAR` strings into `table`
/// (untimed), then each iteration looks the next one up with `hit`.
fn bench_similar_hit<T>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    id: &str,
    mut table: T,
    mut fill: impl FnMut(&mut T, &str),
    mut hit: impl FnMut(&mut T, &str),
) {
    let mut buf = vec![b'a'; MIB];
    for i in 0..SIMILAR {
        set_similar(&mut buf, i);
        fill(&mut table, as_str(&buf));
    }
    g.bench_function(id, |b| {
        b.iter_custom(|iters| {
            let mut buf = vec![b'a'; MIB];
            let mut total = Duration::ZERO;
            for k in 0..iters as usize {
                set_similar(&mut buf, k % SIMILAR);
                let s = as_str(&buf); // UTF-8 check outside the timed region
                let start = Instant::now();
                hit(&mut table, s);
                total += start.elapsed();
            }
            total
        })
    });
}

/// Intern `s` into the peer table `t` (a miss/hit closure of the similar
/// strings' cases; also fills their tables).
fn peer_intern<P: Peer>(t: &mut P, s: &str) {
    black_box(t.intern(s));
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
    bench_similar_miss(&mut g, "miss/ito", ito::Interner::new, peer_intern);
    bench_similar_miss(
        &mut g,
        "miss/ito-Pool",
        || (ito::Pool::new(), Vec::new()),
        |(pool, keep), s| keep.push(pool.intern(s)),
    );
    bench_similar_miss(
        &mut g,
        "miss/lasso-Rodeo",
        lasso::Rodeo::default,
        peer_intern,
    );
    bench_similar_miss(&mut g, "miss/internment-ArcIntern", Vec::new, |keep, s| {
        keep.push(internment::ArcIntern::<str>::from(s))
    });
    let (ito_t, rodeo) = (ito::Interner::new(), lasso::Rodeo::default());
    bench_similar_hit(&mut g, "hit/ito", ito_t, peer_intern, peer_intern);
    bench_similar_hit(
        &mut g,
        "hit/ito-Pool",
        (ito::Pool::new(), Vec::new()),
        |(pool, keep), s| keep.push(pool.intern(s)),
        |(pool, _), s| {
            black_box(pool.intern(s));
        },
    );
    bench_similar_hit(&mut g, "hit/lasso-Rodeo", rodeo, peer_intern, peer_intern);
    bench_similar_hit(
        &mut g,
        "hit/internment-ArcIntern",
        Vec::new(),
        |keep, s| keep.push(internment::ArcIntern::<str>::from(s)),
        |_, s| {
            black_box(internment::ArcIntern::<str>::from(s));
        },
    );
    g.finish();
}

// ---------------------------------------------------------------------------
// Printed sections: memory per entry, growth latency.

fn memory(datasets: &[(&str, Vec<String>)]) {
    memory_report(datasets, |name, words, e| {
        let (ito_t, ito_b) = measure(|| filled::<ito::Interner>(words));
        let reported = ito_t.memory_usage();
        let (frozen, frozen_b) = measure(|| ito_t.freeze());
        let (rodeo, rodeo_b) = measure(|| filled::<lasso::Rodeo>(words));
        let (si, si_b) = measure(|| filled::<SI>(words));
        println!(
            "{} | ito {} [memory_usage() {:.1}] | ito Frozen {} | lasso Rodeo {} | string-interner {} | ito/string-interner {:.2}",
            e.head(name),
            e.format(ito_b),
            e.per(reported as isize),
            e.format(ito_b + frozen_b),
            e.format(rodeo_b),
            e.format(si_b),
            ito_b as f64 / si_b as f64,
        );
        drop((frozen, rodeo, si));
    });
}

fn growth_report() {
    let runs = 3;
    let mut g = Growth::new(GROWTH_KEYS);
    g.title(runs);
    for run in 0..runs {
        grow::<ito::Interner>(&mut g, &format!("ito #{run}"), false);
        grow::<lasso::Rodeo>(&mut g, &format!("lasso Rodeo #{run}"), false);
        grow::<SI>(&mut g, &format!("string-interner #{run}"), false);
        g.control(run);
    }
    g.print_floors();
}

// ---------------------------------------------------------------------------
// Interleaved best-of-N ratios: on a shared, noisy host the minimum of many
// alternating runs is the most stable estimate of each implementation's cost.

/// A best-of entry: two threads each intern every string of `data` into
/// the shared `t`, 4 times, in different orders ([`two_orders`]).
fn two_hit_entry<'a, P: SharedPeer>(name: &'a str, t: &'a P, data: &'a [String]) -> Timed<'a> {
    let orders = two_orders(data);
    (
        name,
        Box::new(move || {
            two_threads(4, |thread, _| {
                orders[thread].iter().for_each(|s| {
                    black_box(t.intern(s));
                })
            })
        }),
    )
}

/// A best-of entry: two threads each intern the distinct strings `uniq`
/// into one fresh shared table, in different orders ([`two_orders`]).
fn two_miss_entry<'a, P: SharedPeer + 'a>(name: &'a str, uniq: &'a [String]) -> Timed<'a> {
    let orders = two_orders(uniq);
    (
        name,
        Box::new(move || {
            let t = P::new();
            two_threads(1, |thread, _| {
                orders[thread].iter().for_each(|s| {
                    black_box(t.intern(s));
                })
            })
        }),
    )
}

/// A best-of entry: make the next similar string (1, 2, ...) of `byte`s in
/// a fresh buffer, copy it to a fresh `String` (untimed) and time
/// `intern` of it.
fn fresh_similar_entry<'a>(
    name: &'a str,
    byte: u8,
    mut intern: impl FnMut(&str) + 'a,
) -> Timed<'a> {
    let mut n = 0usize;
    (
        name,
        Box::new(move || {
            n += 1;
            let mut b = vec![byte; MIB];
            set_similar(&mut b, n);
            let s = as_str(&b).to_owned();
            timed(|| intern(&s))
        }),
    )
}

fn ratio_report(ids: &[String], words: &[String]) {
    println!("\n== best of 25 interleaved runs, per operation ==");
    let faster = Ratio::Faster("ito");
    for (name, data) in [("identifiers", ids), ("twitter words", words)] {
        let uniq = distinct(data);
        let mut ito_t = ito::Interner::new();
        let mut rodeo = lasso::Rodeo::default();
        let mut si = SI::new();
        let threaded = lasso::ThreadedRodeo::default();
        for s in &uniq {
            ito_t.intern(s);
            rodeo.get_or_intern(s);
            si.get_or_intern(s);
            threaded.get_or_intern(s);
        }
        let mut threaded_1 = filled::<lasso::ThreadedRodeo>(&uniq);
        let r = best_of(
            25,
            &mut [
                hit_entry("ito", &mut ito_t, data),
                hit_entry("lasso ThreadedRodeo", &mut threaded_1, data),
                hit_entry("lasso", &mut rodeo, data),
                hit_entry("string-interner", &mut si, data),
            ],
        );
        drop(threaded_1);
        print_ratios(&format!("hit {name}"), data.len() as u64, &r, faster);
        let r = best_of(
            25,
            &mut [
                miss_entry::<ito::Interner>("ito", &uniq),
                miss_entry::<lasso::ThreadedRodeo>("lasso ThreadedRodeo", &uniq),
                miss_entry::<lasso::Rodeo>("lasso", &uniq),
                miss_entry::<SI>("string-interner", &uniq),
            ],
        );
        print_ratios(&format!("miss {name}"), uniq.len() as u64, &r, faster);
        let r = best_of(
            25,
            &mut [
                two_hit_entry("ito", &ito_t, data),
                two_hit_entry("lasso ThreadedRodeo", &threaded, data),
            ],
        );
        print_ratios(
            &format!("2 threads hit {name}"),
            8 * data.len() as u64,
            &r,
            faster,
        );
        let r = best_of(
            25,
            &mut [
                two_miss_entry::<ito::Interner>("ito", &uniq),
                two_miss_entry::<lasso::ThreadedRodeo>("lasso ThreadedRodeo", &uniq),
            ],
        );
        print_ratios(
            &format!("2 threads miss {name}"),
            2 * uniq.len() as u64,
            &r,
            faster,
        );
    }
    // Collectable interning: `Pool` vs internment's `ArcIntern<str>` (both
    // free an entry with its last handle). Hit: every string of the data
    // while every distinct one is held (the returned handle is dropped
    // inside the timed loop). Miss: every distinct string, handles kept
    // until after the timing (then dropped, which empties both tables).
    for (name, data) in [("identifiers", ids), ("twitter words", words)] {
        let uniq = distinct(data);
        let pool = ito::Pool::new();
        let held: Vec<_> = uniq.iter().map(|s| pool.intern(s)).collect();
        let held_ai: Vec<_> = uniq
            .iter()
            .map(|s| internment::ArcIntern::<str>::from(s.as_str()))
            .collect();
        let (pool_ref, data_ref) = (&pool, data);
        let r = best_of(
            25,
            &mut [
                (
                    "ito Pool",
                    Box::new(move || {
                        timed(|| {
                            data_ref
                                .iter()
                                .for_each(|s| drop(black_box(pool_ref.intern(s))))
                        })
                    }),
                ),
                (
                    "internment ArcIntern",
                    Box::new(move || {
                        timed(|| {
                            data_ref.iter().for_each(|s| {
                                drop(black_box(internment::ArcIntern::<str>::from(s.as_str())))
                            })
                        })
                    }),
                ),
            ],
        );
        print_ratios(&format!("Pool hit {name}"), data.len() as u64, &r, faster);
        drop((held, held_ai));
        let fresh_pool = ito::Pool::new();
        let mut keep = Vec::with_capacity(uniq.len());
        let mut keep_ai = Vec::with_capacity(uniq.len());
        let uniq_ref = &uniq;
        let r = best_of(
            25,
            &mut [
                (
                    "ito Pool",
                    Box::new(|| {
                        let d = timed(|| {
                            uniq_ref
                                .iter()
                                .for_each(|s| keep.push(fresh_pool.intern(s)))
                        });
                        keep.clear();
                        d
                    }),
                ),
                (
                    "internment ArcIntern",
                    Box::new(|| {
                        let d = timed(|| {
                            uniq_ref.iter().for_each(|s| {
                                keep_ai.push(internment::ArcIntern::<str>::from(s.as_str()))
                            })
                        });
                        keep_ai.clear();
                        d
                    }),
                ),
            ],
        );
        print_ratios(&format!("Pool miss {name}"), uniq.len() as u64, &r, faster);
    }
    // 1 MiB similar strings: per string, beside a 1 MiB memcpy.
    let mut buf = vec![b'a'; MIB];
    let mut dst = vec![0u8; MIB];
    let src = vec![b'a'; MIB];
    let mut t = ito::Interner::new();
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
            once_entry("ito hit", &mut t, &s),
            memcpy_entry(&mut dst, &src),
            alloc_memcpy_entry(&src),
            once_entry("lasso hit", &mut rodeo, &s),
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
    print_ratios("1 MiB similar, hit (x = vs ito)", 1, &r, faster);
    drop((t, rodeo, keep));
    let mut fresh = ito::Interner::new();
    let mut fresh_rodeo = lasso::Rodeo::default();
    let mut fresh_keep = Vec::new();
    let mut kept = Vec::new();
    let r = best_of(
        25,
        &mut [
            similar_miss_entry("ito miss", &mut fresh, &mut buf),
            memcpy_entry(&mut dst, &src),
            alloc_memcpy_entry(&src),
            alloc_keep_entry(&src, &mut kept),
            fresh_similar_entry("lasso miss", b'b', |s| {
                black_box(fresh_rodeo.get_or_intern(s));
            }),
            fresh_similar_entry("internment miss", b'c', |s| {
                fresh_keep.push(internment::ArcIntern::<str>::from(s))
            }),
        ],
    );
    print_ratios("1 MiB similar, miss (x = vs ito)", 1, &r, faster);
}

fn main() {
    let ids = identifiers(6000, 0x1d5);
    let words = twitter_words();
    // ITO_BENCH_ONLY=memory|ratios|growth|ops runs one printed section and
    // exits; ITO_BENCH_SKIP_CUSTOM skips them all (criterion only).
    if let Some(sections) = Sections::from_env() {
        if sections.only() == Some("ops") {
            ops_driver(&ids, &words);
        }
        if sections.only() == Some("fresh-mib") {
            fresh_megabyte_misses();
            return;
        }
        if printed_sections(&sections, &ids, &words, memory, ratio_report, growth_report) {
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

/// `ITO_BENCH_ONLY=fresh-mib`: 1 MiB misses in a process that has freed
/// nothing yet, so every allocation faults in fresh pages (what a
/// long-running cache sees when it grows). Per round, one new similar
/// string into each interner and one `to_vec` kept alive (the floor: a miss
/// must keep a copy); the best of 60 rounds each.
fn fresh_megabyte_misses() {
    const ROUNDS: usize = 60;
    let mut buf = vec![b'a'; MIB];
    let mut local = ito::intern::LocalInterner::new();
    let shared = ito::Interner::new();
    let mut kept: Vec<Vec<u8>> = Vec::new();
    let mut best = [Duration::MAX; 3];
    for i in 0..ROUNDS {
        set_similar(&mut buf, 2 * i);
        let s = as_str(&buf);
        best[0] = best[0].min(timed(|| {
            black_box(local.intern(s));
        }));
        best[1] = best[1].min(timed(|| {
            black_box(shared.intern(s));
        }));
        set_similar(&mut buf, 2 * i + 1);
        let mut copy = Vec::new();
        best[2] = best[2].min(timed(|| copy = black_box(buf.to_vec())));
        kept.push(copy);
    }
    println!("\n== 1 MiB misses in a fresh process, best of {ROUNDS} ==");
    let floor = best[2].as_nanos() as f64;
    for (name, t) in [
        ("LocalInterner", best[0]),
        ("Interner", best[1]),
        ("to_vec, kept", best[2]),
    ] {
        let ns = t.as_nanos() as f64;
        println!(
            "{name:>14}: {ns:>9.0} ns ({:.2}x the kept to_vec)",
            ns / floor
        );
    }
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
