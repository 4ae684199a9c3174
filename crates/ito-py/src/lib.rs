//! Python bindings for ito: the extension module `ito_codecs._ito`, wrapped
//! by the pure-Python package in `python/ito_codecs/` (distribution
//! `ito-codecs` on PyPI).
//!
//! This crate only converts between Python objects and bytes and decides
//! when to release the GIL; every codec, parser and verifier is ito's.
//!
//! - [`convert`]: reading `str`/`bytes` arguments without copying, building
//!   `str`/`bytes` results, the per-thread scratch buffer, and the
//!   `ito_codecs.Error` exception; [`fast`]: hand-written entry points for
//!   the escaping functions' one-`str` calls.
//! - [`json`], [`hex`], [`nostr`], [`nip19`]: one Python submodule each;
//!   [`batch`] adds the batch forms of `ito::nostr::batch` to `nostr`, and
//!   [`sign`] the signing functions, [`filter`] NIP-01 filters
//!   (`Filter`, `FilterIndex`, `filter_jsonl`).

mod batch;
mod convert;
mod fast;
mod filter;
mod hex;
mod json;
mod nip19;
mod nostr;
mod sign;

use pyo3::prelude::*;

/// ito's string codecs for Python: `json`, `hex`, `nostr` and `nip19` submodules.
#[pymodule]
fn _ito(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("Error", py.get_type::<convert::Error>())?;
    for (name, register) in [
        (
            "json",
            json::register as fn(&Bound<'_, PyModule>) -> PyResult<()>,
        ),
        ("hex", hex::register),
        ("nostr", nostr::register),
        ("nip19", nip19::register),
    ] {
        let sub = PyModule::new(py, name)?;
        // Functions record their module's name as `__module__` when they
        // are added: give them the public one (`ito_codecs.json`).
        sub.setattr("__name__", format!("ito_codecs.{name}"))?;
        register(&sub)?;
        m.add(name, sub)?;
    }
    Ok(())
}
