//! Client messages and filters against the `nostr` crate (0.45) as oracle:
//! generated filters × generated events give the same matches, messages
//! written with any JSON whitespace between any tokens, keys in any order
//! and escaped spellings parse to the oracle's values, and the places where
//! the `nostr` crate and NIP-01 disagree are written down with the NIP's
//! words.

use ::nostr::filter::MatchEventOptions;
use ::nostr::prelude as oracle;
use ito::nostr::{self, matches_any, ClientMessage, Event, Filter};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

// ---------------------------------------------------------------------------
// Rendering JSON with chosen whitespace and escapes.

/// JSON whitespace pieces to put between tokens.
const WS: [&str; 7] = ["", " ", "\t", "\r", "\n", "\r\n", " \t\r\n "];

/// Writes JSON text for `value`, with `ws()` between every pair of tokens,
/// object keys in the order given, and strings escaped per `escape()`.
struct Writer<'a> {
    out: String,
    choices: &'a mut dyn Iterator<Item = u8>,
}

impl Writer<'_> {
    fn ws(&mut self) {
        let pick = self.choices.next().unwrap_or(0) as usize % WS.len();
        self.out.push_str(WS[pick]);
    }

    fn string(&mut self, s: &str) {
        self.out.push('"');
        for c in s.chars() {
            let pick = self.choices.next().unwrap_or(0) % 5;
            match (pick, c) {
                (_, '"') => self.out.push_str("\\\""),
                (_, '\\') => self.out.push_str("\\\\"),
                (0, _) | (_, '\0'..='\x1f') => {
                    let mut buf = [0u16; 2];
                    for unit in c.encode_utf16(&mut buf) {
                        self.out.push_str(&format!("\\u{unit:04X}"));
                    }
                }
                (1, '/') => self.out.push_str("\\/"),
                _ => self.out.push(c),
            }
        }
        self.out.push('"');
    }

    fn value(&mut self, v: &serde_json::Value) {
        use serde_json::Value;
        match v {
            Value::String(s) => self.string(s),
            Value::Array(items) => {
                self.out.push('[');
                for (i, item) in items.iter().enumerate() {
                    self.ws();
                    if i > 0 {
                        self.out.push(',');
                        self.ws();
                    }
                    self.value(item);
                }
                self.ws();
                self.out.push(']');
            }
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                let rotate = self.choices.next().unwrap_or(0) as usize;
                if !keys.is_empty() {
                    let n = keys.len();
                    keys.rotate_left(rotate % n);
                }
                if rotate % 2 == 1 {
                    keys.reverse();
                }
                self.out.push('{');
                for (i, key) in keys.into_iter().enumerate() {
                    self.ws();
                    if i > 0 {
                        self.out.push(',');
                        self.ws();
                    }
                    self.string(key);
                    self.ws();
                    self.out.push(':');
                    self.ws();
                    self.value(&map[key]);
                }
                self.ws();
                self.out.push('}');
            }
            other => self.out.push_str(&other.to_string()),
        }
    }
}

fn render(v: &serde_json::Value, choices: &[u8]) -> String {
    let mut it = choices.iter().copied().cycle();
    let mut w = Writer {
        out: String::new(),
        choices: &mut it,
    };
    w.ws();
    w.value(v);
    w.ws();
    w.out
}

// ---------------------------------------------------------------------------
// Generated events and filters over small pools, so that they match often.

fn hex32(seed: u8) -> String {
    ito::hex::encode(&[seed; 32])
}

const WORDS: [&str; 5] = ["nostr", "rust", "a\"b\\c", "é/😀", "\u{2028}x\u{7f}"];
const TAG_NAMES: [&str; 7] = ["e", "p", "t", "T", "x", "ee", ""];

fn tag_strategy() -> impl Strategy<Value = Vec<String>> {
    (0..TAG_NAMES.len(), 0u8..4, 0usize..5, 0usize..3).prop_map(|(n, h, w, len)| {
        let name = TAG_NAMES[n];
        let value = if matches!(name, "e" | "p") {
            hex32(h)
        } else {
            WORDS[w].to_string()
        };
        let mut tag = vec![name.to_string()];
        if len > 0 {
            tag.push(value);
        }
        if len > 1 {
            tag.push("extra".into());
        }
        tag
    })
}

fn event_strategy() -> impl Strategy<Value = serde_json::Value> {
    (
        0u8..4,
        0u8..4,
        0u64..10,
        0u16..4,
        prop::collection::vec(tag_strategy(), 0..4),
        0usize..5,
    )
        .prop_map(|(id, pk, t, kind, tags, w)| {
            serde_json::json!({
                "id": hex32(id), "pubkey": hex32(pk + 100), "created_at": t, "kind": kind,
                "tags": tags, "content": WORDS[w], "sig": ito::hex::encode(&[7u8; 64]),
            })
        })
}

