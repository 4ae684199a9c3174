//! Events before signing: what nostr-tools calls an event template and
//! rust-nostr an unsigned event.
//!
//! Signing is three steps, all on the [`Event`] machinery:
//!
//! ```text
//! event  = template + pubkey (from the key)      id and sig zero
//! id     = sha256(canonical(event))               event_id
//! sig    = BIP-340(key, id, fresh aux randomness) secp256k1
//! ```
//!
//! so a signed event serializes, hashes and verifies exactly as a parsed one.

use std::borrow::Cow;

use super::error::{Error, ErrorKind, Field};
use super::event::{Event, Parser, Tags};
#[cfg(feature = "schnorr")]
use super::keys::SecretKey;

/// An event without `id`, `pubkey` and `sig`: the fields its author chooses.
///
/// ```
/// # #[cfg(feature = "schnorr")] {
/// use ito::nostr::{verify, SecretKey, Tags, UnsignedEvent};
/// let key = SecretKey::generate()?;
/// let template = UnsignedEvent {
///     created_at: 1_700_000_000,
///     kind: 1,
///     tags: Tags::parse(r#"[["t","nostr"]]"#)?,
///     content: "hello".into(),
/// };
/// let event = template.sign(&key);
/// assert!(verify(&event));
/// let mut json = Vec::new();
/// event.to_json(&mut json);
/// assert!(json.starts_with(br#"{"id":""#));
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsignedEvent<'a> {
    /// Unix time in seconds.
    pub created_at: u64,
    /// Event kind.
    pub kind: u16,
    /// The tags, as validated JSON text ([`Tags::parse`], or
    /// [`tags_to_json`] for strings in hand).
    pub tags: Tags<'a>,
    /// The content.
    pub content: Cow<'a, str>,
}

impl<'a> UnsignedEvent<'a> {
    /// An event of `kind` with `content`, no tags, created now.
    ///
    /// ```
    /// let note = ito::nostr::UnsignedEvent::new(1, "gm");
    /// assert!(note.created_at > 1_700_000_000 && note.tags.is_empty());
    /// ```
    pub fn new(kind: u16, content: impl Into<Cow<'a, str>>) -> UnsignedEvent<'a> {
        let created_at = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        UnsignedEvent {
            created_at,
            kind,
            tags: Tags::default(),
            content: content.into(),
        }
    }

    /// Parses a template object: `created_at`, `kind`, `tags` and `content`
    /// are required, in any order; `id`, `pubkey`, `sig` and unknown fields
    /// are validated as JSON and ignored (the key decides the pubkey, as in
    /// nostr-tools' `finalizeEvent`). Errors name the byte offset and field.
    ///
    /// ```
    /// use ito::nostr::{ErrorKind, Field, UnsignedEvent};
    /// let t = UnsignedEvent::parse(br#"{"kind":1,"created_at":5,"tags":[],"content":"hi"}"#)?;
    /// assert_eq!((t.kind, t.created_at, &*t.content), (1, 5, "hi"));
    /// let err = UnsignedEvent::parse(br#"{"kind":1,"tags":[],"content":""}"#).unwrap_err();
    /// assert_eq!((err.kind(), err.field()), (ErrorKind::MissingField, Some(Field::CreatedAt)));
    /// assert_eq!(err.to_string(), "`created_at`: missing field at byte 32");
    /// # Ok::<(), ito::nostr::Error>(())
    /// ```
    pub fn parse(json: &'a [u8]) -> Result<UnsignedEvent<'a>, Error> {
        let mut p = Parser::new(json);
        let template = template(&mut p)?;
        p.end()?;
        Ok(template)
    }

    /// [`UnsignedEvent::parse`] for a `&str`.
    ///
    /// ```
    /// assert!(ito::nostr::UnsignedEvent::parse_str("{}").is_err());
    /// ```
    pub fn parse_str(json: &'a str) -> Result<UnsignedEvent<'a>, Error> {
        UnsignedEvent::parse(json.as_bytes())
    }

    /// The event this template becomes under `pubkey`, with the given `id`
    /// and `sig` (see [`UnsignedEvent::id`]).
    ///
    /// ```
    /// let t = ito::nostr::UnsignedEvent::new(1, "x");
    /// let event = t.to_event([1; 32], [2; 32], [3; 64]);
    /// assert_eq!((event.pubkey, event.kind), ([1; 32], 1));
    /// ```
    pub fn to_event(&self, pubkey: [u8; 32], id: [u8; 32], sig: [u8; 64]) -> Event<'a> {
        Event {
            id,
            pubkey,
            created_at: self.created_at,
            kind: self.kind,
            tags: self.tags,
            content: self.content.clone(),
            sig,
        }
    }

    /// The id the event will have when `pubkey` signs it (nostr-tools'
    /// `getEventHash`).
    ///
    /// ```
    /// use ito::nostr::{event_id, UnsignedEvent};
    /// let t = UnsignedEvent::new(1, "x");
    /// assert_eq!(t.id(&[5; 32]), event_id(&t.to_event([5; 32], [0; 32], [0; 64])));
    /// ```
    pub fn id(&self, pubkey: &[u8; 32]) -> [u8; 32] {
        super::event_id(&self.to_event(*pubkey, [0; 32], [0; 64]))
    }

    /// Signs: the pubkey comes from `key`, the id is computed, and the
    /// BIP-340 signature uses fresh auxiliary randomness (nostr-tools'
    /// `finalizeEvent`, rust-nostr's `sign_with_keys`). Requires the
    /// `schnorr` feature.
    ///
    /// ```
    /// use ito::nostr::{verify, SecretKey, UnsignedEvent};
    /// let key = SecretKey::from_bytes(&[1; 32])?;
    /// let event = UnsignedEvent::new(1, "gm").sign(&key);
    /// assert!(verify(&event) && event.pubkey == key.public_key());
    /// # Ok::<(), ito::nostr::KeyError>(())
    /// ```
    #[cfg(feature = "schnorr")]
    pub fn sign(&self, key: &SecretKey) -> Event<'a> {
        let mut event = self.to_event(key.public_key(), [0; 32], [0; 64]);
        event.id = super::event_id(&event);
        event.sig = key.sign_hash(&event.id);
        event
    }

    /// [`UnsignedEvent::sign`] with the caller's auxiliary randomness
    /// (reproducible signatures, for tests). Requires the `schnorr` feature.
    ///
    /// ```
    /// use ito::nostr::{SecretKey, UnsignedEvent};
    /// let key = SecretKey::from_bytes(&[1; 32])?;
    /// let t = UnsignedEvent::new(1, "gm");
    /// assert_eq!(t.sign_with_aux_rand(&key, &[0; 32]), t.sign_with_aux_rand(&key, &[0; 32]));
    /// # Ok::<(), ito::nostr::KeyError>(())
    /// ```
    #[cfg(feature = "schnorr")]
    pub fn sign_with_aux_rand(&self, key: &SecretKey, aux_rand: &[u8; 32]) -> Event<'a> {
        let mut event = self.to_event(key.public_key(), [0; 32], [0; 64]);
        event.id = super::event_id(&event);
        event.sig = key.sign_hash_with_aux_rand(&event.id, aux_rand);
        event
    }
}

