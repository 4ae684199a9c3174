//! NIP-01 events: real signed events, ids against a serde_json oracle on
//! generated hostile events, parser errors, no-panic properties.

use ito::nostr::{self, canonical, event_id, verify_id, ErrorKind, Event, Field};
use proptest::prelude::*;
use serde_json::json;
use sha2::{Digest, Sha256};

const REAL: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/nostr/events.jsonl"
));

/// The oracle: serde_json's serialization of the canonical array.
fn oracle_canonical(v: &serde_json::Value) -> String {
    let array = json!([
        0,
        v["pubkey"],
        v["created_at"],
        v["kind"],
        v["tags"],
        v["content"]
    ]);
    serde_json::to_string(&array).unwrap()
}

fn oracle_id(v: &serde_json::Value) -> [u8; 32] {
    Sha256::digest(oracle_canonical(v).as_bytes()).into()
}

#[test]
fn real_events_parse_and_verify() {
    let mut n = 0;
    for line in REAL.lines().filter(|l| !l.trim().is_empty()) {
        let event = Event::parse(line.as_bytes()).unwrap_or_else(|e| panic!("{e}: {line}"));
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(ito::hex::encode(&event.id), value["id"].as_str().unwrap());
        assert_eq!(event.content, value["content"].as_str().unwrap());
        assert!(verify_id(&event), "{line}");
        assert_eq!(event_id(&event), oracle_id(&value));
        let mut c = Vec::new();
        canonical(&mut c, &event);
        assert_eq!(String::from_utf8(c).unwrap(), oracle_canonical(&value));
        #[cfg(feature = "schnorr")]
        {
            assert!(nostr::verify_signature(&event), "{line}");
            assert!(nostr::verify(&event));
            let mut forged = event.clone();
            forged.sig[17] ^= 0x40;
            assert!(!nostr::verify_signature(&forged));
            let mut other = event.clone();
            other.created_at += 1;
            assert!(!nostr::verify(&other), "id no longer matches");
        }
        // Re-serialized JSON parses back to the same event.
        let mut out = Vec::new();
        event.to_json(&mut out);
        assert_eq!(Event::parse(&out).unwrap(), event);
        let reparsed: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(reparsed, value);
        n += 1;
    }
    assert!(
        n >= 9,
        "expected the nine events of data/nostr/events.jsonl, got {n}"
    );
}

#[test]
fn real_event_any_field_order_whitespace_and_unknown_fields() {
    let line = REAL.lines().nth(2).unwrap(); // kind 3 with escaped content
    let value: serde_json::Value = serde_json::from_str(line).unwrap();
    let obj = value.as_object().unwrap();
    let keys: Vec<&String> = obj.keys().collect();
    // Reverse order, pretty-printed, with unknown nested fields in between.
    let mut text = String::from(
        "\r\n{ \t\"x-unknown\" : {\"a\":[1,2.5e-3,{\"b\":null}],\"c\":\"\\u0041\\n\"},\n",
    );
    for (i, k) in keys.iter().rev().enumerate() {
        if i > 0 {
            text.push_str(" ,\n\t");
        }
        text.push_str(&format!(
            "{} :\n {}",
            serde_json::to_string(k).unwrap(),
            serde_json::to_string_pretty(&obj[*k]).unwrap()
        ));
    }
    text.push_str(", \"more\": [[[]], true, false, -0, 0.0, \"\\ud83d\\ude00\"]\n}\n\t ");
    let event = Event::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(verify_id(&event));
    assert_eq!(event, Event::parse(line.as_bytes()).unwrap());
}

#[derive(Debug, Clone)]
struct Generated {
    value: serde_json::Value,
    /// JSON text of the event with randomly non-canonical escapes.
    text: String,
}

/// Strings full of what breaks escapers.
fn hostile_string() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("\\".to_string()),
        Just("\\u".to_string()),
        Just("\\u0000".to_string()),
        Just("C:\\users".to_string()),
        Just("\"".to_string()),
        Just("/".to_string()),
        Just("\u{7f}".to_string()),
        Just("\u{2028}\u{2029}".to_string()),
        Just("😀".to_string()),
        Just("é".to_string()),
        Just("\u{fffd}".to_string()),
        Just("<>&'".to_string()),
        (0u8..0x20).prop_map(|b| (b as char).to_string()),
        any::<char>().prop_map(|c| c.to_string()),
        "[a-z ]{0,12}",
    ];
    prop::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

