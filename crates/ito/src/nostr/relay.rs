//! Relay-to-client messages and events in wire form, written through
//! [`json::Writer`](crate::json::Writer) into a reused `Vec<u8>`.
//!
//! The bytes are those of JavaScript's `JSON.stringify` of the same array,
//! which is what clients parse: no whitespace, strings escaped minimally
//! (`\"` `\\` `\b` `\f` `\n` `\r` `\t`, other controls as lowercase
//! `\u00xx`, everything else, U+2028/U+2029 included, verbatim). Ids, keys
//! and signatures are written as precomputed quoted hex (no escape scan);
//! an event's tags that are already canonical text are copied as they
//! are, and a stored event can be sent verbatim ([`RelayMessage::EventRaw`],
//! as strfry does). Nothing is allocated but the output's growth, except
//! for tag strings spelled with non-canonical escapes (`\/`, `\u0041`),
//! which are decoded once to be re-escaped.

use super::event::{Event, Tag};
use crate::json::{Escaping, RawJson, WithOptions, Writer};
use std::borrow::Cow;

/// A message from a relay to a client.
///
/// ```
/// use ito::nostr::RelayMessage;
/// let mut out = Vec::new();
/// RelayMessage::Ok { event_id: &[0xab; 32], accepted: false, message: "duplicate: already have it" }.write(&mut out);
/// assert!(out.starts_with(br#"["OK","abab"#));
/// assert!(out.ends_with(br#"",false,"duplicate: already have it"]"#));
///
/// out.clear(); // reuse the buffer: no allocation once it is large enough
/// RelayMessage::Eose { subscription_id: "feed" }.write(&mut out);
/// assert_eq!(out, br#"["EOSE","feed"]"#);
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum RelayMessage<'a> {
    /// `["EVENT", sub, event]`, the event rendered in NIP-01 key order.
    Event {
        /// The subscription the event answers.
        subscription_id: &'a str,
        /// The event.
        event: &'a Event<'a>,
    },
    /// `["EVENT", sub, event]` with the event's JSON copied verbatim (as
    /// received and stored).
    EventRaw {
        /// The subscription the event answers.
        subscription_id: &'a str,
        /// The event object's JSON text.
        event: &'a RawJson,
    },
    /// `["OK", id, accepted, message]`: the answer to an `EVENT`. NIP-01's
    /// machine-readable prefixes (`duplicate:`, `invalid:`, ...) are part
    /// of `message`.
    Ok {
        /// The id of the event being answered.
        event_id: &'a [u8; 32],
        /// Whether the relay accepted it.
        accepted: bool,
        /// Why (may be empty).
        message: &'a str,
    },
    /// `["EOSE", sub]`: the stored events are all sent.
    Eose {
        /// The subscription.
        subscription_id: &'a str,
    },
    /// `["CLOSED", sub, message]`: the relay ended a subscription.
    Closed {
        /// The subscription.
        subscription_id: &'a str,
        /// Why.
        message: &'a str,
    },
    /// `["NOTICE", message]`: text for people.
    Notice {
        /// The text.
        message: &'a str,
    },
    /// `["AUTH", challenge]` (NIP-42).
    Auth {
        /// The challenge string.
        challenge: &'a str,
    },
    /// `["COUNT", sub, {"count": n}]` (NIP-45), with `"approximate": true`
    /// when the count is an estimate.
    Count {
        /// The query.
        subscription_id: &'a str,
        /// The number of matching events.
        count: u64,
        /// Whether `count` is an estimate.
        approximate: bool,
    },
}

impl RelayMessage<'_> {
    /// Appends the message's JSON text to `out`.
    ///
    /// ```
    /// use ito::nostr::RelayMessage;
    /// let mut out = Vec::new();
    /// RelayMessage::Count { subscription_id: "q", count: 238, approximate: true }.write(&mut out);
    /// assert_eq!(out, br#"["COUNT","q",{"count":238,"approximate":true}]"#);
    /// ```
    pub fn write(&self, out: &mut Vec<u8>) {
        if let RelayMessage::Event {
            subscription_id,
            event,
        } = *self
        {
            // The hot message: no Writer state, one reservation for the
            // event (the id is short).
            out.extend_from_slice(b"[\"EVENT\",");
            crate::json::quote(out, subscription_id);
            out.push(b',');
            write_event(out, event);
            out.push(b']');
            return;
        }
        let mut a = Writer::new(out).array();
        match *self {
            RelayMessage::Event { .. } => unreachable!("written above"),
            RelayMessage::EventRaw {
                subscription_id,
                event,
            } => {
                a.push("EVENT").push(subscription_id).push(event);
            }
            RelayMessage::Ok {
                event_id,
                accepted,
                message,
            } => {
                let mut buf = [0u8; 66];
                a.push("OK")
                    .push(quoted_hex(event_id, &mut buf))
                    .push(accepted)
                    .push(message);
            }
            RelayMessage::Eose { subscription_id } => {
                a.push("EOSE").push(subscription_id);
            }
            RelayMessage::Closed {
                subscription_id,
                message,
            } => {
                a.push("CLOSED").push(subscription_id).push(message);
            }
            RelayMessage::Notice { message } => {
                a.push("NOTICE").push(message);
            }
            RelayMessage::Auth { challenge } => {
                a.push("AUTH").push(challenge);
            }
            RelayMessage::Count {
                subscription_id,
                count,
                approximate,
            } => {
                a.push("COUNT").push(subscription_id);
                let mut o = a.object();
                o.field("count", count);
                if approximate {
                    o.field("approximate", true);
                }
            }
        }
    }
}

