//! Shared by the `json_serde*` test binaries (ito's serde serializer
//! against serde_json): the comparison through every entry point, a map
//! over any key type, and the proptest strategies for text and numbers.
//! Each binary uses part of it.
#![allow(dead_code)]

use ito::json;
use proptest::prelude::*;
use serde::Serialize;

/// Asserts compact and pretty output equal serde_json's, through every
/// entry point.
#[track_caller]
pub(crate) fn same<T: ?Sized + Serialize>(value: &T) {
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

/// A map whose keys serialize through any `Serialize`: the key shapes
/// serde_json turns into strings.
#[derive(Clone, Debug)]
pub(crate) struct PairMap<K, V>(pub(crate) Vec<(K, V)>);

impl<K: Serialize, V: Serialize> Serialize for PairMap<K, V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

pub(crate) fn text() -> impl Strategy<Value = String> {
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

pub(crate) fn f64_edge() -> impl Strategy<Value = f64> {
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

pub(crate) fn f32_edge() -> impl Strategy<Value = f32> {
    prop_oneof![
        3 => any::<f32>(),
        1 => prop::sample::select(vec![
            0.0f32, -0.0, 1e-45, f32::MIN_POSITIVE, f32::MAX, f32::NAN, f32::INFINITY, 0.1, 16777217.0,
        ]),
    ]
}

pub(crate) fn i64_edge() -> impl Strategy<Value = i64> {
    prop_oneof![
        3 => any::<i64>(),
        1 => prop::sample::select(vec![
            0, -1, i64::MIN, i64::MAX, (1 << 53) + 1, (1 << 53) - 1, -(1 << 53) - 1,
        ]),
    ]
}

pub(crate) fn u64_edge() -> impl Strategy<Value = u64> {
    prop_oneof![3 => any::<u64>(), 1 => prop::sample::select(vec![0, u64::MAX, (1 << 53) + 1])]
}
