//! Parses a corpus document into `ito::json::Value` (or a peer's value) in
//! a loop, for a profiler (`perf record`), printing the best time of one
//! parse and of one drop, apart:
//! `value_profile [arena|borrow|owned|sonic|serde] [twitter|citm|canada] [rounds]`
//! (`arena`: `Value::from_slice_in`, the arena made in the parse's time
//! and dropped, after the value, in the drop's).

use std::hint::black_box;
use std::time::{Duration, Instant};

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "borrow".into());
    let name = std::env::args().nth(2).unwrap_or_else(|| "canada".into());
    let rounds: usize = std::env::args()
        .nth(3)
        .map_or(300, |r| r.parse().expect("rounds"));
    let text = std::fs::read(format!(
        "data/corpus/{}.json",
        if name == "citm" {
            "citm_catalog"
        } else {
            &name
        }
    ))
    .unwrap();
    let (mut parse, mut drop_) = (Duration::MAX, Duration::MAX);
    for _ in 0..rounds {
        let (p, d) = match mode.as_str() {
            "arena" => {
                let start = Instant::now();
                let arena = ito::json::Arena::new();
                let v =
                    black_box(ito::json::Value::from_slice_in(&arena, black_box(&text)).unwrap());
                let mid = Instant::now();
                drop(v);
                drop(arena);
                (mid - start, mid.elapsed())
            }
            "borrow" => timed(|| ito::json::Value::from_slice(black_box(&text)).unwrap()),
            "owned" => {
                timed(|| ito::json::from_slice::<ito::json::Value>(black_box(&text)).unwrap())
            }
            "sonic" => timed(|| sonic_rs::from_slice::<sonic_rs::Value>(black_box(&text)).unwrap()),
            "serde" => {
                timed(|| serde_json::from_slice::<serde_json::Value>(black_box(&text)).unwrap())
            }
            _ => panic!("mode: arena, borrow, owned, sonic or serde"),
        };
        parse = parse.min(p);
        drop_ = drop_.min(d);
    }
    println!("{mode} {name}: parse {parse:?}, drop {drop_:?} (best of {rounds} each)");
}

/// The time to build the value, then the time to drop it.
fn timed<T>(f: impl FnOnce() -> T) -> (Duration, Duration) {
    let start = Instant::now();
    let v = black_box(f());
    let mid = Instant::now();
    drop(v);
    (mid - start, mid.elapsed())
}
