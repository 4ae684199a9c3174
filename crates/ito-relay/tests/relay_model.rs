//! Model-based: random streams of signed events go through a real
//! websocket client into the relay, and a plain in-memory model of the
//! NIPs (written here, independently of the store) predicts every `OK`,
//! every `REQ` answer (order, `limit`, `since`/`until`), every `COUNT`
//! and every live delivery. The streams mix duplicates, replaceable and
//! addressable ties, deletions by `e` and by `a` (also of other authors'
//! events, and of deletions), expirations, ephemeral events and
//! out-of-order `created_at`. Run on both stores.

mod common;

use common::{hex, id, keys, now, sign, start_on, tag, Client, Rng};
use ito::nostr::{Event, Filter, SecretKey};
use ito_relay::{Config, EventStore, LmdbStore, MemoryStore};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

#[derive(Default)]
struct Model {
    stored: Vec<Vec<u8>>,
    deleted_ids: HashSet<([u8; 32], [u8; 32])>,
    deleted_addrs: HashMap<(u16, [u8; 32], String), u64>,
}

fn d_of(e: &Event<'_>) -> String {
    for t in e.tags.iter() {
        let mut v = t.iter();
        if v.next().as_deref() == Some("d") {
            return v.next().map(|s| s.into_owned()).unwrap_or_default();
        }
    }
    String::new()
}

fn address(e: &Event<'_>) -> Option<(u16, [u8; 32], String)> {
    match e.kind {
        0 | 3 | 10_000..=19_999 => Some((e.kind, e.pubkey, String::new())),
        30_000..=39_999 => Some((e.kind, e.pubkey, d_of(e))),
        _ => None,
    }
}

fn tag_values<'a>(e: &'a Event<'_>, name: &'a str) -> impl Iterator<Item = String> + 'a {
    e.tags.iter().filter_map(move |t| {
        let mut v = t.iter();
        (v.next().as_deref() == Some(name))
            .then(|| v.next().map(|s| s.into_owned()).unwrap_or_default())
    })
}

impl Model {
    /// (accepted, delivered live, prefix of the message)
    fn publish(&mut self, json: &[u8], now: u64) -> (bool, bool, &'static str) {
        let e = Event::parse(json).unwrap();
        if tag_values(&e, "expiration")
            .next()
            .and_then(|v| v.parse::<u64>().ok())
            .is_some_and(|t| t <= now)
        {
            return (false, false, "invalid:");
        }
        if (20_000..30_000).contains(&e.kind) {
            return (true, true, "");
        }
        if self
            .stored
            .iter()
            .any(|s| Event::parse(s).unwrap().id == e.id)
        {
            return (true, false, "duplicate:");
        }
        if e.kind != 5 && self.deleted_ids.contains(&(e.id, e.pubkey)) {
            return (false, false, "blocked:");
        }
        if let Some(addr) = address(&e) {
            if self
                .deleted_addrs
                .get(&addr)
                .is_some_and(|&t| t >= e.created_at)
            {
                return (false, false, "blocked:");
            }
            if let Some(pos) = self
                .stored
                .iter()
                .position(|s| address(&Event::parse(s).unwrap()).as_ref() == Some(&addr))
            {
                let cur = Event::parse(&self.stored[pos]).unwrap();
                if (cur.created_at, std::cmp::Reverse(cur.id))
                    > (e.created_at, std::cmp::Reverse(e.id))
                {
                    return (false, false, "duplicate:");
                }
                self.stored.remove(pos);
            }
        }
        self.stored.push(json.to_vec());
        if e.kind == 5 {
            for target in tag_values(&e, "e") {
                let Ok(tid) = ito::hex::decode_array_lower::<32>(target.as_bytes()) else {
                    continue;
                };
                self.deleted_ids.insert((tid, e.pubkey));
                self.stored.retain(|s| {
                    let s = Event::parse(s).unwrap();
                    !(s.id == tid && s.pubkey == e.pubkey && s.kind != 5)
                });
            }
            for a in tag_values(&e, "a") {
                let mut parts = a.splitn(3, ':');
                let (Some(k), Some(p), d) =
                    (parts.next(), parts.next(), parts.next().unwrap_or(""))
                else {
                    continue;
                };
                let (Ok(kind), Ok(pk)) = (
                    k.parse::<u16>(),
                    ito::hex::decode_array_lower::<32>(p.as_bytes()),
                ) else {
                    continue;
                };
                if pk != e.pubkey || !matches!(kind, 0 | 3 | 10_000..=19_999 | 30_000..=39_999) {
                    continue;
                }
                let key = (kind, pk, d.to_owned());
                let t = self.deleted_addrs.entry(key.clone()).or_insert(0);
                *t = (*t).max(e.created_at);
                let until = *t;
                self.stored.retain(|s| {
                    let s = Event::parse(s).unwrap();
                    !(address(&s).as_ref() == Some(&key) && s.created_at <= until)
                });
            }
        }
        (true, true, "")
    }

