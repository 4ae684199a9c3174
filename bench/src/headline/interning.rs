//! Interning: ito's single-threaded `LocalInterner` and thread-safe
//! `Interner` against string-interner and lasso.

use std::hint::black_box;

use lasso::{Rodeo, ThreadedRodeo};
use string_interner::DefaultStringInterner;

use super::{batch, op, Area, Runner};

/// The area.
pub const AREA: Area = Area {
    slug: "interning",
    title: "Interning",
    about: "6,000 distinct identifiers (4–21 B). Hit: intern all of them into a \
            table that holds them. Miss: make a table, intern all of them, drop \
            it (growth, creation and drop timed). Two threads: both intern all \
            6,000 into one shared table, in different orders.",
    run,
};

fn run(r: &mut Runner) {
    let ids = crate::identifiers(6000, 0x1d5);
    let ids = &ids;

    let work = "single-threaded hit";
    if r.wants(work) {
        let mut ours = ito::LocalInterner::new();
        let mut si = DefaultStringInterner::default();
        let mut rodeo = Rodeo::default();
        for s in ids {
            ours.intern(s);
            si.get_or_intern(s);
            rodeo.get_or_intern(s);
        }
        r.case(
            work,
            vec![
                op("ito LocalInterner", || {
                    for s in black_box(ids) {
                        black_box(ours.intern(s));
                    }
                }),
                op("string-interner", || {
                    for s in black_box(ids) {
                        black_box(si.get_or_intern(s));
                    }
                }),
                op("lasso Rodeo", || {
                    for s in black_box(ids) {
                        black_box(rodeo.get_or_intern(s));
                    }
                }),
            ],
        );
    }

    r.case(
        "single-threaded miss",
        vec![
            op("ito LocalInterner", || {
                let mut t = ito::LocalInterner::new();
                for s in black_box(ids) {
                    black_box(t.intern(s));
                }
                drop(black_box(t));
            }),
            op("string-interner", || {
                let mut t = DefaultStringInterner::default();
                for s in black_box(ids) {
                    black_box(t.get_or_intern(s));
                }
                drop(black_box(t));
            }),
            op("lasso Rodeo", || {
                let mut t = Rodeo::default();
                for s in black_box(ids) {
                    black_box(t.get_or_intern(s));
                }
                drop(black_box(t));
            }),
        ],
    );

    let work = "thread-safe hit, 1 thread";
    if r.wants(work) {
        let ours = ito::Interner::new();
        let rodeo = ThreadedRodeo::default();
        for s in ids {
            ours.intern(s);
            rodeo.get_or_intern(s);
        }
        r.case(
            work,
            vec![
                op("ito Interner", || {
                    for s in black_box(ids) {
                        black_box(ours.intern(s));
                    }
                }),
                op("lasso ThreadedRodeo", || {
                    for s in black_box(ids) {
                        black_box(rodeo.get_or_intern(s));
                    }
                }),
            ],
        );
    }

    r.case(
        "thread-safe miss, 1 thread",
        vec![
            op("ito Interner", || {
                let t = ito::Interner::new();
                for s in black_box(ids) {
                    black_box(t.intern(s));
                }
                drop(black_box(t));
            }),
            op("lasso ThreadedRodeo", || {
                let t = ThreadedRodeo::default();
                for s in black_box(ids) {
                    black_box(t.get_or_intern(s));
                }
                drop(black_box(t));
            }),
        ],
    );

    let work = "thread-safe hit, 2 threads";
    if r.wants(work) {
        let reversed: Vec<String> = ids.iter().rev().cloned().collect();
        let orders = [ids.as_slice(), reversed.as_slice()];
        let ours = ito::Interner::new();
        let rodeo = ThreadedRodeo::default();
        for s in ids {
            ours.intern(s);
            rodeo.get_or_intern(s);
        }
        let (ours, rodeo) = (&ours, &rodeo);
        r.case(
            work,
            vec![
                batch("ito Interner", move |n| {
                    std::thread::scope(|scope| {
                        for order in orders {
                            scope.spawn(move || {
                                for _ in 0..n {
                                    for s in black_box(order) {
                                        black_box(ours.intern(s));
                                    }
                                }
                            });
                        }
                    })
                }),
                batch("lasso ThreadedRodeo", move |n| {
                    std::thread::scope(|scope| {
                        for order in orders {
                            scope.spawn(move || {
                                for _ in 0..n {
                                    for s in black_box(order) {
                                        black_box(rodeo.get_or_intern(s));
                                    }
                                }
                            });
                        }
                    })
                }),
            ],
        );
    }
}
