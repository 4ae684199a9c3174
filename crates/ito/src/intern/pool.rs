//! [`Pool`]: collectable interning, in the spirit of Go's `unique` package.
//!
//! Each distinct live string has one heap entry — a header (reference
//! count, stored table hash, length, shard, owning pool) followed by the
//! bytes — and [`Interned`] is a pointer to it. Shards (chosen by hash bits)
//! hold an open-addressing table of entry pointers behind an `RwLock`.
//!
//! ```text
//! intern(s): read-lock shard, find entry (stored hash, len, bytes)
//!            hit: CAS refs n -> n+1, only from n > 0        (revive)
//!            miss or refs == 0 (entry is dying): write-lock,
//!              find again; live hit -> as above; dying entry -> replace
//!              its slot with a fresh entry; absent -> insert a fresh one
//! drop(h):   refs.fetch_sub(1) == 1 → write-lock the entry's shard,
//!            remove the slot holding *this pointer* (probe from the stored
//!            hash: no rehash), unlock, free the entry
//! ```
//! A dying entry (count 0) is never handed out again: the CAS only succeeds
//! from a positive count. Other threads touch entries only while holding the
//! shard lock, and the dropper frees after taking the write lock, so nobody
//! can be reading it. `tests/loom_pool.rs` model-checks this protocol
//! with loom, on this code (see the imports below). A probe run longer
//! than [`MAX_CHAIN`](super::MAX_CHAIN) switches the shard to keyed
//! SipHash-1-3, as in the interner.
//!
//! Not built: lock-free hits. A hit takes the shard's read lock (shared, but
//! an atomic read-modify-write on the lock word); that is what keeps
//! reclaiming entries simple. The table resizes one shard at a time
//! (1/16 of the entries), reading stored hashes only.

use std::alloc::{self, Layout};
use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::{BuildHasher, Hash, Hasher};
use std::ops::Deref;
use std::ptr::{self, NonNull};
// The reference-count/lock protocol is model-checked with loom
// (`tests/loom_pool.rs`, built with `--cfg loom`): under that cfg the pool's
// atomics, locks and `Arc` are loom's, so loom runs this very code.
#[cfg(loom)]
use loom::sync::{
    atomic::{fence, AtomicU64, AtomicUsize, Ordering},
    Arc, RwLock, RwLockReadGuard, RwLockWriteGuard,
};
#[cfg(not(loom))]
use std::sync::{
    atomic::{fence, AtomicU64, AtomicUsize, Ordering},
    Arc, RwLock, RwLockReadGuard, RwLockWriteGuard,
};

use super::shard::MAX_CHAIN;

const SHARDS: usize = 16;

#[repr(C)]
struct Header {
    refs: AtomicUsize,
    /// Hash the table indexes this entry by (XXH3, or SipHash after the
    /// shard switched). Read and written only under the shard lock.
    hash: AtomicU64,
    len: usize,
    shard: usize,
    pool: Arc<Inner>,
}

/// Tombstone marker in a table slot (never a real, aligned entry pointer).
const TOMB: *mut Header = std::ptr::dangling_mut::<Header>();

struct Table {
    slots: Box<[*mut Header]>,
    live: usize,
    used: usize,
    sip: Option<RandomState>,
}

// SAFETY: the table owns no entries (handles do); its pointers are only
// dereferenced under the shard lock while the entries are alive.
unsafe impl Send for Table {}
// SAFETY: as above.
unsafe impl Sync for Table {}

struct Inner {
    shards: Box<[RwLock<Table>]>,
}

#[inline]
fn entry_layout(len: usize) -> (Layout, usize) {
    let (layout, offset) = Layout::new::<Header>()
        .extend(Layout::array::<u8>(len).expect("string too large"))
        .expect("string too large");
    (layout.pad_to_align(), offset)
}

/// Bytes of the entry at `p`.
///
/// # Safety
/// `p` must point to a live entry.
#[inline]
unsafe fn entry_bytes<'a>(p: *const Header) -> &'a [u8] {
    // SAFETY: a live entry holds `len` bytes right after the header.
    unsafe {
        let len = (*p).len;
        let offset = entry_layout(len).1;
        std::slice::from_raw_parts(p.cast::<u8>().add(offset), len)
    }
}

