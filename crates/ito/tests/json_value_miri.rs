//! Small, Miri-sized runs of the unsafe code under `ito::json::Value`: the
//! parser's in-place pushes onto its stack, borrowed strings (from bytes
//! and from text), owned ones (escaped, inline and on the heap), the large
//! object's lazily built hash index (built, shared by two threads, kept
//! through inserts, dropped on removal, cloned, dropped with its object),
//! containers whose children own heap memory (each moved off the
//! parser's stack once: dropped, pushed onto, a child taken, made owned),
//! the serde entry that recognises ito's deserializer, and every prefix of
//! a small document as an error. The same documents parsed into an
//! `Arena` (blocks small enough to be crossed): dropped, grown (copy on
//! grow), children moved out and heap values moved into arena slots,
//! cloned, made owned, sent to another thread, the arena reset and reused.
//! Results are compared with serde_json's.
//!
//! `cargo +nightly miri test -p ito --features serde --test json_value_miri`
#![cfg(feature = "serde")]

use ito::json::{Arena, Value};

const DOC: &str = concat!(
    "{\"id\": \"ab12\",\t\"kind\": 1,\r\n \"n\": [-0, 1.5e3, -9223372036854775808,",
    " 18446744073709551615, 1E-7], \"text\": \"caf\\u00e9 \\ud83d\\ude00 \\\"q\\\" é 😀\",",
    " \"long\": \"a heap string that is longer than twenty-three bytes\",",
    " \"tags\": [[\"p\", \"cd\"], []], \"ok\": true, \"no\": null, \"id\": \"dup\"}"
);

fn same(v: &Value<'_>, text: &str) {
    let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::Value::from(v), theirs);
}

#[test]
fn document_borrowed_and_owned() {
    let v = Value::from_str(DOC).unwrap();
    same(&v, DOC);
    assert_eq!(v["id"], "dup"); // last value, first position
    assert!(v["tags"][0][1].as_text().unwrap().is_borrowed());
    let b = Value::from_slice(DOC.as_bytes()).unwrap();
    assert_eq!(b, v);
    let owned: Value<'static> = ito::json::from_str(DOC).unwrap();
    assert_eq!(owned, v);
    let text = v.to_string();
    assert_eq!(Value::from_str(&text).unwrap(), v);
    let copy = v.clone().into_owned();
    drop(v);
    assert_eq!(copy["long"].as_str().unwrap().len(), 52);
}

#[test]
fn large_object_index() {
    let keys: Vec<String> = (0..24).map(|i| format!("k{i}")).collect();
    let text = format!(
        "{{{}}}",
        keys.iter()
            .map(|k| format!("\"{k}\":1"))
            .collect::<Vec<_>>()
            .join(",")
    );
    let mut v = Value::from_str(&text).unwrap();
    // Built by two threads at once; one index wins, the other is freed.
    std::thread::scope(|s| {
        let v = &v;
        let a = s.spawn(move || v.get("k3").is_some());
        assert!(v.get("k20").is_some());
        assert!(a.join().unwrap());
    });
    let copy = v.clone();
    assert!(copy.get("k23").is_some());
    v.insert("new", 2);
    assert_eq!(v["new"], 2);
    assert!(v.remove("k0").is_some());
    assert!(v.get("k0").is_none() && v.get("k1").is_some());
    for i in 0..40 {
        v.insert(format!("more{i}"), i);
    }
    assert_eq!(v["more39"], 39);
}

#[test]
fn every_prefix_is_an_error_like_serde_json() {
    let doc = &DOC.as_bytes()[..120];
    for end in 0..doc.len() {
        let ours = Value::from_slice(&doc[..end])
            .map(|_| ())
            .map_err(|e| e.to_string());
        let theirs = serde_json::from_slice::<serde_json::Value>(&doc[..end])
            .map(|_| ())
            .map_err(|e| e.to_string());
        assert_eq!(ours, theirs);
    }
}

