//! Parsing one NIP-01 event object.
//!
//! A single left-to-right pass over the bytes: whitespace is skipped between
//! tokens, keys are matched against the seven NIP-01 fields, unknown keys have
//! their values skipped (fully validated, nesting up to [`MAX_DEPTH`]).
//! Strings are validated (escapes, control bytes, UTF-8) in place; `content`
//! borrows from the input unless it contains escapes, and `tags` is kept as
//! the validated raw JSON text of the array (no allocation), decoded lazily
//! by [`Tags::iter`] and re-escaped canonically by
//! [`canonical`](super::canonical).

use super::error::{Error, ErrorKind, Field};
use super::scan::{self, skip_ws};
use std::borrow::Cow;

/// How deeply arrays and objects may nest, counting the event object itself,
/// before the parser gives up (serde_json's default limit, so both accept the
/// same documents).
///
/// ```
/// use ito::nostr::{ErrorKind, Event, MAX_DEPTH};
/// // A valid event with `levels` nested arrays in an extra field (the
/// // event object itself is level 1).
/// let event = |levels: u32| {
///     let (open, close) = ("[".repeat(levels as usize), "]".repeat(levels as usize));
///     format!(r#"{{"id":"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65","pubkey":"6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93","created_at":1673347337,"kind":1,"tags":[],"content":"","sig":"908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262","x":{open}{close}}}"#)
/// };
/// assert!(Event::parse_str(&event(MAX_DEPTH - 1)).is_ok());
/// let err = Event::parse_str(&event(MAX_DEPTH)).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::TooDeep);
/// ```
pub const MAX_DEPTH: u32 = 127;

/// One parsed Nostr event, borrowing from the input where it can.
///
/// ```
/// use ito::nostr::Event;
/// let json = br#"{"id":"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65",
///   "pubkey":"6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93",
///   "created_at":1673347337,"kind":1,"tags":[["e","abc"],["p","def"]],
///   "content":"Walled gardens became prisons","sig":"908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262"}"#;
/// let event = Event::parse(json).unwrap();
/// assert_eq!(event.kind, 1);
/// assert_eq!(event.content, "Walled gardens became prisons");
/// assert_eq!(event.tags.len(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event<'a> {
    /// The claimed event id (sha256 of the canonical serialization).
    pub id: [u8; 32],
    /// The author's x-only public key.
    pub pubkey: [u8; 32],
    /// Unix time in seconds.
    pub created_at: u64,
    /// Event kind.
    pub kind: u16,
    /// The tags, as validated JSON text.
    pub tags: Tags<'a>,
    /// The content, decoded; borrowed when the JSON had no escapes.
    pub content: Cow<'a, str>,
    /// Schnorr signature over `id`.
    pub sig: [u8; 64],
}

/// The `tags` of an event: an array of arrays of strings, kept as the
/// validated JSON text it was parsed from.
///
/// ```
/// use ito::nostr::Tags;
/// let tags = Tags::parse(r#"[["e", "a\u0062c"], []]"#).unwrap();
/// assert_eq!(tags.len(), 2);
/// let first: Vec<_> = tags.iter().next().unwrap().iter().collect();
/// assert_eq!(first, ["e", "abc"]);
/// ```
///
/// Equality compares the decoded strings, not the JSON text.
#[derive(Clone, Copy, Debug)]
pub struct Tags<'a> {
    raw: &'a str,
    len: usize,
    /// No whitespace and no escapes: the raw text is already canonical.
    compact: bool,
}

impl PartialEq for Tags<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl Eq for Tags<'_> {}

impl PartialEq for Tag<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Tag<'_> {}

impl Default for Tags<'_> {
    fn default() -> Self {
        Tags {
            raw: "[]",
            len: 0,
            compact: true,
        }
    }
}

