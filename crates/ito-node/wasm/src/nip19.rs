//! The `nip19` functions (nostr-tools' shapes), exported flat as
//! `nip19Decode`, `nip19NpubEncode`, ...; wasm-api.mjs gathers them into
//! the `nip19` namespace. Rules as in crates/ito-node/src/nip19.rs.

use crate::js::{self, Fail, Surrogates};
use ito::nostr::nip19::{self, AddressPointer, EventPointer, Nip19, ProfilePointer};
use js_sys::{Object, Uint8Array};
use wasm_bindgen::prelude::*;

/// A NIP-19 error, with the offset into the string where there is one.
fn fail(e: nip19::Error) -> JsValue {
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
    .into_js()
}

fn text(value: &JsValue, function: &str) -> Result<String, Fail> {
    js::string(value, Surrogates::Replace)
        .map_err(|_| Fail::Type(format!("nip19.{function}: expected a string")))
}

fn hex32(value: &str, field: &'static str) -> Result<[u8; 32], Fail> {
    ito::hex::decode_array_lower::<32>(value.as_bytes())
        .map_err(|e| Fail::value(format!("`{field}`: {e}"), field, e.offset()))
}

/// `nip19.decode`: any NIP-19 string to `{type, data}`.
#[wasm_bindgen(js_name = nip19Decode)]
pub fn decode(value: &JsValue) -> Result<JsValue, JsValue> {
    let s = text(value, "decode").map_err(Fail::into_js)?;
    let decoded = nip19::decode(&s).map_err(fail)?;
    let out = Object::new();
    js::set(&out, "type", &JsValue::from_str(decoded.prefix()));
    let hex = |bytes: &[u8; 32]| JsValue::from_str(&ito::hex::encode(bytes));
    let data: JsValue = match decoded {
        Nip19::Npub(key) => hex(&key),
        Nip19::Note(id) => hex(&id),
        Nip19::Nsec(secret) => Uint8Array::from(&secret.expose()[..]).into(),
        Nip19::Nprofile(ProfilePointer { pubkey, relays }) => {
            let data = Object::new();
            js::set(&data, "pubkey", &hex(&pubkey));
            js::set(&data, "relays", &js::strings(&relays));
            data.into()
        }
        Nip19::Nevent(EventPointer {
            id,
            relays,
            author,
            kind,
        }) => {
            let data = Object::new();
            js::set(&data, "id", &hex(&id));
            js::set(&data, "relays", &js::strings(&relays));
            js::set(
                &data,
                "author",
                &author.map_or(JsValue::UNDEFINED, |a| hex(&a)),
            );
            js::set(
                &data,
                "kind",
                &kind.map_or(JsValue::UNDEFINED, |k| JsValue::from_f64(f64::from(k))),
            );
            data.into()
        }
        Nip19::Naddr(AddressPointer {
            identifier,
            pubkey,
            kind,
            relays,
        }) => {
            let data = Object::new();
            js::set(&data, "identifier", &JsValue::from_str(&identifier));
            js::set(&data, "pubkey", &hex(&pubkey));
            js::set(&data, "kind", &JsValue::from_f64(f64::from(kind)));
            js::set(&data, "relays", &js::strings(&relays));
            data.into()
        }
    };
    js::set(&out, "data", &data);
    Ok(out.into())
}

