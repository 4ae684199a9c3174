//! `serde::Deserializer` for `&mut Deserializer`: one method per data-model
//! shape, each deciding on the first byte of the value as serde_json does.

use serde::de::{self, Expected, Unexpected};

use super::access::{MapAccess, SeqAccess, UnitVariantAccess, VariantAccess};
use super::error::{Code, Error};
use super::string::Reference;
use super::{raw, Deserializer};

/// Runs `$body` one container level deeper, as serde_json's
/// `check_recursion!`: the 128th level is an error.
macro_rules! check_recursion {
    ($this:ident, $body:expr) => {{
        $this.remaining_depth -= 1;
        if $this.remaining_depth == 0 {
            return Err($this.peek_error(Code::RecursionLimitExceeded));
        }
        let ret = $body;
        $this.remaining_depth += 1;
        ret
    }};
}

impl<'de> Deserializer<'de> {
    /// The error for a value of the wrong type under the cursor, naming
    /// what was found (after reading it, so its errors come first).
    #[cold]
    #[inline(never)]
    pub(super) fn peek_invalid_type(&mut self, exp: &dyn Expected) -> Error {
        use serde::de::Error as _;
        let err = match self.peek_or_null() {
            b'n' => {
                self.eat_char();
                if let Err(err) = self.parse_ident(b"ull") {
                    return err;
                }
                Error::invalid_type(Unexpected::Unit, exp)
            }
            b't' => {
                self.eat_char();
                if let Err(err) = self.parse_ident(b"rue") {
                    return err;
                }
                Error::invalid_type(Unexpected::Bool(true), exp)
            }
            b'f' => {
                self.eat_char();
                if let Err(err) = self.parse_ident(b"alse") {
                    return err;
                }
                Error::invalid_type(Unexpected::Bool(false), exp)
            }
            b'-' => {
                self.eat_char();
                match self.any_number(false) {
                    Ok(n) => n.invalid_type(exp),
                    Err(err) => return err,
                }
            }
            b'0'..=b'9' => match self.any_number(true) {
                Ok(n) => n.invalid_type(exp),
                Err(err) => return err,
            },
            b'"' => {
                self.eat_char();
                match self.parse_str() {
                    Ok(Reference::Borrowed(s)) | Ok(Reference::Copied(s)) => {
                        Error::invalid_type(Unexpected::Str(s), exp)
                    }
                    Err(err) => return err,
                }
            }
            b'[' => Error::invalid_type(Unexpected::Seq, exp),
            b'{' => Error::invalid_type(Unexpected::Map, exp),
            _ => self.peek_error(Code::ExpectedSomeValue),
        };
        self.fix_position(err)
    }

