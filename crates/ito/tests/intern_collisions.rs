//! Two different strings of the same length whose hashes agree in every
//! bit an interner compares before the bytes: each interner must still
//! give them different symbols. A random seed makes such pairs rare among
//! ordinary keys, so a lookup that trusted hash and length alone would pass
//! every other test by luck; here the pairs are found on purpose.
//!
//! The hash is the process seed's XXH3-64, which [`ito::Str::content_hash`]
//! exposes and which `LocalInterner::new()`, `Interner::new()` and its
//! `Frozen` use. A birthday search over same-length keys finds a pair with
//! equal low 32 bits (what `LocalInterner` stores, and `Frozen` compares
//! bits 0..31 of) in about 2^16 keys, and a pair with equal bits 33..47
//! (the tag `Interner` keeps in a slot; with one shard and one bucket
//! nothing else separates them) in about 2^8. `Pool` compares all 64 bits:
//! its unit tests force a shared hash instead.

use std::collections::HashMap;

use ito::intern::{Interner, LocalInterner};
use ito::Str;

/// The first two distinct keys of `len` bytes whose hashes agree under
/// `mask`, as `Str`s.
fn colliding_pair(len: usize, mask: u64) -> (Str, Str) {
    let mut seen: HashMap<u64, Str> = HashMap::new();
    for i in 0u64.. {
        // Base-62 digits of `i`, padded to `len` bytes: distinct keys of
        // exactly `len` bytes, as long as `len` has room for the counter.
        let mut key = vec![b'~'; len];
        let mut n = i;
        for b in key.iter_mut().rev() {
            *b = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                [(n % 62) as usize];
            n /= 62;
            if n == 0 {
                break;
            }
        }
        assert_eq!(n, 0, "{len} bytes ran out of keys");
        let s = Str::from(std::str::from_utf8(&key).expect("ASCII"));
        let h = s.content_hash() & mask;
        if let Some(other) = seen.get(&h) {
            return (other.clone(), s);
        }
        seen.insert(h, s);
    }
    unreachable!()
}

/// Lengths that cover each short-compare class (1–3, 4–7, 8–15, 16–32
/// bytes) and the longer path.
const LENGTHS: [usize; 6] = [3, 4, 9, 16, 31, 48];

const LOW32: u64 = 0xffff_ffff;
const TAG16: u64 = 0xfffe_0000_0000;

fn check_pair(a: &Str, b: &Str, mask: u64) {
    assert_ne!(a, b);
    assert_eq!(a.len(), b.len());
    assert_eq!(a.content_hash() & mask, b.content_hash() & mask);
}

#[test]
fn local_interner_tells_apart_keys_with_the_same_hash_and_length() {
    for len in LENGTHS {
        let (a, b) = colliding_pair(len, LOW32);
        check_pair(&a, &b, LOW32);
        // Both layouts (segmented until 1,024 entries, then reserved), by
        // `&str` and by `Str` (the cached-hash path).
        for filler in [0usize, 2_000] {
            let mut interner = LocalInterner::new();
            for i in 0..filler {
                interner.intern(&format!("filler {i}"));
            }
            let sa = interner.intern(a.as_str());
            assert_eq!(interner.get(b.as_str()), None, "{a:?} vs {b:?}");
            assert_eq!(interner.get_str(&b), None, "{a:?} vs {b:?}");
            let sb = interner.intern_str(&b);
            assert_ne!(sa, sb, "{a:?} vs {b:?}");
            assert_eq!(interner.resolve(sa), a.as_str());
            assert_eq!(interner.resolve(sb), b.as_str());
            assert_eq!(interner.get(a.as_str()), Some(sa));
            assert_eq!(interner.intern(b.as_str()), sb);
        }
    }
}

#[test]
fn frozen_tells_apart_keys_with_the_same_hash_and_length() {
    for len in LENGTHS {
        let (a, b) = colliding_pair(len, LOW32);
        check_pair(&a, &b, LOW32);
        let interner = Interner::new();
        let sa = interner.intern(a.as_str());
        let frozen = interner.freeze();
        assert_eq!(frozen.get(b.as_str()), None, "{a:?} vs {b:?}");
        assert_eq!(frozen.get(a.as_str()), Some(sa));

        let interner = Interner::new();
        let sb = interner.intern(b.as_str());
        let sa = interner.intern(a.as_str());
        let frozen = interner.freeze();
        assert_eq!(frozen.get(a.as_str()), Some(sa), "{a:?} vs {b:?}");
        assert_eq!(frozen.get(b.as_str()), Some(sb), "{a:?} vs {b:?}");
    }
}

#[test]
fn interner_tells_apart_keys_with_the_same_tag_and_length() {
    for len in LENGTHS {
        let (a, b) = colliding_pair(len, TAG16);
        check_pair(&a, &b, TAG16);
        // One shard and one bucket: the slot tag is all that separates
        // the two before the bytes.
        let interner = Interner::builder().shards(1).build();
        let sa = interner.intern(a.as_str());
        assert_eq!(interner.get(b.as_str()), None, "{a:?} vs {b:?}");
        let sb = interner.intern(b.as_str());
        assert_ne!(sa, sb, "{a:?} vs {b:?}");
        assert_eq!(interner.resolve(sa), a.as_str());
        assert_eq!(interner.resolve(sb), b.as_str());
        assert_eq!(interner.get(a.as_str()), Some(sa));
        assert_eq!(interner.intern_str(&b), sb);
    }
}
