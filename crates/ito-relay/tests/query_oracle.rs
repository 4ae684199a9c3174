//! Every query answer equals a brute-force scan with `Filter::matches`:
//! per filter the newest `limit` matches (ties by lowest id), the filters'
//! answers united with no event twice, in NIP-01 order. Random events and
//! hundreds of random filters, on both stores, with `since`/`until` drawn
//! from the stored `created_at` values so the boundaries are hit.

mod common;

use common::{hex, keys, sign, tag, Rng};
use ito::nostr::{Event, Filter};
use ito_relay::{EventStore, LmdbStore, MemoryStore};

const NOW: u64 = 2_000_000_000;

struct Corpus {
    events: Vec<Vec<u8>>,
    created: Vec<u64>,
    pubkeys: Vec<String>,
    tag_values: Vec<String>,
}

fn corpus(n: usize) -> Corpus {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let keys = keys(6);
    let kinds = [1u16, 7, 1111, 6, 30_023, 10_002, 9];
    let tag_values: Vec<String> = (0..10).map(|i| format!("v{i}")).collect();
    let mut events: Vec<Vec<u8>> = Vec::with_capacity(n);
    for i in 0..n {
        let key = rng.pick(&keys);
        // A narrow time range: many ties.
        let created_at = 1_000 + rng.below(60);
        let mut kind = *rng.pick(&kinds);
        // Replaceable/addressable kinds would replace each other; give
        // each a unique address so every event stays stored.
        let mut tags = Vec::new();
        if kind == 10_002 {
            kind = 1;
        }
        if kind == 30_023 {
            tags.push(tag("d", &format!("d{i}")));
        }
        for _ in 0..rng.below(4) {
            let name = *rng.pick(&["t", "t", "x", "d"]);
            tags.push(tag(name, rng.pick::<String>(&tag_values)));
        }
        if rng.chance(30) && !events.is_empty() {
            let target = &events[rng.below(events.len() as u64) as usize];
            tags.push(tag("e", &hex(&Event::parse(target).unwrap().id)));
        }
        if rng.chance(30) {
            tags.push(tag("p", &keys[rng.below(6) as usize].public_key_hex()));
        }
        events.push(sign(key, created_at, kind, &tags, &format!("note {i}")));
    }
    let created = events
        .iter()
        .map(|e| Event::parse(e).unwrap().created_at)
        .collect();
    Corpus {
        events,
        created,
        pubkeys: keys.iter().map(|k| k.public_key_hex()).collect(),
        tag_values,
    }
}

fn list<T: AsRef<str>>(items: &[T]) -> String {
    let quoted: Vec<String> = items
        .iter()
        .map(|s| format!("\"{}\"", s.as_ref()))
        .collect();
    format!("[{}]", quoted.join(","))
}

fn random_filter(rng: &mut Rng, c: &Corpus) -> String {
    let mut parts = Vec::new();
    if rng.chance(15) {
        let mut ids: Vec<String> = (0..1 + rng.below(6))
            .map(|_| hex(&Event::parse(rng.pick::<Vec<u8>>(&c.events)).unwrap().id))
            .collect();
        if rng.chance(30) {
            ids.push("00".repeat(32));
        }
        parts.push(format!("\"ids\":{}", list(&ids)));
    }
    if rng.chance(35) {
        let n = 1 + rng.below(3);
        let a: Vec<&String> = (0..n).map(|_| rng.pick(&c.pubkeys)).collect();
        parts.push(format!("\"authors\":{}", list(&a)));
    }
    if rng.chance(40) {
        let n = 1 + rng.below(3);
        let k: Vec<String> = (0..n)
            .map(|_| rng.pick(&[1u16, 7, 1111, 6, 30_023, 9, 4]).to_string())
            .collect();
        parts.push(format!("\"kinds\":[{}]", k.join(",")));
    }
    if rng.chance(30) {
        let n = 1 + rng.below(3);
        let v: Vec<&String> = (0..n).map(|_| rng.pick(&c.tag_values)).collect();
        parts.push(format!("\"#t\":{}", list(&v)));
    }
    if rng.chance(10) {
        let v: Vec<&String> = (0..2).map(|_| rng.pick(&c.tag_values)).collect();
        parts.push(format!("\"#d\":{}", list(&v)));
    }
    if rng.chance(10) {
        let p: Vec<&String> = (0..2).map(|_| rng.pick(&c.pubkeys)).collect();
        parts.push(format!("\"#p\":{}", list(&p)));
    }
    if rng.chance(10) {
        let e = hex(&Event::parse(rng.pick::<Vec<u8>>(&c.events)).unwrap().id);
        parts.push(format!("\"#e\":[\"{e}\"]"));
    }
    if rng.chance(40) {
        parts.push(format!("\"since\":{}", rng.pick(&c.created)));
    }
    if rng.chance(40) {
        parts.push(format!("\"until\":{}", rng.pick(&c.created)));
    }
    if rng.chance(80) {
        parts.push(format!("\"limit\":{}", rng.below(40)));
    }
    if rng.chance(3) {
        parts.push("\"kinds\":[]".to_owned());
    }
    // A repeated key is a parse error; keep the first of each.
    let mut seen = std::collections::HashSet::new();
    parts.retain(|p| seen.insert(p.split(':').next().unwrap().to_owned()));
    format!("{{{}}}", parts.join(","))
}

