//! The NIP rules for writing, once for every store: a store only offers
//! ordered tables ([`Read`], [`Write`]); this module decides what to keep.
//!
//! ```text
//! apply(event):
//!     expired                       -> refused (invalid:)
//!     ephemeral                     -> accepted, not stored
//!     id already stored             -> duplicate
//!     kind != 5 and (id, author) named by a stored deletion -> refused (blocked:)
//!     replaceable / addressable:
//!         address deleted up to t >= created_at          -> refused (blocked:)
//!         current is newer, or as old with a lower id    -> refused (duplicate:)
//!         else remove current
//!     store bytes + index keys
//!     kind 5: for each `e` target by the same author (not itself a deletion)
//!             remove it, remember (id, author);
//!             for each `a` target of the same author remove what is at the
//!             address up to the request's created_at, remember the time
//! ```

use super::keys::{self, Table};
use super::{Outcome, StoreError};
use crate::nip::{self, Address, DeletionTargets};
use ito::nostr::Event;

/// Ordered tables a snapshot reads.
pub(crate) trait Read {
    /// The value at `key`.
    fn get(&self, table: Table, key: &[u8]) -> Result<Option<&[u8]>, StoreError>;
    /// The first key `>= from`.
    fn seek(&self, table: Table, from: &[u8]) -> Result<Option<&[u8]>, StoreError>;
    /// The keys `>= from`, ascending (one cursor, no seek per key).
    fn scan<'s>(&'s self, table: Table, from: &[u8]) -> Result<KeyIter<'s>, StoreError>;
}

/// Keys of one table, ascending.
pub(crate) type KeyIter<'s> = Box<dyn Iterator<Item = Result<&'s [u8], StoreError>> + 's>;

/// Ordered tables a write transaction changes.
pub(crate) trait Write: Read {
    fn put(&mut self, table: Table, key: &[u8], value: &[u8]) -> Result<(), StoreError>;
    fn del(&mut self, table: Table, key: &[u8]) -> Result<(), StoreError>;
}

/// Every index entry of a stored event (the `events` row excluded).
pub(crate) fn index_entries(event: &Event<'_>) -> Vec<(Table, Vec<u8>)> {
    let ord = keys::order(event.created_at, &event.id);
    let mut out = Vec::with_capacity(6 + event.tags.len());
    out.push((Table::Created, ord.to_vec()));
    let mut k = event.pubkey.to_vec();
    k.extend_from_slice(&ord);
    out.push((Table::Pubkey, k));
    let mut k = event.kind.to_be_bytes().to_vec();
    k.extend_from_slice(&ord);
    out.push((Table::Kind, k));
    let mut k = event.pubkey.to_vec();
    k.extend_from_slice(&event.kind.to_be_bytes());
    k.extend_from_slice(&ord);
    out.push((Table::PubKind, k));
    for tag in event.tags.iter() {
        let mut values = tag.iter();
        let (Some(name), Some(value)) = (values.next(), values.next()) else {
            continue;
        };
        let &[letter] = name.as_bytes() else { continue };
        if !letter.is_ascii_alphabetic() {
            continue;
        }
        let mut k = keys::tag_prefix(letter, value.as_bytes());
        k.extend_from_slice(&ord);
        // Two equal tags give one key.
        if !out.iter().any(|(t, e)| *t == Table::Tag && *e == k) {
            out.push((Table::Tag, k));
        }
    }
    if let Some(at) = nip::expiration(event) {
        out.push((Table::Expiry, keys::expiry_key(at, &event.id).to_vec()));
    }
    out
}

fn address_key(a: &Address) -> Vec<u8> {
    keys::address_key(a.kind, &a.pubkey, a.d.as_bytes())
}

/// Removes a stored event and all its index entries; `json` is its stored
/// text.
fn remove<W: Write>(w: &mut W, id: &[u8; 32]) -> Result<(), StoreError> {
    let Some(json) = w.get(Table::Events, id)? else {
        return Ok(());
    };
    let json = json.to_vec();
    let event = Event::parse(&json).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    for (table, key) in index_entries(&event) {
        w.del(table, &key)?;
    }
    if let Some(addr) = Address::of(&event) {
        let key = address_key(&addr);
        // Only clear the address if it still points at this event.
        let current = w.get(Table::Address, &key)?.map(keys::order_id);
        if current == Some(event.id) {
            w.del(Table::Address, &key)?;
        }
    }
    w.del(Table::Events, id)
}

