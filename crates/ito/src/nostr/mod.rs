//! NIP-01: canonical escaping, event parsing, event ids and signatures, and
//! the relay text toolkit ([`text`]).
//!
//! A Nostr event id is the sha256 of the canonical serialization
//! `[0,"<pubkey hex>",<created_at>,<kind>,<tags>,"<content>"]`. Strings in it
//! are escaped minimally: `\n \" \\ \r \t \b \f` get their short escapes,
//! every other byte below 0x20 becomes lowercase `\u00xx`, and everything
//! else (`/`, DEL, all non-ASCII) is written verbatim. That is what
//! serde_json, `JSON.stringify` (nostr-tools), go-nostr and rust-nostr
//! produce, so ids agree byte for byte.
//!
//! - [`escape`] / [`unescape`] / [`unescape_in_place`]: the string codec on
//!   arbitrary bytes. Escaping is [`crate::json`](mod@crate::json)'s SIMD kernel (its default
//!   escaping on bytes is exactly NIP-01's rule).
//!   Unescaping accepts any bytes, copying bytes >= 0x80 verbatim whether or
//!   not they are UTF-8, so `unescape(escape(x)) == x` for every byte string
//!   (relays treat content as bytes); it rejects what JSON forbids in string
//!   text: raw control bytes, a raw `"`, unknown escapes, malformed `\u`,
//!   lone surrogates, a trailing lone `\`.
//! - [`Event::parse`]: one event object, fields in any order, unknown fields
//!   skipped, UTF-8 validated; errors carry the byte offset and the
//!   [`Field`].
//! - [`canonical`], [`event_id`], [`verify_id`]; with the `schnorr` feature
//!   also `verify_signature` and `verify` (BIP-340 via `secp256k1`).
//! - The relay wire protocol: [`ClientMessage::parse`] (`EVENT`, `REQ`,
//!   `COUNT`, `CLOSE`, `AUTH`, borrowing from the input), [`Filter`] with
//!   [`Filter::matches`] and [`matches_any`], [`FilterIndex`] for one event
//!   against many open filters, [`Subscriptions`] for the same keyed by
//!   subscription id, and [`RelayMessage`] /
//!   [`Event::write_json`] writing what `JSON.stringify` writes.
//! - With the `parallel` feature, [`batch`]: checking slices, JSON-lines
//!   buffers and streams of events on every core, in input order.
//!
//! The command-line jobs are one-liners:
//!
//! ```
//! use ito::nostr::{event_id, verify_id, Event};
//! # let line = br#"{"id":"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65","pubkey":"6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93","created_at":1673347337,"kind":1,"tags":[["e","3da979448d9ba263864c4d6f14984c423a3838364ec255f03c7904b1ae77f206"],["p","bf2376e17ba4ec269d10fcc996a4746b451152be9031fa48e74553dde5526bce"]],"content":"Walled gardens became prisons, and nostr is the first step towards tearing down the prison walls.","sig":"908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262"}"#;
//! let event = Event::parse(line)?;                  // Err: "`pubkey`: ... at byte 9"
//! let id_hex = ito::hex::encode(&event_id(&event)); // `ito nostr id`
//! assert!(verify_id(&event));                       // `ito nostr verify`
//! # assert_eq!(id_hex, "4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65");
//! # Ok::<(), ito::nostr::Error>(())
//! ```
//!
//! A relay's loop, end to end:
//!
//! ```
//! use ito::nostr::{matches_any, verify_id, ClientMessage, RelayMessage};
//! # let event = r#"{"id":"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65","pubkey":"6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93","created_at":1673347337,"kind":1,"tags":[["e","3da979448d9ba263864c4d6f14984c423a3838364ec255f03c7904b1ae77f206"],["p","bf2376e17ba4ec269d10fcc996a4746b451152be9031fa48e74553dde5526bce"]],"content":"Walled gardens became prisons, and nostr is the first step towards tearing down the prison walls.","sig":"908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262"}"#;
//! let req = ClientMessage::parse(br#"["REQ", "feed", {"kinds": [1]}]"#)?;
//! let ClientMessage::Req { subscription_id, filters } = req else { unreachable!() };
//! let incoming = format!(r#"["EVENT", {event}]"#);
//! let ClientMessage::Event { event, raw } = ClientMessage::parse(incoming.as_bytes())? else { unreachable!() };
//! let mut out = Vec::new();
//! RelayMessage::Ok { event_id: &event.id, accepted: verify_id(&event), message: "" }.write(&mut out);
//! if matches_any(&filters, &event) {
//!     out.clear();
//!     RelayMessage::EventRaw { subscription_id: &subscription_id, event: raw }.write(&mut out);
//!     assert!(out.starts_with(br#"["EVENT","feed",{"id":"4376"#));
//! }
//! # Ok::<(), ito::nostr::Error>(())
//! ```
//!
//! Creating events: [`UnsignedEvent`] (a template: created_at, kind, tags,
//! content) and, with the `schnorr` feature, [`SecretKey`] and
//! [`UnsignedEvent::sign`], which derives the pubkey, computes the id and
//! signs it (BIP-340, fresh auxiliary randomness), giving an [`Event`] that
//! serializes, hashes and verifies like a parsed one. With the `nip19`
//! feature, [`nip19`] reads and writes `npub`, `nsec`, `note`, `nprofile`,
//! `nevent` and `naddr` strings.
//!
//! ```
//! # #[cfg(feature = "schnorr")] {
//! use ito::nostr::{verify, SecretKey, UnsignedEvent};
//! let key = SecretKey::generate()?;
//! let template = br#"{"created_at":1700000000,"kind":1,"tags":[["t","nostr"]],"content":"gm"}"#;
//! let event = UnsignedEvent::parse(template)?.sign(&key);
//! assert!(verify(&event));
//! let mut json = Vec::new();
//! event.to_json(&mut json); // {"id":"…","pubkey":"…","created_at":1700000000,…,"sig":"…"}
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "parallel")]
pub mod batch;
mod error;
mod event;
mod filter;
mod id;
mod index;
#[cfg(feature = "schnorr")]
mod keys;
mod message;
#[cfg(feature = "nip19")]
pub mod nip19;
mod relay;
mod scan;
mod subscriptions;
pub mod text;
mod unsigned;

