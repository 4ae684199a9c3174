//! Strings: one SIMD scan to the first `"`, `\` or control byte; a string
//! with none before its closing quote is borrowed from the input, anything
//! else is decoded into the scratch buffer segment by segment.
//!
//! UTF-8 is checked only for strings where the scan saw a byte >= 0x80,
//! and only when the input did not arrive as `&str`; one check covers a
//! stretch of input ahead, so most such strings need none of their own.
//! Errors and their positions are serde_json's, including its approximate
//! column for invalid UTF-8 inside an escaped string.
//!
//! The scan also proves facts about a string, which [`with_facts`] hands
//! to types that cache them (`Str`): a string borrowed from the input has
//! no `"`, `\` or control byte, so it needs no escaping in JSON, and it is
//! ASCII when the scan saw no byte >= 0x80 before the closing quote.

use serde::de::{self, Expected};

use super::access::MapKey;
use super::error::{Code, Error};
use super::Deserializer;
use crate::simd::facts;
use crate::simd::json as kernels;

/// Bytes a UTF-8 check covers past a string that needs one (see
/// [`Deserializer::known_utf8`]).
const UTF8_AHEAD: usize = 4096;

/// A string or byte string, borrowed from the input or decoded into the
/// scratch buffer.
pub(in crate::json) enum Reference<'b, 'c, T: ?Sized> {
    Borrowed(&'b T),
    Copied(&'c T),
}

impl<'de> Deserializer<'de> {
    /// Index of the first `"`, `\` or control byte at or after `from` (or
    /// the input length), and whether a byte >= 0x80 may lie before it.
    #[inline(always)]
    fn scan(&self, from: usize) -> (usize, bool) {
        let (i, hi) = kernels::scan_start(kernels::best(), &self.input[from..]);
        (from + i, hi)
    }

    /// Whether `input[start..end]` is known to be UTF-8, where each of
    /// `start` and `end` has an ASCII byte of the input on one side (a
    /// string's quotes, a value's first and last byte): an ASCII byte is a
    /// whole char, so both are char boundaries of any valid stretch that
    /// holds them, and such a stretch proves the bytes between.
    ///
    /// Checking string by string cost a call per string, most of them
    /// too short for a vector validator (755 strings with non-ASCII text
    /// in twitter.json). A miss checks [`UTF8_AHEAD`] bytes from `start`
    /// at once, or more if the string is longer, and keeps the valid
    /// stretch found, so the next strings are usually inside it.
    #[inline(always)]
    pub(super) fn known_utf8(&mut self, start: usize, end: usize) -> bool {
        let (from, to) = self.valid;
        (from <= start && end <= to) || self.check_utf8_ahead(start, end)
    }

    #[inline(never)]
    fn check_utf8_ahead(&mut self, start: usize, end: usize) -> bool {
        let stop = self
            .input
            .len()
            .min(end.max(start.saturating_add(UTF8_AHEAD)));
        let valid = crate::simd::utf8::valid_up_to(&self.input[start..stop]);
        self.valid = (start, start + valid);
        end <= start + valid
    }

    /// A short ASCII string without escapes (most object keys), read
    /// inline; `None` leaves the cursor for [`Deserializer::parse_str`].
    #[inline(always)]
    pub(in crate::json) fn parse_short_key(&mut self) -> Option<&'de str> {
        let input = self.input;
        let start = self.index;
        let at = start + kernels::scan_short_ascii(&input[start..])?;
        self.index = at + 1;
        // SAFETY: the scan found the closing quote at `at`, with no byte
        // >= 0x80 before it (ASCII).
        Some(unsafe { std::str::from_utf8_unchecked(&input[start..at]) })
    }

    /// Reads a string whose opening quote was consumed, through its
    /// closing quote.
    #[inline]
    pub(super) fn parse_str<'s>(&'s mut self) -> Result<Reference<'de, 's, str>, Error> {
        self.parse_str_facts().map(|(s, _)| s)
    }

