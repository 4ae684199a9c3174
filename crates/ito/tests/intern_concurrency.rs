//! Concurrency stress: several threads interning, looking up and resolving
//! overlapping key sets (about 10^6 operations per test in total).

mod common;

use common::collide::{colliding_keys, SEED};
use std::sync::Mutex;

use ito::intern::Builder;
use ito::{Interned, Interner, Pool, Sym};

/// xorshift64*: deterministic per-thread randomness without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

fn key(i: usize) -> String {
    // Mixed lengths, including some long keys, to stress records of all sizes.
    match i % 7 {
        0 => format!("k{i}"),
        1 => format!("__stress_{i}.out"),
        2 => format!("{}{i}", "long-prefix-".repeat(3)),
        3 => format!("h{i:x}"),
        4 => format!("ünïcødé-{i}"),
        5 => format!("z{}{i}", "z".repeat(i % 300)),
        _ => format!("identifier_{i}_suffix"),
    }
}

fn stress(interner: &Interner, threads: usize, ops_per_thread: usize, keys: usize) {
    let names: Vec<String> = (0..keys).map(key).collect();
    let results: Vec<Vec<Option<Sym>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let names = &names;
                scope.spawn(move || {
                    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ ((t as u64 + 1) * 0x1234_5678));
                    let mut mine: Vec<Option<Sym>> = vec![None; names.len()];
                    // Threads start in different places of the key space
                    // and drift over it, so they overlap heavily.
                    for op in 0..ops_per_thread {
                        let r = rng.next();
                        let base = (t * names.len() / threads + op / 4) % names.len();
                        let i = (base + (r as usize >> 8) % 512) % names.len();
                        match r % 10 {
                            0..=4 => {
                                let sym = interner.intern(&names[i]);
                                if let Some(old) = mine[i] {
                                    assert_eq!(old, sym, "key {i} changed symbol");
                                }
                                mine[i] = Some(sym);
                                assert_eq!(interner.resolve(sym), names[i]);
                            }
                            5..=7 => {
                                let got = interner.get(&names[i]);
                                if let Some(old) = mine[i] {
                                    assert_eq!(got, Some(old), "get lost key {i}");
                                }
                                if let Some(sym) = got {
                                    assert_eq!(interner.resolve(sym), names[i]);
                                    mine[i] = Some(sym);
                                }
                            }
                            _ => {
                                if let Some(sym) = mine[i] {
                                    assert_eq!(interner.resolve(sym), names[i]);
                                }
                            }
                        }
                    }
                    mine
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    // Every thread agrees on each key's symbol; distinct keys, distinct symbols.
    let mut agreed: Vec<Option<Sym>> = vec![None; keys];
    for mine in &results {
        for (i, sym) in mine.iter().enumerate() {
            if let Some(sym) = sym {
                match agreed[i] {
                    Some(a) => assert_eq!(a, *sym, "threads disagree on key {i}"),
                    None => agreed[i] = Some(*sym),
                }
            }
        }
    }
    let interned: Vec<(usize, Sym)> = agreed
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.map(|s| (i, s)))
        .collect();
    let mut syms: Vec<Sym> = interned.iter().map(|&(_, s)| s).collect();
    syms.sort_unstable();
    syms.dedup();
    assert_eq!(syms.len(), interned.len(), "two keys share a symbol");
    // Nothing lost, nothing duplicated.
    assert_eq!(interner.len(), interned.len());
    assert_eq!(interner.iter().count(), interned.len());
    for &(i, sym) in &interned {
        assert_eq!(interner.get(&names[i]), Some(sym));
        assert_eq!(interner.resolve(sym), names[i]);
    }
    let d = interner.diagnostics();
    assert!(d.longest_chain <= ito::intern::MAX_CHAIN);
    assert_eq!(
        d.sip_shards, 0,
        "random keys never trigger the SipHash fallback"
    );
}

#[test]
fn interner_four_threads_default_shards() {
    stress(&Interner::new(), 4, 250_000, 60_000);
}