/// `"<hex>"` of `bytes` in `buf` (of length `2 * N + 2`), as raw JSON.
fn quoted_hex<'b, const N: usize, const M: usize>(
    bytes: &[u8; N],
    buf: &'b mut [u8; M],
) -> &'b RawJson {
    debug_assert_eq!(M, 2 * N + 2);
    buf[0] = b'"';
    buf[M - 1] = b'"';
    crate::hex::encode_to_slice(bytes, &mut buf[1..M - 1], crate::hex::Case::Lower)
        .expect("2N digits fit");
    // SAFETY: a quote, hex digits and a quote: ASCII, and one JSON string.
    unsafe { RawJson::new_unchecked(std::str::from_utf8_unchecked(&buf[..])) }
}

/// Whether the text between a string's quotes, which has escapes, is
/// already what the canonical escaper writes: only `\"` `\\` `\b` `\f`
/// `\n` `\r` `\t` and lowercase `\u00xx` for the other controls.
fn escapes_are_canonical(body: &[u8]) -> bool {
    let mut i = 0;
    while let Some(k) = body[i..].iter().position(|&b| b == b'\\') {
        i += k;
        match body.get(i + 1) {
            Some(b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't') => i += 2,
            Some(b'u') => {
                let Some(hex) = body.get(i + 2..i + 6) else {
                    return false;
                };
                let lower = |b: &u8| matches!(b, b'0'..=b'9' | b'a'..=b'f');
                if !(hex.starts_with(b"00") && hex.iter().all(lower)) {
                    return false;
                }
                let v = u8::from_str_radix(std::str::from_utf8(&hex[2..]).unwrap_or("ff"), 16);
                match v {
                    // Controls without a short escape.
                    Ok(c) if c < 0x20 && !matches!(c, 0x08 | 0x09 | 0x0a | 0x0c | 0x0d) => i += 6,
                    _ => return false,
                }
            }
            _ => return false,
        }
    }
    true
}

impl Event<'_> {
    /// Writes the event into a [`Writer`] slot as a compact object with the
    /// keys in NIP-01 order (`id, pubkey, created_at, kind, tags, content,
    /// sig`): the bytes of `JSON.stringify(event)`.
    ///
    /// ```
    /// use ito::{json::Writer, nostr::Event};
    /// let text = br#"{ "kind": 1, "content": "hi\u2028", "tags": [ ["t", "a\/b"] ], "created_at": 5,
    ///   "pubkey": "0000000000000000000000000000000000000000000000000000000000000001",
    ///   "id": "0000000000000000000000000000000000000000000000000000000000000002",
    ///   "sig": "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000003" }"#;
    /// let event = Event::parse(text)?;
    /// let mut out = Vec::new();
    /// event.write_json(Writer::new(&mut out));
    /// let text = String::from_utf8(out).unwrap();
    /// assert!(text.starts_with(r#"{"id":"0000"#));
    /// assert!(text.contains(r#""kind":1,"tags":[["t","a/b"]],"content":"hi"#));
    /// # Ok::<(), ito::nostr::Error>(())
    /// ```
    pub fn write_json<E: Escaping>(&self, slot: Writer<'_, E>) {
        let (out, esc) = slot.take();
        match esc.esc() {
            None => write_event(out, self),
            Some(options) => self.write_json_with(Writer::with_options(out, options)),
        }
    }

    /// The field-by-field path, for writers with non-default escaping.
    fn write_json_with(&self, slot: Writer<'_, WithOptions<'_>>) {
        let mut buf32 = [0u8; 66];
        let mut buf64 = [0u8; 130];
        let mut o = slot.object();
        o.field("id", quoted_hex(&self.id, &mut buf32));
        o.field("pubkey", quoted_hex(&self.pubkey, &mut buf32));
        o.field("created_at", self.created_at)
            .field("kind", self.kind);
        if self.tags.is_compact() {
            // SAFETY: validated tags without whitespace or escapes are one
            // JSON array in canonical form.
            o.field("tags", unsafe { RawJson::new_unchecked(self.tags.raw()) });
        } else {
            let mut tags = o.array("tags");
            for tag in self.tags.iter() {
                write_tag(&mut tags.array(), tag);
            }
        }
        o.field("content", &*self.content);
        o.field("sig", quoted_hex(&self.sig, &mut buf64));
    }
}

