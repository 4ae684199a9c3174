//! serde for [`Value`] (feature `serde`): `Serialize` (any serializer:
//! serde_json's writes the same text as [`Value::to_vec`]),
//! `Deserialize` (any deserializer; ito's own is recognised and parses
//! directly, without visitor calls), and conversion from and to
//! `serde_json::Value`.

use serde::de::{self, Deserialize, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::json::de::{precise, Deserializer, Error};
use crate::Str;

use super::number::View;
use super::{Map, Number, Text, Value};

impl Serialize for Number {
    /// An exact number (see [`Number`]) keeps its text where serde_json's
    /// `Number` can hold text: when serde_json's `arbitrary_precision` is
    /// on in the build, it is written as that feature writes a number
    /// (serde_json's serializer and ito's write the text verbatim).
    /// Otherwise it is written as its `f64` value, or `null` beyond
    /// `f64`'s range, as serde_json would hold it; [`Value::to_vec`] and
    /// `Display` always write the text.
    ///
    /// ```
    /// let n = ito::json::Number::from_exact_text("2.50").unwrap();
    /// assert_eq!(ito::json::Value::from(n).to_string(), "2.50");
    /// ```
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.view() {
            View::PosInt(n) => s.serialize_u64(n),
            View::NegInt(n) => s.serialize_i64(n),
            View::Float(f) => s.serialize_f64(f),
            View::Exact(t) if precise::enabled() => {
                use serde::ser::SerializeStruct;
                const TOKEN: &str = "$serde_json::private::Number";
                let mut st = s.serialize_struct(TOKEN, 1)?;
                st.serialize_field(TOKEN, t.as_str())?;
                st.end()
            }
            View::Exact(_) => match self.as_f64() {
                Some(f) => s.serialize_f64(f),
                None => s.serialize_unit(),
            },
        }
    }
}

impl Serialize for Text<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl Serialize for Map<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl Serialize for Value<'_> {
    /// ```
    /// let v = ito::json!({"b": [1, 2.5, null], "a": "x"});
    /// assert_eq!(serde_json::to_string(&v).unwrap(), v.to_string());
    /// ```
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(n) => n.serialize(s),
            Value::String(t) => s.serialize_str(t.as_str()),
            Value::Array(a) => s.collect_seq(a),
            Value::Object(o) => o.serialize(s),
        }
    }
}

impl<'de, 'a> Deserialize<'de> for Value<'a> {
    /// Any JSON value, with owned strings (serde's `Deserialize` cannot
    /// tie a borrow to `'a`; [`Value::from_slice`] borrows). From ito's
    /// deserializer the value is parsed directly.
    ///
    /// ```
    /// let v: ito::json::Value = ito::json::from_str(r#"{"a": [1]}"#).unwrap();
    /// assert_eq!(v["a"][0], 1);
    /// let w: ito::json::Value = serde_json::from_str(r#"{"a": [1]}"#).unwrap();
    /// assert_eq!(v, w);
    /// ```
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut d = d;
        if typeid::of::<D>() == typeid::of::<&mut Deserializer<'static>>() {
            // SAFETY: `D` is `&mut Deserializer<'x>` up to lifetimes (equal
            // TypeIds of the lifetime-erased types), and `'x` is `'de`: the
            // `serde::Deserializer<'de>` impl exists only for that pairing.
            // The reborrow lives for this call only, and the value it
            // returns owns its strings (no borrow of the input).
            let de = unsafe { &mut **(&mut d as *mut D).cast::<&mut Deserializer<'de>>() };
            let read = de.parse_value_owned();
            return read.map_err(|err| {
                debug_assert!(typeid::of::<D::Error>() == typeid::of::<Error>());
                let err = std::mem::ManuallyDrop::new(err);
                // SAFETY: ito's deserializer declares `type Error = Error`,
                // so `D::Error` is `Error` (a bitwise move; `err` is not
                // dropped).
                unsafe { std::mem::transmute_copy::<Error, D::Error>(&err) }
            });
        }
        d.deserialize_any(ValueVisitor(std::marker::PhantomData))
    }
}

struct ValueVisitor<'a>(std::marker::PhantomData<Value<'a>>);

