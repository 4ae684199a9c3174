//! twitter.json parsed into the typed tree and rendered again, split into
//! its two halves: best-of-N wall time of each, contenders alternated in
//! one process (the `de` bench's "twitter reparse-render" row times the
//! sum):
//!
//! ```text
//! cargo run --release -p ito-bench --example reparse_split -- 200
//! ```
//!
//! Rows: ito's parse into `Str` and into `String` fields; the first
//! rendering of a freshly parsed `Str` tree whose facts the parser's scan
//! set (ito's parse) and of one whose facts are unknown (serde_json's
//! parse: the serializer learns them by escaping), which isolates what the
//! facts save; and rendering the `String` tree.
//!
//! `-- 0 facts` or `-- 0 unknown` renders one fresh tree of that kind once
//! and exits, for `valgrind --tool=callgrind --toggle-collect='*split::render*'`;
//! `-- 0 both-str` or `-- 0 both-string` parses and renders once, for
//! `--toggle-collect='*parse_render*'`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use ito_bench::docs::with_str::Twitter as StrTwitter;
use ito_bench::docs::Twitter;
use ito_bench::TWITTER;

type Timed<'a> = (&'static str, Box<dyn Fn() -> Duration + 'a>);

/// Renders `tree` (a function of its own, for callgrind to count).
#[inline(never)]
fn render(tree: &StrTwitter) -> Vec<u8> {
    ito::json::to_vec(tree).unwrap()
}

/// Parses `input` into `T` (a twitter tree) and renders it (the `de`
/// bench's row, once, for callgrind).
#[inline(never)]
fn parse_render<T>(input: &[u8]) -> Vec<u8>
where
    T: serde::de::DeserializeOwned + serde::Serialize,
{
    ito::json::to_vec(&ito::json::from_slice::<T>(input).unwrap()).unwrap()
}

/// The first rendering of `tree`, timed alone.
fn first_render(tree: StrTwitter) -> Duration {
    let start = Instant::now();
    drop(black_box(render(black_box(&tree))));
    let t = start.elapsed();
    drop(tree);
    t
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(200);
    let input = TWITTER.as_bytes();
    let scanned = || ito::json::from_slice::<StrTwitter>(input).unwrap();
    let unknown = || serde_json::from_slice::<StrTwitter>(input).unwrap();
    match args.get(2).map(String::as_str) {
        Some("facts") => {
            first_render(scanned());
            return;
        }
        Some("unknown") => {
            first_render(unknown());
            return;
        }
        Some("both-str") => {
            black_box(parse_render::<StrTwitter>(input));
            return;
        }
        Some("both-string") => {
            black_box(parse_render::<Twitter>(input));
            return;
        }
        _ => {}
    }
    let want = serde_json::to_vec(&serde_json::from_slice::<Twitter>(input).unwrap()).unwrap();
    assert!(ito::json::to_vec(&scanned()).unwrap() == want);
    assert!(ito::json::to_vec(&unknown()).unwrap() == want);
    let strings: Twitter = ito::json::from_slice(input).unwrap();
    let rows: Vec<Timed> = vec![
        (
            "parse, Str fields",
            Box::new(|| {
                let start = Instant::now();
                drop(black_box(
                    ito::json::from_slice::<StrTwitter>(black_box(input)).unwrap(),
                ));
                start.elapsed()
            }),
        ),
        (
            "parse, String fields",
            Box::new(|| {
                let start = Instant::now();
                drop(black_box(
                    ito::json::from_slice::<Twitter>(black_box(input)).unwrap(),
                ));
                start.elapsed()
            }),
        ),
        (
            "first render, Str with facts from the scan",
            Box::new(|| first_render(scanned())),
        ),
        (
            "first render, Str with facts unknown",
            Box::new(|| first_render(unknown())),
        ),
        (
            "render, String fields",
            Box::new(|| {
                let start = Instant::now();
                drop(black_box(ito::json::to_vec(black_box(&strings)).unwrap()));
                start.elapsed()
            }),
        ),
    ];
    let mut best = vec![Duration::MAX; rows.len()];
    for _ in 0..rounds {
        for (b, (_, f)) in best.iter_mut().zip(&rows) {
            *b = (*b).min(f());
        }
    }
    println!(
        "{} ({rounds} alternating rounds, best kept)",
        ito_bench::cpu_name()
    );
    for ((name, _), b) in rows.iter().zip(best) {
        println!("{name:>44}: {:7.1} µs", b.as_secs_f64() * 1e6);
    }
}
