//! `ito::json::Value` against serde_json: JSONTestSuite, the corpora,
//! every prefix, one-byte mutations and generated documents give the same
//! verdicts, the same documents (in document order) and the same error
//! messages and positions; rendering (compact and pretty) is byte-identical
//! with serde_json's of the same document in the same key order; `json::get`
//! agrees with the built document on its paths. Every input is parsed
//! twice, with and without an [`Arena`], and both must agree; a model test
//! changes arena-built and heap-built values alike and compares them.
//!
//! The serde_json side is read into `Doc`, a document-order tree (duplicate
//! keys: first position, last value, as with serde_json's `preserve_order`),
//! so the main build's serde_json features stay as they are.
#![cfg(feature = "serde")]

mod value_common;

use ito::json::{Arena, PathItem, Value};
use value_common::{corpus, doc_of, suite, Doc};

/// The offset an error's line and column name, recomputed from the input.
fn offset_of(input: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        start += input[start..].iter().position(|&b| b == b'\n').unwrap() + 1;
    }
    start + column
}

/// The verdicts agree on `input`; returns whether it parsed.
#[track_caller]
fn agree(input: &[u8]) -> bool {
    let ours = Value::from_slice(input);
    let theirs = serde_json::from_slice::<Doc>(input);
    // The arena entry builds the same value (members in the same order)
    // or fails alike. A small first block makes documents cross blocks.
    let arena = Arena::with_capacity(40);
    match (Value::from_slice_in(&arena, input), &ours) {
        (Ok(a), Ok(v)) => {
            assert_eq!(&a, v);
            assert_eq!(a.to_vec(), v.to_vec(), "arena, compact");
        }
        (Err(a), Err(v)) => {
            assert_eq!((a.to_string(), a.offset()), (v.to_string(), v.offset()));
        }
        (a, v) => panic!("arena verdict {:?}, heap {:?}", a.is_ok(), v.is_ok()),
    }
    match (&ours, &theirs) {
        (Ok(v), Ok(d)) => {
            assert_eq!(
                &doc_of(v),
                d,
                "document of {:?}",
                String::from_utf8_lossy(input)
            );
            assert_eq!(v.to_vec(), serde_json::to_vec(d).unwrap(), "compact");
            assert_eq!(
                v.to_vec_pretty(),
                serde_json::to_vec_pretty(d).unwrap(),
                "pretty"
            );
            // The serde entry (owned strings) builds the same value.
            let owned: Value = ito::json::from_slice(input).unwrap();
            assert_eq!(&owned, v);
            true
        }
        (Err(a), Err(b)) => {
            assert_eq!(
                a.to_string(),
                b.to_string(),
                "{:?}",
                String::from_utf8_lossy(input)
            );
            let e = ito::json::from_slice::<Value>(input).unwrap_err();
            assert_eq!(e.to_string(), b.to_string());
            assert_eq!((a.line(), a.column()), (b.line(), b.column()));
            if a.line() > 0 {
                let at = offset_of(input, a.line(), a.column());
                let want = if a.is_eof() { at } else { at.saturating_sub(1) };
                assert_eq!(a.offset(), want, "{a}");
            }
            false
        }
        _ => panic!(
            "verdicts differ on {:?}: ours {:?}, serde_json {:?}",
            String::from_utf8_lossy(input),
            ours.map(|_| ()),
            theirs.map(|_| ())
        ),
    }
}

#[test]
fn testsuite() {
    let mut parsed = 0;
    for (name, doc) in suite() {
        let ok = agree(&doc);
        if name.starts_with("y_") {
            assert!(ok, "{name}");
            parsed += 1;
        }
        if name.starts_with("n_") {
            assert!(!ok, "{name}");
        }
    }
    assert!(parsed >= 90);
}

#[test]
fn corpora() {
    for name in ["twitter.json", "citm_catalog.json", "canada.json"] {
        let doc = corpus(name);
        assert!(agree(&doc), "{name}");
        // Pretty text reads back to the same document.
        let v = Value::from_slice(&doc).unwrap();
        assert_eq!(Value::from_slice(&v.to_vec_pretty()).unwrap(), v);
    }
}

