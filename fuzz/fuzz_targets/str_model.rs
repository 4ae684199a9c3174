//! Model-based fuzzing of `ito::Str` / `ito::StrBuf` (the compact_str
//! pattern): a random scenario of actions is applied to the ito types and to
//! `std::string::String`, and they must agree after every step — content,
//! length, representation choice, facts (against a scalar recomputation),
//! `content_hash` equality across representations, and `quote_str` against
//! serde_json.
#![no_main]

use arbitrary::Arbitrary;
use ito::{Str, StrBuf};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Action {
    Push(String),
    PushChar(char),
    Clear,
    Reserve(u8),
    Freeze,
    Snapshot,
    Clone(u8),
    Drop(u8),
    Concat(u8, u8, String),
    Join(String),
    Format(u8, u8, i64),
    FormatSpec(u8, u8, String),
    ConcatMacro(u8, u16),
    Collect(Vec<char>),
}

#[derive(Arbitrary, Debug)]
struct Scenario {
    actions: Vec<Action>,
}

/// The longest string a scenario may build: `Join` and `Concat` of held
/// strings double the total at every step, and 64 unbounded steps end in
/// an out-of-memory abort of the fuzzer instead of a finding.
const MAX_LEN: usize = 1 << 12;

fn json_safe(s: &str) -> bool {
    !s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\')
}

fn check(s: &Str, m: &str) {
    assert_eq!(s.as_str(), m);
    assert_eq!(s.len(), m.len());
    assert_eq!(s.is_ascii(), m.is_ascii());
    assert_eq!(s.is_json_safe(), json_safe(m));
    assert!(s.is_static() || s.is_inline() == (m.len() <= ito::str::INLINE_CAP));
    assert_eq!(s.content_hash(), Str::from(m).content_hash());
    assert_eq!(s.content_hash(), s.content_hash());
    let mut q = Vec::new();
    ito::str::quote_str(&mut q, s);
    assert_eq!(q, serde_json::to_vec(m).unwrap());
}

fuzz_target!(|sc: Scenario| {
    let mut buf = StrBuf::new();
    let mut model = String::new();
    let mut held: Vec<(Str, String)> = Vec::new();
    for action in sc.actions.into_iter().take(64) {
        let n = held.len();
        match action {
            Action::Push(p) if model.len() + p.len() <= MAX_LEN => {
                buf.push_str(&p);
                model.push_str(&p);
            }
            Action::PushChar(c) => {
                buf.push(c);
                model.push(c);
            }
            Action::Clear => {
                buf.clear();
                model.clear();
            }
            Action::Reserve(r) => buf.reserve(r as usize * 4),
            Action::Freeze => {
                held.push((
                    std::mem::take(&mut buf).freeze(),
                    std::mem::take(&mut model),
                ));
            }
            Action::Snapshot => held.push((Str::from(buf.as_str()), model.clone())),
            Action::Clone(i) if n > 0 => {
                let (s, m) = &held[i as usize % n];
                held.push((s.clone(), m.clone()));
            }
            Action::Drop(i) if n > 0 => {
                held.swap_remove(i as usize % n);
            }
            Action::Concat(a, b, p) if n > 0 => {
                let (sa, ma) = &held[a as usize % n];
                let (sb, mb) = &held[b as usize % n];
                if ma.len() + p.len() + mb.len() > MAX_LEN {
                    continue;
                }
                held.push((Str::concat(&[sa, &p, sb]), format!("{ma}{p}{mb}")));
            }
            Action::Join(sep) => {
                let total: usize = held.iter().map(|(_, m)| m.len() + sep.len()).sum();
                if total > MAX_LEN {
                    continue;
                }
                let s = Str::join(&sep, held.iter().map(|(s, _)| s));
                let m = held
                    .iter()
                    .map(|(_, m)| m.as_str())
                    .collect::<Vec<_>>()
                    .join(&sep);
                held.push((s, m));
            }
            Action::Format(a, b, x) if n > 0 => {
                let (sa, ma) = &held[a as usize % n];
                let (sb, mb) = &held[b as usize % n];
                // `{:?}` writes at most 10 bytes per char (`\u{10ffff}`).
                if ma.len() + 10 * mb.len() > MAX_LEN {
                    continue;
                }
                let s = ito::format!("{sa}{x}{sb:?}{x:>9}");
                held.push((s, format!("{ma}{x}{mb:?}{x:>9}")));
            }
            Action::FormatSpec(w, p, t) => {
                let (w, p) = (w as usize % 40, p as usize % 10);
                let s = ito::format!("{t:>w$.p$}|{t:^w$}|{:?}", t.len());
                held.push((s, format!("{t:>w$.p$}|{t:^w$}|{:?}", t.len())));
            }
            Action::ConcatMacro(a, k) if n > 0 => {
                let (sa, ma) = &held[a as usize % n];
                if ma.len() > MAX_LEN {
                    continue;
                }
                held.push((ito::concat!(sa, "-", k, '✓'), format!("{ma}-{k}✓")));
            }
            Action::Collect(chars) => {
                let s: Str = chars.iter().copied().collect();
                held.push((s, chars.into_iter().collect()));
            }
            _ => {}
        }
        assert_eq!(buf.as_str(), model);
        assert_eq!(buf.is_ascii(), model.is_ascii());
        assert_eq!(buf.is_json_safe(), json_safe(&model));
        for (s, m) in &held {
            check(s, m);
        }
    }
});
