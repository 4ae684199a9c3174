//! Helpers shared by the integration tests. Cargo builds every file directly
//! under `tests/` as its own test binary but not files in subdirectories, so
//! a test file opts in with `mod common;` and uses what it needs:
//!
//! - [`alloc`]: a counting global allocator, per thread, of allocations and
//!   of live bytes, read around a closure. Each binary that measures
//!   installs it with its own `#[global_allocator]` line, so binaries that
//!   only use other helpers keep the plain system allocator.
//! - [`collide`]: keys whose seeded XXH3 hashes agree on their low bits, for
//!   the hash-flooding tests of the interners.
//! - [`guard`] (unix): buffers that end right before a `PROT_NONE` page, so
//!   a read or write past the end faults.
//! - [`proptest_config`]: a proptest case count that shrinks under Miri.
//! - `signed` (feature `schnorr`): signed events from seeded keys.
//! - `loom_model` (only under `--cfg loom`): the loom driver of the model
//!   checks.

// Each test binary compiles all of `common` but uses only part of it; the
// parts a binary leaves unused would otherwise warn there.
#![allow(dead_code)]

pub(crate) mod alloc;
pub(crate) mod collide;
#[cfg(unix)]
#[path = "../../src/simd/guard.rs"]
pub(crate) mod guard;
#[cfg(loom)]
pub(crate) mod loom_model;
#[cfg(feature = "schnorr")]
pub(crate) mod signed;

use proptest::prelude::ProptestConfig;

/// `cases` proptest cases natively. Under Miri (~1000x slower) a handful of
/// cases still walks every unsafe path, and failure persistence (file
/// access, which Miri's isolation forbids) is off.
pub(crate) fn proptest_config(cases: u32) -> ProptestConfig {
    if cfg!(miri) {
        ProptestConfig {
            cases: 8,
            failure_persistence: None,
            ..ProptestConfig::default()
        }
    } else {
        ProptestConfig::with_cases(cases)
    }
}
