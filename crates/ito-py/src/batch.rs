//! `ito_codecs.nostr` batch forms over `ito::nostr::batch`: the GIL is
//! released while every core works, verdicts become Python objects after.

use crate::convert::text_or_bytes;
use ito::nostr::batch::{self, Check, Summary as RustSummary, Verdict as RustVerdict};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};
use std::io;

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Verdict>()?;
    m.add_class::<Summary>()?;
    m.add_function(wrap_pyfunction!(verdict, m)?)?;
    m.add_function(wrap_pyfunction!(verify_all, m)?)?;
    m.add_function(wrap_pyfunction!(verify_jsonl, m)?)?;
    m.add_function(wrap_pyfunction!(verify_file, m)?)?;
    Ok(())
}

/// The outcome of checking one event, from :func:`verdict` and the batch
/// forms. ``status`` is ``"ok"``, ``"bad_id"`` (the id is not the hash of
/// the contents), ``"bad_signature"`` (the id is right, the signature is
/// not) or ``"invalid"`` (not an event: ``offset``, ``field`` and
/// ``message`` say why, the offset counting bytes from the start of the
/// event). A verdict is true exactly when ``status == "ok"``.
///
/// >>> from ito_codecs import nostr
/// >>> v = nostr.verdict('{"kind": -1}')
/// >>> v
/// Verdict('invalid', offset=9, field='kind', message='`kind`: not a non-negative integer at byte 9')
/// >>> bool(v), v.status, v.offset
/// (False, 'invalid', 9)
#[pyclass(module = "ito_codecs.nostr", frozen, eq, skip_from_py_object)]
#[derive(PartialEq, Eq)]
pub(crate) struct Verdict {
    /// ``"ok"``, ``"bad_id"``, ``"bad_signature"`` or ``"invalid"``.
    #[pyo3(get)]
    status: &'static str,
    /// Byte offset of the parse error within the event (``invalid`` only).
    #[pyo3(get)]
    offset: Option<usize>,
    /// The event field the parse error concerns, if any (``invalid`` only).
    #[pyo3(get)]
    field: Option<&'static str>,
    /// The parse error as a sentence (``invalid`` only).
    #[pyo3(get)]
    message: Option<String>,
}

#[pymethods]
impl Verdict {
    /// Whether the event passed every check asked for.
    #[getter]
    fn ok(&self) -> bool {
        self.status == "ok"
    }

    fn __bool__(&self) -> bool {
        self.ok()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let Some(message) = &self.message else {
            return Ok(format!("Verdict('{}')", self.status));
        };
        Ok(format!(
            "Verdict('invalid', offset={}, field={}, message={})",
            self.offset.unwrap_or(0),
            self.field.map_or("None".to_string(), |f| format!("'{f}'")),
            PyString::new(py, message).repr()?
        ))
    }
}

fn simple(status: &'static str) -> Verdict {
    Verdict {
        status,
        offset: None,
        field: None,
        message: None,
    }
}

/// The Python object for a verdict; the three without details are shared.
fn to_py(py: Python<'_>, v: RustVerdict) -> PyResult<Py<Verdict>> {
    static OK: PyOnceLock<Py<Verdict>> = PyOnceLock::new();
    static BAD_ID: PyOnceLock<Py<Verdict>> = PyOnceLock::new();
    static BAD_SIG: PyOnceLock<Py<Verdict>> = PyOnceLock::new();
    let shared = |cell: &'static PyOnceLock<Py<Verdict>>, status| {
        cell.get_or_try_init(py, || Py::new(py, simple(status)))
            .map(|v| v.clone_ref(py))
    };
    match v {
        RustVerdict::Ok => shared(&OK, "ok"),
        RustVerdict::BadId => shared(&BAD_ID, "bad_id"),
        RustVerdict::BadSignature => shared(&BAD_SIG, "bad_signature"),
        RustVerdict::Invalid(e) => Py::new(
            py,
            Verdict {
                status: "invalid",
                offset: Some(e.offset()),
                field: e.field().map(|f| f.name()),
                message: Some(e.to_string()),
            },
        ),
        // Built with `schnorr`: signatures are always checked.
        _ => Err(PyValueError::new_err("unexpected verdict")),
    }
}

