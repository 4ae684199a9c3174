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

use criterion::{Criterion, Throughput};
use ito::intern::LocalInterner;

#[global_allocator]
static GLOBAL: ito_bench::CountingAlloc = ito_bench::CountingAlloc;

use ito_bench::{
    alloc_keep_entry, alloc_memcpy_entry, as_str, best_of, count_bytes as measure, distinct,
    identifiers, memcpy_entry, memory_report, print_ratios, set_similar, twitter_words, Growth,
    Ratio, Sections, GROWTH_KEYS, MIB, SIMILAR,
};

mod common;
use common::{
    bench_hit, bench_miss, filled, grow, hit_entry, miss_entry, once_entry, printed_sections,
    similar_miss_entry, Segmented, SI,
};

/// The four tables of the hit measurements, filled together (one string
/// into each in turn, as the measurements have always been set up).
struct Tables {
    local: LocalInterner,
    segmented: Segmented,
    shared: ito::Interner,
    rodeo: lasso::Rodeo,
    si: SI,
}

impl Tables {
    fn filled(uniq: &[String]) -> Self {
        let mut local = LocalInterner::new();
        let mut segmented = <Segmented as common::Peer>::new();
        let shared = ito::Interner::new();
        let mut rodeo = lasso::Rodeo::default();
        let mut si = SI::new();
        for s in uniq {
            local.intern(s);
            segmented.0.intern(s);
            shared.intern(s);
            rodeo.get_or_intern(s);
            si.get_or_intern(s);
        }
        Tables {
            local,
            segmented,
            shared,
            rodeo,
            si,
        }
    }
}

// ---------------------------------------------------------------------------
// Criterion: single-thread hit and miss.

fn single_thread(c: &mut Criterion, name: &str, words: &[String]) {
    let uniq = distinct(words);
    let mut g = c.benchmark_group(format!("intern_local/hit/{name}"));
    g.throughput(Throughput::Elements(words.len() as u64));
    let mut t = Tables::filled(&uniq);
    bench_hit(&mut g, "ito-LocalInterner", &mut t.local, words);
    g.bench_function("ito-LocalInterner-get", |b| {
        b.iter(|| {
            for s in words {
                black_box(t.local.get(s));
            }
        })
    });
    bench_hit(&mut g, "ito-Interner", &mut t.shared, words);
    bench_hit(&mut g, "lasso-Rodeo", &mut t.rodeo, words);
    bench_hit(&mut g, "string-interner", &mut t.si, words);
    g.finish();

    let mut g = c.benchmark_group(format!("intern_local/miss/{name}"));
    g.throughput(Throughput::Elements(uniq.len() as u64));
    bench_miss::<LocalInterner>(&mut g, "ito-LocalInterner", &uniq);
    bench_miss::<ito::Interner>(&mut g, "ito-Interner", &uniq);
    bench_miss::<lasso::Rodeo>(&mut g, "lasso-Rodeo", &uniq);
    bench_miss::<SI>(&mut g, "string-interner", &uniq);
    g.finish();
}

// ---------------------------------------------------------------------------
// Memory per entry.

fn memory(datasets: &[(&str, Vec<String>)]) {
    memory_report(datasets, |name, words, e| {
        // The reserved layout's regions are mapped, not allocated: the
        // counting allocator sees only its table, so its figure is
        // `memory_usage()` (committed regions + table + large strings).
        let (local, _) = measure(|| filled::<LocalInterner>(words));
        let reported = local.memory_usage();
        let (seg, local_b) = measure(|| filled::<Segmented>(words));
        let seg_reported = seg.0.memory_usage();
        let (shared, shared_b) = measure(|| filled::<ito::Interner>(words));
        let (rodeo, rodeo_b) = measure(|| filled::<lasso::Rodeo>(words));
        let (si, si_b) = measure(|| filled::<SI>(words));
        println!(
            "{} | LocalInterner reserved, memory_usage() {} | segmented {} [memory_usage() {:.1}] | Interner {} | lasso Rodeo {} | string-interner {} | reserved/string-interner {:.2}",
            e.head(name),
            e.format(reported as isize),
            e.format(local_b),
            e.per(seg_reported as isize),
            e.format(shared_b),
            e.format(rodeo_b),
            e.format(si_b),
            reported as f64 / si_b as f64,
        );
        drop((local, seg, shared, rodeo, si));
    });
}

