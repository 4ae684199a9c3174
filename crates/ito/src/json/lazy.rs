//! Lazy access: [`get`] and [`get_many`] find the values at paths of keys
//! and indices in a JSON document without parsing the rest of it, and
//! return them as [`RawJson`] slices of the input.
//!
//! ```
//! use ito::json::{get, get_many, PathItem};
//!
//! let doc = br#"{"user": {"name": "ada", "langs": ["en", "fr"]}, "n": 1}"#;
//! let name = get(doc, ["user", "name"]).unwrap().unwrap();
//! assert_eq!(name.as_str(), r#""ada""#);
//!
//! let lang = get(doc, [PathItem::Key("user"), PathItem::Key("langs"), PathItem::Index(1)]);
//! assert_eq!(lang.unwrap().unwrap().as_str(), r#""fr""#);
//! assert_eq!(get(doc, ito::json_path!["user", "langs", 1]).unwrap().unwrap().as_str(), r#""fr""#);
//!
//! assert!(get(doc, ["user", "age"]).unwrap().is_none()); // no such key
//!
//! let both = get_many(doc, &[ito::json_path!["n"], ito::json_path!["user", "name"]]).unwrap();
//! assert_eq!(both[0].unwrap().as_str(), "1");
//! assert_eq!(both[1].unwrap().as_str(), r#""ada""#);
//! ```
//!
//! # How it works
//!
//! One forward pass over the bytes, as simdjson's On-Demand front end and
//! sonic-rs's `get` do. Nothing is built: no tree, no copy of the input,
//! no decoded string (except an object key with an escape, decoded to be
//! compared).
//!
//! ```text
//! value at i, with the paths still looked for below it:
//!     paths that end here: check the whole value (grammar and UTF-8),
//!                          record the slice input[i..end]
//!     paths that go on:    object: read each key; a key some path wants:
//!                                  descend, else skip the member
//!                          array:  count elements; an index some path
//!                                  wants: descend, else skip the element
//!                          anything else: those paths do not exist
//!     every path answered: stop, leaving the rest of the input unread
//!     this container's paths answered, others pending: skip to its end
//! skip: an explicit stack of open containers (no recursion), strings
//!       scanned by the SIMD string kernel, whitespace by the parser's
//!       whitespace cache
//! ```
//!
//! [`get_many`] sorts its paths so that paths with a common prefix sit
//! together: the walk visits each shared container once and looks keys up
//! by binary search among the keys wanted there.
//!
//! # What is checked, and what is not
//!
//! - The value found is checked in full: JSON's grammar (RFC 8259, as
//!   [`RawJson::new`] checks it) and UTF-8, so the result is a valid
//!   `&RawJson`.
//! - Every value passed over on the way (members and elements before the
//!   one wanted, and whatever of a container follows it when other paths
//!   are still pending) is checked for grammar only: nesting, strings
//!   (control bytes, escapes by form), numbers and literals. Their UTF-8
//!   and the pairing of their `\u` surrogates are not checked, as
//!   serde_json does not check them when it skips a value.
//! - Object keys on the way are compared with the path's keys in their
//!   decoded form (`"\u0061"` is the key `a`); a key with an escape is
//!   decoded strictly, as [`unquote`](super::unquote) decodes (a lone
//!   surrogate escape there is an error).
//! - Bytes after the point where the walk stops are not read: once every
//!   path is answered, the rest of the document may hold anything. A path
//!   that does not exist is answered when the container that would hold
//!   it ends (or at once, if a key meets an array or an index an object,
//!   or either a scalar), so the walk reads at most to that point. The
//!   one byte looked at past a value found inside a container is the
//!   `,`, `}` or `]` after it, so that a document cut short (`[12` from
//!   `[123]`) is an error rather than a wrong answer.
//! - Nesting deeper than [`MAX_DEPTH`](super::MAX_DEPTH) is an
//!   [`ErrorKind::TooDeep`] error, for the values skipped too.
//!
//! A path that does not exist gives `Ok(None)`: a missing key, an index
//! past the end of an array, or a key or index applied to a value of the
//! wrong kind. Malformed input met before the answer is an [`Error`] with
//! the byte offset of the fault and the same [`ErrorKind`]s as
//! [`RawJson`]'s validator; [`line_column`] turns the offset into a line
//! and column for messages.
//!
//! **Duplicate keys: the first one wins.** The walk stops at the first
//! member with the wanted key and never reads further (as sonic-rs's `get`
//! does; serde_json's `Value` keeps the last). Reading every later member
//! to find a duplicate would undo the laziness.

