//! ito's serde serializer against serde_json, byte for byte: JSONTestSuite
//! `y_` documents, the three corpora as `Value` and as typed structs,
//! arbitrary `Value` trees, every serde data-model shape, error parity,
//! `Str` and `RawJson`, `to_writer` chunking and its allocations.
#![cfg(feature = "serde")]

mod common;

#[path = "../../../bench/src/docs.rs"]
#[allow(dead_code, unreachable_pub)]
mod docs;

use std::collections::{BTreeMap, HashMap};
use std::io;

use common::alloc::allocations;
use ito::json::{self, Options, RawJson};
use proptest::prelude::*;
use serde::{Serialize, Serializer as _};
use serde_json::Value;

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

/// Asserts compact and pretty output equal serde_json's, through every
/// entry point.
#[track_caller]
fn same<T: ?Sized + Serialize>(value: &T) {
    let want = serde_json::to_vec(value).unwrap();
    let got = json::to_vec(value).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&got),
        String::from_utf8_lossy(&want)
    );
    let want_pretty = serde_json::to_vec_pretty(value).unwrap();
    let got_pretty = json::to_vec_pretty(value).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&got_pretty),
        String::from_utf8_lossy(&want_pretty)
    );
    assert_eq!(json::to_string(value).unwrap().as_bytes(), &want[..]);
    let mut w = Vec::new();
    json::to_writer(&mut w, value).unwrap();
    assert_eq!(w, want);
    let mut w = Vec::new();
    json::to_writer_pretty(&mut w, value).unwrap();
    assert_eq!(w, want_pretty);
    // A `Serializer` over a borrowed `Vec` (the other `Output`), after
    // what the vector already holds.
    let mut w = b"x".to_vec();
    value.serialize(&mut json::Serializer::new(&mut w)).unwrap();
    assert_eq!(w[..1], *b"x");
    assert_eq!(w[1..], want[..]);
    let mut w = b"x".to_vec();
    value
        .serialize(&mut json::Serializer::pretty(&mut w))
        .unwrap();
    assert_eq!(w[1..], want_pretty[..]);
}

const TWITTER: &str = include_str!("../../../data/corpus/twitter.json");
const CITM: &str = include_str!("../../../data/corpus/citm_catalog.json");
const CANADA: &str = include_str!("../../../data/corpus/canada.json");

#[test]
fn jsontestsuite_y_documents() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/jsontestsuite");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with("y_") {
            continue;
        }
        let value: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        same(&value);
        n += 1;
    }
    assert!(n >= 90, "only {n} y_ files");
}

#[test]
fn corpora_as_values() {
    for doc in [TWITTER, CITM, CANADA] {
        let value: Value = serde_json::from_str(doc).unwrap();
        same(&value);
    }
}

#[test]
fn corpora_as_typed_structs() {
    let twitter: docs::Twitter = serde_json::from_str(TWITTER).unwrap();
    same(&twitter);
    let citm: docs::Citm = serde_json::from_str(CITM).unwrap();
    same(&citm);
    let canada: docs::Canada = serde_json::from_str(CANADA).unwrap();
    same(&canada);
    // The same document through the Writer, by hand.
    let mut by_hand = Vec::new();
    docs::write_twitter(&mut by_hand, &twitter);
    assert_eq!(
        String::from_utf8_lossy(&by_hand),
        String::from_utf8_lossy(&serde_json::to_vec(&twitter).unwrap())
    );
    // The typed structs cover the documents: nothing was dropped.
    let back: Value = serde_json::from_slice(&json::to_vec(&twitter).unwrap()).unwrap();
    assert_eq!(back, serde_json::from_str::<Value>(TWITTER).unwrap());
}

// ---- every serde data-model shape ----

#[derive(Serialize, Clone, Debug)]
struct UnitStruct;

#[derive(Serialize, Clone, Debug)]
struct Newtype(i32);

#[derive(Serialize, Clone, Debug)]
struct Tuple(u8, String, ());

#[derive(Serialize, Clone, Debug)]
struct Empty {}

#[derive(Serialize, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum KeyEnum {
    Alpha,
    #[serde(rename = "b\"eta")]
    Beta,
}

#[derive(Serialize, Clone, Debug)]
enum External {
    Unit,
    Newtype(f64),
    Tuple(i8, Option<u16>),
    EmptyTuple(),
    Struct { a: char, b: Vec<u8> },
    EmptyStruct {},
}

#[derive(Serialize, Clone, Debug)]
#[serde(tag = "type")]
enum Internal {
    A { x: i64 },
    B(Inner),
    C,
}

#[derive(Serialize, Clone, Debug)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    A(u128),
    B { s: String },
    C,
}