#[test]
fn interner_two_threads_one_shard() {
    // One shard: every insert contends and readers constantly race splits.
    stress(&Builder::new().shards(1).build(), 2, 400_000, 60_000);
}

#[test]
fn interner_many_threads_small_key_set() {
    stress(&Builder::new().shards(2).build(), 8, 40_000, 2_000);
}

#[test]
fn pool_intern_drop_race() {
    let pool = Pool::new();
    let names: Vec<String> = (0..48).map(key).collect();
    let shared: Vec<Mutex<Option<Interned>>> = (0..names.len()).map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for t in 0..4u64 {
            let (pool, names, shared) = (&pool, &names, &shared);
            scope.spawn(move || {
                let mut rng = Rng(0xdead_beef ^ ((t + 1) * 0x9e37_79b9));
                let mut ring: Vec<Option<Interned>> = vec![None; 8];
                for op in 0..150_000usize {
                    let r = rng.next();
                    let i = (r >> 8) as usize % names.len();
                    let h = pool.intern(&names[i]);
                    assert_eq!(&*h, names[i].as_str());
                    // Any other live handle of the same string is the same entry.
                    for other in ring.iter().flatten() {
                        if other.as_str() == names[i] {
                            assert!(Interned::ptr_eq(other, &h), "two live entries for {i}");
                        }
                    }
                    match r % 8 {
                        0..=3 => drop(h), // most handles die at once: drop races intern
                        4..=5 => ring[op % 8] = Some(h),
                        _ => {
                            let mut slot = shared[i].lock().unwrap();
                            if let Some(other) = slot.as_ref() {
                                assert!(Interned::ptr_eq(other, &h));
                            }
                            *slot = if r % 16 < 8 { Some(h) } else { None };
                        }
                    }
                }
            });
        }
    });
    for slot in &shared {
        let held = slot.lock().unwrap().take();
        if let Some(h) = held {
            assert_eq!(pool.get(&h), Some(h.clone()));
        }
    }
    assert!(pool.is_empty(), "every entry freed with its last handle");
}

/// Readers keep finding and resolving known keys while a writer drives the
/// (only) shard through splits and the switch to SipHash, which rewrites
/// every slot and every record's stored hash under the readers' feet.
#[test]
fn readers_during_siphash_switch() {
    // Keys whose seeded XXH3 hash has its low 12 bits zero: they share a
    // bucket until the chain passes MAX_CHAIN and the shard switches.
    let colliding = colliding_keys("atk", SEED, 12, 200);
    let interner = Builder::new().seed(SEED).shards(1).build();
    let known: Vec<(String, Sym)> = (0..500)
        .map(|i| {
            let k = key(i);
            let s = interner.intern(&k);
            (k, s)
        })
        .collect();
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        for t in 0..2 {
            let (known, interner, done) = (&known, &interner, &done);
            scope.spawn(move || {
                let mut rng = Rng(0x1234 + t);
                let mut rounds = 0u64;
                while !done.load(std::sync::atomic::Ordering::Relaxed) || rounds < 20_000 {
                    let (k, s) = &known[(rng.next() % known.len() as u64) as usize];
                    assert_eq!(interner.get(k), Some(*s), "get({k})");
                    assert_eq!(interner.intern(k), *s, "intern({k})");
                    assert_eq!(interner.resolve(*s), k);
                    rounds += 1;
                }
            });
        }
        let syms: Vec<Sym> = colliding.iter().map(|k| interner.intern(k)).collect();
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        for (k, s) in colliding.iter().zip(&syms) {
            assert_eq!(interner.get(k), Some(*s));
            assert_eq!(interner.resolve(*s), k);
        }
    });
    let d = interner.diagnostics();
    assert_eq!(d.sip_shards, 1, "{d:?}");
    assert!(d.longest_chain <= ito::intern::MAX_CHAIN, "{d:?}");
    assert_eq!(interner.len(), known.len() + colliding.len());
}
