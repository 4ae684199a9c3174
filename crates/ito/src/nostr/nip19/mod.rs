//! NIP-19: the `npub1…`, `nsec1…`, `note1…`, `nprofile1…`, `nevent1…` and
//! `naddr1…` strings clients show and users paste. Requires the `nip19`
//! feature (the `bech32` and `zeroize` crates; not `schnorr`).
//!
//! Each is a bech32 string (BIP-173): a prefix naming the type, `1`, the
//! data in a 32-letter alphabet, and a six-character checksum. `npub`,
//! `nsec` and `note` carry 32 bytes. The other three carry TLV records
//! (type, length, value):
//!
//! | type | `nprofile` | `nevent` | `naddr` |
//! |---|---|---|---|
//! | 0 special | pubkey (32) | event id (32) | identifier (text) |
//! | 1 relay | relay URL, any number | relay URL, any number | relay URL, any number |
//! | 2 author | | pubkey (32), optional | pubkey (32), required |
//! | 3 kind | | u32 big-endian, optional | u32 big-endian, required |
//!
//! Decoding follows NIP-19 and BIP-173: records of unknown types are
//! skipped, the first record of a known single-valued type counts,
//! all-uppercase strings are accepted and mixed-case ones refused, the
//! checksum is bech32's (not bech32m's). Strings may be up to
//! [`MAX_LENGTH`] characters, as in nostr-tools, rather than bech32's 90.
//! Encoders write records in type order (0, relays, 2, 3); implementations
//! differ in that order, so two encodings of one pointer may differ as
//! strings and still decode to equal values.
//!
//! ```
//! use ito::nostr::nip19::{self, EventPointer, Nip19};
//! let id = [0xab; 32];
//! let note = nip19::encode_note(&id);
//! assert!(note.starts_with("note1"));
//! assert_eq!(nip19::decode(&note)?, Nip19::Note(id));
//!
//! let pointer = EventPointer { id, relays: vec!["wss://relay.example".into()], author: None, kind: Some(1) };
//! let nevent = pointer.encode()?;
//! assert_eq!(nip19::decode(&nevent)?, Nip19::Nevent(pointer));
//! # Ok::<(), nip19::Error>(())
//! ```

mod bech32_text;
mod error;
mod tlv;

use std::fmt;

use zeroize::Zeroizing;

pub use error::Error;

/// The longest NIP-19 string accepted or produced, in characters (the limit
/// nostr-tools uses).
///
/// ```
/// let relays = vec!["wss://relay.example/".repeat(10); 20];
/// let too_long = ito::nostr::nip19::ProfilePointer { pubkey: [1; 32], relays };
/// assert!(matches!(too_long.encode(), Err(ito::nostr::nip19::Error::TooLong { .. })));
/// ```
pub const MAX_LENGTH: usize = 5000;

const NPUB: &str = "npub";
const NSEC: &str = "nsec";
const NOTE: &str = "note";
const NPROFILE: &str = "nprofile";
const NEVENT: &str = "nevent";
const NADDR: &str = "naddr";

/// A decoded NIP-19 string.
///
/// ```
/// use ito::nostr::nip19::{decode, Nip19};
/// let npub = "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6";
/// let Nip19::Npub(pubkey) = decode(npub)? else { panic!() };
/// assert_eq!(ito::hex::encode(&pubkey), "3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d");
/// assert_eq!(decode(npub)?.prefix(), "npub");
/// # Ok::<(), ito::nostr::nip19::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Nip19 {
    /// `npub`: a public key.
    Npub([u8; 32]),
    /// `nsec`: a secret key.
    Nsec(SecretBytes),
    /// `note`: an event id.
    Note([u8; 32]),
    /// `nprofile`: a public key with relays.
    Nprofile(ProfilePointer),
    /// `nevent`: an event id with relays, author and kind.
    Nevent(EventPointer),
    /// `naddr`: an addressable event's coordinate.
    Naddr(AddressPointer),
}

/// A profile: a public key and relays where it may be found (`nprofile`).
///
/// ```
/// use ito::nostr::nip19::{decode, Nip19, ProfilePointer};
/// let p = ProfilePointer { pubkey: [3; 32], relays: vec!["wss://r.example".into()] };
/// assert_eq!(decode(&p.encode()?)?, Nip19::Nprofile(p));
/// # Ok::<(), ito::nostr::nip19::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ProfilePointer {
    /// The x-only public key.
    pub pubkey: [u8; 32],
    /// Relay URLs, in order.
    pub relays: Vec<String>,
}

