//! The "similar megabytes" workload of the interning benchmarks: 800
//! distinct 1 MiB strings of `a`s that differ only in their last three
//! bytes, so every comparison must read (nearly) the whole string. Each
//! lookup is shown beside a 1 MiB memcpy, the floor for anything that reads
//! the string once.

use std::hint::black_box;

use crate::{timed, Timed};

/// The length of each similar string.
pub const MIB: usize = 1 << 20;

/// How many distinct similar strings there are.
pub const SIMILAR: usize = 800;

/// Make `buf` the `i`-th similar string (one byte near the end differs).
///
/// ```
/// let mut a = vec![b'a'; 8];
/// let mut b = a.clone();
/// ito_bench::set_similar(&mut a, 1);
/// ito_bench::set_similar(&mut b, 2);
/// assert_ne!(a, b);
/// assert_eq!(a[..5], b[..5]);
/// ```
pub fn set_similar(buf: &mut [u8], i: usize) {
    let n = buf.len();
    buf[n - 1] = b'A' + (i % 26) as u8;
    buf[n - 2] = b'0' + (i / 26 % 10) as u8;
    buf[n - 3] = b'0' + (i / 260 % 10) as u8;
}

/// `buf` as text (the similar strings are ASCII).
pub fn as_str(buf: &[u8]) -> &str {
    std::str::from_utf8(buf).expect("ascii")
}

/// A best-of entry named `memcpy`: copy `src` into `dst`.
pub fn memcpy_entry<'a>(dst: &'a mut [u8], src: &'a [u8]) -> Timed<'a> {
    (
        "memcpy",
        Box::new(move || timed(|| dst.copy_from_slice(black_box(src)))),
    )
}

/// A best-of entry named `alloc+memcpy, kept`: copy `src` into a fresh
/// `Vec` and keep it in `keep`, as an interner's miss keeps its copy (so,
/// unlike [`alloc_memcpy_entry`], the allocator cannot hand back the same
/// warm block every time). The floor for a 1 MiB miss.
///
/// ```
/// let src = vec![1u8; 64];
/// let mut keep = Vec::new();
/// let (name, mut run) = ito_bench::alloc_keep_entry(&src, &mut keep);
/// assert_eq!(name, "alloc+memcpy, kept");
/// run();
/// drop(run);
/// assert_eq!(keep.len(), 1);
/// ```
pub fn alloc_keep_entry<'a>(src: &'a [u8], keep: &'a mut Vec<Vec<u8>>) -> Timed<'a> {
    (
        "alloc+memcpy, kept",
        Box::new(move || {
            let mut copy = Vec::new();
            let t = timed(|| copy = black_box(black_box(src).to_vec()));
            keep.push(copy);
            t
        }),
    )
}

/// A best-of entry named `alloc+memcpy`: copy `src` into a fresh `Vec`.
pub fn alloc_memcpy_entry(src: &[u8]) -> Timed<'_> {
    (
        "alloc+memcpy",
        Box::new(move || {
            timed(|| {
                black_box(black_box(src).to_vec());
            })
        }),
    )
}
