//! Raw values: serde_json's private `RawValue` protocol, spoken by this
//! deserializer and used by [`RawJson`] itself.
//!
//! serde_json's `RawValue` asks for a newtype struct named [`TOKEN`]; its
//! own deserializer answers with a one-entry map whose key is `TOKEN` and
//! whose value is the exact text of the next JSON value. This deserializer
//! answers the same way, so `Box<RawValue>` and `&RawValue` read as with
//! serde_json. `RawJson` asks the same question: from ito's deserializer
//! (recognised by type, lifetimes erased) it trusts the text, which the
//! parser has just checked; from serde_json (with its `raw_value` feature)
//! it gets the text the same way and validates it; from any other
//! deserializer it accepts a string holding JSON and validates that.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize};

use super::error::Error;
use super::Deserializer;
use crate::json::RawJson;

/// serde_json's private name for raw values.
pub(super) const TOKEN: &str = "$serde_json::private::RawValue";

/// Which raw-value protocol a newtype name asks for.
#[derive(Clone, Copy)]
pub(super) enum Marker {
    RawValue,
}

#[inline(always)]
pub(super) fn marker(name: &str) -> Option<Marker> {
    (name.len() == TOKEN.len() && name == TOKEN).then_some(Marker::RawValue)
}

/// Answers the raw-value question: the exact text of the next value.
pub(super) fn deserialize<'de, V: de::Visitor<'de>>(
    de: &mut Deserializer<'de>,
    marker: Marker,
    visitor: V,
) -> Result<V::Value, Error> {
    let Marker::RawValue = marker;
    let text = de.raw_text()?;
    visitor.visit_map(RawMap { text: Some(text) })
}

/// The one-entry map `{TOKEN: text}`.
struct RawMap<'de> {
    text: Option<&'de str>,
}

impl<'de> de::MapAccess<'de> for RawMap<'de> {
    type Error = Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        if self.text.is_none() {
            return Ok(None);
        }
        seed.deserialize(de::value::BorrowedStrDeserializer::new(TOKEN))
            .map(Some)
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let text = self.text.take().unwrap_or_default();
        seed.deserialize(de::value::BorrowedStrDeserializer::new(text))
    }
}

/// Whether `D` is this crate's deserializer (whose raw text is already
/// checked JSON).
fn is_ours<'de, D: de::Deserializer<'de>>() -> bool {
    typeid::of::<D>() == typeid::of::<&mut Deserializer<'static>>()
}

/// The map key of the protocol, checked.
struct Key;

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        struct KeyVisitor;
        impl de::Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("raw value")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Key, E> {
                if s == TOKEN {
                    Ok(Key)
                } else {
                    Err(de::Error::custom("unexpected raw value"))
                }
            }
        }
        d.deserialize_identifier(KeyVisitor)
    }
}

/// Builds the result from text: `trusted` when it comes from this crate's
/// parser.
trait FromText<'de>: Sized {
    const EXPECTING: &'static str;
    fn borrowed<E: de::Error>(text: &'de str, trusted: bool) -> Result<Self, E>;
    fn copied<E: de::Error>(text: &str) -> Result<Self, E>;
}

fn invalid<E: de::Error>(text: &str, err: crate::json::Error) -> E {
    E::invalid_value(de::Unexpected::Str(text), &err.to_string().as_str())
}

impl<'de> FromText<'de> for &'de RawJson {
    const EXPECTING: &'static str = "a borrowed JSON value";
    fn borrowed<E: de::Error>(text: &'de str, trusted: bool) -> Result<Self, E> {
        if trusted {
            // SAFETY: not a memory-safety contract; the text is one JSON
            // value this crate's parser has just checked.
            return Ok(unsafe { RawJson::new_unchecked(text) });
        }
        RawJson::new(text).map_err(|e| invalid(text, e))
    }
    fn copied<E: de::Error>(text: &str) -> Result<Self, E> {
        Err(E::invalid_type(de::Unexpected::Str(text), &Self::EXPECTING))
    }
}

impl<'de> FromText<'de> for Box<RawJson> {
    const EXPECTING: &'static str = "a JSON value";
    fn borrowed<E: de::Error>(text: &'de str, trusted: bool) -> Result<Self, E> {
        if trusted {
            // SAFETY: as above.
            return Ok(unsafe { RawJson::new_unchecked(text) }.to_owned());
        }
        Self::copied(text)
    }
    fn copied<E: de::Error>(text: &str) -> Result<Self, E> {
        RawJson::new(text)
            .map(ToOwned::to_owned)
            .map_err(|e| invalid(text, e))
    }
}

struct RawVisitor<T> {
    trusted: bool,
    marker: PhantomData<T>,
}

impl<'de, T: FromText<'de>> de::Visitor<'de> for RawVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::EXPECTING)
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        if map.next_key::<Key>()?.is_none() {
            return Err(de::Error::invalid_length(0, &self));
        }
        map.next_value_seed(TextSeed::<T> {
            trusted: self.trusted,
            marker: PhantomData,
        })
    }

    fn visit_newtype_struct<D: de::Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_str(RawVisitor::<T> {
            trusted: false,
            marker: PhantomData,
        })
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<T, E> {
        T::borrowed(v, self.trusted)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        T::copied(v)
    }
}

struct TextSeed<T> {
    trusted: bool,
    marker: PhantomData<T>,
}

impl<'de, T: FromText<'de>> de::DeserializeSeed<'de> for TextSeed<T> {
    type Value = T;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_str(RawVisitor::<T> {
            trusted: self.trusted,
            marker: PhantomData,
        })
    }
}

/// Reads the exact text of a JSON value, borrowed from the input: from
/// ito's deserializer without a second check; from serde_json (with its
/// `raw_value` feature) as its `RawValue` does; from other formats, a
/// string holding JSON (validated).
///
/// ```
/// use serde::Deserialize;
/// use ito::json::RawJson;
///
/// #[derive(Deserialize)]
/// struct Envelope<'a> {
///     kind: u32,
///     #[serde(borrow)]
///     event: &'a RawJson,
/// }
///
/// let text = r#"{"kind": 1, "event": {"id": "ab", "tags": [ ]}}"#;
/// let env: Envelope = ito::json::from_str(text).unwrap();
/// assert_eq!(env.event.as_str(), r#"{"id": "ab", "tags": [ ]}"#);
/// ```
impl<'de: 'a, 'a> Deserialize<'de> for &'a RawJson {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let trusted = is_ours::<D>();
        d.deserialize_newtype_struct(
            TOKEN,
            RawVisitor::<&'de RawJson> {
                trusted,
                marker: PhantomData,
            },
        )
    }
}

/// Reads the exact text of a JSON value into a box; see
/// [`&RawJson`'s `Deserialize`](RawJson).
///
/// ```
/// use ito::json::RawJson;
/// let v: Vec<Box<RawJson>> = ito::json::from_str("[1.50, {\"a\" : null}]").unwrap();
/// assert_eq!(v[0].as_str(), "1.50");
/// assert_eq!(v[1].as_str(), "{\"a\" : null}");
/// ```
impl<'de> Deserialize<'de> for Box<RawJson> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let trusted = is_ours::<D>();
        d.deserialize_newtype_struct(
            TOKEN,
            RawVisitor::<Box<RawJson>> {
                trusted,
                marker: PhantomData,
            },
        )
    }
}
