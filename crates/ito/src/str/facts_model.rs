//! Model test of the facts-on-demand state machine: random sequences of
//! builds, clones, queries and quotes, checked after every step against a
//! model of what each allocation must know.
//!
//! Every path into each state is exercised:
//! - unknown: `Str::from`, `Str::concat`, `format!` with a `&str` piece,
//!   `StrBuf::push_str` then `freeze`;
//! - known at build time: static strings, literals and digits in
//!   `format!`, `char` pushes, `from_str_with_facts`, `Str` pieces that
//!   know, and (feature `serde`) a string read by ito's JSON
//!   deserializer, which knows what the scan proved: JSON safe when
//!   written without an escape, ASCII too when no byte is >= 0x80;
//! - propagated: the three-valued AND of `format!`/`concat!` pieces and
//!   `StrBuf` pushes (known false wins over unknown, unknown over true);
//! - computed: the first `is_ascii`/`is_json_safe` (both facts), the first
//!   `quote_str` (the JSON-safe fact only);
//! - shared: clones see what any clone learned, also when it was learned
//!   on another thread.
//!
//! The check is exact: a handle must know exactly what the model says
//! (knowing less would mean a lost propagation, knowing more a guess), and
//! whatever is known must be true of the bytes.

use super::{facts, inline, Known, Str, StrBuf, INLINE_CAP};
use proptest::prelude::*;
use std::sync::{Arc, Mutex};

/// A held string: the handle, its content, and the model's knowledge of
/// its allocation (shared by clones, like the header).
struct Held {
    s: Str,
    text: String,
    known: Arc<Mutex<Known>>,
}

#[derive(Debug, Clone)]
enum Piece {
    /// A literal: its facts are known at compile time.
    Lit(usize),
    /// A held `Str` (index modulo count).
    Held(usize),
    /// A `&str` argument: unknown.
    Text(String),
    /// An integer: digits are ASCII and JSON safe.
    Int(i64),
    /// A `char` (only for `StrBuf::push`): known.
    Char(char),
}

#[derive(Debug, Clone)]
enum Op {
    From(String),
    WithFacts(String),
    /// Read from its JSON literal by ito's deserializer.
    Parsed(String),
    Static(usize),
    Concat(Vec<String>),
    Format(Piece, Piece, Piece),
    Buf(Vec<Piece>),
    Clone(usize),
    Drop(usize),
    Ascii(usize),
    Safe(usize),
    Quote(usize),
    /// Query on another thread through a clone.
    Thread(usize, bool),
}

const LITS: [&str; 3] = [", ", " \"quoted\" ", " é "];
const STATICS: [&str; 3] = [
    "static",
    "a static string longer than the inline capacity",
    "a static string with a \"quote\", longer than 23",
];

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{0,30}",
        "[a-z\"\\\\\n\u{1}é✓]{0,30}",
        "[x]{20,40}",
        "[a-z]{10,30}é",
        "[a-z]{10,30}\"",
    ]
}

fn piece() -> impl Strategy<Value = Piece> {
    prop_oneof![
        (0..LITS.len()).prop_map(Piece::Lit),
        any::<usize>().prop_map(Piece::Held),
        text().prop_map(Piece::Text),
        any::<i64>().prop_map(Piece::Int),
        prop_oneof![Just('a'), Just('"'), Just('é'), Just('\n'), any::<char>()]
            .prop_map(Piece::Char),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => text().prop_map(Op::From),
        1 => text().prop_map(Op::WithFacts),
        1 => text().prop_map(Op::Parsed),
        1 => (0..STATICS.len()).prop_map(Op::Static),
        1 => prop::collection::vec(text(), 0..4).prop_map(Op::Concat),
        2 => (piece(), piece(), piece()).prop_map(|(a, b, c)| Op::Format(a, b, c)),
        2 => prop::collection::vec(piece(), 0..6).prop_map(Op::Buf),
        2 => any::<usize>().prop_map(Op::Clone),
        1 => any::<usize>().prop_map(Op::Drop),
        2 => any::<usize>().prop_map(Op::Ascii),
        2 => any::<usize>().prop_map(Op::Safe),
        2 => any::<usize>().prop_map(Op::Quote),
        1 => (any::<usize>(), any::<bool>()).prop_map(|(i, a)| Op::Thread(i, a)),
    ]
}

