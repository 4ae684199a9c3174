//! [`Str`]: an immutable, cheaply cloned string value that learns its facts
//! on demand, and [`StrBuf`], its growable builder.
//!
//! # Layout
//!
//! A `Str` is 24 bytes (and so is `Option<Str>`). Its last byte, the *tag*,
//! says which of three representations the other 23 bytes hold:
//!
//! ```text
//!            bytes 0..8        8..16        16..23      23
//! inline   [ content (up to 23 bytes), zero padded   | 0 0 0 LLLLL ]  len+1 in L (1..=24)
//! static   [ ptr -> &'static | len        | 0        | 0 S A 11111 ]
//! heap     [ ptr -> bytes    | len        | 0        | 1 0 0 11111 ]
//!              |
//!              v  (one allocation)
//!   [ rc | facts | hash | cap ][ bytes ... ]
//!   '----- 24-byte header -----'
//! ```
//!
//! `A` = every byte is ASCII, `S` = no byte needs JSON escaping (a static
//! string's facts, computed when it is made); a heap string keeps what it
//! knows of them in its header's `facts` byte instead. See
//! `inline.rs`, `static_str.rs` and `heap.rs` (one file per
//! representation) for the details; the tag is never 0, which is
//! `Option<Str>`'s niche. On 32-bit targets the pointer and length fill
//! bytes 0..8 and the handle is still 24 bytes.
//!
//! The tag is laid out for the two hot tests:
//! - "does this handle own a reference count?" (clone, drop) is bit 7
//!   alone, the sign of the last word: heap is the only form with it set,
//!   so clone and drop of inline and static strings cost one
//!   well-predicted sign test on top of the 24-byte copy;
//! - "where are the bytes?" (`as_bytes`, `len`) is the 5-bit `L` field:
//!   31 means pointer + length (static or heap), anything else is an
//!   inline length + 1.
//!
//! # Facts, on demand
//!
//! Two facts are known about a string's bytes: [`Str::is_ascii`] and
//! [`Str::is_json_safe`] (no byte needs escaping in a JSON string, which
//! lets [`quote_str`] write it with one `memcpy`). As in Ruby, whose
//! strings carry a "code range" that starts unknown and is computed by the
//! first operation that needs it, building a `Str` costs a copy and
//! nothing more; the facts are computed when first asked for, once per
//! allocation:
//!
//! ```text
//! build (copy only)          first query                   later queries
//! Str::from, format!,  --->  is_ascii / is_json_safe: ---> one load from
//! concat!, StrBuf            one scan, both facts cached    the header
//!   facts: what was          quote_str: the escaper's
//!   known for free           output length gives "JSON
//!                            safe", cached
//! ```
//!
//! - **Heap strings** keep what is known in a relaxed atomic byte of the
//!   shared header (`heap.rs`), so every clone, on any thread, sees what
//!   any clone learned. Each fact is unknown, known true or known false
//!   (`known.rs`). A race is harmless: every thread computes the same value
//!   of the same immutable bytes.
//! - **Known for free** at build time: a `&'static str` literal in
//!   `format!`/`concat!` (the macro classifies it at compile time), digits,
//!   a `char` pushed to a [`StrBuf`], a heap or static `Str` argument that
//!   already knows. A `&str` argument or a rendered `Display` value is
//!   copied without a look.
//! - **Concatenation** (`format!`, `concat!`, [`Str::concat`],
//!   [`Str::join`], [`StrBuf`]) is a three-valued AND per fact: the result
//!   knows a fact is true when every piece knew it, knows it is false as
//!   soon as one piece knew it false, and otherwise leaves it for the first
//!   query, which scans the whole result once.
//! - **Read by ito's JSON deserializer** (feature `serde`; a value, a
//!   field, an element or an object key): a string the parser's scan
//!   found with no escape is known JSON-safe, and ASCII when the scan saw
//!   no byte >= 0x80, so a server that parses, keeps and re-renders a
//!   document copies those strings with one `memcpy`. Escaped strings and
//!   other deserializers leave the facts unknown.
//! - **Static strings** compute both facts in [`Str::from_static`] (at
//!   compile time in a `const`) and keep them in the tag.
//! - **Inline strings** (up to 23 bytes) store no facts: `is_ascii` and
//!   `is_json_safe` compute them from the handle's three words when asked
//!   (`inline.rs`; about 25 register operations, no loop). Building one is
//!   a plain copy in registers, as fast as `CompactString::from`.
//!
//! ```
//! use ito::Str;
//! let who = Str::from("a name that is stored on the heap");
//! let s = ito::format!("hello, {who}!"); // one copy, facts unknown
//! let clone = s.clone();
//! assert!(s.is_json_safe()); // the first query scans once...
//! assert!(clone.is_ascii()); // ...and every clone shares the answer
//!
//! // Known for free: a literal with a quote makes the result known unsafe.
//! let q = ito::format!("\"{who}\"");
//! assert!(!q.is_json_safe()); // no scan
//! ```
//!
//! # Hash
//!
//! [`Str::content_hash`] is the crate's seeded XXH3 of the bytes; heap
//! strings compute it on first use and cache it in the header. The std
//! [`Hash`] impl hashes exactly like `str` instead (so `Borrow<str>` lookups
//! work), and does not use the cache.
//!
//! # Testing
//!
//! Integration tests: `tests/str_alloc.rs` (counting allocator),
//! `tests/str_model.rs` (model-based proptest against `String`),
//! `tests/str_format.rs` (`format!` vs `std::format!`),
//! `tests/str_traits.rs`, `tests/json_str_facts.rs` (read by ito's JSON
//! deserializer, then rendered: serde_json's bytes for the corpora and
//! random strings); fuzz target `fuzz/fuzz_targets/str_model.rs`.
//! The facts' states are checked exactly by a model-based unit test
//! (`facts_model.rs`: every way into unknown, known at build time,
//! propagated, computed, and shared across clones and threads), and the
//! header's facts byte racing a read by the loom model `tests/loom_str.rs`
//! (`RUSTFLAGS="--cfg loom" cargo test -p ito --release --test loom_str`).
//!
//! The unsafe parts run under Miri with strict provenance (proptest runs
//! 8 cases there, without failure persistence; the exhaustive kernel tests
//! have Miri-sized variants). Under Miri the inline path classifies with
//! SWAR, the same loads as the SSE2 path:
//!
//! ```text
//! MIRIFLAGS=-Zmiri-strict-provenance cargo +nightly miri test -p ito \
//!     --test str_model --test str_alloc --test str_traits --test str_format
//! MIRIFLAGS=-Zmiri-strict-provenance cargo +nightly miri test -p ito --lib -- str:: facts:: --skip nostr
//! ```
//!
//! Both pass (2026-11-21, nightly Miri): about 2 + 4 minutes of
//! interpretation on one loaded core, plus the Miri build.
//!
//! # Not built
//!
//! - No 24-byte inline form (see `inline.rs` for why 23).
//! - `From<String>`/`From<Box<str>>` copy: a `String`'s buffer has no room
//!   for the header in front of the bytes, so reusing it would need a second
//!   allocation for the header (the `Arc<String>` double indirection the
//!   single-allocation design exists to avoid). One exact-size copy instead.
//! - No fused copy + classify when building: it cost about 1 ns per piece
//!   (the whole gap between `format!` and a hand-written `String`), paid
//!   by every string whether or not its facts were ever asked for. The
//!   kernel (`simd/facts.rs`) now serves the first query's scan.
//! - No scan of only the unknown pieces of a concatenation: the result does
//!   not remember where its pieces were, so the first query scans it whole.
//! - `Str::join` collects the items first (to measure before writing): up
//!   to 16 on the stack, more in a temporary `Vec` of the items (one extra
//!   allocation; the string is still allocated once, at its final size). A
//!   two-pass walk over a `Clone` iterator would avoid it but would
//!   re-run `map` closures (e.g. re-allocate `to_string()` results).
mod buf;
#[cfg(test)]
mod facts_model;
#[doc(hidden)]
pub mod fmt_rt;
mod heap;
mod inline;
mod known;
mod macros;
mod static_str;
mod traits;

