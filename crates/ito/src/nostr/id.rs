//! Canonical serialization, event ids and signature checks.

use super::event::{Event, Tags};
use super::scan;
use sha2::{Digest, Sha256};
use std::cell::RefCell;

/// Appends the NIP-01 canonical serialization of `event`,
/// `[0,"<pubkey>",<created_at>,<kind>,<tags>,"<content>"]`, to `dst`: no
/// whitespace, strings escaped by [`escape`](super::escape) (tag strings are
/// decoded and re-escaped, so `"\/"` or `"\u0041"` in the input become `/`
/// and `A`, exactly as `JSON.stringify` or serde_json would write them).
///
/// ```
/// use ito::nostr::{canonical, Event};
/// let event = Event::parse(br#"{"id":"0000000000000000000000000000000000000000000000000000000000000000",
///   "pubkey":"0000000000000000000000000000000000000000000000000000000000000001","created_at":7,"kind":1,
///   "tags":[["t", "a\/b"]],"content":"line\nbreak",
///   "sig":"00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"}"#).unwrap();
/// let mut out = Vec::new();
/// canonical(&mut out, &event);
/// assert_eq!(out, br#"[0,"0000000000000000000000000000000000000000000000000000000000000001",7,1,[["t","a/b"]],"line\nbreak"]"#);
/// ```
pub fn canonical(dst: &mut Vec<u8>, event: &Event<'_>) {
    dst.reserve(64 + 48 + event.tags.raw().len() + event.content.len() + event.content.len() / 8);
    dst.extend_from_slice(b"[0,\"");
    crate::hex::encode_to_vec(dst, &event.pubkey, crate::hex::Case::Lower);
    dst.extend_from_slice(b"\",");
    let mut digits = itoa::Buffer::new();
    dst.extend_from_slice(digits.format(event.created_at).as_bytes());
    dst.push(b',');
    dst.extend_from_slice(digits.format(event.kind).as_bytes());
    dst.push(b',');
    canonical_tags(dst, &event.tags);
    dst.extend_from_slice(b",\"");
    super::escape(dst, event.content.as_bytes());
    dst.extend_from_slice(b"\"]");
}

/// Appends the tags without whitespace, strings canonically escaped.
pub(crate) fn canonical_tags(dst: &mut Vec<u8>, tags: &Tags<'_>) {
    let raw = tags.raw().as_bytes();
    if tags.is_compact() {
        dst.extend_from_slice(raw);
        return;
    }
    let mut i = 0;
    while let Some(&c) = raw.get(i) {
        match c {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            b'"' => {
                let Ok((end, escaped)) = scan::string_end(raw, i + 1) else {
                    // Tags are validated on construction; unreachable.
                    return;
                };
                dst.push(b'"');
                if escaped {
                    scan::recanonicalize(dst, &raw[i + 1..end]);
                } else {
                    // Validated string text without escapes has no `"`, `\`
                    // or control byte: its canonical form is itself.
                    dst.extend_from_slice(&raw[i + 1..end]);
                }
                dst.push(b'"');
                i = end + 1;
            }
            _ => {
                dst.push(c);
                i += 1;
            }
        }
    }
}