#[derive(Serialize, Clone, Debug)]
#[serde(untagged)]
enum Untagged {
    N(i128),
    S(String),
    V(Vec<Untagged>),
}

#[derive(Serialize, Clone, Debug)]
struct Inner {
    s: String,
    f: f32,
}

#[derive(Serialize, Clone, Debug)]
struct Flattened {
    id: u64,
    #[serde(flatten)]
    inner: Inner,
    #[serde(flatten)]
    extra: BTreeMap<String, i32>,
}

/// `serialize_bytes` (serde_json: an array of numbers).
#[derive(Clone, Debug)]
struct Bytes(Vec<u8>);

impl Serialize for Bytes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

/// `collect_str` with a Display that writes in several pieces.
#[derive(Clone, Debug)]
struct Displayed(String, u32);

impl std::fmt::Display for Displayed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}<{}>{}", self.0, self.1, self.0)
    }
}

impl Serialize for Displayed {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[derive(Serialize, Clone, Debug)]
struct Everything {
    unit: (),
    unit_struct: UnitStruct,
    newtype: Newtype,
    tuple: Tuple,
    empty: Empty,
    externals: Vec<External>,
    internal: Vec<Internal>,
    adjacent: Vec<Adjacent>,
    untagged: Untagged,
    flattened: Flattened,
    bytes: Bytes,
    displayed: Displayed,
    option: Option<Option<i8>>,
    i128s: (i128, u128),
    floats: (f32, f64),
    int_keys: BTreeMap<i64, bool>,
    u128_keys: BTreeMap<u128, ()>,
    char_keys: BTreeMap<char, u8>,
    bool_keys: BTreeMap<bool, u8>,
    enum_keys: BTreeMap<KeyEnum, u8>,
    newtype_keys: Vec<(Newtype, u8)>,
    float_keys: Vec<(f64, u8)>,
    str_values: Vec<ito::Str>,
    str_keys: BTreeMap<ito::Str, ito::Str>,
    nested: Vec<Vec<Vec<Option<Empty>>>>,
    skipped: Option<Box<Everything>>,
}

/// A map whose keys serialize through any `Serialize`: the key shapes
/// serde_json turns into strings.
#[derive(Clone, Debug)]
struct PairMap<K, V>(Vec<(K, V)>);

impl<K: Serialize, V: Serialize> Serialize for PairMap<K, V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

fn text() -> impl Strategy<Value = String> {
    let special = prop::sample::select(vec![
        '"',
        '\\',
        '/',
        '\n',
        '\r',
        '\t',
        '\u{8}',
        '\u{c}',
        '\0',
        '\u{1}',
        '\u{1f}',
        '\u{7f}',
        '\u{80}',
        'é',
        '€',
        '\u{ffff}',
        '😀',
        '\u{10ffff}',
        '\u{2028}',
        '<',
        '>',
        '&',
        '\'',
    ]);
    prop::collection::vec(
        prop_oneof![3 => any::<char>(), 3 => special, 4 => prop::char::range(' ', '~')],
        0..40,
    )
    .prop_map(|cs| cs.into_iter().collect())
}

fn f64_edge() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => any::<f64>(),
        1 => prop::sample::select(vec![
            0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 2.225073858507201e-308,
            1e308, f64::MAX, f64::MIN, f64::NAN, f64::INFINITY, f64::NEG_INFINITY,
            9007199254740992.0, 9007199254740993.0, 9007199254740991.0, 0.1, 1e21, 1e-7,
            123456789012345680.0, 1.5e300,
        ]),
    ]
}

fn f32_edge() -> impl Strategy<Value = f32> {
    prop_oneof![
        3 => any::<f32>(),
        1 => prop::sample::select(vec![
            0.0f32, -0.0, 1e-45, f32::MIN_POSITIVE, f32::MAX, f32::NAN, f32::INFINITY, 0.1, 16777217.0,
        ]),
    ]
}

fn i64_edge() -> impl Strategy<Value = i64> {
    prop_oneof![
        3 => any::<i64>(),
        1 => prop::sample::select(vec![
            0, -1, i64::MIN, i64::MAX, (1 << 53) + 1, (1 << 53) - 1, -(1 << 53) - 1,
        ]),
    ]
}

fn u64_edge() -> impl Strategy<Value = u64> {
    prop_oneof![3 => any::<u64>(), 1 => prop::sample::select(vec![0, u64::MAX, (1 << 53) + 1])]
}

