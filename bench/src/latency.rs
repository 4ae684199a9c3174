//! The growth-latency section of the interning benchmarks: intern
//! 2,000,000 distinct keys one at a time into a fresh table, time every
//! insert, and print percentiles. A slow insert is only the table's fault if
//! the thread was not descheduled meanwhile, so every insert slower than
//! 20 µs also reads the thread's involuntary context-switch count
//! (`getrusage(RUSAGE_THREAD)`, Linux) and is marked preempted when it
//! changed; the report gives the maximum over the clean inserts beside the
//! raw one.

use std::time::Instant;

/// How many distinct keys the growth section interns.
pub const GROWTH_KEYS: usize = 2_000_000;

/// Involuntary context switches of this thread so far.
pub fn preemptions() -> i64 {
    // SAFETY: getrusage writes one `rusage` struct we own; all-zero bytes
    // are a valid `rusage` (plain integers).
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_THREAD, &mut usage);
        usage.ru_nivcsw
    }
}

/// The keys and the per-insert measurements of the growth section, reused
/// across tables and runs.
pub struct Growth {
    keys: Vec<String>,
    lat: Vec<u32>,
    preempted: Vec<bool>,
}

impl Growth {
    /// `n` keys `grow_<i>_key` and room for their timings.
    pub fn new(n: usize) -> Self {
        let keys: Vec<String> = (0..n).map(|i| format!("grow_{i}_key")).collect();
        Growth {
            keys,
            lat: vec![0u32; n],
            preempted: vec![false; n],
        }
    }

    /// Print the section title.
    pub fn title(&self, runs: usize) {
        println!(
            "\n== growth: {} distinct strings interned one at a time ({runs} runs each) ==",
            self.keys.len()
        );
    }

    /// Call `insert` on every key in order, timing each call (nanoseconds,
    /// saturating at `u32::MAX`) and marking the slow ones (> 20 µs) during
    /// which this thread was preempted.
    ///
    /// ```
    /// let mut g = ito_bench::Growth::new(1000);
    /// let mut seen = std::collections::HashSet::new();
    /// g.time(|k| {
    ///     seen.insert(k.to_owned());
    /// });
    /// assert_eq!(seen.len(), 1000);
    /// g.percentiles("HashSet", false);
    /// ```
    pub fn time<F: FnMut(&str)>(&mut self, mut insert: F) {
        let mut seen = preemptions();
        for ((slot, p), k) in self
            .lat
            .iter_mut()
            .zip(self.preempted.iter_mut())
            .zip(&self.keys)
        {
            let start = Instant::now();
            insert(k);
            let ns = start.elapsed().as_nanos().min(u32::MAX as u128) as u32;
            *slot = ns;
            *p = false;
            if ns > 20_000 {
                let now = preemptions();
                *p = now != seen;
                seen = now;
            }
        }
    }

    /// Print the latency percentiles of the last [`Growth::time`] as one
    /// line headed `name`; with `slowest`, also the four slowest clean
    /// inserts and their positions (to relate them to table resizes).
    pub fn percentiles(&mut self, name: &str, slowest: bool) {
        let (lat, preempted) = (&mut self.lat, &self.preempted);
        let clean_max = lat
            .iter()
            .zip(preempted)
            .filter(|(_, &p)| !p)
            .map(|(&l, _)| l)
            .max()
            .unwrap_or(0);
        let clean_over = lat
            .iter()
            .zip(preempted)
            .filter(|(&l, &p)| !p && l > 50_000)
            .count();
        let n_preempted = preempted.iter().filter(|&&p| p).count();
        let worst = if slowest {
            let mut worst: Vec<(u32, usize)> = lat
                .iter()
                .zip(preempted)
                .enumerate()
                .filter(|(_, (_, &p))| !p)
                .map(|(i, (&l, _))| (l, i))
                .collect();
            worst.sort_unstable_by(|a, b| b.cmp(a));
            worst.truncate(4);
            format!(" | slowest clean (ns @ insert #): {worst:?}")
        } else {
            String::new()
        };
        lat.sort_unstable();
        let at = |q: f64| lat[((lat.len() as f64 * q) as usize).min(lat.len() - 1)];
        let (p50, p99, p9999, max) = (at(0.5), at(0.99), at(0.9999), lat[lat.len() - 1]);
        println!(
            "{name:>22}: p50 {p50:>6} ns  p99 {p99:>6} ns  p99.99 {p9999:>8} ns  max {max:>10} ns | not preempted: max {clean_max:>9} ns, >50 µs: {clean_over} ({n_preempted} preempted){worst}"
        );
    }
}
