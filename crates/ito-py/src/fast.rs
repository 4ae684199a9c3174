//! Hand-written CPython entry points for the escaping functions, whose
//! typical call is one short `str` and no keywords.
//!
//! At 16 bytes the work is a few ns and the call is the cost: pyo3's
//! generated wrapper (argument parser for nine keyword-only flags, the
//! attach guard) spent more than the escaping itself. The public
//! `json.quote` & co. are therefore plain C functions created here:
//!
//! ```text
//! exactly one positional argument, an exact str, no keywords:
//!     read its UTF-8 form (PyUnicode_AsUTF8AndSize: the str's own data
//!     when it is ASCII)
//!     up to 32 bytes and nothing to escape (a SWAR check, 8 bytes a step):
//!         the result is written straight into a new bytes object (or a
//!         str made from a stack buffer); no Rust frame that could panic,
//!         no thread-local, no PyResult
//!     otherwise: the default-options path of json.rs, under catch_unwind
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

/// The default-options path of one function: one exact `str` in, with its
/// UTF-8 form.
pub(crate) type Fast = for<'py> fn(&Bound<'py, PyString>, &str) -> PyResult<Bound<'py, PyAny>>;

/// Clean inputs up to this many UTF-8 bytes take the inline path of
/// [`lean`].
const SHORT: usize = 32;

/// Nonzero if a byte of `w` is below 0x20, `"` or `\` (the bytes JSON
/// escapes by default). Each term is the classic exact "has a byte less
/// than n" / "has a zero byte" test, so the union is exact too (bytes
/// >= 0x80 never match).
#[inline(always)]
fn special_word(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let control = w.wrapping_sub(ONES * 0x20) & !w;
    let q = w ^ (ONES * u64::from(b'"'));
    let quote = q.wrapping_sub(ONES) & !q;
    let b = w ^ (ONES * u64::from(b'\\'));
    let backslash = b.wrapping_sub(ONES) & !b;
    (control | quote | backslash) & HIGH
}

/// Whether `s` (at most [`SHORT`] bytes) holds a byte that default JSON
/// escaping changes; reads only `s`'s bytes.
#[inline(always)]
fn short_needs_escape(s: &[u8]) -> bool {
    let n = s.len();
    debug_assert!(n <= SHORT);
    let p = s.as_ptr();
    let word = |i: usize| {
        // SAFETY: callers below pass `i + 8 <= n`.
        special_word(unsafe { p.add(i).cast::<u64>().read_unaligned() })
    };
    // Overlapping words cover every byte: [0, 16) and [n - 16, n) when
    // 16 <= n <= 32; [0, 8) and [n - 8, n) when 8 <= n < 16.
    let acc = if n >= 16 {
        word(0) | word(8) | word(n - 16) | word(n - 8)
    } else if n >= 8 {
        word(0) | word(n - 8)
    } else if n >= 4 {
        // SAFETY: 4-byte reads at 0 and n - 4, inside `s` for 4 <= n < 8.
        let (lo, hi) = unsafe {
            (
                p.cast::<u32>().read_unaligned(),
                p.add(n - 4).cast::<u32>().read_unaligned(),
            )
        };
        special_word(u64::from(lo) | u64::from(hi) << 32)
    } else if n > 0 {
        // Bytes 0, n / 2 and n - 1 (every byte when n <= 3) in the low
        // lanes, the other lanes 'a' (clean).
        special_word(
            0x6161_6161_6100_0000
                | u64::from(s[0])
                | u64::from(s[n / 2]) << 8
                | u64::from(s[n - 1]) << 16,
        )
    } else {
        0
    };
    acc != 0
}

/// Copies `n <= SHORT` bytes from `src` to `dst` with two overlapping
/// loads and stores of the largest power of two `<= n` (no `memcpy` call).
///
/// # Safety
/// `src[..n]` is readable, `dst[..n]` writable, and they do not overlap.
#[inline(always)]
unsafe fn copy_short(src: *const u8, dst: *mut u8, n: usize) {
    debug_assert!(n <= SHORT);
    /// One unaligned load of `T` at `src + i` and store at `dst + i`.
    #[inline(always)]
    unsafe fn pair<T: Copy>(src: *const u8, dst: *mut u8, n: usize) {
        let k = std::mem::size_of::<T>();
        // SAFETY: the caller checked `k <= n`, so both words lie in
        // `[0, n)`; both are read before either is written.
        unsafe {
            let a = src.cast::<T>().read_unaligned();
            let b = src.add(n - k).cast::<T>().read_unaligned();
            dst.cast::<T>().write_unaligned(a);
            dst.add(n - k).cast::<T>().write_unaligned(b);
        }
    }
    // SAFETY: each branch passes an `n` at least the word size and at most
    // twice it (n <= SHORT = 32), so the two words cover `[0, n)`.
    unsafe {
        if n >= 16 {
            pair::<u128>(src, dst, n);
        } else if n >= 8 {
            pair::<u64>(src, dst, n);
        } else if n >= 4 {
            pair::<u32>(src, dst, n);
        } else if n > 0 {
            // Bytes 0, n / 2 and n - 1: every byte when n <= 3.
            *dst = *src;
            *dst.add(n / 2) = *src.add(n / 2);
            *dst.add(n - 1) = *src.add(n - 1);
        }
    }
}

