//! NIP-01 subscription filters: parsing (borrowing from the input) and
//! matching events.
//!
//! A filter is a conjunction: every condition it has must hold for an
//! event, and a `REQ` with several filters matches an event when any of
//! them does ([`matches_any`]).
//!
//! ```text
//! ids      event.id in ids            authors  event.pubkey in authors
//! kinds    event.kind in kinds        since    since <= event.created_at
//! until    event.created_at <= until  #x       some tag ["x", v, ...] has v in #x
//! ```
//!
//! Value lists are [`Set`]s: up to eight values are compared one by one (no
//! hashing, the common case), longer lists are hash sets keyed with ito's
//! per-process random seed, so a filter with thousands of ids or authors
//! still costs one lookup per event and cannot be flooded with colliding
//! keys. Lists of up to four values are held inline, so parsing a
//! filter with short lists allocates nothing (tag values borrow from the
//! input unless escaped).
//!
//! Parsing follows NIP-01 strictly where it speaks (see [`Filter::parse`])
//! and ignores fields it does not define, after validating their JSON, as
//! the `nostr` crate and most relays do: `{"foo": 1, "kinds": [1]}` is the
//! filter `{"kinds": [1]}`. `search` (NIP-50) is kept but not matched:
//! NIP-50 leaves its meaning to the relay.

use super::error::{Error, ErrorKind};
use super::event::{Event, Parser};
use super::scan;
use std::borrow::{Borrow, Cow};
use std::collections::HashSet;
use std::fmt;
use std::hash::{BuildHasher, Hash, Hasher};

use smallvec::SmallVec;

/// Lists longer than this are looked up through a hash set.
const HASH_ABOVE: usize = 8;

/// Lists of up to this many values are stored inside the [`Set`] (no heap
/// allocation); longer short lists spill to the heap.
const INLINE: usize = 4;

/// The list representation: inline up to `INLINE` values.
type List<T> = SmallVec<[T; INLINE]>;

/// Hashes with XXH3 keyed by ito's per-process random seed (the hash
/// [`Set`] and [`FilterIndex`](super::FilterIndex) use for long lists, so
/// colliding keys cannot be chosen in advance).
///
/// ```
/// use std::collections::HashSet;
/// use std::hash::BuildHasher;
/// use ito::nostr::SeededState;
/// let mut ids: HashSet<u64, SeededState> = HashSet::with_hasher(SeededState);
/// ids.insert(7);
/// assert!(ids.contains(&7));
/// // Stable within the process.
/// assert_eq!(SeededState.hash_one("id"), SeededState.hash_one("id"));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct SeededState;

impl BuildHasher for SeededState {
    type Hasher = SeededHasher;

    #[inline]
    fn build_hasher(&self) -> SeededHasher {
        SeededHasher(crate::hash::seed())
    }
}

/// The [`Hasher`] of [`SeededState`].
///
/// ```
/// use std::hash::{BuildHasher, Hasher};
/// let mut h: ito::nostr::SeededHasher = ito::nostr::SeededState.build_hasher();
/// h.write(b"abc");
/// let mut again = ito::nostr::SeededState.build_hasher();
/// again.write(b"abc");
/// assert_eq!(h.finish(), again.finish());
/// ```
#[derive(Clone, Debug)]
pub struct SeededHasher(u64);