/// The inline reads of indented whitespace (16-byte words after a
/// newline) and of arrays of numbers (two bytes after each number), on
/// every prefix copied into an allocation of exactly its size, so a read
/// past the end is one Miri reports.
#[test]
fn indented_runs_and_number_arrays_read_in_bounds() {
    let doc = "{\n  \"a\": [1,-2,3.5],\n                    \"b\": [\n    [4,5]\n  ]\n}";
    let arena = Arena::new();
    for end in 0..=doc.len() {
        let text = doc.as_bytes()[..end].to_vec();
        let ours = Value::from_slice_in(&arena, &text)
            .map(|_| ())
            .map_err(|e| e.to_string());
        let theirs = serde_json::from_slice::<serde_json::Value>(&text)
            .map(|_| ())
            .map_err(|e| e.to_string());
        assert_eq!(ours, theirs);
    }
}

/// Arrays of numbers written straight into the arena's free room, closed
/// there, or moved to the parser's stack when they outgrow it (blocks of
/// 0–5 values) or meet a string: the room never written past its end,
/// and the arrays moved to the stack dropped with no leak.
#[test]
fn number_arrays_in_the_arena_room() {
    let doc = r#"[[1,2],[3,4,5],[6,"x"],[-7,8,9,10,11,12],[13, 14]]"#;
    for values in 0..=5 {
        let arena = Arena::with_capacity(values * 32);
        let v = Value::from_str_in(&arena, doc).unwrap();
        same(&v, doc);
    }
}

/// Containers whose children own heap memory, at every nesting the
/// parser's stack moves: arrays of heap strings and of non-empty arrays,
/// objects of them. Dropped, grown by a push, a child moved out, made
/// owned: each heap block must have exactly one owner (a child left on the
/// parser's stack after its move would be freed twice).
#[test]
fn moved_children_have_one_owner() {
    let long = "\\\"an escaped string longer than 23 bytes\\\"";
    let text = format!(
        r#"[["{long}", "{long}", ["{long}"]], {{"a": ["{long}", [1, 2]], "b": {{"c": "{long}"}}}}, [[], [[3]]], "{long}"]"#
    );
    let v = Value::from_str(&text).unwrap();
    same(&v, &text);
    drop(v);

    let mut v = Value::from_str(&text).unwrap();
    assert!(v[0].push(Value::from_str(&text).unwrap()));
    let child = v[1]["a"].take();
    assert_eq!(child[0].as_str().unwrap().len(), 40);
    assert!(v[1]["a"].is_null());
    let owned = v.clone().into_owned();
    drop(v);
    drop(child);
    drop(text);
    assert_eq!(owned[0][3][0][2][0].as_str().unwrap().len(), 40);
    assert_eq!(owned[2][1][0][0], 3);
}