fn parse_check(check: &str) -> PyResult<Check> {
    match check {
        "signature" => Ok(Check::Signature),
        "id" => Ok(Check::Id),
        other => Err(PyValueError::new_err(format!(
            "check must be \"signature\" or \"id\", not {other:?}"
        ))),
    }
}

/// Runs `work` without the GIL, on rayon's global pool (every core) or on
/// a pool of `threads` threads.
fn off_gil<T: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    match threads {
        None => Ok(py.detach(work)),
        Some(0) => Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| PyOSError::new_err(e.to_string()))?;
            Ok(py.detach(|| pool.install(work)))
        }
    }
}

/// Checks one event and returns its :class:`Verdict` instead of raising:
/// the single-event form of the batch functions. ``check="id"`` skips the
/// signature.
///
/// >>> from ito_codecs import nostr
/// >>> ev = open("data/nostr/events.jsonl", "rb").readline()
/// >>> nostr.verdict(ev)
/// Verdict('ok')
/// >>> nostr.verdict(ev.replace(b'"kind":1', b'"kind":2'), check="id")
/// Verdict('bad_id')
#[pyfunction]
#[pyo3(signature = (event, /, *, check = "signature"))]
fn verdict(py: Python<'_>, event: &Bound<'_, PyAny>, check: &str) -> PyResult<Py<Verdict>> {
    let check = parse_check(check)?;
    let event = text_or_bytes(event)?.bytes();
    to_py(py, py.detach(|| batch::verify_one(event, check)))
}

/// Checks every event of ``events`` (a list, tuple or other iterable of
/// ``str``/``bytes``, one event JSON object each) on every core, with the
/// GIL released, and returns one :class:`Verdict` per event in input
/// order. A bad event gets its verdict; nothing is raised for it (an
/// element that is neither ``str`` nor ``bytes`` raises ``TypeError``
/// before any work starts). ``threads`` limits the work to a pool of that
/// many threads (default: rayon's global pool, one thread per core).
///
/// >>> from ito_codecs import nostr
/// >>> lines = open("data/nostr/events.jsonl", "rb").read().splitlines()
/// >>> verdicts = nostr.verify_all(lines + [b"{}"])
/// >>> [v.status for v in verdicts].count("ok"), verdicts[-1].status
/// (9, 'invalid')
#[pyfunction]
#[pyo3(signature = (events, /, *, check = "signature", threads = None))]
fn verify_all<'py>(
    py: Python<'py>,
    events: &Bound<'py, PyAny>,
    check: &str,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    let check = parse_check(check)?;
    // Own a reference to every element, so the byte slices stay valid
    // while the GIL is released even if the caller's list changes.
    let objects = events.try_iter()?.collect::<PyResult<Vec<_>>>()?;
    let slices = objects
        .iter()
        .map(|o| text_or_bytes(o).map(|i| i.bytes()))
        .collect::<PyResult<Vec<&[u8]>>>()?;
    let verdicts = off_gil(py, threads, || batch::verify_all(&slices, check))?;
    let items = verdicts
        .into_iter()
        .map(|v| to_py(py, v))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