/// An event: its id and, optionally, relays, author and kind (`nevent`).
///
/// ```
/// use ito::nostr::nip19::{decode, EventPointer, Nip19};
/// let p = EventPointer { id: [4; 32], relays: vec![], author: Some([5; 32]), kind: None };
/// assert_eq!(decode(&p.encode()?)?, Nip19::Nevent(p));
/// # Ok::<(), ito::nostr::nip19::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EventPointer {
    /// The event id.
    pub id: [u8; 32],
    /// Relay URLs, in order.
    pub relays: Vec<String>,
    /// The author's public key, if given.
    pub author: Option<[u8; 32]>,
    /// The event kind, if given (NIP-19 stores 32 bits).
    pub kind: Option<u32>,
}

/// An addressable event's coordinate: kind, author and `d` identifier, with
/// relays (`naddr`).
///
/// ```
/// use ito::nostr::nip19::{decode, AddressPointer, Nip19};
/// let p = AddressPointer { identifier: "my-article".into(), pubkey: [6; 32], kind: 30023, relays: vec![] };
/// assert_eq!(decode(&p.encode()?)?, Nip19::Naddr(p));
/// # Ok::<(), ito::nostr::nip19::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AddressPointer {
    /// The `d` tag's value (may be empty).
    pub identifier: String,
    /// The author's public key.
    pub pubkey: [u8; 32],
    /// The event kind (NIP-19 stores 32 bits).
    pub kind: u32,
    /// Relay URLs, in order.
    pub relays: Vec<String>,
}

/// The 32 bytes of a secret key from an `nsec`: zeroed when dropped, printed
/// as `[redacted]`. (With the `schnorr` feature,
/// [`SecretKey::parse`](crate::nostr::SecretKey::parse) reads an `nsec`
/// straight into a key.)
///
/// ```
/// use ito::nostr::nip19::{decode_nsec, SecretBytes};
/// let secret = decode_nsec("nsec1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqps52s3re")?;
/// assert_eq!(secret.expose()[31], 3);
/// assert_eq!(format!("{secret:?}"), "[redacted]");
/// assert_eq!(secret, SecretBytes::new([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3]));
/// # Ok::<(), ito::nostr::nip19::Error>(())
/// ```
#[derive(Clone)]
pub struct SecretBytes(Zeroizing<[u8; 32]>);

impl SecretBytes {
    /// Wraps 32 secret bytes.
    ///
    /// ```
    /// let s = ito::nostr::nip19::SecretBytes::new([1; 32]);
    /// assert_eq!(s.expose(), &[1; 32]);
    /// ```
    pub fn new(bytes: [u8; 32]) -> SecretBytes {
        SecretBytes(Zeroizing::new(bytes))
    }

    /// The bytes (the name is a reminder that they are secret).
    ///
    /// ```
    /// assert_eq!(ito::nostr::nip19::SecretBytes::new([2; 32]).expose()[0], 2);
    /// ```
    pub fn expose(&self) -> &[u8; 32] {
        &self.0
    }
}

impl fmt::Debug for SecretBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

/// Compares every byte whatever the first difference (no early exit).
impl PartialEq for SecretBytes {
    fn eq(&self, other: &SecretBytes) -> bool {
        self.0
            .iter()
            .zip(other.0.iter())
            .fold(0, |acc, (a, b)| acc | (a ^ b))
            == 0
    }
}

impl Eq for SecretBytes {}

/// Decodes any NIP-19 string.
///
/// ```
/// use ito::nostr::nip19::{decode, Error, Nip19};
/// assert!(matches!(decode("note1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn2l0z3")?, Nip19::Note(_)));
/// // Upper case is fine, mixed case and a wrong character are not.
/// assert!(decode("NOTE1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQN2L0Z3").is_ok());
/// assert_eq!(decode("note1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn2l0z4"), Err(Error::Checksum));
/// assert_eq!(decode("note1qqqqqbqqq").unwrap_err().to_string(), "invalid character `b` at byte 10");
/// # Ok::<(), Error>(())
/// ```
pub fn decode(s: &str) -> Result<Nip19, Error> {
    let (prefix, data) = bech32_text::decode(s)?;
    match prefix.as_str() {
        NPUB => fixed(NPUB, &data).map(Nip19::Npub),
        NSEC => fixed(NSEC, &data).map(|b| Nip19::Nsec(SecretBytes::new(b))),
        NOTE => fixed(NOTE, &data).map(Nip19::Note),
        NPROFILE => profile(&data).map(Nip19::Nprofile),
        NEVENT => event(&data).map(Nip19::Nevent),
        NADDR => address(&data).map(Nip19::Naddr),
        _ => Err(Error::UnknownPrefix { prefix }),
    }
}