    /// [`Deserializer::parse_str`], with the facts the scan proved of the
    /// result (`simd::facts` bits known true; the others are not known).
    #[inline]
    pub(in crate::json) fn parse_str_facts<'s>(
        &'s mut self,
    ) -> Result<(Reference<'de, 's, str>, u8), Error> {
        let start = self.index;
        let (at, hi) = self.scan(start);
        if self.input.get(at) == Some(&b'"') {
            self.index = at + 1;
            let bytes = &self.input[start..at];
            // The scan stopped at the closing quote: no byte before it is
            // `"`, `\` or a control byte. `hi` is false only when no byte
            // before it is >= 0x80.
            let proven = if hi { facts::JSON_SAFE } else { facts::ALL };
            if hi && !self.known_utf8(start, at) {
                return match crate::simd::utf8::validate(bytes) {
                    Ok(s) => Ok((Reference::Borrowed(s), proven)),
                    Err(valid) => Err(self.utf8_error(bytes.len(), valid)),
                };
            }
            // SAFETY: either no byte is >= 0x80 (ASCII), or the text lies
            // between two ASCII quotes of input known to be UTF-8.
            let s = unsafe { std::str::from_utf8_unchecked(bytes) };
            return Ok((Reference::Borrowed(s), proven));
        }
        self.scratch.clear();
        let hi = self.parse_str_slow(start, at, hi, true)?;
        let len = self.scratch.len();
        // The raw segments lie between the quotes, and escapes decode to
        // UTF-8: the whole text known valid is enough. Otherwise the
        // decoded text is checked, for serde_json's error position.
        if hi && !self.known_utf8(start, self.index - 1) {
            if let Err(valid) = crate::simd::utf8::validate(&self.scratch) {
                return Err(self.utf8_error(len, valid));
            }
        }
        // SAFETY: the raw segments were validated above (or came from a
        // `&str` between ASCII bytes, or were ASCII), and escapes decode
        // to UTF-8 (lone surrogates are refused when validating).
        let s = unsafe { std::str::from_utf8_unchecked(&self.scratch) };
        // Decoded escapes may be anything (`\n`, `\"`, or a harmless `\/`):
        // nothing is proven.
        Ok((Reference::Copied(s), 0))
    }

    /// `deserialize_str` for a type that keeps facts: `make` receives the
    /// string and the facts the scan proved of it.
    #[inline]
    fn value_str_facts<T>(
        &mut self,
        exp: &dyn Expected,
        make: impl FnOnce(&str, u8) -> T,
    ) -> Result<T, Error> {
        let peek = match self.parse_whitespace() {
            Some(b) => b,
            None => return Err(self.peek_error(Code::EofWhileParsingValue)),
        };
        if peek != b'"' {
            return Err(self.peek_invalid_type(exp));
        }
        self.eat_char();
        match self.parse_str_facts()? {
            (Reference::Borrowed(s), f) | (Reference::Copied(s), f) => Ok(make(s, f)),
        }
    }

    /// An object key read for a type that keeps facts (the cursor is at its
    /// opening quote, as `MapKey` has it).
    #[inline]
    fn key_str_facts<T>(&mut self, make: impl FnOnce(&str, u8) -> T) -> Result<T, Error> {
        self.eat_char();
        match self.parse_str_facts()? {
            (Reference::Borrowed(s), f) | (Reference::Copied(s), f) => Ok(make(s, f)),
        }
    }

    /// Reads a string as bytes (serde_json's `parse_str_raw`): raw control
    /// bytes and invalid UTF-8 are kept, lone surrogate escapes become
    /// their WTF-8 bytes.
    pub(super) fn parse_str_raw<'s>(&'s mut self) -> Result<Reference<'de, 's, [u8]>, Error> {
        let start = self.index;
        let (mut at, _) = self.scan(start);
        loop {
            match self.input.get(at) {
                Some(b'"') => {
                    self.index = at + 1;
                    return Ok(Reference::Borrowed(&self.input[start..at]));
                }
                Some(b'\\') => break,
                Some(_) => at = self.scan(at + 1).0,
                None => {
                    self.index = at;
                    return Err(self.error(Code::EofWhileParsingString));
                }
            }
        }
        self.scratch.clear();
        self.parse_str_slow(start, at, false, false)?;
        Ok(Reference::Copied(&self.scratch))
    }

    /// The general loop: `at` is the first special byte after `start`.
    /// Decodes into `scratch` and returns whether a raw byte >= 0x80 was
    /// copied (the caller validates).
    fn parse_str_slow(
        &mut self,
        mut start: usize,
        mut at: usize,
        mut hi: bool,
        validate: bool,
    ) -> Result<bool, Error> {
        loop {
            match self.input.get(at) {
                None => {
                    self.index = at;
                    return Err(self.error(Code::EofWhileParsingString));
                }
                Some(b'"') => {
                    self.scratch.extend_from_slice(&self.input[start..at]);
                    self.index = at + 1;
                    return Ok(hi);
                }
                Some(b'\\') => {
                    self.scratch.extend_from_slice(&self.input[start..at]);
                    self.index = at + 1;
                    self.parse_escape(validate)?;
                    start = self.index;
                }
                Some(_) => {
                    if validate {
                        self.index = at + 1;
                        return Err(self.error(Code::ControlCharacterWhileParsingString));
                    }
                    // Raw control bytes are kept in byte strings.
                    let (next, h) = self.scan(at + 1);
                    hi |= h;
                    at = next;
                    continue;
                }
            }
            let (next, h) = self.scan(start);
            hi |= h;
            at = next;
        }
    }

    #[cold]
    fn utf8_error(&self, len: usize, valid: usize) -> Error {
        // serde_json points back from the byte after the closing quote by
        // the length of the text after the valid prefix (the decoded text
        // for escaped strings), not past the start of the line.
        let i = self.index;
        let line_start = self.input[..i]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let back = len - valid;
        Error::at(
            Code::InvalidUnicodeCodePoint,
            self.input,
            (i - line_start).saturating_sub(back) + line_start,
        )
    }

    /// Decodes one escape after its backslash into `scratch`.
    fn parse_escape(&mut self, validate: bool) -> Result<(), Error> {
        let ch = match self.next_char() {
            Some(c) => c,
            None => return Err(self.error(Code::EofWhileParsingString)),
        };
        let b = match ch {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 0x08,
            b'f' => 0x0c,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => return self.parse_unicode_escape(validate),
            _ => return Err(self.error(Code::InvalidEscape)),
        };
        self.scratch.push(b);
        Ok(())
    }

    fn parse_unicode_escape(&mut self, validate: bool) -> Result<(), Error> {
        let mut n = self.decode_hex_escape()?;
        if validate && (0xDC00..=0xDFFF).contains(&n) {
            return Err(self.error(Code::LoneLeadingSurrogateInHexEscape));
        }
        loop {
            if !(0xD800..=0xDBFF).contains(&n) {
                push_wtf8(n as u32, &mut self.scratch);
                return Ok(());
            }
            let n1 = n;
            match self.peek() {
                None => return Err(self.error(Code::EofWhileParsingString)),
                Some(b'\\') => self.eat_char(),
                Some(_) => {
                    if validate {
                        self.eat_char();
                        return Err(self.error(Code::UnexpectedEndOfHexEscape));
                    }
                    push_wtf8(n1 as u32, &mut self.scratch);
                    return Ok(());
                }
            }
            match self.peek() {
                None => return Err(self.error(Code::EofWhileParsingString)),
                Some(b'u') => self.eat_char(),
                Some(_) => {
                    if validate {
                        self.eat_char();
                        return Err(self.error(Code::UnexpectedEndOfHexEscape));
                    }
                    push_wtf8(n1 as u32, &mut self.scratch);
                    // The backslash starts a simple escape (not `\u`, so
                    // this does not recurse further).
                    return self.parse_escape(validate);
                }
            }
            let n2 = self.decode_hex_escape()?;
            if !(0xDC00..=0xDFFF).contains(&n2) {
                if validate {
                    return Err(self.error(Code::LoneLeadingSurrogateInHexEscape));
                }
                push_wtf8(n1 as u32, &mut self.scratch);
                n = n2;
                continue;
            }
            let c = ((((n1 - 0xD800) as u32) << 10) | (n2 - 0xDC00) as u32) + 0x1_0000;
            push_wtf8(c, &mut self.scratch);
            return Ok(());
        }
    }

    /// Four hex digits after `\u`.
    fn decode_hex_escape(&mut self) -> Result<u16, Error> {
        match self.input.get(self.index..self.index + 4) {
            Some(&[a, b, c, d]) => {
                self.index += 4;
                match (hex(a), hex(b), hex(c), hex(d)) {
                    (Some(a), Some(b), Some(c), Some(d)) => {
                        Ok((a as u16) << 12 | (b as u16) << 8 | (c as u16) << 4 | d as u16)
                    }
                    _ => Err(self.error(Code::InvalidEscape)),
                }
            }
            _ => {
                self.index = self.input.len();
                Err(self.error(Code::EofWhileParsingString))
            }
        }
    }

    /// Skips a string whose opening quote was consumed (serde_json's
    /// `ignore_str`: escapes are checked for form only, UTF-8 not at all).
    pub(super) fn ignore_str(&mut self) -> Result<(), Error> {
        let mut at = self.scan(self.index).0;
        loop {
            match self.input.get(at) {
                None => {
                    self.index = at;
                    return Err(self.error(Code::EofWhileParsingString));
                }
                Some(b'"') => {
                    self.index = at + 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    self.index = at + 1;
                    self.ignore_escape()?;
                    at = self.scan(self.index).0;
                }
                Some(_) => {
                    self.index = at;
                    return Err(self.error(Code::ControlCharacterWhileParsingString));
                }
            }
        }
    }

    fn ignore_escape(&mut self) -> Result<(), Error> {
        match self.next_char() {
            None => Err(self.error(Code::EofWhileParsingString)),
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(()),
            Some(b'u') => self.decode_hex_escape().map(drop),
            Some(_) => Err(self.error(Code::InvalidEscape)),
        }
    }
}

