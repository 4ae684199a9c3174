//! The thread-safe symbol table: [`Interner`], its [`Builder`] and
//! [`Diagnostics`].

use std::fmt;

use super::frozen::Frozen;
use super::shard::{MissHint, Shard};
use super::{InternError, Sym};

/// Default number of shards (writers to different shards never contend).
const DEFAULT_SHARDS: usize = 16;

/// A thread-safe string interner: each distinct string gets one [`Sym`].
///
/// All methods take `&self`; share it between threads with `Arc` or a
/// scoped borrow. Lookups ([`get`](Self::get), the hit path of
/// [`intern`](Self::intern)) and [`resolve`](Self::resolve) take no lock;
/// inserting a new string locks one of the shards (chosen by hash bits).
///
/// ```
/// use ito::{Interner, Sym};
///
/// let interner = Interner::new();
/// let a: Sym = interner.intern("alpha");
/// assert_eq!(interner.intern("alpha"), a);
/// assert_eq!(interner.resolve(a), "alpha");
/// assert_eq!(interner.get("beta"), None); // `get` never inserts
/// assert_eq!(interner.len(), 1);
/// ```
pub struct Interner {
    shards: Box<[Shard]>,
    shard_bits: u32,
    seed: u64,
    max_bytes: Option<usize>,
}

/// Configures an [`Interner`]: shard count, initial capacity, byte cap and
/// (for tests) the hash seed.
///
/// ```
/// let interner = ito::intern::Builder::new()
///     .capacity(1000)
///     .shards(4)
///     .max_bytes(1 << 20)
///     .build();
/// assert!(interner.try_intern("x").is_ok());
/// ```
#[derive(Clone, Debug)]
pub struct Builder {
    shards: usize,
    capacity: usize,
    max_bytes: Option<usize>,
    seed: Option<u64>,
}

impl Default for Builder {
    fn default() -> Self {
        Self::new()
    }
}

impl Builder {
    /// Defaults: 16 shards, no reserved capacity, no byte cap, the
    /// per-process random seed.
    ///
    /// ```
    /// let interner = ito::intern::Builder::new().build();
    /// assert!(interner.is_empty());
    /// ```
    pub fn new() -> Self {
        Builder {
            shards: DEFAULT_SHARDS,
            capacity: 0,
            max_bytes: None,
            seed: None,
        }
    }

    /// Number of shards, rounded up to a power of two and clamped to
    /// `1..=256`. One shard makes symbols dense (`1, 2, 3, …` in insertion
    /// order); more shards let concurrent inserts proceed in parallel.
    ///
    /// ```
    /// let one = ito::intern::Builder::new().shards(1).build();
    /// assert_eq!(one.intern("a").to_u32(), 1);
    /// assert_eq!(one.intern("b").to_u32(), 2);
    /// ```
    pub fn shards(mut self, shards: usize) -> Self {
        self.shards = shards.clamp(1, 256).next_power_of_two();
        self
    }

    /// Pre-size the tables for about `capacity` strings.
    ///
    /// ```
    /// let interner = ito::intern::Builder::new().capacity(10_000).build();
    /// assert!(interner.memory_usage() > 10_000);
    /// ```
    pub fn capacity(mut self, capacity: usize) -> Self {
        self.capacity = capacity;
        self
    }

