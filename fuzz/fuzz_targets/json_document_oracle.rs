//! An arbitrary JSON value tree: ito's `to_vec` and `to_vec_pretty` equal
//! serde_json's byte for byte, the Writer renders the same bytes by hand,
//! and `RawJson` accepts the output and writes it back verbatim.
#![no_main]

use arbitrary::Unstructured;
use ito::json::{self, RawJson, Writer};
use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Number, Value};

fn value(u: &mut Unstructured<'_>, depth: u32) -> arbitrary::Result<Value> {
    let pick = if depth > 6 { u.int_in_range(0..=5)? } else { u.int_in_range(0..=7)? };
    Ok(match pick {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => Value::from(u.arbitrary::<i64>()?),
        3 => Value::from(u.arbitrary::<u64>()?),
        4 => Number::from_f64(f64::from_bits(u.arbitrary()?)).map_or(Value::Null, Value::Number),
        5 => Value::String(u.arbitrary()?),
        6 => {
            let n = u.int_in_range(0..=6)?;
            Value::Array((0..n).map(|_| value(u, depth + 1)).collect::<Result<_, _>>()?)
        }
        _ => {
            let n = u.int_in_range(0..=6)?;
            let mut m = Map::new();
            for _ in 0..n {
                m.insert(u.arbitrary()?, value(u, depth + 1)?);
            }
            Value::Object(m)
        }
    })
}

fn write(w: Writer<'_>, v: &Value) {
    match v {
        Value::Null => w.null(),
        Value::Bool(b) => w.value(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => w.value(u),
            (_, Some(i), _) => w.value(i),
            (_, _, f) => w.value(f.unwrap()),
        },
        Value::String(s) => w.value(s),
        Value::Array(items) => {
            let mut a = w.array();
            for item in items {
                write(a.slot(), item);
            }
        }
        Value::Object(m) => {
            let mut o = w.object();
            for (k, item) in m {
                write(o.key(k), item);
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(v) = value(&mut Unstructured::new(data), 0) else { return };
    let ours = json::to_vec(&v).unwrap();
    assert_eq!(ours, serde_json::to_vec(&v).unwrap());
    assert_eq!(json::to_vec_pretty(&v).unwrap(), serde_json::to_vec_pretty(&v).unwrap());
    let mut by_hand = Vec::new();
    write(Writer::new(&mut by_hand), &v);
    assert_eq!(by_hand, ours);
    let raw = RawJson::from_bytes(&ours).expect("our output is JSON");
    assert_eq!(json::to_vec(raw).unwrap(), ours);
});