impl Hasher for SeededHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        self.0 = crate::hash::hash_bytes_with_seed(bytes, self.0);
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        // Length prefixes: mixed into the seed of the next write.
        self.0 = (self.0 ^ n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

#[derive(Clone)]
enum Repr<T> {
    List(List<T>),
    Hashed(HashSet<T, SeededState>),
}

/// The values of one filter condition: a short list or, past eight
/// values, a seeded hash set (constant time per lookup).
///
/// ```
/// use ito::nostr::Set;
/// let kinds: Set<u16> = (0..1000).collect();
/// assert!(kinds.contains(&999));
/// assert_eq!(kinds.len(), 1000);
/// ```
///
/// Equality compares the values as sets.
#[derive(Clone)]
pub struct Set<T>(Repr<T>);

impl<T: Hash + Eq> Set<T> {
    /// Whether `value` is in the set.
    ///
    /// ```
    /// use ito::nostr::Set;
    /// let tags: Set<std::borrow::Cow<str>> = ["a".into(), "b".into()].into_iter().collect();
    /// assert!(tags.contains("b"));
    /// ```
    #[inline]
    pub fn contains<Q>(&self, value: &Q) -> bool
    where
        T: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        match &self.0 {
            Repr::List(list) => list.iter().any(|v| v.borrow() == value),
            Repr::Hashed(set) => set.contains(value),
        }
    }

    /// Number of values (duplicates in a short list count twice).
    ///
    /// ```
    /// assert_eq!(ito::nostr::Set::from_iter([1u16, 2]).len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::List(list) => list.len(),
            Repr::Hashed(set) => set.len(),
        }
    }

    /// Whether there are no values (such a condition matches no event).
    ///
    /// ```
    /// assert!(ito::nostr::Set::<u16>::from_iter([]).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The values (in input order for short lists, in no order past eight).
    ///
    /// ```
    /// let set = ito::nostr::Set::from_iter([3u16, 1]);
    /// assert_eq!(set.iter().copied().collect::<Vec<_>>(), [3, 1]);
    /// ```
    pub fn iter(&self) -> Box<dyn Iterator<Item = &T> + '_> {
        match &self.0 {
            Repr::List(list) => Box::new(list.iter()),
            Repr::Hashed(set) => Box::new(set.iter()),
        }
    }

    fn from_list(values: List<T>) -> Set<T> {
        if values.len() > HASH_ABOVE {
            Set(Repr::Hashed(values.into_iter().collect()))
        } else {
            Set(Repr::List(values))
        }
    }
}

impl<T: Hash + Eq> FromIterator<T> for Set<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Set<T> {
        Set::from_list(iter.into_iter().collect())
    }
}

impl<T: Hash + Eq> PartialEq for Set<T> {
    fn eq(&self, other: &Set<T>) -> bool {
        self.iter().all(|v| other.contains(v)) && other.iter().all(|v| self.contains(v))
    }
}

impl<T: Hash + Eq> Eq for Set<T> {}

impl<T: fmt::Debug + Hash + Eq> fmt::Debug for Set<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// One `#x` condition: the event needs a tag named `x` whose first value
/// is in `values`.
///
/// ```
/// use ito::nostr::{Filter, TagFilter};
/// let filter = Filter::parse(br##"{"#t": ["nostr", "rust"]}"##).unwrap();
/// let t: &TagFilter = &filter.tags[0];
/// assert_eq!((t.name, t.values.len()), (b't', 2));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagFilter<'a> {
    /// The tag name, an ASCII letter (`e`, `p`, `t`, ...; case matters).
    pub name: u8,
    /// The accepted first values, decoded.
    pub values: Set<Cow<'a, str>>,
}

/// A NIP-01 subscription filter.
///
/// ```
/// use ito::nostr::{Event, Filter};
/// let filter = Filter::parse(br#"{"kinds": [1, 7], "since": 1673347000}"#)?;
/// let event = Event::parse(br#"{"id":"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65","pubkey":"6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93","created_at":1673347337,"kind":1,"tags":[],"content":"","sig":"908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262"}"#)?;
/// assert!(filter.matches(&event));
/// # Ok::<(), ito::nostr::Error>(())
/// ```
///
/// Build one in code from its public fields:
///
/// ```
/// use ito::nostr::Filter;
/// let filter = Filter { kinds: Some([1u16, 7].into_iter().collect()), since: Some(10), ..Filter::default() };
/// assert_eq!(filter, Filter::parse(br#"{"since":10,"kinds":[7,1]}"#).unwrap());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter<'a> {
    /// `ids`: event ids.
    pub ids: Option<Set<[u8; 32]>>,
    /// `authors`: public keys.
    pub authors: Option<Set<[u8; 32]>>,
    /// `kinds`: event kinds.
    pub kinds: Option<Set<u16>>,
    /// `since`: the earliest `created_at` accepted (inclusive).
    pub since: Option<u64>,
    /// `until`: the latest `created_at` accepted (inclusive).
    pub until: Option<u64>,
    /// `limit`: how many stored events the client wants at first (not a
    /// matching condition).
    pub limit: Option<u64>,
    /// `#x` conditions, at most one per letter, in input order (two are
    /// held inline; `Vec::into` builds one).
    pub tags: SmallVec<[TagFilter<'a>; 2]>,
    /// `search` (NIP-50), decoded; not used by [`Filter::matches`].
    pub search: Option<Cow<'a, str>>,
}

