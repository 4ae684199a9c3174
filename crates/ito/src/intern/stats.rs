//! [`Stats`]: how much interning a stream of strings would save (the
//! library half of `ito intern stats`).
//!
//! It interns every string into a one-shard [`Interner`] (so symbols are
//! dense, `1..=distinct`, and index a plain count vector) and tallies
//! occurrences and bytes.

use std::fmt;

use super::Interner;

/// Occurrence counts of a stream of strings: distinct strings, duplicates,
/// the bytes interning would save, and the most repeated strings.
///
/// ```
/// use ito::intern::Stats;
/// let stats: Stats = "the cat and the hat and the bat".split(' ').collect();
/// assert_eq!(stats.total(), 8);
/// assert_eq!(stats.distinct(), 5);
/// assert_eq!(stats.duplicates(), 3);
/// assert_eq!(stats.bytes_saved(), 3 + 3 + 3); // "the" twice, "and" once
/// assert_eq!(stats.top(2), vec![("the", 3), ("and", 2)]);
/// ```
pub struct Stats {
    interner: Interner,
    counts: Vec<u64>,
    total: u64,
    total_bytes: u64,
    distinct_bytes: u64,
}

impl Default for Stats {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Stats")
            .field("total", &self.total)
            .field("distinct", &self.distinct())
            .field("bytes_saved", &self.bytes_saved())
            .finish()
    }
}

impl Stats {
    /// Empty statistics.
    ///
    /// ```
    /// let stats = ito::intern::Stats::new();
    /// assert_eq!(stats.total(), 0);
    /// ```
    pub fn new() -> Self {
        Stats {
            interner: Interner::builder().shards(1).build(),
            counts: Vec::new(),
            total: 0,
            total_bytes: 0,
            distinct_bytes: 0,
        }
    }

    /// Count one occurrence of `s`.
    ///
    /// ```
    /// let mut stats = ito::intern::Stats::new();
    /// stats.add("a");
    /// stats.add("a");
    /// assert_eq!(stats.count("a"), 2);
    /// ```
    pub fn add(&mut self, s: &str) {
        let index = self.interner.intern(s).to_u32() as usize - 1;
        if index == self.counts.len() {
            self.counts.push(0);
            self.distinct_bytes += s.len() as u64;
        }
        self.counts[index] += 1;
        self.total += 1;
        self.total_bytes += s.len() as u64;
    }

    /// Occurrences of `s` so far.
    ///
    /// ```
    /// let stats: ito::intern::Stats = ["x", "y", "x"].into_iter().collect();
    /// assert_eq!(stats.count("x"), 2);
    /// assert_eq!(stats.count("z"), 0);
    /// ```
    pub fn count(&self, s: &str) -> u64 {
        self.interner
            .get(s)
            .map_or(0, |sym| self.counts[sym.to_u32() as usize - 1])
    }

    /// Strings seen (with repetitions).
    ///
    /// ```
    /// let stats: ito::intern::Stats = ["x", "x"].into_iter().collect();
    /// assert_eq!(stats.total(), 2);
    /// ```
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Distinct strings seen.
    ///
    /// ```
    /// let stats: ito::intern::Stats = ["x", "x"].into_iter().collect();
    /// assert_eq!(stats.distinct(), 1);
    /// ```
    pub fn distinct(&self) -> u64 {
        self.counts.len() as u64
    }

    /// Occurrences that repeat an earlier string (`total - distinct`).
    ///
    /// ```
    /// let stats: ito::intern::Stats = ["x", "x", "y"].into_iter().collect();
    /// assert_eq!(stats.duplicates(), 1);
    /// ```
    pub fn duplicates(&self) -> u64 {
        self.total - self.distinct()
    }

    /// Bytes of all strings seen, with repetitions.
    ///
    /// ```
    /// let stats: ito::intern::Stats = ["ab", "ab"].into_iter().collect();
    /// assert_eq!(stats.total_bytes(), 4);
    /// ```
    pub fn total_bytes(&self) -> u64 {
        self.total_bytes
    }

    /// Bytes of the distinct strings (each counted once).
    ///
    /// ```
    /// let stats: ito::intern::Stats = ["ab", "ab"].into_iter().collect();
    /// assert_eq!(stats.distinct_bytes(), 2);
    /// ```
    pub fn distinct_bytes(&self) -> u64 {
        self.distinct_bytes
    }

    /// String bytes interning would save: the bytes of every repeated
    /// occurrence (`total_bytes - distinct_bytes`). Per-entry table
    /// overhead is not subtracted; see [`interner_bytes`](Self::interner_bytes).
    ///
    /// ```
    /// let stats: ito::intern::Stats = ["abc", "abc", "d"].into_iter().collect();
    /// assert_eq!(stats.bytes_saved(), 3);
    /// ```
    pub fn bytes_saved(&self) -> u64 {
        self.total_bytes - self.distinct_bytes
    }

    /// Memory the interner holding the distinct strings uses.
    ///
    /// ```
    /// let stats: ito::intern::Stats = ["abc"].into_iter().collect();
    /// assert!(stats.interner_bytes() > 3);
    /// ```
    pub fn interner_bytes(&self) -> usize {
        self.interner.memory_usage()
    }

    /// The `n` most repeated strings with their counts, most frequent
    /// first; ties in first-seen order.
    ///
    /// ```
    /// let stats: ito::intern::Stats = ["b", "a", "b", "c", "a"].into_iter().collect();
    /// assert_eq!(stats.top(2), vec![("b", 2), ("a", 2)]);
    /// assert_eq!(stats.top(10).len(), 3);
    /// ```
    pub fn top(&self, n: usize) -> Vec<(&str, u64)> {
        let mut order: Vec<u32> = (0..self.counts.len() as u32).collect();
        let by_count = |&i: &u32| (std::cmp::Reverse(self.counts[i as usize]), i);
        if n < order.len() {
            order.select_nth_unstable_by_key(n, by_count);
            order.truncate(n);
        }
        order.sort_unstable_by_key(by_count);
        order
            .into_iter()
            .map(|i| {
                let sym = super::Sym::from_raw(i + 1);
                (self.interner.resolve(sym), self.counts[i as usize])
            })
            .collect()
    }
}

impl<S: AsRef<str>> Extend<S> for Stats {
    fn extend<I: IntoIterator<Item = S>>(&mut self, iter: I) {
        for s in iter {
            self.add(s.as_ref());
        }
    }
}

impl<S: AsRef<str>> FromIterator<S> for Stats {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> Self {
        let mut stats = Stats::new();
        stats.extend(iter);
        stats
    }
}
