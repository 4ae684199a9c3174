//! The NIP write rules, on both stores: replaceable and addressable
//! events (newest kept, ties by lowest id, missing `d` = `""`), ephemeral
//! events, NIP-09 deletions by `e` and `a`, NIP-40 expiration.

mod common;

use common::{hex, id_of, keys, sign, tag};
use ito::nostr::Filter;
use ito_relay::{EventStore, LmdbStore, MemoryStore, Outcome};

const NOW: u64 = 1_000_000;

fn ids(store: &dyn EventStore, filter: &str) -> Vec<[u8; 32]> {
    common::ids_of(store, filter, NOW)
}

fn put(store: &dyn EventStore, json: &[u8]) -> Outcome {
    store.write_batch(&[json], NOW).unwrap().outcomes[0]
}

fn rules(store: &dyn EventStore) {
    let k = keys(2);
    let (a, b) = (&k[0], &k[1]);

    // Replaceable: newest kept; on a tie the lowest id.
    let old = sign(a, 100, 0, &[], "old");
    let new = sign(a, 200, 0, &[], "new");
    assert_eq!(put(store, &new), Outcome::Stored);
    assert_eq!(put(store, &old), Outcome::Superseded);
    assert_eq!(put(store, &new), Outcome::Duplicate);
    let tie1 = sign(a, 300, 10_002, &[], "x");
    let tie2 = sign(a, 300, 10_002, &[], "y");
    let (low, high) = if id_of(&tie1) < id_of(&tie2) {
        (tie1, tie2)
    } else {
        (tie2, tie1)
    };
    assert_eq!(put(store, &high), Outcome::Stored);
    assert_eq!(put(store, &low), Outcome::Stored);
    assert_eq!(put(store, &high), Outcome::Superseded);
    assert_eq!(ids(store, r#"{"kinds":[10002]}"#), [id_of(&low)]);
    assert_eq!(ids(store, r#"{"kinds":[0]}"#), [id_of(&new)]);

    // Addressable: keyed by d; a missing d is d "".
    let no_d = sign(a, 100, 30_000, &[], "");
    let empty_d = sign(a, 101, 30_000, &[tag("d", "")], "");
    let other_d = sign(a, 50, 30_000, &[tag("d", "x")], "");
    assert_eq!(put(store, &no_d), Outcome::Stored);
    assert_eq!(put(store, &empty_d), Outcome::Stored);
    assert_eq!(put(store, &other_d), Outcome::Stored);
    assert_eq!(
        ids(store, r#"{"kinds":[30000]}"#),
        [id_of(&empty_d), id_of(&other_d)]
    );
    // Another author's event at the same kind and d is its own address.
    let b_d = sign(b, 10, 30_000, &[], "");
    assert_eq!(put(store, &b_d), Outcome::Stored);

    // Ephemeral: accepted, never stored.
    let eph = sign(a, 100, 20_001, &[], "");
    assert_eq!(put(store, &eph), Outcome::Ephemeral);
    assert!(ids(store, r#"{"kinds":[20001]}"#).is_empty());

    // NIP-09 by e: only the author's own events; never stored again.
    let note = sign(a, 100, 1, &[], "bye");
    let foreign = sign(b, 100, 1, &[], "not yours");
    assert_eq!(put(store, &note), Outcome::Stored);
    assert_eq!(put(store, &foreign), Outcome::Stored);
    let del = sign(
        a,
        150,
        5,
        &[
            tag("e", &hex(&id_of(&note))),
            tag("e", &hex(&id_of(&foreign))),
        ],
        "",
    );
    assert_eq!(put(store, &del), Outcome::Stored);
    assert_eq!(ids(store, r#"{"kinds":[1]}"#), [id_of(&foreign)]);
    assert_eq!(put(store, &note), Outcome::Deleted);
    // Deletion requests are kept and served.
    assert_eq!(ids(store, r#"{"kinds":[5]}"#), [id_of(&del)]);

    // An event arriving after its author's deletion request is refused.
    let later = sign(a, 90, 1, &[], "late");
    let pre_del = sign(a, 160, 5, &[tag("e", &hex(&id_of(&later)))], "");
    assert_eq!(put(store, &pre_del), Outcome::Stored);
    assert_eq!(put(store, &later), Outcome::Deleted);

    // A deletion of a deletion has no effect.
    let del_del = sign(a, 170, 5, &[tag("e", &hex(&id_of(&del)))], "");
    assert_eq!(put(store, &del_del), Outcome::Stored);
    assert!(ids(store, r#"{"kinds":[5]}"#).contains(&id_of(&del)));

    // NIP-09 by a: everything at the address up to the request's time.
    let article = sign(a, 400, 30_023, &[tag("d", "post")], "v1");
    assert_eq!(put(store, &article), Outcome::Stored);
    let addr = format!("30023:{}:post", a.public_key_hex());
    let del_a = sign(a, 450, 5, &[tag("a", &addr)], "");
    assert_eq!(put(store, &del_a), Outcome::Stored);
    assert!(ids(store, r#"{"kinds":[30023]}"#).is_empty());
    let older = sign(a, 440, 30_023, &[tag("d", "post")], "v0");
    assert_eq!(put(store, &older), Outcome::Deleted);
    let newer = sign(a, 460, 30_023, &[tag("d", "post")], "v2");
    assert_eq!(put(store, &newer), Outcome::Stored);
    // Another author cannot delete by address.
    let hostile = sign(b, 500, 5, &[tag("a", &addr)], "");
    assert_eq!(put(store, &hostile), Outcome::Stored);
    assert_eq!(ids(store, r#"{"kinds":[30023]}"#), [id_of(&newer)]);

    // NIP-40: refused when expired, never served, purged.
    let expired = sign(a, 100, 1, &[tag("expiration", &(NOW - 1).to_string())], "");
    assert_eq!(put(store, &expired), Outcome::Expired);
    let soon = sign(a, 100, 7, &[tag("expiration", &(NOW + 10).to_string())], "");
    assert_eq!(put(store, &soon), Outcome::Stored);
    assert_eq!(ids(store, r#"{"kinds":[7]}"#), [id_of(&soon)]);
    let mut seen = 0;
    store
        .query(
            &[Filter::parse(br#"{"kinds":[7]}"#).unwrap()],
            10,
            NOW + 10,
            &mut |_| {
                seen += 1;
                true
            },
        )
        .unwrap();
    assert_eq!(seen, 0, "expired events are never served");
    assert_eq!(store.purge_expired(NOW + 10, 100).unwrap(), 1);
    assert_eq!(store.purge_expired(NOW + 10, 100).unwrap(), 0);
    assert!(ids(store, r#"{"kinds":[7]}"#).is_empty());

    // A batch: each event sees the ones before it.
    let r1 = sign(b, 100, 3, &[], "");
    let r2 = sign(b, 200, 3, &[], "");
    let batch = store.write_batch(&[&r1, &r2, &r1], NOW).unwrap();
    assert_eq!(
        batch.outcomes,
        [Outcome::Stored, Outcome::Stored, Outcome::Superseded]
    );
    let seq = batch.seq;
    assert_eq!(store.write_batch(&[], NOW).unwrap().seq, seq + 1);
}

#[test]
fn memory_store_rules() {
    rules(&MemoryStore::new());
}

#[test]
fn lmdb_store_rules_and_reopen() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = LmdbStore::open_with_map_size(dir.path(), 1 << 28).unwrap();
        rules(&store);
    }
    // Everything committed is there after reopening.
    let store = LmdbStore::open_with_map_size(dir.path(), 1 << 28).unwrap();
    assert_eq!(ids(&store, r#"{"kinds":[3]}"#).len(), 1);
    assert!(store.len().unwrap() > 5);
}