/// Applies one verified event (canonical JSON) at time `now`.
pub(crate) fn apply<W: Write>(w: &mut W, json: &[u8], now: u64) -> Result<Outcome, StoreError> {
    let event = Event::parse(json).map_err(|e| StoreError::Invalid(e.to_string()))?;
    if nip::is_expired(&event, now) {
        return Ok(Outcome::Expired);
    }
    if nip::is_ephemeral(event.kind) {
        return Ok(Outcome::Ephemeral);
    }
    if w.get(Table::Events, &event.id)?.is_some() {
        return Ok(Outcome::Duplicate);
    }
    if event.kind != nip::DELETION
        && w.get(Table::DelId, &keys::del_id_key(&event.id, &event.pubkey))?
            .is_some()
    {
        return Ok(Outcome::Deleted);
    }
    let ord = keys::order(event.created_at, &event.id);
    if let Some(addr) = Address::of(&event) {
        let key = address_key(&addr);
        if let Some(t) = w.get(Table::DelAddr, &key)? {
            if keys::be64(t) >= event.created_at {
                return Ok(Outcome::Deleted);
            }
        }
        if let Some(current) = w.get(Table::Address, &key)? {
            // Order keys compare newest first, ties by lowest id: the
            // smaller key wins.
            if current < &ord[..] {
                return Ok(Outcome::Superseded);
            }
            let old = keys::order_id(current);
            remove(w, &old)?;
        }
        w.put(Table::Address, &key, &ord)?;
    }
    w.put(Table::Events, &event.id, json)?;
    for (table, key) in index_entries(&event) {
        w.put(table, &key, &[])?;
    }
    if event.kind == nip::DELETION {
        let targets = DeletionTargets::of(&event);
        for id in &targets.ids {
            if let Some(json) = w.get(Table::Events, id)? {
                let json = json.to_vec();
                let target = Event::parse(&json).map_err(|e| StoreError::Corrupt(e.to_string()))?;
                // Another author's event, or a deletion request: no effect.
                if target.pubkey != event.pubkey || target.kind == nip::DELETION {
                    continue;
                }
                remove(w, id)?;
            }
            w.put(Table::DelId, &keys::del_id_key(id, &event.pubkey), &[])?;
        }
        for addr in &targets.addresses {
            if addr.pubkey != event.pubkey {
                continue;
            }
            let key = address_key(addr);
            let until = match w.get(Table::DelAddr, &key)? {
                Some(t) => keys::be64(t).max(event.created_at),
                None => event.created_at,
            };
            w.put(Table::DelAddr, &key, &until.to_be_bytes())?;
            if let Some(current) = w.get(Table::Address, &key)? {
                if keys::order_created_at(current) <= until {
                    let old = keys::order_id(current);
                    remove(w, &old)?;
                }
            }
        }
    }
    Ok(Outcome::Stored)
}

/// Removes up to `max` events whose expiration is `<= now`; returns how
/// many were removed.
pub(crate) fn purge_expired<W: Write>(
    w: &mut W,
    now: u64,
    max: usize,
) -> Result<usize, StoreError> {
    let mut ids = Vec::new();
    let mut from = [0u8; 40].to_vec();
    while ids.len() < max {
        let Some(k) = w.seek(Table::Expiry, &from)? else {
            break;
        };
        if k.len() != 40 || keys::be64(k) > now {
            break;
        }
        ids.push(k.to_vec());
        from.clear();
        from.extend_from_slice(k);
        from.push(0);
    }
    for key in &ids {
        remove(w, &keys::order_id(key))?;
        // Also when the event was already gone: never meet the entry again.
        w.del(Table::Expiry, key)?;
    }
    Ok(ids.len())
}

/// The last committed batch number.
pub(crate) fn seq<R: Read>(r: &R) -> Result<u64, StoreError> {
    Ok(r.get(Table::Meta, keys::SEQ_KEY)?
        .map(keys::be64)
        .unwrap_or(0))
}

pub(crate) fn bump_seq<W: Write>(w: &mut W) -> Result<u64, StoreError> {
    let next = seq(w)? + 1;
    w.put(Table::Meta, keys::SEQ_KEY, &next.to_be_bytes())?;
    Ok(next)
}
