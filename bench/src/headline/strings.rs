//! Building strings: `ito::format!` and `Str::from` against std's
//! `String`/`format!` and compact_str.

use std::hint::black_box;

use compact_str::{format_compact, CompactString};
use ito::Str;

use super::{op, Area, Runner};

/// The area.
pub const AREA: Area = Area {
    slug: "strings",
    title: "Building strings",
    about: "`ito::format!` against `std::format!` and `format_compact!` on a \
            36-byte result (\"hello\" + \", \" + 29 bytes) and five pieces making \
            200 bytes; `Str::from(&str)` against `String::from` and \
            `CompactString::from` for an 11-byte (inline) and a 64-byte (heap) \
            string. Inputs pass through `black_box` on every call and every \
            result is dropped inside the timed loop.",
    run,
};

fn run(r: &mut Runner) {
    let (a, b) = ("hello", "a string of twenty-nine bytes");
    r.case(
        "format!, 36 B from 2 arguments",
        vec![
            op("ito", || {
                let (a, b) = black_box((a, b));
                drop(black_box(ito::format!("{a}, {b}")));
            }),
            op("std format!", || {
                let (a, b) = black_box((a, b));
                drop(black_box(format!("{a}, {b}")));
            }),
            op("compact_str", || {
                let (a, b) = black_box((a, b));
                drop(black_box(format_compact!("{a}, {b}")));
            }),
        ],
    );

    let piece = "p".repeat(40);
    let p = piece.as_str();
    let ps = (p, p, p, p, p);
    assert_eq!(ito::format!("{p}{p}{p}{p}{p}").len(), 200);
    r.case(
        "format!, 200 B from 5 arguments",
        vec![
            op("ito", || {
                let (p1, p2, p3, p4, p5) = black_box(ps);
                drop(black_box(ito::format!("{p1}{p2}{p3}{p4}{p5}")));
            }),
            op("std format!", || {
                let (p1, p2, p3, p4, p5) = black_box(ps);
                drop(black_box(format!("{p1}{p2}{p3}{p4}{p5}")));
            }),
            op("compact_str", || {
                let (p1, p2, p3, p4, p5) = black_box(ps);
                drop(black_box(format_compact!("{p1}{p2}{p3}{p4}{p5}")));
            }),
        ],
    );

    for (work, s) in [
        ("Str::from, 11 B (inline)", "short_key_1".to_owned()),
        ("Str::from, 64 B (heap)", "x".repeat(64)),
    ] {
        let s = s.as_str();
        r.case(
            work,
            vec![
                op("ito", || drop(black_box(Str::from(black_box(s))))),
                op("String", || drop(black_box(String::from(black_box(s))))),
                op("compact_str", || {
                    drop(black_box(CompactString::from(black_box(s))))
                }),
            ],
        );
    }
}
