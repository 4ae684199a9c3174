//! Model-based tests of `ito::intern` against std collections.

use std::collections::HashMap;

use ito::intern::{Builder, InternError, Stats};
use ito::{Interner, Pool, Sym};
use proptest::prelude::*;

/// Small alphabet so that random operations hit existing keys often.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-c]{0,3}",
        2 => "[a-z0-9_]{0,20}",
        1 => "\\PC{0,12}",
        1 => (0usize..400).prop_map(|n| "x".repeat(n)),
    ]
}

#[derive(Debug, Clone)]
enum Op {
    Intern(String),
    Get(String),
    ResolveNth(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        5 => key().prop_map(Op::Intern),
        3 => key().prop_map(Op::Get),
        2 => any::<usize>().prop_map(Op::ResolveNth),
    ]
}

fn check_against_model(interner: &Interner, ops: &[Op]) {
    let mut model: HashMap<String, Sym> = HashMap::new();
    let mut order: Vec<(Sym, String)> = Vec::new();
    for op in ops {
        match op {
            Op::Intern(k) => {
                let sym = interner.intern(k);
                match model.get(k) {
                    Some(&old) => assert_eq!(sym, old, "re-intern of {k:?} changed its symbol"),
                    None => {
                        assert!(
                            order.iter().all(|(s, _)| *s != sym),
                            "symbol {sym:?} reused for {k:?}"
                        );
                        model.insert(k.clone(), sym);
                        order.push((sym, k.clone()));
                    }
                }
                assert_eq!(interner.resolve(sym), k);
            }
            Op::Get(k) => assert_eq!(interner.get(k), model.get(k).copied(), "get({k:?})"),
            Op::ResolveNth(n) => {
                if !order.is_empty() {
                    let (sym, s) = &order[n % order.len()];
                    assert_eq!(interner.resolve(*sym), s);
                    assert_eq!(interner.try_resolve(*sym), Some(s.as_str()));
                }
            }
        }
        assert_eq!(interner.len(), model.len());
    }
    // iter yields exactly the model, each once.
    let mut seen: HashMap<String, Sym> = HashMap::new();
    for (sym, s) in interner.iter() {
        assert!(
            seen.insert(s.to_owned(), sym).is_none(),
            "iter repeated {s:?}"
        );
    }
    assert_eq!(seen, model);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn interner_matches_hashmap(ops in prop::collection::vec(op(), 0..300), shards in 0usize..5) {
        let interner = Builder::new().shards(1 << shards).build();
        check_against_model(&interner, &ops);
        // Frozen answers exactly like the interner did.
        let syms: Vec<(Sym, String)> = interner.iter().map(|(s, t)| (s, t.to_owned())).collect();
        let frozen = interner.freeze();
        prop_assert_eq!(frozen.len(), syms.len());
        for (sym, s) in &syms {
            prop_assert_eq!(frozen.get(s), Some(*sym));
            prop_assert_eq!(frozen.resolve(*sym), s.as_str());
        }
        for op in &ops {
            if let Op::Get(k) = op {
                let expected = syms.iter().find(|(_, s)| s == k).map(|(sym, _)| *sym);
                prop_assert_eq!(frozen.get(k), expected);
            }
        }
        let from_iter: Vec<(Sym, String)> = frozen.iter().map(|(s, t)| (s, t.to_owned())).collect();
        prop_assert_eq!(from_iter, syms);
    }

    #[test]
    fn intern_str_agrees_with_intern(keys in prop::collection::vec(key(), 0..60), seeded in any::<bool>()) {
        // `intern_str` reuses the Str's cached hash; it must land on the
        // same symbol as hashing the bytes, with the default seed and with
        // a custom one (where the cached hash cannot be reused).
        let interner = if seeded { Builder::new().seed(99).build() } else { Interner::new() };
        for k in &keys {
            let s = ito::Str::from(k.as_str());
            let by_str = interner.intern_str(&s);
            prop_assert_eq!(interner.intern(k), by_str);
            prop_assert_eq!(interner.get_str(&s), Some(by_str));
            prop_assert_eq!(interner.resolve(by_str), k.as_str());
            // A second Str with the same content (fresh, uncached hash).
            let again = ito::Str::from(k.as_str());
            prop_assert_eq!(interner.intern_str(&again), by_str);
        }
    }

    #[test]
    fn stats_match_hashmap(words in prop::collection::vec(key(), 0..200), n in 0usize..8) {
        let stats: Stats = words.iter().collect();
        let mut counts: HashMap<&str, u64> = HashMap::new();
        let mut first: HashMap<&str, usize> = HashMap::new();
        for (i, w) in words.iter().enumerate() {
            *counts.entry(w).or_default() += 1;
            first.entry(w).or_insert(i);
        }
        prop_assert_eq!(stats.total(), words.len() as u64);
        prop_assert_eq!(stats.distinct(), counts.len() as u64);
        prop_assert_eq!(stats.duplicates(), (words.len() - counts.len()) as u64);
        let total: u64 = words.iter().map(|w| w.len() as u64).sum();
        let distinct: u64 = counts.keys().map(|w| w.len() as u64).sum();
        prop_assert_eq!(stats.total_bytes(), total);
        prop_assert_eq!(stats.bytes_saved(), total - distinct);
        let mut expected: Vec<(&str, u64)> = counts.iter().map(|(w, c)| (*w, *c)).collect();
        expected.sort_by_key(|(w, c)| (std::cmp::Reverse(*c), first[w]));
        expected.truncate(n);
        prop_assert_eq!(stats.top(n), expected);
        for (w, c) in &counts {
            prop_assert_eq!(stats.count(w), *c);
        }
    }

    #[test]
    fn pool_matches_model(ops in prop::collection::vec((key(), any::<bool>()), 0..200)) {
        // Keep some handles, drop others; live handles of equal strings
        // must share one entry, and the pool must hold exactly the live set.
        let pool = Pool::new();
        let mut live: Vec<ito::Interned> = Vec::new();
        for (k, keep) in &ops {
            let h = pool.intern(k);
            prop_assert_eq!(&*h, k.as_str());
            if let Some(other) = live.iter().find(|o| o.as_str() == k) {
                prop_assert!(ito::Interned::ptr_eq(other, &h));
            }
            if *keep {
                live.push(h);
            } else {
                drop(h);
                if !live.is_empty() && k.len() % 2 == 0 {
                    live.swap_remove(k.len() % live.len());
                }
            }
            let mut distinct: Vec<&str> = live.iter().map(|h| h.as_str()).collect();
            distinct.sort_unstable();
            distinct.dedup();
            prop_assert_eq!(pool.len(), distinct.len());
            for s in &distinct {
                prop_assert!(pool.get(s).is_some());
            }
        }
        drop(live);
        prop_assert!(pool.is_empty());
    }
}

