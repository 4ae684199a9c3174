//! The cursors serde's visitors pull from: elements of an array, entries
//! of an object (keys through [`MapKey`]), and enum variants.

use serde::de::{self, Unexpected};
use serde::forward_to_deserialize_any;

use super::error::{Code, Error};
use super::string::Reference;
use super::{raw, Deserializer};

pub(super) struct SeqAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    first: bool,
}

impl<'a, 'de> SeqAccess<'a, 'de> {
    #[inline]
    pub(super) fn new(de: &'a mut Deserializer<'de>) -> Self {
        SeqAccess { de, first: true }
    }

    #[inline(always)]
    fn has_next_element(&mut self) -> Result<bool, Error> {
        let peek = match self.de.parse_whitespace() {
            Some(b) => b,
            None => return Err(self.de.peek_error(Code::EofWhileParsingList)),
        };
        if peek == b']' {
            Ok(false)
        } else if self.first {
            self.first = false;
            Ok(true)
        } else if peek == b',' {
            self.de.eat_char();
            match self.de.parse_whitespace() {
                Some(b']') => Err(self.de.peek_error(Code::TrailingComma)),
                Some(_) => Ok(true),
                None => Err(self.de.peek_error(Code::EofWhileParsingValue)),
            }
        } else {
            Err(self.de.peek_error(Code::ExpectedListCommaOrEnd))
        }
    }
}

impl<'de> de::SeqAccess<'de> for SeqAccess<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        if self.has_next_element()? {
            Ok(Some(seed.deserialize(&mut *self.de)?))
        } else {
            Ok(None)
        }
    }
}

pub(super) struct MapAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    first: bool,
}

impl<'a, 'de> MapAccess<'a, 'de> {
    #[inline]
    pub(super) fn new(de: &'a mut Deserializer<'de>) -> Self {
        MapAccess { de, first: true }
    }

    #[inline(always)]
    fn has_next_key(&mut self) -> Result<bool, Error> {
        let peek = match self.de.parse_whitespace() {
            Some(b) => b,
            None => return Err(self.de.peek_error(Code::EofWhileParsingObject)),
        };
        if peek == b'}' {
            Ok(false)
        } else if self.first {
            self.first = false;
            if peek == b'"' {
                Ok(true)
            } else {
                Err(self.de.peek_error(Code::KeyMustBeAString))
            }
        } else if peek == b',' {
            self.de.eat_char();
            match self.de.parse_whitespace() {
                Some(b'"') => Ok(true),
                Some(b'}') => Err(self.de.peek_error(Code::TrailingComma)),
                Some(_) => Err(self.de.peek_error(Code::KeyMustBeAString)),
                None => Err(self.de.peek_error(Code::EofWhileParsingValue)),
            }
        } else {
            Err(self.de.peek_error(Code::ExpectedObjectCommaOrEnd))
        }
    }
}

impl<'de> de::MapAccess<'de> for MapAccess<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        if self.has_next_key()? {
            Ok(Some(seed.deserialize(MapKey { de: &mut *self.de })?))
        } else {
            Ok(None)
        }
    }

    #[inline]
    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        self.de.parse_object_colon()?;
        seed.deserialize(&mut *self.de)
    }
}

pub(super) struct VariantAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
}

impl<'a, 'de> VariantAccess<'a, 'de> {
    pub(super) fn new(de: &'a mut Deserializer<'de>) -> Self {
        VariantAccess { de }
    }
}

impl<'de> de::EnumAccess<'de> for VariantAccess<'_, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: de::DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        match self.de.parse_whitespace() {
            Some(b'"') => {}
            Some(b'}') => return Err(self.de.peek_error(Code::ExpectedSomeValue)),
            Some(_) => return Err(self.de.peek_error(Code::KeyMustBeAString)),
            None => return Err(self.de.peek_error(Code::EofWhileParsingObject)),
        }
        let val = match seed.deserialize(MapKey { de: &mut *self.de }) {
            Ok(value) => value,
            Err(err) => return Err(self.de.fix_position(err)),
        };
        self.de.parse_object_colon()?;
        Ok((val, self))
    }
}

impl<'de> de::VariantAccess<'de> for VariantAccess<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        de::Deserialize::deserialize(self.de)
    }

    fn newtype_variant_seed<T: de::DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(self.de)
    }

    fn tuple_variant<V: de::Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_seq(self.de, visitor)
    }

    fn struct_variant<V: de::Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_struct(self.de, "", fields, visitor)
    }
}

