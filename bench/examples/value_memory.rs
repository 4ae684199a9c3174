//! The memory of a parsed document: bytes and allocations that the parsed
//! value holds (live after parsing, scratch freed), for twitter.json,
//! citm_catalog.json and canada.json in `ito::json::Value` (borrowing its
//! clean strings from the input, and owning them; and into an `Arena`,
//! whose blocks count, parsed on a fresh thread so that no spare block of
//! an earlier arena is reused), `sonic_rs::Value` and
//! `serde_json::Value`. Counted by a global allocator that wraps the
//! system's; the input itself is not counted (it is read before).
//!
//! `cargo run --release -p ito-bench --example value_memory`

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering::Relaxed};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to `System` with the same arguments;
// the counters are only statistics.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size() as isize, Relaxed) + layout.size() as isize;
        PEAK.fetch_max(live, Relaxed);
        ALLOCS.fetch_add(1, Relaxed);
        // SAFETY: forwarded as received.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Relaxed);
        // SAFETY: forwarded as received.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new: usize) -> *mut u8 {
        let live = LIVE.fetch_add(new as isize - layout.size() as isize, Relaxed) + new as isize
            - layout.size() as isize;
        PEAK.fetch_max(live, Relaxed);
        ALLOCS.fetch_add(1, Relaxed);
        // SAFETY: forwarded as received.
        unsafe { System.realloc(ptr, layout, new) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Bytes held by what `parse` returns, its peak while parsing (above
/// what was live before), and the allocations made, held or not.
fn measure<T>(parse: impl FnOnce() -> T) -> (isize, isize, usize, T) {
    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    let allocs = ALLOCS.load(Relaxed);
    let v = parse();
    let held = LIVE.load(Relaxed) - before;
    (
        held,
        PEAK.load(Relaxed) - before,
        ALLOCS.load(Relaxed) - allocs,
        v,
    )
}

fn main() {
    println!("| document | value | bytes held | peak while parsing | allocations |");
    println!("|---|---|---:|---:|---:|");
    for (name, file) in [
        ("twitter", "twitter.json"),
        ("citm", "citm_catalog.json"),
        ("canada", "canada.json"),
    ] {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/corpus/");
        let input = std::fs::read(format!("{path}{file}")).unwrap();
        let row = |what: &str, (held, peak, n): (isize, isize, usize)| {
            println!(
                "| {name} ({} B) | {what} | {held} | {peak} | {n} |",
                input.len()
            );
        };
        let (h, p, n, v) = measure(|| ito::json::Value::from_slice(&input).unwrap());
        row("ito::json::Value (borrowed)", (h, p, n));
        drop(v);
        // Joined by hand: a scope's implicit join returns when the
        // closure has returned, before the thread's exit frees its spare
        // arena blocks (a thread-local), so those frees could land in the
        // next row's count (the owned row read 630,896 B for canada in some
        // runs, 5,349,888 in others). `join` waits for the thread's exit.
        std::thread::scope(|s| {
            s.spawn(|| {
                // `Arena::new` allocates nothing: its blocks are counted
                // as the parse allocates them.
                let arena = ito::json::Arena::new();
                let (h, p, n, v) =
                    measure(|| ito::json::Value::from_slice_in(&arena, &input).unwrap());
                row("ito::json::Value (arena)", (h, p, n));
                drop(v);
            })
            .join()
            .unwrap();
        });
        let (h, p, n, v) = measure(|| ito::json::from_slice::<ito::json::Value>(&input).unwrap());
        row("ito::json::Value (owned)", (h, p, n));
        drop(v);
        let (h, p, n, v) = measure(|| sonic_rs::from_slice::<sonic_rs::Value>(&input).unwrap());
        row("sonic_rs::Value", (h, p, n));
        drop(v);
        let (h, p, n, v) = measure(|| serde_json::from_slice::<serde_json::Value>(&input).unwrap());
        row("serde_json::Value", (h, p, n));
        drop(v);
    }
}
