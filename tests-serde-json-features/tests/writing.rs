//! ito's serializer with serde_json's `raw_value`, `arbitrary_precision`
//! and `float_roundtrip` features on: serde_json's own writing cases, each
//! value written directly and through `serde_json::to_value` (whose
//! numbers are then serde_json's private number marker), and differential
//! checks on the corpora (numbers kept as written, `RawValue` verbatim).

use std::collections::BTreeMap;
use std::fmt::Debug;

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::{json, Number, Value};

/// Every ito entry point's compact output, which must agree.
fn ito_compact<T: ?Sized + Serialize>(value: &T) -> Result<String, String> {
    let s = ito::json::to_string(value).map_err(|e| e.to_string())?;
    assert_eq!(ito::json::to_vec(value).unwrap(), s.as_bytes());
    let mut w = Vec::new();
    ito::json::to_writer(&mut w, value).unwrap();
    assert_eq!(w, s.as_bytes());
    let mut owned = ito::json::Serializer::from_vec(Vec::new());
    value.serialize(&mut owned).unwrap();
    assert_eq!(owned.into_inner(), s.as_bytes());
    Ok(s)
}

/// Every ito entry point's pretty output, which must agree.
fn ito_pretty<T: ?Sized + Serialize>(value: &T) -> Result<String, String> {
    let s = ito::json::to_string_pretty(value).map_err(|e| e.to_string())?;
    let mut w = Vec::new();
    ito::json::to_writer_pretty(&mut w, value).unwrap();
    assert_eq!(w, s.as_bytes());
    Ok(s)
}

/// Each value writes as `want` (compact), directly and as a `Value`, and
/// serde_json agrees (so the case is a fair port under these features).
#[track_caller]
fn writes<T: Serialize + Debug>(cases: &[(T, &str)]) {
    for (value, want) in cases {
        let as_value = serde_json::to_value(value).unwrap();
        for (what, got) in [
            ("direct", ito_compact(value)),
            ("via to_value", ito_compact(&as_value)),
        ] {
            assert_eq!(got.as_deref(), Ok(*want), "{what}: {value:?}");
        }
        assert_eq!(serde_json::to_string(value).unwrap(), *want);
        assert_eq!(serde_json::to_string(&as_value).unwrap(), *want);
    }
}

/// `writes` for the pretty layout.
#[track_caller]
fn writes_pretty<T: Serialize + Debug>(cases: &[(T, &str)]) {
    for (value, want) in cases {
        let as_value = serde_json::to_value(value).unwrap();
        for (what, got) in [
            ("direct", ito_pretty(value)),
            ("via to_value", ito_pretty(&as_value)),
        ] {
            assert_eq!(got.as_deref(), Ok(*want), "{what}: {value:?}");
        }
        assert_eq!(serde_json::to_string_pretty(value).unwrap(), *want);
    }
}

/// Both layouts, for cases whose pretty form is the compact one.
#[track_caller]
fn writes_both<T: Serialize + Debug>(cases: &[(T, &str)]) {
    writes(cases);
    writes_pretty(cases);
}

fn map<K: Ord, V>(entries: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    entries.into_iter().collect()
}

#[derive(Debug, Serialize)]
enum Animal {
    Dog,
    Frog(String, Vec<isize>),
    Cat { age: usize, name: String },
    AntHive(Vec<String>),
}

#[test]
fn the_features_are_on() {
    // Without them these would not compile or not hold.
    let n: Number = serde_json::from_str("1.50").unwrap();
    assert_eq!(n.as_str(), "1.50");
    let raw = RawValue::from_string("[1 ]".into()).unwrap();
    assert_eq!(raw.get(), "[1 ]");
}

