//! Reading whole JSON documents: ito's deserializer against serde_json and
//! sonic-rs, side by side in one process.
//!
//! Workloads: twitter.json, citm_catalog.json and canada.json into typed
//! structs (`ito_bench::docs`, derived as a serde user would) and into
//! `serde_json::Value`, all from `&[u8]` (UTF-8 checked); and JSON lines
//! (twitter's statuses, one per line, then `data/nostr/events.jsonl`) as
//! a stream of `Value`s against serde_json's `StreamDeserializer`. For twitter
//! typed, the floor: allocating and copying every string the typed value
//! owns, nothing else. For the `Value` rows, the floor is serde_json's
//! own `Value` building replayed from a token tape (`value_tape/mod.rs`):
//! what a parser costs above it is its own work. Every contender parses
//! the same bytes (passed through `black_box`) and its result is dropped
//! inside the timed loop; results are checked equal to serde_json's
//! first. Throughput is in input bytes.
//!
//! "twitter reparse-render" is what a relay or API server does with a
//! document it keeps: parse twitter.json into the typed tree, then render
//! it with `ito::json::to_vec`, once with every string an `ito::Str`
//! (whose facts the parser's scan set, so clean strings are copied
//! without a second scan) and once with `String`s; serde_json's parse and
//! render of the `String` tree for reference. All three render the same
//! bytes (checked first). "twitter Str parse" and "twitter Str render"
//! time its two halves apart, the render with a copy of its output as the
//! floor.
//!
//! First a summary (contenders alternated, `DE_ROUNDS` rounds, best
//! kept), then criterion groups. `DE_SUMMARY=only` skips criterion;
//! `DE_ONLY=text` keeps the rows whose name contains `text`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, Criterion, Throughput};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use ito_bench::docs::{Canada, Citm, Twitter};
use ito_bench::{CITM, TWITTER};

mod value_tape;

const CANADA: &str = include_str!("../../data/corpus/canada.json");

type Parse<'a> = (&'static str, Box<dyn Fn() + 'a>);

/// The three parsers' `from_slice` into `T`, checked equal first (as
/// `Value`s; floats within an ulp or two, since this crate's serde_json is
/// built without `float_roundtrip` and may round differently).
fn contenders<T: DeserializeOwned + Serialize + 'static>(
    input: &'static [u8],
) -> Vec<Parse<'static>> {
    let want = serde_json::to_value(serde_json::from_slice::<T>(input).unwrap()).unwrap();
    let ours = serde_json::to_value(ito::json::from_slice::<T>(input).unwrap()).unwrap();
    assert!(close(&ours, &want), "ito differs");
    vec![
        (
            "ito",
            Box::new(move || {
                drop(black_box(
                    ito::json::from_slice::<T>(black_box(input)).unwrap(),
                ))
            }),
        ),
        (
            "serde_json",
            Box::new(move || {
                drop(black_box(
                    serde_json::from_slice::<T>(black_box(input)).unwrap(),
                ))
            }),
        ),
        (
            "sonic_rs",
            Box::new(move || {
                drop(black_box(
                    sonic_rs::from_slice::<T>(black_box(input)).unwrap(),
                ))
            }),
        ),
    ]
}

fn close(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            x == y || (x - y).abs() <= 4.0 * f64::EPSILON * x.abs().max(y.abs())
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| close(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((k, x), (l, y))| k == l && close(x, y))
        }
        _ => a == b,
    }
}

/// Every string leaf of `v` (object keys excluded: typed structs do not
/// own their field names).
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
        Value::Object(o) => o.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// A `Value` row: the three parsers, then the floor (`value_tape/mod.rs`).
