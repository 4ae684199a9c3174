//! # ito (糸, "thread")
//!
//! Everyday string work for runtimes, serializers and relays, as fast as the
//! hardware allows and correct on every input.
//!
//! ## Which module do I need?
//!
//! | I want to… | use | instead of |
//! |---|---|---|
//! | write a string as a JSON literal, or decode one | [`json::quote`], [`json::unquote`], [`json::escape`], [`json::unescape`] | `serde_json::to_string(s)`, `from_str::<String>` |
//! | serialize or read a whole document (feature `serde`) | `json::to_vec`, `json::to_writer`, `json::to_vec_pretty`; `json::from_slice`, `json::from_str`, `json::from_reader` | `serde_json::to_vec`, `from_slice` & co. (byte-identical output, the same grammar and messages) |
//! | write a document by hand, valid by construction | [`json::Writer`], [`json::RawJson`] | string pasting |
//! | build strings with one exact-size allocation | [`Str`], [`format!`], [`concat!`], [`StrBuf`] | `String`, `format!`, `compact_str` |
//! | turn repeated strings into small symbols | [`LocalInterner`] (one thread), [`Interner`] (shared), [`Pool`] (collectable) | `string-interner`, `lasso` |
//! | parse, check and match Nostr events and relay messages | [`nostr`] | the `nostr` crate, nostr-tools |
//! | sign Nostr events, read and write `npub`/`nsec`/`note`… | `nostr::SecretKey`, `nostr::UnsignedEvent` (feature `schnorr`), `nostr::nip19` (feature `nip19`) | the `nostr` crate, nostr-tools' `finalizeEvent`, `nip19` |
//! | encode or decode hex | [`hex`] | `hex`, `const-hex`, `faster-hex` |
//!
//! SIMD kernels are chosen once at run time; [`Kernel`] names them.
//!
//! ## A short example per module
//!
//! ```
//! use ito::json;
//!
//! // JSON string literals, byte-identical with serde_json.
//! let mut out = Vec::new();
//! json::quote(&mut out, "tab\there \"quoted\"");
//! assert_eq!(out, br#""tab\there \"quoted\"""#);
//!
//! // Decoding borrows when there is nothing to unescape; errors name the byte.
//! let (value, used) = json::unquote(br#""plain" rest"#).unwrap();
//! assert!(matches!(value, std::borrow::Cow::Borrowed("plain")));
//! assert_eq!(used, 7);
//! let err = json::unescape(&mut Vec::new(), br"ok \x").unwrap_err();
//! assert_eq!(err.to_string(), r"invalid escape `\x` at byte 3");
//! ```
//!
//! ```
//! # #[cfg(feature = "serde")] {
//! // Documents (feature `serde`): serde_json's output and input, faster.
//! #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
//! struct User<'a> { name: &'a str, id: u64 }
//! let bytes = ito::json::to_vec(&User { name: "ada", id: 7 }).unwrap();
//! assert_eq!(bytes, br#"{"name":"ada","id":7}"#);
//! let back: User = ito::json::from_slice(&bytes).unwrap();  // borrows `name`
//! assert_eq!(back, User { name: "ada", id: 7 });
//! # }
//!
//! // Without serde: a writer whose scopes keep the document valid.
//! use ito::json::{RawJson, Writer};
//! let stored = RawJson::new(r#"{"id":"ab","kind":1}"#).unwrap(); // validated once
//! let mut out = Vec::new();
//! let mut msg = Writer::new(&mut out).array();   // ["EVENT", "sub", <event>]
//! msg.push("EVENT").push("sub").push(stored);
//! msg.end();                                     // dropping a scope closes it too
//! assert_eq!(out, br#"["EVENT","sub",{"id":"ab","kind":1}]"#);
//! ```
//!
//! ```
//! use ito::Str;
//!
//! // Exact-size interpolation: inline (no allocation) up to 23 bytes,
//! // otherwise exactly one allocation of exactly the final size.
//! let name = "world";
//! let s: Str = ito::format!("hello, {name}! {}", 42);
//! assert_eq!(s, "hello, world! 42");
//! assert!(s.is_ascii() && s.is_json_safe());
//!
//! // Facts survive concatenation; a JSON-safe Str is quoted with one memcpy.
//! let joined = ito::concat!(s, " / ", Str::from_static("static"));
//! let mut out = Vec::new();
//! ito::json::quote_str(&mut out, &joined);
//! assert_eq!(out, br#""hello, world! 42 / static""#);
//! ```
//!
//! ```
//! use ito::{Interner, LocalInterner, Pool};
//!
//! let interner = Interner::new();                    // thread-safe
//! let a = interner.intern("identifier");
//! assert_eq!(interner.intern("identifier"), a);      // same symbol
//! assert_eq!(interner.resolve(a), "identifier");     // lock-free
//! assert_eq!(interner.get("never seen"), None);      // lookups never insert
//!
//! let mut local = LocalInterner::new();              // one thread: no sharding
//! let b = local.intern("identifier");
//! assert_eq!(local.resolve(b), "identifier");
//!
//! let pool = Pool::new();                            // entries leave with their last handle
//! let x = pool.intern("user-42");
//! drop(x);
//! assert!(pool.is_empty());
//! ```
//!
//! ```
//! use ito::nostr::{self, Event};
//!
//! let line = r#"{"id":"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65","pubkey":"6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93","created_at":1673347337,"kind":1,"tags":[["e","3da979448d9ba263864c4d6f14984c423a3838364ec255f03c7904b1ae77f206"],["p","bf2376e17ba4ec269d10fcc996a4746b451152be9031fa48e74553dde5526bce"]],"content":"Walled gardens became prisons, and nostr is the first step towards tearing down the prison walls.","sig":"908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262"}"#;
//! let event = Event::parse_str(line).unwrap();     // borrows from the input
//! assert!(nostr::verify_id(&event));               // sha256 of the canonical form
//! let filter = nostr::Filter::parse(br#"{"kinds":[1],"since":1600000000}"#).unwrap();
//! assert!(filter.matches(&event));
//!
//! // Hex, SIMD both ways; fixed-size forms for ids.
//! let id: [u8; 32] = ito::hex::decode_array(b"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65").unwrap();
//! assert_eq!(id, event.id);
//! assert_eq!(ito::hex::encode(&id[..2]), "4376");
//! ```
//!
//! ```
//! # #[cfg(all(feature = "schnorr", feature = "nip19"))] {
//! // Signing (feature `schnorr`) and NIP-19 strings (feature `nip19`).
//! use ito::nostr::{nip19, verify, SecretKey, UnsignedEvent};
//! let key = SecretKey::from_bytes(&[1; 32]).unwrap();
//! let event = UnsignedEvent::new(1, "gm").sign(&key);  // id and BIP-340 signature
//! assert!(verify(&event));
//! let npub = nip19::encode_npub(&key.public_key());
//! assert_eq!(nip19::decode_npub(&npub).unwrap(), key.public_key());
//! # }
//! ```
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

/// The README's examples, compiled and run as doc tests (they use the
/// serializer, signing and NIP-19 features).
#[cfg(all(doctest, feature = "serde", feature = "schnorr", feature = "nip19"))]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