use std::cmp::Ordering;

use super::raw::{literal, number};
use super::{Error, ErrorKind, RawJson, MAX_DEPTH};
use crate::simd::json::{self as kernels, Kernels, SpaceCache};

/// One step of a path: an object key or an array index.
///
/// Paths are slices or arrays of these, or anything iterable whose items
/// convert into them: `&str` and `String` become keys, `usize` indices.
/// [`json_path!`](crate::json_path) mixes both.
///
/// ```
/// use ito::json::{get, PathItem};
/// let doc = r#"{"tags": [["p", "ab"]]}"#;
/// let path = [PathItem::Key("tags"), PathItem::Index(0), PathItem::Index(1)];
/// assert_eq!(get(doc, path).unwrap().unwrap().as_str(), r#""ab""#);
/// assert_eq!(PathItem::from("tags"), PathItem::Key("tags"));
/// assert_eq!(PathItem::from(3), PathItem::Index(3));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PathItem<'p> {
    /// An object member's key (decoded: no JSON escapes).
    Key(&'p str),
    /// An array element's index, from 0.
    Index(usize),
}

impl<'p> From<&'p str> for PathItem<'p> {
    fn from(key: &'p str) -> Self {
        PathItem::Key(key)
    }
}

impl<'p> From<&&'p str> for PathItem<'p> {
    fn from(key: &&'p str) -> Self {
        PathItem::Key(key)
    }
}

impl<'p> From<&'p String> for PathItem<'p> {
    fn from(key: &'p String) -> Self {
        PathItem::Key(key)
    }
}

impl From<usize> for PathItem<'_> {
    fn from(index: usize) -> Self {
        PathItem::Index(index)
    }
}

impl From<&usize> for PathItem<'_> {
    fn from(index: &usize) -> Self {
        PathItem::Index(*index)
    }
}

impl<'p> From<&PathItem<'p>> for PathItem<'p> {
    fn from(item: &PathItem<'p>) -> Self {
        *item
    }
}

