//! Documents without a schema: `ito::json::Value` against sonic-rs's
//! `sonic_rs::Value` and serde_json's `serde_json::Value`, in one process.
//!
//! Rows: parsing twitter.json, citm_catalog.json and canada.json from
//! `&[u8]` (UTF-8 checked by all; ito through `Value::from_slice_in`,
//! into an `Arena` created and dropped inside the timed loop, one per
//! document, through its own entry `Value::from_slice`, which borrows
//! clean strings, and through serde's `ito::json::from_slice::<Value>`,
//! which owns them); rendering each
//! parsed document again, compact; and looking up every key of a 10- and
//! a 10-, 12-, 13- and 1,000-key object (time per lookup; 12 is the
//! largest searched in order, 13 the smallest hashed). Inputs pass through `black_box`;
//! each result is dropped inside the timed loop; the parsed documents are
//! checked equal to serde_json's first, and the rendered text reads back
//! to the same document.
//!
//! First a summary (contenders alternated, `VALUE_ROUNDS` rounds, best
//! kept; ratios are peer time / ito time), then criterion groups.
//! `VALUE_SUMMARY=only` skips criterion; `VALUE_ONLY=text` keeps the rows
//! whose name contains `text`. The memory of the parsed
//! documents is measured apart, under a counting allocator
//! (`examples/value_memory.rs`).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, Criterion, Throughput};
use sonic_rs::{JsonContainerTrait, JsonValueTrait};

use ito_bench::{CITM, TWITTER};

const CANADA: &str = include_str!("../../data/corpus/canada.json");

type Run<'a> = (&'static str, Box<dyn Fn() + 'a>);

struct Workload {
    name: String,
    /// Throughput unit: input bytes, or lookups.
    units: usize,
    per: &'static str,
    contenders: Vec<Run<'static>>,
}

fn parse_rows(name: &str, text: &'static str) -> Workload {
    let input = text.as_bytes();
    let ours = ito::json::Value::from_slice(input).unwrap();
    let arena = ito::json::Arena::new();
    assert_eq!(
        ito::json::Value::from_slice_in(&arena, input).unwrap(),
        ours
    );
    let theirs: serde_json::Value = serde_json::from_slice(input).unwrap();
    assert!(
        close(&serde_json::Value::from(&ours), &theirs),
        "{name} differs"
    );
    Workload {
        name: format!("parse {name}"),
        units: input.len(),
        per: "byte",
        contenders: vec![
            (
                "ito Value::from_slice_in",
                Box::new(move || {
                    let arena = ito::json::Arena::new();
                    drop(black_box(
                        ito::json::Value::from_slice_in(&arena, black_box(input)).unwrap(),
                    ));
                    drop(arena);
                }),
            ),
            (
                "ito Value::from_slice",
                Box::new(move || {
                    drop(black_box(
                        ito::json::Value::from_slice(black_box(input)).unwrap(),
                    ))
                }),
            ),
            (
                "ito json::from_slice::<Value>",
                Box::new(move || {
                    drop(black_box(
                        ito::json::from_slice::<ito::json::Value>(black_box(input)).unwrap(),
                    ))
                }),
            ),
            (
                "sonic_rs",
                Box::new(move || {
                    drop(black_box(
                        sonic_rs::from_slice::<sonic_rs::Value>(black_box(input)).unwrap(),
                    ))
                }),
            ),
            (
                "serde_json",
                Box::new(move || {
                    drop(black_box(
                        serde_json::from_slice::<serde_json::Value>(black_box(input)).unwrap(),
                    ))
                }),
            ),
        ],
    }
}

/// Equal documents, floats within an ulp or two (this crate's serde_json
/// is built without `float_roundtrip` and may round differently).
fn close(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as V;
    match (a, b) {
        (V::Number(x), V::Number(y)) if x.is_f64() || y.is_f64() => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            (x - y).abs() <= x.abs().max(y.abs()) * 1e-15
        }
        (V::Array(x), V::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| close(x, y))
        }
        (V::Object(x), V::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| close(v, w)))
        }
        _ => a == b,
    }
}

fn render_rows(name: &str, text: &'static str) -> Workload {
    let input = text.as_bytes();
    let ours: &'static ito::json::Value<'static> =
        Box::leak(Box::new(ito::json::Value::from_slice(input).unwrap()));
    let sonic: &'static sonic_rs::Value = Box::leak(Box::new(sonic_rs::from_slice(input).unwrap()));
    let serde: &'static serde_json::Value =
        Box::leak(Box::new(serde_json::from_slice(input).unwrap()));
    let out = ours.to_vec();
    assert_eq!(&ito::json::Value::from_slice(&out).unwrap(), ours);
    Workload {
        name: format!("render {name}"),
        units: out.len(),
        per: "byte",
        contenders: vec![
            (
                "ito to_vec",
                Box::new(move || drop(black_box(black_box(ours).to_vec()))),
            ),
            (
                "sonic_rs to_vec",
                Box::new(move || drop(black_box(sonic_rs::to_vec(black_box(sonic)).unwrap()))),
            ),
            (
                "serde_json to_vec",
                Box::new(move || drop(black_box(serde_json::to_vec(black_box(serde)).unwrap()))),
            ),
        ],
    }
}

