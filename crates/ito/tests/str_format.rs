//! `ito::format!` and `ito::concat!` agree with `std::format!` /
//! `std::concat!` on every format spec we could think of, and the result's
//! facts match a scalar recomputation.

#![allow(clippy::approx_constant, clippy::useless_vec)]

mod common;

use ito::Str;
use proptest::prelude::*;
use std::fmt;

fn facts_ok(s: &Str) {
    assert_eq!(s.is_ascii(), s.as_str().is_ascii(), "ascii fact of {s:?}");
    let safe = !s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\');
    assert_eq!(s.is_json_safe(), safe, "json fact of {s:?}");
}

/// Both macros over the same tokens must agree.
macro_rules! same {
    ($($t:tt)*) => {{
        let ours: Str = ito::format!($($t)*);
        let std_s: String = std::format!($($t)*);
        assert_eq!(ours.as_str(), std_s.as_str(), "format!({})", stringify!($($t)*));
        facts_ok(&ours);
    }};
}

struct Custom(u32);
impl fmt::Display for Custom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{}>", self.0)?;
        f.write_str("\n\"tail\"")
    }
}

/// A `Display` impl that honours width/fill via `pad`.
struct Padded(&'static str);
impl fmt::Display for Padded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.0)
    }
}

#[derive(Debug)]
#[allow(dead_code)]
struct Point {
    x: i32,
    y: Option<&'static str>,
}

#[test]
fn literals_and_escapes() {
    same!("");
    same!("plain");
    same!("{{}}");
    same!("{{{}}}", 1);
    same!("tab\there \"q\" \\ é ✓ \u{1F600}");
    same!(r#"raw "string" {}"#, 5);
    same!(
        "a very long literal that certainly does not fit inline, {}!",
        "x"
    );
    same!(
        "line continuation \
         works"
    );
}

#[test]
fn positional_named_captured() {
    let a = "alpha";
    let b = String::from("beta");
    let c = Str::from("gamma, a heap-allocated Str value");
    let n = 42u8;
    same!("{} {} {}", a, b, c);
    same!("{0} {1} {0}", a, b);
    same!("{1} {} {0} {}", a, b);
    same!("{x} {y} {x}", x = a, y = 7);
    same!("{a} {b} {c} {n}");
    same!("{a}{}", n);
    same!("{n:>5}|{n:<5}|{n:^5}|{n:05}|{n:+}", n = -7);
    same!("{}", &&&a);
    same!("{}", &b);
    same!("{}", c.clone());
    same!("{}", Box::<str>::from("boxed"));
    same!("{}", std::borrow::Cow::Borrowed("cow"));
    same!("{}", std::rc::Rc::<str>::from("rc"));
    same!("{}", std::sync::Arc::<str>::from("arc"));
    let mut buf = ito::StrBuf::new();
    buf.push_str("buf\"");
    same!("{}", buf);
    let closure = |x: i32, y: i32| x + y;
    same!("{}", closure(1, 2));
    same!("{}", vec![1, 2, 3].iter().map(|x| x * 2).sum::<i32>());
    same!("{}", {
        let v: Vec<u8> = Vec::<u8>::with_capacity(1);
        v.len()
    });
    same!("{}{}", 1, 2,);
}

#[test]
fn integers_exact() {
    same!("{} {} {} {} {}", 0u8, u8::MAX, i8::MIN, i8::MAX, 0i8);
    same!("{} {} {}", u16::MAX, i16::MIN, i16::MAX);
    same!("{} {} {}", u32::MAX, i32::MIN, i32::MAX);
    same!("{} {} {}", u64::MAX, i64::MIN, i64::MAX);
    same!("{} {} {}", usize::MAX, isize::MIN, isize::MAX);
    same!("{} {} {}", u128::MAX, i128::MIN, i128::MAX);
    for v in [
        0i64, 1, 9, 10, 99, 100, 101, 999, 1000, 12345, -1, -10, -100,
    ] {
        same!("{v}");
        same!("{}", v);
        same!("{}", &v);
    }
    let mut p = 1u64;
    for _ in 0..20 {
        same!("[{}|{}|{}]", p - 1, p, p + 1);
        p = p.saturating_mul(10);
    }
}

#[test]
fn specs() {
    let s = "héllo";
    let f = 3.14159265f64;
    same!(
        "{:10}|{:<10}|{:>10}|{:^10}|{:*^10}|{:-<3}",
        s,
        s,
        s,
        s,
        s,
        s
    );
    same!("{:.2}|{:.0}|{:10.3}|{:<+10.1}|{:e}|{:E}", f, f, f, f, f, f);
    same!(
        "{:x} {:X} {:o} {:b} {:#x} {:#X} {:#o} {:#b} {:08x} {:#010b}",
        255,
        255,
        8,
        5,
        255,
        255,
        8,
        5,
        255,
        5
    );
    same!("{:?} {:?} {:?} {:?}", "q\"\n", 'c', '\'', 1.0f32);
    same!("{:#?}", Point { x: 1, y: Some("a") });
    same!("{:?}", Point { x: -1, y: None });
    same!("{:?}", vec![Some(1), None]);
    same!("{:x?} {:X?}", vec![10, 255], vec![10, 255]);
    same!("{:.*}", 3, f);
    same!("{:.*} {}", 1, f, "after");
    same!("{0:.1$}", f, 4);
    same!("{:1$}|", 7, 5);
    same!("{:>width$.prec$}", f, width = 12, prec = 2);
    let width = 9;
    let prec = 1;
    same!("{f:>width$.prec$}");
    same!("{:w$}", "x", w = 4);
    same!("{:5}|{:<5}|{:^5}", 'c', true, Padded("p"));
    same!("{:>8}", Padded("pad"));
    same!("{}", Custom(7));
    same!("{:>20}", Custom(7)); // ignores width: writes directly
    same!("{:.3}", "truncated");
    same!("{:+} {:+}", 5, -5);
    same!("{:p}", std::ptr::null::<u8>());
    same!("{} {:?} {:?}", true, false, ());
}

#[derive(Debug)]
struct Unit;
impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unit")
    }
}

