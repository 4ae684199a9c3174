//! Hash-flooding keys for the interner tests: keys whose seeded XXH3 hashes
//! agree on their low bits, as an attacker who knows the seed would craft.

/// The seed the attacker "knows" in the adversarial tests.
pub(crate) const SEED: u64 = 0x0005_eed0_fa11;

/// The first `count` keys `{prefix}{n}` (n = 0, 1, 2, ...) whose XXH3-64
/// hash under `seed` has its low `bits` bits zero. A table that addresses
/// buckets (or probe groups) with those bits starts every one of them in
/// the same place while it has at most 2^`bits` of them. Brute force:
/// about 2^`bits` candidates per key.
pub(crate) fn colliding_keys(prefix: &str, seed: u64, bits: u32, count: usize) -> Vec<String> {
    let mask = (1u64 << bits) - 1;
    let mut out = Vec::with_capacity(count);
    let mut n = 0u64;
    while out.len() < count {
        let key = format!("{prefix}{n}");
        if xxhash_rust::xxh3::xxh3_64_with_seed(key.as_bytes(), seed) & mask == 0 {
            out.push(key);
        }
        n += 1;
    }
    out
}
