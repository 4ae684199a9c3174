//! Small, Miri-sized runs of every unsafe path in `ito::json::de`: the
//! whitespace skipper at every length around a vector, borrowed and
//! escaped strings (UTF-8 checked and not), field names, numbers of every
//! shape, `RawJson` and serde_json's `RawValue`, the stream with its
//! offsets, and every prefix of a small document as an error. Each result
//! is compared with serde_json's.
//!
//! `cargo +nightly miri test -p ito --features serde --test json_de_miri`
#![cfg(feature = "serde")]

use serde::Deserialize;
use serde_json::Value;

const DOC: &str = concat!(
    "{\"id\": \"ab12\",\t\"kind\": 1,\r\n \"n\": [-0, 1.5e3, 0.000123, -9223372036854775808,",
    " 18446744073709551615, 3.141592653589793238, 1E-7],",
    " \"text\": \"caf\\u00e9 \\ud83d\\ude00 \\\"q\\\" \\/ \\n é 😀\",",
    " \"tags\": [[\"p\", \"cd\"], []], \"ok\": true, \"no\": null}"
);

#[derive(Deserialize, Debug, PartialEq)]
struct Doc<'a> {
    id: &'a str,
    kind: u16,
    n: Vec<f64>,
    text: String,
    tags: Vec<Vec<&'a str>>,
    ok: bool,
    no: Option<u8>,
}

#[test]
fn document_typed_and_as_value() {
    let ours: Doc = ito::json::from_str(DOC).unwrap();
    let theirs: Doc = serde_json::from_str(DOC).unwrap();
    assert_eq!(ours, theirs);
    let ours: Value = ito::json::from_slice(DOC.as_bytes()).unwrap();
    let theirs: Value = serde_json::from_str(DOC).unwrap();
    assert_eq!(ours, theirs);
}

#[test]
fn every_prefix_is_serde_jsons_verdict() {
    for end in (0..DOC.len()).filter(|&e| DOC.is_char_boundary(e)) {
        // An exact-size copy: reading past it is an error under Miri.
        let prefix: Box<[u8]> = DOC.as_bytes()[..end].into();
        let ours = ito::json::from_slice::<Value>(&prefix).map_err(|e| e.to_string());
        let theirs = serde_json::from_slice::<Value>(&prefix).map_err(|e| e.to_string());
        assert_eq!(ours, theirs, "{end}");
    }
}

#[test]
fn whitespace_runs_around_a_vector() {
    for run in 0..40 {
        for byte in [b' ', b'\n', b'\r', b'\t'] {
            let mut text = vec![b'['];
            text.extend(std::iter::repeat_n(byte, run));
            text.push(b'1');
            text.extend(std::iter::repeat_n(b' ', run));
            text.push(b']');
            let text: Box<[u8]> = text.into();
            assert_eq!(ito::json::from_slice::<Vec<u8>>(&text).unwrap(), [1]);
            // Whitespace to the very end of the input.
            let tail: Box<[u8]> = text[..text.len() - 1].into();
            let ours = ito::json::from_slice::<Vec<u8>>(&tail).map_err(|e| e.to_string());
            let theirs = serde_json::from_slice::<Vec<u8>>(&tail).map_err(|e| e.to_string());
            assert_eq!(ours, theirs);
        }
    }
}

#[test]
fn strings_of_every_length_and_kind() {
    for len in 0..40 {
        for fill in ["a", "é", "\\n", "\\u00e9", "😀"] {
            let body = fill.repeat(len);
            let text: Box<[u8]> = format!("\"{body}\"").into_bytes().into();
            let ours = ito::json::from_slice::<String>(&text).map_err(|e| e.to_string());
            let theirs = serde_json::from_slice::<String>(&text).map_err(|e| e.to_string());
            assert_eq!(ours, theirs, "{len} {fill}");
        }
    }
    // Invalid UTF-8 after a clean run, and a lone surrogate escape.
    for bad in [
        &b"\"abcdefghijklmnopqrstuvwxyz\xff\""[..],
        b"\"\\ud800\"",
        b"\"a\x01\"",
    ] {
        let bad: Box<[u8]> = bad.into();
        let ours = ito::json::from_slice::<String>(&bad).map_err(|e| e.to_string());
        let theirs = serde_json::from_slice::<String>(&bad).map_err(|e| e.to_string());
        assert_eq!(ours, theirs);
    }
}

#[test]
fn numbers_of_every_shape() {
    for text in [
        "0",
        "-0",
        "7",
        "-7",
        "1.0",
        "0.1",
        "1e5",
        "1E+5",
        "1e-5",
        "123456789.123456789",
        "12345678901234567890",
        "-12345678901234567890",
        "1e400",
        "4.9e-324",
        "2.5e-324",
        "0.0000000000000000000000000001",
        "179769313486231570000000000000000000000e270",
    ] {
        let bytes: Box<[u8]> = text.as_bytes().into();
        let ours = ito::json::from_slice::<Value>(&bytes).map_err(|e| e.to_string());
        let theirs = serde_json::from_slice::<Value>(&bytes).map_err(|e| e.to_string());
        assert_eq!(ours, theirs, "{text}");
    }
}

#[test]
fn raw_values_and_the_stream() {
    #[derive(Deserialize)]
    struct Wrap<'a> {
        #[serde(borrow)]
        raw: &'a ito::json::RawJson,
        boxed: Box<serde_json::value::RawValue>,
    }
    let text = br#"{"raw": [1, {"a": "b"}], "boxed": {"x": null}}"#;
    let w: Wrap = ito::json::from_slice(text).unwrap();
    assert_eq!(w.raw.as_str(), r#"[1, {"a": "b"}]"#);
    assert_eq!(w.boxed.get(), r#"{"x": null}"#);

    let lines = b"{\"a\":1}\n[2]\n\"three\"\n";
    let mut stream = ito::json::Deserializer::from_slice(lines).into_iter::<Value>();
    let mut got = Vec::new();
    while let Some(v) = stream.next() {
        got.push((stream.value_offset(), v.unwrap()));
    }
    assert_eq!(got.len(), 3);
    assert_eq!(got[1].0, 8);
    assert_eq!(got[2].1, "three");
}
