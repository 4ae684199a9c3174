//! Zero allocations in steady state, counted by a global allocator.
//!
//! The counter is per thread (see `common::alloc`), so the test harness's
//! own threads do not disturb it. Each scenario runs once to warm up
//! (buffers reach their size), then the measured repetitions must not
//! allocate at all.

mod common;

use ito::nostr::text::{self, Strings};
use ito::nostr::{self, Event};

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

/// Runs `f` once to warm up, then `reps` times counting allocations.
fn allocations(reps: usize, mut f: impl FnMut()) -> usize {
    f();
    let ((), n) = common::alloc::allocations(|| {
        for _ in 0..reps {
            f();
        }
    });
    n
}

#[test]
fn the_counter_counts() {
    let n = allocations(3, || {
        std::hint::black_box(vec![1u8; 10]);
    });
    assert_eq!(n, 3);
}

/// The 116-byte content of the benchmark.
fn small_content() -> Vec<u8> {
    let base = br#"Say <b>"hi"</b> & 'bye' / C:\path\u0000 -- tags: <a href="/x">link</a> & more text... \ end"#;
    let mut v = base.to_vec();
    v.resize(116, b'.');
    v
}

#[test]
fn escape_unescape_round_trip_does_not_allocate() {
    let small = small_content();
    let large: Vec<u8> = (0..8192).map(|i| (i % 256) as u8).collect();
    for src in [&small[..], &large[..]] {
        let mut escaped = Vec::new();
        let mut back = Vec::new();
        let n = allocations(50, || {
            escaped.clear();
            back.clear();
            nostr::escape(&mut escaped, src);
            nostr::unescape(&mut back, &escaped).unwrap();
        });
        assert_eq!(n, 0);
        assert_eq!(back, src);
        // In place: no buffer at all beyond the escaped copy.
        let mut work = escaped.clone();
        let n = allocations(50, || {
            work.clear();
            work.extend_from_slice(&escaped);
            let len = nostr::unescape_in_place(&mut work).unwrap();
            assert_eq!(&work[..len], src);
        });
        assert_eq!(n, 0);
    }
}

#[test]
fn hex_array_of_20_ids_into_reused_vec_does_not_allocate() {
    let ids: Vec<[u8; 32]> = (0..20u8).map(|i| [i.wrapping_mul(37); 32]).collect();
    let mut json = Vec::new();
    text::marshal_hex_array(&mut json, &ids);
    let mut out: Vec<[u8; 32]> = Vec::new();
    let mut marshalled = Vec::new();
    let n = allocations(100, || {
        out.clear();
        let rest = text::unmarshal_hex_array(&mut out, &json).unwrap();
        assert!(rest.is_empty());
        marshalled.clear();
        text::marshal_hex_array(&mut marshalled, &out);
    });
    assert_eq!(n, 0);
    assert_eq!(out, ids);
    assert_eq!(marshalled, json);
}

#[test]
fn string_array_and_toolkit_do_not_allocate() {
    let items = ["e", "a\"b\\c\n", "😀 emoji", "", "C:\\users"];
    let mut json = Vec::new();
    text::marshal_string_array(&mut json, &items);
    let mut strings = Strings::new();
    let mut dst = Vec::new();
    let n = allocations(100, || {
        strings.clear();
        text::unmarshal_string_array(&mut strings, &json).unwrap();
        dst.clear();
        text::json_key(&mut dst, b"tags");
        text::append_brackets(&mut dst, b"", |d, _| {
            text::append_list(d, &items, b',', text::quote);
        });
        text::marshal_bool(&mut dst, true);
        let (b, _) = text::unmarshal_bool(b"true,").unwrap();
        assert!(b);
        let (_, rest) = text::quoted_range(&json[1..]).unwrap();
        text::skip_comma(&json[1 + rest..]).unwrap();
        let (h, _) = text::unmarshal_hex_fixed::<4>(b"\"00112233\"").unwrap();
        assert_eq!(h, [0, 0x11, 0x22, 0x33]);
    });
    assert_eq!(n, 0);
    assert_eq!(strings.len(), items.len());
}

#[test]
fn event_parse_and_id_do_not_allocate_without_escapes() {
    let line = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/nostr/events.jsonl"
    ))
    .lines()
    .next()
    .unwrap();
    let n = allocations(100, || {
        let event = Event::parse(line.as_bytes()).unwrap();
        assert!(nostr::verify_id(&event));
        for tag in event.tags.iter() {
            for value in tag.iter() {
                std::hint::black_box(value);
            }
        }
    });
    assert_eq!(n, 0, "borrowed parse + thread-local id buffer");
}