fn value_contenders(input: &'static [u8]) -> Vec<Parse<'static>> {
    let mut v = contenders::<Value>(input);
    let tape: &'static value_tape::Tape = Box::leak(Box::new(value_tape::Tape::of(input)));
    v.push((
        "floor (Value from tokens)",
        Box::new(move || drop(black_box(black_box(tape).replay()))),
    ));
    v
}

/// Lazy access: three paths of twitter.json (the first status's user
/// name, the last status's id, and `search_metadata.count` at the very
/// end, so the whole document is walked) in one `get_many` walk, against
/// sonic-rs's `get_many` over a prebuilt `PointerTree` (both check the
/// grammar of what they skip; from bytes sonic-rs also checks the UTF-8
/// of all it read, from `&str` it does not); then three `get` calls from
/// each. Answers checked equal first.
fn get_contenders(input: &'static [u8]) -> Vec<Parse<'static>> {
    use ito::json::PathItem::{Index, Key};
    let paths: [&'static [ito::json::PathItem<'static>]; 3] = [
        &[Key("statuses"), Index(0), Key("user"), Key("screen_name")],
        &[Key("statuses"), Index(99), Key("id_str")],
        &[Key("search_metadata"), Key("count")],
    ];
    let mut tree = sonic_rs::PointerTree::new();
    tree.add_path(&sonic_rs::pointer!["statuses", 0, "user", "screen_name"]);
    tree.add_path(&sonic_rs::pointer!["statuses", 99, "id_str"]);
    tree.add_path(&sonic_rs::pointer!["search_metadata", "count"]);
    let sonic_paths = [
        sonic_rs::pointer!["statuses", 0, "user", "screen_name"].to_vec(),
        sonic_rs::pointer!["statuses", 99, "id_str"].to_vec(),
        sonic_rs::pointer!["search_metadata", "count"].to_vec(),
    ];
    let ours: Vec<String> = ito::json::get_many(input, &paths)
        .unwrap()
        .iter()
        .map(|v| v.unwrap().as_str().to_owned())
        .collect();
    let theirs: Vec<String> = sonic_rs::get_many(input, &tree)
        .unwrap()
        .iter()
        .map(|v| v.as_ref().unwrap().as_raw_str().to_owned())
        .collect();
    assert_eq!(ours, theirs, "get answers differ");
    assert_eq!(ours[2], "100");
    let tree: &'static sonic_rs::PointerTree = Box::leak(Box::new(tree));
    let text: &'static str = std::str::from_utf8(input).unwrap();
    let sonic_paths: &'static [Vec<sonic_rs::PointerNode>] = Box::leak(Box::new(sonic_paths));
    vec![
        (
            "ito get_many",
            Box::new(move || {
                drop(black_box(
                    ito::json::get_many(black_box(input), &paths).unwrap(),
                ))
            }),
        ),
        (
            "sonic-rs get_many",
            Box::new(move || {
                drop(black_box(
                    sonic_rs::get_many(black_box(input), black_box(tree)).unwrap(),
                ))
            }),
        ),
        (
            // From `&str`, sonic-rs skips its UTF-8 check of the bytes it
            // read (ito checks only the values found, in both forms).
            "sonic-rs get_many &str",
            Box::new(move || {
                drop(black_box(
                    sonic_rs::get_many(black_box(text), black_box(tree)).unwrap(),
                ))
            }),
        ),
        (
            "ito get x3",
            Box::new(move || {
                for p in paths {
                    black_box(ito::json::get(black_box(input), p).unwrap());
                }
            }),
        ),
        (
            "sonic-rs get x3",
            Box::new(move || {
                for p in sonic_paths {
                    drop(black_box(sonic_rs::get(black_box(input), p).unwrap()));
                }
            }),
        ),
    ]
}

/// twitter typed's floor: allocate and copy each owned string.
fn twitter_floor() -> Parse<'static> {
    let t: Twitter = serde_json::from_str(TWITTER).unwrap();
    let mut all = Vec::new();
    strings(&serde_json::to_value(&t).unwrap(), &mut all);
    let all: &'static [String] = all.leak();
    (
        "floor (alloc+copy strings)",
        Box::new(move || {
            let owned: Vec<String> = black_box(all)
                .iter()
                .map(|s| s.as_str().to_owned())
                .collect();
            drop(black_box(owned));
        }),
    )
}