impl<'de, 'a> Visitor<'de> for ValueVisitor<'a> {
    type Value = Value<'a>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any valid JSON value")
    }
    fn visit_unit<E>(self) -> Result<Value<'a>, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value<'a>, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Value<'a>, D::Error> {
        Value::deserialize(d)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value<'a>, E> {
        Ok(Value::Bool(b))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Value<'a>, E> {
        Ok(n.into())
    }
    fn visit_i64<E>(self, n: i64) -> Result<Value<'a>, E> {
        Ok(n.into())
    }
    fn visit_f64<E>(self, f: f64) -> Result<Value<'a>, E> {
        Ok(f.into())
    }
    fn visit_str<E>(self, s: &str) -> Result<Value<'a>, E> {
        Ok(Value::String(Text::owned(Str::from_str_copy(s))))
    }
    fn visit_string<E>(self, s: String) -> Result<Value<'a>, E> {
        Ok(Value::String(s.into()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value<'a>, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(v) = seq.next_element::<Value<'a>>()? {
            out.push(v);
        }
        Ok(Value::Array(out.into()))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value<'a>, A::Error> {
        let mut members = Vec::new();
        while let Some((k, v)) = map.next_entry::<Str, Value<'a>>()? {
            members.push((Text::owned(k), v));
        }
        Ok(Value::Object(Map::from_parsed(
            super::seq::Seq::from_vec(members),
            &mut Vec::new(),
        )))
    }
}

impl From<serde_json::Value> for Value<'static> {
    /// The same document; object members in the map's order.
    ///
    /// ```
    /// let v: ito::json::Value = serde_json::json!({"a": [1, "x"]}).into();
    /// assert_eq!(v, ito::json!({"a": [1, "x"]}));
    /// ```
    fn from(v: serde_json::Value) -> Self {
        match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(b),
            serde_json::Value::Number(n) => from_serde_number(&n),
            serde_json::Value::String(s) => s.into(),
            serde_json::Value::Array(a) => a.into_iter().map(Value::from).collect(),
            serde_json::Value::Object(o) => Value::Object(
                o.into_iter()
                    .map(|(k, v)| (Text::from(k), Value::from(v)))
                    .collect(),
            ),
        }
    }
}

fn from_serde_number(n: &serde_json::Number) -> Value<'static> {
    if precise::enabled() {
        // serde_json's Number is its text: keep it exactly.
        if let Some(exact) = Number::from_exact_text(&n.to_string()) {
            return Value::Number(exact);
        }
    }
    if let Some(u) = n.as_u64() {
        u.into()
    } else if let Some(i) = n.as_i64() {
        i.into()
    } else {
        n.as_f64().map_or(Value::Null, Value::from)
    }
}

impl From<&Value<'_>> for serde_json::Value {
    /// The same document; object members in this value's order (kept when
    /// serde_json's `preserve_order` is on, else sorted).
    ///
    /// ```
    /// let v = ito::json!({"a": [1, 2.5, "x", null, true]});
    /// assert_eq!(serde_json::Value::from(&v), serde_json::json!({"a": [1, 2.5, "x", null, true]}));
    /// ```
    fn from(v: &Value<'_>) -> Self {
        match v {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Number(n) => match n.view() {
                View::PosInt(x) => serde_json::Value::Number(x.into()),
                View::NegInt(x) => serde_json::Value::Number(x.into()),
                View::Float(x) => {
                    serde_json::Value::Number(serde_json::Number::from_f64(x).expect("finite"))
                }
                // With `arbitrary_precision` serde_json reads the text
                // exactly; without it, as its own parser would (a finite
                // `f64`; beyond that range serde_json holds no number).
                View::Exact(t) => match t.parse::<serde_json::Number>() {
                    Ok(n) if precise::enabled() => serde_json::Value::Number(n),
                    _ => n
                        .as_f64()
                        .and_then(serde_json::Number::from_f64)
                        .map_or(serde_json::Value::Null, serde_json::Value::Number),
                },
            },
            Value::String(s) => serde_json::Value::String(s.as_str().to_owned()),
            Value::Array(a) => serde_json::Value::Array(a.iter().map(Into::into).collect()),
            Value::Object(o) => {
                serde_json::Value::Object(o.iter().map(|(k, v)| (k.to_owned(), v.into())).collect())
            }
        }
    }
}

impl From<Value<'_>> for serde_json::Value {
    /// As the conversion from `&Value`.
    fn from(v: Value<'_>) -> Self {
        (&v).into()
    }
}
