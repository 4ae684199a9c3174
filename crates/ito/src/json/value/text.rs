//! [`Text`]: a string of a [`Value`](super::Value), borrowed from the
//! parsed input when it had no escape, otherwise an owned [`Str`] (or,
//! in an arena parse, borrowed from the [`Arena`](super::Arena) the
//! escapes were decoded into).
//!
//! ```text
//! Borrowed  ptr, len           JSON-safe: rendered between quotes, no scan
//! Borrowed  ptr, len | ESCAPE  not known safe (decoded into an arena):
//!                              rendered through the escaper
//! Owned     Str                rendered through quote_str (facts cached)
//! ```
//!
//! A borrowed `Text` without the `ESCAPE` bit is always JSON-safe (no
//! `"`, `\` or control byte): the parser borrows so only strings its scan
//! found clean, and [`Text::from`] a `&str` checks the string and copies
//! it into a `Str` when it is not. The bit lives in the length's top bit
//! (a `str` is never longer than `isize::MAX`), so `Text` stays 24 bytes:
//! a third variant would need a second niche in `Str`, which has one.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

use std::marker::PhantomData;
use std::ptr::NonNull;

use crate::simd::facts;
use crate::Str;

/// A string held by a [`Value`](super::Value) (an object key or a string
/// value): borrowed from the input it was parsed from, or an owned
/// [`Str`]. It dereferences to `str`.
///
/// ```
/// use ito::json::Text;
/// let clean = Text::from("plain");
/// assert!(clean.is_borrowed());
/// let quoted = Text::from("say \"hi\""); // needs escaping: copied
/// assert!(!quoted.is_borrowed());
/// assert_eq!(&*quoted, "say \"hi\"");
/// ```
#[derive(Clone)]
pub struct Text<'a>(Repr<'a>);

// 24 bytes (64-bit targets): `Str`'s non-zero tag word is the niche of `Borrowed`.
#[derive(Clone)]
enum Repr<'a> {
    Borrowed(Borrowed<'a>),
    Owned(Str),
}

/// A `&'a str` as pointer and length, the length's top bit (`ESCAPE`)
/// set when the text is not known JSON-safe.
#[derive(Clone, Copy)]
struct Borrowed<'a> {
    ptr: NonNull<u8>,
    len: usize,
    _str: PhantomData<&'a str>,
}

/// In `Borrowed::len`: the text may need escaping.
const ESCAPE: usize = 1 << (usize::BITS - 1);

// SAFETY: a `Borrowed` is a `&'a str`, which is `Send` and `Sync`.
unsafe impl Send for Borrowed<'_> {}
// SAFETY: as above.
unsafe impl Sync for Borrowed<'_> {}

impl<'a> Borrowed<'a> {
    #[inline(always)]
    fn new(s: &'a str, escape: bool) -> Self {
        // A `str` is at most `isize::MAX` bytes: the top bit is free.
        debug_assert!(s.len() & ESCAPE == 0);
        Borrowed {
            ptr: NonNull::from(s.as_bytes()).cast(),
            len: s.len() | if escape { ESCAPE } else { 0 },
            _str: PhantomData,
        }
    }

    #[inline(always)]
    fn get(self) -> &'a str {
        // SAFETY: `ptr` and `len` without its top bit came from a `&'a
        // str` (`new`), which stays valid for `'a`.
        unsafe {
            std::str::from_utf8_unchecked(std::slice::from_raw_parts(
                self.ptr.as_ptr(),
                self.len & !ESCAPE,
            ))
        }
    }

    #[inline(always)]
    fn escape(self) -> bool {
        self.len & ESCAPE != 0
    }
}

#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Text<'static>>() == 24);

