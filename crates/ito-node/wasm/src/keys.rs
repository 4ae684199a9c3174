//! Keys and signing: `generateSecretKey`, `getPublicKey`, `finalizeEvent`
//! (nostr-tools' shapes: a secret key is a 32-byte `Uint8Array`, a public
//! key lowercase hex). Randomness is the browser's `crypto.getRandomValues`
//! (getrandom's `wasm_js` backend).

use crate::event::{Fields, Shape};
use crate::js::{self, Fail};
use ito::nostr::{SecretKey, UnsignedEvent};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// A fresh secret key from the platform's random source, as 32 bytes.
#[wasm_bindgen(js_name = generateSecretKey)]
pub fn generate_secret_key() -> Result<js_sys::Uint8Array, JsValue> {
    let key =
        SecretKey::generate().map_err(|e| Fail::value(e.to_string(), "secretKey", 0).into_js())?;
    Ok(js_sys::Uint8Array::from(&key.secret_bytes()[..]))
}

/// The lowercase hex x-only public key of a 32-byte secret key.
#[wasm_bindgen(js_name = getPublicKey)]
pub fn get_public_key(secret_key: &JsValue) -> Result<String, JsValue> {
    let key = secret_key_of(secret_key, "getPublicKey").map_err(Fail::into_js)?;
    Ok(key.public_key_hex())
}

/// Signs an event template `{kind, created_at, tags, content}` in place:
/// sets its `pubkey`, `id` and `sig` (BIP-340 with fresh auxiliary
/// randomness) and returns it.
#[wasm_bindgen(js_name = finalizeEvent)]
pub fn finalize_event(template: JsValue, secret_key: &JsValue) -> Result<JsValue, JsValue> {
    if !template.is_object() {
        return Err(
            Fail::Type("finalizeEvent: expected an event template object".into()).into_js(),
        );
    }
    let key = secret_key_of(secret_key, "finalizeEvent").map_err(Fail::into_js)?;
    let fields = Fields::read(&template, Shape::Template).map_err(Fail::into_js)?;
    let event = fields.event().map_err(Fail::into_js)?;
    let unsigned = UnsignedEvent {
        created_at: event.created_at,
        kind: event.kind,
        tags: event.tags,
        content: event.content,
    };
    let signed = unsigned.sign(&key);
    js::with_keys(|k| {
        js::set_str(&template, &k.pubkey, &ito::hex::encode(&signed.pubkey))?;
        js::set_str(&template, &k.id, &ito::hex::encode(&signed.id))?;
        js::set_str(&template, &k.sig, &ito::hex::encode(&signed.sig))
    })
    .map_err(Fail::into_js)?;
    Ok(template)
}

/// A secret key from a 32-byte `Uint8Array`; errors never show the bytes.
///
/// The key of the last call is kept, with a copy of its bytes (both wiped
/// when replaced): deriving the key pair costs a scalar multiplication by
/// the generator, as much as the signature itself on wasm32, and a client
/// signs many events with one key. The bytes are compared in full, with
/// no early exit, so the time of a call does not tell how much of a key
/// matched the kept one.
fn secret_key_of(value: &JsValue, function: &str) -> Result<Rc<SecretKey>, Fail> {
    let bytes = js::bytes(value).ok_or_else(|| {
        Fail::Type(format!(
            "{function}: the secret key must be a Uint8Array of 32 bytes"
        ))
    })?;
    let bytes = zeroize::Zeroizing::new(bytes);
    let array: &[u8; 32] = bytes.as_slice().try_into().map_err(|_| {
        Fail::value(
            format!("the secret key must be 32 bytes, found {}", bytes.len()),
            "secretKey",
            0,
        )
    })?;
    LAST_KEY.with(|last| {
        let mut last = last.borrow_mut();
        if let Some((kept, key)) = last.as_ref() {
            let diff = kept
                .iter()
                .zip(array)
                .fold(0u8, |acc, (a, b)| acc | (a ^ b));
            if diff == 0 {
                return Ok(Rc::clone(key));
            }
        }
        let key = Rc::new(
            SecretKey::from_bytes(array).map_err(|e| Fail::value(e.to_string(), "secretKey", 0))?,
        );
        *last = Some((zeroize::Zeroizing::new(*array), Rc::clone(&key)));
        Ok(key)
    })
}

/// A secret key with the bytes it was made from.
type Kept = (zeroize::Zeroizing<[u8; 32]>, Rc<SecretKey>);

thread_local! {
    /// The last secret key read (see [`secret_key_of`]).
    static LAST_KEY: RefCell<Option<Kept>> = const { RefCell::new(None) };
}