/// Decodes an `npub` to the public key; any other type is
/// [`Error::WrongPrefix`].
///
/// ```
/// use ito::nostr::nip19::{decode_npub, encode_note, Error};
/// assert_eq!(decode_npub("npub1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqpscums9v")?[31], 3);
/// assert!(matches!(decode_npub(&encode_note(&[0; 32])), Err(Error::WrongPrefix { expected: "npub", .. })));
/// # Ok::<(), Error>(())
/// ```
pub fn decode_npub(s: &str) -> Result<[u8; 32], Error> {
    expect_fixed(NPUB, s).map(|b| *b.expose())
}

/// Decodes a `note` to the event id.
///
/// ```
/// let id = [9; 32];
/// assert_eq!(ito::nostr::nip19::decode_note(&ito::nostr::nip19::encode_note(&id))?, id);
/// # Ok::<(), ito::nostr::nip19::Error>(())
/// ```
pub fn decode_note(s: &str) -> Result<[u8; 32], Error> {
    expect_fixed(NOTE, s).map(|b| *b.expose())
}

/// Decodes an `nsec` to the secret key's bytes.
///
/// ```
/// let secret = ito::nostr::nip19::SecretBytes::new([7; 32]);
/// let nsec = ito::nostr::nip19::encode_nsec(secret.expose());
/// assert_eq!(ito::nostr::nip19::decode_nsec(&nsec)?, secret);
/// # Ok::<(), ito::nostr::nip19::Error>(())
/// ```
pub fn decode_nsec(s: &str) -> Result<SecretBytes, Error> {
    expect_fixed(NSEC, s)
}

/// Encodes a public key as `npub1…`.
///
/// ```
/// let pubkey = ito::hex::decode(b"3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d").unwrap();
/// assert_eq!(ito::nostr::nip19::encode_npub(pubkey.as_slice().try_into().unwrap()),
///            "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6");
/// ```
pub fn encode_npub(pubkey: &[u8; 32]) -> String {
    encode_fixed(NPUB, pubkey)
}

/// Encodes a secret key's bytes as `nsec1…` (the result is as secret as
/// the key).
///
/// ```
/// let nsec = ito::nostr::nip19::encode_nsec(&[1; 32]);
/// assert!(nsec.starts_with("nsec1") && nsec.len() == 63);
/// ```
pub fn encode_nsec(secret: &[u8; 32]) -> String {
    encode_fixed(NSEC, secret)
}

/// Encodes an event id as `note1…`.
///
/// ```
/// assert_eq!(ito::nostr::nip19::encode_note(&[0; 32]),
///            "note1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn2l0z3");
/// ```
pub fn encode_note(id: &[u8; 32]) -> String {
    encode_fixed(NOTE, id)
}

impl Nip19 {
    /// The type's prefix: `npub`, `nsec`, `note`, `nprofile`, `nevent` or
    /// `naddr`.
    ///
    /// ```
    /// assert_eq!(ito::nostr::nip19::Nip19::Note([0; 32]).prefix(), "note");
    /// ```
    pub fn prefix(&self) -> &'static str {
        match self {
            Nip19::Npub(_) => NPUB,
            Nip19::Nsec(_) => NSEC,
            Nip19::Note(_) => NOTE,
            Nip19::Nprofile(_) => NPROFILE,
            Nip19::Nevent(_) => NEVENT,
            Nip19::Naddr(_) => NADDR,
        }
    }

    /// Encodes the value (the inverse of [`decode`]).
    ///
    /// ```
    /// use ito::nostr::nip19::{decode, Nip19};
    /// let value = Nip19::Npub([1; 32]);
    /// assert_eq!(decode(&value.encode()?)?, value);
    /// # Ok::<(), ito::nostr::nip19::Error>(())
    /// ```
    pub fn encode(&self) -> Result<String, Error> {
        match self {
            Nip19::Npub(b) => Ok(encode_npub(b)),
            Nip19::Nsec(b) => Ok(encode_nsec(b.expose())),
            Nip19::Note(b) => Ok(encode_note(b)),
            Nip19::Nprofile(p) => p.encode(),
            Nip19::Nevent(p) => p.encode(),
            Nip19::Naddr(p) => p.encode(),
        }
    }
}

