//! Keys and signing: `generateSecretKey`, `getPublicKey`, `finalizeEvent`
//! (nostr-tools' shapes: a secret key is a 32-byte `Uint8Array`, a public
//! key lowercase hex). The keys and BIP-340 are `ito::nostr::SecretKey`'s.

use crate::event::{Fields, Shape};
use crate::js::{Fail, Js, Raw};
use ito::nostr::{SecretKey, UnsignedEvent};
use napi::bindgen_prelude::*;
use napi_derive::napi;

/// A fresh secret key from the operating system's random source, as 32
/// bytes (nostr-tools' `generateSecretKey`).
#[napi]
pub fn generate_secret_key(env: Env) -> Result<Uint8Array> {
    let js = Js::new(&env);
    let key =
        SecretKey::generate().map_err(|e| js.throw(Fail::value(e.to_string(), "secretKey", 0)))?;
    Ok(Uint8Array::new(key.secret_bytes().to_vec()))
}

/// The lowercase hex x-only public key of a 32-byte secret key.
#[napi(ts_args_type = "secretKey: Uint8Array")]
pub fn get_public_key(env: Env, secret_key: Unknown<'_>) -> Result<String> {
    let js = Js::new(&env);
    let key = secret_key_of(js, secret_key.raw(), "getPublicKey").map_err(|f| js.throw(f))?;
    Ok(key.public_key_hex())
}

/// Signs an event template `{kind, created_at, tags, content}` in place, as
/// nostr-tools does: sets its `pubkey` (from the key), `id` and `sig` (a
/// BIP-340 signature with fresh auxiliary randomness) and returns it.
#[napi(
    ts_args_type = "template: EventTemplate, secretKey: Uint8Array",
    ts_return_type = "Event"
)]
pub fn finalize_event<'env>(
    env: &'env Env,
    template: Unknown<'env>,
    secret_key: Unknown<'_>,
) -> Result<Unknown<'env>> {
    let js = Js::new(env);
    let object = template.raw();
    if js.type_of(object) != napi::sys::ValueType::napi_object {
        return Err(js.throw(Fail::Type(
            "finalizeEvent: expected an event template object".into(),
        )));
    }
    let key = secret_key_of(js, secret_key.raw(), "finalizeEvent").map_err(|f| js.throw(f))?;
    let mut scratch = Vec::new();
    let fields =
        Fields::read(js, object, Shape::Template, &mut scratch).map_err(|f| js.throw(f))?;
    let event = fields.event().map_err(|f| js.throw(f))?;
    let unsigned = UnsignedEvent {
        created_at: event.created_at,
        kind: event.kind,
        tags: event.tags,
        content: event.content,
    };
    let signed = unsigned.sign(&key);
    let set = |name, value: &str| js.set_str(object, name, value).map_err(|f| js.throw(f));
    set(c"pubkey", &ito::hex::encode(&signed.pubkey))?;
    set(c"id", &ito::hex::encode(&signed.id))?;
    set(c"sig", &ito::hex::encode(&signed.sig))?;
    Ok(template)
}

/// A secret key from a 32-byte `Uint8Array`; errors never show the bytes.
fn secret_key_of(js: Js, value: Raw, function: &str) -> std::result::Result<SecretKey, Fail> {
    let bytes = js.bytes(value).ok_or_else(|| {
        Fail::Type(format!(
            "{function}: the secret key must be a Uint8Array of 32 bytes"
        ))
    })?;
    let bytes: &[u8; 32] = bytes.try_into().map_err(|_| {
        Fail::value(
            format!("the secret key must be 32 bytes, found {}", bytes.len()),
            "secretKey",
            0,
        )
    })?;
    SecretKey::from_bytes(bytes).map_err(|e| Fail::value(e.to_string(), "secretKey", 0))
}