/// A non-empty list of hex values from the pool, sometimes padded past the
/// hash-set threshold.
fn hex_list(base: u8) -> impl Strategy<Value = Vec<String>> {
    (prop::collection::vec(0u8..4, 1..4), any::<bool>()).prop_map(move |(v, big)| {
        let mut out: Vec<String> = v.into_iter().map(|s| hex32(s + base)).collect();
        if big {
            out.extend((200..230).map(hex32));
        }
        out
    })
}

fn filter_strategy() -> impl Strategy<Value = serde_json::Value> {
    (
        prop::option::of(hex_list(0)),
        prop::option::of(hex_list(100)),
        prop::option::of((prop::collection::vec(0u16..5, 1..4), any::<bool>())),
        prop::option::of(0u64..10),
        prop::option::of(0u64..10),
        prop::option::of(0u64..100),
        prop::collection::btree_map(
            prop::sample::select(vec!["e", "p", "t", "T", "x"]),
            (prop::collection::vec(0usize..5, 1..3), 0u8..4),
            0..3,
        ),
        any::<bool>(),
    )
        .prop_map(
            |(ids, authors, kinds, since, until, limit, tags, unknown)| {
                let mut m = serde_json::Map::new();
                if let Some(ids) = ids {
                    m.insert("ids".into(), ids.into());
                }
                if let Some(a) = authors {
                    m.insert("authors".into(), a.into());
                }
                if let Some((mut k, big)) = kinds {
                    if big {
                        k.extend(1000..1020);
                    }
                    m.insert("kinds".into(), k.into());
                }
                if let Some(s) = since {
                    m.insert("since".into(), s.into());
                }
                if let Some(u) = until {
                    m.insert("until".into(), u.into());
                }
                if let Some(l) = limit {
                    m.insert("limit".into(), l.into());
                }
                for (name, (words, h)) in tags {
                    let values: Vec<String> = if matches!(name, "e" | "p") {
                        vec![hex32(h), hex32(h + 1)]
                    } else {
                        words.into_iter().map(|w| WORDS[w].to_string()).collect()
                    };
                    m.insert(format!("#{name}"), values.into());
                }
                if unknown {
                    m.insert(
                        "x-extension".into(),
                        serde_json::json!({"a": [1, null, true]}),
                    );
                    m.insert("#ab".into(), serde_json::json!(["ignored"]));
                }
                serde_json::Value::Object(m)
            },
        )
}

// ---------------------------------------------------------------------------
// Comparing parsed values with the oracle's.

fn assert_same_filter(ours: &Filter<'_>, theirs: &oracle::Filter) {
    let hexes =
        |s: Option<&nostr::Set<[u8; 32]>>| s.map(|s| s.iter().copied().collect::<BTreeSet<_>>());
    assert_eq!(
        hexes(ours.ids.as_ref()),
        theirs
            .ids
            .as_ref()
            .map(|s| s.iter().map(|i| i.to_bytes()).collect())
    );
    assert_eq!(
        hexes(ours.authors.as_ref()),
        theirs
            .authors
            .as_ref()
            .map(|s| s.iter().map(|p| p.to_bytes()).collect())
    );
    assert_eq!(
        ours.kinds
            .as_ref()
            .map(|s| s.iter().copied().collect::<BTreeSet<_>>()),
        theirs
            .kinds
            .as_ref()
            .map(|s| s.iter().map(|k| k.as_u16()).collect())
    );
    assert_eq!(ours.since, theirs.since.map(|t| t.as_secs()));
    assert_eq!(ours.until, theirs.until.map(|t| t.as_secs()));
    assert_eq!(ours.limit, theirs.limit.map(|l| l as u64));
    assert_eq!(ours.search.as_deref(), theirs.search.as_deref());
    let ours_tags: BTreeMap<char, BTreeSet<String>> = ours
        .tags
        .iter()
        .map(|t| {
            (
                t.name as char,
                t.values.iter().map(|v| v.to_string()).collect(),
            )
        })
        .collect();
    let theirs_tags: BTreeMap<char, BTreeSet<String>> = theirs
        .generic_tags
        .iter()
        .map(|(k, v)| (k.as_char(), v.iter().cloned().collect()))
        .collect();
    assert_eq!(ours_tags, theirs_tags);
}

fn assert_same_event(ours: &Event<'_>, theirs: &oracle::Event) {
    assert_eq!(ours.id, theirs.id.to_bytes());
    assert_eq!(ours.pubkey, theirs.pubkey.to_bytes());
    assert_eq!(ours.created_at, theirs.created_at.as_secs());
    assert_eq!(ours.kind, theirs.kind.as_u16());
    assert_eq!(ours.content, theirs.content);
    let their_tags: Vec<Vec<String>> = theirs.tags.iter().map(|t| t.as_slice().to_vec()).collect();
    assert_eq!(ours.tags.to_vec(), their_tags);
    assert_eq!(ours.sig, theirs.sig.to_bytes());
    assert_eq!(nostr::verify_id(ours), theirs.verify_id());
}