impl<'a> Tags<'a> {
    /// Validates `json` as an array of arrays of strings.
    ///
    /// ```
    /// use ito::nostr::Tags;
    /// assert!(Tags::parse(r#"[["t","nostr"]]"#).is_ok());
    /// assert!(Tags::parse(r#"[["t", 1]]"#).is_err());
    /// ```
    pub fn parse(json: &'a str) -> Result<Tags<'a>, Error> {
        let mut p = Parser::new(json.as_bytes());
        let (start, len, compact) = p.tags()?;
        let end = p.pos;
        p.end()?;
        Ok(Tags {
            raw: &json[start..end],
            len,
            compact,
        })
    }

    /// The validated JSON text of the array (whitespace as in the input).
    ///
    /// ```
    /// assert_eq!(ito::nostr::Tags::parse("[ ]").unwrap().raw(), "[ ]");
    /// ```
    pub fn raw(&self) -> &'a str {
        self.raw
    }

    /// Whether the JSON text is already in canonical form (no whitespace,
    /// no escapes), so serializing it is a copy.
    pub(crate) fn is_compact(&self) -> bool {
        self.compact
    }

    /// Number of tags.
    ///
    /// ```
    /// assert_eq!(ito::nostr::Tags::parse(r#"[["a"],["b"]]"#).unwrap().len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no tags.
    ///
    /// ```
    /// assert!(ito::nostr::Tags::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Iterates over the tags.
    ///
    /// ```
    /// let tags = ito::nostr::Tags::parse(r#"[["p","k1"],["p","k2"]]"#).unwrap();
    /// let names: Vec<String> = tags.iter().map(|t| t.iter().nth(1).unwrap().into_owned()).collect();
    /// assert_eq!(names, ["k1", "k2"]);
    /// ```
    pub fn iter(&self) -> TagIter<'a> {
        TagIter {
            raw: self.raw.as_bytes(),
            pos: 1,
        }
    }

    /// Copies the tags into owned strings.
    ///
    /// ```
    /// let tags = ito::nostr::Tags::parse(r#"[["t","x"]]"#).unwrap();
    /// assert_eq!(tags.to_vec(), vec![vec!["t".to_string(), "x".to_string()]]);
    /// ```
    pub fn to_vec(&self) -> Vec<Vec<String>> {
        self.iter()
            .map(|t| t.iter().map(Cow::into_owned).collect())
            .collect()
    }
}

/// Iterator over the tags of [`Tags`].
///
/// ```
/// let tags = ito::nostr::Tags::parse(r#"[["e","abc"],["p","def","wss://r"]]"#).unwrap();
/// let mut it: ito::nostr::TagIter<'_> = tags.iter();
/// assert_eq!(it.next().unwrap().raw(), r#"["e","abc"]"#);
/// assert_eq!(it.next().unwrap().iter().count(), 3);
/// assert!(it.next().is_none());
/// ```
#[derive(Clone, Debug)]
pub struct TagIter<'a> {
    raw: &'a [u8],
    pos: usize,
}

impl<'a> Iterator for TagIter<'a> {
    type Item = Tag<'a>;

    fn next(&mut self) -> Option<Tag<'a>> {
        // raw is validated: `[` (ws) (`[` ... `]` (ws) (`,` ws)?)* `]`.
        loop {
            match self.raw.get(self.pos)? {
                b'[' => {
                    let start = self.pos;
                    let mut i = start + 1;
                    loop {
                        match *self.raw.get(i)? {
                            b'"' => i = scan::string_end(self.raw, i + 1).ok()?.0 + 1,
                            b']' => break,
                            _ => i += 1,
                        }
                    }
                    self.pos = i + 1;
                    return Some(Tag {
                        raw: &self.raw[start..=i],
                    });
                }
                b']' => return None,
                _ => self.pos += 1,
            }
        }
    }
}

/// One tag: an array of strings, as validated JSON text.
///
/// Equality compares the decoded strings, not the JSON text.
///
/// ```
/// let a = ito::nostr::Tags::parse(r#"[["t","caf\u00e9"]]"#).unwrap();
/// let b = ito::nostr::Tags::parse(r#"[ [ "t" , "café" ] ]"#).unwrap();
/// let (ta, tb) = (a.iter().next().unwrap(), b.iter().next().unwrap());
/// assert_ne!(ta.raw(), tb.raw());
/// assert_eq!(ta, tb);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Tag<'a> {
    raw: &'a [u8],
}

