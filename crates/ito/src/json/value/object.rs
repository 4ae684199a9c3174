//! [`Map`]: an object's members in document order, looked up by key.
//!
//! ```text
//! members:  (Text, Value) pairs of exactly the parsed size, in the
//!           document's arena or on the heap (`seq.rs`)
//! lookup:   up to LINEAR_MAX (12) members: compare lengths, then bytes, in order
//!           more: a hash index built on the first lookup and kept until
//!                 the members change (insert, remove): open addressing,
//!                 a power-of-two table of member positions, load <= 1/2
//! index:    null             none yet; built on the heap, the Map frees it
//!           arena's list + 1 none yet (a large object parsed into an
//!                            arena); built on the heap and handed to the
//!                            arena's list, which frees it with the arena
//!           an Index         built; its `in_arena` says who frees it
//! ```
//!
//! Why the arena's list: an arena container whose subtree owns nothing is
//! dropped without a walk (`seq.rs`). A large object may build its index
//! through `&self`, which no `&mut` access announces, so before the list
//! every large object (twitter's tweets and users) kept its document's
//! drop walk.
//!
//! Duplicate keys are resolved as serde_json (with `preserve_order`)
//! resolves them: one member, at the first key's position, with the last
//! value. The parser does that when it closes an object
//! ([`Map::from_parsed`]).
//!
//! Hostile keys: the lookup index hashes every byte with the per-process
//! random seed (`crate::hash`), so colliding keys cannot be precomputed.
//! The parser's duplicate check hashes only a key's length and ends (a
//! full hash per key cost 7.5 % of a parse); keys built to collide there
//! would make it quadratic, so once its probes pass a linear bound it
//! starts over with the seeded full hash. Before hashing, it compares the
//! keys with the remembered shapes of recent objects ([`DupCheck`]): a
//! document's objects mostly repeat the keys of one before them.

use std::fmt;
use std::sync::atomic::{AtomicPtr, Ordering};

use super::seq::Seq;
use super::{Arena, Text, Value};

/// Objects with at most this many members are searched in order; larger
/// ones through a hash index. Measured (bench/benches/value.rs, lookup
/// rows, Zen 5, noisy host): in order 7.3 ns per lookup at 10 and 12
/// members, 8.8 ns at 16; hashed 7.9 to 9.0 ns at 13 to 17 members: they
/// meet between 12 and 16.
pub(super) const LINEAR_MAX: usize = 12;

/// A JSON object: members in document (or insertion) order.
///
/// ```
/// let v = ito::json::Value::from_str(r#"{"b": 1, "a": 2}"#).unwrap();
/// let obj = v.as_object().unwrap();
/// assert_eq!(obj.keys().collect::<Vec<_>>(), ["b", "a"]);
/// assert_eq!(obj["a"], 2);
/// ```
pub struct Map<'a> {
    entries: Seq<'a, (Text<'a>, Value<'a>)>,
    /// The hash index (null until the first lookup in a large object).
    index: AtomicPtr<Index>,
}

/// Positions of members by hash of their key.
pub(super) struct Index {
    /// `slots.len() - 1`; a power of two minus one.
    mask: usize,
    /// 0: empty; else position + 1.
    slots: Box<[u32]>,
    /// In an arena's list (the arena frees it), not the `Map`'s to free.
    in_arena: bool,
    /// The next index of the arena's list.
    next: *mut Index,
}

/// The indexes that the large objects of an arena's documents built
/// (see the module docs): freed when the arena is dropped or reset.
/// Pushed to through `&self` from any thread that reads a document.
pub(super) struct Indexes(AtomicPtr<Index>);

impl Indexes {
    pub(super) const fn new() -> Self {
        Indexes(AtomicPtr::new(std::ptr::null_mut()))
    }

    /// Takes `index` (from `Box::into_raw`, not yet shared) into the list.
    ///
    /// # Safety
    ///
    /// `index` came from `Box::into_raw` and is in no list.
    unsafe fn push(&self, index: *mut Index) {
        let mut head = self.0.load(Ordering::Relaxed);
        loop {
            // SAFETY: `index` is not shared yet (the caller's promise, and
            // it is published only after this returns).
            unsafe { (*index).next = head };
            match self
                .0
                .compare_exchange_weak(head, index, Ordering::Release, Ordering::Relaxed)
            {
                Ok(_) => return,
                Err(h) => head = h,
            }
        }
    }

