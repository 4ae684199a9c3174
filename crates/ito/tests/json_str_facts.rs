//! `Str` read by ito's deserializer and written by ito's serializer: the
//! facts the parser's scan hands to `Str` (a string with no escape is known
//! JSON-safe and is later copied without a second look) never change the
//! output. Parse-then-render with `Str` fields must give serde_json's bytes
//! for the corpora and for random strings with every escape, control byte,
//! non-ASCII character and U+2028; other deserializers still fill `Str`.

#![cfg(feature = "serde")]

#[path = "../../../bench/src/docs.rs"]
#[allow(dead_code, unreachable_pub)]
mod docs;

use std::collections::{BTreeMap, HashMap};

use ito::Str;
use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// `text` read with ito into `T<Str>` and written with ito, against the
/// same text read with serde_json into `T<String>` and written with
/// serde_json; both byte for byte, from `&str` and from bytes.
#[track_caller]
fn same_render<Ours, Theirs>(text: &str)
where
    Ours: DeserializeOwned + Serialize,
    Theirs: DeserializeOwned + Serialize,
{
    let want = serde_json::to_vec(&serde_json::from_str::<Theirs>(text).unwrap()).unwrap();
    let ours: Ours = ito::json::from_str(text).unwrap();
    let got = ito::json::to_vec(&ours).unwrap();
    assert!(got == want, "from_str differs:\n{}", show(&got, &want));
    // Rendered twice: the facts learned by the first rendering are true.
    assert!(ito::json::to_vec(&ours).unwrap() == want);
    let ours: Ours = ito::json::from_slice(text.as_bytes()).unwrap();
    let got = ito::json::to_vec(&ours).unwrap();
    assert!(got == want, "from_slice differs:\n{}", show(&got, &want));
}

fn show(got: &[u8], want: &[u8]) -> String {
    let at = got.iter().zip(want).take_while(|(a, b)| a == b).count();
    let around = |v: &[u8]| {
        String::from_utf8_lossy(&v[at.saturating_sub(40)..(at + 40).min(v.len())]).into_owned()
    };
    format!(
        "at byte {at}\n ito:        {}\n serde_json: {}",
        around(got),
        around(want)
    )
}

fn corpus(name: &str) -> String {
    let path = format!("{}/../../data/corpus/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn corpora_render_as_serde_json() {
    same_render::<docs::with_str::Twitter, docs::Twitter>(&corpus("twitter.json"));
    same_render::<docs::with_str::Citm, docs::Citm>(&corpus("citm_catalog.json"));
    same_render::<docs::with_str::Canada, docs::Canada>(&corpus("canada.json"));
}

/// Every place a `Str` can sit: a field, an option, a sequence element,
/// a map value and a map key (ordered, so both renderings agree).
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Shapes<S: Ord> {
    field: S,
    option: Option<S>,
    none: Option<S>,
    list: Vec<S>,
    map: BTreeMap<S, S>,
    nested: Vec<BTreeMap<S, Vec<Option<S>>>>,
}

/// A JSON string literal for `s`, each character spelled at random (when
/// `spell` says so) as itself, a short escape or a `\u` escape (surrogate
/// pairs above U+FFFF, either hex case).
fn spell(s: &str, choices: &[u8]) -> String {
    let mut out = String::from("\"");
    for (i, c) in s.chars().enumerate() {
        let choice = choices.get(i % choices.len().max(1)).copied().unwrap_or(0) % 4;
        let must_escape = c == '"' || c == '\\' || (c as u32) < 0x20;
        let short = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '/' => Some("\\/"),
            '\u{8}' => Some("\\b"),
            '\u{c}' => Some("\\f"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            _ => None,
        };
        match (choice, short) {
            (0, _) if !must_escape => out.push(c),
            (1, Some(e)) => out.push_str(e),
            _ => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    if choice == 3 {
                        out.push_str(&format!("\\u{u:04X}"));
                    } else {
                        out.push_str(&format!("\\u{u:04x}"));
                    }
                }
            }
        }
    }
    out.push('"');
    out
}

/// Characters that matter here, weighted towards the tricky ones.
fn any_char() -> impl Strategy<Value = char> {
    prop_oneof![
        6 => proptest::char::range('a', 'z'),
        2 => proptest::char::range('\0', '\u{7f}'),
        1 => Just('"'),
        1 => Just('\\'),
        1 => Just('/'),
        1 => Just('\u{7f}'),
        1 => Just('\u{2028}'),
        1 => Just('\u{2029}'),
        1 => Just('é'),
        1 => Just('糸'),
        1 => Just('\u{1F600}'),
        1 => any::<char>(),
    ]
}