impl Table {
    fn new() -> Table {
        Table {
            slots: vec![ptr::null_mut(); 8].into_boxed_slice(),
            live: 0,
            used: 0,
            sip: None,
        }
    }

    #[inline]
    fn index_hash(&self, hash: u64, key: &[u8]) -> u64 {
        match &self.sip {
            None => hash,
            Some(sip) => sip.hash_one(key),
        }
    }

    /// Slot index of the entry equal to `key`, and the probe length.
    #[inline]
    fn find(&self, h: u64, key: &[u8]) -> (Option<usize>, usize) {
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        let mut run = 0;
        loop {
            let p = self.slots[i];
            if p.is_null() {
                return (None, run);
            }
            if p != TOMB {
                // SAFETY: non-tombstone slots hold live entries: an entry is
                // removed from its slot under the write lock before it is
                // freed, and we hold at least a read lock.
                let hit =
                    unsafe { (*p).hash.load(Ordering::Relaxed) == h && entry_bytes(p) == key };
                if hit {
                    return (Some(i), run);
                }
            }
            run += 1;
            i = (i + 1) & mask;
        }
    }

    fn place(&mut self, p: *mut Header, h: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        let mut run = 0;
        while !self.slots[i].is_null() && self.slots[i] != TOMB {
            i = (i + 1) & mask;
            run += 1;
        }
        if self.slots[i].is_null() {
            self.used += 1;
        }
        self.slots[i] = p;
        self.live += 1;
        run
    }

    fn rebuild(&mut self, capacity: usize) {
        let old = std::mem::replace(
            &mut self.slots,
            vec![ptr::null_mut(); capacity].into_boxed_slice(),
        );
        self.live = 0;
        self.used = 0;
        for p in old.iter().copied() {
            if !p.is_null() && p != TOMB {
                // SAFETY: live entry, write lock held.
                let h = unsafe { (*p).hash.load(Ordering::Relaxed) };
                self.place(p, h);
            }
        }
    }

    /// Insert a fresh entry; may resize or switch to SipHash.
    fn insert(&mut self, p: *mut Header, h: u64) {
        if (self.used + 1) * 4 > self.slots.len() * 3 {
            let capacity = ((self.live + 1) * 2).next_power_of_two().max(8);
            self.rebuild(capacity);
        }
        let run = self.place(p, h);
        if run > MAX_CHAIN && self.sip.is_none() {
            self.switch_to_sip();
        }
    }

    #[cold]
    fn switch_to_sip(&mut self) {
        let sip = RandomState::new();
        for p in self.slots.iter().copied() {
            if !p.is_null() && p != TOMB {
                // SAFETY: live entry, write lock held.
                unsafe {
                    (*p).hash
                        .store(sip.hash_one(entry_bytes(p)), Ordering::Relaxed)
                };
            }
        }
        self.sip = Some(sip);
        let capacity = self.slots.len();
        self.rebuild(capacity);
    }

    fn remove(&mut self, p: *mut Header) {
        let mask = self.slots.len() - 1;
        // SAFETY: the caller holds the write lock and `p` is not yet freed.
        let mut i = unsafe { (*p).hash.load(Ordering::Relaxed) } as usize & mask;
        loop {
            let q = self.slots[i];
            if q.is_null() {
                return; // replaced by a fresh entry while dying
            }
            if q == p {
                self.slots[i] = TOMB;
                self.live -= 1;
                return;
            }
            i = (i + 1) & mask;
        }
    }
}

/// A collectable intern pool: [`Pool::intern`] returns an [`Interned`]
/// handle; equal strings interned while a handle is alive share one
/// allocation, and the entry is freed when its last handle drops.
///
/// `Pool` is a cheap, clonable handle (`Arc` inside); entries keep the pool
/// alive, so handles may outlive every `Pool` value.
///
/// ```
/// let pool = ito::Pool::new();
/// let a = pool.intern("hello");
/// let b = pool.intern("hello");
/// assert_eq!(a, b);                       // same entry: pointer equality
/// assert!(ito::Interned::ptr_eq(&a, &b));
/// assert_eq!(pool.len(), 1);
/// drop((a, b));
/// assert_eq!(pool.len(), 0);              // freed with its last handle
/// ```
#[derive(Clone)]
pub struct Pool {
    inner: Arc<Inner>,
}