fn everything() -> impl Strategy<Value = Everything> {
    let external = prop_oneof![
        Just(External::Unit),
        f64_edge().prop_map(External::Newtype),
        (any::<i8>(), any::<Option<u16>>()).prop_map(|(a, b)| External::Tuple(a, b)),
        Just(External::EmptyTuple()),
        (any::<char>(), prop::collection::vec(any::<u8>(), 0..4))
            .prop_map(|(a, b)| External::Struct { a, b }),
        Just(External::EmptyStruct {}),
    ];
    let untagged = prop_oneof![
        any::<i128>().prop_map(Untagged::N),
        text().prop_map(Untagged::S),
    ]
    .prop_recursive(3, 12, 4, |inner| {
        prop::collection::vec(inner, 0..4).prop_map(Untagged::V)
    });
    let part1 = (
        any::<i32>(),
        (any::<u8>(), text()),
        prop::collection::vec(external, 0..6),
        (i64_edge(), text(), f32_edge()),
        (any::<u128>(), text()),
        untagged,
        (
            u64_edge(),
            text(),
            prop::collection::btree_map(text(), any::<i32>(), 0..3),
        ),
        prop::collection::vec(any::<u8>(), 0..6),
        (text(), any::<u32>()),
        any::<Option<Option<i8>>>(),
    );
    let part2 = (
        (any::<i128>(), any::<u128>()),
        (f32_edge(), f64_edge()),
        prop::collection::btree_map(i64_edge(), any::<bool>(), 0..4),
        prop::collection::btree_map(any::<u128>(), Just(()), 0..3),
        prop::collection::btree_map(any::<char>(), any::<u8>(), 0..3),
        prop::collection::btree_map(any::<bool>(), any::<u8>(), 0..2),
        prop::collection::vec((any::<i32>(), any::<u8>()), 0..3),
        prop::collection::vec(
            (
                f64_edge().prop_filter("finite", |f| f.is_finite()),
                any::<u8>(),
            ),
            0..3,
        ),
        prop::collection::vec(text(), 0..4),
        prop::collection::btree_map(text(), text(), 0..4),
        prop::collection::vec(
            prop::collection::vec(prop::collection::vec(any::<bool>(), 0..3), 0..3),
            0..3,
        ),
    );
    (part1, part2).prop_map(|(p1, p2)| {
        let (
            nt,
            (tu, ts),
            externals,
            (ix, bs, cf),
            (au, bsn),
            untagged,
            (fid, fs, fx),
            bytes,
            (ds, dn),
            option,
        ) = p1;
        let (
            i128s,
            floats,
            int_keys,
            u128_keys,
            char_keys,
            bool_keys,
            newtype_keys,
            float_keys,
            strs,
            str_keys,
            nested,
        ) = p2;
        Everything {
            unit: (),
            unit_struct: UnitStruct,
            newtype: Newtype(nt),
            tuple: Tuple(tu, ts, ()),
            empty: Empty {},
            externals,
            internal: vec![
                Internal::A { x: ix },
                Internal::B(Inner { s: bs, f: cf }),
                Internal::C,
            ],
            adjacent: vec![Adjacent::A(au), Adjacent::B { s: bsn }, Adjacent::C],
            untagged,
            flattened: Flattened {
                id: fid,
                inner: Inner { s: fs, f: 1.5 },
                extra: fx,
            },
            bytes: Bytes(bytes),
            displayed: Displayed(ds, dn),
            option,
            i128s,
            floats,
            int_keys,
            u128_keys,
            char_keys,
            bool_keys,
            enum_keys: [(KeyEnum::Alpha, 1), (KeyEnum::Beta, 2)].into(),
            newtype_keys: newtype_keys
                .into_iter()
                .map(|(k, v)| (Newtype(k), v))
                .collect(),
            float_keys,
            str_values: strs.iter().map(|s| ito::Str::from(s.as_str())).collect(),
            str_keys: str_keys
                .iter()
                .map(|(k, v)| (ito::Str::from(k.as_str()), ito::Str::from(v.as_str())))
                .collect(),
            nested: nested
                .into_iter()
                .map(|a| {
                    a.into_iter()
                        .map(|b| b.into_iter().map(|x| x.then_some(Empty {})).collect())
                        .collect()
                })
                .collect(),
            skipped: None,
        }
    })
}

