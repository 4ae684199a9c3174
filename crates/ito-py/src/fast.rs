//! Hand-written CPython entry points for the escaping functions, whose
//! typical call is one short `str` and no keywords.
//!
//! At 16 bytes the work is ~10 ns and the call is the cost: pyo3's
//! generated wrapper (argument parser for nine keyword-only flags, the
//! attach guard) spent more than the escaping itself. The public
//! `json.quote` & co. are therefore plain C functions created here:
//!
//! ```text
//! exactly one positional argument, an exact str, no keywords:
//!     the default-options path, straight to ito and a new str/bytes
//! anything else:
//!     call the pyo3 function (kept as the C function's `self`), which
//!     parses every keyword and raises the usual errors
//! ```
//!
//! Calling convention: METH_FASTCALL | METH_KEYWORDS where the stable ABI
//! has it (abi3-py310 and non-abi3 builds), METH_VARARGS | METH_KEYWORDS in
//! the cp39-abi3 wheel.

use pyo3::exceptions::PyRuntimeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyCFunction, PyString};
use std::ffi::{c_int, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The default-options path of one function: one exact `str` in.
pub(crate) type Fast = for<'py> fn(&Bound<'py, PyString>) -> PyResult<Bound<'py, PyAny>>;

/// Runs `f` as the body of a C entry point: panics become `RuntimeError`,
/// errors are set as the current exception and give NULL.
unsafe fn entry(f: impl FnOnce(Python<'_>) -> PyResult<Bound<'_, PyAny>>) -> *mut ffi::PyObject {
    // SAFETY: CPython calls C functions with the GIL held.
    let py = unsafe { Python::assume_attached() };
    match catch_unwind(AssertUnwindSafe(|| f(py))) {
        Ok(Ok(obj)) => obj.into_ptr(),
        Ok(Err(err)) => {
            err.restore(py);
            std::ptr::null_mut()
        }
        Err(_) => {
            PyRuntimeError::new_err("ito_codecs: internal panic").restore(py);
            std::ptr::null_mut()
        }
    }
}

/// `arg` if it is an exact `str`.
///
/// # Safety
/// `arg` is a valid borrowed object pointer and the GIL is held.
#[inline]
unsafe fn exact_str<'a, 'py>(
    py: Python<'py>,
    arg: &'a *mut ffi::PyObject,
) -> Option<Borrowed<'a, 'py, PyString>> {
    // SAFETY: per the function's contract.
    unsafe {
        (ffi::PyUnicode_CheckExact(*arg) != 0)
            .then(|| Borrowed::from_ptr(py, *arg).cast_unchecked::<PyString>())
    }
}

#[cfg(not(feature = "abi3-py39"))]
mod convention {
    use super::*;

    pub(super) const FLAGS: c_int = ffi::METH_FASTCALL | ffi::METH_KEYWORDS;

    /// The C function: `slf` is the full pyo3 function.
    ///
    /// # Safety
    /// Called by CPython per METH_FASTCALL | METH_KEYWORDS.
    pub(crate) unsafe fn call(
        fast: Fast,
        slf: *mut ffi::PyObject,
        args: *const *mut ffi::PyObject,
        nargs: ffi::Py_ssize_t,
        kwnames: *mut ffi::PyObject,
    ) -> *mut ffi::PyObject {
        // SAFETY: CPython passes `nargs` valid borrowed arguments, a tuple
        // of keyword names (or NULL) whose values follow them, and our
        // `self`, with the GIL held.
        unsafe {
            entry(|py| {
                if nargs == 1 && kwnames.is_null() {
                    if let Some(s) = exact_str(py, &*args) {
                        return fast(&s);
                    }
                }
                let nkw = if kwnames.is_null() {
                    0
                } else {
                    ffi::PyTuple_Size(kwnames)
                };
                let all = std::slice::from_raw_parts(args, (nargs + nkw) as usize);
                let positional = pyo3::types::PyTuple::new(
                    py,
                    all[..nargs as usize]
                        .iter()
                        .map(|&p| Borrowed::from_ptr(py, p)),
                )?;
                let keywords = pyo3::types::PyDict::new(py);
                for (i, &value) in all[nargs as usize..].iter().enumerate() {
                    let name = ffi::PyTuple_GetItem(kwnames, i as ffi::Py_ssize_t);
                    keywords
                        .set_item(Borrowed::from_ptr(py, name), Borrowed::from_ptr(py, value))?;
                }
                Borrowed::from_ptr(py, slf).call(positional, Some(&keywords))
            })
        }
    }
}

#[cfg(feature = "abi3-py39")]
mod convention {
    use super::*;

    pub(super) const FLAGS: c_int = ffi::METH_VARARGS | ffi::METH_KEYWORDS;

    /// The C function: `slf` is the full pyo3 function.
    ///
    /// # Safety
    /// Called by CPython per METH_VARARGS | METH_KEYWORDS.
    pub(crate) unsafe fn call(
        fast: Fast,
        slf: *mut ffi::PyObject,
        args: *mut ffi::PyObject,
        kwargs: *mut ffi::PyObject,
    ) -> *mut ffi::PyObject {
        // SAFETY: CPython passes a tuple of positional arguments, a dict of
        // keywords (or NULL) and our `self`, with the GIL held.
        unsafe {
            entry(|py| {
                if kwargs.is_null() && ffi::PyTuple_Size(args) == 1 {
                    if let Some(s) = exact_str(py, &ffi::PyTuple_GetItem(args, 0)) {
                        return fast(&s);
                    }
                }
                let positional =
                    Borrowed::from_ptr(py, args).cast_unchecked::<pyo3::types::PyTuple>();
                let keywords = (!kwargs.is_null()).then(|| {
                    Borrowed::from_ptr(py, kwargs).cast_unchecked::<pyo3::types::PyDict>()
                });
                Borrowed::from_ptr(py, slf).call(&*positional, keywords.as_deref())
            })
        }
    }
}

/// Declares the C entry point `$entry` that runs `$fast` or falls back to
/// the pyo3 function it is created with (see [`install`]).
macro_rules! fast_entry {
    ($entry:ident, $fast:path) => {
        #[cfg(not(feature = "abi3-py39"))]
        unsafe extern "C" fn $entry(
            slf: *mut pyo3::ffi::PyObject,
            args: *const *mut pyo3::ffi::PyObject,
            nargs: pyo3::ffi::Py_ssize_t,
            kwnames: *mut pyo3::ffi::PyObject,
        ) -> *mut pyo3::ffi::PyObject {
            // SAFETY: CPython's METH_FASTCALL | METH_KEYWORDS contract.
            unsafe { $crate::fast::call($fast, slf, args, nargs, kwnames) }
        }
        #[cfg(feature = "abi3-py39")]
        unsafe extern "C" fn $entry(
            slf: *mut pyo3::ffi::PyObject,
            args: *mut pyo3::ffi::PyObject,
            kwargs: *mut pyo3::ffi::PyObject,
        ) -> *mut pyo3::ffi::PyObject {
            // SAFETY: CPython's METH_VARARGS | METH_KEYWORDS contract.
            unsafe { $crate::fast::call($fast, slf, args, kwargs) }
        }
    };
}
pub(crate) use fast_entry;

pub(crate) use convention::call;

/// The C function pointer type of this build's calling convention.
#[cfg(not(feature = "abi3-py39"))]
pub(crate) type Entry = ffi::PyCFunctionFastWithKeywords;
#[cfg(feature = "abi3-py39")]
pub(crate) type Entry = ffi::PyCFunctionWithKeywords;

/// Adds `entry` to `m` under the name of `full` (a pyo3 function, which
/// handles every call the fast path does not), with `full`'s docstring and
/// signature.
pub(crate) fn install(
    m: &Bound<'_, PyModule>,
    full: Bound<'_, PyCFunction>,
    entry: Entry,
) -> PyResult<()> {
    let py = m.py();
    let name: String = full.getattr("__name__")?.extract()?;
    let signature: String = full.getattr("__text_signature__")?.extract()?;
    let doc: String = full.getattr("__doc__")?.extract()?;
    let c = |s: String| CString::new(s).map_err(|e| PyRuntimeError::new_err(e.to_string()));
    // CPython keeps pointers to the method definition and its strings for
    // the function's lifetime: they are leaked once per module import.
    let name = Box::leak(c(name)?.into_boxed_c_str());
    let doc = Box::leak(
        c(format!(
            "{}{signature}\n--\n\n{doc}",
            name.to_str().unwrap_or("")
        ))?
        .into_boxed_c_str(),
    );
    #[cfg(not(feature = "abi3-py39"))]
    let meth = ffi::PyMethodDefPointer {
        PyCFunctionFastWithKeywords: entry,
    };
    #[cfg(feature = "abi3-py39")]
    let meth = ffi::PyMethodDefPointer {
        PyCFunctionWithKeywords: entry,
    };
    let def = Box::leak(Box::new(ffi::PyMethodDef {
        ml_name: name.as_ptr(),
        ml_meth: meth,
        ml_flags: convention::FLAGS,
        ml_doc: doc.as_ptr(),
    }));
    let module_name = m.name()?;
    // SAFETY: `def` lives forever; `full` becomes the function's `self`
    // (a new reference is taken by CPython); the module name is a str.
    let func = unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            ffi::PyCFunction_NewEx(def, full.as_ptr(), module_name.as_ptr()),
        )?
    };
    m.add(name.to_str().unwrap_or(""), func)
}