    #[inline]
    pub(super) fn deserialize_number<V: de::Visitor<'de>>(
        &mut self,
        visitor: V,
    ) -> Result<V::Value, Error> {
        let peek = match self.parse_whitespace() {
            Some(b) => b,
            None => return Err(self.peek_error(Code::EofWhileParsingValue)),
        };
        let value = match peek {
            b'-' => {
                self.eat_char();
                self.parse_integer_typed(false)?.visit(visitor)
            }
            b'0'..=b'9' => self.parse_integer_typed(true)?.visit(visitor),
            _ => Err(self.peek_invalid_type(&visitor)),
        };
        value.map_err(|err| self.fix_position(err))
    }

    #[inline]
    pub(super) fn do_deserialize_f32<V: de::Visitor<'de>>(
        &mut self,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.single_precision = true;
        let val = self.deserialize_number(visitor);
        self.single_precision = false;
        val
    }

    pub(super) fn do_deserialize_i128<V: de::Visitor<'de>>(
        &mut self,
        visitor: V,
    ) -> Result<V::Value, Error> {
        let negative = match self.parse_whitespace() {
            Some(b'-') => {
                self.eat_char();
                true
            }
            Some(_) => false,
            None => return Err(self.peek_error(Code::EofWhileParsingValue)),
        };
        let start = self.index;
        self.scan_integer128()?;
        let digits = &self.input[start..self.index];
        let value = match parse_u128(digits) {
            Some(m) if !negative && m <= i128::MAX as u128 => visitor.visit_i128(m as i128),
            Some(m) if negative && m <= i128::MIN.unsigned_abs() => {
                visitor.visit_i128((m as i128).wrapping_neg())
            }
            _ => return Err(self.error(Code::NumberOutOfRange)),
        };
        value.map_err(|err| self.fix_position(err))
    }

    pub(super) fn do_deserialize_u128<V: de::Visitor<'de>>(
        &mut self,
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.parse_whitespace() {
            Some(b'-') => return Err(self.peek_error(Code::NumberOutOfRange)),
            Some(_) => {}
            None => return Err(self.peek_error(Code::EofWhileParsingValue)),
        }
        let start = self.index;
        self.scan_integer128()?;
        let value = match parse_u128(&self.input[start..self.index]) {
            Some(m) => visitor.visit_u128(m),
            None => return Err(self.error(Code::NumberOutOfRange)),
        };
        value.map_err(|err| self.fix_position(err))
    }

    fn scan_integer128(&mut self) -> Result<(), Error> {
        match self.next_char().unwrap_or(0) {
            b'0' => match self.peek_or_null() {
                b'0'..=b'9' => Err(self.peek_error(Code::InvalidNumber)),
                _ => Ok(()),
            },
            b'1'..=b'9' => {
                while let b'0'..=b'9' = self.peek_or_null() {
                    self.eat_char();
                }
                Ok(())
            }
            _ => Err(self.error(Code::InvalidNumber)),
        }
    }

    /// Skips one value, checking its grammar (serde_json's `ignore_value`:
    /// its own stack of open containers, no depth limit, strings checked
    /// for form only).
    pub(super) fn ignore_value(&mut self) -> Result<(), Error> {
        let mut stack: Vec<u8> = Vec::new();
        let mut enclosing: Option<u8> = None;
        loop {
            let peek = match self.parse_whitespace() {
                Some(b) => b,
                None => return Err(self.peek_error(Code::EofWhileParsingValue)),
            };
            let frame = match peek {
                b'n' => {
                    self.eat_char();
                    self.parse_ident(b"ull")?;
                    None
                }
                b't' => {
                    self.eat_char();
                    self.parse_ident(b"rue")?;
                    None
                }
                b'f' => {
                    self.eat_char();
                    self.parse_ident(b"alse")?;
                    None
                }
                b'-' => {
                    self.eat_char();
                    self.ignore_integer()?;
                    None
                }
                b'0'..=b'9' => {
                    self.ignore_integer()?;
                    None
                }
                b'"' => {
                    self.eat_char();
                    self.ignore_str()?;
                    None
                }
                frame @ (b'[' | b'{') => {
                    stack.extend(enclosing.take());
                    self.eat_char();
                    Some(frame)
                }
                _ => return Err(self.peek_error(Code::ExpectedSomeValue)),
            };

            let (mut accept_comma, mut frame) = match frame {
                Some(frame) => (false, frame),
                None => match enclosing.take() {
                    Some(frame) => (true, frame),
                    None => match stack.pop() {
                        Some(frame) => (true, frame),
                        None => return Ok(()),
                    },
                },
            };

            loop {
                match self.parse_whitespace() {
                    Some(b',') if accept_comma => {
                        self.eat_char();
                        break;
                    }
                    Some(b']') if frame == b'[' => {}
                    Some(b'}') if frame == b'{' => {}
                    Some(_) => {
                        if accept_comma {
                            return Err(self.peek_error(if frame == b'[' {
                                Code::ExpectedListCommaOrEnd
                            } else {
                                Code::ExpectedObjectCommaOrEnd
                            }));
                        } else {
                            break;
                        }
                    }
                    None => {
                        return Err(self.peek_error(if frame == b'[' {
                            Code::EofWhileParsingList
                        } else {
                            Code::EofWhileParsingObject
                        }));
                    }
                }
                self.eat_char();
                frame = match stack.pop() {
                    Some(frame) => frame,
                    None => return Ok(()),
                };
                accept_comma = true;
            }

            if frame == b'{' {
                match self.parse_whitespace() {
                    Some(b'"') => self.eat_char(),
                    Some(_) => return Err(self.peek_error(Code::KeyMustBeAString)),
                    None => return Err(self.peek_error(Code::EofWhileParsingObject)),
                }
                self.ignore_str()?;
                match self.parse_whitespace() {
                    Some(b':') => self.eat_char(),
                    Some(_) => return Err(self.peek_error(Code::ExpectedColon)),
                    None => return Err(self.peek_error(Code::EofWhileParsingObject)),
                }
            }
            enclosing = Some(frame);
        }
    }

    fn ignore_integer(&mut self) -> Result<(), Error> {
        match self.next_char().unwrap_or(0) {
            b'0' => {
                if let b'0'..=b'9' = self.peek_or_null() {
                    return Err(self.peek_error(Code::InvalidNumber));
                }
            }
            b'1'..=b'9' => {
                while let b'0'..=b'9' = self.peek_or_null() {
                    self.eat_char();
                }
            }
            _ => return Err(self.error(Code::InvalidNumber)),
        }
        match self.peek_or_null() {
            b'.' => self.ignore_decimal(),
            b'e' | b'E' => self.ignore_exponent(),
            _ => Ok(()),
        }
    }

    fn ignore_decimal(&mut self) -> Result<(), Error> {
        self.eat_char();
        let mut any = false;
        while let b'0'..=b'9' = self.peek_or_null() {
            self.eat_char();
            any = true;
        }
        if !any {
            return Err(self.peek_error(Code::InvalidNumber));
        }
        match self.peek_or_null() {
            b'e' | b'E' => self.ignore_exponent(),
            _ => Ok(()),
        }
    }

    fn ignore_exponent(&mut self) -> Result<(), Error> {
        self.eat_char();
        if let b'+' | b'-' = self.peek_or_null() {
            self.eat_char();
        }
        match self.next_char().unwrap_or(0) {
            b'0'..=b'9' => {}
            _ => return Err(self.error(Code::InvalidNumber)),
        }
        while let b'0'..=b'9' = self.peek_or_null() {
            self.eat_char();
        }
        Ok(())
    }

    /// The closing `]` of a sequence (after its visitor is done).
    #[inline]
    pub(super) fn end_seq(&mut self) -> Result<(), Error> {
        match self.parse_whitespace() {
            Some(b']') => {
                self.eat_char();
                Ok(())
            }
            Some(b',') => {
                self.eat_char();
                match self.parse_whitespace() {
                    Some(b']') => Err(self.peek_error(Code::TrailingComma)),
                    _ => Err(self.peek_error(Code::TrailingCharacters)),
                }
            }
            Some(_) => Err(self.peek_error(Code::TrailingCharacters)),
            None => Err(self.peek_error(Code::EofWhileParsingList)),
        }
    }

    /// The closing `}` of a map (after its visitor is done).
    #[inline]
    pub(super) fn end_map(&mut self) -> Result<(), Error> {
        match self.parse_whitespace() {
            Some(b'}') => {
                self.eat_char();
                Ok(())
            }
            Some(b',') => Err(self.peek_error(Code::TrailingComma)),
            Some(_) => Err(self.peek_error(Code::TrailingCharacters)),
            None => Err(self.peek_error(Code::EofWhileParsingObject)),
        }
    }

    #[inline]
    pub(in crate::json) fn parse_object_colon(&mut self) -> Result<(), Error> {
        match self.parse_whitespace() {
            Some(b':') => {
                self.eat_char();
                // Pretty-printed text has `": "` before every value: skip
                // that one space here, so the value's own whitespace check
                // sees its first byte and needs no call.
                if let [b' ', next, ..] = self.input[self.index..] {
                    if next > b' ' {
                        self.index += 1;
                    }
                }
                Ok(())
            }
            Some(_) => Err(self.peek_error(Code::ExpectedColon)),
            None => Err(self.peek_error(Code::EofWhileParsingObject)),
        }
    }

    /// `[` consumed: visit the sequence, then expect its `]` (also after
    /// an error, as serde_json does, so data errors point past it).
    #[inline]
    fn visit_seq_here<V: de::Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        let ret = check_recursion!(self, {
            self.eat_char();
            visitor.visit_seq(SeqAccess::new(self))
        });
        // The two outcomes part here, before `]` is read: merged into one
        // `Result` first, a value of 4 bytes (an `f32`) and an error's
        // pointer of 8 shared a stack slot, and reading the value back
        // stalled (a 4-byte store forwarded to an 8-byte load).
        match ret {
            Ok(ret) => self.end_seq().map(|()| ret),
            Err(err) => Err(self.end_seq_after_error(err)),
        }
    }

    /// A visitor's error inside a sequence: its `]` is still read (its
    /// own errors are dropped), so the error's position, fixed later,
    /// points past it as serde_json's does.
    #[cold]
    #[inline(never)]
    fn end_seq_after_error(&mut self, err: Error) -> Error {
        let _ = self.end_seq();
        err
    }

    #[inline]
    fn visit_map_here<V: de::Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        let ret = check_recursion!(self, {
            self.eat_char();
            visitor.visit_map(MapAccess::new(self))
        });
        match (ret, self.end_map()) {
            (Ok(ret), Ok(())) => Ok(ret),
            (Err(err), _) | (_, Err(err)) => Err(err),
        }
    }

    /// The value's text for a raw-value marker: skipped with
    /// [`ignore_value`](Self::ignore_value), UTF-8 checked.
    pub(super) fn raw_text(&mut self) -> Result<&'de str, Error> {
        self.parse_whitespace();
        let start = self.index;
        self.ignore_value()?;
        let raw = &self.input[start..self.index];
        if self.known_utf8(start, self.index) {
            // SAFETY: a JSON value starts and ends at ASCII bytes, so in
            // text known to be UTF-8 it starts and ends at char boundaries.
            return Ok(unsafe { std::str::from_utf8_unchecked(raw) });
        }
        crate::simd::utf8::validate(raw).map_err(|valid| {
            Error::at(Code::InvalidUnicodeCodePoint, self.input, start + valid + 1)
        })
    }
}

