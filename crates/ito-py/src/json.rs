//! `ito_codecs.json`: JSON string literals (`ito::json`).

use crate::convert::{
    clean_bytes, error, new_bytes, str_from_utf8, str_from_wtf8, str_utf8, text_or_bytes,
    with_scratch, Input,
};
use crate::fast::{fast_entry, install};
use ito::json::{self as codec, Options};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyTuple};
use pyo3::{ffi, intern};

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The escaping functions take the hand-written entry points of
    // `fast.rs`, which fall back to the pyo3 functions below.
    install(m, wrap_pyfunction!(quote, m)?, quote_entry)?;
    install(m, wrap_pyfunction!(quote_bytes, m)?, quote_bytes_entry)?;
    install(m, wrap_pyfunction!(escape, m)?, escape_entry)?;
    install(m, wrap_pyfunction!(escape_bytes, m)?, escape_bytes_entry)?;
    m.add_function(wrap_pyfunction!(unquote, m)?)?;
    m.add_function(wrap_pyfunction!(unquote_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(unescape, m)?)?;
    m.add_function(wrap_pyfunction!(unescape_bytes, m)?)?;
    Ok(())
}

fast_entry!(quote_entry, quote_fast, true, false);
fast_entry!(quote_bytes_entry, quote_bytes_fast, true, true);
fast_entry!(escape_entry, escape_fast, false, false);
fast_entry!(escape_bytes_entry, escape_bytes_fast, false, true);

// The default-options paths of `fast.rs` for what its inline path does not
// finish (long or escaped text); `text` is `s`'s UTF-8 form.

fn quote_fast<'py>(s: &Bound<'py, PyString>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    Ok(escaped_str(s, text, &Options::new(), true)?.into_any())
}

fn quote_bytes_fast<'py>(s: &Bound<'py, PyString>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    Ok(escaped_bytes(s.py(), Input::Str(text), &Options::new(), true)?.into_any())
}

fn escape_fast<'py>(s: &Bound<'py, PyString>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    Ok(escaped_str(s, text, &Options::new(), false)?.into_any())
}

fn escape_bytes_fast<'py>(s: &Bound<'py, PyString>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    Ok(escaped_bytes(s.py(), Input::Str(text), &Options::new(), false)?.into_any())
}

/// Clean text at least this long gets its `str` result by joining the
/// argument itself between two quote characters (one copy, no UTF-8
/// decoding) instead of decoding the escaped UTF-8.
const JOIN_MIN: usize = 64;

/// `s` (whose UTF-8 form is `text`) escaped under `options` as a new `str`,
/// quoted if `quoted`.
#[inline]
fn escaped_str<'py>(
    s: &Bound<'py, PyString>,
    text: &str,
    options: &Options,
    quoted: bool,
) -> PyResult<Bound<'py, PyString>> {
    let py = s.py();
    if text.len() >= JOIN_MIN && *options == Options::new() && !codec::needs_escape(text.as_bytes())
    {
        if !quoted {
            // Nothing to escape: the (immutable) argument is the result,
            // unless it is a subclass instance (the result is a str).
            return if s.is_exact_instance_of::<PyString>() {
                Ok(s.clone())
            } else {
                // SAFETY: `s` is a live str (a subclass instance); the
                // result is a new exact str or NULL with an exception set.
                unsafe {
                    Ok(
                        Bound::from_owned_ptr_or_err(py, ffi::PyUnicode_FromObject(s.as_ptr()))?
                            .cast_into_unchecked(),
                    )
                }
            };
        }
        let quote = intern!(py, "\"");
        let parts = PyTuple::new(py, [quote.as_any(), s.as_any(), quote.as_any()])?;
        let empty = PyString::new(py, "");
        // SAFETY: both arguments are live objects; the result is a new
        // reference or NULL with an exception set.
        return unsafe {
            Ok(Bound::from_owned_ptr_or_err(
                py,
                ffi::PyUnicode_Join(empty.as_ptr(), parts.as_ptr()),
            )?
            .cast_into_unchecked())
        };
    }
    Ok(with_scratch(|buf| {
        if quoted {
            codec::quote_with(buf, text, options);
        } else {
            codec::escape_with(buf, text, options);
        }
        str_from_utf8(py, buf)
    }))
}

