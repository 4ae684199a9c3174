//! A serde serializer for JSON documents, byte-identical with serde_json
//! (compact, and pretty with two-space indentation), on ito's string
//! kernels. Behind the `serde` feature.
//!
//! ```
//! #[derive(serde::Serialize)]
//! struct Event<'a> { id: &'a str, kind: u16, tags: Vec<Vec<&'a str>>, score: f64 }
//!
//! let e = Event { id: "ab", kind: 1, tags: vec![vec!["p", "cd"]], score: 0.5 };
//! let json = ito::json::to_vec(&e).unwrap();
//! assert_eq!(json, br#"{"id":"ab","kind":1,"tags":[["p","cd"]],"score":0.5}"#);
//! assert_eq!(json, serde_json::to_vec(&e).unwrap());
//! ```
//!
//! # How it works
//!
//! The structure walk is serde_json's, state for state (so even unusual
//! `Serialize` impls produce the same bytes); the tokens come from the
//! emitter [`Writer`](super::Writer) also uses. Output always goes into a
//! `Vec<u8>`, never through one `io::Write` call per token:
//!
//! ```text
//! struct field:  `,"name":` in one reserve (clean names as overlapping
//!                words), then the value; an integer value in the same
//!                reserve; the struct's `{` is stored with its first key
//! output:        to_vec owns its Vec (see `Output`): within a struct the
//!                length stays in a register
//! string:        json::quote (SIMD); a JSON-safe Str: one memcpy
//! number:        itoa / zmij into a stack buffer, one reserve, one copy
//! to_writer:     the same into a reused per-thread buffer, handed to the
//!                writer every 64 KiB at element boundaries and at the end
//! ```
//!
//! Pretty output is the same walker with a `const PRETTY: bool` parameter,
//! so compact output carries no pretty-printing branches.
//!
//! [`Str`](crate::Str) recognises this serializer (by the `TypeId` of the
//! serializer type, lifetimes erased) and hands a JSON-safe string over
//! without a scan; every other serializer sees `serialize_str`.
//! [`RawJson`] is passed as a newtype struct with a private name that only
//! this serializer understands (as serde_json does for `RawValue`): here it
//! is written verbatim, elsewhere it is its text as a string.
//!
//! serde_json's own markers (a `Number` under its `arbitrary_precision`
//! feature, a `RawValue` under `raw_value`) are spoken too: their text is
//! written verbatim, as serde_json writes it (see `serde_json_markers`).

mod error;
mod key;
mod raw;
mod serde_json_markers;

use std::cell::Cell;
use std::fmt;
use std::io;

use serde::ser::{self, Serialize};

pub use error::{Category, Error};

use super::emit::{self, Esc, Lead};
use super::{Options, RawJson};
use serde_json_markers::Marker;

/// A serializer that appends JSON to a `Vec<u8>`; `PRETTY` selects
/// serde_json's pretty layout (two-space indentation).
///
/// Use it through [`to_vec`] and friends, or directly with any serde glue:
///
/// ```
/// use serde::Serialize;
/// let mut out = b"data: ".to_vec();
/// vec![1, 2].serialize(&mut ito::json::Serializer::new(&mut out)).unwrap();
/// assert_eq!(out, b"data: [1,2]");
///
/// let mut out = Vec::new();
/// let opts = ito::json::Options::new().ascii_only(true);
/// "é".serialize(&mut ito::json::Serializer::pretty(&mut out).with_options(&opts)).unwrap();
/// assert_eq!(out, br#""\u00e9""#);
///
/// // Owning its vector (faster, see [`Output`]), e.g. a buffer reused
/// // across documents:
/// let mut ser = ito::json::Serializer::from_vec(b"data: ".to_vec());
/// vec![1, 2].serialize(&mut ser).unwrap();
/// assert_eq!(ser.into_inner(), b"data: [1,2]");
/// ```
pub struct Serializer<'a, const PRETTY: bool = false, O: Output = &'a mut Vec<u8>> {
    /// The output.
    out: O,
    esc: Esc<'a>,
    /// Pretty only: the current indentation level.
    depth: usize,
    /// Pretty only: whether the innermost open container has a value
    /// (serde_json's `PrettyFormatter::has_value`).
    has_value: bool,
    /// `to_writer`: where full chunks go.
    sink: Option<&'a mut dyn io::Write>,
    /// Flush to `sink` once `out` is this long (`usize::MAX` without one).
    flush_at: usize,
}

impl<'a> Serializer<'a, false> {
    /// A compact serializer appending to `out`.
    ///
    /// ```
    /// use serde::Serialize;
    /// let mut out = Vec::new();
    /// (1, "a").serialize(&mut ito::json::Serializer::new(&mut out)).unwrap();
    /// assert_eq!(out, br#"[1,"a"]"#);
    /// ```
    #[inline]
    pub fn new(out: &'a mut Vec<u8>) -> Self {
        Serializer::with_parts(out, None, None)
    }
}

impl<'a> Serializer<'a, false, Vec<u8>> {
    /// A compact serializer appending to `out`, which it owns until
    /// [`into_inner`](Serializer::into_inner): the faster form (see
    /// [`Output`]), what [`to_vec`] uses.
    ///
    /// ```
    /// use serde::Serialize;
    /// let mut buf = Vec::with_capacity(1024);
    /// for doc in [[1, 2], [3, 4]] {
    ///     buf.clear();
    ///     let mut ser = ito::json::Serializer::from_vec(buf);
    ///     doc.serialize(&mut ser).unwrap();
    ///     buf = ser.into_inner();
    ///     assert_eq!(buf.len(), 5);
    /// }
    /// assert_eq!(buf, b"[3,4]");
    /// ```
    #[inline]
    pub fn from_vec(out: Vec<u8>) -> Self {
        Serializer::with_parts(out, None, None)
    }
}

