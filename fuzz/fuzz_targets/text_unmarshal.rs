//! The relay text toolkit's readers on arbitrary bytes: never panic, leave
//! outputs untouched on error, and what they accept agrees with serde_json.
#![no_main]

use ito::nostr::text::{self, Strings};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut strings = Strings::new();
    strings.push(b"keep");
    match text::unmarshal_string_array(&mut strings, data) {
        Ok(rest) => {
            let consumed = &data[..data.len() - rest.len()];
            // serde_json needs UTF-8 strings; ito's toolkit works on bytes.
            if let Ok(parsed) = serde_json::from_slice::<Vec<String>>(consumed) {
                assert_eq!(parsed.len() + 1, strings.len());
                for (p, s) in parsed.iter().zip(strings.iter().skip(1)) {
                    assert_eq!(p.as_bytes(), s);
                }
            }
        }
        Err(_) => assert_eq!(strings.len(), 1),
    }
    let mut ids: Vec<[u8; 4]> = vec![[9; 4]];
    match text::unmarshal_hex_array(&mut ids, data) {
        Ok(rest) => {
            let consumed = &data[..data.len() - rest.len()];
            let parsed: Vec<String> = serde_json::from_slice(consumed).expect("hex array is JSON");
            assert_eq!(parsed.len() + 1, ids.len());
        }
        Err(_) => assert_eq!(ids.len(), 1),
    }
    let mut out = vec![1];
    if text::unmarshal_quoted(&mut out, data).is_err() {
        assert_eq!(out, [1]);
    }
    let _ = text::unmarshal_quoted_in_place(&mut data.to_vec());
    let _ = text::unmarshal_hex(&mut Vec::new(), data);
    let _ = text::unmarshal_hex_fixed::<32>(data);
    let _ = text::unmarshal_bool(data);
    let _ = text::skip_comma(data);
});