    /// Cap the interner's memory at about `max_bytes`:
    /// [`Interner::try_intern`] fails once a new string would not fit. The
    /// check runs before each insert against [`Interner::memory_usage`];
    /// concurrent inserts into different shards may overshoot it by one
    /// string each.
    ///
    /// ```
    /// let interner = ito::intern::Builder::new().max_bytes(64 * 1024).build();
    /// let big = "x".repeat(100_000);
    /// assert!(interner.try_intern(&big).is_err());
    /// assert!(interner.try_intern("small").is_ok());
    /// ```
    pub fn max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = Some(max_bytes);
        self
    }

    /// Use a fixed hash seed instead of the per-process random one.
    ///
    /// Only for tests and reproducible experiments: with a known seed an
    /// attacker can build colliding keys. (The interner still bounds the
    /// damage — an overlong chain switches that shard to keyed SipHash —
    /// but it costs a rehash of the shard.)
    ///
    /// ```
    /// let a = ito::intern::Builder::new().seed(7).shards(1).build();
    /// let b = ito::intern::Builder::new().seed(7).shards(1).build();
    /// assert_eq!(a.intern("k"), b.intern("k"));
    /// ```
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }

    /// Build the interner.
    ///
    /// ```
    /// let interner = ito::intern::Builder::new().build();
    /// assert_eq!(interner.len(), 0);
    /// ```
    pub fn build(self) -> Interner {
        let per_shard = self.capacity.div_ceil(self.shards);
        Interner {
            shards: (0..self.shards).map(|_| Shard::new(per_shard)).collect(),
            shard_bits: self.shards.trailing_zeros(),
            seed: self.seed.unwrap_or_else(crate::hash::seed),
            max_bytes: self.max_bytes,
        }
    }
}

/// Table statistics of an [`Interner`], from [`Interner::diagnostics`].
///
/// ```
/// let interner = ito::Interner::new();
/// for i in 0..1000 {
///     interner.intern(&format!("k{i}"));
/// }
/// let d = interner.diagnostics();
/// assert!(d.longest_chain <= ito::intern::MAX_CHAIN);
/// assert_eq!(d.sip_shards, 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Diagnostics {
    /// Most entries in any one bucket chain.
    pub longest_chain: usize,
    /// Shards that switched to SipHash because a chain grew too long.
    pub sip_shards: usize,
    /// Primary buckets (7 slots, 64 bytes each).
    pub buckets: usize,
    /// Overflow buckets in use.
    pub overflow_buckets: usize,
    /// Entries compared while inserting (a measure of probe work).
    pub probes: u64,
    /// Bucket splits performed (each moves one chain).
    pub splits: u64,
}

impl Default for Interner {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for Interner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Interner")
            .field("len", &self.len())
            .field("shards", &self.shards.len())
            .field("memory_usage", &self.memory_usage())
            .finish()
    }
}

impl Interner {
    /// An empty interner with default settings.
    ///
    /// ```
    /// let interner = ito::Interner::new();
    /// assert!(interner.is_empty());
    /// ```
    pub fn new() -> Self {
        Builder::new().build()
    }

    /// An empty interner pre-sized for about `capacity` strings.
    ///
    /// ```
    /// let interner = ito::Interner::with_capacity(6000);
    /// assert!(interner.is_empty());
    /// ```
    pub fn with_capacity(capacity: usize) -> Self {
        Builder::new().capacity(capacity).build()
    }

    /// A [`Builder`] for non-default settings.
    ///
    /// ```
    /// let interner = ito::Interner::builder().shards(2).build();
    /// interner.intern("x");
    /// ```
    pub fn builder() -> Builder {
        Builder::new()
    }

    #[inline]
    fn hash(&self, bytes: &[u8]) -> u64 {
        crate::hash::hash_bytes_with_seed(bytes, self.seed)
    }

    #[inline]
    fn shard_index(&self, hash: u64) -> usize {
        (hash >> 48) as usize & (self.shards.len() - 1)
    }

    #[inline]
    fn sym(&self, shard: usize, local1: u32) -> Sym {
        Sym::from_raw((local1 << self.shard_bits) | shard as u32)
    }

    /// Largest `local + 1` a shard may hand out.
    #[inline]
    fn max_local1(&self) -> u32 {
        u32::MAX >> self.shard_bits
    }

