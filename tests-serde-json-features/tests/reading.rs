//! ito's deserializer with serde_json's `raw_value`, `arbitrary_precision`
//! and `float_roundtrip` features on: `Box<RawValue>`, `&RawValue`,
//! `Value` and `Number` read through `ito::json::from_slice` /
//! `from_str` equal what serde_json reads from the same text.

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Number, Value};

const TWITTER: &str = include_str!("../../data/corpus/twitter.json");
const CITM: &str = include_str!("../../data/corpus/citm_catalog.json");
const CANADA: &str = include_str!("../../data/corpus/canada.json");

/// The corpora, the JSONTestSuite `y_` files and every Nostr event line.
fn documents() -> Vec<(String, String)> {
    let mut docs: Vec<(String, String)> =
        [("twitter", TWITTER), ("citm", CITM), ("canada", CANADA)]
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect();
    let mut entries: Vec<_> = std::fs::read_dir("../data/jsontestsuite")
        .unwrap()
        .flatten()
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        if let (true, Ok(text)) = (name.starts_with("y_"), std::fs::read_to_string(e.path())) {
            docs.push((name, text));
        }
    }
    let events = std::fs::read_to_string("../data/nostr/events.jsonl").unwrap();
    for (i, line) in events
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        docs.push((format!("events.jsonl:{}", i + 1), line.to_string()));
    }
    docs
}

