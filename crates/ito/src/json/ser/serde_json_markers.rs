//! serde_json's private markers, spoken by this serializer.
//!
//! With serde_json's `arbitrary_precision` feature a `serde_json::Number`
//! serializes as a one-field struct whose name and field name are
//! [`NUMBER`] and whose value is the number's text; with `raw_value` a
//! `RawValue` does the same under [`RAW_VALUE`] with its JSON text. Cargo
//! unifies features across a build, so any dependency that turns either on
//! changes how every `Value` and `RawValue` in the program serializes.
//! serde_json's own serializer writes the text verbatim; so does this one:
//!
//! ```text
//! serialize_struct(NUMBER or RAW_VALUE, _)  -> a Compound in a marker state
//!                                              (nothing written yet)
//! serialize_field(the same name, text)      -> the text, verbatim
//! end()                                     -> nothing more
//! ```
//!
//! Anything else under a marker name (another field name, a value that
//! is not a string, no field or two, number text that is not a JSON
//! number) is an error with serde_json's message ("invalid number",
//! "expected value"), never output that looks like JSON and is not the
//! value. Number text is checked against the JSON grammar (a few bytes);
//! raw text is trusted as serde_json trusts it (a `RawValue` is validated
//! when it is made, and its constructors that skip that are private).
//!
//! Names are compared by value, as serde_json does (its tokens are its
//! own statics). A derived struct's name is a constant, so in an inlined
//! `serialize_struct` the comparison folds away.

use serde::ser::{Impossible, Serialize};

use super::Error;

/// The struct and field name of an `arbitrary_precision` number.
pub(super) const NUMBER: &str = "$serde_json::private::Number";

/// The struct and field name of a `raw_value` `RawValue`.
pub(super) const RAW_VALUE: &str = "$serde_json::private::RawValue";

/// Which of serde_json's markers a struct is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Marker {
    Number,
    RawValue,
}

impl Marker {
    /// The marker a struct named `name` stands for, if any.
    #[inline(always)]
    pub(super) fn of_struct(name: &str) -> Option<Marker> {
        if name == NUMBER {
            Some(Marker::Number)
        } else if name == RAW_VALUE {
            Some(Marker::RawValue)
        } else {
            None
        }
    }

    /// The one field name the marker's struct may have.
    pub(super) fn field(self) -> &'static str {
        match self {
            Marker::Number => NUMBER,
            Marker::RawValue => RAW_VALUE,
        }
    }

    /// serde_json's error for a marker it cannot honour.
    #[cold]
    pub(super) fn error(self) -> Error {
        match self {
            Marker::Number => Error::invalid_number(),
            Marker::RawValue => Error::invalid_raw_value(),
        }
    }
}

/// Writes a marker's text verbatim (number text after a grammar check);
/// refuses every value that is not a string.
pub(super) struct Text<'x> {
    pub(super) out: &'x mut Vec<u8>,
    pub(super) marker: Marker,
}

macro_rules! refuse {
    ($($method:ident($($arg:ty),*) -> $ret:ty;)*) => {$(
        #[cold]
        fn $method(self, $(_: $arg),*) -> Result<$ret, Error> {
            Err(self.marker.error())
        }
    )*};
}