/// Writes `s` as a JSON string, escaping each char at random in one of the
/// ways JSON allows.
fn write_loose(out: &mut String, s: &str, choices: &mut impl Iterator<Item = u8>) {
    out.push('"');
    for c in s.chars() {
        let pick = choices.next().unwrap_or(0) % 4;
        let must = c < ' ' || c == '"' || c == '\\';
        match (pick, must) {
            (0, _) | (1, true) => {
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    if pick == 0 {
                        out.push_str(&format!("\\u{unit:04X}"));
                    } else {
                        out.push_str(&format!("\\u{unit:04x}"));
                    }
                }
            }
            (2, _) if c == '/' => out.push_str("\\/"),
            _ => {
                let enc = serde_json::to_string(&c.to_string()).unwrap();
                out.push_str(&enc[1..enc.len() - 1]);
            }
        }
    }
    out.push('"');
}

fn generated_event() -> impl Strategy<Value = Generated> {
    (
        any::<[u8; 32]>(),
        any::<[u8; 32]>(),
        any::<u64>(),
        any::<u16>(),
        prop::collection::vec(prop::collection::vec(hostile_string(), 0..5), 0..5),
        hostile_string(),
        prop::collection::vec(any::<u8>(), 64..=64),
        prop::collection::vec(any::<u8>(), 0..512),
        any::<bool>(),
    )
        .prop_map(
            |(id, pubkey, created_at, kind, mut tags, content, sig, choices, long_tag)| {
                if long_tag {
                    tags.push(vec!["t".repeat(3000), "\\\"".repeat(500)]);
                }
                let value = json!({
                    "id": ito::hex::encode(&id),
                    "pubkey": ito::hex::encode(&pubkey),
                    "created_at": created_at,
                    "kind": kind,
                    "tags": tags,
                    "content": content,
                    "sig": ito::hex::encode(&sig),
                });
                let mut choices = choices.into_iter().cycle();
                let mut text = String::from("{");
                let order = [
                    "sig",
                    "tags",
                    "id",
                    "content",
                    "kind",
                    "pubkey",
                    "created_at",
                ];
                let rotate = choices.next().unwrap_or(0) as usize % order.len();
                for (i, key) in order
                    .iter()
                    .cycle()
                    .skip(rotate)
                    .take(order.len())
                    .enumerate()
                {
                    if i > 0 {
                        text.push_str(if choices.next().unwrap_or(0) % 2 == 0 {
                            ","
                        } else {
                            " ,\n "
                        });
                    }
                    text.push_str(&format!("\"{key}\":"));
                    match *key {
                        "tags" => {
                            text.push('[');
                            for (t, tag) in tags.iter().enumerate() {
                                if t > 0 {
                                    text.push_str(", ");
                                }
                                text.push('[');
                                for (k, s) in tag.iter().enumerate() {
                                    if k > 0 {
                                        text.push(',');
                                    }
                                    write_loose(&mut text, s, &mut choices);
                                }
                                text.push(']');
                            }
                            text.push(']');
                        }
                        "content" => write_loose(&mut text, &content, &mut choices),
                        _ => text.push_str(&value[*key].to_string()),
                    }
                }
                text.push('}');
                Generated { value, text }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn ids_match_serde_json_oracle(g in generated_event()) {
        // serde_json reads our loosely escaped text to the same value.
        let reread: serde_json::Value = serde_json::from_str(&g.text).unwrap();
        prop_assert_eq!(&reread, &g.value);

        let event = Event::parse(g.text.as_bytes()).map_err(|e| TestCaseError::fail(format!("{e}\n{}", g.text)))?;
        let mut c = Vec::new();
        canonical(&mut c, &event);
        prop_assert_eq!(String::from_utf8(c).unwrap(), oracle_canonical(&g.value));
        prop_assert_eq!(event_id(&event), oracle_id(&g.value));
        prop_assert_eq!(event.tags.to_vec(), serde_json::from_value::<Vec<Vec<String>>>(g.value["tags"].clone()).unwrap());
        prop_assert_eq!(event.content.as_ref(), g.value["content"].as_str().unwrap());

        // The compact form parses back to an equal event.
        let mut out = Vec::new();
        event.to_json(&mut out);
        let back = Event::parse(&out).unwrap();
        prop_assert_eq!(&back, &event);
        prop_assert_eq!(serde_json::from_slice::<serde_json::Value>(&out).unwrap(), g.value);
    }

    #[test]
    fn escape_matches_serde_json(s in hostile_string()) {
        let mut out = Vec::new();
        nostr::escape(&mut out, s.as_bytes());
        let quoted = serde_json::to_string(&s).unwrap();
        prop_assert_eq!(out.as_slice(), &quoted.as_bytes()[1..quoted.len() - 1]);
        let mut back = Vec::new();
        nostr::unescape(&mut back, &out).unwrap();
        prop_assert_eq!(back.as_slice(), s.as_bytes());
        let n = nostr::unescape_in_place(&mut out).unwrap();
        prop_assert_eq!(&out[..n], s.as_bytes());
    }

    #[test]
    fn unescape_any_bytes_round_trips(b in prop::collection::vec(any::<u8>(), 0..300)) {
        let mut e = Vec::new();
        nostr::escape(&mut e, &b);
        let mut back = Vec::new();
        nostr::unescape(&mut back, &e).unwrap();
        prop_assert_eq!(&back, &b);
    }

    #[test]
    fn unescape_agrees_with_serde_json_on_loose_text(s in hostile_string(), choices in prop::collection::vec(any::<u8>(), 1..64)) {
        let mut text = String::new();
        write_loose(&mut text, &s, &mut choices.into_iter().cycle());
        let mut out = Vec::new();
        nostr::unescape(&mut out, &text.as_bytes()[1..text.len() - 1]).unwrap();
        prop_assert_eq!(out.as_slice(), s.as_bytes());
    }

    #[test]
    fn unescape_in_place_agrees_with_unescape(b in prop::collection::vec(prop::sample::select(&b"\\u00aAfFdDc8e9\"/nbx\x01\x80\xff z"[..]), 0..64)) {
        let mut out = vec![7];
        let a = nostr::unescape(&mut out, &b);
        let mut buf = b.clone();
        let c = nostr::unescape_in_place(&mut buf);
        match (a, c) {
            (Ok(()), Ok(n)) => prop_assert_eq!(&out[1..], &buf[..n]),
            (Err(x), Err(y)) => {
                prop_assert_eq!(x, y);
                prop_assert_eq!(out, vec![7], "dst untouched on error");
            }
            (x, y) => prop_assert!(false, "{:?} vs {:?}", x, y),
        }
    }

    #[test]
    fn parsers_never_panic_on_arbitrary_bytes(b in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = Event::parse(&b);
        let _ = nostr::unescape(&mut Vec::new(), &b);
        let mut m = b.clone();
        let _ = nostr::unescape_in_place(&mut m);
        if let Ok(s) = std::str::from_utf8(&b) {
            let _ = nostr::Tags::parse(s);
        }
    }

    #[test]
    fn parser_never_panics_on_mutated_events(g in generated_event(), at in any::<prop::sample::Index>(), byte in any::<u8>(), cut in any::<prop::sample::Index>()) {
        let mut text = g.text.into_bytes();
        let i = at.index(text.len());
        text[i] = byte;
        let end = cut.index(text.len() + 1);
        for t in [&text[..], &text[..end]] {
            if let Ok(event) = Event::parse(t) {
                // Anything we accept, serde_json accepts as JSON too.
                prop_assert!(serde_json::from_slice::<serde_json::Value>(t).is_ok(), "{}", String::from_utf8_lossy(t));
                let _ = event_id(&event);
            }
        }
    }
}

const GOOD: &str = r#"{"id":"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65","pubkey":"6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93","created_at":1673347337,"kind":1,"tags":[["e","3da979448d9ba263864c4d6f14984c423a3838364ec255f03c7904b1ae77f206"],["p","bf2376e17ba4ec269d10fcc996a4746b451152be9031fa48e74553dde5526bce"]],"content":"Walled gardens became prisons, and nostr is the first step towards tearing down the prison walls.","sig":"908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262"}"#;

fn err_of(text: &str) -> nostr::Error {
    Event::parse(text.as_bytes()).expect_err(text)
}

#[test]
fn missing_fields_are_named() {
    for field in [
        "id",
        "pubkey",
        "created_at",
        "kind",
        "tags",
        "content",
        "sig",
    ] {
        let mut v: serde_json::Value = serde_json::from_str(GOOD).unwrap();
        v.as_object_mut().unwrap().remove(field);
        let text = v.to_string();
        let err = err_of(&text);
        assert_eq!(err.kind(), ErrorKind::MissingField, "{field}");
        assert_eq!(err.field().map(Field::name), Some(field));
        assert_eq!(
            err.offset(),
            text.len() - 1,
            "reported at the closing brace"
        );
        assert!(err.to_string().contains(&format!("`{field}`")), "{err}");
    }
}

#[test]
fn duplicate_fields_are_rejected() {
    let text = GOOD.replacen("\"kind\":1,", "\"kind\":1,\"kind\":1,", 1);
    let err = err_of(&text);
    assert_eq!(
        (err.kind(), err.field()),
        (ErrorKind::DuplicateField, Some(Field::Kind))
    );
    assert_eq!(err.offset(), text.find("\"kind\":1,\"kind\"").unwrap() + 9);
}

#[test]
fn mistyped_fields_are_rejected_with_offsets() {
    let cases: &[(&str, &str, Field)] = &[
        ("\"kind\":1,", "\"kind\":\"1\",", Field::Kind),
        ("\"kind\":1,", "\"kind\":1.0,", Field::Kind),
        ("\"kind\":1,", "\"kind\":1e0,", Field::Kind),
        ("\"kind\":1,", "\"kind\":-1,", Field::Kind),
        ("\"kind\":1,", "\"kind\":65536,", Field::Kind),
        ("\"kind\":1,", "\"kind\":01,", Field::Kind),
        (
            "\"created_at\":1673347337",
            "\"created_at\":99999999999999999999",
            Field::CreatedAt,
        ),
        (
            "\"created_at\":1673347337",
            "\"created_at\":null",
            Field::CreatedAt,
        ),
        ("\"tags\":[[", "\"tags\":{[", Field::Tags),
        ("[\"e\",\"3da9", "[\"e\",3,\"3da9", Field::Tags),
        (
            "\"content\":\"Walled",
            "\"content\":[\"Walled",
            Field::Content,
        ),
        ("\"id\":\"4376", "\"id\":\"4376c", Field::Id),
        ("\"id\":\"4376", "\"id\":\"437C", Field::Id),
        ("\"pubkey\":\"6e46", "\"pubkey\":\"6E46", Field::Pubkey),
        ("\"sig\":\"908a", "\"sig\":\"908", Field::Sig),
        ("\"sig\":\"908a", "\"sig\":\"\\u0039908a", Field::Sig),
    ];
    for (from, to, field) in cases {
        let text = GOOD.replacen(from, to, 1);
        assert_ne!(text, GOOD);
        let err = err_of(&text);
        assert_eq!(err.field(), Some(*field), "{to}: {err}");
        let at = text.find(to).unwrap();
        assert!(
            err.offset() >= at && err.offset() <= at + to.len() + 130,
            "{to}: {err}"
        );
    }
    let err = err_of(&GOOD.replacen("\"id\":\"4376", "\"id\":\"437C", 1));
    assert_eq!(err.kind(), ErrorKind::HexDigit(b'C'));
    assert_eq!(
        err.to_string(),
        "`id`: uppercase hex digit `C` (must be lowercase) at byte 10"
    );
    let err = err_of(&GOOD.replacen("\"id\":\"4376", "\"id\":\"4376c", 1));
    assert_eq!(
        err.kind(),
        ErrorKind::HexLength {
            expected: 64,
            found: 65
        }
    );
    assert_eq!(
        err.to_string(),
        "`id`: expected 64 hex digits, found 65 at byte 7"
    );
    let err = err_of(&GOOD.replacen("\"kind\":1,", "\"kind\":70000,", 1));
    assert_eq!(err.kind(), ErrorKind::OutOfRange { max: 65535 });
}

#[test]
fn syntax_errors_carry_offsets() {
    let cases: &[(&str, usize, ErrorKind)] = &[
        ("", 0, ErrorKind::UnexpectedEnd),
        ("  ", 2, ErrorKind::UnexpectedEnd),
        (
            "[]",
            0,
            ErrorKind::Expected {
                what: "`{` (an event object)",
                found: b'[',
            },
        ),
        (
            "{\"a\" 1}",
            5,
            ErrorKind::Expected {
                what: "`:`",
                found: b'1',
            },
        ),
        (
            "{\"a\":1 \"b\":2}",
            7,
            ErrorKind::Expected {
                what: "`,` or `}`",
                found: b'"',
            },
        ),
        (
            "{\"a\":tru}",
            8,
            ErrorKind::Expected {
                what: "a JSON value",
                found: b'}',
            },
        ),
        ("{\"a\":\"x\ny\"}", 7, ErrorKind::ControlCharacter(b'\n')),
        ("{\"a\":\"\\q\"}", 6, ErrorKind::InvalidEscape(b'q')),
        ("{\"a\":\"\\ud800\"}", 6, ErrorKind::LoneSurrogate(0xd800)),
        ("{\"a\":\"\\u00zz\"}", 6, ErrorKind::InvalidUnicodeEscape),
        ("{\"a\":\"abc", 9, ErrorKind::UnexpectedEnd),
        (
            "{\"a\":[1,]}",
            8,
            ErrorKind::Expected {
                what: "a JSON value",
                found: b']',
            },
        ),
        (
            "{\"a\":01}",
            6,
            ErrorKind::Expected {
                what: "`,` or `}`",
                found: b'1',
            },
        ),
    ];
    for (text, offset, kind) in cases {
        let err = Event::parse(text.as_bytes()).expect_err(text);
        assert_eq!(
            (err.offset(), err.kind()),
            (*offset, *kind),
            "{text:?}: {err}"
        );
    }
    let err = Event::parse(b"{\"a\":\"ok\xff\"}").unwrap_err();
    assert_eq!((err.offset(), err.kind()), (8, ErrorKind::InvalidUtf8));
    let mut tail = GOOD.to_string();
    tail.push_str(" x");
    let err = err_of(&tail);
    assert_eq!(
        (err.offset(), err.kind()),
        (GOOD.len() + 1, ErrorKind::TrailingCharacters)
    );
    // Deep nesting in an unknown field is bounded, not a stack overflow.
    let deep = format!("{{\"x\":{}{}}}", "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(err_of(&deep).kind(), ErrorKind::TooDeep);
}

#[test]
fn nesting_limit_matches_serde_json() {
    for k in [1usize, 100, 125, 126, 127, 128, 200] {
        let text = GOOD.replacen(
            '{',
            &format!("{{\"x\":{}{},", "[".repeat(k), "]".repeat(k)),
            1,
        );
        let ours = Event::parse(text.as_bytes()).is_ok();
        let serde = serde_json::from_str::<serde_json::Value>(&text).is_ok();
        assert_eq!(ours, serde, "nesting {k}");
    }
}

#[test]
fn content_borrows_unless_escaped() {
    let event = Event::parse(GOOD.as_bytes()).unwrap();
    assert!(matches!(event.content, std::borrow::Cow::Borrowed(_)));
    let text = GOOD.replacen("Walled", "Wal\\nled", 1);
    let event = Event::parse(text.as_bytes()).unwrap();
    assert!(matches!(event.content, std::borrow::Cow::Owned(_)));
    assert!(event.content.starts_with("Wal\nled"));
}
