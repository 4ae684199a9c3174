//! `nostr::batch`: the parallel checks give the same verdicts, in input
//! order, as checking one event at a time, on 1, 2 and 3 threads, through
//! all three entry points.
#![cfg(all(feature = "parallel", feature = "schnorr"))]

mod common;

use common::signed::signed_event;
use ito::nostr::batch::{
    for_each_line, verify_all, verify_jsonl, verify_one, verify_reader, Check, Verdict,
};
use ito::nostr::{self, Event};

/// Flips one hex digit of the `sig` field (id stays right).
fn bad_signature(event: &str) -> String {
    let at = event.find("\"sig\":\"").unwrap() + 7 + 10;
    let mut bytes = event.as_bytes().to_vec();
    bytes[at] = if bytes[at] == b'0' { b'1' } else { b'0' };
    String::from_utf8(bytes).unwrap()
}

/// A mix of every verdict with blank lines between, and the expected
/// verdict kind of each non-blank line.
fn mixed(n: usize) -> (String, Vec<(usize, &'static str)>) {
    let mut text = String::new();
    let mut expected = Vec::new();
    for i in 0..n {
        let good = signed_event(
            i as u64 % 7,
            1_700_000_000 + i as u64,
            (i % 3) as u16,
            &[vec!["t".into(), format!("n{i}")]],
            &format!("note {i}\n\"quoted\""),
        );
        let (line, kind) = match i % 5 {
            0 | 1 => (good, "ok"),
            2 => (good.replace("note", "NOTE"), "bad_id"),
            3 => (bad_signature(&good), "bad_sig"),
            _ => (format!("{{\"id\": {i}}}"), "invalid"),
        };
        text.push_str(&line);
        text.push('\n');
        expected.push((text.lines().count(), kind));
        if i % 4 == 0 {
            text.push_str(" \t\r\n");
        }
    }
    (text, expected)
}

fn kind(v: &Verdict) -> &'static str {
    match v {
        Verdict::Ok => "ok",
        Verdict::BadId => "bad_id",
        Verdict::BadSignature => "bad_sig",
        Verdict::Invalid(_) => "invalid",
        _ => "other",
    }
}

fn on_threads(n: usize, f: impl FnOnce() + Send) {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .unwrap()
        .install(f)
}

#[test]
fn every_entry_point_agrees_with_one_at_a_time() {
    let (text, expected) = mixed(300);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    for threads in [1, 2, 3] {
        on_threads(threads, || {
            // verify_all: the slice's order.
            let all = verify_all(&lines, Check::Signature);
            let got: Vec<&str> = all.iter().map(kind).collect();
            let want: Vec<&str> = expected.iter().map(|e| e.1).collect();
            assert_eq!(got, want, "{threads} threads");
            for (line, v) in lines.iter().zip(&all) {
                assert_eq!(*v, verify_one(line.as_bytes(), Check::Signature));
            }

            // verify_jsonl: line numbers of non-blank lines.
            let jsonl = verify_jsonl(text.as_bytes(), Check::Signature);
            let got: Vec<(usize, &str)> = jsonl.iter().map(|(n, v)| (*n, kind(v))).collect();
            assert_eq!(got, expected);

            // verify_reader with small chunks through the engine.
            let mut seen = Vec::new();
            let summary = verify_reader(text.as_bytes(), Check::Signature, |n, line, v| {
                assert_eq!(line, text.lines().nth(n - 1).unwrap().as_bytes());
                seen.push((n, kind(&v)));
                Ok(())
            })
            .unwrap();
            assert_eq!(seen, expected);
            assert_eq!(summary.events, 300);
            assert_eq!(summary.ok, 120);
            assert_eq!(
                (summary.bad_id, summary.bad_signature, summary.invalid),
                (60, 60, 60)
            );
            assert_eq!(summary.bytes, text.len() as u64);
            assert_eq!(summary.lines, text.lines().count() as u64);
        });
    }
}

#[test]
fn id_check_skips_signatures() {
    let (text, expected) = mixed(50);
    let jsonl = verify_jsonl(text.as_bytes(), Check::Id);
    for ((n, v), (m, want)) in jsonl.iter().zip(&expected) {
        assert_eq!(n, m);
        let want = if *want == "bad_sig" { "ok" } else { want };
        assert_eq!(kind(v), want);
    }
}

#[test]
fn invalid_verdicts_carry_the_parse_error_within_the_line() {
    let line = br#"{"id":"00", "kind": 1}"#;
    let Verdict::Invalid(e) = verify_jsonl(line, Check::Id)[0].1 else {
        panic!()
    };
    assert_eq!(e, Event::parse(line).unwrap_err());
    assert_eq!(e.offset(), 7);
}

#[test]
fn small_chunks_keep_order_across_chunk_boundaries() {
    let (text, _) = mixed(40);
    for chunk in [1, 17, 500, 4096] {
        let mut ids = Vec::new();
        for_each_line(
            text.as_bytes(),
            chunk,
            |l| Event::parse(l).ok().map(|e| nostr::event_id(&e)),
            |n, _, id| {
                ids.push((n, id));
                Ok(())
            },
        )
        .unwrap();
        let want: Vec<_> = text
            .lines()
            .enumerate()
            .map(|(i, l)| {
                (
                    i + 1,
                    Event::parse(l.as_bytes()).ok().map(|e| nostr::event_id(&e)),
                )
            })
            .collect();
        assert_eq!(ids, want, "chunk {chunk}");
    }
}

#[test]
fn real_events_verify() {
    let data = include_bytes!("../../../data/nostr/events.jsonl");
    let verdicts = verify_jsonl(data, Check::Signature);
    assert_eq!(verdicts.len(), 9);
    assert!(verdicts.iter().all(|(_, v)| v.is_ok()), "{verdicts:?}");
}