#[test]
fn display_and_debug_fallbacks() {
    same!("{} {:?}", Unit, Unit);
    same!("{}", 'é');
    same!("{}", 1.5f32);
    same!("{}", f64::NAN);
    same!("{}", std::net::Ipv4Addr::LOCALHOST);
    let big = "long\"".repeat(200);
    same!("{big:?}|{big}|{}", Custom(1));
    same!("{}{}{}{}", big, big, big, big);
}

#[test]
fn generic_context_uses_display() {
    fn show<T: fmt::Display>(t: T) -> Str {
        ito::format!("[{}]", t)
    }
    assert_eq!(show("x"), "[x]");
    assert_eq!(show(5), "[5]");
    assert_eq!(show(Custom(2)), "[<2>\n\"tail\"]");
}

#[test]
fn nested_format_in_display() {
    struct Nested(usize);
    impl fmt::Display for Nested {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            let inner = ito::format!("{:?}", "n".repeat(self.0));
            f.write_str(&inner)
        }
    }
    for n in [1, 300, 600] {
        same!("{}|{:?}|{}", Nested(n), "x".repeat(n), Nested(n));
    }
}

#[test]
fn concat_matches_std() {
    let x = "var";
    let s = String::from("string");
    assert_eq!(ito::concat!(), "");
    assert_eq!(ito::concat!("a"), std::concat!("a"));
    assert_eq!(ito::concat!("a", 'b', "c\n"), std::concat!("a", 'b', "c\n"));
    assert_eq!(
        ito::concat!(1, 2, -3, true),
        std::format!("{}{}{}{}", 1, 2, -3, true)
    );
    assert_eq!(ito::concat!(x, "-", s, "-", 1 + 1,), "var-string-2");
    let c = ito::concat!("\"", x, "\"");
    assert!(!c.is_json_safe());
    facts_ok(&c);
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{0,30}",
        "\\PC{0,40}",
        proptest::collection::vec(any::<char>(), 0..50).prop_map(|v| v.into_iter().collect()),
        "[a\"\\\\\n\t é]{0,60}",
    ]
}

proptest! {
    #![proptest_config(common::proptest_config(256))]

    #[test]
    fn random_values(a in text(), b in text(), n in any::<i64>(), u in any::<u32>(), f in any::<f64>(), w in 0usize..40) {
        same!("{a}{b}");
        same!("{}:{}:{}:{}", a, n, u, b);
        same!("{a:?}|{b:>w$}|{n:+}|{u:#x}|{f}|{f:.3}");
        same!("pre {} mid {} post", a, b);
        let sa = Str::from(a.as_str());
        let sb = Str::from(b.as_str());
        same!("{sa}{sb}{sa}");
        let c = ito::concat!(sa, "|", b, "|", n);
        let want = std::format!("{a}|{b}|{n}");
        prop_assert_eq!(c.as_str(), want.as_str());
        facts_ok(&c);
    }
}
