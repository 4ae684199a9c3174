//! Allocation counts, proven with a counting global allocator: 0 allocations
//! for results up to the inline capacity (23 bytes), exactly 1 above it, for
//! `format!`, `concat!`, `Str::concat`, `Str::join` and `StrBuf::freeze`.
//!
//! Counts are per thread (see `common::alloc`), so the test
//! harness running tests in parallel cannot disturb them. `format!`'s
//! scratch for rendered pieces is a 256-byte stack buffer spilling into a
//! thread-local `Vec`; tests that render more than 256 bytes warm that
//! `Vec` up with one call first and then assert the steady state.

mod common;

use common::alloc::allocations;
use ito::{Str, StrBuf};

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

fn expected(len: usize) -> usize {
    usize::from(len > ito::str::INLINE_CAP)
}

#[test]
fn format_str_pieces() {
    let long = "x".repeat(300);
    for n in 0..=300 {
        let piece = &long[..n];
        let (s, allocs) = allocations(|| ito::format!("{piece}"));
        assert_eq!(s, piece);
        assert_eq!(allocs, expected(n), "format!(\"{{piece}}\") len {n}");
        let (s, allocs) = allocations(|| ito::format!("hello, {}", piece));
        assert_eq!(s.len(), n + 7);
        assert_eq!(allocs, expected(n + 7), "format! hello len {}", n + 7);
    }
}

#[test]
fn format_mixed_pieces() {
    let name = String::from("ito");
    let tag = Str::from("a heap Str, longer than 23");
    for n in [0u64, 7, 42, 1_000_000, u64::MAX] {
        for k in [-5i32, 0, 123456] {
            let std_s = std::format!("{name}:{n}:{k}:{}:{:?}:{:>6}:{:.2}", 'c', "q", "r", 1.5);
            let (s, allocs) = allocations(|| {
                ito::format!("{name}:{n}:{k}:{}:{:?}:{:>6}:{:.2}", 'c', "q", "r", 1.5)
            });
            assert_eq!(s, std_s.as_str());
            assert_eq!(allocs, expected(std_s.len()), "{std_s}");
            let (s, allocs) = allocations(|| ito::format!("{tag}/{n}"));
            assert_eq!(s, std::format!("{tag}/{n}").as_str());
            assert_eq!(allocs, 1);
        }
    }
}

#[test]
fn format_large_rendered_piece_steady_state() {
    let big = "y\"".repeat(400); // Debug-rendered: 1200+ bytes, spills
    let _warm = ito::format!("{big:?}");
    for _ in 0..3 {
        let (s, allocs) = allocations(|| ito::format!("{big:?}!"));
        assert_eq!(s, std::format!("{big:?}!").as_str());
        assert_eq!(allocs, 1, "after warm-up the scratch must not allocate");
    }
}

#[test]
fn concat_macro() {
    let long = "z".repeat(100);
    for n in 0..=100 {
        let p = &long[..n];
        let (s, allocs) = allocations(|| ito::concat!("ab", p, 'c', 12));
        assert_eq!(s.len(), n + 5);
        assert_eq!(allocs, expected(n + 5));
    }
}

#[test]
fn str_concat_and_join() {
    let words: Vec<String> = (0..40).map(|i| "w".repeat(i % 7)).collect();
    for k in 0..=16 {
        let items: Vec<&str> = words[..k].iter().map(String::as_str).collect();
        let want = items.join(", ");
        let (s, allocs) = allocations(|| Str::join(", ", items.iter()));
        assert_eq!(s, want.as_str());
        assert_eq!(allocs, expected(want.len()), "join of {k} items");
        let want = items.concat();
        let (s, allocs) = allocations(|| Str::concat(&items));
        assert_eq!(s, want.as_str());
        assert_eq!(allocs, expected(want.len()), "concat of {k} items");
    }
}

#[test]
fn str_buf_freeze() {
    for n in 0..=200usize {
        let piece = "é".repeat(n / 2) + &"a".repeat(n % 2);
        // Exact capacity: one allocation above the inline capacity (the
        // buffer itself), none for freeze.
        let (s, allocs) = allocations(|| {
            let mut b = StrBuf::with_capacity(piece.len());
            b.push_str(&piece);
            b.freeze()
        });
        assert_eq!(s, piece.as_str());
        assert_eq!(allocs, expected(n), "StrBuf len {n}");
        // Freezing alone never allocates.
        let mut b = StrBuf::new();
        b.push_str(&piece);
        let (s, allocs) = allocations(|| b.freeze());
        assert_eq!(s, piece.as_str());
        assert_eq!(allocs, 0);
    }
}

#[test]
fn from_and_clone() {
    for n in [0, 1, 23, 24, 64, 1000] {
        let src = "k".repeat(n);
        let (s, allocs) = allocations(|| Str::from(src.as_str()));
        assert_eq!(allocs, expected(n));
        let (c, allocs) = allocations(|| s.clone());
        assert_eq!(allocs, 0);
        assert_eq!(c, s);
        let (_, allocs) = allocations(|| Str::from_static("static text of any length at all"));
        assert_eq!(allocs, 0);
    }
}

#[test]
fn counter_sees_allocations() {
    // Sanity: the counter itself works (std::format! of a long result
    // allocates), so the zeros above mean something.
    let long = "x".repeat(100);
    let (s, allocs) = allocations(|| std::format!("{long}{long}"));
    assert_eq!(s.len(), 200);
    assert!(allocs >= 1);
}

#[test]
fn join_beyond_stack_items() {
    // More than 16 items spill into a temporary Vec of the items: the
    // documented cost is that one extra allocation, the string is still one.
    let items: Vec<String> = (0..40).map(|i| i.to_string()).collect();
    let want = items.join("+");
    let (s, allocs) = allocations(|| Str::join("+", items.iter()));
    assert_eq!(s, want.as_str());
    assert_eq!(allocs, 2);
}
