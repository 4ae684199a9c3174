//! Rendering whole JSON documents: ito's serializer against serde_json and
//! sonic-rs, side by side in one process.
//!
//! Workloads: twitter.json, citm_catalog.json and canada.json as typed
//! structs (`ito_bench::docs`, derived as a serde user would) and as
//! `serde_json::Value`; twitter pretty; twitter rendered by hand with
//! `ito::json::Writer`; a `memcpy` of the output into a reused buffer for
//! scale. Every serializer renders into a fresh `Vec` (`to_vec`; the
//! Writer into `Vec::with_capacity(128)`), its input passed
//! through `black_box` and its output dropped inside the timed loop.
//! Throughput is in output bytes (serde_json's compact length; pretty
//! output for the pretty rows).
//!
//! First a summary: every contender of a workload timed in alternation,
//! `ROUNDS` rounds, best round kept (on a shared host the minimum of
//! alternating runs is the steadiest estimate), printed as GB/s with
//! ratios. Then the same workloads as criterion groups. `DOCS_SUMMARY=only`
//! skips criterion; `DOCS_ROUNDS=n` changes the round count;
//! `DOCS_ONLY=text` keeps the summary rows whose name contains `text`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, Criterion, Throughput};
use serde::Serialize;
use serde_json::Value;

use ito_bench::docs::{write_twitter, Canada, Citm, Twitter};
use ito_bench::{CITM, TWITTER};

const CANADA: &str = include_str!("../../data/corpus/canada.json");

struct Docs {
    twitter: Twitter,
    citm: Citm,
    canada: Canada,
    values: [(&'static str, Value); 3],
}

fn docs() -> Docs {
    Docs {
        twitter: serde_json::from_str(TWITTER).unwrap(),
        citm: serde_json::from_str(CITM).unwrap(),
        canada: serde_json::from_str(CANADA).unwrap(),
        values: [
            ("twitter", serde_json::from_str(TWITTER).unwrap()),
            ("citm", serde_json::from_str(CITM).unwrap()),
            ("canada", serde_json::from_str(CANADA).unwrap()),
        ],
    }
}

type Render<'a> = (&'static str, Box<dyn Fn() + 'a>);

/// The three serializers' `to_vec` on `value`, checked byte-equal first.
fn to_vec_contenders<T: Serialize>(value: &T) -> Vec<Render<'_>> {
    let want = serde_json::to_vec(value).unwrap();
    assert_eq!(ito::json::to_vec(value).unwrap(), want, "ito differs");
    vec![
        (
            "ito",
            Box::new(move || drop(black_box(ito::json::to_vec(black_box(value)).unwrap()))),
        ),
        (
            "serde_json",
            Box::new(move || drop(black_box(serde_json::to_vec(black_box(value)).unwrap()))),
        ),
        (
            "sonic_rs",
            Box::new(move || drop(black_box(sonic_rs::to_vec(black_box(value)).unwrap()))),
        ),
    ]
}

fn pretty_contenders<T: Serialize>(value: &T) -> Vec<Render<'_>> {
    let want = serde_json::to_vec_pretty(value).unwrap();
    assert_eq!(
        ito::json::to_vec_pretty(value).unwrap(),
        want,
        "ito differs"
    );
    vec![
        (
            "ito",
            Box::new(move || {
                drop(black_box(
                    ito::json::to_vec_pretty(black_box(value)).unwrap(),
                ))
            }),
        ),
        (
            "serde_json",
            Box::new(move || {
                drop(black_box(
                    serde_json::to_vec_pretty(black_box(value)).unwrap(),
                ))
            }),
        ),
        (
            "sonic_rs",
            Box::new(move || {
                drop(black_box(
                    sonic_rs::to_vec_pretty(black_box(value)).unwrap(),
                ))
            }),
        ),
    ]
}

