//! Shared helpers: signed events, a small deterministic random source.
#![allow(dead_code, unreachable_pub)]

use ito::nostr::{Event, SecretKey, Tags, UnsignedEvent};

/// xorshift64*: deterministic, no dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// A signed event's canonical JSON.
pub fn sign(
    key: &SecretKey,
    created_at: u64,
    kind: u16,
    tags: &[Vec<String>],
    content: &str,
) -> Vec<u8> {
    let tags_json = ito::nostr::tags_to_json(tags);
    let template = UnsignedEvent {
        created_at,
        kind,
        tags: Tags::parse(&tags_json).expect("tags"),
        content: content.into(),
    };
    let event = template.sign(key);
    let mut json = Vec::new();
    event.to_json(&mut json);
    json
}

pub fn tag(name: &str, value: &str) -> Vec<String> {
    vec![name.to_owned(), value.to_owned()]
}

pub fn id_of(json: &[u8]) -> [u8; 32] {
    Event::parse(json).expect("event").id
}

pub fn hex(bytes: &[u8]) -> String {
    ito::hex::encode(bytes)
}

pub fn keys(n: usize) -> Vec<SecretKey> {
    (0..n)
        .map(|i| {
            let mut b = [0u8; 32];
            b[0] = 1;
            b[31] = i as u8 + 1;
            SecretKey::from_bytes(&b).expect("key")
        })
        .collect()
}
