//! Matching one event against many open filters without trying each one.
//!
//! Every filter is filed under one of its conditions, the most selective it
//! has: its `ids`, else its `authors`, else its first `#x` condition, else
//! its `kinds`; a filter with none of these is "always a candidate". An
//! event then looks up only the buckets it can be in:
//!
//! ```text
//! candidates = ids[event.id] + authors[event.pubkey] + kinds[event.kind]
//!            + tags[x][v] for each tag ["x", v, ...] of the event
//!            + always
//! matches    = the candidates whose whole filter matches (Filter::matches)
//! ```
//!
//! Each lookup is one seeded hash probe, so the cost follows the number of
//! candidates, not the number of open filters; a relay with thousands of
//! subscriptions by author checks a few per event.

use super::event::Event;
use super::filter::{Filter, SeededState};
use std::collections::HashMap;

type Buckets<K> = HashMap<K, Vec<u32>, SeededState>;

/// A set of filters to match events against, each known by the number
/// [`FilterIndex::insert`] returned.
///
/// ```
/// use ito::nostr::{Event, Filter, FilterIndex};
/// let mut index = FilterIndex::new();
/// let notes = index.insert(Filter::parse(br#"{"kinds":[1]}"#)?.into_owned());
/// let by_author = index.insert(Filter::parse(br#"{"authors":["6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93"]}"#)?.into_owned());
/// let _profiles = index.insert(Filter::parse(br#"{"kinds":[0]}"#)?.into_owned());
/// # let json = br#"{"id":"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65","pubkey":"6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93","created_at":1673347337,"kind":1,"tags":[],"content":"","sig":"908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262"}"#;
/// let event = Event::parse(json)?;
/// let mut hits = Vec::new();
/// index.matches(&event, &mut hits);
/// assert_eq!(hits, [notes, by_author]);
/// index.remove(notes);
/// index.matches(&event, &mut hits);
/// assert_eq!(hits, [by_author]);
/// # Ok::<(), ito::nostr::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct FilterIndex {
    filters: Vec<Option<Filter<'static>>>,
    ids: Buckets<[u8; 32]>,
    authors: Buckets<[u8; 32]>,
    kinds: Buckets<u16>,
    /// Per tag letter: first value -> filters.
    tags: HashMap<u8, Buckets<Box<str>>, SeededState>,
    always: Vec<u32>,
    live: usize,
}

/// Where a filter is filed.
enum Key {
    Ids,
    Authors,
    Tag(usize),
    Kinds,
    Always,
}

impl FilterIndex {
    /// An empty index.
    ///
    /// ```
    /// assert!(ito::nostr::FilterIndex::new().is_empty());
    /// ```
    pub fn new() -> FilterIndex {
        FilterIndex::default()
    }

    /// Number of filters in the index.
    ///
    /// ```
    /// let mut index = ito::nostr::FilterIndex::new();
    /// index.insert(ito::nostr::Filter::default());
    /// assert_eq!(index.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether the index holds no filter.
    ///
    /// ```
    /// assert!(ito::nostr::FilterIndex::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Adds a filter; returns its number (numbers are never reused).
    ///
    /// ```
    /// let mut index = ito::nostr::FilterIndex::new();
    /// assert_eq!(index.insert(ito::nostr::Filter::default()), 0);
    /// assert_eq!(index.insert(ito::nostr::Filter::default()), 1);
    /// ```
    pub fn insert(&mut self, filter: Filter<'static>) -> u32 {
        let n = u32::try_from(self.filters.len()).expect("fewer than 2^32 filters");
        match key_of(&filter) {
            Key::Ids => file(
                &mut self.ids,
                filter.ids.iter().flat_map(|s| s.iter().copied()),
                n,
            ),
            Key::Authors => file(
                &mut self.authors,
                filter.authors.iter().flat_map(|s| s.iter().copied()),
                n,
            ),
            Key::Tag(i) => {
                let cond = &filter.tags[i];
                let bucket = self.tags.entry(cond.name).or_default();
                file(bucket, cond.values.iter().map(|v| Box::from(v.as_ref())), n);
            }
            Key::Kinds => file(
                &mut self.kinds,
                filter.kinds.iter().flat_map(|s| s.iter().copied()),
                n,
            ),
            Key::Always => self.always.push(n),
        }
        self.filters.push(Some(filter));
        self.live += 1;
        n
    }

