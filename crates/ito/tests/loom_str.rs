//! Model check of a heap [`ito::Str`]'s shared header with loom, which runs
//! `Str`'s real code (under `--cfg loom` the header's reference count and
//! facts byte are loom atomics) through every interleaving of two threads,
//! up to a preemption bound.
//!
//! The claim under test: the facts cache in the header is written by
//! whichever clone first needs a fact (`is_ascii`, `is_json_safe`, or
//! `quote_str`, which learns only the JSON-safe fact) while other clones
//! read it. Every answer is right in every interleaving (a reader sees
//! "unknown", a partial, or a full answer, all true of the bytes), and the
//! allocation is freed exactly once after both threads drop their clones.
//!
//! Not part of the normal test run (it needs the `loom` crate and a
//! separate build):
//!
//! ```text
//! RUSTFLAGS="--cfg loom" cargo test -p ito --release --test loom_str
//! ```
#![cfg(loom)]

use ito::Str;
use loom::thread;

mod common;

fn model(f: impl Fn() + Sync + Send + 'static) {
    common::loom_model::model(3, f);
}

const SAFE: &str = "a heap string, longer than 23 bytes, é";
const UNSAFE: &str = "a heap string with a \"quote\" in it";

/// Two clones ask for the facts at once: both compute, both store, every
/// answer (including later ones, from the cache) is right.
#[test]
fn two_clones_learn_the_facts_at_once() {
    model(|| {
        for text in [SAFE, UNSAFE] {
            let a = Str::from(text);
            let b = a.clone();
            let t = thread::spawn(move || {
                assert_eq!(b.is_json_safe(), !text.contains('"'));
                assert_eq!(b.is_ascii(), text.is_ascii());
            });
            assert_eq!(a.is_ascii(), text.is_ascii());
            assert_eq!(a.is_json_safe(), !text.contains('"'));
            t.join().unwrap();
            assert_eq!(a.is_ascii(), text.is_ascii());
        }
    });
}

/// `quote_str` learns the JSON-safe fact on one thread while the other
/// computes both: whichever store lands last, what is cached stays true,
/// and both threads' quoted output is right.
#[test]
fn quote_str_learning_races_a_query() {
    model(|| {
        let a = Str::from(UNSAFE);
        let b = a.clone();
        let t = thread::spawn(move || {
            let mut out = Vec::new();
            ito::json::quote_str(&mut out, &b);
            assert_eq!(out, br#""a heap string with a \"quote\" in it""#);
            assert!(!b.is_json_safe());
        });
        assert!(a.is_ascii());
        assert!(!a.is_json_safe());
        t.join().unwrap();
        let mut out = Vec::new();
        ito::json::quote_str(&mut out, &a);
        assert_eq!(out.len(), UNSAFE.len() + 4);
    });
}
