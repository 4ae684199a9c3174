//! Client-to-relay messages (NIP-01, NIP-42 `AUTH`, NIP-45 `COUNT`), parsed
//! in one pass without copying: strings borrow from the input unless they
//! contain escapes, events keep their received bytes for verbatim storage.
//!
//! ```text
//! ["EVENT", <event>]                   ["CLOSE", <subscription id>]
//! ["REQ", <subscription id>, <filter>, <filter>, ...]   (one or more)
//! ["COUNT", <subscription id>, <filter>, ...]           (one or more)
//! ["AUTH", <signed event>]
//! ```
//!
//! A subscription id is a non-empty string of at most 64 characters. Extra
//! elements after those a message defines (`["CLOSE","s",{"x":1}]`) are
//! validated as JSON and skipped, leaving room for extensions as the
//! `nostr` crate does; in `REQ` and `COUNT` every element after the id is a
//! filter.

use super::error::{Error, ErrorKind};
use super::event::{Event, Parser};
use super::filter::{parse_filter, string_value, Filter};
use crate::json::RawJson;
use std::borrow::Cow;

/// A message from a client to a relay.
///
/// ```
/// use ito::nostr::ClientMessage;
/// let msg = ClientMessage::parse(br##"["REQ", "feed", {"kinds": [1], "limit": 20}, {"#t": ["nostr"]}]"##)?;
/// let ClientMessage::Req { subscription_id, filters } = msg else { panic!() };
/// assert_eq!((subscription_id.as_ref(), filters.len()), ("feed", 2));
/// assert_eq!(filters[0].limit, Some(20));
/// # Ok::<(), ito::nostr::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClientMessage<'a> {
    /// `["EVENT", event]`: publish an event.
    Event {
        /// The parsed event (not yet checked: see
        /// [`verify_id`](super::verify_id)).
        event: Event<'a>,
        /// The event object's text exactly as received, for storing and
        /// forwarding verbatim (see
        /// [`RelayMessage::EventRaw`](super::RelayMessage::EventRaw)).
        raw: &'a RawJson,
    },
    /// `["REQ", id, filter, ...]`: open a subscription.
    Req {
        /// The subscription id, decoded.
        subscription_id: Cow<'a, str>,
        /// One or more filters; an event matches when any does.
        filters: Vec<Filter<'a>>,
    },
    /// `["COUNT", id, filter, ...]` (NIP-45): ask for a count.
    Count {
        /// The query id, decoded.
        subscription_id: Cow<'a, str>,
        /// One or more filters.
        filters: Vec<Filter<'a>>,
    },
    /// `["CLOSE", id]`: end a subscription.
    Close {
        /// The subscription id, decoded.
        subscription_id: Cow<'a, str>,
    },
    /// `["AUTH", event]` (NIP-42): answer an authentication challenge.
    Auth {
        /// The signed kind-22242 event (not yet checked).
        event: Event<'a>,
        /// The event object's text exactly as received.
        raw: &'a RawJson,
    },
}