fn arbitrary_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        i64_edge().prop_map(Value::from),
        u64_edge().prop_map(Value::from),
        f64_edge().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(8, 128, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::btree_map(text(), inner, 0..8)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(common::proptest_config(1000))]

    #[test]
    fn arbitrary_values_match(value in arbitrary_value()) {
        same(&value);
    }

    #[test]
    fn every_shape_matches(e in everything()) {
        let with_nested = Everything { skipped: Some(Box::new(e.clone())), ..e.clone() };
        same(&e);
        same(&with_nested);
        // Keys through every key shape, compact and pretty.
        let keys = e.float_keys.iter().map(|&(k, v)| (k, v)).collect::<Vec<_>>();
        same(&PairMap(keys));
        same(&PairMap(e.newtype_keys.iter().map(|(k, v)| (Some(k.clone()), *v)).collect()));
    }

    #[test]
    fn scalars_match(i in i64_edge(), u in u64_edge(), a in any::<i128>(), b in any::<u128>(),
                     f in f64_edge(), g in f32_edge(), s in text(), c in any::<char>()) {
        same(&i); same(&u); same(&a); same(&b); same(&f); same(&g); same(&s); same(&c);
        same(&ito::Str::from(s.as_str()));
        same(&PairMap(vec![(i, 0), (i.wrapping_add(1), 1)]));
        same(&PairMap(vec![(a, 0)]));
        same(&PairMap(vec![(c, 0)]));
        same(&PairMap(vec![(s.as_str(), 0)]));
    }

    #[test]
    fn options_escape_every_string_and_key(value in arbitrary_value(), ascii in any::<bool>(),
                                           html in any::<bool>(), slash in any::<bool>(), js in any::<bool>()) {
        let opts = Options::new().ascii_only(ascii).html_safe(html).escape_slash(slash).js_safe(js);
        for pretty in [false, true] {
            let out = if pretty { json::to_vec_pretty_with(&value, &opts) } else { json::to_vec_with(&value, &opts) }.unwrap();
            // Same value back (as serde_json reads its own output: its
            // float parsing is not exact without `float_roundtrip`), and
            // every string literal as quote_with writes it.
            let intended: Value = serde_json::from_slice(&serde_json::to_vec(&value).unwrap()).unwrap();
            prop_assert_eq!(&serde_json::from_slice::<Value>(&out).unwrap(), &intended);
            let mut want = Vec::new();
            for lit in ito::json::literals(&out) {
                let (_, s) = lit.unwrap();
                ito::json::quote_with(&mut want, &s, &opts);
            }
            let mut got = Vec::new();
            let mut rest = &out[..];
            while let Some(i) = rest.iter().position(|&b| b == b'"') {
                let (_, used) = ito::json::unquote(&rest[i..]).unwrap();
                got.extend_from_slice(&rest[i..i + used]);
                rest = &rest[i + used..];
            }
            prop_assert_eq!(got, want);
            if ascii {
                prop_assert!(out.is_ascii());
            }
        }
    }
}

/// Struct fields the serializer stores with their key (strings, bools):
/// first (deferred `{`) and later, short and long keys.
#[derive(Serialize, Clone, Debug)]
struct Fields<'a> {
    s: String,
    b: bool,
    r: &'a str,
    a_key_of_more_than_thirty_two_bytes: String,
    t: bool,
}

#[derive(Serialize, Clone, Debug)]
struct FirstBool<'a> {
    b: bool,
    r: &'a str,
}

proptest! {
    #[test]
    fn fused_fields_match(s in text(), r in text(), b in any::<bool>(), ascii in any::<bool>(), html in any::<bool>()) {
        let f = Fields { s: s.clone(), b, r: &r, a_key_of_more_than_thirty_two_bytes: r.clone(), t: !b };
        same(&f);
        same(&FirstBool { b, r: &s });
        let opts = Options::new().ascii_only(ascii).html_safe(html);
        let out = json::to_vec_with(&f, &opts).unwrap();
        let mut want = b"{".to_vec();
        let lits = [("s", None), ("b", Some(b)), ("r", None), ("a_key_of_more_than_thirty_two_bytes", None), ("t", Some(!b))];
        for (i, (k, v)) in lits.into_iter().enumerate() {
            if i > 0 {
                want.push(b',');
            }
            ito::json::quote_with(&mut want, k, &opts);
            want.push(b':');
            match v {
                Some(v) => want.extend_from_slice(if v { b"true" } else { b"false" }),
                None => ito::json::quote_with(&mut want, if i == 0 { &s } else { &r }, &opts),
            }
        }
        want.push(b'}');
        prop_assert_eq!(out, want);
    }
}

// ---- errors ----

#[derive(Debug)]
struct Fails;

impl Serialize for Fails {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom("custom failure: ünïcode"))
    }
}

/// Serializes `value`; both must fail with the same message and kind.
#[track_caller]
fn same_error<T: Serialize>(value: &T, category: json::ser::Category) {
    let theirs = serde_json::to_vec(value).unwrap_err();
    let ours = json::to_vec(value).unwrap_err();
    assert_eq!(ours.to_string(), theirs.to_string());
    assert_eq!(ours.category(), category);
    let want = match category {
        json::ser::Category::Io => serde_json::error::Category::Io,
        json::ser::Category::Custom => serde_json::error::Category::Data,
        _ => serde_json::error::Category::Syntax,
    };
    assert_eq!(theirs.classify(), want);
    let pretty = json::to_vec_pretty(value).unwrap_err();
    assert_eq!(pretty.to_string(), theirs.to_string());
    let io_theirs: io::Error = theirs.into();
    let io_ours: io::Error = ours.into();
    assert_eq!(io_ours.kind(), io_theirs.kind());
}

