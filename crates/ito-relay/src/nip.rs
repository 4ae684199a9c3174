//! What the NIPs say about an event's kind and tags, in one place: kind
//! classes (NIP-01), the `d` tag of addressable events, NIP-09 deletion
//! targets and NIP-40 expiration.
//!
//! ```text
//! kind 0, 3, 10000..=19999   replaceable: one per (kind, pubkey)
//! kind 20000..=29999         ephemeral: delivered live, never stored
//! kind 30000..=39999         addressable: one per (kind, pubkey, d)
//! kind 5                     deletion request (NIP-09)
//! ```

use ito::nostr::Event;

/// NIP-09 deletion request kind.
pub const DELETION: u16 = 5;

/// Whether `kind` is replaceable (NIP-01): 0, 3 and 10000–19999.
///
/// ```
/// assert!(ito_relay::nip::is_replaceable(0) && ito_relay::nip::is_replaceable(10002));
/// assert!(!ito_relay::nip::is_replaceable(1));
/// ```
pub fn is_replaceable(kind: u16) -> bool {
    kind == 0 || kind == 3 || (10000..20000).contains(&kind)
}

/// Whether `kind` is ephemeral (NIP-01): 20000–29999.
///
/// ```
/// assert!(ito_relay::nip::is_ephemeral(22242));
/// ```
pub fn is_ephemeral(kind: u16) -> bool {
    (20000..30000).contains(&kind)
}

/// Whether `kind` is addressable (NIP-01): 30000–39999.
///
/// ```
/// assert!(ito_relay::nip::is_addressable(30023));
/// ```
pub fn is_addressable(kind: u16) -> bool {
    (30000..40000).contains(&kind)
}

/// The first value of the event's first tag named `name`, if any.
///
/// ```
/// use ito::nostr::Tags;
/// let tags = Tags::parse(r#"[["d","post-1"],["d","x"]]"#).unwrap();
/// let mut out = None;
/// for t in tags.iter() { let mut v = t.iter(); if v.next().as_deref() == Some("d") { out = v.next().map(|s| s.into_owned()); break; } }
/// assert_eq!(out.as_deref(), Some("post-1"));
/// ```
pub fn first_tag_value(event: &Event<'_>, name: &str) -> Option<String> {
    for tag in event.tags.iter() {
        let mut values = tag.iter();
        if values.next().as_deref() == Some(name) {
            return Some(values.next().map(|v| v.into_owned()).unwrap_or_default());
        }
    }
    None
}

/// The `d` value that addresses an addressable event: its first `d` tag's
/// value, or `""` when it has none (the strict reading of NIP-01).
pub fn d_tag(event: &Event<'_>) -> String {
    first_tag_value(event, "d").unwrap_or_default()
}

/// The NIP-40 expiration time (`["expiration", "<unix seconds>"]`), if the
/// event has a well-formed one.
pub fn expiration(event: &Event<'_>) -> Option<u64> {
    first_tag_value(event, "expiration").and_then(|v| v.parse().ok())
}

/// Whether the event has expired at `now` (NIP-40: at or after the time).
pub fn is_expired(event: &Event<'_>, now: u64) -> bool {
    expiration(event).is_some_and(|t| t <= now)
}

/// A replaceable or addressable event's address: kind, pubkey and `d`
/// (`""` for replaceable kinds).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Address {
    /// The kind.
    pub kind: u16,
    /// The author.
    pub pubkey: [u8; 32],
    /// The `d` value (empty for replaceable kinds).
    pub d: String,
}

impl Address {
    /// The address of `event`, if its kind is replaceable or addressable.
    pub fn of(event: &Event<'_>) -> Option<Address> {
        if is_replaceable(event.kind) {
            Some(Address {
                kind: event.kind,
                pubkey: event.pubkey,
                d: String::new(),
            })
        } else if is_addressable(event.kind) {
            Some(Address {
                kind: event.kind,
                pubkey: event.pubkey,
                d: d_tag(event),
            })
        } else {
            None
        }
    }

    /// Parses an `a` tag value, `<kind>:<pubkey hex>:<d>`. Only replaceable
    /// and addressable kinds name an address; others give `None`.
    ///
    /// ```
    /// use ito_relay::nip::Address;
    /// let a = Address::parse(&format!("30023:{}:post", "ab".repeat(32))).unwrap();
    /// assert_eq!((a.kind, a.d.as_str()), (30023, "post"));
    /// assert!(Address::parse("1:zz:").is_none());
    /// ```
    pub fn parse(text: &str) -> Option<Address> {
        let mut parts = text.splitn(3, ':');
        let kind: u16 = parts.next()?.parse().ok()?;
        let pubkey = hex32(parts.next()?)?;
        let d = parts.next().unwrap_or("");
        if is_replaceable(kind) {
            // A replaceable address has no `d`; tolerate `kind:pubkey:`.
            d.is_empty().then(|| Address {
                kind,
                pubkey,
                d: String::new(),
            })
        } else if is_addressable(kind) {
            Some(Address {
                kind,
                pubkey,
                d: d.to_owned(),
            })
        } else {
            None
        }
    }
}

/// 64 lowercase hex digits as 32 bytes.
pub(crate) fn hex32(text: &str) -> Option<[u8; 32]> {
    ito::hex::decode_array_lower::<32>(text.as_bytes()).ok()
}

/// What a NIP-09 deletion request names: event ids (`e`) and addresses
/// (`a`).
#[derive(Debug, Default)]
pub struct DeletionTargets {
    /// Ids from `e` tags.
    pub ids: Vec<[u8; 32]>,
    /// Addresses from `a` tags.
    pub addresses: Vec<Address>,
}

impl DeletionTargets {
    /// The targets of a kind-5 event (empty for any other kind).
    pub fn of(event: &Event<'_>) -> DeletionTargets {
        let mut out = DeletionTargets::default();
        if event.kind != DELETION {
            return out;
        }
        for tag in event.tags.iter() {
            let mut values = tag.iter();
            let (Some(name), Some(value)) = (values.next(), values.next()) else {
                continue;
            };
            match name.as_ref() {
                "e" => out.ids.extend(hex32(&value)),
                "a" => out.addresses.extend(Address::parse(&value)),
                _ => {}
            }
        }
        out
    }
}
