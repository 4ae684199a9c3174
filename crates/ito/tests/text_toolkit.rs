//! The relay text toolkit against serde_json (writers produce what serde_json
//! reads back; readers read what serde_json writes, compact or pretty), plus
//! no-panic properties on arbitrary bytes.

use ito::nostr::text::{self, Strings};
use ito::nostr::ErrorKind;
use proptest::prelude::*;

fn any_string() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("\\".to_string()),
        Just("\"".to_string()),
        Just("\\u0000".to_string()),
        (0u8..0x20).prop_map(|b| (b as char).to_string()),
        any::<char>().prop_map(|c| c.to_string()),
        "[a-z]{0,8}",
    ];
    prop::collection::vec(piece, 0..16).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn hex_array_round_trips_through_serde(items in prop::collection::vec(any::<[u8; 32]>(), 0..24), pretty in any::<bool>()) {
        let mut out = Vec::new();
        text::marshal_hex_array(&mut out, &items);
        let strings: Vec<String> = serde_json::from_slice(&out).unwrap();
        prop_assert_eq!(strings.len(), items.len());
        for (s, item) in strings.iter().zip(&items) {
            prop_assert_eq!(s, &ito::hex::encode(item));
        }
        let text = if pretty { serde_json::to_string_pretty(&strings).unwrap() } else { serde_json::to_string(&strings).unwrap() };
        let mut back: Vec<[u8; 32]> = vec![[7; 32]];
        let rest = text::unmarshal_hex_array(&mut back, text.as_bytes()).unwrap();
        prop_assert!(rest.is_empty());
        prop_assert_eq!(&back[1..], &items[..]);
    }

    #[test]
    fn string_array_round_trips_through_serde(items in prop::collection::vec(any_string(), 0..12), pretty in any::<bool>()) {
        let mut out = Vec::new();
        text::marshal_string_array(&mut out, &items);
        let parsed: Vec<String> = serde_json::from_slice(&out).unwrap();
        prop_assert_eq!(&parsed, &items);
        let text = if pretty { serde_json::to_string_pretty(&items).unwrap() } else { serde_json::to_string(&items).unwrap() };
        let mut back = Strings::new();
        back.push(b"old");
        let rest = text::unmarshal_string_array(&mut back, text.as_bytes()).unwrap();
        prop_assert!(rest.is_empty());
        prop_assert_eq!(back.len(), items.len() + 1);
        for (got, want) in back.iter().skip(1).zip(&items) {
            prop_assert_eq!(got, want.as_bytes());
        }
    }

    #[test]
    fn quoted_reads_what_serde_writes(s in any_string(), tail in "[ ,\\]}a-z\"\\\\]{0,8}") {
        let lit = serde_json::to_string(&s).unwrap();
        let src = format!("  {lit}{tail}");
        let mut out = Vec::new();
        let rest = text::unmarshal_quoted(&mut out, src.as_bytes()).unwrap();
        prop_assert_eq!(out.as_slice(), s.as_bytes());
        prop_assert_eq!(rest, tail.as_bytes());
        let (range, end) = text::quoted_range(src.as_bytes()).unwrap();
        prop_assert_eq!(&src.as_bytes()[range.clone()], &lit.as_bytes()[1..lit.len() - 1]);
        prop_assert_eq!(end, 2 + lit.len());
        let mut buf = src.clone().into_bytes();
        let (value, end2) = text::unmarshal_quoted_in_place(&mut buf).unwrap();
        prop_assert_eq!(&buf[value], s.as_bytes());
        prop_assert_eq!(end2, end);
        let mut q = Vec::new();
        text::quote(&mut q, s.as_bytes());
        prop_assert_eq!(q, lit.into_bytes());
    }

    #[test]
    fn hex_reads_what_it_writes(b in prop::collection::vec(any::<u8>(), 0..100)) {
        let src = format!("\"{}\"]", ito::hex::encode(&b));
        let mut out = vec![1, 2];
        let rest = text::unmarshal_hex(&mut out, src.as_bytes()).unwrap();
        prop_assert_eq!(rest, b"]");
        prop_assert_eq!(&out[2..], &b[..]);
    }

    #[test]
    fn readers_never_panic(b in prop::collection::vec(any::<u8>(), 0..160)) {
        let _ = text::unmarshal_quoted(&mut Vec::new(), &b);
        let _ = text::unmarshal_quoted_in_place(&mut b.clone());
        let _ = text::quoted_range(&b);
        let _ = text::unmarshal_hex(&mut Vec::new(), &b);
        let _ = text::unmarshal_hex_fixed::<4>(&b);
        let _ = text::unmarshal_hex_array::<2>(&mut Vec::new(), &b);
        let _ = text::unmarshal_string_array(&mut Strings::new(), &b);
        let _ = text::unmarshal_bool(&b);
        let _ = text::skip_comma(&b);
        let _ = text::validate_string(&b, 0);
    }

    #[test]
    fn string_array_reader_agrees_with_serde_on_structure(b in prop::collection::vec(prop::sample::select(&b"[]\", \\nab"[..]), 0..24)) {
        let mut out = Strings::new();
        if let Ok(rest) = text::unmarshal_string_array(&mut out, &b) {
            let consumed = &b[..b.len() - rest.len()];
            let parsed: Vec<String> = serde_json::from_slice(consumed).unwrap();
            prop_assert_eq!(parsed.len(), out.len());
            for (p, o) in parsed.iter().zip(out.iter()) {
                prop_assert_eq!(p.as_bytes(), o);
            }
        }
    }
}