#[test]
fn every_prefix() {
    for (_, doc) in suite() {
        for end in 0..doc.len().min(2000) {
            agree(&doc[..end]);
        }
    }
    for name in ["twitter.json", "citm_catalog.json", "canada.json"] {
        let doc = corpus(name);
        for end in (0..3000).chain((3000..doc.len()).step_by(doc.len() / 100)) {
            agree(&doc[..end]);
        }
    }
}

/// The indented-text fast path (`de/read.rs`, `parse_whitespace_indent`):
/// a newline and 0 to 40 spaces, then each JSON whitespace byte, a token or
/// a byte that is neither, at every place the loop takes it (after `[`,
/// `{` and `,`, before `]` and `}`), and every prefix of each document, so
/// runs end at the slice's end at every length.
#[test]
fn indented_runs() {
    let places = [
        "[W1]",
        "[1,W2]",
        "[1W]",
        "[W]",
        "{W\"a\":1}",
        "{\"a\":1,W\"b\":[]}",
        "{\"a\":1W}",
        "{W}",
        "[1,W{\"a\":[W\"x\"W]W}W]",
    ];
    let tails = [
        "", " ", "\t", "\n", "\r", "\r\n ", "x", "\u{0}", "\u{7f}", "\u{e9}",
    ];
    for place in places {
        for n in 0..=40 {
            for tail in tails {
                let run = format!("\n{}{tail}", " ".repeat(n));
                let doc = place.replace('W', &run);
                let ok = agree(doc.as_bytes());
                assert_eq!(
                    ok,
                    matches!(tail, "" | " " | "\t" | "\n" | "\r" | "\r\n "),
                    "{doc:?}"
                );
                for end in 0..doc.len() {
                    agree(&doc.as_bytes()[..end]);
                }
            }
        }
    }
}

/// The loop for arrays of numbers (`value/parse.rs`, `Parser::numbers`):
/// every text of up to 5 bytes over the bytes it decides on (digits,
/// signs, `.`, `e`, commas, brackets, a space, a quote) after a `[`, so
/// each way a number, a comma and what follows can end, or end the input,
/// is met.
#[test]
fn arrays_of_numbers() {
    let alphabet = b"1-0,]. e[\"";
    let mut doc = Vec::new();
    for len in 0..=5u32 {
        for mut code in 0..alphabet.len().pow(len) {
            doc.clear();
            doc.push(b'[');
            for _ in 0..len {
                doc.push(alphabet[code % alphabet.len()]);
                code /= alphabet.len();
            }
            agree(&doc);
        }
    }
    for doc in [
        "[1,-2,3.5e1,-0,1 ,2]",
        "[[1,2],[3,4],[-5.5,6e-1]]",
        "[1,2,\"a\",3]",
        "[1,2,[3]]",
    ] {
        assert!(agree(doc.as_bytes()), "{doc}");
    }
}

/// Arrays of numbers are written straight into the arena's free room
/// (`value/parse.rs`, `numbers_in`) and leave it for the parser's stack
/// when they outgrow it or meet anything but a number: arrays of 0–12
/// numbers, ended every way (`]`, whitespace, a string, an array, a
/// number after a space, the input), after siblings that fill the room
/// first, in arenas whose first block ends at every element count
/// around them, agree with the heap parse and with serde_json.
#[test]
fn number_arrays_around_the_end_of_the_arena_room() {
    let ends = ["]", " ]", ",\"x\"]", ",[1]]", ", 5]", ",-6,7]", ""];
    let mut docs = Vec::new();
    for len in 0..=12usize {
        let numbers: Vec<String> = (0..len).map(|i| format!("{}", i as i64 - 3)).collect();
        for end in ends {
            let inner = format!("[{}{end}", numbers.join(","));
            docs.push(inner.clone());
            for before in 0..=4 {
                let siblings = vec!["[1.5,2]"; before].join(",");
                let comma = if before == 0 { "" } else { "," };
                docs.push(format!("[{siblings}{comma}{inner}]"));
            }
        }
    }
    for doc in &docs {
        let heap = Value::from_slice(doc.as_bytes());
        if agree(doc.as_bytes()) {
            assert!(heap.is_ok());
        }
        for values in 0..=14 {
            let arena = Arena::with_capacity(values * 32);
            let ours = Value::from_slice_in(&arena, doc.as_bytes());
            match (&ours, &heap) {
                (Ok(a), Ok(h)) => {
                    assert_eq!(a, h, "{doc} in a block of {values} values");
                    assert_eq!(a.to_vec(), h.to_vec(), "{doc}");
                }
                (Err(a), Err(h)) => assert_eq!(a.to_string(), h.to_string(), "{doc}"),
                _ => panic!("{doc} in a block of {values} values: {ours:?} against {heap:?}"),
            }
        }
    }
}

