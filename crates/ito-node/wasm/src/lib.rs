//! The browser build of the `ito-codecs` npm package: the Node package's
//! API (crates/ito-node) on `wasm32-unknown-unknown`, through wasm-bindgen.
//!
//! The names, shapes and errors are the Node package's, tested by the same
//! files (crates/ito-node/__test__, run in Node against this build and in
//! headless Chromium; scripts/browser-test.sh). The JavaScript around this
//! module (crates/ito-node/wasm-api.mjs) gathers the `nip19` functions into
//! their namespace and runs `verifyEvents` / `verifyJsonl` in Web Workers,
//! each with its own instance of this module.
//!
//! - `src/js.rs`: reading values, the errors thrown (`code`, `field`, `offset`).
//! - `src/event.rs`: an event object's fields into an `ito::nostr::Event`.
//! - `src/keys.rs`: keys and signing; `src/nip19.rs`: the `nip19` functions.
//! - `src/batch.rs`: what a worker runs, and the main thread's part of it.
//! - `src/filter_index.rs`: `FilterIndex`.
//! - `src/bench.rs` (feature `bench`): loops for the SWAR/simd128 page.

// `#[wasm_bindgen]` items must be `pub` for the generated exports, though
// the crate exports nothing to Rust.
#![allow(unreachable_pub)]

mod batch;
#[cfg(feature = "bench")]
mod bench;
mod event;
mod filter_index;
mod js;
mod keys;
mod nip19;

use event::{Fields, Shape};
use js::{Fail, Surrogates};
use wasm_bindgen::prelude::*;

/// Whether `event` is a valid, correctly signed Nostr event: its id is the
/// hash of its contents and its BIP-340 signature by `pubkey` holds.
///
/// `event` is an event object like nostr-tools', or the event's JSON as a
/// string or `Uint8Array`. An object that is not a valid event gives
/// `false`; a value of another type throws a `TypeError`.
#[wasm_bindgen(js_name = verifyEvent)]
pub fn verify_event(event: &JsValue) -> Result<bool, JsValue> {
    if event.is_string() {
        return Ok(
            js::string(event, Surrogates::Reject).is_ok_and(|json| verify_json(json.as_bytes()))
        );
    }
    if js::is_object(event) {
        if let Some(bytes) = js::bytes(event) {
            return Ok(verify_json(&bytes));
        }
        // A getter that throws makes the event invalid, as in Node.
        return Ok(Fields::read(event, Shape::Signed)
            .is_ok_and(|fields| fields.event().is_ok_and(|e| ito::nostr::verify(&e))));
    }
    Err(
        Fail::Type("verifyEvent: expected an event object, a JSON string or a Uint8Array".into())
            .into_js(),
    )
}

fn verify_json(json: &[u8]) -> bool {
    ito::nostr::Event::parse(json).is_ok_and(|e| ito::nostr::verify(&e))
}

/// The id of an event: the lowercase hex sha256 of its NIP-01
/// serialization `[0, pubkey, created_at, kind, tags, content]`.
///
/// Throws an `Error` with `field` and `offset` properties when a field is
/// missing or malformed, a `TypeError` when `event` is not an object.
#[wasm_bindgen(js_name = getEventHash)]
pub fn get_event_hash(event: &JsValue) -> Result<String, JsValue> {
    // `typeof event === "object"`, as Node-API's check (not a function).
    if !event.is_object() {
        return Err(Fail::Type("getEventHash: expected an event object".into()).into_js());
    }
    let id = Fields::read(event, Shape::Unsigned)
        .and_then(|fields| Ok(ito::nostr::event_id(&fields.event()?)))
        .map_err(Fail::into_js)?;
    Ok(ito::hex::encode(&id))
}

/// The lowercase hex sha256 of `text`'s UTF-8: `getEventHash`'s last step
/// when wasm-api.mjs has checked the event and written its NIP-01
/// serialization with `JSON.stringify` (one call into the module instead
/// of one per field and tag value; see `eventHashText` there).
#[wasm_bindgen(js_name = sha256Hex)]
pub fn sha256_hex(text: &str) -> String {
    use sha2::Digest;
    ito::hex::encode(&sha2::Sha256::digest(text.as_bytes()))
}