    /// Frees every index in the list (no document of the arena is alive:
    /// `&mut`).
    pub(super) fn clear(&mut self) {
        let mut p = std::mem::replace(self.0.get_mut(), std::ptr::null_mut());
        while !p.is_null() {
            // SAFETY: each list entry came from `Box::into_raw` (`push`'s
            // promise) and is in this list once; no `Map` reads it any
            // more, since they borrowed the arena.
            let index = unsafe { Box::from_raw(p) };
            p = index.next;
        }
    }
}

impl Drop for Indexes {
    fn drop(&mut self) {
        self.clear();
    }
}

/// Whether `p` is an arena's list + 1 rather than an `Index`.
#[inline(always)]
fn is_list(p: *mut Index) -> bool {
    p.cast::<u8>().addr() & 1 != 0
}

#[inline(always)]
fn hash(key: &[u8]) -> u64 {
    crate::hash::hash_bytes(key)
}

impl Index {
    fn build(entries: &[(Text<'_>, Value<'_>)]) -> Index {
        let size = (entries.len() * 2).next_power_of_two().max(8);
        let mut index = Index {
            mask: size - 1,
            slots: vec![0u32; size].into_boxed_slice(),
            in_arena: false,
            next: std::ptr::null_mut(),
        };
        for (i, (k, _)) in entries.iter().enumerate() {
            index.add(k, i);
        }
        index
    }

    /// Records that the member at `i` has the key `k` (a new key).
    fn add(&mut self, k: &str, i: usize) {
        let mut at = hash(k.as_bytes()) as usize & self.mask;
        while self.slots[at] != 0 {
            at = (at + 1) & self.mask;
        }
        self.slots[at] = i as u32 + 1;
    }

    #[inline]
    fn find(&self, entries: &[(Text<'_>, Value<'_>)], key: &str) -> Option<usize> {
        let mut at = hash(key.as_bytes()) as usize & self.mask;
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                return None;
            }
            let i = slot as usize - 1;
            if entries[i].0.as_str() == key {
                return Some(i);
            }
            at = (at + 1) & self.mask;
        }
    }
}

