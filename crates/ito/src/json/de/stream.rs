//! A stream of whitespace-separated JSON values (JSON lines).

use std::iter::FusedIterator;
use std::marker::PhantomData;

use serde::de;

use super::error::{Code, Error};
use super::Deserializer;

/// An iterator over the values of an input holding several JSON values
/// separated by whitespace (JSON lines, or values simply concatenated),
/// made by [`Deserializer::into_iter`]. It behaves as serde_json's
/// `StreamDeserializer`: a value that does not end itself (a number,
/// `true`…) must be followed by whitespace or the start of the next
/// self-delimiting value; after an error the stream ends.
///
/// ```
/// let de = ito::json::Deserializer::from_slice(b"1 [2] {\"a\":3}\"x\"");
/// let values: Vec<serde_json::Value> = de.into_iter().collect::<Result<_, _>>().unwrap();
/// assert_eq!(values.len(), 4);
/// ```
pub struct StreamDeserializer<'de, T> {
    de: Deserializer<'de>,
    offset: usize,
    start: usize,
    output: PhantomData<fn() -> T>,
}

impl<'de, T: de::Deserialize<'de>> StreamDeserializer<'de, T> {
    pub(super) fn new(de: Deserializer<'de>) -> Self {
        let offset = de.index;
        StreamDeserializer {
            de,
            offset,
            start: offset,
            output: PhantomData,
        }
    }

    /// The number of bytes read into successful values so far (where the
    /// last good value ended), as serde_json's `byte_offset`: after an
    /// EOF error, `input[byte_offset()..]` joined with more data can be
    /// read again.
    ///
    /// ```
    /// let de = ito::json::Deserializer::from_slice(b"[0] [1] [");
    /// let mut stream = de.into_iter::<Vec<u8>>();
    /// assert_eq!(stream.byte_offset(), 0);
    /// stream.next().unwrap().unwrap();
    /// assert_eq!(stream.byte_offset(), 3);
    /// stream.next().unwrap().unwrap();
    /// assert_eq!(stream.byte_offset(), 7);
    /// assert!(stream.next().unwrap().unwrap_err().is_eof());
    /// assert_eq!(stream.byte_offset(), 8);
    /// ```
    pub fn byte_offset(&self) -> usize {
        self.offset
    }

    /// Where the value last returned by [`next`](Iterator::next) (or its
    /// error) starts: the offset of its first byte, after any whitespace.
    ///
    /// ```
    /// let de = ito::json::Deserializer::from_str("  7\n  [8]");
    /// let mut stream = de.into_iter::<serde_json::Value>();
    /// stream.next();
    /// assert_eq!(stream.value_offset(), 2);
    /// stream.next();
    /// assert_eq!(stream.value_offset(), 6);
    /// ```
    pub fn value_offset(&self) -> usize {
        self.start
    }

    fn peek_end_of_value(&mut self) -> Result<(), Error> {
        match self.de.peek() {
            Some(b' ' | b'\n' | b'\t' | b'\r' | b'"' | b'[' | b']' | b'{' | b'}' | b',' | b':')
            | None => Ok(()),
            Some(_) => Err(self.de.peek_error(Code::TrailingCharacters)),
        }
    }

    fn fail(&mut self) {
        // As serde_json's slice reader: forget the rest of the input.
        self.de.input = &self.de.input[..self.de.index.min(self.de.input.len())];
    }
}

impl<'de, T: de::Deserialize<'de>> Iterator for StreamDeserializer<'de, T> {
    type Item = Result<T, Error>;

    fn next(&mut self) -> Option<Result<T, Error>> {
        let b = match self.de.parse_whitespace() {
            None => {
                self.offset = self.de.index;
                return None;
            }
            Some(b) => b,
        };
        let self_delimited = matches!(b, b'[' | b'"' | b'{');
        self.offset = self.de.index;
        self.start = self.de.index;
        let result = T::deserialize(&mut self.de);
        Some(match result {
            Ok(value) => {
                self.offset = self.de.index;
                if self_delimited {
                    Ok(value)
                } else {
                    self.peek_end_of_value().map(|()| value)
                }
            }
            Err(e) => {
                self.fail();
                Err(e)
            }
        })
    }
}

impl<'de, T: de::Deserialize<'de>> FusedIterator for StreamDeserializer<'de, T> {}