#[test]
fn error_parity() {
    use json::ser::Category::*;
    same_error(&Fails, Custom);
    same_error(&vec![Some(Fails)], Custom);
    same_error(&PairMap(vec![("ok", Fails)]), Custom);
    same_error(&PairMap(vec![(Fails, 1)]), Custom);
    same_error(&PairMap(vec![(vec![1], 1)]), KeyMustBeAString);
    same_error(&PairMap(vec![((), 1)]), KeyMustBeAString);
    same_error(&PairMap(vec![(UnitStruct, 1)]), KeyMustBeAString);
    same_error(&PairMap(vec![(None::<u8>, 1)]), KeyMustBeAString);
    same_error(&PairMap(vec![(Bytes(vec![1]), 1)]), KeyMustBeAString);
    same_error(
        &PairMap(vec![(External::Newtype(1.0), 1)]),
        KeyMustBeAString,
    );
    same_error(
        &PairMap(vec![(External::Tuple(1, None), 1)]),
        KeyMustBeAString,
    );
    same_error(
        &PairMap(vec![(External::Struct { a: 'a', b: vec![] }, 1)]),
        KeyMustBeAString,
    );
    same_error(&PairMap(vec![((1, 2), 1)]), KeyMustBeAString);
    same_error(
        &PairMap(vec![(Tuple(1, "a".into(), ()), 1)]),
        KeyMustBeAString,
    );
    same_error(
        &PairMap(vec![(
            Inner {
                s: "a".into(),
                f: 1.0,
            },
            1,
        )]),
        KeyMustBeAString,
    );
    same_error(&PairMap(vec![(PairMap(vec![(1, 1)]), 1)]), KeyMustBeAString);
    same_error(&PairMap(vec![(f64::NAN, 1)]), FloatKeyMustBeFinite);
    same_error(&PairMap(vec![(f32::INFINITY, 1)]), FloatKeyMustBeFinite);
    same_error(&PairMap(vec![(f64::NEG_INFINITY, 1)]), FloatKeyMustBeFinite);
    // What serde_json accepts as keys, ito accepts too (and writes alike).
    same(&PairMap(vec![(Some(3u8), 1), (Some(4u8), 2)]));
    same(&PairMap(vec![(Newtype(-7), 1)]));
    same(&PairMap(vec![(KeyEnum::Beta, 1)]));
    same(&PairMap(vec![(Displayed("k".into(), 1), 1)]));
    same(&PairMap(vec![(true, 1), (false, 2)]));
    same(&PairMap(vec![
        (-0.0f64, 1),
        (1e300, 2),
        (f64::MIN_POSITIVE, 3),
    ]));
}

struct FailingWriter {
    accept: usize,
}

impl io::Write for FailingWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.accept == 0 {
            return Err(io::Error::other("disk full"));
        }
        let n = buf.len().min(self.accept);
        self.accept -= n;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn io_errors_are_reported() {
    let value: Value = serde_json::from_str(TWITTER).unwrap();
    for accept in [0, 10, 100_000] {
        let ours = json::to_writer(FailingWriter { accept }, &value).unwrap_err();
        let theirs = serde_json::to_writer(FailingWriter { accept }, &value).unwrap_err();
        assert_eq!(ours.category(), json::ser::Category::Io);
        assert_eq!(ours.to_string(), theirs.to_string());
        assert_eq!(ours.io_error().unwrap().to_string(), "disk full");
    }
}

/// A writer that records the size of each write.
struct Chunks(Vec<usize>, Vec<u8>);