/// JSON lines: every twitter status compacted onto a line, then the Nostr
/// events of `data/nostr/events.jsonl` (hostile contents included).
fn json_lines() -> &'static [u8] {
    let twitter: Value = serde_json::from_str(TWITTER).unwrap();
    let mut text = String::new();
    for status in twitter["statuses"].as_array().unwrap() {
        text.push_str(&serde_json::to_string(status).unwrap());
        text.push('\n');
    }
    text.push_str(include_str!("../../data/nostr/events.jsonl"));
    text.into_bytes().leak()
}

/// A stream of `Value`s from JSON lines: ito's `Deserializer::into_iter`
/// against serde_json's `StreamDeserializer`, counted equal first.
fn stream_contenders(input: &'static [u8]) -> Vec<Parse<'static>> {
    let ours: Vec<Value> = ito::json::Deserializer::from_slice(input)
        .into_iter::<Value>()
        .map(Result::unwrap)
        .collect();
    let theirs: Vec<Value> = serde_json::Deserializer::from_slice(input)
        .into_iter::<Value>()
        .map(Result::unwrap)
        .collect();
    assert!(ours.len() == theirs.len() && ours.iter().zip(&theirs).all(|(a, b)| close(a, b)));
    vec![
        (
            "ito",
            Box::new(move || {
                for v in ito::json::Deserializer::from_slice(black_box(input)).into_iter::<Value>()
                {
                    drop(black_box(v.unwrap()));
                }
            }),
        ),
        (
            "serde_json",
            Box::new(move || {
                for v in serde_json::Deserializer::from_slice(black_box(input)).into_iter::<Value>()
                {
                    drop(black_box(v.unwrap()));
                }
            }),
        ),
    ]
}

/// Parse twitter.json and render it again: `Str` fields against `String`
/// fields, both with ito; serde_json with `String` fields.
fn reparse_render() -> Vec<Parse<'static>> {
    let input = TWITTER.as_bytes();
    let want = serde_json::to_vec(&serde_json::from_slice::<Twitter>(input).unwrap()).unwrap();
    let with_str = ito::json::from_slice::<ito_bench::docs::with_str::Twitter>(input).unwrap();
    assert!(
        ito::json::to_vec(&with_str).unwrap() == want,
        "Str render differs"
    );
    let with_string = ito::json::from_slice::<Twitter>(input).unwrap();
    assert!(
        ito::json::to_vec(&with_string).unwrap() == want,
        "String render differs"
    );
    vec![
        (
            "ito Str",
            Box::new(move || {
                let t =
                    ito::json::from_slice::<ito_bench::docs::with_str::Twitter>(black_box(input))
                        .unwrap();
                drop(black_box(ito::json::to_vec(&t).unwrap()));
            }),
        ),
        (
            "ito String",
            Box::new(move || {
                let t = ito::json::from_slice::<Twitter>(black_box(input)).unwrap();
                drop(black_box(ito::json::to_vec(&t).unwrap()));
            }),
        ),
        (
            "serde_json String",
            Box::new(move || {
                let t = serde_json::from_slice::<Twitter>(black_box(input)).unwrap();
                drop(black_box(serde_json::to_vec(&t).unwrap()));
            }),
        ),
    ]
}

/// The two halves of "twitter reparse-render" on their own: the parse
/// into `Str` fields against `String` fields, then the render of each
/// tree, with a copy of the rendered bytes as the render's floor (a render
/// cannot cost less than writing its output).
fn reparse_render_halves() -> (Vec<Parse<'static>>, Vec<Parse<'static>>) {
    use ito_bench::docs::with_str;
    let input = TWITTER.as_bytes();
    let parse: Vec<Parse<'static>> = vec![
        (
            "ito Str",
            Box::new(move || {
                drop(black_box(
                    ito::json::from_slice::<with_str::Twitter>(black_box(input)).unwrap(),
                ))
            }),
        ),
        (
            "ito String",
            Box::new(move || {
                drop(black_box(
                    ito::json::from_slice::<Twitter>(black_box(input)).unwrap(),
                ))
            }),
        ),
    ];
    let with_str: &'static with_str::Twitter =
        Box::leak(Box::new(ito::json::from_slice(input).unwrap()));
    let with_string: &'static Twitter = Box::leak(Box::new(ito::json::from_slice(input).unwrap()));
    let output: &'static [u8] = ito::json::to_vec(with_str).unwrap().leak();
    assert!(ito::json::to_vec(with_string).unwrap() == output);
    let render: Vec<Parse<'static>> = vec![
        (
            "ito Str",
            Box::new(move || drop(black_box(ito::json::to_vec(black_box(with_str)).unwrap()))),
        ),
        (
            "ito String",
            Box::new(move || {
                drop(black_box(
                    ito::json::to_vec(black_box(with_string)).unwrap(),
                ))
            }),
        ),
        (
            "copy of the output",
            Box::new(move || drop(black_box(black_box(output).to_vec()))),
        ),
    ];
    (parse, render)
}

