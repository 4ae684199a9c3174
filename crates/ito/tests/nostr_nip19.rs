//! NIP-19 strings: the NIP's own examples, vectors from nostr-tools' tests,
//! round trips, agreement with rust-nostr in both directions (TLV order
//! differs, so agreement means equal decoded values), and hostile input:
//! every prefix, one-byte mutations, mixed case, over-long strings.

#![cfg(feature = "nip19")]

use ::nostr::prelude as oracle;
use ::nostr::prelude::{FromBech32, ToBech32};
use ito::nostr::nip19::{
    self, decode, AddressPointer, Error, EventPointer, Nip19, ProfilePointer, MAX_LENGTH,
};
use proptest::prelude::*;

fn hex32(s: &str) -> [u8; 32] {
    ito::hex::decode_array(s.as_bytes()).unwrap()
}

// Examples from NIP-19 itself (nostr-protocol/nips, 19.md).
#[test]
fn nip19_examples() {
    assert_eq!(
        decode("npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg").unwrap(),
        Nip19::Npub(hex32(
            "7e7e9c42a91bfef19fa929e5fda1b72e0ebc1a4c1141673e2794234d86addf4e"
        ))
    );
    let nsec = "nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5";
    let secret = hex32("67dea2ed018072d675f5415ecfaed7d2597555e202d85b3d65ea4e58d2d92ffa");
    assert_eq!(nip19::decode_nsec(nsec).unwrap().expose(), &secret);
    assert_eq!(nip19::encode_nsec(&secret), nsec);
    let nprofile = "nprofile1qqsrhuxx8l9ex335q7he0f09aej04zpazpl0ne2cgukyawd24mayt8gpp4mhxue69uhhytnc9e3k7mgpz4mhxue69uhkg6nzv9ejuumpv34kytnrdaksjlyr9p";
    let pointer = ProfilePointer {
        pubkey: hex32("3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d"),
        relays: vec!["wss://r.x.com".into(), "wss://djbas.sadkb.com".into()],
    };
    assert_eq!(decode(nprofile).unwrap(), Nip19::Nprofile(pointer.clone()));
    // Type order (0, then relays) is the NIP's example order: byte-identical.
    assert_eq!(pointer.encode().unwrap(), nprofile);
    assert_eq!(
        nip19::encode_npub(&hex32(
            "3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d"
        )),
        "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6"
    );
}