#[test]
fn one_byte_mutations() {
    let bytes = [
        b'"', b'\\', b',', b':', b'[', b']', b'{', b'}', b'0', b'-', b'.', b'e', b' ', b'\n', 0,
        0x1F, 0x80, 0xFF, b'a', b'n', b'u',
    ];
    let mut rng = 0x9E3779B97F4A7C15u64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    for name in ["twitter.json", "citm_catalog.json", "canada.json"] {
        let doc = corpus(name);
        let cut = doc.len().min(20_000);
        let mut base = doc[..cut].to_vec();
        for _ in 0..400 {
            let at = (next() % cut as u64) as usize;
            let old = base[at];
            base[at] = bytes[(next() % bytes.len() as u64) as usize];
            agree(&base);
            base[at] = old;
        }
    }
}

#[test]
fn recursion_limit_and_duplicates() {
    for open in ["[", "{\"a\":"] {
        agree(open.repeat(127).as_bytes());
        agree(open.repeat(128).as_bytes());
        agree(open.repeat(10_000).as_bytes());
    }
    // Duplicate keys, small and large objects: first position, last value.
    agree(br#"{"a":1,"b":2,"a":3}"#);
    let many: Vec<String> = (0..40).map(|i| format!("\"k{}\":{i}", i % 25)).collect();
    agree(format!("{{{}}}", many.join(",")).as_bytes());
}

/// Duplicate keys at every object size around the thresholds of the
/// duplicate check (pairwise up to 8 members, a hash table above, the
/// lookup index above 12), the repeat at the start, middle and end, and
/// spelled with an escape (`\u0061` is `a`): serde_json's answer
/// (first position, last value) through both entries.
#[test]
fn duplicate_keys_at_every_size() {
    for n in 1..=40 {
        // Keys of assorted lengths (1 to 40 bytes), around the 16- and
        // 32-byte blocks of the short-key scan.
        let keys: Vec<String> = (0..n)
            .map(|i| format!("{}{i}", "k".repeat(i % 37)))
            .collect();
        assert!(agree(object_of(&keys).as_bytes()), "{n}");
        for dup_of in [0, n / 2, n - 1] {
            let mut with = keys.clone();
            with.push(keys[dup_of].clone());
            assert!(agree(object_of(&with).as_bytes()), "{n} {dup_of}");
            // The same key again, its first byte escaped.
            let k = &keys[dup_of];
            let mut with = keys.clone();
            with.push(format!("\\u{:04x}{}", k.as_bytes()[0], &k[1..]));
            assert!(agree(object_of(&with).as_bytes()), "{n} {dup_of} escaped");
        }
    }
}

/// An object of `keys` in order, each with its index as the value.
fn object_of(keys: &[String]) -> String {
    let body: Vec<String> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| format!("\"{k}\":{i}"))
        .collect();
    format!("{{{}}}", body.join(","))
}

