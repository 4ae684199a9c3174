//! `ito_codecs.nostr.Filter`, `FilterIndex` and `filter_jsonl` over
//! `ito::nostr::Filter` and `ito::nostr::FilterIndex`: NIP-01 subscription
//! filters, matched against events one at a time, against many open
//! subscriptions at once, or over a buffer of JSON lines on every core.

use crate::convert::{error, str_utf8, text_or_bytes, Input};
use crate::nostr::event_error;
use ito::nostr::{self, Event};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyMapping, PyString};
use rayon::prelude::*;

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Filter>()?;
    m.add_class::<FilterIndex>()?;
    m.add_function(wrap_pyfunction!(filter_jsonl, m)?)?;
    Ok(())
}

/// A filter's JSON text: a `str` or `bytes` as given, a `Filter`'s own
/// text, or a mapping written with `json.dumps`.
fn filter_text(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(f) = obj.cast::<Filter>() {
        return Ok(f.get().json.clone().into_bytes());
    }
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Ok(text_or_bytes(obj)?.bytes().to_vec());
    }
    if obj.cast::<PyMapping>().is_err() {
        return Err(PyTypeError::new_err(format!(
            "expected a filter (str, bytes, a mapping or a Filter), got {}",
            obj.get_type().name()?
        )));
    }
    let py = obj.py();
    let json = py.import("json")?;
    let kwargs = [("separators", (",", ":").into_pyobject(py)?.into_any())];
    let kwargs = pyo3::types::IntoPyDict::into_py_dict(kwargs, py)?;
    kwargs.set_item("ensure_ascii", false)?;
    let text = json.call_method("dumps", (obj,), Some(&kwargs))?;
    Ok(str_utf8(text.cast::<PyString>()?)?.as_bytes().to_vec())
}