impl<'a> Map<'a> {
    /// An empty object.
    ///
    /// ```
    /// assert!(ito::json::Map::new().is_empty());
    /// ```
    pub fn new() -> Map<'a> {
        Map::from_seq(Seq::new())
    }

    #[inline(always)]
    fn from_vec(entries: Vec<(Text<'a>, Value<'a>)>) -> Map<'a> {
        Map::from_seq(Seq::from_vec(entries))
    }

    #[inline(always)]
    fn from_seq(entries: Seq<'a, (Text<'a>, Value<'a>)>) -> Map<'a> {
        Map {
            entries,
            index: AtomicPtr::new(std::ptr::null_mut()),
        }
    }

    /// The members of a parsed object, duplicates resolved as serde_json
    /// resolves them (first position, last value). `seen` is scratch.
    #[inline(always)]
    pub(super) fn from_parsed(
        entries: Seq<'a, (Text<'a>, Value<'a>)>,
        seen: &mut Vec<u32>,
    ) -> Map<'a> {
        Map::resolved(entries, |more| has_duplicates(more, seen), None)
    }

    /// As [`Map::from_parsed`], with the parser's scratch (which
    /// remembers the shapes of recent objects); a large object parsed into
    /// `arena` hands the index it may build to the arena (see the module
    /// docs).
    #[inline(always)]
    pub(super) fn from_parsed_in(
        entries: Seq<'a, (Text<'a>, Value<'a>)>,
        check: &mut DupCheck,
        arena: Option<&'a Arena>,
    ) -> Map<'a> {
        Map::resolved(entries, |more| check.has_duplicates(more), arena)
    }

    /// The `Map` of `entries`, checked for duplicates by `check` when they
    /// are more than two. Inlined, so the parser stores the `Map` straight
    /// into its slot (returned through memory, it was read back in wider
    /// loads than it was written: a store-forwarding stall).
    #[inline(always)]
    fn resolved(
        mut entries: Seq<'a, (Text<'a>, Value<'a>)>,
        check: impl FnOnce(&[(Text<'a>, Value<'a>)]) -> bool,
        arena: Option<&'a Arena>,
    ) -> Map<'a> {
        // No call for objects of one or two members (twitter: 1 in 4 has
        // one, 1 in 6 two; citm: 7 in 8 have two).
        let dup = match entries.as_slice() {
            [] | [_] => false,
            [(a, _), (b, _)] => a.as_str() == b.as_str(),
            more => check(more),
        };
        if dup {
            entries = Seq::from_vec(dedup(entries.take_vec()));
        }
        let mut map = Map::from_seq(entries);
        if let Some(arena) = arena {
            if map.len() > LINEAR_MAX {
                // Tagged (+ 1 byte: `Index`es are aligned) so that it is
                // never taken for an `Index`; the provenance is kept.
                let list: *const Indexes = arena.indexes();
                *map.index.get_mut() = list.cast::<u8>().wrapping_add(1).cast_mut().cast();
            }
        }
        map
    }

    /// Whether the members are in a heap allocation of their own.
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    #[inline(always)]
    pub(super) fn owns_storage(&self) -> bool {
        self.entries.is_heap()
    }

    /// The number of members.
    ///
    /// ```
    /// assert_eq!(ito::json!({"a": 1}).as_object().unwrap().len(), 1);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no members.
    ///
    /// ```
    /// assert!(ito::json!({}).as_object().unwrap().is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.entries.len() == 0
    }

    /// The position of `key`'s member.
    #[inline]
    fn position(&self, key: &str) -> Option<usize> {
        if self.entries.len() <= LINEAR_MAX {
            return self
                .entries
                .as_slice()
                .iter()
                .position(|(k, _)| k.as_str() == key);
        }
        self.index().find(self.entries.as_slice(), key)
    }

    /// The hash index, built on first use.
    fn index(&self) -> &Index {
        let p = self.index.load(Ordering::Acquire);
        if !p.is_null() && !is_list(p) {
            // SAFETY: an untagged non-null pointer in `index` came from
            // `Box::into_raw` below, and is freed only through `&mut self`
            // (reset, drop) or by the arena's list when the arena, which
            // `'a` borrows, is dropped or reset: neither overlaps `&self`.
            return unsafe { &*p };
        }
        let mut fresh = Box::new(Index::build(self.entries.as_slice()));
        fresh.in_arena = !p.is_null();
        let fresh = Box::into_raw(fresh);
        if !p.is_null() {
            let list = p.cast::<u8>().wrapping_sub(1).cast::<Indexes>();
            // SAFETY: a tagged pointer is an arena's list + 1
            // (`from_parsed_in`), and the arena outlives `'a`; `fresh` is
            // from `Box::into_raw` and not shared yet. From now on the
            // list owns it, whichever thread's index is kept below.
            unsafe { (*list).push(fresh) };
        }
        match self
            .index
            .compare_exchange(p, fresh, Ordering::AcqRel, Ordering::Acquire)
        {
            // SAFETY: `fresh` is now owned by `index` (or the arena's
            // list), as above.
            Ok(_) => unsafe { &*fresh },
            Err(theirs) => {
                if p.is_null() {
                    // SAFETY: `fresh` was never shared; another thread's
                    // index (equal to ours) won the race and is kept.
                    drop(unsafe { Box::from_raw(fresh) });
                }
                // SAFETY: only an `Index` replaces `p` through `&self`,
                // so `theirs` is one, as for the first load.
                unsafe { &*theirs }
            }
        }
    }

    /// Drops the index: the members are about to change.
    #[inline]
    fn reset(&mut self) {
        let p = std::mem::replace(self.index.get_mut(), std::ptr::null_mut());
        // SAFETY: an untagged non-null pointer is an `Index` (see `index`).
        if !p.is_null() && !is_list(p) && !unsafe { (*p).in_arena } {
            // SAFETY: from `Box::into_raw` in `index`, not in an arena's
            // list, and no longer reachable from `self`.
            drop(unsafe { Box::from_raw(p) });
        }
    }

    /// The value of `key`'s member.
    ///
    /// ```
    /// let v = ito::json!({"a": 1});
    /// assert_eq!(v.as_object().unwrap().get("a"), Some(&ito::json!(1)));
    /// assert_eq!(v.as_object().unwrap().get("b"), None);
    /// ```
    #[inline]
    pub fn get(&self, key: &str) -> Option<&Value<'a>> {
        self.position(key).map(|i| &self.entries.as_slice()[i].1)
    }

    /// The value of `key`'s member, to change in place.
    ///
    /// ```
    /// let mut v = ito::json!({"a": 1});
    /// *v.as_object_mut().unwrap().get_mut("a").unwrap() = ito::json!(2);
    /// assert_eq!(v["a"], 2);
    /// ```
    #[inline]
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value<'a>> {
        // The keys do not change: the index stays valid.
        self.position(key)
            .map(move |i| &mut self.entries.as_mut_slice()[i].1)
    }

    /// Whether a member has the key `key`.
    ///
    /// ```
    /// assert!(ito::json!({"a": null}).as_object().unwrap().contains_key("a"));
    /// ```
    #[inline]
    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// Sets `key`'s value: in place when the key is there (returning the
    /// old value), else appended at the end.
    ///
    /// ```
    /// let mut obj = ito::json::Map::new();
    /// assert_eq!(obj.insert("a", 1.into()), None);
    /// assert_eq!(obj.insert("a", 2.into()), Some(1.into()));
    /// assert_eq!(obj.len(), 1);
    /// ```
    pub fn insert(&mut self, key: impl Into<Text<'a>>, value: Value<'a>) -> Option<Value<'a>> {
        let key = key.into();
        if let Some(i) = self.position(&key) {
            return Some(std::mem::replace(
                &mut self.entries.as_mut_slice()[i].1,
                value,
            ));
        }
        self.entries.with_vec(|v| v.push((key, value)));
        let n = self.entries.len();
        let p = *self.index.get_mut();
        if !p.is_null() && !is_list(p) {
            // SAFETY: from `Box::into_raw` in `index`; `&mut self` excludes
            // every other borrow of it.
            let index = unsafe { &mut *p };
            if n * 2 <= index.slots.len() {
                index.add(&self.entries.as_slice()[n - 1].0, n - 1);
            } else {
                self.reset();
            }
        }
        None
    }

    /// Removes `key`'s member, keeping the others in order (as
    /// serde_json's `preserve_order` `remove` does), and returns its value.
    ///
    /// ```
    /// let mut v = ito::json!({"a": 1, "b": 2, "c": 3});
    /// let obj = v.as_object_mut().unwrap();
    /// assert_eq!(obj.remove("b"), Some(2.into()));
    /// assert_eq!(obj.keys().collect::<Vec<_>>(), ["a", "c"]);
    /// ```
    pub fn remove(&mut self, key: &str) -> Option<Value<'a>> {
        let i = self.position(key)?;
        self.reset();
        Some(self.entries.with_vec(|v| v.remove(i)).1)
    }

    /// The members, in order.
    ///
    /// ```
    /// let v = ito::json!({"a": 1, "b": 2});
    /// let pairs: Vec<_> = v.as_object().unwrap().iter().map(|(k, v)| (k, v.as_u64().unwrap())).collect();
    /// assert_eq!(pairs, [("a", 1), ("b", 2)]);
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &Value<'a>)> + '_ {
        self.entries.as_slice().iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The members, in order, with values to change in place.
    ///
    /// ```
    /// let mut v = ito::json!({"a": 1});
    /// for (_, x) in v.as_object_mut().unwrap().iter_mut() { *x = ito::json!(0); }
    /// assert_eq!(v["a"], 0);
    /// ```
    pub fn iter_mut(&mut self) -> impl ExactSizeIterator<Item = (&str, &mut Value<'a>)> + '_ {
        self.entries
            .as_mut_slice()
            .iter_mut()
            .map(|(k, v)| (k.as_str(), v))
    }

    /// The keys, in order.
    ///
    /// ```
    /// assert_eq!(ito::json!({"x": 1}).as_object().unwrap().keys().next(), Some("x"));
    /// ```
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.entries.as_slice().iter().map(|(k, _)| k.as_str())
    }

    /// The values, in order.
    ///
    /// ```
    /// assert_eq!(ito::json!({"x": 1}).as_object().unwrap().values().next(), Some(&ito::json!(1)));
    /// ```
    pub fn values(&self) -> impl ExactSizeIterator<Item = &Value<'a>> + '_ {
        self.entries.as_slice().iter().map(|(_, v)| v)
    }

    /// The members as key and value pairs, keys as [`Text`].
    ///
    /// ```
    /// let v = ito::json!({"x": 1});
    /// assert!(v.as_object().unwrap().entries()[0].0.is_borrowed());
    /// ```
    pub fn entries(&self) -> &[(Text<'a>, Value<'a>)] {
        self.entries.as_slice()
    }

    /// The same object, owning all its strings.
    ///
    /// ```
    /// let text = String::from(r#"{"a": "b"}"#);
    /// let obj = ito::json::Value::from_str(&text).unwrap().as_object().unwrap().clone().into_owned();
    /// drop(text);
    /// assert_eq!(obj["a"], "b");
    /// ```
    pub fn into_owned(mut self) -> Map<'static> {
        let entries = self.entries.take_vec();
        Map::from_vec(
            entries
                .into_iter()
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect(),
        )
    }
}

