//! `LocalInterner`: model-based properties against `HashMap<String, u32>`,
//! resizes checked mid-migration, dense symbols, byte cap, `intern_str`,
//! memory accounting, and the pathologies (colliding keys with a known
//! seed, similar 1 MiB strings, `__stress_<i>.out`); the main properties
//! run on both layouts (reserved address space, and the segmented
//! fallback), and the move from one to the other is tested at each of its
//! triggers.

mod common;

use common::collide::{colliding_keys, SEED};
use std::collections::HashMap;

use ito::intern::{InternError, LocalBuilder, LocalInterner, LOCAL_MAX_PROBE_GROUPS};
use ito::{Str, Sym};
use proptest::prelude::*;

/// Check the interner against the model: same length, every string found
/// under the model's symbol, every symbol resolving back, iteration in
/// symbol order.
fn check_against(t: &LocalInterner, model: &HashMap<String, u32>) {
    assert_eq!(t.len(), model.len());
    for (s, &sym) in model {
        assert_eq!(t.get(s).map(Sym::to_u32), Some(sym), "{s:?}");
        assert_eq!(t.resolve(Sym::from_u32(sym).unwrap()), s);
    }
    for (i, (sym, s)) in t.iter().enumerate() {
        assert_eq!(sym.to_u32() as usize, i + 1);
        assert_eq!(model.get(s), Some(&sym.to_u32()));
    }
    assert_eq!(t.iter().len(), model.len());
}

#[derive(Debug, Clone)]
enum Op {
    Intern(String),
    Get(String),
    Resolve(u32),
}

