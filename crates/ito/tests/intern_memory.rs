//! Memory per entry, measured with a counting global allocator, and a
//! check that `Interner::memory_usage` reports what was really allocated.
//! Bytes are counted on the test's thread (see `common::alloc`); the
//! interner allocates only on the thread that calls it.

mod common;

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

fn ident(i: usize) -> String {
    // 4..=21 bytes, mean 12.5, like the benchmark's identifiers.
    let len = 4 + (i.wrapping_mul(2_654_435_761) >> 7) % 18;
    let mut s = format!("i{i:x}_");
    while s.len() < len {
        s.push((b'a' + (s.len() * 7 + i) as u8 % 26) as char);
    }
    s.truncate(len.max(s.find('_').unwrap_or(0) + 1));
    s
}

#[test]
fn memory_per_entry_and_memory_usage_accounting() {
    for n in [6_000usize, 100_000] {
        let keys: Vec<String> = (0..n).map(ident).collect();
        let string_bytes: usize = keys.iter().map(String::len).sum();
        let (interner, allocated) = common::alloc::live_bytes(|| {
            let interner = ito::Interner::new();
            for k in &keys {
                interner.intern(k);
            }
            interner
        });
        let allocated = allocated as usize;
        assert_eq!(interner.len(), {
            let mut d = keys.clone();
            d.sort_unstable();
            d.dedup();
            d.len()
        });
        // memory_usage() counts the heap it owns plus the struct itself
        // (which lives on the stack here).
        let reported = interner.memory_usage();
        let heap_reported = reported - std::mem::size_of::<ito::Interner>();
        let diff = heap_reported.abs_diff(allocated);
        assert!(
            diff * 50 <= allocated,
            "memory_usage {heap_reported} vs allocated {allocated} (n={n})"
        );
        let overhead = (allocated - string_bytes) as f64 / n as f64;
        eprintln!(
            "n={n}: {:.1} B/entry total, {overhead:.1} B/entry beyond the string bytes",
            allocated as f64 / n as f64
        );
        // Module docs: 47 B (6k entries) and 39 B (100k) beyond the strings.
        assert!(overhead < 50.0, "overhead {overhead:.1} B/entry at n={n}");

        // Frozen is the compact form: well under the live table.
        let (frozen, freeze_bytes) = common::alloc::live_bytes(|| interner.freeze());
        let frozen_bytes = freeze_bytes + allocated as isize;
        let frozen_overhead = (frozen_bytes as f64 - string_bytes as f64) / n as f64;
        eprintln!("n={n}: Frozen {frozen_overhead:.1} B/entry beyond the string bytes");
        assert!(frozen_overhead < 30.0);
        assert_eq!(frozen.len(), n);
        drop(frozen);
    }
}
