//! The deserializer against serde_json (built with `float_roundtrip`):
//! JSONTestSuite, the corpora, every prefix, one-byte mutations, typed and
//! as `serde_json::Value`, same verdicts, values, messages and positions.
#![cfg(feature = "serde")]

use std::path::PathBuf;

use serde::de::IgnoredAny;
use serde_json::Value;

fn data(dir: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data")).join(dir)
}

fn suite() -> Vec<(String, Vec<u8>)> {
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

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(data("corpus").join(name)).unwrap()
}

/// The offset an error's line and column name, recomputed from the input.
fn offset_of(input: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        start += input[start..].iter().position(|&b| b == b'\n').unwrap() + 1;
    }
    start + column
}

/// ito and serde_json agree on `input` read as `T`: both succeed with
/// equal values, or both fail with the same message, line and column (and
/// ito's offset matches the position).
#[track_caller]
fn agree<'a, T>(input: &'a [u8]) -> bool
where
    T: serde::Deserialize<'a> + PartialEq + std::fmt::Debug,
{
    let ours = ito::json::from_slice::<T>(input);
    let theirs = serde_json::from_slice::<T>(input);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{:?}", String::from_utf8_lossy(input)),
        (Err(a), Err(b)) => {
            assert_eq!(
                a.to_string(),
                b.to_string(),
                "input {:?}",
                String::from_utf8_lossy(&input[..input.len().min(300)])
            );
            assert_eq!((a.line(), a.column()), (b.line(), b.column()));
            assert_eq!(format!("{:?}", a.category()), format!("{:?}", b.classify()));
            if a.line() > 0 {
                let at = offset_of(input, a.line(), a.column());
                let want = if a.is_eof() { at } else { at.saturating_sub(1) };
                assert_eq!(a.offset(), want, "{a}");
            }
        }
        _ => panic!(
            "verdicts differ on {:?}: ito {:?}, serde_json {:?}",
            String::from_utf8_lossy(&input[..input.len().min(300)]),
            ours.as_ref().err().map(|e| e.to_string()),
            theirs.as_ref().err().map(|e| e.to_string())
        ),
    }
    ours.is_ok()
}

#[test]
fn testsuite_as_value_and_ignored() {
    let mut accepted = 0;
    for (name, doc) in suite() {
        let ok = agree::<Value>(&doc);
        agree_ignored(&doc);
        if name.starts_with("y_") {
            assert!(ok, "{name} must be accepted");
            accepted += 1;
        }
        if name.starts_with("n_") {
            assert!(!ok, "{name} must be rejected");
        }
    }
    assert!(accepted > 90);
}

/// `IgnoredAny` and `Value` have different error paths in serde_json.
#[track_caller]
fn agree_ignored(input: &[u8]) {
    let ours = ito::json::from_slice::<IgnoredAny>(input).map_err(|e| e.to_string());
    let theirs = serde_json::from_slice::<IgnoredAny>(input).map_err(|e| e.to_string());
    assert_eq!(
        ours.is_ok(),
        theirs.is_ok(),
        "{:?}",
        String::from_utf8_lossy(input)
    );
    if let (Err(a), Err(b)) = (ours, theirs) {
        assert_eq!(a, b, "{:?}", String::from_utf8_lossy(input));
    }
}

#[test]
fn corpora_as_value() {
    for name in ["twitter.json", "citm_catalog.json", "canada.json"] {
        let doc = corpus(name);
        assert!(agree::<Value>(&doc), "{name}");
        agree_ignored(&doc);
        let text = std::str::from_utf8(&doc).unwrap();
        let a: Value = ito::json::from_str(text).unwrap();
        assert_eq!(a, serde_json::from_str::<Value>(text).unwrap());
    }
}

#[test]
fn every_prefix_of_the_suite_and_small_corpora() {
    for (_, doc) in suite() {
        for end in 0..doc.len().min(2000) {
            agree::<Value>(&doc[..end]);
            agree_ignored(&doc[..end]);
        }
    }
}

#[test]
fn every_prefix_of_twitter_samples() {
    let doc = corpus("twitter.json");
    // Every prefix of the first 6 KB, then about 300 more.
    for end in (0..6000).chain((6000..doc.len()).step_by(doc.len() / 300)) {
        agree::<Value>(&doc[..end]);
        agree_ignored(&doc[..end]);
    }
}

#[test]
fn every_prefix_of_canada_and_citm_samples() {
    for name in ["canada.json", "citm_catalog.json"] {
        let doc = corpus(name);
        for end in (0..3000).chain((3000..doc.len()).step_by(doc.len() / 200)) {
            agree::<Value>(&doc[..end]);
            agree_ignored(&doc[..end]);
        }
    }
}