pub use buf::StrBuf;

use crate::simd::facts;
use known::Known;
use std::num::NonZeroU64;

/// Longest string stored inline (0 allocations).
///
/// ```
/// use ito::str::INLINE_CAP;
/// assert!(ito::Str::from("x".repeat(INLINE_CAP).as_str()).is_inline());
/// assert!(ito::Str::from("x".repeat(INLINE_CAP + 1).as_str()).is_heap());
/// ```
pub const INLINE_CAP: usize = 23;

const FACTS_SHIFT: u32 = 5;
/// Tag bit 7: a heap handle (owns a reference count). Set in no other form.
const HEAP_BIT: u8 = 0x80;
/// The tag's `L` field: inline length + 1, or [`PTR_FORM`].
const LEN_MASK: u8 = 0x1F;
/// `L` value of the static and heap forms (pointer + length in the head).
const PTR_FORM: u8 = 0x1F;

/// Bytes 16..24 of a `Str` as one word: inline content bytes 16..23 (or
/// zero padding) and the tag in byte 23. The tag is never zero, so neither
/// is the word: that is the `Option<Str>` niche. Keeping these 8 bytes one
/// machine word (rather than `[u8; 7]` + `u8`) lets every move of a `Str` be
/// three word copies; a 7-byte array was copied with overlapping 4-byte
/// moves that defeated store forwarding.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(transparent)]
struct Last(NonZeroU64);

impl Last {
    /// The word holding only `tag` (bytes 16..23 zero).
    #[inline(always)]
    const fn with_tag(tag: u8) -> Last {
        // Memory order: byte 23 is the most significant byte of the
        // little-endian value.
        match NonZeroU64::new(u64::to_le((tag as u64) << 56)) {
            Some(w) => Last(w),
            None => panic!("zero Str tag"),
        }
    }
    /// The tag (byte 23).
    #[inline(always)]
    const fn tag(self) -> u8 {
        (u64::from_le(self.0.get()) >> 56) as u8
    }
    /// Whether the tag has [`HEAP_BIT`]: the sign of the word, one test.
    #[inline(always)]
    const fn is_heap(self) -> bool {
        (u64::from_le(self.0.get()) as i64) < 0
    }
}

#[derive(Clone, Copy)]
#[repr(C)]
struct PtrLen {
    ptr: *const u8,
    len: usize,
}

