//! Reading and throwing JavaScript values through raw Node-API calls.
//!
//! The per-event paths (`verifyEvent`, `getEventHash` on an object) read a
//! handful of properties and strings per call; going through `napi_*`
//! directly costs one call per value, where the generic conversions check
//! the type first and ask for a string's length before copying it.
//!
//! Every handle here is a `napi_value` of the current call's scope: it is
//! valid until the native function returns, and never kept.

use napi::sys;
use std::ffi::CStr;
use std::ptr;

/// A JavaScript value of the current call.
pub(crate) type Raw = sys::napi_value;

/// Why a value could not be read.
#[derive(Debug)]
pub(crate) enum Fail {
    /// The argument itself has the wrong type: a `TypeError`.
    Type(String),
    /// The value is not what it must be: an `Error` with `offset` and
    /// `field` properties.
    Value {
        message: String,
        field: Option<&'static str>,
        offset: usize,
    },
    /// JavaScript code (a getter, a proxy) threw while being read; its
    /// exception is pending and is what the caller sees.
    Pending,
}

impl Fail {
    pub(crate) fn value(message: impl Into<String>, field: &'static str, offset: usize) -> Fail {
        Fail::Value {
            message: message.into(),
            field: Some(field),
            offset,
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
    /// Refuse the string: what is hashed or signed must be the text itself
    /// (nostr-tools hashes `JSON.stringify`'s `\udXXX` escape instead, an
    /// event that ito's parser and serde_json-based relays reject).
    Reject,
    /// Write U+FFFD, as `TextEncoder` does (nostr-tools encodes NIP-19 TLV
    /// strings with it).
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

/// The Node-API environment of the current call.
#[derive(Clone, Copy)]
pub(crate) struct Js {
    env: sys::napi_env,
}

impl Js {
    pub(crate) fn new(env: &napi::Env) -> Js {
        Js { env: env.raw() }
    }

    /// Turns a failed `napi_*` status into [`Fail`]: a pending exception
    /// stays pending, anything else is the type mismatch `what` names.
    fn check(&self, status: sys::napi_status, what: impl FnOnce() -> Fail) -> Result<(), Fail> {
        if status == sys::Status::napi_ok {
            return Ok(());
        }
        // A throwing getter makes Node-API answer `napi_generic_failure`
        // with the exception pending, so ask.
        let mut pending = false;
        // SAFETY: valid out-pointer.
        unsafe { sys::napi_is_exception_pending(self.env, &mut pending) };
        if pending {
            Err(Fail::Pending)
        } else {
            Err(what())
        }
    }

    /// `typeof value`.
    pub(crate) fn type_of(&self, value: Raw) -> sys::napi_valuetype {
        let mut t = sys::ValueType::napi_undefined;
        // SAFETY: `env` and `value` belong to the current call; `t` is a
        // valid out-pointer. On failure `t` stays `undefined`.
        unsafe { sys::napi_typeof(self.env, value, &mut t) };
        t
    }

    /// `object[name]` (getters run; their exceptions become [`Fail::Pending`]).
    pub(crate) fn property(&self, object: Raw, name: &CStr) -> Result<Raw, Fail> {
        let mut out = ptr::null_mut();
        // SAFETY: `name` is NUL-terminated; `object` is a value of this call.
        let status =
            unsafe { sys::napi_get_named_property(self.env, object, name.as_ptr(), &mut out) };
        self.check(status, || Fail::Type("not an object".into()))?;
        Ok(out)
    }

    /// Appends the UTF-8 of a string value to `out`.
    ///
    /// A lone surrogate (half of a UTF-16 pair) has no UTF-8 form:
    /// [`Surrogates::Reject`] answers [`StringFail::LoneSurrogate`] for it,
    /// [`Surrogates::Replace`] writes U+FFFD, as `TextEncoder` does.
    ///
    /// The buffer is sized from a bound that holds for every string, its
    /// UTF-16 length × 3 (a unit writes at most three bytes, a pair of
    /// units four), so one call always writes the whole string. Node-API
    /// stops at a character boundary when a buffer is short, so the count
    /// it writes cannot tell a cut string from a whole one.
    pub(crate) fn string_into(
        &self,
        value: Raw,
        out: &mut Vec<u8>,
        surrogates: Surrogates,
    ) -> Result<(), StringFail> {
        let units = self.utf16_len(value).ok_or(StringFail::NotString)?;
        // Past 16 Ki units, the exact length (a scan of the string) keeps a
        // large string from reserving three times its size.
        let bytes = if units <= 1 << 14 {
            units * 3
        } else {
            self.utf8_len(value).ok_or(StringFail::NotString)?
        };
        let bound = bytes.checked_add(1).ok_or(StringFail::NotString)?;
        out.reserve(bound);
        let start = out.len();
        let mut written = 0usize;
        // SAFETY: the buffer is the vector's spare capacity, at least
        // `bound` bytes long; Node-API writes at most `bound - 1` bytes and
        // a NUL, and reports the bytes before the NUL in `written`.
        let status = unsafe {
            sys::napi_get_value_string_utf8(
                self.env,
                value,
                out.as_mut_ptr().add(start).cast(),
                bound,
                &mut written,
            )
        };
        if status != sys::Status::napi_ok || written >= bound {
            return Err(StringFail::NotString);
        }
        // SAFETY: Node-API initialised `written` bytes of spare capacity.
        unsafe { out.set_len(start + written) };
        // Every unit that is not ASCII writes two or more bytes, so a
        // string as long in bytes as in units is ASCII and has no surrogate.
        // Otherwise a lone surrogate shows as U+FFFD; one found there is
        // told from a U+FFFD of the text by the string's UTF-16.
        if surrogates == Surrogates::Reject
            && written != units
            && memchr::memmem::find(&out[start..], "\u{FFFD}".as_bytes()).is_some()
        {
            if let Some(fail) = self.lone_surrogate(value, units) {
                out.truncate(start);
                return Err(fail);
            }
        }
        Ok(())
    }

    /// The length of a string value in UTF-16 units (a constant-time
    /// call); `None` if it is no string.
    fn utf16_len(&self, value: Raw) -> Option<usize> {
        let mut units = 0usize;
        // SAFETY: a null buffer asks for the length only; valid out-pointer.
        let status = unsafe {
            sys::napi_get_value_string_utf16(self.env, value, ptr::null_mut(), 0, &mut units)
        };
        (status == sys::Status::napi_ok).then_some(units)
    }

    /// The length of a string value's UTF-8 in bytes (lone surrogates
    /// counted as U+FFFD); `None` if it is no string.
    fn utf8_len(&self, value: Raw) -> Option<usize> {
        let mut bytes = 0usize;
        // SAFETY: a null buffer asks for the length only; valid out-pointer.
        let status = unsafe {
            sys::napi_get_value_string_utf8(self.env, value, ptr::null_mut(), 0, &mut bytes)
        };
        (status == sys::Status::napi_ok).then_some(bytes)
    }

    /// The first lone surrogate of a string of `units` UTF-16 units.
    fn lone_surrogate(&self, value: Raw, units: usize) -> Option<StringFail> {
        let mut text: Vec<u16> = Vec::with_capacity(units + 1);
        let mut written = 0usize;
        // SAFETY: the buffer holds `units + 1` units: the string and a NUL.
        let status = unsafe {
            sys::napi_get_value_string_utf16(
                self.env,
                value,
                text.as_mut_ptr(),
                units + 1,
                &mut written,
            )
        };
        if status != sys::Status::napi_ok {
            return None;
        }
        // SAFETY: Node-API initialised `written` (at most `units`) units.
        unsafe { text.set_len(written.min(units)) };
        let mut index = 0usize;
        for c in char::decode_utf16(text.iter().copied()) {
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

    /// A string value as a Rust `String`.
    pub(crate) fn string(&self, value: Raw, surrogates: Surrogates) -> Result<String, StringFail> {
        let mut out = Vec::new();
        self.string_into(value, &mut out, surrogates)?;
        // Node-API writes well-formed UTF-8.
        String::from_utf8(out).map_err(|_| StringFail::NotString)
    }

    /// A number value.
    pub(crate) fn number(&self, value: Raw) -> Option<f64> {
        let mut out = 0f64;
        // SAFETY: `out` is a valid out-pointer.
        let status = unsafe { sys::napi_get_value_double(self.env, value, &mut out) };
        (status == sys::Status::napi_ok).then_some(out)
    }

    /// The length of an array value; `None` if it is no array.
    pub(crate) fn array_len(&self, value: Raw) -> Option<u32> {
        let mut is_array = false;
        // SAFETY: valid out-pointers, values of this call.
        unsafe { sys::napi_is_array(self.env, value, &mut is_array) };
        if !is_array {
            return None;
        }
        let mut len = 0u32;
        // SAFETY: as above; `value` is an array.
        unsafe { sys::napi_get_array_length(self.env, value, &mut len) };
        Some(len)
    }

    /// `array[i]`.
    pub(crate) fn element(&self, array: Raw, i: u32) -> Result<Raw, Fail> {
        let mut out = ptr::null_mut();
        // SAFETY: valid out-pointer, values of this call.
        let status = unsafe { sys::napi_get_element(self.env, array, i, &mut out) };
        self.check(status, || Fail::Type("not an array".into()))?;
        Ok(out)
    }

    /// The bytes of a `Uint8Array` (a `Buffer` is one); `None` for any
    /// other value. The slice lives as long as the current call.
    pub(crate) fn bytes<'call>(&self, value: Raw) -> Option<&'call [u8]> {
        let mut is_typed = false;
        // SAFETY: valid out-pointer, a value of this call.
        unsafe { sys::napi_is_typedarray(self.env, value, &mut is_typed) };
        if !is_typed {
            return None;
        }
        let mut kind = 0;
        let mut len = 0usize;
        let mut data: *mut std::ffi::c_void = ptr::null_mut();
        // SAFETY: valid out-pointers; array buffer and offset are not asked for.
        let status = unsafe {
            sys::napi_get_typedarray_info(
                self.env,
                value,
                &mut kind,
                &mut len,
                &mut data,
                ptr::null_mut(),
                ptr::null_mut(),
            )
        };
        if status != sys::Status::napi_ok || kind != sys::TypedarrayType::uint8_array {
            return None;
        }
        if len == 0 || data.is_null() {
            return Some(&[]);
        }
        // SAFETY: Node-API returned the view's data pointer and its length
        // in bytes (elements of one byte); the value is referenced by the
        // call's arguments, so its memory stays put until the call returns.
        // No JavaScript runs while the slice is used (callers read it
        // before calling back into JavaScript).
        Some(unsafe { std::slice::from_raw_parts(data.cast::<u8>(), len) })
    }

    /// Throws `fail` as the call's exception and returns the error the
    /// generated glue hands back (which leaves a pending exception alone).
    pub(crate) fn throw(&self, fail: Fail) -> napi::Error {
        match fail {
            Fail::Pending => {}
            Fail::Type(message) => {
                let text = std::ffi::CString::new(message.replace('\0', " ")).unwrap_or_default();
                // SAFETY: NUL-terminated message, no code.
                unsafe { sys::napi_throw_type_error(self.env, ptr::null(), text.as_ptr()) };
            }
            Fail::Value {
                message,
                field,
                offset,
            } => self.throw_value(&message, field, offset),
        }
        napi::Error::new(napi::Status::PendingException, "")
    }

    fn throw_value(&self, message: &str, field: Option<&'static str>, offset: usize) {
        // SAFETY: every out-pointer is valid and every value is created in
        // this call's scope; the strings are passed with their byte lengths.
        unsafe {
            let mut msg = ptr::null_mut();
            sys::napi_create_string_utf8(
                self.env,
                message.as_ptr().cast(),
                message.len() as isize,
                &mut msg,
            );
            let code_text = "ERR_ITO_INVALID";
            let mut code = ptr::null_mut();
            sys::napi_create_string_utf8(
                self.env,
                code_text.as_ptr().cast(),
                code_text.len() as isize,
                &mut code,
            );
            let mut error = ptr::null_mut();
            sys::napi_create_error(self.env, code, msg, &mut error);
            let mut off = ptr::null_mut();
            sys::napi_create_double(self.env, offset as f64, &mut off);
            sys::napi_set_named_property(self.env, error, c"offset".as_ptr(), off);
            let mut field_value = ptr::null_mut();
            match field {
                Some(name) => {
                    sys::napi_create_string_utf8(
                        self.env,
                        name.as_ptr().cast(),
                        name.len() as isize,
                        &mut field_value,
                    );
                }
                None => {
                    sys::napi_get_null(self.env, &mut field_value);
                }
            }
            sys::napi_set_named_property(self.env, error, c"field".as_ptr(), field_value);
            sys::napi_throw(self.env, error);
        }
    }

    /// Clears a pending exception (the caller answers `false` instead).
    pub(crate) fn clear_pending(&self) {
        let mut exception = ptr::null_mut();
        // SAFETY: valid out-pointer; harmless when nothing is pending.
        unsafe { sys::napi_get_and_clear_last_exception(self.env, &mut exception) };
    }
}

impl Js {
    /// `object[name] = value` for a string value.
    pub(crate) fn set_str(&self, object: Raw, name: &CStr, value: &str) -> Result<(), Fail> {
        let mut text = ptr::null_mut();
        // SAFETY: the string is passed with its byte length; valid out-pointer.
        let status = unsafe {
            sys::napi_create_string_utf8(
                self.env,
                value.as_ptr().cast(),
                value.len() as isize,
                &mut text,
            )
        };
        self.check(status, || Fail::Type("cannot create a string".into()))?;
        // SAFETY: `name` is NUL-terminated; both values belong to this call.
        let status = unsafe { sys::napi_set_named_property(self.env, object, name.as_ptr(), text) };
        self.check(status, || {
            Fail::Type("cannot set a property on this object".into())
        })
    }
}

impl Js {
    /// A new empty object.
    pub(crate) fn object(&self) -> Result<Raw, Fail> {
        let mut out = ptr::null_mut();
        // SAFETY: valid out-pointer.
        let status = unsafe { sys::napi_create_object(self.env, &mut out) };
        self.check(status, || Fail::Type("cannot create an object".into()))?;
        Ok(out)
    }

    /// A string value.
    pub(crate) fn str(&self, value: &str) -> Result<Raw, Fail> {
        let mut out = ptr::null_mut();
        // SAFETY: the string is passed with its byte length; valid out-pointer.
        let status = unsafe {
            sys::napi_create_string_utf8(
                self.env,
                value.as_ptr().cast(),
                value.len() as isize,
                &mut out,
            )
        };
        self.check(status, || Fail::Type("cannot create a string".into()))?;
        Ok(out)
    }

    /// A number value.
    pub(crate) fn u32(&self, value: u32) -> Result<Raw, Fail> {
        let mut out = ptr::null_mut();
        // SAFETY: valid out-pointer.
        let status = unsafe { sys::napi_create_uint32(self.env, value, &mut out) };
        self.check(status, || Fail::Type("cannot create a number".into()))?;
        Ok(out)
    }

    /// `undefined`.
    pub(crate) fn undefined(&self) -> Result<Raw, Fail> {
        let mut out = ptr::null_mut();
        // SAFETY: valid out-pointer.
        let status = unsafe { sys::napi_get_undefined(self.env, &mut out) };
        self.check(status, || Fail::Type("cannot get undefined".into()))?;
        Ok(out)
    }

    /// An array of strings.
    pub(crate) fn strings(&self, values: &[String]) -> Result<Raw, Fail> {
        let mut out = ptr::null_mut();
        // SAFETY: valid out-pointer.
        let status =
            unsafe { sys::napi_create_array_with_length(self.env, values.len(), &mut out) };
        self.check(status, || Fail::Type("cannot create an array".into()))?;
        for (i, v) in values.iter().enumerate() {
            let item = self.str(v)?;
            // SAFETY: both values belong to this call.
            let status = unsafe { sys::napi_set_element(self.env, out, i as u32, item) };
            self.check(status, || Fail::Type("cannot fill an array".into()))?;
        }
        Ok(out)
    }

    /// `object[name] = value`.
    pub(crate) fn set(&self, object: Raw, name: &CStr, value: Raw) -> Result<(), Fail> {
        // SAFETY: `name` is NUL-terminated; both values belong to this call.
        let status =
            unsafe { sys::napi_set_named_property(self.env, object, name.as_ptr(), value) };
        self.check(status, || {
            Fail::Type("cannot set a property on this object".into())
        })
    }
}
