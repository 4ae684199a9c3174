//! Allocation claims, checked with a counting global allocator: `unquote`
//! of a literal without escapes allocates nothing, and quoting/unescaping
//! into a `Vec` with room allocates nothing.

use std::alloc::{GlobalAlloc, Layout, System};
use std::borrow::Cow;
use std::cell::Cell;

struct Counting;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as ours.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCS.with(|c| c.get());
    f();
    ALLOCS.with(|c| c.get()) - before
}

#[test]
fn unquote_without_escapes_allocates_nothing() {
    let inputs: Vec<Vec<u8>> = vec![
        b"\"\"".to_vec(),
        b"\"short\"".to_vec(),
        format!("\"{}\" trailing", "long text é 中 ".repeat(200)).into_bytes(),
    ];
    for lit in &inputs {
        // Warm up detection (it caches a pointer, but allocates nothing anyway).
        let _ = ito::json::unquote(lit);
        let n = allocations(|| {
            let (v, _) = ito::json::unquote(lit).unwrap();
            assert!(matches!(v, Cow::Borrowed(_)));
        });
        assert_eq!(n, 0);
        let text = std::str::from_utf8(lit).unwrap();
        let n = allocations(|| {
            let (v, _) = ito::json::unquote_str(text).unwrap();
            assert!(matches!(v, Cow::Borrowed(_)));
        });
        assert_eq!(n, 0);
    }
    // With an escape it allocates the one String (and may grow it).
    let n = allocations(|| {
        let (v, _) = ito::json::unquote(br#""a\nb""#).unwrap();
        assert!(matches!(v, Cow::Owned(_)));
    });
    assert!(n >= 1);
}

#[test]
fn writing_into_a_vec_with_room_allocates_nothing() {
    let text = "plain ascii and \"quotes\" and é".repeat(50);
    let mut out = Vec::with_capacity(64 * 1024);
    let n = allocations(|| {
        for _ in 0..10 {
            out.clear();
            ito::json::quote(&mut out, &text);
            ito::json::quote(&mut out, "tiny");
            let copy = out.clone(); // one allocation, counted below
            out.clear();
            ito::json::unescape(&mut out, &copy[1..copy.len() - 1 - 6]).unwrap();
        }
    });
    assert_eq!(n, 10, "only the explicit clones allocate");
}