struct Workload {
    name: &'static str,
    bytes: usize,
    contenders: Vec<Parse<'static>>,
}

fn workloads() -> Vec<Workload> {
    let (t, c, k) = (TWITTER.as_bytes(), CITM.as_bytes(), CANADA.as_bytes());
    let (str_parse, str_render) = reparse_render_halves();
    vec![
        Workload {
            name: "twitter typed",
            bytes: t.len(),
            contenders: {
                let mut v = contenders::<Twitter>(t);
                v.push(twitter_floor());
                v
            },
        },
        Workload {
            name: "citm typed",
            bytes: c.len(),
            contenders: contenders::<Citm>(c),
        },
        Workload {
            name: "canada typed",
            bytes: k.len(),
            contenders: contenders::<Canada>(k),
        },
        Workload {
            name: "canada typed f32",
            bytes: k.len(),
            contenders: contenders::<ito_bench::docs::canada_f32::Canada>(k),
        },
        Workload {
            name: "twitter reparse-render",
            bytes: t.len(),
            contenders: reparse_render(),
        },
        Workload {
            name: "twitter Str parse",
            bytes: t.len(),
            contenders: str_parse,
        },
        Workload {
            name: "twitter Str render",
            bytes: t.len(),
            contenders: str_render,
        },
        Workload {
            name: "twitter Value",
            bytes: t.len(),
            contenders: value_contenders(t),
        },
        Workload {
            name: "citm Value",
            bytes: c.len(),
            contenders: value_contenders(c),
        },
        Workload {
            name: "canada Value",
            bytes: k.len(),
            contenders: value_contenders(k),
        },
        Workload {
            name: "twitter get 3 paths",
            bytes: t.len(),
            contenders: get_contenders(t),
        },
        {
            let lines = json_lines();
            Workload {
                name: "lines Value",
                bytes: lines.len(),
                contenders: stream_contenders(lines),
            }
        },
    ]
}

fn summary() {
    let rounds: usize = std::env::var("DE_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(100);
    println!(
        "de summary: {} ({rounds} alternating rounds, best kept; GB/s of input)",
        ito_bench::cpu_name()
    );
    let only = std::env::var("DE_ONLY").ok();
    for w in workloads() {
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
            .enumerate()
            .map(|(i, ((n, _), &t))| {
                if i == 0 {
                    format!("{n} {:.2} GB/s ({:.0} µs)", gbps(t), t.as_secs_f64() * 1e6)
                } else {
                    format!(
                        "{n} {:.2} GB/s ({:.0} µs, ito {:.2}x)",
                        gbps(t),
                        t.as_secs_f64() * 1e6,
                        t.as_secs_f64() / best[0].as_secs_f64()
                    )
                }
            })
            .collect();
        println!("{:>14}: {}", w.name, cells.join(" | "));
    }
}

fn criterion_groups(c: &mut Criterion) {
    for w in workloads() {
        let mut g = c.benchmark_group(format!("de/{}", w.name.replace(' ', "_")));
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
    summary();
    if std::env::var("DE_SUMMARY").as_deref() != Ok("only") {
        benches();
        Criterion::default().configure_from_args().final_summary();
    }
}