fn op() -> impl Strategy<Value = Op> {
    // A small alphabet so repeats (hits) are common; some long strings.
    let key = prop_oneof![
        4 => "[a-d]{0,4}",
        1 => "[a-z\u{e9}\u{1F600}]{0,40}",
        1 => (0usize..3, "[xy]{0,3}").prop_map(|(n, s)| format!("{}{s}", "L".repeat(n * 3000))),
    ];
    prop_oneof![
        5 => key.clone().prop_map(Op::Intern),
        2 => key.prop_map(Op::Get),
        1 => (1u32..400).prop_map(Op::Resolve),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn matches_hashmap_model(
        ops in prop::collection::vec(op(), 0..400),
        seed in any::<u64>(),
        reserve in any::<bool>(),
        prefill in prop_oneof![Just(0usize), Just(600), Just(1100)],
    ) {
        let mut t = LocalBuilder::new().seed(seed).reserve_address_space(reserve).build();
        let mut model: HashMap<String, u32> = HashMap::new();
        // 1,100 short keys move a reserving interner to its flat layout
        // before the ops (more than 1,024 entries); 600 leave it just short.
        for i in 0..prefill {
            let k = format!("pre{i}");
            model.insert(k.clone(), i as u32 + 1);
            prop_assert_eq!(t.intern(&k).to_u32(), i as u32 + 1);
        }
        if prefill > 1024 {
            prop_assert_eq!(t.diagnostics().reserved, reserve && RESERVES);
        }
        for op in ops {
            match op {
                Op::Intern(s) => {
                    let next = model.len() as u32 + 1;
                    let want = *model.entry(s.clone()).or_insert(next);
                    prop_assert_eq!(t.intern(&s).to_u32(), want);
                    prop_assert_eq!(t.resolve(Sym::from_u32(want).unwrap()), s.as_str());
                }
                Op::Get(s) => {
                    prop_assert_eq!(t.get(&s).map(Sym::to_u32), model.get(&s).copied());
                }
                Op::Resolve(n) => {
                    let sym = Sym::from_u32(n).unwrap();
                    let want = model.iter().find(|(_, &v)| v == n).map(|(k, _)| k.as_str());
                    prop_assert_eq!(t.try_resolve(sym), want);
                }
            }
            prop_assert_eq!(t.len(), model.len());
        }
        check_against(&t, &model);
    }
}

/// Whether this target reserves address space (64-bit Unix and Windows,
/// not under Miri): where it does not, both builders give the segmented
/// layout.
const RESERVES: bool = cfg!(all(
    target_pointer_width = "64",
    any(unix, windows),
    not(miri)
));

/// A builder for each layout.
fn layouts() -> [(bool, LocalBuilder); 2] {
    [
        (RESERVES, LocalBuilder::new()),
        (false, LocalBuilder::new().reserve_address_space(false)),
    ]
}

#[test]
fn interleaved_ops_across_resizes_and_during_migration() {
    for (reserved, b) in layouts() {
        interleaved_ops(b.build());
        let _ = reserved;
    }
}

fn interleaved_ops(mut t: LocalInterner) {
    let mut model = HashMap::new();
    let mut saw_migration = 0;
    let mut caps = Vec::new();
    for i in 0..60_000u32 {
        let s = format!("key-{}", i.wrapping_mul(2_654_435_761) % 40_000);
        let next = model.len() as u32 + 1;
        let want = *model.entry(s.clone()).or_insert(next);
        assert_eq!(t.intern(&s).to_u32(), want);
        let d = t.diagnostics();
        if d.migrating {
            saw_migration += 1;
            // Mid-migration: old strings, new strings, and absent ones.
            if i % 97 == 0 {
                check_against(&t, &model);
            }
            let probe = format!("key-{}", i / 2);
            assert_eq!(
                t.get(&probe).map(Sym::to_u32),
                model.get(&probe).copied(),
                "{probe}"
            );
            assert_eq!(t.get("absent"), None);
        }
        if caps.last() != Some(&d.capacity) {
            caps.push(d.capacity);
        }
    }
    assert!(saw_migration > 1000, "{saw_migration}");
    assert!(caps.len() >= 8, "{caps:?}");
    check_against(&t, &model);
    assert!(t.diagnostics().longest_probe <= LOCAL_MAX_PROBE_GROUPS);
    assert!(!t.diagnostics().strong_hash);
}

/// The move to reserved address space: by its first chunk filling (4 KiB
/// of strings), by its first entry segment filling (1,024 entries), with
/// large strings interned before it, and from `with_capacity`; every
/// string stays where its symbol says, in both layouts.
#[test]
fn layouts_move_at_each_trigger_and_agree() {
    // 127 bytes + 1-byte prefix = 128: the 33rd string does not fit the
    // first chunk.
    let by_chunk: Vec<String> = (0..40)
        .map(|i| format!("{i:03}{}", "a".repeat(124)))
        .collect();
    // 1,100 strings of at most 3 bytes: the first chunk is not full when
    // the 1,025th entry arrives.
    let by_entries: Vec<String> = (0..1100).map(|i| format!("{i:x}")).collect();
    // Large strings first (own allocations, entries only), then short ones.
    let mut large_first: Vec<String> = (0..5).map(|i| format!("{i}{}", "L".repeat(5000))).collect();
    large_first.extend((0..2000).map(|i| format!("k{i}")));
    for keys in [&by_chunk, &by_entries, &large_first] {
        let mut per_layout = Vec::new();
        for (reserved, b) in layouts() {
            let mut t = b.seed(3).build();
            let mut model = HashMap::new();
            for (i, k) in keys.iter().enumerate() {
                if i == 32 && keys == &by_chunk || i == 1024 && keys == &by_entries {
                    assert!(!t.diagnostics().reserved, "moved too early");
                }
                model.insert(k.clone(), i as u32 + 1);
                assert_eq!(t.intern(k).to_u32(), i as u32 + 1);
            }
            assert_eq!(t.diagnostics().reserved, reserved);
            check_against(&t, &model);
            per_layout.push(t.iter().map(|(s, k)| (s, k.to_owned())).collect::<Vec<_>>());
        }
        assert_eq!(per_layout[0], per_layout[1]);
    }
    let sized = LocalInterner::with_capacity(10_000);
    assert_eq!(sized.diagnostics().reserved, RESERVES);
    assert!(sized.memory_usage() >= 5 * 10_000);
    let small = LocalInterner::with_capacity(100);
    assert!(!small.diagnostics().reserved);
}

#[test]
fn symbols_dense_stable_and_resolve_roundtrips() {
    let mut t = LocalInterner::new();
    let words: Vec<String> = (0..5000).map(|i| format!("w{i}")).collect();
    let syms: Vec<Sym> = words.iter().map(|w| t.intern(w)).collect();
    for (i, s) in syms.iter().enumerate() {
        assert_eq!(s.to_u32() as usize, i + 1);
    }
    for (w, s) in words.iter().zip(&syms) {
        assert_eq!(t.intern(w), *s);
        assert_eq!(t.resolve(*s), w);
        assert_eq!(&t[*s], w.as_str());
    }
    assert_eq!(t.len(), 5000);
    assert_eq!(t.try_resolve(Sym::from_u32(5001).unwrap()), None);
    let from: LocalInterner = words.iter().map(String::as_str).collect();
    assert_eq!(
        from.iter().map(|(_, s)| s).collect::<Vec<_>>(),
        words.iter().map(String::as_str).collect::<Vec<_>>()
    );
    let pairs: Vec<_> = (&from).into_iter().take(2).collect();
    assert_eq!(pairs[1].1, "w1");
}

#[test]
#[should_panic(expected = "not from this interner")]
fn resolve_foreign_symbol_panics() {
    let t = LocalInterner::new();
    t.resolve(Sym::from_u32(1).unwrap());
}

#[test]
fn empty_and_unicode_and_boundary_lengths() {
    let mut t = LocalInterner::new();
    let mut strings = vec![String::new(), "é".into(), "\u{1F600}".into()];
    // Around the one/two-byte length prefix (128), the large-string
    // boundary (4094) and chunk sizes.
    for n in [
        126usize, 127, 128, 129, 255, 256, 4092, 4093, 4094, 4095, 4096, 4097, 8191, 65_535,
        65_536, 70_000,
    ] {
        strings.push("q".repeat(n));
        strings.push(format!("{}é", "r".repeat(n.saturating_sub(2))));
    }
    let syms: Vec<Sym> = strings.iter().map(|s| t.intern(s)).collect();
    for (s, sym) in strings.iter().zip(&syms) {
        assert_eq!(t.resolve(*sym), s);
        assert_eq!(t.get(s), Some(*sym));
    }
    assert_eq!(t.len(), strings.len());
}

/// Strings whose prefixed sizes fill chunks exactly, then overflow them
/// by one byte: every string stays readable after later chunks are added.
#[test]
fn strings_filling_chunks_exactly() {
    for (_, b) in layouts() {
        filling_chunks(b.build());
    }
}

fn filling_chunks(mut t: LocalInterner) {
    let mut strings = Vec::new();
    // 127 bytes + 1-byte prefix = 128: 32 fill the 4 KiB first chunk.
    for i in 0..32 {
        strings.push(format!("{i:03}{}", "a".repeat(124)));
    }
    // 4093 bytes + 2-byte prefix: one per chunk, with one byte to spare in
    // the 8 KiB and 16 KiB chunks; then short ones fill the gaps.
    for i in 0..6 {
        strings.push(format!("{i}{}", "b".repeat(4092)));
        strings.push(format!("s{i}"));
    }
    let syms: Vec<Sym> = strings.iter().map(|s| t.intern(s)).collect();
    for (s, sym) in strings.iter().zip(&syms) {
        assert_eq!(t.resolve(*sym), s);
        assert_eq!(t.get(s), Some(*sym));
    }
    let all: Vec<&str> = t.iter().map(|(_, s)| s).collect();
    assert_eq!(all, strings.iter().map(String::as_str).collect::<Vec<_>>());
}

#[test]
fn intern_str_uses_the_cached_hash_and_agrees_with_intern() {
    let mut t = LocalInterner::new();
    let short = Str::from("inline");
    let long = Str::from("a string that is long enough to live on the heap, hash cached");
    let a = t.intern_str(&long);
    assert_eq!(t.intern(long.as_str()), a);
    assert_eq!(t.get_str(&long), Some(a));
    let b = t.intern(short.as_str());
    assert_eq!(t.intern_str(&short), b);
    assert_eq!(t.len(), 2);
    // With a custom seed the Str's cached hash (process seed) does not
    // apply: the interner must hash the bytes itself and still agree.
    let mut seeded = LocalBuilder::new().seed(99).build();
    let c = seeded.intern(long.as_str());
    assert_eq!(seeded.intern_str(&long), c);
    assert_eq!(seeded.get_str(&long), Some(c));
    assert_eq!(seeded.len(), 1);
}

#[test]
fn byte_cap() {
    let mut t = LocalBuilder::new().max_bytes(200 * 1024).build();
    let big = "b".repeat(150 * 1024);
    let first = t.try_intern(&big).unwrap();
    match t.try_intern(&"c".repeat(100 * 1024)) {
        Err(InternError::CapacityExceeded {
            limit,
            used,
            needed,
        }) => {
            assert_eq!(limit, 200 * 1024);
            assert_eq!(needed, 100 * 1024);
            assert!(used >= 150 * 1024);
        }
        other => panic!("{other:?}"),
    }
    // Hits still work past the cap, and small strings fit.
    assert_eq!(t.try_intern(&big), Ok(first));
    assert!(t.try_intern("small").is_ok());
    assert!(t.memory_usage() <= 200 * 1024);
    assert_eq!(t.len(), 2);
}

#[test]
fn memory_usage_is_sane() {
    let mut t = LocalInterner::new();
    let empty = t.memory_usage();
    assert!(empty < 1024, "{empty}");
    let words: Vec<String> = (0..100_000).map(|i| format!("ident_{i:06}")).collect();
    for w in &words {
        t.intern(w);
    }
    let bytes: usize = words.iter().map(String::len).sum();
    let used = t.memory_usage();
    // 8-byte entries + 1-byte length prefixes + table + chunk slack: well
    // above the string bytes, well under lasso-like 40 B/entry overheads.
    assert!(used > bytes + 9 * words.len(), "{used}");
    assert!(used < bytes + 40 * words.len(), "{used}");
    assert!(format!("{t:?}").contains("len: 100000"));
    // Pre-sized: at least the table (5 bytes per slot); the reserved
    // layout counts entry pages only once written.
    let sized = LocalInterner::with_capacity(100_000);
    assert!(sized.memory_usage() >= 5 * 100_000);
}

#[test]
fn with_capacity_never_resizes() {
    let mut t = LocalInterner::with_capacity(10_000);
    let cap = t.diagnostics().capacity;
    for i in 0..10_000 {
        t.intern(&i.to_string());
    }
    assert_eq!(t.diagnostics().capacity, cap);
    assert!(!t.diagnostics().migrating);
}

#[test]
fn send_not_sync_required() {
    fn send<T: Send>(_: &T) {}
    let mut t = LocalInterner::default();
    t.extend(["a", "b"]);
    send(&t);
    let moved = std::thread::spawn(move || {
        t.intern("c");
        t
    })
    .join()
    .unwrap();
    assert_eq!(moved.len(), 3);
}

// ---------------------------------------------------------------------------
// Pathologies.

/// Low hash bits that are zero in every colliding key: with them all zero
/// every key starts probing in the same group while the table has at most
/// 2^COLLIDE_BITS slots (and in one of cap / 2^COLLIDE_BITS groups later).
const COLLIDE_BITS: u32 = 12;

#[test]
fn colliding_keys_switch_to_siphash_and_stay_linear() {
    let n = 3000;
    let keys = colliding_keys("atk", SEED, COLLIDE_BITS, 2 * n);
    for (_, b) in layouts() {
        colliding(&keys, n, b);
    }
}

fn colliding(keys: &[String], n: usize, b: LocalBuilder) {
    let run = |keys: &[String]| {
        let mut t = b.clone().seed(SEED).build();
        for k in keys {
            t.intern(k);
        }
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(t.get(k).map(Sym::to_u32), Some(i as u32 + 1));
            assert_eq!(t.resolve(Sym::from_u32(i as u32 + 1).unwrap()), k);
        }
        t.diagnostics()
    };
    let d1 = run(&keys[..n]);
    let d2 = run(keys);
    for d in [d1, d2] {
        assert!(d.strong_hash, "{d:?}");
        assert!(d.longest_probe <= LOCAL_MAX_PROBE_GROUPS + 1, "{d:?}");
    }
    // Probe work about linear: 2N keys cost about 2x the groups of N (a
    // quadratic probe would cost 4x).
    let ratio = d2.probe_groups as f64 / d1.probe_groups as f64;
    assert!(ratio < 3.0, "{ratio} {d1:?} {d2:?}");
    // The same number of ordinary keys never switches.
    let mut plain = LocalBuilder::new().seed(SEED).build();
    for i in 0..2 * n {
        plain.intern(&format!("atk-plain-{i}"));
    }
    assert!(!plain.diagnostics().strong_hash);
}