fn real_events() -> Vec<&'static str> {
    include_str!("../../../data/nostr/events.jsonl")
        .lines()
        .collect()
}

// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Generated filters × generated events: same parse, same matches.
    #[test]
    fn filters_match_like_the_oracle(
        filter in filter_strategy(),
        events in prop::collection::vec(event_strategy(), 1..6),
        choices in prop::collection::vec(any::<u8>(), 1..64),
    ) {
        let text = render(&filter, &choices);
        let ours = Filter::parse(text.as_bytes()).map_err(|e| TestCaseError::fail(format!("{e}: {text:?}")))?;
        let theirs = oracle::Filter::from_json(&text).unwrap();
        assert_same_filter(&ours, &theirs);
        for event in &events {
            let event_text = render(event, &choices);
            let our_event = Event::parse(event_text.as_bytes()).unwrap();
            let their_event = oracle::Event::from_json(&event_text).unwrap();
            assert_same_event(&our_event, &their_event);
            prop_assert_eq!(
                ours.matches(&our_event),
                theirs.match_event(&their_event, MatchEventOptions::new()),
                "filter {} event {}", text, event_text
            );
        }
    }

    /// REQ and COUNT messages with whitespace everywhere: same id, same
    /// filters, same any-filter matches.
    #[test]
    fn req_messages_parse_like_the_oracle(
        filters in prop::collection::vec(filter_strategy(), 1..4),
        sub in "[a-z0-9:\"\\\\é😀 ]{1,20}",
        event in event_strategy(),
        choices in prop::collection::vec(any::<u8>(), 1..64),
        count in any::<bool>(),
    ) {
        let kind = if count { "COUNT" } else { "REQ" };
        let mut items = vec![serde_json::json!(kind), serde_json::json!(sub)];
        items.extend(filters.iter().cloned());
        let text = render(&serde_json::Value::Array(items), &choices);
        let ours = ClientMessage::parse(text.as_bytes()).map_err(|e| TestCaseError::fail(format!("{e}: {text:?}")))?;
        let theirs = oracle::ClientMessage::from_json(&text).unwrap();
        let (our_sub, our_filters) = match ours {
            ClientMessage::Req { subscription_id, filters } if !count => (subscription_id, filters),
            ClientMessage::Count { subscription_id, filters } if count => (subscription_id, filters),
            other => panic!("{other:?}"),
        };
        prop_assert_eq!(our_sub.as_ref(), sub.as_str());
        prop_assert_eq!(our_filters.len(), filters.len());
        let event_text = render(&event, &choices);
        let our_event = Event::parse(event_text.as_bytes()).unwrap();
        let their_event = oracle::Event::from_json(&event_text).unwrap();
        match theirs {
            oracle::ClientMessage::Req { subscription_id, filters: their_filters } => {
                prop_assert_eq!(subscription_id.as_str(), sub.as_str());
                for (o, t) in our_filters.iter().zip(&their_filters) {
                    assert_same_filter(o, t);
                }
                let any = their_filters.iter().any(|f| f.match_event(&their_event, Default::default()));
                prop_assert_eq!(matches_any(&our_filters, &our_event), any);
            }
            // The oracle reads COUNT's first filter only (see
            // `count_takes_every_filter` below).
            oracle::ClientMessage::Count { subscription_id, filter } => {
                prop_assert_eq!(subscription_id.as_str(), sub.as_str());
                assert_same_filter(&our_filters[0], &filter);
            }
            other => panic!("{other:?}"),
        }
    }

    /// EVENT, AUTH and CLOSE messages with whitespace everywhere.
    #[test]
    fn event_and_close_messages_parse_like_the_oracle(
        line in prop::sample::select(real_events()),
        sub in "[a-zA-Z0-9 é]{1,64}",
        choices in prop::collection::vec(any::<u8>(), 1..64),
        which in 0u8..3,
    ) {
        let event: serde_json::Value = serde_json::from_str(line).unwrap();
        let value = match which {
            0 => serde_json::json!(["EVENT", event]),
            1 => serde_json::json!(["AUTH", event]),
            _ => serde_json::json!(["CLOSE", sub]),
        };
        let text = render(&value, &choices);
        let ours = ClientMessage::parse(text.as_bytes()).map_err(|e| TestCaseError::fail(format!("{e}: {text:?}")))?;
        let theirs = oracle::ClientMessage::from_json(&text).unwrap();
        match (ours, theirs) {
            (ClientMessage::Event { event, raw }, oracle::ClientMessage::Event(t))
            | (ClientMessage::Auth { event, raw }, oracle::ClientMessage::Auth(t)) => {
                assert_same_event(&event, &t);
                prop_assert!(nostr::verify_id(&event), "{}", text);
                prop_assert_eq!(Event::parse(raw.as_bytes()).unwrap(), event);
            }
            (ClientMessage::Close { subscription_id }, oracle::ClientMessage::Close(t)) => {
                prop_assert_eq!(subscription_id.as_ref(), t.as_str());
            }
            (o, t) => panic!("{o:?} vs {t:?}"),
        };
    }
}

