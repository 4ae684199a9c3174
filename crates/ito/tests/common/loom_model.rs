//! The loom driver of the model-check tests (`loom_pool`, `loom_interner`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Run `f` under loom, through every interleaving of its threads within a
/// preemption bound of `bound`, and return how many loom explored.
///
/// # Panics
/// If `f` panics in any interleaving (loom reports which), or if loom
/// explored only one: two threads with any shared step have more than one
/// ordering, so one run means loom saw no synchronisation at all (std types
/// instead of loom's, say).
pub(crate) fn model(bound: usize, f: impl Fn() + Sync + Send + 'static) -> usize {
    let runs = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&runs);
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(bound);
    builder.check(move || {
        counter.fetch_add(1, Ordering::Relaxed);
        f()
    });
    let n = runs.load(Ordering::Relaxed);
    assert!(n > 1, "loom explored only {n} interleaving");
    n
}
