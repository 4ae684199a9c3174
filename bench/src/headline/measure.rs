//! Timing contenders against each other in alternation.
//!
//! A case is ito and one or more peers doing the same work. Each contender
//! runs in batches of about `Budget::batch` (its own iteration count, found
//! by doubling), and every round times one batch of each contender, in an
//! order that rotates and reverses from round to round, so a load swing on
//! a shared host hits every contender alike. The figures kept are the best
//! (lowest) time per operation of each contender over all rounds, their
//! ratio (peer time / ito time: above 1, ito is faster), and the quartiles
//! of the per-round ratios as its spread. A shared host only ever adds
//! time (preemption, cache pollution), so each contender's best round is
//! the steadier estimate; the per-round ratios show how much the rounds
//! disagreed.

use std::hint::black_box;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// How long to measure.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Wall time for all rounds of one case.
    pub per_case: Duration,
    /// Target length of one timed batch.
    pub batch: Duration,
    /// Fewest rounds, whatever the time.
    pub min_rounds: usize,
}

impl Budget {
    /// About three minutes for the whole report on two cores.
    pub fn full() -> Self {
        Budget {
            per_case: Duration::from_millis(5500),
            batch: Duration::from_millis(4),
            min_rounds: 15,
        }
    }

    /// A few rounds per case: proves every case runs, figures not meant
    /// to be read.
    pub fn quick() -> Self {
        Budget {
            per_case: Duration::from_millis(60),
            batch: Duration::from_micros(500),
            min_rounds: 3,
        }
    }
}

/// One implementation of a case's work: a name and a function that runs
/// the work `n` times.
pub struct Contender<'a> {
    name: String,
    run: Box<dyn FnMut(u64) + 'a>,
}

/// A contender whose one operation is `f` (the loop around `f` is compiled
/// for this closure, so the call inlines; only the batch is a dynamic call).
/// `f` should take its inputs through `black_box` and drop its result.
pub fn op<'a>(name: &str, mut f: impl FnMut() + 'a) -> Contender<'a> {
    Contender {
        name: name.to_owned(),
        run: Box::new(move |n| {
            for _ in 0..n {
                f();
            }
        }),
    }
}

/// A contender that runs `n` operations itself (for work that must set
/// up once per batch, such as starting threads).
pub fn batch<'a>(name: &str, run: impl FnMut(u64) + 'a) -> Contender<'a> {
    Contender {
        name: name.to_owned(),
        run: Box::new(run),
    }
}

/// One peer's line of a case: what the report prints.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Row {
    /// The area's short name (`json-strings`, ...).
    pub area: String,
    /// The work, as a reader would name it.
    pub work: String,
    /// The peer's name.
    pub peer: String,
    /// ito's best time per operation over the rounds, nanoseconds.
    pub ito_ns: f64,
    /// The peer's best time per operation over the rounds, nanoseconds.
    pub peer_ns: f64,
    /// The peer's best time over ito's best time (above 1: ito is faster).
    pub ratio: f64,
    /// First quartile of the per-round ratios.
    pub ratio_lo: f64,
    /// Third quartile of the per-round ratios.
    pub ratio_hi: f64,
    /// Rounds measured.
    pub rounds: usize,
}

fn time_batch(c: &mut Contender<'_>, n: u64) -> Duration {
    let start = Instant::now();
    (c.run)(black_box(n));
    start.elapsed()
}

/// Iterations that make one batch last about `target`.
fn calibrate(c: &mut Contender<'_>, target: Duration) -> u64 {
    let mut n = 1u64;
    loop {
        let t = time_batch(c, n);
        if t >= target / 8 || n >= 1 << 40 {
            let per = t.as_secs_f64() / n as f64;
            return ((target.as_secs_f64() / per.max(1e-12)) as u64).max(1);
        }
        n *= 4;
    }
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    let at = (q * (sorted.len() - 1) as f64).round() as usize;
    sorted[at]
}

fn best(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::INFINITY, f64::min)
}

/// Time `contenders` (ito first, then its peers) in alternation and return
/// one row per peer.
pub fn compare(
    budget: &Budget,
    area: &str,
    work: &str,
    mut contenders: Vec<Contender<'_>>,
) -> Vec<Row> {
    assert!(contenders.len() >= 2, "a case needs ito and a peer");
    // Warm caches and allocator, then size each contender's batch.
    for c in contenders.iter_mut() {
        time_batch(c, 1);
    }
    let iters: Vec<u64> = contenders
        .iter_mut()
        .map(|c| calibrate(c, budget.batch))
        .collect();
    let k = contenders.len();
    let mut per_op: Vec<Vec<f64>> = vec![Vec::new(); k];
    let start = Instant::now();
    let mut round = 0usize;
    while round < budget.min_rounds || start.elapsed() < budget.per_case {
        let mut order: Vec<usize> = (0..k).map(|i| (i + round) % k).collect();
        if round % 2 == 1 {
            order.reverse();
        }
        for i in order {
            let t = time_batch(&mut contenders[i], iters[i]);
            per_op[i].push(t.as_nanos() as f64 / iters[i] as f64);
        }
        round += 1;
    }
    let ito_ns = best(&per_op[0]);
    (1..k)
        .map(|p| {
            let mut ratios: Vec<f64> = per_op[p]
                .iter()
                .zip(&per_op[0])
                .map(|(peer, ito)| peer / ito)
                .collect();
            ratios.sort_by(f64::total_cmp);
            Row {
                area: area.to_owned(),
                work: work.to_owned(),
                peer: contenders[p].name.clone(),
                ito_ns,
                peer_ns: best(&per_op[p]),
                ratio: best(&per_op[p]) / ito_ns,
                ratio_lo: quantile(&ratios, 0.25),
                ratio_hi: quantile(&ratios, 0.75),
                rounds: round,
            }
        })
        .collect()
}
