//! The seeded full-content hash shared by `Str` (which caches it) and the
//! interner (which stores it per entry).
//!
//! XXH3-64 over every byte of the input, keyed with a per-process random
//! seed. Hashing all bytes (not a sample, as LuaJIT does) means strings that
//! differ anywhere hash apart; the random seed means an attacker who does not
//! know the seed cannot precompute colliding keys. The interner additionally
//! falls back to SipHash-1-3 per shard if probing ever gets long.

use std::sync::atomic::{AtomicU64, Ordering};

static SEED: AtomicU64 = AtomicU64::new(0);

/// The per-process random seed (never 0 once initialised).
#[inline]
pub(crate) fn seed() -> u64 {
    let seed = SEED.load(Ordering::Relaxed);
    if seed != 0 {
        return seed;
    }
    init_seed()
}

#[cold]
fn init_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    // RandomState is seeded from the OS once per process; hashing a fixed
    // value through it gives us 64 random bits without a new dependency.
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(0x6974_6f5f_7365_6564); // "ito_seed"
    let fresh = hasher.finish() | 1;
    match SEED.compare_exchange(0, fresh, Ordering::Relaxed, Ordering::Relaxed) {
        Ok(_) => fresh,
        Err(existing) => existing,
    }
}

/// Hash every byte of `bytes` with the per-process seed.
#[inline]
pub(crate) fn hash_bytes(bytes: &[u8]) -> u64 {
    hash_bytes_with_seed(bytes, seed())
}

/// Hash every byte of `bytes` with an explicit seed (tests use a known seed
/// to build colliding keys).
#[inline]
pub(crate) fn hash_bytes_with_seed(bytes: &[u8], seed: u64) -> u64 {
    xxhash_rust::xxh3::xxh3_64_with_seed(bytes, seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_is_stable_and_nonzero() {
        assert_ne!(seed(), 0);
        assert_eq!(seed(), seed());
    }

    #[test]
    fn hash_reads_every_byte() {
        // Strings that differ only deep in the middle or at the end must hash
        // apart (LuaJIT's sampled hash does not).
        let base = vec![b'a'; 4096];
        let h = hash_bytes(&base);
        for i in [0, 1000, 2047, 4095] {
            let mut other = base.clone();
            other[i] = b'b';
            assert_ne!(hash_bytes(&other), h, "byte {i} ignored");
        }
    }

    #[test]
    fn seed_changes_hash() {
        assert_ne!(hash_bytes_with_seed(b"x", 1), hash_bytes_with_seed(b"x", 2));
    }
}