/// Short (inline) and long (heap) strings alike.
fn any_string() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::collection::vec(any_char(), 0..24),
        proptest::collection::vec(any_char(), 24..80),
        // Long and clean but for one character somewhere.
        (
            proptest::collection::vec(proptest::char::range('a', 'z'), 24..80),
            any_char(),
            any::<prop::sample::Index>()
        )
            .prop_map(|(mut v, c, i)| {
                let at = i.index(v.len());
                v[at] = c;
                v
            }),
    ]
    .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// One string, however spelled, in every shape: rendered as serde_json
    /// renders it.
    #[test]
    fn random_strings_render_as_serde_json(
        strings in proptest::collection::vec(any_string(), 1..6),
        choices in proptest::collection::vec(any::<u8>(), 1..16),
    ) {
        let lits: Vec<String> = strings.iter().map(|s| spell(s, &choices)).collect();
        let lit = |i: usize| lits[i % lits.len()].as_str();
        let text = format!(
            r#"{{"field": {}, "option": {}, "none": null, "list": [{}, {}],
                "map": {{{}: {}, {}: {}}}, "nested": [{{{}: [{}, null]}}]}}"#,
            lit(0), lit(1), lit(2), lit(3), lit(4), lit(0), lit(1), lit(2), lit(3), lit(4),
        );
        same_render::<Shapes<Str>, Shapes<String>>(&text);
        // And one bare string, and a string inside a `HashMap` value.
        for l in &lits {
            same_render::<Str, String>(l);
            let one = format!("{{\"k\": {l}}}");
            same_render::<HashMap<String, Str>, HashMap<String, String>>(&one);
        }
    }
}

/// Strings each holding one byte that must be escaped (or a character that
/// need not be), long enough for the heap: re-rendered as serde_json does.
#[test]
fn every_special_character_renders_as_serde_json() {
    let pad = "x".repeat(30);
    for c in (0u32..0x80).chain([0x2028, 0x2029, 0xe9, 0x1F600]) {
        let c = char::from_u32(c).unwrap();
        for s in [format!("{pad}{c}"), format!("{c}{pad}"), format!("{c}")] {
            for choices in [&[0u8][..], &[1], &[2], &[3]] {
                same_render::<Str, String>(&spell(&s, choices));
            }
        }
    }
}

/// Errors through the facts path are serde_json's (text and position).
#[test]
fn errors_match_serde_json() {
    for text in [
        "",
        " ",
        "1",
        "null",
        "true",
        "[]",
        "{}",
        "\"abc",
        "\"a\\",
        "\"a\\x\"",
        "\"a\u{1}\"",
        "\"\\ud800\"",
        "\"\\udc00\"",
        "{\"a\":1}",
        "{1:\"a\"}",
    ] {
        let ours = ito::json::from_str::<Str>(text).map_err(|e| e.to_string());
        let theirs = serde_json::from_str::<String>(text).map_err(|e| e.to_string());
        assert_eq!(ours.map(String::from), theirs, "{text:?}");
        let ours = ito::json::from_str::<Vec<Str>>(&format!("[{text}]")).map_err(|e| e.to_string());
        let theirs =
            serde_json::from_str::<Vec<String>>(&format!("[{text}]")).map_err(|e| e.to_string());
        assert_eq!(
            ours.map(|v| v.into_iter().map(String::from).collect()),
            theirs,
            "[{text}]"
        );
        let doc = format!("{{{text}: 1}}");
        let ours = ito::json::from_str::<BTreeMap<Str, u8>>(&doc).map_err(|e| e.to_string());
        let theirs = serde_json::from_str::<BTreeMap<String, u8>>(&doc).map_err(|e| e.to_string());
        let ours = ours.map(|m| m.into_iter().map(|(k, v)| (String::from(k), v)).collect());
        assert_eq!(ours, theirs, "{doc:?}");
    }
    // Invalid UTF-8 in a clean string and in an escaped one (bytes only).
    for bytes in [
        &b"\"abc\xff\""[..],
        b"\"\\n\xc3\"",
        b"\"\xed\xa0\x80 long enough for the heap\"",
    ] {
        let ours = ito::json::from_slice::<Str>(bytes).map_err(|e| e.to_string());
        let theirs = serde_json::from_slice::<String>(bytes).map_err(|e| e.to_string());
        assert_eq!(ours.map(String::from), theirs);
    }
}