impl<'a> Tag<'a> {
    /// The tag's JSON text, e.g. `["e","abc"]`.
    ///
    /// ```
    /// let tags = ito::nostr::Tags::parse(r#"[["e","abc"]]"#).unwrap();
    /// assert_eq!(tags.iter().next().unwrap().raw(), r#"["e","abc"]"#);
    /// ```
    pub fn raw(&self) -> &'a str {
        // The raw text is a slice of a validated &str at ASCII boundaries.
        std::str::from_utf8(self.raw).unwrap_or_default()
    }

    /// The tag's strings, decoded (borrowed unless they contain escapes).
    ///
    /// ```
    /// let tags = ito::nostr::Tags::parse(r#"[["a","b\nc"]]"#).unwrap();
    /// let values: Vec<_> = tags.iter().next().unwrap().iter().collect();
    /// assert_eq!(values, ["a", "b\nc"]);
    /// ```
    pub fn iter(&self) -> TagValues<'a> {
        TagValues {
            raw: self.raw,
            pos: 1,
        }
    }
}

impl<'a> Tag<'a> {
    /// Each string token of the tag, quotes included, and whether it has
    /// backslash escapes.
    pub(crate) fn raw_strings(&self) -> impl Iterator<Item = (&'a str, bool)> {
        let raw = self.raw;
        let mut pos = 1;
        std::iter::from_fn(move || {
            let start = pos + raw.get(pos..)?.iter().position(|&b| b == b'"')?;
            let (end, escaped) = scan::string_end(raw, start + 1).ok()?;
            pos = end + 1;
            // A slice of validated text between ASCII quotes.
            std::str::from_utf8(&raw[start..=end])
                .ok()
                .map(|s| (s, escaped))
        })
    }
}

/// Iterator over the strings of one [`Tag`], decoded (borrowed from the
/// input unless the string has escapes).
///
/// ```
/// use std::borrow::Cow;
/// let tags = ito::nostr::Tags::parse(r#"[["e","plain","two\nlines"]]"#).unwrap();
/// let values: Vec<Cow<'_, str>> = tags.iter().next().unwrap().iter().collect();
/// assert!(matches!(values[1], Cow::Borrowed("plain")));
/// assert!(matches!(&values[2], Cow::Owned(s) if s == "two\nlines"));
/// ```
#[derive(Clone, Debug)]
pub struct TagValues<'a> {
    raw: &'a [u8],
    pos: usize,
}

impl<'a> Iterator for TagValues<'a> {
    type Item = Cow<'a, str>;

    fn next(&mut self) -> Option<Cow<'a, str>> {
        loop {
            match self.raw.get(self.pos)? {
                b'"' => {
                    let start = self.pos + 1;
                    let (end, escaped) = scan::string_end(self.raw, start).ok()?;
                    self.pos = end + 1;
                    let body = &self.raw[start..end];
                    return Some(if escaped {
                        let mut out = Vec::with_capacity(body.len());
                        scan::unescape_into(&mut out, body).ok()?;
                        Cow::Owned(String::from_utf8(out).ok()?)
                    } else {
                        Cow::Borrowed(std::str::from_utf8(body).ok()?)
                    });
                }
                b']' => return None,
                _ => self.pos += 1,
            }
        }
    }
}

