//! `ito_codecs.nip19`: NIP-19 strings (`ito::nostr::nip19`) to and from
//! nostr-tools' shapes: hex `str` for `npub`/`note`, `bytes` for `nsec`,
//! dicts for the pointers.

use crate::convert::error;
use ito::nostr::nip19::{self as codec, AddressPointer, EventPointer, Nip19, ProfilePointer};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(encode, m)?)
}

fn nip19_error(py: Python<'_>, e: &codec::Error) -> PyErr {
    error(py, e.to_string(), e.offset().unwrap_or(0), None)
}

/// Decodes a NIP-19 string to ``{"type": ..., "data": ...}`` as
/// nostr-tools' ``nip19.decode`` does: ``data`` is a hex ``str`` for
/// ``npub`` and ``note``, ``bytes`` for ``nsec``, and a dict for
/// ``nprofile`` (``pubkey``, ``relays``), ``nevent`` (``id``, ``relays``,
/// and ``author`` and ``kind`` when present) and ``naddr``
/// (``identifier``, ``pubkey``, ``kind``, ``relays``). Upper-case strings
/// are accepted, mixed case is not. A bad string raises
/// :class:`ito_codecs.Error` naming the problem (``offset`` is the byte
/// offset of a bad character, else 0).
///
/// >>> from ito_codecs import nip19
/// >>> nip19.decode("npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6")
/// {'type': 'npub', 'data': '3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d'}
/// >>> nip19.decode("npub1Qq")
/// Traceback (most recent call last):
/// ...
/// ito_codecs.Error: mixed upper and lower case at byte 5
#[pyfunction]
#[pyo3(signature = (s, /))]
fn decode<'py>(py: Python<'py>, s: &str) -> PyResult<Bound<'py, PyDict>> {
    let value = codec::decode(s).map_err(|e| nip19_error(py, &e))?;
    let hex = |b: &[u8; 32]| ito::hex::encode(b);
    let out = PyDict::new(py);
    out.set_item("type", value.prefix())?;
    match &value {
        Nip19::Npub(b) | Nip19::Note(b) => out.set_item("data", hex(b))?,
        Nip19::Nsec(secret) => out.set_item("data", PyBytes::new(py, secret.expose()))?,
        Nip19::Nprofile(p) => {
            let d = PyDict::new(py);
            d.set_item("pubkey", hex(&p.pubkey))?;
            d.set_item("relays", &p.relays)?;
            out.set_item("data", d)?;
        }
        Nip19::Nevent(p) => {
            let d = PyDict::new(py);
            d.set_item("id", hex(&p.id))?;
            d.set_item("relays", &p.relays)?;
            if let Some(author) = &p.author {
                d.set_item("author", hex(author))?;
            }
            if let Some(kind) = p.kind {
                d.set_item("kind", kind)?;
            }
            out.set_item("data", d)?;
        }
        Nip19::Naddr(p) => {
            let d = PyDict::new(py);
            d.set_item("identifier", &p.identifier)?;
            d.set_item("pubkey", hex(&p.pubkey))?;
            d.set_item("kind", p.kind)?;
            d.set_item("relays", &p.relays)?;
            out.set_item("data", d)?;
        }
    }
    Ok(out)
}

/// 32 bytes from ``bytes`` or a ``str`` of 64 hex digits.
fn bytes32(what: &str, value: &Bound<'_, PyAny>) -> PyResult<[u8; 32]> {
    if let Ok(b) = value.cast::<PyBytes>() {
        return b.as_bytes().try_into().map_err(|_| {
            PyValueError::new_err(format!(
                "{what}: expected 32 bytes, got {}",
                b.as_bytes().len()
            ))
        });
    }
    if let Ok(s) = value.cast::<PyString>() {
        return ito::hex::decode_array::<32>(crate::convert::str_utf8(s)?.as_bytes())
            .map_err(|e| PyValueError::new_err(format!("{what}: not 64 hex digits ({e})")));
    }
    Err(PyTypeError::new_err(format!(
        "{what}: expected bytes or a hex str, got {}",
        value.get_type().name()?
    )))
}

fn item<'py>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<Bound<'py, PyAny>> {
    d.get_item(key)?
        .ok_or_else(|| PyValueError::new_err(format!("missing `{key}`")))
}

fn relays(d: &Bound<'_, PyDict>) -> PyResult<Vec<String>> {
    d.get_item("relays")?
        .map_or(Ok(Vec::new()), |r| r.extract::<Vec<String>>())
}

/// Encodes ``data`` as a NIP-19 string of ``type`` (``"npub"``,
/// ``"nsec"``, ``"note"``, ``"nprofile"``, ``"nevent"``, ``"naddr"``):
/// the inverse of :func:`decode`, taking the same shapes (keys and ids as
/// hex ``str`` or 32 ``bytes``; ``relays`` optional). Records are written
/// in type order; other implementations may order them differently, and
/// every order decodes to the same value.
///
/// >>> from ito_codecs import nip19
/// >>> nip19.encode("note", bytes(32))
/// 'note1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn2l0z3'
/// >>> s = nip19.encode("naddr", {"identifier": "x", "pubkey": bytes(32), "kind": 30023})
/// >>> nip19.decode(s)["data"]["kind"]
/// 30023
#[pyfunction]
#[pyo3(signature = (r#type, data, /))]
fn encode(py: Python<'_>, r#type: &str, data: &Bound<'_, PyAny>) -> PyResult<String> {
    let dict = || {
        data.cast::<PyDict>()
            .map_err(|_| PyTypeError::new_err(format!("{type} data must be a dict")))
    };
    let value = match r#type {
        "npub" => Nip19::Npub(bytes32("npub", data)?),
        "note" => Nip19::Note(bytes32("note", data)?),
        "nsec" => Nip19::Nsec(codec::SecretBytes::new(bytes32("nsec", data)?)),
        "nprofile" => {
            let d = dict()?;
            Nip19::Nprofile(ProfilePointer {
                pubkey: bytes32("pubkey", &item(d, "pubkey")?)?,
                relays: relays(d)?,
            })
        }
        "nevent" => {
            let d = dict()?;
            let author = match d.get_item("author")? {
                Some(a) if !a.is_none() => Some(bytes32("author", &a)?),
                _ => None,
            };
            let kind = match d.get_item("kind")? {
                Some(k) if !k.is_none() => Some(k.extract::<u32>()?),
                _ => None,
            };
            Nip19::Nevent(EventPointer {
                id: bytes32("id", &item(d, "id")?)?,
                relays: relays(d)?,
                author,
                kind,
            })
        }
        "naddr" => {
            let d = dict()?;
            Nip19::Naddr(AddressPointer {
                identifier: item(d, "identifier")?.extract()?,
                pubkey: bytes32("pubkey", &item(d, "pubkey")?)?,
                kind: item(d, "kind")?.extract()?,
                relays: relays(d)?,
            })
        }
        other => {
            return Err(PyValueError::new_err(format!(
            "unknown NIP-19 type `{other}` (expected npub, nsec, note, nprofile, nevent or naddr)"
        )))
        }
    };
    value.encode().map_err(|e| nip19_error(py, &e))
}