/// Other deserializers keep the plain path: serde_json, a `Value`, and
/// ito's own parser behind serde's buffering (untagged enums, flatten).
#[test]
fn other_deserializers_still_fill_str() {
    let long = "a string long enough for the heap, with \\\"quotes\\\" and \\u00e9";
    let text = format!("\"{long}\"");
    let want: String = serde_json::from_str(&text).unwrap();
    let s: Str = serde_json::from_str(&text).unwrap();
    assert_eq!(s, want);
    assert!(!s.is_json_safe());
    let s = Str::deserialize(serde_json::Value::String(want.clone())).unwrap();
    assert_eq!(s, want);
    let s: Str = serde_json::from_slice(text.as_bytes()).unwrap();
    assert_eq!(
        ito::json::to_vec(&s).unwrap(),
        serde_json::to_vec(&want).unwrap()
    );

    #[derive(Deserialize, Serialize, Debug, PartialEq)]
    #[serde(untagged)]
    enum Either {
        Number(u32),
        Text(Str),
    }
    #[derive(Deserialize, Serialize, Debug, PartialEq)]
    struct Outer {
        #[serde(flatten)]
        inner: Inner,
        either: Either,
    }
    #[derive(Deserialize, Serialize, Debug, PartialEq)]
    struct Inner {
        name: Str,
    }
    let doc = format!(r#"{{"name": "clean and long enough for the heap", "either": {text}}}"#);
    let ours: Outer = ito::json::from_str(&doc).unwrap();
    let theirs: Outer = serde_json::from_str(&doc).unwrap();
    assert_eq!(ours, theirs);
    assert_eq!(
        ito::json::to_vec(&ours).unwrap(),
        serde_json::to_vec(&theirs).unwrap()
    );
}

/// A round trip as the module docs show it.
#[test]
fn clean_heap_strings_are_known_safe() {
    let text = r#"["a string long enough for the heap", "é and 糸, also long enough", "short"]"#;
    let v: Vec<Str> = ito::json::from_str(text).unwrap();
    assert!(v.iter().all(|s| s.is_json_safe()));
    assert!(v[0].is_heap() && v[0].is_ascii());
    assert!(!v[1].is_ascii());
    assert_eq!(
        ito::json::to_string(&v).unwrap(),
        serde_json::to_string(&v).unwrap()
    );
}

/// A struct whose field names take every path of the serializer's
/// key writing: short and clean, longer than 32 bytes, and needing escapes.
#[derive(Serialize, Deserialize)]
struct Names<S> {
    a: S,
    #[serde(rename = "a field name longer than thirty-two bytes")]
    long: S,
    #[serde(rename = "quote\"and/slash<é")]
    escaped: S,
}

/// `Str` fields (known JSON-safe or not, from the parser or not) are
/// written as `String` fields are, under every escaping policy and in
/// both layouts.
#[test]
fn str_fields_render_as_string_fields_under_every_policy() {
    let values = [
        "",
        "short",
        "clean and long enough for the heap",
        "/é<>&'\u{2028}\u{7f}\u{85} long enough for the heap",
        "needs \"escaping\"\n",
    ];
    let policies = [
        ito::json::Options::new(),
        ito::json::Options::new().ascii_only(true),
        ito::json::Options::new().escape_slash(true),
        ito::json::Options::new().html_safe(true),
        ito::json::Options::new().js_safe(true),
        ito::json::Options::new().escape_del_and_c1(true),
    ];
    for v in values {
        let theirs = Names {
            a: v.to_owned(),
            long: v.to_owned(),
            escaped: v.to_owned(),
        };
        let text = serde_json::to_string(&theirs).unwrap();
        let parsed: Names<Str> = ito::json::from_str(&text).unwrap();
        let built = Names {
            a: Str::from(v),
            long: Str::from(v),
            escaped: Str::from(v),
        };
        for ours in [&parsed, &built] {
            for o in &policies {
                let want = ito::json::to_vec_with(&theirs, o).unwrap();
                assert_eq!(
                    ito::json::to_vec_with(ours, o).unwrap(),
                    want,
                    "{v:?} {o:?}"
                );
                let want = ito::json::to_vec_pretty_with(&theirs, o).unwrap();
                assert_eq!(
                    ito::json::to_vec_pretty_with(ours, o).unwrap(),
                    want,
                    "{v:?} {o:?}"
                );
            }
            assert_eq!(
                ito::json::to_vec(ours).unwrap(),
                serde_json::to_vec(&theirs).unwrap()
            );
        }
    }
}
