//! `nip19`: NIP-19 bech32 strings (`npub`, `nsec`, `note`, `nprofile`,
//! `nevent`, `naddr`) with nostr-tools' shapes: `decode` answers
//! `{type, data}`, hex strings for `npub` and `note`, a `Uint8Array` for
//! `nsec`, pointer objects for the others. The codec is
//! `ito::nostr::nip19`'s.

use crate::js::{Fail, Js, Raw, Surrogates};
use ito::nostr::nip19::{self, AddressPointer, EventPointer, Nip19, ProfilePointer};
use napi::bindgen_prelude::*;
use napi_derive::napi;

/// nostr-tools' `ProfilePointer`.
#[napi(object, namespace = "nip19", js_name = "ProfilePointer")]
pub struct ProfilePointerJs {
    pub pubkey: String,
    pub relays: Option<Vec<String>>,
}

/// nostr-tools' `EventPointer`.
#[napi(object, namespace = "nip19", js_name = "EventPointer")]
pub struct EventPointerJs {
    pub id: String,
    pub relays: Option<Vec<String>>,
    pub author: Option<String>,
    pub kind: Option<u32>,
}

/// nostr-tools' `AddressPointer`.
#[napi(object, namespace = "nip19", js_name = "AddressPointer")]
pub struct AddressPointerJs {
    pub identifier: String,
    pub pubkey: String,
    pub kind: u32,
    pub relays: Option<Vec<String>>,
}

fn fail(e: nip19::Error) -> Fail {
    let offset = match &e {
        nip19::Error::InvalidChar { offset, .. }
        | nip19::Error::MixedCase { offset }
        | nip19::Error::TlvTruncated { offset }
        | nip19::Error::TlvLength { offset, .. }
        | nip19::Error::TlvUtf8 { offset, .. } => *offset,
        _ => 0,
    };
    Fail::Value {
        message: e.to_string(),
        field: None,
        offset,
    }
}

fn text(js: Js, value: Raw, function: &str) -> std::result::Result<String, Fail> {
    js.string(value, Surrogates::Replace)
        .map_err(|_| Fail::Type(format!("nip19.{function}: expected a string")))
}

fn hex32(value: &str, field: &'static str) -> std::result::Result<[u8; 32], Fail> {
    ito::hex::decode_array_lower::<32>(value.as_bytes())
        .map_err(|e| Fail::value(format!("`{field}`: {e}"), field, e.offset()))
}