impl<'a> Event<'a> {
    /// Parses one event JSON object (fields in any order, any JSON
    /// whitespace, unknown fields skipped). Missing, duplicate or mistyped
    /// fields, non-lowercase or wrong-length hex and trailing characters are
    /// errors naming the byte offset and the field.
    ///
    /// ```
    /// use ito::nostr::{Event, ErrorKind, Field};
    /// let err = Event::parse(br#"{"id":"00"}"#).unwrap_err();
    /// assert_eq!((err.field(), err.kind()), (Some(Field::Id), ErrorKind::HexLength { expected: 64, found: 2 }));
    /// assert_eq!(err.to_string(), "`id`: expected 64 hex digits, found 2 at byte 7");
    /// ```
    pub fn parse(json: &'a [u8]) -> Result<Event<'a>, Error> {
        let mut p = Parser::new(json);
        let event = p.event()?;
        p.end()?;
        Ok(event)
    }

    /// [`Event::parse`] for a `&str`.
    ///
    /// ```
    /// assert!(ito::nostr::Event::parse_str("{}").is_err());
    /// ```
    pub fn parse_str(json: &'a str) -> Result<Event<'a>, Error> {
        Event::parse(json.as_bytes())
    }

    /// Appends the event as a compact JSON object with the fields in NIP-01
    /// order (tags and content canonically escaped).
    ///
    /// ```
    /// use ito::nostr::Event;
    /// let text = br#"{ "kind": 1, "content": "hi", "tags": [ ], "created_at": 5,
    ///   "pubkey": "0000000000000000000000000000000000000000000000000000000000000001",
    ///   "id": "0000000000000000000000000000000000000000000000000000000000000002",
    ///   "sig": "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000003" }"#;
    /// let event = Event::parse(text).unwrap();
    /// let mut out = Vec::new();
    /// event.to_json(&mut out);
    /// assert!(out.starts_with(br#"{"id":"0000"#));
    /// assert_eq!(Event::parse(&out).unwrap(), event);
    /// ```
    pub fn to_json(&self, dst: &mut Vec<u8>) {
        self.write_json(crate::json::Writer::new(dst));
    }
}

/// Outcome of reading a string token: the text between the quotes is
/// `src[start..end]`, with backslash escapes when `escaped`.
pub(crate) struct Str {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) escaped: bool,
}

pub(crate) struct Parser<'a> {
    pub(crate) src: &'a [u8],
    pub(crate) pos: usize,
    /// Set whenever whitespace between tokens was skipped.
    ws_seen: bool,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(src: &'a [u8]) -> Parser<'a> {
        Parser {
            src,
            pos: 0,
            ws_seen: false,
        }
    }

    #[inline]
    pub(crate) fn peek(&mut self) -> Option<u8> {
        let p = skip_ws(self.src, self.pos);
        self.ws_seen |= p != self.pos;
        self.pos = p;
        self.src.get(self.pos).copied()
    }

    #[inline]
    pub(crate) fn eat(&mut self, c: u8, what: &'static str) -> Result<(), Error> {
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(Error::expected(self.src, self.pos, what))
        }
    }

    /// Only whitespace may follow.
    pub(crate) fn end(&mut self) -> Result<(), Error> {
        if self.peek().is_some() {
            return Err(Error::new(self.pos, ErrorKind::TrailingCharacters));
        }
        Ok(())
    }

    /// A string token (after whitespace): validates it and its UTF-8.
    pub(crate) fn string(&mut self, what: &'static str) -> Result<Str, Error> {
        if self.peek() != Some(b'"') {
            return Err(Error::expected(self.src, self.pos, what));
        }
        let s = self.string_unchecked_utf8()?;
        if let Err(at) = crate::simd::utf8::validate(&self.src[s.start..s.end]) {
            return Err(Error::new(s.start + at, ErrorKind::InvalidUtf8));
        }
        Ok(s)
    }

    /// An object key: a string token whose UTF-8 is checked only when it
    /// has bytes past ASCII (every name the parsers look for is ASCII).
    pub(crate) fn key_string(&mut self, what: &'static str) -> Result<Str, Error> {
        if self.peek() != Some(b'"') {
            return Err(Error::expected(self.src, self.pos, what));
        }
        let s = self.string_unchecked_utf8()?;
        let raw = &self.src[s.start..s.end];
        if !raw.is_ascii() {
            if let Err(at) = crate::simd::utf8::validate(raw) {
                return Err(Error::new(s.start + at, ErrorKind::InvalidUtf8));
            }
        }
        Ok(s)
    }

    /// A string token whose escapes and control bytes are validated but
    /// not its UTF-8 (for hex fields, whose decoder rejects every byte
    /// that is not an ASCII digit; the caller checks UTF-8 on failure so
    /// that errors stay the same).
    #[inline]
    fn string_unchecked_utf8(&mut self) -> Result<Str, Error> {
        let start = self.pos + 1;
        let (end, escaped) = scan::string_end(self.src, start)?;
        self.pos = end + 1;
        Ok(Str {
            start,
            end,
            escaped,
        })
    }