impl ProfilePointer {
    /// Encodes as `nprofile1…`; an error if a relay URL is longer than 255
    /// bytes or the string would exceed [`MAX_LENGTH`].
    ///
    /// ```
    /// let p = ito::nostr::nip19::ProfilePointer { pubkey: [0; 32], relays: vec![] };
    /// assert!(p.encode()?.starts_with("nprofile1"));
    /// # Ok::<(), ito::nostr::nip19::Error>(())
    /// ```
    pub fn encode(&self) -> Result<String, Error> {
        let mut data = Vec::with_capacity(34 + relays_len(&self.relays));
        tlv::write(&mut data, 0, &self.pubkey)?;
        write_relays(&mut data, &self.relays)?;
        bech32_text::encode(NPROFILE, &data)
    }

    /// Decodes an `nprofile` string.
    ///
    /// ```
    /// use ito::nostr::nip19::ProfilePointer;
    /// let p = ProfilePointer { pubkey: [8; 32], relays: vec!["wss://a".into(), "wss://b".into()] };
    /// assert_eq!(ProfilePointer::decode(&p.encode()?)?, p);
    /// # Ok::<(), ito::nostr::nip19::Error>(())
    /// ```
    pub fn decode(s: &str) -> Result<ProfilePointer, Error> {
        profile(&expect(NPROFILE, s)?)
    }
}

impl EventPointer {
    /// Encodes as `nevent1…`; an error if a relay URL is longer than 255
    /// bytes or the string would exceed [`MAX_LENGTH`].
    ///
    /// ```
    /// let p = ito::nostr::nip19::EventPointer { id: [0; 32], relays: vec![], author: None, kind: None };
    /// assert!(p.encode()?.starts_with("nevent1"));
    /// # Ok::<(), ito::nostr::nip19::Error>(())
    /// ```
    pub fn encode(&self) -> Result<String, Error> {
        let mut data = Vec::with_capacity(34 + 34 + 6 + relays_len(&self.relays));
        tlv::write(&mut data, 0, &self.id)?;
        write_relays(&mut data, &self.relays)?;
        if let Some(author) = &self.author {
            tlv::write(&mut data, 2, author)?;
        }
        if let Some(kind) = self.kind {
            tlv::write(&mut data, 3, &kind.to_be_bytes())?;
        }
        bech32_text::encode(NEVENT, &data)
    }

    /// Decodes an `nevent` string.
    ///
    /// ```
    /// use ito::nostr::nip19::EventPointer;
    /// let p = EventPointer { id: [1; 32], relays: vec![], author: None, kind: Some(7) };
    /// assert_eq!(EventPointer::decode(&p.encode()?)?, p);
    /// # Ok::<(), ito::nostr::nip19::Error>(())
    /// ```
    pub fn decode(s: &str) -> Result<EventPointer, Error> {
        event(&expect(NEVENT, s)?)
    }
}

impl AddressPointer {
    /// Encodes as `naddr1…`; an error if the identifier or a relay URL is
    /// longer than 255 bytes or the string would exceed [`MAX_LENGTH`].
    ///
    /// ```
    /// let p = ito::nostr::nip19::AddressPointer { identifier: "x".into(), pubkey: [0; 32], kind: 30023, relays: vec![] };
    /// assert!(p.encode()?.starts_with("naddr1"));
    /// # Ok::<(), ito::nostr::nip19::Error>(())
    /// ```
    pub fn encode(&self) -> Result<String, Error> {
        let mut data =
            Vec::with_capacity(2 + self.identifier.len() + 40 + relays_len(&self.relays));
        tlv::write(&mut data, 0, self.identifier.as_bytes())?;
        write_relays(&mut data, &self.relays)?;
        tlv::write(&mut data, 2, &self.pubkey)?;
        tlv::write(&mut data, 3, &self.kind.to_be_bytes())?;
        bech32_text::encode(NADDR, &data)
    }

