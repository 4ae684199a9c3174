//! JSONTestSuite (data/jsontestsuite) string cases: every `y_string_*`
//! accepted with serde_json's value, every `n_string_*` rejected, and each
//! `i_string_*` case decided as the policy table in `ito::json`'s docs says.

use std::path::PathBuf;

use ito::json::{self, Error, ErrorKind, Options};
use ito::Kernel;

fn suite_dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/jsontestsuite"
    ))
}

fn cases(prefix: &str) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<_> = std::fs::read_dir(suite_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            name.starts_with(prefix) && name.ends_with(".json")
        })
        .map(|p| {
            let name = p.file_name().unwrap().to_str().unwrap().to_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// Reads a document of the form `ws [? ws STRING ws ]? ws` with `unquote`
/// for the string (the shape of every string case in the suite).
fn read_doc(doc: &[u8], kernel: Kernel) -> Result<String, String> {
    let ws = |i: &mut usize| {
        while *i < doc.len() && matches!(doc[*i], b' ' | b'\t' | b'\n' | b'\r') {
            *i += 1;
        }
    };
    let mut i = 0;
    ws(&mut i);
    let array = doc.get(i) == Some(&b'[');
    if array {
        i += 1;
        ws(&mut i);
    }
    let (value, used) =
        json::unquote_with_kernel(kernel, &doc[i..]).map_err(|e: Error| e.to_string())?;
    i += used;
    ws(&mut i);
    if array {
        if doc.get(i) != Some(&b']') {
            return Err(format!("expected `]` at byte {i}"));
        }
        i += 1;
        ws(&mut i);
    }
    if i != doc.len() {
        return Err(format!("trailing bytes at {i}"));
    }
    Ok(value.into_owned())
}

#[test]
fn y_string_cases_accepted_with_serde_value() {
    let ys = cases("y_string_");
    assert!(ys.len() >= 40);
    for (name, doc) in ys {
        let want: serde_json::Value = serde_json::from_slice(&doc).unwrap();
        let want = match want {
            serde_json::Value::String(s) => s,
            serde_json::Value::Array(mut a) if a.len() == 1 => match a.remove(0) {
                serde_json::Value::String(s) => s,
                other => panic!("{name}: {other:?}"),
            },
            other => panic!("{name}: {other:?}"),
        };
        for k in Kernel::available() {
            let got = read_doc(&doc, k).unwrap_or_else(|e| panic!("{name} ({k}): {e}"));
            assert_eq!(got, want, "{name} ({k})");
            // And back: quoting the value gives serde_json's bytes.
            let mut q = Vec::new();
            json::quote(&mut q, &got);
            assert_eq!(q, serde_json::to_vec(&want).unwrap(), "{name}");
        }
    }
}

#[test]
fn n_string_cases_rejected() {
    let ns = cases("n_string_");
    assert!(ns.len() >= 25);
    for (name, doc) in ns {
        assert!(serde_json::from_slice::<serde_json::Value>(&doc).is_err());
        for k in Kernel::available() {
            assert!(read_doc(&doc, k).is_err(), "{name} accepted by {k}");
        }
    }
}

fn wtf8(u: u16) -> Vec<u8> {
    let u = u as u32;
    vec![
        0xE0 | (u >> 12) as u8,
        0x80 | ((u >> 6) & 0x3F) as u8,
        0x80 | (u & 0x3F) as u8,
    ]
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// The bytes between the first and the last `"` of a document.
fn body(doc: &[u8]) -> &[u8] {
    let a = doc.iter().position(|&b| b == b'"').unwrap();
    let z = doc.iter().rposition(|&b| b == b'"').unwrap();
    &doc[a + 1..z]
}

#[test]
fn i_string_cases_follow_documented_policy() {
    let is = cases("i_string_");
    assert!(is.len() >= 20);
    let replace = Options::new().replace_invalid(true);
    let keep = Options::new().wtf8(true);
    let fffd = "\u{FFFD}".as_bytes();
    // (name, replace_invalid output, wtf8 output) for the surrogate cases.
    let surrogates: Vec<(&str, Vec<u8>, Vec<u8>)> = vec![
        (
            "i_string_1st_surrogate_but_2nd_missing.json",
            fffd.to_vec(),
            wtf8(0xDADA),
        ),
        (
            "i_string_1st_valid_surrogate_2nd_invalid.json",
            cat(&[fffd, "\u{1234}".as_bytes()]),
            cat(&[&wtf8(0xD888), "\u{1234}".as_bytes()]),
        ),
        (
            "i_string_incomplete_surrogate_and_escape_valid.json",
            cat(&[fffd, b"\n"]),
            cat(&[&wtf8(0xD800), b"\n"]),
        ),
        (
            "i_string_incomplete_surrogate_pair.json",
            cat(&[fffd, b"a"]),
            cat(&[&wtf8(0xDD1E), b"a"]),
        ),
        (
            "i_string_incomplete_surrogates_escape_valid.json",
            cat(&[fffd, fffd, b"\n"]),
            cat(&[&wtf8(0xD800), &wtf8(0xD800), b"\n"]),
        ),
        (
            "i_string_invalid_lonely_surrogate.json",
            fffd.to_vec(),
            wtf8(0xD800),
        ),
        (
            "i_string_invalid_surrogate.json",
            cat(&[fffd, b"abc"]),
            cat(&[&wtf8(0xD800), b"abc"]),
        ),
        (
            "i_string_inverted_surrogates_U+1D11E.json",
            cat(&[fffd, fffd]),
            cat(&[&wtf8(0xDD1E), &wtf8(0xD834)]),
        ),
        (
            "i_string_lone_second_surrogate.json",
            fffd.to_vec(),
            wtf8(0xDFAA),
        ),
    ];
    let utf16 = [
        "i_string_UTF-16LE_with_BOM.json",
        "i_string_utf16BE_no_BOM.json",
        "i_string_utf16LE_no_BOM.json",
    ];
    let mut seen = 0;
    for (name, doc) in &is {
        for k in Kernel::available() {
            if utf16.contains(&name.as_str()) {
                assert!(read_doc(doc, k).is_err(), "{name}");
                seen += 1;
                continue;
            }
            let text = body(doc);
            let default = json::unescape_with_kernel(k, &mut Vec::new(), text, &Options::new());
            let err = default.expect_err(name);
            assert!(read_doc(doc, k).is_err(), "{name}");
            if let Some((_, rep, w)) = surrogates.iter().find(|c| c.0 == name) {
                assert!(matches!(err.kind(), ErrorKind::LoneSurrogate(_)), "{name}");
                let mut out = Vec::new();
                json::unescape_with_kernel(k, &mut out, text, &replace).unwrap();
                assert_eq!(&out, rep, "{name} replace");
                out.clear();
                json::unescape_with_kernel(k, &mut out, text, &keep).unwrap();
                assert_eq!(&out, w, "{name} wtf8");
            } else {
                // Every other i_string case is invalid UTF-8 in the text.
                assert_eq!(err.kind(), ErrorKind::InvalidUtf8, "{name}");
                assert_eq!(
                    err.offset(),
                    std::str::from_utf8(text).unwrap_err().valid_up_to(),
                    "{name}"
                );
                let mut out = Vec::new();
                json::unescape_with_kernel(k, &mut out, text, &replace).unwrap();
                assert_eq!(out, String::from_utf8_lossy(text).as_bytes(), "{name}");
                let e = json::unescape_with_kernel(k, &mut out, text, &keep).unwrap_err();
                assert_eq!(e.kind(), ErrorKind::InvalidUtf8, "{name}");
            }
            seen += 1;
        }
    }
    assert_eq!(seen, is.len() * Kernel::available().count());
}