    pub(crate) fn hex<const N: usize>(&mut self) -> Result<[u8; N], Error> {
        if self.peek() != Some(b'"') {
            return Err(Error::expected(self.src, self.pos, "a hex string"));
        }
        let s = self.string_unchecked_utf8()?;
        let raw = &self.src[s.start..s.end];
        if !s.escaped {
            // The common case: plain lowercase digits, no UTF-8 check
            // needed (every byte is ASCII when decoding succeeds).
            if let Ok(bytes) = crate::hex::decode_array_lower::<N>(raw) {
                return Ok(bytes);
            }
        }
        if let Err(at) = crate::simd::utf8::validate(raw) {
            return Err(Error::new(s.start + at, ErrorKind::InvalidUtf8));
        }
        if s.escaped {
            // `"\u0061..."` is the same string as `"a..."`: decode, then
            // read the hex (errors point at the string's start).
            let mut buf = Vec::with_capacity(raw.len());
            scan::unescape_into(&mut buf, raw).map_err(|e| e.shifted(s.start))?;
            return crate::hex::decode_array_lower::<N>(&buf).map_err(|e| match e {
                crate::hex::Error::InvalidDigit { byte, .. }
                | crate::hex::Error::Uppercase { byte, .. } => {
                    Error::new(s.start, ErrorKind::HexDigit(byte))
                }
                _ => Error::new(
                    s.start,
                    ErrorKind::HexLength {
                        expected: 2 * N,
                        found: buf.len(),
                    },
                ),
            });
        }
        let digits = raw;
        crate::hex::decode_array_lower::<N>(digits).map_err(|e| match e {
            crate::hex::Error::InvalidDigit { offset, byte }
            | crate::hex::Error::Uppercase { offset, byte } => {
                Error::new(s.start + offset, ErrorKind::HexDigit(byte))
            }
            _ => Error::new(
                s.start,
                ErrorKind::HexLength {
                    expected: 2 * N,
                    found: digits.len(),
                },
            ),
        })
    }

    /// A non-negative integer in plain notation, at most `max`.
    pub(crate) fn uint(&mut self, max: u64) -> Result<u64, Error> {
        let start = match self.peek() {
            Some(b'0'..=b'9') => self.pos,
            Some(b'-') => return Err(Error::new(self.pos, ErrorKind::Number)),
            _ => return Err(Error::expected(self.src, self.pos, "an integer")),
        };
        let mut v: u64 = 0;
        let mut i = start;
        let mut overflow = false;
        // Up to 19 digits cannot overflow a u64: no checked arithmetic.
        let fast_end = self.src.len().min(start + 19);
        while i < fast_end {
            let d = self.src[i].wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            v = v * 10 + d as u64;
            i += 1;
        }
        while let Some(&c @ b'0'..=b'9') = self.src.get(i) {
            match v
                .checked_mul(10)
                .and_then(|v| v.checked_add((c - b'0') as u64))
            {
                Some(n) => v = n,
                None => overflow = true,
            }
            i += 1;
        }
        let leading_zero = self.src[start] == b'0' && i - start > 1;
        if leading_zero || matches!(self.src.get(i), Some(b'.' | b'e' | b'E')) {
            return Err(Error::new(start, ErrorKind::Number));
        }
        if overflow || v > max {
            return Err(Error::new(start, ErrorKind::OutOfRange { max }));
        }
        self.pos = i;
        Ok(v)
    }