impl<'a> Serializer<'a, true, Vec<u8>> {
    /// A pretty serializer owning `out` (see [`from_vec`](Serializer::from_vec)).
    ///
    /// ```
    /// use serde::Serialize;
    /// let mut ser = ito::json::Serializer::pretty_from_vec(Vec::new());
    /// [1].serialize(&mut ser).unwrap();
    /// assert_eq!(ser.into_inner(), b"[\n  1\n]");
    /// ```
    #[inline]
    pub fn pretty_from_vec(out: Vec<u8>) -> Self {
        Serializer::with_parts(out, None, None)
    }
}

impl<const PRETTY: bool> Serializer<'_, PRETTY, Vec<u8>> {
    /// The vector, with everything serialized so far appended.
    ///
    /// ```
    /// use serde::Serialize;
    /// let mut ser = ito::json::Serializer::from_vec(Vec::new());
    /// "a".serialize(&mut ser).unwrap();
    /// assert_eq!(ser.into_inner(), br#""a""#);
    /// ```
    #[inline]
    pub fn into_inner(self) -> Vec<u8> {
        self.out
    }
}

impl<'a> Serializer<'a, true> {
    /// A pretty serializer (serde_json's `to_vec_pretty` layout) appending
    /// to `out`.
    ///
    /// ```
    /// use serde::Serialize;
    /// let mut out = Vec::new();
    /// [1, 2].serialize(&mut ito::json::Serializer::pretty(&mut out)).unwrap();
    /// assert_eq!(out, b"[\n  1,\n  2\n]");
    /// ```
    #[inline]
    pub fn pretty(out: &'a mut Vec<u8>) -> Self {
        Serializer::with_parts(out, None, None)
    }
}

/// Where a [`Serializer`] writes: the `&mut Vec<u8>` given to
/// [`Serializer::new`] (the default), or a `Vec<u8>` the serializer owns
/// ([`Serializer::from_vec`], what [`to_vec`] uses; [`to_writer`]
/// stages its chunks in one too). Sealed. All write the same bytes.
///
/// Owning the vector is faster: its length and capacity are then fields
/// of the serializer itself, which (`&mut Serializer` being a unique
/// borrow) the compiler knows no byte stored into the output can change,
/// so within a struct the length stays in a register instead of being
/// stored and reloaded around every token. Through a borrowed
/// `&mut Vec<u8>` it cannot know that. (citm_catalog typed: 4.6 % fewer
/// instructions, about 7 % less time.)
///
/// ```
/// use serde::Serialize;
/// let mut borrowed = Vec::new();
/// let v = (1, "a");
/// v.serialize(&mut ito::json::Serializer::new(&mut borrowed)).unwrap();
/// let mut owning = ito::json::Serializer::from_vec(Vec::new());
/// v.serialize(&mut owning).unwrap();
/// assert_eq!(owning.into_inner(), borrowed);
/// ```
///
/// Code generic over either form names the trait (also re-exported as
/// `ito::json::Output`):
///
/// ```
/// use ito::json::{Output, Serializer};
/// use serde::Serialize;
///
/// fn pair<O: Output>(ser: &mut Serializer<'_, false, O>) -> Result<(), ito::json::ser::Error> {
///     (1, "a").serialize(ser)
/// }
/// let mut out = Vec::new();
/// pair(&mut Serializer::new(&mut out)).unwrap();
/// let mut owning = Serializer::from_vec(Vec::new());
/// pair(&mut owning).unwrap();
/// assert_eq!(owning.into_inner(), out);
/// assert_eq!(out, br#"[1,"a"]"#);
/// ```
pub trait Output: sealed::Sealed {}

impl Output for &mut Vec<u8> {}
impl Output for Vec<u8> {}
impl Output for sealed::Staged {}

mod sealed {
    pub trait Sealed {
        /// `to_writer`'s staging buffer: the only output that is handed
        /// to a writer in chunks (the chunk test is compiled out of every
        /// other serializer).
        const STAGED: bool = false;

        /// The vector written to.
        fn vec(&mut self) -> &mut Vec<u8>;
    }

    /// `to_writer`'s staging buffer.
    pub(super) struct Staged(pub(super) Vec<u8>);

    impl Sealed for Staged {
        const STAGED: bool = true;

        #[inline(always)]
        fn vec(&mut self) -> &mut Vec<u8> {
            &mut self.0
        }
    }

    impl Sealed for &mut Vec<u8> {
        #[inline(always)]
        fn vec(&mut self) -> &mut Vec<u8> {
            self
        }
    }

    impl Sealed for Vec<u8> {
        #[inline(always)]
        fn vec(&mut self) -> &mut Vec<u8> {
            self
        }
    }
}

/// Where `to_writer` stops to hand a chunk to the writer.
const CHUNK: usize = 64 << 10;

impl<'a, const PRETTY: bool, O: Output> Serializer<'a, PRETTY, O> {
    #[inline]
    fn with_parts(out: O, esc: Esc<'a>, sink: Option<&'a mut dyn io::Write>) -> Self {
        let flush_at = if sink.is_some() { CHUNK } else { usize::MAX };
        Serializer {
            out,
            esc,
            depth: 0,
            has_value: false,
            sink,
            flush_at,
        }
    }

