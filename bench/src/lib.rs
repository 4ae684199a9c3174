//! Shared corpus loading and harness pieces for ito's benchmarks.
//!
//! The corpora are embedded at compile time from `data/corpus/` so the
//! benchmarks never read anything outside the repository. Besides the
//! workloads, the counting allocator and the best-of runner, the printed
//! sections of the interning benches live here ([`report`], [`latency`],
//! [`similar`]) so that `intern` and `intern_local` print the same lines
//! from one source.

pub mod docs;
pub mod headline;
pub mod latency;
pub mod nostr_inputs;
pub mod report;
pub mod similar;

pub use latency::{preemptions, Growth, GROWTH_KEYS};
pub use report::{
    cpu_name, memory_datasets, memory_report, print_ratios, timed, PerEntry, Ratio, Sections,
};
pub use similar::{
    alloc_keep_entry, alloc_memcpy_entry, as_str, memcpy_entry, set_similar, MIB, SIMILAR,
};

/// twitter.json, as distributed with simdjson's `jsonexamples/`.
pub const TWITTER: &str = include_str!("../../data/corpus/twitter.json");
/// citm_catalog.json, as distributed with simdjson's `jsonexamples/`.
pub const CITM: &str = include_str!("../../data/corpus/citm_catalog.json");

/// Every string (object keys and string values) of a JSON document, in
/// document order, decoded by `ito::json::literals` (whose agreement with
/// serde_json on these corpora is a library test).
pub fn strings_of(document: &str) -> Vec<String> {
    ito::json::literals(document.as_bytes())
        .map(|literal| literal.expect("corpus is valid JSON").1.into_owned())
        .collect()
}

/// All strings of twitter.json followed by all strings of citm_catalog.json.
pub fn corpus_strings() -> Vec<String> {
    let mut all = strings_of(TWITTER);
    all.extend(strings_of(CITM));
    all
}

/// The raw JSON string literals (with quotes and escapes, as they appear in
/// the document) of twitter.json: the input of the `unquote` benchmarks.
pub fn quoted_literals_of(document: &str) -> Vec<String> {
    strings_of(document)
        .iter()
        .map(|s| serde_json::to_string(s).expect("strings serialize"))
        .collect()
}

/// Deterministic pseudo-random numbers (xorshift64*), so every benchmark
/// run sees the same inputs.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 pseudo-random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// The interning workload: `count` distinct identifiers, lengths uniform in
/// 4..=21 (mean 12.5).
pub fn identifiers(count: usize, seed: u64) -> Vec<String> {
    const FIRST: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_";
    const REST: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789";
    let mut rng = Rng(seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let len = 4 + rng.below(18) as usize;
        let mut s = String::with_capacity(len);
        s.push(FIRST[rng.below(FIRST.len() as u64) as usize] as char);
        while s.len() < len {
            s.push(REST[rng.below(REST.len() as u64) as usize] as char);
        }
        if seen.insert(s.clone()) {
            out.push(s);
        }
    }
    out
}

/// Every whitespace-separated word of every string in twitter.json.
pub fn twitter_words() -> Vec<String> {
    strings_of(TWITTER)
        .iter()
        .flat_map(|s| s.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
        .collect()
}

/// The distinct strings of `words`, in first-seen order.
pub fn distinct(words: &[String]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    words
        .iter()
        .filter(|w| seen.insert(w.as_str()))
        .cloned()
        .collect()
}

/// A global allocator that forwards to `System` and, while
/// [`count_bytes`] runs, keeps the net number of bytes allocated. A bench
/// binary installs it with
/// `#[global_allocator] static GLOBAL: ito_bench::CountingAlloc = ito_bench::CountingAlloc;`.
pub struct CountingAlloc;

static COUNTING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
static ALLOCATED: std::sync::atomic::AtomicIsize = std::sync::atomic::AtomicIsize::new(0);

impl CountingAlloc {
    fn add(delta: isize) {
        use std::sync::atomic::Ordering;
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATED.fetch_add(delta, Ordering::Relaxed);
        }
    }
}

