//! Scenarios for the relay's connection state machine without a socket
//! (`ito_relay::Session` on a `MemoryStore`): a random scenario of client
//! frames (signed events of every kind class, deletions, expirations,
//! direct messages, REQ/COUNT/CLOSE with small limits, NIP-42 AUTH right
//! and wrong, garbage and truncated frames) is driven through it, and the
//! answers must keep the documented invariants:
//!
//! - every frame the relay sends is a JSON array naming a relay message;
//! - every `EVENT` and `AUTH` gets exactly one `OK`, naming its id;
//! - every `REQ` gets at most one `EOSE`/`CLOSED`, and a subscription
//!   whose last message was a `REQ` gets one;
//! - every `COUNT` gets exactly one `COUNT` or `CLOSED`;
//! - every garbage or truncated frame gets exactly one `NOTICE`;
//! - with AUTH on: one challenge, first; a delivered kind 4 or 1059 is the
//!   authenticated party's (author or `p`-tagged); delivered events verify.
//!
//! Shared by the `relay_conn` fuzz target (fuzz/fuzz_targets) and the
//! seeded run in tests/relay_session.rs.
#![allow(dead_code, unreachable_pub)]

use arbitrary::Arbitrary;
use ito::nostr::{Event, SecretKey, Tags, UnsignedEvent};
use ito_relay::{Config, Limits, MemoryStore, Relay};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

const KINDS: [u16; 12] = [0, 1, 3, 4, 5, 7, 1059, 10002, 20001, 22242, 30023, 40];
const CONTENTS: [&str; 5] = ["", "gm", "é😀 \"quoted\"\n\u{0}", "~", "<script>"];
const HOST: &str = "relay.example.com";

#[derive(Arbitrary, Debug)]
pub struct FilterSpec {
    kinds: Option<Vec<u8>>,
    author: Option<u8>,
    p: Option<u8>,
    id_of: Option<u8>,
    limit: Option<u8>,
    since: Option<u8>,
    until: Option<u8>,
}

#[derive(Arbitrary, Debug)]
pub enum Action {
    Event {
        key: u8,
        kind: u8,
        at: u8,
        p: Option<u8>,
        e_ref: Option<u8>,
        d: Option<u8>,
        expired: Option<bool>,
        content: u8,
        corrupt: bool,
    },
    Req {
        sub: u8,
        filters: Vec<FilterSpec>,
    },
    Count {
        sub: u8,
        filters: Vec<FilterSpec>,
    },
    Close {
        sub: u8,
    },
    Auth {
        key: u8,
        right_challenge: bool,
        right_relay: bool,
        right_time: bool,
    },
    Garbage(Vec<u8>),
    Cut {
        frame: u8,
        at: u16,
    },
    Settle,
}

#[derive(Debug)]
pub struct Scenario {
    pub auth: bool,
    pub events_per_second: u8,
    pub actions: Vec<Action>,
}

impl Scenario {
    /// Two bytes of settings, then actions, each decoded from its own
    /// chunk (a length byte, then up to 63 bytes): decoded from one
    /// stream, the first list-valued action would take all of it.
    pub fn from_bytes(data: &[u8]) -> Scenario {
        let (head, mut rest) = data.split_at(data.len().min(2));
        let mut actions = Vec::new();
        while let Some((&n, tail)) = rest.split_first() {
            let (chunk, tail) = tail.split_at(tail.len().min(usize::from(n % 64)));
            actions.extend(Action::arbitrary(&mut arbitrary::Unstructured::new(chunk)).ok());
            rest = tail;
        }
        Scenario {
            auth: head.first().is_some_and(|b| b & 1 == 1),
            events_per_second: head.get(1).copied().unwrap_or(0),
            actions,
        }
    }
}

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime")
    })
}

fn keys() -> &'static [SecretKey; 3] {
    static KEYS: OnceLock<[SecretKey; 3]> = OnceLock::new();
    KEYS.get_or_init(|| [1u8, 2, 3].map(|b| SecretKey::from_bytes(&[b; 32]).expect("a key")))
}

fn sign(
    key: &SecretKey,
    created_at: u64,
    kind: u16,
    tags: &[Vec<String>],
    content: &str,
) -> Vec<u8> {
    let tags = ito::nostr::tags_to_json(tags);
    let event = UnsignedEvent {
        created_at,
        kind,
        tags: Tags::parse(&tags).expect("tags"),
        content: content.into(),
    }
    .sign(key);
    let mut json = Vec::new();
    event.to_json(&mut json);
    json
}

fn t(name: &str, value: &str) -> Vec<String> {
    vec![name.to_owned(), value.to_owned()]
}

