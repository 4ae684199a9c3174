//! Options: round trip `unescape(escape(s)) == s` under every combination,
//! each policy's promise checked on the output, and error messages.

use ito::json::{self, Options};
use proptest::prelude::*;

/// All 2^8 combinations of the option fields.
fn all_options() -> Vec<Options> {
    (0u32..256)
        .map(|bits| {
            let on = |i: u32| bits >> i & 1 == 1;
            Options::new()
                .ascii_only(on(0))
                .escape_slash(on(1))
                .html_safe(on(2))
                .js_safe(on(3))
                .escape_del_and_c1(on(4))
                .uppercase_hex(on(5))
                .replace_invalid(on(6))
                .wtf8(on(7))
        })
        .collect()
}

fn samples() -> Vec<String> {
    let mut v: Vec<String> = [
        "",
        "plain",
        "</script><a href='x'>&amp;</a>",
        "\u{0}\u{1}\u{1f}\u{7f}\u{80}\u{9f}\u{a0}",
        "line\u{2028}para\u{2029}end",
        "quote \" backslash \\ slash /",
        "é中😀\u{10ffff}\u{fffd}",
        "\t\n\r\u{8}\u{c}",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let long: String = v.concat().repeat(9);
    v.push(long);
    v
}

fn check(s: &str, o: &Options) {
    let mut q = Vec::new();
    json::quote_with(&mut q, s, o);
    // serde_json reads every policy's output back to the same string.
    assert_eq!(serde_json::from_slice::<String>(&q).unwrap(), s, "{o:?}");
    let (v, used) = json::unquote(&q).unwrap();
    assert_eq!((v.as_ref(), used), (s, q.len()));
    let inner = &q[1..q.len() - 1];
    let mut back = Vec::new();
    json::unescape_with(&mut back, inner, o).unwrap();
    assert_eq!(back, s.as_bytes(), "{o:?}");
    let mut e = Vec::new();
    json::escape_with(&mut e, s, o);
    assert_eq!(e, inner);
    let mut b = Vec::new();
    json::quote_bytes(&mut b, s.as_bytes(), o).unwrap();
    assert_eq!(b, q, "{o:?}");
    // Each policy's promise about the output.
    let text = std::str::from_utf8(inner).unwrap();
    if o.ascii_only {
        assert!(inner.is_ascii());
    }
    if o.escape_slash {
        assert!(!text.replace("\\/", "").contains('/') || !s.contains('/'));
        assert!(!text.contains('/') || text.contains("\\/"));
    }
    if o.html_safe {
        assert!(!text.contains(['<', '>', '&', '\'']));
    }
    if o.js_safe {
        assert!(!text.contains(['\u{2028}', '\u{2029}']));
    }
    if o.escape_del_and_c1 {
        assert!(!text.chars().any(|c| ('\u{7f}'..='\u{9f}').contains(&c)));
    }
    // Walk the escapes (an escaped backslash followed by `u` is not a
    // `\u` escape) and collect the hex digits of the `\uXXXX` ones.
    let mut hex_digits = Vec::new();
    let mut i = 0;
    while i < inner.len() {
        if inner[i] == b'\\' {
            if inner[i + 1] == b'u' {
                hex_digits.extend_from_slice(&inner[i + 2..i + 6]);
                i += 6;
            } else {
                i += 2;
            }
        } else {
            i += 1;
        }
    }
    if o.uppercase_hex {
        assert!(!hex_digits.iter().any(|b| b.is_ascii_lowercase()), "{text}");
    } else {
        assert!(!hex_digits.iter().any(|b| b.is_ascii_uppercase()), "{text}");
    }
    let default_escaping = !(o.ascii_only
        || o.escape_slash
        || o.html_safe
        || o.js_safe
        || o.escape_del_and_c1
        || o.uppercase_hex);
    if default_escaping {
        assert_eq!(q, serde_json::to_vec(s).unwrap());
    }
}

#[test]
fn every_combination_round_trips() {
    for o in all_options() {
        for s in samples() {
            check(&s, &o);
        }
    }
}

#[test]
fn specific_policy_outputs() {
    let q = |s: &str, o: Options| {
        let mut out = Vec::new();
        json::quote_with(&mut out, s, &o);
        String::from_utf8(out).unwrap()
    };
    assert_eq!(q("a/b", Options::new().escape_slash(true)), r#""a\/b""#);
    assert_eq!(
        q("<&>'", Options::new().html_safe(true)),
        r#""\u003c\u0026\u003e\u0027""#
    );
    assert_eq!(
        q("<", Options::new().html_safe(true).uppercase_hex(true)),
        r#""\u003C""#
    );
    assert_eq!(
        q("\u{2028}\u{2029}é", Options::new().js_safe(true)),
        "\"\\u2028\\u2029é\""
    );
    assert_eq!(
        q("\u{7f}\u{85}\u{a0}", Options::new().escape_del_and_c1(true)),
        "\"\\u007f\\u0085\u{a0}\""
    );
    assert_eq!(
        q("😀", Options::new().ascii_only(true)),
        r#""\ud83d\ude00""#
    );
    assert_eq!(
        q("\u{1f}", Options::new().uppercase_hex(true)),
        r#""\u001F""#
    );
    // Invalid bytes under replacement with ascii_only become \ufffd.
    let mut out = Vec::new();
    json::quote_bytes(
        &mut out,
        b"a\xFFb",
        &Options::new().ascii_only(true).replace_invalid(true),
    )
    .unwrap();
    assert_eq!(out, br#""a\ufffdb""#);
}

#[test]
fn error_messages_are_sentences() {
    let msg = |src: &[u8]| {
        json::unescape(&mut Vec::new(), src)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(msg(br"abc\q"), r"invalid escape `\q` at byte 3");
    assert_eq!(msg(b"ab\xFF"), "invalid UTF-8 at byte 2");
    assert_eq!(
        msg(b"a\nb"),
        "raw control character U+000A (it must be escaped) at byte 1"
    );
    assert_eq!(msg(br#"a"b"#), "unescaped `\"` at byte 1");
    assert_eq!(
        msg(br"\u12x4"),
        "malformed unicode escape (`\\u` needs four hex digits) at byte 0"
    );
    assert_eq!(msg(br"x\uDC00"), r"unpaired surrogate `\uDC00` at byte 1");
    assert_eq!(msg(b"x\\"), "unexpected end of input at byte 1");
    assert_eq!(
        msg(b"\\\xC3\xA9"),
        "invalid escape: `\\` followed by byte 0xC3 at byte 0"
    );
    let e = json::unquote(b"'x'").unwrap_err();
    assert_eq!(e.to_string(), "expected an opening `\"` at byte 0");
    let e = json::unquote(b"\"abc").unwrap_err();
    assert_eq!(
        e.to_string(),
        "unterminated string: no closing `\"` before the end of input at byte 4"
    );
    let boxed: Box<dyn std::error::Error> = Box::new(e);
    assert!(boxed.source().is_none());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn prop_round_trip_any_options(s in any::<String>(), bits in 0usize..256) {
        check(&s, &all_options()[bits]);
    }
}
