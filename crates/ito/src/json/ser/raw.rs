//! How [`RawJson`](crate::json::RawJson) reaches the serializer: as a
//! newtype struct named [`TOKEN`] (a name no derive produces) whose value
//! serializes as the JSON text; the serializer recognises the name and
//! sends the text to [`Verbatim`], which copies it unchanged. Any other
//! serializer sees a newtype struct around a string, which most formats
//! render as the string itself.

use serde::ser::{Impossible, Serialize};

use super::Error;

/// The marker name. Compared by address: a `static` always yields the
/// same pointer.
pub(super) static TOKEN: &str = "$ito::json::RawJson";

/// Whether a newtype struct's name is the marker.
#[inline(always)]
pub(super) fn is_token(name: &'static str) -> bool {
    std::ptr::eq(name, TOKEN)
}

/// Copies the string it is given into the output; refuses anything else
/// (only reachable through a hand-written `Serialize` using the marker).
pub(super) struct Verbatim<'x>(pub(super) &'x mut Vec<u8>);

#[cold]
fn not_raw() -> Error {
    <Error as serde::ser::Error>::custom("the RawJson marker must wrap a string")
}

macro_rules! refuse {
    ($($method:ident($($arg:ty),*) -> $ret:ty;)*) => {$(
        #[cold]
        fn $method(self, $(_: $arg),*) -> Result<$ret, Error> {
            Err(not_raw())
        }
    )*};
}

impl serde::Serializer for Verbatim<'_> {
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
        self.0.extend_from_slice(v.as_bytes());
        Ok(())
    }

    refuse! {
        serialize_bool(bool) -> ();
        serialize_i8(i8) -> ();
        serialize_i16(i16) -> ();
        serialize_i32(i32) -> ();
        serialize_i64(i64) -> ();
        serialize_u8(u8) -> ();
        serialize_u16(u16) -> ();
        serialize_u32(u32) -> ();
        serialize_u64(u64) -> ();
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_char(char) -> ();
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_unit_variant(&'static str, u32, &'static str) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }

    #[cold]
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<(), Error> {
        Err(not_raw())
    }

    #[cold]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        Err(not_raw())
    }

    #[cold]
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        Err(not_raw())
    }
}
