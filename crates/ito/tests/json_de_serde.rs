//! The deserializer across serde's data model, against serde_json: derive
//! attributes, enums, borrowing, numbers, map keys, raw values, streams,
//! the typed corpora, and documents ending right at a protected page.
#![cfg(feature = "serde")]

#[cfg(unix)]
mod common;
#[path = "../../../bench/src/docs.rs"]
#[allow(dead_code, unreachable_pub)]
mod docs;

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;

use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Same verdict, same value or same error text and position.
#[track_caller]
fn agree<T: DeserializeOwned + PartialEq + Debug>(input: &str) {
    let ours = ito::json::from_str::<T>(input);
    let theirs = serde_json::from_str::<T>(input);
    match (ours, theirs) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{input}"),
        (Err(a), Err(b)) => {
            assert_eq!(a.to_string(), b.to_string(), "{input}");
            assert_eq!(format!("{a:?}"), format!("{b:?}"));
        }
        (a, b) => panic!("{input}: ito {a:?}, serde_json {b:?}"),
    }
    // From bytes too.
    let ours = ito::json::from_slice::<T>(input.as_bytes()).map_err(|e| e.to_string());
    let theirs = serde_json::from_slice::<T>(input.as_bytes()).map_err(|e| e.to_string());
    assert_eq!(ours, theirs, "{input}");
}

#[derive(Deserialize, Debug, PartialEq)]
struct Plain {
    a: u32,
    #[serde(rename = "B")]
    b: String,
    #[serde(default)]
    c: Option<Vec<i8>>,
    #[serde(default = "seven")]
    d: u8,
}

