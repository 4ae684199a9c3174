//! The printed (non-criterion) sections of the interning benchmarks: which
//! sections to run, the CPU line, best-of ratio lines and memory-per-entry
//! rows. The bench binaries `intern` and `intern_local` share these so that
//! their output lines (quoted in `bench/RESULTS.md`) keep one format.

use std::time::{Duration, Instant};

/// The model name from `/proc/cpuinfo` (`"unknown"` where there is none),
/// printed first so every quoted figure names its host.
pub fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".into())
}

/// Which printed sections a bench binary runs before criterion.
///
/// - criterion's quick modes (`--test`, `--list` among the arguments) and
///   `ITO_BENCH_SKIP_CUSTOM` run none of them ([`Sections::from_env`] is
///   `None`);
/// - `ITO_BENCH_ONLY=<section>` runs that one section and nothing else (the
///   binary returns after the printed sections, criterion does not run);
/// - otherwise every section runs, then criterion.
pub struct Sections {
    only: Option<String>,
}

impl Sections {
    /// The sections this process should run, or `None` when it should go
    /// straight to criterion. When `Some`, the CPU line has been printed.
    pub fn from_env() -> Option<Self> {
        let quick = std::env::args().any(|a| a == "--test" || a == "--list");
        if quick || std::env::var_os("ITO_BENCH_SKIP_CUSTOM").is_some() {
            return None;
        }
        println!("CPU: {}", cpu_name());
        Some(Sections {
            only: std::env::var("ITO_BENCH_ONLY").ok(),
        })
    }

    /// Whether `section` runs: no `ITO_BENCH_ONLY`, or it names `section`.
    pub fn want(&self, section: &str) -> bool {
        self.only.as_deref().is_none_or(|o| o == section)
    }

    /// The value of `ITO_BENCH_ONLY`, if set (the binary then returns after
    /// its printed sections).
    pub fn only(&self) -> Option<&str> {
        self.only.as_deref()
    }

    /// Run the wanted ones of `sections` (name, body) in order; `true` when
    /// the binary should stop there (`ITO_BENCH_ONLY` is set).
    ///
    /// ```
    /// # fn run(sections: &ito_bench::Sections) {
    /// let mut ran = Vec::new();
    /// if sections.run(&mut [
    ///     ("memory", &mut || ran.push("memory")),
    ///     ("growth", &mut || println!("growth")),
    /// ]) {
    ///     return;
    /// }
    /// # }
    /// ```
    pub fn run(&self, sections: &mut [(&str, &mut dyn FnMut())]) -> bool {
        for (name, body) in sections.iter_mut() {
            if self.want(name) {
                body();
            }
        }
        self.only.is_some()
    }
}

/// The wall time `f` takes.
pub fn timed(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

/// How [`print_ratios`] labels each peer's time relative to the first
/// entry's.
#[derive(Clone, Copy)]
pub enum Ratio<'a> {
    /// `(1.23x)`.
    Bare,
    /// `(<first> 1.23x faster)`, naming the first entry.
    Faster(&'a str),
}

/// Print one line of best-of results: each entry's time per operation
/// (`per` operations per run) and, after the first, its time relative to
/// the first entry's.
///
/// ```
/// use std::time::Duration;
/// let r = vec![
///     ("ito".to_string(), Duration::from_nanos(100)),
///     ("lasso".to_string(), Duration::from_nanos(150)),
/// ];
/// ito_bench::print_ratios("hit identifiers", 10, &r, ito_bench::Ratio::Faster("ito"));
/// // prints "hit identifiers: ito 10.0 ns | lasso 15.0 ns (ito 1.50x faster)",
/// // the title right-aligned in 34 columns
/// ```
pub fn print_ratios(title: &str, per: u64, results: &[(String, Duration)], ratio: Ratio<'_>) {
    let first = results[0].1.as_nanos() as f64;
    let cells: Vec<String> = results
        .iter()
        .map(|(n, d)| {
            let ns = d.as_nanos() as f64 / per as f64;
            let x = d.as_nanos() as f64 / first;
            if n == &results[0].0 {
                format!("{n} {ns:.1} ns")
            } else {
                match ratio {
                    Ratio::Bare => format!("{n} {ns:.1} ns ({x:.2}x)"),
                    Ratio::Faster(who) => format!("{n} {ns:.1} ns ({who} {x:.2}x faster)"),
                }
            }
        })
        .collect();
    println!("{title:>34}: {}", cells.join(" | "));
}

/// The datasets of the memory report: the 6,000 benchmark identifiers, the
/// distinct twitter words, and 100k and 1M fresh identifiers.
pub fn memory_datasets(ids: &[String], words: &[String]) -> Vec<(&'static str, Vec<String>)> {
    vec![
        ("identifiers (6000)", ids.to_vec()),
        ("twitter words", crate::distinct(words)),
        ("identifiers (100k)", crate::identifiers(100_000, 7)),
        ("identifiers (1M)", crate::identifiers(1_000_000, 9)),
    ]
}

/// Size figures of one dataset, to express allocated bytes per entry.
pub struct PerEntry {
    n: usize,
    bytes: usize,
}

impl PerEntry {
    /// The figures of `words` (count and total string bytes).
    pub fn of(words: &[String]) -> Self {
        PerEntry {
            n: words.len(),
            bytes: words.iter().map(String::len).sum(),
        }
    }

    /// `bytes` per entry, as a plain number.
    pub fn per(&self, bytes: isize) -> f64 {
        bytes as f64 / self.n as f64
    }

    /// `total` bytes as `"  58.8 B/entry ( 46.3)"`: per entry, and in
    /// parentheses per entry beyond the string bytes themselves.
    ///
    /// ```
    /// let e = ito_bench::PerEntry::of(&["ab".to_string(), "cd".to_string()]);
    /// assert_eq!(e.format(10), "   5.0 B/entry (  3.0)");
    /// ```
    pub fn format(&self, total: isize) -> String {
        let n = self.n as f64;
        format!(
            "{:6.1} B/entry ({:5.1})",
            total as f64 / n,
            (total as f64 - self.bytes as f64) / n
        )
    }

    /// The start of a memory row: `"<name>: n=<count> avg <bytes> B"`.
    pub fn head(&self, name: &str) -> String {
        format!(
            "{name:>22}: n={:7} avg {:5.1} B",
            self.n,
            self.bytes as f64 / self.n as f64
        )
    }
}

/// Print the memory section: its title, then `row(name, words, figures)`
/// for each dataset (the row measures with [`crate::count_bytes`] and
/// prints one line starting with [`PerEntry::head`]).
pub fn memory_report(
    datasets: &[(&str, Vec<String>)],
    mut row: impl FnMut(&str, &[String], &PerEntry),
) {
    println!("\n== memory per entry (counting allocator; bytes beyond the string bytes in parentheses) ==");
    for (name, words) in datasets {
        row(name, words, &PerEntry::of(words));
    }
}
