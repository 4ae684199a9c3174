//! Shared corpus loading for ito's criterion benchmarks.
//!
//! The corpora are embedded at compile time from `data/corpus/` so the
//! benchmarks never read anything outside the repository.

/// twitter.json, as distributed with simdjson's `jsonexamples/`.
pub const TWITTER: &str = include_str!("../../data/corpus/twitter.json");
/// citm_catalog.json, as distributed with simdjson's `jsonexamples/`.
pub const CITM: &str = include_str!("../../data/corpus/citm_catalog.json");

/// Every string (object keys and string values) of a JSON document, in
/// document order, decoded by `ito::json::literals` (whose agreement with
/// serde_json on these corpora is a library test).
pub fn strings_of(document: &str) -> Vec<String> {
    ito::json::literals(document.as_bytes())
        .map(|literal| literal.expect("corpus is valid JSON").1.into_owned())
        .collect()
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
