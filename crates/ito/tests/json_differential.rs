//! Differential tests of `ito::json` against serde_json and the scalar
//! reference kernel: the corpora, exhaustive small cases over every kernel,
//! and property-generated strings from every Unicode plane.

use ito::json::{self, ErrorKind, Options};
use ito::Kernel;
use proptest::prelude::*;

const TWITTER: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/corpus/twitter.json"
));
const CITM: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/corpus/citm_catalog.json"
));

fn strings_of(doc: &str, out: &mut Vec<String>) {
    fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(a) => a.iter().for_each(|v| walk(v, out)),
            serde_json::Value::Object(m) => {
                for (k, v) in m {
                    out.push(k.clone());
                    walk(v, out);
                }
            }
            _ => {}
        }
    }
    walk(&serde_json::from_str(doc).unwrap(), out);
}

fn corpus() -> Vec<String> {
    let mut all = Vec::new();
    strings_of(TWITTER, &mut all);
    strings_of(CITM, &mut all);
    assert!(all.len() > 10_000);
    all
}

fn kernels() -> Vec<Kernel> {
    let ks: Vec<Kernel> = Kernel::available().collect();
    assert!(ks.contains(&Kernel::Scalar) && ks.contains(&Kernel::Swar));
    ks
}

/// serde_json's escaping of `s`, without the quotes.
fn serde_escaped(s: &str) -> Vec<u8> {
    let q = serde_json::to_vec(s).unwrap();
    q[1..q.len() - 1].to_vec()
}

#[test]
fn corpus_quote_matches_serde_json() {
    let all = corpus();
    for s in &all {
        let want = serde_json::to_vec(s).unwrap();
        let mut got = Vec::new();
        json::quote(&mut got, s);
        assert_eq!(got, want, "{s:?}");
        got.clear();
        json::quote_with(&mut got, s, &Options::default());
        assert_eq!(got, want);
        got.clear();
        json::quote_bytes(&mut got, s.as_bytes(), &Options::default()).unwrap();
        assert_eq!(got, want);
        for k in kernels() {
            let mut got = Vec::new();
            json::escape_with_kernel(k, &mut got, s);
            assert_eq!(got, &want[1..want.len() - 1], "{k} {s:?}");
        }
    }
}

#[test]
fn corpus_unquote_matches_serde_json() {
    let all = corpus();
    for s in &all {
        let lit = serde_json::to_vec(s).unwrap();
        let text = std::str::from_utf8(&lit).unwrap();
        let (v, used) = json::unquote_str(text).unwrap();
        assert_eq!((v.as_ref(), used), (s.as_str(), lit.len()));
        for k in kernels() {
            let (v, used) = json::unquote_with_kernel(k, &lit).unwrap();
            assert_eq!((v.as_ref(), used), (s.as_str(), lit.len()), "{k}");
            let mut out = Vec::new();
            json::unescape_with_kernel(k, &mut out, &lit[1..lit.len() - 1], &Options::new())
                .unwrap();
            assert_eq!(out, s.as_bytes(), "{k}");
        }
    }
}

/// Filler plus one special byte (or sequence) at every position, every
/// length 0..=300, every kernel, against the scalar reference and
/// serde_json.
#[test]
fn exhaustive_escape_positions() {
    let specials: [&str; 7] = ["\"", "\\", "\u{0}", "\u{1f}", "\u{7f}", "é", "😀"];
    let ks = kernels();
    for len in 0..=300usize {
        for pos in 0..=len {
            for sp in specials {
                if pos + sp.len() > len && !(len == 0 && pos == 0) {
                    continue;
                }
                let mut s = "x".repeat(pos);
                if len > 0 {
                    s.push_str(sp);
                    s.push_str(&"y".repeat(len - pos - sp.len()));
                }
                let want = serde_escaped(&s);
                for &k in &ks {
                    let mut got = vec![b'#'];
                    json::escape_with_kernel(k, &mut got, &s);
                    assert_eq!(&got[1..], &want[..], "{k} len {len} pos {pos} {sp:?}");
                    let mut back = Vec::new();
                    json::unescape_with_kernel(k, &mut back, &want, &Options::new()).unwrap();
                    assert_eq!(back, s.as_bytes(), "{k} len {len} pos {pos}");
                }
                let mut got = Vec::new();
                json::escape(&mut got, &s);
                assert_eq!(got, want);
                // With room to spare and earlier output: the inline paths
                // that write into spare capacity without growing.
                let mut got = Vec::with_capacity(8 * len + 16);
                got.extend_from_slice(b"ab");
                json::quote(&mut got, &s);
                assert_eq!(&got[..3], b"ab\"", "len {len} pos {pos} {sp:?}");
                assert_eq!(
                    &got[3..got.len() - 1],
                    &want[..],
                    "len {len} pos {pos} {sp:?}"
                );
                assert_eq!(got.last(), Some(&b'"'));
                got.truncate(2);
                json::escape(&mut got, &s);
                assert_eq!(&got[2..], &want[..], "len {len} pos {pos} {sp:?}");
            }
        }
    }
}

