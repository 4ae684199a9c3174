//! Where a `LocalInterner` hit's time goes, beside string-interner's: each
//! table's hash alone (seeded XXH3; foldhash as hashbrown feeds it a `str`)
//! and the whole hit, in the same throughput loop over the bench's keys,
//! best of 25. "Hit minus hash" is the table's part (loads, compare).
//!
//! `cargo run --release -p ito-bench --example intern_hit_split`

use std::hash::{BuildHasher, Hasher};
use std::hint::black_box;
use std::time::Instant;

use string_interner::{backend::StringBackend, StringInterner};

fn best(data: &[String], mut f: impl FnMut(&str)) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..25 {
        let t = Instant::now();
        for s in data {
            f(black_box(s));
        }
        best = best.min(t.elapsed().as_nanos() as f64 / data.len() as f64);
    }
    best
}

fn main() {
    let ids = ito_bench::identifiers(6000, 0x1d5);
    let words = ito_bench::twitter_words();
    for (name, data) in [("identifiers", &ids), ("twitter words", &words)] {
        let fold = foldhash::fast::FixedState::with_seed(7);
        let xxh3 = best(data, |s| {
            black_box(xxhash_rust::xxh3::xxh3_64_with_seed(s.as_bytes(), 0x1234));
        });
        let foldhash = best(data, |s| {
            let mut h = fold.build_hasher();
            h.write(s.as_bytes());
            h.write_u8(0xff);
            black_box(h.finish());
        });
        let mut local = ito::intern::LocalInterner::new();
        let mut si = StringInterner::<StringBackend>::new();
        for s in data.iter() {
            local.intern(s);
            si.get_or_intern(s);
        }
        assert!(local.diagnostics().reserved || cfg!(not(target_pointer_width = "64")));
        let hit_local = best(data, |s| {
            black_box(local.intern(s));
        });
        let hit_si = best(data, |s| {
            black_box(si.get_or_intern(s));
        });
        println!(
            "{name}: hash alone XXH3 {xxh3:.2} ns, foldhash {foldhash:.2} ns | hit LocalInterner {hit_local:.2} ns, string-interner {hit_si:.2} ns ({:.2}x) | hit minus hash {:.2} vs {:.2} ns",
            hit_si / hit_local,
            hit_local - xxh3,
            hit_si - foldhash,
        );
    }
}
