//! The std traits of `Str` behave like `str`'s; `quote_str` agrees with
//! serde_json; sizes and auto traits are what the docs promise.

#![allow(clippy::nonminimal_bool, clippy::cmp_owned)] // both directions are the point

use ito::{Str, StrBuf};
use std::collections::{BTreeSet, HashMap, HashSet};

fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn sizes_and_auto_traits() {
    assert_eq!(std::mem::size_of::<Str>(), 24);
    assert_eq!(std::mem::size_of::<Option<Str>>(), 24);
    assert_send_sync::<Str>();
    assert_send_sync::<StrBuf>();
}

#[test]
fn lookups_through_borrow() {
    let mut m: HashMap<Str, u32> = HashMap::new();
    let keys = ["a", "", "a key long enough to live on the heap", "é✓"];
    for (i, k) in keys.iter().enumerate() {
        m.insert(Str::from(*k), i as u32);
    }
    for (i, k) in keys.iter().enumerate() {
        assert_eq!(m.get(*k), Some(&(i as u32)));
        assert_eq!(m.get(&Str::from_static(k)), Some(&(i as u32)));
    }
    let set: HashSet<Str> = keys.iter().map(|k| Str::from(*k)).collect();
    assert!(set.contains("a"));
    let sorted: BTreeSet<Str> = keys.iter().map(|k| Str::from(*k)).collect();
    let mut want: Vec<&str> = keys.to_vec();
    want.sort();
    assert_eq!(sorted.iter().map(|s| s.as_str()).collect::<Vec<_>>(), want);
}

#[test]
fn comparisons_both_directions() {
    let s = Str::from("abc");
    let owned = String::from("abc");
    assert!(s == "abc" && "abc" == s);
    assert!(s == *"abc" && *"abc" == s);
    assert!(s == owned && owned == s);
    assert!(s == std::borrow::Cow::Borrowed("abc"));
    assert!(s < Str::from("abd") && *"abb" < s);
    assert_eq!(s.partial_cmp("abd"), Some(std::cmp::Ordering::Less));
}

#[test]
fn conversions() {
    use std::str::FromStr;
    let long = "x".repeat(50);
    assert_eq!(Str::from(long.clone()), long.as_str());
    assert_eq!(Str::from(long.clone().into_boxed_str()), long.as_str());
    assert_eq!(Str::from('é'), "é");
    assert!(Str::from('é').is_inline());
    assert_eq!(Str::from_str("q").unwrap(), "q");
    assert_eq!(Str::default(), "");
    assert_eq!(String::from(Str::from("back")), "back");
    let chars: Str = "héllo".chars().collect();
    assert_eq!(chars, "héllo");
    let strs: Str = ["a", "b", "c"].into_iter().collect();
    assert_eq!(strs, "abc");
    let strings: Str = vec![String::from("x"); 30].into_iter().collect();
    assert_eq!(strings.len(), 30);
    let ss: Str = [Str::from("p"), Str::from("q")].into_iter().collect();
    assert_eq!(ss, "pq");
    let as_ref: &[u8] = s_ref(&ss);
    assert_eq!(as_ref, b"pq");
    assert_eq!(format!("{ss} {ss:?} {ss:>4}"), "pq \"pq\"   pq");
    assert_eq!(&ss[..1], "p"); // Deref<Target = str>
}

fn s_ref(s: &Str) -> &[u8] {
    s.as_ref()
}

#[test]
fn quote_str_matches_serde_json() {
    let mut cases: Vec<String> = vec![
        String::new(),
        "plain".into(),
        "é✓ and a longer heap string with no escapes at all".into(),
        "q\"b\\s\n\r\t\u{8}\u{c}\u{0}\u{1f}\u{7f}".into(),
    ];
    for b in 0u8..0x80 {
        cases.push(std::format!("a{}b", b as char));
    }
    for c in cases {
        for s in [Str::from(c.as_str()), Str::from(c.repeat(3))] {
            let mut out = b"prefix".to_vec();
            ito::str::quote_str(&mut out, &s);
            let want = serde_json::to_string(s.as_str()).unwrap();
            assert_eq!(&out[6..], want.as_bytes(), "{s:?}");
        }
    }
}

#[test]
fn static_strings() {
    static S: Str = Str::from_static("in a static item, no allocation, no atomics");
    const C: Str = Str::from_static("é\"");
    assert!(S.is_static() && S.is_ascii() && S.is_json_safe());
    assert!(C.is_static() && !C.is_ascii() && !C.is_json_safe());
    let copy = S.clone();
    assert_eq!(copy, S);
    assert_eq!(copy.as_ptr(), S.as_ptr());
}

#[test]
fn heap_clone_shares_the_allocation() {
    let a = Str::from("a heap string shared by its clones");
    let b = a.clone();
    assert_eq!(a.as_ptr(), b.as_ptr());
    drop(a);
    assert_eq!(b, "a heap string shared by its clones");
}

#[test]
fn strbuf_freeze_keeps_the_buffer() {
    let mut b = StrBuf::with_capacity(100);
    b.push_str(&"z".repeat(60));
    let p = b.as_ptr();
    let s = b.freeze();
    assert!(s.is_heap());
    assert_eq!(s.as_ptr(), p, "freeze must not copy");
}

#[test]
fn strbuf_write_and_extend() {
    use std::fmt::Write;
    let mut b = StrBuf::new();
    write!(b, "{}-{:?}", 1, "x").unwrap();
    b.extend(["a", "b"]);
    b.extend(['c', '\n']);
    assert_eq!(b.as_str(), "1-\"x\"abc\n");
    assert!(!b.is_json_safe());
    let c = b.clone();
    assert_eq!(c.as_str(), b.as_str());
    assert_eq!(format!("{b}"), b.as_str());
}

#[cfg(feature = "serde")]
#[test]
fn serde_round_trip() {
    let v = vec![
        Str::from("a"),
        Str::from("b\"é with a long tail to reach the heap"),
    ];
    let json = serde_json::to_string(&v).unwrap();
    assert_eq!(
        json,
        serde_json::to_string(&["a", "b\"é with a long tail to reach the heap"]).unwrap()
    );
    let back: Vec<Str> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, v);
    assert!(!back[1].is_json_safe() && back[0].is_json_safe());
}