fn truth(s: &str) -> Known {
    Known::all(facts::classify_scalar(s.as_bytes()))
}

/// What a new allocation of `text` built from pieces known as `k` must
/// know: nothing when it is inline (inline facts are never stored).
fn built(text: &str, k: Known) -> Known {
    if text.len() <= INLINE_CAP {
        Known::UNKNOWN
    } else {
        k
    }
}

fn new_held(s: Str, text: String, known: Known) -> Held {
    Held {
        s,
        text,
        known: Arc::new(Mutex::new(known)),
    }
}

/// The model's effect of a query on `h`: a heap string learns `k`.
fn learned(h: &Held, k: Known) {
    if h.s.is_heap() {
        let mut m = h.known.lock().unwrap();
        *m = m.learn(k);
    }
}

/// The model's effect of `is_ascii`/`is_json_safe` (`fact`) on `h`: a heap
/// string that does not know `fact` yet scans once and learns both.
fn queried(h: &Held, fact: u8) {
    let known = h.known.lock().unwrap().get(fact).is_some();
    if !known {
        learned(h, truth(&h.text));
    }
}

fn check(h: &Held) {
    assert_eq!(h.s.as_str(), h.text);
    let want = *h.known.lock().unwrap();
    let got = h.s.known();
    assert_eq!(got, want, "known of {:?}", h.text);
    let t = truth(&h.text);
    for f in [facts::ASCII, facts::JSON_SAFE] {
        if let Some(v) = got.get(f) {
            assert_eq!(Some(v), t.get(f), "fact {f} of {:?}", h.text);
        }
    }
    if h.s.is_inline() {
        let n = h.text.len();
        assert_eq!(Known::all(inline::facts_of(&h.s, n)), t);
    }
}