/// `s` escaped under `options` as new UTF-8 `bytes`, quoted if `quoted`
/// (`bytes` input is checked as UTF-8).
#[inline]
fn escaped_bytes<'py>(
    py: Python<'py>,
    s: Input<'_>,
    options: &Options,
    quoted: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    if let Input::Str(text) = s {
        if *options == Options::new() {
            let quote: &[u8] = if quoted { b"\"" } else { b"" };
            if let Some(obj) = clean_bytes(py, text.as_bytes(), quote) {
                return obj;
            }
        }
    }
    with_scratch(|buf| {
        match s {
            Input::Str(text) => codec::quote_with(buf, text, options),
            Input::Bytes(b) => {
                codec::quote_bytes(buf, b, options).map_err(|e| json_error(py, e))?
            }
        }
        // The quoted form, or its inside.
        let out = if quoted {
            &buf[..]
        } else {
            &buf[1..buf.len() - 1]
        };
        new_bytes(py, out)
    })
}
fn json_error(py: Python<'_>, e: codec::Error) -> PyErr {
    error(py, e.to_string(), e.offset(), None)
}

/// The escaping keyword arguments, in the order of every signature below.
#[allow(clippy::fn_params_excessive_bools)]
fn escaping(
    ascii_only: bool,
    escape_slash: bool,
    html_safe: bool,
    js_safe: bool,
    escape_del_and_c1: bool,
    uppercase_hex: bool,
) -> Options {
    Options::new()
        .ascii_only(ascii_only)
        .escape_slash(escape_slash)
        .html_safe(html_safe)
        .js_safe(js_safe)
        .escape_del_and_c1(escape_del_and_c1)
        .uppercase_hex(uppercase_hex)
}

/// ``s`` as a JSON string literal, quotes included: exactly what
/// ``json.dumps(s, ensure_ascii=False)`` returns (RFC 8259's minimal
/// escaping). The keyword arguments opt into more escaping: every
/// non-ASCII character as ``\uXXXX`` (``ascii_only``; with
/// ``escape_del_and_c1`` too, that is ``json.dumps(s)``), ``/`` as ``\/``, ``< > & '`` as ``\u003c``...
/// (``html_safe``), U+2028/U+2029 (``js_safe``), DEL and C1 controls, and
/// uppercase hex digits in ``\u`` escapes.
///
/// >>> from ito_codecs import json
/// >>> json.quote('say "hi"\n')
/// '"say \\"hi\\"\\n"'
/// >>> json.quote("</é>", ascii_only=True, escape_slash=True)
/// '"<\\/\\u00e9>"'
///
/// A ``str`` holding lone surrogates has no UTF-8 form and raises
/// ``UnicodeEncodeError``.
#[pyfunction]
#[pyo3(signature = (s, /, *, ascii_only=false, escape_slash=false, html_safe=false, js_safe=false, escape_del_and_c1=false, uppercase_hex=false))]
#[allow(clippy::fn_params_excessive_bools, clippy::too_many_arguments)]
fn quote<'py>(
    s: &Bound<'py, PyString>,
    ascii_only: bool,
    escape_slash: bool,
    html_safe: bool,
    js_safe: bool,
    escape_del_and_c1: bool,
    uppercase_hex: bool,
) -> PyResult<Bound<'py, PyString>> {
    let options = escaping(
        ascii_only,
        escape_slash,
        html_safe,
        js_safe,
        escape_del_and_c1,
        uppercase_hex,
    );
    escaped_str(s, str_utf8(s)?, &options, true)
}