/// The first 16 bytes: inline content or a pointer and a length.
#[derive(Clone, Copy)]
#[repr(C)]
union Head {
    bytes: [u8; 16],
    ptr: PtrLen,
}

/// An immutable UTF-8 string in 24 bytes: inline up to 23 bytes, a borrowed
/// `&'static str`, or one shared heap allocation. Clone is a copy, free, or
/// one atomic increment.
///
/// Whether it [is ASCII](Str::is_ascii) and whether it [is JSON
/// safe](Str::is_json_safe) are computed on first use and cached for every
/// clone (see [the module docs](crate::str)), like its
/// [content hash](Str::content_hash).
///
/// ```
/// use ito::Str;
/// let short = Str::from("hi");            // inline, no allocation
/// let long = Str::from("a string longer than twenty-three bytes"); // one allocation
/// let copy = long.clone();                 // one atomic increment
/// assert_eq!(copy, long);
/// assert!(short.is_inline() && long.is_heap());
/// assert_eq!(std::mem::size_of::<Option<Str>>(), 24);
/// ```
#[repr(C)]
pub struct Str {
    head: Head,
    last: Last,
}

const _: () = assert!(std::mem::size_of::<Str>() == 24);
const _: () = assert!(std::mem::size_of::<Option<Str>>() == 24);
// The last word is a `u64`: align 8 on 64-bit targets and wasm32, 4 on
// i686 (nothing relies on more than `u64`'s own alignment). On 32-bit
// targets a pointer and a length fill bytes 0..8 of the head.
const _: () = assert!(std::mem::align_of::<Str>() == std::mem::align_of::<u64>());

// SAFETY: a `Str` is immutable content; the heap form is shared through an
// atomic reference count and an atomic hash cache, like `Arc<str>`.
unsafe impl Send for Str {}
// SAFETY: see `Send`; `&Str` only reads immutable bytes and atomics.
unsafe impl Sync for Str {}

impl Str {
    /// The empty string (inline, `const`).
    ///
    /// ```
    /// assert!(ito::Str::new().is_empty());
    /// ```
    #[inline]
    pub const fn new() -> Str {
        Str {
            head: Head { bytes: [0; 16] },
            last: Last::with_tag(inline::tag(0)),
        }
    }

    /// Build from a 24-byte inline image.
    ///
    /// # Safety
    /// `raw[23]` is a valid inline tag for some `len <= 23`, `raw[..len]` is
    /// UTF-8 and `raw[len..23]` is zero.
    #[inline(always)]
    unsafe fn from_inline_raw(raw: [u8; 24]) -> Str {
        debug_assert!(raw[23] & !LEN_MASK == 0 && raw[23] & LEN_MASK != 0);
        debug_assert!(raw[23] & LEN_MASK <= INLINE_CAP as u8 + 1);
        // SAFETY: `Str` is 24 bytes of plain data whose only invariant-bearing
        // byte is the tag (non-zero, valid per the contract); an inline
        // `Head` is read only as bytes.
        unsafe { std::mem::transmute::<[u8; 24], Str>(raw) }
    }

    /// A heap `Str` over an allocation whose header is initialised.
    ///
    /// # Safety
    /// `data` came from `heap::alloc_data` and has an initialised header
    /// (whose facts are true of `data[..len]`) with a count owned by this
    /// handle; `data[..len]` is UTF-8.
    #[inline(always)]
    unsafe fn from_heap_parts(data: *const u8, len: usize) -> Str {
        Str {
            head: Head {
                ptr: PtrLen { ptr: data, len },
            },
            last: Last::with_tag(HEAP_BIT | PTR_FORM),
        }
    }

    /// Build from UTF-8 `bytes`: inline (a copy in registers), or one heap
    /// allocation and a `memcpy`; no classification either way.
    ///
    /// Always inlined (the inline case is a handful of register operations,
    /// and returning a `Str` through memory from a non-inlined call costs a
    /// store-forwarding stall); the heap case is a separate function.
    ///
    /// # Safety
    /// `bytes` is UTF-8.
    #[inline(always)]
    unsafe fn from_utf8_unchecked_copy(bytes: &[u8]) -> Str {
        if bytes.len() <= INLINE_CAP {
            // SAFETY: length checked; UTF-8 by contract.
            return unsafe { inline::new(bytes) };
        }
        // SAFETY: UTF-8 by contract.
        unsafe { Str::heap_copy(bytes) }
    }

    /// One exact-size allocation and a `memcpy`; the facts start unknown
    /// (the first query computes them, see "Facts" in the module doc).
    ///
    /// # Safety
    /// `bytes` is UTF-8.
    #[inline]
    unsafe fn heap_copy(bytes: &[u8]) -> Str {
        // SAFETY: forwarded; nothing is known, which is true of any bytes.
        unsafe { Str::heap_copy_known(bytes, Known::UNKNOWN) }
    }

