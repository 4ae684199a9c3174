//! Model-based fuzzing of `ito::intern::LocalInterner`: a random scenario of
//! actions is applied to the interner and to a `HashMap<String, u32>` model;
//! they must agree after every step (symbols dense from 1, resolve
//! round-trips, `get` never inserts, byte cap never loses a hit).
#![no_main]

use std::collections::HashMap;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Action {
    Intern(String),
    /// Intern a string repeated `n % 64` times, to reach the large-string
    /// path and many resizes quickly.
    InternRepeated(String, u16),
    /// Intern `n` generated keys with the given prefix (resizes, migration).
    Burst(u8, u16),
    Get(String),
    Resolve(u32),
    InternStr(String),
}

#[derive(Arbitrary, Debug)]
struct Scenario {
    seed: Option<u64>,
    capacity: u16,
    max_bytes: Option<u32>,
    actions: Vec<Action>,
}

fuzz_target!(|scenario: Scenario| {
    let mut builder = ito::intern::LocalBuilder::new().capacity(scenario.capacity as usize);
    if let Some(seed) = scenario.seed {
        builder = builder.seed(seed);
    }
    if let Some(max) = scenario.max_bytes {
        builder = builder.max_bytes(max as usize);
    }
    let mut t = builder.build();
    let mut model: HashMap<String, u32> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    let capped = scenario.max_bytes.is_some();
    let intern = |t: &mut ito::intern::LocalInterner,
                      model: &mut HashMap<String, u32>,
                      order: &mut Vec<String>,
                      s: &str,
                      use_str: bool| {
        let got = if use_str {
            t.try_intern_str(&ito::Str::from(s))
        } else {
            t.try_intern(s)
        };
        match (got, model.get(s)) {
            (Ok(sym), Some(&want)) => assert_eq!(sym.to_u32(), want),
            (Ok(sym), None) => {
                assert_eq!(sym.to_u32() as usize, order.len() + 1);
                model.insert(s.to_owned(), sym.to_u32());
                order.push(s.to_owned());
            }
            (Err(e), Some(_)) => panic!("hit failed: {e}"),
            (Err(_), None) => assert!(capped),
        }
        assert_eq!(t.get(s).map(|x| x.to_u32()), model.get(s).copied());
    };
    for action in scenario.actions {
        match action {
            Action::Intern(s) => intern(&mut t, &mut model, &mut order, &s, false),
            Action::InternStr(s) => intern(&mut t, &mut model, &mut order, &s, true),
            Action::InternRepeated(s, n) => intern(&mut t, &mut model, &mut order, &s.repeat(n as usize % 64), false),
            Action::Burst(prefix, n) => {
                for i in 0..n % 2048 {
                    intern(&mut t, &mut model, &mut order, &format!("{prefix}:{i}"), false);
                }
            }
            Action::Get(s) => assert_eq!(t.get(&s).map(|x| x.to_u32()), model.get(&s).copied()),
            Action::Resolve(n) => {
                let want = (n as usize).checked_sub(1).and_then(|i| order.get(i));
                match ito::Sym::from_u32(n) {
                    Some(sym) => assert_eq!(t.try_resolve(sym), want.map(String::as_str)),
                    None => assert!(want.is_none()),
                }
            }
        }
        assert_eq!(t.len(), order.len());
    }
    for (i, (sym, s)) in t.iter().enumerate() {
        assert_eq!(sym.to_u32() as usize, i + 1);
        assert_eq!(s, order[i]);
    }
});