#[test]
fn writers() {
    let mut out = Vec::new();
    text::json_key(&mut out, b"id");
    text::quote(&mut out, b"x");
    out.push(b',');
    text::json_key(&mut out, b"k\"y");
    text::marshal_bool(&mut out, false);
    assert_eq!(out, br#""id":"x","k\"y":false"#);
    let mut out = Vec::new();
    text::append_list(&mut out, &[&b"1"[..], b"2", b"3"], b'|', text::append_bytes);
    assert_eq!(out, b"1|2|3");
    let mut out = Vec::new();
    text::append_list::<&[u8]>(&mut out, &[], b',', text::append_bytes);
    assert!(out.is_empty());
    let mut out = Vec::new();
    text::append_single_quote(&mut out, b"a", text::append_bytes);
    text::append_backticks(&mut out, b"b", text::append_bytes);
    text::append_brackets(&mut out, b"c", text::append_bytes);
    text::append_quote(&mut out, b"\n", ito::nostr::escape);
    assert_eq!(out, b"'a'`b`[c]\"\\n\"");
    let mut out = Vec::new();
    text::marshal_hex_array::<[u8; 1]>(&mut out, &[]);
    text::marshal_string_array::<&str>(&mut out, &[]);
    assert_eq!(out, b"[][]");
}

#[test]
fn readers_errors_and_rest() {
    assert_eq!(text::unmarshal_bool(b"true"), Ok((true, &b""[..])));
    assert_eq!(text::unmarshal_bool(b"\tfalse]"), Ok((false, &b"]"[..])));
    let err = text::unmarshal_bool(b"tru").unwrap_err();
    assert_eq!((err.offset(), err.kind()), (3, ErrorKind::UnexpectedEnd));
    let err = text::unmarshal_bool(b"fals3").unwrap_err();
    assert_eq!(err.offset(), 4);
    assert_eq!(text::skip_comma(b",x"), Ok(&b"x"[..]));
    assert_eq!(
        text::skip_comma(b"").unwrap_err().kind(),
        ErrorKind::UnexpectedEnd
    );

    let mut v: Vec<[u8; 1]> = Vec::new();
    assert_eq!(text::unmarshal_hex_array(&mut v, b" [ ] ,"), Ok(&b" ,"[..]));
    assert!(v.is_empty());
    let err = text::unmarshal_hex_array(&mut v, b"[\"00\",]").unwrap_err();
    assert_eq!((err.offset(), v.len()), (6, 0));
    let err = text::unmarshal_hex_array(&mut v, b"[\"00\" \"11\"]").unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::Expected {
            what: "`,` or `]`",
            found: b'"'
        }
    );
    let err = text::unmarshal_hex_array(&mut v, b"[\"00\",\"123\"]").unwrap_err();
    assert_eq!(
        (err.offset(), err.kind()),
        (
            7,
            ErrorKind::HexLength {
                expected: 2,
                found: 3
            }
        )
    );
    let err = text::unmarshal_hex_array(&mut v, b"[\"00\",\"1g\"]").unwrap_err();
    assert_eq!((err.offset(), err.kind()), (8, ErrorKind::HexDigit(b'g')));
    let err = text::unmarshal_string_array(&mut Strings::new(), b"[\"a\",\"b\x01\"]").unwrap_err();
    assert_eq!(
        (err.offset(), err.kind()),
        (7, ErrorKind::ControlCharacter(1))
    );
    let err = text::unmarshal_string_array(&mut Strings::new(), b"[\"a\",1]").unwrap_err();
    assert_eq!(err.offset(), 5);
}
