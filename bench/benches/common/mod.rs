//! The single-threaded interners the `intern` and `intern_local` benches
//! compare, behind one trait, and the measurements both benches take of
//! each of them (criterion hit/miss, best-of entries, growth latency).
//!
//! Every helper is generic over the peer, so each measured loop is compiled
//! for one concrete table and the intern call inlines as it would when
//! written out by hand: the only dynamic calls are `best_of`'s outer call of
//! each entry and the growth loop's per-insert call, which has always gone
//! through a `Box<dyn FnMut>` (kept so the figures stay comparable).
//!
//! This file is a module of both bench binaries (`mod common;`), not a part
//! of the `ito_bench` library, because the peers are dev-dependencies.

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup};
use ito_bench::{as_str, memory_datasets, set_similar, timed, Growth, Sections, Timed};

/// string-interner's default table.
pub(crate) type SI = string_interner::DefaultStringInterner;

/// A string interner measured by the benches.
pub(crate) trait Peer {
    /// What interning returns.
    type Sym;
    /// An empty table.
    fn new() -> Self;
    /// An empty table for the growth section, which compares runs insert by
    /// insert: ito's tables get a fixed hash seed, so every run does the
    /// same work; the peers keep their random seeds (their growth work, a
    /// full rehash at fixed sizes, does not depend on it).
    fn repeatable() -> Self
    where
        Self: Sized,
    {
        Self::new()
    }
    /// The symbol of `s`, added to the table if new.
    fn intern(&mut self, s: &str) -> Self::Sym;
}

impl Peer for ito::Interner {
    type Sym = ito::Sym;
    fn new() -> Self {
        ito::Interner::new()
    }
    fn repeatable() -> Self {
        ito::Interner::builder().seed(GROWTH_SEED).build()
    }
    fn intern(&mut self, s: &str) -> ito::Sym {
        ito::Interner::intern(self, s)
    }
}

impl Peer for ito::intern::LocalInterner {
    type Sym = ito::Sym;
    fn new() -> Self {
        ito::intern::LocalInterner::new()
    }
    fn repeatable() -> Self {
        ito::intern::LocalInterner::builder()
            .seed(GROWTH_SEED)
            .build()
    }
    fn intern(&mut self, s: &str) -> ito::Sym {
        ito::intern::LocalInterner::intern(self, s)
    }
}

/// `LocalInterner` kept in its segmented layout (no reserved address
/// space): the fallback's figures beside the default's (only the
/// `intern_local` bench uses it).
#[allow(dead_code)]
pub(crate) struct Segmented(pub(crate) ito::intern::LocalInterner);

impl Peer for Segmented {
    type Sym = ito::Sym;
    fn new() -> Self {
        Segmented(
            ito::intern::LocalInterner::builder()
                .reserve_address_space(false)
                .build(),
        )
    }
    fn repeatable() -> Self {
        Segmented(
            ito::intern::LocalInterner::builder()
                .reserve_address_space(false)
                .seed(GROWTH_SEED)
                .build(),
        )
    }
    #[inline]
    fn intern(&mut self, s: &str) -> ito::Sym {
        self.0.intern(s)
    }
}

impl Peer for lasso::Rodeo {
    type Sym = lasso::Spur;
    fn new() -> Self {
        lasso::Rodeo::default()
    }
    fn intern(&mut self, s: &str) -> lasso::Spur {
        self.get_or_intern(s)
    }
}

/// The thread-safe lasso table used from one thread: the peer of the
/// thread-safe `ito::Interner`'s single-threaded figures.
impl Peer for lasso::ThreadedRodeo {
    type Sym = lasso::Spur;
    fn new() -> Self {
        lasso::ThreadedRodeo::default()
    }
    fn intern(&mut self, s: &str) -> lasso::Spur {
        self.get_or_intern(s)
    }
}

impl Peer for SI {
    type Sym = string_interner::DefaultSymbol;
    fn new() -> Self {
        SI::new()
    }
    fn intern(&mut self, s: &str) -> Self::Sym {
        self.get_or_intern(s)
    }
}