/// The moves above, on a value whose containers live in an arena: each
/// element must still have exactly one owner after copy on grow (a heap
/// string left behind in the arena and also in the heap copy would be
/// freed twice), and heap values put into arena slots must be freed.
#[test]
fn arena_values_have_one_owner() {
    let long = "\\\"an escaped string longer than 23 bytes\\\"";
    let text = format!(
        r#"[["{long}", "{long}", ["{long}"]], {{"a": ["{long}", [1, 2]], "b": {{"c": "{long}"}}}}, [[], [[3]]], "{long}"]"#
    );
    let mut arena = Arena::with_capacity(64);
    {
        let v = Value::from_str_in(&arena, &text).unwrap();
        same(&v, &text);
        let d = Value::from_str_in(&arena, DOC).unwrap();
        same(&d, DOC);
        drop(v);

        let mut v = Value::from_str_in(&arena, &text).unwrap();
        // Copy on grow, then a heap value into an arena slot.
        assert!(v[0].push(Value::from_str(&text).unwrap()));
        v[1]["b"]["c"] = Value::from(String::from("a heap string put into an arena slot"));
        let old = std::mem::replace(&mut v[1]["b"], Value::from(vec![1, 2]));
        assert_eq!(old["c"].as_str().unwrap().len(), 36);
        let child = v[1]["a"].take();
        assert_eq!(child[0].as_str().unwrap().len(), 40);
        v[2].as_array_mut().unwrap().remove(0);
        v[1].as_object_mut().unwrap().insert("z", child.clone());
        // Moved to another thread and back (the arena stays here).
        let v = std::thread::scope(|s| s.spawn(move || v).join().unwrap());
        let copy = v.clone();
        let owned = v.into_owned();
        assert_eq!(copy, owned);
        drop(copy);
        drop(child);
        drop(old);
        drop(d);
        assert_eq!(owned[0][3][0][2][0].as_str().unwrap().len(), 40);
        assert_eq!(owned[2][0][0][0], 3);
    }
    arena.reset();
    // Values that own memory without an escape: a large object's lookup
    // index (built through `&self`) and a long exact number, each inside
    // arrays that own nothing else. Dropped without a walk, they leak.
    let members: Vec<String> = (0..20).map(|i| format!("\"k{i}\": [{i}]")).collect();
    let big = format!("[[{{{}}}], [\"clean\"]]", members.join(", "));
    let v = Value::from_str_in(&arena, &big).unwrap();
    assert_eq!(v[0][0]["k19"][0], 19);
    drop(v);
    // Duplicate keys: the object's members move to the heap (found by
    // the fuzzer: leaked under a pure array).
    let d = Value::from_str_in(&arena, r#"[[{"a": 1, "b": 2, "a": 3}]]"#).unwrap();
    assert_eq!(d[0][0]["a"], 3);
    drop(d);
    let n = Value::from_slice_exact_in(&arena, b"[[1.00000000000000000000000000001]]").unwrap();
    assert_eq!(n.to_string(), "[[1.00000000000000000000000000001]]");
    drop(n);
    let v = Value::from_str_in(&arena, DOC).unwrap();
    same(&v, DOC);
    let prefix = &DOC.as_bytes()[..60];
    for end in 0..prefix.len() {
        assert!(Value::from_slice_in(&arena, &prefix[..end]).is_err());
    }
}

/// What an arena document owns through its arena rather than on the heap:
/// escaped strings (decoded into the arena, borrowed from it) and large
/// objects' lookup indexes (handed to the arena's list). Built by two
/// threads at once (one index kept, both freed by the arena), kept
/// through an insert, dropped from the object on removal, and built again
/// on the heap afterwards; every document dropped without a walk. Miri's
/// leak check fails if the arena does not free what it was handed.
#[test]
fn arena_owns_escaped_strings_and_indexes() {
    let members: Vec<String> = (0..16)
        .map(|i| format!("\"k\\u00e9{i}\": \"v\\n{i}\""))
        .collect();
    let text = format!(
        "[{{{}}}, [\"a\\\"b\", {{{}}}]]",
        members.join(", "),
        members.join(", ")
    );
    let mut arena = Arena::with_capacity(128);
    for _ in 0..2 {
        let v = Value::from_str_in(&arena, &text).unwrap();
        same(&v, &text);
        let s = v[1][0].as_text().unwrap();
        assert!(s.is_borrowed());
        assert_eq!(s.as_str(), "a\"b");
        assert_eq!(v[1][0].to_string(), r#""a\"b""#);
        std::thread::scope(|sc| {
            let v = &v;
            let a = sc.spawn(move || v[0].get("k\u{e9}3").is_some());
            assert_eq!(v[0]["k\u{e9}15"], "v\n15");
            assert!(a.join().unwrap());
        });
        let mut w = Value::from_str_in(&arena, &text).unwrap();
        assert_eq!(w[1][1]["k\u{e9}0"], "v\n0"); // index built in the arena
        let obj = w[1][1].as_object_mut().unwrap();
        obj.insert("new", 1.into()); // kept, grown in place
        assert_eq!(obj["new"], 1);
        assert!(obj.remove("k\u{e9}1").is_some()); // dropped from the object
        assert_eq!(obj["k\u{e9}2"], "v\n2"); // built again, on the heap
        assert_eq!(w[1][1].as_object().unwrap().len(), 16);
        drop(w);
        drop(v);
        arena.reset();
    }
}