impl<'a> Filter<'a> {
    /// Parses one filter object. Per NIP-01: `ids` and `authors` (and
    /// `#e`, `#p`) hold strings of exactly 64 lowercase hex digits; `kinds`
    /// integers 0..=65535; `since`, `until`, `limit` non-negative integers;
    /// `#` plus one ASCII letter an array of strings; `#` plus one other
    /// character is an error. Keys may appear in any order but only once;
    /// escaped spellings of keys and values are decoded; other fields are
    /// validated and ignored (`null` is not accepted for a NIP-01 field).
    ///
    /// ```
    /// use ito::nostr::{Filter, ErrorKind};
    /// let err = Filter::parse(br#"{"kinds": [1, 70000]}"#).unwrap_err();
    /// assert_eq!((err.offset(), err.kind()), (14, ErrorKind::OutOfRange { max: 65535 }));
    /// assert!(Filter::parse(br#"{"unknown": {"x": [1]}}"#).unwrap() == Filter::default());
    /// ```
    pub fn parse(json: &'a [u8]) -> Result<Filter<'a>, Error> {
        let mut p = Parser::new(json);
        let mut filter = Filter::default();
        parse_filter(&mut p, 1, &mut filter)?;
        p.end()?;
        Ok(filter)
    }

    /// Parses a JSON array of one or more filter objects (the filters of a
    /// `REQ` on their own), each as [`Filter::parse`] does; errors carry
    /// the byte offset in `json`.
    ///
    /// ```
    /// use ito::nostr::{Filter, ErrorKind};
    /// let filters = Filter::parse_list(br#"[{"kinds": [1]}, {"limit": 5}]"#)?;
    /// assert_eq!((filters.len(), filters[1].limit), (2, Some(5)));
    /// let err = Filter::parse_list(b"[]").unwrap_err();
    /// assert_eq!(err.offset(), 1);
    /// # Ok::<(), ito::nostr::Error>(())
    /// ```
    pub fn parse_list(json: &'a [u8]) -> Result<Vec<Filter<'a>>, Error> {
        let mut p = Parser::new(json);
        p.eat(b'[', "`[` (an array of filter objects)")?;
        let mut filters = Vec::new();
        loop {
            let mut filter = Filter::default();
            parse_filter(&mut p, 2, &mut filter)?;
            filters.push(filter);
            match p.peek() {
                Some(b',') => p.pos += 1,
                Some(b']') => {
                    p.pos += 1;
                    break;
                }
                _ => return Err(Error::expected(p.src, p.pos, "`,` or `]`")),
            }
        }
        p.end()?;
        Ok(filters)
    }

    /// Whether `event` passes every condition of the filter: its id in
    /// `ids`, its pubkey in `authors`, its kind in `kinds`, `since <=
    /// created_at <= until`, and for each `#x` some tag `["x", v, ...]`
    /// with `v` in the list. An empty list matches no event.
    ///
    /// ```
    /// use ito::nostr::{Event, Filter};
    /// # let json = br#"{"id":"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65","pubkey":"6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93","created_at":1673347337,"kind":1,"tags":[["e","3da979448d9ba263864c4d6f14984c423a3838364ec255f03c7904b1ae77f206"],["p","bf2376e17ba4ec269d10fcc996a4746b451152be9031fa48e74553dde5526bce"]],"content":"","sig":"908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262"}"#;
    /// let event = Event::parse(json)?;
    /// let filter = Filter::parse(br##"{"#p": ["bf2376e17ba4ec269d10fcc996a4746b451152be9031fa48e74553dde5526bce"]}"##)?;
    /// assert!(filter.matches(&event));
    /// assert!(!Filter::parse(br#"{"kinds": []}"#)?.matches(&event));
    /// # Ok::<(), ito::nostr::Error>(())
    /// ```
    pub fn matches(&self, event: &Event<'_>) -> bool {
        if let Some(kinds) = &self.kinds {
            if !kinds.contains(&event.kind) {
                return false;
            }
        }
        if self.since.is_some_and(|t| event.created_at < t)
            || self.until.is_some_and(|t| event.created_at > t)
        {
            return false;
        }
        if let Some(authors) = &self.authors {
            if !authors.contains(&event.pubkey) {
                return false;
            }
        }
        if let Some(ids) = &self.ids {
            if !ids.contains(&event.id) {
                return false;
            }
        }
        self.tags.iter().all(|cond| tag_matches(cond, event))
    }

    /// Copies whatever borrows from the input, for keeping the filter
    /// after the message buffer is gone.
    ///
    /// ```
    /// let owned: ito::nostr::Filter<'static> = {
    ///     let text = String::from(r##"{"#t":["x"]}"##);
    ///     ito::nostr::Filter::parse(text.as_bytes()).unwrap().into_owned()
    /// };
    /// assert_eq!(owned.tags.len(), 1);
    /// ```
    pub fn into_owned(self) -> Filter<'static> {
        Filter {
            ids: self.ids,
            authors: self.authors,
            kinds: self.kinds,
            since: self.since,
            until: self.until,
            limit: self.limit,
            tags: self
                .tags
                .into_iter()
                .map(|t| TagFilter {
                    name: t.name,
                    values: t
                        .values
                        .iter()
                        .map(|v| Cow::Owned(v.clone().into_owned()))
                        .collect(),
                })
                .collect(),
            search: self.search.map(|s| Cow::Owned(s.into_owned())),
        }
    }
}

/// Whether any of `filters` matches `event` (a `REQ` subscription's
/// condition).
///
/// ```
/// use ito::nostr::{matches_any, Event, Filter};
/// # let json = br#"{"id":"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65","pubkey":"6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93","created_at":1673347337,"kind":1,"tags":[],"content":"","sig":"908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262"}"#;
/// let event = Event::parse(json)?;
/// let filters = [Filter::parse(br#"{"kinds":[0]}"#)?, Filter::parse(br#"{"kinds":[1]}"#)?];
/// assert!(matches_any(&filters, &event));
/// assert!(!matches_any(&filters[..1], &event));
/// # Ok::<(), ito::nostr::Error>(())
/// ```
pub fn matches_any(filters: &[Filter<'_>], event: &Event<'_>) -> bool {
    filters.iter().any(|f| f.matches(event))
}

fn tag_matches(cond: &TagFilter<'_>, event: &Event<'_>) -> bool {
    let name = [cond.name];
    event.tags.iter().any(|tag| {
        let mut values = tag.iter();
        values.next().is_some_and(|n| n.as_bytes() == name)
            && values
                .next()
                .is_some_and(|v| cond.values.contains(v.as_ref()))
    })
}

/// Bit of each NIP-01 field in the "seen" mask (tags: 8 + letter index).
const IDS: u64 = 1;
const AUTHORS: u64 = 1 << 1;
const KINDS: u64 = 1 << 2;
const SINCE: u64 = 1 << 3;
const UNTIL: u64 = 1 << 4;
const LIMIT: u64 = 1 << 5;
const SEARCH: u64 = 1 << 6;

fn tag_bit(letter: u8) -> u64 {
    let index = if letter.is_ascii_lowercase() {
        letter - b'a'
    } else {
        26 + (letter - b'A')
    };
    1 << (8 + index)
}

/// One filter object at the parser's position, parsed into `filter` (a
/// default one: filled in place, since an inline `Filter` is large to
/// move); `depth` is the nesting level of the object (1 on its own, 2
/// inside a message).
pub(crate) fn parse_filter<'a>(
    p: &mut Parser<'a>,
    depth: u32,
    filter: &mut Filter<'a>,
) -> Result<(), Error> {
    if p.peek() != Some(b'{') {
        return Err(Error::expected(p.src, p.pos, "a filter object"));
    }
    p.pos += 1;
    if p.peek() == Some(b'}') {
        p.pos += 1;
        return Ok(());
    }
    let mut seen = 0u64;
    let mut key_buf = Vec::new();
    loop {
        let key = p.key_string("a string (filter field name)")?;
        let key_at = key.start - 1;
        let raw = &p.src[key.start..key.end];
        let name: &[u8] = if key.escaped {
            key_buf.clear();
            scan::unescape_into(&mut key_buf, raw).map_err(|e| e.shifted(key.start))?;
            &key_buf
        } else {
            raw
        };
        let bit = match name {
            b"ids" => IDS,
            b"authors" => AUTHORS,
            b"kinds" => KINDS,
            b"since" => SINCE,
            b"until" => UNTIL,
            b"limit" => LIMIT,
            b"search" => SEARCH,
            [b'#', c] if c.is_ascii_alphabetic() => tag_bit(*c),
            [b'#', rest @ ..] if is_one_char(rest) => {
                return Err(Error::new(
                    key.start + 1,
                    ErrorKind::Expected {
                        what: "an ASCII letter after `#` (a tag filter)",
                        found: rest[0],
                    },
                ))
            }
            _ => 0,
        };
        let tag_name = match name {
            [b'#', c] => *c,
            _ => 0,
        };
        if seen & bit != 0 {
            return Err(Error::new(key_at, ErrorKind::DuplicateField));
        }
        seen |= bit;
        p.eat(b':', "`:`")?;
        match bit {
            0 => p.skip_value(depth)?,
            IDS => hex_set(p, filter.ids.insert(empty()))?,
            AUTHORS => hex_set(p, filter.authors.insert(empty()))?,
            KINDS => kinds(p, filter.kinds.insert(empty()))?,
            SINCE => filter.since = Some(p.uint(u64::MAX)?),
            UNTIL => filter.until = Some(p.uint(u64::MAX)?),
            LIMIT => filter.limit = Some(p.uint(u64::MAX)?),
            SEARCH => filter.search = Some(string_value(p)?),
            _ => {
                filter.tags.push(TagFilter {
                    name: tag_name,
                    values: empty(),
                });
                let last = filter.tags.len() - 1;
                let hex = matches!(tag_name, b'e' | b'p');
                tag_values(p, hex, &mut filter.tags[last].values)?;
            }
        }
        match p.peek() {
            Some(b',') => p.pos += 1,
            Some(b'}') => {
                p.pos += 1;
                return Ok(());
            }
            _ => return Err(Error::expected(p.src, p.pos, "`,` or `}`")),
        }
    }
}

/// Exactly one UTF-8 character.
fn is_one_char(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_ok_and(|s| s.chars().count() == 1)
}

/// `[` items `]` separated by commas, each read by `item`.
fn array<'a, T>(
    p: &mut Parser<'a>,
    what: &'static str,
    set: &mut Set<T>,
    mut item: impl FnMut(&mut Parser<'a>) -> Result<T, Error>,
) -> Result<(), Error>
where
    T: Hash + Eq,
{
    if p.peek() != Some(b'[') {
        return Err(Error::expected(p.src, p.pos, what));
    }
    p.pos += 1;
    // Filled in place (a `Set` of ids is 140 bytes: no moves).
    set.0 = Repr::List(List::new());
    let Repr::List(out) = &mut set.0 else {
        unreachable!("set just above")
    };
    if p.peek() == Some(b']') {
        p.pos += 1;
        return Ok(());
    }
    loop {
        out.push(item(p)?);
        match p.peek() {
            Some(b',') => p.pos += 1,
            Some(b']') => {
                p.pos += 1;
                if out.len() > HASH_ABOVE {
                    *set = Set::from_list(std::mem::take(out));
                }
                return Ok(());
            }
            _ => return Err(Error::expected(p.src, p.pos, "`,` or `]`")),
        }
    }
}

/// An empty list for [`array`] to fill.
fn empty<T>() -> Set<T> {
    Set(Repr::List(List::new()))
}

fn hex_set(p: &mut Parser<'_>, set: &mut Set<[u8; 32]>) -> Result<(), Error> {
    array(p, "an array of hex strings", set, |p| p.hex::<32>())
}

fn kinds(p: &mut Parser<'_>, set: &mut Set<u16>) -> Result<(), Error> {
    array(p, "an array of kinds", set, |p| {
        p.uint(u16::MAX as u64).map(|k| k as u16)
    })
}

/// A string, decoded (borrowed unless it has escapes).
pub(crate) fn string_value<'a>(p: &mut Parser<'a>) -> Result<Cow<'a, str>, Error> {
    p.string_value()
}