thread_local! {
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The event id: sha256 of the [`canonical`] serialization (sha2 uses the
/// CPU's SHA extensions when present). Serializes into a per-thread buffer
/// that is reused, so steady-state calls do not allocate.
///
/// ```
/// use ito::nostr::{event_id, Event};
/// let json = br#"{"id":"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65","pubkey":"6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93","created_at":1673347337,"kind":1,"tags":[["e","3da979448d9ba263864c4d6f14984c423a3838364ec255f03c7904b1ae77f206"],["p","bf2376e17ba4ec269d10fcc996a4746b451152be9031fa48e74553dde5526bce"]],"content":"Walled gardens became prisons, and nostr is the first step towards tearing down the prison walls.","sig":"908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262"}"#;
/// let event = Event::parse(json).unwrap();
/// assert_eq!(event_id(&event), event.id);
/// ```
pub fn event_id(event: &Event<'_>) -> [u8; 32] {
    let hash = |buf: &mut Vec<u8>| {
        buf.clear();
        canonical(buf, event);
        let id: [u8; 32] = Sha256::digest(buf.as_slice()).into();
        id
    };
    SCRATCH
        .try_with(|cell| match cell.try_borrow_mut() {
            Ok(mut buf) => hash(&mut buf),
            Err(_) => hash(&mut Vec::new()),
        })
        .unwrap_or_else(|_| hash(&mut Vec::new()))
}

/// [`event_id`] serializing into a caller's buffer (cleared first).
///
/// ```
/// # use ito::nostr::{event_id, event_id_with, Event};
/// # let json = br#"{"id":"0000000000000000000000000000000000000000000000000000000000000000","pubkey":"0000000000000000000000000000000000000000000000000000000000000000","created_at":0,"kind":0,"tags":[],"content":"","sig":"00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"}"#;
/// let event = Event::parse(json).unwrap();
/// let mut scratch = Vec::new();
/// assert_eq!(event_id_with(&mut scratch, &event), event_id(&event));
/// ```
pub fn event_id_with(scratch: &mut Vec<u8>, event: &Event<'_>) -> [u8; 32] {
    scratch.clear();
    canonical(scratch, event);
    Sha256::digest(scratch.as_slice()).into()
}

/// Whether `event.id` is the id its contents hash to.
///
/// ```
/// use ito::nostr::{verify_id, Event};
/// let json = br#"{"id":"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65","pubkey":"6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93","created_at":1673347337,"kind":1,"tags":[["e","3da979448d9ba263864c4d6f14984c423a3838364ec255f03c7904b1ae77f206"],["p","bf2376e17ba4ec269d10fcc996a4746b451152be9031fa48e74553dde5526bce"]],"content":"Walled gardens became prisons, and nostr is the first step towards tearing down the prison walls.","sig":"908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262"}"#;
/// let mut event = Event::parse(json).unwrap();
/// assert!(verify_id(&event));
/// event.kind = 7;
/// assert!(!verify_id(&event));
/// ```
pub fn verify_id(event: &Event<'_>) -> bool {
    event_id(event) == event.id
}

/// Whether `event.sig` is a valid BIP-340 Schnorr signature by
/// `event.pubkey` over `event.id` (the claimed id: check [`verify_id`] too,
/// or use [`verify`]). Requires the `schnorr` feature.
///
/// ```
/// use ito::nostr::{verify_signature, Event};
/// let json = br#"{"id":"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65","pubkey":"6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93","created_at":1673347337,"kind":1,"tags":[["e","3da979448d9ba263864c4d6f14984c423a3838364ec255f03c7904b1ae77f206"],["p","bf2376e17ba4ec269d10fcc996a4746b451152be9031fa48e74553dde5526bce"]],"content":"Walled gardens became prisons, and nostr is the first step towards tearing down the prison walls.","sig":"908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262"}"#;
/// let mut event = Event::parse(json).unwrap();
/// assert!(verify_signature(&event));
/// event.sig[0] ^= 1;
/// assert!(!verify_signature(&event));
/// ```
#[cfg(feature = "schnorr")]
pub fn verify_signature(event: &Event<'_>) -> bool {
    use secp256k1::{schnorr, XOnlyPublicKey};
    let Ok(key) = XOnlyPublicKey::from_byte_array(event.pubkey) else {
        return false;
    };
    let sig = schnorr::Signature::from_byte_array(event.sig);
    schnorr::verify(&sig, &event.id, &key).is_ok()
}

/// [`verify_id`] and [`verify_signature`] together: the id matches the
/// contents and the signature over it is valid. Requires the `schnorr`
/// feature.
///
/// ```
/// # use ito::nostr::{verify, Event};
/// # let json = br#"{"id":"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65","pubkey":"6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93","created_at":1673347337,"kind":1,"tags":[["e","3da979448d9ba263864c4d6f14984c423a3838364ec255f03c7904b1ae77f206"],["p","bf2376e17ba4ec269d10fcc996a4746b451152be9031fa48e74553dde5526bce"]],"content":"Walled gardens became prisons, and nostr is the first step towards tearing down the prison walls.","sig":"908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262"}"#;
/// let event = Event::parse(json).unwrap();
/// assert!(verify(&event));
/// ```
#[cfg(feature = "schnorr")]
pub fn verify(event: &Event<'_>) -> bool {
    verify_id(event) && verify_signature(event)
}