unsafe extern "C" {
    // See `convert::str_utf8`.
    fn PyUnicode_AsUTF8AndSize(
        unicode: *mut ffi::PyObject,
        size: *mut ffi::Py_ssize_t,
    ) -> *const std::ffi::c_char;
}

/// One exact `str` with default options: the whole call for a short clean
/// string, else `fast` under [`entry`]. `QUOTED`: add the quotes; `BYTES`:
/// a `bytes` result (else `str`).
///
/// # Safety
/// `arg` is a valid borrowed pointer to an exact `str` and the GIL is held.
#[inline(always)]
unsafe fn lean<const QUOTED: bool, const BYTES: bool>(
    fast: Fast,
    arg: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    let q = usize::from(QUOTED);
    // (With an abi3 feature too, e.g. `--all-features`, the build is
    // limited-API and this block is left out.)
    #[cfg(all(
        feature = "cpython-internals",
        not(any(feature = "abi3-py39", feature = "abi3-py310"))
    ))]
    // SAFETY: `arg` is a live str; a compact ASCII str holds its length
    // in ASCII bytes right after its header (CPython's layout, read via
    // pyo3-ffi's macros); `PyUnicode_New(n, 127)` returns such a str with
    // room for `n` bytes, all written here.
    unsafe {
        if ffi::PyUnicode_IS_COMPACT_ASCII(arg) != 0 {
            let n = ffi::PyUnicode_GET_LENGTH(arg) as usize;
            let src = ffi::_PyUnicode_COMPACT_DATA(arg).cast::<u8>();
            if n <= SHORT && !short_needs_escape(std::slice::from_raw_parts(src, n)) {
                let obj = if BYTES {
                    ffi::PyBytes_FromStringAndSize(std::ptr::null(), (n + 2 * q) as _)
                } else {
                    ffi::PyUnicode_New((n + 2 * q) as _, 127)
                };
                if obj.is_null() {
                    return obj;
                }
                let d = if BYTES {
                    ffi::PyBytes_AsString(obj).cast::<u8>()
                } else {
                    ffi::_PyUnicode_COMPACT_DATA(obj).cast::<u8>()
                };
                if QUOTED {
                    *d = b'"';
                    *d.add(n + 1) = b'"';
                }
                copy_short(src, d.add(q), n);
                return obj;
            }
        }
    }
    let mut len: ffi::Py_ssize_t = 0;
    // SAFETY: `arg` is a live str (contract); on success the pointer holds
    // `len` bytes of UTF-8 owned by the str, alive while `arg` is (all of
    // this call).
    let text = unsafe {
        let p = PyUnicode_AsUTF8AndSize(arg, &mut len);
        if p.is_null() {
            // UnicodeEncodeError (lone surrogates) is set.
            return std::ptr::null_mut();
        }
        std::slice::from_raw_parts(p.cast::<u8>(), len as usize)
    };
    let n = text.len();
    if n <= SHORT && !short_needs_escape(text) {
        if BYTES {
            // SAFETY: a null source asks for an uninitialised buffer of
            // `n + 2q` bytes, every one of which is written before the
            // object is returned; the source is `text` (`n` bytes).
            unsafe {
                let obj = ffi::PyBytes_FromStringAndSize(std::ptr::null(), (n + 2 * q) as _);
                if obj.is_null() {
                    return obj;
                }
                let d = ffi::PyBytes_AsString(obj).cast::<u8>();
                if QUOTED {
                    *d = b'"';
                    *d.add(n + 1) = b'"';
                }
                copy_short(text.as_ptr(), d.add(q), n);
                return obj;
            }
        }
        if !QUOTED {
            // Nothing to escape: the result is the (immutable) str itself.
            // SAFETY: `arg` is a live object; the new reference is ours.
            unsafe {
                ffi::Py_IncRef(arg);
            }
            return arg;
        }
        let mut buf = [b'"'; SHORT + 2];
        // SAFETY: `n <= SHORT`, so `buf[1..=n]` is in bounds; `text` is
        // `n` readable bytes elsewhere.
        unsafe { copy_short(text.as_ptr(), buf.as_mut_ptr().add(1), n) };
        // SAFETY: `buf[..n + 2]` is `"`, the UTF-8 text, `"`: valid UTF-8.
        return unsafe { ffi::PyUnicode_FromStringAndSize(buf.as_ptr().cast(), (n + 2) as _) };
    }
    // SAFETY: per this function's contract; `text` stays valid as above.
    unsafe { general(fast, arg, text) }
}

