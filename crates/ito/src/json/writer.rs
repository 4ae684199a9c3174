//! [`Writer`]: a typed streaming JSON writer over a `&mut Vec<u8>`, for
//! rendering documents without serde.
//!
//! The types carry the structure, so the safe API can only produce valid
//! JSON:
//!
//! - a [`Writer`] is a slot for exactly one value: every method that writes
//!   a value takes it by value; dropped unused, it writes `null`;
//! - an [`Object`] takes a key and its value in one call
//!   ([`Object::field`]), or hands out a [`Writer`] slot, an `Object` or an
//!   [`Array`] for the value of one key; an [`Array`] likewise per element;
//! - a nested scope borrows its parent mutably, so the parent cannot be
//!   written to until the child is finished: scopes close in order;
//! - dropping a scope closes it (`}` or `]`); [`Object::end`] and
//!   [`Array::end`] say so explicitly.
//!
//! (`std::mem::forget` on a scope or slot skips its closing bytes: the
//! output is then not JSON, but nothing unsafe happens.)
//!
//! Tokens go through the emitter shared with ito's serde serializer: one
//! capacity check per token, then unchecked stores ([`Object::field`]
//! stores a clean key with an integer, bool, null or short clean string
//! value in one, and an object's `{` waits for its first member so that
//! both go in one store); strings through the SIMD escape kernels (or the
//! [`Options`] policies); a JSON-safe [`Str`] is copied without a scan;
//! integers by `itoa`, floats by `zmij` (serde_json's text; NaN and
//! infinities as `null`). Nothing is allocated besides the output `Vec`'s
//! growth.
//!
//! **Pass scopes to helper functions by value** (`fn user(mut o:
//! Object<'_>, u: &User)`, called as `user(parent.object("user"), u)`).
//! The escaping is a type parameter ([`Escaping`]; the default,
//! [`DefaultEscaping`], takes no space), so an [`Object`] or [`Array`] is
//! two words and travels in registers, with its output reference known
//! not to alias anything: the compiler then keeps the output's length in
//! a register across the helper's tokens. Through `&mut Object` it must
//! reload the length from the `Vec` after every store (about 10 % slower
//! on a whole document).
//!
//! Not built: pretty output (use the serializer's `to_vec_pretty`).

use std::borrow::Cow;
use std::mem::ManuallyDrop;

use super::emit::{self, Esc, Lead};
use super::{Options, RawJson};
use crate::Str;

mod sealed {
    pub trait Sealed {}
}

/// A value [`Writer`] can write in one call: strings (`str`, `String`,
/// [`Str`], `Cow<str>`, `char`), [`RawJson`], `bool`, `()` (as `null`),
/// every integer and float type, `Option<T>` (`None` as `null`), and
/// references to these. Sealed.
///
/// ```
/// use ito::json::Writer;
/// let mut out = Vec::new();
/// let mut a = Writer::new(&mut out).array();
/// a.push("s").push(1u8).push(-2i128).push(0.5f32).push(true).push(()).push(None::<u64>);
/// a.end();
/// assert_eq!(out, br#"["s",1,-2,0.5,true,null,null]"#);
/// ```
pub trait Scalar: sealed::Sealed {
    #[doc(hidden)]
    fn write_json(&self, out: &mut Vec<u8>, esc: Option<&Options>);

    /// An object member: `key` (after the object's `{` if `open`, else
    /// after a comma) and this value. Integers and literals store all of
    /// it with one reserve and one length update (the same bytes).
    #[doc(hidden)]
    #[inline(always)]
    fn write_field(&self, out: &mut Vec<u8>, open: bool, key: &str, esc: Option<&Options>) {
        emit::key_after(out, Lead::opening(open), key, esc);
        self.write_json(out, esc);
    }
}