/// Reads a string for a type that caches what is known of its bytes
/// (`Str`): when `D` is this crate's deserializer (a value or an object
/// key), `make` receives the string and the `simd::facts` bits the scan
/// proved true of it, and the result is returned; any other deserializer
/// is handed back untouched, for its plain `deserialize_str`. `exp` names
/// what was expected in a type error.
#[inline]
pub(crate) fn with_facts<'de, D, T>(
    mut d: D,
    exp: &dyn Expected,
    make: impl FnOnce(&str, u8) -> T,
) -> Result<Result<T, D::Error>, D>
where
    D: de::Deserializer<'de>,
{
    let read = if typeid::of::<D>() == typeid::of::<&mut Deserializer<'static>>() {
        // SAFETY: `D` is `&mut Deserializer<'x>` up to lifetimes (equal
        // TypeIds of the lifetime-erased types), and `'x` is `'de`: the
        // `serde::Deserializer<'de>` impl exists only for that pairing.
        // This reborrows through `d` for the call, which copies the string
        // out and keeps no reference to the input.
        let de = unsafe { &mut **(&mut d as *mut D).cast::<&mut Deserializer<'de>>() };
        de.value_str_facts(exp, make)
    } else if typeid::of::<D>() == typeid::of::<MapKey<'static, 'static>>() {
        // SAFETY: `D` is `MapKey<'a, 'de>` up to lifetimes (equal TypeIds,
        // and its impl is for `'de` only, as above); reborrowed through
        // `d` for the call.
        let key = unsafe { &mut *(&mut d as *mut D).cast::<MapKey<'_, 'de>>() };
        key.de.key_str_facts(make)
    } else {
        return Err(d);
    };
    Ok(read.map_err(|err| {
        debug_assert!(typeid::of::<D::Error>() == typeid::of::<Error>());
        let err = std::mem::ManuallyDrop::new(err);
        // SAFETY: both deserializers above declare `type Error = Error`,
        // so `D::Error` is `Error` (a bitwise move; `err` is not dropped).
        unsafe { std::mem::transmute_copy::<Error, D::Error>(&err) }
    }))
}