#[test]
fn one_byte_mutations_of_the_corpora() {
    let bytes = [
        b'"', b'\\', b',', b':', b'[', b']', b'{', b'}', b'0', b'-', b'.', b'e', b' ', b'\n', 0,
        0x1F, 0x80, 0xFF, b'a', b'n', b'u',
    ];
    let mut rng = 0x2545F4914F6CDD1Du64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    for name in ["twitter.json", "citm_catalog.json", "canada.json"] {
        let doc = corpus(name);
        // Keep each document small enough to run many mutations.
        let cut = doc.len().min(20_000);
        let mut base = doc[..cut].to_vec();
        for _ in 0..400 {
            let at = (next() % cut as u64) as usize;
            let old = base[at];
            base[at] = bytes[(next() % bytes.len() as u64) as usize];
            agree::<Value>(&base);
            agree_ignored(&base);
            base[at] = old;
        }
        // And whole documents, fewer times.
        let mut whole = doc.clone();
        for _ in 0..20 {
            let at = (next() % doc.len() as u64) as usize;
            let old = whole[at];
            whole[at] = bytes[(next() % bytes.len() as u64) as usize];
            agree::<Value>(&whole);
            whole[at] = old;
        }
    }
}

#[test]
fn recursion_limit() {
    for open in ["[", "{\"a\":"] {
        let deep = open.repeat(100_000);
        let err = ito::json::from_str::<Value>(&deep).unwrap_err();
        assert_eq!(
            err.to_string(),
            serde_json::from_str::<Value>(&deep)
                .unwrap_err()
                .to_string()
        );
        assert!(err.to_string().starts_with("recursion limit exceeded"));
        // IgnoredAny keeps its own stack, as serde_json's does.
        agree_ignored(deep.as_bytes());
    }
    for depth in [126, 127, 128, 129] {
        let doc = "[".repeat(depth) + &"]".repeat(depth);
        agree::<Value>(doc.as_bytes());
    }
}

/// UTF-8 is checked a stretch at a time past the first string that needs
/// it (4096 bytes in the parser): an invalid sequence anywhere, in a
/// string near, across or past a stretch's end, escaped or not, is
/// reported as serde_json reports it, and valid text around it is read.
#[test]
fn invalid_utf8_at_every_stretch_position() {
    // Non-ASCII text in every string, some escaped, some long.
    let mut doc = b"[".to_vec();
    let mut k = 0;
    while doc.len() < 14_000 {
        let s = match k % 50 {
            49 => "ü".repeat(2500),
            m if m % 4 == 0 => "日本語のテキスト".to_string(),
            m if m % 4 == 1 => "é\\n✓".to_string(),
            m if m % 4 == 2 => "x".repeat(k % 40) + "🎉",
            _ => "ascii only".to_string(),
        };
        if k > 0 {
            doc.push(b',');
        }
        doc.extend_from_slice(format!("\"{s}\"").as_bytes());
        k += 1;
    }
    doc.push(b']');
    assert!(agree::<Vec<String>>(&doc) && agree::<Value>(&doc));
    let bad: [&[u8]; 6] = [
        b"\xFF",
        b"\x80",
        b"\xE3\x81",
        b"\xC0\x80",
        b"\xED\xA0\x80",
        b"\xF4\x90\x80\x80",
    ];
    // Positions: around every multiple of 4096 and a spread of others.
    let mut at: Vec<usize> = (1..doc.len() / 4096 + 1)
        .flat_map(|m| (m * 4096 - 4..m * 4096 + 4).collect::<Vec<_>>())
        .collect();
    at.extend((1..doc.len() - 1).step_by(13));
    for &i in &at {
        for seq in bad {
            // Replace the bytes at `i` when they are inside a string's
            // text (not a quote or escape), keeping the length.
            let end = (i + seq.len()).min(doc.len() - 1);
            if doc[i..end].iter().any(|&b| matches!(b, b'"' | b'\\')) {
                continue;
            }
            let mut input = doc.clone();
            input[i..end].copy_from_slice(&seq[..end - i]);
            agree::<Vec<String>>(&input);
            agree::<Value>(&input);
        }
    }
}

/// Object keys of every length around the 16- and 32-byte blocks the
/// short-key path reads, with a quote, backslash, control byte or
/// non-ASCII (valid or not) byte at every position, and the input ending
/// right after the key or later: the same verdict, value and error as
/// serde_json.
#[test]
fn keys_around_the_short_key_blocks() {
    let specials: [&[u8]; 6] = [
        b"\\n",
        b"\\\"",
        b"\x1F",
        "é".as_bytes(),
        b"\xFF",
        b"\xE3\x81",
    ];
    for len in 0..40 {
        let plain: Vec<u8> = (0..len).map(|k| b'a' + (k % 26) as u8).collect();
        let mut keys = vec![plain.clone()];
        for at in 0..=len {
            for s in specials {
                let mut key = plain.clone();
                key.splice(at..at, s.iter().copied());
                keys.push(key);
            }
        }
        for key in keys {
            for tail in [&b""[..], b" ", b"                                "] {
                let mut doc = b"{\"".to_vec();
                doc.extend_from_slice(&key);
                doc.extend_from_slice(b"\":1}");
                doc.extend_from_slice(tail);
                agree::<Value>(&doc);
                agree::<std::collections::BTreeMap<String, u8>>(&doc);
                // Cut right after the key's closing quote, and inside it.
                let cut = 2 + key.len() + 1;
                agree::<Value>(&doc[..cut]);
                agree::<Value>(&doc[..cut - 1]);
            }
        }
    }
}

