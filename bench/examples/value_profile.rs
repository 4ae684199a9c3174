//! Parses canada.json into `ito::json::Value` in a loop, for a profiler
//! (`perf record`), printing the best time of one parse: `value_profile [borrow|owned] [twitter|citm|canada]`.

use std::hint::black_box;

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "borrow".into());
    let name = std::env::args().nth(2).unwrap_or_else(|| "canada".into());
    let text = std::fs::read(format!(
        "data/corpus/{}.json",
        if name == "citm" {
            "citm_catalog"
        } else {
            &name
        }
    ))
    .unwrap();
    let mut best = std::time::Duration::MAX;
    for _ in 0..300 {
        let start = std::time::Instant::now();
        if mode == "borrow" {
            drop(black_box(
                ito::json::Value::from_slice(black_box(&text)).unwrap(),
            ));
        } else {
            drop(black_box(
                ito::json::from_slice::<ito::json::Value>(black_box(&text)).unwrap(),
            ));
        }
        best = best.min(start.elapsed());
    }
    println!("{mode} {name}: {best:?} per parse (best of 300)");
}