pub use error::{Error, ErrorKind, Field};
pub use event::{Event, Tag, TagIter, TagValues, Tags, MAX_DEPTH};
pub use filter::{matches_any, Filter, SeededHasher, SeededState, Set, TagFilter};
pub use id::{canonical, event_id, event_id_with, verify_id};
#[cfg(feature = "schnorr")]
pub use id::{verify, verify_signature};
pub use index::FilterIndex;
#[cfg(feature = "schnorr")]
pub use keys::{KeyError, SecretKey};
pub use message::ClientMessage;
pub use relay::RelayMessage;
pub use subscriptions::Subscriptions;
pub use unsigned::{tags_to_json, UnsignedEvent};

/// Appends `src` escaped by the NIP-01 rule (see the [module docs](self)) to
/// `dst`, without quotes. Any bytes are accepted; bytes >= 0x80 are copied
/// verbatim.
///
/// ```
/// let mut out = Vec::new();
/// ito::nostr::escape(&mut out, "a\"b\\c\n\u{1}/é".as_bytes());
/// assert_eq!(out, br#"a\"b\\c\n\u0001/"#.iter().chain("é".as_bytes()).copied().collect::<Vec<u8>>());
/// ```
#[inline]
pub fn escape(dst: &mut Vec<u8>, src: &[u8]) {
    crate::json::escape_bytes(dst, src)
}

/// Appends the decoded form of JSON string text `src` (without quotes) to
/// `dst`. On error `dst` is left as it was.
///
/// ```
/// use ito::nostr::{unescape, ErrorKind};
/// let mut out = Vec::new();
/// unescape(&mut out, br"C:\\users \u00e9\ud83d\ude00").unwrap();
/// assert_eq!(out, "C:\\users é😀".as_bytes());
/// let err = unescape(&mut out, br"trailing \").unwrap_err();
/// assert_eq!((err.offset(), err.kind()), (9, ErrorKind::UnexpectedEnd));
/// ```
#[inline]
pub fn unescape(dst: &mut Vec<u8>, src: &[u8]) -> Result<(), Error> {
    // The length is only set on success.
    scan::unescape_into(dst, src)
}

/// Decodes JSON string text in place and returns the decoded length (the
/// decoded form is never longer). On error the buffer's contents are
/// unspecified.
///
/// ```
/// let mut buf = *br"tab\there";
/// let n = ito::nostr::unescape_in_place(&mut buf).unwrap();
/// assert_eq!(&buf[..n], b"tab\there");
/// ```
#[inline]
pub fn unescape_in_place(buf: &mut [u8]) -> Result<usize, Error> {
    scan::unescape_in_place(buf)
}
