//! `ito tour`: every capability on built-in sample data, timed side by side
//! with the std / serde_json way of doing the same work in the same run.

use std::hint::black_box;
use std::time::{Duration, Instant};

use clap::Args;

use crate::io::Failure;

/// twitter.json and citm_catalog.json, embedded so the tour needs no files.
const TWITTER: &str = include_str!("../../../data/corpus/twitter.json");
const CITM: &str = include_str!("../../../data/corpus/citm_catalog.json");

#[derive(Args)]
pub(crate) struct TourArgs {
    /// Time budget per measurement, in milliseconds.
    #[arg(long, default_value_t = 150)]
    millis: u64,
}

/// One line of the tour's table.
struct Row {
    what: String,
    ito: Speed,
    baseline_name: &'static str,
    baseline: Speed,
}

/// A measured rate: bytes (or items) per second.
#[derive(Clone, Copy)]
struct Speed {
    per_sec: f64,
    unit: Unit,
}

#[derive(Clone, Copy)]
enum Unit {
    Bytes,
    Items,
}

impl std::fmt::Display for Speed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.unit {
            Unit::Bytes if self.per_sec >= 1e9 => write!(f, "{:7.2} GB/s", self.per_sec / 1e9),
            Unit::Bytes => write!(f, "{:7.1} MB/s", self.per_sec / 1e6),
            Unit::Items => write!(f, "{:7.2} M/s ", self.per_sec / 1e6),
        }
    }
}

/// Run `work` (which processes `amount` units per call) repeatedly for the
/// budget and return the best rate of three rounds.
fn measure(budget: Duration, amount: usize, unit: Unit, mut work: impl FnMut()) -> Speed {
    work(); // warm caches and any lazily initialised state
    let mut best = 0f64;
    for _ in 0..3 {
        let start = Instant::now();
        let mut calls = 0u64;
        while start.elapsed() < budget / 3 {
            work();
            calls += 1;
        }
        let rate = (calls as f64 * amount as f64) / start.elapsed().as_secs_f64();
        best = best.max(rate);
    }
    Speed {
        per_sec: best,
        unit,
    }
}

/// Every string (keys and values) of a JSON document.
fn strings_of(document: &str) -> Vec<String> {
    fn walk(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            serde_json::Value::Object(map) => {
                for (k, v) in map {
                    out.push(k.clone());
                    walk(v, out);
                }
            }
            _ => {}
        }
    }
    let value: serde_json::Value =
        serde_json::from_str(document).expect("embedded corpus is valid JSON");
    let mut out = Vec::new();
    walk(&value, &mut out);
    out
}

struct Corpus {
    strings: Vec<String>,
    bytes: usize,
    literals: Vec<String>,
    literal_bytes: usize,
}

impl Corpus {
    fn load() -> Corpus {
        let mut strings = strings_of(TWITTER);
        strings.extend(strings_of(CITM));
        let bytes = strings.iter().map(String::len).sum();
        let literals: Vec<String> = strings_of(TWITTER)
            .iter()
            .map(|s| serde_json::to_string(s).expect("strings serialize"))
            .collect();
        let literal_bytes = literals.iter().map(String::len).sum();
        Corpus {
            strings,
            bytes,
            literals,
            literal_bytes,
        }
    }
}

fn json_section(corpus: &Corpus, budget: Duration, rows: &mut Vec<Row>) -> Result<(), Failure> {
    // Check before timing: ito's bytes must equal serde_json's.
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    for s in &corpus.strings {
        ito::json::quote(&mut ours, s);
        serde_json::to_writer(&mut theirs, s).map_err(|e| Failure::msg(e.to_string()))?;
    }
    if ours != theirs {
        return Err(Failure::msg(
            "tour: ito::json::quote differs from serde_json on the corpus",
        ));
    }
    let mut dst = Vec::with_capacity(ours.len());
    rows.push(Row {
        what: format!("json quote: {} corpus strings", corpus.strings.len()),
        ito: measure(budget, corpus.bytes, Unit::Bytes, || {
            dst.clear();
            for s in &corpus.strings {
                ito::json::quote(&mut dst, black_box(s));
            }
            black_box(&dst);
        }),
        baseline_name: "serde_json::to_writer",
        baseline: measure(budget, corpus.bytes, Unit::Bytes, || {
            dst.clear();
            for s in &corpus.strings {
                let _ = serde_json::to_writer(&mut dst, black_box(s));
            }
            black_box(&dst);
        }),
    });

    for lit in &corpus.literals {
        let (value, _) = ito::json::unquote(lit.as_bytes())
            .map_err(|e| Failure::msg(format!("tour: unquote failed: {e}")))?;
        let expected: String =
            serde_json::from_str(lit).map_err(|e| Failure::msg(e.to_string()))?;
        if value != expected {
            return Err(Failure::msg(
                "tour: ito::json::unquote differs from serde_json",
            ));
        }
    }
    rows.push(Row {
        what: format!("json unquote: {} twitter literals", corpus.literals.len()),
        ito: measure(budget, corpus.literal_bytes, Unit::Bytes, || {
            for lit in &corpus.literals {
                black_box(ito::json::unquote(black_box(lit.as_bytes())).ok());
            }
        }),
        baseline_name: "serde_json::from_str::<String>",
        baseline: measure(budget, corpus.literal_bytes, Unit::Bytes, || {
            for lit in &corpus.literals {
                black_box(serde_json::from_str::<String>(black_box(lit)).ok());
            }
        }),
    });
    Ok(())
}

pub(crate) fn run(args: &TourArgs) -> Result<(), Failure> {
    let budget = Duration::from_millis(args.millis.max(3));
    let corpus = Corpus::load();
    println!(
        "ito tour — built-in corpus: twitter.json + citm_catalog.json ({} strings, {} bytes); SIMD kernel: {}",
        corpus.strings.len(),
        corpus.bytes,
        ito::Kernel::best()
    );
    println!("Every ito result below was first checked against the baseline's output.\n");
    let mut rows = Vec::new();
    json_section(&corpus, budget, &mut rows)?;
    print_table(&rows);
    Ok(())
}

fn print_table(rows: &[Row]) {
    let width = rows.iter().map(|r| r.what.len()).max().unwrap_or(0).max(10);
    let base_width = rows
        .iter()
        .map(|r| r.baseline_name.len())
        .max()
        .unwrap_or(0)
        .max(8);
    println!(
        "{:width$}  {:>12}  {:base_width$}  {:>12}  {:>7}",
        "what", "ito", "baseline", "baseline", "ratio"
    );
    for row in rows {
        println!(
            "{:width$}  {}  {:base_width$}  {}  {:6.1}×",
            row.what,
            row.ito,
            row.baseline_name,
            row.baseline,
            row.ito.per_sec / row.baseline.per_sec.max(f64::MIN_POSITIVE)
        );
    }
}