    /// Escapes every string and key under `options` (see [`Options`]).
    ///
    /// ```
    /// use serde::Serialize;
    /// let opts = ito::json::Options::new().escape_slash(true);
    /// let mut out = Vec::new();
    /// "</a>".serialize(&mut ito::json::Serializer::new(&mut out).with_options(&opts)).unwrap();
    /// assert_eq!(out, br#""<\/a>""#);
    /// ```
    #[must_use]
    pub fn with_options(mut self, options: &'a Options) -> Self {
        self.esc = emit::esc(options);
        self
    }

    #[inline(always)]
    fn begin(&mut self, open: u8) {
        if PRETTY {
            self.depth += 1;
            self.has_value = false;
        }
        emit::byte(self.out.vec(), open);
    }

    #[inline(always)]
    fn end(&mut self, close: u8) {
        if PRETTY {
            self.depth -= 1;
            if self.has_value {
                emit::newline_indent(self.out.vec(), true, self.depth);
            }
        }
        emit::byte(self.out.vec(), close);
    }

    /// What precedes an array element (or a map key that is not a plain
    /// string): `,` or the pretty newline and indentation.
    #[inline(always)]
    fn separator(&mut self, first: bool) {
        if PRETTY {
            emit::newline_indent(self.out.vec(), first, self.depth);
        } else if !first {
            emit::byte(self.out.vec(), b',');
        }
    }

    /// What follows a key.
    #[inline(always)]
    fn colon(&mut self) {
        if PRETTY {
            emit::bytes(self.out.vec(), b": ");
        } else {
            emit::byte(self.out.vec(), b':');
        }
    }

    /// A string key with its separator and colon.
    #[inline(always)]
    fn str_key(&mut self, first: bool, k: &str) {
        self.str_key_after(Lead::after(first), k);
    }

    /// A string key after `lead` (pretty output: a lead other than
    /// `NONE` is not the first key; `BRACE` does not occur).
    #[inline(always)]
    fn str_key_after(&mut self, lead: Lead, k: &str) {
        if PRETTY {
            emit::newline_indent(self.out.vec(), lead == Lead::NONE, self.depth);
            emit::str(self.out.vec(), k, self.esc);
            emit::bytes(self.out.vec(), b": ");
        } else {
            emit::key_after(self.out.vec(), lead, k, self.esc);
        }
    }

    /// After each element or member: note it (pretty) and hand a full
    /// chunk to the writer (`to_writer`).
    #[inline(always)]
    fn value_done(&mut self) -> Result<(), Error> {
        if PRETTY {
            self.has_value = true;
        }
        if O::STAGED && self.out.vec().len() >= self.flush_at {
            return self.flush();
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn flush(&mut self) -> Result<(), Error> {
        if let Some(sink) = self.sink.as_mut() {
            sink.write_all(self.out.vec()).map_err(Error::io)?;
            self.out.vec().clear();
        }
        Ok(())
    }

    /// `{"variant":` — the wrapper of the externally tagged enum variants.
    #[inline]
    fn begin_variant(&mut self, variant: &'static str) {
        self.begin(b'{');
        self.str_key(true, variant);
    }

    /// Closes the wrapper opened by `begin_variant`.
    #[inline]
    fn end_variant(&mut self) {
        if PRETTY {
            self.has_value = true;
        }
        self.end(b'}');
    }

    /// A JSON-safe string, copied without a scan (the `Str` hook).
    #[inline]
    pub(crate) fn write_safe_str(&mut self, s: &str) {
        emit::safe_str(self.out.vec(), s, self.esc);
    }
}

/// The state of an open array or object, returned by the [`Serializer`]'s
/// `serialize_seq`, `serialize_map`, `serialize_struct` and their
/// relatives (serde's `SerializeSeq`, `SerializeMap`, … traits).
///
/// ```
/// use serde::ser::{SerializeMap, Serializer as _};
/// let mut out = Vec::new();
/// let mut ser = ito::json::Serializer::new(&mut out);
/// let mut map = (&mut ser).serialize_map(None)?; // a Compound
/// map.serialize_entry("a", &1)?;
/// map.serialize_entry("b", &[true])?;
/// map.end()?;
/// assert_eq!(out, br#"{"a":1,"b":[true]}"#);
/// # Ok::<(), ito::json::ser::Error>(())
/// ```
pub struct Compound<'s, 'a, const PRETTY: bool, O: Output = &'a mut Vec<u8>> {
    ser: &'s mut Serializer<'a, PRETTY, O>,
    state: State,
}

/// serde_json's states (a container declared empty was closed at once),
/// and `Brace`: a compact struct whose `{` is not written yet, because
/// the first field stores it with its key (`{"key":` in one step).
/// `Number` and `RawValue`: a serde_json marker struct awaiting its text;
/// `NumberDone` and `RawValueDone`: one whose text is written (nothing
/// opened, nothing to close).
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Empty,
    First,
    Rest,
    Brace,
    Number,
    RawValue,
    NumberDone,
    RawValueDone,
}

impl State {
    /// Whether this is a serde_json marker struct (one test per field:
    /// the four marker states are the last).
    #[inline(always)]
    fn is_marker(self) -> bool {
        self as u8 >= State::Number as u8
    }
}