/// `{"id":"` hex `","pubkey":"` hex `","created_at":`.
const HEAD: usize = 7 + 64 + 12 + 64 + 15;
/// `","sig":"` hex `"}`.
const TAIL: usize = 9 + 128 + 2;

/// The event's wire form under the default escaping, with one
/// reservation: the fixed-width parts (hex fields and the keys around
/// them) are assembled in stack buffers and copied in one piece each,
/// the numbers through `itoa`, canonical tags copied, other tags
/// re-escaped without a decode buffer, the content through the escape
/// kernel.
#[inline]
pub(crate) fn write_event(out: &mut Vec<u8>, e: &Event<'_>) {
    let tags = e.tags.raw().as_bytes();
    let content = e.content.as_bytes();
    // Numbers (20 + 5 digits) and `,"kind":` `,"tags":` `,"content":"`;
    // escaping grows the content only where it has specials.
    out.reserve(HEAD + 20 + 8 + 5 + 8 + tags.len() + 12 + content.len() + TAIL);
    let mut head = [0u8; HEAD];
    head[..7].copy_from_slice(b"{\"id\":\"");
    crate::hex::encode_to_array(&e.id, sub_array::<HEAD, 64>(&mut head, 7));
    head[71..83].copy_from_slice(b"\",\"pubkey\":\"");
    crate::hex::encode_to_array(&e.pubkey, sub_array::<HEAD, 64>(&mut head, 83));
    head[147..].copy_from_slice(b"\",\"created_at\":");
    out.extend_from_slice(&head);
    let mut digits = itoa::Buffer::new();
    out.extend_from_slice(digits.format(e.created_at).as_bytes());
    out.extend_from_slice(b",\"kind\":");
    out.extend_from_slice(digits.format(e.kind).as_bytes());
    out.extend_from_slice(b",\"tags\":");
    if e.tags.is_compact() {
        out.extend_from_slice(tags);
    } else {
        super::id::canonical_tags(out, &e.tags);
    }
    out.extend_from_slice(b",\"content\":\"");
    crate::json::escape_bytes(out, content);
    let mut tail = [0u8; TAIL];
    tail[..9].copy_from_slice(b"\",\"sig\":\"");
    crate::hex::encode_to_array(&e.sig, sub_array::<TAIL, 128>(&mut tail, 9));
    tail[137..].copy_from_slice(b"\"}");
    out.extend_from_slice(&tail);
}

/// `buf[at..at + M]` as an array.
#[inline(always)]
fn sub_array<const N: usize, const M: usize>(buf: &mut [u8; N], at: usize) -> &mut [u8; M] {
    (&mut buf[at..at + M]).try_into().expect("in bounds")
}

/// One tag's strings: canonical spellings copied, others re-escaped.
fn write_tag<E: Escaping>(out: &mut crate::json::Array<'_, E>, tag: Tag<'_>) {
    for (quoted, escaped) in tag.raw_strings() {
        let body = &quoted[1..quoted.len() - 1];
        if !escaped || escapes_are_canonical(body.as_bytes()) {
            // SAFETY: a validated JSON string token, quotes included.
            out.push(unsafe { RawJson::new_unchecked(quoted) });
        } else {
            let mut decoded = Vec::with_capacity(body.len());
            // Validated on parse: decoding cannot fail.
            let _ = super::unescape(&mut decoded, body.as_bytes());
            let decoded = String::from_utf8(decoded)
                .map(Cow::Owned)
                .unwrap_or_default();
            out.push(decoded);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_escapes_are_recognised() {
        for (body, canonical) in [
            (&br#"a\"b\\c\n\r\t\b\f"#[..], true),
            (br"\u0000\u001f\u000b", true),
            (br"\/", false),
            (br"\u0041", false),
            (br"\u000a", false),
            (br"\u001F", false),
            (br"\u00e9", false),
            (br"\ud83d\ude00", false),
            (br"\u00", false),
        ] {
            assert_eq!(
                escapes_are_canonical(body),
                canonical,
                "{}",
                String::from_utf8_lossy(body)
            );
            // Cross-check with the canonical escaper.
            if canonical {
                let mut decoded = Vec::new();
                super::super::unescape(&mut decoded, body).unwrap();
                let mut again = Vec::new();
                super::super::escape(&mut again, &decoded);
                assert_eq!(again, body);
            }
        }
    }
}
