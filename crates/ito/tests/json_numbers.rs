//! Numbers in every shape, at every distance from the end of the input:
//! the typed reads (`f64`, `f32`) and `Value` (on the heap and in an
//! arena) against serde_json (built with `float_roundtrip`) and
//! `str::parse`.
//!
//! The reader has a word-at-a-time path for the common shapes (up to 7
//! integer digits; up to 3 integer and 15 fraction digits, no exponent)
//! that runs only when 24 bytes are left from the number's first digit,
//! and the general path otherwise; so each number is read followed by
//! 0 to 26 bytes of padding, which puts it on both sides of that limit.
#![cfg(feature = "serde")]

use ito::json::{Arena, Value};

/// Small xorshift: repeatable, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn digits(&mut self, n: usize, first_nonzero: bool) -> String {
        (0..n)
            .map(|i| {
                let d = if i == 0 && first_nonzero {
                    1 + self.next() % 9
                } else {
                    self.next() % 10
                };
                char::from(b'0' + d as u8)
            })
            .collect()
    }
}

/// What follows a number: padding, then one byte that ends it (or is an
/// error after it).
const ENDS: [&str; 8] = ["", " ", ",", "]", "}", "x", ".", "e"];

/// `text` as a whole document and inside an array, followed by an end
/// byte and spaces: none, 30, and the counts that leave one byte less,
/// just, and one byte more than the fast path needs. Every reader agrees
/// with its oracle.
fn check(text: &str) {
    for end in ENDS {
        let limit = 24usize.saturating_sub(text.len() + end.len());
        let mut pads = vec![
            0,
            30,
            limit.saturating_sub(2),
            limit.saturating_sub(1),
            limit,
            limit + 1,
        ];
        pads.dedup();
        for pad in pads {
            let doc = format!("{text}{end}{}", " ".repeat(pad));
            check_doc(&doc, text, end.is_empty());
            let doc = format!("[{text}{end}{}]", " ".repeat(pad));
            check_doc(&doc, text, false);
        }
    }
}

fn check_doc(doc: &str, text: &str, alone: bool) {
    // f64: the same bits or the same error (words and position).
    let theirs = serde_json::from_str::<f64>(doc).map(f64::to_bits);
    let ours = ito::json::from_str::<f64>(doc).map(f64::to_bits);
    assert_eq!(
        ours.as_ref().map_err(|e| e.to_string()),
        theirs.as_ref().map_err(|e| e.to_string()),
        "f64 {doc:?}"
    );
    // Value: the same kind of number and value, or the same error; on the
    // heap, in an arena, from bytes.
    let theirs = serde_json::from_str::<serde_json::Value>(doc).map_err(|e| e.to_string());
    let heap = Value::from_slice(doc.as_bytes());
    let arena = Arena::new();
    let in_arena = Value::from_slice_in(&arena, doc.as_bytes());
    for (how, ours) in [("heap", &heap), ("arena", &in_arena)] {
        let ours = ours
            .as_ref()
            .map(serde_json::Value::from)
            .map_err(|e| e.to_string());
        assert_eq!(ours, theirs, "Value ({how}) {doc:?}");
    }
    if let (Ok(Value::Number(n)), Ok(f)) = (&heap, &serde_json::from_str::<f64>(doc)) {
        // Bit for bit (`==` would let -0 pass for 0).
        assert_eq!(n.as_f64().map(f64::to_bits), Some(f.to_bits()), "{doc:?}");
    }
    // f32, rounded once: the bits `str::parse::<f32>` gives, for every
    // valid number within f32's range.
    if alone {
        let ours = ito::json::from_str::<f32>(doc);
        match (serde_json::from_str::<f64>(doc), text.parse::<f32>()) {
            (Ok(_), Ok(want)) if want.is_finite() => {
                assert_eq!(ours.unwrap().to_bits(), want.to_bits(), "f32 {doc:?}");
            }
            (Err(e), _) => assert_eq!(ours.unwrap_err().to_string(), e.to_string(), "{doc:?}"),
            _ => {}
        }
    }
}

/// Every count of integer digits (1–9) and fraction digits (none, then
/// 0–20), with and without an exponent, both signs; random digits, all
/// nines and all zeros.
#[test]
fn every_shape_at_every_distance_from_the_end() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for int_len in 1..=9 {
        for frac_len in (0..=21usize).map(|f| f.checked_sub(1)) {
            for exp in ["", "E-7", "e"] {
                for neg in [false, true] {
                    let sign = if neg { "-" } else { "" };
                    let mut ints = vec![
                        rng.digits(int_len, true),
                        "9".repeat(int_len),
                        rng.digits(int_len, false), // leading zeros: errors
                    ];
                    if int_len == 1 {
                        ints.push("0".into());
                    }
                    for int in ints {
                        let fracs = match frac_len {
                            None => vec![String::new()],
                            Some(f) => vec![
                                format!(".{}", rng.digits(f, false)),
                                format!(".{}", "9".repeat(f)),
                                format!(".{}", "0".repeat(f)),
                            ],
                        };
                        for frac in fracs {
                            check(&format!("{sign}{int}{frac}{exp}"));
                        }
                    }
                }
            }
        }
    }
}