impl Default for Pool {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pool").field("len", &self.len()).finish()
    }
}

fn read(lock: &RwLock<Table>) -> RwLockReadGuard<'_, Table> {
    lock.read().unwrap_or_else(|e| e.into_inner())
}

fn write(lock: &RwLock<Table>) -> RwLockWriteGuard<'_, Table> {
    lock.write().unwrap_or_else(|e| e.into_inner())
}

/// Take a reference on a live entry; fails if it is dying (count 0).
#[inline]
fn try_acquire(p: *mut Header) -> bool {
    // SAFETY: called under the shard lock with `p` in the table, so the
    // entry is not freed yet.
    let refs = unsafe { &(*p).refs };
    let mut n = refs.load(Ordering::Relaxed);
    while n > 0 {
        assert!(n < usize::MAX / 2, "Interned reference count overflow");
        match refs.compare_exchange_weak(n, n + 1, Ordering::Acquire, Ordering::Relaxed) {
            Ok(_) => return true,
            Err(actual) => n = actual,
        }
    }
    false
}

impl Pool {
    /// An empty pool.
    ///
    /// ```
    /// assert!(ito::Pool::new().is_empty());
    /// ```
    pub fn new() -> Self {
        Pool {
            inner: Arc::new(Inner {
                shards: (0..SHARDS).map(|_| RwLock::new(Table::new())).collect(),
            }),
        }
    }

    /// The handle of `s`: an existing live entry, or a new one.
    ///
    /// ```
    /// let pool = ito::Pool::new();
    /// let a = pool.intern("x");
    /// assert_eq!(&*a, "x");
    /// assert_eq!(pool.intern("x"), a);
    /// ```
    pub fn intern(&self, s: &str) -> Interned {
        let key = s.as_bytes();
        let hash = crate::hash::hash_bytes(key);
        let shard = (hash >> 48) as usize & (SHARDS - 1);
        let lock = &self.inner.shards[shard];
        {
            let table = read(lock);
            let h = table.index_hash(hash, key);
            if let (Some(i), _) = table.find(h, key) {
                let p = table.slots[i];
                if try_acquire(p) {
                    return Interned::acquired(p);
                }
            }
        }
        let mut table = write(lock);
        let h = table.index_hash(hash, key);
        let (found, _) = table.find(h, key);
        if let Some(i) = found {
            let p = table.slots[i];
            if try_acquire(p) {
                return Interned::acquired(p);
            }
            // Dying entry: its dropper will find its slot taken and simply
            // free it. Hand out a fresh entry in its place.
            let fresh = self.new_entry(key, h, shard);
            table.slots[i] = fresh.as_ptr();
            return Interned { ptr: fresh };
        }
        let fresh = self.new_entry(key, h, shard);
        table.insert(fresh.as_ptr(), h);
        Interned { ptr: fresh }
    }

    /// The handle of `s` if a live entry exists; never inserts.
    ///
    /// ```
    /// let pool = ito::Pool::new();
    /// assert!(pool.get("x").is_none());
    /// let a = pool.intern("x");
    /// assert_eq!(pool.get("x"), Some(a));
    /// ```
    pub fn get(&self, s: &str) -> Option<Interned> {
        let key = s.as_bytes();
        let hash = crate::hash::hash_bytes(key);
        let shard = (hash >> 48) as usize & (SHARDS - 1);
        let table = read(&self.inner.shards[shard]);
        let h = table.index_hash(hash, key);
        let i = table.find(h, key).0?;
        let p = table.slots[i];
        try_acquire(p).then(|| Interned::acquired(p))
    }