impl<'s, 'a, const P: bool, O: Output> Compound<'s, 'a, P, O> {
    #[inline(always)]
    fn open(ser: &'s mut Serializer<'a, P, O>, open: u8, close: u8, len: Option<usize>) -> Self {
        if !P && len == Some(0) {
            // citm's many empty arrays: `[]` as one two-byte store.
            emit::bytes(ser.out.vec(), &[open, close]);
            return Compound {
                ser,
                state: State::Empty,
            };
        }
        ser.begin(open);
        let state = if len == Some(0) {
            ser.end(close);
            State::Empty
        } else {
            State::First
        };
        Compound { ser, state }
    }

    /// A struct (`{` and `}`): in compact output the `{` is deferred to
    /// the first field (state `Brace`).
    #[inline(always)]
    fn open_struct(ser: &'s mut Serializer<'a, P, O>, len: usize) -> Self {
        if !P && len != 0 {
            return Compound {
                ser,
                state: State::Brace,
            };
        }
        Compound::open(ser, b'{', b'}', Some(len))
    }

    #[inline(always)]
    fn take_first(&mut self) -> bool {
        let first = self.state == State::First;
        self.state = State::Rest;
        first
    }

    /// What precedes the next struct field: `{` (deferred), nothing, `,`.
    #[inline(always)]
    fn take_lead(&mut self) -> Lead {
        let lead = match self.state {
            State::Brace => Lead::BRACE,
            State::First => Lead::NONE,
            // Marker states never reach here (`serialize_field`).
            State::Empty
            | State::Rest
            | State::Number
            | State::RawValue
            | State::NumberDone
            | State::RawValueDone => Lead::COMMA,
        };
        self.state = State::Rest;
        lead
    }

    #[inline(always)]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        let first = self.take_first();
        self.ser.separator(first);
        value.serialize(&mut *self.ser)?;
        self.ser.value_done()
    }

    #[inline(always)]
    fn field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
        let lead = self.take_lead();
        // An integer field in compact output: `,"key":123` with one
        // reserve and one length update (the TypeId tests are constants,
        // folded away for every other `T`). The bytes are those of
        // `value.serialize`, which for these types is `serialize_{i,u}N`
        // (`usize`/`isize` as 64-bit) and so `emit::int`.
        macro_rules! int_field {
            ($($t:ty),*) => {$(
                if !P && typeid::of::<T>() == typeid::of::<$t>() {
                    // SAFETY: `T` is `$t` (equal TypeIds; these types have
                    // no lifetimes), so `value` points to a valid `$t`.
                    let v = unsafe { *(value as *const T).cast::<$t>() };
                    emit::key_int(self.ser.out.vec(), lead, key, self.ser.esc, v);
                    return self.ser.value_done();
                }
            )*};
        }
        int_field!(u64, u32, i64, i32, u16, i16, u8, i8, usize, isize, u128, i128);
        // A bool field likewise (`serialize_bool`: `emit::bool`'s bytes).
        if !P && typeid::of::<T>() == typeid::of::<bool>() {
            // SAFETY: `T` is `bool` (equal TypeIds), so `value` points to
            // a valid `bool`.
            let v = unsafe { *(value as *const T).cast::<bool>() };
            let lit: &[u8] = if v { b"true" } else { b"false" };
            emit::key_literal(self.ser.out.vec(), lead, key, self.ser.esc, lit);
            return self.ser.value_done();
        }
        // A String or &str field (`serialize_str`: `emit::str`'s bytes),
        // short clean values stored with the key.
        if !P && typeid::of::<T>() == typeid::of::<String>() {
            // SAFETY: `T` is `String` (equal TypeIds), so `value` points
            // to a valid `String`.
            let v = unsafe { &*(value as *const T).cast::<String>() };
            emit::key_str(self.ser.out.vec(), lead, key, self.ser.esc, v);
            return self.ser.value_done();
        }
        if !P && typeid::of::<T>() == typeid::of::<&str>() {
            // SAFETY: `T` is `&str` (equal TypeIds up to the erased
            // lifetime, which a read for the duration of this call does
            // not depend on), so `value` points to a valid `&str`.
            let v = unsafe { *(value as *const T).cast::<&str>() };
            emit::key_str(self.ser.out.vec(), lead, key, self.ser.esc, v);
            return self.ser.value_done();
        }
        // A `Str` field: copied with the key when known to need no
        // escaping (what `Str`'s `Serialize` writes through
        // `serialize_json_safe_str`), else as a `String` field.
        if !P && typeid::of::<T>() == typeid::of::<crate::Str>() {
            // SAFETY: `T` is `Str` (equal TypeIds; `Str` has no
            // lifetimes), so `value` points to a valid `Str`.
            let v = unsafe { &*(value as *const T).cast::<crate::Str>() };
            if v.is_json_safe() {
                emit::key_safe_str(self.ser.out.vec(), lead, key, self.ser.esc, v);
            } else {
                emit::key_str(self.ser.out.vec(), lead, key, self.ser.esc, v);
            }
            return self.ser.value_done();
        }
        self.ser.str_key_after(lead, key);
        value.serialize(&mut *self.ser)?;
        self.ser.value_done()
    }

    #[inline(always)]
    fn close(mut self, close: u8) -> Result<(), Error> {
        self.close_in_place(close);
        Ok(())
    }

    #[inline(always)]
    fn close_in_place(&mut self, close: u8) {
        match self.state {
            State::Empty | State::NumberDone | State::RawValueDone => {}
            // A struct that wrote none of the fields it announced.
            State::Brace => emit::bytes(self.ser.out.vec(), b"{}"),
            State::First | State::Rest => self.ser.end(close),
            // Refused by `SerializeStruct::end` before it gets here.
            State::Number | State::RawValue => {}
        }
    }

    /// The marker a marker state awaits (`None` once its text is written).
    fn awaited_marker(&self) -> Option<Marker> {
        match self.state {
            State::Number => Some(Marker::Number),
            State::RawValue => Some(Marker::RawValue),
            _ => None,
        }
    }

    /// A field of a serde_json marker struct: the one field named as the
    /// marker writes its text; anything else is refused.
    #[cold]
    #[inline(never)]
    fn marker_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        let (marker, done) = match self.state {
            State::Number => (Marker::Number, State::NumberDone),
            State::RawValue => (Marker::RawValue, State::RawValueDone),
            // A second field after the text.
            State::NumberDone => return Err(Marker::Number.error()),
            _ => return Err(Marker::RawValue.error()),
        };
        if key != marker.field() {
            return Err(marker.error());
        }
        value.serialize(serde_json_markers::Text {
            out: self.ser.out.vec(),
            marker,
        })?;
        self.state = done;
        Ok(())
    }
}

