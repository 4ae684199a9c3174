//! Conversion between Python objects and bytes, shared by the submodules.
//!
//! Arguments: `bytes` are borrowed as they are; a `str` is borrowed as its
//! UTF-8 form, which CPython keeps inside the object (for an ASCII `str` it
//! is the object's own data), so neither is copied.
//!
//! Results: a `bytes` result made of pieces we hold (a clean string and
//! its quotes) is allocated once and written in place
//! ([`clean_bytes`]); other results are rendered into a per-thread
//! scratch buffer that is reused across calls ([`with_scratch`]) and copied
//! into the new object, so a short string costs no heap allocation of
//! ours, only the Python object's own.

use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use std::cell::RefCell;
use std::ffi::c_char;

create_exception!(
    ito_codecs,
    Error,
    PyValueError,
    "Invalid input (a ``ValueError``). ``offset`` is the byte offset of the \
     offending byte in the input (its UTF-8 form for a ``str``); ``field`` is \
     the Nostr event field concerned, or ``None``."
);

/// An `ito_codecs.Error` with its `offset` and `field` attributes set.
pub(crate) fn error(py: Python<'_>, message: String, offset: usize, field: Option<&str>) -> PyErr {
    let err = Error::new_err(message);
    let value = err.value(py);
    // Setting attributes on a fresh exception instance cannot fail short of
    // memory exhaustion; the message carries the offset in any case.
    let _ = value.setattr("offset", offset);
    let _ = value.setattr("field", field);
    err
}

unsafe extern "C" {
    // Exported by every CPython 3 and part of the stable ABI since 3.10
    // (pyo3 hides it from abi3-py39 builds, whose only alternative,
    // `PyUnicode_AsUTF8String`, copies into a new bytes object per call).
    // Returns the str's cached UTF-8 form, valid while the str lives.
    fn PyUnicode_AsUTF8AndSize(
        unicode: *mut ffi::PyObject,
        size: *mut ffi::Py_ssize_t,
    ) -> *const c_char;
}

/// The UTF-8 form of a `str`, borrowed from the object. A `str` holding
/// lone surrogates has none: that raises `UnicodeEncodeError`.
#[inline]
pub(crate) fn str_utf8<'a>(s: &'a Bound<'_, PyString>) -> PyResult<&'a str> {
    let mut len: ffi::Py_ssize_t = 0;
    // SAFETY: `s` is a live str; the call either fails (null, with a Python
    // exception set) or returns a pointer to `len` bytes of UTF-8 owned by
    // the str, which `'a` (a borrow of `s`) keeps alive and which CPython
    // never changes once created.
    unsafe {
        let p = PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut len);
        if p.is_null() {
            return Err(PyErr::fetch(s.py()));
        }
        let bytes = std::slice::from_raw_parts(p.cast::<u8>(), len as usize);
        Ok(std::str::from_utf8_unchecked(bytes))
    }
}

/// A `str` or `bytes` argument: its bytes (UTF-8 for a `str`), borrowed.
#[inline]
pub(crate) fn text_or_bytes<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<Input<'a>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        Ok(Input::Bytes(b.as_bytes()))
    } else if let Ok(s) = obj.cast::<PyString>() {
        Ok(Input::Str(str_utf8(s)?))
    } else {
        Err(PyTypeError::new_err(format!(
            "expected str or bytes, got {}",
            obj.get_type().name()?
        )))
    }
}

/// A `str` or `bytes` argument, remembering which (a `str` is known UTF-8).
#[derive(Clone, Copy)]
pub(crate) enum Input<'a> {
    Str(&'a str),
    Bytes(&'a [u8]),
}

impl<'a> Input<'a> {
    #[inline]
    pub(crate) fn bytes(self) -> &'a [u8] {
        match self {
            Input::Str(s) => s.as_bytes(),
            Input::Bytes(b) => b,
        }
    }
}

/// A new `bytes` object holding a copy of `data`.
#[inline]
pub(crate) fn new_bytes<'py>(py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    // SAFETY: pointer and length describe a live slice, which CPython
    // copies into the new object.
    unsafe {
        let obj =
            ffi::PyBytes_FromStringAndSize(data.as_ptr().cast(), data.len() as ffi::Py_ssize_t);
        Ok(Bound::from_owned_ptr_or_err(py, obj)?.cast_into_unchecked())
    }
}

