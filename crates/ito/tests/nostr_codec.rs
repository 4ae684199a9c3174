//! The NIP-01 string codec (`nostr::escape`, `unescape`, `unescape_in_place`)
//! and the `json` escape kernels under it, against a plain byte-at-a-time
//! reference of our own and serde_json, on every kernel the CPU offers.
//!
//! The sweeps target the kernels' block handling: runs of 0..=70 clean
//! bytes between escapes (the in-block loops copy runs of up to 16 bytes,
//! or up to a whole block, and hand the rest back to the block loop), every density from one
//! escape per block to all escapes, at every phase and at lengths around
//! the block widths, so every path meets every tail.

use ito::json::{self, Options};
use ito::nostr::{self, ErrorKind};
use ito::Kernel;
use proptest::prelude::*;

/// NIP-01 escaping, one byte at a time.
fn reference_escape(src: &[u8]) -> Vec<u8> {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = Vec::new();
    for &b in src {
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            0..=0x1f => {
                out.extend_from_slice(b"\\u00");
                out.push(HEX[(b >> 4) as usize]);
                out.push(HEX[(b & 15) as usize]);
            }
            _ => out.push(b),
        }
    }
    out
}

/// Checks `nostr::escape`, the json kernels (for UTF-8 input), and the
/// round trip back through `unescape` and `unescape_in_place`.
fn check(src: &[u8]) {
    let want = reference_escape(src);
    // Appending after existing bytes, into a vector with odd spare room.
    let mut got = Vec::with_capacity(src.len() % 13);
    got.push(b'#');
    nostr::escape(&mut got, src);
    assert_eq!(&got[1..], &want[..], "escape {src:?}");
    if let Ok(s) = std::str::from_utf8(src) {
        for k in Kernel::available() {
            let mut got = Vec::new();
            json::escape_with_kernel(k, &mut got, s);
            assert_eq!(got, want, "{k} escape {src:?}");
            let mut back = Vec::new();
            json::unescape_with_kernel(k, &mut back, &want, &Options::new()).unwrap();
            assert_eq!(back, src, "{k} unescape {src:?}");
        }
        assert_eq!(
            want,
            serde_json::to_string(s).unwrap().as_bytes()[1..want.len() + 1]
        );
    }
    let mut back = vec![b'#'];
    nostr::unescape(&mut back, &want).unwrap();
    assert_eq!(&back[1..], src, "unescape {want:?}");
    let mut buf = want.clone();
    let n = nostr::unescape_in_place(&mut buf).unwrap();
    assert_eq!(&buf[..n], src, "unescape_in_place {want:?}");
}

const SPECIALS: &[u8] = b"\"\\\n\t\r\x08\x0c\x00\x01\x1f\x7f";

#[test]
fn every_gap_length_density_and_phase() {
    for gap in 0..=70usize {
        for phase in 0..=gap.min(8) {
            for len in [
                1, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 200,
            ] {
                let src: Vec<u8> = (0..len)
                    .map(|j| {
                        if (j + phase) % (gap + 1) == 0 {
                            SPECIALS[(j / (gap + 1)) % SPECIALS.len()]
                        } else {
                            b'a' + (j % 26) as u8
                        }
                    })
                    .collect();
                check(&src);
            }
        }
    }
}

#[test]
fn bursts_of_escapes_between_clean_runs() {
    // A burst of `burst` escapes, then `clean` plain bytes, repeated: dense
    // and sparse blocks alternate at every offset.
    for burst in 1..=20usize {
        for clean in [0, 1, 3, 15, 16, 17, 40, 70] {
            let period = burst + clean;
            for len in [period * 3, period * 5 + 1, 300] {
                let src: Vec<u8> = (0..len)
                    .map(|j| {
                        if j % period < burst {
                            SPECIALS[j % SPECIALS.len()]
                        } else {
                            b'0' + (j % 10) as u8
                        }
                    })
                    .collect();
                check(&src);
            }
        }
    }
}

#[test]
fn the_benchmark_inputs() {
    let all: Vec<u8> = (0..8192).map(|i| (i % 256) as u8).collect();
    let ascii: Vec<u8> = (0..8192).map(|i| (i % 128) as u8).collect();
    for len in [0, 1, 100, 255, 256, 257, 1000, 8192] {
        check(&all[..len]);
        check(&ascii[..len]);
        check(&all[len.min(8192 - 300)..][..300]);
    }
    let small = br#"Say <b>"hi"</b> & 'bye' / C:\path\u0000 -- tags: <a href="/x">link</a> & more text... \ end"#;
    check(small);
}