/// The parser's scratch for the duplicate-key check. Documents repeat
/// object shapes (twitter: each tweet and each user has the keys of the
/// one before, in the same order), so it remembers the shapes of recent
/// objects, two per member count. A shape is each key's print (see
/// [`print`]: a key's length and up to 16 of its bytes, distinct for
/// distinct keys of up to 16 bytes), kept only when its prints are
/// pairwise distinct. Keys with distinct prints are distinct keys, so an
/// object whose prints equal a shape's, member by member, has no
/// duplicates: told with no hashing, no stores and no full key compares.
pub(super) struct DupCheck {
    /// The table of [`probe_for_duplicates`] and of [`Shape::fill`].
    seen: Vec<u32>,
    /// `shapes[n - SHAPE_MIN]`: the two latest shapes of `n` members, the
    /// latest hit or filled first.
    shapes: Vec<[Shape; 2]>,
    /// Bit `n - SHAPE_MIN`: an object of `n` members was met. Shapes are
    /// taken from the second one on, so that a document that does not
    /// repeat sizes allocates none.
    met: u64,
}

/// Objects of this many members (no fewer, no more) use the shapes (the
/// memory they take stays under 2 * 24 bytes * SHAPE_MAX per count).
const SHAPE_MIN: usize = 3;
const SHAPE_MAX: usize = 64;
// Each count has its bit in `DupCheck::met`.
const _: () = assert!(SHAPE_MAX - SHAPE_MIN < 64);

