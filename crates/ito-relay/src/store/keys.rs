//! Key layouts of the store's tables (format [`FORMAT`]).
//!
//! Each stored event gets a *sequence number* (`seq`), one more than the
//! last, never reused. The big rows, `events`, are keyed by it, so every
//! new event is appended at the end of the table (LMDB's append mode)
//! instead of dirtying a random page; `ids` maps an event id to its seq.
//!
//! Every index key ends in a 24-byte *suffix*, `!created_at` (big-endian),
//! the first 8 bytes of the id, then the seq: an ascending scan of one
//! prefix meets events newest first, ties by lowest id prefix, with no
//! reverse cursor. Two events of one second whose ids share 8 bytes sort
//! by seq in the index; the query engine reads each candidate's full id
//! and puts such a run back in NIP-01's order (lowest id first), so the
//! order is exact on every input.
//!
//! ```text
//! table      key                                          value
//! events     seq(be64; LMDB: a native integer key)        id . canonical event JSON
//! ids        id                                           seq(be64)
//! created    suffix                                       -
//! pubkey     pubkey . suffix                              -
//! kind       kind(be16) . suffix                          -
//! pubkind    pubkey . kind(be16) . suffix                 -
//! tag        letter . text(value) . suffix                -
//! address    kind(be16) . pubkey . text(d)                order . seq of the current event
//! expiry     expiration(be64) . seq(be64)                 -
//! del_id     id . pubkey                                  -   (NIP-09 `e` tombstone)
//! del_addr   kind(be16) . pubkey . text(d)                created_at(be64) (`a` tombstone)
//! meta       "seq"                                        last committed batch (be64)
//!            "next"                                       the next event's seq (be64)
//!            "format"                                     FORMAT (be64)
//! ```
//!
//! `order` is the 40-byte `!created_at . id` (NIP-01's order as bytes).
//! `text(v)` is `0xfe` and 32 bytes for a value of 64 lower-case hex
//! digits (the common `e` and `p` tags), a length byte and the bytes for
//! other values up to 200 bytes, else `0xff` and the value's sha256:
//! prefix-free (a length byte is at most 200), and short enough for
//! LMDB's 511-byte key limit. A hashed value can collide only by a sha256
//! collision, and every candidate is checked by `Filter::matches` anyway.

use sha2::{Digest, Sha256};

/// The layout's version, kept in `meta`. Format 1 (before sequence
/// numbers) keyed `events` by id and ended index keys in the 40-byte
/// order key; format 2 kept the `events` key as big-endian bytes in
/// LMDB, where format 3 keeps it as a native integer (`lmdb.rs`).
pub(crate) const FORMAT: u64 = 3;

/// The tables, in a fixed order (an index into per-store arrays).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Table {
    Events,
    Ids,
    Created,
    Pubkey,
    Kind,
    PubKind,
    Tag,
    Address,
    Expiry,
    DelId,
    DelAddr,
    Meta,
}

impl Table {
    pub(crate) const ALL: [Table; 12] = [
        Table::Events,
        Table::Ids,
        Table::Created,
        Table::Pubkey,
        Table::Kind,
        Table::PubKind,
        Table::Tag,
        Table::Address,
        Table::Expiry,
        Table::DelId,
        Table::DelAddr,
        Table::Meta,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Table::Events => "events",
            Table::Ids => "ids",
            Table::Created => "created",
            Table::Pubkey => "pubkey",
            Table::Kind => "kind",
            Table::PubKind => "pubkind",
            Table::Tag => "tag",
            Table::Address => "address",
            Table::Expiry => "expiry",
            Table::DelId => "del_id",
            Table::DelAddr => "del_addr",
            Table::Meta => "meta",
        }
    }
}

pub(crate) const ORDER_LEN: usize = 40;
/// `!created_at(8) . id[..8] . seq(8)`.
pub(crate) const SUFFIX_LEN: usize = 24;
/// The part of a suffix that orders (the seq only separates equal ones).
pub(crate) const SUFFIX_HEAD: usize = 16;
pub(crate) const SHORT_TEXT: usize = 200;
const HEX32: u8 = 0xfe;
const HASHED: u8 = 0xff;

/// The 40-byte order key: `!created_at` then the id.
pub(crate) fn order(created_at: u64, id: &[u8; 32]) -> [u8; ORDER_LEN] {
    let mut out = [0u8; ORDER_LEN];
    out[..8].copy_from_slice(&(!created_at).to_be_bytes());
    out[8..].copy_from_slice(id);
    out
}

/// The 24-byte index suffix of an event.
pub(crate) fn suffix(created_at: u64, id: &[u8; 32], seq: u64) -> [u8; SUFFIX_LEN] {
    let mut out = [0u8; SUFFIX_LEN];
    out[..8].copy_from_slice(&(!created_at).to_be_bytes());
    out[8..16].copy_from_slice(&id[..8]);
    out[16..].copy_from_slice(&seq.to_be_bytes());
    out
}

/// `created_at` back from an order key.
pub(crate) fn order_created_at(key: &[u8]) -> u64 {
    !be64(key)
}

/// The id back from an order key.
pub(crate) fn order_id(key: &[u8]) -> [u8; 32] {
    let mut id = [0u8; 32];
    id.copy_from_slice(&key[8..ORDER_LEN]);
    id
}

/// Appends `text(v)`.
pub(crate) fn push_text(out: &mut Vec<u8>, v: &[u8]) {
    let hex = match v.len() {
        64 => ito::hex::decode_array_lower::<32>(v).ok(),
        _ => None,
    };
    if let Some(bytes) = hex {
        out.push(HEX32);
        out.extend_from_slice(&bytes);
    } else if v.len() <= SHORT_TEXT {
        out.push(v.len() as u8);
        out.extend_from_slice(v);
    } else {
        out.push(HASHED);
        out.extend_from_slice(&Sha256::digest(v));
    }
}

pub(crate) fn address_key(kind: u16, pubkey: &[u8; 32], d: &[u8]) -> Vec<u8> {
    let mut k = Vec::with_capacity(2 + 32 + 1 + d.len().min(32));
    k.extend_from_slice(&kind.to_be_bytes());
    k.extend_from_slice(pubkey);
    push_text(&mut k, d);
    k
}

pub(crate) fn tag_prefix(letter: u8, value: &[u8]) -> Vec<u8> {
    let mut k = Vec::with_capacity(2 + value.len().min(33) + SUFFIX_LEN);
    k.push(letter);
    push_text(&mut k, value);
    k
}

pub(crate) fn del_id_key(id: &[u8; 32], pubkey: &[u8; 32]) -> [u8; 64] {
    let mut k = [0u8; 64];
    k[..32].copy_from_slice(id);
    k[32..].copy_from_slice(pubkey);
    k
}

pub(crate) fn expiry_key(at: u64, seq: u64) -> [u8; 16] {
    let mut k = [0u8; 16];
    k[..8].copy_from_slice(&at.to_be_bytes());
    k[8..].copy_from_slice(&seq.to_be_bytes());
    k
}

pub(crate) fn be64(v: &[u8]) -> u64 {
    // Every caller passes at least 8 bytes unless the database is damaged;
    // then a shorter value reads as its bytes zero-padded rather than
    // panicking the writer (the write fails or the value stops matching).
    let mut t = [0u8; 8];
    let n = v.len().min(8);
    t[..n].copy_from_slice(&v[..n]);
    u64::from_be_bytes(t)
}

pub(crate) const SEQ_KEY: &[u8] = b"seq";
pub(crate) const NEXT_KEY: &[u8] = b"next";
pub(crate) const FORMAT_KEY: &[u8] = b"format";