    /// The symbol of `s`, interning it first if it is new.
    ///
    /// # Panics
    /// If a byte cap is set and `s` does not fit, or after about 4 billion
    /// distinct strings; use [`try_intern`](Self::try_intern) to get an
    /// error instead.
    ///
    /// ```
    /// let interner = ito::Interner::new();
    /// let a = interner.intern("a");
    /// assert_eq!(interner.intern("a"), a);
    /// assert_ne!(interner.intern("b"), a);
    /// ```
    #[inline]
    pub fn intern(&self, s: &str) -> Sym {
        let hash = self.hash(s.as_bytes());
        let index = self.shard_index(hash);
        match self.shards[index].find_hit(hash, s.as_bytes()) {
            Ok(local1) => self.sym(index, local1),
            Err(hint) => self.intern_cold(hash, s, hint),
        }
    }

    /// The rest of [`intern`](Self::intern) after the optimistic probe
    /// missed: kept out of line so the hit path stays small.
    #[cold]
    #[inline(never)]
    fn intern_cold(&self, hash: u64, s: &str, hint: MissHint) -> Sym {
        match self.insert_slow(self.shard_index(hash), hash, s, hint) {
            Ok(sym) => sym,
            Err(e) => panic!("Interner::intern: {e}"),
        }
    }

    /// Like [`intern`](Self::intern), but returns an error instead of
    /// panicking when the byte cap (see [`Builder::max_bytes`]) or the
    /// symbol space is exhausted. Strings already interned are always found.
    ///
    /// ```
    /// use ito::intern::InternError;
    /// let interner = ito::Interner::builder().max_bytes(32 * 1024).build();
    /// let err = interner.try_intern(&"y".repeat(40_000)).unwrap_err();
    /// assert!(matches!(err, InternError::CapacityExceeded { .. }));
    /// ```
    #[inline]
    pub fn try_intern(&self, s: &str) -> Result<Sym, InternError> {
        self.intern_hashed(self.hash(s.as_bytes()), s)
    }

    /// Intern a [`Str`](crate::Str), reusing its cached
    /// [`content_hash`](crate::Str::content_hash) instead of hashing the
    /// bytes again (for an interner built with a custom
    /// [`seed`](Builder::seed), the bytes are hashed with that seed).
    ///
    /// # Panics
    /// As [`intern`](Self::intern).
    ///
    /// ```
    /// let interner = ito::Interner::new();
    /// let s = ito::Str::from("a string long enough to live on the heap");
    /// let sym = interner.intern_str(&s);
    /// assert_eq!(interner.intern(s.as_str()), sym);
    /// assert_eq!(interner.resolve(sym), s.as_str());
    /// ```
    #[inline]
    pub fn intern_str(&self, s: &crate::Str) -> Sym {
        match self.try_intern_str(s) {
            Ok(sym) => sym,
            Err(e) => panic!("Interner::intern_str: {e}"),
        }
    }

    /// [`intern_str`](Self::intern_str) with an error instead of a panic.
    ///
    /// ```
    /// let interner = ito::Interner::new();
    /// let s = ito::Str::from("x");
    /// assert_eq!(interner.try_intern_str(&s), Ok(interner.intern("x")));
    /// ```
    #[inline]
    pub fn try_intern_str(&self, s: &crate::Str) -> Result<Sym, InternError> {
        self.intern_hashed(self.str_hash(s), s.as_str())
    }

    /// The symbol of a [`Str`](crate::Str) if interned (never inserts),
    /// reusing its cached hash.
    ///
    /// ```
    /// let interner = ito::Interner::new();
    /// let s = ito::Str::from("y");
    /// assert_eq!(interner.get_str(&s), None);
    /// let sym = interner.intern_str(&s);
    /// assert_eq!(interner.get_str(&s), Some(sym));
    /// ```
    #[inline]
    pub fn get_str(&self, s: &crate::Str) -> Option<Sym> {
        let hash = self.str_hash(s);
        let index = self.shard_index(hash);
        self.shards[index]
            .find(hash, s.as_bytes())
            .map(|local1| self.sym(index, local1))
    }

    #[inline]
    fn str_hash(&self, s: &crate::Str) -> u64 {
        if self.seed == crate::hash::seed() {
            s.content_hash()
        } else {
            self.hash(s.as_bytes())
        }
    }