/// The prints of an object's keys, in order, pairwise distinct (or none:
/// never filled, or not distinct). Its own copy: it stays valid whatever
/// happens to the keys it was made of.
#[derive(Default)]
struct Shape {
    prints: Vec<[u64; 3]>,
}

impl DupCheck {
    pub(super) const fn new() -> Self {
        DupCheck {
            seen: Vec::new(),
            shapes: Vec::new(),
            met: 0,
        }
    }

    /// [`has_duplicates`], first through the remembered shapes.
    #[inline(never)]
    fn has_duplicates(&mut self, entries: &[(Text<'_>, Value<'_>)]) -> bool {
        let n = entries.len();
        if !(SHAPE_MIN..=SHAPE_MAX).contains(&n) {
            return has_duplicates(entries, &mut self.seen);
        }
        let set = n - SHAPE_MIN;
        if self.met & 1 << set == 0 {
            self.met |= 1 << set;
            return has_duplicates(entries, &mut self.seen);
        }
        if set >= self.shapes.len() {
            self.shapes.resize_with(set + 1, Default::default);
        }
        let ways = &mut self.shapes[set];
        if ways[0].matches(entries) {
            return false;
        }
        if ways[1].matches(entries) {
            ways.swap(0, 1);
            return false;
        }
        // The older shape gives way.
        ways.swap(0, 1);
        !ways[0].fill(entries, &mut self.seen) && has_duplicates(entries, &mut self.seen)
    }
}

impl Shape {
    /// Whether the keys of `entries` have these prints, in this order (an
    /// empty shape matches no object that uses shapes).
    #[inline(always)]
    fn matches(&self, entries: &[(Text<'_>, Value<'_>)]) -> bool {
        if self.prints.len() != entries.len() {
            return false;
        }
        // No early exit: shapes repeat, so this is mostly a hit, and one
        // branch per object is cheaper than one per key.
        let mut diff = 0;
        for ((k, _), p) in entries.iter().zip(&self.prints) {
            let [n, a, b] = print(k.as_str().as_bytes());
            diff |= (n ^ p[0]) | (a ^ p[1]) | (b ^ p[2]);
        }
        diff == 0
    }

    /// Takes the prints of `entries`' keys; whether they are pairwise
    /// distinct (so the keys are). If not, or if telling ran past its
    /// bound, the shape is left empty.
    #[cold]
    fn fill(&mut self, entries: &[(Text<'_>, Value<'_>)], seen: &mut Vec<u32>) -> bool {
        self.prints.clear();
        self.prints
            .extend(entries.iter().map(|(k, _)| print(k.as_str().as_bytes())));
        let distinct = probe(
            &self.prints,
            seen,
            |[n, a, b]| mix(*n, *a, *b),
            |p, q| p == q,
        ) == Some(false);
        if !distinct {
            self.prints.clear();
        }
        distinct
    }
}

/// A key's print: its length and the bytes that [`quick_hash`] reads, as
/// words. Keys of up to 16 bytes have all their bytes in it, so distinct
/// keys have distinct prints; longer ones may share one.
#[inline(always)]
fn print(k: &[u8]) -> [u64; 3] {
    let n = k.len();
    let word = |at: usize| u64::from_le_bytes(k[at..at + 8].try_into().expect("8 bytes"));
    let half = |at: usize| {
        u64::from(u32::from_le_bytes(
            k[at..at + 4].try_into().expect("4 bytes"),
        ))
    };
    let (a, b) = if n >= 8 {
        (word(0), word(n - 8))
    } else if n >= 4 {
        (half(0) | half(n - 4) << 32, 0)
    } else if n > 0 {
        // Up to 3 bytes: the first, middle and last are all of them.
        (
            u64::from(k[0]) | u64::from(k[n / 2]) << 8 | u64::from(k[n - 1]) << 16,
            0,
        )
    } else {
        (0, 0)
    };
    [n as u64, a, b]
}