// ---------------------------------------------------------------------------
// Growth latency.

fn growth_report() {
    let runs: usize = std::env::var("ITO_BENCH_GROWTH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let mut g = Growth::new(GROWTH_KEYS);
    g.title(runs);
    for run in 0..runs {
        grow::<LocalInterner>(&mut g, &format!("LocalInterner #{run}"), true);
        grow::<Segmented>(&mut g, &format!("LocalInterner segmented #{run}"), true);
        grow::<ito::Interner>(&mut g, &format!("Interner #{run}"), true);
        grow::<lasso::Rodeo>(&mut g, &format!("lasso Rodeo #{run}"), true);
        grow::<SI>(&mut g, &format!("string-interner #{run}"), true);
        g.control(run);
    }
    g.print_floors();
}

// ---------------------------------------------------------------------------
// Interleaved best-of-N ratios.

fn ratio_report(ids: &[String], words: &[String]) {
    println!(
        "\n== best of 25 interleaved runs, per operation (x = how much faster LocalInterner is) =="
    );
    for (name, data) in [("identifiers", ids), ("twitter words", words)] {
        let uniq = distinct(data);
        let mut t = Tables::filled(&uniq);
        let r = best_of(
            25,
            &mut [
                hit_entry("LocalInterner", &mut t.local, data),
                hit_entry("LocalInterner segmented", &mut t.segmented, data),
                hit_entry("Interner", &mut t.shared, data),
                hit_entry("lasso", &mut t.rodeo, data),
                hit_entry("string-interner", &mut t.si, data),
            ],
        );
        print_ratios(&format!("hit {name}"), data.len() as u64, &r, Ratio::Bare);
        let r = best_of(
            25,
            &mut [
                miss_entry::<LocalInterner>("LocalInterner", &uniq),
                miss_entry::<Segmented>("LocalInterner segmented", &uniq),
                miss_entry::<ito::Interner>("Interner", &uniq),
                miss_entry::<lasso::Rodeo>("lasso", &uniq),
                miss_entry::<SI>("string-interner", &uniq),
            ],
        );
        print_ratios(&format!("miss {name}"), uniq.len() as u64, &r, Ratio::Bare);
    }
    similar_megabytes();
}

// ---------------------------------------------------------------------------
// 800 similar 1 MiB strings: per string, beside a 1 MiB memcpy.

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
            once_entry("LocalInterner hit", &mut local, &s),
            memcpy_entry(&mut dst, &src),
            once_entry("lasso hit", &mut rodeo, &s),
        ],
    );
    print_ratios("1 MiB similar, hit", 1, &r, Ratio::Bare);
    drop((local, rodeo));
    let mut fresh = LocalInterner::new();
    let mut kept = Vec::new();
    let r = best_of(
        25,
        &mut [
            similar_miss_entry("LocalInterner miss", &mut fresh, &mut buf),
            memcpy_entry(&mut dst, &src),
            alloc_memcpy_entry(&src),
            alloc_keep_entry(&src, &mut kept),
        ],
    );
    print_ratios("1 MiB similar, miss", 1, &r, Ratio::Bare);
}

fn main() {
    let ids = identifiers(6000, 0x1d5);
    let words = twitter_words();
    if let Some(sections) = Sections::from_env() {
        if sections.only() == Some("profile-hit") {
            // A loop to run under `perf record`: LocalInterner hits only.
            let mut t = filled::<LocalInterner>(&ids);
            for _ in 0..20_000 {
                for s in &ids {
                    black_box(t.intern(black_box(s)));
                }
            }
            return;
        }
        if printed_sections(&sections, &ids, &words, memory, ratio_report, growth_report) {
            return;
        }
    }
    let mut c = Criterion::default().configure_from_args();
    single_thread(&mut c, "identifiers", &ids);
    single_thread(&mut c, "twitter-words", &words);
    c.final_summary();
}