impl<'a> Text<'a> {
    /// A string the parser's scan proved JSON-safe.
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    #[inline(always)]
    pub(super) fn safe(s: &'a str) -> Text<'a> {
        debug_assert!(facts::classify_scalar(s.as_bytes()) & facts::JSON_SAFE != 0);
        Text(Repr::Borrowed(Borrowed::new(s, false)))
    }

    /// A string that may need escaping, borrowed (the parser's decoded
    /// strings, copied into the document's arena).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    #[inline(always)]
    pub(super) fn unchecked(s: &'a str) -> Text<'a> {
        Text(Repr::Borrowed(Borrowed::new(s, true)))
    }

    /// An owned string.
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    #[inline(always)]
    pub(super) fn owned(s: Str) -> Text<'a> {
        Text(Repr::Owned(s))
    }

    /// The string.
    ///
    /// ```
    /// assert_eq!(ito::json::Text::from("a").as_str(), "a");
    /// ```
    #[inline(always)]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Borrowed(s) => s.get(),
            Repr::Owned(s) => s.as_str(),
        }
    }

    /// Whether the string borrows from the text it was parsed from (or
    /// from the `&str` it was made of, or, decoded, from the
    /// [`Arena`](super::Arena) of [`Value::from_slice_in`](super::Value::from_slice_in)).
    ///
    /// ```
    /// let v = ito::json::Value::from_str(r#"["a", "b\n"]"#).unwrap();
    /// assert!(v[0].as_text().unwrap().is_borrowed());
    /// assert!(!v[1].as_text().unwrap().is_borrowed()); // unescaped: owned
    /// ```
    #[inline(always)]
    pub fn is_borrowed(&self) -> bool {
        matches!(self.0, Repr::Borrowed(_))
    }

    /// The same string, owned (a borrowed string is copied into a `Str`:
    /// inline up to 23 bytes, else one allocation).
    ///
    /// ```
    /// let owned: ito::json::Text<'static> = ito::json::Text::from("a").into_owned();
    /// assert_eq!(owned, "a");
    /// ```
    pub fn into_owned(self) -> Text<'static> {
        match self.0 {
            Repr::Borrowed(s) => Text(Repr::Owned(Str::from_str_copy(s.get()))),
            Repr::Owned(s) => Text(Repr::Owned(s)),
        }
    }

    /// Whether dropping it frees memory (an owned string not stored inline).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    #[inline(always)]
    pub(super) fn owns_memory(&self) -> bool {
        match &self.0 {
            Repr::Borrowed(_) => false,
            Repr::Owned(s) => !s.is_inline(),
        }
    }

    /// Appends the string as a JSON string literal (serde_json's escaping).
    #[inline(always)]
    pub(super) fn render(&self, out: &mut Vec<u8>) {
        match &self.0 {
            Repr::Borrowed(s) if s.escape() => crate::json::quote(out, s.get()),
            Repr::Borrowed(s) => crate::json::emit::quoted_verbatim(out, s.get().as_bytes()),
            Repr::Owned(s) => crate::str::quote_str(out, s),
        }
    }
}

impl<'a> From<&'a str> for Text<'a> {
    /// Borrows `s` when it needs no escaping in JSON, else copies it.
    #[inline]
    fn from(s: &'a str) -> Text<'a> {
        if facts::classify(s.as_bytes()) & facts::JSON_SAFE != 0 {
            Text(Repr::Borrowed(Borrowed::new(s, false)))
        } else {
            Text(Repr::Owned(Str::from_str_copy(s)))
        }
    }
}

impl From<String> for Text<'_> {
    #[inline]
    fn from(s: String) -> Self {
        Text(Repr::Owned(Str::from(s)))
    }
}

impl From<&String> for Text<'_> {
    #[inline]
    fn from(s: &String) -> Self {
        Text(Repr::Owned(Str::from_str_copy(s)))
    }
}

impl From<Str> for Text<'_> {
    #[inline]
    fn from(s: Str) -> Self {
        Text(Repr::Owned(s))
    }
}

impl Deref for Text<'_> {
    type Target = str;
    #[inline(always)]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text<'_> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Text<'_> {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Text<'_> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text<'_> {}

impl PartialEq<str> for Text<'_> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl Hash for Text<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl fmt::Debug for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