/// Keys as an API's objects have them: 4 to 20 bytes, mixed.
fn keys(n: usize) -> Vec<String> {
    const WORDS: [&str; 10] = [
        "id",
        "name",
        "screen_name",
        "created_at",
        "text",
        "user",
        "url",
        "followers_count",
        "lang",
        "profile_image",
    ];
    (0..n)
        .map(|i| format!("{}_{i}", WORDS[i % WORDS.len()]))
        .collect()
}

fn lookup_rows(n: usize) -> Workload {
    let keys: &'static [String] = Box::leak(keys(n).into_boxed_slice());
    let text: &'static str = Box::leak(
        format!(
            "{{{}}}",
            keys.iter()
                .enumerate()
                .map(|(i, k)| format!("\"{k}\":{i}"))
                .collect::<Vec<_>>()
                .join(",")
        )
        .into_boxed_str(),
    );
    let ours: &'static ito::json::Value<'static> =
        Box::leak(Box::new(ito::json::Value::from_str(text).unwrap()));
    let sonic: &'static sonic_rs::Value = Box::leak(Box::new(sonic_rs::from_str(text).unwrap()));
    let serde: &'static serde_json::Value =
        Box::leak(Box::new(serde_json::from_str(text).unwrap()));
    let ours_obj = ours.as_object().unwrap();
    let sonic_obj = sonic.as_object().unwrap();
    let serde_obj = serde.as_object().unwrap();
    for (i, k) in keys.iter().enumerate() {
        assert_eq!(ours_obj.get(k).unwrap().as_u64(), Some(i as u64));
        assert_eq!(sonic_obj.get(k).unwrap().as_u64(), Some(i as u64));
    }
    Workload {
        name: format!("lookup {n} keys"),
        units: n,
        per: "lookup",
        contenders: vec![
            (
                "ito Map::get",
                Box::new(move || {
                    for k in keys {
                        black_box(black_box(ours_obj).get(black_box(k.as_str())));
                    }
                }),
            ),
            (
                "sonic_rs Object::get",
                Box::new(move || {
                    for k in keys {
                        black_box(black_box(sonic_obj).get(black_box(k)));
                    }
                }),
            ),
            (
                "serde_json Map::get",
                Box::new(move || {
                    for k in keys {
                        black_box(black_box(serde_obj).get(black_box(k.as_str())));
                    }
                }),
            ),
        ],
    }
}

fn workloads() -> Vec<Workload> {
    let mut w = Vec::new();
    for (name, text) in [("twitter", TWITTER), ("citm", CITM), ("canada", CANADA)] {
        w.push(parse_rows(name, text));
    }
    for (name, text) in [("twitter", TWITTER), ("citm", CITM), ("canada", CANADA)] {
        w.push(render_rows(name, text));
    }
    // 12 and 13: the last linear and the first hashed size (object.rs).
    for n in [10, 12, 13, 1000] {
        w.push(lookup_rows(n));
    }
    let only = std::env::var("VALUE_ONLY").ok();
    w.retain(|w| only.as_ref().is_none_or(|o| w.name.contains(o.as_str())));
    w
}

/// Runs `f` for at least `min` (at least once) and returns the time per call.
fn per_call(f: &dyn Fn(), min: Duration) -> Duration {
    let start = Instant::now();
    let mut n = 0u32;
    while n == 0 || start.elapsed() < min {
        f();
        n += 1;
    }
    start.elapsed() / n
}

fn summary(workloads: &[Workload]) {
    let rounds: usize = std::env::var("VALUE_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(30);
    println!(
        "value summary: {} ({rounds} alternating rounds, best kept; ratio = peer time / ito time)",
        ito_bench::cpu_name()
    );
    for w in workloads {
        let mut best = vec![Duration::MAX; w.contenders.len()];
        for _ in 0..rounds {
            for (i, (_, f)) in w.contenders.iter().enumerate() {
                best[i] = best[i].min(per_call(f.as_ref(), Duration::from_millis(5)));
            }
        }
        let cells: Vec<String> = w
            .contenders
            .iter()
            .zip(&best)
            .map(|((n, _), &t)| {
                let per = t.as_secs_f64() / w.units as f64;
                let figure = if w.per == "byte" {
                    format!("{:.2} GB/s ({:.0} µs)", 1e-9 / per, t.as_secs_f64() * 1e6)
                } else {
                    format!("{:.2} ns/lookup", per * 1e9)
                };
                format!(
                    "{n} {figure}, {:.2}x",
                    t.as_secs_f64() / best[0].as_secs_f64()
                )
            })
            .collect();
        println!("{:>17}: {}", w.name, cells.join(" | "));
    }
}

fn criterion_groups(c: &mut Criterion) {
    for w in workloads() {
        let mut g = c.benchmark_group(format!("value/{}", w.name.replace(' ', "_")));
        g.throughput(if w.per == "byte" {
            Throughput::Bytes(w.units as u64)
        } else {
            Throughput::Elements(w.units as u64)
        });
        for (name, f) in &w.contenders {
            g.bench_function(*name, |b| b.iter(f));
        }
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    targets = criterion_groups
}

fn main() {
    summary(&workloads());
    if std::env::var("VALUE_SUMMARY").as_deref() != Ok("only") {
        benches();
        Criterion::default().configure_from_args().final_summary();
    }
}
