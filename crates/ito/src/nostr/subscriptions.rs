//! A relay's open subscriptions, each known by a key (its subscription id),
//! matched against one event at a time.
//!
//! [`Subscriptions`] keeps the names on top of a [`FilterIndex`]: which
//! key owns which filter number, so that an event's matches come back as
//! keys, each once, in the order the subscriptions were opened. Opening a
//! key that is already open replaces its filters, as a relay does for a
//! repeated `REQ` with the same id.

use super::event::Event;
use super::filter::{Filter, SeededState};
use super::index::FilterIndex;
use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;

/// Marks a filter number whose subscription has been closed.
const CLOSED: usize = usize::MAX;

/// One open subscription.
#[derive(Debug)]
struct Entry<K> {
    key: K,
    /// Its filters' numbers in the index: consecutive, ascending.
    filters: Vec<u32>,
    /// The [`Subscriptions::matches`] call that last reported it.
    seen: u64,
}

/// Open subscriptions known by a key `K` (a subscription id), to find
/// those an event matches; the cost follows the number of candidate
/// filters (see [`FilterIndex`]), not the number of subscriptions.
///
/// ```
/// use ito::nostr::{Event, Filter, Subscriptions};
/// let mut subs = Subscriptions::new();
/// subs.insert("feed", [Filter::parse(br#"{"kinds":[1]}"#)?.into_owned()]);
/// subs.insert("profiles", [Filter::parse(br#"{"kinds":[0]}"#)?.into_owned()]);
/// # let json = br#"{"id":"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65","pubkey":"6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93","created_at":1673347337,"kind":1,"tags":[],"content":"","sig":"908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262"}"#;
/// let event = Event::parse(json)?;
/// let mut hits = Vec::new();
/// subs.matches(&event, &mut hits);
/// assert_eq!(hits, ["feed"]);
/// # Ok::<(), ito::nostr::Error>(())
/// ```
#[derive(Debug)]
pub struct Subscriptions<K> {
    index: FilterIndex,
    /// Subscription slots; a closed one is `None` until reused.
    slots: Vec<Option<Entry<K>>>,
    free: Vec<usize>,
    /// Keys come from clients: hashed with the seeded hasher.
    by_key: HashMap<K, usize, SeededState>,
    /// Filter number -> slot of its subscription ([`CLOSED`] once closed);
    /// the index numbers filters 0, 1, 2, ... and never reuses one.
    owner: Vec<usize>,
    calls: u64,
    hits: Vec<u32>,
}

impl<K: Hash + Eq + Clone> Default for Subscriptions<K> {
    fn default() -> Self {
        Subscriptions {
            index: FilterIndex::new(),
            slots: Vec::new(),
            free: Vec::new(),
            by_key: HashMap::default(),
            owner: Vec::new(),
            calls: 0,
            hits: Vec::new(),
        }
    }
}

impl<K: Hash + Eq + Clone> Subscriptions<K> {
    /// No open subscription.
    ///
    /// ```
    /// assert!(ito::nostr::Subscriptions::<String>::new().is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// The number of open subscriptions (one with no filter counts too).
    ///
    /// ```
    /// let mut subs = ito::nostr::Subscriptions::new();
    /// subs.insert(7, []);
    /// assert_eq!(subs.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    /// Whether no subscription is open.
    ///
    /// ```
    /// let mut subs = ito::nostr::Subscriptions::new();
    /// subs.insert("a", []);
    /// assert!(!subs.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }

