//! citm_catalog as typed structs: best-of-N wall time of ito's and
//! serde_json's `to_vec`, alternated in one process (a quicker A/B than the
//! criterion bench; wrap it in `flock /tmp/bench.lock` on a shared host):
//!
//! ```text
//! cargo run --release -p ito-bench --example citm_time -- 300
//! ```
//!
//! Checks the outputs byte-equal first.

use std::hint::black_box;
use std::time::Instant;

use ito_bench::docs::Citm;
use ito_bench::CITM;

fn main() {
    let c: Citm = serde_json::from_str(CITM).unwrap();
    assert_eq!(
        ito::json::to_vec(&c).unwrap(),
        serde_json::to_vec(&c).unwrap()
    );
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(300);
    let (mut a, mut b) = (f64::MAX, f64::MAX);
    for _ in 0..n {
        let t = Instant::now();
        drop(black_box(ito::json::to_vec(black_box(&c)).unwrap()));
        a = a.min(t.elapsed().as_secs_f64() * 1e6);
        let t = Instant::now();
        drop(black_box(serde_json::to_vec(black_box(&c)).unwrap()));
        b = b.min(t.elapsed().as_secs_f64() * 1e6);
    }
    println!("ito {a:.1} us  serde_json {b:.1} us  ratio {:.2}", b / a);
}