/// Parses one filter object, or (`list` true) also an array of them.
fn parse_filters(py: Python<'_>, text: &[u8], list: bool) -> PyResult<Vec<nostr::Filter<'static>>> {
    let is_array = text.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[');
    let parsed = if list && is_array {
        nostr::Filter::parse_list(text)
    } else {
        nostr::Filter::parse(text).map(|f| vec![f])
    };
    parsed
        .map(|fs| fs.into_iter().map(nostr::Filter::into_owned).collect())
        .map_err(|e| error(py, e.to_string(), e.offset(), e.field().map(|f| f.name())))
}

/// The filters of `filters`: one filter (JSON text, a mapping or a
/// :class:`Filter`), a JSON array of them, or a list or tuple of any of
/// those.
fn filters_of(filters: &Bound<'_, PyAny>) -> PyResult<Vec<nostr::Filter<'static>>> {
    let py = filters.py();
    if filters.is_instance_of::<PyList>() || filters.is_instance_of::<pyo3::types::PyTuple>() {
        let mut out = Vec::new();
        for item in filters.try_iter()? {
            out.extend(parse_filters(py, &filter_text(&item?)?, false)?);
        }
        return Ok(out);
    }
    parse_filters(py, &filter_text(filters)?, true)
}

/// One NIP-01 filter: ``ids``, ``authors``, ``kinds``, ``#x`` tag values,
/// ``since``, ``until`` (every condition must hold; ``limit`` is kept but
/// does not apply to one event). Built from its JSON (``str`` or
/// ``bytes``) or from a mapping; a bad filter raises
/// :class:`ito_codecs.Error` with the byte ``offset`` in its JSON.
///
/// >>> from ito_codecs import nostr
/// >>> f = nostr.Filter({"kinds": [1], "#t": ["nostr"]})
/// >>> f
/// Filter('{"kinds":[1],"#t":["nostr"]}')
/// >>> ev = open("data/nostr/events.jsonl", "rb").readline()
/// >>> nostr.Filter('{"kinds": [1]}').matches(ev), nostr.Filter({"kinds": [7]}).matches(ev)
/// (True, False)
#[pyclass(module = "ito_codecs.nostr", frozen, skip_from_py_object)]
pub(crate) struct Filter {
    filter: nostr::Filter<'static>,
    json: String,
}

#[pymethods]
impl Filter {
    #[new]
    #[pyo3(signature = (filter, /))]
    fn new(filter: &Bound<'_, PyAny>) -> PyResult<Filter> {
        let text = filter_text(filter)?;
        let parsed = parse_filters(filter.py(), &text, false)?;
        Ok(Filter {
            filter: parsed.into_iter().next().expect("one filter parsed"),
            json: String::from_utf8_lossy(&text).into_owned(),
        })
    }

    /// Whether ``event`` (one event's JSON, ``str`` or ``bytes``) matches.
    /// Only the fields are read; the id and signature are not checked. An
    /// event that does not parse raises :class:`ito_codecs.Error`.
    #[pyo3(signature = (event, /))]
    fn matches(&self, py: Python<'_>, event: &Bound<'_, PyAny>) -> PyResult<bool> {
        let bytes = text_or_bytes(event)?.bytes();
        let event = Event::parse(bytes).map_err(|e| event_error(py, &e))?;
        Ok(self.filter.matches(&event))
    }

    /// The filter's JSON, as given (a mapping: as ``json.dumps`` wrote it).
    #[getter]
    fn json(&self) -> &str {
        &self.json
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let text = PyString::new(py, &self.json).repr()?;
        Ok(format!("Filter({text})"))
    }
}

/// A relay's open subscriptions, to find those an event matches: the cost
/// follows the number of candidate filters, not the number of
/// subscriptions (``ito::nostr::Subscriptions``).
///
/// >>> from ito_codecs import nostr
/// >>> index = nostr.FilterIndex()
/// >>> index.add("feed", [{"kinds": [1]}, {"authors": ["00" * 32]}])
/// >>> index.add("dms", '{"kinds": [4]}')
/// >>> ev = open("data/nostr/events.jsonl", "rb").readline()
/// >>> index.matches(ev), len(index)
/// (['feed'], 2)
/// >>> index.remove("feed"), index.matches(ev)
/// (True, [])
#[pyclass(module = "ito_codecs.nostr")]
pub(crate) struct FilterIndex {
    subs: nostr::Subscriptions<String>,
}

#[pymethods]
impl FilterIndex {
    #[new]
    fn new() -> FilterIndex {
        FilterIndex {
            subs: nostr::Subscriptions::new(),
        }
    }

    /// Opens subscription ``sub_id`` with ``filters`` (one filter as JSON
    /// text, a mapping or a :class:`Filter`; a JSON array of filters; or a
    /// list of any of those: a ``REQ``'s filters). An id already open is
    /// replaced, as a relay does for a repeated ``REQ``. A bad filter
    /// raises :class:`ito_codecs.Error` and leaves the index unchanged.
    #[pyo3(signature = (sub_id, filters, /))]
    fn add(&mut self, sub_id: String, filters: &Bound<'_, PyAny>) -> PyResult<()> {
        let parsed = filters_of(filters)?;
        if parsed.is_empty() {
            return Err(PyValueError::new_err(
                "a subscription needs at least one filter",
            ));
        }
        self.subs.insert(sub_id, parsed);
        Ok(())
    }

    /// Closes subscription ``sub_id``; returns whether it was open.
    #[pyo3(signature = (sub_id, /))]
    fn remove(&mut self, sub_id: &str) -> bool {
        self.subs.remove(sub_id)
    }

    /// The ids of the subscriptions that ``event`` (one event's JSON,
    /// ``str`` or ``bytes``) matches, each once, in the order they were
    /// opened. An event that does not parse raises
    /// :class:`ito_codecs.Error`.
    #[pyo3(signature = (event, /))]
    fn matches(&mut self, py: Python<'_>, event: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let bytes = text_or_bytes(event)?.bytes();
        let event = Event::parse(bytes).map_err(|e| event_error(py, &e))?;
        let mut ids = Vec::new();
        self.subs.matches(&event, &mut ids);
        Ok(ids)
    }

    fn __len__(&self) -> usize {
        self.subs.len()
    }

    fn __contains__(&self, sub_id: &str) -> bool {
        self.subs.contains(sub_id)
    }
}

/// A matching line's byte range in the input.
type Span = (usize, usize);
/// A line that is not an event: its number, where it starts, and why.
type LineError = (usize, usize, nostr::Error);

/// The lines of ``data`` (JSON lines, ``str`` or ``bytes``) whose event
/// matches any of ``filters`` (as :meth:`FilterIndex.add` takes them), in
/// input order, each without its line end and of ``data``'s type. Runs on
/// every core (or ``threads``) with the GIL released. Blank lines are
/// skipped; a line that is not an event raises :class:`ito_codecs.Error`
/// naming its line number, with ``offset`` counting bytes from the start
/// of ``data``. Ids and signatures are not checked (see
/// :func:`verify_jsonl`).
///
/// >>> from ito_codecs import nostr
/// >>> data = open("data/nostr/events.jsonl", "rb").read()
/// >>> len(nostr.filter_jsonl(data, {"kinds": [1]})), len(nostr.filter_jsonl(data, []))
/// (7, 0)
#[pyfunction]
#[pyo3(signature = (data, filters, /, *, threads = None))]
fn filter_jsonl<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    filters: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    let input = text_or_bytes(data)?;
    let buf = input.bytes();
    let filters = if filters.is_instance_of::<PyList>() && filters.len()? == 0 {
        Vec::new()
    } else {
        filters_of(filters)?
    };
    let work = || -> Result<Vec<Span>, LineError> {
        let mut lines = Vec::new();
        let mut start = 0;
        for (n, line) in buf.split(|&b| b == b'\n').enumerate() {
            lines.push((n + 1, start, line));
            start += line.len() + 1;
        }
        let verdicts: Vec<Result<Option<Span>, LineError>> = lines
            .par_iter()
            .map(|&(n, at, line)| {
                let line = line.strip_suffix(b"\r").unwrap_or(line);
                if line.iter().all(u8::is_ascii_whitespace) {
                    return Ok(None);
                }
                match Event::parse(line) {
                    Ok(e) => Ok(nostr::matches_any(&filters, &e).then_some((at, at + line.len()))),
                    Err(e) => Err((n, at, e)),
                }
            })
            .collect();
        verdicts.into_iter().filter_map(Result::transpose).collect()
    };
    let ranges = match threads {
        None => py.detach(work),
        Some(0) => return Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| PyOSError::new_err(e.to_string()))?;
            py.detach(|| pool.install(work))
        }
    }
    .map_err(|(n, at, e)| {
        error(
            py,
            format!("line {n}: {e}"),
            at + e.offset(),
            e.field().map(|f| f.name()),
        )
    })?;
    let items: Vec<Bound<'py, PyAny>> = match input {
        Input::Bytes(b) => ranges
            .into_iter()
            .map(|(a, z)| PyBytes::new(py, &b[a..z]).into_any())
            .collect(),
        Input::Str(s) => ranges
            .into_iter()
            .map(|(a, z)| PyString::new(py, &s[a..z]).into_any())
            .collect(),
    };
    PyList::new(py, items)
}
