//! Filter matching: a filter and an event built from fuzz input; the
//! result of `Filter::matches` must equal a plain restatement of NIP-01,
//! and `FilterIndex` must find exactly the matching filters.
#![no_main]

use arbitrary::Arbitrary;
use ito::nostr::{Event, Filter, FilterIndex};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Case {
    filters: Vec<Vec<u8>>,
    event: (u8, u8, u8, u16, Vec<(u8, u8)>),
}

fn hex(b: u8) -> String {
    ito::hex::encode(&[b % 4; 32])
}

/// NIP-01, restated without sets or indexes.
fn reference(f: &Filter, e: &Event) -> bool {
    let has = |set: &Option<ito::nostr::Set<[u8; 32]>>, v: &[u8; 32]| set.as_ref().is_none_or(|s| s.iter().any(|x| x == v));
    has(&f.ids, &e.id)
        && has(&f.authors, &e.pubkey)
        && f.kinds.as_ref().is_none_or(|k| k.iter().any(|&k| k == e.kind))
        && f.since.is_none_or(|t| e.created_at >= t)
        && f.until.is_none_or(|t| e.created_at <= t)
        && f.tags.iter().all(|cond| {
            e.tags.iter().any(|tag| {
                let v: Vec<_> = tag.iter().collect();
                v.len() >= 2 && v[0].as_bytes() == [cond.name] && cond.values.iter().any(|x| *x == v[1])
            })
        })
}

fuzz_target!(|case: Case| {
    let (id, pk, t, kind, tags) = case.event;
    let names = ["e", "p", "t", "x"];
    let tags: Vec<Vec<String>> = tags
        .iter()
        .map(|&(n, v)| vec![names[n as usize % 4].to_string(), if n % 4 < 2 { hex(v) } else { format!("v{}", v % 4) }])
        .collect();
    let text = serde_json::json!({
        "id": hex(id), "pubkey": hex(pk), "created_at": t % 8, "kind": kind % 4,
        "tags": tags, "content": "", "sig": ito::hex::encode(&[0u8; 64]),
    })
    .to_string();
    let event = Event::parse(text.as_bytes()).unwrap();
    let mut index = FilterIndex::new();
    let mut want = Vec::new();
    for bytes in &case.filters {
        let Ok(filter) = Filter::parse(bytes) else { continue };
        let matched = filter.matches(&event);
        assert_eq!(matched, reference(&filter, &event), "{}", String::from_utf8_lossy(bytes));
        let n = index.insert(filter.into_owned());
        if matched {
            want.push(n);
        }
    }
    let mut hits = Vec::new();
    index.matches(&event, &mut hits);
    assert_eq!(hits, want);
});
