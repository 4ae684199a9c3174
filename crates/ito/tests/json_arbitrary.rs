//! Arbitrary bytes: no function panics, every kernel agrees with the scalar
//! reference (values *and* errors), and strict decoding agrees with
//! serde_json on whether a literal is valid and on its value.

use ito::json::{self, Options};
use ito::Kernel;
use proptest::prelude::*;

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    let b = prop_oneof![
        6 => proptest::num::u8::ANY,
        3 => proptest::sample::select(b"\\\"un/tbfr0123456789abcdefABCDEFdD8C".to_vec()),
        2 => proptest::sample::select(vec![0x00, 0x1F, 0x20, 0x7F, 0x80, 0xC3, 0xA9, 0xED, 0xF0, 0x9F]),
        3 => proptest::char::range('a', 'z').prop_map(|c| c as u8),
    ];
    proptest::collection::vec(b, 0..300)
}

/// Valid escapes and raw text glued together, so decoding goes deep.
fn escapeish() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(b"\\n".to_vec()),
        Just(b"\\\"".to_vec()),
        Just(b"\\ud83d\\ude00".to_vec()),
        Just(b"\\ud800".to_vec()),
        Just(b"\\udc00".to_vec()),
        Just(b"\\u00e9".to_vec()),
        Just(b"\\u0000".to_vec()),
        Just("é中😀".as_bytes().to_vec()),
        Just(b"\xED\xA0\x80".to_vec()),
        Just(b"\xFF".to_vec()),
        "[a-z ]{0,40}".prop_map(|s| s.into_bytes()),
    ];
    proptest::collection::vec(piece, 0..30).prop_map(|v| v.concat())
}

fn lenient() -> [Options; 4] {
    [
        Options::new(),
        Options::new().replace_invalid(true),
        Options::new().wtf8(true),
        Options::new().replace_invalid(true).wtf8(true),
    ]
}

fn check_all(src: &[u8]) {
    for o in lenient() {
        let mut want = b"prefix".to_vec();
        let want_r = json::unescape_with_kernel(Kernel::Scalar, &mut want, src, &o);
        for k in Kernel::available() {
            let mut got = b"prefix".to_vec();
            let got_r = json::unescape_with_kernel(k, &mut got, src, &o);
            assert_eq!(got_r, want_r, "{k} {o:?} {src:?}");
            assert_eq!(got, want, "{k} {o:?}");
        }
        if want_r.is_ok() && !o.wtf8 {
            assert!(std::str::from_utf8(&want).is_ok());
        }
        for bits in 0..4 {
            let o = o.ascii_only(bits & 1 == 1).escape_slash(bits & 2 == 2);
            let mut want = Vec::new();
            let want_r = json::quote_bytes_with_kernel(Kernel::Scalar, &mut want, src, &o);
            for k in Kernel::available() {
                let mut got = Vec::new();
                let got_r = json::quote_bytes_with_kernel(k, &mut got, src, &o);
                assert_eq!(got_r, want_r, "{k} {o:?}");
                assert_eq!(got, want, "{k} {o:?}");
            }
            if want_r.is_ok() {
                // Whatever was written reads back as JSON.
                let back: String = serde_json::from_slice(&want).unwrap();
                assert_eq!(back, String::from_utf8_lossy(src));
            }
        }
    }
    let mut lit = vec![b'"'];
    lit.extend_from_slice(src);
    let want = json::unquote_with_kernel(Kernel::Scalar, &lit);
    for k in Kernel::available() {
        assert_eq!(json::unquote_with_kernel(k, &lit), want, "{k}");
        assert_eq!(
            json::needs_escape_with_kernel(k, src),
            json::needs_escape_with_kernel(Kernel::Scalar, src)
        );
    }
    // unquote_str agrees with unquote on every UTF-8 input.
    if let Ok(text) = std::str::from_utf8(&lit) {
        assert_eq!(json::unquote_str(text), json::unquote(&lit));
    }
    // Strict decoding vs serde_json.
    lit.push(b'"');
    if let Ok(text) = std::str::from_utf8(&lit) {
        assert_eq!(json::unquote_str(text), json::unquote(&lit));
    }
    let ours = json::unescape(&mut Vec::new(), src);
    let theirs = serde_json::from_slice::<String>(&lit);
    assert_eq!(ours.is_ok(), theirs.is_ok(), "{src:?} {ours:?} {theirs:?}");
    if let Ok(s) = theirs {
        let (v, used) = json::unquote(&lit).unwrap();
        assert_eq!((v.as_ref(), used), (s.as_str(), lit.len()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn prop_arbitrary_bytes(src in bytes()) {
        check_all(&src);
    }

    #[test]
    fn prop_escape_heavy(src in escapeish()) {
        check_all(&src);
    }
}

#[test]
fn regression_cases() {
    for src in [
        &b""[..],
        b"\\",
        b"\\u",
        b"\\uD800\\",
        b"\\uD800\\u",
        b"\\uD800\\uDC0",
        b"\\uD800\\uDBFF",
        b"\xF0\x9F\x98",
        b"\xF0\x9F\x98\\n",
        b"\xE2\x82\\u00e9\xAC",
        // Found by json_unescape_oracle: the U+FFFD rewrite of an invalid
        // run used up the output's room, and the escape after it was
        // written past the capacity.
        b"\xff\xff\xff% \xeb\xf7\xff\xff\xff\xff-;\\\\",
    ] {
        check_all(src);
    }
}

/// The regression above, at every size: a run of invalid bytes (each
/// replaced by three bytes) followed by escapes, for every kernel.
#[test]
fn lossy_rewrite_then_escape_at_every_length() {
    let o = Options::new().replace_invalid(true);
    for bad in 0..300 {
        for tail in [&b"\\\\"[..], b"\\ud83d\\ude00", b"x\\n"] {
            let mut src = vec![0xFF; bad];
            src.extend_from_slice(tail);
            let mut want = Vec::new();
            json::unescape_with_kernel(Kernel::Scalar, &mut want, &src, &o).unwrap();
            for k in Kernel::available() {
                for cap in [0, 1, bad, bad + 7] {
                    let mut got = Vec::with_capacity(cap);
                    json::unescape_with_kernel(k, &mut got, &src, &o).unwrap();
                    assert_eq!(got, want, "{k} {bad}");
                }
            }
        }
    }
}