fn run(ops: Vec<Op>) {
    let mut held: Vec<Held> = Vec::new();
    for op in ops {
        let n = held.len();
        match op {
            Op::From(t) => {
                let k = built(&t, Known::UNKNOWN);
                held.push(new_held(Str::from(t.as_str()), t, k));
            }
            Op::WithFacts(t) => {
                let f = facts::classify_scalar(t.as_bytes());
                let k = built(&t, Known::all(f));
                held.push(new_held(
                    Str::from_str_with_facts(&t, Known::all(f)),
                    t.clone(),
                    k,
                ));
            }
            #[cfg(feature = "serde")]
            Op::Parsed(t) => {
                let f = facts::classify_scalar(t.as_bytes());
                // A JSON-safe string is written without an escape, so the
                // scan reaches its closing quote and proves what it saw.
                let k = match f {
                    facts::ALL => Known::all(f),
                    facts::JSON_SAFE => Known::json_safe(true),
                    _ => Known::UNKNOWN,
                };
                let lit = serde_json::to_string(&t).unwrap();
                let s: Str = crate::json::from_str(&lit).unwrap();
                held.push(new_held(s, t.clone(), built(&t, k)));
            }
            #[cfg(not(feature = "serde"))]
            Op::Parsed(t) => held.push(new_held(Str::from(t.as_str()), t.clone(), Known::UNKNOWN)),
            Op::Static(i) => {
                let t = STATICS[i];
                held.push(new_held(Str::from_static(t), t.into(), truth(t)));
            }
            Op::Concat(parts) => {
                let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
                let t = parts.concat();
                let k = if parts.iter().all(String::is_empty) {
                    truth("")
                } else {
                    Known::UNKNOWN
                };
                held.push(new_held(Str::concat(&refs), t.clone(), built(&t, k)));
            }
            Op::Format(a, b, c) => {
                // `format!("{a}, {b}{c}")`, each argument passed as its own
                // type: a held `Str` brings what it knows, an integer is
                // known, anything else is a `&str` (unknown).
                let mut text = String::new();
                let mut k = truth(LITS[0]);
                let mut args = Vec::new();
                for (idx, p) in [&a, &b, &c].into_iter().enumerate() {
                    let (t, pk, arg) = match p {
                        Piece::Held(j) if n > 0 => {
                            let h = &held[j % n];
                            (h.text.clone(), h.s.known(), FmtArg::Str(h.s.clone()))
                        }
                        Piece::Int(v) => (v.to_string(), truth("0"), FmtArg::Int(*v)),
                        Piece::Lit(i) => (
                            LITS[*i].into(),
                            Known::UNKNOWN,
                            FmtArg::Text(LITS[*i].into()),
                        ),
                        Piece::Text(t) => (t.clone(), Known::UNKNOWN, FmtArg::Text(t.clone())),
                        Piece::Char(ch) => {
                            (ch.to_string(), Known::UNKNOWN, FmtArg::Text(ch.to_string()))
                        }
                        Piece::Held(_) => {
                            (String::new(), Known::UNKNOWN, FmtArg::Text(String::new()))
                        }
                    };
                    text.push_str(&t);
                    if idx == 0 {
                        text.push_str(LITS[0]);
                    }
                    k = k.and(pk);
                    args.push(arg);
                }
                let s = args[0].format3(&args[1], &args[2]);
                assert_eq!(s.as_str(), text);
                held.push(new_held(s, text.clone(), built(&text, k)));
            }
            Op::Buf(pieces) => {
                let mut b = StrBuf::new();
                let mut text = String::new();
                let mut k = truth("");
                for p in &pieces {
                    match p {
                        Piece::Char(c) => {
                            b.push(*c);
                            text.push(*c);
                            k = k.and(truth(&c.to_string()));
                        }
                        Piece::Lit(i) => {
                            b.push_str(LITS[*i]);
                            text.push_str(LITS[*i]);
                            k = k.and(Known::UNKNOWN);
                        }
                        Piece::Held(i) if n > 0 => {
                            b.push_str(&held[i % n].text);
                            text.push_str(&held[i % n].text);
                            k = k.and(Known::UNKNOWN);
                        }
                        Piece::Held(_) => {}
                        Piece::Text(t) => {
                            b.push_str(t);
                            text.push_str(t);
                            k = k.and(Known::UNKNOWN);
                        }
                        Piece::Int(v) => {
                            let t = v.to_string();
                            b.push_str(&t);
                            text.push_str(&t);
                            k = k.and(Known::UNKNOWN);
                        }
                    }
                    assert_eq!(Known::from_bits(b.known_bits()), k, "buffer after {p:?}");
                    assert_eq!(b.is_ascii(), text.is_ascii());
                    assert_eq!(
                        b.is_json_safe(),
                        truth(&text).get(facts::JSON_SAFE) == Some(true)
                    );
                }
                held.push(new_held(b.freeze(), text.clone(), built(&text, k)));
            }
            Op::Clone(i) if n > 0 => {
                let h = &held[i % n];
                let c = Held {
                    s: h.s.clone(),
                    text: h.text.clone(),
                    known: Arc::clone(&h.known),
                };
                held.push(c);
            }
            Op::Drop(i) if n > 0 => {
                held.swap_remove(i % n);
            }
            Op::Ascii(i) if n > 0 => {
                let h = &held[i % n];
                assert_eq!(h.s.is_ascii(), h.text.is_ascii());
                queried(h, facts::ASCII);
            }
            Op::Safe(i) if n > 0 => {
                let h = &held[i % n];
                let t = truth(&h.text);
                assert_eq!(Some(h.s.is_json_safe()), t.get(facts::JSON_SAFE));
                queried(h, facts::JSON_SAFE);
            }
            Op::Quote(i) if n > 0 => {
                let h = &held[i % n];
                let mut out = b"[".to_vec();
                super::quote_str(&mut out, &h.s);
                out.push(b']');
                assert_eq!(out, serde_json::to_vec(&[&h.text]).unwrap());
                let before = *h.known.lock().unwrap();
                if h.s.is_heap() && before.get(facts::JSON_SAFE).is_none() {
                    let safe = truth(&h.text).get(facts::JSON_SAFE) == Some(true);
                    learned(h, Known::json_safe(safe));
                }
            }
            Op::Thread(i, ascii) if n > 0 => {
                let h = &held[i % n];
                let c = h.s.clone();
                let want = if ascii {
                    h.text.is_ascii()
                } else {
                    truth(&h.text).get(facts::JSON_SAFE) == Some(true)
                };
                let got = std::thread::spawn(move || {
                    if ascii {
                        c.is_ascii()
                    } else {
                        c.is_json_safe()
                    }
                })
                .join()
                .unwrap();
                assert_eq!(got, want);
                queried(
                    h,
                    if ascii {
                        facts::ASCII
                    } else {
                        facts::JSON_SAFE
                    },
                );
            }
            _ => {}
        }
        for h in &held {
            check(h);
        }
    }
}