#[inline]
fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Appends a code point (possibly a surrogate: WTF-8) as UTF-8 bytes.
fn push_wtf8(n: u32, out: &mut Vec<u8>) {
    if n < 0x80 {
        out.push(n as u8);
    } else if n < 0x800 {
        out.extend_from_slice(&[0xC0 | (n >> 6) as u8, 0x80 | (n & 0x3F) as u8]);
    } else if n < 0x1_0000 {
        out.extend_from_slice(&[
            0xE0 | (n >> 12) as u8,
            0x80 | ((n >> 6) & 0x3F) as u8,
            0x80 | (n & 0x3F) as u8,
        ]);
    } else {
        out.extend_from_slice(&[
            0xF0 | (n >> 18) as u8,
            0x80 | ((n >> 12) & 0x3F) as u8,
            0x80 | ((n >> 6) & 0x3F) as u8,
            0x80 | (n & 0x3F) as u8,
        ]);
    }
}

#[cfg(test)]
mod tests {
    use crate::simd::json as kernels;

    /// The index of the closing quote when every byte before it is in
    /// 0x20..=0x7F and not `\\` (what `scan_short_ascii` may answer).
    fn short_reference(body: &[u8]) -> Option<usize> {
        let end = body
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || !(0x20..0x80).contains(&b))?;
        (body[end] == b'"').then_some(end)
    }

    /// Every body of up to 40 bytes with one quote and at most one other
    /// stop (`\\`, a control byte, a byte >= 0x80) at every pair of
    /// positions: an answer is always right, and a quote within the first
    /// 32 bytes is always found when 32 bytes are in bounds (on a build
    /// with vectors).
    #[test]
    fn scan_short_ascii_against_the_reference() {
        for len in 0..=40 {
            for quote in 0..=len {
                for stop in [b'\\', 0x1F, 0x00, 0x7F, 0x80, 0xFF, b'a'] {
                    for at in 0..len {
                        let mut body = vec![b'x'; len];
                        body[at] = stop;
                        if quote < len {
                            body[quote] = b'"';
                        }
                        let want = short_reference(&body);
                        let got = kernels::scan_short_ascii(&body);
                        if got.is_some() {
                            assert_eq!(got, want, "{body:?}");
                        }
                        #[cfg(all(target_arch = "x86_64", not(miri)))]
                        if len >= 32 && want.is_some_and(|i| i < 32) {
                            assert_eq!(got, want, "{body:?}");
                        }
                    }
                }
            }
        }
    }
}
