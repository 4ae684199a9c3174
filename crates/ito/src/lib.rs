//! # ito (糸, "thread")
//!
//! Everyday string work for runtimes, serializers and relays, as fast as the
//! hardware allows and correct on every input.
//!
//! | module | what it does |
//! |---|---|
//! | [`json`] | render strings as JSON (`quote`, `escape`) and back (`unquote`, `unescape`) with one-pass SIMD kernels; whole documents with the typed [`json::Writer`] or, with `serde`, `json::to_vec` (byte-identical with serde_json) |
//! | [`hex`] | SIMD hex encode/decode |
//! | [`str`](mod@str) | [`Str`] (24-byte immutable string; facts and hash computed on demand and cached), [`StrBuf`], exact-size [`format!`] and [`concat!`] |
//! | [`nostr`] | NIP-01 canonical escaping, event parsing, ids, signing and verifying (feature `schnorr`), NIP-19 (feature `nip19`), relay text toolkit |
//! | [`intern`] | thread-safe interning with a bounded worst case ([`Interner`], [`Frozen`]) and collectable interning ([`Pool`]) |
//!
//! SIMD kernels are chosen once at run time; [`Kernel`] names them.
//!
//! ## Features
//! - `serde`: `Serialize`/`Deserialize` for the string types, and the JSON
//!   serializer `json::to_vec` & co. (pulls in `serde` and `typeid`).
//! - `schnorr`: BIP-340 signature verification and event signing for Nostr
//!   (`nostr::SecretKey`; pulls in `secp256k1`, `getrandom` and `zeroize`).
//! - `nip19`: NIP-19 `npub`/`nsec`/`note`/`nprofile`/`nevent`/`naddr` strings
//!   (`nostr::nip19`; pulls in `bech32` and `zeroize`, both without dependencies).
//! - `parallel`: checking batches and streams of events on every core (`nostr::batch`; pulls in `rayon`).

#![warn(missing_docs)]

mod hash;
pub mod hex;
pub mod intern;
pub mod json;
pub mod nostr;
mod simd;
pub mod str;

pub use intern::{Frozen, Interned, Interner, LocalInterner, Pool, Sym};
pub use simd::Kernel;
pub use str::{Str, StrBuf};

#[doc(hidden)]
pub use ito_macros::{concat_impl as __concat_impl, format_impl as __format_impl};
#[doc(hidden)]
pub use str::fmt_rt as __rt;

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
