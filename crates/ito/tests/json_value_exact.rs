//! `Value::from_slice_exact` (and `from_slice_exact_in`, into an arena):
//! numbers keep their text.
//!
//! Oracles: serde_json for the number grammar (every string of up to six
//! bytes over the number alphabet), the plain parse for values and error
//! positions, the input's own number tokens for the kept text, and
//! `json::layout::compact` for a whole document whose strings have no
//! escapes (canada).
#![cfg(feature = "serde")]

mod value_common;

use ito::json::{Arena, Number, Value};
use value_common::{corpus, suite};

/// The number tokens of a JSON document, in order (outside strings: runs
/// of number bytes that start with `-` or a digit).
fn number_tokens(doc: &[u8]) -> Vec<&str> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < doc.len() {
        match doc[i] {
            b'"' => {
                i += 1;
                while doc[i] != b'"' {
                    i += if doc[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < doc.len()
                    && matches!(doc[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                out.push(std::str::from_utf8(&doc[start..i]).unwrap());
            }
            _ => i += 1,
        }
    }
    out
}

/// Every number of `v`, in document order.
fn numbers<'v>(v: &'v Value<'_>, out: &mut Vec<&'v Number>) {
    match v {
        Value::Number(n) => out.push(n),
        Value::Array(a) => a.iter().for_each(|x| numbers(x, out)),
        Value::Object(o) => o.values().for_each(|x| numbers(x, out)),
        _ => {}
    }
}

/// The exact parse of `doc` holds the same document as the plain parse,
/// with each number's kept text equal to its token in the input.
fn check_document(doc: &[u8]) {
    let plain = Value::from_slice(doc).unwrap();
    let exact = Value::from_slice_exact(doc).unwrap();
    let arena = Arena::with_capacity(24);
    let in_arena = Value::from_slice_exact_in(&arena, doc).unwrap();
    assert_eq!(in_arena.to_string(), exact.to_string(), "arena");
    let tokens = number_tokens(doc);
    let (mut p, mut e) = (Vec::new(), Vec::new());
    numbers(&plain, &mut p);
    numbers(&exact, &mut e);
    assert_eq!(p.len(), tokens.len());
    assert_eq!(e.len(), tokens.len());
    for ((p, e), token) in p.iter().zip(&e).zip(&tokens) {
        assert_eq!(e.to_string(), *token, "rendered as read");
        match e.as_exact_text() {
            Some(text) => {
                assert_eq!(text, *token);
                assert!(p.as_u64().is_none() && p.as_i64().is_none(), "{token}");
                assert_eq!(e.as_f64(), p.as_f64(), "{token}");
                assert!(e.is_f64());
            }
            None => {
                assert!(p == e, "{token}");
                assert!(p.as_u64().is_some() || p.as_i64().is_some(), "{token}");
            }
        }
    }
    // Outside numbers the documents are the same.
    let strip = |v: &Value| -> String {
        let mut v = v.clone();
        fn zero(v: &mut Value) {
            match v {
                Value::Number(_) => *v = Value::Null,
                Value::Array(a) => a.iter_mut().for_each(zero),
                Value::Object(o) => o.iter_mut().for_each(|(_, x)| zero(x)),
                _ => {}
            }
        }
        zero(&mut v);
        v.to_string()
    };
    assert_eq!(strip(&plain), strip(&exact));
}

#[test]
fn corpora_keep_every_number_as_written() {
    for name in ["twitter.json", "citm_catalog.json", "canada.json"] {
        check_document(&corpus(name));
    }
}

#[test]
fn canada_renders_byte_for_byte_as_its_compact_form() {
    // canada's strings have no escapes, so the only thing a plain parse
    // changes is the numbers' spelling: exact keeps them all.
    let doc = corpus("canada.json");
    let mut compact = Vec::new();
    ito::json::layout::compact(&mut compact, &doc);
    let exact = Value::from_slice_exact(&doc).unwrap();
    assert_eq!(exact.to_string().as_bytes(), &compact[..]);
    let plain = Value::from_slice(&doc).unwrap().to_string();
    assert_ne!(
        plain.as_bytes(),
        &compact[..],
        "the plain parse respells some numbers"
    );
}

#[test]
fn suite_documents_parse_alike() {
    for (name, doc) in suite() {
        let plain = Value::from_slice(&doc);
        let exact = Value::from_slice_exact(&doc);
        match (&plain, &exact) {
            (Ok(_), Ok(_)) => check_document(&doc),
            (Err(p), Err(e)) => assert_eq!(p.to_string(), e.to_string(), "{name}"),
            // Only a number beyond f64's range separates them.
            (Err(p), Ok(_)) => assert!(
                p.to_string().starts_with("number out of range"),
                "{name}: {p}"
            ),
            (Ok(_), Err(e)) => panic!("{name}: exact refused what the plain parse read: {e}"),
        }
    }
}

/// serde_json's verdict on `text` as one JSON value, ignoring range.
fn serde_json_accepts(text: &str) -> bool {
    match serde_json::from_str::<serde::de::IgnoredAny>(text) {
        Ok(_) => true,
        Err(e) => e.to_string().starts_with("number out of range"),
    }
}

#[test]
fn every_short_string_over_the_number_alphabet() {
    // 8 + 8^2 + ... + 8^6 = 299,592 strings: every spelling of sign,
    // leading zero, fraction and exponent up to six bytes.
    const ALPHABET: &[u8] = b"019-+.eE";
    let mut text = Vec::new();
    let mut accepted = 0;
    for len in 1..=6u32 {
        for mut k in 0..ALPHABET.len().pow(len) {
            text.clear();
            for _ in 0..len {
                text.push(ALPHABET[k % ALPHABET.len()]);
                k /= ALPHABET.len();
            }
            let s = std::str::from_utf8(&text).unwrap();
            let oracle = serde_json_accepts(s);
            let number = Number::from_exact_text(s);
            assert_eq!(number.is_some(), oracle, "{s:?}");
            let value = Value::from_str_exact(s);
            assert_eq!(value.is_ok(), oracle, "{s:?}");
            match value {
                Ok(v) => {
                    accepted += 1;
                    let n = number.unwrap();
                    assert_eq!(v, Value::Number(n.clone()), "{s:?}");
                    assert_eq!(v.to_string(), s, "{s:?}");
                    assert_eq!(n.to_string(), s, "{s:?}");
                    let parsed = s.parse::<f64>().unwrap();
                    assert_eq!(n.as_f64(), parsed.is_finite().then_some(parsed), "{s:?}");
                    if let Some(u) = n.as_u64() {
                        assert_eq!(u.to_string(), s);
                    }
                    if let Some(i) = n.as_i64() {
                        assert_eq!(i.to_string(), s);
                    }
                    if n.as_exact_text().is_some() {
                        assert!(
                            s.parse::<u64>().is_err() && (s == "-0" || s.parse::<i64>().is_err())
                        );
                    }
                }
                Err(e) => {
                    // The same words and position as the plain parse.
                    let plain = Value::from_str(s).unwrap_err();
                    if !plain.to_string().starts_with("number out of range") {
                        assert_eq!(e.to_string(), plain.to_string(), "{s:?}");
                    }
                }
            }
        }
    }
    assert!(accepted > 2_000, "{accepted}");
}

#[test]
fn numbers_in_context_and_every_prefix() {
    let doc = br#" { "a" : [ -0 , 0.10 , 1E+400 , -1e-400 , 18446744073709551616 , -9223372036854775809 , 7 , -7 , 1.5e3 ] , "b" : 2.50 } "#;
    let v = Value::from_slice_exact(doc).unwrap();
    assert_eq!(
        v.to_string(),
        r#"{"a":[-0,0.10,1E+400,-1e-400,18446744073709551616,-9223372036854775809,7,-7,1.5e3],"b":2.50}"#
    );
    assert_eq!(v["a"][6], 7);
    assert_eq!(v["a"][7], -7);
    assert_eq!(v["a"][2].as_f64(), None);
    assert_eq!(v["a"][3].as_f64(), Some(-0.0));
    assert_eq!(v["a"][4].as_u64(), None);
    assert_eq!(v["a"][4].as_f64(), Some(18446744073709551616.0));
    assert_eq!(v["b"], 2.5);
    assert!(v.to_string_pretty().contains("\n    0.10,\n"));
    // Every prefix: the same error as the plain parse.
    for n in 0..doc.len() {
        let Err(e) = Value::from_slice_exact(&doc[..n]) else {
            assert_eq!(doc[n..].trim_ascii(), b"", "{n}");
            continue;
        };
        let a = Value::from_slice_exact_in(&Arena::new(), &doc[..n]).unwrap_err();
        assert_eq!((a.to_string(), a.offset()), (e.to_string(), e.offset()));
        let p = Value::from_slice(&doc[..n]).unwrap_err();
        if p.to_string().starts_with("number out of range") {
            continue; // exact numbers have no range
        }
        assert_eq!(
            (e.to_string(), e.offset()),
            (p.to_string(), p.offset()),
            "{n}"
        );
    }
}

#[test]
fn equality_and_conversions() {
    let exact = |s: &str| Number::from_exact_text(s).unwrap();
    // Same text, or the same rendering as a plain float.
    assert!(exact("1.5") == Number::from_f64(1.5).unwrap());
    assert!(exact("1.50") != Number::from_f64(1.5).unwrap());
    assert!(exact("1.50") == exact("1.50"));
    assert!(exact("1.50") != exact("1.5"));
    assert!(exact("-3") == Number::from(-3));
    // A value keeps its text through clone and into_owned.
    let text = String::from("[0.1000]");
    let v = Value::from_str_exact(&text).unwrap().clone().into_owned();
    drop(text);
    assert_eq!(v.to_string(), "[0.1000]");
    // Through serde (serde_json without `arbitrary_precision` in this
    // build): the f64 value, or null beyond its range.
    let v = Value::from_str_exact("[0.1000, 1e999]").unwrap();
    assert_eq!(ito::json::to_string(&v).unwrap(), "[0.1,null]");
    assert_eq!(serde_json::to_string(&v).unwrap(), "[0.1,null]");
    assert_eq!(serde_json::Value::from(&v), serde_json::json!([0.1, null]));
    // A long text is kept too (on the heap).
    let long = format!("0.{}", "1".repeat(100));
    let v = Value::from_str_exact(&long).unwrap();
    assert_eq!(v.to_string(), long);
}