/// Decodes any NIP-19 string to `{type, data}` (nostr-tools' shapes).
#[napi(
    namespace = "nip19",
    ts_args_type = "nip19: string",
    ts_return_type = "{ type: 'npub', data: string } | { type: 'nsec', data: Uint8Array } | { type: 'note', data: string } | { type: 'nprofile', data: ProfilePointer } | { type: 'nevent', data: EventPointer } | { type: 'naddr', data: AddressPointer }"
)]
pub fn decode(env: Env, nip19: Unknown<'_>) -> Result<Unknown<'_>> {
    let js = Js::new(&env);
    let s = text(js, nip19.raw(), "decode").map_err(|f| js.throw(f))?;
    let decoded = nip19::decode(&s).map_err(|e| js.throw(fail(e)))?;
    let out = decoded_object(js, &env, decoded).map_err(|f| js.throw(f))?;
    // SAFETY: `out` is a value created in this call's scope.
    Ok(unsafe { Unknown::from_raw_unchecked(env.raw(), out) })
}

/// `{type, data}`, built with raw Node-API calls and static keys: the
/// generic object conversion costs about as much as the decoding itself.
fn decoded_object(js: Js, env: &Env, decoded: Nip19) -> std::result::Result<Raw, Fail> {
    let out = js.object()?;
    js.set(out, c"type", js.str(decoded.prefix())?)?;
    let data = match decoded {
        Nip19::Npub(key) => js.str(&ito::hex::encode(&key))?,
        Nip19::Note(id) => js.str(&ito::hex::encode(&id))?,
        Nip19::Nsec(secret) => {
            let bytes = Uint8Array::new(secret.expose().to_vec());
            // SAFETY: the environment is this call's.
            unsafe { Uint8Array::to_napi_value(env.raw(), bytes) }
                .map_err(|e| Fail::Type(e.reason.clone()))?
        }
        Nip19::Nprofile(ProfilePointer { pubkey, relays }) => {
            let data = js.object()?;
            js.set(data, c"pubkey", js.str(&ito::hex::encode(&pubkey))?)?;
            js.set(data, c"relays", js.strings(&relays)?)?;
            data
        }
        Nip19::Nevent(EventPointer {
            id,
            relays,
            author,
            kind,
        }) => {
            let data = js.object()?;
            js.set(data, c"id", js.str(&ito::hex::encode(&id))?)?;
            js.set(data, c"relays", js.strings(&relays)?)?;
            // Present and `undefined` when absent, as nostr-tools answers.
            let author = match author {
                Some(a) => js.str(&ito::hex::encode(&a))?,
                None => js.undefined()?,
            };
            js.set(data, c"author", author)?;
            let kind = match kind {
                Some(k) => js.u32(k)?,
                None => js.undefined()?,
            };
            js.set(data, c"kind", kind)?;
            data
        }
        Nip19::Naddr(AddressPointer {
            identifier,
            pubkey,
            kind,
            relays,
        }) => {
            let data = js.object()?;
            js.set(data, c"identifier", js.str(&identifier)?)?;
            js.set(data, c"pubkey", js.str(&ito::hex::encode(&pubkey))?)?;
            js.set(data, c"kind", js.u32(kind)?)?;
            js.set(data, c"relays", js.strings(&relays)?)?;
            data
        }
    };
    js.set(out, c"data", data)?;
    Ok(out)
}

/// `npub1…` of a hex public key.
#[napi(namespace = "nip19", ts_args_type = "hex: string")]
pub fn npub_encode(env: Env, hex: Unknown<'_>) -> Result<String> {
    let js = Js::new(&env);
    let key = text(js, hex.raw(), "npubEncode")
        .and_then(|h| hex32(&h, "pubkey"))
        .map_err(|f| js.throw(f))?;
    Ok(nip19::encode_npub(&key))
}

/// `note1…` of a hex event id.
#[napi(namespace = "nip19", ts_args_type = "hex: string")]
pub fn note_encode(env: Env, hex: Unknown<'_>) -> Result<String> {
    let js = Js::new(&env);
    let id = text(js, hex.raw(), "noteEncode")
        .and_then(|h| hex32(&h, "id"))
        .map_err(|f| js.throw(f))?;
    Ok(nip19::encode_note(&id))
}

/// `nsec1…` of a 32-byte secret key.
#[napi(namespace = "nip19", ts_args_type = "key: Uint8Array")]
pub fn nsec_encode(env: Env, key: Unknown<'_>) -> Result<String> {
    let js = Js::new(&env);
    let Some(bytes) = js.bytes(key.raw()) else {
        return Err(js.throw(Fail::Type(
            "nip19.nsecEncode: expected a Uint8Array of 32 bytes".into(),
        )));
    };
    let bytes: &[u8; 32] = bytes.try_into().map_err(|_| {
        js.throw(Fail::value(
            format!("the secret key must be 32 bytes, found {}", bytes.len()),
            "secretKey",
            0,
        ))
    })?;
    Ok(nip19::encode_nsec(bytes))
}

/// `nprofile1…` of `{pubkey, relays?}`.
#[napi(namespace = "nip19", ts_args_type = "profile: nip19.ProfilePointer")]
pub fn nprofile_encode(env: Env, profile: Unknown<'_>) -> Result<String> {
    let js = Js::new(&env);
    let pointer = (|| {
        let p = pointer_object(js, profile.raw(), "nprofileEncode")?;
        Ok(ProfilePointer {
            pubkey: hex32(&required_str(js, p, c"pubkey", "pubkey")?, "pubkey")?,
            relays: relays(js, p)?,
        })
    })()
    .map_err(|f| js.throw(f))?;
    pointer.encode().map_err(|e| js.throw(fail(e)))
}

/// `nevent1…` of `{id, relays?, author?, kind?}`.
#[napi(namespace = "nip19", ts_args_type = "event: nip19.EventPointer")]
pub fn nevent_encode(env: Env, event: Unknown<'_>) -> Result<String> {
    let js = Js::new(&env);
    let pointer = (|| {
        let p = pointer_object(js, event.raw(), "neventEncode")?;
        Ok(EventPointer {
            id: hex32(&required_str(js, p, c"id", "id")?, "id")?,
            relays: relays(js, p)?,
            author: optional(js, p, c"author")?
                .map(|v| {
                    let a = js
                        .string(v, Surrogates::Replace)
                        .map_err(|_| Fail::value("`author`: not a string", "author", 0))?;
                    hex32(&a, "author")
                })
                .transpose()?,
            kind: optional(js, p, c"kind")?.map(|v| kind(js, v)).transpose()?,
        })
    })()
    .map_err(|f| js.throw(f))?;
    pointer.encode().map_err(|e| js.throw(fail(e)))
}

/// `naddr1…` of `{identifier, pubkey, kind, relays?}`.
#[napi(namespace = "nip19", ts_args_type = "addr: nip19.AddressPointer")]
pub fn naddr_encode(env: Env, addr: Unknown<'_>) -> Result<String> {
    let js = Js::new(&env);
    let pointer = (|| {
        let p = pointer_object(js, addr.raw(), "naddrEncode")?;
        Ok(AddressPointer {
            identifier: required_str(js, p, c"identifier", "identifier")?,
            pubkey: hex32(&required_str(js, p, c"pubkey", "pubkey")?, "pubkey")?,
            kind: kind(js, js.property(p, c"kind")?)?,
            relays: relays(js, p)?,
        })
    })()
    .map_err(|f| js.throw(f))?;
    pointer.encode().map_err(|e| js.throw(fail(e)))
}

fn pointer_object(js: Js, value: Raw, function: &str) -> std::result::Result<Raw, Fail> {
    if js.type_of(value) == napi::sys::ValueType::napi_object {
        Ok(value)
    } else {
        Err(Fail::Type(format!(
            "nip19.{function}: expected a pointer object"
        )))
    }
}

fn required_str(
    js: Js,
    object: Raw,
    key: &std::ffi::CStr,
    name: &'static str,
) -> std::result::Result<String, Fail> {
    let value = js.property(object, key)?;
    js.string(value, Surrogates::Replace)
        .map_err(|_| Fail::value(format!("`{name}`: not a string"), name, 0))
}

/// `object[key]` unless it is `undefined` or `null`.
fn optional(js: Js, object: Raw, key: &std::ffi::CStr) -> std::result::Result<Option<Raw>, Fail> {
    let value = js.property(object, key)?;
    Ok(match js.type_of(value) {
        napi::sys::ValueType::napi_undefined | napi::sys::ValueType::napi_null => None,
        _ => Some(value),
    })
}

fn kind(js: Js, value: Raw) -> std::result::Result<u32, Fail> {
    match js.number(value) {
        Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX) => Ok(n as u32),
        _ => Err(Fail::value(
            "`kind`: not an integer from 0 to 2^32-1",
            "kind",
            0,
        )),
    }
}

/// The optional `relays`: an array of strings (the index is the offset of
/// an error).
fn relays(js: Js, object: Raw) -> std::result::Result<Vec<String>, Fail> {
    let Some(list) = optional(js, object, c"relays")? else {
        return Ok(Vec::new());
    };
    let len = js
        .array_len(list)
        .ok_or_else(|| Fail::value("`relays`: not an array of strings", "relays", 0))?;
    (0..len)
        .map(|i| {
            let item = js.element(list, i)?;
            js.string(item, Surrogates::Replace).map_err(|_| {
                Fail::value(
                    format!("`relays`: relay {i} is not a string"),
                    "relays",
                    i as usize,
                )
            })
        })
        .collect()
}
