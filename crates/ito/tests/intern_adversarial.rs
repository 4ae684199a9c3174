//! Adversarial inputs: keys that collide under the default hash with a known
//! seed, and LuaJIT's pathologies (similar 1 MiB strings, `__stress_<i>.out`).

mod common;

use common::collide::{colliding_keys, SEED};
use std::time::{Duration, Instant};

use ito::intern::{Builder, MAX_CHAIN};
use ito::{Interner, Sym};

/// Bits of the hash the table addresses buckets with (low bits of the
/// 32-bit hash): with these all zero, every key lands in bucket 0 until the
/// table holds more than 2^COLLIDE_BITS buckets.
const COLLIDE_BITS: u32 = 12;

fn insert_all(keys: &[String]) -> (Duration, ito::intern::Diagnostics) {
    let interner = Builder::new().seed(SEED).shards(1).build();
    let start = Instant::now();
    for k in keys {
        interner.intern(k);
    }
    let elapsed = start.elapsed();
    for k in keys {
        assert_eq!(interner.resolve(interner.get(k).unwrap()), k);
    }
    assert_eq!(interner.len(), keys.len());
    (elapsed, interner.diagnostics())
}

#[test]
fn colliding_keys_switch_to_siphash_and_stay_linear() {
    let n = 3000;
    let keys = colliding_keys("atk", SEED, COLLIDE_BITS, 2 * n);
    // Sanity: the keys really collide on the bits the table uses.
    let first = xxhash_rust::xxh3::xxh3_64_with_seed(keys[0].as_bytes(), SEED) as u32;
    assert!(keys.iter().all(|k| {
        (xxhash_rust::xxh3::xxh3_64_with_seed(k.as_bytes(), SEED) as u32) & 0xfff == first & 0xfff
    }));

    let (mut t1, d1) = insert_all(&keys[..n]);
    let (mut t2, d2) = insert_all(&keys);
    // Best of 9: each run takes about a millisecond, so one preemption on
    // a loaded machine can multiply a single timing several times over.
    for _ in 0..8 {
        t1 = t1.min(insert_all(&keys[..n]).0);
        t2 = t2.min(insert_all(&keys).0);
    }
    for d in [d1, d2] {
        assert_eq!(
            d.sip_shards, 1,
            "the attacked shard switched to SipHash: {d:?}"
        );
        assert!(d.longest_chain <= MAX_CHAIN, "{d:?}");
    }
    // Probe work is linear: without the fallback every colliding insert
    // would walk all earlier keys (~n^2/2 = 4.5M compares for n = 3000).
    assert!(d1.probes < 20 * n as u64, "{d1:?}");
    let work_ratio = d2.probes as f64 / d1.probes as f64;
    assert!(
        work_ratio < 2.6,
        "probe work ratio {work_ratio} for 2N/N keys"
    );
    let time_ratio = t2.as_secs_f64() / t1.as_secs_f64();
    eprintln!(
        "colliding keys: N={n} {t1:?}, 2N {t2:?}, ratio {time_ratio:.2}; probes {} -> {}",
        d1.probes, d2.probes
    );
    assert!(
        time_ratio < 3.2,
        "2N colliding keys took {time_ratio:.2}x as long as N"
    );
}

#[test]
fn without_collisions_nothing_switches() {
    let interner = Builder::new().seed(SEED).shards(1).build();
    for i in 0..200_000 {
        interner.intern(&format!("atk{i}"));
    }
    let d = interner.diagnostics();
    assert_eq!(d.sip_shards, 0);
    assert!(d.longest_chain <= MAX_CHAIN);
}

/// 800 distinct 1 MiB strings differing in one byte at `pos(i)`.
fn similar_megabytes(pos: impl Fn(usize) -> usize) {
    const MIB: usize = 1 << 20;
    let interner = Interner::new();
    let mut buf = vec![b'a'; MIB];
    let mut syms = Vec::with_capacity(800);
    let start = Instant::now();
    for i in 0..800usize {
        let p = pos(i);
        let saved = buf[p];
        buf[p] = b'A' + (i % 26) as u8;
        buf[p - 1] = b'0' + (i / 26 % 10) as u8;
        buf[p - 2] = b'0' + (i / 260) as u8;
        let s = std::str::from_utf8(&buf).unwrap();
        syms.push(interner.intern(s));
        // A hit of the same 1 MiB string returns the same symbol.
        assert_eq!(interner.intern(s), syms[i]);
        buf[p] = saved;
        buf[p - 1] = b'a';
        buf[p - 2] = b'a';
    }
    let elapsed = start.elapsed();
    let mut sorted = syms.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), 800, "all distinct");
    assert_eq!(interner.len(), 800);
    for (i, sym) in syms.iter().enumerate() {
        let s = interner.resolve(*sym);
        assert_eq!(s.len(), MIB);
        assert_eq!(s.as_bytes()[pos(i)], b'A' + (i % 26) as u8);
    }
    // Generous bound for a shared 2-core machine; LuaJIT needs ~14 s for
    // 20k similar 300-byte strings, about 0.5 s for 800 similar 1 MiB ones.
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
    assert!(interner.memory_usage() >= 800 * MIB);
    eprintln!("800 similar 1 MiB strings: {elapsed:?}");
}

#[test]
fn similar_megabyte_strings_differing_near_end_then_middle() {
    // Sequential in one test to keep peak memory at ~800 MiB.
    similar_megabytes(|_| (1 << 20) - 1);
    similar_megabytes(|_| 1 << 19);
}

#[test]
fn stress_out_keys() {
    // LuaJIT#555: `__stress_<i>.out` keys hash poorly under sampled hashes.
    let interner = Interner::new();
    let n = 1_000_000;
    let mut buf = String::new();
    let mut syms: Vec<Sym> = Vec::with_capacity(n);
    for i in 0..n {
        buf.clear();
        use std::fmt::Write;
        write!(buf, "__stress_{i}.out").unwrap();
        syms.push(interner.intern(&buf));
    }
    assert_eq!(interner.len(), n);
    let mut sorted = syms.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), n, "all distinct");
    for (i, sym) in syms.iter().enumerate().step_by(997) {
        assert_eq!(interner.resolve(*sym), format!("__stress_{i}.out"));
    }
    let d = interner.diagnostics();
    assert_eq!(d.sip_shards, 0);
    assert!(d.longest_chain <= MAX_CHAIN);
}