impl<'a> ClientMessage<'a> {
    /// Parses one message. Errors carry the byte offset and what was
    /// expected; unknown message types are
    /// [`ErrorKind::UnknownMessage`].
    ///
    /// ```
    /// use ito::nostr::{ClientMessage, ErrorKind};
    /// let msg = ClientMessage::parse(br#"["CLOSE","feed"]"#)?;
    /// assert!(matches!(msg, ClientMessage::Close { subscription_id } if subscription_id == "feed"));
    ///
    /// let err = ClientMessage::parse(br#"["REQ","feed"]"#).unwrap_err();
    /// assert_eq!(err.to_string(), "expected `,` and a filter object, found `]` at byte 13");
    /// let err = ClientMessage::parse(br#"["PING"]"#).unwrap_err();
    /// assert_eq!((err.offset(), err.kind()), (1, ErrorKind::UnknownMessage));
    /// # Ok::<(), ito::nostr::Error>(())
    /// ```
    pub fn parse(json: &'a [u8]) -> Result<ClientMessage<'a>, Error> {
        let mut p = Parser::new(json);
        let message = message(&mut p)?;
        p.end()?;
        Ok(message)
    }

    /// [`ClientMessage::parse`] for a `&str`.
    ///
    /// ```
    /// assert!(ito::nostr::ClientMessage::parse_str(r#"["CLOSE",""]"#).is_err());
    /// ```
    pub fn parse_str(json: &'a str) -> Result<ClientMessage<'a>, Error> {
        ClientMessage::parse(json.as_bytes())
    }
}

fn message<'a>(p: &mut Parser<'a>) -> Result<ClientMessage<'a>, Error> {
    if p.peek() != Some(b'[') {
        return Err(Error::expected(
            p.src,
            p.pos,
            "`[` (a client message array)",
        ));
    }
    p.pos += 1;
    let type_at = match p.peek() {
        Some(_) => p.pos,
        None => return Err(Error::new(p.pos, ErrorKind::UnexpectedEnd)),
    };
    let kind = string_value(p).map_err(|e| match e.kind() {
        ErrorKind::Expected { .. } => Error::expected(p.src, type_at, "a message type string"),
        _ => e,
    })?;
    let message = match kind.as_ref() {
        "EVENT" => {
            comma(p, "`,` and an event object")?;
            let (event, raw) = event(p)?;
            ClientMessage::Event { event, raw }
        }
        "AUTH" => {
            comma(p, "`,` and an event object")?;
            let (event, raw) = event(p)?;
            ClientMessage::Auth { event, raw }
        }
        "CLOSE" => {
            comma(p, "`,` and a subscription id")?;
            ClientMessage::Close {
                subscription_id: subscription_id(p)?,
            }
        }
        "REQ" | "COUNT" => {
            comma(p, "`,` and a subscription id")?;
            let subscription_id = subscription_id(p)?;
            // Room for the common one to three filters in one allocation.
            let mut filters: Vec<Filter<'a>> = Vec::with_capacity(3);
            loop {
                comma(p, "`,` and a filter object")?;
                filters.reserve(1);
                // Built where it will live: a `Filter` is 648 bytes, and
                // `push(Filter::default())` built it on the stack and copied it.
                filters.spare_capacity_mut()[0].write(Filter::default());
                // SAFETY: the slot at `len` was reserved and is now
                // initialised.
                unsafe { filters.set_len(filters.len() + 1) };
                let last = filters.len() - 1;
                parse_filter(p, 2, &mut filters[last])?;
                if p.peek() == Some(b']') {
                    break;
                }
            }
            if kind == "REQ" {
                ClientMessage::Req {
                    subscription_id,
                    filters,
                }
            } else {
                ClientMessage::Count {
                    subscription_id,
                    filters,
                }
            }
        }
        _ => return Err(Error::new(type_at, ErrorKind::UnknownMessage)),
    };
    // Extensions: validate and skip any further elements.
    loop {
        match p.peek() {
            Some(b']') => {
                p.pos += 1;
                return Ok(message);
            }
            Some(b',') => {
                p.pos += 1;
                p.skip_value(1)?;
            }
            _ => return Err(Error::expected(p.src, p.pos, "`,` or `]`")),
        }
    }
}

/// The `,` before the next required element; `what` names both.
fn comma(p: &mut Parser<'_>, what: &'static str) -> Result<(), Error> {
    if p.peek() == Some(b',') {
        p.pos += 1;
        Ok(())
    } else {
        Err(Error::expected(p.src, p.pos, what))
    }
}

fn event<'a>(p: &mut Parser<'a>) -> Result<(Event<'a>, &'a RawJson), Error> {
    p.peek();
    let start = p.pos;
    let event = p.event()?;
    let bytes = &p.src[start..p.pos];
    // SAFETY: the parser validated the UTF-8 of every string in the object
    // and every other byte is an ASCII token or whitespace; it is one
    // complete JSON object without surrounding whitespace.
    let raw = unsafe { RawJson::new_unchecked(std::str::from_utf8_unchecked(bytes)) };
    Ok((event, raw))
}

/// A non-empty string of at most 64 characters.
fn subscription_id<'a>(p: &mut Parser<'a>) -> Result<Cow<'a, str>, Error> {
    p.peek();
    let at = p.pos;
    let id = string_value(p).map_err(|e| match e.kind() {
        ErrorKind::Expected { .. } => Error::expected(p.src, at, "a subscription id string"),
        _ => e,
    })?;
    // Counting stops early: a 1 MB id costs 65 steps, not a million.
    let chars = id.chars().take(65).count();
    if chars == 0 || chars > 64 {
        let chars = if chars > 64 { id.chars().count() } else { 0 };
        return Err(Error::new(at, ErrorKind::SubscriptionIdLength { chars }));
    }
    Ok(id)
}
