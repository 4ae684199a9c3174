//! Signing and NIP-19 against rust-nostr as wall-time ratios of contenders
//! alternated in one process (best round of each; robust on a loaded host).
//! Inputs go through `black_box` on every call and results are consumed
//! inside the timed loop.
//!
//! `cargo run --release -p ito-bench --example sign_alternated`

use std::hint::black_box;
use std::time::{Duration, Instant};

use ::nostr::prelude::{self as rn, FromBech32, ToBech32};
use ito::nostr::{self as ito_nostr, nip19};
use ito_bench::{best_of, Timed};

fn timed<'a>(name: &'a str, calls: usize, mut f: impl FnMut() + 'a) -> Timed<'a> {
    (
        name,
        Box::new(move || {
            let t = Instant::now();
            for _ in 0..calls {
                f();
            }
            t.elapsed() / calls as u32
        }),
    )
}

fn report(title: &str, results: &[(String, Duration)]) {
    println!("{title}");
    let ito = results[0].1.as_secs_f64();
    for (name, d) in results {
        println!(
            "  {name:28} {:10.1} ns   ÷ ito (> 1: ito faster): {:.2}",
            d.as_secs_f64() * 1e9,
            d.as_secs_f64() / ito
        );
    }
}

fn main() {
    let secret = [0x42u8; 32];
    let key = ito_nostr::SecretKey::from_bytes(&secret).unwrap();
    let keys = rn::Keys::new(rn::SecretKey::from_slice(&secret).unwrap());
    let tags = ito_nostr::Tags::parse(r#"[["e","3da979448d9ba263864c4d6f14984c423a3838364ec255f03c7904b1ae77f206"],["p","bf2376e17ba4ec269d10fcc996a4746b451152be9031fa48e74553dde5526bce"]]"#).unwrap();
    let content = "Walled gardens became prisons, and nostr is the first step towards tearing down the prison walls.";
    let template = ito_nostr::UnsignedEvent {
        created_at: 1673347337,
        kind: 1,
        tags,
        content: content.into(),
    };
    let theirs = rn::UnsignedEvent::new(
        keys.public_key(),
        rn::Timestamp::from(1673347337),
        rn::Kind::from(1u16),
        tags.to_vec()
            .into_iter()
            .map(|t| rn::Tag::parse(t).unwrap()),
        content,
    );
    let signed = template.sign(&key);
    assert_eq!(
        theirs.compute_id().to_bytes(),
        signed.id,
        "peers must agree"
    );
    let results = best_of(
        30,
        &mut [
            timed("ito sign", 200, || {
                black_box(black_box(&template).sign(&key));
            }),
            timed("ito sign + verify", 200, || {
                let e = black_box(&template).sign(&key);
                black_box(ito_nostr::verify_signature(&e));
            }),
            timed("rust-nostr sign_event", 200, || {
                black_box(rn::SignEvent::sign_event(&keys, black_box(&theirs).clone()).unwrap());
            }),
        ],
    );
    report(
        "sign one kind-1 event (rust-nostr's sign_event also verifies)",
        &results,
    );

    let pk = signed.pubkey;
    let npub = nip19::encode_npub(&pk);
    let their_pk = rn::PublicKey::from_slice(&pk).unwrap();
    assert_eq!(their_pk.to_bech32().unwrap(), npub);
    let results = best_of(
        30,
        &mut [
            timed("ito decode_npub", 20_000, || {
                black_box(nip19::decode_npub(black_box(&npub)).unwrap());
            }),
            timed("rust-nostr PublicKey::from_bech32", 20_000, || {
                black_box(rn::PublicKey::from_bech32(black_box(&npub)).unwrap());
            }),
        ],
    );
    report("npub decode", &results);
    let results = best_of(
        30,
        &mut [
            timed("ito encode_npub", 20_000, || {
                black_box(nip19::encode_npub(black_box(&pk)));
            }),
            timed("rust-nostr to_bech32", 20_000, || {
                black_box(black_box(&their_pk).to_bech32().unwrap());
            }),
        ],
    );
    report("npub encode", &results);

    let pointer = nip19::EventPointer {
        id: signed.id,
        relays: vec!["wss://relay.damus.io".into(), "wss://nos.lol".into()],
        author: Some(pk),
        kind: Some(1),
    };
    let nevent = pointer.encode().unwrap();
    let their_pointer = rn::Nip19Event::from_bech32(&nevent).unwrap();
    let results = best_of(
        30,
        &mut [
            timed("ito EventPointer::decode", 10_000, || {
                black_box(nip19::EventPointer::decode(black_box(&nevent)).unwrap());
            }),
            timed("rust-nostr Nip19Event::from_bech32", 10_000, || {
                black_box(rn::Nip19Event::from_bech32(black_box(&nevent)).unwrap());
            }),
        ],
    );
    report("nevent decode (2 relays, author, kind)", &results);
    let results = best_of(
        30,
        &mut [
            timed("ito EventPointer::encode", 10_000, || {
                black_box(black_box(&pointer).encode().unwrap());
            }),
            timed("rust-nostr to_bech32", 10_000, || {
                black_box(black_box(&their_pointer).to_bech32().unwrap());
            }),
        ],
    );
    report("nevent encode", &results);
}
