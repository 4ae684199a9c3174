//! `ito::json::get` and `get_many` against the built document: every path
//! of every corpus document checked against `serde_json::Value::pointer`,
//! paths that do not exist, every prefix of documents, one-byte mutations,
//! escaped and duplicate keys, and whitespace of every kind between every
//! token.

use ito::json::{get, get_many, ErrorKind, PathItem, RawJson, MAX_DEPTH};
use serde_json::Value;

const TWITTER: &str = include_str!("../../../data/corpus/twitter.json");
const CITM: &str = include_str!("../../../data/corpus/citm_catalog.json");
const CANADA: &str = include_str!("../../../data/corpus/canada.json");

/// An owned path step, for enumerating.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Step {
    Key(String),
    Index(usize),
}

fn items(path: &[Step]) -> Vec<PathItem<'_>> {
    path.iter()
        .map(|s| match s {
            Step::Key(k) => PathItem::Key(k),
            Step::Index(n) => PathItem::Index(*n),
        })
        .collect()
}

/// RFC 6901 pointer of `path`.
fn pointer(path: &[Step]) -> String {
    let mut p = String::new();
    for s in path {
        p.push('/');
        match s {
            Step::Key(k) => p.push_str(&k.replace('~', "~0").replace('/', "~1")),
            Step::Index(n) => p.push_str(&n.to_string()),
        }
    }
    p
}