    fn new_entry(&self, key: &[u8], h: u64, shard: usize) -> NonNull<Header> {
        let (layout, offset) = entry_layout(key.len());
        // SAFETY: the layout is non-zero-sized (it contains a Header).
        let raw = unsafe { alloc::alloc(layout) };
        let Some(p) = NonNull::new(raw.cast::<Header>()) else {
            alloc::handle_alloc_error(layout)
        };
        // SAFETY: `p` is a fresh allocation of `layout`: a header followed
        // by `key.len()` bytes at `offset`.
        unsafe {
            p.as_ptr().write(Header {
                refs: AtomicUsize::new(1),
                hash: AtomicU64::new(h),
                len: key.len(),
                shard,
                pool: Arc::clone(&self.inner),
            });
            ptr::copy_nonoverlapping(key.as_ptr(), raw.add(offset), key.len());
        }
        p
    }

    /// Number of entries (live strings, plus any whose last handle is
    /// being dropped right now).
    ///
    /// ```
    /// let pool = ito::Pool::new();
    /// let _a = pool.intern("a");
    /// assert_eq!(pool.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.inner.shards.iter().map(|s| read(s).live).sum()
    }

    /// `true` if the pool holds no entries.
    ///
    /// ```
    /// assert!(ito::Pool::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A handle to a string in a [`Pool`]. Compares and hashes by pointer
/// (O(1)), dereferences to `str`, and frees its entry when the last handle
/// for it drops. 8 bytes.
///
/// ```
/// use std::collections::HashSet;
/// let pool = ito::Pool::new();
/// let set: HashSet<ito::Interned> = ["a", "b", "a"].iter().map(|s| pool.intern(s)).collect();
/// assert_eq!(set.len(), 2);
/// assert_eq!(std::mem::size_of::<ito::Interned>(), 8);
/// ```
pub struct Interned {
    ptr: NonNull<Header>,
}

// SAFETY: the entry's bytes are immutable and its count is atomic; the
// pool behind it is Sync.
unsafe impl Send for Interned {}
// SAFETY: as above.
unsafe impl Sync for Interned {}

impl Interned {
    /// Wrap an entry pointer on which a count was just acquired.
    #[inline]
    fn acquired(p: *mut Header) -> Interned {
        Interned {
            ptr: NonNull::new(p).expect("table slots hold non-null entries"),
        }
    }

    /// The string.
    ///
    /// ```
    /// let pool = ito::Pool::new();
    /// assert_eq!(pool.intern("abc").as_str(), "abc");
    /// ```
    #[inline]
    pub fn as_str(&self) -> &str {
        // SAFETY: we hold a reference, so the entry is alive; its bytes
        // were copied from a `&str`.
        unsafe { std::str::from_utf8_unchecked(entry_bytes(self.ptr.as_ptr())) }
    }

    /// `true` if both handles point to the same entry (what `==` does).
    ///
    /// ```
    /// let pool = ito::Pool::new();
    /// let other = ito::Pool::new();
    /// assert!(!ito::Interned::ptr_eq(&pool.intern("a"), &other.intern("a")));
    /// ```
    #[inline]
    pub fn ptr_eq(a: &Self, b: &Self) -> bool {
        a.ptr == b.ptr
    }
}

impl Clone for Interned {
    #[inline]
    fn clone(&self) -> Self {
        // SAFETY: we hold a reference, so the entry is alive.
        let old = unsafe { (*self.ptr.as_ptr()).refs.fetch_add(1, Ordering::Relaxed) };
        assert!(old < usize::MAX / 2, "Interned reference count overflow");
        Interned { ptr: self.ptr }
    }
}

impl Drop for Interned {
    fn drop(&mut self) {
        let p = self.ptr.as_ptr();
        // SAFETY: we hold a reference until this decrement.
        if unsafe { (*p).refs.fetch_sub(1, Ordering::Release) } != 1 {
            return;
        }
        fence(Ordering::Acquire);
        // The count is 0: no one can acquire the entry again (acquires only
        // succeed from a positive count), but it may still sit in its slot.
        // SAFETY: the entry stays allocated until we free it below; the
        // pool is kept alive by the entry's own `Arc`.
        let (shard, len) = unsafe { ((*p).shard, (*p).len) };
        {
            // SAFETY: as above.
            let pool = unsafe { &(*p).pool };
            let mut table = write(&pool.shards[shard]);
            table.remove(p);
        }
        // SAFETY: the entry is out of the table and the write lock was
        // held, so no reader still looks at it; nobody else has a count.
        // Dropping the header drops the entry's `Arc<Inner>` (perhaps the
        // last one) after the lock guard above is gone.
        unsafe {
            ptr::drop_in_place(p);
            alloc::dealloc(p.cast::<u8>(), entry_layout(len).0);
        }
    }
}