#[test]
fn scalars() {
    writes_both(&[((), "null")]);
    writes_both(&[(3u64, "3"), (u64::MAX, "18446744073709551615")]);
    writes_both(&[
        (3i64, "3"),
        (-2, "-2"),
        (-1234, "-1234"),
        (i64::MIN, "-9223372036854775808"),
    ]);
    writes_both(&[
        (3.0, "3.0"),
        (3.1, "3.1"),
        (-1.5, "-1.5"),
        (0.5, "0.5"),
        (f64::MIN, "-1.7976931348623157e+308"),
        (f64::MAX, "1.7976931348623157e+308"),
        (f64::EPSILON, "2.220446049250313e-16"),
    ]);
    writes_both(&[("", "\"\""), ("foo", "\"foo\"")]);
    writes_both(&[(true, "true"), (false, "false")]);
    writes_both(&[
        ('n', r#""n""#),
        ('"', r#""\"""#),
        ('\\', r#""\\""#),
        ('/', r#""/""#),
        ('\x08', r#""\b""#),
        ('\x0C', r#""\f""#),
        ('\n', r#""\n""#),
        ('\r', r#""\r""#),
        ('\t', r#""\t""#),
        ('\x0B', r#""\u000b""#),
        ('\u{3A3}', "\"\u{3A3}\""),
    ]);
}

#[test]
fn non_finite_floats_are_null() {
    for v in [f64::NAN, -f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        assert_eq!(ito_compact(&v).unwrap(), "null");
        assert_eq!(
            ito_compact(&serde_json::to_value(v).unwrap()).unwrap(),
            "null"
        );
    }
    for v in [f32::NAN, -f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        assert_eq!(ito_compact(&v).unwrap(), "null");
        assert_eq!(
            ito_compact(&serde_json::to_value(v).unwrap()).unwrap(),
            "null"
        );
    }
}

#[test]
fn lists() {
    let empty: Vec<bool> = vec![];
    writes_both(&[(empty, "[]")]);
    writes(&[(vec![true], "[true]"), (vec![true, false], "[true,false]")]);
    writes_pretty(&[
        (vec![true], "[\n  true\n]"),
        (vec![true, false], "[\n  true,\n  false\n]"),
    ]);
    let nested: [(Vec<Vec<i32>>, &str, &str); 4] = [
        (
            vec![vec![], vec![], vec![]],
            "[[],[],[]]",
            "[\n  [],\n  [],\n  []\n]",
        ),
        (
            vec![vec![1, 2, 3], vec![], vec![]],
            "[[1,2,3],[],[]]",
            "[\n  [\n    1,\n    2,\n    3\n  ],\n  [],\n  []\n]",
        ),
        (
            vec![vec![], vec![1, 2, 3], vec![]],
            "[[],[1,2,3],[]]",
            "[\n  [],\n  [\n    1,\n    2,\n    3\n  ],\n  []\n]",
        ),
        (
            vec![vec![], vec![], vec![1, 2, 3]],
            "[[],[],[1,2,3]]",
            "[\n  [],\n  [],\n  [\n    1,\n    2,\n    3\n  ]\n]",
        ),
    ];
    for (v, compact, pretty) in nested {
        writes(&[(v.clone(), compact)]);
        writes_pretty(&[(v, pretty)]);
    }
    let mixed = json!([false, null, ["foo\nbar", 3.5]]);
    writes(&[(mixed.clone(), r#"[false,null,["foo\nbar",3.5]]"#)]);
    writes_pretty(&[(
        mixed,
        "[\n  false,\n  null,\n  [\n    \"foo\\nbar\",\n    3.5\n  ]\n]",
    )]);
}

#[test]
fn objects() {
    let empty: BTreeMap<String, bool> = map([]);
    writes_both(&[(empty, "{}")]);
    writes(&[
        (map([("a", true)]), r#"{"a":true}"#),
        (map([("a", true), ("b", false)]), r#"{"a":true,"b":false}"#),
    ]);
    writes_pretty(&[
        (map([("a", true)]), "{\n  \"a\": true\n}"),
        (
            map([("a", true), ("b", false)]),
            "{\n  \"a\": true,\n  \"b\": false\n}",
        ),
    ]);

    type Deep = BTreeMap<&'static str, BTreeMap<&'static str, BTreeMap<&'static str, Vec<i32>>>>;
    let leaf = || map([("a", vec![1, 2, 3])]);
    let inner = || map([("a", leaf()), ("b", map([])), ("c", map([]))]);
    let empty = || map([]);
    let shallow: Deep = map([("a", empty()), ("b", empty()), ("c", empty())]);
    writes(&[(shallow.clone(), r#"{"a":{},"b":{},"c":{}}"#)]);
    writes_pretty(&[(shallow, "{\n  \"a\": {},\n  \"b\": {},\n  \"c\": {}\n}")]);
    let inner_pretty = |pad: &str| {
        format!(
            "{{\n{pad}  \"a\": {{\n{pad}    \"a\": [\n{pad}      1,\n{pad}      2,\n{pad}      3\n{pad}    ]\n{pad}  }},\n{pad}  \"b\": {{}},\n{pad}  \"c\": {{}}\n{pad}}}"
        )
    };
    for at in 0..3 {
        let keys = ["a", "b", "c"];
        let deep: Deep = keys
            .iter()
            .enumerate()
            .map(|(i, k)| (*k, if i == at { inner() } else { empty() }))
            .collect();
        let parts: Vec<String> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let v = if i == at {
                    r#"{"a":{"a":[1,2,3]},"b":{},"c":{}}"#
                } else {
                    "{}"
                };
                format!(r#""{k}":{v}"#)
            })
            .collect();
        let compact = format!("{{{}}}", parts.join(","));
        let parts: Vec<String> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let v = if i == at {
                    inner_pretty("  ")
                } else {
                    "{}".into()
                };
                format!("  \"{k}\": {v}")
            })
            .collect();
        let pretty = format!("{{\n{}\n}}", parts.join(",\n"));
        writes(&[(deep.clone(), compact.as_str())]);
        writes_pretty(&[(deep, pretty.as_str())]);
    }

    writes(&[(map([('c', ())]), r#"{"c":null}"#)]);

    let escapes = json!({"b": [{"c": "\x0c\x1f\r"}, {"d": ""}]});
    writes(&[(escapes.clone(), r#"{"b":[{"c":"\f\u001f\r"},{"d":""}]}"#)]);
    writes_pretty(&[(
        escapes,
        "{\n  \"b\": [\n    {\n      \"c\": \"\\f\\u001f\\r\"\n    },\n    {\n      \"d\": \"\"\n    }\n  ]\n}",
    )]);
}

#[test]
fn tuples_enums_options_newtypes() {
    writes(&[((5,), "[5]")]);
    writes_pretty(&[((5,), "[\n  5\n]")]);
    writes(&[((5, (6, "abc")), r#"[5,[6,"abc"]]"#)]);
    writes_pretty(&[((5, (6, "abc")), "[\n  5,\n  [\n    6,\n    \"abc\"\n  ]\n]")]);

    let henry = |ages: Vec<isize>| Animal::Frog("Henry".into(), ages);
    writes(&[
        (Animal::Dog, r#""Dog""#),
        (henry(vec![]), r#"{"Frog":["Henry",[]]}"#),
        (henry(vec![349]), r#"{"Frog":["Henry",[349]]}"#),
        (henry(vec![349, 102]), r#"{"Frog":["Henry",[349,102]]}"#),
        (
            Animal::Cat {
                age: 5,
                name: "Kate".into(),
            },
            r#"{"Cat":{"age":5,"name":"Kate"}}"#,
        ),
        (
            Animal::AntHive(vec!["Bob".into(), "Stuart".into()]),
            r#"{"AntHive":["Bob","Stuart"]}"#,
        ),
    ]);
    writes_pretty(&[
        (Animal::Dog, r#""Dog""#),
        (
            henry(vec![]),
            "{\n  \"Frog\": [\n    \"Henry\",\n    []\n  ]\n}",
        ),
        (
            henry(vec![349]),
            "{\n  \"Frog\": [\n    \"Henry\",\n    [\n      349\n    ]\n  ]\n}",
        ),
        (
            henry(vec![349, 102]),
            "{\n  \"Frog\": [\n    \"Henry\",\n    [\n      349,\n      102\n    ]\n  ]\n}",
        ),
    ]);

    writes_both(&[(None, "null"), (Some("jodhpurs"), r#""jodhpurs""#)]);
    writes(&[(Some(vec!["foo", "bar"]), r#"["foo","bar"]"#)]);
    writes_pretty(&[(Some(vec!["foo", "bar"]), "[\n  \"foo\",\n  \"bar\"\n]")]);

    #[derive(Debug, Serialize)]
    struct Newtype(BTreeMap<String, i32>);
    let inner = Newtype(map([("inner".to_string(), 123)]));
    let outer = map([("outer", serde_json::to_value(&inner).unwrap())]);
    writes(&[(inner, r#"{"inner":123}"#)]);
    writes(&[(outer, r#"{"outer":{"inner":123}}"#)]);
}

/// A sequence and a map that announce no length.
#[derive(Debug)]
struct Unsized<T>(Vec<T>);

impl<T: Serialize> Serialize for Unsized<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        for e in &self.0 {
            seq.serialize_element(e)?;
        }
        seq.end()
    }
}

#[derive(Debug)]
struct UnsizedMap<V>(Vec<(&'static str, V)>);

impl<V: Serialize> Serialize for UnsizedMap<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

#[test]
fn containers_without_a_length() {
    let seq = Unsized(vec![Unsized::<u32>(vec![]), Unsized(vec![])]);
    writes(&[(seq, "[[],[]]")]);
    let seq = Unsized(vec![Unsized::<u32>(vec![]), Unsized(vec![])]);
    assert_eq!(ito_pretty(&seq).unwrap(), "[\n  [],\n  []\n]");
    let m = UnsizedMap(vec![
        ("a", UnsizedMap::<u32>(vec![])),
        ("b", UnsizedMap(vec![])),
    ]);
    writes(&[(m, r#"{"a":{},"b":{}}"#)]);
    let m = UnsizedMap(vec![
        ("a", UnsizedMap::<u32>(vec![])),
        ("b", UnsizedMap(vec![])),
    ]);
    assert_eq!(ito_pretty(&m).unwrap(), "{\n  \"a\": {},\n  \"b\": {}\n}");
}

/// `serialize_bytes` (serde_json: an array of numbers).
#[derive(Debug)]
struct Bytes<'a>(&'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

#[test]
fn bytes_and_refused_keys() {
    assert_eq!(ito_compact(&Bytes(&[])).unwrap(), "[]");
    assert_eq!(ito_compact(&Bytes(&[1, 2, 3])).unwrap(), "[1,2,3]");

    let adt_keys = map([(Some("a"), 2), (Some("b"), 4), (None, 6)]);
    assert_eq!(ito_compact(&adt_keys).unwrap_err(), "key must be a string");
}

/// A float map key of any bits.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct FloatKey(u64, bool);

impl Serialize for FloatKey {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.1 {
            s.serialize_f32(f32::from_bits(self.0 as u32))
        } else {
            s.serialize_f64(f64::from_bits(self.0))
        }
    }
}

#[test]
fn keys_that_become_strings() {
    writes(&[(map([(1, 2), (-1, 6)]), r#"{"-1":6,"1":2}"#)]);
    let big = map([(100000000000000000000000000000000000000u128, ())]);
    assert_eq!(
        ito_compact(&big).unwrap(),
        r#"{"100000000000000000000000000000000000000":null}"#
    );
    let float = map([(FloatKey(1.23f32.to_bits().into(), true), "x")]);
    writes(&[(float, r#"{"1.23":"x"}"#)]);
    writes(&[(map([(false, 0), (true, 1)]), r#"{"false":0,"true":1}"#)]);

    #[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
    enum Enum {
        One,
        Two,
    }
    writes(&[(
        map([(Enum::One, 1), (Enum::Two, 2)]),
        r#"{"One":1,"Two":2}"#,
    )]);
    #[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
    struct Wrapper(String);
    writes(&[(
        map([(Wrapper("zero".into()), 0), (Wrapper("one".into()), 1)]),
        r#"{"one":1,"zero":0}"#,
    )]);
}

#[test]
fn non_finite_float_keys_are_refused() {
    for bits in [f32::INFINITY, f32::NEG_INFINITY, f32::NAN].map(f32::to_bits) {
        let m = map([(FloatKey(bits.into(), true), "x")]);
        assert!(serde_json::to_string(&m).is_err());
        assert_eq!(
            ito_compact(&m).unwrap_err(),
            serde_json::to_string(&m).unwrap_err().to_string()
        );
    }
    for bits in [f64::INFINITY, f64::NEG_INFINITY, f64::NAN].map(f64::to_bits) {
        let m = map([(FloatKey(bits, false), "x")]);
        assert_eq!(
            ito_compact(&m).unwrap_err(),
            serde_json::to_string(&m).unwrap_err().to_string()
        );
    }
}

#[test]
fn integers_of_128_bits() {
    for v in [i128::MIN, -1, 0, 1, i128::MAX] {
        assert_eq!(ito_compact(&v).unwrap(), v.to_string());
    }
    for v in [0, 1, u128::MAX] {
        assert_eq!(ito_compact(&v).unwrap(), v.to_string());
    }
    // Through `to_value`: under arbitrary_precision every one of these is
    // a Number (its text kept), beyond 64 bits included.
    for v in [i128::MIN, i64::MIN.into(), u64::MAX.into(), i128::MAX] {
        let value = serde_json::to_value(v).unwrap();
        assert_eq!(ito_compact(&value).unwrap(), v.to_string());
    }
    let value = serde_json::to_value(u128::MAX).unwrap();
    assert_eq!(ito_compact(&value).unwrap(), u128::MAX.to_string());
}

#[test]
fn raw_values_are_verbatim() {
    #[derive(Serialize, serde::Deserialize)]
    struct Borrowed<'a> {
        a: i8,
        #[serde(borrow)]
        b: &'a RawValue,
        c: i8,
    }
    #[derive(Serialize, serde::Deserialize)]
    struct Boxed {
        a: i8,
        b: Box<RawValue>,
        c: i8,
    }
    let text = r#"{"a": 1, "b": {"foo": 2}, "c": 3}"#;
    let want = r#"{"a":1,"b":{"foo": 2},"c":3}"#;
    let borrowed: Borrowed = serde_json::from_str(text).unwrap();
    assert_eq!(ito_compact(&borrowed).unwrap(), want);
    let boxed: Boxed = serde_json::from_str(text).unwrap();
    assert_eq!(ito_compact(&boxed).unwrap(), want);
    assert_eq!(serde_json::to_string(&boxed).unwrap(), want);
    // Pretty: the raw text is not re-indented (serde_json's bytes).
    assert_eq!(
        ito_pretty(&boxed).unwrap(),
        serde_json::to_string_pretty(&boxed).unwrap()
    );
    assert_eq!(
        ito_pretty(&boxed).unwrap(),
        "{\n  \"a\": 1,\n  \"b\": {\"foo\": 2},\n  \"c\": 3\n}"
    );

    let list = r#"["a", 42, {"foo": "bar"}, null]"#;
    let want = r#"["a",42,{"foo": "bar"},null]"#;
    let borrowed: Vec<&RawValue> = serde_json::from_str(list).unwrap();
    assert_eq!(ito_compact(&borrowed).unwrap(), want);
    let boxed: Vec<Box<RawValue>> = serde_json::from_str(list).unwrap();
    assert_eq!(ito_compact(&boxed).unwrap(), want);

    let raw = serde_json::value::to_raw_value("foobar").unwrap();
    assert_eq!(ito_compact(&raw).unwrap(), r#""foobar""#);
    // Whitespace inside a RawValue is its own, as serde_json writes it.
    let spaced = RawValue::from_string(" [1 ,2] ".into()).unwrap();
    assert_eq!(
        ito_compact(&spaced).unwrap(),
        serde_json::to_string(&spaced).unwrap()
    );
}

#[test]
fn a_raw_value_is_not_a_map_key() {
    let raw = RawValue::from_string("1".into()).unwrap();
    let m = map([(raw.get(), 1)]);
    assert!(ito_compact(&m).is_ok());
    // A RawValue key is a struct key: refused by both.
    let mut keyed = std::collections::HashMap::new();
    keyed.insert(KeyRaw(raw), 1);
    assert_eq!(
        ito_compact(&keyed).unwrap_err(),
        serde_json::to_string(&keyed).unwrap_err().to_string()
    );
}

struct KeyRaw(Box<RawValue>);

impl PartialEq for KeyRaw {
    fn eq(&self, o: &Self) -> bool {
        self.0.get() == o.0.get()
    }
}
impl Eq for KeyRaw {}
impl std::hash::Hash for KeyRaw {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.get().hash(h);
    }
}

impl Serialize for KeyRaw {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

#[test]
fn a_malicious_number_is_refused() {
    #[derive(Serialize)]
    #[serde(rename = "$serde_json::private::Number")]
    struct S {
        #[serde(rename = "$serde_json::private::Number")]
        f: &'static str,
    }
    assert_eq!(
        ito_compact(&S { f: "not a number" }).unwrap_err(),
        "invalid number"
    );
    assert_eq!(
        ito_pretty(&S { f: "not a number" }).unwrap_err(),
        "invalid number"
    );
    // The same marker with number text is honoured, as serde_json does.
    assert_eq!(ito_compact(&[S { f: "-0.0e-0" }]).unwrap(), "[-0.0e-0]");
    assert_eq!(
        serde_json::to_string(&[S { f: "-0.0e-0" }]).unwrap(),
        "[-0.0e-0]"
    );
}

#[test]
fn floats_round_trip_through_serde_json() {
    for v in [
        51.24817837550540_4,
        -93.3113703768803_3,
        -36.5739948427534_36,
        52.31400820410624_4,
        97.4536532003468_5,
        2.0030397744267762e-253,
        7.101215824554616e260,
        1.769268377902049e74,
        -1.6727517818542075e58,
        3.9287532173373315e299,
    ] {
        let text = ito_compact(&v).unwrap();
        assert_eq!(serde_json::from_str::<f64>(&text).unwrap(), v);
        let text = ito_compact(&serde_json::to_value(v).unwrap()).unwrap();
        assert_eq!(serde_json::from_str::<f64>(&text).unwrap(), v);
    }
    let v = 7.038531e-26f32;
    assert_eq!(
        serde_json::from_str::<f32>(&ito_compact(&v).unwrap()).unwrap(),
        v
    );
}

// ---- differential: documents as Value (numbers kept as written) and as
// RawValue ----

const TWITTER: &str = include_str!("../../data/corpus/twitter.json");
const CITM: &str = include_str!("../../data/corpus/citm_catalog.json");
const CANADA: &str = include_str!("../../data/corpus/canada.json");

fn documents() -> Vec<(String, String)> {
    let mut docs: Vec<(String, String)> =
        [("twitter", TWITTER), ("citm", CITM), ("canada", CANADA)]
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect();
    for dir in ["../data/jsontestsuite", "../data/nostr"] {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let name = e.file_name().to_string_lossy().into_owned();
            let Ok(text) = std::fs::read_to_string(e.path()) else {
                continue;
            };
            if name.starts_with("y_") || name.ends_with(".json") && !name.starts_with(['n', 'i']) {
                docs.push((name.clone(), text.clone()));
            }
            if name.ends_with(".jsonl") {
                for (i, line) in text
                    .lines()
                    .enumerate()
                    .filter(|(_, l)| !l.trim().is_empty())
                {
                    docs.push((format!("{name}:{}", i + 1), line.to_string()));
                }
            }
        }
    }
    docs
}

#[test]
fn documents_as_values_match_serde_json() {
    let mut n = 0;
    for (name, text) in documents() {
        let Ok(value) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        n += 1;
        assert_eq!(
            ito_compact(&value).unwrap(),
            serde_json::to_string(&value).unwrap(),
            "{name}"
        );
        assert_eq!(
            ito_pretty(&value).unwrap(),
            serde_json::to_string_pretty(&value).unwrap(),
            "{name}"
        );
    }
    assert!(n > 100, "only {n} documents");
}

#[test]
fn documents_as_raw_values_are_verbatim() {
    for (name, text) in documents() {
        let Ok(raw) = serde_json::from_str::<Box<RawValue>>(&text) else {
            continue;
        };
        assert_eq!(
            ito_compact(&raw).unwrap(),
            text.trim_matches([' ', '\t', '\n', '\r']),
            "{name}"
        );
        // Inside a container, compact and pretty.
        let wrapped = map([("doc", &raw)]);
        assert_eq!(
            ito_compact(&wrapped).unwrap(),
            serde_json::to_string(&wrapped).unwrap()
        );
        assert_eq!(
            ito_pretty(&wrapped).unwrap(),
            serde_json::to_string_pretty(&wrapped).unwrap()
        );
    }
}

#[test]
fn number_texts_are_written_verbatim() {
    let spellings = [
        "0",
        "-0",
        "-0.0",
        "1E2",
        "1e+2",
        "1E-2",
        "1.0e400",
        "-1e-400",
        "0.1e1",
        "123456789012345678901234567890",
        "-123456789012345678901234567890.5e-7",
        "1.7976931348623157e+308",
        "4.9e-324",
        "2.2250738585072014E-308",
    ];
    for spelling in spellings {
        // serde_json keeps a number's text, normalising only the
        // exponent's form (`1E2` reads as `1e+2`); ito writes that text.
        let n: Number = serde_json::from_str(spelling).unwrap();
        let s = n.as_str();
        let v: Value = serde_json::from_str(spelling).unwrap();
        assert_eq!(ito_compact(&v).unwrap(), s);
        assert_eq!(serde_json::to_string(&v).unwrap(), s);
        assert_eq!(ito_compact(&[&n]).unwrap(), format!("[{s}]"));
        assert_eq!(
            ito_pretty(&map([("n", &n)])).unwrap(),
            format!("{{\n  \"n\": {s}\n}}")
        );
    }
}