/// Every path of `v`, the empty one first, in document order.
fn all_paths(v: &Value, prefix: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(prefix.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                prefix.push(Step::Key(k.clone()));
                all_paths(x, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(a) => {
            for (n, x) in a.iter().enumerate() {
                prefix.push(Step::Index(n));
                all_paths(x, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn parse(raw: &RawJson) -> Value {
    serde_json::from_str(raw.as_str()).unwrap()
}

/// `get` and `get_many` agree with `pointer` on every path of `doc` (with
/// `get` alone on about `singles` of them, spread over the document: each
/// walks from the start).
fn check_document(doc: &str, singles: usize) {
    let value: Value = serde_json::from_str(doc).unwrap();
    let mut paths = Vec::new();
    all_paths(&value, &mut Vec::new(), &mut paths);
    let item_paths: Vec<Vec<PathItem>> = paths.iter().map(|p| items(p)).collect();
    let found = get_many(doc, &item_paths).unwrap();
    assert_eq!(found.len(), paths.len());
    for (p, f) in paths.iter().zip(&found) {
        let want = value.pointer(&pointer(p)).unwrap();
        let got = f.unwrap_or_else(|| panic!("{p:?} not found"));
        assert_eq!(&parse(got), want, "{p:?}");
        assert_eq!(got.as_str().trim(), got.as_str());
    }
    let stride = (paths.len() / singles).max(1);
    for (n, p) in paths.iter().enumerate().step_by(stride) {
        let got = get(doc, &item_paths[n]).unwrap().unwrap();
        assert_eq!(Some(got), found[n], "{p:?}");
        // Paths that do not exist below and beside it.
        let mut missing = p.clone();
        missing.push(Step::Key("\u{0}absent".into()));
        assert_eq!(get(doc, &items(&missing)).unwrap(), None, "{missing:?}");
        missing.pop();
        missing.push(Step::Index(usize::MAX));
        assert_eq!(get(doc, &items(&missing)).unwrap(), None, "{missing:?}");
        if let Some(last) = missing.pop() {
            missing.pop();
            let wrong = match last {
                Step::Key(k) => Step::Key(k + "\u{1}"),
                Step::Index(_) => Step::Index(1 << 40),
            };
            missing.push(wrong);
            assert_eq!(get(doc, &items(&missing)).unwrap(), None, "{missing:?}");
        }
    }
}

#[test]
fn corpus_twitter() {
    check_document(TWITTER, 300);
}

#[test]
fn corpus_citm() {
    check_document(CITM, 200);
}

#[test]
fn corpus_canada() {
    check_document(CANADA, 40);
}

#[test]
fn corpus_many_paths_in_one_walk() {
    // A few paths far apart, in an order unlike the document's, repeated.
    let paths = [
        ito::json_path!["search_metadata", "count"],
        ito::json_path!["statuses", 0, "user", "screen_name"],
        ito::json_path!["statuses", 99, "id_str"],
        ito::json_path!["statuses", 0, "user", "screen_name"],
        ito::json_path!["statuses", 0],
        ito::json_path!["statuses", 100],
        ito::json_path![],
    ];
    let value: Value = serde_json::from_str(TWITTER).unwrap();
    let found = get_many(TWITTER, &paths).unwrap();
    let want = [
        Some(&value["search_metadata"]["count"]),
        Some(&value["statuses"][0]["user"]["screen_name"]),
        Some(&value["statuses"][99]["id_str"]),
        Some(&value["statuses"][0]["user"]["screen_name"]),
        Some(&value["statuses"][0]),
        None,
        Some(&value),
    ];
    for (n, (f, w)) in found.iter().zip(want).enumerate() {
        assert_eq!(f.map(parse).as_ref(), w, "path {n}");
    }
    assert!(get_many(TWITTER, &[] as &[&[PathItem]]).unwrap().is_empty());
}

/// A document with every kind of value, its keys of distinct lengths in
/// each object (so one changed byte cannot make two keys equal).
const SMALL: &str = r#"{"a": [1, -2.5e+3, 0, true, false, null, "x\"y\\z\u00e9\ud83d\ude00", [], {}],
 "bb": {"c": {"dd": [[1, [2, [3]]], {"e": "caf\u00e9 é"}]}, "ee": "plain", "fff": 0.125},
 "ccc": "\t\n", "dddd": [{"a": 1, "bb": 2}, {"a": 3}], "eeeee": -0}"#;

fn small_paths() -> Vec<Vec<Step>> {
    let value: Value = serde_json::from_str(SMALL).unwrap();
    let mut paths = Vec::new();
    all_paths(&value, &mut Vec::new(), &mut paths);
    paths
}

#[test]
fn small_document_every_path() {
    check_document(SMALL, 1000);
}

#[test]
fn every_prefix_is_an_error_or_the_right_answer() {
    let paths = small_paths();
    let full: Vec<_> = paths
        .iter()
        .map(|p| get(SMALL, &items(p)).unwrap())
        .collect();
    let bytes = SMALL.as_bytes();
    for n in 0..bytes.len() {
        let prefix = &bytes[..n];
        for (p, want) in paths.iter().zip(&full) {
            match get(prefix, &items(p)) {
                Ok(got) => assert_eq!(got, *want, "prefix {n} path {p:?}"),
                Err(e) => assert!(e.offset() <= n, "prefix {n}: {e}"),
            }
        }
        let all: Vec<_> = paths.iter().map(|p| items(p)).collect();
        if let Ok(got) = get_many(prefix, &all) {
            assert_eq!(got, full, "prefix {n}");
        }
    }
    // Prefixes of twitter, 1 KiB apart, for a few paths.
    let t = TWITTER.as_bytes();
    let path = ito::json_path!["statuses", 50, "user", "id"];
    let want = get(t, path).unwrap();
    for n in (0..t.len()).step_by(1021) {
        if let Ok(got) = get(&t[..n], path) {
            assert_eq!(got, want, "twitter prefix {n}");
        }
    }
}

#[test]
fn one_byte_mutations() {
    let paths = small_paths();
    let all: Vec<_> = paths.iter().map(|p| items(p)).collect();
    let bytes = SMALL.as_bytes();
    let replacements = [
        b'"', b'\\', b'{', b'}', b'[', b']', b',', b':', b' ', b'0', b'a', b'e', b'-', b'.', 0,
        0x1f, 0x80, 0xff, b'n', b'u',
    ];
    let mut doc = bytes.to_vec();
    for at in 0..bytes.len() {
        for &r in &replacements {
            doc[at] = r;
            let oracle = serde_json::from_slice::<Value>(&doc).ok();
            let many = get_many(&doc, &all);
            for (n, p) in paths.iter().enumerate() {
                let one = get(&doc, &all[n]);
                if let Ok(Some(raw)) = one {
                    // Whatever is returned is one JSON value.
                    assert_eq!(RawJson::new(raw.as_str()).unwrap(), raw);
                }
                if let Some(v) = &oracle {
                    let want = v.pointer(&pointer(p));
                    let got = one.unwrap_or_else(|e| panic!("{at} {r}: {p:?}: {e}"));
                    assert_eq!(got.map(parse).as_ref(), want, "{at} {r}: {p:?}");
                    assert_eq!(many.as_ref().unwrap()[n], got);
                }
            }
        }
        doc[at] = bytes[at];
    }
}

#[test]
fn escaped_keys_match_their_decoded_form() {
    let doc = r#"{"\u0061": 1, "a\"b": 2, "\ud83d\ude00": 3, "\/": 4, "\u00e9t\u00e9": 5,
        "caf\u00e9": 6, "x\\y": 7, "\n": 8, "pl\u0061in": {"\u006b": [9]}}"#;
    for (key, want) in [
        ("a", "1"),
        ("a\"b", "2"),
        ("😀", "3"),
        ("/", "4"),
        ("été", "5"),
        ("café", "6"),
        ("x\\y", "7"),
        ("\n", "8"),
    ] {
        assert_eq!(get(doc, [key]).unwrap().unwrap().as_str(), want, "{key:?}");
    }
    assert_eq!(
        get(doc, ito::json_path!["plain", "k", 0])
            .unwrap()
            .unwrap()
            .as_str(),
        "9"
    );
    // The escaped spelling is not the key.
    assert_eq!(get(doc, [r"\u0061"]).unwrap(), None);
    assert_eq!(get(doc, ["caf"]).unwrap(), None);
    // A key read raw (not escaped) with non-ASCII text.
    assert_eq!(
        get(r#"{"é": true}"#, ["é"]).unwrap().unwrap().as_str(),
        "true"
    );
    // A key on the path is decoded strictly: a lone surrogate is an error.
    let err = get(r#"{"\ud800": 1, "a": 2}"#, ["a"]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LoneSurrogate(0xd800));
    assert_eq!(err.offset(), 2);
}

#[test]
fn duplicate_keys_first_wins() {
    let doc = r#"{"a": 1, "b": {"x": 1}, "a": 2, "b": {"y": 2}}"#;
    assert_eq!(get(doc, ["a"]).unwrap().unwrap().as_str(), "1");
    assert_eq!(get(doc, ["b", "x"]).unwrap().unwrap().as_str(), "1");
    // The first "b" has no "y", and the walk never reads the second.
    assert_eq!(get(doc, ["b", "y"]).unwrap(), None);
    let many = get_many(doc, &[["b", "y"], ["b", "x"], ["a", "z"]]).unwrap();
    assert_eq!(many[0], None);
    assert_eq!(many[1].unwrap().as_str(), "1");
    assert_eq!(many[2], None);
    let many = get_many(doc, &[ito::json_path!["b"], ito::json_path!["a"]]).unwrap();
    assert_eq!(many[0].unwrap().as_str(), r#"{"x": 1}"#);
    assert_eq!(many[1].unwrap().as_str(), "1");
    // The same with the key spelled differently the second time.
    assert_eq!(
        get(r#"{"k": 1, "\u006b": 2}"#, ["k"])
            .unwrap()
            .unwrap()
            .as_str(),
        "1"
    );
}

/// `compact` with `ws` inserted before and after every structural token.
fn spaced(compact: &str, ws: &str) -> String {
    let mut out = String::from(ws);
    let (mut in_string, mut escaped) = (false, false);
    for c in compact.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '}' | '[' | ']' | ',' | ':' => {
                out.push_str(ws);
                out.push(c);
                out.push_str(ws);
            }
            _ => out.push(c),
        }
    }
    out.push_str(ws);
    out
}

#[test]
fn whitespace_between_every_token() {
    let value: Value = serde_json::from_str(SMALL).unwrap();
    let compact = serde_json::to_string(&value).unwrap();
    let paths = small_paths();
    let long: String = " \t\n\r".repeat(40);
    for ws in ["", " ", "\t", "\n", "\r", "\r\n", " \t\n\r", &long] {
        let doc = spaced(&compact, ws);
        assert_eq!(serde_json::from_str::<Value>(&doc).unwrap(), value);
        let all: Vec<_> = paths.iter().map(|p| items(p)).collect();
        let many = get_many(&doc, &all).unwrap();
        for (n, p) in paths.iter().enumerate() {
            let want = value.pointer(&pointer(p)).unwrap();
            let got = get(&doc, &all[n]).unwrap().unwrap();
            assert_eq!(&parse(got), want, "{ws:?} {p:?}");
            assert_eq!(many[n], Some(got));
        }
    }
    // Part of twitter, re-spaced.
    let twitter: Value = serde_json::from_str(TWITTER).unwrap();
    let statuses: Value = twitter["statuses"].as_array().unwrap()[..3].to_vec().into();
    let doc = spaced(&serde_json::to_string(&statuses).unwrap(), "\n\t \r");
    let mut paths = Vec::new();
    all_paths(&statuses, &mut Vec::new(), &mut paths);
    let all: Vec<_> = paths.iter().map(|p| items(p)).collect();
    for (p, got) in paths.iter().zip(get_many(&doc, &all).unwrap()) {
        assert_eq!(&parse(got.unwrap()), statuses.pointer(&pointer(p)).unwrap());
    }
}

#[test]
fn kinds_and_errors() {
    // A key on an array, an index on an object, either on a scalar.
    let doc = r#"{"a": [1, 2], "s": "text", "n": null}"#;
    assert_eq!(get(doc, ["a", "x"]).unwrap(), None);
    assert_eq!(get(doc, [PathItem::Index(0)]).unwrap(), None);
    assert_eq!(get(doc, ito::json_path!["s", 0]).unwrap(), None);
    assert_eq!(get(doc, ["n", "x"]).unwrap(), None);
    assert_eq!(get(doc, ito::json_path!["a", 2]).unwrap(), None);
    assert_eq!(get("[]", [0usize]).unwrap(), None);
    assert_eq!(get("{}", ["a"]).unwrap(), None);
    assert_eq!(get(" 7 ", [] as [&str; 0]).unwrap().unwrap().as_str(), "7");
    // Malformed input before the answer: errors with their offsets.
    for (doc, at, kind) in [
        ("", 0, ErrorKind::Truncated),
        ("   ", 3, ErrorKind::Truncated),
        (r#"{"b": tru, "a": 1}"#, 9, ErrorKind::UnexpectedByte(b',')),
        (r#"{"b": 01, "a": 1}"#, 7, ErrorKind::UnexpectedByte(b'1')),
        (r#"{"b": 1., "a": 1}"#, 8, ErrorKind::InvalidNumber),
        (r#"{"b": "\x", "a": 1}"#, 7, ErrorKind::InvalidEscape(b'x')),
        (
            "{\"b\": \"\t\", \"a\": 1}",
            7,
            ErrorKind::ControlCharacter(b'\t'),
        ),
        (
            r#"{"b": [1 2], "a": 1}"#,
            9,
            ErrorKind::UnexpectedByte(b'2'),
        ),
        (r#"{"b": [1}, "a": 1}"#, 8, ErrorKind::UnexpectedByte(b'}')),
        (r#"{"b" 1, "a": 1}"#, 5, ErrorKind::UnexpectedByte(b'1')),
        (r#"{b: 1}"#, 1, ErrorKind::UnexpectedByte(b'b')),
        (r#"{"a": [1, 2"#, 11, ErrorKind::Truncated),
        (r#"{"a": 12"#, 8, ErrorKind::Truncated),
        (r#"{"a": "abc"#, 10, ErrorKind::Unterminated),
        (r#"{"a": "\u12"}"#, 7, ErrorKind::InvalidUnicodeEscape),
        (r#"{"a": [1,]}"#, 9, ErrorKind::UnexpectedByte(b']')),
    ] {
        let e = get(doc, ["a"]).unwrap_err();
        assert_eq!((e.offset(), e.kind()), (at, kind), "{doc:?}");
    }
    // The value found is checked for UTF-8; values skipped are not.
    let e = get(b"{\"a\": \"\xff\"}", ["a"]).unwrap_err();
    assert_eq!((e.offset(), e.kind()), (7, ErrorKind::InvalidUtf8));
    assert_eq!(
        get(b"{\"b\": \"\xff\", \"a\": 1}", ["a"])
            .unwrap()
            .unwrap()
            .as_str(),
        "1"
    );
    // Nothing after the answer is read.
    assert_eq!(
        get(r#"{"a": 1, "b": !!!"#, ["a"])
            .unwrap()
            .unwrap()
            .as_str(),
        "1"
    );
    assert_eq!(get(r#"[0, 1, {"#, [1usize]).unwrap().unwrap().as_str(), "1");
    // A missing key is answered when its object ends.
    assert_eq!(
        get(r#"[{"b": 1}, !!!"#, ito::json_path![0, "a"]).unwrap(),
        None
    );
}

#[test]
fn depth_limit() {
    let nest = |n: usize| "[".repeat(n) + &"]".repeat(n);
    // Skipped values.
    let ok = format!("[{}, 1]", nest(MAX_DEPTH - 1));
    assert_eq!(get(&ok, [1usize]).unwrap().unwrap().as_str(), "1");
    let deep = format!("[{}, 1]", nest(MAX_DEPTH));
    assert_eq!(get(&deep, [1usize]).unwrap_err().kind(), ErrorKind::TooDeep);
    // Values found.
    assert!(get(&ok, [0usize]).unwrap().is_some());
    assert_eq!(get(&deep, [0usize]).unwrap_err().kind(), ErrorKind::TooDeep);
    // Along the path.
    let path = vec![PathItem::Index(0); MAX_DEPTH - 1];
    assert_eq!(
        get(&nest(MAX_DEPTH), &path).unwrap().unwrap().as_str(),
        "[]"
    );
    let path = vec![PathItem::Index(0); MAX_DEPTH];
    assert_eq!(get(&nest(MAX_DEPTH), &path).unwrap(), None);
    assert_eq!(
        get(&nest(MAX_DEPTH + 1), &path).unwrap_err().kind(),
        ErrorKind::TooDeep
    );
    // Far deeper than any stack would allow, without a crash.
    let abyss = "[".repeat(100_000);
    assert_eq!(
        get(&abyss, [1usize]).unwrap_err().kind(),
        ErrorKind::TooDeep
    );
    let path = vec![PathItem::Index(0); 100_000];
    assert_eq!(get(&abyss, &path).unwrap_err().kind(), ErrorKind::TooDeep);
}

#[test]
fn long_strings_and_escapes_across_blocks() {
    // Strings of every length 0..200 with an escape at every position,
    // skipped before the answer and found as the answer.
    for n in 0..200usize {
        for at in [None, Some(0), Some(n / 2), Some(n.saturating_sub(1))] {
            let mut s: String = "é".repeat(n / 4) + &"x".repeat(n - n / 4);
            if let Some(at) = at {
                let at = s.char_indices().nth(at).map_or(s.len(), |(i, _)| i);
                s.insert_str(at, "\\n\\u00e9\\\"");
            }
            let doc = format!(r#"{{"skip": "{s}", "key {s}": 1, "a": "{s}"}}"#);
            let got = get(&doc, ["a"]).unwrap().unwrap();
            assert_eq!(got.as_str(), format!("\"{s}\""));
            let key: String = serde_json::from_str(&format!("\"key {s}\"")).unwrap();
            assert_eq!(get(&doc, [key.as_str()]).unwrap().unwrap().as_str(), "1");
        }
    }
}