impl serde::Serializer for Text<'_> {
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
        if self.marker == Marker::Number && !crate::json::raw::is_number(v.as_bytes()) {
            return Err(self.marker.error());
        }
        self.out.extend_from_slice(v.as_bytes());
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
        Err(self.marker.error())
    }

    #[cold]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        Err(self.marker.error())
    }

    #[cold]
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        Err(self.marker.error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::ser::{SerializeStruct, Serializer as _};

    /// A hand-written `Serialize` that speaks a marker's protocol with
    /// the given fields.
    struct Speaks(&'static str, &'static [(&'static str, &'static str)]);

    impl Serialize for Speaks {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut st = s.serialize_struct(self.0, self.1.len())?;
            for (k, v) in self.1 {
                st.serialize_field(k, v)?;
            }
            st.end()
        }
    }

    fn both(v: &impl Serialize) -> [Result<String, String>; 2] {
        [
            crate::json::to_string(v).map_err(|e| e.to_string()),
            crate::json::to_string_pretty(v).map_err(|e| e.to_string()),
        ]
    }

    #[test]
    fn marker_text_is_verbatim() {
        let n = Speaks(NUMBER, &[(NUMBER, "-1.50e+300")]);
        assert_eq!(
            both(&[&n]),
            [Ok("[-1.50e+300]".into()), Ok("[\n  -1.50e+300\n]".into())]
        );
        let r = Speaks(RAW_VALUE, &[(RAW_VALUE, "{\"a\" : [ 1 ]}")]);
        assert_eq!(
            both(&r),
            [Ok("{\"a\" : [ 1 ]}".into()), Ok("{\"a\" : [ 1 ]}".into())]
        );
    }

    #[test]
    fn markers_that_cannot_be_honoured_are_errors() {
        let number = Err("invalid number".to_string());
        let raw = Err("expected value".to_string());
        for bad in [
            Speaks(NUMBER, &[("n", "1")]),
            Speaks(NUMBER, &[]),
            Speaks(NUMBER, &[(NUMBER, "1"), (NUMBER, "2")]),
            Speaks(NUMBER, &[(NUMBER, "01")]),
            Speaks(NUMBER, &[(NUMBER, "1.")]),
            Speaks(NUMBER, &[(NUMBER, "")]),
            Speaks(NUMBER, &[(NUMBER, "1 ")]),
            Speaks(NUMBER, &[(NUMBER, "NaN")]),
        ] {
            assert_eq!(both(&bad), [number.clone(), number.clone()]);
        }
        for bad in [
            Speaks(RAW_VALUE, &[("json", "1")]),
            Speaks(RAW_VALUE, &[]),
            Speaks(RAW_VALUE, &[(RAW_VALUE, "1"), (RAW_VALUE, "2")]),
        ] {
            assert_eq!(both(&bad), [raw.clone(), raw.clone()]);
        }
        // A value that is not a string.
        struct NotText;
        impl Serialize for NotText {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut st = s.serialize_struct(NUMBER, 1)?;
                st.serialize_field(NUMBER, &3u64)?;
                st.end()
            }
        }
        assert_eq!(both(&NotText), [number.clone(), number]);
    }

    #[test]
    fn marker_field_names_in_ordinary_structs_are_ordinary() {
        let s = Speaks("Plain", &[(NUMBER, "x"), (RAW_VALUE, "y")]);
        assert_eq!(
            crate::json::to_string(&s).unwrap(),
            r#"{"$serde_json::private::Number":"x","$serde_json::private::RawValue":"y"}"#
        );
    }

    #[test]
    fn a_marker_as_a_map_key_is_refused_like_any_struct() {
        let mut m = std::collections::BTreeMap::new();
        m.insert(Speaks(NUMBER, &[(NUMBER, "1")]), 1);
        let e = crate::json::to_string(&m).unwrap_err();
        assert_eq!(e.to_string(), "key must be a string");
    }

    impl PartialEq for Speaks {
        fn eq(&self, o: &Self) -> bool {
            self.0 == o.0 && self.1 == o.1
        }
    }
    impl Eq for Speaks {}
    impl PartialOrd for Speaks {
        fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(o))
        }
    }
    impl Ord for Speaks {
        fn cmp(&self, o: &Self) -> std::cmp::Ordering {
            (self.0, self.1).cmp(&(o.0, o.1))
        }
    }

    #[test]
    fn marker_serializer_through_serializer_trait() {
        let mut out = Vec::new();
        let mut ser = crate::json::Serializer::new(&mut out);
        let mut st = (&mut ser).serialize_struct(NUMBER, 1).unwrap();
        st.serialize_field(NUMBER, "12").unwrap();
        st.end().unwrap();
        assert_eq!(out, b"12");
    }
}
