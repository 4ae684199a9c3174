//! The two halves of `verifyEvents` and `verifyJsonl` in a browser:
//! [`event_json`] on the page's thread turns an event object into its JSON
//! (reading its properties cannot happen anywhere else), and a Web Worker
//! (crates/ito-node/wasm-worker.mjs), with its own instance of this module,
//! checks the JSON with [`verify_batch`] or [`verify_jsonl_batch`].
//! Within one worker the checks run one after another: wasm32 here has no
//! threads, so the JavaScript side spreads a batch over several workers.

use crate::event::{Fields, Shape};
use crate::js::{self, Surrogates};
use ito::nostr::batch::{self, Check, Verdict};
use js_sys::{Array, Object};
use wasm_bindgen::prelude::*;

/// The JSON of an event object, or `null` for an object that is not a
/// valid event (answered `false` without work, as in the Node package).
#[wasm_bindgen(js_name = eventJson)]
pub fn event_json(event: &JsValue) -> Option<String> {
    let fields = Fields::read(event, Shape::Signed).ok()?;
    let event = fields.event().ok()?;
    let mut json = Vec::new();
    event.to_json(&mut json);
    String::from_utf8(json).ok()
}

/// `verifyEvent`'s answer for each element of `events` (the JSON of an
/// event as a string or `Uint8Array`, or `null` for "not an event"), as
/// one byte each, 1 for true.
#[wasm_bindgen(js_name = verifyBatch)]
pub fn verify_batch(events: &Array) -> Vec<u8> {
    events
        .iter()
        .map(|item| {
            let json = match js::bytes(&item) {
                Some(bytes) => bytes,
                None => match js::string(&item, Surrogates::Reject) {
                    Ok(text) => text.into_bytes(),
                    Err(_) => return 0,
                },
            };
            u8::from(batch::verify_one(&json, Check::Signature).is_ok())
        })
        .collect()
}

/// One verdict object per non-blank line of `buffer` (UTF-8 JSON lines),
/// numbered from `first_line`: `{line, ok, status}` and, for a line that
/// is not an event, `offset`, `field` and `message`.
#[wasm_bindgen(js_name = verifyJsonlBatch)]
pub fn verify_jsonl_batch(buffer: &[u8], first_line: u32) -> Array {
    batch::verify_jsonl(buffer, Check::Signature)
        .into_iter()
        .map(|(line, verdict)| {
            let line = first_line.saturating_add(u32::try_from(line).unwrap_or(u32::MAX) - 1);
            JsValue::from(line_verdict(line, verdict))
        })
        .collect()
}

fn line_verdict(line: u32, verdict: Verdict) -> Object {
    let out = Object::new();
    js::set(&out, "line", &JsValue::from_f64(f64::from(line)));
    js::set(&out, "ok", &JsValue::from_bool(verdict.is_ok()));
    let status = match verdict {
        Verdict::Ok => "ok",
        Verdict::BadId => "bad_id",
        Verdict::BadSignature => "bad_signature",
        Verdict::Invalid(e) => {
            js::set(&out, "offset", &JsValue::from_f64(e.offset() as f64));
            if let Some(field) = e.field() {
                js::set(&out, "field", &JsValue::from_str(field.name()));
            }
            js::set(&out, "message", &JsValue::from_str(&e.to_string()));
            "invalid"
        }
        // Not produced: this build has the `schnorr` feature.
        _ => "unchecked",
    };
    js::set(&out, "status", &JsValue::from_str(status));
    out
}
