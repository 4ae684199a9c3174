//! NIP-42 authentication, and who may read direct messages.
//!
//! ```text
//! connect            -> ["AUTH", <challenge>]       (32 random hex digits)
//! ["AUTH", event]    -> check(event):
//!                         kind 22242, created_at within 10 minutes of now,
//!                         ["challenge", <this connection's challenge>],
//!                         ["relay", <url>] whose host is the relay's host,
//!                         id and signature
//!                       -> Policy::on_auth -> the pubkey joins the
//!                          connection's authenticated set; OK true
//! kinds 4, 1059      -> served (stored and live) only to a connection
//!                       authenticated as the author or a `p`-tagged key
//! ```
//!
//! The relay's host is the host of `Config::relay_url` when it is set,
//! else the `Host` header the client connected with. The `relay` tag
//! matches when its host is the same, compared without case, a trailing
//! dot, the scheme, user info, port, path, query and fragment: the lenient
//! comparison NIP-42 suggests, since proxies and clients spell the same
//! relay `wss://Relay.example/`, `ws://relay.example:443` and so on.
//!
//! A `REQ` or `COUNT` from a connection not yet authenticated is refused
//! with `CLOSED` `auth-required:` when one of its filters asks for a
//! protected kind by name (`kinds` holds 4 or 1059): the client learns
//! that authenticating would change the answer. Every other filter that
//! could match a protected event (no `kinds`: `{"authors": [...]}`, `ids`,
//! tags) runs for every connection, and the store skips the protected
//! events the reader may not see before counting them against `limit`, so
//! an answer holds exactly `min(limit, visible matches)` events. Turning
//! NIP-42 on thus hides direct messages without refusing the queries a
//! client makes for everything else (a profile, a thread).

use ito::nostr::{Event, Filter};

/// The kind of a NIP-42 authentication event.
pub(crate) const AUTH_KIND: u16 = 22242;

/// How far an authentication event's `created_at` may be from now.
pub(crate) const MAX_SKEW_SECS: u64 = 600;

/// Kinds served only to their author or recipients: NIP-04 direct
/// messages and NIP-59 gift wraps.
pub(crate) fn is_protected(kind: u16) -> bool {
    kind == 4 || kind == 1059
}

/// Whether `filter` could match a protected event: its `kinds` is absent
/// or names a protected kind.
pub(crate) fn may_return_protected(filter: &Filter<'_>) -> bool {
    filter
        .kinds
        .as_ref()
        .is_none_or(|kinds| kinds.iter().any(|&k| is_protected(k)))
}

/// Whether `filter` asks for a protected kind by name (what gets
/// `auth-required:` before authentication).
pub(crate) fn asks_for_protected(filter: &Filter<'_>) -> bool {
    filter
        .kinds
        .as_ref()
        .is_some_and(|kinds| kinds.iter().any(|&k| is_protected(k)))
}

/// Whether a connection authenticated as `keys` may see `event`.
pub(crate) fn visible_to(event: &Event<'_>, keys: &[[u8; 32]]) -> bool {
    if !is_protected(event.kind) || keys.contains(&event.pubkey) {
        return true;
    }
    event.tags.iter().any(|tag| {
        let mut values = tag.iter();
        values.next().as_deref() == Some("p")
            && values
                .next()
                .and_then(|v| crate::nip::hex32(&v))
                .is_some_and(|p| keys.contains(&p))
    })
}

/// A fresh challenge: 16 bytes from the operating system, in hex.
pub(crate) fn challenge() -> String {
    let mut bytes = [0u8; 16];
    // A failing OS random source is not something a relay can serve
    // through; the same call seeds every key this process generates.
    getrandom::fill(&mut bytes).expect("the operating system's random source");
    ito::hex::encode(&bytes)
}

/// The host of a URL (or of a bare `host[:port]`), lower-cased, without
/// scheme, user info, port, path, query, fragment or trailing dot.
///
/// ```text
/// wss://Relay.Example.com:443/path?x  -> relay.example.com
/// ws://[::1]:7777                     -> [::1]
/// relay.example.com.                  -> relay.example.com
/// ```
pub(crate) fn url_host(url: &str) -> Option<String> {
    let url = url.trim();
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let hostport = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if hostport.starts_with('[') {
        &hostport[..=hostport.find(']')?]
    } else {
        match hostport.rsplit_once(':') {
            Some((host, port)) if port.bytes().all(|b| b.is_ascii_digit()) => host,
            _ => hostport,
        }
    };
    let host = host.strip_suffix('.').unwrap_or(host).to_ascii_lowercase();
    (!host.is_empty()).then_some(host)
}