/// Checks every non-blank line of ``data`` (``str`` or ``bytes`` holding
/// JSON lines) as one event, on every core with the GIL released, and
/// returns ``(line_number, Verdict)`` pairs in input order (line numbers
/// start at 1; blank lines are skipped). Never raises for a bad event.
///
/// >>> from ito_codecs import nostr
/// >>> data = open("data/nostr/events.jsonl", "rb").read()
/// >>> results = nostr.verify_jsonl(data + b"\n\n{oops}\n")
/// >>> len(results), results[-1][0], results[-1][1].status
/// (10, 12, 'invalid')
#[pyfunction]
#[pyo3(signature = (data, /, *, check = "signature", threads = None))]
fn verify_jsonl<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    check: &str,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    let check = parse_check(check)?;
    let buf = text_or_bytes(data)?.bytes();
    let results = off_gil(py, threads, || batch::verify_jsonl(buf, check))?;
    let items = results
        .into_iter()
        .map(|(line, v)| {
            let verdict = to_py(py, v)?.into_bound(py).into_any();
            PyTuple::new(py, [line.into_pyobject(py)?.into_any(), verdict])
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

/// Counts from :func:`verify_file`.
///
/// >>> from ito_codecs import nostr
/// >>> s = nostr.verify_file("data/nostr/events.jsonl")
/// >>> s.events, s.ok, s.failed
/// (9, 9, 0)
#[pyclass(module = "ito_codecs.nostr", frozen, eq, skip_from_py_object)]
#[derive(PartialEq, Eq)]
pub(crate) struct Summary {
    /// Lines read, blank ones included.
    #[pyo3(get)]
    lines: u64,
    /// Bytes read.
    #[pyo3(get)]
    bytes: u64,
    /// Non-blank lines, each checked as one event.
    #[pyo3(get)]
    events: u64,
    /// Events that passed.
    #[pyo3(get)]
    ok: u64,
    /// Events whose id is not the hash of their contents.
    #[pyo3(get)]
    bad_id: u64,
    /// Events with a right id and a wrong signature.
    #[pyo3(get)]
    bad_signature: u64,
    /// Lines that are not events.
    #[pyo3(get)]
    invalid: u64,
}

#[pymethods]
impl Summary {
    /// Events that did not pass (``events - ok``).
    #[getter]
    fn failed(&self) -> u64 {
        self.events - self.ok
    }

    fn __repr__(&self) -> String {
        format!(
            "Summary(lines={}, bytes={}, events={}, ok={}, bad_id={}, bad_signature={}, invalid={})",
            self.lines,
            self.bytes,
            self.events,
            self.ok,
            self.bad_id,
            self.bad_signature,
            self.invalid
        )
    }
}

impl From<RustSummary> for Summary {
    fn from(s: RustSummary) -> Self {
        Summary {
            lines: s.lines,
            bytes: s.bytes,
            events: s.events,
            ok: s.ok,
            bad_id: s.bad_id,
            bad_signature: s.bad_signature,
            invalid: s.invalid,
        }
    }
}

/// How many events pass between two checks for Ctrl-C (and between two
/// acquisitions of the GIL for that).
const SIGNAL_CHECK_EVERY: usize = 8192;

/// Streams the JSON-lines file at ``path`` through every core in bounded
/// memory (chunks of a few MiB, plus the longest line), with the GIL
/// released, and returns a :class:`Summary`. ``on_bad(line_number, line,
/// verdict)`` is called, in input order, for every event that does not
/// pass (``line`` is the line's bytes without its newline); an exception
/// it raises stops the run and propagates. Ctrl-C stops the run too.
/// Read errors raise ``OSError``.
///
/// >>> from ito_codecs import nostr
/// >>> bad = []
/// >>> nostr.verify_file("data/nostr/events.jsonl", check="id",
/// ...                   on_bad=lambda n, line, v: bad.append(n))
/// Summary(lines=9, bytes=..., events=9, ok=9, bad_id=0, bad_signature=0, invalid=0)
/// >>> bad
/// []
#[pyfunction]
#[pyo3(signature = (path, /, *, check = "signature", on_bad = None))]
fn verify_file(
    py: Python<'_>,
    path: std::path::PathBuf,
    check: &str,
    on_bad: Option<Py<PyAny>>,
) -> PyResult<Summary> {
    let check = parse_check(check)?;
    let file = std::fs::File::open(&path)?;
    // A Python exception raised inside the sink (by `on_bad` or a signal
    // handler) stops the run through an io::Error and is re-raised here.
    let mut raised: Option<PyErr> = None;
    let result = py.detach(|| {
        let mut since_check = 0;
        batch::verify_reader(file, check, |n, line, v| {
            since_check += 1;
            let call = !v.is_ok() && on_bad.is_some();
            if !call && since_check < SIGNAL_CHECK_EVERY {
                return Ok(());
            }
            since_check = 0;
            Python::attach(|py| {
                let outcome = py.check_signals().and_then(|()| match &on_bad {
                    Some(f) if call => {
                        let args = (n, PyBytes::new(py, line), to_py(py, v)?);
                        f.call1(py, args).map(drop)
                    }
                    _ => Ok(()),
                });
                outcome.map_err(|e| {
                    raised = Some(e);
                    io::Error::other("stopped by a Python exception")
                })
            })
        })
    });
    match (result, raised) {
        (_, Some(err)) => Err(err),
        (Ok(summary), None) => Ok(summary.into()),
        (Err(e), None) => Err(e.into()),
    }
}