/// :func:`quote` returning UTF-8 ``bytes`` (what ``orjson.dumps(s)``
/// returns); a long ``str`` that needs no escaping is written straight
/// into the new ``bytes`` object. ``s`` may also be ``bytes``: it must be UTF-8 (an
/// :class:`ito_codecs.Error` names the offset of the first invalid byte),
/// or with ``replace_invalid=True`` each invalid sequence becomes U+FFFD.
///
/// >>> from ito_codecs import json
/// >>> json.quote_bytes("tab\there")
/// b'"tab\\there"'
/// >>> json.quote_bytes(b"ok\xffno", replace_invalid=True).decode()
/// '"ok\ufffdno"'
/// >>> json.quote_bytes(b"ok\xffno")
/// Traceback (most recent call last):
/// ...
/// ito_codecs.Error: invalid UTF-8 at byte 2
#[pyfunction]
#[pyo3(signature = (s, /, *, ascii_only=false, escape_slash=false, html_safe=false, js_safe=false, escape_del_and_c1=false, uppercase_hex=false, replace_invalid=false))]
#[allow(clippy::fn_params_excessive_bools, clippy::too_many_arguments)]
fn quote_bytes<'py>(
    py: Python<'py>,
    s: &Bound<'py, PyAny>,
    ascii_only: bool,
    escape_slash: bool,
    html_safe: bool,
    js_safe: bool,
    escape_del_and_c1: bool,
    uppercase_hex: bool,
    replace_invalid: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let options = escaping(
        ascii_only,
        escape_slash,
        html_safe,
        js_safe,
        escape_del_and_c1,
        uppercase_hex,
    )
    .replace_invalid(replace_invalid);
    escaped_bytes(py, text_or_bytes(s)?, &options, true)
}

/// :func:`quote` without the surrounding quotes: the text that goes
/// between them.
///
/// >>> from ito_codecs import json
/// >>> json.escape('a\\b"c')
/// 'a\\\\b\\"c'
/// >>> json.escape("<b>", html_safe=True)
/// '\\u003cb\\u003e'
#[pyfunction]
#[pyo3(signature = (s, /, *, ascii_only=false, escape_slash=false, html_safe=false, js_safe=false, escape_del_and_c1=false, uppercase_hex=false))]
#[allow(clippy::fn_params_excessive_bools, clippy::too_many_arguments)]
fn escape<'py>(
    s: &Bound<'py, PyString>,
    ascii_only: bool,
    escape_slash: bool,
    html_safe: bool,
    js_safe: bool,
    escape_del_and_c1: bool,
    uppercase_hex: bool,
) -> PyResult<Bound<'py, PyString>> {
    let options = escaping(
        ascii_only,
        escape_slash,
        html_safe,
        js_safe,
        escape_del_and_c1,
        uppercase_hex,
    );
    escaped_str(s, str_utf8(s)?, &options, false)
}

/// :func:`escape` returning UTF-8 ``bytes``; ``s`` may be ``str`` or
/// ``bytes`` (UTF-8 checked as in :func:`quote_bytes`).
///
/// >>> from ito_codecs import json
/// >>> json.escape_bytes(b"caf\xc3\xa9\n")
/// b'caf\xc3\xa9\\n'
#[pyfunction]
#[pyo3(signature = (s, /, *, ascii_only=false, escape_slash=false, html_safe=false, js_safe=false, escape_del_and_c1=false, uppercase_hex=false, replace_invalid=false))]
#[allow(clippy::fn_params_excessive_bools, clippy::too_many_arguments)]
fn escape_bytes<'py>(
    py: Python<'py>,
    s: &Bound<'py, PyAny>,
    ascii_only: bool,
    escape_slash: bool,
    html_safe: bool,
    js_safe: bool,
    escape_del_and_c1: bool,
    uppercase_hex: bool,
    replace_invalid: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let options = escaping(
        ascii_only,
        escape_slash,
        html_safe,
        js_safe,
        escape_del_and_c1,
        uppercase_hex,
    )
    .replace_invalid(replace_invalid);
    escaped_bytes(py, text_or_bytes(s)?, &options, false)
}

/// Unquotes `src`, which must be exactly one literal, into `f`.
fn unquote_with<R>(
    py: Python<'_>,
    src: Input<'_>,
    f: impl FnOnce(&str) -> PyResult<R>,
) -> PyResult<R> {
    let (value, used) = match src {
        Input::Str(s) => codec::unquote_str(s),
        Input::Bytes(b) => codec::unquote(b),
    }
    .map_err(|e| json_error(py, e))?;
    let len = src.bytes().len();
    if used != len {
        return Err(error(
            py,
            format!("unexpected characters after the string at byte {used}"),
            used,
            None,
        ));
    }
    f(&value)
}