/// A string [`Object`] can use as a key: `str`, `String`, [`Str`],
/// `Cow<str>`, `Box<str>`, and references to these. Sealed.
///
/// ```
/// use ito::json::Writer;
/// let mut out = Vec::new();
/// let mut o = Writer::new(&mut out).object();
/// o.field(ito::Str::from("id"), 1).field(String::from("k"), 2);
/// o.end();
/// assert_eq!(out, br#"{"id":1,"k":2}"#);
/// ```
pub trait Key: sealed::Sealed {
    #[doc(hidden)]
    /// `{` if `open`, else `,`; then the key and `:`.
    fn write_key(&self, out: &mut Vec<u8>, open: bool, esc: Option<&Options>);

    /// The key's text.
    #[doc(hidden)]
    fn key_str(&self) -> &str;
}

macro_rules! scalars {
    ($($t:ty => |$v:ident, $out:ident, $esc:ident| $body:expr;)*) => {$(
        impl sealed::Sealed for $t {}
        impl Scalar for $t {
            #[inline(always)]
            fn write_json(&self, $out: &mut Vec<u8>, $esc: Option<&Options>) {
                let $v = self;
                $body
            }
        }
    )*};
}

macro_rules! integers {
    ($($t:ty)*) => {$(
        impl sealed::Sealed for $t {}
        impl Scalar for $t {
            #[inline(always)]
            fn write_json(&self, out: &mut Vec<u8>, _esc: Option<&Options>) {
                emit::int(out, *self);
            }

            #[inline(always)]
            fn write_field(&self, out: &mut Vec<u8>, open: bool, key: &str, esc: Option<&Options>) {
                emit::key_int(out, Lead::opening(open), key, esc, *self);
            }
        }
    )*};
}

integers!(i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize);

macro_rules! strings {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Scalar for $t {
            #[inline(always)]
            fn write_json(&self, out: &mut Vec<u8>, esc: Option<&Options>) {
                emit::str(out, self, esc);
            }

            #[inline(always)]
            fn write_field(&self, out: &mut Vec<u8>, open: bool, key: &str, esc: Option<&Options>) {
                emit::key_str(out, Lead::opening(open), key, esc, self);
            }
        }
    )*};
}