impl<'s, 'a, const P: bool, O: Output> ser::Serializer for &'s mut Serializer<'a, P, O> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'s, 'a, P, O>;
    type SerializeTuple = Compound<'s, 'a, P, O>;
    type SerializeTupleStruct = Compound<'s, 'a, P, O>;
    type SerializeTupleVariant = Compound<'s, 'a, P, O>;
    type SerializeMap = Compound<'s, 'a, P, O>;
    type SerializeStruct = Compound<'s, 'a, P, O>;
    type SerializeStructVariant = Compound<'s, 'a, P, O>;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        emit::bool(self.out.vec(), v);
        Ok(())
    }

    #[inline]
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        emit::int(self.out.vec(), v);
        Ok(())
    }

    #[inline]
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        emit::int(self.out.vec(), v);
        Ok(())
    }

    #[inline]
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        emit::int(self.out.vec(), v);
        Ok(())
    }

    #[inline]
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        emit::int(self.out.vec(), v);
        Ok(())
    }

    #[inline]
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        emit::int(self.out.vec(), v);
        Ok(())
    }

    #[inline]
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        emit::int(self.out.vec(), v);
        Ok(())
    }

    #[inline]
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        emit::int(self.out.vec(), v);
        Ok(())
    }

    #[inline]
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        emit::int(self.out.vec(), v);
        Ok(())
    }

    #[inline]
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        emit::int(self.out.vec(), v);
        Ok(())
    }

    #[inline]
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        emit::int(self.out.vec(), v);
        Ok(())
    }

    #[inline]
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        emit::float(self.out.vec(), v);
        Ok(())
    }

    #[inline]
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        emit::float(self.out.vec(), v);
        Ok(())
    }

    #[inline]
    fn serialize_char(self, v: char) -> Result<(), Error> {
        emit::str(self.out.vec(), v.encode_utf8(&mut [0; 4]), self.esc);
        Ok(())
    }

    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        emit::str(self.out.vec(), v, self.esc);
        Ok(())
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        // serde_json writes bytes as an array of numbers.
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for b in v {
            seq.serialize_element(b)?;
        }
        seq.end()
    }

    #[inline]
    fn serialize_none(self) -> Result<(), Error> {
        emit::null(self.out.vec());
        Ok(())
    }

    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    #[inline]
    fn serialize_unit(self) -> Result<(), Error> {
        emit::null(self.out.vec());
        Ok(())
    }

    #[inline]
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        emit::null(self.out.vec());
        Ok(())
    }

    #[inline]
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        emit::str(self.out.vec(), variant, self.esc);
        Ok(())
    }

    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        if raw::is_token(name) {
            return value.serialize(raw::Verbatim(self.out.vec()));
        }
        value.serialize(self)
    }

    #[inline]
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.begin_variant(variant);
        value.serialize(&mut *self)?;
        self.end_variant();
        Ok(())
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'s, 'a, P, O>, Error> {
        Ok(Compound::open(self, b'[', b']', len))
    }

    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Compound<'s, 'a, P, O>, Error> {
        Ok(Compound::open(self, b'[', b']', Some(len)))
    }

    #[inline]
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'s, 'a, P, O>, Error> {
        Ok(Compound::open(self, b'[', b']', Some(len)))
    }

    #[inline]
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'s, 'a, P, O>, Error> {
        self.begin_variant(variant);
        Ok(Compound::open(self, b'[', b']', Some(len)))
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'s, 'a, P, O>, Error> {
        Ok(Compound::open(self, b'{', b'}', len))
    }

    #[inline]
    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Compound<'s, 'a, P, O>, Error> {
        if let Some(marker) = Marker::of_struct(name) {
            let state = match marker {
                Marker::Number => State::Number,
                Marker::RawValue => State::RawValue,
            };
            return Ok(Compound { ser: self, state });
        }
        Ok(Compound::open_struct(self, len))
    }

    #[inline]
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'s, 'a, P, O>, Error> {
        self.begin_variant(variant);
        Ok(Compound::open_struct(self, len))
    }

    /// serde's default, except that an empty compact sequence (citm's
    /// 8,685 `"blockIds":[]`) is written inline as `[]` instead of through
    /// an out-of-line call per array.
    #[inline(always)]
    fn collect_seq<I>(self, iter: I) -> Result<(), Error>
    where
        I: IntoIterator,
        I::Item: Serialize,
    {
        let mut iter = iter.into_iter();
        let len = len_hint(&iter);
        if P {
            return seq_default(self, len, iter);
        }
        if len == Some(0) {
            emit::bytes(self.out.vec(), b"[]");
            return match iter.next() {
                None => Ok(()),
                // An iterator that yields despite its hint: serde_json's
                // bytes (`[]` then `,item` per item, then `]`).
                Some(item) => seq_all(self, len, Some(item), iter),
            };
        }
        seq_all(self, len, None, iter)
    }

    fn collect_str<T: ?Sized + fmt::Display>(self, value: &T) -> Result<(), Error> {
        emit::byte(self.out.vec(), b'"');
        let mut escaper = Escaper {
            out: self.out.vec(),
            esc: self.esc,
        };
        // Writing into a Vec cannot fail; an error here is the Display
        // impl's own, which serde_json also passes on.
        fmt::Write::write_fmt(&mut escaper, format_args!("{value}")).map_err(|_| {
            <Error as ser::Error>::custom("a Display implementation returned an error unexpectedly")
        })?;
        emit::byte(self.out.vec(), b'"');
        Ok(())
    }
}