/// Many objects of one shape, then objects of the same size that differ
/// from it in one key: a duplicate of another key (first, middle, last),
/// a key changed in its last byte or its length, spelled with an escape,
/// long keys that share their length and ends; nested and in sequence, so
/// the parser's remembered shapes meet them. serde_json's answer through
/// every entry.
#[test]
fn duplicate_keys_after_repeated_shapes() {
    for n in (3..=20).chain([23, 24, 25, 39, 40, 64, 65, 66, 67, 70]) {
        let keys: Vec<String> = (0..n)
            .map(|i| match i % 4 {
                0 => format!("{i}"),
                1 => format!("id{i}"),
                2 => format!("key_{i:08}"),
                _ => format!("profile_background_url_https_{i:04}"),
            })
            .collect();
        let plain = object_of(&keys);
        let mut variants = Vec::new();
        for at in [0, 1, 2, 3, n / 2, n - 1].into_iter().filter(|&at| at < n) {
            let mut dup = keys.clone();
            dup[at] = keys[(at + 2) % n].clone();
            variants.push(object_of(&dup));
            let mut longer = keys.clone();
            longer[at].push('x');
            variants.push(object_of(&longer));
            let mut byte = keys.clone();
            let end = byte[at].pop().unwrap();
            byte[at].push(if end == 'z' { 'y' } else { 'z' });
            variants.push(object_of(&byte));
            // The same keys, one spelled with an escape (no duplicate),
            // and a duplicate spelled with one.
            let mut escaped = keys.clone();
            escaped[at] = format!("\\u{:04x}{}", keys[at].as_bytes()[0], &keys[at][1..]);
            variants.push(object_of(&escaped));
            let k = &keys[(at + 1) % n];
            dup[at] = format!("\\u{:04x}{}", k.as_bytes()[0], &k[1..]);
            variants.push(object_of(&dup));
        }
        // Long keys changed in the middle only (the same length and
        // ends); then long keys that share their length and ends.
        let mut middle = keys.clone();
        for k in middle.iter_mut().filter(|k| k.len() > 16) {
            k.replace_range(10..11, "X");
        }
        variants.push(object_of(&middle));
        let mut ends = keys.clone();
        for (i, k) in ends.iter_mut().enumerate().filter(|(_, k)| k.len() > 16) {
            *k = format!("profile_background_{:04}_url_https", i % 3);
        }
        variants.push(object_of(&ends));
        let mut ends = keys.clone();
        for (i, k) in ends.iter_mut().enumerate().filter(|(_, k)| k.len() > 16) {
            *k = format!("profile_background_{i:04}_url_https");
        }
        variants.push(object_of(&ends));
        let mut doc = vec![plain.clone(); 4];
        for v in &variants {
            doc.push(v.clone());
            doc.push(plain.clone());
            doc.push(v.clone());
            doc.push(format!("{{\"in\":{v},\"and\":{plain}}}"));
        }
        assert!(agree(format!("[{}]", doc.join(",")).as_bytes()), "{n}");
    }
}