fn tag_values<'a>(p: &mut Parser<'a>, hex: bool, set: &mut Set<Cow<'a, str>>) -> Result<(), Error> {
    array(p, "an array of strings", set, |p| {
        let start = p.peek().map_or(p.pos, |_| p.pos + 1);
        let value = string_value(p)?;
        if hex {
            check_hex64(value.as_bytes(), start)?;
        }
        Ok(value)
    })
}

/// `#e` and `#p` values: exactly 64 lowercase hex digits.
fn check_hex64(value: &[u8], at: usize) -> Result<(), Error> {
    // The common, valid case through the SIMD hex decoder (a byte loop
    // over 64 digits was a tenth of a whole `REQ`'s parse); the loop
    // below only runs to name the offending byte.
    if crate::hex::decode_array_lower::<32>(value).is_ok() {
        return Ok(());
    }
    if let Some(i) = value
        .iter()
        .position(|&b| !matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        return Err(Error::new(at + i, ErrorKind::HexDigit(value[i])));
    }
    if value.len() != 64 {
        return Err(Error::new(
            at,
            ErrorKind::HexLength {
                expected: 64,
                found: value.len(),
            },
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_hashed_sets_agree() {
        for n in [0usize, 1, 8, 9, 100] {
            let set: Set<u16> = (0..n as u16).map(|k| k * 3).collect();
            assert_eq!(set.len(), n);
            for k in 0..(n as u16 * 3 + 3) {
                assert_eq!(set.contains(&k), k % 3 == 0 && k < n as u16 * 3, "{n} {k}");
            }
        }
    }

    #[test]
    fn parsed_lists_keep_every_value_across_the_inline_and_hash_boundaries() {
        // 0..=12 values: inline (<= 4), spilled (5..=8), hashed (> 8).
        for n in 0..=12u16 {
            let list: Vec<String> = (0..n).map(|k| (k * 5).to_string()).collect();
            let tags: Vec<String> = (0..n).map(|k| format!("\"v{k}\"")).collect();
            let json = format!(
                r##"{{"kinds":[{}],"#t":[{}]}}"##,
                list.join(","),
                tags.join(",")
            );
            let filter = Filter::parse(json.as_bytes()).unwrap();
            let kinds = filter.kinds.as_ref().unwrap();
            let t = &filter.tags[0].values;
            assert_eq!((kinds.len(), t.len()), (n as usize, n as usize), "{json}");
            for k in 0..n * 5 + 5 {
                assert_eq!(kinds.contains(&k), k % 5 == 0 && k < n * 5, "{n} {k}");
                assert_eq!(t.contains(format!("v{k}").as_str()), k < n, "{n} {k}");
            }
        }
    }

    #[test]
    fn inline_lists_keep_a_filter_small_enough_to_hold_thousands() {
        // The price of inline lists: a filter is a few hundred bytes (one
        // allocation of the Vec holds all of a REQ's filters).
        let size = std::mem::size_of::<Filter<'_>>();
        eprintln!("size_of::<Filter>() = {size}");
        assert!(size <= 768, "{size}");
    }

    #[test]
    fn every_tag_letter_has_its_own_bit() {
        let mut all = 0u64;
        for c in (b'a'..=b'z').chain(b'A'..=b'Z') {
            let bit = tag_bit(c);
            assert_eq!(all & bit, 0);
            assert!(bit > SEARCH);
            all |= bit;
        }
    }
}
