//! ito's serde serializer against serde_json, byte for byte, on the three
//! corpora read into typed structs (bench/src/docs.rs), by hand through the
//! `Writer`, and with no allocation into a reused `Vec`. (Split from
//! `json_serde.rs`; see there.)
#![cfg(feature = "serde")]

mod common;
mod json_serde_shared;

#[path = "../../../bench/src/docs.rs"]
#[allow(dead_code, unreachable_pub)]
mod docs;

use common::alloc::allocations;
use ito::json;
use json_serde_shared::same;
use serde::Serialize;
use serde_json::Value;

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

const TWITTER: &str = include_str!("../../../data/corpus/twitter.json");
const CITM: &str = include_str!("../../../data/corpus/citm_catalog.json");
const CANADA: &str = include_str!("../../../data/corpus/canada.json");

#[test]
fn corpora_as_typed_structs() {
    let twitter: docs::Twitter = serde_json::from_str(TWITTER).unwrap();
    same(&twitter);
    let citm: docs::Citm = serde_json::from_str(CITM).unwrap();
    same(&citm);
    let canada: docs::Canada = serde_json::from_str(CANADA).unwrap();
    same(&canada);
    // The same document through the Writer, by hand.
    let mut by_hand = Vec::new();
    docs::write_twitter(&mut by_hand, &twitter);
    assert_eq!(
        String::from_utf8_lossy(&by_hand),
        String::from_utf8_lossy(&serde_json::to_vec(&twitter).unwrap())
    );
    // The typed structs cover the documents: nothing was dropped.
    let back: Value = serde_json::from_slice(&json::to_vec(&twitter).unwrap()).unwrap();
    assert_eq!(back, serde_json::from_str::<Value>(TWITTER).unwrap());
}

#[test]
fn to_writer_into_a_reused_vec_allocates_nothing() {
    let twitter: docs::Twitter = serde_json::from_str(TWITTER).unwrap();
    let value: Value = serde_json::from_str(CITM).unwrap();
    let mut out = Vec::new();
    for pretty in [false, true] {
        let render = |out: &mut Vec<u8>| {
            out.clear();
            if pretty {
                json::to_writer_pretty(&mut *out, &twitter).unwrap();
                json::to_writer_pretty(&mut *out, &value).unwrap();
            } else {
                json::to_writer(&mut *out, &twitter).unwrap();
                json::to_writer(&mut *out, &value).unwrap();
            }
        };
        render(&mut out); // sizes the Vec and the staging buffer
        let len = out.len();
        let ((), n) = allocations(|| render(&mut out));
        assert_eq!((n, out.len()), (0, len));
    }
    // Straight into a Vec with room, through the public Serializer.
    let mut out = Vec::with_capacity(1 << 20);
    let ((), n) = allocations(|| {
        twitter
            .serialize(&mut json::Serializer::new(&mut out))
            .unwrap();
    });
    assert_eq!(n, 0);
}
