//! `quote` on the medium-text set (issue #12), contenders alternated in
//! one process, 200 rounds, best round per contender (robust on a loaded
//! machine). `cargo run --release -p ito-bench --example medium_alternated
//! [s|m|l|e|4k]`: strings of <= 32 B, 33–64 B, > 64 B, with escapes, or one
//! clean 4 KiB string.

use ito_bench::medium_text;
use std::hint::black_box;
use std::time::Instant;
fn min_time(f: &mut dyn FnMut()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64()
}
fn main() {
    let set = medium_text(4096, 0x5eed_0012_7e47_0001);
    let clean: Vec<String> = vec![(0..4096).map(|i| (b'a' + (i % 26) as u8) as char).collect()];
    let which = std::env::args().nth(1).unwrap_or_default();
    let sub: Vec<String> = match which.as_str() {
        "s" => set.iter().filter(|s| s.len() <= 32).cloned().collect(),
        "m" => set
            .iter()
            .filter(|s| s.len() > 32 && s.len() <= 64)
            .cloned()
            .collect(),
        "l" => set.iter().filter(|s| s.len() > 64).cloned().collect(),
        "e" => set
            .iter()
            .filter(|s| ito::json::needs_escape(s.as_bytes()))
            .cloned()
            .collect(),
        _ => set.clone(),
    };
    let strings = if which == "4k" { &clean } else { &sub };
    let reps = if which == "4k" { 4000 } else { 20 };
    let mut out: Vec<u8> = Vec::with_capacity(1 << 20);
    let names = ["ito", "sonic", "memcpy2", "serde"];
    let mut best = [f64::MAX; 4];
    for _round in 0..200 {
        for (k, b) in best.iter_mut().enumerate() {
            let t = min_time(&mut || {
                for _ in 0..reps {
                    out.clear();
                    for s in strings.iter() {
                        match k {
                            0 => ito::json::quote(&mut out, black_box(s)),
                            1 => sonic_rs::to_writer(&mut out, black_box(s.as_str())).unwrap(),
                            2 => {
                                out.push(b'"');
                                out.extend_from_slice(black_box(s.as_bytes()));
                                out.push(b'"');
                            }
                            _ => serde_json::to_writer(&mut out, black_box(s.as_str())).unwrap(),
                        }
                    }
                    black_box(out.len());
                }
            });
            *b = b.min(t / (reps * strings.len()) as f64);
        }
    }
    for (n, b) in names.iter().zip(best) {
        println!(
            "{n:8} {:.2} ns/string   this time ÷ ito time (> 1: ito faster): {:.2}",
            b * 1e9,
            b / best[0]
        );
    }
}