    /// [`Str::heap_copy`] with what is already known of the facts.
    ///
    /// # Safety
    /// `bytes` is UTF-8 and `known` is true of it.
    #[inline(always)]
    unsafe fn heap_copy_known(bytes: &[u8], known: Known) -> Str {
        let data = heap::alloc_data(bytes.len());
        // SAFETY: `data` is a fresh allocation of `bytes.len()` bytes, which
        // cannot overlap `bytes`; fully written before the header is
        // initialised and the handle made.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), data, bytes.len());
            heap::init_header(data, bytes.len(), known);
            Str::from_heap_parts(data, bytes.len())
        }
    }

    /// Copy `s` into a new `Str` with what is already known of its facts
    /// (e.g. from the JSON parser's scan of the same bytes; a fact not
    /// known stays to be computed): a heap result starts with them cached,
    /// an inline one computes its own on demand as always.
    #[cfg_attr(not(any(test, feature = "serde")), allow(dead_code))]
    #[inline]
    pub(crate) fn from_str_with_facts(s: &str, known: Known) -> Str {
        #[cfg(debug_assertions)]
        {
            let truth = Known::all(facts::classify_scalar(s.as_bytes()));
            debug_assert_eq!(truth.learn(known), truth, "{s:?}");
        }
        if s.len() <= INLINE_CAP {
            // SAFETY: length checked; `s` is UTF-8.
            return unsafe { inline::new(s.as_bytes()) };
        }
        // SAFETY: `s` is UTF-8 and `known` true of it (the caller's word).
        unsafe { Str::heap_copy_known(s.as_bytes(), known) }
    }

    /// Copy `s` into a new `Str` (inline when it fits, otherwise one
    /// allocation of exactly `s.len()` bytes plus the header).
    ///
    /// ```
    /// assert_eq!(ito::Str::from_str_copy("abc"), "abc");
    /// ```
    #[inline(always)]
    pub fn from_str_copy(s: &str) -> Str {
        // SAFETY: `s` is UTF-8.
        unsafe { Str::from_utf8_unchecked_copy(s.as_bytes()) }
    }

    #[inline(always)]
    fn tag(&self) -> u8 {
        self.last.tag()
    }

    /// The facts bits (`facts::ASCII | facts::JSON_SAFE`), as the queries
    /// answer them (computing and caching unknown heap facts).
    #[cfg(test)]
    fn facts(&self) -> u8 {
        let l = self.tag() & LEN_MASK;
        if l != PTR_FORM {
            inline::facts_of(self, l as usize - 1)
        } else {
            (if self.is_ascii() { facts::ASCII } else { 0 })
                | (if self.is_json_safe() {
                    facts::JSON_SAFE
                } else {
                    0
                })
        }
    }

    /// What is known of the facts without computing anything: the tag's
    /// facts of a static string, the header's of a heap one, nothing of an
    /// inline one (computing those costs a few register operations, not a
    /// scan, so nothing is stored).
    #[inline(always)]
    fn known(&self) -> Known {
        if self.is_heap() {
            // SAFETY: heap handle: the allocation is live while `self` is.
            unsafe { heap::known(self.head.ptr.ptr) }
        } else if self.is_inline() {
            Known::UNKNOWN
        } else {
            Known::all(self.stored_facts())
        }
    }

    /// The facts bits of the tag (meaningful for the static form only).
    #[inline(always)]
    fn stored_facts(&self) -> u8 {
        (self.tag() >> FACTS_SHIFT) & facts::ALL
    }

    /// `fact` of a pointer-form string: the static tag's, or the heap
    /// header's, computed and cached on the first query.
    #[inline(always)]
    fn pointer_fact(&self, fact: u8) -> bool {
        if !self.is_heap() {
            return self.stored_facts() & fact != 0;
        }
        // SAFETY: heap handle: the allocation is live while `self` is.
        match unsafe { heap::known(self.head.ptr.ptr) }.get(fact) {
            Some(v) => v,
            None => self.learn_facts() & fact != 0,
        }
    }

    /// Scan a heap string's bytes once and cache both facts in its header,
    /// where every clone sees them.
    #[cold]
    #[inline(never)]
    fn learn_facts(&self) -> u8 {
        debug_assert!(self.is_heap());
        let f = facts::classify(self.as_bytes());
        // SAFETY: heap handle, alive; `f` are the facts of its bytes.
        unsafe { heap::learn(self.head.ptr.ptr, Known::all(f)) };
        f
    }

    /// The content as bytes.
    ///
    /// ```
    /// assert_eq!(ito::Str::from("ab").as_bytes(), b"ab");
    /// ```
    #[inline(always)]
    pub fn as_bytes(&self) -> &[u8] {
        let l = self.tag() & LEN_MASK;
        if l != PTR_FORM {
            let len = l as usize - 1;
            // SAFETY: inline: the first `len <= 23` bytes of the handle are
            // the initialised content.
            unsafe { std::slice::from_raw_parts((self as *const Str).cast::<u8>(), len) }
        } else {
            // SAFETY: heap/static: `ptr` points at `len` initialised bytes
            // that live at least as long as this handle.
            unsafe {
                let p = self.head.ptr;
                std::slice::from_raw_parts(p.ptr, p.len)
            }
        }
    }

    /// The content as `&str`.
    ///
    /// ```
    /// assert_eq!(ito::Str::from("ab").as_str(), "ab");
    /// ```
    #[inline(always)]
    pub fn as_str(&self) -> &str {
        // SAFETY: every constructor stores UTF-8 only.
        unsafe { std::str::from_utf8_unchecked(self.as_bytes()) }
    }

    /// Length in bytes.
    ///
    /// ```
    /// assert_eq!(ito::Str::from("héllo").len(), 6);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        let l = self.tag() & LEN_MASK;
        if l != PTR_FORM {
            l as usize - 1
        } else {
            // SAFETY: heap/static handles hold a `PtrLen`.
            unsafe { self.head.ptr.len }
        }
    }

    /// Whether the string is empty.
    ///
    /// ```
    /// assert!(ito::Str::default().is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether every byte is ASCII.
    ///
    /// A heap string answers from its header once the fact is known, and
    /// otherwise scans its bytes once and caches both facts there for every
    /// clone (see "Facts" in the module doc); a static string answers from
    /// its handle; an inline one computes it with a few word operations on
    /// the handle (no scan).
    ///
    /// ```
    /// assert!(ito::Str::from("abc").is_ascii());
    /// assert!(!ito::Str::from("é").is_ascii());
    /// let long = ito::Str::from("a heap string: more than 23 bytes, é");
    /// let copy = long.clone();
    /// assert!(!long.is_ascii()); // first query: one scan, cached
    /// assert!(!copy.is_ascii()); // the clone shares the cached answer
    /// ```
    #[inline]
    pub fn is_ascii(&self) -> bool {
        if self.is_inline() {
            inline::is_ascii(self)
        } else {
            self.pointer_fact(facts::ASCII)
        }
    }

    /// Whether no byte needs escaping in a JSON string (no `"`, `\` or
    /// control character below 0x20).
    ///
    /// Answered like [`Str::is_ascii`]: from the heap header once known
    /// (the first query scans once and caches both facts for every clone),
    /// from the handle of a static string, by a few word operations on an
    /// inline one.
    ///
    /// ```
    /// assert!(ito::Str::from("plain é").is_json_safe());
    /// assert!(!ito::Str::from("say \"hi\"").is_json_safe());
    /// let long = ito::Str::from("a heap string, needs no escaping at all");
    /// assert!(long.is_json_safe()); // scanned once
    /// assert!(long.clone().is_json_safe()); // cached in the shared header
    /// ```
    #[inline]
    pub fn is_json_safe(&self) -> bool {
        let l = self.tag() & LEN_MASK;
        if l != PTR_FORM {
            inline::is_json_safe(self, l as usize - 1)
        } else {
            self.pointer_fact(facts::JSON_SAFE)
        }
    }

    /// Whether the content is stored inside the handle.
    ///
    /// ```
    /// assert!(ito::Str::from("short").is_inline());
    /// ```
    #[inline]
    pub fn is_inline(&self) -> bool {
        self.tag() & LEN_MASK != PTR_FORM
    }

    /// Whether this handle borrows a `&'static str`.
    ///
    /// ```
    /// assert!(ito::Str::from_static("x").is_static());
    /// ```
    #[inline]
    pub fn is_static(&self) -> bool {
        self.tag() & (HEAP_BIT | LEN_MASK) == PTR_FORM
    }

    /// Whether this handle shares a heap allocation.
    ///
    /// ```
    /// assert!(ito::Str::from("x".repeat(24).as_str()).is_heap());
    /// ```
    #[inline]
    pub fn is_heap(&self) -> bool {
        self.last.is_heap()
    }

    /// The seeded XXH3-64 hash of the bytes (the crate's `hash_bytes`),
    /// computed on first use and cached in the heap header; inline and
    /// static strings compute it on each call. This is the hash the interner
    /// uses; it is *not* what [`Hash`](std::hash::Hash) feeds a `Hasher`.
    ///
    /// ```
    /// let a = ito::Str::from("the same content, stored on the heap");
    /// let b = ito::Str::from("the same content, stored on the heap");
    /// assert_eq!(a.content_hash(), b.content_hash());
    /// assert_eq!(a.content_hash(), a.content_hash()); // second call: cached
    /// ```
    #[inline]
    pub fn content_hash(&self) -> u64 {
        if self.is_heap() {
            // SAFETY: heap handle: ptr/len describe a live allocation.
            unsafe {
                let p = self.head.ptr;
                heap::content_hash(p.ptr, p.len)
            }
        } else {
            crate::hash::hash_bytes(self.as_bytes())
        }
    }

    /// Concatenate `pieces` into one `Str`: inline when the total fits,
    /// otherwise exactly one allocation of exactly the total size. The
    /// pieces are plain copies; the facts of a heap result are computed by
    /// the first query that needs them.
    ///
    /// ```
    /// let s = ito::Str::concat(&["hello", ", ", "world"]);
    /// assert_eq!(s, "hello, world");
    /// ```
    pub fn concat(pieces: &[&str]) -> Str {
        let total = pieces
            .iter()
            .try_fold(0usize, |acc, p| acc.checked_add(p.len()))
            .expect("ito::Str::concat: length overflow");
        let mut buf = fmt_rt::InlineBuf::uninit();
        let mut w = fmt_rt::Writer::new(total, &mut buf);
        for p in pieces {
            w.write_unknown(p);
        }
        w.finish()
    }

    /// Join the items of `iter` with `sep`: inline when the result fits,
    /// otherwise exactly one allocation of exactly the final size.
    ///
    /// The items are first collected (to measure before writing): up to 16
    /// live in a stack array, more spill into a temporary `Vec` of the items
    /// themselves (one extra, short-lived allocation; the string is still
    /// allocated once, at its final size).
    ///
    /// ```
    /// let s = ito::Str::join(", ", ["a", "b", "c"]);
    /// assert_eq!(s, "a, b, c");
    /// let n = ito::Str::join("-", (1..=3).map(|i| i.to_string()));
    /// assert_eq!(n, "1-2-3");
    /// ```
    pub fn join<I>(sep: &str, iter: I) -> Str
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        let items = fmt_rt::Collected::<I::Item, 16>::collect(iter);
        let items = items.as_slice();
        let mut total = sep
            .len()
            .checked_mul(items.len().saturating_sub(1))
            .expect("ito::Str::join: length overflow");
        for it in items {
            total = total
                .checked_add(it.as_ref().len())
                .expect("ito::Str::join: length overflow");
        }
        let mut buf = fmt_rt::InlineBuf::uninit();
        let mut w = fmt_rt::Writer::new(total, &mut buf);
        if let Some((first, rest)) = items.split_first() {
            w.write_unknown(first.as_ref());
            for it in rest {
                w.write_unknown(sep);
                w.write_unknown(it.as_ref());
            }
        }
        w.finish()
    }
}