    /// Whether subscription `key` is open (any borrowed form of the key,
    /// as for a `HashMap`).
    ///
    /// ```
    /// let mut subs = ito::nostr::Subscriptions::new();
    /// subs.insert("a", [ito::nostr::Filter::default()]);
    /// assert!(subs.contains(&"a") && !subs.contains(&"b"));
    /// ```
    pub fn contains<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.by_key.contains_key(key)
    }

    /// Opens subscription `key` with `filters` (any number, none too: it
    /// is open and matches nothing). A key already open is closed first,
    /// as a relay does for a repeated `REQ`: its old filters are dropped
    /// and it now counts as opened last.
    ///
    /// ```
    /// use ito::nostr::{Filter, Subscriptions};
    /// let mut subs = Subscriptions::new();
    /// subs.insert("a", [Filter::default(), Filter::default()]);
    /// subs.insert("a", [Filter::default()]);
    /// assert_eq!(subs.len(), 1);
    /// ```
    pub fn insert(&mut self, key: K, filters: impl IntoIterator<Item = Filter<'static>>) {
        self.remove(&key);
        let slot = self.free.pop().unwrap_or(self.slots.len());
        let numbers = filters
            .into_iter()
            .map(|f| {
                let n = self.index.insert(f);
                debug_assert_eq!(n as usize, self.owner.len());
                self.owner.push(slot);
                n
            })
            .collect();
        let entry = Entry {
            key: key.clone(),
            filters: numbers,
            seen: 0,
        };
        if slot == self.slots.len() {
            self.slots.push(Some(entry));
        } else {
            self.slots[slot] = Some(entry);
        }
        self.by_key.insert(key, slot);
    }

    /// Closes subscription `key` (any borrowed form of the key); returns
    /// whether it was open.
    ///
    /// ```
    /// let mut subs = ito::nostr::Subscriptions::new();
    /// subs.insert(String::from("a"), [ito::nostr::Filter::default()]);
    /// assert!(subs.remove("a"));
    /// assert!(!subs.remove("a"));
    /// ```
    pub fn remove<Q>(&mut self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let Some(slot) = self.by_key.remove(key) else {
            return false;
        };
        if let Some(entry) = self.slots[slot].take() {
            for n in entry.filters {
                self.index.remove(n);
                self.owner[n as usize] = CLOSED;
            }
        }
        self.free.push(slot);
        true
    }

    /// Replaces the contents of `out` with the keys of the subscriptions
    /// that `event` matches (any of their filters), each once, in the
    /// order they were opened (a replaced key counts as opened when it
    /// was replaced).
    ///
    /// ```
    /// use ito::nostr::{Event, Filter, Subscriptions};
    /// let all = || Filter::default();
    /// let mut subs = Subscriptions::new();
    /// subs.insert("b", [all(), all()]);
    /// subs.insert("a", [all()]);
    /// subs.insert("b", [all()]); // reopened: now after "a"
    /// # let json = br#"{"id":"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65","pubkey":"6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93","created_at":1673347337,"kind":1,"tags":[],"content":"","sig":"908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262"}"#;
    /// let mut hits = vec!["stale"]; // replaced, not appended to
    /// subs.matches(&Event::parse(json)?, &mut hits);
    /// assert_eq!(hits, ["a", "b"]);
    /// # Ok::<(), ito::nostr::Error>(())
    /// ```
    pub fn matches(&mut self, event: &Event<'_>, out: &mut Vec<K>) {
        out.clear();
        self.index.matches(event, &mut self.hits);
        self.calls += 1;
        // The hits are ascending and each subscription's filters hold
        // consecutive numbers, all above those of the subscriptions opened
        // before it: the first hit of each comes in opening order.
        for &n in &self.hits {
            let slot = self.owner.get(n as usize).copied().unwrap_or(CLOSED);
            let Some(Some(entry)) = self.slots.get_mut(slot) else {
                continue;
            };
            if entry.seen != self.calls {
                entry.seen = self.calls;
                out.push(entry.key.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const HEX: [&str; 2] = [
        "6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93",
        "4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65",
    ];

    /// A filter's JSON from small pools, so that matches are common.
    fn filter_json() -> impl Strategy<Value = String> {
        (
            prop::option::of(0usize..2),
            prop::option::of(0usize..2),
            prop::option::of(prop::collection::vec(0u16..3, 1..3)),
            prop::option::of(prop::sample::select(vec!["a", "b"])),
            prop::option::of(prop::sample::select(vec![10u64, 20])),
        )
            .prop_map(|(id, author, kinds, tag, since)| {
                let mut parts = Vec::new();
                if let Some(i) = id {
                    parts.push(format!(r#""ids":["{}"]"#, HEX[i]));
                }
                if let Some(a) = author {
                    parts.push(format!(r#""authors":["{}"]"#, HEX[a]));
                }
                if let Some(k) = kinds {
                    let k: Vec<String> = k.iter().map(u16::to_string).collect();
                    parts.push(format!(r#""kinds":[{}]"#, k.join(",")));
                }
                if let Some(t) = tag {
                    parts.push(format!(r##""#t":["{t}"]"##));
                }
                if let Some(s) = since {
                    parts.push(format!(r#""since":{s}"#));
                }
                format!("{{{}}}", parts.join(","))
            })
    }

    fn event_json() -> impl Strategy<Value = String> {
        (0usize..2, 0usize..2, 0u16..3, 0u64..30, prop::collection::vec(prop::sample::select(vec!["a", "b", "c"]), 0..3))
            .prop_map(|(id, author, kind, at, tags)| {
                let tags: Vec<String> = tags.iter().map(|t| format!(r#"["t","{t}"]"#)).collect();
                format!(
                    r#"{{"id":"{}","pubkey":"{}","created_at":{at},"kind":{kind},"tags":[{}],"content":"","sig":"{}"}}"#,
                    HEX[id],
                    HEX[author],
                    tags.join(","),
                    "00".repeat(64)
                )
            })
    }

    #[derive(Debug, Clone)]
    enum Op {
        Insert(u8, Vec<String>),
        Remove(u8),
        Match(String),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            3 => (0u8..5, prop::collection::vec(filter_json(), 0..3)).prop_map(|(k, f)| Op::Insert(k, f)),
            1 => (0u8..5).prop_map(Op::Remove),
            3 => event_json().prop_map(Op::Match),
        ]
    }

    fn parse(json: &str) -> Filter<'static> {
        Filter::parse(json.as_bytes()).unwrap().into_owned()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// The registry answers as a scan over a list of (key, filters) in
        /// opening order, after any sequence of opens, reopens and closes.
        #[test]
        fn agrees_with_a_scan(ops in prop::collection::vec(op(), 1..40)) {
            let mut subs = Subscriptions::new();
            let mut model: Vec<(u8, Vec<Filter<'static>>)> = Vec::new();
            let mut hits = Vec::new();
            for op in ops {
                match op {
                    Op::Insert(key, filters) => {
                        let filters: Vec<Filter<'static>> = filters.iter().map(|f| parse(f)).collect();
                        model.retain(|(k, _)| *k != key);
                        model.push((key, filters.clone()));
                        subs.insert(key, filters);
                    }
                    Op::Remove(key) => {
                        let was = model.iter().any(|(k, _)| *k == key);
                        model.retain(|(k, _)| *k != key);
                        prop_assert_eq!(subs.remove(&key), was);
                    }
                    Op::Match(json) => {
                        let event = Event::parse(json.as_bytes()).unwrap();
                        subs.matches(&event, &mut hits);
                        let want: Vec<u8> = model
                            .iter()
                            .filter(|(_, fs)| fs.iter().any(|f| f.matches(&event)))
                            .map(|(k, _)| *k)
                            .collect();
                        prop_assert_eq!(&hits, &want, "event {}", json);
                    }
                }
                prop_assert_eq!(subs.len(), model.len());
                prop_assert_eq!(subs.is_empty(), model.is_empty());
                for key in 0..5u8 {
                    prop_assert_eq!(subs.contains(&key), model.iter().any(|(k, _)| *k == key));
                }
            }
        }
    }

    #[test]
    fn a_subscription_matching_by_many_filters_is_reported_once() {
        let mut subs = Subscriptions::new();
        subs.insert(
            1,
            [
                parse(r#"{"kinds":[1]}"#),
                parse("{}"),
                parse(r##"{"#t":["a"]}"##),
            ],
        );
        subs.insert(2, []);
        let event = format!(
            r#"{{"id":"{}","pubkey":"{}","created_at":1,"kind":1,"tags":[["t","a"],["t","a"]],"content":"","sig":"{}"}}"#,
            HEX[0],
            HEX[1],
            "00".repeat(64)
        );
        let mut hits = Vec::new();
        subs.matches(&Event::parse(event.as_bytes()).unwrap(), &mut hits);
        assert_eq!(hits, [1]);
        subs.matches(&Event::parse(event.as_bytes()).unwrap(), &mut hits);
        assert_eq!(hits, [1], "reported again by the next call");
        assert_eq!(subs.len(), 2);
    }
}