#[test]
fn unescape_matches_serde_on_every_escape_form() {
    // Every short escape, \u00XX in both cases for every byte, \uXXXX of
    // every length class, surrogate pairs; each at several offsets and
    // repeated so the fast paths meet block edges.
    let mut forms: Vec<String> = vec![
        r#"\""#.into(),
        r"\\".into(),
        r"\/".into(),
        r"\b".into(),
        r"\f".into(),
        r"\n".into(),
        r"\r".into(),
        r"\t".into(),
        r"\u00e9".into(),
        r"\u00E9".into(),
        r"\u07ff".into(),
        r"\u0800".into(),
        r"\uFFFF".into(),
        r"\ud83d\ude00".into(),
        r"\uDBFF\uDFFF".into(),
    ];
    for b in 0..=255u32 {
        forms.push(format!("\\u{b:04x}"));
        forms.push(format!("\\u{b:04X}"));
    }
    for form in &forms {
        for pre in 0..20 {
            for reps in [1, 2, 9] {
                let text = format!("{}{}", "p".repeat(pre), form.repeat(reps));
                let want: String = serde_json::from_str(&format!("\"{text}\"")).unwrap();
                let mut got = Vec::new();
                nostr::unescape(&mut got, text.as_bytes()).unwrap();
                assert_eq!(got, want.as_bytes(), "{text}");
                let mut buf = text.clone().into_bytes();
                let n = nostr::unescape_in_place(&mut buf).unwrap();
                assert_eq!(&buf[..n], want.as_bytes(), "in place {text}");
            }
        }
    }
}

#[test]
fn unescape_errors_name_the_offset_at_every_position() {
    let bad: [(&[u8], ErrorKind); 7] = [
        (b"\\", ErrorKind::UnexpectedEnd),
        (b"\\x", ErrorKind::InvalidEscape(b'x')),
        (b"\\u12g4", ErrorKind::InvalidUnicodeEscape),
        (b"\\ud800", ErrorKind::LoneSurrogate(0xd800)),
        (b"\\udc00\\u0041", ErrorKind::LoneSurrogate(0xdc00)),
        (b"\"", ErrorKind::UnescapedQuote),
        (b"\x01", ErrorKind::ControlCharacter(1)),
    ];
    for (tail, kind) in bad {
        for pre in 0..70 {
            // Clean prefixes and prefixes full of escapes.
            for filler in [&b"a"[..], &b"\\n"[..], &b"\\u00e9"[..]] {
                let mut src = Vec::new();
                while src.len() < pre {
                    src.extend_from_slice(filler);
                }
                let at = src.len();
                src.extend_from_slice(tail);
                let mut out = b"keep".to_vec();
                let err = nostr::unescape(&mut out, &src).unwrap_err();
                assert_eq!((err.offset(), err.kind()), (at, kind), "{src:?}");
                assert_eq!(out, b"keep", "dst restored on error");
                let err = nostr::unescape_in_place(&mut src.clone()).unwrap_err();
                assert_eq!((err.offset(), err.kind()), (at, kind), "in place {src:?}");
            }
        }
    }
}

