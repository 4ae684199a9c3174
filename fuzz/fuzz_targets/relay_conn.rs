//! The relay's connection state machine without a socket
//! (`ito_relay::Session` on a `MemoryStore`): a random scenario of client
//! frames (signed events of every kind class, deletions, expirations,
//! direct messages, REQ/COUNT/CLOSE with small limits, NIP-42 AUTH right
//! and wrong, garbage and truncated frames) is driven through it, and the
//! answers must keep the documented invariants:
//!
//! - every frame the relay sends is a JSON array naming a relay message;
//! - every `EVENT` and `AUTH` gets exactly one `OK`, naming its id;
//! - every `REQ` gets at most one `EOSE`/`CLOSED`, and a subscription
//!   whose last message was a `REQ` gets one;
//! - every `COUNT` gets exactly one `COUNT` or `CLOSED`;
//! - every garbage or truncated frame gets exactly one `NOTICE`;
//! - with AUTH on: one challenge, first; a delivered kind 4 or 1059 is the
//!   authenticated party's (author or `p`-tagged); delivered events verify.
//!
//! The scenario and its checks live beside the relay's tests
//! (crates/ito-relay/tests/scenario), which also run a seeded sample of
//! them on every `cargo test`.
#![no_main]

#[path = "../../crates/ito-relay/tests/scenario/mod.rs"]
mod scenario;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| scenario::run(&scenario::Scenario::from_bytes(data)));