    /// Removes filter `n`; returns it, or `None` if there is no such
    /// filter. Costs the length of the buckets it was filed in.
    ///
    /// ```
    /// let mut index = ito::nostr::FilterIndex::new();
    /// let n = index.insert(ito::nostr::Filter::default());
    /// assert!(index.remove(n).is_some());
    /// assert!(index.remove(n).is_none());
    /// ```
    pub fn remove(&mut self, n: u32) -> Option<Filter<'static>> {
        let filter = self.filters.get_mut(n as usize)?.take()?;
        match key_of(&filter) {
            Key::Ids => unfile(&mut self.ids, filter.ids.iter().flat_map(|s| s.iter()), n),
            Key::Authors => unfile(
                &mut self.authors,
                filter.authors.iter().flat_map(|s| s.iter()),
                n,
            ),
            Key::Tag(i) => {
                let cond = &filter.tags[i];
                if let Some(bucket) = self.tags.get_mut(&cond.name) {
                    unfile(bucket, cond.values.iter().map(|v| v.as_ref()), n);
                }
            }
            Key::Kinds => unfile(
                &mut self.kinds,
                filter.kinds.iter().flat_map(|s| s.iter()),
                n,
            ),
            Key::Always => self.always.retain(|&m| m != n),
        }
        self.live -= 1;
        Some(filter)
    }

    /// The filter numbered `n`, if it is in the index.
    ///
    /// ```
    /// let mut index = ito::nostr::FilterIndex::new();
    /// let n = index.insert(ito::nostr::Filter { limit: Some(5), ..Default::default() });
    /// assert_eq!(index.get(n).unwrap().limit, Some(5));
    /// ```
    pub fn get(&self, n: u32) -> Option<&Filter<'static>> {
        self.filters.get(n as usize)?.as_ref()
    }

    /// Replaces the contents of `out` with the numbers of the filters that
    /// match `event`, ascending.
    ///
    /// ```
    /// use ito::nostr::{Event, Filter, FilterIndex};
    /// let mut index = FilterIndex::new();
    /// let all = index.insert(Filter::default());
    /// let _meta = index.insert(Filter::parse(br#"{"kinds":[0]}"#)?.into_owned());
    /// let text = index.insert(Filter::parse(br#"{"kinds":[1]}"#)?.into_owned());
    /// let event = Event::parse(br#"{"id":"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65","pubkey":"6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93","created_at":1673347337,"kind":1,"tags":[],"content":"","sig":"908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262"}"#)?;
    /// let mut hits = vec![99]; // replaced, not appended to
    /// index.matches(&event, &mut hits);
    /// assert_eq!(hits, [all, text]);
    /// # Ok::<(), ito::nostr::Error>(())
    /// ```
    pub fn matches(&self, event: &Event<'_>, out: &mut Vec<u32>) {
        out.clear();
        let check = |n: &u32| {
            self.filters[*n as usize]
                .as_ref()
                .is_some_and(|f| f.matches(event))
        };
        let mut push = |bucket: Option<&Vec<u32>>| {
            if let Some(bucket) = bucket {
                out.extend(bucket.iter().filter(|n| check(n)));
            }
        };
        if !self.ids.is_empty() {
            push(self.ids.get(&event.id));
        }
        if !self.authors.is_empty() {
            push(self.authors.get(&event.pubkey));
        }
        if !self.kinds.is_empty() {
            push(self.kinds.get(&event.kind));
        }
        push(Some(&self.always));
        if !self.tags.is_empty() {
            for tag in event.tags.iter() {
                let mut values = tag.iter();
                let (Some(name), Some(value)) = (values.next(), values.next()) else {
                    continue;
                };
                let &[letter] = name.as_bytes() else { continue };
                if let Some(bucket) = self.tags.get(&letter) {
                    push(bucket.get(value.as_ref()));
                }
            }
        }
        // A filter is filed under one condition, but an event can reach the
        // same tag bucket twice (two tags with listed values).
        out.sort_unstable();
        out.dedup();
    }
}

fn key_of(filter: &Filter<'_>) -> Key {
    if filter.ids.is_some() {
        Key::Ids
    } else if filter.authors.is_some() {
        Key::Authors
    } else if !filter.tags.is_empty() {
        Key::Tag(0)
    } else if filter.kinds.is_some() {
        Key::Kinds
    } else {
        Key::Always
    }
}

fn file<K: std::hash::Hash + Eq>(buckets: &mut Buckets<K>, keys: impl Iterator<Item = K>, n: u32) {
    for key in keys {
        let bucket = buckets.entry(key).or_default();
        // Duplicate values in one list file the filter once.
        if bucket.last() != Some(&n) {
            bucket.push(n);
        }
    }
}

fn unfile<'k, K, Q>(buckets: &mut Buckets<K>, keys: impl Iterator<Item = &'k Q>, n: u32)
where
    K: std::hash::Hash + Eq + std::borrow::Borrow<Q>,
    Q: std::hash::Hash + Eq + ?Sized + 'k,
{
    for key in keys {
        if let Some(bucket) = buckets.get_mut(key) {
            bucket.retain(|&m| m != n);
            if bucket.is_empty() {
                buckets.remove(key);
            }
        }
    }
}