fn parse_u128(digits: &[u8]) -> Option<u128> {
    let mut m: u128 = 0;
    for &d in digits {
        m = m.checked_mul(10)?.checked_add((d - b'0') as u128)?;
    }
    Some(m)
}

macro_rules! deserialize_number {
    ($($method:ident => $using:ident,)*) => {$(
        #[inline]
        fn $method<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            self.$using(visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let peek = match self.parse_whitespace() {
            Some(b) => b,
            None => return Err(self.peek_error(Code::EofWhileParsingValue)),
        };
        let value = match peek {
            b'n' => {
                self.eat_char();
                self.parse_ident(b"ull")?;
                visitor.visit_unit()
            }
            b't' => {
                self.eat_char();
                self.parse_ident(b"rue")?;
                visitor.visit_bool(true)
            }
            b'f' => {
                self.eat_char();
                self.parse_ident(b"alse")?;
                visitor.visit_bool(false)
            }
            b'-' => {
                self.eat_char();
                self.any_number(false)?.visit(visitor)
            }
            b'0'..=b'9' => self.any_number(true)?.visit(visitor),
            b'"' => {
                self.eat_char();
                match self.parse_str()? {
                    Reference::Borrowed(s) => visitor.visit_borrowed_str(s),
                    Reference::Copied(s) => visitor.visit_str(s),
                }
            }
            b'[' => self.visit_seq_here(visitor),
            b'{' => self.visit_map_here(visitor),
            _ => Err(self.peek_error(Code::ExpectedSomeValue)),
        };
        value.map_err(|err| self.fix_position(err))
    }

    fn deserialize_bool<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let peek = match self.parse_whitespace() {
            Some(b) => b,
            None => return Err(self.peek_error(Code::EofWhileParsingValue)),
        };
        let value = match peek {
            b't' => {
                self.eat_char();
                self.parse_ident(b"rue")?;
                visitor.visit_bool(true)
            }
            b'f' => {
                self.eat_char();
                self.parse_ident(b"alse")?;
                visitor.visit_bool(false)
            }
            _ => Err(self.peek_invalid_type(&visitor)),
        };
        value.map_err(|err| self.fix_position(err))
    }

    deserialize_number! {
        deserialize_i8 => deserialize_number,
        deserialize_i16 => deserialize_number,
        deserialize_i32 => deserialize_number,
        deserialize_i64 => deserialize_number,
        deserialize_u8 => deserialize_number,
        deserialize_u16 => deserialize_number,
        deserialize_u32 => deserialize_number,
        deserialize_u64 => deserialize_number,
        deserialize_f32 => do_deserialize_f32,
        deserialize_f64 => deserialize_number,
        deserialize_i128 => do_deserialize_i128,
        deserialize_u128 => do_deserialize_u128,
    }

    fn deserialize_char<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    #[inline]
    fn deserialize_str<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let peek = match self.parse_whitespace() {
            Some(b) => b,
            None => return Err(self.peek_error(Code::EofWhileParsingValue)),
        };
        let value = match peek {
            b'"' => {
                self.eat_char();
                match self.parse_str()? {
                    Reference::Borrowed(s) => visitor.visit_borrowed_str(s),
                    Reference::Copied(s) => visitor.visit_str(s),
                }
            }
            _ => Err(self.peek_invalid_type(&visitor)),
        };
        value.map_err(|err| self.fix_position(err))
    }

    #[inline]
    fn deserialize_string<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let peek = match self.parse_whitespace() {
            Some(b) => b,
            None => return Err(self.peek_error(Code::EofWhileParsingValue)),
        };
        let value = match peek {
            b'"' => {
                self.eat_char();
                match self.parse_str_raw()? {
                    Reference::Borrowed(b) => visitor.visit_borrowed_bytes(b),
                    Reference::Copied(b) => visitor.visit_bytes(b),
                }
            }
            b'[' => self.deserialize_seq(visitor),
            _ => Err(self.peek_invalid_type(&visitor)),
        };
        value.map_err(|err| self.fix_position(err))
    }

    fn deserialize_byte_buf<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_bytes(visitor)
    }

    #[inline]
    fn deserialize_option<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.parse_whitespace() {
            Some(b'n') => {
                self.eat_char();
                self.parse_ident(b"ull")?;
                visitor.visit_none()
            }
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let peek = match self.parse_whitespace() {
            Some(b) => b,
            None => return Err(self.peek_error(Code::EofWhileParsingValue)),
        };
        let value = match peek {
            b'n' => {
                self.eat_char();
                self.parse_ident(b"ull")?;
                visitor.visit_unit()
            }
            _ => Err(self.peek_invalid_type(&visitor)),
        };
        value.map_err(|err| self.fix_position(err))
    }

    fn deserialize_unit_struct<V: de::Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    #[inline]
    fn deserialize_newtype_struct<V: de::Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if let Some(marker) = raw::marker(name) {
            return raw::deserialize(self, marker, visitor);
        }
        visitor.visit_newtype_struct(self)
    }

    #[inline]
    fn deserialize_seq<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let peek = match self.parse_whitespace() {
            Some(b) => b,
            None => return Err(self.peek_error(Code::EofWhileParsingValue)),
        };
        let value = match peek {
            b'[' => self.visit_seq_here(visitor),
            _ => Err(self.peek_invalid_type(&visitor)),
        };
        value.map_err(|err| self.fix_position(err))
    }

    #[inline]
    fn deserialize_tuple<V: de::Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: de::Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let peek = match self.parse_whitespace() {
            Some(b) => b,
            None => return Err(self.peek_error(Code::EofWhileParsingValue)),
        };
        let value = match peek {
            b'{' => self.visit_map_here(visitor),
            _ => Err(self.peek_invalid_type(&visitor)),
        };
        value.map_err(|err| self.fix_position(err))
    }

    #[inline]
    fn deserialize_struct<V: de::Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let peek = match self.parse_whitespace() {
            Some(b) => b,
            None => return Err(self.peek_error(Code::EofWhileParsingValue)),
        };
        let value = match peek {
            b'[' => self.visit_seq_here(visitor),
            b'{' => self.visit_map_here(visitor),
            _ => Err(self.peek_invalid_type(&visitor)),
        };
        value.map_err(|err| self.fix_position(err))
    }

    fn deserialize_enum<V: de::Visitor<'de>>(
        self,
        _name: &str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.parse_whitespace() {
            Some(b'{') => {
                let value = check_recursion!(self, {
                    self.eat_char();
                    visitor.visit_enum(VariantAccess::new(self))
                })?;
                match self.parse_whitespace() {
                    Some(b'}') => {
                        self.eat_char();
                        Ok(value)
                    }
                    Some(_) => Err(self.error(Code::ExpectedSomeValue)),
                    None => Err(self.error(Code::EofWhileParsingObject)),
                }
            }
            Some(b'"') => visitor.visit_enum(UnitVariantAccess::new(self)),
            Some(_) => Err(self.peek_error(Code::ExpectedSomeValue)),
            None => Err(self.peek_error(Code::EofWhileParsingValue)),
        }
    }

    #[inline]
    fn deserialize_identifier<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.ignore_value()?;
        visitor.visit_unit()
    }
}
