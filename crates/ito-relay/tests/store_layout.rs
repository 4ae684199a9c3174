//! The storage layout's own cases, on both stores where they apply: ties
//! between ids that share their first 8 bytes (the part index keys hold),
//! tag values stored as binary hex against text, and the format version
//! (a database of another format is refused, never misread).

mod common;

use common::{hex, id_of, keys, sign, tag};
use ito_relay::{EventStore, LmdbStore, MemoryStore, Outcome, StoreError};

const NOW: u64 = 1_000_000;

fn ids(store: &dyn EventStore, filter: &str) -> Vec<[u8; 32]> {
    common::ids_of(store, filter, NOW)
}

/// `json` with its id replaced by `id` (the store takes verified events
/// and does not hash them again, which lets a test make ids collide).
fn with_id(json: &[u8], id: &[u8; 32]) -> Vec<u8> {
    let old = hex(&id_of(json));
    String::from_utf8(json.to_vec())
        .unwrap()
        .replacen(&old, &hex(id), 1)
        .into_bytes()
}

fn prefix_ties(store: &dyn EventStore) {
    let k = keys(2);
    let p = hex(&[7u8; 32]);
    // Five events of one second whose ids share 8 bytes, written so that
    // their seq order is not their id order, and two more around them.
    let mut written = Vec::new();
    for (i, last) in [0x90u8, 0x10, 0xf0, 0x50, 0x30].into_iter().enumerate() {
        let mut id = [0xabu8; 32];
        id[31] = last;
        let json = with_id(
            &sign(&k[i % 2], 500, 1, &[tag("p", &p)], &format!("{i}")),
            &id,
        );
        written.push(json);
    }
    let mut low = [0xabu8; 32];
    low[7] = 0x00;
    written.push(with_id(&sign(&k[0], 500, 1, &[tag("p", &p)], "low"), &low));
    written.push(sign(&k[1], 501, 1, &[tag("p", &p)], "newer"));
    let refs: Vec<&[u8]> = written.iter().map(Vec::as_slice).collect();
    let batch = store.write_batch(&refs, NOW).unwrap();
    assert!(batch.outcomes.iter().all(|o| *o == Outcome::Stored));

    let mut expected: Vec<[u8; 32]> = written[..6].iter().map(|j| id_of(j)).collect();
    expected.sort();
    expected.insert(0, id_of(&written[6]));
    for filter in [
        r#"{}"#.to_owned(),
        r#"{"kinds":[1]}"#.to_owned(),
        format!(r##"{{"#p":["{p}"]}}"##),
        format!(
            r#"{{"authors":["{}","{}"]}}"#,
            hex(&k[0].public_key()),
            hex(&k[1].public_key())
        ),
        format!(
            r#"{{"authors":["{}","{}"],"kinds":[1]}}"#,
            hex(&k[0].public_key()),
            hex(&k[1].public_key())
        ),
    ] {
        assert_eq!(ids(store, &filter), expected, "{filter}");
        // A limit cuts the run in id order too.
        let limited = format!("{},\"limit\":3}}", filter.trim_end_matches('}'));
        let limited = limited.replace("{,", "{");
        assert_eq!(ids(store, &limited), expected[..3], "{limited}");
    }
}

#[test]
fn ties_within_an_id_prefix_memory() {
    prefix_ties(&MemoryStore::new());
}

#[test]
fn ties_within_an_id_prefix_lmdb() {
    let dir = tempfile::tempdir().unwrap();
    prefix_ties(&LmdbStore::open(dir.path()).unwrap());
}

fn hex_and_text_tags(store: &dyn EventStore) {
    let k = keys(1);
    let lower = hex(&[0x5au8; 32]);
    let upper = lower.to_uppercase();
    // 64 characters, not all hex: stays text.
    let not_hex = format!("{}g", &lower[..63]);
    let a = sign(&k[0], 10, 1, &[tag("x", &lower)], "a");
    let b = sign(&k[0], 11, 1, &[tag("x", &upper)], "b");
    let c = sign(&k[0], 12, 1, &[tag("x", &not_hex)], "c");
    // The 32 bytes `lower` stands for, as text: must not meet `a`'s key.
    let same_bytes = "Z".repeat(32);
    let d = sign(&k[0], 14, 1, &[tag("x", &same_bytes)], "d");
    store.write_batch(&[&a, &b, &c, &d], NOW).unwrap();
    let e = sign(&k[0], 13, 1, &[tag("e", &lower)], "e");
    store.write_batch(&[&e], NOW).unwrap();
    assert_eq!(
        ids(store, &format!(r##"{{"#e":["{lower}"]}}"##)),
        [id_of(&e)]
    );
    // `#e` takes only lower-case hex in a filter; `#x` takes any text.
    for (value, event) in [
        (&lower, &a),
        (&upper, &b),
        (&not_hex, &c),
        (&same_bytes, &d),
    ] {
        assert_eq!(
            ids(store, &format!(r##"{{"#x":["{value}"]}}"##)),
            [id_of(event)]
        );
    }
}

#[test]
fn hex_tag_values_memory() {
    hex_and_text_tags(&MemoryStore::new());
}

#[test]
fn hex_tag_values_lmdb() {
    let dir = tempfile::tempdir().unwrap();
    hex_and_text_tags(&LmdbStore::open(dir.path()).unwrap());
}

/// Writes a database shaped like format `found` would be: a `meta` table
/// with the batch number, and a version when `found` is not 1.
fn fake_database(dir: &std::path::Path, found: Option<u64>) {
    let mut options = heed::EnvOpenOptions::new();
    options.max_dbs(16);
    // SAFETY: the directory is this test's own; no other environment on
    // it is open in this process.
    let env = unsafe { options.open(dir) }.unwrap();
    let mut wtxn = env.write_txn().unwrap();
    let meta = env
        .create_database::<heed::types::Bytes, heed::types::Bytes>(&mut wtxn, Some("meta"))
        .unwrap();
    meta.put(&mut wtxn, b"seq", &7u64.to_be_bytes()).unwrap();
    if let Some(v) = found {
        meta.put(&mut wtxn, b"format", &v.to_be_bytes()).unwrap();
    }
    wtxn.commit().unwrap();
}

#[test]
fn another_format_is_refused() {
    for (written, found) in [(None, 1), (Some(2), 2), (Some(4), 4)] {
        let dir = tempfile::tempdir().unwrap();
        fake_database(dir.path(), written);
        let err = LmdbStore::open(dir.path()).unwrap_err();
        assert!(
            matches!(err, StoreError::Format { found: f, expected: 3 } if f == found),
            "{err:?}"
        );
        let message = err.to_string();
        assert!(message.contains(&format!("format {found}")), "{message}");
        assert!(message.contains("ito relay export") && message.contains("ito relay import"));
        // Refused again: the failed open changed nothing.
        assert!(matches!(
            LmdbStore::open(dir.path()),
            Err(StoreError::Format { .. })
        ));
    }
}

/// A format-3 database that a build of format 2 then wrote into (a
/// rollback: its rows are keyed by the big-endian seq, in the same table,
/// which reads as a far larger integer) is refused on open instead of
/// failing every later append.
#[test]
fn rows_of_another_format_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let k = keys(1);
    let event = sign(&k[0], 10, 1, &[], "kept");
    {
        let store = LmdbStore::open(dir.path()).unwrap();
        store.write_batch(&[&event], NOW).unwrap();
    }
    {
        let mut options = heed::EnvOpenOptions::new();
        options.max_dbs(16);
        // SAFETY: the directory is this test's own; the store above is
        // closed, so no other environment on it is open in this process.
        let env = unsafe { options.open(dir.path()) }.unwrap();
        let mut wtxn = env.write_txn().unwrap();
        let events = env
            .create_database::<heed::types::Bytes, heed::types::Bytes>(&mut wtxn, Some("events"))
            .unwrap();
        events.put(&mut wtxn, &1u64.to_be_bytes(), b"{}").unwrap();
        wtxn.commit().unwrap();
    }
    let err = LmdbStore::open(dir.path()).unwrap_err();
    assert!(matches!(err, StoreError::Corrupt(_)), "{err:?}");
    assert!(err.to_string().contains("another format"), "{err}");
}

#[test]
fn a_new_database_opens_again() {
    let dir = tempfile::tempdir().unwrap();
    let k = keys(1);
    let event = sign(&k[0], 10, 1, &[], "kept");
    {
        let store = LmdbStore::open(dir.path()).unwrap();
        store.write_batch(&[&event], NOW).unwrap();
    }
    let store = LmdbStore::open(dir.path()).unwrap();
    assert_eq!(ids(&store, "{}"), [id_of(&event)]);
    // New events go after the reopened database's last seq.
    let more = sign(&k[0], 11, 1, &[], "more");
    assert_eq!(
        store.write_batch(&[&more], NOW).unwrap().outcomes,
        [Outcome::Stored]
    );
    assert_eq!(ids(&store, "{}"), [id_of(&more), id_of(&event)]);
}

/// More rows than one byte of the sequence number counts: LMDB keeps the
/// `events` key as a native integer, and a key in the wrong byte order
/// still sorts right below 256 rows, then fails the append (or, read back,
/// finds no row) past it. Every row is read back by query and by id, and
/// the database opens again.
#[test]
fn rows_past_one_byte_of_seq_lmdb() {
    let dir = tempfile::tempdir().unwrap();
    let k = keys(2);
    let events: Vec<Vec<u8>> = (0..700u64)
        .map(|i| sign(&k[(i % 2) as usize], 1000 + i, 1, &[], &format!("{i}")))
        .collect();
    {
        let store = LmdbStore::open(dir.path()).unwrap();
        for batch in events.chunks(100) {
            let refs: Vec<&[u8]> = batch.iter().map(|e| e.as_slice()).collect();
            let b = store.write_batch(&refs, NOW).unwrap();
            assert!(b.outcomes.iter().all(|o| *o == Outcome::Stored));
        }
    }
    let store = LmdbStore::open(dir.path()).unwrap();
    assert_eq!(store.len().unwrap(), 700);
    let newest_first: Vec<[u8; 32]> = events.iter().rev().map(|e| id_of(e)).collect();
    assert_eq!(ids(&store, r#"{"kinds":[1],"limit":1000}"#), newest_first);
    for e in events.iter().step_by(37) {
        let id = id_of(e);
        assert_eq!(ids(&store, &format!(r#"{{"ids":["{}"]}}"#, hex(&id))), [id]);
    }
}