/// Copy `src` into `dst[..src.len()]` with a forced facts kernel and return
/// `(is_ascii, is_json_safe)` of the copied bytes (for tests and benchmarks;
/// the library dispatches on its own). Kernels the CPU cannot run fall back
/// to SWAR.
///
/// # Panics
/// If `dst` is shorter than `src`.
///
/// ```
/// for k in ito::Kernel::available() {
///     let mut dst = [0u8; 5];
///     assert_eq!(ito::str::copy_facts_with_kernel(k, b"a\"b", &mut dst), (true, false));
///     assert_eq!(&dst[..3], b"a\"b");
/// }
/// ```
pub fn copy_facts_with_kernel(kernel: crate::Kernel, src: &[u8], dst: &mut [u8]) -> (bool, bool) {
    let f = facts::copy_classify_with_kernel(kernel, src, dst);
    (f & facts::ASCII != 0, f & facts::JSON_SAFE != 0)
}

/// Append `s` to `dst` as a JSON string literal (with the quotes); also
/// available as `ito::json::quote_str`.
///
/// A `Str` known to be JSON safe (see [`Str::is_json_safe`]) is written
/// without looking at its bytes again, after a single `reserve`: a heap or
/// static one with one `memcpy` between the two quotes, an inline one with
/// three fixed word stores of the whole handle (its facts cost a few word
/// operations). Any other goes through [`crate::json::quote`] (the SIMD
/// escaper; the same output as `serde_json`).
///
/// A heap `Str` whose JSON-safe fact is not known yet learns it as a
/// by-product: escaping always lengthens the output, so the string is JSON
/// safe exactly when the quoted text is its length plus the two quotes. The
/// answer is cached in the shared header, and the next `quote_str` of it
/// (or of any clone) is a `memcpy`.
///
/// ```
/// let mut out = Vec::new();
/// ito::str::quote_str(&mut out, &ito::Str::from("say \"hi\"\n"));
/// assert_eq!(out, br#""say \"hi\"\n""#);
///
/// let s = ito::Str::from("a heap string that needs no escaping");
/// out.clear();
/// ito::str::quote_str(&mut out, &s); // escaper; learns "JSON safe"
/// ito::str::quote_str(&mut out, &s.clone()); // memcpy
/// assert_eq!(out, [&b"\"a heap string that needs no escaping\""[..]; 2].concat());
/// ```
#[inline(always)]
pub fn quote_str(dst: &mut Vec<u8>, s: &Str) {
    // Inlined into the caller: the inline fast path (a call and its
    // prologue cost as much as the work at 11 bytes), and the learning of
    // a fresh heap string, which is `json::quote` plus a load, a
    // comparison and a store, so that it costs about what `json::quote`
    // costs. Everything else goes through `quote_str_other`.
    let l = s.tag() & LEN_MASK;
    if l != PTR_FORM {
        if inline::quote_if_safe(dst, s, l as usize - 1) {
            return;
        }
    } else if s.is_heap() {
        // SAFETY: heap handle: the allocation is live while `s` is.
        if unsafe { heap::known(s.head.ptr.ptr) }
            .get(facts::JSON_SAFE)
            .is_none()
        {
            let before = dst.len();
            crate::json::quote(dst, s.as_str());
            // Every escape writes at least two bytes for one, so nothing
            // was escaped exactly when the output is the input plus the
            // two quotes.
            let clean = dst.len() - before == s.len() + 2;
            // SAFETY: heap handle, alive; `clean` is its JSON-safe fact.
            unsafe { heap::learn(s.head.ptr.ptr, Known::json_safe(clean)) };
            return;
        }
    }
    quote_str_other(dst, s)
}