strings!(str, String, Cow<'_, str>);

scalars! {
    Str => |v, out, e| emit::ito_str(out, v, e);
    char => |v, out, e| emit::str(out, v.encode_utf8(&mut [0; 4]), e);
    RawJson => |v, out, _e| out.extend_from_slice(v.as_bytes());
    f32 => |v, out, _e| emit::float(out, *v);
    f64 => |v, out, _e| emit::float(out, *v);
}

impl sealed::Sealed for bool {}
impl Scalar for bool {
    #[inline(always)]
    fn write_json(&self, out: &mut Vec<u8>, _esc: Option<&Options>) {
        emit::bool(out, *self);
    }

    #[inline(always)]
    fn write_field(&self, out: &mut Vec<u8>, open: bool, key: &str, esc: Option<&Options>) {
        let lit: &[u8] = if *self { b"true" } else { b"false" };
        emit::key_literal(out, Lead::opening(open), key, esc, lit);
    }
}

impl sealed::Sealed for () {}
impl Scalar for () {
    #[inline(always)]
    fn write_json(&self, out: &mut Vec<u8>, _esc: Option<&Options>) {
        emit::null(out);
    }

    #[inline(always)]
    fn write_field(&self, out: &mut Vec<u8>, open: bool, key: &str, esc: Option<&Options>) {
        emit::key_literal(out, Lead::opening(open), key, esc, b"null");
    }
}

impl<T: sealed::Sealed + ?Sized> sealed::Sealed for &T {}
impl<T: Scalar + ?Sized> Scalar for &T {
    #[inline(always)]
    fn write_json(&self, out: &mut Vec<u8>, esc: Option<&Options>) {
        (**self).write_json(out, esc)
    }

    #[inline(always)]
    fn write_field(&self, out: &mut Vec<u8>, open: bool, key: &str, esc: Option<&Options>) {
        (**self).write_field(out, open, key, esc)
    }
}

impl<T: sealed::Sealed + ?Sized> sealed::Sealed for Box<T> {}
impl<T: Scalar + ?Sized> Scalar for Box<T> {
    #[inline(always)]
    fn write_json(&self, out: &mut Vec<u8>, esc: Option<&Options>) {
        (**self).write_json(out, esc)
    }

    #[inline(always)]
    fn write_field(&self, out: &mut Vec<u8>, open: bool, key: &str, esc: Option<&Options>) {
        (**self).write_field(out, open, key, esc)
    }
}

impl<T: sealed::Sealed> sealed::Sealed for Option<T> {}
impl<T: Scalar> Scalar for Option<T> {
    #[inline(always)]
    fn write_json(&self, out: &mut Vec<u8>, esc: Option<&Options>) {
        match self {
            Some(v) => v.write_json(out, esc),
            None => emit::null(out),
        }
    }

    #[inline(always)]
    fn write_field(&self, out: &mut Vec<u8>, open: bool, key: &str, esc: Option<&Options>) {
        match self {
            Some(v) => v.write_field(out, open, key, esc),
            None => emit::key_literal(out, Lead::opening(open), key, esc, b"null"),
        }
    }
}

macro_rules! str_keys {
    ($($t:ty),*) => {$(
        impl Key for $t {
            #[inline(always)]
            fn write_key(&self, out: &mut Vec<u8>, open: bool, esc: Option<&Options>) {
                emit::key_after(out, Lead::opening(open), self, esc)
            }

            #[inline(always)]
            fn key_str(&self) -> &str {
                self
            }
        }
    )*};
}

str_keys!(str, String, Cow<'_, str>, Box<str>);

impl Key for Str {
    #[inline(always)]
    fn write_key(&self, out: &mut Vec<u8>, open: bool, esc: Option<&Options>) {
        if self.is_json_safe() && esc.is_none() {
            emit::byte(out, if open { b'{' } else { b',' });
            emit::quoted_verbatim(out, self.as_bytes());
            emit::byte(out, b':');
        } else {
            emit::key_after(out, Lead::opening(open), self, esc)
        }
    }

    #[inline(always)]
    fn key_str(&self) -> &str {
        self.as_str()
    }
}

impl<T: Key + ?Sized> Key for &T {
    #[inline(always)]
    fn write_key(&self, out: &mut Vec<u8>, open: bool, esc: Option<&Options>) {
        (**self).write_key(out, open, esc)
    }

    #[inline(always)]
    fn key_str(&self) -> &str {
        (**self).key_str()
    }
}

/// How a [`Writer`] and its scopes escape strings and keys, fixed by type
/// so that the default costs nothing to check: [`DefaultEscaping`]
/// (serde_json's bytes, the type parameters' default) or [`WithOptions`]
/// (an [`Options`] policy). Sealed.
///
/// A helper that should serve both takes the scope generically:
///
/// ```
/// use ito::json::{Escaping, Object, Options, Writer};
/// fn person<E: Escaping>(mut o: Object<'_, E>, name: &str) {
///     o.field("name", name);
/// }
/// let mut out = Vec::new();
/// person(Writer::new(&mut out).object(), "<b>");
/// person(Writer::with_options(&mut out, &Options::new().html_safe(true)).object(), "<b>");
/// assert_eq!(out, br#"{"name":"<b>"}{"name":"\u003cb\u003e"}"#);
/// ```
pub trait Escaping: Copy + sealed::Sealed {
    /// The options in force; `None` for the default escaping.
    #[doc(hidden)]
    fn esc(&self) -> Esc<'_>;
}

/// The default escaping: RFC 8259's minimal escapes through the SIMD
/// kernels, byte-identical with serde_json (see [`Escaping`]).
///
/// ```
/// use ito::json::{DefaultEscaping, Writer};
/// let mut out = Vec::new();
/// let w: Writer<'_, DefaultEscaping> = Writer::new(&mut out);
/// w.value("<\u{7f}>");
/// assert_eq!(out, "\"<\u{7f}>\"".as_bytes());
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultEscaping;

impl sealed::Sealed for DefaultEscaping {}
impl Escaping for DefaultEscaping {
    #[inline(always)]
    fn esc(&self) -> Esc<'_> {
        None
    }
}

/// Escaping under an [`Options`] policy, chosen by
/// [`Writer::with_options`] (see [`Escaping`]).
///
/// ```
/// use ito::json::{Options, WithOptions, Writer};
/// let mut out = Vec::new();
/// let opts = Options::new().ascii_only(true);
/// let w: Writer<'_, WithOptions<'_>> = Writer::with_options(&mut out, &opts);
/// w.value("é");
/// assert_eq!(out, br#""\u00e9""#);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct WithOptions<'a>(Esc<'a>);

impl sealed::Sealed for WithOptions<'_> {}
impl Escaping for WithOptions<'_> {
    #[inline(always)]
    fn esc(&self) -> Esc<'_> {
        self.0
    }
}