/// `json` and `nostr` decode string text with the crate's one escape
/// decoder: the same malformed text gets the same offset, kind and message
/// from both, through every kernel and at prefix lengths that reach the
/// inline and the dispatched paths. (Invalid UTF-8 is the one real
/// difference: NIP-01 text is bytes, so nostr copies it verbatim.)
#[test]
fn json_and_nostr_report_malformed_text_alike() {
    let table: [(&[u8], usize, &str); 19] = [
        (br"ab\u12", 2, "unexpected end of input"),
        (br"ab\u", 2, "unexpected end of input"),
        (br"ab\u123", 2, "unexpected end of input"),
        (
            br"ab\u12x",
            2,
            r"malformed unicode escape (`\u` needs four hex digits)",
        ),
        (br"ab\", 2, "unexpected end of input"),
        (br"\x", 0, r"invalid escape `\x`"),
        (
            b"\\\xC3\xA9",
            0,
            r"invalid escape: `\` followed by byte 0xC3",
        ),
        (b"\\ ", 0, r"invalid escape: `\` followed by byte 0x20"),
        (
            br"\u12g4",
            0,
            r"malformed unicode escape (`\u` needs four hex digits)",
        ),
        (
            br#"ab\u12""#,
            2,
            r"malformed unicode escape (`\u` needs four hex digits)",
        ),
        (br"x\ud800", 1, r"unpaired surrogate `\uD800`"),
        (br"x\ud800\u12", 1, r"unpaired surrogate `\uD800`"),
        (br"x\ud800\u0041", 1, r"unpaired surrogate `\uD800`"),
        (br"x\udc00", 1, r"unpaired surrogate `\uDC00`"),
        (br"\ude00\ud83d", 0, r"unpaired surrogate `\uDE00`"),
        (
            b"a\x01",
            1,
            "raw control character U+0001 (it must be escaped)",
        ),
        (
            b"ab\n",
            2,
            "raw control character U+000A (it must be escaped)",
        ),
        (
            b"a\x1f\\x",
            1,
            "raw control character U+001F (it must be escaped)",
        ),
        (br#"a"b"#, 1, "unescaped `\"`"),
    ];
    for (tail, at, message) in table {
        for pre in [0, 1, 15, 16, 17, 40, 63, 64, 100] {
            let mut src = vec![b'p'; pre];
            src.extend_from_slice(tail);
            let want = format!("{message} at byte {}", pre + at);
            let n = nostr::unescape(&mut Vec::new(), &src).unwrap_err();
            assert_eq!(n.to_string(), want, "nostr {src:?}");
            assert_eq!(n.offset(), pre + at);
            let n2 = nostr::unescape_in_place(&mut src.clone()).unwrap_err();
            assert_eq!(n2, n, "nostr in place {src:?}");
            for k in Kernel::available() {
                let j = json::unescape_with_kernel(k, &mut Vec::new(), &src, &Options::default())
                    .unwrap_err();
                assert_eq!(j.to_string(), want, "json {k} {src:?}");
                assert_eq!(
                    format!("{:?}", j.kind()),
                    format!("{:?}", n.kind()),
                    "{src:?}"
                );
            }
            // unquote: the same fault, one byte later (the opening quote),
            // and a malformed escape cut off by the closing quote is not an
            // unexpected end.
            // (Not for a trailing `\`, which would escape the closing quote.)
            if !tail.contains(&b'"') && tail.last() != Some(&b'\\') {
                let mut quoted = vec![b'"'];
                quoted.extend_from_slice(&src);
                quoted.push(b'"');
                let j = json::unquote(&quoted).unwrap_err();
                assert_eq!(j.offset(), pre + at + 1, "unquote {quoted:?}");
                if message != "unexpected end of input" {
                    assert_eq!(format!("{:?}", j.kind()), format!("{:?}", n.kind()));
                }
            }
        }
    }
    // Invalid UTF-8: an error for json (text), bytes kept by nostr.
    let src = b"ab\xFFcd\\n";
    let j = json::unescape(&mut Vec::new(), src).unwrap_err();
    assert_eq!(j.to_string(), "invalid UTF-8 at byte 2");
    let mut out = Vec::new();
    nostr::unescape(&mut out, src).unwrap();
    assert_eq!(out, b"ab\xFFcd\n");
}

fn escapeish() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        4 => b'a'..=b'z',
        2 => prop::sample::select(SPECIALS),
        1 => any::<u8>(),
    ];
    prop::collection::vec(byte, 0..400)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn escape_and_back_on_arbitrary_bytes(src in escapeish()) {
        check(&src);
    }

    #[test]
    fn unescape_never_panics_and_agrees_in_place(src in prop::collection::vec(prop::sample::select(&b"\\u0aAfF\"nrt/x\x01\xc3\xa9"[..]), 0..80)) {
        let mut out = Vec::new();
        let a = nostr::unescape(&mut out, &src);
        let mut buf = src.clone();
        let b = nostr::unescape_in_place(&mut buf);
        match (a, b) {
            (Ok(()), Ok(n)) => prop_assert_eq!(&buf[..n], &out[..]),
            (Err(x), Err(y)) => prop_assert_eq!((x.offset(), x.kind()), (y.offset(), y.kind())),
            (a, b) => prop_assert!(false, "disagree: {:?} vs {:?}", a, b),
        }
    }
}