#[test]
fn colliding_keys_during_migration_keep_all_entries() {
    // Plain keys first so the attack starts mid-resize, then collisions.
    let mut t = LocalBuilder::new().seed(SEED).build();
    let mut model = HashMap::new();
    let plain: Vec<String> = (0..900).map(|i| format!("p{i}")).collect();
    let keys = colliding_keys("atk", SEED, COLLIDE_BITS, 1500);
    for k in plain.iter().chain(&keys) {
        let next = model.len() as u32 + 1;
        model.entry(k.clone()).or_insert(next);
        t.intern(k);
    }
    assert!(t.diagnostics().strong_hash);
    check_against(&t, &model);
}

const MIB: usize = 1 << 20;

fn similar(count: usize, pos: usize) {
    let mut t = LocalInterner::new();
    let mut buf = vec![b'a'; MIB];
    let mut syms = Vec::new();
    for i in 0..count {
        let mut n = i;
        for b in &mut buf[pos..pos + 4] {
            *b = b'a' + (n % 26) as u8;
            n /= 26;
        }
        let s = std::str::from_utf8(&buf).unwrap();
        syms.push(t.intern(s));
    }
    assert_eq!(t.len(), count);
    for (i, sym) in syms.iter().enumerate() {
        assert_eq!(sym.to_u32() as usize, i + 1);
        assert_eq!(t.resolve(*sym).len(), MIB);
    }
    assert!(t.memory_usage() >= count * MIB);
}

