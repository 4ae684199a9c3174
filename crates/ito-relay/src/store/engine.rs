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
//!     events[next seq] = id . bytes (appended), ids[id] = seq, index keys
//!     kind 5: for each `e` target by the same author (not itself a deletion)
//!             remove it, remember (id, author);
//!             for each `a` target of the same author remove what is at the
//!             address up to the request's created_at, remember the time
//! ```

use super::keys::{self, Table, ORDER_LEN};
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
    /// [`Write::put`] of a key greater than every key of `table` (a store
    /// may then write it at the end without a search).
    fn append(&mut self, table: Table, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.put(table, key, value)
    }
    fn del(&mut self, table: Table, key: &[u8]) -> Result<(), StoreError>;
}

/// Every index entry of a stored event (the `events` and `ids` rows
/// excluded).
pub(crate) fn index_entries(event: &Event<'_>, seq: u64) -> Vec<(Table, Vec<u8>)> {
    let suffix = keys::suffix(event.created_at, &event.id, seq);
    let mut out = Vec::with_capacity(6 + event.tags.len());
    out.push((Table::Created, suffix.to_vec()));
    let mut k = event.pubkey.to_vec();
    k.extend_from_slice(&suffix);
    out.push((Table::Pubkey, k));
    let mut k = event.kind.to_be_bytes().to_vec();
    k.extend_from_slice(&suffix);
    out.push((Table::Kind, k));
    let mut k = event.pubkey.to_vec();
    k.extend_from_slice(&event.kind.to_be_bytes());
    k.extend_from_slice(&suffix);
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
        k.extend_from_slice(&suffix);
        // Two equal tags give one key.
        if !out.iter().any(|(t, e)| *t == Table::Tag && *e == k) {
            out.push((Table::Tag, k));
        }
    }
    if let Some(at) = nip::expiration(event) {
        out.push((Table::Expiry, keys::expiry_key(at, seq).to_vec()));
    }
    out
}

fn address_key(a: &Address) -> Vec<u8> {
    keys::address_key(a.kind, &a.pubkey, a.d.as_bytes())
}

/// The seq of the stored event `id`.
pub(crate) fn seq_of<R: Read>(r: &R, id: &[u8]) -> Result<Option<u64>, StoreError> {
    match r.get(Table::Ids, id)? {
        Some(v) if v.len() == 8 => Ok(Some(keys::be64(v))),
        Some(_) => Err(StoreError::Corrupt("an ids row is not 8 bytes".into())),
        None => Ok(None),
    }
}

/// A stored row: the event's id and its JSON.
pub(crate) type Row<'r> = (&'r [u8], &'r [u8]);

/// The id and JSON of the event stored under `seq`.
pub(crate) fn load<R: Read>(r: &R, seq: u64) -> Result<Option<Row<'_>>, StoreError> {
    match r.get(Table::Events, &seq.to_be_bytes())? {
        Some(v) if v.len() > 32 => Ok(Some(v.split_at(32))),
        Some(_) => Err(StoreError::Corrupt(format!("event row {seq} is too short"))),
        None => Ok(None),
    }
}

/// Removes the event stored under `seq` and all its index entries.
fn remove_seq<W: Write>(w: &mut W, seq: u64) -> Result<(), StoreError> {
    let Some((_, json)) = load(w, seq)? else {
        return Ok(());
    };
    let json = json.to_vec();
    let event = Event::parse(&json).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    for (table, key) in index_entries(&event, seq) {
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
    w.del(Table::Ids, &event.id)?;
    w.del(Table::Events, &seq.to_be_bytes())
}

/// Removes the stored event `id`, if any.
fn remove<W: Write>(w: &mut W, id: &[u8; 32]) -> Result<(), StoreError> {
    match seq_of(w, id)? {
        Some(seq) => remove_seq(w, seq),
        None => Ok(()),
    }
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
    if w.get(Table::Ids, &event.id)?.is_some() {
        return Ok(Outcome::Duplicate);
    }
    if event.kind != nip::DELETION
        && w.get(Table::DelId, &keys::del_id_key(&event.id, &event.pubkey))?
            .is_some()
    {
        return Ok(Outcome::Deleted);
    }
    let seq = next_seq(w)?;
    if let Some(addr) = Address::of(&event) {
        let ord = keys::order(event.created_at, &event.id);
        let key = address_key(&addr);
        if let Some(t) = w.get(Table::DelAddr, &key)? {
            if keys::be64(t) >= event.created_at {
                return Ok(Outcome::Deleted);
            }
        }
        if let Some(current) = w.get(Table::Address, &key)? {
            // Order keys compare newest first, ties by lowest id: the
            // smaller key wins.
            if current.get(..ORDER_LEN) < Some(&ord[..]) {
                return Ok(Outcome::Superseded);
            }
            let old = keys::order_id(current);
            remove(w, &old)?;
        }
        let mut value = ord.to_vec();
        value.extend_from_slice(&seq.to_be_bytes());
        w.put(Table::Address, &key, &value)?;
    }
    w.put(Table::Meta, keys::NEXT_KEY, &(seq + 1).to_be_bytes())?;
    let mut row = Vec::with_capacity(32 + json.len());
    row.extend_from_slice(&event.id);
    row.extend_from_slice(json);
    w.append(Table::Events, &seq.to_be_bytes(), &row)?;
    w.put(Table::Ids, &event.id, &seq.to_be_bytes())?;
    for (table, key) in index_entries(&event, seq) {
        w.put(table, &key, &[])?;
    }
    if event.kind == nip::DELETION {
        let targets = DeletionTargets::of(&event);
        for id in &targets.ids {
            if let Some(target_seq) = seq_of(w, id)? {
                if let Some((_, json)) = load(w, target_seq)? {
                    let json = json.to_vec();
                    let target =
                        Event::parse(&json).map_err(|e| StoreError::Corrupt(e.to_string()))?;
                    // Another author's event, or a deletion request: no
                    // effect.
                    if target.pubkey != event.pubkey || target.kind == nip::DELETION {
                        continue;
                    }
                    remove_seq(w, target_seq)?;
                }
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

/// The seq the next stored event gets.
fn next_seq<R: Read>(r: &R) -> Result<u64, StoreError> {
    Ok(r.get(Table::Meta, keys::NEXT_KEY)?
        .map(keys::be64)
        .unwrap_or(0))
}

/// Removes up to `max` events whose expiration is `<= now`; returns how
/// many were removed.
pub(crate) fn purge_expired<W: Write>(
    w: &mut W,
    now: u64,
    max: usize,
) -> Result<usize, StoreError> {
    let mut expired = Vec::new();
    let mut from = [0u8; 16].to_vec();
    while expired.len() < max {
        let Some(k) = w.seek(Table::Expiry, &from)? else {
            break;
        };
        if k.len() != 16 || keys::be64(k) > now {
            break;
        }
        expired.push(k.to_vec());
        from.clear();
        from.extend_from_slice(k);
        from.push(0);
    }
    for key in &expired {
        remove_seq(w, keys::be64(&key[8..]))?;
        // Also when the event was already gone: never meet the entry again.
        w.del(Table::Expiry, key)?;
    }
    Ok(expired.len())
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