impl io::Write for Chunks {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.push(buf.len());
        self.1.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn to_writer_hands_over_large_chunks() {
    let value: Value = serde_json::from_str(CITM).unwrap();
    let mut sink = Chunks(Vec::new(), Vec::new());
    json::to_writer(&mut sink, &value).unwrap();
    assert_eq!(sink.1, serde_json::to_vec(&value).unwrap());
    let (last, full) = sink.0.split_last().unwrap();
    assert!(full.len() >= 4, "{:?}", sink.0);
    assert!(full.iter().all(|&n| n >= 64 << 10), "{:?}", sink.0);
    assert!(*last > 0);
}

#[test]
fn to_writer_into_a_reused_vec_allocates_nothing() {
    let twitter: docs::Twitter = serde_json::from_str(TWITTER).unwrap();
    let value: Value = serde_json::from_str(CITM).unwrap();
    let mut out = Vec::new();
    for pretty in [false, true] {
        let render = |out: &mut Vec<u8>| {
            out.clear();
            if pretty {
                json::to_writer_pretty(&mut *out, &twitter).unwrap();
                json::to_writer_pretty(&mut *out, &value).unwrap();
            } else {
                json::to_writer(&mut *out, &twitter).unwrap();
                json::to_writer(&mut *out, &value).unwrap();
            }
        };
        render(&mut out); // sizes the Vec and the staging buffer
        let len = out.len();
        let ((), n) = allocations(|| render(&mut out));
        assert_eq!((n, out.len()), (0, len));
    }
    // Straight into a Vec with room, through the public Serializer.
    let mut out = Vec::with_capacity(1 << 20);
    let ((), n) = allocations(|| {
        twitter
            .serialize(&mut json::Serializer::new(&mut out))
            .unwrap();
    });
    assert_eq!(n, 0);
}

// ---- Str and RawJson ----

#[test]
fn str_is_a_plain_string_elsewhere_and_fast_here() {
    let safe = ito::Str::from("plain and JSON-safe, é");
    let unsafe_ = ito::Str::from("needs \"escaping\"\n");
    assert!(safe.is_json_safe() && !unsafe_.is_json_safe());
    for s in [&safe, &unsafe_] {
        same(s);
        same(&vec![s.clone(), s.clone()]);
        same(&PairMap(vec![(s.clone(), s.clone())]));
        // Through serde_json's own value model: a string.
        assert_eq!(
            serde_json::to_value(s).unwrap(),
            Value::String(s.to_string())
        );
    }
    // Options still apply to a JSON-safe Str.
    let opts = Options::new().ascii_only(true);
    assert_eq!(
        json::to_vec_with(&safe, &opts).unwrap(),
        br#""plain and JSON-safe, \u00e9""#
    );
    assert_eq!(
        json::to_vec_with(&PairMap(vec![(safe.clone(), 1)]), &opts).unwrap(),
        br#"{"plain and JSON-safe, \u00e9":1}"#
    );
}

#[test]
fn raw_json_is_verbatim() {
    let raw = RawJson::new(" {\"a\" : [1, 2.50, \"\\u0041\"]} ").unwrap();
    let doc = PairMap(vec![("event", raw)]);
    assert_eq!(
        json::to_vec(&doc).unwrap(),
        br#"{"event":{"a" : [1, 2.50, "\u0041"]}}"#
    );
    assert_eq!(
        json::to_vec_pretty(&doc).unwrap(),
        b"{\n  \"event\": {\"a\" : [1, 2.50, \"\\u0041\"]}\n}"
    );
    let owned: Box<RawJson> = RawJson::from_string("[null]".into()).unwrap();
    assert_eq!(
        json::to_vec(&vec![owned.clone(), owned]).unwrap(),
        b"[[null],[null]]"
    );
    // Other serializers see the text as a string.
    assert_eq!(
        serde_json::to_value(raw).unwrap(),
        Value::String(raw.as_str().into())
    );
}

#[test]
fn raw_json_validation_agrees_with_serde_json() {
    // serde_json's parser as the oracle: every y_ file is accepted, and
    // every n_ file serde_json rejects is rejected.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/jsontestsuite");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let theirs = serde_json::from_slice::<serde::de::IgnoredAny>(&bytes).is_ok();
        let ours = RawJson::from_bytes(&bytes);
        if name.starts_with("y_") {
            assert!(ours.is_ok(), "{name}: {ours:?}");
        }
        if name.starts_with("n_") && !theirs {
            assert!(ours.is_err(), "{name} accepted");
        }
        if let Ok(raw) = ours {
            // Accepted text round-trips verbatim.
            assert_eq!(json::to_vec(&raw).unwrap(), raw.as_bytes(), "{name}");
        }
    }
}

#[test]
fn serializer_appends_and_chains() {
    let mut out = b"[".to_vec();
    let mut ser = json::Serializer::new(&mut out);
    1u8.serialize(&mut ser).unwrap();
    (&mut ser).serialize_str("x").unwrap();
    assert_eq!(out, b"[1\"x\"");
    let _ = HashMap::<u8, u8>::new();
}

/// `collect_seq` over an iterator whose `size_hint` says `hint` while it
/// yields `items`: the empty-sequence fast path must still produce
/// serde_json's bytes (serde's default `collect_seq`).
#[derive(Clone, Debug)]
struct Hinted {
    items: Vec<u8>,
    hint: (usize, Option<usize>),
}

