//! `json::layout`: `compact`, `pretty` and `sort_keys` against serde_json,
//! which reads every result back. The oracle for `sort_keys` is the input's
//! own tree (objects as member lists, in document order) with each object's
//! members stably sorted by key: it checks the order, the duplicates and
//! every value, while the token spellings are compared byte for byte
//! against `compact` of the same document.

use std::fs;

use ito::json::layout;
use proptest::prelude::*;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// A document as written: objects keep their members in order, duplicates
/// included.
#[derive(Debug, Clone, PartialEq)]
enum Tree {
    Scalar(serde_json::Value),
    Array(Vec<Tree>),
    Object(Vec<(String, Tree)>),
}

impl Tree {
    /// The same tree with every object's members stably sorted by key.
    fn sorted(&self) -> Tree {
        match self {
            Tree::Scalar(v) => Tree::Scalar(v.clone()),
            Tree::Array(items) => Tree::Array(items.iter().map(Tree::sorted).collect()),
            Tree::Object(members) => {
                let mut m: Vec<(String, Tree)> = members
                    .iter()
                    .map(|(k, v)| (k.clone(), v.sorted()))
                    .collect();
                m.sort_by(|a, b| a.0.cmp(&b.0));
                Tree::Object(m)
            }
        }
    }
}

impl<'de> Deserialize<'de> for Tree {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Tree, D::Error> {
        d.deserialize_any(TreeVisitor)
    }
}

struct TreeVisitor;