/// A fresh table holding every string of `words`.
pub(crate) fn filled<P: Peer>(words: &[String]) -> P {
    let mut t = P::new();
    words.iter().for_each(|s| {
        t.intern(s);
    });
    t
}

/// Criterion case `id`: intern every string of `words` into `t` (hits when
/// `t` already holds them).
pub(crate) fn bench_hit<P: Peer>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    id: &str,
    t: &mut P,
    words: &[String],
) {
    g.bench_function(id, |b| {
        b.iter(|| {
            for s in words {
                black_box(t.intern(s));
            }
        })
    });
}

/// Criterion case `id`: intern the distinct strings `uniq` into a fresh
/// table (every one a miss; growth included, the empty table made untimed).
pub(crate) fn bench_miss<P: Peer>(g: &mut BenchmarkGroup<'_, WallTime>, id: &str, uniq: &[String]) {
    g.bench_function(id, |b| {
        b.iter_batched(
            P::new,
            |mut t| {
                for s in uniq {
                    black_box(t.intern(s));
                }
                t
            },
            BatchSize::LargeInput,
        )
    });
}

/// A best-of entry: intern every string of `data` into `t`.
pub(crate) fn hit_entry<'a, P: Peer>(name: &'a str, t: &'a mut P, data: &'a [String]) -> Timed<'a> {
    (
        name,
        Box::new(move || {
            timed(|| {
                data.iter().for_each(|s| {
                    black_box(t.intern(s));
                })
            })
        }),
    )
}

/// A best-of entry: intern the distinct strings `uniq` into a fresh table
/// (made and dropped outside the timed region).
pub(crate) fn miss_entry<'a, P: Peer + 'a>(name: &'a str, uniq: &'a [String]) -> Timed<'a> {
    (
        name,
        Box::new(move || {
            let mut t = P::new();
            let d = timed(|| {
                uniq.iter().for_each(|s| {
                    black_box(t.intern(s));
                })
            });
            drop(t);
            d
        }),
    )
}

/// A best-of entry: intern the one string `s` into `t`.
pub(crate) fn once_entry<'a, P: Peer>(name: &'a str, t: &'a mut P, s: &'a str) -> Timed<'a> {
    (
        name,
        Box::new(move || {
            timed(|| {
                black_box(t.intern(s));
            })
        }),
    )
}

/// A best-of entry: turn `buf` into the next similar string (1, 2, ...;
/// untimed) and intern it into `t`.
pub(crate) fn similar_miss_entry<'a, P: Peer>(
    name: &'a str,
    t: &'a mut P,
    buf: &'a mut [u8],
) -> Timed<'a> {
    let mut n = 0usize;
    (
        name,
        Box::new(move || {
            n += 1;
            set_similar(buf, n);
            let s = as_str(buf);
            timed(|| {
                black_box(t.intern(s));
            })
        }),
    )
}

/// The hash seed of ito's tables in the growth section.
const GROWTH_SEED: u64 = 0x5eed;

/// One growth run: time every insert of `g`'s keys into a fresh `P` (built
/// by [`Peer::repeatable`]) and print the percentiles as `name`.
pub(crate) fn grow<P: Peer>(g: &mut Growth, name: &str, slowest: bool) {
    let mut t = P::repeatable();
    let insert: Box<dyn FnMut(&str) + '_> = Box::new(|k| {
        black_box(t.intern(k));
    });
    g.time(insert);
    g.percentiles(name, slowest);
}

/// Run the wanted ones of the printed sections both benches have, in order:
/// `memory` (over [`memory_datasets`]), `ratios`, `growth`. `true` when the
/// binary should stop there (`ITO_BENCH_ONLY` is set).
pub(crate) fn printed_sections(
    sections: &Sections,
    ids: &[String],
    words: &[String],
    memory: fn(&[(&str, Vec<String>)]),
    ratios: fn(&[String], &[String]),
    growth: fn(),
) -> bool {
    sections.run(&mut [
        ("memory", &mut || memory(&memory_datasets(ids, words))),
        ("ratios", &mut || ratios(ids, words)),
        ("growth", &mut || growth()),
    ])
}
