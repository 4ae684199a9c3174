//! Map keys: JSON keys are strings, so strings, chars and unit variants
//! are written as strings, integers, floats and bools in quotes (as
//! serde_json writes them), and every other shape is refused with
//! [`Category::KeyMustBeAString`](super::Category::KeyMustBeAString).
//!
//! The key serializer writes the separator before the key and the colon
//! after it, so a plain string key costs one fused `,"key":` store.

use std::fmt;

use serde::ser::{Impossible, Serialize};

use super::{emit, Error, Output, Serializer};

/// Serializes one map key (with its separator and colon) for `ser`.
pub(crate) struct MapKey<'s, 'a, const P: bool, O: Output = &'a mut Vec<u8>> {
    pub(super) ser: &'s mut Serializer<'a, P, O>,
    pub(super) first: bool,
}

impl<const P: bool, O: Output> MapKey<'_, '_, P, O> {
    /// A key written by `emit` between the separator and the colon.
    #[inline(always)]
    fn quoted(self, write: impl FnOnce(&mut Vec<u8>)) -> Result<(), Error> {
        self.ser.separator(self.first);
        write(self.ser.out.vec());
        self.ser.colon();
        Ok(())
    }

    /// A JSON-safe string key, copied without a scan (the `Str` hook).
    #[inline]
    pub(crate) fn write_safe_str(self, s: &str) {
        let esc = self.ser.esc;
        let _ = self.quoted(|out| emit::safe_str(out, s, esc));
    }
}

macro_rules! refuse {
    ($($method:ident($($arg:ty),*) -> $ret:ty;)*) => {$(
        #[cold]
        fn $method(self, $(_: $arg),*) -> Result<$ret, Error> {
            Err(Error::key_must_be_a_string())
        }
    )*};
}

macro_rules! int_keys {
    ($($method:ident($t:ty);)*) => {$(
        #[inline]
        fn $method(self, v: $t) -> Result<(), Error> {
            if P {
                self.quoted(|out| emit::int_quoted(out, v))
            } else {
                emit::int_key(self.ser.out.vec(), self.first, v);
                Ok(())
            }
        }
    )*};
}

impl<const P: bool, O: Output> serde::Serializer for MapKey<'_, '_, P, O> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.ser.str_key(self.first, v);
        Ok(())
    }

    #[inline]
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }

    #[inline]
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.quoted(|out| emit::quoted_verbatim(out, if v { b"true" } else { b"false" }))
    }

    int_keys! {
        serialize_i8(i8); serialize_i16(i16); serialize_i32(i32); serialize_i64(i64);
        serialize_i128(i128); serialize_u8(u8); serialize_u16(u16); serialize_u32(u32);
        serialize_u64(u64); serialize_u128(u128);
    }

    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(Error::float_key_must_be_finite());
        }
        self.quoted(|out| emit::float_quoted(out, v))
    }

    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(Error::float_key_must_be_finite());
        }
        self.quoted(|out| emit::float_quoted(out, v))
    }

    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }

    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn collect_str<T: ?Sized + fmt::Display>(self, value: &T) -> Result<(), Error> {
        self.ser.separator(self.first);
        (&mut *self.ser).collect_str(value)?;
        self.ser.colon();
        Ok(())
    }

    refuse! {
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }

    #[cold]
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Error> {
        Err(Error::key_must_be_a_string())
    }
}
