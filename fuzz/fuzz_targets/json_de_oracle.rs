//! Arbitrary bytes read by ito's deserializer and by serde_json (with
//! `float_roundtrip`): the same verdict, the same `Value`, the same error
//! message, line and column, as `Value`, as `IgnoredAny`, from bytes and
//! (when the bytes are UTF-8) from text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde::de::IgnoredAny;
use serde_json::Value;

fn same<T: PartialEq + std::fmt::Debug>(
    ours: Result<T, ito::json::de::Error>,
    theirs: Result<T, serde_json::Error>,
) {
    match (ours, theirs) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(a), Err(b)) => {
            assert_eq!(a.to_string(), b.to_string());
            assert_eq!((a.line(), a.column()), (b.line(), b.column()));
        }
        (a, b) => panic!("verdicts differ: ito {a:?}, serde_json {b:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    same(
        ito::json::from_slice::<Value>(data),
        serde_json::from_slice::<Value>(data),
    );
    same(
        ito::json::from_slice::<IgnoredAny>(data).map(|_| ()),
        serde_json::from_slice::<IgnoredAny>(data).map(|_| ()),
    );
    if let Ok(text) = std::str::from_utf8(data) {
        same(
            ito::json::from_str::<Value>(text),
            serde_json::from_str::<Value>(text),
        );
    }
});