/// Every path in `v` (keys and indices), in document order.
fn paths<'v>(v: &'v Value<'v>, at: &mut Vec<PathItem<'v>>, out: &mut Vec<Vec<PathItem<'v>>>) {
    out.push(at.clone());
    match v {
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                at.push(PathItem::Index(i));
                paths(x, at, out);
                at.pop();
            }
        }
        Value::Object(o) => {
            for (k, x) in o.iter() {
                at.push(PathItem::Key(k));
                paths(x, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn lookup<'v>(v: &'v Value<'v>, path: &[PathItem<'_>]) -> Option<&'v Value<'v>> {
    path.iter().try_fold(v, |v, item| match *item {
        PathItem::Key(k) => v.get(k),
        PathItem::Index(i) => v.get(i),
    })
}

#[test]
fn lazy_get_agrees_with_the_document() {
    for name in ["twitter.json", "citm_catalog.json", "canada.json"] {
        let doc = corpus(name);
        let v = Value::from_slice(&doc).unwrap();
        let mut all = Vec::new();
        paths(&v, &mut Vec::new(), &mut all);
        // Paths of at most 8 items (get's limit), about 1500 per corpus.
        all.retain(|p| p.len() <= 8);
        let step = (all.len() / 1500).max(1);
        for path in all.iter().step_by(step) {
            let raw = ito::json::get(&doc, path.iter().copied()).unwrap().unwrap();
            let found = lookup(&v, path).unwrap();
            assert_eq!(&Value::from_str(raw.as_str()).unwrap(), found);
            // A key and an index that are not there.
            let mut missing = path.clone();
            missing.push(PathItem::Key("\u{1}missing"));
            assert!(ito::json::get(&doc, missing.iter().copied())
                .unwrap()
                .is_none());
            assert!(lookup(&v, &missing).is_none());
            if let Value::Array(a) = found {
                let mut past = path.clone();
                past.push(PathItem::Index(a.len()));
                assert!(ito::json::get(&doc, past.iter().copied())
                    .unwrap()
                    .is_none());
                assert!(lookup(&v, &past).is_none());
            }
        }
    }
}

#[test]
fn lookup_in_objects_of_every_size() {
    // Around the linear/hashed cross-over and well past it; keys that
    // share prefixes and lengths; then after inserts and removals.
    for n in (0..40usize).chain([100, 257, 1000]) {
        let keys: Vec<String> = (0..n).map(|i| format!("key{i:03}")).collect();
        let text = format!(
            "{{{}}}",
            keys.iter()
                .enumerate()
                .map(|(i, k)| format!("\"{k}\":{i}"))
                .collect::<Vec<_>>()
                .join(",")
        );
        let mut v = Value::from_str(&text).unwrap();
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(v[k.as_str()], i, "{k} of {n}");
        }
        for missing in ["key", "key0000", "yek000", "", "\u{1}"] {
            assert!(v.get(missing).is_none(), "{missing} of {n}");
        }
        // Insert after the index was built, then remove.
        for i in 0..n + 5 {
            v.insert(format!("new{i}"), i);
        }
        for i in 0..n + 5 {
            assert_eq!(v[format!("new{i}").as_str()], i);
            assert_eq!(
                v[format!("key{i:03}").as_str()].as_u64(),
                (i < n).then_some(i as u64)
            );
        }
        for k in keys.iter().step_by(2) {
            assert!(v.remove(k).is_some());
            assert!(v.get(k.as_str()).is_none());
        }
        for (i, k) in keys.iter().enumerate().skip(1).step_by(2) {
            assert_eq!(v[k.as_str()], i);
        }
        assert_eq!(v.as_object().unwrap().len(), 2 * n + 5 - n.div_ceil(2));
    }
}

#[test]
fn api_in_serde_json_terms() {
    let text = r#"{"user": {"name": "ada", "tags": ["x", "y\n"]}, "n": -3, "f": 0.5, "big": 18446744073709551615}"#;
    let mut v = Value::from_str(text).unwrap();
    assert_eq!(v["user"]["name"], "ada");
    assert_eq!(v["user"]["tags"][1], "y\n");
    assert!(v["user"]["tags"][0].as_text().unwrap().is_borrowed());
    assert!(!v["user"]["tags"][1].as_text().unwrap().is_borrowed());
    assert_eq!(v["n"], -3);
    assert_eq!(v["f"], 0.5);
    assert_eq!(v["big"], u64::MAX);
    assert!(v["nope"].is_null() && v[7].is_null() && v["n"]["x"].is_null());
    assert_eq!(v.pointer("/user/tags/1"), Some(&Value::from("y\n")));
    assert_eq!(v.pointer("/user/tags/01"), None);
    v["user"]["age"] = 36.into();
    v["user"]["tags"].push("z");
    assert_eq!(v.pointer_mut("/user/tags/2").unwrap().take(), "z");
    assert_eq!(
        v.to_string(),
        r#"{"user":{"name":"ada","tags":["x","y\n",null],"age":36},"n":-3,"f":0.5,"big":18446744073709551615}"#
    );
    // serde_json round trips, both ways.
    let sj: serde_json::Value = (&v).into();
    assert_eq!(Value::from(sj.clone()), v);
    assert_eq!(serde_json::to_string(&v).unwrap(), v.to_string());
    let back: Value = serde_json::from_str(text).unwrap();
    assert_eq!(back, Value::from_str(text).unwrap());
    // JSON lines through the stream deserializer.
    let lines = "{\"a\":1}\n[2]\n\"three\"\n";
    let all: Vec<Value> = ito::json::Deserializer::from_str(lines)
        .into_iter::<Value>()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        all,
        [ito::json!({"a": 1}), ito::json!([2]), ito::json!("three")]
    );
}

