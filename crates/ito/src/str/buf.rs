//! [`StrBuf`]: the unique, growable builder that freezes into a [`Str`] in
//! O(1).
//!
//! ```text
//! inline mode (heap = null, cap = 23):  bytes live in `inline[..len]`
//! heap mode:   heap --> [ 24-byte header slot, uninit | bytes[0..cap] ]
//!                                                       ^ heap points here
//! ```
//!
//! In heap mode the allocation is already shaped like a heap `Str`'s
//! (header room in front, see `heap.rs`), so [`StrBuf::freeze`] writes the
//! header and hands the same pointer to the `Str`: no copy, no reallocation,
//! spare capacity kept. A short result (≤ 23 bytes) freezes into an inline
//! `Str` instead (a copy of at most 23 bytes, and the buffer, if any, is
//! freed).
//!
//! Pushes are plain copies. The buffer tracks what is known of its facts
//! (three-valued AND of the pieces, see `known.rs`): a `char` is known for
//! free, a `&str` is not; a known-false piece makes the fact known false
//! whatever follows. [`StrBuf::is_ascii`]/[`StrBuf::is_json_safe`] answer
//! from that when they can and scan the buffer otherwise (the answer is not
//! kept: they take `&self`); `freeze` hands what is known to the `Str`.

use super::{facts, heap, inline, Known, Str, INLINE_CAP};
use std::fmt;

/// A growable, uniquely owned UTF-8 buffer that becomes a [`Str`] without
/// copying.
///
/// ```
/// use ito::StrBuf;
/// let mut b = StrBuf::with_capacity(64);
/// b.push_str("a fairly long piece of text, ");
/// b.push_str("and another one");
/// b.push('!');
/// let s = b.freeze(); // O(1): the buffer becomes the Str's allocation
/// assert_eq!(s, "a fairly long piece of text, and another one!");
/// assert!(s.is_ascii() && s.is_json_safe()); // computed on this first query
/// ```
pub struct StrBuf {
    /// Data pointer of the heap buffer, or null while inline.
    heap: *mut u8,
    len: usize,
    cap: usize,
    known: Known,
    inline: [u8; INLINE_CAP],
}

// SAFETY: a `StrBuf` uniquely owns its buffer, like `String`.
unsafe impl Send for StrBuf {}
// SAFETY: `&StrBuf` only reads.
unsafe impl Sync for StrBuf {}

impl Default for StrBuf {
    fn default() -> Self {
        StrBuf::new()
    }
}

impl StrBuf {
    /// An empty buffer (no allocation until more than 23 bytes are pushed).
    ///
    /// ```
    /// assert!(ito::StrBuf::new().is_empty());
    /// ```
    #[inline]
    pub const fn new() -> StrBuf {
        StrBuf {
            heap: std::ptr::null_mut(),
            len: 0,
            cap: INLINE_CAP,
            known: Known::all(facts::ALL),
            inline: [0; INLINE_CAP],
        }
    }

    /// An empty buffer with room for `cap` bytes: no allocation up to 23,
    /// otherwise exactly one allocation of `cap` bytes plus the header.
    ///
    /// ```
    /// assert!(ito::StrBuf::with_capacity(100).capacity() >= 100);
    /// ```
    #[inline]
    pub fn with_capacity(cap: usize) -> StrBuf {
        let mut b = StrBuf::new();
        if cap > INLINE_CAP {
            b.heap = heap::alloc_data(cap);
            b.cap = cap;
        }
        b
    }

