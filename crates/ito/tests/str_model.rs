//! Model-based test: random sequences of operations on `StrBuf`/`Str`
//! applied side by side to `std::string::String`, checked after every step:
//! content, length, representation choice, facts against a scalar
//! recomputation, `content_hash` stability and equality across
//! representations, `Hash`/`Eq`/`Ord` consistency with `str`.

mod common;

use ito::{Str, StrBuf};
use proptest::prelude::*;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

#[derive(Debug, Clone)]
enum Op {
    Push(String),
    PushChar(char),
    Clear,
    Reserve(usize),
    /// Freeze the buffer into a new `Str` and start a new buffer.
    Freeze,
    /// Snapshot the buffer's content via `Str::from(&str)`.
    Snapshot,
    /// Clone a held `Str` (index modulo count).
    CloneStr(usize),
    /// Drop a held `Str`.
    DropStr(usize),
    /// `Str::concat` of two held strings and a piece.
    Concat(usize, usize, String),
    /// `Str::join` of all held strings.
    Join(String),
    /// `ito::format!` of two held strings and a number.
    Format(usize, usize, i64),
    /// Static string.
    Static(usize),
    /// Rebuild from a `StrBuf` copy of a held string.
    Rebuild(usize),
}

fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{0,12}",
        "[a-z\"\\\\\n\u{1}é✓]{0,20}",
        "\\PC{0,30}",
        "[x]{20,80}",
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => piece().prop_map(Op::Push),
        2 => any::<char>().prop_map(Op::PushChar),
        1 => Just(Op::Clear),
        1 => (0usize..200).prop_map(Op::Reserve),
        2 => Just(Op::Freeze),
        2 => Just(Op::Snapshot),
        2 => any::<usize>().prop_map(Op::CloneStr),
        1 => any::<usize>().prop_map(Op::DropStr),
        1 => (any::<usize>(), any::<usize>(), piece()).prop_map(|(a, b, p)| Op::Concat(a, b, p)),
        1 => "[,;\" ]{0,3}".prop_map(Op::Join),
        1 => (any::<usize>(), any::<usize>(), any::<i64>()).prop_map(|(a, b, n)| Op::Format(a, b, n)),
        1 => any::<usize>().prop_map(Op::Static),
        1 => any::<usize>().prop_map(Op::Rebuild),
    ]
}

const STATICS: [&str; 4] = [
    "",
    "short static",
    "a static string that is longer than the inline capacity",
    "static with \"quotes\" and é",
];

fn json_safe(s: &str) -> bool {
    !s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\')
}

fn std_hash<T: Hash + ?Sized>(t: &T) -> u64 {
    let mut h = DefaultHasher::new();
    t.hash(&mut h);
    h.finish()
}

fn check_str(s: &Str, model: &str) {
    assert_eq!(s.as_str(), model);
    assert_eq!(s.len(), model.len());
    assert_eq!(s.is_empty(), model.is_empty());
    assert_eq!(s.is_ascii(), model.is_ascii(), "ascii {model:?}");
    assert_eq!(s.is_json_safe(), json_safe(model), "json {model:?}");
    assert_eq!(
        [s.is_inline(), s.is_static(), s.is_heap()]
            .iter()
            .filter(|b| **b)
            .count(),
        1
    );
    if !s.is_static() {
        assert_eq!(s.is_inline(), model.len() <= ito::str::INLINE_CAP);
    }
    // content_hash: stable (cached on the heap) and equal across
    // representations of the same content.
    let h = s.content_hash();
    assert_eq!(h, s.content_hash());
    assert_eq!(h, Str::from(model).content_hash());
    assert_eq!(std_hash(s), std_hash(model));
    assert_eq!(*s, *model);
    assert_eq!(s.cmp(&Str::from(model)), std::cmp::Ordering::Equal);
}

fn run(ops: Vec<Op>) {
    let mut buf = StrBuf::new();
    let mut model = String::new();
    let mut held: Vec<(Str, String)> = Vec::new();
    for op in ops {
        match op {
            Op::Push(p) => {
                buf.push_str(&p);
                model.push_str(&p);
            }
            Op::PushChar(c) => {
                buf.push(c);
                model.push(c);
            }
            Op::Clear => {
                buf.clear();
                model.clear();
            }
            Op::Reserve(n) => {
                buf.reserve(n);
                assert!(buf.capacity() >= buf.len() + n);
            }
            Op::Freeze => {
                let b = std::mem::take(&mut buf);
                held.push((b.freeze(), std::mem::take(&mut model)));
            }
            Op::Snapshot => held.push((Str::from(buf.as_str()), model.clone())),
            Op::CloneStr(i) if !held.is_empty() => {
                let (s, m) = &held[i % held.len()];
                held.push((s.clone(), m.clone()));
            }
            Op::DropStr(i) if !held.is_empty() => {
                let n = held.len();
                held.swap_remove(i % n);
            }
            Op::Concat(a, b, p) if !held.is_empty() => {
                let n = held.len();
                let (sa, ma) = &held[a % n];
                let (sb, mb) = &held[b % n];
                let s = Str::concat(&[sa, &p, sb]);
                let m = std::format!("{ma}{p}{mb}");
                held.push((s, m));
            }
            Op::Join(sep) => {
                let s = Str::join(&sep, held.iter().map(|(s, _)| s));
                let m = held
                    .iter()
                    .map(|(_, m)| m.as_str())
                    .collect::<Vec<_>>()
                    .join(&sep);
                held.push((s, m));
            }
            Op::Format(a, b, x) if !held.is_empty() => {
                let n = held.len();
                let (sa, ma) = &held[a % n];
                let (sb, mb) = &held[b % n];
                let s = ito::format!("{sa}<{x}>{sb:?}");
                let m = std::format!("{ma}<{x}>{mb:?}");
                held.push((s, m));
            }
            Op::Static(i) => {
                let t = STATICS[i % STATICS.len()];
                held.push((Str::from_static(t), t.to_string()));
            }
            Op::Rebuild(i) if !held.is_empty() => {
                let (s, m) = &held[i % held.len()];
                let mut b = StrBuf::from(s.as_str());
                b.push_str("");
                held.push((b.freeze(), m.clone()));
            }
            _ => {}
        }
        // Check everything after every step.
        assert_eq!(buf.as_str(), model.as_str());
        assert_eq!(buf.len(), model.len());
        assert_eq!(buf.is_ascii(), model.is_ascii());
        assert_eq!(buf.is_json_safe(), json_safe(&model));
        for (s, m) in &held {
            check_str(s, m);
        }
    }
}

proptest! {
    #![proptest_config(common::proptest_config(1024))]

    #[test]
    fn model(ops in proptest::collection::vec(op(), 1..40)) {
        run(ops);
    }
}

#[test]
fn threads_share_heap_strings() {
    let s = Str::from("shared between threads, long enough for the heap");
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let s = s.clone();
            std::thread::spawn(move || {
                let mut v = Vec::new();
                for _ in 0..1000 {
                    v.push(s.clone());
                }
                (s.content_hash(), v.len())
            })
        })
        .collect();
    for h in handles {
        let (hash, n) = h.join().unwrap();
        assert_eq!(hash, s.content_hash());
        assert_eq!(n, 1000);
    }
}
