//! Event parsing on arbitrary bytes: never panics; anything accepted is JSON
//! serde_json accepts, its id matches the serde_json oracle, and its compact
//! form parses back to the same event.
#![no_main]

use ito::nostr::{self, Event};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = nostr::unescape(&mut Vec::new(), data);
    let mut m = data.to_vec();
    let _ = nostr::unescape_in_place(&mut m);
    let Ok(event) = Event::parse(data) else { return };
    let value: serde_json::Value = match serde_json::from_slice(data) {
        Ok(v) => v,
        // Valid JSON that serde_json's f64 numbers cannot hold (e.g. 1e400
        // in an unknown field); nothing else may differ.
        Err(e) => {
            assert!(e.to_string().contains("number out of range"), "{e}");
            return;
        }
    };
    let array = serde_json::json!([0, value["pubkey"], value["created_at"], value["kind"], value["tags"], value["content"]]);
    let mut canonical = Vec::new();
    nostr::canonical(&mut canonical, &event);
    assert_eq!(canonical, serde_json::to_vec(&array).unwrap());
    let mut out = Vec::new();
    event.to_json(&mut out);
    assert_eq!(Event::parse(&out).unwrap(), event);
});