/// Checks an authentication event for a connection whose challenge is
/// `challenge`, on a relay whose host is `relay_host`, at `now`; the
/// refusal is the whole `OK` message, with its NIP-01 prefix.
pub(crate) fn check(
    event: &Event<'_>,
    challenge: &str,
    relay_host: Option<&str>,
    now: u64,
) -> Result<(), String> {
    if event.kind != AUTH_KIND {
        return Err(format!("invalid: an AUTH event has kind {AUTH_KIND}"));
    }
    if event.created_at.abs_diff(now) > MAX_SKEW_SECS {
        return Err(format!(
            "invalid: created_at is more than {MAX_SKEW_SECS} seconds from now"
        ));
    }
    let (mut challenged, mut relay) = (None, None);
    for tag in event.tags.iter() {
        let mut values = tag.iter();
        match values.next().as_deref() {
            Some("challenge") if challenged.is_none() => {
                challenged = Some(values.next().unwrap_or_default())
            }
            Some("relay") if relay.is_none() => relay = Some(values.next().unwrap_or_default()),
            _ => {}
        }
    }
    if challenged.as_deref() != Some(challenge) {
        return Err("invalid: the challenge tag is not this connection's challenge".to_owned());
    }
    let Some(expected) = relay_host else {
        return Err("invalid: this relay does not know its own URL (set relay_url)".to_owned());
    };
    if relay.and_then(|r| url_host(&r)).as_deref() != Some(expected) {
        return Err(format!(
            "invalid: the relay tag does not name this relay ({expected})"
        ));
    }
    if !ito::nostr::verify_id(event) {
        return Err("invalid: event id does not match".to_owned());
    }
    if !ito::nostr::verify_signature(event) {
        return Err("invalid: bad signature".to_owned());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ito::nostr::{SecretKey, Tags, UnsignedEvent};

    fn signed(kind: u16, created_at: u64, tags: &[Vec<String>]) -> Vec<u8> {
        let key = SecretKey::from_bytes(&[7; 32]).unwrap();
        let tags = ito::nostr::tags_to_json(tags);
        let event = UnsignedEvent {
            created_at,
            kind,
            tags: Tags::parse(&tags).unwrap(),
            content: "".into(),
        }
        .sign(&key);
        let mut json = Vec::new();
        event.to_json(&mut json);
        json
    }

    fn t(name: &str, value: &str) -> Vec<String> {
        vec![name.to_owned(), value.to_owned()]
    }

    #[test]
    fn hosts_compare_leniently() {
        for (url, host) in [
            ("wss://Relay.Example.com:443/path?x#y", "relay.example.com"),
            ("ws://relay.example.com", "relay.example.com"),
            ("relay.example.com.", "relay.example.com"),
            ("wss://user:pw@relay.example.com/", "relay.example.com"),
            ("ws://[::1]:7777/", "[::1]"),
            ("127.0.0.1:7777", "127.0.0.1"),
        ] {
            assert_eq!(url_host(url).as_deref(), Some(host), "{url}");
        }
        assert_eq!(url_host(""), None);
        assert_eq!(url_host("wss:///path"), None);
        assert_eq!(url_host("ws://[::1"), None);
    }

    #[test]
    fn auth_events_are_checked_field_by_field() {
        let now = 1_700_000_000;
        let good = [
            t("challenge", "abc"),
            t("relay", "wss://relay.example.com/"),
        ];
        let check_json =
            |json: &[u8], host: Option<&str>| check(&Event::parse(json).unwrap(), "abc", host, now);
        let host = Some("relay.example.com");
        assert_eq!(check_json(&signed(AUTH_KIND, now, &good), host), Ok(()));
        assert_eq!(
            check_json(&signed(AUTH_KIND, now - 600, &good), host),
            Ok(())
        );
        let refusals: [(Vec<u8>, Option<&str>, &str); 8] = [
            (signed(1, now, &good), host, "kind"),
            (signed(AUTH_KIND, now - 601, &good), host, "created_at"),
            (signed(AUTH_KIND, now + 601, &good), host, "created_at"),
            (
                signed(AUTH_KIND, now, &[t("challenge", "abd"), good[1].clone()]),
                host,
                "challenge",
            ),
            (signed(AUTH_KIND, now, &good[1..]), host, "challenge"),
            (signed(AUTH_KIND, now, &good[..1]), host, "relay tag"),
            (
                signed(AUTH_KIND, now, &good),
                Some("other.example.com"),
                "relay tag",
            ),
            (signed(AUTH_KIND, now, &good), None, "relay_url"),
        ];
        for (json, host, word) in refusals {
            let err = check_json(&json, host).unwrap_err();
            assert!(err.starts_with("invalid: ") && err.contains(word), "{err}");
        }
        // A signature over other content.
        let text = String::from_utf8(signed(AUTH_KIND, now, &good)).unwrap();
        let forged = text.replace("\"content\":\"\"", "\"content\":\"x\"");
        assert!(check_json(forged.as_bytes(), host)
            .unwrap_err()
            .contains("id"));
    }

    #[test]
    fn protected_events_are_visible_to_author_and_recipients_only() {
        let author = SecretKey::from_bytes(&[7; 32]).unwrap().public_key();
        let (to, other) = ([2u8; 32], [3u8; 32]);
        let dm = signed(4, 1, &[t("p", &ito::hex::encode(&to))]);
        let dm = Event::parse(&dm).unwrap();
        assert!(visible_to(&dm, &[author]));
        assert!(visible_to(&dm, &[other, to]));
        assert!(!visible_to(&dm, &[other]));
        assert!(!visible_to(&dm, &[]));
        let note = signed(1, 1, &[]);
        assert!(visible_to(&Event::parse(&note).unwrap(), &[]));
        let wrap = signed(1059, 1, &[]);
        assert!(!visible_to(&Event::parse(&wrap).unwrap(), &[other]));

        let asks = |json: &str| asks_for_protected(&Filter::parse(json.as_bytes()).unwrap());
        assert!(asks(r#"{"kinds":[1,4]}"#) && asks(r#"{"kinds":[1059]}"#));
        assert!(!asks(r#"{}"#) && !asks(r#"{"kinds":[1,7]}"#) && !asks(r##"{"#t":["x"]}"##));
        let may = |json: &str| may_return_protected(&Filter::parse(json.as_bytes()).unwrap());
        assert!(may("{}") && may(r#"{"authors":[]}"#));
        assert!(may(r#"{"kinds":[1,4]}"#) && may(r#"{"kinds":[1059]}"#));
        assert!(!may(r#"{"kinds":[1,7]}"#) && !may(r#"{"kinds":[]}"#));
    }
}
