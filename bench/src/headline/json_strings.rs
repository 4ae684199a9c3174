//! JSON string literals: quoting (`json::quote`) and decoding
//! (`json::unquote`) against serde_json and sonic-rs.

use std::hint::black_box;

use super::{op, Area, Runner};

/// The area.
pub const AREA: Area = Area {
    slug: "json-strings",
    title: "JSON strings",
    about: "Every string of twitter.json + citm_catalog.json, and 4,096 medium \
            strings (20–200 B, 8 % with escapes), quoted into one reused buffer; \
            peers through `to_writer(&mut Vec<u8>, &str)`. Decoding: the string \
            literals of twitter.json into an owned `String` on every side.",
    run,
};

fn quote_case(r: &mut Runner, work: &str, strings: &[String]) {
    if !r.wants(work) {
        return;
    }
    let bytes: usize = strings.iter().map(String::len).sum();
    let mut out = Vec::with_capacity(bytes * 6 + 2 * strings.len());
    let mut check = Vec::new();
    for s in strings {
        ito::json::quote(&mut out, s);
        serde_json::to_writer(&mut check, s.as_str()).unwrap();
    }
    assert_eq!(out, check, "ito and serde_json disagree");
    let (mut a, mut b, mut c) = (out.clone(), out.clone(), out);
    r.case(
        work,
        vec![
            op("ito", || {
                a.clear();
                for s in black_box(strings) {
                    ito::json::quote(&mut a, s);
                }
                black_box(a.len());
            }),
            op("serde_json", || {
                b.clear();
                for s in black_box(strings) {
                    serde_json::to_writer(&mut b, s.as_str()).unwrap();
                }
                black_box(b.len());
            }),
            op("sonic-rs", || {
                c.clear();
                for s in black_box(strings) {
                    sonic_rs::to_writer(&mut c, s.as_str()).unwrap();
                }
                black_box(c.len());
            }),
        ],
    );
}

fn run(r: &mut Runner) {
    quote_case(r, "quote, twitter + citm strings", &crate::corpus_strings());
    quote_case(
        r,
        "quote, medium text",
        &crate::medium_text(4096, 0x5eed_0012_7e47_0001),
    );

    let work = "unquote, twitter literals";
    if r.wants(work) {
        let literals = crate::quoted_literals_of(crate::TWITTER);
        for lit in &literals {
            let ours = ito::json::unquote(lit.as_bytes()).unwrap().0;
            assert_eq!(ours, serde_json::from_str::<String>(lit).unwrap());
        }
        let literals = &literals;
        r.case(
            work,
            vec![
                op("ito", || {
                    for lit in black_box(literals) {
                        let (v, _) = ito::json::unquote(lit.as_bytes()).unwrap();
                        black_box(v.into_owned());
                    }
                }),
                op("serde_json", || {
                    for lit in black_box(literals) {
                        black_box(serde_json::from_str::<String>(lit).unwrap());
                    }
                }),
                op("sonic-rs", || {
                    for lit in black_box(literals) {
                        black_box(sonic_rs::from_str::<String>(lit).unwrap());
                    }
                }),
            ],
        );
    }
}