/// The value of the JSON string literal ``s`` (``str`` or UTF-8 ``bytes``),
/// which must be one literal, quotes included, with nothing around it.
/// Strict RFC 8259: raw control characters, unknown escapes, malformed or
/// lone-surrogate ``\u`` escapes, invalid UTF-8, a missing quote or
/// trailing characters raise :class:`ito_codecs.Error` with the byte
/// offset. (Python's ``json.loads`` accepts lone surrogates; see
/// :func:`unescape` with ``wtf8=True``.)
///
/// >>> from ito_codecs import json
/// >>> json.unquote(r'"caf\u00e9 \ud83d\ude00"')
/// 'café 😀'
/// >>> json.unquote('"a" ')
/// Traceback (most recent call last):
/// ...
/// ito_codecs.Error: unexpected characters after the string at byte 3
#[pyfunction]
#[pyo3(signature = (s, /))]
fn unquote<'py>(py: Python<'py>, s: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyString>> {
    unquote_with(py, text_or_bytes(s)?, |v| Ok(PyString::new(py, v)))
}

/// :func:`unquote` returning the value as UTF-8 ``bytes``.
///
/// >>> from ito_codecs import json
/// >>> json.unquote_bytes(b'"tab\\t"')
/// b'tab\t'
#[pyfunction]
#[pyo3(signature = (s, /))]
fn unquote_bytes<'py>(py: Python<'py>, s: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    unquote_with(py, text_or_bytes(s)?, |v| new_bytes(py, v.as_bytes()))
}

/// Decodes `src` into `buf` under the decoding options.
fn unescape_into(
    py: Python<'_>,
    buf: &mut Vec<u8>,
    src: &[u8],
    replace_invalid: bool,
    wtf8: bool,
) -> PyResult<()> {
    let options = Options::new().replace_invalid(replace_invalid).wtf8(wtf8);
    codec::unescape_with(buf, src, &options).map_err(|e| json_error(py, e))
}

/// Decodes the text between a JSON string's quotes (``str`` or ``bytes``).
/// Strict by default, as :func:`unquote`. ``replace_invalid=True`` turns
/// invalid UTF-8 and lone surrogate escapes into U+FFFD; ``wtf8=True``
/// keeps lone surrogate escapes as lone surrogates in the result (what
/// ``json.loads`` does). Syntax errors always raise
/// :class:`ito_codecs.Error` with the byte offset.
///
/// >>> from ito_codecs import json
/// >>> json.unescape(r"line\nnext \u00e9")
/// 'line\nnext é'
/// >>> json.unescape(r"\ud800!", replace_invalid=True)
/// '\ufffd!'
/// >>> json.unescape(r"\ud800", wtf8=True) == "\ud800"
/// True
/// >>> json.unescape(r"bad \x")
/// Traceback (most recent call last):
/// ...
/// ito_codecs.Error: invalid escape `\x` at byte 4
#[pyfunction]
#[pyo3(signature = (s, /, *, replace_invalid=false, wtf8=false))]
fn unescape<'py>(
    py: Python<'py>,
    s: &Bound<'py, PyAny>,
    replace_invalid: bool,
    wtf8: bool,
) -> PyResult<Bound<'py, PyString>> {
    let src = text_or_bytes(s)?.bytes();
    with_scratch(|buf| {
        unescape_into(py, buf, src, replace_invalid, wtf8)?;
        if wtf8 {
            str_from_wtf8(py, buf)
        } else {
            // Strict and replacing decodes produce UTF-8.
            Ok(str_from_utf8(py, buf))
        }
    })
}

/// :func:`unescape` returning ``bytes`` (UTF-8; WTF-8 with ``wtf8=True``).
///
/// >>> from ito_codecs import json
/// >>> json.unescape_bytes(rb"\u00e9")
/// b'\xc3\xa9'
/// >>> json.unescape_bytes(rb"\ud800", wtf8=True)
/// b'\xed\xa0\x80'
#[pyfunction]
#[pyo3(signature = (s, /, *, replace_invalid=false, wtf8=false))]
fn unescape_bytes<'py>(
    py: Python<'py>,
    s: &Bound<'py, PyAny>,
    replace_invalid: bool,
    wtf8: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let src = text_or_bytes(s)?.bytes();
    with_scratch(|buf| {
        unescape_into(py, buf, src, replace_invalid, wtf8)?;
        new_bytes(py, buf)
    })
}