fn filter(spec: &FilterSpec, base: u64, ids: &[String]) -> Value {
    let mut f = serde_json::Map::new();
    if let Some(kinds) = &spec.kinds {
        let kinds: Vec<u16> = kinds
            .iter()
            .take(4)
            .map(|k| KINDS[*k as usize % KINDS.len()])
            .collect();
        f.insert("kinds".into(), json!(kinds));
    }
    if let Some(a) = spec.author {
        f.insert(
            "authors".into(),
            json!([keys()[a as usize % 3].public_key_hex()]),
        );
    }
    if let Some(p) = spec.p {
        f.insert(
            "#p".into(),
            json!([keys()[p as usize % 3].public_key_hex()]),
        );
    }
    if let (Some(i), false) = (spec.id_of, ids.is_empty()) {
        f.insert("ids".into(), json!([ids[i as usize % ids.len()]]));
    }
    if let Some(l) = spec.limit {
        f.insert("limit".into(), json!(l % 8));
    }
    if let Some(s) = spec.since {
        f.insert("since".into(), json!(base + u64::from(s % 16)));
    }
    if let Some(u) = spec.until {
        f.insert("until".into(), json!(base + u64::from(u % 16)));
    }
    Value::Object(f)
}

fn message(verb: &str, sub: &str, filters: &[FilterSpec], base: u64, ids: &[String]) -> String {
    let mut m = vec![json!(verb), json!(sub)];
    m.extend(filters.iter().take(6).map(|f| filter(f, base, ids)));
    Value::Array(m).to_string()
}