/// Clean text is scanned and copied in pieces of this size, so that the
/// copy reads what the scan has just brought into L1.
const CHUNK: usize = 8192;

/// `quote`, `text`, `quote` as a new `bytes` object written straight into
/// its buffer (one copy of `text`), if `text` needs no JSON escaping;
/// `None` if it does. The scan stops at the first piece that needs
/// escaping (a half-written object is dropped unseen).
#[inline]
pub(crate) fn clean_bytes<'py>(
    py: Python<'py>,
    text: &[u8],
    quote: &[u8],
) -> Option<PyResult<Bound<'py, PyBytes>>> {
    let (first, rest) = text.split_at(text.len().min(CHUNK));
    if ito::json::needs_escape(first) {
        return None;
    }
    let q = quote.len();
    // SAFETY: a null source asks CPython for an uninitialised buffer of
    // `text.len() + 2q` bytes (plus its own trailing NUL); the writes below
    // fill exactly `[0, q)`, `[q, q + text.len())` and the last `q` bytes,
    // in bounds, before the object is handed to Python. An object dropped
    // early (text needing escapes) is freed without being read.
    unsafe {
        let len = text.len() + 2 * q;
        let obj = ffi::PyBytes_FromStringAndSize(std::ptr::null(), len as ffi::Py_ssize_t);
        let obj = match Bound::from_owned_ptr_or_err(py, obj) {
            Ok(obj) => obj.cast_into_unchecked::<PyBytes>(),
            Err(e) => return Some(Err(e)),
        };
        let d = ffi::PyBytes_AsString(obj.as_ptr()).cast::<u8>();
        std::ptr::copy_nonoverlapping(quote.as_ptr(), d, q);
        std::ptr::copy_nonoverlapping(first.as_ptr(), d.add(q), first.len());
        let mut at = q + first.len();
        for chunk in rest.chunks(CHUNK) {
            if ito::json::needs_escape(chunk) {
                return None;
            }
            std::ptr::copy_nonoverlapping(chunk.as_ptr(), d.add(at), chunk.len());
            at += chunk.len();
        }
        std::ptr::copy_nonoverlapping(quote.as_ptr(), d.add(at), q);
        Some(Ok(obj))
    }
}

/// A new `str` from bytes that are known to be UTF-8.
#[inline]
pub(crate) fn str_from_utf8<'py>(py: Python<'py>, utf8: &[u8]) -> Bound<'py, PyString> {
    debug_assert!(std::str::from_utf8(utf8).is_ok());
    // SAFETY: every caller passes ito output that is UTF-8 by contract
    // (checked above in debug builds).
    PyString::new(py, unsafe { std::str::from_utf8_unchecked(utf8) })
}

/// A new `str` from WTF-8 (UTF-8 that may hold lone surrogates, which
/// Python's `str` can represent).
pub(crate) fn str_from_wtf8<'py>(py: Python<'py>, wtf8: &[u8]) -> PyResult<Bound<'py, PyString>> {
    // SAFETY: pointer and length describe a live slice; the error-handler
    // name is a NUL-terminated C string.
    unsafe {
        let obj = ffi::PyUnicode_DecodeUTF8(
            wtf8.as_ptr().cast(),
            wtf8.len() as ffi::Py_ssize_t,
            c"surrogatepass".as_ptr(),
        );
        Ok(Bound::from_owned_ptr_or_err(py, obj)?.cast_into_unchecked())
    }
}

/// Scratch buffers larger than this are released after use, so one huge
/// input does not pin its memory for the thread's lifetime.
const KEEP_SCRATCH: usize = 1 << 20;

thread_local! {
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with an empty reusable buffer (a fresh one if the thread's is
/// in use, e.g. re-entered, or already torn down).
#[inline]
pub(crate) fn with_scratch<R>(f: impl FnOnce(&mut Vec<u8>) -> R) -> R {
    let mut f = Some(f);
    let reused = SCRATCH
        .try_with(|cell| {
            let mut buf = cell.try_borrow_mut().ok()?;
            let f = f.take()?;
            buf.clear();
            let r = f(&mut buf);
            if buf.capacity() > KEEP_SCRATCH {
                *buf = Vec::new();
            }
            Some(r)
        })
        .ok()
        .flatten();
    match (reused, f) {
        (Some(r), _) => r,
        (None, Some(f)) => f(&mut Vec::new()),
        // `f` is taken only on the path that returns `Some`.
        (None, None) => unreachable!("scratch closure taken but not run"),
    }
}
