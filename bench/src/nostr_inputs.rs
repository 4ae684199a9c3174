//! Nostr inputs shared by `benches/relay.rs` and the headline report:
//! a kind-1 event with hostile content, a signed event, subscription
//! filters.

use sha2::{Digest, Sha256};

/// A real signed kind-1 event (id and BIP-340 signature valid).
pub const SIGNED_EVENT: &str = r#"{"id":"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65","pubkey":"6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93","created_at":1673347337,"kind":1,"tags":[["e","3da979448d9ba263864c4d6f14984c423a3838364ec255f03c7904b1ae77f206"],["p","bf2376e17ba4ec269d10fcc996a4746b451152be9031fa48e74553dde5526bce"]],"content":"Walled gardens became prisons, and nostr is the first step towards tearing down the prison walls.","sig":"908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262"}"#;

/// A kind-1 event with hostile content (quotes, backslashes, controls,
/// emoji, U+2028) and a correct id (the signature is not valid).
pub fn hostile_event() -> String {
    let content = "Quote \"this\" and C:\\path\\to, tab\there, newline\nbell\u{7} <b>&amp;</b> 🤙⚡ \u{2028} and enough plain text to reach the length of an ordinary note, about two hundred bytes.";
    let mut value = serde_json::json!({
        "id": "",
        "pubkey": "6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93",
        "created_at": 1673347337u64,
        "kind": 1,
        "tags": [
            ["e", "3da979448d9ba263864c4d6f14984c423a3838364ec255f03c7904b1ae77f206", "wss://relay.example.com", "root"],
            ["p", "bf2376e17ba4ec269d10fcc996a4746b451152be9031fa48e74553dde5526bce"],
            ["t", "nostr"]
        ],
        "content": content,
        "sig": "908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262",
    });
    let canonical = serde_json::json!([
        0,
        value["pubkey"],
        value["created_at"],
        value["kind"],
        value["tags"],
        value["content"]
    ])
    .to_string();
    value["id"] = ito::hex::encode(&Sha256::digest(canonical.as_bytes())).into();
    serde_json::to_string(&value).unwrap()
}

/// A distinct 64-digit public key for each `i`.
pub fn pubkey(i: u32) -> String {
    format!("{:056x}{i:08x}", 0xabcdefu64)
}

/// A `REQ` message with three filters (authors, `#e`, `#t`).
pub fn req_3_filters() -> String {
    let (a, b) = (pubkey(1), pubkey(2));
    format!(
        r##"["REQ","sub:1",{{"kinds":[1,7],"authors":["{a}","{b}"],"since":1700000000,"limit":100}},{{"#e":["3da979448d9ba263864c4d6f14984c423a3838364ec255f03c7904b1ae77f206"],"kinds":[7]}},{{"#t":["nostr","rust"],"until":1800000000}}]"##
    )
}

/// 1,000 open subscriptions: by author (most), by `#p`, by kind; only
/// number 502 matches an event by `author`.
pub fn thousand_filters(author: &str) -> Vec<String> {
    (0..1000u32)
        .map(|i| match i % 10 {
            _ if i == 502 => format!(r#"{{"authors":["{author}"],"kinds":[1,6,7]}}"#),
            0 => format!(r##"{{"#p":["{}"],"kinds":[1]}}"##, pubkey(i)),
            1 => format!(r#"{{"kinds":[{}],"since":1700000000}}"#, 30000 + i),
            _ => format!(
                r#"{{"authors":["{}","{}"],"kinds":[1,6,7]}}"#,
                pubkey(i),
                pubkey(i + 5000)
            ),
        })
        .collect()
}