    /// Intern `s` whose seeded hash (with this interner's seed) is `hash`.
    #[inline]
    pub(crate) fn intern_hashed(&self, hash: u64, s: &str) -> Result<Sym, InternError> {
        let index = self.shard_index(hash);
        let shard = &self.shards[index];
        // A missed optimistic probe proves nothing, but the insert below
        // walks the chain again under the shard lock, where nothing moves.
        match shard.find_hit(hash, s.as_bytes()) {
            Ok(local1) => Ok(self.sym(index, local1)),
            Err(hint) => self.insert_slow(index, hash, s, hint),
        }
    }

    /// Insert `s` under its shard's lock (the chain is walked again there,
    /// unless `hint` proves nothing changed since the probe, so a string
    /// that is present after all is found, not duplicated). Out of line:
    /// the miss path of `intern` and `try_intern`.
    #[cold]
    #[inline(never)]
    fn insert_slow(
        &self,
        index: usize,
        hash: u64,
        s: &str,
        hint: MissHint,
    ) -> Result<Sym, InternError> {
        let shard = &self.shards[index];
        let (key, max) = (s.as_bytes(), self.max_local1());
        let result = match self.max_bytes {
            None => shard.insert(hash, key, max, None, Some(hint)),
            Some(limit) => {
                let used = self.memory_usage();
                let fits = |needed: usize| used.saturating_add(needed) <= limit;
                shard.insert(hash, key, max, Some(&fits), Some(hint))
            }
        };
        match result {
            Ok(local1) => Ok(self.sym(index, local1)),
            Err(0) => Err(InternError::TooManyStrings),
            Err(needed) => Err(InternError::CapacityExceeded {
                limit: self.max_bytes.unwrap_or(0),
                used: self.memory_usage(),
                needed,
            }),
        }
    }

    /// The symbol of `s` if it is interned; never inserts (use this for
    /// untrusted input that must not grow the table).
    ///
    /// ```
    /// let interner = ito::Interner::new();
    /// assert_eq!(interner.get("a"), None);
    /// let a = interner.intern("a");
    /// assert_eq!(interner.get("a"), Some(a));
    /// ```
    #[inline]
    pub fn get(&self, s: &str) -> Option<Sym> {
        let hash = self.hash(s.as_bytes());
        let index = self.shard_index(hash);
        self.shards[index]
            .find(hash, s.as_bytes())
            .map(|local1| self.sym(index, local1))
    }

    /// The string of `sym`. O(1) and lock-free.
    ///
    /// # Panics
    /// If `sym` was not produced by this interner and is out of its range
    /// (a symbol of another interner that happens to be in range resolves
    /// to some other string, as with every interner).
    ///
    /// ```
    /// let interner = ito::Interner::new();
    /// let s = interner.intern("hello");
    /// assert_eq!(interner.resolve(s), "hello");
    /// ```
    #[inline]
    pub fn resolve(&self, sym: Sym) -> &str {
        match self.try_resolve(sym) {
            Some(s) => s,
            None => panic!("Interner::resolve: {sym:?} does not belong to this interner"),
        }
    }

    /// The string of `sym`, or `None` if this interner never produced it.
    ///
    /// ```
    /// let interner = ito::Interner::new();
    /// let s = interner.intern("hello");
    /// assert_eq!(interner.try_resolve(s), Some("hello"));
    /// let other = ito::Interner::new();
    /// assert_eq!(other.try_resolve(s), None);
    /// ```
    #[inline]
    pub fn try_resolve(&self, sym: Sym) -> Option<&str> {
        let raw = sym.to_u32();
        let shard = &self.shards[(raw as usize) & (self.shards.len() - 1)];
        let local1 = raw >> self.shard_bits;
        let bytes = shard.resolve(local1.checked_sub(1)?)?;
        // SAFETY: only `&str` bytes are ever interned.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    }

    /// Number of distinct strings interned.
    ///
    /// ```
    /// let interner = ito::Interner::new();
    /// interner.intern("a");
    /// interner.intern("a");
    /// assert_eq!(interner.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.shards.iter().map(|s| s.len() as usize).sum()
    }

