//! Property tests: arbitrary `Value` trees rendered with arbitrary
//! whitespace between every pair of tokens (all four JSON whitespace
//! bytes), arbitrary escape spellings (`\u` forms of every character in
//! either case, surrogate pairs, `\/`) and numbers in every exponent form;
//! ito reads them as serde_json (with `float_roundtrip`) does, and as the
//! tree that was rendered.
#![cfg(feature = "serde")]

use proptest::prelude::*;
use serde_json::{Map, Number, Value};

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| Number::from_f64(f).map(Value::Number)),
        (-330i32..310, 0u64..10_000_000).prop_map(|(e, m)| {
            let f: f64 = format!("{m}e{e}").parse().unwrap();
            Number::from_f64(f).map_or(Value::Null, Value::Number)
        }),
        ".*".prop_map(Value::String),
        "[\u{0}-\u{7f}]{0,40}".prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((".{0,12}", inner), 0..8)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// A deterministic stream of choices from a seed.
struct Choices(u64);

impl Choices {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn ws(out: &mut String, c: &mut Choices) {
    for _ in 0..c.next(4) {
        out.push([' ', '\t', '\n', '\r'][c.next(4) as usize]);
    }
}

fn hex4(out: &mut String, u: u16, c: &mut Choices) {
    let s = format!("\\u{u:04x}");
    out.push_str(&if c.next(2) == 0 {
        s
    } else {
        format!("\\u{u:04X}")
    });
}

fn string(out: &mut String, s: &str, c: &mut Choices) {
    out.push('"');
    for ch in s.chars() {
        let pick = c.next(4);
        match ch {
            '"' if pick < 2 => out.push_str("\\\""),
            '\\' if pick < 2 => out.push_str("\\\\"),
            '/' if pick == 0 => out.push_str("\\/"),
            '\n' if pick < 2 => out.push_str("\\n"),
            '\t' if pick < 2 => out.push_str("\\t"),
            '\r' if pick < 2 => out.push_str("\\r"),
            '\u{8}' if pick < 2 => out.push_str("\\b"),
            '\u{c}' if pick < 2 => out.push_str("\\f"),
            '"' | '\\' | '\u{0}'..='\u{1f}' => {
                hex4(out, ch as u16, c);
            }
            _ if pick == 3 => {
                let mut units = [0u16; 2];
                for &u in ch.encode_utf16(&mut units).iter() {
                    hex4(out, u, c);
                }
            }
            _ => out.push(ch),
        }
    }
    out.push('"');
}

fn number(out: &mut String, n: &Number, c: &mut Choices) {
    let Some(f) = n.as_f64().filter(|_| n.is_f64()) else {
        out.push_str(&n.to_string());
        return;
    };
    // The shortest digits d1 d2 .. dn and exponent: d1.d2..dn x 10^exp.
    let sci = format!("{:e}", f.abs());
    let (mant, exp) = sci.split_once('e').unwrap();
    let exp: i32 = exp.parse().unwrap();
    let digits: String = mant.chars().filter(|d| *d != '.').collect();
    if f.is_sign_negative() {
        out.push('-');
    }
    // Put the point after k digits; the exponent makes up the difference.
    let k = 1 + c.next(digits.len() as u64) as usize;
    let (int, frac) = digits.split_at(k);
    let adj = exp - (k as i32 - 1);
    out.push_str(int);
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
        out.push_str(&"0".repeat(c.next(3) as usize));
    }
    if adj != 0 || c.next(2) == 0 {
        out.push(['e', 'E'][c.next(2) as usize]);
        match (adj < 0, c.next(3)) {
            (true, _) => out.push('-'),
            (false, 0) => out.push('+'),
            _ => {}
        }
        out.push_str(&"0".repeat(c.next(3) as usize));
        out.push_str(&adj.unsigned_abs().to_string());
    } else if frac.is_empty() {
        out.push_str(".0");
    }
}

fn render(v: &Value, out: &mut String, c: &mut Choices) {
    ws(out, c);
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => number(out, n, c),
        Value::String(s) => string(out, s, c),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    ws(out, c);
                    out.push(',');
                }
                render(x, out, c);
                ws(out, c);
            }
            if a.is_empty() {
                ws(out, c);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                ws(out, c);
                string(out, k, c);
                ws(out, c);
                out.push(':');
                render(x, out, c);
                ws(out, c);
            }
            if m.is_empty() {
                ws(out, c);
            }
            out.push('}');
        }
    }
    ws(out, c);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn any_spelling_reads_as_serde_json_reads_it(v in value(), seed in 1u64..) {
        let mut text = String::new();
        render(&v, &mut text, &mut Choices(seed));
        let theirs: Value = serde_json::from_str(&text).unwrap();
        let ours: Value = ito::json::from_str(&text).unwrap();
        prop_assert_eq!(&ours, &theirs, "{}", text);
        let ours: Value = ito::json::from_slice(text.as_bytes()).unwrap();
        prop_assert_eq!(&ours, &theirs);
        // Floats were rendered from their shortest digits: the value
        // comes back exactly.
        prop_assert_eq!(&ours, &v, "{}", text);
        ito::json::from_slice::<serde::de::IgnoredAny>(text.as_bytes()).unwrap();
        // Every prefix is an error with serde_json's message.
        for end in (0..text.len()).filter(|&e| text.is_char_boundary(e)).step_by(7) {
            let a = ito::json::from_str::<Value>(&text[..end]).map_err(|e| e.to_string());
            let b = serde_json::from_str::<Value>(&text[..end]).map_err(|e| e.to_string());
            prop_assert_eq!(a, b);
        }
    }
}

/// Number text as people and programs write it: any count of integer and
/// fraction digits (leading zeros included), any exponent spelling.
fn number_text() -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        "[0-9]{1,24}",
        proptest::option::of("[0-9]{1,30}"),
        proptest::option::of(("[eE]", "[+-]?", -400i32..400)),
    )
        .prop_filter("JSON has no leading zeros", |(_, int, _, _)| {
            int == "0" || !int.starts_with('0')
        })
        .prop_map(|(neg, int, frac, exp)| {
            let mut s = String::new();
            if neg {
                s.push('-');
            }
            s.push_str(&int);
            if let Some(frac) = frac {
                s.push('.');
                s.push_str(&frac);
            }
            if let Some((e, sign, n)) = exp {
                s.push_str(&e);
                s.push_str(&sign);
                s.push_str(&n.unsigned_abs().to_string());
            }
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    /// Every number reads as serde_json (with `float_roundtrip`) reads it:
    /// the same kind, the same bits, the same error.
    #[test]
    fn numbers_read_as_serde_json_reads_them(text in number_text()) {
        let theirs = serde_json::from_str::<Value>(&text).map_err(|e| e.to_string());
        let ours = ito::json::from_str::<Value>(&text).map_err(|e| e.to_string());
        prop_assert_eq!(&ours, &theirs, "{}", text);
        let theirs = serde_json::from_str::<f64>(&text).map(f64::to_bits).map_err(|e| e.to_string());
        let ours = ito::json::from_str::<f64>(&text).map(f64::to_bits).map_err(|e| e.to_string());
        prop_assert_eq!(ours, theirs, "{}", text);
    }
}
