//! Key layouts of the store's tables. Every index key ends in a 40-byte
//! *order key*, `!created_at` (big-endian) then the event id, so that an
//! ascending scan of one prefix meets events newest first, ties by lowest
//! id: exactly NIP-01's order, with no reverse cursor.
//!
//! ```text
//! table      key                                          value
//! events     id                                           canonical event JSON
//! created    order                                        -
//! pubkey     pubkey . order                               -
//! kind       kind(be16) . order                           -
//! pubkind    pubkey . kind(be16) . order                  -
//! tag        letter . text(value) . order                 -
//! address    kind(be16) . pubkey . text(d)                order of the current event
//! expiry     expiration(be64) . id                        -
//! del_id     id . pubkey                                  -   (NIP-09 `e` tombstone)
//! del_addr   kind(be16) . pubkey . text(d)                created_at(be64) (`a` tombstone)
//! meta       "seq"                                        last committed batch (be64)
//! ```
//!
//! `text(v)` is a length byte and the bytes for values up to 200 bytes,
//! else `0xff` and the value's sha256: prefix-free, and short enough for
//! LMDB's 511-byte key limit. A hashed value can collide only by a sha256
//! collision, and every candidate is checked by `Filter::matches` anyway.

use sha2::{Digest, Sha256};

/// The tables, in a fixed order (an index into per-store arrays).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Table {
    Events,
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
    pub(crate) const ALL: [Table; 11] = [
        Table::Events,
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
pub(crate) const SHORT_TEXT: usize = 200;

/// The 40-byte order key: `!created_at` then the id.
pub(crate) fn order(created_at: u64, id: &[u8; 32]) -> [u8; ORDER_LEN] {
    let mut out = [0u8; ORDER_LEN];
    out[..8].copy_from_slice(&(!created_at).to_be_bytes());
    out[8..].copy_from_slice(id);
    out
}

/// `created_at` back from an order key.
pub(crate) fn order_created_at(key: &[u8]) -> u64 {
    let mut t = [0u8; 8];
    t.copy_from_slice(&key[..8]);
    !u64::from_be_bytes(t)
}

/// The id back from an order key.
pub(crate) fn order_id(key: &[u8]) -> [u8; 32] {
    let mut id = [0u8; 32];
    id.copy_from_slice(&key[8..ORDER_LEN]);
    id
}

/// Appends `text(v)`.
pub(crate) fn push_text(out: &mut Vec<u8>, v: &[u8]) {
    if v.len() <= SHORT_TEXT {
        out.push(v.len() as u8);
        out.extend_from_slice(v);
    } else {
        out.push(0xff);
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
    let mut k = Vec::with_capacity(2 + value.len().min(33) + ORDER_LEN);
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

pub(crate) fn expiry_key(at: u64, id: &[u8; 32]) -> [u8; 40] {
    let mut k = [0u8; 40];
    k[..8].copy_from_slice(&at.to_be_bytes());
    k[8..].copy_from_slice(id);
    k
}

pub(crate) fn be64(v: &[u8]) -> u64 {
    let mut t = [0u8; 8];
    t.copy_from_slice(&v[..8]);
    u64::from_be_bytes(t)
}

pub(crate) const SEQ_KEY: &[u8] = b"seq";