impl Deref for Interned {
    type Target = str;

    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Interned {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Interned {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.ptr == other.ptr
    }
}

impl Eq for Interned {}

impl PartialEq<str> for Interned {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl Hash for Interned {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.ptr.hash(state);
    }
}

impl fmt::Debug for Interned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Interned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revive_and_free() {
        let pool = Pool::new();
        let a = pool.intern("k");
        let b = a.clone();
        drop(a);
        assert_eq!(pool.len(), 1);
        let c = pool.intern("k");
        assert_eq!(b, c);
        drop((b, c));
        assert!(pool.is_empty());
        let d = pool.intern("k");
        assert_eq!(&*d, "k");
        assert_eq!(pool.len(), 1);
    }

    #[test]
    fn colliding_hashes_switch_the_shard_to_siphash() {
        // Entries forced onto one hash (as a flooding attacker with a known
        // seed would) make one probe run; past MAX_CHAIN the shard rehashes
        // with SipHash, and removal still finds every entry by its stored
        // (now SipHash) value.
        let pool = Pool::new();
        let mut handles = Vec::new();
        {
            let mut table = write(&pool.inner.shards[0]);
            for i in 0..100 {
                let key = format!("collide{i}");
                let h = table.index_hash(0, key.as_bytes());
                let p = pool.new_entry(key.as_bytes(), h, 0);
                table.insert(p.as_ptr(), h);
                handles.push(Interned { ptr: p });
            }
            assert!(table.sip.is_some(), "long probe run switched to SipHash");
            assert_eq!(table.live, 100);
            for h in &handles {
                let key = h.as_str().as_bytes();
                let (found, run) = table.find(table.index_hash(0, key), key);
                assert_eq!(found.map(|i| table.slots[i]), Some(h.ptr.as_ptr()));
                assert!(run <= MAX_CHAIN, "probe run {run} after the switch");
            }
        }
        drop(handles);
        assert!(pool.is_empty(), "every entry removed via its stored hash");
    }

    /// Two keys of the same length forced onto one 64-bit hash (a real
    /// 64-bit collision cannot be searched for in a test): each must find
    /// its own entry, never the other's.
    #[test]
    fn same_hash_and_length_still_compares_bytes() {
        let pool = Pool::new();
        let mut handles = Vec::new();
        {
            let mut table = write(&pool.inner.shards[0]);
            for key in ["key-a", "key-b", "kez-a"] {
                let h = table.index_hash(7, key.as_bytes());
                let p = pool.new_entry(key.as_bytes(), h, 0);
                table.insert(p.as_ptr(), h);
                handles.push(Interned { ptr: p });
            }
            for h in &handles {
                let key = h.as_str().as_bytes();
                let (found, _) = table.find(table.index_hash(7, key), key);
                assert_eq!(found.map(|i| table.slots[i]), Some(h.ptr.as_ptr()));
            }
            let (found, _) = table.find(table.index_hash(7, b"key-c"), b"key-c");
            assert_eq!(found, None);
        }
        drop(handles);
        assert!(pool.is_empty());
    }

    #[test]
    fn many_keys_resize_and_tombstones() {
        let pool = Pool::new();
        for round in 0..3 {
            let handles: Vec<_> = (0..2000)
                .map(|i| pool.intern(&format!("{round}-{i}")))
                .collect();
            assert_eq!(pool.len(), 2000);
            for (i, h) in handles.iter().enumerate() {
                assert_eq!(h.as_str(), format!("{round}-{i}"));
                assert_eq!(pool.get(h), Some(h.clone()));
            }
        }
        assert!(pool.is_empty());
    }
}
