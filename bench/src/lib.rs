//! Shared corpus loading for ito's criterion benchmarks.
//!
//! The corpora are embedded at compile time from `data/corpus/` so the
//! benchmarks never read anything outside the repository.

/// twitter.json, as distributed with simdjson's `jsonexamples/`.
pub const TWITTER: &str = include_str!("../../data/corpus/twitter.json");
/// citm_catalog.json, as distributed with simdjson's `jsonexamples/`.
pub const CITM: &str = include_str!("../../data/corpus/citm_catalog.json");

/// Every string (object keys and string values) of a JSON document, in
/// document order.
pub fn strings_of(document: &str) -> Vec<String> {
    fn walk(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            serde_json::Value::Object(map) => {
                for (k, v) in map {
                    out.push(k.clone());
                    walk(v, out);
                }
            }
            _ => {}
        }
    }
    let value: serde_json::Value = serde_json::from_str(document).expect("corpus is valid JSON");
    let mut out = Vec::new();
    walk(&value, &mut out);
    out
}

/// All strings of twitter.json followed by all strings of citm_catalog.json.
pub fn corpus_strings() -> Vec<String> {
    let mut all = strings_of(TWITTER);
    all.extend(strings_of(CITM));
    all
}

/// The raw JSON string literals (with quotes and escapes, as they appear in
/// the document) of twitter.json: the input of the `unquote` benchmarks.
pub fn quoted_literals_of(document: &str) -> Vec<String> {
    strings_of(document)
        .iter()
        .map(|s| serde_json::to_string(s).expect("strings serialize"))
        .collect()
}
