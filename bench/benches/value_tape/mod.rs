//! The floor of the `Value` rows: serde_json's own `Value` building fed
//! from a token tape, with nothing to parse. The tape is contiguous and
//! its strings lie in one buffer in document order (as they do in the
//! text, keys as written), numbers are already numbers, and `Value`'s `Deserialize` visits
//! the same calls a parser makes (`visit_borrowed_str`, `visit_map`, ...).
//! What a parser costs above this floor is its own work.

use serde::de::{self, Deserialize, DeserializeSeed, Visitor};
use serde_json::Value;

#[derive(Clone, Copy)]
enum Token {
    Null,
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    /// A string: its range in the tape's text.
    Str(u32, u32),
    /// An array or object and its length (objects: key, value pairs).
    Seq(u32),
    Map(u32),
}

/// A document as tokens, to be replayed into a `Value`.
pub struct Tape {
    tokens: Vec<Token>,
    text: String,
}

impl Tape {
    /// The tokens of the JSON text `json`, in document order (object keys
    /// as written, not sorted as a `Value` holds them).
    pub fn of(json: &[u8]) -> Tape {
        let mut tape = Tape {
            tokens: Vec::new(),
            text: String::new(),
        };
        let mut de = serde_json::Deserializer::from_slice(json);
        Record(&mut tape).deserialize(&mut de).unwrap();
        assert!(
            tape.replay() == serde_json::from_slice::<Value>(json).unwrap(),
            "tape replay differs"
        );
        tape
    }

    fn push_str(&mut self, s: &str) {
        let start = self.text.len() as u32;
        self.text.push_str(s);
        self.tokens.push(Token::Str(start, self.text.len() as u32));
    }

    /// The `Value`, built by `Value::deserialize` from the tokens.
    pub fn replay(&self) -> Value {
        let mut r = Replay {
            tokens: &self.tokens,
            at: 0,
            text: &self.text,
        };
        Value::deserialize(&mut r).unwrap()
    }
}

/// Records one value (and what it holds) onto the tape.
struct Record<'t>(&'t mut Tape);

impl<'de> DeserializeSeed<'de> for Record<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Record<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        self.0.tokens.push(Token::Null);
        Ok(())
    }
    fn visit_bool<E>(self, b: bool) -> Result<(), E> {
        self.0.tokens.push(Token::Bool(b));
        Ok(())
    }
    fn visit_u64<E>(self, u: u64) -> Result<(), E> {
        self.0.tokens.push(Token::U64(u));
        Ok(())
    }
    fn visit_i64<E>(self, i: i64) -> Result<(), E> {
        self.0.tokens.push(Token::I64(i));
        Ok(())
    }
    fn visit_f64<E>(self, f: f64) -> Result<(), E> {
        self.0.tokens.push(Token::F64(f));
        Ok(())
    }
    fn visit_str<E>(self, s: &str) -> Result<(), E> {
        self.0.push_str(s);
        Ok(())
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let at = self.0.tokens.len();
        self.0.tokens.push(Token::Seq(0));
        let mut n = 0;
        while seq.next_element_seed(Record(&mut *self.0))?.is_some() {
            n += 1;
        }
        self.0.tokens[at] = Token::Seq(n);
        Ok(())
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let at = self.0.tokens.len();
        self.0.tokens.push(Token::Map(0));
        let mut n = 0;
        while let Some(key) = map.next_key::<String>()? {
            self.0.push_str(&key);
            map.next_value_seed(Record(&mut *self.0))?;
            n += 1;
        }
        self.0.tokens[at] = Token::Map(n);
        Ok(())
    }
}

struct Replay<'a> {
    tokens: &'a [Token],
    at: usize,
    text: &'a str,
}

#[derive(Debug)]
struct Never;

impl std::fmt::Display for Never {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("tape replay error")
    }
}

impl std::error::Error for Never {}

impl de::Error for Never {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Never
    }
}

/// The elements of an array, or the keys and values of an object, left.
struct Items<'r, 'a> {
    r: &'r mut Replay<'a>,
    left: u32,
}

impl<'de> Items<'_, 'de> {
    /// The next element or key, if any are left.
    fn next<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Never> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.r).map(Some)
    }
}

impl<'de> de::SeqAccess<'de> for Items<'_, 'de> {
    type Error = Never;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Never> {
        self.next(seed)
    }
}

impl<'de> de::MapAccess<'de> for Items<'_, 'de> {
    type Error = Never;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Never> {
        self.next(seed)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Never> {
        seed.deserialize(&mut *self.r)
    }
}

impl<'de> de::Deserializer<'de> for &mut Replay<'de> {
    type Error = Never;
    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Never> {
        let token = self.tokens[self.at];
        self.at += 1;
        match token {
            Token::Null => v.visit_unit(),
            Token::Bool(b) => v.visit_bool(b),
            Token::U64(u) => v.visit_u64(u),
            Token::I64(i) => v.visit_i64(i),
            Token::F64(f) => v.visit_f64(f),
            Token::Str(a, b) => v.visit_borrowed_str(&self.text[a as usize..b as usize]),
            Token::Seq(n) => v.visit_seq(Items { r: self, left: n }),
            Token::Map(n) => v.visit_map(Items { r: self, left: n }),
        }
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
        byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map
        struct enum identifier ignored_any
    }
}
