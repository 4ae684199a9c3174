//! The growth-latency section of the interning benchmarks: intern
//! 2,000,000 distinct keys one at a time into a fresh table, time every
//! insert, and print percentiles. A slow insert is only the table's fault if
//! the thread was not descheduled meanwhile, so every insert slower than
//! 20 µs also reads the thread's involuntary context-switch count
//! (`getrusage(RUSAGE_THREAD)`, Linux) and is marked preempted when it
//! changed; the report gives the maximum over the clean inserts beside the
//! raw one.
//!
//! That filter misses stalls the guest kernel never sees (the hypervisor
//! taking the vCPU away, interrupts), so the section also keeps, for each
//! implementation, the *fastest* time of every insert over all runs
//! ([`Growth::floors`]). The runs repeat the same work (same keys, same
//! seed), so a slow insert that the table causes is slow in every run, while
//! a host stall hits one run at one random insert and disappears in the
//! minimum. A no-op timed the same way ([`Growth::control`]) shows the
//! host's own floor.

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
    /// Per implementation (the name before ` #`): the fastest time of each
    /// insert over the runs so far, and how many runs that was.
    floors: Vec<(String, Vec<u32>, usize)>,
}

impl Growth {
    /// `n` keys `grow_<i>_key` and room for their timings.
    pub fn new(n: usize) -> Self {
        let keys: Vec<String> = (0..n).map(|i| format!("grow_{i}_key")).collect();
        Growth {
            keys,
            lat: vec![0u32; n],
            preempted: vec![false; n],
            floors: Vec::new(),
        }
    }

    /// Run `run` of two controls, timed like the tables: a no-op
    /// (`black_box(key.len())`, "no-op (host floor)"), what this host adds
    /// to any timed call; and inserts into a `std` `HashSet` presized for
    /// every key ("presized HashSet"), which never rehashes, so its slowest
    /// insert is the host plus allocation, not growth.
    ///
    /// ```
    /// let mut g = ito_bench::Growth::new(1000);
    /// g.control(0);
    /// assert_eq!(g.floors().len(), 2);
    /// ```
    pub fn control(&mut self, run: usize) {
        self.time(|k| {
            std::hint::black_box(k.len());
        });
        self.percentiles(&format!("no-op (host floor) #{run}"), false);
        let mut set = std::collections::HashSet::with_capacity(self.keys.len());
        self.time(|k| {
            set.insert(k.to_owned());
        });
        drop(set);
        self.percentiles(&format!("presized HashSet #{run}"), false);
    }

    /// Per implementation: `(name, runs, worst, at, p99.99)` of the
    /// per-insert minimum over all runs so far — `worst` is the largest of
    /// the inserts' fastest times (ns; each insert's minimum may come from
    /// a different run) and `at` that insert's position.
    ///
    /// ```
    /// let mut g = ito_bench::Growth::new(100);
    /// for run in 0..2 {
    ///     g.time(|k| {
    ///         std::hint::black_box(k);
    ///     });
    ///     g.percentiles(&format!("noop #{run}"), false);
    /// }
    /// let floors = g.floors();
    /// assert_eq!((floors[0].0.as_str(), floors[0].1), ("noop", 2));
    /// ```
    pub fn floors(&self) -> Vec<(String, usize, u32, usize, u32)> {
        self.floors
            .iter()
            .map(|(name, min, runs)| {
                let (worst, at) = min
                    .iter()
                    .enumerate()
                    .map(|(i, &l)| (l, i))
                    .max()
                    .unwrap_or((0, 0));
                let mut sorted = min.clone();
                sorted.sort_unstable();
                let p9999 = sorted
                    .get((sorted.len() as f64 * 0.9999) as usize)
                    .copied()
                    .unwrap_or(0);
                (name.clone(), *runs, worst, at, p9999)
            })
            .collect()
    }

    /// Print [`Growth::floors`], one line per implementation.
    pub fn print_floors(&self) {
        println!(
            "-- per-insert minimum over the runs (a slow insert the table causes is slow in every run) --"
        );
        for (name, runs, worst, at, p9999) in self.floors() {
            println!(
                "{name:>22}: worst insert {worst:>10} ns (insert #{at}), p99.99 {p9999:>7} ns, over {runs} runs"
            );
        }
    }

    fn fold_floor(&mut self, name: &str) {
        let base = name.split(" #").next().unwrap_or(name);
        let i = match self.floors.iter().position(|(n, ..)| n == base) {
            Some(i) => i,
            None => {
                let n = self.lat.len();
                self.floors.push((base.to_owned(), vec![u32::MAX; n], 0));
                self.floors.len() - 1
            }
        };
        let (_, min, runs) = &mut self.floors[i];
        for (m, &l) in min.iter_mut().zip(&self.lat) {
            *m = (*m).min(l);
        }
        *runs += 1;
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
    /// inserts and their positions (to relate them to table resizes). Runs
    /// of one implementation are named `<name> #<run>`; their per-insert
    /// minimum goes into [`Growth::floors`].
    pub fn percentiles(&mut self, name: &str, slowest: bool) {
        self.fold_floor(name);
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
