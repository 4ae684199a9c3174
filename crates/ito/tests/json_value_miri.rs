//! Small, Miri-sized runs of the unsafe code under `ito::json::Value`: the
//! parser's in-place pushes onto its stack, borrowed strings (from bytes
//! and from text), owned ones (escaped, inline and on the heap), the large
//! object's lazily built hash index (built, shared by two threads, kept
//! through inserts, dropped on removal, cloned, dropped with its object),
//! containers whose children own heap memory (each moved off the
//! parser's stack once: dropped, pushed onto, a child taken, made owned),
//! the serde entry that recognises ito's deserializer, and every prefix of
//! a small document as an error. Results are compared with serde_json's.
//!
//! `cargo +nightly miri test -p ito --features serde --test json_value_miri`
#![cfg(feature = "serde")]

use ito::json::Value;

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