/// Errors are found at the right offset by every kernel, at every position.
#[test]
fn exhaustive_error_positions() {
    let ks = kernels();
    let cases: [(&[u8], ErrorKind); 6] = [
        (b"\xFF", ErrorKind::InvalidUtf8),
        (b"\xE2\x82", ErrorKind::InvalidUtf8),
        (b"\x01", ErrorKind::ControlCharacter(1)),
        (b"\"", ErrorKind::UnescapedQuote),
        (br"\q", ErrorKind::InvalidEscape(b'q')),
        (br"\uD800", ErrorKind::LoneSurrogate(0xD800)),
    ];
    for len in 0..=200usize {
        for pos in 0..len {
            for (bad, kind) in cases {
                if pos + bad.len() > len {
                    continue;
                }
                let mut src = vec![b'a'; len];
                src[pos..pos + bad.len()].copy_from_slice(bad);
                for &k in &ks {
                    let mut out = b"keep".to_vec();
                    let err =
                        json::unescape_with_kernel(k, &mut out, &src, &Options::new()).unwrap_err();
                    assert_eq!((err.offset(), err.kind()), (pos, kind), "{k} {len} {pos}");
                    assert_eq!(out, b"keep");
                    if kind == ErrorKind::InvalidUtf8 {
                        let mut out = Vec::new();
                        let err = json::quote_bytes_with_kernel(k, &mut out, &src, &Options::new())
                            .unwrap_err();
                        assert_eq!((err.offset(), err.kind()), (pos, kind), "{k} {len} {pos}");
                        assert!(out.is_empty());
                        json::quote_bytes_with_kernel(
                            k,
                            &mut out,
                            &src,
                            &Options::new().replace_invalid(true),
                        )
                        .unwrap();
                        let want = serde_json::to_vec(&String::from_utf8_lossy(&src)).unwrap();
                        assert_eq!(out, want, "{k} {len} {pos}");
                    }
                    // The same text as a literal: offsets shift by one.
                    let mut lit = vec![b'"'];
                    lit.extend_from_slice(&src);
                    if kind != ErrorKind::UnescapedQuote {
                        lit.push(b'"');
                        let err = json::unquote_with_kernel(k, &lit).unwrap_err();
                        assert_eq!((err.offset(), err.kind()), (pos + 1, kind), "{k}");
                    }
                }
            }
        }
    }
}

fn any_plane_string() -> impl Strategy<Value = String> {
    // Characters from every plane, weighted towards the interesting ones.
    let ch = prop_oneof![
        4 => proptest::char::range(' ', '~'),
        2 => proptest::char::range('\0', '\u{1f}'),
        1 => Just('"'),
        1 => Just('\\'),
        1 => proptest::char::range('\u{80}', '\u{7ff}'),
        1 => proptest::char::range('\u{800}', '\u{ffff}'),
        1 => proptest::char::range('\u{10000}', '\u{10ffff}'),
        1 => proptest::char::any(),
    ];
    proptest::collection::vec(ch, 0..200).prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn prop_quote_matches_serde(s in any_plane_string()) {
        let want = serde_json::to_vec(&s).unwrap();
        let mut got = Vec::new();
        json::quote(&mut got, &s);
        prop_assert_eq!(&got, &want);
        for k in kernels() {
            let mut got = Vec::new();
            json::quote_bytes_with_kernel(k, &mut got, s.as_bytes(), &Options::new()).unwrap();
            prop_assert_eq!(&got, &want);
            let (v, used) = json::unquote_with_kernel(k, &want).unwrap();
            prop_assert_eq!(v.as_ref(), s.as_str());
            prop_assert_eq!(used, want.len());
        }
    }

    #[test]
    fn prop_unescape_matches_serde(s in any_plane_string(), ascii in any::<bool>()) {
        // serde_json decodes \u escapes too: compare on ASCII-only input.
        let mut lit = Vec::new();
        json::quote_with(&mut lit, &s, &Options::new().ascii_only(ascii));
        let want: String = serde_json::from_slice(&lit).unwrap();
        prop_assert_eq!(&want, &s);
        let (v, _) = json::unquote(&lit).unwrap();
        prop_assert_eq!(v.as_ref(), s.as_str());
    }
}

/// Escape-dense inputs (a special byte every `k` bytes, at every phase),
/// which take the kernels' dense-block path, at every length 0..=300.
#[test]
fn exhaustive_dense_patterns() {
    let ks = kernels();
    let specials = ['"', '\n', '\\', '\u{1}', '\t'];
    for len in 0..=300usize {
        for k in 1..=5usize {
            for phase in 0..k {
                let s: String = (0..len)
                    .map(|j| {
                        if j % k == phase {
                            specials[(j / k) % specials.len()]
                        } else {
                            'a'
                        }
                    })
                    .collect();
                let want = serde_escaped(&s);
                for &kernel in &ks {
                    let mut got = Vec::with_capacity(len % 7);
                    json::escape_with_kernel(kernel, &mut got, &s);
                    assert_eq!(got, want, "{kernel} len {len} k {k} phase {phase}");
                    let mut back = Vec::new();
                    json::unescape_with_kernel(kernel, &mut back, &want, &Options::new()).unwrap();
                    assert_eq!(back, s.as_bytes());
                }
            }
        }
    }
}
