//! Rendering a [`Value`] as JSON text, byte-identical with serde_json's
//! `to_vec` (compact) and `to_vec_pretty` (two-space indent, `": "`) of
//! the same document with its keys in the same order.
//!
//! One recursive walk per mode appends to a `Vec<u8>` through the
//! serializer's own token writers (`json::emit`): integers by `itoa`,
//! floats by `zmij` (serde_json's text), strings by the escaper; a
//! borrowed (known JSON-safe) string is copied between quotes without a
//! scan.

use std::fmt;

use crate::json::emit;

use super::Value;

impl Value<'_> {
    /// Appends the compact JSON text of the value to `out`.
    ///
    /// ```
    /// let mut out = b"x=".to_vec();
    /// ito::json!({"a": [1, 2.5, "s"]}).write_to(&mut out);
    /// assert_eq!(out, br#"x={"a":[1,2.5,"s"]}"#);
    /// ```
    pub fn write_to(&self, out: &mut Vec<u8>) {
        compact(self, out)
    }

    /// Appends the pretty JSON text of the value to `out` (serde_json's
    /// `to_vec_pretty`).
    ///
    /// ```
    /// let mut out = Vec::new();
    /// ito::json!({"a": [1]}).write_pretty_to(&mut out);
    /// assert_eq!(out, b"{\n  \"a\": [\n    1\n  ]\n}");
    /// ```
    pub fn write_pretty_to(&self, out: &mut Vec<u8>) {
        pretty(self, out, 0)
    }

    /// The compact JSON text, as bytes.
    ///
    /// ```
    /// assert_eq!(ito::json!([null, true]).to_vec(), b"[null,true]");
    /// ```
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::new();
        compact(self, &mut out);
        out
    }

    /// The pretty JSON text, as bytes.
    ///
    /// ```
    /// assert_eq!(ito::json!([]).to_vec_pretty(), b"[]");
    /// ```
    pub fn to_vec_pretty(&self) -> Vec<u8> {
        let mut out = Vec::new();
        pretty(self, &mut out, 0);
        out
    }

    /// The pretty JSON text.
    ///
    /// ```
    /// assert_eq!(ito::json!({"a": {}}).to_string_pretty(), "{\n  \"a\": {}\n}");
    /// ```
    pub fn to_string_pretty(&self) -> String {
        // SAFETY: the writers emit UTF-8 (strings are `str`, escapes ASCII).
        unsafe { String::from_utf8_unchecked(self.to_vec_pretty()) }
    }
}

fn compact(v: &Value<'_>, out: &mut Vec<u8>) {
    match v {
        Value::Null => emit::null(out),
        Value::Bool(b) => emit::bool(out, *b),
        Value::Number(n) => n.render(out),
        Value::String(s) => s.render(out),
        Value::Array(a) => {
            out.push(b'[');
            let mut first = true;
            for x in a {
                if !first {
                    out.push(b',');
                }
                first = false;
                compact(x, out);
            }
            out.push(b']');
        }
        Value::Object(o) => {
            out.push(b'{');
            let mut first = true;
            for (k, x) in o.entries() {
                if !first {
                    out.push(b',');
                }
                first = false;
                k.render(out);
                out.push(b':');
                compact(x, out);
            }
            out.push(b'}');
        }
    }
}

fn pretty(v: &Value<'_>, out: &mut Vec<u8>, depth: usize) {
    match v {
        Value::Array(a) if !a.is_empty() => {
            out.push(b'[');
            for (i, x) in a.iter().enumerate() {
                emit::newline_indent(out, i == 0, depth + 1);
                pretty(x, out, depth + 1);
            }
            emit::newline_indent(out, true, depth);
            out.push(b']');
        }
        Value::Object(o) if !o.is_empty() => {
            out.push(b'{');
            for (i, (k, x)) in o.entries().iter().enumerate() {
                emit::newline_indent(out, i == 0, depth + 1);
                k.render(out);
                out.extend_from_slice(b": ");
                pretty(x, out, depth + 1);
            }
            emit::newline_indent(out, true, depth);
            out.push(b'}');
        }
        _ => compact(v, out),
    }
}

impl fmt::Display for Value<'_> {
    /// Compact JSON text; `{:#}` gives the pretty text (as serde_json).
    ///
    /// ```
    /// let v = ito::json!({"a": 1});
    /// assert_eq!(format!("{v}"), r#"{"a":1}"#);
    /// assert_eq!(format!("{v:#}"), "{\n  \"a\": 1\n}");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let out = if f.alternate() {
            self.to_vec_pretty()
        } else {
            self.to_vec()
        };
        // SAFETY: the writers emit UTF-8 (strings are `str`, escapes ASCII).
        f.write_str(unsafe { std::str::from_utf8_unchecked(&out) })
    }
}
