//! `ito_codecs.nostr`: NIP-01 event ids and signatures (`ito::nostr`).

use crate::convert::{error, str_from_utf8, text_or_bytes};
use ito::nostr::{self as codec, Event};
use pyo3::prelude::*;
use pyo3::types::PyString;

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(event_id, m)?)?;
    m.add_function(wrap_pyfunction!(verify_id, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    crate::sign::register(m)?;
    crate::filter::register(m)?;
    crate::batch::register(m)
}

/// An `ito_codecs.Error` for an event that does not parse.
pub(crate) fn event_error(py: Python<'_>, e: &codec::Error) -> PyErr {
    error(py, e.to_string(), e.offset(), e.field().map(|f| f.name()))
}

fn parse<'a>(py: Python<'_>, event: &'a [u8]) -> PyResult<Event<'a>> {
    Event::parse(event).map_err(|e| event_error(py, &e))
}

/// The NIP-01 id of ``event`` (one event JSON object, ``str`` or UTF-8
/// ``bytes``) as 64 lowercase hex digits: the sha256 of its canonical
/// serialization, whatever id the event claims.
///
/// An event that does not parse raises :class:`ito_codecs.Error` (a
/// ``ValueError``) with ``offset`` (byte offset in the input) and
/// ``field`` (the event field concerned, if any).
///
/// >>> from ito_codecs import nostr
/// >>> ev = open("data/nostr/events.jsonl", "rb").readline()
/// >>> nostr.event_id(ev)
/// '4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65'
/// >>> nostr.event_id('{"kind": -1}')
/// Traceback (most recent call last):
/// ...
/// ito_codecs.Error: `kind`: not a non-negative integer at byte 9
#[pyfunction]
#[pyo3(signature = (event, /))]
fn event_id<'py>(py: Python<'py>, event: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyString>> {
    let event = parse(py, text_or_bytes(event)?.bytes())?;
    let hex: [u8; 64] = ito::hex::encode_array(&codec::event_id(&event));
    Ok(str_from_utf8(py, &hex))
}

/// Whether ``event``'s ``id`` is the hash of its contents (the signature
/// is not checked; see :func:`verify`). Raises :class:`ito_codecs.Error`
/// if the event does not parse.
///
/// >>> from ito_codecs import nostr
/// >>> ev = open("data/nostr/events.jsonl").readline()
/// >>> nostr.verify_id(ev)
/// True
/// >>> nostr.verify_id(ev.replace('"kind":1', '"kind":2'))
/// False
#[pyfunction]
#[pyo3(signature = (event, /))]
fn verify_id(py: Python<'_>, event: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(codec::verify_id(&parse(py, text_or_bytes(event)?.bytes())?))
}

/// Whether ``event``'s id matches its contents and its ``sig`` is a valid
/// BIP-340 Schnorr signature by its ``pubkey`` over that id. Releases the
/// GIL while the signature is checked. Raises :class:`ito_codecs.Error`
/// if the event does not parse.
///
/// >>> from ito_codecs import nostr
/// >>> ev = open("data/nostr/events.jsonl").readline()
/// >>> nostr.verify(ev)
/// True
/// >>> nostr.verify(ev.replace('"sig":"9', '"sig":"8'))
/// False
#[pyfunction]
#[pyo3(signature = (event, /))]
fn verify(py: Python<'_>, event: &Bound<'_, PyAny>) -> PyResult<bool> {
    let event = parse(py, text_or_bytes(event)?.bytes())?;
    Ok(py.detach(|| codec::verify(&event)))
}
