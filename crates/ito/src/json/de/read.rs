//! The cursor over the input: bytes, whitespace, literals and the
//! positions of errors.
//!
//! The cursor is an index into the borrowed input; every read is
//! bounds-checked against its length (the kernels it calls never read
//! past it either). An error's line and column are computed only when the
//! error is made, by counting newlines in the prefix (serde_json's trick),
//! so the happy path counts nothing.

use super::error::{Code, Error};
use super::Deserializer;

/// Sixteen spaces, as a little-endian word.
const SPACES: u128 = u128::from_ne_bytes([b' '; 16]);

impl<'de> Deserializer<'de> {
    #[inline(always)]
    pub(super) fn peek(&self) -> Option<u8> {
        self.input.get(self.index).copied()
    }

    #[inline(always)]
    pub(in crate::json) fn peek_or_null(&self) -> u8 {
        self.peek().unwrap_or(0)
    }

    #[inline(always)]
    pub(in crate::json) fn eat_char(&mut self) {
        self.index += 1;
    }

    #[inline(always)]
    pub(super) fn next_char(&mut self) -> Option<u8> {
        let c = self.peek();
        if c.is_some() {
            self.index += 1;
        }
        c
    }

    /// An error about the byte just consumed (or the end of the input).
    #[cold]
    #[inline(never)]
    pub(super) fn error(&self, code: Code) -> Error {
        Error::at(code, self.input, self.index)
    }

    /// An error about the byte under the cursor (not yet consumed).
    #[cold]
    #[inline(never)]
    pub(in crate::json) fn peek_error(&self, code: Code) -> Error {
        Error::at(code, self.input, self.index + 1)
    }

    /// Positions an error a `Deserialize` implementation raised.
    #[cold]
    #[inline(never)]
    pub(super) fn fix_position(&self, err: Error) -> Error {
        err.fix_position(self.input, self.index)
    }

    /// Skips JSON whitespace and returns the next byte without consuming
    /// it, or `None` at the end of the input.
    #[inline(always)]
    pub(in crate::json) fn parse_whitespace(&mut self) -> Option<u8> {
        match self.input.get(self.index) {
            Some(&b) if b > b' ' => Some(b),
            _ => self.skip_whitespace(),
        }
    }

    /// As [`parse_whitespace`](Self::parse_whitespace), first trying the
    /// run that indented text has between tokens: a newline and at most
    /// 31 spaces, read as 16-byte words (each only where 16 bytes remain,
    /// so every read stays in bounds). Anything else goes to the cached
    /// block scan. The `json::Value` loop calls this after `,`, `[`, `{`
    /// and before a closing bracket, where pretty-printed text puts its
    /// line breaks (twitter.json: 15,500 such runs, half its whitespace
    /// calls; the out-of-line scan was 13 % of its parse).
    #[inline(always)]
    pub(in crate::json) fn parse_whitespace_indent(&mut self) -> Option<u8> {
        let i = self.index;
        match self.input.get(i) {
            Some(&b) if b > b' ' => return Some(b),
            Some(b'\n') => {
                // Two words at most: indents of up to 31 spaces.
                let mut at = i + 1;
                while let Some(word) = self.input.get(at..at + 16) {
                    let word = u128::from_le_bytes(word.try_into().expect("16 bytes"));
                    // Bytes that are not a space are non-zero after the
                    // xor: the first one ends the run.
                    let n = (word ^ SPACES).trailing_zeros() / 8;
                    if n < 16 {
                        let b = (word >> (n * 8)) as u8;
                        if b > b' ' {
                            self.index = at + n as usize;
                            return Some(b);
                        }
                        break;
                    }
                    if at > i + 1 {
                        break;
                    }
                    at += 16;
                }
            }
            _ => {}
        }
        self.skip_whitespace()
    }

    #[inline(never)]
    fn skip_whitespace(&mut self) -> Option<u8> {
        self.index = self.space.skip(self.input, self.index);
        self.peek()
    }

    /// Consumes `ident` (the rest of `null`, `true`, `false`), reporting
    /// the first byte that differs as serde_json does.
    #[inline]
    pub(in crate::json) fn parse_ident(&mut self, ident: &[u8]) -> Result<(), Error> {
        if self.input[self.index..].starts_with(ident) {
            self.index += ident.len();
            return Ok(());
        }
        for &expected in ident {
            match self.next_char() {
                None => return Err(self.error(Code::EofWhileParsingValue)),
                Some(next) if next != expected => return Err(self.error(Code::ExpectedSomeIdent)),
                Some(_) => {}
            }
        }
        Ok(())
    }
}