    /// `true` if nothing is interned.
    ///
    /// ```
    /// assert!(ito::Interner::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.shards.iter().all(|s| s.len() == 0)
    }

    /// Bytes allocated by the interner: tables, symbol records, string
    /// arenas and the struct itself.
    ///
    /// ```
    /// let interner = ito::Interner::new();
    /// let before = interner.memory_usage();
    /// interner.intern(&"z".repeat(10_000));
    /// assert!(interner.memory_usage() >= before + 10_000);
    /// ```
    pub fn memory_usage(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.shards.len() * std::mem::size_of::<Shard>()
            + self
                .shards
                .iter()
                .map(|s| s.allocated_bytes())
                .sum::<usize>()
    }

    /// Every `(Sym, &str)` pair, shard by shard, each shard in insertion
    /// order (with one shard: global insertion order).
    ///
    /// ```
    /// let interner = ito::Interner::builder().shards(1).build();
    /// interner.intern("a");
    /// interner.intern("b");
    /// let all: Vec<&str> = interner.iter().map(|(_, s)| s).collect();
    /// assert_eq!(all, ["a", "b"]);
    /// ```
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            interner: self,
            shard: 0,
            local: 0,
        }
    }

    /// Table statistics (walks every table; for tests and tooling).
    ///
    /// ```
    /// let d = ito::Interner::new().diagnostics();
    /// assert_eq!(d.longest_chain, 0);
    /// ```
    pub fn diagnostics(&self) -> Diagnostics {
        let mut d = Diagnostics::default();
        for shard in self.shards.iter() {
            let s = shard.stats();
            d.longest_chain = d.longest_chain.max(s.longest_chain);
            d.sip_shards += usize::from(s.sip);
            d.buckets += s.buckets;
            d.overflow_buckets += s.overflow_buckets;
            d.probes += s.probes;
            d.splits += s.splits;
        }
        d
    }

    /// Turn the interner into a compact read-only [`Frozen`] table with
    /// the same symbols.
    ///
    /// ```
    /// let interner = ito::Interner::new();
    /// let a = interner.intern("a");
    /// let frozen = interner.freeze();
    /// assert_eq!(frozen.get("a"), Some(a));
    /// assert_eq!(frozen.resolve(a), "a");
    /// ```
    pub fn freeze(self) -> Frozen {
        Frozen::from_interner(&self)
    }

    pub(crate) fn shard_bits(&self) -> u32 {
        self.shard_bits
    }

    pub(crate) fn seed_value(&self) -> u64 {
        self.seed
    }

    pub(crate) fn shard_slice(&self) -> &[Shard] {
        &self.shards
    }
}

/// Iterator over the `(Sym, &str)` pairs of an [`Interner`], from
/// [`Interner::iter`].
///
/// ```
/// let interner = ito::Interner::new();
/// interner.intern("a");
/// assert_eq!(interner.iter().count(), 1);
/// ```
#[derive(Clone)]
pub struct Iter<'a> {
    interner: &'a Interner,
    shard: usize,
    local: u32,
}

impl fmt::Debug for Iter<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Iter").field("shard", &self.shard).finish()
    }
}

impl<'a> Iterator for Iter<'a> {
    type Item = (Sym, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        let interner = self.interner;
        while let Some(shard) = interner.shards.get(self.shard) {
            if let Some(bytes) = shard.resolve(self.local) {
                let sym = interner.sym(self.shard, self.local + 1);
                self.local += 1;
                // SAFETY: only `&str` bytes are ever interned.
                return Some((sym, unsafe { std::str::from_utf8_unchecked(bytes) }));
            }
            self.shard += 1;
            self.local = 0;
        }
        None
    }
}
