//! `ito_codecs.hex`: hexadecimal (`ito::hex`).

use crate::convert::{error, str_from_utf8, text_or_bytes, with_scratch};
use ito::hex::{self as codec, Accept, Case};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    Ok(())
}

/// Hex digits of `data` (``bytes`` or ``bytearray``), lowercase unless
/// ``upper=True``; the same as ``data.hex()``, with SIMD kernels.
///
/// >>> from ito_codecs import hex
/// >>> hex.encode(b"\x00\xab\xff")
/// '00abff'
/// >>> hex.encode(b"\xab", upper=True)
/// 'AB'
#[pyfunction]
#[pyo3(signature = (data, /, *, upper=false))]
fn encode<'py>(data: &Bound<'py, PyAny>, upper: bool) -> PyResult<Bound<'py, PyString>> {
    let py = data.py();
    let case = if upper { Case::Upper } else { Case::Lower };
    let render = |src: &[u8]| {
        with_scratch(|buf| {
            codec::encode_to_vec(buf, src, case);
            str_from_utf8(py, buf)
        })
    };
    if let Ok(b) = data.cast::<PyBytes>() {
        Ok(render(b.as_bytes()))
    } else if let Ok(b) = data.cast::<PyByteArray>() {
        // A bytearray can change under us only through Python code, which
        // cannot run while we hold the GIL; copy it anyway, as pyo3 asks.
        Ok(render(&b.to_vec()))
    } else {
        Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "expected bytes or bytearray, got {}",
            data.get_type().name()?
        )))
    }
}

/// The bytes that the hex digits ``text`` (``str`` or ``bytes``) spell.
/// Either case is accepted unless ``lowercase_only=True`` (what Nostr
/// requires of ids, keys and signatures). Unlike ``bytes.fromhex``,
/// whitespace is not skipped. An invalid or (with ``lowercase_only``)
/// uppercase digit raises :class:`ito_codecs.Error` naming its byte
/// offset; so does an odd number of digits (offset = the length).
///
/// >>> from ito_codecs import hex
/// >>> hex.decode("00abFF")
/// b'\x00\xab\xff'
/// >>> hex.decode("00abFF", lowercase_only=True)
/// Traceback (most recent call last):
/// ...
/// ito_codecs.Error: uppercase hex digit 'F' at offset 4 (lowercase required)
#[pyfunction]
#[pyo3(signature = (text, /, *, lowercase_only=false))]
fn decode<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    lowercase_only: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let src = text_or_bytes(text)?.bytes();
    let accept = if lowercase_only {
        Accept::Lowercase
    } else {
        Accept::AnyCase
    };
    let hex_error = |e: codec::Error| error(py, e.to_string(), e.offset(), None);
    if src.len() % 2 != 0 {
        return Err(hex_error(codec::Error::OddLength { len: src.len() }));
    }
    PyBytes::new_with(py, src.len() / 2, |out| {
        codec::decode_to_slice(src, out, accept).map_err(hex_error)
    })
}
