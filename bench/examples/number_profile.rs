//! Reads canada.json into json-benchmark's typed structs (`f32` or `f64`
//! coordinates) in a loop, for a profiler (`perf record`), printing the
//! best time of one parse and drop:
//! `number_profile [ito|serde|sonic] [f32|f64] [rounds]`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use ito_bench::docs::{canada_f32, Canada};

fn main() {
    let who = std::env::args().nth(1).unwrap_or_else(|| "ito".into());
    let width = std::env::args().nth(2).unwrap_or_else(|| "f32".into());
    let rounds: usize = std::env::args()
        .nth(3)
        .map_or(300, |r| r.parse().expect("rounds"));
    let text = std::fs::read("data/corpus/canada.json").unwrap();
    let mut best = Duration::MAX;
    for _ in 0..rounds {
        let start = Instant::now();
        match (who.as_str(), width.as_str()) {
            ("ito", "f32") => drop(black_box(
                ito::json::from_slice::<canada_f32::Canada>(black_box(&text)).unwrap(),
            )),
            ("ito", _) => drop(black_box(
                ito::json::from_slice::<Canada>(black_box(&text)).unwrap(),
            )),
            ("serde", "f32") => drop(black_box(
                serde_json::from_slice::<canada_f32::Canada>(black_box(&text)).unwrap(),
            )),
            ("serde", _) => drop(black_box(
                serde_json::from_slice::<Canada>(black_box(&text)).unwrap(),
            )),
            ("sonic", "f32") => drop(black_box(
                sonic_rs::from_slice::<canada_f32::Canada>(black_box(&text)).unwrap(),
            )),
            ("sonic", _) => drop(black_box(
                sonic_rs::from_slice::<Canada>(black_box(&text)).unwrap(),
            )),
            _ => panic!("who: ito, serde or sonic"),
        }
        best = best.min(start.elapsed());
    }
    println!("{who} canada {width}: {best:?} (best of {rounds})");
}
