//! ito's serde serializer against serde_json, byte for byte, on every
//! serde data-model shape: derive attributes, enum representations, map
//! keys of every kind, integers and floats at their edges, as generated
//! values; and error parity. (Split from `json_serde.rs`; see there.)
#![cfg(feature = "serde")]

mod common;
mod json_serde_shared;

use std::collections::BTreeMap;
use std::io;

use ito::json;
use json_serde_shared::{f32_edge, f64_edge, i64_edge, same, text, u64_edge, PairMap};
use proptest::prelude::*;
use serde::Serialize;

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

proptest! {
    #![proptest_config(common::proptest_config(1000))]

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