/// `nip19.decode` of every type but `nsec`, as the JSON text of the
/// `{type, data}` object: one string out of the module, which JavaScript's
/// own `JSON.parse` turns into the object faster than the module can build
/// it one property at a time (wasm-api.mjs; `nevent`'s absent `author` and
/// `kind` are set to `undefined` there, as `nip19Decode` sets them).
#[wasm_bindgen(js_name = nip19DecodeJson)]
pub fn decode_json(value: &JsValue) -> Result<String, JsValue> {
    let s = text(value, "decode").map_err(Fail::into_js)?;
    let decoded = nip19::decode(&s).map_err(fail)?;
    let mut out = Vec::with_capacity(160);
    out.extend_from_slice(b"{\"type\":\"");
    out.extend_from_slice(decoded.prefix().as_bytes());
    out.extend_from_slice(b"\",\"data\":");
    let hex = |out: &mut Vec<u8>, bytes: &[u8; 32]| {
        out.push(b'"');
        out.extend_from_slice(ito::hex::encode(bytes).as_bytes());
        out.push(b'"');
    };
    let strings = |out: &mut Vec<u8>, list: &[String]| {
        out.push(b'[');
        for (i, r) in list.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            ito::json::quote(out, r);
        }
        out.push(b']');
    };
    match decoded {
        Nip19::Npub(key) => hex(&mut out, &key),
        Nip19::Note(id) => hex(&mut out, &id),
        // Secret bytes stay out of JavaScript strings: `nip19Decode` it is.
        Nip19::Nsec(_) => return Err(Fail::Type("nip19DecodeJson: nsec".into()).into_js()),
        Nip19::Nprofile(ProfilePointer { pubkey, relays }) => {
            out.extend_from_slice(b"{\"pubkey\":");
            hex(&mut out, &pubkey);
            out.extend_from_slice(b",\"relays\":");
            strings(&mut out, &relays);
            out.push(b'}');
        }
        Nip19::Nevent(EventPointer {
            id,
            relays,
            author,
            kind,
        }) => {
            out.extend_from_slice(b"{\"id\":");
            hex(&mut out, &id);
            out.extend_from_slice(b",\"relays\":");
            strings(&mut out, &relays);
            if let Some(author) = author {
                out.extend_from_slice(b",\"author\":");
                hex(&mut out, &author);
            }
            if let Some(kind) = kind {
                out.extend_from_slice(format!(",\"kind\":{kind}").as_bytes());
            }
            out.push(b'}');
        }
        Nip19::Naddr(AddressPointer {
            identifier,
            pubkey,
            kind,
            relays,
        }) => {
            out.extend_from_slice(b"{\"identifier\":");
            ito::json::quote(&mut out, &identifier);
            out.extend_from_slice(b",\"pubkey\":");
            hex(&mut out, &pubkey);
            out.extend_from_slice(format!(",\"kind\":{kind},\"relays\":").as_bytes());
            strings(&mut out, &relays);
            out.push(b'}');
        }
    }
    out.push(b'}');
    // Hex, ASCII and quoted UTF-8 strings: UTF-8 throughout.
    String::from_utf8(out).map_err(|e| Fail::Type(e.to_string()).into_js())
}

/// `nip19.npubEncode`: `npub1…` of a hex public key.
#[wasm_bindgen(js_name = nip19NpubEncode)]
pub fn npub_encode(hex: &JsValue) -> Result<String, JsValue> {
    let key = text(hex, "npubEncode")
        .and_then(|h| hex32(&h, "pubkey"))
        .map_err(Fail::into_js)?;
    Ok(nip19::encode_npub(&key))
}

/// `nip19.noteEncode`: `note1…` of a hex event id.
#[wasm_bindgen(js_name = nip19NoteEncode)]
pub fn note_encode(hex: &JsValue) -> Result<String, JsValue> {
    let id = text(hex, "noteEncode")
        .and_then(|h| hex32(&h, "id"))
        .map_err(Fail::into_js)?;
    Ok(nip19::encode_note(&id))
}

/// `nip19.nsecEncode`: `nsec1…` of a 32-byte secret key.
#[wasm_bindgen(js_name = nip19NsecEncode)]
pub fn nsec_encode(key: &JsValue) -> Result<String, JsValue> {
    let Some(bytes) = js::bytes(key) else {
        return Err(
            Fail::Type("nip19.nsecEncode: expected a Uint8Array of 32 bytes".into()).into_js(),
        );
    };
    let bytes = zeroize::Zeroizing::new(bytes);
    let array: &[u8; 32] = bytes.as_slice().try_into().map_err(|_| {
        Fail::value(
            format!("the secret key must be 32 bytes, found {}", bytes.len()),
            "secretKey",
            0,
        )
        .into_js()
    })?;
    Ok(nip19::encode_nsec(array))
}