/// Drives `scenario` through a fresh relay's session and checks the
/// invariants (panics when one fails).
pub fn run(scenario: &Scenario) {
    let rt = runtime();
    let _entered = rt.enter();
    let config = Config {
        auth: scenario.auth,
        relay_url: Some(format!("wss://{HOST}")),
        limits: Limits {
            max_subscriptions: 3,
            max_filters: 4,
            max_limit: 5,
            events_per_second: u32::from(scenario.events_per_second % 50) + 1,
            max_queries_in_flight: 3,
            ..Limits::default()
        },
        ..Config::default()
    };
    let relay = Relay::new(Arc::new(MemoryStore::new()), config);
    let mut session = relay.session(Some(HOST));
    let mut frames = session.take_frames();
    let challenge = if scenario.auth {
        assert_eq!(frames.len(), 1, "{frames:?}");
        let m: Value = serde_json::from_str(&frames[0]).expect("JSON");
        assert_eq!(m[0], "AUTH");
        m[1].as_str().expect("a challenge").to_owned()
    } else {
        assert!(frames.is_empty(), "{frames:?}");
        String::new()
    };

    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let base = now - 100;
    let mut sent: Vec<String> = Vec::new();
    let mut ids: Vec<String> = Vec::new();
    let mut oks: HashMap<String, usize> = HashMap::new();
    let mut reqs: HashMap<String, usize> = HashMap::new();
    let mut counts: HashMap<String, usize> = HashMap::new();
    let mut last_is_req: HashMap<String, bool> = HashMap::new();
    let mut auths: Vec<(String, [u8; 32])> = Vec::new();
    let mut notices = 0usize;

    for action in scenario.actions.iter().take(48) {
        let text = match action {
            Action::Event {
                key,
                kind,
                at,
                p,
                e_ref,
                d,
                expired,
                content,
                corrupt,
            } => {
                let key = &keys()[*key as usize % 3];
                let kind = KINDS[*kind as usize % KINDS.len()];
                let mut tags = Vec::new();
                if let Some(p) = p {
                    tags.push(t("p", &keys()[*p as usize % 3].public_key_hex()));
                }
                if let (Some(e), false) = (e_ref, ids.is_empty()) {
                    tags.push(t("e", &ids[*e as usize % ids.len()]));
                }
                if let Some(d) = d {
                    tags.push(t("d", &(d % 3).to_string()));
                }
                if let Some(past) = expired {
                    let at = if *past { now - 10 } else { now + 3600 };
                    tags.push(t("expiration", &at.to_string()));
                }
                let content = CONTENTS[*content as usize % CONTENTS.len()];
                let mut json =
                    String::from_utf8(sign(key, base + u64::from(at % 16), kind, &tags, content))
                        .unwrap();
                if *corrupt {
                    json = json.replacen("\"content\":\"", "\"content\":\"~", 1);
                }
                let id = Event::parse(json.as_bytes()).expect("an event").id;
                let id = ito::hex::encode(&id);
                *oks.entry(id.clone()).or_default() += 1;
                ids.push(id);
                format!("[\"EVENT\",{json}]")
            }
            Action::Req { sub, filters } => {
                let sub = format!("r{}", sub % 4);
                *reqs.entry(sub.clone()).or_default() += 1;
                last_is_req.insert(sub.clone(), true);
                message("REQ", &sub, filters, base, &ids)
            }
            Action::Count { sub, filters } => {
                let sub = format!("c{}", sub % 4);
                *counts.entry(sub.clone()).or_default() += 1;
                message("COUNT", &sub, filters, base, &ids)
            }
            Action::Close { sub } => {
                let sub = format!("r{}", sub % 4);
                last_is_req.insert(sub.clone(), false);
                json!(["CLOSE", sub]).to_string()
            }
            Action::Auth {
                key,
                right_challenge,
                right_relay,
                right_time,
            } => {
                let key = &keys()[*key as usize % 3];
                let challenge = if *right_challenge {
                    challenge.as_str()
                } else {
                    "wrong"
                };
                let relay = if *right_relay {
                    "WSS://Relay.Example.com:443/x"
                } else {
                    "wss://other.example"
                };
                let at = if *right_time { now } else { now - 3600 };
                let json = sign(
                    key,
                    at,
                    22242,
                    &[t("relay", relay), t("challenge", challenge)],
                    "",
                );
                let id = ito::hex::encode(&Event::parse(&json).unwrap().id);
                *oks.entry(id.clone()).or_default() += 1;
                auths.push((id, key.public_key()));
                format!("[\"AUTH\",{}]", String::from_utf8(json).unwrap())
            }
            Action::Garbage(bytes) => {
                notices += 1;
                let mut text = b"!".to_vec();
                text.extend_from_slice(bytes);
                session.receive(&text);
                continue;
            }
            Action::Cut { frame, at } => {
                if sent.is_empty() {
                    continue;
                }
                let whole = &sent[*frame as usize % sent.len()];
                let at = 1 + *at as usize % (whole.len() - 1);
                notices += 1;
                session.receive(&whole.as_bytes()[..at]);
                continue;
            }
            Action::Settle => {
                rt.block_on(session.settled());
                continue;
            }
        };
        session.receive(text.as_bytes());
        sent.push(text);
    }
    rt.block_on(session.settled());
    frames.extend(session.take_frames());

    // Tally the answers.
    let mut got_oks: HashMap<String, usize> = HashMap::new();
    let mut ended: HashMap<String, usize> = HashMap::new();
    let mut counted: HashMap<String, usize> = HashMap::new();
    let mut got_notices = 0;
    let mut authed: Vec<[u8; 32]> = Vec::new();
    let mut delivered: Vec<(String, String)> = Vec::new();
    for (i, frame) in frames.iter().enumerate() {
        let m: Value = serde_json::from_str(frame).expect("every frame is JSON");
        let verb = m[0].as_str().expect("a verb");
        match verb {
            "OK" => {
                let id = m[1].as_str().unwrap().to_owned();
                if m[2] == true {
                    if let Some((_, key)) = auths.iter().find(|(a, _)| *a == id) {
                        authed.push(*key);
                    }
                }
                *got_oks.entry(id).or_default() += 1;
            }
            "EOSE" => *ended.entry(m[1].as_str().unwrap().to_owned()).or_default() += 1,
            "CLOSED" => {
                let sub = m[1].as_str().unwrap().to_owned();
                if sub.starts_with('c') {
                    *counted.entry(sub).or_default() += 1;
                } else {
                    *ended.entry(sub).or_default() += 1;
                }
            }
            "COUNT" => {
                *counted
                    .entry(m[1].as_str().unwrap().to_owned())
                    .or_default() += 1
            }
            "NOTICE" => got_notices += 1,
            "EVENT" => {
                // The event as sent (subscription ids here need no escaping).
                let sub = m[1].as_str().unwrap().to_owned();
                let start = format!("[\"EVENT\",\"{sub}\",").len();
                delivered.push((sub, frame[start..frame.len() - 1].to_owned()));
            }
            "AUTH" => assert!(scenario.auth && i == 0, "{frame}"),
            other => panic!("unknown relay message {other}: {frame}"),
        }
    }
    assert_eq!(got_oks, oks, "one OK per EVENT and AUTH");
    assert_eq!(got_notices, notices, "one NOTICE per unreadable frame");
    assert_eq!(counted, counts, "one COUNT or CLOSED per COUNT");
    for (sub, n) in &ended {
        assert!(
            reqs.get(sub).is_some_and(|r| n <= r),
            "{sub}: {n} EOSE/CLOSED for {reqs:?}"
        );
    }
    for (sub, last) in &last_is_req {
        assert!(
            !last || ended.contains_key(sub),
            "{sub}: open REQ never answered"
        );
    }
    for (sub, json) in &delivered {
        assert!(
            reqs.contains_key(sub),
            "EVENT for unknown subscription {sub}"
        );
        let event = Event::parse(json.as_bytes()).expect("a delivered event parses");
        assert!(ito::nostr::verify(&event), "a delivered event verifies");
        if scenario.auth && matches!(event.kind, 4 | 1059) {
            let to_us = event.tags.iter().any(|tag| {
                let mut v = tag.iter();
                v.next().as_deref() == Some("p")
                    && v.next()
                        .is_some_and(|p| authed.iter().any(|k| ito::hex::encode(k) == p.as_ref()))
            });
            assert!(
                authed.contains(&event.pubkey) || to_us,
                "a direct message reached a third party: {json}"
            );
        }
    }
    drop(session);
    drop(relay);
}
