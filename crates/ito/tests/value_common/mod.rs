//! Shared by the `json_value*` tests: the data files, and `Doc`, a
//! document-order tree read and written by serde_json.

#![allow(dead_code)]

use std::path::PathBuf;

use serde::de::{self, Deserialize, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};

use ito::json::Value;

fn data(dir: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data")).join(dir)
}

/// JSONTestSuite's files, by name.
pub(crate) fn suite() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<_> = std::fs::read_dir(data("jsontestsuite"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let name = p.file_name().unwrap().to_str().unwrap().to_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// A corpus document (`data/corpus`).
pub(crate) fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(data("corpus").join(name)).unwrap()
}

/// A JSON document with object members in document order.
#[derive(Debug, PartialEq, Clone)]
pub(crate) enum Doc {
    Null,
    Bool(bool),
    Num(serde_json::Number),
    Str(String),
    Arr(Vec<Doc>),
    Obj(Vec<(String, Doc)>),
}

/// `v` as a `Doc`.
pub(crate) fn doc_of(v: &Value<'_>) -> Doc {
    match v {
        Value::Null => Doc::Null,
        Value::Bool(b) => Doc::Bool(*b),
        Value::Number(n) => Doc::Num(if let Some(u) = n.as_u64() {
            u.into()
        } else if let Some(i) = n.as_i64() {
            i.into()
        } else {
            serde_json::Number::from_f64(n.as_f64().unwrap()).unwrap()
        }),
        Value::String(s) => Doc::Str(s.to_string()),
        Value::Array(a) => Doc::Arr(a.iter().map(doc_of).collect()),
        Value::Object(o) => Doc::Obj(o.iter().map(|(k, v)| (k.to_owned(), doc_of(v))).collect()),
    }
}

impl<'de> Deserialize<'de> for Doc {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Doc, D::Error> {
        d.deserialize_any(DocVisitor)
    }
}

struct DocVisitor;

impl<'de> Visitor<'de> for DocVisitor {
    type Value = Doc;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any valid JSON value")
    }
    fn visit_unit<E>(self) -> Result<Doc, E> {
        Ok(Doc::Null)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Doc, E> {
        Ok(Doc::Bool(b))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Doc, E> {
        Ok(Doc::Num(n.into()))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Doc, E> {
        Ok(Doc::Num(n.into()))
    }
    fn visit_f64<E>(self, f: f64) -> Result<Doc, E> {
        Ok(serde_json::Number::from_f64(f).map_or(Doc::Null, Doc::Num))
    }
    fn visit_str<E>(self, s: &str) -> Result<Doc, E> {
        Ok(Doc::Str(s.to_owned()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Doc, A::Error> {
        let mut out = Vec::new();
        while let Some(x) = seq.next_element()? {
            out.push(x);
        }
        Ok(Doc::Arr(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Doc, A::Error> {
        // serde_json with `preserve_order`: a repeated key keeps its first
        // position and takes the last value.
        let mut out: Vec<(String, Doc)> = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, Doc>()? {
            match out.iter_mut().find(|(o, _)| *o == k) {
                Some(slot) => slot.1 = v,
                None => out.push((k, v)),
            }
        }
        Ok(Doc::Obj(out))
    }
}

impl Serialize for Doc {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Doc::Null => s.serialize_unit(),
            Doc::Bool(b) => s.serialize_bool(*b),
            Doc::Num(n) => n.serialize(s),
            Doc::Str(x) => s.serialize_str(x),
            Doc::Arr(a) => s.collect_seq(a),
            Doc::Obj(o) => {
                let mut m = s.serialize_map(Some(o.len()))?;
                for (k, v) in o {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
        }
    }
}