// Vectors from nostr-tools' nip19.test.ts (nbd-wtf/nostr-tools).
#[test]
fn nostr_tools_vectors() {
    let Nip19::Naddr(a) = decode("naddr1qq98yetxv4ex2mnrv4esygrl54h466tz4v0re4pyuavvxqptsejl0vxcmnhfl60z3rth2xkpjspsgqqqw4rsf34vl5").unwrap() else {
        panic!("naddr")
    };
    assert_eq!(
        a.pubkey,
        hex32("7fa56f5d6962ab1e3cd424e758c3002b8665f7b0d8dcee9fe9e288d7751ac194")
    );
    assert_eq!((a.kind, a.identifier.as_str()), (30023, "references"));

    // go-nostr's TLV order.
    let Nip19::Naddr(a) = decode("naddr1qqrxyctwv9hxzq3q80cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsxpqqqp65wqfwwaehxw309aex2mrp0yhxummnw3ezuetcv9khqmr99ekhjer0d4skjm3wv4uxzmtsd3jjucm0d5q3vamnwvaz7tmwdaehgu3wvfskuctwvyhxxmmd0zfmwx").unwrap() else {
        panic!("naddr")
    };
    assert_eq!(
        a.pubkey,
        hex32("3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d")
    );
    assert_eq!((a.kind, a.identifier.as_str()), (30023, "banana"));
    assert_eq!(
        a.relays,
        [
            "wss://relay.nostr.example.mydomain.example.com",
            "wss://nostr.banana.com"
        ]
    );

    for (s, prefix) in [
        ("nprofile1qqsvc6ulagpn7kwrcwdqgp797xl7usumqa6s3kgcelwq6m75x8fe8yc5usxdg", "nprofile"),
        ("nevent1qqst8cujky046negxgwwm5ynqwn53t8aqjr6afd8g59nfqwxpdhylpcpzamhxue69uhhyetvv9ujuetcv9khqmr99e3k7mg8arnc9", "nevent"),
        ("naddr1qqxnzdesxqmnxvpexqunzvpcqyt8wumn8ghj7un9d3shjtnwdaehgu3wvfskueqzypve7elhmamff3sr5mgxxms4a0rppkmhmn7504h96pfcdkpplvl2jqcyqqq823cnmhuld", "naddr"),
        ("nsec1lqw6zqyanj9mz8gwhdam6tqge42vptz4zg93qsfej440xm5h5esqya0juv", "nsec"),
        ("npub1jz5mdljkmffmqjshpyjgqgrhdkuxd9ztzasv8xeh5q92fv33sjgqy4pats", "npub"),
        ("note1gmtnz6q2m55epmlpe3semjdcq987av3jvx4emmjsa8g3s9x7tg4sclreky", "note"),
    ] {
        let value = decode(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert_eq!(value.prefix(), prefix);
        // Re-encoding gives a string that decodes to the same value.
        assert_eq!(decode(&value.encode().unwrap()).unwrap(), value);
    }
    // Their invalid forms: a non-ASCII character inside.
    for s in [
        "nprofile1qqsvc6ulagpn7kwrcwdqgp797xl7usumqa6s3kgcelwq6m75x8fe8yc5usxãg",
        "note1gmtnz6q2m55epmlpe3semjdcq987av3jvx4emmjsa8g3s9x7tg4sçlreky",
    ] {
        assert!(matches!(decode(s), Err(Error::InvalidChar { .. })), "{s}");
    }
}

#[test]
fn case_rules() {
    let npub = "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6";
    let upper = npub.to_ascii_uppercase();
    assert_eq!(decode(&upper).unwrap(), decode(npub).unwrap());
    assert_eq!(
        nip19::decode_npub(&upper).unwrap(),
        nip19::decode_npub(npub).unwrap()
    );
    // One letter of the other case anywhere: refused, at that letter.
    for (i, c) in npub.char_indices() {
        if c.is_ascii_alphabetic() {
            let mut mixed = npub.to_string();
            mixed.replace_range(i..=i, &c.to_ascii_uppercase().to_string());
            let first_letter = 0;
            let expected = if i == first_letter { 1 } else { i };
            assert_eq!(
                decode(&mixed),
                Err(Error::MixedCase { offset: expected }),
                "{mixed}"
            );
        }
    }
}

#[test]
fn errors_name_what_and_where() {
    let note = nip19::encode_note(&[7; 32]);
    assert_eq!(decode(""), Err(Error::MissingSeparator));
    assert_eq!(decode("noteqqqq"), Err(Error::MissingSeparator));
    assert_eq!(decode("1qqqqqqqq"), Err(Error::MissingSeparator));
    assert_eq!(decode("note1qqqq"), Err(Error::TooShort { found: 4 }));
    assert_eq!(
        decode("note1qqqqbq"),
        Err(Error::InvalidChar {
            offset: 9,
            byte: b'b'
        })
    );
    assert_eq!(
        decode("note 1qq"),
        Err(Error::InvalidChar {
            offset: 4,
            byte: b' '
        })
    );
    assert_eq!(
        decode(&note.replace("note", "nope")),
        Err(Error::Checksum),
        "the prefix is part of the checksum"
    );
    let wrong = nip19::encode_npub(&[7; 32]);
    assert_eq!(
        nip19::decode_note(&wrong),
        Err(Error::WrongPrefix {
            expected: "note",
            found: "npub".into()
        })
    );
    // A valid bech32 string with an unknown prefix (BIP-173's test vector).
    assert_eq!(
        decode("abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw"),
        Err(Error::UnknownPrefix {
            prefix: "abcdef".into()
        })
    );
    // Bech32m is not NIP-19's checksum (BIP-350's valid bech32m vector).
    assert_eq!(
        decode("abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx"),
        Err(Error::Checksum)
    );
    assert_eq!(
        decode(&"n".repeat(MAX_LENGTH + 1)),
        Err(Error::TooLong {
            length: MAX_LENGTH + 1
        })
    );
    assert_eq!(
        Error::TlvLength {
            offset: 34,
            tlv_type: 3,
            expected: 4,
            found: 2
        }
        .to_string(),
        "TLV type 3 must be 4 bytes, found 2 at payload byte 34"
    );
}

/// Encodes raw TLV bytes under a prefix, for malformed payloads no encoder makes.
fn raw(prefix: &str, data: &[u8]) -> String {
    let hrp = bech32::Hrp::parse(prefix).unwrap();
    bech32::encode::<bech32::Bech32>(hrp, data).unwrap()
}

#[test]
fn tlv_rules() {
    let mut data = vec![0, 32];
    data.extend_from_slice(&[5; 32]);
    // Unknown types are skipped, wherever they are.
    let mut with_unknown = vec![9, 3, 1, 2, 3];
    with_unknown.extend_from_slice(&data);
    with_unknown.extend_from_slice(&[200, 0]);
    assert_eq!(
        decode(&raw("nprofile", &with_unknown)).unwrap(),
        Nip19::Nprofile(ProfilePointer {
            pubkey: [5; 32],
            relays: vec![]
        })
    );
    // A record past the end; a wrong length; a missing record; bad UTF-8.
    assert_eq!(
        decode(&raw("nprofile", &data[..20])),
        Err(Error::TlvTruncated { offset: 0 })
    );
    let mut tail = data.clone();
    tail.push(1);
    assert_eq!(
        decode(&raw("nprofile", &tail)),
        Err(Error::TlvTruncated { offset: 34 })
    );
    assert_eq!(
        decode(&raw("nprofile", &[0, 2, 1, 2])),
        Err(Error::TlvLength {
            offset: 0,
            tlv_type: 0,
            expected: 32,
            found: 2
        })
    );
    assert_eq!(
        decode(&raw("nprofile", &[1, 1, b'x'])),
        Err(Error::TlvMissing {
            prefix: "nprofile",
            tlv_type: 0
        })
    );
    let mut bad_relay = data.clone();
    bad_relay.extend_from_slice(&[1, 2, 0xff, 0xfe]);
    assert_eq!(
        decode(&raw("nevent", &bad_relay)),
        Err(Error::TlvUtf8 {
            offset: 34,
            tlv_type: 1
        })
    );
    let mut bad_kind = data.clone();
    bad_kind.extend_from_slice(&[3, 2, 0, 1]);
    assert_eq!(
        decode(&raw("nevent", &bad_kind)),
        Err(Error::TlvLength {
            offset: 34,
            tlv_type: 3,
            expected: 4,
            found: 2
        })
    );
    // naddr needs an author and a kind.
    assert_eq!(
        decode(&raw("naddr", &[0, 1, b'd'])),
        Err(Error::TlvMissing {
            prefix: "naddr",
            tlv_type: 2
        })
    );
    // The first of repeated single-valued records counts.
    let mut twice = data.clone();
    twice.extend_from_slice(&[0, 32]);
    twice.extend_from_slice(&[6; 32]);
    assert_eq!(
        decode(&raw("note", &data[2..])).unwrap(),
        Nip19::Note([5; 32])
    );
    let Nip19::Nevent(e) = decode(&raw("nevent", &twice)).unwrap() else {
        panic!()
    };
    assert_eq!(e.id, [5; 32]);
    // npub and friends: exactly 32 bytes.
    assert_eq!(
        decode(&raw("npub", &[1; 31])),
        Err(Error::Length {
            prefix: "npub",
            found: 31
        })
    );
    // Values longer than one record holds cannot be encoded.
    let long = AddressPointer {
        identifier: "x".repeat(256),
        pubkey: [0; 32],
        kind: 1,
        relays: vec![],
    };
    assert_eq!(
        long.encode(),
        Err(Error::TlvTooLong {
            tlv_type: 0,
            length: 256
        })
    );
}

#[test]
fn long_strings_past_bech32s_90_characters() {
    let relays: Vec<String> = (0..25)
        .map(|i| format!("wss://relay{i}.example.com/some/path"))
        .collect();
    let p = ProfilePointer {
        pubkey: [1; 32],
        relays,
    };
    let s = p.encode().unwrap();
    assert!(s.len() > 1023, "{}", s.len());
    assert_eq!(ProfilePointer::decode(&s).unwrap(), p);
    assert_eq!(ProfilePointer::decode(&s.to_uppercase()).unwrap(), p);
}

#[test]
fn every_prefix_and_every_one_byte_change_is_an_error() {
    let pointer = EventPointer {
        id: [0x5a; 32],
        relays: vec!["wss://relay.example.com".into()],
        author: Some([0x33; 32]),
        kind: Some(1),
    };
    let s = pointer.encode().unwrap();
    for len in 0..s.len() {
        assert!(decode(&s[..len]).is_err(), "prefix of {len}");
    }
    // bech32 detects every single-character substitution.
    let alphabet = b"qpzry9x8gf2tvdw0s3jn54khce6mua7lQPZ!1 \x00\xff";
    for at in 0..s.len() {
        for &c in alphabet {
            let mut b = s.as_bytes().to_vec();
            if b[at] == c {
                continue;
            }
            b[at] = c;
            let mutated = String::from_utf8_lossy(&b);
            assert!(decode(&mutated).is_err(), "{mutated}");
        }
    }
}

fn pubkey() -> impl Strategy<Value = [u8; 32]> {
    (1u8..=255, any::<[u8; 31]>()).prop_map(|(seed, rest)| {
        let mut secret = [seed; 32];
        secret[1..].copy_from_slice(&rest);
        secp256k1::Keypair::from_secret_bytes(secret)
            .map(|k| k.x_only_public_key().0.to_byte_array())
            .unwrap_or([2; 32])
    })
}

/// Relay URLs rust-nostr keeps byte for byte (its parser normalises others).
fn relay() -> impl Strategy<Value = String> {
    ("(ws|wss)", "[a-z][a-z0-9]{0,10}", "(/[a-z0-9]{0,6})?")
        .prop_map(|(scheme, host, path)| format!("{scheme}://{host}.example.com{path}"))
}

fn relays() -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec(relay(), 0..4)
}