/// [`quote_str`] of a static `Str`, of a heap one whose JSON-safe fact is
/// known, or of an inline one that needs escaping.
#[inline(never)]
fn quote_str_other(dst: &mut Vec<u8>, s: &Str) {
    // The JSON-safe fact is unknown here only for an inline string (which
    // `quote_str` found unsafe) or for a heap one whose fact a racing
    // relaxed store has just erased (see `heap.rs`); `json::quote` is right
    // for both.
    if s.known().get(facts::JSON_SAFE) == Some(true) {
        let bytes = s.as_bytes();
        let n = bytes.len();
        dst.reserve(n + 2);
        let len = dst.len();
        // SAFETY: `reserve` made room for n + 2 more bytes after `len`; all
        // of them are written before `set_len`, and `bytes` cannot overlap
        // `dst`'s spare capacity (it is borrowed from `s`).
        unsafe {
            let p = dst.as_mut_ptr().add(len);
            *p = b'"';
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), p.add(1), n);
            *p.add(n + 1) = b'"';
            dst.set_len(len + n + 2);
        }
        return;
    }
    crate::json::quote(dst, s.as_str());
}

impl Clone for Str {
    #[inline]
    fn clone(&self) -> Str {
        if self.is_heap() {
            // SAFETY: heap handle: the allocation is live while `self` is.
            unsafe { heap::retain(self.head.ptr.ptr) };
        }
        // SAFETY: a bitwise copy of the handle is a valid handle once the
        // count (for heap) has been incremented.
        unsafe { std::ptr::read(self) }
    }
}

