//! Model checks of [`ito::Pool`]'s reference-count and lock protocol with
//! loom, which runs the pool's real code (its atomics, `RwLock`s and `Arc`
//! are loom's under `--cfg loom`) through every interleaving of two
//! threads, up to a preemption bound.
//!
//! The claim under test: an `intern` that races the drop of the
//! last handle of the same string either revives the entry or inserts a
//! fresh one, never hands out a dying entry, never frees an entry twice or
//! leaks one, and leaves the table consistent.
//!
//! Not part of the normal test run (it needs the `loom` crate and a
//! separate build):
//!
//! ```text
//! RUSTFLAGS="--cfg loom" cargo test -p ito --release --test loom_pool
//! ```
#![cfg(loom)]

use ito::{Interned, Pool};
use loom::thread;

mod common;

/// Run `f` under loom, through every interleaving within preemption bound 3.
fn model(f: impl Fn() + Sync + Send + 'static) {
    common::loom_model::model(3, f);
}

/// One thread drops the only handle of "x" while another interns "x":
/// the second gets a handle to "x" (revived or fresh), and once it drops
/// that handle the pool is empty again.
#[test]
fn intern_races_the_last_drop() {
    model(|| {
        let pool = Pool::new();
        let a = pool.intern("x");
        let other = pool.clone();
        let t = thread::spawn(move || {
            let b = other.intern("x");
            assert_eq!(&*b, "x");
            assert_eq!(other.get("x").as_deref(), Some("x"));
        });
        drop(a);
        t.join().unwrap();
        assert_eq!(pool.len(), 0);
        assert!(pool.get("x").is_none());
    });
}

/// Two threads intern the same new string: both get the same entry.
#[test]
fn concurrent_inserts_share_one_entry() {
    model(|| {
        let pool = Pool::new();
        let other = pool.clone();
        let t = thread::spawn(move || other.intern("y"));
        let a = pool.intern("y");
        let b = t.join().unwrap();
        assert!(Interned::ptr_eq(&a, &b));
        assert_eq!(pool.len(), 1);
        drop((a, b));
        assert_eq!(pool.len(), 0);
    });
}

/// Two clones of one handle drop on two threads while a lookup runs:
/// exactly one drop frees the entry, and the lookup sees "z" or nothing.
#[test]
fn racing_drops_free_once() {
    model(|| {
        let pool = Pool::new();
        let a = pool.intern("z");
        let b = a.clone();
        let other = pool.clone();
        let t = thread::spawn(move || {
            drop(b);
            if let Some(c) = other.get("z") {
                assert_eq!(&*c, "z");
            }
        });
        drop(a);
        t.join().unwrap();
        assert_eq!(pool.len(), 0);
    });
}