impl<'de> Visitor<'de> for TreeVisitor {
    type Value = Tree;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JSON")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Tree, E> {
        Ok(Tree::Scalar(v.into()))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Tree, E> {
        Ok(Tree::Scalar(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Tree, E> {
        Ok(Tree::Scalar(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Tree, E> {
        Ok(Tree::Scalar(v.into()))
    }
    fn visit_str<E>(self, v: &str) -> Result<Tree, E> {
        Ok(Tree::Scalar(v.into()))
    }
    fn visit_unit<E>(self) -> Result<Tree, E> {
        Ok(Tree::Scalar(serde_json::Value::Null))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tree, A::Error> {
        let mut items = Vec::new();
        while let Some(t) = seq.next_element()? {
            items.push(t);
        }
        Ok(Tree::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tree, A::Error> {
        let mut members = Vec::new();
        while let Some(kv) = map.next_entry::<String, Tree>()? {
            members.push(kv);
        }
        Ok(Tree::Object(members))
    }
}

fn tree(json: &[u8]) -> Tree {
    serde_json::from_slice(json)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(json)))
}

/// Every layout of `doc` against the oracle.
fn check(doc: &[u8]) {
    let original = tree(doc);
    let mut compact = Vec::new();
    layout::compact(&mut compact, doc);
    assert_eq!(tree(&compact), original);
    let mut twice = Vec::new();
    layout::compact(&mut twice, &compact);
    assert_eq!(twice, compact);

    let mut sorted = Vec::new();
    layout::sort_keys(&mut sorted, doc);
    assert_eq!(
        tree(&sorted),
        original.sorted(),
        "{}",
        String::from_utf8_lossy(doc)
    );
    // Same length as compact: only the order of members changes.
    assert_eq!(sorted.len(), compact.len());
    // Sorting twice changes nothing, and neither does the layout it starts from.
    let mut again = Vec::new();
    layout::sort_keys(&mut again, &sorted);
    assert_eq!(again, sorted);
    let mut from_compact = Vec::new();
    layout::sort_keys(&mut from_compact, &compact);
    assert_eq!(from_compact, sorted);

    let mut pretty = Vec::new();
    layout::pretty(&mut pretty, &sorted);
    assert_eq!(tree(&pretty), original.sorted());
    let mut back = Vec::new();
    layout::compact(&mut back, &pretty);
    assert_eq!(back, sorted);
}

#[test]
fn corpora() {
    for name in ["twitter", "citm_catalog", "canada"] {
        let path = format!(
            "{}/../../data/corpus/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        check(&fs::read(path).unwrap());
    }
}

#[test]
fn json_test_suite_accepted_files() {
    let dir = format!("{}/../../data/jsontestsuite", env!("CARGO_MANIFEST_DIR"));
    let mut n = 0;
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("y_") {
            check(&fs::read(&path).unwrap());
            n += 1;
        }
    }
    assert!(n > 90, "only {n} y_ files");
}

#[test]
fn order_is_code_point_order_of_the_unescaped_key() {
    let mut out = Vec::new();
    // U+FFFF sorts before U+1F600 by code point (and by UTF-8 bytes), after
    // it by UTF-16 units: the order is serde_json's and jq's, not JavaScript's.
    let doc = "{\"\u{1F600}\":1,\"\\uffff\":2,\"\\u0062\":3,\"a\":4,\"\":5,\"b\":6}";
    layout::sort_keys(&mut out, doc.as_bytes());
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "{\"\":5,\"a\":4,\"\\u0062\":3,\"b\":6,\"\\uffff\":2,\"\u{1F600}\":1}"
    );
}

#[test]
fn equal_keys_keep_document_order_in_large_objects() {
    // Past the sizes a sort handles by insertion (stable by accident).
    for n in [2, 19, 20, 21, 64, 1000] {
        let members: Vec<String> = (0..n)
            .map(|i| format!("\"{}\":{i}", ["c", "a", "\\u0061", "b"][i % 4]))
            .collect();
        check(format!("{{{}}}", members.join(",")).as_bytes());
    }
}

#[test]
fn text_that_is_not_json_is_safe() {
    let deep = "[{\"a\":".repeat(400);
    for bad in [
        "{\"b\":1,\"a\"",
        "{\"b\" 1 \"a\":}",
        "{:,}",
        "{]}",
        "}}{{",
        "{\"\\ud800\":1,\"\\\":2}",
        deep.as_str(),
    ] {
        for cut in 0..=bad.len() {
            let mut out = Vec::new();
            layout::sort_keys(&mut out, &bad.as_bytes()[..cut]);
        }
    }
}

/// Keys that collide once unescaped, and that order differently by bytes,
/// code points and UTF-16 units.
const KEYS: &[&str] = &[
    "",
    "a",
    "b",
    "ab",
    "é",
    "\u{ffff}",
    "\u{1F600}",
    "\"",
    "\\",
    "a\u{0}",
];

fn spelled(s: &str, escape: u8) -> String {
    let mut out = String::from("\"");
    for (n, c) in s.chars().enumerate() {
        let esc = escape >> (n % 8) & 1 == 1;
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || esc => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn ws(n: u8) -> &'static str {
    ["", " ", "\n", "\t", "\r", " \n\t\r "][n as usize % 6]
}

fn arb_doc() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("null".to_string()),
        Just("true".to_string()),
        Just("-0.50e+1".to_string()),
        any::<i32>().prop_map(|n| n.to_string()),
        (0..KEYS.len(), any::<u8>()).prop_map(|(k, e)| spelled(KEYS[k], e)),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            (prop::collection::vec((inner.clone(), any::<u8>()), 0..6)).prop_map(|items| {
                let body: Vec<String> = items
                    .into_iter()
                    .map(|(v, w)| format!("{}{v}{}", ws(w), ws(w / 7)))
                    .collect();
                format!("[{}]", body.join(","))
            }),
            (prop::collection::vec((0..KEYS.len(), any::<u8>(), inner, any::<u8>()), 0..6))
                .prop_map(|members| {
                    let body: Vec<String> = members
                        .into_iter()
                        .map(|(k, e, v, w)| {
                            format!(
                                "{}{}{}:{}{v}{}",
                                ws(w),
                                spelled(KEYS[k], e),
                                ws(w / 3),
                                ws(w / 5),
                                ws(w / 7)
                            )
                        })
                        .collect();
                    format!("{{{}}}", body.join(","))
                }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn prop_sorted_trees(doc in arb_doc(), w in any::<u8>()) {
        let doc = format!("{}{doc}{}", ws(w), ws(w / 6));
        check(doc.as_bytes());
    }
}