/// The answer by brute force.
fn oracle(events: &[Event<'_>], filters: &[Filter<'_>], max_limit: u64) -> Vec<[u8; 32]> {
    let mut sorted: Vec<&Event<'_>> = events.iter().collect();
    sorted.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(a.id.cmp(&b.id)));
    let mut out: Vec<&Event<'_>> = Vec::new();
    for f in filters {
        let limit = f.limit.unwrap_or(max_limit).min(max_limit) as usize;
        out.extend(sorted.iter().filter(|e| f.matches(e)).take(limit));
    }
    out.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(a.id.cmp(&b.id)));
    out.dedup_by_key(|e| e.id);
    out.iter().map(|e| e.id).collect()
}

fn check(store: &dyn EventStore, c: &Corpus) {
    let refs: Vec<&[u8]> = c.events.iter().map(Vec::as_slice).collect();
    for chunk in refs.chunks(300) {
        let batch = store.write_batch(chunk, NOW).unwrap();
        assert!(batch
            .outcomes
            .iter()
            .all(|o| *o == ito_relay::Outcome::Stored));
    }
    let parsed: Vec<Event<'_>> = c.events.iter().map(|e| Event::parse(e).unwrap()).collect();
    let mut rng = Rng(42);
    for round in 0..400 {
        let n = if rng.chance(25) { 2 + rng.below(3) } else { 1 };
        let texts: Vec<String> = (0..n).map(|_| random_filter(&mut rng, c)).collect();
        let filters: Vec<Filter<'_>> = texts
            .iter()
            .map(|t| Filter::parse(t.as_bytes()).unwrap())
            .collect();
        let max_limit = if round % 5 == 0 { 25 } else { 10_000 };
        let mut got = Vec::new();
        store
            .query(&filters, max_limit, NOW, &mut |json| {
                got.push(Event::parse(json).unwrap().id);
                true
            })
            .unwrap();
        let want = oracle(&parsed, &filters, max_limit);
        assert_eq!(got, want, "round {round}: filters {texts:?}");
        // COUNT: every match, limits ignored.
        let unlimited: Vec<Filter<'_>> = filters
            .iter()
            .cloned()
            .map(|f| Filter { limit: None, ..f })
            .collect();
        let count = store.count(&filters, NOW).unwrap();
        assert_eq!(
            count as usize,
            oracle(&parsed, &unlimited, u64::MAX).len(),
            "count, round {round}: {texts:?}"
        );
    }
}

#[test]
fn memory_store_answers_like_brute_force() {
    let c = corpus(1500);
    check(&MemoryStore::new(), &c);
}

#[test]
fn lmdb_store_answers_like_brute_force() {
    let c = corpus(1500);
    let dir = tempfile::tempdir().unwrap();
    let store = LmdbStore::open_with_map_size(dir.path(), 1 << 30).unwrap();
    check(&store, &c);
}

#[test]
fn a_sink_can_stop_the_stream() {
    let c = corpus(200);
    let store = MemoryStore::new();
    let refs: Vec<&[u8]> = c.events.iter().map(Vec::as_slice).collect();
    store.write_batch(&refs, NOW).unwrap();
    let mut n = 0;
    store
        .query(&[Filter::default()], 10_000, NOW, &mut |_| {
            n += 1;
            n < 5
        })
        .unwrap();
    assert_eq!(n, 5);
}

/// Counts ticks; stops after `stop_after` of them.
struct Ticking {
    ticks: u32,
    events: u32,
    stop_after: u32,
}

impl ito_relay::QuerySink for Ticking {
    fn event(&mut self, _json: &[u8]) -> bool {
        self.events += 1;
        true
    }
    fn tick(&mut self) -> bool {
        self.ticks += 1;
        self.ticks < self.stop_after
    }
}

#[test]
fn long_scans_tick_and_can_be_stopped_between_matches() {
    let c = corpus(1500);
    let store = MemoryStore::new();
    let refs: Vec<&[u8]> = c.events.iter().map(Vec::as_slice).collect();
    store.write_batch(&refs, NOW).unwrap();
    // Every event tagged t=v1 or t=v2 is a candidate (the tag index is
    // chosen before kinds); none is of kind 4.
    let tagged = Filter::parse(br##"{"#t":["v1","v2"]}"##).unwrap();
    let candidates = store.count(std::slice::from_ref(&tagged), NOW).unwrap() as u32;
    assert!(candidates > 2 * ito_relay::TICK_EVERY, "{candidates}");
    let none = Filter::parse(br##"{"#t":["v1","v2"],"kinds":[4]}"##).unwrap();
    let mut sink = Ticking {
        ticks: 0,
        events: 0,
        stop_after: u32::MAX,
    };
    store
        .query_sink(std::slice::from_ref(&none), 10_000, NOW, &mut sink)
        .unwrap();
    assert_eq!(
        (sink.ticks, sink.events),
        (candidates / ito_relay::TICK_EVERY, 0)
    );
    // A tick answering false stops the scan.
    let all = Filter::default();
    let mut sink = Ticking {
        ticks: 0,
        events: 0,
        stop_after: 3,
    };
    store
        .query_sink(std::slice::from_ref(&all), 10_000, NOW, &mut sink)
        .unwrap();
    assert_eq!(sink.ticks, 3);
    assert!(sink.events < 3 * ito_relay::TICK_EVERY, "{}", sink.events);
}