    /// Bytes that fit without reallocating.
    ///
    /// ```
    /// assert_eq!(ito::StrBuf::new().capacity(), 23);
    /// ```
    #[inline]
    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// Length in bytes.
    ///
    /// ```
    /// let mut b = ito::StrBuf::new();
    /// b.push_str("abc");
    /// assert_eq!(b.len(), 3);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing has been pushed.
    ///
    /// ```
    /// assert!(ito::StrBuf::default().is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    fn base(&self) -> *const u8 {
        if self.heap.is_null() {
            self.inline.as_ptr()
        } else {
            self.heap
        }
    }

    #[inline(always)]
    fn base_mut(&mut self) -> *mut u8 {
        if self.heap.is_null() {
            self.inline.as_mut_ptr()
        } else {
            self.heap
        }
    }

    /// The content so far.
    ///
    /// ```
    /// let mut b = ito::StrBuf::new();
    /// b.push_str("hi");
    /// assert_eq!(b.as_str(), "hi");
    /// ```
    #[inline]
    pub fn as_str(&self) -> &str {
        // SAFETY: `base()[..len]` is initialised UTF-8 (only `&str`s and
        // encoded `char`s are ever copied in).
        unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(self.base(), self.len)) }
    }

    /// What is known of the facts of the content (a `Known` byte).
    pub(crate) fn known_bits(&self) -> u8 {
        self.known.bits()
    }

    /// `fact` of the content: known from the pushes, or a scan of the
    /// buffer.
    #[inline]
    fn fact(&self, fact: u8) -> bool {
        match self.known.get(fact) {
            Some(v) => v,
            None => facts::classify(self.as_str().as_bytes()) & fact != 0,
        }
    }

    /// Whether every byte pushed so far is ASCII: known without a scan
    /// after `char` pushes or a non-ASCII one, otherwise a scan of the
    /// buffer.
    ///
    /// ```
    /// let mut b = ito::StrBuf::new();
    /// b.push_str("abc");
    /// assert!(b.is_ascii()); // scans "abc"
    /// b.push('é');
    /// assert!(!b.is_ascii()); // known: 'é' is not ASCII
    /// ```
    #[inline]
    pub fn is_ascii(&self) -> bool {
        self.fact(facts::ASCII)
    }

    /// Whether no byte pushed so far needs JSON escaping: known without a
    /// scan after `char` pushes or one that needs escaping, otherwise a
    /// scan of the buffer.
    ///
    /// ```
    /// let mut b = ito::StrBuf::new();
    /// b.push_str("abc");
    /// assert!(b.is_json_safe());
    /// b.push('\n');
    /// assert!(!b.is_json_safe());
    /// b.push_str("more");
    /// assert!(!b.is_json_safe()); // still known: one piece needs escaping
    /// ```
    #[inline]
    pub fn is_json_safe(&self) -> bool {
        self.fact(facts::JSON_SAFE)
    }

    /// Make room for `additional` more bytes (amortised doubling).
    ///
    /// ```
    /// let mut b = ito::StrBuf::new();
    /// b.reserve(1000);
    /// assert!(b.capacity() >= 1000);
    /// ```
    pub fn reserve(&mut self, additional: usize) {
        let needed = self
            .len
            .checked_add(additional)
            .expect("ito::StrBuf: capacity overflow");
        if needed <= self.cap {
            return;
        }
        self.grow(needed);
    }

    #[cold]
    fn grow(&mut self, needed: usize) {
        let new_cap = needed.max(self.cap.saturating_mul(2)).max(48);
        if self.heap.is_null() {
            let data = heap::alloc_data(new_cap);
            // SAFETY: `data` has room for new_cap >= len bytes; `inline` is a
            // distinct buffer.
            unsafe { std::ptr::copy_nonoverlapping(self.inline.as_ptr(), data, self.len) };
            self.heap = data;
        } else {
            // SAFETY: `heap` was allocated with capacity `cap`.
            self.heap = unsafe { heap::realloc_data(self.heap, self.cap, new_cap) };
        }
        self.cap = new_cap;
    }

    /// Append the bytes of `s` (a plain copy).
    #[inline(always)]
    fn copy(&mut self, s: &str) {
        self.reserve(s.len());
        // SAFETY: room for `s.len()` bytes at `len` was reserved; our buffer
        // cannot overlap `s` (we hold `&mut self`).
        unsafe {
            std::ptr::copy_nonoverlapping(s.as_ptr(), self.base_mut().add(self.len), s.len())
        };
        self.len += s.len();
    }

    /// Append `s`: a plain copy, its facts are not looked at.
    ///
    /// ```
    /// let mut b = ito::StrBuf::new();
    /// b.push_str("a\"b");
    /// assert_eq!(b.as_str(), "a\"b");
    /// assert!(!b.is_json_safe());
    /// ```
    #[inline]
    pub fn push_str(&mut self, s: &str) {
        self.copy(s);
        self.known = self.known.and(Known::UNKNOWN);
    }

    /// Append one character (its facts are known for free).
    ///
    /// ```
    /// let mut b = ito::StrBuf::new();
    /// b.push('"');
    /// b.push('ß');
    /// assert_eq!(b.as_str(), "\"ß");
    /// assert!(!b.is_ascii() && !b.is_json_safe());
    /// ```
    #[inline]
    pub fn push(&mut self, c: char) {
        let f = if c.is_ascii() {
            facts::byte_facts(c as u8)
        } else {
            facts::JSON_SAFE // only ASCII bytes need JSON escaping
        };
        self.copy(c.encode_utf8(&mut [0; 4]));
        self.known = self.known.and(Known::all(f));
    }

    /// Remove everything, keeping the capacity.
    ///
    /// ```
    /// let mut b = ito::StrBuf::new();
    /// b.push_str("x\n");
    /// b.clear();
    /// assert!(b.is_empty() && b.is_json_safe());
    /// ```
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        self.known = Known::all(facts::ALL);
    }

    /// Turn the buffer into a [`Str`]: O(1) and no copy when longer than 23
    /// bytes (the allocation already has the header slot, which receives
    /// what is known of the facts); inline (a copy of at most 23 bytes)
    /// otherwise.
    ///
    /// ```
    /// let mut b = ito::StrBuf::new();
    /// b.push_str("short");
    /// assert!(b.freeze().is_inline());
    /// let mut b = ito::StrBuf::new();
    /// b.push('\t'); // known: needs escaping
    /// b.push_str("and a longer tail, not looked at");
    /// let s = b.freeze();
    /// assert!(s.is_heap() && !s.is_json_safe()); // answered without a scan
    /// ```
    #[inline]
    pub fn freeze(self) -> Str {
        let this = std::mem::ManuallyDrop::new(self);
        if this.len <= INLINE_CAP {
            // SAFETY: `len <= 23` bytes of UTF-8.
            let s = unsafe { inline::new(this.as_str().as_bytes()) };
            if !this.heap.is_null() {
                // SAFETY: our allocation with capacity `cap`; `this` is not
                // used afterwards (ManuallyDrop: no double free).
                unsafe { heap::free_data(this.heap, this.cap) };
            }
            return s;
        }
        // SAFETY: heap mode (len > 23 = inline cap): `heap` has capacity
        // `cap >= len`, `len` bytes initialised; ownership moves to the Str.
        unsafe {
            heap::init_header(this.heap, this.cap, this.known);
            Str::from_heap_parts(this.heap, this.len)
        }
    }
}