    fn answer(&self, filters: &[Filter<'_>], max_limit: u64) -> Vec<String> {
        let mut events: Vec<Event<'_>> = self
            .stored
            .iter()
            .map(|s| Event::parse(s).unwrap())
            .collect();
        events.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(a.id.cmp(&b.id)));
        let mut out: Vec<&Event<'_>> = Vec::new();
        for f in filters {
            let limit = f.limit.unwrap_or(max_limit).min(max_limit) as usize;
            out.extend(events.iter().filter(|e| f.matches(e)).take(limit));
        }
        out.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(a.id.cmp(&b.id)));
        out.dedup_by_key(|e| e.id);
        out.iter().map(|e| hex(&e.id)).collect()
    }
}

fn random_event(
    rng: &mut Rng,
    keys: &[SecretKey],
    seen: &[Vec<u8>],
    base: u64,
    now: u64,
) -> Vec<u8> {
    let key = rng.pick(keys);
    let created_at = base + rng.below(40);
    let mut tags = Vec::new();
    if rng.chance(8) {
        let at = if rng.chance(50) { now - 5 } else { now + 3600 };
        tags.push(tag("expiration", &at.to_string()));
    }
    let roll = rng.below(100);
    let kind = match roll {
        0..=29 => 1,
        30..=39 => 0,
        40..=49 => 10_002,
        50..=64 => {
            match rng.below(3) {
                0 => {}
                1 => tags.push(tag("d", "")),
                _ => tags.push(tag("d", rng.pick::<&str>(&["x", "y"]))),
            }
            30_023
        }
        65..=72 => 20_001,
        _ => {
            // A deletion by e (any earlier event, often another author's,
            // sometimes a deletion) or by a (sometimes another author's).
            for _ in 0..1 + rng.below(2) {
                if rng.chance(60) && !seen.is_empty() {
                    tags.push(tag("e", &id(rng.pick::<Vec<u8>>(seen))));
                } else {
                    let owner = if rng.chance(80) { key } else { rng.pick(keys) };
                    let kind = rng.pick(&[0u16, 10_002, 30_023]);
                    let d = if *kind == 30_023 {
                        *rng.pick(&["", "x", "y"])
                    } else {
                        ""
                    };
                    tags.push(tag("a", &format!("{kind}:{}:{d}", owner.public_key_hex())));
                }
            }
            5
        }
    };
    if rng.chance(30) {
        tags.push(tag("t", rng.pick::<&str>(&["a", "b"])));
    }
    sign(
        key,
        created_at,
        kind,
        &tags,
        &format!("c{}", rng.below(1000)),
    )
}

fn random_filter(rng: &mut Rng, keys: &[SecretKey], seen: &[Vec<u8>], base: u64) -> Value {
    let mut f = serde_json::Map::new();
    if rng.chance(40) {
        let kinds: Vec<u16> = (0..1 + rng.below(3))
            .map(|_| *rng.pick(&[0u16, 1, 5, 10_002, 30_023, 20_001]))
            .collect();
        f.insert("kinds".into(), json!(kinds));
    }
    if rng.chance(30) {
        f.insert("authors".into(), json!([rng.pick(keys).public_key_hex()]));
    }
    if rng.chance(10) && !seen.is_empty() {
        f.insert(
            "ids".into(),
            json!([id(rng.pick::<Vec<u8>>(seen)), id(rng.pick::<Vec<u8>>(seen))]),
        );
    }
    if rng.chance(15) {
        f.insert("#t".into(), json!([rng.pick(&["a", "b"])]));
    }
    if rng.chance(10) {
        f.insert("#d".into(), json!([rng.pick(&["", "x", "y"])]));
    }
    if rng.chance(30) {
        f.insert("since".into(), json!(base + rng.below(40)));
    }
    if rng.chance(30) {
        f.insert("until".into(), json!(base + rng.below(40)));
    }
    if rng.chance(60) {
        f.insert("limit".into(), json!(rng.below(12)));
    }
    Value::Object(f)
}

