//! Node.js bindings for ito: the `ito-codecs` npm package.
//!
//! This crate converts JavaScript values to ito's types and back and moves
//! batch work off the JavaScript thread; every codec, check and index is
//! `ito::nostr`'s, tested there. The names and shapes follow nostr-tools
//! (`verifyEvent`, `getEventHash`, `finalizeEvent`, `nip19.decode`), so
//! switching is a change of import. Tests: `__test__/` (`node --test`).
//!
//! - `src/js.rs`: raw Node-API reads and the errors thrown (`offset`, `field`).
//! - `src/event.rs`: an event object's fields into an `ito::nostr::Event`.
//! - `src/keys.rs`: keys and signing; `src/nip19.rs`: the `nip19` namespace.
//! - `src/batch.rs`: `verifyEvents` / `verifyJsonl` on the thread pool.
//! - `src/filter_index.rs`: `FilterIndex`, subscription ids over
//!   `ito::nostr::FilterIndex`.

// `#[napi]` items must be `pub` for the generated registration, though the
// crate exports nothing to Rust.
#![allow(unreachable_pub)]
// The registration is not generated for a test build, which leaves every
// export unused there.
#![cfg_attr(test, allow(dead_code))]

mod batch;
mod event;
mod filter_index;
mod js;
mod keys;
mod nip19;

// The pointer types appear in index.d.ts (`nip19.ProfilePointer`, ...).
pub use nip19::{AddressPointerJs, EventPointerJs, ProfilePointerJs};

use event::{Fields, Shape};
use js::{Fail, Js, Surrogates};
use napi::bindgen_prelude::*;
use napi_derive::napi;

/// Whether `event` is a valid, correctly signed Nostr event: its id is the
/// hash of its contents and its BIP-340 signature by `pubkey` holds.
///
/// `event` is an event object like nostr-tools', or the event's JSON as a
/// string, `Buffer` or `Uint8Array`. As in nostr-tools, an object that is
/// not a valid event gives `false`; a value of another type throws a
/// `TypeError`.
#[napi(ts_args_type = "event: Event | string | Uint8Array")]
pub fn verify_event(env: Env, event: Unknown<'_>) -> Result<bool> {
    let js = Js::new(&env);
    let value = event.raw();
    match js.type_of(value) {
        napi::sys::ValueType::napi_string => {
            let Ok(json) = js.string(value, Surrogates::Reject) else {
                return Ok(false);
            };
            Ok(verify_json(json.as_bytes()))
        }
        napi::sys::ValueType::napi_object | napi::sys::ValueType::napi_function => {
            if let Some(bytes) = js.bytes(value) {
                return Ok(verify_json(bytes));
            }
            let mut scratch = Vec::new();
            match Fields::read(js, value, Shape::Signed, &mut scratch) {
                Ok(fields) => Ok(fields.event().is_ok_and(|e| ito::nostr::verify(&e))),
                Err(Fail::Pending) => {
                    js.clear_pending();
                    Ok(false)
                }
                Err(_) => Ok(false),
            }
        }
        _ => Err(js.throw(Fail::Type(
            "verifyEvent: expected an event object, a JSON string or a Uint8Array".into(),
        ))),
    }
}

fn verify_json(json: &[u8]) -> bool {
    ito::nostr::Event::parse(json).is_ok_and(|e| ito::nostr::verify(&e))
}

/// The id of an event: the lowercase hex sha256 of its NIP-01
/// serialization `[0, pubkey, created_at, kind, tags, content]`.
///
/// Throws an `Error` with `field` and `offset` properties when a field is
/// missing or malformed (nostr-tools throws too), a `TypeError` when
/// `event` is not an object.
#[napi(ts_args_type = "event: UnsignedEvent")]
pub fn get_event_hash(env: Env, event: Unknown<'_>) -> Result<String> {
    let js = Js::new(&env);
    let value = event.raw();
    if js.type_of(value) != napi::sys::ValueType::napi_object {
        return Err(js.throw(Fail::Type("getEventHash: expected an event object".into())));
    }
    let mut scratch = Vec::new();
    let id = Fields::read(js, value, Shape::Unsigned, &mut scratch)
        .and_then(|fields| Ok(ito::nostr::event_id(&fields.event()?)))
        .map_err(|fail| js.throw(fail))?;
    Ok(ito::hex::encode(&id))
}

/// The fields nostr-tools' `UnsignedEvent` has.
#[napi(object)]
pub struct UnsignedEvent {
    pub pubkey: String,
    #[napi(js_name = "created_at")]
    pub created_at: u32,
    pub kind: u32,
    pub tags: Vec<Vec<String>>,
    pub content: String,
}

/// A signed event, as nostr-tools' `Event`.
#[napi(object)]
pub struct Event {
    pub id: String,
    pub pubkey: String,
    #[napi(js_name = "created_at")]
    pub created_at: u32,
    pub kind: u32,
    pub tags: Vec<Vec<String>>,
    pub content: String,
    pub sig: String,
}

/// nostr-tools' `EventTemplate`.
#[napi(object)]
pub struct EventTemplate {
    pub kind: u32,
    pub tags: Vec<Vec<String>>,
    pub content: String,
    #[napi(js_name = "created_at")]
    pub created_at: u32,
}