/// A path as a slice of [`PathItem`]s, from keys (string literals or
/// expressions) and indices (integer expressions) mixed: `json_path!["a",
/// 0, key]` is `&[PathItem::from("a"), PathItem::from(0), PathItem::from(key)]`.
///
/// ```
/// use ito::json::{get, get_many, PathItem};
/// let doc = r#"{"statuses": [{"id": 7, "user": {"name": "x"}}]}"#;
/// let p = ito::json_path!["statuses", 0, "id"];
/// assert_eq!(p, [PathItem::Key("statuses"), PathItem::Index(0), PathItem::Key("id")]);
/// assert_eq!(get(doc, p).unwrap().unwrap().as_str(), "7");
/// // Paths of different lengths in one call:
/// let found = get_many(doc, &[ito::json_path!["statuses", 0, "user", "name"], p]).unwrap();
/// assert_eq!(found[0].unwrap().as_str(), r#""x""#);
/// ```
#[macro_export]
macro_rules! json_path {
    () => {
        &[] as &[$crate::json::PathItem<'_>]
    };
    ($($item:expr),+ $(,)?) => {
        &[$($crate::json::PathItem::from($item)),+][..]
    };
}

/// The value at `path` in the JSON document `json`, as a slice of it;
/// `Ok(None)` if the path does not exist. The [`lazy`](crate::json::lazy)
/// module's docs say what is read and what is checked.
///
/// `json` is bytes or text (`&[u8]`, `&str`, `&Vec<u8>`, `&String`...).
/// The empty path gives the whole document's value.
///
/// ```
/// use ito::json::{get, ErrorKind};
/// let doc = r#"{"a": [10, {"b": true}], "a": "second"}"#;
/// assert_eq!(get(doc, ito::json_path!["a", 1, "b"]).unwrap().unwrap().as_str(), "true");
/// assert_eq!(get(doc, ["a"]).unwrap().unwrap().as_str(), r#"[10, {"b": true}]"#); // first wins
/// assert_eq!(get(doc, [5usize]).unwrap(), None); // an index into an object
/// assert_eq!(get(r#" {"\u0061": 1} "#, ["a"]).unwrap().unwrap().as_str(), "1");
///
/// let err = get(r#"{"x": [1, 2,], "a": 1}"#, ["a"]).unwrap_err();
/// assert_eq!((err.offset(), err.kind()), (12, ErrorKind::UnexpectedByte(b']')));
/// ```
pub fn get<'a, 'p, J, P>(json: &'a J, path: P) -> Result<Option<&'a RawJson>, Error>
where
    J: AsRef<[u8]> + ?Sized,
    P: IntoIterator,
    P::Item: Into<PathItem<'p>>,
{
    let mut items = [PathItem::Index(0); 8];
    let mut n = 0;
    let mut long = Vec::new();
    for item in path {
        if n < items.len() {
            items[n] = item.into();
        } else {
            if long.is_empty() {
                long.extend_from_slice(&items);
            }
            long.push(item.into());
        }
        n += 1;
    }
    let path: &[PathItem<'p>] = if long.is_empty() { &items[..n] } else { &long };
    let mut out = [None];
    let mut resolved = [false];
    Walk::new(json.as_ref(), &[path], &mut out, &mut resolved).run(&[0])?;
    Ok(out[0])
}

/// The values at several paths in one walk over `json`, in the order of
/// `paths` (`None` where a path does not exist). Paths with a common
/// prefix visit it once; the walk stops when every path is answered.
/// Repeated paths get the same answer.
///
/// Each path is anything that is a slice of [`PathItem`]s or of what
/// converts into them: arrays or `Vec`s of keys or of indices,
/// [`json_path!`](crate::json_path)'s slices for both mixed.
///
/// ```
/// use ito::json::get_many;
/// let doc = br#"{"id": "ab", "tags": [["e", "01"], ["p", "02"]], "kind": 1}"#;
/// let paths = [ito::json_path!["kind"], ito::json_path!["tags", 1, 1], ito::json_path!["sig"]];
/// let found = get_many(doc, &paths).unwrap();
/// let text: Vec<_> = found.iter().map(|v| v.map(|v| v.as_str())).collect();
/// assert_eq!(text, [Some("1"), Some(r#""02""#), None]);
///
/// let found = get_many(doc, &[["id"], ["kind"]]).unwrap();
/// assert_eq!(found[0].unwrap().as_str(), r#""ab""#);
/// ```
pub fn get_many<'a, 'p, J, P, I>(
    json: &'a J,
    paths: &[P],
) -> Result<Vec<Option<&'a RawJson>>, Error>
where
    J: AsRef<[u8]> + ?Sized,
    P: AsRef<[I]>,
    I: Into<PathItem<'p>> + Clone,
{
    let mut out = vec![None; paths.len()];
    if paths.is_empty() {
        return Ok(out);
    }
    let mut flat = Vec::new();
    let mut spans = Vec::with_capacity(paths.len());
    for p in paths {
        let start = flat.len();
        flat.extend(p.as_ref().iter().cloned().map(Into::into));
        spans.push(start..flat.len());
    }
    let paths: Vec<&[PathItem<'p>]> = spans.into_iter().map(|r| &flat[r]).collect();
    let mut order: Vec<usize> = (0..paths.len()).collect();
    order.sort_by(|&a, &b| paths[a].cmp(paths[b]));
    let mut resolved = vec![false; paths.len()];
    Walk::new(json.as_ref(), &paths, &mut out, &mut resolved).run(&order)?;
    Ok(out)
}

/// The 1-based line and column of byte `offset` of `input` (an
/// [`Error::offset`] from [`get`] or another function reading `input`):
/// lines end at `\n`, and the column counts bytes from the line's start,
/// the byte at `offset` included.
///
/// ```
/// let doc = b"{\n  \"a\": tru\n}";
/// let err = ito::json::get(doc, ["a"]).unwrap_err();
/// assert_eq!(ito::json::line_column(doc, err.offset()), (2, 11));
/// ```
pub fn line_column(input: &[u8], offset: usize) -> (usize, usize) {
    let before = &input[..offset.min(input.len())];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let line = 1 + before[..line_start].iter().filter(|&&b| b == b'\n').count();
    (line, offset - line_start + 1)
}

/// How a visit ended.
enum Flow {
    /// The value (or container rest) ends at this index; other paths are
    /// still pending.
    Next(usize),
    /// Every path is answered: stop reading.
    Stop,
}

#[cold]
fn fail<T>(at: usize, kind: ErrorKind) -> Result<T, Error> {
    Err(Error::new(at, kind))
}

#[cold]
fn unexpected<T>(b: &[u8], at: usize) -> Result<T, Error> {
    match b.get(at) {
        Some(&c) => fail(at, ErrorKind::UnexpectedByte(c)),
        None => fail(at, ErrorKind::Truncated),
    }
}

/// How a key compares with a path item (keys sort before indices, as in
/// `PathItem`'s derived order).
#[inline]
fn cmp_key(item: &PathItem<'_>, key: &[u8]) -> Ordering {
    match item {
        PathItem::Key(k) => k.as_bytes().cmp(key),
        PathItem::Index(_) => Ordering::Greater,
    }
}

struct Walk<'a, 'w, 'p> {
    b: &'a [u8],
    space: SpaceCache,
    k: &'static Kernels,
    paths: &'w [&'w [PathItem<'p>]],
    out: &'w mut [Option<&'a RawJson>],
    resolved: &'w mut [bool],
    /// Paths not answered yet.
    remaining: usize,
}

impl<'a, 'w, 'p> Walk<'a, 'w, 'p> {
    fn new(
        b: &'a [u8],
        paths: &'w [&'w [PathItem<'p>]],
        out: &'w mut [Option<&'a RawJson>],
        resolved: &'w mut [bool],
    ) -> Self {
        Walk {
            b,
            space: SpaceCache::new(),
            k: kernels::best(),
            paths,
            remaining: paths.len(),
            out,
            resolved,
        }
    }

    /// Answers every path in `group` (sorted by path) from the root.
    fn run(mut self, group: &[usize]) -> Result<(), Error> {
        let i = self.ws(0);
        if i == self.b.len() {
            return fail(i, ErrorKind::Truncated);
        }
        self.value(i, 0, group)?;
        Ok(())
    }

    #[inline(always)]
    fn ws(&mut self, i: usize) -> usize {
        match self.b.get(i) {
            Some(&c) if c > b' ' => i,
            None => i,
            _ => self.space.skip(self.b, i),
        }
    }

    /// Marks the unanswered paths of `group` as not existing.
    fn not_found(&mut self, group: &[usize]) -> bool {
        for &id in group {
            if !self.resolved[id] {
                self.resolved[id] = true;
                self.remaining -= 1;
            }
        }
        self.remaining == 0
    }

    /// The value at `i` (not whitespace), inside `d` containers, for the
    /// paths of `group`: all agree on their first `d` items.
    fn value(&mut self, i: usize, d: usize, group: &[usize]) -> Result<Flow, Error> {
        // Paths ending here sort before their extensions.
        let ending = group.partition_point(|&id| self.paths[id].len() == d);
        let (here, deeper) = group.split_at(ending);
        if here.is_empty() {
            return self.descend(i, d, deeper);
        }
        let end = self.skip(i, d, None)?;
        if d > 0 {
            // Inside a container the input must go on: `[12` cut from
            // `[123]` is an error, never the answer `12`.
            let next = self.ws(end);
            if !matches!(self.b.get(next), Some(b',' | b'}' | b']')) {
                return unexpected(self.b, next);
            }
        }
        let text = crate::simd::utf8::validate(&self.b[i..end])
            .map_err(|at| Error::new(i + at, ErrorKind::InvalidUtf8))?;
        // SAFETY: `skip` checked that `text` is exactly one JSON value.
        let raw = unsafe { RawJson::new_unchecked(text) };
        for &id in here {
            self.out[id] = Some(raw);
            self.resolved[id] = true;
        }
        self.remaining -= here.len();
        if self.remaining == 0 {
            return Ok(Flow::Stop);
        }
        if deeper.is_empty() {
            return Ok(Flow::Next(end));
        }
        Ok(match self.descend(i, d, deeper)? {
            Flow::Stop => Flow::Stop,
            Flow::Next(_) => Flow::Next(end),
        })
    }

    /// The value at `i` for paths that all go on below it.
    fn descend(&mut self, i: usize, d: usize, group: &[usize]) -> Result<Flow, Error> {
        match self.b.get(i) {
            Some(b'{') => self.object(i, d, group),
            Some(b'[') => self.array(i, d, group),
            Some(b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n') => {
                // A scalar, whatever follows its first byte: no path goes
                // on below it.
                if self.not_found(group) {
                    return Ok(Flow::Stop);
                }
                Ok(Flow::Next(self.skip(i, d, None)?))
            }
            _ => unexpected(self.b, i),
        }
    }

    fn object(&mut self, i: usize, d: usize, group: &[usize]) -> Result<Flow, Error> {
        if d >= MAX_DEPTH {
            return fail(i, ErrorKind::TooDeep);
        }
        // Index items cannot match a key: those paths end here.
        let keys = group.partition_point(|&id| matches!(self.paths[id][d], PathItem::Key(_)));
        let mut pending = keys;
        if keys < group.len() && self.not_found(&group[keys..]) {
            return Ok(Flow::Stop);
        }
        let group = &group[..keys];
        let mut i = self.ws(i + 1);
        if self.b.get(i) == Some(&b'}') {
            return self.container_end(group, i + 1);
        }
        loop {
            if self.b.get(i) != Some(&b'"') {
                return unexpected(self.b, i);
            }
            let (end, escaped) = self.string(i)?;
            let v = self.colon(end)?;
            let run = if pending == 0 {
                &[][..]
            } else if escaped {
                let (key, _) = super::unquote(&self.b[i..end])
                    .map_err(|e| Error::new(i + e.offset(), e.kind()))?;
                self.run_of(group, d, key.as_bytes())
            } else {
                self.run_of(group, d, &self.b[i + 1..end - 1])
            };
            let after = if run.is_empty() || self.resolved[run[0]] {
                self.skip(v, d + 1, None)?
            } else {
                match self.value(v, d + 1, run)? {
                    Flow::Stop => return Ok(Flow::Stop),
                    Flow::Next(after) => {
                        pending -= run.len();
                        after
                    }
                }
            };
            i = self.ws(after);
            match self.b.get(i) {
                Some(b',') => {
                    if pending == 0 {
                        return Ok(Flow::Next(self.skip(i, d, Some(true))?));
                    }
                    i = self.ws(i + 1);
                }
                Some(b'}') => return self.container_end(group, i + 1),
                _ => return unexpected(self.b, i),
            }
        }
    }

    /// The paths of `group` whose item `d` is the key `key`.
    #[inline]
    fn run_of<'g>(&self, group: &'g [usize], d: usize, key: &[u8]) -> &'g [usize] {
        let paths = self.paths;
        let lo = group.partition_point(|&id| cmp_key(&paths[id][d], key) == Ordering::Less);
        let hi =
            lo + group[lo..].partition_point(|&id| cmp_key(&paths[id][d], key) == Ordering::Equal);
        &group[lo..hi]
    }

    fn array(&mut self, i: usize, d: usize, group: &[usize]) -> Result<Flow, Error> {
        if d >= MAX_DEPTH {
            return fail(i, ErrorKind::TooDeep);
        }
        // Key items sort first and cannot match an element.
        let keys = group.partition_point(|&id| matches!(self.paths[id][d], PathItem::Key(_)));
        if keys > 0 && self.not_found(&group[..keys]) {
            return Ok(Flow::Stop);
        }
        let group = &group[keys..];
        let index = |id: usize| match self.paths[id][d] {
            PathItem::Index(n) => n,
            PathItem::Key(_) => 0,
        };
        // `next..` are the paths not reached yet, by ascending index.
        let mut next = 0;
        let mut i = self.ws(i + 1);
        if self.b.get(i) == Some(&b']') {
            return self.container_end(group, i + 1);
        }
        let mut k = 0usize;
        loop {
            let after = if next < group.len() && index(group[next]) == k {
                let run = next + group[next..].partition_point(|&id| index(id) == k);
                match self.value(i, d + 1, &group[next..run])? {
                    Flow::Stop => return Ok(Flow::Stop),
                    Flow::Next(after) => {
                        next = run;
                        after
                    }
                }
            } else {
                self.skip(i, d + 1, None)?
            };
            i = self.ws(after);
            match self.b.get(i) {
                Some(b',') => {
                    if next == group.len() {
                        return Ok(Flow::Next(self.skip(i, d, Some(false))?));
                    }
                    i = self.ws(i + 1);
                    k += 1;
                }
                Some(b']') => return self.container_end(group, i + 1),
                _ => return unexpected(self.b, i),
            }
        }
    }

    /// A container of `group`'s paths closed just before `end`.
    fn container_end(&mut self, group: &[usize], end: usize) -> Result<Flow, Error> {
        if self.not_found(group) {
            return Ok(Flow::Stop);
        }
        Ok(Flow::Next(end))
    }

    /// `:` and the whitespace around it after the key ending at `i`;
    /// returns where the value starts.
    #[inline(always)]
    fn colon(&mut self, i: usize) -> Result<usize, Error> {
        let i = self.ws(i);
        if self.b.get(i) != Some(&b':') {
            return unexpected(self.b, i);
        }
        Ok(self.ws(i + 1))
    }

    /// The string literal at the `"` at `i`: the index after its closing
    /// quote, and whether it holds an escape.
    #[inline(always)]
    fn string(&mut self, i: usize) -> Result<(usize, bool), Error> {
        let b = self.b;
        let mut j = i + 1;
        let mut escaped = false;
        loop {
            let (n, _) = kernels::scan_start(self.k, b.get(j..).unwrap_or_default());
            j += n;
            match b.get(j) {
                Some(b'"') => return Ok((j + 1, escaped)),
                Some(b'\\') => {
                    escaped = true;
                    j = escape(b, j)?;
                }
                Some(&c) => return fail(j, ErrorKind::ControlCharacter(c)),
                None => return fail(b.len(), ErrorKind::Unterminated),
            }
        }
    }

    /// Skips with grammar checks. `open: None`: from the value at `i`,
    /// returning its end. `open: Some(object)`: `i` is just after a member
    /// (element) of an open object (array), returning the index after its
    /// closing bracket. `outer` containers enclose `i` besides the open one.
    fn skip(&mut self, mut i: usize, outer: usize, open: Option<bool>) -> Result<usize, Error> {
        let b = self.b;
        // One bit per open container, set for objects.
        let mut stack = [0u64; MAX_DEPTH / 64];
        let mut depth = 0usize;
        let room = MAX_DEPTH.saturating_sub(outer);
        let mut at_value = true;
        if let Some(object) = open {
            if room == 0 {
                return fail(i, ErrorKind::TooDeep);
            }
            stack[0] = object as u64;
            depth = 1;
            at_value = false;
        }
        loop {
            if at_value {
                i = self.ws(i);
                match b.get(i) {
                    Some(&c @ (b'{' | b'[')) => {
                        if depth >= room {
                            return fail(i, ErrorKind::TooDeep);
                        }
                        let object = c == b'{';
                        i = self.ws(i + 1);
                        if b.get(i) == Some(&(c + 2)) {
                            // `{}` / `[]`: `}` and `]` are two past `{` and `[`.
                            i += 1;
                        } else {
                            let (word, bit) = (depth / 64, depth % 64);
                            stack[word] = stack[word] & !(1 << bit) | (object as u64) << bit;
                            depth += 1;
                            if object {
                                i = self.member_key(i)?;
                            }
                            continue;
                        }
                    }
                    Some(b'"') => i = self.string(i)?.0,
                    Some(b'-' | b'0'..=b'9') => i = number(b, i)?,
                    Some(b't') => i = literal(b, i, b"true")?,
                    Some(b'f') => i = literal(b, i, b"false")?,
                    Some(b'n') => i = literal(b, i, b"null")?,
                    _ => return unexpected(b, i),
                }
            }
            at_value = true;
            // A value ended at `i`: close containers, or go on to the next
            // member or element.
            loop {
                if depth == 0 {
                    return Ok(i);
                }
                let top = depth - 1;
                let object = stack[top / 64] >> (top % 64) & 1 == 1;
                i = self.ws(i);
                match b.get(i) {
                    Some(b',') => {
                        i = self.ws(i + 1);
                        if object {
                            i = self.member_key(i)?;
                        }
                        break;
                    }
                    Some(b'}') if object => {
                        depth -= 1;
                        i += 1;
                    }
                    Some(b']') if !object => {
                        depth -= 1;
                        i += 1;
                    }
                    _ => return unexpected(b, i),
                }
            }
        }
    }

    /// `"key":` at `i` and the whitespace after it.
    #[inline(always)]
    fn member_key(&mut self, i: usize) -> Result<usize, Error> {
        if self.b.get(i) != Some(&b'"') {
            return unexpected(self.b, i);
        }
        let (end, _) = self.string(i)?;
        self.colon(end)
    }
}

/// The escape at the `\` at `j`, checked by form; returns the index after it.
#[inline]
fn escape(b: &[u8], j: usize) -> Result<usize, Error> {
    match b.get(j + 1) {
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(j + 2),
        Some(b'u') => match b.get(j + 2..j + 6) {
            Some(hex) if hex.iter().all(u8::is_ascii_hexdigit) => Ok(j + 6),
            Some(_) => fail(j, ErrorKind::InvalidUnicodeEscape),
            None if b[j + 2..].iter().all(u8::is_ascii_hexdigit) => {
                fail(b.len(), ErrorKind::UnexpectedEnd)
            }
            None => fail(j, ErrorKind::InvalidUnicodeEscape),
        },
        Some(&c) => fail(j, ErrorKind::InvalidEscape(c)),
        None => fail(b.len(), ErrorKind::UnexpectedEnd),
    }
}