/// Writes tags given as strings as canonical JSON text (no whitespace,
/// NIP-01 escaping), ready for [`Tags::parse`].
///
/// ```
/// use ito::nostr::{tags_to_json, Tags};
/// let json = tags_to_json(&[vec!["e", "abc"], vec!["t", "a\"b"]]);
/// assert_eq!(json, r#"[["e","abc"],["t","a\"b"]]"#);
/// assert_eq!(Tags::parse(&json).unwrap().len(), 2);
/// ```
pub fn tags_to_json<T, S>(tags: &[T]) -> String
where
    T: AsRef<[S]>,
    S: AsRef<str>,
{
    let mut out = Vec::with_capacity(2 + tags.len() * 16);
    out.push(b'[');
    for (i, tag) in tags.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.push(b'[');
        for (j, value) in tag.as_ref().iter().enumerate() {
            if j > 0 {
                out.push(b',');
            }
            out.push(b'"');
            super::escape(&mut out, value.as_ref().as_bytes());
            out.push(b'"');
        }
        out.push(b']');
    }
    out.push(b']');
    // Escaping copies UTF-8 verbatim and writes ASCII around it.
    String::from_utf8(out).unwrap_or_default()
}

fn template<'a>(p: &mut Parser<'a>) -> Result<UnsignedEvent<'a>, Error> {
    p.eat(b'{', "`{` (an event template object)")?;
    let mut created_at = None;
    let mut kind = None;
    let mut tags = None;
    let mut content = None;
    if p.peek() == Some(b'}') {
        p.pos += 1;
    } else {
        loop {
            let (field, key_at) = p.key()?;
            p.eat(b':', "`:`")?;
            macro_rules! set {
                ($slot:ident, $f:expr, $parse:expr) => {{
                    if $slot.is_some() {
                        return Err(Error::new(key_at, ErrorKind::DuplicateField).in_field($f));
                    }
                    $slot = Some($parse.map_err(|e: Error| e.in_field($f))?);
                }};
            }
            match field {
                Some(Field::CreatedAt) => set!(created_at, Field::CreatedAt, p.uint(u64::MAX)),
                Some(Field::Kind) => {
                    set!(kind, Field::Kind, p.uint(u16::MAX as u64).map(|k| k as u16))
                }
                Some(Field::Tags) => set!(tags, Field::Tags, p.tags_value()),
                Some(Field::Content) => set!(content, Field::Content, p.string_value()),
                Some(f @ (Field::Id | Field::Pubkey | Field::Sig)) => {
                    p.skip_value(1).map_err(|e| e.in_field(f))?
                }
                None => p.skip_value(1)?,
            }
            match p.peek() {
                Some(b',') => p.pos += 1,
                Some(b'}') => {
                    p.pos += 1;
                    break;
                }
                _ => return Err(Error::expected(p.src, p.pos, "`,` or `}`")),
            }
        }
    }
    let close = p.pos - 1;
    let missing = |f: Field| Error::new(close, ErrorKind::MissingField).in_field(f);
    Ok(UnsignedEvent {
        created_at: created_at.ok_or_else(|| missing(Field::CreatedAt))?,
        kind: kind.ok_or_else(|| missing(Field::Kind))?,
        tags: tags.ok_or_else(|| missing(Field::Tags))?,
        content: content.ok_or_else(|| missing(Field::Content))?,
    })
}