mod props {
    use super::*;
    use proptest::prelude::*;

    /// A document tree with keys and strings that need escaping.
    fn tree() -> impl Strategy<Value = Doc> {
        let text = "[a-c\"\\\\/\u{0}-\u{1f}é😀 ]{0,6}";
        let leaf = prop_oneof![
            Just(Doc::Null),
            any::<bool>().prop_map(Doc::Bool),
            any::<u64>().prop_map(|n| Doc::Num(n.into())),
            any::<i64>().prop_map(|n| Doc::Num(n.into())),
            any::<f64>()
                .prop_filter_map("finite", serde_json::Number::from_f64)
                .prop_map(Doc::Num),
            text.prop_map(Doc::Str),
        ];
        leaf.prop_recursive(4, 48, 8, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..8).prop_map(Doc::Arr),
                prop::collection::vec((text, inner), 0..24).prop_map(|m| Doc::Obj(dedup(m))),
            ]
        })
    }

    fn dedup(m: Vec<(String, Doc)>) -> Vec<(String, Doc)> {
        let mut out: Vec<(String, Doc)> = Vec::new();
        for (k, v) in m {
            if !out.iter().any(|(o, _)| *o == k) {
                out.push((k, v));
            }
        }
        out
    }

    /// Writes `d` with whitespace and escape spellings chosen by `c`.
    fn write(d: &Doc, out: &mut String, c: &mut impl FnMut() -> u32) {
        let ws = |out: &mut String, c: &mut dyn FnMut() -> u32| {
            for _ in 0..c() % 3 {
                out.push([' ', '\n', '\t', '\r'][(c() % 4) as usize]);
            }
        };
        ws(out, c);
        match d {
            Doc::Str(s) => string(s, out, c),
            Doc::Arr(a) => {
                out.push('[');
                for (i, x) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(x, out, c);
                }
                ws(out, c);
                out.push(']');
            }
            Doc::Obj(o) => {
                out.push('{');
                for (i, (k, x)) in o.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    ws(out, c);
                    string(k, out, c);
                    ws(out, c);
                    out.push(':');
                    write(x, out, c);
                }
                ws(out, c);
                out.push('}');
            }
            other => out.push_str(&serde_json::to_string(other).unwrap()),
        }
        ws(out, c);
    }

    fn string(s: &str, out: &mut String, c: &mut impl FnMut() -> u32) {
        out.push('"');
        for ch in s.chars() {
            let mut units = [0u16; 2];
            match (ch, c() % 4) {
                ('"', _) => out.push_str("\\\""),
                ('\\', _) => out.push_str("\\\\"),
                ('/', 0) => out.push_str("\\/"),
                (ch, 1) | (ch @ '\0'..='\u{1f}', _) => {
                    for u in ch.encode_utf16(&mut units) {
                        out.push_str(&format!("\\u{u:04x}"));
                    }
                }
                (ch, _) => out.push(ch),
            }
        }
        out.push('"');
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn generated_documents(d in tree(), seed in any::<u64>()) {
            let mut s = seed | 1;
            let mut c = move || { s ^= s << 13; s ^= s >> 7; s ^= s << 17; (s >> 32) as u32 };
            let mut text = String::new();
            write(&d, &mut text, &mut c);
            prop_assert!(agree(text.as_bytes()));
            let v = Value::from_str(&text).unwrap();
            prop_assert_eq!(&doc_of(&v), &d);
            let arena = Arena::new();
            prop_assert_eq!(doc_of(&Value::from_str_in(&arena, &text).unwrap()), d);
        }
    }
}

