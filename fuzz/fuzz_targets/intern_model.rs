//! Model-based fuzzing of `ito::intern`: a random scenario of actions is
//! applied to an `Interner`, a `Pool` and a `Frozen` snapshot, and to std
//! `HashMap` models; they must agree after every step.
#![no_main]

use std::collections::HashMap;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Action {
    Intern(String),
    Get(String),
    Resolve(u16),
    PoolIntern(String),
    PoolDrop(u16),
    Freeze,
}

#[derive(Arbitrary, Debug)]
struct Scenario {
    shards: u8,
    seed: Option<u64>,
    actions: Vec<Action>,
}

fuzz_target!(|scenario: Scenario| {
    let mut builder = ito::intern::Builder::new().shards(1 << (scenario.shards % 5));
    if let Some(seed) = scenario.seed {
        builder = builder.seed(seed);
    }
    let interner = builder.build();
    let mut model: HashMap<String, ito::Sym> = HashMap::new();
    let mut order: Vec<(ito::Sym, String)> = Vec::new();
    let pool = ito::Pool::new();
    let mut handles: Vec<ito::Interned> = Vec::new();
    for action in scenario.actions {
        match action {
            Action::Intern(s) => {
                let sym = interner.intern(&s);
                if let Some(&old) = model.get(&s) {
                    assert_eq!(old, sym);
                } else {
                    assert!(order.iter().all(|(o, _)| *o != sym));
                    model.insert(s.clone(), sym);
                    order.push((sym, s.clone()));
                }
                assert_eq!(interner.resolve(sym), s);
            }
            Action::Get(s) => assert_eq!(interner.get(&s), model.get(&s).copied()),
            Action::Resolve(i) => {
                if !order.is_empty() {
                    let (sym, s) = &order[i as usize % order.len()];
                    assert_eq!(interner.resolve(*sym), s);
                }
            }
            Action::PoolIntern(s) => {
                let h = pool.intern(&s);
                assert_eq!(&*h, s.as_str());
                if let Some(other) = handles.iter().find(|o| o.as_str() == s) {
                    assert!(ito::Interned::ptr_eq(other, &h));
                }
                handles.push(h);
            }
            Action::PoolDrop(i) => {
                if !handles.is_empty() {
                    let i = i as usize % handles.len();
                    handles.swap_remove(i);
                }
            }
            Action::Freeze => {
                // Freeze a copy built from the model (the interner is kept).
                let copy = ito::Interner::builder().shards(1).build();
                for (_, s) in &order {
                    copy.intern(s);
                }
                let frozen = copy.freeze();
                for (i, (_, s)) in order.iter().enumerate() {
                    let sym = frozen.get(s).expect("frozen keeps every string");
                    assert_eq!(sym.to_u32() as usize, i + 1);
                    assert_eq!(frozen.resolve(sym), s);
                }
            }
        }
        assert_eq!(interner.len(), model.len());
        let mut live: Vec<&str> = handles.iter().map(|h| h.as_str()).collect();
        live.sort_unstable();
        live.dedup();
        assert_eq!(pool.len(), live.len());
    }
    drop(handles);
    assert!(pool.is_empty());
});