/// serde's `iterator_len_hint`: the length if the iterator knows it.
#[inline(always)]
fn len_hint<I: Iterator>(iter: &I) -> Option<usize> {
    match iter.size_hint() {
        (lo, Some(hi)) if lo == hi => Some(lo),
        _ => None,
    }
}

/// serde's default `collect_seq` as it is (pretty output).
fn seq_default<I, const P: bool, O: Output>(
    ser: &mut Serializer<'_, P, O>,
    len: Option<usize>,
    mut iter: I,
) -> Result<(), Error>
where
    I: Iterator,
    I::Item: Serialize,
{
    use ser::SerializeSeq;
    let mut seq = Compound::open(ser, b'[', b']', len);
    iter.try_for_each(|item| seq.serialize_element(&item))?;
    seq.end()
}

/// serde's default `collect_seq` (`serialize_seq`, each element, `end`)
/// for compact output, out of line so that the empty test in
/// `collect_seq` stays small enough to inline. `first: None` opens the
/// sequence with `len`; `Some(item)` continues one already closed as `[]`
/// whose iterator yielded `item` despite its hint, exactly as serde's
/// default would (state `Empty`). One call site of the element serializer
/// either way, so that LLVM still inlines it (with a second one, canada
/// ran 5 % more instructions).
#[inline(never)]
fn seq_all<I, const P: bool, O: Output>(
    ser: &mut Serializer<'_, P, O>,
    len: Option<usize>,
    first: Option<I::Item>,
    mut iter: I,
) -> Result<(), Error>
where
    I: Iterator,
    I::Item: Serialize,
{
    use ser::SerializeSeq;
    let (mut seq, mut next) = match first {
        None => (Compound::open(ser, b'[', b']', len), iter.next()),
        Some(item) => (
            Compound {
                ser,
                state: State::Empty,
            },
            Some(item),
        ),
    };
    while let Some(item) = next {
        seq.serialize_element(&item)?;
        next = iter.next();
    }
    seq.end()
}

/// `fmt::Write` that escapes each fragment into the output (`collect_str`).
struct Escaper<'x> {
    out: &'x mut Vec<u8>,
    esc: Esc<'x>,
}

impl fmt::Write for Escaper<'_> {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        match self.esc {
            None => super::escape(self.out, s),
            Some(o) => super::escape_with(self.out, s, o),
        }
        Ok(())
    }
}

impl<const P: bool, O: Output> ser::SerializeSeq for Compound<'_, '_, P, O> {
    type Ok = ();
    type Error = Error;

    #[inline(always)]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }

    #[inline(always)]
    fn end(self) -> Result<(), Error> {
        self.close(b']')
    }
}

impl<const P: bool, O: Output> ser::SerializeTuple for Compound<'_, '_, P, O> {
    type Ok = ();
    type Error = Error;

    #[inline(always)]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }

    #[inline(always)]
    fn end(self) -> Result<(), Error> {
        self.close(b']')
    }
}

impl<const P: bool, O: Output> ser::SerializeTupleStruct for Compound<'_, '_, P, O> {
    type Ok = ();
    type Error = Error;

    #[inline(always)]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }

    #[inline(always)]
    fn end(self) -> Result<(), Error> {
        self.close(b']')
    }
}

impl<const P: bool, O: Output> ser::SerializeTupleVariant for Compound<'_, '_, P, O> {
    type Ok = ();
    type Error = Error;

    #[inline(always)]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }

    #[inline(always)]
    fn end(self) -> Result<(), Error> {
        let ser = &mut *self.ser;
        if self.state != State::Empty {
            ser.end(b']');
        }
        ser.end_variant();
        Ok(())
    }
}

impl<const P: bool, O: Output> ser::SerializeMap for Compound<'_, '_, P, O> {
    type Ok = ();
    type Error = Error;

    #[inline(always)]
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), Error> {
        let first = self.take_first();
        key.serialize(key::MapKey {
            ser: &mut *self.ser,
            first,
        })
    }

    #[inline(always)]
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.ser)?;
        self.ser.value_done()
    }

    #[inline(always)]
    fn end(self) -> Result<(), Error> {
        self.close(b'}')
    }
}

impl<const P: bool, O: Output> ser::SerializeStruct for Compound<'_, '_, P, O> {
    type Ok = ();
    type Error = Error;

    #[inline(always)]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        if self.state.is_marker() {
            return self.marker_field(key, value);
        }
        self.field(key, value)
    }

    #[inline(always)]
    fn end(self) -> Result<(), Error> {
        if let Some(marker) = self.awaited_marker() {
            // A marker struct that never gave its text.
            return Err(marker.error());
        }
        self.close(b'}')
    }
}