/// Writer by hand vs the typed serde path of ito (and a memcpy of the
/// output).
fn writer_contenders<'a>(t: &'a Twitter, expected: &'a [u8]) -> Vec<Render<'a>> {
    let mut by_hand = Vec::new();
    write_twitter(&mut by_hand, t);
    assert_eq!(by_hand, expected, "Writer by hand differs");
    vec![
        (
            "ito Writer",
            Box::new(move || {
                let mut out = Vec::with_capacity(128);
                write_twitter(&mut out, black_box(t));
                drop(black_box(out));
            }),
        ),
        (
            "ito to_vec",
            Box::new(move || drop(black_box(ito::json::to_vec(black_box(t)).unwrap()))),
        ),
        ("memcpy", {
            // The output copied into a reused buffer: the floor.
            let buf = std::cell::RefCell::new(Vec::with_capacity(expected.len()));
            Box::new(move || {
                let mut b = buf.borrow_mut();
                b.clear();
                b.extend_from_slice(black_box(expected));
                black_box(b.len());
            })
        }),
    ]
}

struct Workload<'a> {
    name: String,
    bytes: usize,
    contenders: Vec<Render<'a>>,
}

fn workloads(d: &Docs) -> Vec<Workload<'_>> {
    let len = |v: &dyn erased::Len| v.len();
    let mut w = vec![
        Workload {
            name: "twitter typed".into(),
            bytes: len(&d.twitter),
            contenders: to_vec_contenders(&d.twitter),
        },
        Workload {
            name: "citm typed".into(),
            bytes: len(&d.citm),
            contenders: to_vec_contenders(&d.citm),
        },
        Workload {
            name: "canada typed".into(),
            bytes: len(&d.canada),
            contenders: to_vec_contenders(&d.canada),
        },
    ];
    for (name, v) in &d.values {
        w.push(Workload {
            name: format!("{name} Value"),
            bytes: len(v),
            contenders: to_vec_contenders(v),
        });
    }
    w.push(Workload {
        name: "twitter typed pretty".into(),
        bytes: serde_json::to_vec_pretty(&d.twitter).unwrap().len(),
        contenders: pretty_contenders(&d.twitter),
    });
    let expected: &'static [u8] = serde_json::to_vec(&d.twitter).unwrap().leak();
    w.push(Workload {
        name: "twitter Writer by hand".into(),
        bytes: expected.len(),
        contenders: writer_contenders(&d.twitter, expected),
    });
    w
}

/// Output length of serde_json's compact rendering, through a tiny object
/// safe trait so the workload table can hold any document type.
mod erased {
    pub trait Len {
        fn len(&self) -> usize;
    }
    impl<T: serde::Serialize> Len for T {
        fn len(&self) -> usize {
            serde_json::to_vec(self).unwrap().len()
        }
    }
}

fn summary(d: &Docs) {
    let rounds: usize = std::env::var("DOCS_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(150);
    println!(
        "docs summary: {} ({rounds} alternating rounds, best kept; GB/s of output)",
        ito_bench::cpu_name()
    );
    let only = std::env::var("DOCS_ONLY").ok();
    for w in workloads(d) {
        if only.as_ref().is_some_and(|o| !w.name.contains(o.as_str())) {
            continue;
        }
        let mut best = vec![Duration::MAX; w.contenders.len()];
        for _ in 0..rounds {
            for (i, (_, f)) in w.contenders.iter().enumerate() {
                let start = Instant::now();
                f();
                best[i] = best[i].min(start.elapsed());
            }
        }
        let gbps = |t: Duration| w.bytes as f64 / t.as_secs_f64() / 1e9;
        let cells: Vec<String> = w
            .contenders
            .iter()
            .zip(&best)
            .map(|((n, _), &t)| {
                if t == best[0] {
                    format!("{n} {:.2} GB/s ({:.0} µs)", gbps(t), t.as_secs_f64() * 1e6)
                } else {
                    format!(
                        "{n} {:.2} GB/s (ito {:.2}x)",
                        gbps(t),
                        t.as_secs_f64() / best[0].as_secs_f64()
                    )
                }
            })
            .collect();
        println!("{:>24}: {}", w.name, cells.join(" | "));
    }
}

fn criterion_groups(c: &mut Criterion) {
    let d = docs();
    for w in workloads(&d) {
        let mut g = c.benchmark_group(format!("docs/{}", w.name.replace(' ', "_")));
        g.throughput(Throughput::Bytes(w.bytes as u64));
        for (name, f) in &w.contenders {
            g.bench_function(*name, |b| b.iter(f));
        }
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = criterion_groups
}

fn main() {
    summary(&docs());
    if std::env::var("DOCS_SUMMARY").as_deref() != Ok("only") {
        benches();
        Criterion::default().configure_from_args().final_summary();
    }
}