    /// Decodes an `naddr` string.
    ///
    /// ```
    /// use ito::nostr::nip19::AddressPointer;
    /// let p = AddressPointer { identifier: "".into(), pubkey: [2; 32], kind: 1, relays: vec![] };
    /// assert_eq!(AddressPointer::decode(&p.encode()?)?, p);
    /// # Ok::<(), ito::nostr::nip19::Error>(())
    /// ```
    pub fn decode(s: &str) -> Result<AddressPointer, Error> {
        address(&expect(NADDR, s)?)
    }
}

fn encode_fixed(prefix: &'static str, bytes: &[u8; 32]) -> String {
    // 32 bytes make a 63- or 64-character string: far below the limit.
    bech32_text::encode(prefix, bytes).unwrap_or_default()
}

/// Decodes `s`, which must have `prefix`.
fn expect(prefix: &'static str, s: &str) -> Result<Zeroizing<Vec<u8>>, Error> {
    let (found, data) = bech32_text::decode(s)?;
    if found != prefix {
        return Err(Error::WrongPrefix {
            expected: prefix,
            found,
        });
    }
    Ok(data)
}

fn expect_fixed(prefix: &'static str, s: &str) -> Result<SecretBytes, Error> {
    let data = expect(prefix, s)?;
    fixed(prefix, &data).map(SecretBytes::new)
}

fn fixed(prefix: &'static str, data: &[u8]) -> Result<[u8; 32], Error> {
    data.try_into().map_err(|_| Error::Length {
        prefix,
        found: data.len(),
    })
}

fn relays_len(relays: &[String]) -> usize {
    relays.iter().map(|r| 2 + r.len()).sum()
}

fn write_relays(data: &mut Vec<u8>, relays: &[String]) -> Result<(), Error> {
    relays
        .iter()
        .try_for_each(|r| tlv::write(data, 1, r.as_bytes()))
}

/// The fields every TLV type shares: the first special record, relays,
/// the first author and kind records (checked only where the type has them).
#[derive(Default)]
struct Fields<'a> {
    special: Option<tlv::Record<'a>>,
    relays: Vec<String>,
    author: Option<tlv::Record<'a>>,
    kind: Option<tlv::Record<'a>>,
}

fn fields(data: &[u8], with_author_and_kind: bool) -> Result<Fields<'_>, Error> {
    let mut f = Fields::default();
    for record in tlv::records(data) {
        let record = record?;
        match record.tlv_type {
            0 if f.special.is_none() => f.special = Some(record),
            1 => f.relays.push(record.text()?),
            2 if with_author_and_kind && f.author.is_none() => f.author = Some(record),
            3 if with_author_and_kind && f.kind.is_none() => f.kind = Some(record),
            // Unknown types, and repeats of single-valued ones, are skipped.
            _ => {}
        }
    }
    Ok(f)
}

fn missing(prefix: &'static str, tlv_type: u8) -> Error {
    Error::TlvMissing { prefix, tlv_type }
}

fn profile(data: &[u8]) -> Result<ProfilePointer, Error> {
    let f = fields(data, false)?;
    let pubkey = f.special.ok_or(missing(NPROFILE, 0))?.array()?;
    Ok(ProfilePointer {
        pubkey,
        relays: f.relays,
    })
}

fn event(data: &[u8]) -> Result<EventPointer, Error> {
    let f = fields(data, true)?;
    let id = f.special.ok_or(missing(NEVENT, 0))?.array()?;
    let author = f.author.map(|r| r.array()).transpose()?;
    let kind = f
        .kind
        .map(|r| r.array().map(u32::from_be_bytes))
        .transpose()?;
    Ok(EventPointer {
        id,
        relays: f.relays,
        author,
        kind,
    })
}

fn address(data: &[u8]) -> Result<AddressPointer, Error> {
    let f = fields(data, true)?;
    let identifier = f.special.ok_or(missing(NADDR, 0))?.text()?;
    let pubkey = f.author.ok_or(missing(NADDR, 2))?.array()?;
    let kind = u32::from_be_bytes(f.kind.ok_or(missing(NADDR, 3))?.array()?);
    Ok(AddressPointer {
        identifier,
        pubkey,
        kind,
        relays: f.relays,
    })
}
