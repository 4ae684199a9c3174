//! One rendering per process, for instruction counts under callgrind
//! (load-independent, unlike wall time on the shared host):
//!
//! ```text
//! valgrind --tool=callgrind --toggle-collect='*docs_profile*measured*' \
//!     target/release/examples/docs_profile canada ito
//! ```
//!
//! Documents: `twitter`, `citm`, `canada` (typed), `canada-value`,
//! `citm-value`. Contenders: `ito`, `serde_json`, `sonic_rs`, `writer` (twitter by hand with `ito::json::Writer`), and for
//! canada `floor`: only the zmij calls serde_json makes for its floats
//! (`Buffer::new` + `format_finite`, lengths summed), and `floor-copy`:
//! the same plus appending each text to a reused `Vec`.
//! Without callgrind, the wall time of `DOCS_REPS` renderings is printed.

use std::hint::black_box;
use std::time::Instant;

use ito_bench::docs::{Canada, Citm, Twitter};
use ito_bench::{CITM, TWITTER};

const CANADA: &str = include_str!("../../data/corpus/canada.json");

fn floats(c: &Canada) -> Vec<f64> {
    let mut v = Vec::new();
    for f in &c.features {
        for ring in &f.geometry.coordinates {
            for &(a, b) in ring {
                v.push(a);
                v.push(b);
            }
        }
    }
    v
}

#[inline(never)]
fn measured_floor(fs: &[f64]) -> usize {
    let mut n = 0;
    for &f in black_box(fs) {
        let mut b = zmij::Buffer::new();
        n += b.format_finite(f).len();
    }
    n
}

#[inline(never)]
fn measured_floor_copy(fs: &[f64], out: &mut Vec<u8>) -> usize {
    out.clear();
    for &f in black_box(fs) {
        let mut b = zmij::Buffer::new();
        out.extend_from_slice(b.format_finite(f).as_bytes());
    }
    out.len()
}

#[inline(never)]
fn measured_render<T: serde::Serialize + 'static>(who: &str, v: &T) -> usize {
    let out = match who {
        "ito" => ito::json::to_vec(black_box(v)).unwrap(),
        "serde_json" => serde_json::to_vec(black_box(v)).unwrap(),
        "sonic_rs" => sonic_rs::to_vec(black_box(v)).unwrap(),
        "writer" => {
            let any: &dyn std::any::Any = v;
            let t = any.downcast_ref::<Twitter>().expect("writer: twitter only");
            let mut out = Vec::with_capacity(128);
            ito_bench::docs::write_twitter(&mut out, black_box(t));
            out
        }
        _ => panic!("contender: ito, serde_json, sonic_rs, floor, floor-copy"),
    };
    black_box(out).len()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (doc, who) = (args[1].as_str(), args[2].as_str());
    let reps: usize = std::env::var("DOCS_REPS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1);
    let start = Instant::now();
    let mut n = 0;
    for _ in 0..reps {
        n += match (doc, who) {
            ("canada", "floor") | ("canada", "floor-copy") => {
                let c: Canada = serde_json::from_str(CANADA).unwrap();
                let fs = floats(&c);
                let t = Instant::now();
                let mut out = Vec::with_capacity(fs.len() * 24);
                let mut k = 0;
                for _ in 0..reps {
                    k += if who == "floor" {
                        measured_floor(&fs)
                    } else {
                        measured_floor_copy(&fs, &mut out)
                    };
                }
                eprintln!(
                    "{doc} {who}: {} floats, {:?}/rep",
                    fs.len(),
                    t.elapsed() / reps as u32
                );
                black_box(k);
                return;
            }
            ("canada", _) => measured_render(who, &serde_json::from_str::<Canada>(CANADA).unwrap()),
            ("citm", _) => measured_render(who, &serde_json::from_str::<Citm>(CITM).unwrap()),
            ("twitter", _) => {
                measured_render(who, &serde_json::from_str::<Twitter>(TWITTER).unwrap())
            }
            ("canada-value", _) => measured_render(
                who,
                &serde_json::from_str::<serde_json::Value>(CANADA).unwrap(),
            ),
            ("citm-value", _) => measured_render(
                who,
                &serde_json::from_str::<serde_json::Value>(CITM).unwrap(),
            ),
            _ => panic!("document: twitter, citm, canada, canada-value, citm-value"),
        };
    }
    eprintln!(
        "{doc} {who}: {n} bytes, {:?} total incl. parsing",
        start.elapsed()
    );
}
