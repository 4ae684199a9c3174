//! Small, Miri-sized runs of every unsafe path in `ito::intern`: segmented
//! arrays, arena records (short, multi-byte-prefix, large), bucket splits,
//! overflow chains and their reuse, the SipHash switch, `Frozen`, `Pool`
//! entries (revive, replace, free) and two-thread races; `LocalInterner`
//! records (one- and two-byte length prefixes, large strings), resizes and
//! migration.
//!
//! `cargo +nightly miri test -p ito --test intern_miri`

mod common;

use common::collide::colliding_keys;
use ito::intern::{Builder, MAX_CHAIN};
use ito::{Interned, Interner, LocalInterner, Pool};

const SEED: u64 = 42;

#[test]
fn records_splits_and_resolve() {
    let interner = Builder::new().shards(2).build();
    let long = "L".repeat(9000); // own allocation
    let mid = "m".repeat(200); // two-byte length prefix
    let mut keys: Vec<String> = (0..150).map(|i| format!("k{i}")).collect();
    keys.push(long);
    keys.push(mid);
    keys.push(String::new());
    let syms: Vec<_> = keys.iter().map(|k| interner.intern(k)).collect();
    for (k, s) in keys.iter().zip(&syms) {
        assert_eq!(interner.resolve(*s), k);
        assert_eq!(interner.get(k), Some(*s));
    }
    assert_eq!(interner.iter().count(), keys.len());
    let frozen = interner.freeze();
    for (k, s) in keys.iter().zip(&syms) {
        assert_eq!(frozen.get(k), Some(*s));
        assert_eq!(frozen.resolve(*s), k);
    }
    assert_eq!(frozen.get("absent"), None);
}

#[test]
fn sip_switch_under_miri() {
    // Keys whose low 4 hash bits agree all land in one chain of a small
    // table; 40 of them pass MAX_CHAIN and force the SipHash rehash.
    let keys = colliding_keys("c", SEED, 4, MAX_CHAIN + 8);
    let interner = Builder::new().seed(SEED).shards(1).build();
    let syms: Vec<_> = keys.iter().map(|k| interner.intern(k)).collect();
    let d = interner.diagnostics();
    assert_eq!(d.sip_shards, 1, "{d:?}");
    for (k, s) in keys.iter().zip(&syms) {
        assert_eq!(interner.get(k), Some(*s));
        assert_eq!(interner.resolve(*s), k);
    }
    // Keep inserting after the switch (splits and overflow reuse in sip mode).
    for i in 0..60 {
        let k = format!("after{i}");
        let s = interner.intern(&k);
        assert_eq!(interner.resolve(s), k);
    }
    let frozen = interner.freeze();
    for (k, s) in keys.iter().zip(&syms) {
        assert_eq!(frozen.get(k), Some(*s));
    }
}

#[test]
fn interner_two_threads() {
    let interner = Builder::new().shards(1).build();
    let syms: Vec<Vec<_>> = std::thread::scope(|scope| {
        let hs: Vec<_> = (0..2)
            .map(|t| {
                let interner = &interner;
                scope.spawn(move || {
                    (0..60)
                        .map(|i| {
                            let k = format!("t{}", (i * 7 + t * 13) % 80);
                            let s = interner.intern(&k);
                            assert_eq!(interner.resolve(s), k);
                            (k, s)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (k, s) in syms.iter().flatten() {
        assert_eq!(interner.get(k), Some(*s));
    }
}

#[test]
fn pool_lifecycle_and_race() {
    let pool = Pool::new();
    let a = pool.intern("x");
    let b = a.clone();
    drop(a);
    assert_eq!(pool.intern("x"), b);
    drop(b);
    assert!(pool.is_empty());
    let many: Vec<Interned> = (0..40).map(|i| pool.intern(&format!("p{i}"))).collect();
    drop(many);
    assert!(pool.is_empty());
    std::thread::scope(|scope| {
        for t in 0..2 {
            let pool = &pool;
            scope.spawn(move || {
                for i in 0..50 {
                    let k = format!("r{}", (i + t) % 5);
                    let h = pool.intern(&k);
                    assert_eq!(&*h, k.as_str());
                }
            });
        }
    });
    assert!(pool.is_empty());
    let survivor = pool.intern("keep");
    drop(pool); // handles outlive the pool value
    assert_eq!(&*survivor, "keep");
}

#[test]
fn interner_drop_with_many_allocations() {
    let interner = Interner::new();
    for i in 0..300 {
        interner.intern(&format!("{i}-{}", "y".repeat(i % 50)));
    }
    assert_eq!(interner.len(), 300);
}

#[test]
fn local_interner_records_resize_and_migration() {
    let mut t = LocalInterner::new();
    let mut keys: Vec<String> = (0..120).map(|i| format!("k{i}")).collect();
    keys.push(String::new());
    keys.push("m".repeat(127)); // the longest one-byte length prefix
    keys.push("m".repeat(128)); // the shortest two-byte one
    keys.push("x".repeat(4093)); // the longest chunked string
    keys.push("y".repeat(4094)); // the shortest large one
    let syms: Vec<_> = keys.iter().map(|k| t.intern(k)).collect();
    // 125 entries: the table grew from 16 slots through several resizes,
    // with migration steps interleaved with the inserts above.
    for (k, s) in keys.iter().zip(&syms) {
        assert_eq!(t.resolve(*s), k);
        assert_eq!(t.get(k), Some(*s));
        assert_eq!(t.intern(k), *s);
    }
    assert_eq!(t.get("absent"), None);
    let all: Vec<&str> = t.iter().map(|(_, s)| s).collect();
    assert_eq!(all, keys.iter().map(String::as_str).collect::<Vec<_>>());
}

/// The reserved layout (under Miri a heap-backed stand-in for the mapping):
/// the move by a full first chunk and by 1,024 entries, strings written
/// after the move, and a second interner taking
/// the first one's recycled regions (stale bytes it must never read).
#[test]
fn local_interner_reserved_layout_and_recycled_regions() {
    for round in 0..2 {
        let mut t = LocalInterner::new();
        let mut keys: Vec<String> = (0..40)
            .map(|i| format!("{i:03}{}", "a".repeat(124)))
            .collect();
        keys.extend((0..1030).map(|i| format!("{round}{i:x}")));
        keys.push("m".repeat(300));
        keys.push("z".repeat(5000));
        let syms: Vec<_> = keys.iter().map(|k| t.intern(k)).collect();
        // Reserved where `Region` can reserve (64-bit Unix and Windows,
        // and Miri's heap stand-in); elsewhere, e.g. with 32-bit pointers,
        // the segmented layout stays and must serve the same answers.
        let reserves =
            cfg!(miri) || (cfg!(target_pointer_width = "64") && (cfg!(unix) || cfg!(windows)));
        assert_eq!(t.diagnostics().reserved, reserves);
        for (k, s) in keys.iter().zip(&syms).step_by(7) {
            assert_eq!(t.resolve(*s), k);
            assert_eq!(t.get(k), Some(*s));
        }
        assert_eq!(t.get("absent"), None);
        assert_eq!(t.iter().count(), keys.len());
    }
    let mut seg = ito::intern::LocalBuilder::new()
        .reserve_address_space(false)
        .build();
    for i in 0..1100 {
        seg.intern(&i.to_string());
    }
    assert!(!seg.diagnostics().reserved);
    assert_eq!(seg.get("1099").map(|s| s.to_u32()), Some(1100));
}