impl Drop for Str {
    #[inline]
    fn drop(&mut self) {
        if self.is_heap() {
            // SAFETY: heap handle being dropped; it owns one count.
            unsafe { heap::release(self.head.ptr.ptr) }
        }
    }
}

#[cfg(test)]
mod tests {
    //! Unit tests of the unsafe parts; these are what Miri runs:
    //! `cargo +nightly miri test -p ito --lib -- str:: facts:: --skip nostr`.
    use super::*;

    fn samples() -> Vec<String> {
        let mut v: Vec<String> = vec![
            String::new(),
            "a".into(),
            "é✓\"\n".into(),
            "x".repeat(23),
            "x".repeat(24),
            "y\\".repeat(40),
        ];
        v.push("long ascii and json safe text, more than 23 bytes".into());
        v
    }

    #[test]
    fn str_tag_forms_are_disjoint() {
        // Clone/drop test only the sign bit; as_bytes/len only `L == 31`.
        for n in 0..=INLINE_CAP {
            let t = inline::tag(n);
            assert!(t != 0 && t & HEAP_BIT == 0 && t & LEN_MASK != PTR_FORM);
            assert_eq!((t & LEN_MASK) as usize - 1, n);
            assert_eq!(t & !LEN_MASK, 0, "inline tags store no facts");
        }
        let forms = [
            Str::from("inline"),
            Str::from_static("static"),
            Str::from("a heap string, longer than 23 bytes"),
        ];
        for (i, s) in forms.iter().enumerate() {
            assert_eq!(
                [s.is_inline(), s.is_static(), s.is_heap()],
                [i == 0, i == 1, i == 2]
            );
            assert_eq!(s.last.is_heap(), s.tag() & HEAP_BIT != 0);
            assert_eq!(s.facts(), facts::ALL);
        }
    }

    #[test]
    fn str_content_hash_is_hash_bytes_and_cached() {
        for s in samples() {
            let a = Str::from(s.as_str());
            let want = crate::hash::hash_bytes(s.as_bytes());
            assert_eq!(a.content_hash(), want);
            assert_eq!(a.content_hash(), want);
            if a.is_heap() {
                // SAFETY: heap handle, alive.
                let cached = unsafe { heap::header(a.head.ptr.ptr) }
                    .hash
                    .load(std::sync::atomic::Ordering::Relaxed);
                assert_eq!(cached, want);
            }
            let b = a.clone();
            assert_eq!(b.content_hash(), want);
        }
        for t in [
            "",
            "static",
            "a static string longer than the inline capacity",
        ] {
            let want = crate::hash::hash_bytes(t.as_bytes());
            assert_eq!(Str::from_static(t).content_hash(), want);
        }
    }

    #[test]
    fn str_inline_facts_every_position() {
        // The on-demand facts mask the zero padding and the tag out of the
        // SWAR test: every length, every position, each special byte, for
        // each way of building an inline string, and `quote_str`'s inline
        // path (which writes the whole handle) against serde_json.
        for len in 0..=INLINE_CAP {
            let base = "a".repeat(len);
            let check = |s: &str| {
                let want = facts::classify_scalar(s.as_bytes());
                let mut b = StrBuf::new();
                b.push_str(s);
                let built = [
                    Str::from(s),
                    crate::format!("{s}"),
                    Str::concat(&["", s]),
                    b.freeze(),
                ];
                for a in built {
                    assert!(a.is_inline());
                    assert_eq!(a.as_str(), s);
                    assert_eq!(a.facts(), want, "{s:?}");
                    assert_eq!(a.is_ascii(), want & facts::ASCII != 0, "{s:?}");
                    assert_eq!(a.is_json_safe(), want & facts::JSON_SAFE != 0, "{s:?}");
                    let mut out = b"[".to_vec();
                    quote_str(&mut out, &a);
                    out.push(b']');
                    assert_eq!(out, serde_json::to_vec(&[s]).unwrap(), "{s:?}");
                }
            };
            check(&base);
            // Miri: every fifth position (the inline tests cover the rest).
            let step = if cfg!(miri) { 5 } else { 1 };
            for pos in (0..len).step_by(step) {
                for sp in ["\"", "\\", "\u{1}", "\u{1f}", " ", "\u{7f}"] {
                    check(&std::format!("{}{sp}{}", &base[..pos], &base[pos + 1..]));
                }
                if pos + 1 < len {
                    check(&std::format!("{}é{}", &base[..pos], &base[pos + 2..]));
                }
            }
        }
    }