/// The blind spot of the older suite: whitespace bytes (CR especially)
/// between the tokens of `tags`. Every real event, with each whitespace
/// byte alone and all mixed between every pair of tokens, keeps its id.
#[test]
fn every_whitespace_byte_between_every_token_keeps_ids() {
    for line in real_events() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        for pick in 0..WS.len() as u8 {
            for text in [
                render(&value, &[pick]),
                render(&value, &[pick, 0, 3, 1, 4, 2, 6, 5]),
            ] {
                let event = Event::parse(text.as_bytes()).unwrap();
                assert!(nostr::verify_id(&event), "{text:?}");
                let theirs = oracle::Event::from_json(&text).unwrap();
                assert_same_event(&event, &theirs);
                let message = format!("[\r\"EVENT\"\t,\n{text}\r\n]");
                let ClientMessage::Event { event: e2, .. } =
                    ClientMessage::parse(message.as_bytes()).unwrap()
                else {
                    panic!()
                };
                assert!(nostr::verify_id(&e2));
            }
        }
    }
}

/// Escaped spellings of hex strings are the same strings.
#[test]
fn escaped_hex_is_the_same_value() {
    let line = real_events()[0];
    let escaped = line.replacen("\"id\":\"4", "\"id\":\"\\u0034", 1).replacen(
        "\"pubkey\":\"6",
        "\"pubkey\":\"\\u0036",
        1,
    );
    assert_ne!(escaped, line);
    let event = Event::parse(escaped.as_bytes()).unwrap();
    assert_eq!(event, Event::parse(line.as_bytes()).unwrap());
    assert_same_event(&event, &oracle::Event::from_json(&escaped).unwrap());
    let f = format!(r#"{{"\u0069ds":["\u0034{}"]}}"#, &hex32(1)[1..]);
    let ours = Filter::parse(f.as_bytes()).unwrap();
    assert_same_filter(&ours, &oracle::Filter::from_json(&f).unwrap());
}

// ---------------------------------------------------------------------------
// Where the nostr crate and the NIPs disagree. ito follows the NIP.

/// NIP-01: "`<subscription_id>` is an arbitrary, non-empty string of max
/// length 64 chars". The nostr crate accepts any string.
#[test]
fn subscription_id_length_follows_nip01() {
    for sub in [String::new(), "x".repeat(65), "é".repeat(65)] {
        let text = serde_json::json!(["REQ", sub, {}]).to_string();
        assert!(oracle::ClientMessage::from_json(&text).is_ok());
        let err = ClientMessage::parse(text.as_bytes()).unwrap_err();
        assert_eq!(err.offset(), 7);
        assert!(
            matches!(err.kind(), nostr::ErrorKind::SubscriptionIdLength { .. }),
            "{err}"
        );
    }
    // 64 characters (128 bytes) is fine.
    let text = serde_json::json!(["CLOSE", "é".repeat(64)]).to_string();
    assert!(ClientMessage::parse(text.as_bytes()).is_ok());
}

/// NIP-01: "The `ids`, `authors`, `#e` and `#p` filter lists MUST contain
/// exact 64-character lowercase hex values." The nostr crate accepts
/// uppercase hex in `ids`/`authors` and any string in `#e`/`#p`.
#[test]
fn hex_lists_follow_nip01() {
    let upper = hex32(0xab).to_uppercase();
    for text in [
        format!(r#"{{"ids":["{upper}"]}}"#),
        format!(r#"{{"authors":["{upper}"]}}"#),
        r##"{"#e":["not hex"]}"##.to_string(),
        format!(r##"{{"#p":["{}"]}}"##, &hex32(1)[..62]),
    ] {
        assert!(oracle::Filter::from_json(&text).is_ok(), "{text}");
        let err = Filter::parse(text.as_bytes()).unwrap_err();
        assert!(err.offset() > 0, "{text}: {err}");
    }
    // Other tag letters take any string.
    assert!(Filter::parse(br##"{"#t":["not hex"]}"##).is_ok());
}

/// `#e` and `#p` values: an uppercase digit, a non-hex letter or a space at
/// every one of the 64 positions is refused at its own offset; 63 and 65
/// digits are refused as lengths; uppercase is accepted under `#E`.
#[test]
fn tag_hex_values_are_checked_at_every_position() {
    let good = hex32(0x5a);
    for tag in ["e", "p"] {
        let prefix = format!(r##"{{"#{tag}":[""##);
        let ok = format!(r##"{prefix}{good}"]}}"##);
        assert!(Filter::parse(ok.as_bytes()).is_ok());
        for i in 0..64 {
            for bad in [b'A', b'F', b'g', b' ', b'G'] {
                let mut value = good.clone().into_bytes();
                value[i] = bad;
                let text = format!(r##"{prefix}{}"]}}"##, std::str::from_utf8(&value).unwrap());
                let err = Filter::parse(text.as_bytes()).unwrap_err();
                assert_eq!(
                    (err.offset(), err.kind()),
                    (prefix.len() + i, nostr::ErrorKind::HexDigit(bad)),
                    "{text}"
                );
            }
        }
        for value in [&good[..63], &format!("{good}0")[..]] {
            let text = format!(r##"{prefix}{value}"]}}"##);
            let err = Filter::parse(text.as_bytes()).unwrap_err();
            assert!(
                matches!(err.kind(), nostr::ErrorKind::HexLength { expected: 64, .. }),
                "{text}: {err}"
            );
        }
    }
    let upper = hex32(0x5a).to_uppercase();
    assert!(Filter::parse(format!(r##"{{"#E":["{upper}"]}}"##).as_bytes()).is_ok());
}

/// NIP-01: "All conditions of a filter that are specified must match for
/// an event for it to pass the filter." An empty list is specified, and no
/// id is in it: ito matches nothing (as nostr-tools and go-nostr do); the
/// nostr crate treats an empty list as absent and matches everything.
#[test]
fn empty_lists_match_nothing() {
    let event_text = real_events()[0];
    let ours = Event::parse(event_text.as_bytes()).unwrap();
    let theirs = oracle::Event::from_json(event_text).unwrap();
    for text in [r#"{"ids":[]}"#, r#"{"authors":[]}"#, r#"{"kinds":[]}"#] {
        let filter = Filter::parse(text.as_bytes()).unwrap();
        assert!(!filter.matches(&ours), "{text}");
        let oracle_filter = oracle::Filter::from_json(text).unwrap();
        assert!(
            oracle_filter.match_event(&theirs, Default::default()),
            "{text}"
        );
    }
    // For tag lists the two agree: no value, no match.
    let text = r##"{"#e":[]}"##;
    assert!(!Filter::parse(text.as_bytes()).unwrap().matches(&ours));
    assert!(!oracle::Filter::from_json(text)
        .unwrap()
        .match_event(&theirs, Default::default()));
}

/// NIP-45: `["COUNT", <subscription_id>, <filters JSON>...]`: every element
/// after the id is a filter, and the count is over all of them. The nostr
/// crate reads the first filter and ignores the rest, whatever they are.
#[test]
fn count_takes_every_filter() {
    let text = r#"["COUNT","q",{"kinds":[1]},{"kinds":[7]}]"#;
    let ClientMessage::Count { filters, .. } = ClientMessage::parse(text.as_bytes()).unwrap()
    else {
        panic!()
    };
    assert_eq!(filters.len(), 2);
    let oracle::ClientMessage::Count { filter, .. } =
        oracle::ClientMessage::from_json(text).unwrap()
    else {
        panic!()
    };
    assert_same_filter(&filters[0], &filter);
    // A non-filter after the id is an error here, ignored there.
    let text = r#"["COUNT","q",{"kinds":[1]},"extra"]"#;
    assert!(oracle::ClientMessage::from_json(text).is_ok());
    assert_eq!(
        ClientMessage::parse(text.as_bytes()).unwrap_err().offset(),
        27
    );
}

/// NIP-01 gives `since`, `until`, `limit` as integers and the lists as
/// arrays: `null` is neither. The nostr crate (serde `Option`) reads `null`
/// as an absent field.
#[test]
fn null_is_not_a_value() {
    for text in [
        r#"{"since":null}"#,
        r#"{"limit":null}"#,
        r#"{"kinds":null}"#,
        r#"{"ids":null}"#,
    ] {
        assert!(oracle::Filter::from_json(text).is_ok(), "{text}");
        assert!(Filter::parse(text.as_bytes()).is_err(), "{text}");
    }
}

/// Duplicate keys: JSON (RFC 8259) says names "SHOULD be unique"; a relay
/// cannot know which of two `kinds` the client meant. ito rejects the
/// filter, naming the second key's offset.
#[test]
fn duplicate_filter_fields_are_rejected() {
    let err = Filter::parse(br#"{"kinds":[1],"kinds":[2]}"#).unwrap_err();
    assert_eq!(
        (err.offset(), err.kind()),
        (13, nostr::ErrorKind::DuplicateField)
    );
    let err = Filter::parse(br##"{"#t":["a"], "#t":["b"]}"##).unwrap_err();
    assert_eq!(err.offset(), 13);
    // Different letters (and cases) are different fields.
    assert_eq!(
        Filter::parse(br##"{"#t":["a"],"#T":["b"]}"##)
            .unwrap()
            .tags
            .len(),
        2
    );
}

/// NIP-77 negentropy messages are outside ito's scope: unknown type.
#[test]
fn negentropy_messages_are_unknown() {
    let text = r#"["NEG-CLOSE","sub"]"#;
    assert!(oracle::ClientMessage::from_json(text).is_ok());
    let err = ClientMessage::parse(text.as_bytes()).unwrap_err();
    assert_eq!(
        (err.offset(), err.kind()),
        (1, nostr::ErrorKind::UnknownMessage)
    );
}

/// Tag filter keys: `#` plus one letter is a condition, `#` plus one other
/// character an error, anything else an ignored field (as the oracle does).
#[test]
fn tag_filter_keys() {
    for text in [
        r##"{"#1":["x"]}"##,
        r##"{"#_":["x"]}"##,
        r##"{"# ":["x"]}"##,
        r###"{"##":["x"]}"###,
        r##"{"#é":["x"]}"##,
    ] {
        assert!(oracle::Filter::from_json(text).is_err(), "{text}");
        assert_eq!(
            Filter::parse(text.as_bytes()).unwrap_err().offset(),
            3,
            "{text}"
        );
    }
    for text in [
        r##"{"#ab":["x"]}"##,
        r##"{"#":["x"]}"##,
        r##"{"t":["x"]}"##,
        r##"{"":["x"]}"##,
    ] {
        assert_eq!(
            Filter::parse(text.as_bytes()).unwrap(),
            Filter::default(),
            "{text}"
        );
        assert_eq!(
            oracle::Filter::from_json(text).unwrap(),
            oracle::Filter::new(),
            "{text}"
        );
    }
}

/// Extra elements after what a message defines are skipped, as the oracle
/// does (`["CLOSE","sub",{"extra":true}]`), but must be valid JSON.
#[test]
fn extra_elements_are_skipped_when_valid() {
    let text = r#"["CLOSE","sub",{"extra":true},[1,2]]"#;
    assert!(oracle::ClientMessage::from_json(text).is_ok());
    assert!(matches!(
        ClientMessage::parse(text.as_bytes()).unwrap(),
        ClientMessage::Close { .. }
    ));
    assert!(ClientMessage::parse(br#"["CLOSE","sub",{"extra":tru}]"#).is_err());
}

// ---------------------------------------------------------------------------
// Hostile input: an error with an offset inside the input, never a panic.

fn check_err(text: &[u8]) -> nostr::Error {
    let err = ClientMessage::parse(text).expect_err("must be rejected");
    assert!(
        err.offset() <= text.len(),
        "{err} past the end of {} bytes",
        text.len()
    );
    err
}

#[test]
fn every_truncation_of_every_message_is_an_error() {
    let event = real_events()[2];
    let messages = [
        format!(r#"["EVENT",{event}]"#),
        format!(r#"["AUTH", {event} ]"#),
        format!(
            r##"["REQ","s",{{"ids":["{0}"],"authors":["{0}"],"kinds":[1,2],"#e":["{0}"],"#t":["x"],"since":1,"until":2,"limit":3,"search":"q"}},{{}}]"##,
            hex32(9)
        ),
        r#"["COUNT","s",{"kinds":[1]}]"#.to_string(),
        r#"["CLOSE","s"]"#.to_string(),
    ];
    for m in &messages {
        assert!(ClientMessage::parse(m.as_bytes()).is_ok(), "{m}");
        for cut in 0..m.len() {
            check_err(&m.as_bytes()[..cut]);
        }
    }
}

#[test]
fn wrong_types_in_every_position_are_errors() {
    let wrong = [
        "1",
        "-1",
        "1.5",
        "true",
        "null",
        "\"s\"",
        "[]",
        "{}",
        "[[]]",
        "18446744073709551616",
    ];
    let h = hex32(1);
    let templates = [
        "[X]".to_string(),
        "[\"REQ\",X,{}]".to_string(),
        "[\"REQ\",\"s\",X]".to_string(),
        "[\"CLOSE\",X]".to_string(),
        "[\"EVENT\",X]".to_string(),
        "[\"REQ\",\"s\",{\"ids\":X}]".to_string(),
        "[\"REQ\",\"s\",{\"ids\":[X]}]".to_string(),
        "[\"REQ\",\"s\",{\"authors\":[X]}]".to_string(),
        "[\"REQ\",\"s\",{\"kinds\":X}]".to_string(),
        "[\"REQ\",\"s\",{\"kinds\":[X]}]".to_string(),
        "[\"REQ\",\"s\",{\"since\":X}]".to_string(),
        "[\"REQ\",\"s\",{\"until\":X}]".to_string(),
        "[\"REQ\",\"s\",{\"limit\":X}]".to_string(),
        "[\"REQ\",\"s\",{\"search\":X}]".to_string(),
        "[\"REQ\",\"s\",{\"#t\":X}]".to_string(),
        "[\"REQ\",\"s\",{\"#t\":[X]}]".to_string(),
        format!("[\"REQ\",\"s\",{{\"#e\":[\"{h}\",X]}}]"),
    ];
    for t in &templates {
        for w in wrong {
            let text = t.replace('X', w);
            // The few combinations that are valid (a string id, a string
            // tag value, an integer time) are skipped.
            if ClientMessage::parse(text.as_bytes()).is_ok() {
                let valid_here = (w == "\"s\""
                    && (t.contains("[X]") && t.contains("#t")
                        || t.contains(",X,")
                        || t.contains("CLOSE")
                        || t.contains("search")))
                    || (w == "1"
                        && (t.contains("since")
                            || t.contains("until")
                            || t.contains("limit")
                            || t.contains("kinds\":[X]")))
                    || (w == "[]"
                        && (t.contains("\":X")
                            && !t.contains("since")
                            && !t.contains("until")
                            && !t.contains("limit")
                            && !t.contains("search")))
                    || (w == "{}" && t.ends_with(",X]"));
                assert!(valid_here, "accepted {text}");
                continue;
            }
            check_err(text.as_bytes());
        }
    }
}

#[test]
fn numbers_past_u64_and_kinds_past_u16_are_out_of_range() {
    let err = Filter::parse(br#"{"since":18446744073709551616}"#).unwrap_err();
    assert_eq!(
        (err.offset(), err.kind()),
        (9, nostr::ErrorKind::OutOfRange { max: u64::MAX })
    );
    assert_eq!(
        Filter::parse(br#"{"since":18446744073709551615}"#)
            .unwrap()
            .since,
        Some(u64::MAX)
    );
    let err = Filter::parse(br#"{"kinds":[65536]}"#).unwrap_err();
    assert_eq!(err.kind(), nostr::ErrorKind::OutOfRange { max: 65535 });
    assert!(Filter::parse(br#"{"limit":1e3}"#).is_err());
    assert!(Filter::parse(br#"{"limit":01}"#).is_err());
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    for depth in [200, 100_000] {
        let text = format!(
            r#"["CLOSE","s",{}{}]"#,
            "[".repeat(depth),
            "]".repeat(depth)
        );
        assert_eq!(check_err(text.as_bytes()).kind(), nostr::ErrorKind::TooDeep);
        let text = format!(
            r#"["REQ","s",{{"x":{}{}}}]"#,
            "[".repeat(depth),
            "]".repeat(depth)
        );
        assert_eq!(check_err(text.as_bytes()).kind(), nostr::ErrorKind::TooDeep);
    }
    let ok = format!(r#"["CLOSE","s",{}{}]"#, "[".repeat(100), "]".repeat(100));
    assert!(ClientMessage::parse(ok.as_bytes()).is_ok());
}

#[test]
fn ten_thousand_filters_and_big_lists_parse_in_linear_time() {
    let mut text = String::from(r#"["REQ","many""#);
    for i in 0..10_000 {
        text.push_str(&format!(
            r#",{{"kinds":[{}],"authors":["{}"]}}"#,
            i % 65536,
            hex32((i % 256) as u8)
        ));
    }
    text.push(']');
    let ClientMessage::Req { filters, .. } = ClientMessage::parse(text.as_bytes()).unwrap() else {
        panic!()
    };
    assert_eq!(filters.len(), 10_000);
    // 100,000 authors in one filter: a hashed set.
    let authors: Vec<String> = (0..100_000u32).map(|i| format!("{:064x}", i)).collect();
    let text = serde_json::json!({"authors": authors}).to_string();
    let filter = Filter::parse(text.as_bytes()).unwrap();
    assert_eq!(filter.authors.as_ref().unwrap().len(), 100_000);
    let mut key = [0u8; 32];
    key[28..].copy_from_slice(&99_999u32.to_be_bytes());
    assert!(filter.authors.as_ref().unwrap().contains(&key));
}

#[test]
fn one_megabyte_subscription_ids_are_rejected_quickly() {
    let id = "x".repeat(1 << 20);
    let text = format!(r#"["REQ","{id}",{{}}]"#);
    let err = check_err(text.as_bytes());
    assert_eq!(
        err.kind(),
        nostr::ErrorKind::SubscriptionIdLength { chars: 1 << 20 }
    );
    let text = format!(r#"["CLOSE","{}"]"#, "\\u00e9".repeat(1 << 18));
    assert!(matches!(
        check_err(text.as_bytes()).kind(),
        nostr::ErrorKind::SubscriptionIdLength { .. }
    ));
}

#[test]
fn invalid_utf8_and_bad_hex_have_offsets() {
    let err = check_err(b"[\"CLOSE\",\"ab\xff\"]");
    assert_eq!(
        (err.offset(), err.kind()),
        (12, nostr::ErrorKind::InvalidUtf8)
    );
    let err = check_err(b"[\"REQ\",\"s\",{\"#t\":[\"\xc3\"]}]");
    assert_eq!(err.kind(), nostr::ErrorKind::InvalidUtf8);
    let mut bad = hex32(1);
    bad.replace_range(10..11, "g");
    let text = format!(r#"["REQ","s",{{"ids":["{bad}"]}}]"#);
    let err = check_err(text.as_bytes());
    assert_eq!(
        (err.offset(), err.kind()),
        (20 + 10, nostr::ErrorKind::HexDigit(b'g'))
    );
    let text = format!(r##"["REQ","s",{{"#e":["{bad}"]}}]"##);
    let err = check_err(text.as_bytes());
    assert_eq!(
        (err.offset(), err.kind()),
        (19 + 10, nostr::ErrorKind::HexDigit(b'g'))
    );
}

#[test]
fn unknown_and_malformed_messages() {
    for (text, offset) in [
        (&br#"{"type":"EVENT"}"#[..], 0),
        (br#""EVENT""#, 0),
        (br#"[]"#, 1),
        (br#"["REQ","sub"]"#, 12),
        (br#"["req","sub",{}]"#, 1),
        (br#"[1]"#, 1),
        (br#"["CLOSE","s"] x"#, 14),
        (b"", 0),
    ] {
        let err = check_err(text);
        assert_eq!(
            err.offset(),
            offset,
            "{}: {err}",
            String::from_utf8_lossy(text)
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Arbitrary bytes and mutated messages: never a panic, errors inside
    /// the input, and the oracle accepts whatever ito accepts.
    #[test]
    fn mutated_messages_never_panic(
        filter in filter_strategy(),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let text = serde_json::json!(["REQ", "s", filter]).to_string();
        let mut bytes = text.into_bytes();
        let i = at.index(bytes.len());
        bytes[i] = byte;
        match ClientMessage::parse(&bytes) {
            Err(e) => prop_assert!(e.offset() <= bytes.len()),
            Ok(ClientMessage::Req { filters, .. }) => {
                // Still valid: the oracle must accept it as well, unless it
                // is one of the documented disagreements (never, for a
                // filter that parsed here).
                let s = std::str::from_utf8(&bytes).unwrap();
                let theirs = oracle::ClientMessage::from_json(s);
                prop_assert!(theirs.is_ok(), "{}", s);
                if let Ok(oracle::ClientMessage::Req { filters: t, .. }) = theirs {
                    for (o, t) in filters.iter().zip(&t) {
                        assert_same_filter(o, t);
                    }
                }
            }
            Ok(_) => {}
        };
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The index finds exactly the filters a loop over all of them finds,
    /// after inserts and removals.
    #[test]
    fn filter_index_agrees_with_a_loop(
        filters in prop::collection::vec(filter_strategy(), 0..40),
        events in prop::collection::vec(event_strategy(), 1..8),
        remove in prop::collection::vec(any::<prop::sample::Index>(), 0..10),
    ) {
        let texts: Vec<String> = filters.iter().map(|f| f.to_string()).collect();
        let parsed: Vec<Filter<'static>> = texts.iter().map(|t| Filter::parse(t.as_bytes()).unwrap().into_owned()).collect();
        let mut index = nostr::FilterIndex::new();
        let mut live: Vec<Option<&Filter<'static>>> = Vec::new();
        for f in &parsed {
            prop_assert_eq!(index.insert(f.clone()) as usize, live.len());
            live.push(Some(f));
        }
        if !parsed.is_empty() {
            for r in &remove {
                let n = r.index(parsed.len());
                prop_assert_eq!(index.remove(n as u32).is_some(), live[n].is_some());
                live[n] = None;
            }
        }
        prop_assert_eq!(index.len(), live.iter().flatten().count());
        let mut hits = Vec::new();
        for event in &events {
            let text = event.to_string();
            let event = Event::parse(text.as_bytes()).unwrap();
            index.matches(&event, &mut hits);
            let want: Vec<u32> = live
                .iter()
                .enumerate()
                .filter(|(_, f)| f.is_some_and(|f| f.matches(&event)))
                .map(|(n, _)| n as u32)
                .collect();
            prop_assert_eq!(&hits, &want);
        }
    }
}