/// Random doubles and floats, written shortest, with an exponent, and
/// with every count of fraction digits from 0 to 20 when they are small
/// enough to be written out.
#[test]
fn random_bit_patterns() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for i in 0..3_000 {
        let bits = rng.next();
        let x = if i % 2 == 0 {
            f64::from_bits(bits)
        } else {
            f64::from(f32::from_bits(bits as u32))
        };
        // Mostly the magnitudes of coordinates and measures.
        let small = f64::from_bits(bits >> 12 | 0x3FF0_0000_0000_0000) * (rng.next() % 2000) as f64;
        for x in [x, small, -small] {
            if !x.is_finite() {
                continue;
            }
            check_quick(&format!("{x}"));
            check_quick(&format!("{x:e}"));
            if x.abs() < 1e6 {
                for places in 0..=20 {
                    check_quick(&format!("{x:.places$}"));
                }
            }
        }
    }
}

/// As `check`, with fewer paddings (one under the limit, one over).
fn check_quick(text: &str) {
    for pad in [0, 30] {
        check_doc(&format!("{text}{}", " ".repeat(pad)), text, true);
        check_doc(&format!("[{text},{}1]", " ".repeat(pad)), text, false);
    }
}

/// 15 to 19 significant digits (the integer and fraction split at every
/// place), next to the halfway points between doubles: what an
/// approximation gets wrong first.
#[test]
fn long_significands_and_halfway_points() {
    let mut rng = Rng(7);
    for digits in 15..=19 {
        for _ in 0..40 {
            let all = rng.digits(digits, true);
            for point in 1..=4.min(digits) {
                check_quick(&format!("{}.{}", &all[..point], &all[point..]));
            }
        }
    }
    // Exact halfway points of doubles in [1, 1000), written out in full
    // (`{:.60}` is exact for a double, and for half a unit in the last
    // place, a power of two), then cut to 13–20 places: within a unit of
    // the last digit of a tie.
    for _ in 0..300 {
        let x = 1.0 + (rng.next() % 999) as f64 + (rng.next() % 1_000_000) as f64 / 1e6;
        let half_ulp = (f64::from_bits(x.to_bits() + 1) - x) / 2.0;
        let mid = add_decimals(&format!("{x:.60}"), &format!("{half_ulp:.60}"));
        let point = mid.find('.').unwrap();
        for places in 13..=20 {
            check_quick(&mid[..point + 1 + places]);
        }
        check_quick(mid.trim_end_matches('0'));
    }
    // canada.json's shapes, their extremes, and a value rounding to 1000.
    for s in [
        "-65.613616999999977",
        "43.420273000000009",
        "-141.00000000000001",
        "999.999999999999999",
        "0.000000000000001",
        "0.0000000000000001",
        "9.999999999999999",
        "-0.0",
        "-0",
        "0",
        "1234567",
        "-1234567",
        "12345678",
    ] {
        check(s);
    }
}

/// The sum of two non-negative decimals written with the same number of
/// places.
fn add_decimals(a: &str, b: &str) -> String {
    let width = a.len().max(b.len());
    let (a, b) = (format!("{a:0>width$}"), format!("{b:0>width$}"));
    let mut out = Vec::with_capacity(width + 1);
    let mut carry = 0;
    for (x, y) in a.bytes().rev().zip(b.bytes().rev()) {
        if x == b'.' {
            assert_eq!(y, b'.');
            out.push(b'.');
            continue;
        }
        let d = (x - b'0') + (y - b'0') + carry;
        out.push(b'0' + d % 10);
        carry = d / 10;
    }
    if carry > 0 {
        out.push(b'1');
    }
    out.reverse();
    let s = String::from_utf8(out).unwrap();
    s.trim_start_matches('0').to_string()
}

/// Every count of integer (1–4) and fraction (0–20) digits, at every
/// distance from the end of the input (0–26 bytes after the number): the
/// word path's 24-byte window and the digit runs read eight at a time,
/// on both sides of each limit.
#[test]
fn every_digit_count_at_every_offset_from_the_end() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for int_len in 1..=4 {
        for frac_len in 0..=20 {
            let int = rng.digits(int_len, true);
            let frac = rng.digits(frac_len, false);
            for pad in 0..=26 {
                for text in [format!("{int}.{frac}"), format!("-{int}.{frac}")] {
                    let doc = format!("{text}{}", " ".repeat(pad));
                    check_doc(&doc, &text, true);
                }
            }
        }
    }
}

mod props {
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4_000))]

        /// The shapes of the word path (and around it), against
        /// `str::parse` for `f64` and `f32`, bit for bit, alone and in an
        /// array, at any distance from the end.
        #[test]
        fn decimals_against_str_parse(
            neg in any::<bool>(),
            int in "[1-9][0-9]{0,3}|0",
            frac in "[0-9]{1,19}",
            pad in 0usize..30,
        ) {
            let text = format!("{}{int}.{frac}", if neg { "-" } else { "" });
            let doc = format!("{text}{}", " ".repeat(pad));
            let want: f64 = text.parse().unwrap();
            let ours: f64 = ito::json::from_str(&doc).unwrap();
            prop_assert_eq!(ours.to_bits(), want.to_bits(), "{}", doc);
            let want32: f32 = text.parse().unwrap();
            let ours32: f32 = ito::json::from_str(&doc).unwrap();
            prop_assert_eq!(ours32.to_bits(), want32.to_bits(), "{}", doc);
            let array = format!("[{text}{},1]", " ".repeat(pad));
            let ours: Vec<f64> = ito::json::from_str(&array).unwrap();
            prop_assert_eq!(ours[0].to_bits(), want.to_bits(), "{}", array);
            let value = ito::json::Value::from_slice(doc.as_bytes()).unwrap();
            let n = match value {
                ito::json::Value::Number(n) => n.as_f64().unwrap(),
                _ => unreachable!(),
            };
            prop_assert_eq!(n.to_bits(), want.to_bits(), "{}", doc);
        }
    }
}
