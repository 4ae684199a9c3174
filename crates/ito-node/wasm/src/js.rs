//! Reading JavaScript values and building the errors thrown, with the
//! Node package's rules (crates/ito-node/src/js.rs): a wrong argument type
//! is a `TypeError`; a malformed value an `Error` with `code`
//! (`ERR_ITO_INVALID`), `field` and `offset`; an exception thrown by a
//! getter or proxy while reading is passed on as it is.

use js_sys::{Array, JsString, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};

/// Why a value could not be read.
#[derive(Debug)]
pub(crate) enum Fail {
    /// The argument itself has the wrong type: a `TypeError`.
    Type(String),
    /// The value is not what it must be: an `Error` with `code`, `offset`
    /// and `field` properties.
    Value {
        message: String,
        field: Option<&'static str>,
        offset: usize,
    },
    /// JavaScript code (a getter, a proxy) threw while being read; its
    /// exception is what the caller sees.
    Thrown(JsValue),
}

impl Fail {
    pub(crate) fn value(message: impl Into<String>, field: &'static str, offset: usize) -> Fail {
        Fail::Value {
            message: message.into(),
            field: Some(field),
            offset,
        }
    }

    /// The JavaScript exception for this failure.
    pub(crate) fn into_js(self) -> JsValue {
        match self {
            Fail::Type(message) => js_sys::TypeError::new(&message).into(),
            Fail::Thrown(value) => value,
            Fail::Value {
                message,
                field,
                offset,
            } => {
                let error = js_sys::Error::new(&message);
                let set = |key: &str, value: JsValue| {
                    // Setting a property on a fresh Error cannot fail.
                    let _ = Reflect::set(&error, &JsValue::from_str(key), &value);
                };
                set("code", JsValue::from_str("ERR_ITO_INVALID"));
                set("offset", JsValue::from_f64(offset as f64));
                set("field", field.map_or(JsValue::NULL, JsValue::from_str));
                error.into()
            }
        }
    }
}

impl From<ito::nostr::Error> for Fail {
    fn from(e: ito::nostr::Error) -> Fail {
        Fail::Value {
            message: e.to_string(),
            field: e.field().map(|f| f.name()),
            offset: e.offset(),
        }
    }
}

/// What to do with a lone surrogate (half of a UTF-16 pair), which has no
/// UTF-8 form.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Surrogates {
    /// Refuse the string: what is hashed or signed must be the text itself.
    Reject,
    /// Write U+FFFD, as `TextEncoder` does (NIP-19 strings).
    Replace,
}

/// Why a value could not be read as a string.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum StringFail {
    /// It is not a string.
    NotString,
    /// It holds a lone surrogate at UTF-16 index `index`.
    LoneSurrogate { index: usize, unit: u16 },
}

impl StringFail {
    /// The error for a string field `name`: a lone surrogate is named with
    /// its index in the string; `not_string` describes the other case.
    pub(crate) fn into_fail(self, name: &'static str, not_string: impl FnOnce() -> Fail) -> Fail {
        match self {
            StringFail::NotString => not_string(),
            StringFail::LoneSurrogate { index, unit } => Fail::value(
                format!(
                    "`{name}`: lone surrogate U+{unit:04X} at index {index} (half of a UTF-16 pair has no UTF-8 form)"
                ),
                name,
                index,
            ),
        }
    }
}

/// A string value as UTF-8.
///
/// wasm-bindgen writes a lone surrogate as U+FFFD (`TextEncoder`'s rule);
/// with [`Surrogates::Reject`] a string whose UTF-8 holds U+FFFD is asked
/// for its UTF-16, which tells a lone surrogate from a U+FFFD of the text.
pub(crate) fn string(value: &JsValue, surrogates: Surrogates) -> Result<String, StringFail> {
    let text = value.as_string().ok_or(StringFail::NotString)?;
    if surrogates == Surrogates::Reject && !text.is_ascii() && text.contains('\u{FFFD}') {
        if let Some(fail) = lone_surrogate(value.unchecked_ref::<JsString>()) {
            return Err(fail);
        }
    }
    Ok(text)
}

/// The first lone surrogate of a string, with its UTF-16 index.
fn lone_surrogate(text: &JsString) -> Option<StringFail> {
    let units: Vec<u16> = text.iter().collect();
    let mut index = 0usize;
    for c in char::decode_utf16(units.iter().copied()) {
        match c {
            Ok(c) => index += c.len_utf16(),
            Err(e) => {
                return Some(StringFail::LoneSurrogate {
                    index,
                    unit: e.unpaired_surrogate(),
                })
            }
        }
    }
    None
}

/// The bytes of a `Uint8Array` (a Node `Buffer` is one), copied.
pub(crate) fn bytes(value: &JsValue) -> Option<Vec<u8>> {
    value.dyn_ref::<Uint8Array>().map(Uint8Array::to_vec)
}

/// Whether `typeof value` is `"object"` (not `null`) or `"function"`.
pub(crate) fn is_object(value: &JsValue) -> bool {
    value.is_object() || value.is_function()
}

/// `object[key]`; an exception thrown by a getter or proxy is kept.
pub(crate) fn property(object: &JsValue, key: &JsValue) -> Result<JsValue, Fail> {
    Reflect::get(object, key).map_err(Fail::Thrown)
}

/// The array `value`, if it is one (`Array.isArray`).
pub(crate) fn array(value: &JsValue) -> Option<&Array> {
    if Array::is_array(value) {
        Some(value.unchecked_ref::<Array>())
    } else {
        None
    }
}

/// `array[i]`; an exception thrown by a proxy is kept.
pub(crate) fn element(array: &Array, i: u32) -> Result<JsValue, Fail> {
    Reflect::get_u32(array, i).map_err(Fail::Thrown)
}

/// `object[key] = value` for a string value.
pub(crate) fn set_str(object: &JsValue, key: &JsValue, value: &str) -> Result<(), Fail> {
    Reflect::set(object, key, &JsValue::from_str(value))
        .map_err(Fail::Thrown)
        .and_then(|done| {
            if done {
                Ok(())
            } else {
                Err(Fail::Type("cannot set a property on this object".into()))
            }
        })
}

/// `object[key] = value`, on an object this crate created.
pub(crate) fn set(object: &JsValue, key: &str, value: &JsValue) {
    // A plain object made here has no setters and is extensible.
    let _ = Reflect::set(object, &JsValue::from_str(key), value);
}

/// A JavaScript array of strings.
pub(crate) fn strings(values: &[String]) -> Array {
    values.iter().map(|v| JsValue::from_str(v)).collect()
}

/// The property names this crate reads, made once per thread: a key made
/// per call is a string allocation in JavaScript per property read.
pub(crate) struct Keys {
    pub(crate) id: JsValue,
    pub(crate) pubkey: JsValue,
    pub(crate) created_at: JsValue,
    pub(crate) kind: JsValue,
    pub(crate) tags: JsValue,
    pub(crate) content: JsValue,
    pub(crate) sig: JsValue,
}

thread_local! {
    static KEYS: Keys = Keys {
        id: JsValue::from_str("id"),
        pubkey: JsValue::from_str("pubkey"),
        created_at: JsValue::from_str("created_at"),
        kind: JsValue::from_str("kind"),
        tags: JsValue::from_str("tags"),
        content: JsValue::from_str("content"),
        sig: JsValue::from_str("sig"),
    };
}

/// Runs `f` with the property names.
pub(crate) fn with_keys<T>(f: impl FnOnce(&Keys) -> T) -> T {
    KEYS.with(f)
}