    /// `[ [ "s", ... ], ... ]`: returns the start offset, the tag count and
    /// whether the text is already canonical (no whitespace, no escapes).
    pub(crate) fn tags(&mut self) -> Result<(usize, usize, bool), Error> {
        if self.peek() != Some(b'[') {
            return Err(Error::expected(self.src, self.pos, "an array of tags"));
        }
        let start = self.pos;
        self.pos += 1;
        self.ws_seen = false;
        let mut escaped = false;
        let mut count = 0;
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok((start, 0, !self.ws_seen));
        }
        loop {
            self.eat(b'[', "a tag (an array of strings)")?;
            if self.peek() == Some(b']') {
                self.pos += 1;
            } else {
                loop {
                    escaped |= self.string("a string")?.escaped;
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            break;
                        }
                        _ => return Err(Error::expected(self.src, self.pos, "`,` or `]`")),
                    }
                }
            }
            count += 1;
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok((start, count, !self.ws_seen && !escaped));
                }
                _ => return Err(Error::expected(self.src, self.pos, "`,` or `]`")),
            }
        }
    }

    /// Skips any JSON value, validating it; `depth` is the nesting level of
    /// the container holding it (the event object is level 1).
    pub(crate) fn skip_value(&mut self, depth: u32) -> Result<(), Error> {
        let c = self.peek();
        if matches!(c, Some(b'[' | b'{')) && depth >= MAX_DEPTH {
            return Err(Error::new(self.pos, ErrorKind::TooDeep));
        }
        match c {
            Some(b'"') => self.string("a string").map(|_| ()),
            Some(b'{') => {
                self.pos += 1;
                if self.peek() == Some(b'}') {
                    self.pos += 1;
                    return Ok(());
                }
                loop {
                    self.string("a string (object key)")?;
                    self.eat(b':', "`:`")?;
                    self.skip_value(depth + 1)?;
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {
                            self.pos += 1;
                            return Ok(());
                        }
                        _ => return Err(Error::expected(self.src, self.pos, "`,` or `}`")),
                    }
                }
            }
            Some(b'[') => {
                self.pos += 1;
                if self.peek() == Some(b']') {
                    self.pos += 1;
                    return Ok(());
                }
                loop {
                    self.skip_value(depth + 1)?;
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            return Ok(());
                        }
                        _ => return Err(Error::expected(self.src, self.pos, "`,` or `]`")),
                    }
                }
            }
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'n') => self.literal(b"null"),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(Error::expected(self.src, self.pos, "a JSON value")),
        }
    }

    fn literal(&mut self, word: &'static [u8]) -> Result<(), Error> {
        for (k, &c) in word.iter().enumerate() {
            match self.src.get(self.pos + k) {
                Some(&b) if b == c => {}
                Some(_) => return Err(Error::expected(self.src, self.pos + k, "a JSON value")),
                None => return Err(Error::new(self.src.len(), ErrorKind::UnexpectedEnd)),
            }
        }
        self.pos += word.len();
        Ok(())
    }

    /// JSON number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    fn number(&mut self) -> Result<(), Error> {
        let s = self.src;
        let mut i = self.pos;
        let digits = |i: &mut usize| {
            let from = *i;
            while matches!(s.get(*i), Some(b'0'..=b'9')) {
                *i += 1;
            }
            *i - from
        };
        if s.get(i) == Some(&b'-') {
            i += 1;
        }
        match s.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                digits(&mut i);
            }
            _ => return Err(Error::expected(s, i, "a digit")),
        }
        if s.get(i) == Some(&b'.') {
            i += 1;
            if digits(&mut i) == 0 {
                return Err(Error::expected(s, i, "a digit"));
            }
        }
        if matches!(s.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(s.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if digits(&mut i) == 0 {
                return Err(Error::expected(s, i, "a digit"));
            }
        }
        self.pos = i;
        Ok(())
    }

    pub(crate) fn key(&mut self) -> Result<(Option<Field>, usize), Error> {
        if self.peek() != Some(b'"') {
            return Err(Error::expected(self.src, self.pos, "a string (field name)"));
        }
        let s = self.string_unchecked_utf8()?;
        let raw = &self.src[s.start..s.end];
        if !s.escaped {
            // A NIP-01 name is ASCII: no UTF-8 check needed when it matches.
            if let Some(field) = Field::ALL.into_iter().find(|f| f.name().as_bytes() == raw) {
                return Ok((Some(field), s.start - 1));
            }
        }
        if let Err(at) = crate::simd::utf8::validate(raw) {
            return Err(Error::new(s.start + at, ErrorKind::InvalidUtf8));
        }
        let field = if s.escaped {
            let mut buf = Vec::new();
            scan::unescape_into(&mut buf, raw)?;
            Field::ALL
                .into_iter()
                .find(|f| f.name().as_bytes() == buf.as_slice())
        } else {
            Field::ALL.into_iter().find(|f| f.name().as_bytes() == raw)
        };
        Ok((field, s.start - 1))
    }

    pub(crate) fn event(&mut self) -> Result<Event<'a>, Error> {
        self.eat(b'{', "`{` (an event object)")?;
        let mut id = None;
        let mut pubkey = None;
        let mut created_at = None;
        let mut kind = None;
        let mut tags = None;
        let mut content = None;
        let mut sig = None;
        if self.peek() == Some(b'}') {
            self.pos += 1;
        } else {
            loop {
                let (field, key_at) = self.key()?;
                self.eat(b':', "`:`")?;
                macro_rules! set {
                    ($slot:ident, $f:expr, $parse:expr) => {{
                        if $slot.is_some() {
                            return Err(Error::new(key_at, ErrorKind::DuplicateField).in_field($f));
                        }
                        $slot = Some($parse.map_err(|e: Error| e.in_field($f))?);
                    }};
                }
                match field {
                    Some(Field::Id) => set!(id, Field::Id, self.hex::<32>()),
                    Some(Field::Pubkey) => set!(pubkey, Field::Pubkey, self.hex::<32>()),
                    Some(Field::Sig) => set!(sig, Field::Sig, self.hex::<64>()),
                    Some(Field::CreatedAt) => {
                        set!(created_at, Field::CreatedAt, self.uint(u64::MAX))
                    }
                    Some(Field::Kind) => set!(
                        kind,
                        Field::Kind,
                        self.uint(u16::MAX as u64).map(|k| k as u16)
                    ),
                    Some(Field::Tags) => set!(tags, Field::Tags, self.tags_value()),
                    Some(Field::Content) => set!(content, Field::Content, self.string_value()),
                    None => self.skip_value(1)?,
                }
                match self.peek() {
                    Some(b',') => self.pos += 1,
                    Some(b'}') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return Err(Error::expected(self.src, self.pos, "`,` or `}`")),
                }
            }
        }
        let close = self.pos - 1;
        let missing = |f: Field| Error::new(close, ErrorKind::MissingField).in_field(f);
        Ok(Event {
            id: id.ok_or_else(|| missing(Field::Id))?,
            pubkey: pubkey.ok_or_else(|| missing(Field::Pubkey))?,
            created_at: created_at.ok_or_else(|| missing(Field::CreatedAt))?,
            kind: kind.ok_or_else(|| missing(Field::Kind))?,
            tags: tags.ok_or_else(|| missing(Field::Tags))?,
            content: content.ok_or_else(|| missing(Field::Content))?,
            sig: sig.ok_or_else(|| missing(Field::Sig))?,
        })
    }

    pub(crate) fn tags_value(&mut self) -> Result<Tags<'a>, Error> {
        let (start, len, compact) = self.tags()?;
        // Every string inside was UTF-8 validated and everything else is
        // ASCII, so this cannot fail; it is checked rather than assumed.
        // SAFETY: as said above: string() validated the UTF-8 of every
        // string in the array and the parser accepted only ASCII tokens
        // and whitespace between them.
        let raw = unsafe { std::str::from_utf8_unchecked(&self.src[start..self.pos]) };
        Ok(Tags { raw, len, compact })
    }

    /// A string token, decoded: borrowed from the input unless it has
    /// escapes.
    pub(crate) fn string_value(&mut self) -> Result<Cow<'a, str>, Error> {
        let s = self.string("a string")?;
        let raw = &self.src[s.start..s.end];
        if !s.escaped {
            // SAFETY: string() validated the UTF-8 of exactly these bytes.
            return Ok(Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(raw) }));
        }
        let mut out = Vec::with_capacity(raw.len());
        scan::unescape_into(&mut out, raw).map_err(|e| e.shifted(s.start))?;
        if crate::simd::utf8::validate(&out).is_err() {
            return Err(Error::new(s.start, ErrorKind::InvalidUtf8));
        }
        // SAFETY: validated just above.
        Ok(Cow::Owned(unsafe { String::from_utf8_unchecked(out) }))
    }
}
