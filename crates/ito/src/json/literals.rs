//! [`literals`]: every string literal of a JSON document, decoded.

use std::borrow::Cow;

use super::{unquote, Error};

/// An iterator over the decoded string literals (object keys and string
/// values) of a JSON document, with the byte offset of each opening quote.
///
/// Outside strings, a `"` can only open a string, so the scan needs no
/// parser: find the next `"`, [`unquote`] from there, continue after the
/// closing quote. The rest of the document is not validated; a malformed
/// literal yields one `Err` (offset relative to the whole document) and ends
/// the iteration.
///
/// ```
/// let doc = br#"{"name": "ito", "tags": ["fast", "correct\n"], "n": 3}"#;
/// let found: Vec<String> = ito::json::literals(doc)
///     .map(|r| r.unwrap().1.into_owned())
///     .collect();
/// assert_eq!(found, ["name", "ito", "tags", "fast", "correct\n", "n"]);
///
/// let mut bad = ito::json::literals(br#"["ok", "bad \q"]"#);
/// assert!(bad.next().unwrap().is_ok());
/// assert_eq!(bad.next().unwrap().unwrap_err().offset(), 12); // the `\`
/// assert!(bad.next().is_none());
/// ```
pub fn literals(document: &[u8]) -> Literals<'_> {
    Literals {
        document,
        position: 0,
    }
}

/// The iterator returned by [`literals`]: each item is the byte offset of
/// a literal's opening quote and its decoded text.
///
/// ```
/// let mut it: ito::json::Literals<'_> = ito::json::literals(br#"{"k": "a\u00e9"}"#);
/// assert_eq!(it.next().unwrap().unwrap(), (1, "k".into()));
/// assert_eq!(it.next().unwrap().unwrap(), (6, "a\u{e9}".into()));
/// assert!(it.next().is_none());
/// ```
#[derive(Clone, Debug)]
pub struct Literals<'a> {
    document: &'a [u8],
    position: usize,
}

impl<'a> Iterator for Literals<'a> {
    type Item = Result<(usize, Cow<'a, str>), Error>;

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.document.get(self.position..)?;
        let start = self.position + rest.iter().position(|&b| b == b'"')?;
        match unquote(&self.document[start..]) {
            Ok((value, used)) => {
                self.position = start + used;
                Some(Ok((start, value)))
            }
            Err(e) => {
                self.position = self.document.len() + 1; // stop
                Some(Err(Error::new(start + e.offset(), e.kind())))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_serde_json_on_the_corpus() {
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
        let doc = include_str!("../../../../data/corpus/twitter.json");
        let mut expected = Vec::new();
        walk(&serde_json::from_str(doc).unwrap(), &mut expected);
        let mut found: Vec<String> = literals(doc.as_bytes())
            .map(|r| r.unwrap().1.into_owned())
            .collect();
        // serde_json's Map is sorted by key, so compare as multisets.
        expected.sort();
        found.sort();
        assert_eq!(found, expected);
    }

    #[test]
    fn offsets_point_at_opening_quotes() {
        let doc = br#"{"a":"b"}"#;
        let offsets: Vec<usize> = literals(doc).map(|r| r.unwrap().0).collect();
        assert_eq!(offsets, [1, 5]);
        assert!(literals(b"[1, 2]").next().is_none());
        let err = literals(br#"["x"#).next().unwrap().unwrap_err();
        assert_eq!(err.kind(), crate::json::ErrorKind::Unterminated);
    }
}