// SAFETY: forwards every call to `System` unchanged; only adds bookkeeping.
unsafe impl std::alloc::GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        Self::add(layout.size() as isize);
        // SAFETY: same contract as ours.
        unsafe { std::alloc::System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        Self::add(layout.size() as isize);
        // SAFETY: same contract as ours.
        unsafe { std::alloc::System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        Self::add(-(layout.size() as isize));
        // SAFETY: same contract as ours.
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        Self::add(new_size as isize - layout.size() as isize);
        // SAFETY: same contract as ours.
        unsafe { std::alloc::System.realloc(ptr, layout, new_size) }
    }
}

/// Net bytes allocated while building the value `build` returns (needs
/// [`CountingAlloc`] installed as the global allocator; single-threaded
/// use).
pub fn count_bytes<T>(build: impl FnOnce() -> T) -> (T, isize) {
    use std::sync::atomic::Ordering;
    ALLOCATED.store(0, Ordering::Relaxed);
    COUNTING.store(true, Ordering::SeqCst);
    let value = build();
    COUNTING.store(false, Ordering::SeqCst);
    (value, ALLOCATED.load(Ordering::Relaxed))
}

/// A named closure that runs once and returns the time it measured.
pub type Timed<'a> = (&'a str, Box<dyn FnMut() -> std::time::Duration + 'a>);

/// Run every closure `rounds` times, interleaved, and keep the best time of
/// each: on a shared, noisy host the minimum of many alternating runs is the
/// most stable estimate of each implementation's cost.
pub fn best_of(rounds: usize, fs: &mut [Timed<'_>]) -> Vec<(String, std::time::Duration)> {
    let mut best = vec![std::time::Duration::MAX; fs.len()];
    for _ in 0..rounds {
        for (i, (_, f)) in fs.iter_mut().enumerate() {
            best[i] = best[i].min(f());
        }
    }
    fs.iter().map(|(n, _)| n.to_string()).zip(best).collect()
}

/// A uniform float in [0, 1).
fn unit(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// Length in 20..=200: 20 + a log-normal part with median 30 and p90 70
/// (sigma = ln(70/30) / 1.2816).
fn medium_len(rng: &mut Rng) -> usize {
    let (u1, u2) = (unit(rng).max(1e-12), unit(rng));
    let z = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos();
    let extra = 30.0 * (0.661 * z).exp();
    (20.0 + extra).round().clamp(20.0, 200.0) as usize
}

/// The medium-text set: lengths 20–200 B (median ≈ 50,
/// p90 ≈ 90), 8 % of strings with 1–3 escapes (`"`, `\`, `\n`, `\t`, BEL)
/// at random positions, 0.4 % with one 2–4-byte UTF-8 character.
pub fn medium_text(count: usize, seed: u64) -> Vec<String> {
    const ALPHA: &[u8] =
        b"abcdefghijklmnopqrstuvwxyz      ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,:;!?'-()/";
    const ESCAPES: &[char] = &['"', '\\', '\n', '\t', '\u{7}'];
    const WIDE: &[char] = &['é', 'ß', '€', '中', '😀', '🎉'];
    let mut rng = Rng(seed);
    (0..count)
        .map(|_| {
            let len = medium_len(&mut rng);
            let mut s: Vec<char> = (0..len)
                .map(|_| ALPHA[rng.below(ALPHA.len() as u64) as usize] as char)
                .collect();
            let roll = rng.below(1000);
            if roll < 80 {
                for _ in 0..1 + rng.below(3) {
                    let at = rng.below(s.len() as u64) as usize;
                    s[at] = ESCAPES[rng.below(ESCAPES.len() as u64) as usize];
                }
            } else if roll < 84 {
                let at = rng.below(s.len() as u64) as usize;
                s[at] = WIDE[rng.below(WIDE.len() as u64) as usize];
            }
            s.into_iter().collect()
        })
        .collect()
}
