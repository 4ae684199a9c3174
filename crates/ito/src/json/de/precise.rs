//! serde_json's `arbitrary_precision` feature, read as serde_json reads it.
//!
//! With that feature on anywhere in a build, serde_json's `Number` is the
//! number's text, and serde_json's own parser hands every number that is
//! not a plain `u64`/`i64` to the visitor as a one-entry map whose key is
//! a private marker and whose value is the text (exponent spelled `e`
//! with an explicit sign). `Value` and `Number` rebuild themselves from
//! it. Such numbers have no range limit: `1e400` is a valid `Number`.
//!
//! ito cannot see another crate's features at compile time, so it asks
//! serde_json once at run time (a number that only that feature keeps
//! exactly) and then speaks the same protocol, in the same places:
//! `deserialize_any` and the "invalid type" error of a number.

use std::sync::atomic::{AtomicU8, Ordering};

use serde::de::{self, value::BorrowedStrDeserializer, value::StringDeserializer};

use super::error::{Code, Error};
use super::number::ParserNumber;
use super::Deserializer;

/// The key serde_json's number visitors look for.
const TOKEN: &str = "$serde_json::private::Number";

/// Whether serde_json's `arbitrary_precision` is on in this build.
pub(in crate::json) fn enabled() -> bool {
    // 0: not asked yet, 1: off, 2: on. Every thread computes the same
    // answer, so a relaxed race is harmless.
    static STATE: AtomicU8 = AtomicU8::new(0);
    match STATE.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => {
            // 2^64 is not a u64: without the feature it becomes a float
            // and prints differently.
            const PROBE: &str = "18446744073709551616";
            let on = serde_json::from_str::<serde_json::Number>(PROBE)
                .is_ok_and(|n| n.to_string() == PROBE);
            STATE.store(if on { 2 } else { 1 }, Ordering::Relaxed);
            on
        }
    }
}

/// A number as serde_json reads it under `arbitrary_precision`.
pub(super) enum AnyNumber {
    Plain(ParserNumber),
    Text(String),
}

impl AnyNumber {
    pub(super) fn visit<'de, V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            AnyNumber::Plain(n) => n.visit(visitor),
            AnyNumber::Text(text) => visitor.visit_map(NumberMarker { text: Some(text) }),
        }
    }

    #[cold]
    pub(super) fn invalid_type(self, exp: &dyn de::Expected) -> Error {
        match self {
            AnyNumber::Plain(n) => n.invalid_type(exp),
            AnyNumber::Text(_) => de::Error::invalid_type(de::Unexpected::Other("number"), exp),
        }
    }
}

/// The one-entry map: the marker, then the number's text.
struct NumberMarker {
    text: Option<String>,
}

impl<'de> de::MapAccess<'de> for NumberMarker {
    type Error = Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        if self.text.is_none() {
            return Ok(None);
        }
        seed.deserialize(BorrowedStrDeserializer::new(TOKEN))
            .map(Some)
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let text = self.text.take().expect("value after key");
        seed.deserialize(StringDeserializer::new(text))
    }
}

impl<'de> Deserializer<'de> {
    /// A number whose sign (if `-`) was consumed, as serde_json's
    /// `deserialize_any` reads it in this build.
    #[inline]
    pub(super) fn any_number(&mut self, positive: bool) -> Result<AnyNumber, Error> {
        if enabled() {
            self.parse_any_number(positive)
        } else {
            self.parse_integer(positive).map(AnyNumber::Plain)
        }
    }

    /// A number whose sign (if `-`) was consumed: `u64`/`i64` when it is
    /// one (`-0` is not), otherwise its text, checked with serde_json's
    /// grammar errors but no range.
    fn parse_any_number(&mut self, positive: bool) -> Result<AnyNumber, Error> {
        let start = self.index;
        self.scan_number()?;
        let written = &self.input[start..self.index];
        let mut text = String::with_capacity(written.len() + 2);
        if !positive {
            text.push('-');
        }
        let mut bytes = written.iter().peekable();
        while let Some(&b) = bytes.next() {
            if b == b'e' || b == b'E' {
                text.push('e');
                if bytes.peek().is_some_and(|b| b.is_ascii_digit()) {
                    text.push('+');
                }
            } else {
                text.push(b as char);
            }
        }
        if positive {
            if let Ok(n) = text.parse() {
                return Ok(AnyNumber::Plain(ParserNumber::U64(n)));
            }
        } else if text != "-0" {
            if let Ok(n) = text.parse() {
                return Ok(AnyNumber::Plain(ParserNumber::I64(n)));
            }
        }
        Ok(AnyNumber::Text(text))
    }

    /// Consumes a number's digits, fraction and exponent, with serde_json's
    /// grammar errors at serde_json's positions.
    pub(in crate::json) fn scan_number(&mut self) -> Result<(), Error> {
        match self.next_char() {
            None => return Err(self.error(Code::EofWhileParsingValue)),
            Some(b'0') => {
                if self.peek_or_null().is_ascii_digit() {
                    return Err(self.peek_error(Code::InvalidNumber));
                }
            }
            Some(b'1'..=b'9') => self.skip_digits(),
            Some(_) => return Err(self.error(Code::InvalidNumber)),
        }
        if self.peek_or_null() == b'.' {
            self.eat_char();
            if !self.peek_or_null().is_ascii_digit() {
                return Err(match self.peek() {
                    Some(_) => self.peek_error(Code::InvalidNumber),
                    None => self.peek_error(Code::EofWhileParsingValue),
                });
            }
            self.skip_digits();
        }
        if let b'e' | b'E' = self.peek_or_null() {
            self.eat_char();
            if let b'+' | b'-' = self.peek_or_null() {
                self.eat_char();
            }
            match self.next_char() {
                None => return Err(self.error(Code::EofWhileParsingValue)),
                Some(b'0'..=b'9') => self.skip_digits(),
                Some(_) => return Err(self.error(Code::InvalidNumber)),
            }
        }
        Ok(())
    }

    fn skip_digits(&mut self) {
        while self.peek_or_null().is_ascii_digit() {
            self.eat_char();
        }
    }
}
