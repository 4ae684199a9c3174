//! canada.json into typed structs: ito against serde_json built with
//! `float_roundtrip` (correctly rounded floats, as ito's), alternated in
//! one process, best of the rounds. The workspace's `--bench de` compares
//! with serde_json's default float path instead, which is faster because
//! it may be off by an ulp.
//!
//! `cargo run --release --example canada_floats` (in this directory)

use std::hint::black_box;
use std::time::{Duration, Instant};

use serde::Deserialize;

#[derive(Deserialize, PartialEq, Debug)]
struct Canada {
    features: Vec<Feature>,
}

#[derive(Deserialize, PartialEq, Debug)]
struct Feature {
    geometry: Geometry,
}

#[derive(Deserialize, PartialEq, Debug)]
struct Geometry {
    coordinates: Vec<Vec<(f64, f64)>>,
}

fn main() {
    let text = include_bytes!("../../data/corpus/canada.json");
    let ours: Canada = ito::json::from_slice(text).unwrap();
    let theirs: Canada = serde_json::from_slice(text).unwrap();
    assert_eq!(ours, theirs, "every float bit for bit");
    let rounds = 100;
    let (mut best_ito, mut best_sj) = (Duration::MAX, Duration::MAX);
    for _ in 0..rounds {
        let t = Instant::now();
        drop(black_box(
            ito::json::from_slice::<Canada>(black_box(text)).unwrap(),
        ));
        best_ito = best_ito.min(t.elapsed());
        let t = Instant::now();
        drop(black_box(
            serde_json::from_slice::<Canada>(black_box(text)).unwrap(),
        ));
        best_sj = best_sj.min(t.elapsed());
    }
    println!(
        "canada typed, best of {rounds}: ito {best_ito:?} | serde_json (float_roundtrip) {best_sj:?} | ito {:.2}x",
        best_sj.as_secs_f64() / best_ito.as_secs_f64()
    );
}