/// [`lean`]'s path for long or escaped text: `fast` under [`entry`].
///
/// # Safety
/// As [`lean`]; `text` is `arg`'s UTF-8 form.
#[inline(never)]
unsafe fn general(fast: Fast, arg: *mut ffi::PyObject, text: &[u8]) -> *mut ffi::PyObject {
    // SAFETY: per this function's contract.
    unsafe {
        entry(|py| {
            let s = Borrowed::from_ptr(py, arg).cast_unchecked::<PyString>();
            // `text` is the UTF-8 form CPython produced for `s`.
            fast(&s, std::str::from_utf8_unchecked(text))
        })
    }
}

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

#[cfg(not(feature = "abi3-py39"))]
mod convention {
    use super::*;

    pub(super) const FLAGS: c_int = ffi::METH_FASTCALL | ffi::METH_KEYWORDS;

    /// The C function: `slf` is the full pyo3 function.
    ///
    /// # Safety
    /// Called by CPython per METH_FASTCALL | METH_KEYWORDS.
    #[inline(always)]
    pub(crate) unsafe fn call<const QUOTED: bool, const BYTES: bool>(
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
            if nargs == 1 && kwnames.is_null() && ffi::PyUnicode_CheckExact(*args) != 0 {
                return lean::<QUOTED, BYTES>(fast, *args);
            }
            full(slf, args, nargs, kwnames)
        }
    }

    /// Any other call: the pyo3 function `slf` with the same arguments.
    ///
    /// # Safety
    /// As [`call`].
    #[inline(never)]
    unsafe fn full(
        slf: *mut ffi::PyObject,
        args: *const *mut ffi::PyObject,
        nargs: ffi::Py_ssize_t,
        kwnames: *mut ffi::PyObject,
    ) -> *mut ffi::PyObject {
        // SAFETY: as in `call`.
        unsafe {
            entry(|py| {
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
    #[inline(always)]
    pub(crate) unsafe fn call<const QUOTED: bool, const BYTES: bool>(
        fast: Fast,
        slf: *mut ffi::PyObject,
        args: *mut ffi::PyObject,
        kwargs: *mut ffi::PyObject,
    ) -> *mut ffi::PyObject {
        // SAFETY: CPython passes a tuple of positional arguments, a dict of
        // keywords (or NULL) and our `self`, with the GIL held.
        unsafe {
            if kwargs.is_null() && ffi::PyTuple_Size(args) == 1 {
                let arg = ffi::PyTuple_GetItem(args, 0);
                if ffi::PyUnicode_CheckExact(arg) != 0 {
                    return lean::<QUOTED, BYTES>(fast, arg);
                }
            }
            entry(|py| {
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
    ($entry:ident, $fast:path, $quoted:literal, $bytes:literal) => {
        #[cfg(not(feature = "abi3-py39"))]
        unsafe extern "C" fn $entry(
            slf: *mut pyo3::ffi::PyObject,
            args: *const *mut pyo3::ffi::PyObject,
            nargs: pyo3::ffi::Py_ssize_t,
            kwnames: *mut pyo3::ffi::PyObject,
        ) -> *mut pyo3::ffi::PyObject {
            // SAFETY: CPython's METH_FASTCALL | METH_KEYWORDS contract.
            unsafe { $crate::fast::call::<$quoted, $bytes>($fast, slf, args, nargs, kwnames) }
        }
        #[cfg(feature = "abi3-py39")]
        unsafe extern "C" fn $entry(
            slf: *mut pyo3::ffi::PyObject,
            args: *mut pyo3::ffi::PyObject,
            kwargs: *mut pyo3::ffi::PyObject,
        ) -> *mut pyo3::ffi::PyObject {
            // SAFETY: CPython's METH_VARARGS | METH_KEYWORDS contract.
            unsafe { $crate::fast::call::<$quoted, $bytes>($fast, slf, args, kwargs) }
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