struct HintedIter<'a> {
    items: std::slice::Iter<'a, u8>,
    hint: (usize, Option<usize>),
}

impl<'a> Iterator for HintedIter<'a> {
    type Item = &'a u8;
    fn next(&mut self) -> Option<&'a u8> {
        self.items.next()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.hint
    }
}

impl Serialize for Hinted {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(HintedIter {
            items: self.items.iter(),
            hint: self.hint,
        })
    }
}

#[test]
fn collect_seq_follows_the_size_hint_like_serde_json() {
    for items in [vec![], vec![7], vec![1, 2, 3]] {
        for hint in [
            (0, Some(0)),
            (0, None),
            (1, Some(1)),
            (3, Some(3)),
            (0, Some(5)),
        ] {
            let v = Hinted {
                items: items.clone(),
                hint,
            };
            let honest = hint == (items.len(), Some(items.len())) || hint.1.is_none();
            if honest {
                same(&v);
                same(&vec![v.clone(), v]);
            } else {
                // serde_json's pretty printer underflows its indentation
                // on a lying hint (a debug-build panic): compact only.
                for v in [&vec![v.clone()], &vec![v.clone(), v]] {
                    let want = serde_json::to_vec(v).unwrap();
                    assert_eq!(json::to_vec(v).unwrap(), want, "{v:?}");
                    let mut w = Vec::new();
                    json::to_writer(&mut w, v).unwrap();
                    assert_eq!(w, want, "{v:?}");
                }
            }
        }
    }
    // Nested empties and non-empties, compact and pretty.
    same(&vec![vec![vec![0u8; 0]; 2], vec![], vec![vec![1]]]);
}

/// Struct fields of every integer type (compact output writes `,"key":N`
/// in one step for these): extremes, keys that need escaping or are too
/// long for the fused key store, and struct variants.
#[derive(Serialize, Clone, Debug)]
struct IntFields {
    a: u64,
    b: i64,
    c: u32,
    d: i32,
    e: u16,
    f: i16,
    g: u8,
    h: i8,
    i: usize,
    j: isize,
    k: u128,
    l: i128,
    #[serde(rename = "needs \"escaping\"\n")]
    escaped: u64,
    #[serde(rename = "a key longer than thirty-two bytes, still plain")]
    long: i32,
    #[serde(rename = "é/</script>\u{2028}")]
    policy: u8,
    #[serde(rename = "")]
    empty: u16,
    not_int: (u64, u64),
}

/// The same fields as `IntFields`, each behind a newtype (so the generic
/// `value.serialize` path writes them): the fused path must agree with it
/// under every escaping policy.
#[derive(Serialize, Clone, Debug)]
struct Wrapped<T>(T);

#[derive(Serialize, Clone, Debug)]
struct WrappedFields {
    a: Wrapped<u64>,
    b: Wrapped<i64>,
    c: Wrapped<u32>,
    d: Wrapped<i32>,
    e: Wrapped<u16>,
    f: Wrapped<i16>,
    g: Wrapped<u8>,
    h: Wrapped<i8>,
    i: Wrapped<usize>,
    j: Wrapped<isize>,
    k: Wrapped<u128>,
    l: Wrapped<i128>,
    #[serde(rename = "needs \"escaping\"\n")]
    escaped: Wrapped<u64>,
    #[serde(rename = "a key longer than thirty-two bytes, still plain")]
    long: Wrapped<i32>,
    #[serde(rename = "é/</script>\u{2028}")]
    policy: Wrapped<u8>,
    #[serde(rename = "")]
    empty: Wrapped<u16>,
    not_int: (u64, u64),
}

#[derive(Serialize, Clone, Debug)]
enum IntVariant {
    S { first: i64, second: u8 },
}