impl Drop for StrBuf {
    fn drop(&mut self) {
        if !self.heap.is_null() {
            // SAFETY: our allocation with capacity `cap`.
            unsafe { heap::free_data(self.heap, self.cap) }
        }
    }
}

impl Clone for StrBuf {
    fn clone(&self) -> Self {
        let mut b = StrBuf::with_capacity(self.len);
        b.push_str(self.as_str());
        b.known = self.known;
        b
    }
}

impl std::ops::Deref for StrBuf {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Write for StrBuf {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push_str(s);
        Ok(())
    }
    #[inline]
    fn write_char(&mut self, c: char) -> fmt::Result {
        self.push(c);
        Ok(())
    }
}

impl fmt::Display for StrBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for StrBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl<'a> Extend<&'a str> for StrBuf {
    fn extend<I: IntoIterator<Item = &'a str>>(&mut self, iter: I) {
        iter.into_iter().for_each(|s| self.push_str(s));
    }
}

impl Extend<char> for StrBuf {
    fn extend<I: IntoIterator<Item = char>>(&mut self, iter: I) {
        let it = iter.into_iter();
        self.reserve(it.size_hint().0);
        it.for_each(|c| self.push(c));
    }
}

impl From<StrBuf> for Str {
    #[inline]
    fn from(b: StrBuf) -> Str {
        b.freeze()
    }
}

impl From<&str> for StrBuf {
    fn from(s: &str) -> StrBuf {
        let mut b = StrBuf::with_capacity(s.len());
        b.push_str(s);
        b
    }
}