pub(super) struct UnitVariantAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
}

impl<'a, 'de> UnitVariantAccess<'a, 'de> {
    pub(super) fn new(de: &'a mut Deserializer<'de>) -> Self {
        UnitVariantAccess { de }
    }
}

impl<'de> de::EnumAccess<'de> for UnitVariantAccess<'_, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: de::DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        let variant = seed.deserialize(&mut *self.de)?;
        Ok((variant, self))
    }
}

impl<'de> de::VariantAccess<'de> for UnitVariantAccess<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        Ok(())
    }

    fn newtype_variant_seed<T: de::DeserializeSeed<'de>>(
        self,
        _seed: T,
    ) -> Result<T::Value, Error> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"newtype variant",
        ))
    }

    fn tuple_variant<V: de::Visitor<'de>>(
        self,
        _len: usize,
        _visitor: V,
    ) -> Result<V::Value, Error> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"tuple variant",
        ))
    }

    fn struct_variant<V: de::Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Error> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"struct variant",
        ))
    }
}

/// An object key; the cursor is at its opening quote (checked by the
/// caller). Numbers and booleans may be keys in quotes, as in serde_json.
pub(super) struct MapKey<'a, 'de> {
    pub(super) de: &'a mut Deserializer<'de>,
}

macro_rules! deserialize_numeric_key {
    ($($method:ident => $delegate:ident,)*) => {$(
        fn $method<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            self.de.eat_char();
            match self.de.peek() {
                Some(b'0'..=b'9' | b'-') => {}
                _ => return Err(self.de.error(Code::ExpectedNumericKey)),
            }
            let value = self.de.$delegate(visitor)?;
            match self.de.peek() {
                Some(b'"') => self.de.eat_char(),
                _ => return Err(self.de.peek_error(Code::ExpectedDoubleQuote)),
            }
            Ok(value)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for MapKey<'_, 'de> {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.de.eat_char();
        if let Some(key) = self.de.parse_short_key() {
            return visitor.visit_borrowed_str(key);
        }
        match self.de.parse_str()? {
            Reference::Borrowed(s) => visitor.visit_borrowed_str(s),
            Reference::Copied(s) => visitor.visit_str(s),
        }
    }

    deserialize_numeric_key! {
        deserialize_i8 => deserialize_number,
        deserialize_i16 => deserialize_number,
        deserialize_i32 => deserialize_number,
        deserialize_i64 => deserialize_number,
        deserialize_i128 => do_deserialize_i128,
        deserialize_u8 => deserialize_number,
        deserialize_u16 => deserialize_number,
        deserialize_u32 => deserialize_number,
        deserialize_u64 => deserialize_number,
        deserialize_u128 => do_deserialize_u128,
        deserialize_f32 => do_deserialize_f32,
        deserialize_f64 => deserialize_number,
    }

    fn deserialize_bool<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.de.eat_char();
        let peek = match self.de.next_char() {
            Some(b) => b,
            None => return Err(self.de.peek_error(Code::EofWhileParsingValue)),
        };
        let value = match peek {
            b't' => {
                self.de.parse_ident(b"rue\"")?;
                visitor.visit_bool(true)
            }
            b'f' => {
                self.de.parse_ident(b"alse\"")?;
                visitor.visit_bool(false)
            }
            _ => {
                let s = match self.de.parse_str()? {
                    Reference::Borrowed(s) | Reference::Copied(s) => s,
                };
                Err(de::Error::invalid_type(Unexpected::Str(s), &visitor))
            }
        };
        value.map_err(|err| self.de.fix_position(err))
    }

    #[inline]
    fn deserialize_option<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        // Keys cannot be null.
        visitor.visit_some(self)
    }

    #[inline]
    fn deserialize_newtype_struct<V: de::Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if let Some(marker) = raw::marker(name) {
            return raw::deserialize(self.de, marker, visitor);
        }
        visitor.visit_newtype_struct(self)
    }

    #[inline]
    fn deserialize_enum<V: de::Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_enum(self.de, name, variants, visitor)
    }

    #[inline]
    fn deserialize_bytes<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_bytes(self.de, visitor)
    }

    #[inline]
    fn deserialize_byte_buf<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_bytes(self.de, visitor)
    }

    forward_to_deserialize_any! {
        char str string unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}