/// A slot for exactly one JSON value, appended to a `Vec<u8>`.
///
/// Every method writes the value and consumes the slot. A slot dropped
/// unused writes `null`, so the output is always one complete value. The
/// [`Object`] and [`Array`] scopes it opens borrow their parent mutably
/// and close on drop, so scopes close in order and the safe API can only
/// produce valid JSON.
///
/// ```
/// use ito::json::Writer;
/// let mut out = Vec::new();
/// let mut event = Writer::new(&mut out).object();
/// event.field("kind", 1).field("content", "hi \"there\"");
/// let mut tags = event.array("tags");
/// tags.array().push("p").push("ab01");
/// tags.end();
/// event.end();
/// assert_eq!(out, br#"{"kind":1,"content":"hi \"there\"","tags":[["p","ab01"]]}"#);
///
/// let mut out = Vec::new();
/// Writer::new(&mut out).value(f64::NAN);
/// assert_eq!(out, b"null");
/// ```
#[must_use = "a Writer writes `null` when dropped unused"]
pub struct Writer<'a, E: Escaping = DefaultEscaping> {
    out: &'a mut Vec<u8>,
    esc: E,
}

impl<'a> Writer<'a> {
    /// A slot whose value is appended to `out`, with the default (serde_json)
    /// escaping.
    ///
    /// ```
    /// let mut out = b"prefix ".to_vec();
    /// ito::json::Writer::new(&mut out).value("x");
    /// assert_eq!(out, br#"prefix "x""#);
    /// ```
    #[inline]
    pub fn new(out: &'a mut Vec<u8>) -> Self {
        Writer {
            out,
            esc: DefaultEscaping,
        }
    }
}

impl<'a> Writer<'a, WithOptions<'a>> {
    /// A slot that escapes every string and key under `options` (ASCII-only,
    /// HTML-safe, …).
    ///
    /// ```
    /// use ito::json::{Options, Writer};
    /// let mut out = Vec::new();
    /// let opts = Options::new().html_safe(true);
    /// Writer::with_options(&mut out, &opts).array().push("<b>");
    /// assert_eq!(out, br#"["\u003cb\u003e"]"#);
    /// ```
    #[inline]
    pub fn with_options(out: &'a mut Vec<u8>, options: &'a Options) -> Self {
        Writer {
            out,
            esc: WithOptions(emit::esc(options)),
        }
    }
}

impl<'a, E: Escaping> Writer<'a, E> {
    /// Disarms the drop guard and hands out the parts.
    #[inline(always)]
    pub(crate) fn take(self) -> (&'a mut Vec<u8>, E) {
        let me = ManuallyDrop::new(self);
        // SAFETY: `me` is never used or dropped again, so reading the
        // reference out of it moves it.
        (unsafe { std::ptr::read(&me.out) }, me.esc)
    }

    /// Writes one scalar value (see [`Scalar`]).
    ///
    /// ```
    /// let mut out = Vec::new();
    /// ito::json::Writer::new(&mut out).value(u64::MAX);
    /// assert_eq!(out, b"18446744073709551615");
    /// ```
    #[inline]
    pub fn value(self, v: impl Scalar) {
        let (out, esc) = self.take();
        v.write_json(out, esc.esc());
    }

    /// Writes `null`.
    ///
    /// ```
    /// let mut out = Vec::new();
    /// ito::json::Writer::new(&mut out).null();
    /// assert_eq!(out, b"null");
    /// ```
    #[inline]
    pub fn null(self) {
        let (out, _) = self.take();
        emit::null(out);
    }

