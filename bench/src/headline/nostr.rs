//! Nostr: event ids, signature checks, relay message parsing and filter
//! matching, against the `nostr` crate (rust-nostr).

use std::hint::black_box;

use ::nostr::prelude as rn;
use ito::nostr::{ClientMessage, Event, Filter, FilterIndex};

use super::{op, Area, Runner};
use crate::nostr_inputs::{hostile_event, pubkey, req_3_filters, thousand_filters, SIGNED_EVENT};

/// The area.
pub const AREA: Area = Area {
    slug: "nostr",
    title: "Nostr",
    about: "Against the `nostr` crate (rust-nostr 0.45). Event id: recompute and \
            compare the id of a parsed kind-1 event with hostile content. Verify: \
            id and BIP-340 signature of a parsed event (libsecp256k1 on both \
            sides). Parse: a client `EVENT` message plus its id check, and a \
            `REQ` with three filters. Match: one event against one filter, and \
            against 1,000 subscriptions (ito through its `FilterIndex`).",
    run,
};

fn run(r: &mut Runner) {
    let text = hostile_event();
    let ours = Event::parse(text.as_bytes()).unwrap();
    let theirs = rn::Event::from_json(&text).unwrap();
    assert!(ito::nostr::verify_id(&ours) && theirs.verify_id());
    r.case(
        "event id check",
        vec![
            op("ito", || {
                black_box(ito::nostr::verify_id(black_box(&ours)));
            }),
            op("nostr", || {
                black_box(black_box(&theirs).verify_id());
            }),
        ],
    );

    let signed_ours = Event::parse(SIGNED_EVENT.as_bytes()).unwrap();
    let signed_theirs = rn::Event::from_json(SIGNED_EVENT).unwrap();
    assert!(ito::nostr::verify(&signed_ours) && signed_theirs.verify().is_ok());
    r.case(
        "verify id + signature",
        vec![
            op("ito", || {
                black_box(ito::nostr::verify(black_box(&signed_ours)));
            }),
            op("nostr", || {
                black_box(black_box(&signed_theirs).verify().is_ok());
            }),
        ],
    );

    let message = format!(r#"["EVENT",{text}]"#);
    let message = message.as_str();
    r.case(
        "parse EVENT message + id check",
        vec![
            op("ito", || {
                let m = ClientMessage::parse(black_box(message.as_bytes())).unwrap();
                let ClientMessage::Event { event, .. } = m else {
                    unreachable!()
                };
                black_box(ito::nostr::verify_id(&event));
            }),
            op("nostr", || {
                let m = rn::ClientMessage::from_json(black_box(message)).unwrap();
                let rn::ClientMessage::Event(event) = m else {
                    unreachable!()
                };
                black_box(event.verify_id());
            }),
        ],
    );

    let req = req_3_filters();
    let req = req.as_str();
    assert!(ClientMessage::parse(req.as_bytes()).is_ok());
    assert!(rn::ClientMessage::from_json(req).is_ok());
    r.case(
        "parse REQ with 3 filters",
        vec![
            op("ito", || {
                drop(black_box(
                    ClientMessage::parse(black_box(req.as_bytes())).unwrap(),
                ));
            }),
            op("nostr", || {
                drop(black_box(
                    rn::ClientMessage::from_json(black_box(req)).unwrap(),
                ));
            }),
        ],
    );

    let author = ito::hex::encode(&ours.pubkey);
    let one = format!(
        r#"{{"kinds":[1,7],"authors":["{author}","{}"],"since":1600000000}}"#,
        pubkey(9)
    );
    let f_ours = Filter::parse(one.as_bytes()).unwrap();
    let f_theirs = rn::Filter::from_json(&one).unwrap();
    assert!(f_ours.matches(&ours) && f_theirs.match_event(&theirs, Default::default()));
    r.case(
        "match one filter",
        vec![
            op("ito", || {
                black_box(black_box(&f_ours).matches(black_box(&ours)));
            }),
            op("nostr", || {
                black_box(black_box(&f_theirs).match_event(black_box(&theirs), Default::default()));
            }),
        ],
    );

    let texts = thousand_filters(&author);
    let mut index = FilterIndex::new();
    for t in &texts {
        index.insert(Filter::parse(t.as_bytes()).unwrap().into_owned());
    }
    let theirs_many: Vec<rn::Filter> = texts
        .iter()
        .map(|t| rn::Filter::from_json(t).unwrap())
        .collect();
    let mut hits = Vec::new();
    index.matches(&ours, &mut hits);
    assert_eq!(hits, [502], "ito finds the one subscription");
    let mut their_hits: Vec<u32> = Vec::new();
    r.case(
        "match one event against 1,000 filters",
        vec![
            op("ito", || {
                black_box(&index).matches(black_box(&ours), &mut hits);
                black_box(&hits);
            }),
            op("nostr", || {
                their_hits.clear();
                for (i, f) in black_box(&theirs_many).iter().enumerate() {
                    if f.match_event(black_box(&theirs), Default::default()) {
                        their_hits.push(i as u32);
                    }
                }
                black_box(&their_hits);
            }),
        ],
    );
}