/// Whether two members share a key: pairwise for small objects, through
/// the scratch table `seen` for larger ones.
#[inline(never)]
fn has_duplicates(entries: &[(Text<'_>, Value<'_>)], seen: &mut Vec<u32>) -> bool {
    let n = entries.len();
    if n <= 8 {
        for i in 1..n {
            let k = entries[i].0.as_str();
            if entries[..i].iter().any(|(p, _)| p.as_str() == k) {
                return true;
            }
        }
        return false;
    }
    match probe_for_duplicates(entries, seen, quick_hash) {
        Some(found) => found,
        // Probing ran long: keys that collide on the quick hash.
        None => probe_for_duplicates(entries, seen, crate::hash::hash_bytes)
            .unwrap_or_else(|| slow_has_duplicates(entries)),
    }
}

/// The probes [`probe_for_duplicates`] may take per member before it gives
/// up (random keys average under 2 at load 1/2).
const PROBES_PER_MEMBER: usize = 8;

/// [`has_duplicates`] through the scratch table with `hash`; `None` when
/// the probes pass `PROBES_PER_MEMBER` per member (so at most that many
/// key comparisons per member, whatever the keys).
#[inline(always)]
fn probe_for_duplicates(
    entries: &[(Text<'_>, Value<'_>)],
    seen: &mut Vec<u32>,
    hash: fn(&[u8]) -> u64,
) -> Option<bool> {
    probe(
        entries,
        seen,
        |(k, _)| hash(k.as_bytes()),
        |(p, _), (q, _)| p.as_str() == q.as_str(),
    )
}

/// Whether two of `items` are `same`, through the scratch table `seen`
/// with `hash`; `None` when the probes pass `PROBES_PER_MEMBER` per item.
#[inline(always)]
fn probe<T>(
    items: &[T],
    seen: &mut Vec<u32>,
    hash: impl Fn(&T) -> u64,
    same: impl Fn(&T, &T) -> bool,
) -> Option<bool> {
    let n = items.len();
    let size = (n * 2).next_power_of_two();
    let mask = size - 1;
    let shift = 64 - size.trailing_zeros();
    seen.clear();
    seen.resize(size, 0);
    let mut budget = PROBES_PER_MEMBER * n;
    for (i, item) in items.iter().enumerate() {
        let mut at = (hash(item) >> shift) as usize;
        loop {
            match seen[at] {
                0 => break,
                s if same(&items[s as usize - 1], item) => return Some(true),
                _ => at = (at + 1) & mask,
            }
            budget = budget.checked_sub(1)?;
        }
        seen[at] = i as u32 + 1;
    }
    Some(false)
}

/// [`has_duplicates`] with std's randomly keyed `HashSet` (keys that
/// collide under the seeded hash too: not expected, but bounded).
#[cold]
fn slow_has_duplicates(entries: &[(Text<'_>, Value<'_>)]) -> bool {
    let mut keys = std::collections::HashSet::with_capacity(entries.len());
    !entries.iter().all(|(k, _)| keys.insert(k.as_str()))
}

/// The duplicate check's hash: the length and up to 16 bytes from both
/// ends (the key's [`print`]), multiplied (its top bits pick the slot).
/// Keys are short and a collision costs one comparison; XXH3 here (a call
/// per key) took 7.5 % of a twitter parse.
#[inline(always)]
fn quick_hash(k: &[u8]) -> u64 {
    let [n, a, b] = print(k);
    mix(n, a, b)
}

/// A print's hash (see [`quick_hash`]).
#[inline(always)]
fn mix(n: u64, a: u64, b: u64) -> u64 {
    (a ^ b.rotate_left(29) ^ n.wrapping_mul(0x9E37_79B9)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Resolves duplicate keys: the first position, the last value (rare).
#[cold]
fn dedup<'a>(entries: Vec<(Text<'a>, Value<'a>)>) -> Vec<(Text<'a>, Value<'a>)> {
    let mut out: Vec<(Text<'a>, Value<'a>)> = Vec::with_capacity(entries.len());
    let mut at = std::collections::HashMap::<String, usize>::new();
    for (k, v) in entries {
        match at.get(k.as_str()) {
            Some(&i) => out[i].1 = v,
            None => {
                at.insert(k.as_str().to_owned(), out.len());
                out.push((k, v));
            }
        }
    }
    out.shrink_to_fit();
    out
}

impl Drop for Map<'_> {
    fn drop(&mut self) {
        self.reset();
    }
}