    /// Starts an object (closed when the [`Object`] is dropped or ended).
    ///
    /// ```
    /// let mut out = Vec::new();
    /// ito::json::Writer::new(&mut out).object().field("a", 1);
    /// assert_eq!(out, br#"{"a":1}"#);
    /// ```
    #[inline]
    pub fn object(self) -> Object<'a, E> {
        // The `{` is written with the first member (one store for both),
        // or with the `}` of an empty object.
        let (out, esc) = self.take();
        Object {
            out,
            esc,
            open: true,
        }
    }

    /// Starts an array (closed when the [`Array`] is dropped or ended).
    ///
    /// ```
    /// let mut out = Vec::new();
    /// ito::json::Writer::new(&mut out).array().push(1).push(2);
    /// assert_eq!(out, b"[1,2]");
    /// ```
    #[inline]
    pub fn array(self) -> Array<'a, E> {
        let (out, esc) = self.take();
        emit::byte(out, b'[');
        Array {
            out,
            esc,
            first: true,
        }
    }
}

impl<E: Escaping> Drop for Writer<'_, E> {
    fn drop(&mut self) {
        emit::null(self.out);
    }
}

/// An open JSON object; writes `}` when dropped (or [`ended`](Object::end)).
///
/// ```
/// use ito::json::Writer;
/// let mut out = Vec::new();
/// {
///     let mut o = Writer::new(&mut out).object();
///     o.field("n", 1.5);
///     o.key("nested").object().field("ok", true);
///     o.key("unset"); // an unused slot: null
/// }
/// assert_eq!(out, br#"{"n":1.5,"nested":{"ok":true},"unset":null}"#);
/// ```
#[must_use = "an Object closes as soon as it is dropped"]
pub struct Object<'a, E: Escaping = DefaultEscaping> {
    out: &'a mut Vec<u8>,
    esc: E,
    /// No member yet, so the `{` is still to be written.
    open: bool,
}

impl<E: Escaping> Object<'_, E> {
    #[inline(always)]
    fn put_key(&mut self, key: impl Key) {
        key.write_key(self.out, self.open, self.esc.esc());
        self.open = false;
    }

    /// Writes `key` and a scalar value.
    ///
    /// ```
    /// let mut out = Vec::new();
    /// ito::json::Writer::new(&mut out).object().field("id", "ab").field("n", 2);
    /// assert_eq!(out, br#"{"id":"ab","n":2}"#);
    /// ```
    #[inline(always)]
    pub fn field(&mut self, key: impl Key, value: impl Scalar) -> &mut Self {
        value.write_field(self.out, self.open, key.key_str(), self.esc.esc());
        self.open = false;
        self
    }

    /// Writes `key` and returns the slot for its value (an unused slot
    /// writes `null`).
    ///
    /// ```
    /// let mut out = Vec::new();
    /// let mut o = ito::json::Writer::new(&mut out).object();
    /// o.key("list").array().push(1);
    /// o.end();
    /// assert_eq!(out, br#"{"list":[1]}"#);
    /// ```
    #[inline]
    pub fn key(&mut self, key: impl Key) -> Writer<'_, E> {
        self.put_key(key);
        Writer {
            out: self.out,
            esc: self.esc,
        }
    }

    /// Writes `key` and starts an object as its value.
    ///
    /// ```
    /// let mut out = Vec::new();
    /// ito::json::Writer::new(&mut out).object().object("o").field("a", ());
    /// assert_eq!(out, br#"{"o":{"a":null}}"#);
    /// ```
    #[inline]
    pub fn object(&mut self, key: impl Key) -> Object<'_, E> {
        self.key(key).object()
    }

    /// Writes `key` and starts an array as its value.
    ///
    /// ```
    /// let mut out = Vec::new();
    /// ito::json::Writer::new(&mut out).object().array("a").push("x");
    /// assert_eq!(out, br#"{"a":["x"]}"#);
    /// ```
    #[inline]
    pub fn array(&mut self, key: impl Key) -> Array<'_, E> {
        self.key(key).array()
    }

    /// Closes the object (the same as dropping it).
    ///
    /// ```
    /// let mut out = Vec::new();
    /// ito::json::Writer::new(&mut out).object().end();
    /// assert_eq!(out, b"{}");
    /// ```
    #[inline]
    pub fn end(self) {}
}