/// A `format!` argument of the model: a held `Str` (which brings what it
/// knows), an integer, or text passed as a `&str`.
enum FmtArg {
    Str(Str),
    Int(i64),
    Text(String),
}

impl FmtArg {
    /// `format!("{a}, {b}{c}")` with each argument passed as its own type.
    fn format3(&self, b: &FmtArg, c: &FmtArg) -> Str {
        macro_rules! with {
            ($x:expr, |$v:ident| $body:expr) => {
                match $x {
                    FmtArg::Str($v) => $body,
                    FmtArg::Int($v) => $body,
                    FmtArg::Text($v) => {
                        let $v: &str = $v;
                        $body
                    }
                }
            };
        }
        with!(self, |a| with!(b, |b| with!(c, |c| crate::format!(
            "{a}, {b}{c}"
        ))))
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: if cfg!(miri) { 4 } else { 256 },
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn facts_follow_the_model(ops in prop::collection::vec(op(), 1..40)) {
        run(ops);
    }
}

/// A `StrBuf` whose one piece that needs escaping (or is not ASCII) comes
/// first, in the middle or last: the AND of the pushes must be false
/// wherever that piece is, also when every other piece is known true.
#[test]
fn strbuf_facts_whatever_the_position_of_the_bad_piece() {
    for bad in ['"', '\n', '\\', 'é'] {
        let want = facts::classify_scalar(bad.to_string().as_bytes());
        for pos in 0..5 {
            for long in [false, true] {
                let mut b = StrBuf::new();
                let mut text = String::new();
                for i in 0..5 {
                    let c = if i == pos { bad } else { 'a' };
                    b.push(c);
                    text.push(c);
                }
                if long {
                    // Push known-true chars until the result lives on the
                    // heap; the bad one stays at `pos` of the first five.
                    while text.len() <= INLINE_CAP {
                        b.push('z');
                        text.push('z');
                    }
                }
                assert_eq!(
                    Known::from_bits(b.known_bits()),
                    Known::all(want),
                    "{text:?}"
                );
                assert_eq!(b.is_ascii(), want & facts::ASCII != 0, "{text:?}");
                assert_eq!(b.is_json_safe(), want & facts::JSON_SAFE != 0, "{text:?}");
                let s = b.freeze();
                if long {
                    assert_eq!(s.known(), Known::all(want), "{text:?}");
                }
                assert_eq!(s.is_ascii(), want & facts::ASCII != 0, "{text:?}");
                assert_eq!(s.is_json_safe(), want & facts::JSON_SAFE != 0, "{text:?}");
            }
        }
    }
}

/// `format!` with one piece unknown: known-true pieces around it must not
/// make the result known JSON safe, and a known-false piece makes it known
/// false whatever the unknown piece holds.
#[test]
fn format_with_an_unknown_piece() {
    let unknown = "an argument with a \" quote, not looked at";
    let safe = Str::from_static("a static piece, known to be JSON safe");
    let s = crate::format!("{safe}{unknown}{safe}");
    assert_eq!(s.known(), Known::UNKNOWN);
    assert!(!s.is_json_safe());
    assert_eq!(s.known(), Known::all(facts::ASCII));
    let bad = Str::from_static("a static piece with a \"quote\" in it");
    let plain = "an argument that needs no escaping at all";
    let t = crate::format!("{plain}{bad}");
    assert_eq!(t.known().get(facts::JSON_SAFE), Some(false));
    assert_eq!(t.known().get(facts::ASCII), None);
    let u = crate::format!("{safe}-{}", 42);
    assert_eq!(u.known(), Known::all(facts::ALL));
}