#[test]
fn one_shard_symbols_are_dense() {
    let interner = Builder::new().shards(1).build();
    for i in 0..1000u32 {
        assert_eq!(interner.intern(&format!("s{i}")).to_u32(), i + 1);
    }
}

#[test]
fn foreign_symbols_never_resolve_out_of_range() {
    let big = Interner::new();
    let syms: Vec<Sym> = (0..500).map(|i| big.intern(&i.to_string())).collect();
    let small = Interner::new();
    small.intern("only");
    let mut none = 0;
    for sym in syms {
        if small.try_resolve(sym).is_none() {
            none += 1;
        }
    }
    assert!(none >= 499);
    for raw in [1u32, 2, 17, u32::MAX, 1 << 31] {
        let sym = Sym::from_u32(raw).unwrap();
        let _ = small.try_resolve(sym); // must not crash
        let _ = Interner::new().freeze().try_resolve(sym);
    }
    let caught =
        std::panic::catch_unwind(|| Interner::new().resolve(Sym::from_u32(5).unwrap()).len());
    assert!(caught.is_err());
}

#[test]
fn byte_cap_is_enforced_and_existing_strings_still_resolve() {
    let limit = 256 * 1024;
    let interner = Builder::new().max_bytes(limit).build();
    let mut stored = Vec::new();
    let mut failed = None;
    for i in 0..100_000 {
        let s = format!("capped-string-{i:06}");
        match interner.try_intern(&s) {
            Ok(sym) => stored.push((sym, s)),
            Err(e) => {
                failed = Some(e);
                break;
            }
        }
    }
    let err = failed.expect("the cap must be reached");
    assert!(matches!(err, InternError::CapacityExceeded { limit: l, .. } if l == limit));
    assert!(interner.memory_usage() <= limit + 64 * 1024);
    assert!(stored.len() > 1000);
    for (sym, s) in &stored {
        assert_eq!(
            interner.try_intern(s),
            Ok(*sym),
            "known strings still intern"
        );
        assert_eq!(interner.resolve(*sym), s);
    }
    // A short string may still fit the free tail of its shard's current
    // chunk; fresh strings keep going to shards until one needs memory
    // past the cap, and `intern` panics there.
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        for i in 0..10_000 {
            interner.intern(&format!("definitely-new-string-past-the-cap-{i}"));
        }
    }));
    assert!(caught.is_err(), "intern panics past the cap");
    assert!(interner.memory_usage() <= limit + 64 * 1024);
}

#[test]
fn empty_and_unicode_and_long() {
    let interner = Interner::new();
    let long = "é".repeat(70_000);
    let keys = ["", "\0", "é", "日本語", "a\u{10FFFF}b", long.as_str()];
    let syms: Vec<Sym> = keys.iter().map(|k| interner.intern(k)).collect();
    for (k, s) in keys.iter().zip(&syms) {
        assert_eq!(interner.resolve(*s), *k);
        assert_eq!(interner.get(k), Some(*s));
    }
    let mut sorted = syms.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), keys.len());
}

#[test]
fn memory_usage_grows_and_freeze_is_smaller() {
    let interner = Interner::new();
    let m0 = interner.memory_usage();
    for i in 0..20_000 {
        interner.intern(&format!("identifier_{i}"));
    }
    let m1 = interner.memory_usage();
    assert!(m1 > m0 + 20_000 * 12);
    let frozen = interner.freeze();
    assert!(frozen.memory_usage() < m1);
    assert_eq!(frozen.len(), 20_000);
}

/// Regression: a 1–8 KiB string interned into a shard whose arena had no
/// chunk yet (or only small ones) was copied into a chunk too small for it.
#[test]
fn mid_sized_strings_into_fresh_shards() {
    for shards in [1, 16] {
        let interner = Builder::new().shards(shards).build();
        let keys: Vec<String> = (0..80)
            .map(|i| {
                let len = 1000 + i * 97;
                (0..len)
                    .map(|j| (b'a' + ((i + j) % 26) as u8) as char)
                    .collect()
            })
            .collect();
        let syms: Vec<Sym> = keys.iter().map(|k| interner.intern(k)).collect();
        for (k, s) in keys.iter().zip(&syms) {
            assert_eq!(interner.resolve(*s), k);
            assert_eq!(interner.get(k), Some(*s));
        }
    }
}