impl Default for Map<'_> {
    fn default() -> Self {
        Map::new()
    }
}

impl Clone for Map<'_> {
    fn clone(&self) -> Self {
        Map::from_seq(self.entries.clone())
    }
}

impl PartialEq for Map<'_> {
    /// Equal members, in any order (as serde_json's maps compare).
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl fmt::Debug for Map<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<'a, K: Into<Text<'a>>> FromIterator<(K, Value<'a>)> for Map<'a> {
    /// Members in iteration order; a repeated key keeps its first position
    /// and takes the last value.
    fn from_iter<I: IntoIterator<Item = (K, Value<'a>)>>(iter: I) -> Self {
        let entries = iter.into_iter().map(|(k, v)| (k.into(), v)).collect();
        Map::from_parsed(Seq::from_vec(entries), &mut Vec::new())
    }
}

impl<'a> IntoIterator for Map<'a> {
    type Item = (Text<'a>, Value<'a>);
    type IntoIter = std::vec::IntoIter<(Text<'a>, Value<'a>)>;
    /// The members, in order.
    fn into_iter(mut self) -> Self::IntoIter {
        self.entries.take_vec().into_iter()
    }
}

impl<'a> std::ops::Index<&str> for Map<'a> {
    type Output = Value<'a>;
    /// `key`'s value, or null when there is none (as `Value`'s index).
    fn index(&self, key: &str) -> &Value<'a> {
        self.get(key).unwrap_or(super::NULL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distinct keys that all share the quick hash: one length, the same
    /// first and last 8 bytes.
    fn colliding_keys(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("aaaaaaaa{i:08}zzzzzzzz")).collect()
    }

    fn members(keys: &[String]) -> Vec<(Text<'_>, Value<'_>)> {
        keys.iter()
            .map(|k| (Text::from(k.as_str()), Value::Null))
            .collect()
    }

    #[test]
    fn quick_hash_collisions_are_bounded_and_still_answered() {
        let keys = colliding_keys(2_000);
        let hash0 = quick_hash(keys[0].as_bytes());
        assert!(keys.iter().all(|k| quick_hash(k.as_bytes()) == hash0));
        let entries = members(&keys);
        let mut seen = Vec::new();
        // The quick hash gives up within its budget...
        assert_eq!(probe_for_duplicates(&entries, &mut seen, quick_hash), None);
        // ...and the check still answers, both ways.
        assert!(!has_duplicates(&entries, &mut seen));
        let mut dup = keys.clone();
        dup.push(keys[1_234].clone());
        assert!(has_duplicates(&members(&dup), &mut seen));
    }

    #[test]
    fn random_keys_stay_on_the_quick_hash() {
        let keys: Vec<String> = (0..5_000).map(|i| format!("key{i}")).collect();
        let mut seen = Vec::new();
        assert_eq!(
            probe_for_duplicates(&members(&keys), &mut seen, quick_hash),
            Some(false)
        );
    }

    /// Keys of assorted lengths: short, 4 to 7, 8 to 16, and long ones.
    fn shape_keys(n: usize) -> Vec<String> {
        (0..n)
            .map(|i| match i % 4 {
                0 => format!("{i}"),
                1 => format!("k{i:04}"),
                2 => format!("key_{i:08}"),
                _ => format!("profile_image_url_{i:06}"),
            })
            .collect()
    }

    #[test]
    fn shapes_answer_as_the_table_does() {
        for n in [SHAPE_MIN, 9, 25, 40, SHAPE_MAX] {
            let keys = shape_keys(n);
            let mut check = DupCheck::new();
            for _ in 0..3 {
                assert!(!check.has_duplicates(&members(&keys)), "{n}");
            }
            // The first object of a size takes no shape; the second does.
            assert_eq!(check.shapes[n - SHAPE_MIN][0].prints.len(), n);
            assert!(check.shapes[n - SHAPE_MIN][0].matches(&members(&keys)));
            for at in [0, 1, 2, 3, n / 2, n - 1].into_iter().filter(|&at| at < n) {
                // One key made a copy of another: a duplicate.
                let mut with = keys.clone();
                with[at] = keys[(at + 1) % n].clone();
                assert!(check.has_duplicates(&members(&with)), "{n} {at}");
                // One key changed in its last byte, or in its length: none.
                let mut last = keys.clone();
                last[at].push('x');
                assert!(!check.has_duplicates(&members(&last)), "{n} {at}");
                let mut byte = keys.clone();
                let end = byte[at].pop().unwrap();
                byte[at].push(if end == '~' { '!' } else { '~' });
                assert!(!check.has_duplicates(&members(&byte)), "{n} {at}");
                assert!(!check.has_duplicates(&members(&keys)), "{n} {at}");
                assert!(check.has_duplicates(&members(&with)), "{n} {at}");
            }
        }
    }

    #[test]
    fn shapes_never_take_keys_with_one_print() {
        // Distinct keys, all of one print: kept as no shape, answered by
        // the table (and so never matched by other keys of that print).
        let keys = colliding_keys(20);
        let mut check = DupCheck::new();
        for _ in 0..3 {
            assert!(!check.has_duplicates(&members(&keys)));
        }
        assert!(check.shapes[20 - SHAPE_MIN]
            .iter()
            .all(|s| s.prints.is_empty()));
        let mut dup = keys.clone();
        dup[19] = keys[3].clone();
        assert!(check.has_duplicates(&members(&dup)));
        // Two shapes of one size, then a third: the oldest gives way.
        let mut check = DupCheck::new();
        let [a, b, c] =
            [0, 1, 2].map(|t| -> Vec<String> { (0..12).map(|i| format!("s{t}k{i}")).collect() });
        for keys in [&a, &a, &b, &a, &b, &c] {
            assert!(!check.has_duplicates(&members(keys)));
        }
        let set = &check.shapes[12 - SHAPE_MIN];
        assert!(set[0].matches(&members(&c)) && set[1].matches(&members(&b)));
        // Objects of sizes met once take no shapes (and no memory).
        let mut check = DupCheck::new();
        for n in SHAPE_MIN..=SHAPE_MAX + 1 {
            assert!(!check.has_duplicates(&members(&shape_keys(n))));
        }
        assert!(check.shapes.is_empty());
    }

    #[test]
    fn shapes_are_not_taken_when_telling_runs_past_its_bound() {
        // 62 short keys (distinct prints) crowding one slot of the 128-slot
        // table, so the probes run out before the last two keys, which
        // share a print: long keys differing only in the middle. No shape
        // may be kept, or the object with a real duplicate below would
        // match it and pass as duplicate-free.
        let n = SHAPE_MAX;
        let slot = |k: &str| {
            let [a, b, c] = print(k.as_bytes());
            mix(a, b, c) >> (64 - (2 * n).trailing_zeros())
        };
        let target = slot("k0");
        let mut keys: Vec<String> = (0..)
            .map(|i| format!("k{i}"))
            .filter(|k| slot(k) == target)
            .take(n - 2)
            .collect();
        let head = (0..)
            .map(|i| format!("{i:08}"))
            .find(|h| slot(&format!("{h}-middle-zzzzzzzz")) == target)
            .unwrap();
        let long = |m: &str| format!("{head}-{m}-zzzzzzzz");
        let (a, b) = (long("middla"), long("middlb"));
        assert_eq!(print(a.as_bytes()), print(b.as_bytes()));
        keys.push(a.clone());
        keys.push(b);
        assert_eq!(
            probe_for_duplicates(&members(&keys), &mut Vec::new(), quick_hash),
            None
        );
        let mut check = DupCheck::new();
        for _ in 0..3 {
            assert!(!check.has_duplicates(&members(&keys)));
        }
        assert!(check.shapes[n - SHAPE_MIN]
            .iter()
            .all(|s| s.prints.is_empty()));
        let mut dup = keys.clone();
        dup[n - 1] = a;
        assert!(check.has_duplicates(&members(&dup)));
    }

    #[cfg(feature = "serde")] // the parser's feature
    #[test]
    fn hostile_object_parses_as_serde_json_does() {
        let keys = colliding_keys(3_000);
        let mut doc = String::from("{");
        for (i, k) in keys.iter().enumerate() {
            doc.push_str(&format!("\"{k}\":{i},"));
        }
        // One duplicate: the first position, the last value.
        doc.push_str(&format!("\"{}\":-1}}", keys[7]));
        let v = Value::from_str(&doc).unwrap();
        let obj = v.as_object().unwrap();
        assert_eq!(obj.len(), keys.len());
        assert_eq!(obj.keys().nth(7), Some(keys[7].as_str()));
        assert_eq!(obj[keys[7].as_str()], -1);
        assert_eq!(obj[keys[2_999].as_str()], 2_999);
    }
}