/// `nip19.nprofileEncode`: `nprofile1…` of `{pubkey, relays?}`.
#[wasm_bindgen(js_name = nip19NprofileEncode)]
pub fn nprofile_encode(profile: &JsValue) -> Result<String, JsValue> {
    let pointer = (|| {
        pointer_object(profile, "nprofileEncode")?;
        Ok(ProfilePointer {
            pubkey: hex32(&required_str(profile, "pubkey")?, "pubkey")?,
            relays: relays(profile)?,
        })
    })()
    .map_err(Fail::into_js)?;
    pointer.encode().map_err(fail)
}

/// `nip19.neventEncode`: `nevent1…` of `{id, relays?, author?, kind?}`.
#[wasm_bindgen(js_name = nip19NeventEncode)]
pub fn nevent_encode(event: &JsValue) -> Result<String, JsValue> {
    let pointer = (|| {
        pointer_object(event, "neventEncode")?;
        Ok(EventPointer {
            id: hex32(&required_str(event, "id")?, "id")?,
            relays: relays(event)?,
            author: optional(event, "author")?
                .map(|v| {
                    let a = js::string(&v, Surrogates::Replace)
                        .map_err(|_| Fail::value("`author`: not a string", "author", 0))?;
                    hex32(&a, "author")
                })
                .transpose()?,
            kind: optional(event, "kind")?.map(|v| kind(&v)).transpose()?,
        })
    })()
    .map_err(Fail::into_js)?;
    pointer.encode().map_err(fail)
}

/// `nip19.naddrEncode`: `naddr1…` of `{identifier, pubkey, kind, relays?}`.
#[wasm_bindgen(js_name = nip19NaddrEncode)]
pub fn naddr_encode(addr: &JsValue) -> Result<String, JsValue> {
    let pointer = (|| {
        pointer_object(addr, "naddrEncode")?;
        Ok(AddressPointer {
            identifier: required_str(addr, "identifier")?,
            pubkey: hex32(&required_str(addr, "pubkey")?, "pubkey")?,
            kind: kind(&js::property(addr, &JsValue::from_str("kind"))?)?,
            relays: relays(addr)?,
        })
    })()
    .map_err(Fail::into_js)?;
    pointer.encode().map_err(fail)
}

fn pointer_object(value: &JsValue, function: &str) -> Result<(), Fail> {
    if value.is_object() {
        Ok(())
    } else {
        Err(Fail::Type(format!(
            "nip19.{function}: expected a pointer object"
        )))
    }
}

fn required_str(object: &JsValue, name: &'static str) -> Result<String, Fail> {
    let value = js::property(object, &JsValue::from_str(name))?;
    js::string(&value, Surrogates::Replace)
        .map_err(|_| Fail::value(format!("`{name}`: not a string"), name, 0))
}

fn optional(object: &JsValue, name: &str) -> Result<Option<JsValue>, Fail> {
    let value = js::property(object, &JsValue::from_str(name))?;
    Ok(if value.is_undefined() || value.is_null() {
        None
    } else {
        Some(value)
    })
}

fn kind(value: &JsValue) -> Result<u32, Fail> {
    match value.as_f64() {
        Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX) => Ok(n as u32),
        _ => Err(Fail::value(
            "`kind`: not an integer from 0 to 2^32-1",
            "kind",
            0,
        )),
    }
}

fn relays(object: &JsValue) -> Result<Vec<String>, Fail> {
    let Some(list) = optional(object, "relays")? else {
        return Ok(Vec::new());
    };
    let list = js::array(&list)
        .ok_or_else(|| Fail::value("`relays`: not an array of strings", "relays", 0))?;
    (0..list.length())
        .map(|i| {
            let item = js::element(list, i)?;
            js::string(&item, Surrogates::Replace).map_err(|_| {
                Fail::value(
                    format!("`relays`: relay {i} is not a string"),
                    "relays",
                    i as usize,
                )
            })
        })
        .collect()
}