#[test]
fn similar_megabyte_strings_differing_near_the_end_and_in_the_middle() {
    // 800 in the bench; 100 here keeps the test quick.
    similar(100, MIB - 8);
    similar(100, MIB / 2);
}

#[test]
fn stress_keys_million() {
    for (reserved, b) in layouts() {
        let t = stress(b.build());
        assert_eq!(t.diagnostics().reserved, reserved);
    }
}

fn stress(mut t: LocalInterner) -> LocalInterner {
    // LuaJIT#555: 1,000,000 keys `__stress_<i>.out`.
    const N: usize = 1_000_000;
    for i in 0..N {
        let s = format!("__stress_{i}.out");
        assert_eq!(t.intern(&s).to_u32() as usize, i + 1);
    }
    assert_eq!(t.len(), N);
    for i in (0..N).step_by(997) {
        let s = format!("__stress_{i}.out");
        let sym = t.get(&s).unwrap();
        assert_eq!(sym.to_u32() as usize, i + 1);
        assert_eq!(t.resolve(sym), s);
    }
    let d = t.diagnostics();
    assert!(!d.strong_hash);
    assert!(d.longest_probe <= LOCAL_MAX_PROBE_GROUPS, "{d:?}");
    // Average probe well under two groups at <= 7/8 load.
    assert!(d.probe_groups < 2 * N as u64, "{d:?}");
    t
}