#[test]
fn integer_fields_match_serde_json() {
    let mins = IntFields {
        a: u64::MIN,
        b: i64::MIN,
        c: u32::MIN,
        d: i32::MIN,
        e: u16::MIN,
        f: i16::MIN,
        g: u8::MIN,
        h: i8::MIN,
        i: usize::MIN,
        j: isize::MIN,
        k: u128::MIN,
        l: i128::MIN,
        escaped: 0,
        long: -1,
        policy: 7,
        empty: 9,
        not_int: (1, 2),
    };
    let maxs = IntFields {
        a: u64::MAX,
        b: i64::MAX,
        c: u32::MAX,
        d: i32::MAX,
        e: u16::MAX,
        f: i16::MAX,
        g: u8::MAX,
        h: i8::MAX,
        i: usize::MAX,
        j: isize::MAX,
        k: u128::MAX,
        l: i128::MAX,
        escaped: 123_456_789,
        long: i32::MIN,
        policy: 255,
        empty: 10_000,
        not_int: (u64::MAX, 0),
    };
    let wrap = |x: &IntFields| WrappedFields {
        a: Wrapped(x.a),
        b: Wrapped(x.b),
        c: Wrapped(x.c),
        d: Wrapped(x.d),
        e: Wrapped(x.e),
        f: Wrapped(x.f),
        g: Wrapped(x.g),
        h: Wrapped(x.h),
        i: Wrapped(x.i),
        j: Wrapped(x.j),
        k: Wrapped(x.k),
        l: Wrapped(x.l),
        escaped: Wrapped(x.escaped),
        long: Wrapped(x.long),
        policy: Wrapped(x.policy),
        empty: Wrapped(x.empty),
        not_int: x.not_int,
    };
    for x in [&mins, &maxs] {
        same(x);
        same(&vec![x.clone(), x.clone()]);
        let w = wrap(x);
        for opts in [
            Options::new(),
            Options::new().ascii_only(true).html_safe(true),
            Options::new().escape_slash(true).js_safe(true),
        ] {
            assert_eq!(
                json::to_vec_with(x, &opts).unwrap(),
                json::to_vec_with(&w, &opts).unwrap(),
                "{opts:?}"
            );
        }
    }
    for v in [-1i64, 0, 9, 10, 99_999, i64::MIN] {
        same(&IntVariant::S {
            first: v,
            second: v as u8,
        });
    }
}

/// A hand-written struct whose `serialize_struct` length `announced`
/// differs from the number of fields it then `writes` (compact structs
/// defer their `{` to the first field, so no field at all must still give
/// serde_json's `{}`), as a struct and as a struct variant.
#[derive(Clone, Debug)]
struct Announced {
    announced: usize,
    writes: usize,
    variant: bool,
    /// Which key comes first (the one needing escapes, or a plain one).
    rotate: usize,
}

impl Serialize for Announced {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeStruct, SerializeStructVariant};
        let mut keys = ["a", "needs\"escaping", "c"];
        keys.rotate_left(self.rotate);
        if self.variant {
            let mut v = s.serialize_struct_variant("Announced", 0, "V", self.announced)?;
            for (i, k) in keys.iter().take(self.writes).enumerate() {
                v.serialize_field(k, &(i as u8))?;
            }
            v.end()
        } else {
            let mut v = s.serialize_struct("Announced", self.announced)?;
            for (i, k) in keys.iter().take(self.writes).enumerate() {
                if i == 1 {
                    v.serialize_field(k, "text")?;
                } else {
                    v.serialize_field(k, &(i as u64))?;
                }
            }
            v.end()
        }
    }
}

#[test]
fn struct_length_hints_that_lie() {
    let cases = (0..=3)
        .flat_map(|a| (0..=3).map(move |w| (a, w)))
        .flat_map(|(a, w)| [false, true].map(|v| (a, w, v)))
        .flat_map(|(a, w, v)| (0..3).map(move |r| (a, w, v, r)));
    for (announced, writes, variant, rotate) in cases {
        let a = Announced {
            announced,
            writes,
            variant,
            rotate,
        };
        let shapes = (
            vec![a.clone(), a.clone()],
            BTreeMap::from([(1u8, a.clone()), (2, a.clone())]),
        );
        if announced == 0 && writes > 0 {
            // serde_json's pretty writer underflows its indentation here
            // (it panics in debug builds): compact only.
            let compact = |v: &dyn erased::Ser| assert_eq!(v.ito(), v.serde_json(), "{a:?}");
            compact(&a);
            compact(&shapes.0);
            compact(&shapes.1);
        } else {
            same(&a);
            same(&shapes.0);
            same(&shapes.1);
        }
        // Options change how strings are escaped, not the structure: the
        // same bytes as serde_json here (ASCII keys and values).
        let opts = Options::new().ascii_only(true).escape_slash(true);
        assert_eq!(
            json::to_vec_with(&a, &opts).unwrap(),
            serde_json::to_vec(&a).unwrap(),
            "{a:?}"
        );
    }
}

mod erased {
    /// Compact output of both serializers, for a `dyn` value.
    pub(crate) trait Ser {
        fn ito(&self) -> Vec<u8>;
        fn serde_json(&self) -> Vec<u8>;
    }

    impl<T: serde::Serialize> Ser for T {
        fn ito(&self) -> Vec<u8> {
            let mut borrowed = Vec::new();
            self.serialize(&mut ito::json::Serializer::new(&mut borrowed))
                .unwrap();
            let owned = ito::json::to_vec(self).unwrap();
            assert_eq!(owned, borrowed);
            owned
        }
        fn serde_json(&self) -> Vec<u8> {
            serde_json::to_vec(self).unwrap()
        }
    }
}