/// Changes applied alike to a value parsed into an arena and to the same
/// document parsed onto the heap (the model): they agree after every
/// step, in order (rendered text), through copy on grow, in-place edits,
/// values moved in and out, clones and `into_owned`.
#[test]
fn arena_values_change_like_heap_values() {
    let docs = [
        r#"[1, [2, 3], {"a": [4], "b": {"c": "d"}}, "long string over twenty-three bytes", []]"#,
        r#"{"x": [[], [1], [1, 2]], "y": {"k0": 0, "k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5,
            "k6": 6, "k7": 7, "k8": 8, "k9": 9, "k10": 10, "k11": 11, "k12": 12, "k13": 13}}"#,
    ];
    let mut rng = 0x2545F4914F6CDD1Du64;
    let mut next = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    for text in docs {
        for round in 0..60 {
            let arena = Arena::with_capacity(8 * round);
            let mut a = Value::from_str_in(&arena, text).unwrap();
            let mut m = Value::from_str(text).unwrap();
            for step in 0..40 {
                // A random container in both (the same path).
                let mut path = Vec::new();
                let mut at = &m;
                loop {
                    let n = match at {
                        Value::Array(x) => x.len(),
                        Value::Object(o) => o.len(),
                        _ => break,
                    };
                    if n == 0 || next(3) == 0 {
                        break;
                    }
                    let i = next(n);
                    path.push(i);
                    at = match at {
                        Value::Array(x) => &x[i],
                        Value::Object(o) => &o.entries()[i].1,
                        _ => unreachable!(),
                    };
                }
                let op = next(9);
                let fresh = Value::from(format!("heap string number {step} in round {round}"));
                for v in [&mut a, &mut m] {
                    apply(walk(v, &path), op, step, fresh.clone());
                }
                assert_eq!(
                    a.to_string(),
                    m.to_string(),
                    "{text} round {round} step {step}"
                );
                assert_eq!(a, m);
            }
            let copy = a.clone();
            assert!(copy.as_array().is_none_or(|x| x.is_empty() || x.is_heap()));
            assert_eq!(copy.to_string(), m.to_string());
            drop(copy);
            let owned = a.into_owned();
            let want = m.to_string();
            drop(m);
            drop(arena);
            assert_eq!(owned.to_string(), want);
        }
    }
}

/// The value at `path` (positions of elements or members).
fn walk<'v, 'a>(mut v: &'v mut Value<'a>, path: &[usize]) -> &'v mut Value<'a> {
    for &i in path {
        v = match v {
            Value::Array(x) => &mut x[i],
            Value::Object(o) => o.iter_mut().nth(i).unwrap().1,
            _ => unreachable!(),
        };
    }
    v
}

/// One change to a container (or to a scalar's place).
fn apply<'a>(v: &mut Value<'a>, op: usize, step: usize, fresh: Value<'a>) {
    match v {
        Value::Array(x) => match op {
            0 => x.push(fresh),
            1 => x.insert(step % (x.len() + 1), step.into()),
            2 if !x.is_empty() => drop(x.remove(step % x.len())),
            3 => drop(x.pop()),
            4 => x.truncate(step % 3),
            5 if !x.is_empty() => {
                let i = step % x.len();
                x[i] = fresh;
            }
            6 if !x.is_empty() => {
                let i = step % x.len();
                let taken = x[i].take();
                x.push(taken);
            }
            7 => x.extend([Value::from(1), ito::json!([fresh])]),
            _ => x.retain(|e| !e.is_number()),
        },
        Value::Object(o) => match op {
            0..=2 => drop(o.insert(format!("new{step}"), fresh)),
            3 | 4 if !o.is_empty() => {
                let k = o.keys().nth(step % o.len()).unwrap().to_owned();
                drop(o.remove(&k));
            }
            5 if !o.is_empty() => {
                let k = o.keys().nth(step % o.len()).unwrap().to_owned();
                *o.get_mut(&k).unwrap() = fresh;
            }
            _ => drop(o.insert("k3", ito::json!({"deep": [fresh]}))),
        },
        other => *other = std::mem::replace(other, Value::Null).into_owned(),
    }
}