fn oracle_relays(relays: &[String]) -> Vec<oracle::RelayUrl> {
    relays
        .iter()
        .map(|r| oracle::RelayUrl::parse(r).unwrap())
        .collect()
}

fn their_relays(relays: &[oracle::RelayUrl]) -> Vec<String> {
    relays.iter().map(|r| r.as_str().to_string()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn fixed_types_agree_with_rust_nostr(pk in pubkey(), id in any::<[u8; 32]>(), sk in any::<[u8; 32]>()) {
        let npub = nip19::encode_npub(&pk);
        let their_pk = oracle::PublicKey::from_slice(&pk).unwrap();
        prop_assert_eq!(&npub, &their_pk.to_bech32().unwrap());
        prop_assert_eq!(nip19::decode_npub(&npub).unwrap(), pk);
        let note = nip19::encode_note(&id);
        prop_assert_eq!(&note, &oracle::EventId::from_byte_array(id).to_bech32().unwrap());
        prop_assert_eq!(nip19::decode_note(&note).unwrap(), id);
        if let Ok(their_sk) = oracle::SecretKey::from_slice(&sk) {
            let nsec = nip19::encode_nsec(&sk);
            prop_assert_eq!(&nsec, &their_sk.to_bech32().unwrap());
            prop_assert_eq!(*nip19::decode_nsec(&nsec).unwrap().expose(), sk);
        }
    }

    #[test]
    fn nprofile_agrees_with_rust_nostr(pk in pubkey(), relays in relays()) {
        let ours = ProfilePointer { pubkey: pk, relays: relays.clone() };
        let theirs = oracle::Nip19Profile::new(oracle::PublicKey::from_slice(&pk).unwrap(), oracle_relays(&relays));
        let decoded_there = oracle::Nip19Profile::from_bech32(&ours.encode().unwrap()).unwrap();
        prop_assert_eq!(&decoded_there, &theirs);
        let decoded_here = ProfilePointer::decode(&theirs.to_bech32().unwrap()).unwrap();
        prop_assert_eq!(decoded_here, ours);
    }

    #[test]
    fn nevent_agrees_with_rust_nostr(
        id in any::<[u8; 32]>(),
        relays in relays(),
        author in proptest::option::of(pubkey()),
        kind in proptest::option::of(any::<u16>()),
    ) {
        let ours = EventPointer { id, relays: relays.clone(), author, kind: kind.map(u32::from) };
        let mut theirs = oracle::Nip19Event::new(oracle::EventId::from_byte_array(id)).relays(oracle_relays(&relays));
        if let Some(a) = author {
            theirs = theirs.author(oracle::PublicKey::from_slice(&a).unwrap());
        }
        if let Some(k) = kind {
            theirs = theirs.kind(oracle::Kind::from(k));
        }
        let there = oracle::Nip19Event::from_bech32(&ours.encode().unwrap()).unwrap();
        prop_assert_eq!(there.event_id.to_bytes(), id);
        prop_assert_eq!(there.author.map(|a| a.to_bytes()), author);
        prop_assert_eq!(there.kind.map(|k| k.as_u16()), kind);
        prop_assert_eq!(their_relays(&there.relays), relays.clone());
        let here = EventPointer::decode(&theirs.to_bech32().unwrap()).unwrap();
        prop_assert_eq!(here, ours);
    }

    #[test]
    fn naddr_agrees_with_rust_nostr(
        identifier in "\\PC{0,40}",
        pk in pubkey(),
        kind in any::<u16>(),
        relays in relays(),
    ) {
        let ours = AddressPointer { identifier: identifier.clone(), pubkey: pk, kind: kind.into(), relays: relays.clone() };
        let coordinate = oracle::Coordinate::new(oracle::Kind::from(kind), oracle::PublicKey::from_slice(&pk).unwrap())
            .identifier(identifier.clone());
        let theirs = oracle::Nip19Coordinate::new(coordinate, oracle_relays(&relays));
        let there = oracle::Nip19Coordinate::from_bech32(&ours.encode().unwrap()).unwrap();
        prop_assert_eq!(&there, &theirs);
        let here = AddressPointer::decode(&theirs.to_bech32().unwrap()).unwrap();
        prop_assert_eq!(here, ours);
    }

    #[test]
    fn round_trips_are_exact(
        id in any::<[u8; 32]>(),
        relays in proptest::collection::vec(any::<String>().prop_filter("fits a record", |s| s.len() < 256), 0..5),
        author in proptest::option::of(any::<[u8; 32]>()),
        kind in proptest::option::of(any::<u32>()),
        identifier in any::<String>().prop_filter("fits a record", |s| s.len() < 256),
    ) {
        for value in [
            Nip19::Npub(id),
            Nip19::Nsec(nip19::SecretBytes::new(id)),
            Nip19::Note(id),
            Nip19::Nprofile(ProfilePointer { pubkey: id, relays: relays.clone() }),
            Nip19::Nevent(EventPointer { id, relays: relays.clone(), author, kind }),
            Nip19::Naddr(AddressPointer { identifier: identifier.clone(), pubkey: id, kind: kind.unwrap_or(0), relays: relays.clone() }),
        ] {
            let s = value.encode().unwrap();
            prop_assert_eq!(&decode(&s).unwrap(), &value);
            prop_assert_eq!(&decode(&s.to_ascii_uppercase()).unwrap(), &value);
        }
    }

    #[test]
    fn hostile_strings_never_panic(s in "\\PC{0,120}") {
        let _ = decode(&s);
    }

    #[test]
    fn hostile_payloads_never_panic(
        prefix in "(npub|nsec|note|nprofile|nevent|naddr)",
        data in proptest::collection::vec(any::<u8>(), 0..120),
    ) {
        let _ = decode(&raw(&prefix, &data));
    }

    #[test]
    fn random_tlv_records_decode_or_fail_cleanly(
        records in proptest::collection::vec((0u8..6, proptest::collection::vec(any::<u8>(), 0..40)), 0..6),
    ) {
        let mut data = Vec::new();
        for (t, v) in &records {
            data.push(*t);
            data.push(v.len() as u8);
            data.extend_from_slice(v);
        }
        for prefix in ["nprofile", "nevent", "naddr"] {
            if let Ok(value) = decode(&raw(prefix, &data)) {
                // What decodes re-encodes to the same value.
                prop_assert_eq!(decode(&value.encode().unwrap()).unwrap(), value);
            }
        }
    }
}