fn seven() -> u8 {
    7
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct Strict {
    x: bool,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Flat {
    id: u64,
    #[serde(flatten)]
    rest: BTreeMap<String, Value>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Outer {
    name: String,
    #[serde(flatten)]
    inner: Plain,
}

#[derive(Deserialize, Debug, PartialEq)]
enum External {
    Unit,
    Newtype(i32),
    Tuple(u8, String),
    Struct { x: f64 },
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(tag = "type")]
enum Internal {
    A { n: u8 },
    B { s: String, f: f32 },
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    One(u8),
    Two { v: Vec<bool> },
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Untagged {
    Int(i64),
    Float(f64),
    Text(String),
    List(Vec<Untagged>),
    Map(BTreeMap<String, Untagged>),
    Nothing(()),
}

#[derive(Deserialize, Debug, PartialEq)]
struct Unit;

#[derive(Deserialize, Debug, PartialEq)]
struct Wrap(u16);

#[derive(Deserialize, Debug, PartialEq)]
struct Pair(i8, char);

#[test]
fn structs_and_attributes() {
    for input in [
        r#"{"a": 1, "B": "x"}"#,
        r#"{"a": 1, "B": "x", "c": [1, -2], "d": 9}"#,
        r#"{"a": 1, "B": "x", "c": null, "extra": {"deep": [1, 2, {"q": null}]}}"#,
        r#"{"a": 1}"#,
        r#"{"a": -1, "B": "x"}"#,
        r#"{"a": 1, "B": 2}"#,
        r#"{"a": 1, "B": "x", "a": 2}"#,
        r#"[1, "x", [3], 4]"#,
        r#"[1]"#,
        r#"{"a": 1, "B": "x",}"#,
        r#"{"a" 1}"#,
        r#"{"a": 1 "B": "x"}"#,
        r#"{1: 2}"#,
        r#""text""#,
        r#"{"a": 1.5, "B": "x"}"#,
        r#"{"a": 4294967296, "B": "x"}"#,
        r#"{"a\u0000": 1, "a": 1, "B": "\ud83d\ude00"}"#,
    ] {
        agree::<Plain>(input);
    }
    for input in [r#"{"x": true}"#, r#"{"x": true, "y": 1}"#, r#"{}"#] {
        agree::<Strict>(input);
    }
    for input in [
        r#"{"id": 5, "k": [1, 2.5, "s"], "m": {"n": null}}"#,
        r#"{"k": 1}"#,
        r#"{"id": "5"}"#,
    ] {
        agree::<Flat>(input);
    }
    for input in [
        r#"{"name": "n", "a": 1, "B": "b"}"#,
        r#"{"name": "n", "a": 1}"#,
    ] {
        agree::<Outer>(input);
    }
    agree::<Unit>("null");
    agree::<Unit>("[]");
    agree::<Wrap>("65535");
    agree::<Wrap>("65536");
    agree::<Pair>(r#"[-128, "é"]"#);
    agree::<Pair>(r#"[-128, "éé"]"#);
    agree::<Pair>(r#"[1, "a", 2]"#);
}

#[test]
fn enums() {
    for input in [
        r#""Unit""#,
        r#"{"Newtype": -5}"#,
        r#"{"Tuple": [1, "s"]}"#,
        r#"{"Struct": {"x": 1e3}}"#,
        r#"{"Struct": [2.5]}"#,
        r#"{"Unit": null}"#,
        r#""Newtype""#,
        r#"{"Nope": 1}"#,
        r#"{"Newtype": 1, "x": 2}"#,
        r#"{"Newtype": 1"#,
        r#"{}"#,
        r#"{1: 1}"#,
        r#"[]"#,
        r#"1"#,
        r#""#,
    ] {
        agree::<External>(input);
    }
    for input in [
        r#"{"type": "A", "n": 3}"#,
        r#"{"n": 3, "type": "A"}"#,
        r#"{"type": "B", "s": "x", "f": 0.1}"#,
        r#"{"type": "C"}"#,
        r#"{"n": 3}"#,
    ] {
        agree::<Internal>(input);
    }
    for input in [
        r#"{"t": "One", "c": 1}"#,
        r#"{"c": {"v": [true]}, "t": "Two"}"#,
        r#"{"t": "One"}"#,
    ] {
        agree::<Adjacent>(input);
    }
    for input in [
        r#"[1, -2, 3.5, "x", [null], {"k": [1e400]}]"#,
        r#"[1, -2, 3.5, "x", [null], {"k": [1e300]}]"#,
        r#"18446744073709551615"#,
        r#"-9223372036854775808"#,
        r#"true"#,
    ] {
        agree::<Untagged>(input);
    }
}

/// Integers of every length from 1 to 25 digits (the reader goes digit by
/// digit for two, then eight at a time; 20 digits may overflow a `u64`),
/// signed and not, followed by each way a number can go on or end, in an
/// array and at the very end of the input.
#[test]
fn integers_of_every_length() {
    for len in 1..=25usize {
        let shapes = [
            "9".repeat(len),
            format!("1{}", "0".repeat(len - 1)),
            (0..len)
                .map(|k| char::from(b'1' + (k * 7 % 9) as u8))
                .collect(),
            format!("18446744073709551615{}", "7".repeat(len.saturating_sub(20)))[..len]
                .to_string(),
        ];
        for digits in &shapes {
            for sign in ["", "-"] {
                for tail in ["", ".5", "e3", "E-2", ".", "x"] {
                    let n = format!("{sign}{digits}{tail}");
                    agree::<Value>(&n);
                    agree::<Value>(&format!("[{n},1]"));
                    agree::<Value>(&format!("[{n}]"));
                    agree::<u64>(&n);
                    agree::<i64>(&n);
                }
            }
        }
    }
}

#[test]
fn numbers() {
    let cases = [
        "0",
        "-0",
        "1",
        "-1",
        "0.0",
        "-0.0",
        "1e5",
        "1E+5",
        "1e-5",
        "1.5e300",
        "1e309",
        "-1e309",
        "1e-400",
        "123456789012345678901234567890",
        "-123456789012345678901234567890",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "0.1",
        "0.30000000000000004",
        "2.2250738585072011e-308",
        "4.9406564584124654e-324",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "1e2147483647",
        "1e2147483648",
        "1e-2147483648",
        "0e2147483648",
        "1e99999999999",
        "0.000000000000000000000000000001e99999999999",
        "-0e-99999999999",
        "9007199254740993",
        "9007199254740993.0",
        "1.00000000000000011102230246251565404236316680908203125",
        "01",
        "1.",
        "1.e1",
        "-",
        "--1",
        "+1",
        ".5",
        "1e",
        "1e+",
        "1ee",
        "0x1",
        "1.5.",
        "NaN",
        "Infinity",
        "-Infinity",
        "1 ",
        " 1",
        "[1,]",
        "1,",
    ];
    for c in cases {
        agree::<Value>(c);
        agree::<f64>(c);
        agree::<f32>(c);
        agree::<i64>(c);
        agree::<u64>(c);
        agree::<u8>(c);
        agree::<i128>(c);
        agree::<u128>(c);
        agree::<IgnoredAnyEq>(c);
    }
    for c in [
        "340282366920938463463374607431768211455",
        "340282366920938463463374607431768211456",
        "-170141183460469231731687303715884105728",
        "-170141183460469231731687303715884105729",
        "170141183460469231731687303715884105727",
        "3.4028235e38",
        "3.4028236e38",
        "3.4028235677973366e38",
        "1.5e-45",
        "7e-46",
    ] {
        agree::<i128>(c);
        agree::<u128>(c);
        agree::<f32>(c);
        agree::<Vec<i128>>(&format!("[{c}]"));
    }
}

/// `IgnoredAny` with equality, for `agree`.
#[derive(Debug, PartialEq)]
struct IgnoredAnyEq;

impl<'de> Deserialize<'de> for IgnoredAnyEq {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        IgnoredAny::deserialize(d).map(|_| IgnoredAnyEq)
    }
}

#[test]
fn map_keys() {
    agree::<BTreeMap<u8, bool>>(r#"{"1": true, "2": false}"#);
    agree::<BTreeMap<i64, u8>>(r#"{"-5": 1}"#);
    agree::<BTreeMap<i64, u8>>(r#"{"x": 1}"#);
    agree::<BTreeMap<i64, u8>>(r#"{"1x": 1}"#);
    agree::<BTreeMap<i64, u8>>(r#"{" 1": 1}"#);
    agree::<BTreeMap<i128, u8>>(r#"{"-170141183460469231731687303715884105728": 1}"#);
    agree::<BTreeMap<u128, u8>>(r#"{"340282366920938463463374607431768211455": 1}"#);
    agree::<HashMap<bool, u8>>(r#"{"true": 1, "false": 2}"#);
    agree::<HashMap<bool, u8>>(r#"{"tru": 1}"#);
    agree::<HashMap<bool, u8>>(r#"{"maybe": 1}"#);
    agree::<BTreeMap<String, u8>>(r#"{"a\nb": 1, "c": 2}"#);
    agree::<HashMap<char, u8>>(r#"{"a": 1}"#);
    agree::<BTreeMap<u8, u8>>(r#"{"256": 1}"#);
    agree::<Vec<(f64, u8)>>(r#"[[1.5, 1]]"#);
    agree::<HashMap<String, External>>(r#"{"k": "Unit"}"#);
}

#[derive(Deserialize, Debug, PartialEq)]
struct Borrowing<'a> {
    s: &'a str,
    #[serde(borrow)]
    c: Cow<'a, str>,
    #[serde(with = "serde_bytes_compat")]
    b: &'a [u8],
}

mod serde_bytes_compat {
    pub(crate) fn deserialize<'de: 'a, 'a, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<&'a [u8], D::Error> {
        <&[u8] as serde::Deserialize>::deserialize(d)
    }
}

#[test]
fn borrowing() {
    let text = r#"{"s": "plain", "c": "cow", "b": "bytes"}"#;
    let v: Borrowing = ito::json::from_str(text).unwrap();
    assert!(matches!(v.c, Cow::Borrowed("cow")));
    assert_eq!((v.s, v.b), ("plain", &b"bytes"[..]));
    let v: Borrowing = ito::json::from_slice(text.as_bytes()).unwrap();
    assert!(matches!(v.c, Cow::Borrowed("cow")));

    let escaped = r#"{"s": "pl\"ain", "c": "cow", "b": "bytes"}"#;
    let ours = ito::json::from_str::<Borrowing>(escaped).unwrap_err();
    let theirs = serde_json::from_str::<Borrowing>(escaped).unwrap_err();
    assert_eq!(ours.to_string(), theirs.to_string());

    let escaped = r#"{"s": "p", "c": "c\now", "b": "by\u00fftes"}"#;
    let ours = ito::json::from_str::<Borrowing>(escaped).map_err(|e| e.to_string());
    let theirs = serde_json::from_str::<Borrowing>(escaped).map_err(|e| e.to_string());
    assert_eq!(ours, theirs);

    // Byte strings keep raw bytes and lone surrogates (as WTF-8), as in
    // serde_json.
    for input in [
        &b"\"a\\ud800b\""[..],
        b"\"\\udc00\\ud800\\n\"",
        b"\"\\ud800\\ud800\\udc00\"",
        b"\"\xff\x01\"",
        b"[1, 2, 300]",
        b"\"\\ud800\\x\"",
    ] {
        let ours =
            ito::json::from_slice::<serde_bytes_vec::Bytes>(input).map_err(|e| e.to_string());
        let theirs =
            serde_json::from_slice::<serde_bytes_vec::Bytes>(input).map_err(|e| e.to_string());
        assert_eq!(ours, theirs, "{:?}", String::from_utf8_lossy(input));
    }
}

/// An owned byte buffer read with `deserialize_byte_buf`.
mod serde_bytes_vec {
    use std::fmt;

    #[derive(Debug, PartialEq)]
    pub(crate) struct Bytes(pub(crate) Vec<u8>);

    impl<'de> serde::Deserialize<'de> for Bytes {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Bytes, D::Error> {
            struct V;
            impl<'de> serde::de::Visitor<'de> for V {
                type Value = Bytes;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("bytes")
                }
                fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Bytes, E> {
                    Ok(Bytes(v.to_vec()))
                }
                fn visit_seq<A: serde::de::SeqAccess<'de>>(
                    self,
                    mut s: A,
                ) -> Result<Bytes, A::Error> {
                    let mut out = Vec::new();
                    while let Some(b) = s.next_element::<u8>()? {
                        out.push(b);
                    }
                    Ok(Bytes(out))
                }
            }
            d.deserialize_byte_buf(V)
        }
    }
}

#[test]
fn strings_and_escapes() {
    for input in [
        r#""""#,
        r#""\"\\\/\b\f\n\r\t""#,
        r#""\u0041\u00e9\u4e2d\ud83d\ude00""#,
        r#""\uD83D\uDE00""#,
        r#""\ud800""#,
        r#""\udc00""#,
        r#""\ud800\u0041""#,
        r#""\ud800x""#,
        r#""\ud800\n""#,
        r#""\ud800\ud800""#,
        r#""\u12""#,
        r#""\u12g4""#,
        r#""\x""#,
        r#""abc"#,
        r#""abc\"#,
        "\"a\tb\"",
        "\"a\u{1}b\"",
        r#""é日本😀""#,
    ] {
        agree::<String>(input);
        agree::<Value>(input);
        agree::<IgnoredAnyEq>(input);
        agree::<char>(input);
    }
    // Invalid UTF-8 (bytes only): plain and after an escape.
    for input in [
        &b"\"ab\xffcd\""[..],
        b"\"\\nab\xc3(\"",
        b"[\"\xe6\x97\xa5\xe6\x9c\"]",
        b"\"\xf0\x9f\x98\x80\xed\xa0\x80\"",
        b"{\"k\xff\": 1}",
        b"  \n  \"x\xc0\xafy\"",
    ] {
        let ours = ito::json::from_slice::<Value>(input).map_err(|e| e.to_string());
        let theirs = serde_json::from_slice::<Value>(input).map_err(|e| e.to_string());
        assert_eq!(ours, theirs, "{:?}", String::from_utf8_lossy(input));
        let ours = ito::json::from_slice::<IgnoredAnyEq>(input).map_err(|e| e.to_string());
        let theirs = serde_json::from_slice::<IgnoredAnyEq>(input).map_err(|e| e.to_string());
        assert_eq!(ours, theirs, "{:?}", String::from_utf8_lossy(input));
    }
}

#[test]
fn raw_values() {
    use ito::json::RawJson;
    use serde_json::value::RawValue;

    #[derive(Deserialize)]
    struct Env<'a> {
        #[serde(borrow)]
        a: &'a RawValue,
        b: Box<RawValue>,
        #[serde(borrow)]
        c: &'a RawJson,
        d: Box<RawJson>,
    }
    let text = r#"{"a": [1, {"x": "y"}] , "b":"s\"t", "c" : 1.50e3, "d": {"k" : [ ]}}"#;
    let ours: Env = ito::json::from_str(text).unwrap();
    let theirs: Env = serde_json::from_str(text).unwrap();
    assert_eq!(ours.a.get(), theirs.a.get());
    assert_eq!(ours.b.get(), theirs.b.get());
    assert_eq!(ours.c.as_str(), theirs.c.as_str());
    assert_eq!(ours.d.as_str(), "{\"k\" : [ ]}");
    assert_eq!(ours.c.as_str(), "1.50e3");
    let ours: Env = ito::json::from_slice(text.as_bytes()).unwrap();
    assert_eq!(ours.a.get(), "[1, {\"x\": \"y\"}]");

    // Errors inside a raw value are the skipper's.
    for bad in [
        r#"{"a": [1,, 2], "b": 1, "c": 1, "d": 1}"#,
        r#"{"a": [1, 2"#,
        r#"{"a": 1, "b": 1, "c": tru, "d": 1}"#,
    ] {
        let ours = ito::json::from_str::<Env>(bad).err().map(|e| e.to_string());
        let theirs = serde_json::from_str::<Env>(bad)
            .err()
            .map(|e| e.to_string());
        assert_eq!(ours, theirs);
    }
    let bytes = b"{\"a\": \"\xff\", \"b\": 1, \"c\": 1, \"d\": 1}";
    let ours = ito::json::from_slice::<Env>(bytes)
        .err()
        .map(|e| e.to_string());
    let theirs = serde_json::from_slice::<Env>(bytes)
        .err()
        .map(|e| e.to_string());
    assert_eq!(ours, theirs);

    // RawJson from other deserializers: serde_json speaks the same
    // protocol; a string holding JSON elsewhere.
    let raw: Box<RawJson> = serde_json::from_str(" [1, 2] ").unwrap();
    assert_eq!(raw.as_str(), "[1, 2]");
    let raw: Box<RawJson> = Deserialize::deserialize(serde::de::value::StrDeserializer::<
        serde::de::value::Error,
    >::new("[true]"))
    .unwrap();
    assert_eq!(raw.as_str(), "[true]");
    assert!(
        Box::<RawJson>::deserialize(
            serde::de::value::StrDeserializer::<serde::de::value::Error>::new("[tru]")
        )
        .is_err()
    );
}

#[test]
fn streams() {
    for input in [
        "1 2 3",
        "{\"a\":1}\n{\"a\":2}\n",
        "[1][2]\"x\"{}",
        "1[2]",
        "1x 2",
        "[1] [2] [",
        "  ",
        "",
        "{\"a\": 1} 1.5e 3",
        "\"a\"\"b\"truefalse",
        "true false nul",
    ] {
        let ours: Vec<_> = ito::json::Deserializer::from_str(input)
            .into_iter::<Value>()
            .map(|r| r.map_err(|e| e.to_string()))
            .collect();
        let theirs: Vec<_> = serde_json::Deserializer::from_str(input)
            .into_iter::<Value>()
            .map(|r| r.map_err(|e| e.to_string()))
            .collect();
        assert_eq!(ours, theirs, "{input}");

        let mut a = ito::json::Deserializer::from_slice(input.as_bytes()).into_iter::<Value>();
        let mut b = serde_json::Deserializer::from_slice(input.as_bytes()).into_iter::<Value>();
        loop {
            let (x, y) = (a.next(), b.next());
            assert_eq!(a.byte_offset(), b.byte_offset(), "{input}");
            if x.is_none() && y.is_none() {
                break;
            }
            if x.is_some() {
                let start = a.value_offset();
                assert!(start < input.len());
                assert!(!input.as_bytes()[start].is_ascii_whitespace());
            }
        }
    }
}

#[test]
fn value_and_display() {
    let err = ito::json::from_str::<Vec<u8>>("[1, 2 x]").unwrap_err();
    assert_eq!(err.to_string(), "expected `,` or `]` at line 1 column 7");
    let err = ito::json::from_str::<Vec<u8>>("").unwrap_err();
    assert_eq!((err.line(), err.column(), err.offset()), (1, 0, 0));
    let io: std::io::Error = ito::json::from_str::<u8>("x").unwrap_err().into();
    assert_eq!(io.kind(), std::io::ErrorKind::InvalidData);
    let v: Value = ito::json::from_reader(std::io::Cursor::new(b"{\"a\": [1]}")).unwrap();
    assert_eq!(v["a"][0], 1);
    use serde::de::Error as _;
    let e = ito::json::de::Error::custom("oops at line 3 column 9");
    assert_eq!((e.line(), e.column()), (3, 9));
    assert_eq!(e.to_string(), "oops at line 3 column 9");
}

#[test]
fn typed_corpora() {
    fn same<T: DeserializeOwned + Serialize>(text: &str) {
        let ours: T = ito::json::from_slice(text.as_bytes()).unwrap();
        let theirs: T = serde_json::from_str(text).unwrap();
        assert_eq!(
            serde_json::to_value(&ours).unwrap(),
            serde_json::to_value(&theirs).unwrap()
        );
        let ours: T = ito::json::from_str(text).unwrap();
        assert_eq!(
            serde_json::to_value(&ours).unwrap(),
            serde_json::to_value(&theirs).unwrap()
        );
    }
    let read = |n: &str| {
        std::fs::read_to_string(format!(
            "{}/../../data/corpus/{n}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    };
    same::<docs::Twitter>(&read("twitter.json"));
    same::<docs::Citm>(&read("citm_catalog.json"));
    same::<docs::Canada>(&read("canada.json"));
    // Exact floats, bit for bit.
    let canada = read("canada.json");
    let ours: docs::Canada = ito::json::from_str(&canada).unwrap();
    let theirs: docs::Canada = serde_json::from_str(&canada).unwrap();
    for (a, b) in ours.features.iter().zip(&theirs.features) {
        for (ra, rb) in a.geometry.coordinates.iter().zip(&b.geometry.coordinates) {
            for (pa, pb) in ra.iter().zip(rb) {
                assert_eq!(pa.0.to_bits(), pb.0.to_bits());
                assert_eq!(pa.1.to_bits(), pb.1.to_bits());
            }
        }
    }
}

/// Whole documents and every prefix, placed to end at a protected page:
/// the parser never reads past its input.
#[cfg(unix)]
#[test]
fn documents_end_at_a_protected_page() {
    let mut g = common::guard::Guarded::new();
    let docs: [&[u8]; 8] = [
        br#"{"a": [1, 2.5e-3, "x\u00e9", true, null], "b": {"c": "de\"f"}}"#,
        b"[\"\xe6\x97\xa5\xe6\x9c\xac\", -0, 123456789012345678901234, 1e400]",
        b"  \n\t  [  \n  ]  \r\n  ",
        b"\"a very long string without any escape at all, longer than a block of sixty-four bytes\"",
        b"\"a long string with an escape near its end, which is past the first block \\n\"",
        b"{\"k\": 12345678901234567890, \"l\": -9223372036854775808}",
        b"[1,[2,[3,[4,[5,{\"x\":[6]}]]]]]",
        b"18446744073709551616",
    ];
    for doc in docs {
        for end in 0..=doc.len() {
            let placed = g.place(&doc[..end]);
            let ours = ito::json::from_slice::<Value>(placed).map_err(|e| e.to_string());
            let theirs = serde_json::from_slice::<Value>(&doc[..end]).map_err(|e| e.to_string());
            assert_eq!(ours, theirs);
            let ours = ito::json::from_slice::<IgnoredAnyEq>(placed).map_err(|e| e.to_string());
            let theirs =
                serde_json::from_slice::<IgnoredAnyEq>(&doc[..end]).map_err(|e| e.to_string());
            assert_eq!(ours, theirs);
            let ours =
                ito::json::from_slice::<serde_bytes_vec::Bytes>(placed).map_err(|e| e.to_string());
            let theirs = serde_json::from_slice::<serde_bytes_vec::Bytes>(&doc[..end])
                .map_err(|e| e.to_string());
            assert_eq!(ours, theirs);
        }
    }
    // The corpora's tails (a page each, every prefix of the last 300 bytes).
    for n in ["twitter.json", "citm_catalog.json", "canada.json"] {
        let doc = std::fs::read(format!(
            "{}/../../data/corpus/{n}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let tail = &doc[doc.len() - 4000..];
        for cut in 0..300 {
            let piece = &tail[..tail.len() - cut];
            let placed = g.place(piece);
            let ours = ito::json::from_slice::<IgnoredAnyEq>(placed).map_err(|e| e.to_string());
            let theirs = serde_json::from_slice::<IgnoredAnyEq>(piece).map_err(|e| e.to_string());
            assert_eq!(ours, theirs);
        }
    }
}
