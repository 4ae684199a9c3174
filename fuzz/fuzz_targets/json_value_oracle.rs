//! Arbitrary bytes parsed into `ito::json::Value` and by serde_json (with
//! `float_roundtrip`): the same verdict, the same document, the same error
//! message, line and column; a parsed document renders as serde_json
//! renders it (compact), and reads back to itself; every key looked up
//! finds its value. The exact-precision parse agrees with the plain one
//! (numbers beyond `f64` aside), renders back to itself, and holds the
//! same document once its numbers are read as `f64`. The arena entries
//! (`from_slice_in`, `from_slice_exact_in`, into an arena with a small
//! first block) build the same documents, in the same order, or fail alike.
#![no_main]

use libfuzzer_sys::fuzz_target;

fn keys_found(v: &ito::json::Value<'_>) {
    match v {
        ito::json::Value::Array(a) => a.iter().for_each(keys_found),
        ito::json::Value::Object(o) => {
            for (k, x) in o.iter() {
                // Duplicates were resolved: every key finds its own value.
                assert!(std::ptr::eq(o.get(k).unwrap(), x));
                keys_found(x);
            }
        }
        _ => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let exact = ito::json::Value::from_slice_exact(data);
    let plain = ito::json::Value::from_slice(data);
    let arena = ito::json::Arena::with_capacity(64);
    let render = |r: &Result<ito::json::Value<'_>, ito::json::de::Error>| match r {
        Ok(v) => Ok(v.to_vec()),
        Err(e) => Err((e.to_string(), e.offset())),
    };
    assert_eq!(
        render(&ito::json::Value::from_slice_in(&arena, data)),
        render(&plain)
    );
    assert_eq!(
        render(&ito::json::Value::from_slice_exact_in(&arena, data)),
        render(&exact)
    );
    match (&exact, &plain) {
        (Ok(e), Ok(p)) => {
            let text = e.to_vec();
            assert_eq!(&ito::json::Value::from_slice_exact(&text).unwrap(), e);
            // Exact numbers read as f64 give the plain document.
            assert_eq!(serde_json::Value::from(e), serde_json::Value::from(p));
        }
        // Exact numbers have no range: past one, the parses part ways.
        (_, Err(p)) if p.to_string().starts_with("number out of range") => {}
        (Err(e), Err(p)) => assert_eq!(e.to_string(), p.to_string()),
        (Ok(_), Err(p)) => panic!("the plain parse refused what exact read: {p}"),
        (Err(e), Ok(_)) => panic!("exact refused what the plain parse read: {e}"),
    }
    let ours = plain;
    let theirs = serde_json::from_slice::<serde_json::Value>(data);
    match (ours, theirs) {
        (Ok(a), Ok(b)) => {
            assert_eq!(serde_json::Value::from(&a), b);
            let text = a.to_vec();
            assert_eq!(ito::json::Value::from_slice(&text).unwrap(), a);
            // serde_json's rendering of the same document in the same order.
            assert_eq!(serde_json::to_vec(&a).unwrap(), text);
            keys_found(&a);
        }
        (Err(a), Err(b)) => {
            assert_eq!(a.to_string(), b.to_string());
            assert_eq!((a.line(), a.column()), (b.line(), b.column()));
        }
        (a, b) => panic!("verdicts differ: ito {:?}, serde_json {b:?}", a.map(|_| ())),
    }
});