impl<const P: bool, O: Output> ser::SerializeStructVariant for Compound<'_, '_, P, O> {
    type Ok = ();
    type Error = Error;

    #[inline(always)]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.field(key, value)
    }

    #[inline(always)]
    fn end(mut self) -> Result<(), Error> {
        self.close_in_place(b'}');
        self.ser.end_variant();
        Ok(())
    }
}

/// The `Str` hook: `Str`'s `Serialize` calls this for a JSON-safe string.
/// On ito's own serializer (compact or pretty, value or map key) the text
/// is copied without a scan; any other serializer gets `serialize_str`.
#[inline]
pub(crate) fn serialize_json_safe_str<S: ser::Serializer>(
    text: &str,
    s: S,
) -> Result<S::Ok, S::Error> {
    macro_rules! ours {
        ($ty:ty, |$ser:ident| $write:expr) => {
            if typeid::of::<S>() == typeid::of::<$ty>() {
                let s = std::mem::ManuallyDrop::new(s);
                // SAFETY: `S` is `$ty` up to lifetimes (equal TypeIds of the
                // lifetime-erased types), so this is a bitwise move of the
                // same type; the lifetimes chosen here do not outlive the
                // call, and only bytes (no references) are stored through
                // it. `s` is not used or dropped afterwards.
                let $ser: $ty = unsafe { std::mem::transmute_copy(&*s) };
                $write;
                debug_assert_eq!(std::mem::size_of::<S::Ok>(), 0);
                // SAFETY: `S::Ok` is `()` for every serializer type above.
                return Ok(unsafe { std::mem::transmute_copy::<(), S::Ok>(&()) });
            }
        };
    }
    ours!(&mut Serializer<'_, false>, |ser| ser.write_safe_str(text));
    ours!(&mut Serializer<'_, true>, |ser| ser.write_safe_str(text));
    ours!(&mut Serializer<'_, false, Vec<u8>>, |ser| ser
        .write_safe_str(text));
    ours!(&mut Serializer<'_, true, Vec<u8>>, |ser| ser
        .write_safe_str(text));
    ours!(&mut Serializer<'_, false, sealed::Staged>, |ser| ser
        .write_safe_str(text));
    ours!(&mut Serializer<'_, true, sealed::Staged>, |ser| ser
        .write_safe_str(text));
    ours!(key::MapKey<'_, '_, false>, |k| k.write_safe_str(text));
    ours!(key::MapKey<'_, '_, true>, |k| k.write_safe_str(text));
    ours!(key::MapKey<'_, '_, false, Vec<u8>>, |k| k
        .write_safe_str(text));
    ours!(key::MapKey<'_, '_, true, Vec<u8>>, |k| k
        .write_safe_str(text));
    ours!(key::MapKey<'_, '_, false, sealed::Staged>, |k| k
        .write_safe_str(text));
    ours!(key::MapKey<'_, '_, true, sealed::Staged>, |k| k
        .write_safe_str(text));
    s.serialize_str(text)
}

impl Serialize for RawJson {
    /// ito's serializer writes the text verbatim; other serializers see it
    /// as a string holding the JSON text.
    ///
    /// ```
    /// let raw = ito::json::RawJson::new(r#"{"a": 1}"#).unwrap();
    /// assert_eq!(ito::json::to_vec(&[raw]).unwrap(), br#"[{"a": 1}]"#);
    /// assert_eq!(serde_json::to_vec(&[raw]).unwrap(), br#"["{\"a\": 1}"]"#);
    /// ```
    #[inline]
    fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(raw::TOKEN, self.as_str())
    }
}

thread_local! {
    /// `to_writer`'s staging buffer, reused across calls on this thread.
    static STAGE: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// The largest staging buffer kept between calls.
const KEEP: usize = 1 << 20;

fn write_to<W: io::Write, T: ?Sized + Serialize, const P: bool>(
    mut writer: W,
    value: &T,
    options: Option<&Options>,
) -> Result<(), Error> {
    let mut buf = STAGE.with(Cell::take);
    buf.clear();
    buf.reserve(CHUNK + CHUNK / 4);
    let esc = options.and_then(emit::esc);
    let staged = sealed::Staged(buf);
    let mut ser = Serializer::<P, sealed::Staged>::with_parts(staged, esc, Some(&mut writer));
    let result = value.serialize(&mut ser).and_then(|()| ser.flush());
    let mut buf = ser.out.0;
    if buf.capacity() <= KEEP {
        buf.clear();
        STAGE.with(|s| s.set(buf));
    }
    result
}

fn vec_from<T: ?Sized + Serialize, const P: bool>(
    value: &T,
    options: Option<&Options>,
) -> Result<Vec<u8>, Error> {
    let esc = options.and_then(emit::esc);
    let mut ser = Serializer::<P, Vec<u8>>::with_parts(Vec::with_capacity(128), esc, None);
    value.serialize(&mut ser)?;
    Ok(ser.out)
}

fn string_from(bytes: Vec<u8>) -> String {
    // SAFETY: the serializer writes only UTF-8: `&str` input (escaped or
    // verbatim), ASCII escapes, numbers and punctuation, and RawJson text,
    // which is a `str`.
    unsafe { String::from_utf8_unchecked(bytes) }
}

/// Serializes `value` as compact JSON, byte-identical with
/// `serde_json::to_vec`.
///
/// ```
/// use std::collections::BTreeMap;
/// let m: BTreeMap<u32, (bool, Option<char>)> = [(1, (true, Some('x'))), (2, (false, None))].into();
/// let out = ito::json::to_vec(&m).unwrap();
/// assert_eq!(out, br#"{"1":[true,"x"],"2":[false,null]}"#);
/// assert_eq!(out, serde_json::to_vec(&m).unwrap());
/// ```
#[inline]
pub fn to_vec<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>, Error> {
    vec_from::<T, false>(value, None)
}

/// [`to_vec`] with every string and key escaped under `options`.
///
/// ```
/// let opts = ito::json::Options::new().ascii_only(true).html_safe(true);
/// let out = ito::json::to_vec_with(&["<é>"], &opts).unwrap();
/// assert_eq!(out, br#"["\u003c\u00e9\u003e"]"#);
/// ```
pub fn to_vec_with<T: ?Sized + Serialize>(value: &T, options: &Options) -> Result<Vec<u8>, Error> {
    vec_from::<T, false>(value, Some(options))
}

/// Serializes `value` as pretty JSON (two-space indentation),
/// byte-identical with `serde_json::to_vec_pretty`.
///
/// ```
/// let out = ito::json::to_vec_pretty(&serde_json::json!({"a": [1, {}], "b": []})).unwrap();
/// assert_eq!(out, b"{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": []\n}");
/// ```
pub fn to_vec_pretty<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>, Error> {
    vec_from::<T, true>(value, None)
}

/// [`to_vec_pretty`] with every string and key escaped under `options`.
///
/// ```
/// let opts = ito::json::Options::new().escape_slash(true);
/// let out = ito::json::to_vec_pretty_with(&["a/b"], &opts).unwrap();
/// assert_eq!(out, b"[\n  \"a\\/b\"\n]");
/// ```
pub fn to_vec_pretty_with<T: ?Sized + Serialize>(
    value: &T,
    options: &Options,
) -> Result<Vec<u8>, Error> {
    vec_from::<T, true>(value, Some(options))
}

/// [`to_vec`] as a `String`.
///
/// ```
/// assert_eq!(ito::json::to_string(&(1, "é")).unwrap(), r#"[1,"é"]"#);
/// ```
pub fn to_string<T: ?Sized + Serialize>(value: &T) -> Result<String, Error> {
    to_vec(value).map(string_from)
}

/// [`to_vec_with`] as a `String`.
///
/// ```
/// let opts = ito::json::Options::new().ascii_only(true);
/// assert_eq!(ito::json::to_string_with(&"é", &opts).unwrap(), r#""\u00e9""#);
/// ```
pub fn to_string_with<T: ?Sized + Serialize>(
    value: &T,
    options: &Options,
) -> Result<String, Error> {
    to_vec_with(value, options).map(string_from)
}

/// [`to_vec_pretty`] as a `String`.
///
/// ```
/// assert_eq!(ito::json::to_string_pretty(&[()]).unwrap(), "[\n  null\n]");
/// ```
pub fn to_string_pretty<T: ?Sized + Serialize>(value: &T) -> Result<String, Error> {
    to_vec_pretty(value).map(string_from)
}

/// Serializes `value` as compact JSON into `writer`.
///
/// The JSON is staged in a buffer reused across calls on the same thread
/// and handed to `writer` in chunks of about 64 KiB (never one `write` per
/// token), so after the first call this allocates nothing of its own.
/// `writer` is not flushed.
///
/// ```
/// let mut out = Vec::new();
/// ito::json::to_writer(&mut out, &[1.5, f64::NAN]).unwrap();
/// assert_eq!(out, b"[1.5,null]");
/// ```
pub fn to_writer<W: io::Write, T: ?Sized + Serialize>(writer: W, value: &T) -> Result<(), Error> {
    write_to::<W, T, false>(writer, value, None)
}

/// [`to_writer`] with every string and key escaped under `options`.
///
/// ```
/// let mut out = Vec::new();
/// let opts = ito::json::Options::new().js_safe(true);
/// ito::json::to_writer_with(&mut out, &"\u{2028}", &opts).unwrap();
/// assert_eq!(out, br#""\u2028""#);
/// ```
pub fn to_writer_with<W: io::Write, T: ?Sized + Serialize>(
    writer: W,
    value: &T,
    options: &Options,
) -> Result<(), Error> {
    write_to::<W, T, false>(writer, value, Some(options))
}

/// [`to_writer`] in the pretty layout.
///
/// ```
/// let mut out = Vec::new();
/// ito::json::to_writer_pretty(&mut out, &[[1]]).unwrap();
/// assert_eq!(out, b"[\n  [\n    1\n  ]\n]");
/// ```
pub fn to_writer_pretty<W: io::Write, T: ?Sized + Serialize>(
    writer: W,
    value: &T,
) -> Result<(), Error> {
    write_to::<W, T, true>(writer, value, None)
}

/// [`to_writer_pretty`] with every string and key escaped under `options`.
///
/// ```
/// let mut out = Vec::new();
/// let opts = ito::json::Options::new().uppercase_hex(true);
/// ito::json::to_writer_pretty_with(&mut out, &["\u{1f}"], &opts).unwrap();
/// assert_eq!(out, b"[\n  \"\\u001F\"\n]");
/// ```
pub fn to_writer_pretty_with<W: io::Write, T: ?Sized + Serialize>(
    writer: W,
    value: &T,
    options: &Options,
) -> Result<(), Error> {
    write_to::<W, T, true>(writer, value, Some(options))
}
