//! # ito (糸, "thread")
//!
//! Everyday string work for runtimes, serializers and relays, as fast as the
//! hardware allows and correct on every input.
//!
//! | module | what it does |
//! |---|---|
//! | [`json`] | render strings as JSON (`quote`, `escape`) and back (`unquote`, `unescape`) with one-pass SIMD kernels |
//! | [`hex`] | SIMD hex encode/decode |
//! | [`nostr`] | NIP-01 canonical escaping, event parsing, ids, signatures (feature `schnorr`), relay text toolkit |
//!
//! SIMD kernels are chosen once at run time; [`Kernel`] names them.
//!
//! ## Features
//! - `serde`: `Serialize`/`Deserialize` for the string types (pulls in `serde`).
//! - `schnorr`: BIP-340 signature verification for Nostr events (pulls in `secp256k1`).

#![warn(missing_docs)]

mod hash;
pub mod hex;
pub mod nostr;
mod simd;

pub use simd::Kernel;
