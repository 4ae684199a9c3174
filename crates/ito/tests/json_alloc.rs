//! Allocation claims, checked with a counting global allocator: `unquote`
//! of a literal without escapes allocates nothing, and quoting/unescaping
//! into a `Vec` with room allocates nothing.

mod common;

use common::alloc::allocations;
use std::borrow::Cow;

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

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
        let ((), n) = allocations(|| {
            let (v, _) = ito::json::unquote(lit).unwrap();
            assert!(matches!(v, Cow::Borrowed(_)));
        });
        assert_eq!(n, 0);
        let text = std::str::from_utf8(lit).unwrap();
        let ((), n) = allocations(|| {
            let (v, _) = ito::json::unquote_str(text).unwrap();
            assert!(matches!(v, Cow::Borrowed(_)));
        });
        assert_eq!(n, 0);
    }
    // With an escape it allocates the one String (and may grow it).
    let ((), n) = allocations(|| {
        let (v, _) = ito::json::unquote(br#""a\nb""#).unwrap();
        assert!(matches!(v, Cow::Owned(_)));
    });
    assert!(n >= 1);
}

#[test]
fn writing_into_a_vec_with_room_allocates_nothing() {
    let text = "plain ascii and \"quotes\" and é".repeat(50);
    let mut out = Vec::with_capacity(64 * 1024);
    let ((), n) = allocations(|| {
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