    #[test]
    fn str_representations_round_trip() {
        for s in samples() {
            let a = Str::from(s.as_str());
            assert_eq!(a.as_str(), s);
            assert_eq!(a.is_inline(), s.len() <= INLINE_CAP);
            assert_eq!(a.is_heap(), s.len() > INLINE_CAP);
            assert_eq!(a.facts(), facts::classify_scalar(s.as_bytes()));
            let clones: Vec<Str> = (0..3).map(|_| a.clone()).collect();
            drop(a);
            for c in &clones {
                assert_eq!(c.as_str(), s);
            }
            let o: Option<Str> = Some(clones[0].clone());
            assert_eq!(o.as_deref(), Some(s.as_str()));
        }
    }

    #[test]
    fn str_buf_grow_freeze_and_drop() {
        for s in samples() {
            let mut b = StrBuf::new();
            for _ in 0..3 {
                b.push_str(&s);
                b.push('é');
            }
            let want = std::format!("{s}é{s}é{s}é");
            assert_eq!(b.as_str(), want);
            let unfrozen = b.clone();
            let f = b.freeze();
            assert_eq!(f.as_str(), want);
            assert_eq!(f.facts(), facts::classify_scalar(want.as_bytes()));
            let g = f.clone();
            drop(f);
            assert_eq!(g.as_str(), want);
            drop(unfrozen); // dropping an unfrozen buffer frees it
        }
        let mut b = StrBuf::with_capacity(100);
        b.push_str("short");
        assert!(b.freeze().is_inline()); // heap buffer freed, inline result
    }

    #[test]
    fn str_writer_concat_join_and_scratch() {
        let parts = ["ab", "", "é\"", "a longer piece of text that goes on"];
        let c = Str::concat(&parts);
        assert_eq!(c.as_str(), parts.concat());
        let j = Str::join("::", parts.iter());
        assert_eq!(j.as_str(), parts.join("::"));
        let many: Vec<String> = (0..20).map(|i| i.to_string()).collect();
        assert_eq!(Str::join(",", &many).as_str(), many.join(","));
        assert_eq!(Str::join(",", Vec::<String>::new()).as_str(), "");
        // Rendered pieces: stack scratch, then spill.
        let big = "q".repeat(300);
        let f = crate::format!("{:?}|{}|{big:?}|{}", "s", 12, 'c');
        assert_eq!(f.as_str(), std::format!("{:?}|{}|{big:?}|{}", "s", 12, 'c'));
        // An unfinished writer frees its allocation.
        let mut buf = fmt_rt::InlineBuf::uninit();
        let mut w = fmt_rt::Writer::new(40, &mut buf);
        w.write_known("partial", facts::ALL);
        drop(w);
        // An unfinished inline-sized writer leaves only its buffer behind.
        let mut buf = fmt_rt::InlineBuf::uninit();
        let mut w = fmt_rt::Writer::new(10, &mut buf);
        w.write_known("part", facts::ALL);
        drop(w);
        // Inline-sized pieces end up in the image, zeros after them.
        let mut buf = fmt_rt::InlineBuf::uninit();
        let mut w = fmt_rt::Writer::new(7, &mut buf);
        w.write_unknown("abc");
        w.write_known("defg", facts::ALL);
        let s = w.finish();
        assert!(s.is_inline());
        assert_eq!(s, "abcdefg");
        assert!(s.is_ascii() && s.is_json_safe());
    }

    #[test]
    #[should_panic(expected = "writer overflow")]
    fn str_writer_refuses_inline_overflow() {
        let mut buf = fmt_rt::InlineBuf::uninit();
        let mut w = fmt_rt::Writer::new(5, &mut buf);
        w.write_unknown("abc");
        w.write_unknown("def");
    }

    /// Finishing short panics, and frees the allocation while unwinding
    /// (Miri reports a leak otherwise).
    #[test]
    #[should_panic(expected = "writer underflow")]
    fn str_writer_refuses_underflow() {
        let mut buf = fmt_rt::InlineBuf::uninit();
        let mut w = fmt_rt::Writer::new(40, &mut buf);
        w.write_unknown("short");
        drop(w.finish());
    }

    #[test]
    #[should_panic(expected = "writer overflow")]
    fn str_writer_refuses_overflow() {
        let mut buf = fmt_rt::InlineBuf::uninit();
        let mut w = fmt_rt::Writer::new(30, &mut buf);
        w.write_unknown(&"o".repeat(31));
    }

    #[test]
    fn str_quote() {
        for s in samples() {
            let mut out = Vec::new();
            quote_str(&mut out, &Str::from(s.as_str()));
            assert_eq!(out, serde_json::to_vec(&s).unwrap());
        }
    }

    #[test]
    fn str_threads() {
        let s = Str::from("a heap string shared across threads");
        let t: Vec<_> = (0..2)
            .map(|_| {
                let s = s.clone();
                std::thread::spawn(move || {
                    let c = s.clone();
                    c.content_hash()
                })
            })
            .collect();
        for h in t {
            assert_eq!(h.join().unwrap(), s.content_hash());
        }
    }
}