#[test]
fn boxed_and_borrowed_raw_values() {
    #[derive(Deserialize)]
    struct Boxed {
        a: i8,
        b: Box<RawValue>,
        c: i8,
    }
    #[derive(Deserialize)]
    struct Borrowed<'a> {
        a: i8,
        #[serde(borrow)]
        b: &'a RawValue,
        c: i8,
    }
    let text = r#"{"a": 1, "b": {"foo": 2}, "c": 3}"#;
    let boxed: Boxed = ito::json::from_str(text).unwrap();
    assert_eq!((boxed.a, boxed.b.get(), boxed.c), (1, r#"{"foo": 2}"#, 3));
    let boxed: Boxed = ito::json::from_slice(text.as_bytes()).unwrap();
    assert_eq!(boxed.b.get(), r#"{"foo": 2}"#);
    let borrowed: Borrowed = ito::json::from_str(text).unwrap();
    assert_eq!(
        (borrowed.a, borrowed.b.get(), borrowed.c),
        (1, r#"{"foo": 2}"#, 3)
    );

    let list = r#"["a", 42, {"foo": "bar"}, null]"#;
    let want = [r#""a""#, "42", r#"{"foo": "bar"}"#, "null"];
    let boxed: Vec<Box<RawValue>> = ito::json::from_str(list).unwrap();
    assert_eq!(boxed.iter().map(|r| r.get()).collect::<Vec<_>>(), want);
    let borrowed: Vec<&RawValue> = ito::json::from_str(list).unwrap();
    assert_eq!(borrowed.iter().map(|r| r.get()).collect::<Vec<_>>(), want);
}

#[test]
fn raw_values_of_documents_equal_serde_jsons() {
    for (name, text) in documents() {
        let ours = ito::json::from_str::<Box<RawValue>>(&text).unwrap();
        let theirs = serde_json::from_str::<Box<RawValue>>(&text).unwrap();
        assert_eq!(ours.get(), theirs.get(), "{name}");
        let ours = ito::json::from_str::<&RawValue>(&text).unwrap();
        assert_eq!(ours.get(), theirs.get(), "{name}");
    }
}

#[test]
fn raw_value_errors_equal_serde_jsons() {
    for text in [&b"\"\xCE\xF8\""[..], b"[1,]", b"{\"a\" 1}", b"[", b""] {
        let ours = ito::json::from_slice::<Box<RawValue>>(text).unwrap_err();
        let theirs = serde_json::from_slice::<Box<RawValue>>(text).unwrap_err();
        assert_eq!(
            ours.to_string(),
            theirs.to_string(),
            "{:?}",
            String::from_utf8_lossy(text)
        );
    }
}

#[test]
fn raw_values_keep_lone_surrogate_escapes_like_serde_json() {
    // A raw value is not decoded: serde_json accepts these, so must ito.
    for text in [r#""\ud800""#, r#"["\udc00x"]"#, r#""\ud83c\ud83c""#] {
        let ours = ito::json::from_str::<Box<RawValue>>(text).unwrap();
        let theirs = serde_json::from_str::<Box<RawValue>>(text).unwrap();
        assert_eq!(ours.get(), theirs.get());
    }
}

#[test]
fn values_with_integer_numbers_equal_serde_jsons() {
    // Integers read to the same text either way; the documents whose
    // numbers are all integers (or absent) agree today.
    let mut n = 0;
    for (name, text) in documents() {
        let theirs = serde_json::from_slice::<Value>(text.as_bytes()).unwrap();
        if has_non_integer(&theirs) {
            continue;
        }
        n += 1;
        let ours = ito::json::from_slice::<Value>(text.as_bytes()).unwrap();
        assert!(ours == theirs, "{name}");
    }
    assert!(n > 50, "only {n} documents");
}

fn has_non_integer(v: &Value) -> bool {
    match v {
        Value::Number(n) => {
            n.as_str() == "-0" || !n.as_str().bytes().all(|b| b == b'-' || b.is_ascii_digit())
        }
        Value::Array(a) => a.iter().any(has_non_integer),
        Value::Object(o) => o.values().any(has_non_integer),
        _ => false,
    }
}

/// A `Number` (alone or in a `Value`) reads with serde_json's exact
/// spelling (`-0` stays `-0`, canada's floats keep every digit).
#[test]
fn values_of_documents_equal_serde_jsons() {
    // Under arbitrary_precision a Number is its text: equal Values mean
    // every number reads with serde_json's exact spelling.
    for (name, text) in documents() {
        let ours = ito::json::from_slice::<Value>(text.as_bytes()).unwrap();
        let theirs = serde_json::from_slice::<Value>(text.as_bytes()).unwrap();
        assert!(ours == theirs, "{name}");
    }
}

/// Every spelling, range and sign, alone and inside an array.
#[test]
fn numbers_equal_serde_jsons() {
    for s in [
        "0",
        "-0",
        "-0.0",
        "1E2",
        "1e+2",
        "1E-2",
        "1.0e400",
        "-1e-400",
        "0.1e1",
        "1.50",
        "123456789012345678901234567890",
        "-123456789012345678901234567890.5e-7",
        "1.7976931348623157e+308",
        "4.9e-324",
        "18446744073709551616",
        "-9223372036854775809",
    ] {
        let theirs: Number = serde_json::from_str(s).unwrap();
        let ours: Number = ito::json::from_str(s).unwrap();
        assert_eq!(ours.as_str(), theirs.as_str(), "{s}");
        let ours: Value = ito::json::from_str(&format!("[{s}]")).unwrap();
        assert_eq!(
            ours[0].as_number().unwrap().as_str(),
            theirs.as_str(),
            "{s}"
        );
    }
}

/// Errors keep serde_json's words and places under `arbitrary_precision`
/// too: every `n_` file, every prefix of number-heavy text, numbers out of
/// `f64`'s range (valid here), and a number where a string is expected.
#[test]
fn errors_equal_serde_jsons_under_arbitrary_precision() {
    let mut texts: Vec<String> = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir("../data/jsontestsuite")
        .unwrap()
        .flatten()
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with("n_") {
            if let Ok(text) = std::fs::read_to_string(e.path()) {
                texts.push(text);
            }
        }
    }
    let numbers =
        r#"[-0, 1E400, -1e-400, 0.5e+7, 12345678901234567890123, 1.e5, 01, -, 2e, 3e+, 4.]"#;
    for end in 0..=numbers.len() {
        texts.push(numbers[..end].to_string());
    }
    for text in &texts {
        let ours = ito::json::from_str::<Value>(text).map_err(|e| e.to_string());
        let theirs = serde_json::from_str::<Value>(text).map_err(|e| e.to_string());
        assert_eq!(ours, theirs, "{text:?}");
    }
    for text in ["1.5", "-0", "1e400", "7", "-7"] {
        let ours = ito::json::from_str::<String>(text).unwrap_err().to_string();
        let theirs = serde_json::from_str::<String>(text)
            .unwrap_err()
            .to_string();
        assert_eq!(ours, theirs, "{text}");
    }
}

/// `ito::json::Value` with exact precision, where serde_json's `Number` is
/// text too: the document equals serde_json's, numbers written as read,
/// and both serializers keep the text.
#[test]
fn exact_values_equal_serde_jsons() {
    for (name, doc) in documents() {
        let Ok(theirs) = serde_json::from_str::<Value>(&doc) else {
            continue;
        };
        let ours = ito::json::Value::from_str_exact(&doc).unwrap();
        assert_eq!(Value::from(&ours), theirs, "{name}");
        // serde_json's value into ito's keeps serde_json's number text.
        assert_eq!(
            ito::json::Value::from(theirs.clone()).to_string(),
            serde_json::to_string(&theirs).unwrap(),
            "{name}"
        );
    }
    let ours = ito::json::Value::from_str_exact("[1.50, 1E400, -0, 7]").unwrap();
    assert_eq!(ours.to_string(), "[1.50,1E400,-0,7]");
    assert_eq!(serde_json::to_string(&ours).unwrap(), "[1.50,1E400,-0,7]");
    assert_eq!(ito::json::to_string(&ours).unwrap(), "[1.50,1E400,-0,7]");
    assert_eq!(Value::from(&ours)[1].as_number().unwrap().as_str(), "1e+400");
}