async fn run(store: Arc<dyn EventStore>, dir: tempfile::TempDir, seed: u64) {
    let config = Config::default();
    let max_limit = config.limits.max_limit;
    let relay = start_on(store, config, dir).await;
    let keys = keys(3);
    let mut rng = Rng(seed);
    let now = now();
    let base = now - 100_000;
    let mut model = Model::default();
    let mut publisher = Client::connect(relay.addr).await;
    let mut watcher = Client::connect(relay.addr).await;
    assert!(watcher.req("live", &[json!({})]).await.is_empty());
    let mut seen: Vec<Vec<u8>> = Vec::new();
    let mut live_expected = Vec::new();
    let mut outcomes: HashMap<(bool, &'static str), usize> = HashMap::new();
    for step in 0..260 {
        let event = if rng.chance(10) && !seen.is_empty() {
            rng.pick::<Vec<u8>>(&seen).clone()
        } else {
            random_event(&mut rng, &keys, &seen, base, now)
        };
        let (accepted, live, prefix) = model.publish(&event, now);
        let (ok, message) = publisher.publish(&event).await;
        assert_eq!(
            (ok, message.split(' ').next().unwrap_or("")),
            (accepted, prefix),
            "step {step}: {message}"
        );
        *outcomes.entry((accepted, prefix)).or_default() += 1;
        if live {
            live_expected.push(id(&event));
        }
        seen.push(event);
        if step % 4 == 3 {
            let n = 1 + rng.below(2) as usize;
            let filters: Vec<Value> = (0..n)
                .map(|_| random_filter(&mut rng, &keys, &seen, base))
                .collect();
            let texts: Vec<String> = filters.iter().map(Value::to_string).collect();
            let parsed: Vec<Filter<'_>> = texts
                .iter()
                .map(|t| Filter::parse(t.as_bytes()).unwrap())
                .collect();
            let got = publisher.req(&format!("q{step}"), &filters).await;
            assert_eq!(
                got,
                model.answer(&parsed, max_limit),
                "step {step}: {texts:?}"
            );
            publisher
                .send(&json!(["CLOSE", format!("q{step}")]).to_string())
                .await;
            let mut count = vec![json!("COUNT"), json!("c")];
            count.extend(filters.iter().cloned());
            publisher.send(&Value::Array(count).to_string()).await;
            let unlimited: Vec<Filter<'_>> = parsed
                .iter()
                .cloned()
                .map(|f| Filter { limit: None, ..f })
                .collect();
            let m = publisher.recv().await;
            assert_eq!(
                m,
                json!(["COUNT", "c", {"count": model.answer(&unlimited, u64::MAX).len()}]),
                "step {step}: {texts:?}"
            );
        }
    }
    // The stream exercised every kind of answer.
    for kind in [
        (true, ""),
        (true, "duplicate:"),
        (false, "duplicate:"),
        (false, "blocked:"),
        (false, "invalid:"),
    ] {
        assert!(
            outcomes.get(&kind).is_some_and(|&n| n > 0),
            "no {kind:?} in {outcomes:?}"
        );
    }
    // Every accepted event reached the live subscription, once, in order.
    for (i, want) in live_expected.iter().enumerate() {
        assert_eq!(&watcher.live("live").await, want, "live delivery {i}");
    }
    watcher.silent().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn relay_matches_the_model_on_memory() {
    run(
        Arc::new(MemoryStore::new()),
        tempfile::tempdir().unwrap(),
        7,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn relay_matches_the_model_on_lmdb() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(LmdbStore::open_with_map_size(dir.path(), 1 << 28).unwrap());
    run(store, dir, 11).await;
}
