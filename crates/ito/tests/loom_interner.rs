//! Model checks of the [`ito::Interner`]'s lock-free readers with loom,
//! which runs the interner's real code (its shard atomics, segment
//! pointers and shard lock are loom's under `--cfg loom`) through every
//! interleaving of two threads, up to a preemption bound.
//!
//! The claims under test: each distinct string gets exactly one
//! symbol however inserts race; a lookup racing a bucket split (which moves
//! entries) still finds every present key; an insert that reuses the
//! chain view of its lock-free probe (the miss hint) never duplicates a key
//! another thread inserted in between.
//!
//! Not part of the normal test run (it needs the `loom` crate and a
//! separate build):
//!
//! ```text
//! RUSTFLAGS="--cfg loom" CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS=true \
//!     cargo test -p ito --release --test loom_interner
//! ```
#![cfg(loom)]

use std::sync::Arc;

use ito::intern::Builder;
use ito::{Interner, Sym};
use loom::thread;

mod common;

/// Run `f` under loom, through every interleaving within preemption bound 2
/// (the split models have tens of thousands at 2).
fn model(f: impl Fn() + Sync + Send + 'static) {
    let n = common::loom_model::model(2, f);
    eprintln!("explored {n} interleavings");
}

/// One shard, a fixed seed: every key lands in the same table.
fn one_shard() -> Interner {
    Builder::new().shards(1).seed(0x1005e).build()
}

/// Two threads intern the same two new strings in opposite orders: both
/// must see the same symbols, and the table must hold exactly two.
#[test]
fn racing_inserts_agree() {
    model(|| {
        let interner = Arc::new(one_shard());
        let other = Arc::clone(&interner);
        let t = thread::spawn(move || (other.intern("a"), other.intern("b")));
        let b = interner.intern("b");
        let a = interner.intern("a");
        let (a2, b2) = t.join().unwrap();
        assert_eq!((a, b), (a2, b2));
        assert_ne!(a, b);
        assert_eq!(interner.len(), 2);
        assert_eq!(interner.resolve(a), "a");
        assert_eq!(interner.resolve(b), "b");
    });
}

/// Five strings bring the first bucket to the split load; a sixth insert
/// splits it (moving entries to a new bucket) while the other thread looks
/// all five up: every lookup finds its key with its original symbol. The
/// reader yields before each lookup: without that, loom runs the reader to
/// the end before the just-spawned writer has done anything, sees no
/// operation of the writer's to reorder the reads against, and explores a
/// single order (the driver then fails: "loom explored only 1").
#[test]
fn lookups_race_a_split() {
    model(|| {
        let (interner, syms) = five_keys();
        let other = Arc::clone(&interner);
        let t = thread::spawn(move || other.intern("k5"));
        for (k, &sym) in KEYS.iter().zip(&syms) {
            thread::yield_now();
            assert_eq!(interner.get(k), Some(sym), "{k}");
        }
        let k5 = t.join().unwrap();
        assert_eq!(interner.len(), 6);
        assert_eq!(interner.get("k5"), Some(k5));
        assert!(interner.diagnostics().splits >= 1, "no split happened");
    });
}

/// The same split, raced by a thread that inserts a new string between
/// lookups and interns an old one again: nothing is lost or inserted twice.
#[test]
fn inserts_race_a_split() {
    model(|| {
        let (interner, syms) = five_keys();
        let other = Arc::clone(&interner);
        let t = thread::spawn(move || other.intern("k5"));
        assert_eq!(interner.get("k4"), Some(syms[4]));
        let k9 = interner.intern("k9");
        assert_eq!(interner.get("k0"), Some(syms[0]));
        assert_eq!(interner.intern("k2"), syms[2]);
        let k5 = t.join().unwrap();
        assert_eq!(interner.len(), 7);
        assert_eq!(interner.get("k5"), Some(k5));
        assert_eq!(interner.get("k9"), Some(k9));
    });
}

const KEYS: [&str; 5] = ["k0", "k1", "k2", "k3", "k4"];

/// A one-shard interner holding `KEYS`, which fill its first bucket (the
/// next insert splits it), and their symbols.
fn five_keys() -> (Arc<Interner>, Vec<Sym>) {
    let interner = Arc::new(one_shard());
    let syms = KEYS.iter().map(|k| interner.intern(k)).collect();
    assert_eq!(interner.diagnostics().splits, 0);
    (interner, syms)
}

/// Both threads miss on the same new string at once, so both take a miss
/// hint from their lock-free probe; whichever locks second must notice
/// the other's insert and return its symbol instead of appending again.
#[test]
fn miss_hints_never_duplicate() {
    model(|| {
        let interner = Arc::new(one_shard());
        interner.intern("seed");
        let other = Arc::clone(&interner);
        let t = thread::spawn(move || other.intern("x"));
        let x = interner.intern("x");
        assert_eq!(t.join().unwrap(), x);
        assert_eq!(interner.len(), 2);
        assert_eq!(interner.resolve(x), "x");
    });
}