impl<E: Escaping> Drop for Object<'_, E> {
    #[inline]
    fn drop(&mut self) {
        if self.open {
            self.out.extend_from_slice(b"{}");
        } else {
            emit::byte(self.out, b'}');
        }
    }
}

/// An open JSON array; writes `]` when dropped (or [`ended`](Array::end)).
///
/// ```
/// use ito::json::Writer;
/// let mut out = Vec::new();
/// let mut a = Writer::new(&mut out).array();
/// a.push(1).extend(["two", "three"]);
/// a.object().field("four", 4);
/// a.slot().array();
/// a.end();
/// assert_eq!(out, br#"[1,"two","three",{"four":4},[]]"#);
/// ```
#[must_use = "an Array closes as soon as it is dropped"]
pub struct Array<'a, E: Escaping = DefaultEscaping> {
    out: &'a mut Vec<u8>,
    esc: E,
    first: bool,
}

impl<E: Escaping> Array<'_, E> {
    #[inline(always)]
    fn comma(&mut self) {
        if !self.first {
            emit::byte(self.out, b',');
        }
        self.first = false;
    }

    /// Appends a scalar element.
    ///
    /// ```
    /// let mut out = Vec::new();
    /// ito::json::Writer::new(&mut out).array().push('c').push(-0.0);
    /// assert_eq!(out, br#"["c",-0.0]"#);
    /// ```
    #[inline(always)]
    pub fn push(&mut self, value: impl Scalar) -> &mut Self {
        self.comma();
        value.write_json(self.out, self.esc.esc());
        self
    }

    /// Appends every item of `items` as an element.
    ///
    /// ```
    /// let mut out = Vec::new();
    /// ito::json::Writer::new(&mut out).array().extend(1..=3);
    /// assert_eq!(out, b"[1,2,3]");
    /// ```
    #[inline]
    pub fn extend<I>(&mut self, items: I) -> &mut Self
    where
        I: IntoIterator,
        I::Item: Scalar,
    {
        for item in items {
            self.push(item);
        }
        self
    }

    /// The slot for the next element (an unused slot writes `null`).
    ///
    /// ```
    /// let mut out = Vec::new();
    /// let mut a = ito::json::Writer::new(&mut out).array();
    /// a.slot().value(1);
    /// let _ = a.slot();
    /// a.end();
    /// assert_eq!(out, b"[1,null]");
    /// ```
    #[inline]
    pub fn slot(&mut self) -> Writer<'_, E> {
        self.comma();
        Writer {
            out: self.out,
            esc: self.esc,
        }
    }

    /// Starts an object as the next element.
    ///
    /// ```
    /// let mut out = Vec::new();
    /// ito::json::Writer::new(&mut out).array().object().field("a", 1);
    /// assert_eq!(out, br#"[{"a":1}]"#);
    /// ```
    #[inline]
    pub fn object(&mut self) -> Object<'_, E> {
        self.slot().object()
    }

    /// Starts an array as the next element.
    ///
    /// ```
    /// let mut out = Vec::new();
    /// ito::json::Writer::new(&mut out).array().array().push(1);
    /// assert_eq!(out, b"[[1]]");
    /// ```
    #[inline]
    pub fn array(&mut self) -> Array<'_, E> {
        self.slot().array()
    }

    /// Closes the array (the same as dropping it).
    ///
    /// ```
    /// let mut out = Vec::new();
    /// ito::json::Writer::new(&mut out).array().end();
    /// assert_eq!(out, b"[]");
    /// ```
    #[inline]
    pub fn end(self) {}
}

impl<E: Escaping> Drop for Array<'_, E> {
    #[inline]
    fn drop(&mut self) {
        emit::byte(self.out, b']');
    }
}
