//! `ito_codecs.nostr.sign`, `public_key`, `generate_secret_key`: creating
//! events with `ito::nostr::SecretKey` and `UnsignedEvent::sign`.

use crate::convert::{error, str_from_utf8, text_or_bytes};
use crate::nostr::event_error;
use ito::nostr::{self as codec, SecretKey, Tags, UnsignedEvent};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(sign, m)?)?;
    m.add_function(wrap_pyfunction!(public_key, m)?)?;
    m.add_function(wrap_pyfunction!(generate_secret_key, m)?)
}

/// A secret key from 32 `bytes`, or a `str` of 64 hex digits or `nsec1…`.
/// Error messages never contain the key.
pub(crate) fn secret_key(py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<SecretKey> {
    let parsed = if let Ok(b) = key.cast::<PyBytes>() {
        SecretKey::from_slice(b.as_bytes())
    } else if let Ok(s) = key.cast::<PyString>() {
        SecretKey::parse(crate::convert::str_utf8(s)?)
    } else {
        return Err(PyTypeError::new_err(format!(
            "a secret key is bytes or str, got {}",
            key.get_type().name()?
        )));
    };
    parsed.map_err(|e| error(py, e.to_string(), 0, None))
}

/// Signs an event template with ``secret_key`` and returns the signed event
/// as NIP-01 JSON (a ``str``; ``json.loads`` it for a dict), like
/// nostr-tools' ``finalizeEvent``: the pubkey comes from the key, the id is
/// computed, and the BIP-340 signature uses fresh randomness.
///
/// ``template`` is a dict with ``created_at``, ``kind``, ``tags`` (a list
/// of lists of str) and ``content``, or the same as a JSON object in a
/// ``str`` or ``bytes``. ``secret_key`` is 32 ``bytes`` or a ``str`` of 64
/// hex digits or ``nsec1…``. A template that does not parse raises
/// :class:`ito_codecs.Error` with ``offset`` and ``field``; a bad key
/// raises it with a message that never contains the key. Releases the GIL
/// while signing.
///
/// >>> import json
/// >>> from ito_codecs import nostr
/// >>> key = bytes.fromhex("7f7ff03d123792d6ac594bfa67bf6d0c0ab55b6b1fdb6249303fe861f1ccba9a")
/// >>> ev = nostr.sign({"created_at": 1700000000, "kind": 1, "tags": [], "content": "gm"}, key)
/// >>> json.loads(ev)["pubkey"] == nostr.public_key(key)
/// True
/// >>> nostr.verify(ev)
/// True
/// >>> nostr.sign('{"kind": 1}', key)
/// Traceback (most recent call last):
/// ...
/// ito_codecs.Error: `created_at`: missing field at byte 10
#[pyfunction]
#[pyo3(signature = (template, secret_key, /))]
fn sign<'py>(
    py: Python<'py>,
    template: &Bound<'py, PyAny>,
    secret_key: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyString>> {
    let key = self::secret_key(py, secret_key)?;
    let mut out = Vec::with_capacity(512);
    if let Ok(dict) = template.cast::<PyDict>() {
        let created_at: u64 = field(dict, "created_at")?.extract()?;
        let kind: u16 = field(dict, "kind")?.extract()?;
        let tags: Vec<Vec<String>> = field(dict, "tags")?.extract()?;
        let content: String = field(dict, "content")?.extract()?;
        let tags_json = codec::tags_to_json(&tags);
        let tags = Tags::parse(&tags_json).map_err(|e| event_error(py, &e))?;
        let template = UnsignedEvent {
            created_at,
            kind,
            tags,
            content: content.into(),
        };
        py.detach(|| template.sign(&key).to_json(&mut out));
    } else {
        let bytes = text_or_bytes(template)?.bytes();
        let template = UnsignedEvent::parse(bytes).map_err(|e| event_error(py, &e))?;
        py.detach(|| template.sign(&key).to_json(&mut out));
    }
    Ok(str_from_utf8(py, &out))
}

fn field<'py>(dict: &Bound<'py, PyDict>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    dict.get_item(name)?
        .ok_or_else(|| error(dict.py(), format!("`{name}`: missing field"), 0, Some(name)))
}

/// The x-only public key of ``secret_key`` (32 ``bytes``, or a ``str`` of
/// 64 hex digits or ``nsec1…``) as 64 lowercase hex digits, like
/// nostr-tools' ``getPublicKey``.
///
/// >>> from ito_codecs import nostr
/// >>> nostr.public_key("0000000000000000000000000000000000000000000000000000000000000003")
/// 'f9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9'
/// >>> nostr.public_key(bytes(32))
/// Traceback (most recent call last):
/// ...
/// ito_codecs.Error: secret key: zero or not below the secp256k1 group order
#[pyfunction]
#[pyo3(signature = (secret_key, /))]
fn public_key<'py>(
    py: Python<'py>,
    secret_key: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyString>> {
    let key = self::secret_key(py, secret_key)?;
    let hex: [u8; 64] = ito::hex::encode_array(&key.public_key());
    Ok(str_from_utf8(py, &hex))
}

/// A new secret key (32 ``bytes``) from the operating system's random
/// source, like nostr-tools' ``generateSecretKey``.
///
/// >>> from ito_codecs import nostr
/// >>> key = nostr.generate_secret_key()
/// >>> len(key), len(nostr.public_key(key))
/// (32, 64)
#[pyfunction]
fn generate_secret_key(py: Python<'_>) -> PyResult<Bound<'_, PyBytes>> {
    let key = SecretKey::generate().map_err(|e| error(py, e.to_string(), 0, None))?;
    Ok(PyBytes::new(py, key.secret_bytes().as_slice()))
}