/// Typed sequences of tuples (canada's `Vec<Vec<(f32, f32)>>`, whose
/// numbers, tuples and sequences the deserializer inlines into one loop):
/// random arrays of 0–4 numbers per tuple, each separator a comma or not
/// (missing, doubled, trailing) with every kind of whitespace around it,
/// numbers the word path reads and numbers it leaves to the general path
/// (exponents, long digits, errors, values past `f32::MAX`), then 0–29
/// spaces so the last numbers sit on both sides of the word path's
/// 24 bytes. ito and serde_json agree on values (bit for bit) or on the
/// error and its position, as `f32` and `f64` pairs, a triple, and one
/// level deeper; and on every prefix of a few of them.
#[test]
fn typed_sequences_of_tuples() {
    const NUMBERS: [&str; 20] = [
        "1",
        "0",
        "-0",
        "-65.613616999999977",
        "43.420273000000009",
        "-65.625",
        "0.1",
        "1234567",
        "12345678.5",
        "1e5",
        "-2.5E-3",
        "1.000000059604644776",
        "123456789012345678901",
        "3.5e38",
        "01",
        "1.",
        "-",
        "true",
        "\"1\"",
        "[1]",
    ];
    const SPACE: [&str; 7] = ["", "", "", " ", "\t", "\n", "\r\n "];
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    let mut docs = Vec::new();
    for _ in 0..6_000 {
        let mut doc = String::from("[");
        let tuples = next(4);
        for t in 0..tuples {
            if t > 0 {
                doc += SPACE[next(SPACE.len())];
                // Mostly a comma; sometimes none or two.
                doc += [",", ",", ",", ",", ",", "", ",,"][next(7)];
                doc += SPACE[next(SPACE.len())];
            }
            doc += "[";
            doc += SPACE[next(SPACE.len())];
            // Mostly pairs; an easy number mostly, so errors are rare
            // enough for the deeper elements to be reached.
            let len = [2, 2, 2, 2, 0, 1, 3, 4][next(8)];
            for k in 0..len {
                if k > 0 {
                    doc += SPACE[next(SPACE.len())];
                    doc += [",", ",", ",", ",", ",", ",", "", ",,", " ,"][next(9)];
                    doc += SPACE[next(SPACE.len())];
                }
                let n = if next(4) == 0 { next(20) } else { next(8) };
                doc += NUMBERS[n];
            }
            doc += SPACE[next(SPACE.len())];
            if next(40) == 0 {
                doc += ",";
            }
            doc += "]";
        }
        if next(40) == 0 {
            doc += ",";
        }
        doc += SPACE[next(SPACE.len())];
        doc += "]";
        doc += &" ".repeat(next(30));
        docs.push(doc);
    }
    let mut ok = 0;
    for doc in &docs {
        let doc = doc.as_bytes();
        ok += usize::from(agree_bits::<Vec<(f32, f32)>>(doc));
        agree_bits::<Vec<(f64, f64)>>(doc);
        agree_bits::<Vec<(f32, f32, f32)>>(doc);
        let mut deeper = b"[".to_vec();
        deeper.extend_from_slice(doc);
        deeper.extend_from_slice(b",[]]");
        agree_bits::<Vec<Vec<(f32, f32)>>>(&deeper);
    }
    // Both verdicts are common.
    assert!(
        ok > 1_000 && ok < docs.len() - 1_000,
        "{ok} of {}",
        docs.len()
    );
    for doc in docs.iter().take(60) {
        for end in 0..doc.len() {
            agree_bits::<Vec<(f32, f32)>>(&doc.as_bytes()[..end]);
        }
    }
}

/// [`agree`], with floats compared by their bits (so `-0` is not `0`).
#[track_caller]
fn agree_bits<'a, T>(input: &'a [u8]) -> bool
where
    T: serde::Deserialize<'a> + serde::Serialize + PartialEq + std::fmt::Debug,
{
    let ok = agree::<T>(input);
    if ok {
        let bits = |v: T| format!("{:?}", serde_json::to_value(v).unwrap());
        let ours = ito::json::from_slice::<T>(input).unwrap();
        let theirs = serde_json::from_slice::<T>(input).unwrap();
        assert_eq!(
            bits(ours),
            bits(theirs),
            "{:?}",
            String::from_utf8_lossy(input)
        );
    }
    ok
}
