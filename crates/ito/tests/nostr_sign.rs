//! Signing events: ito's signatures verify with rust-nostr and rust-nostr's
//! with ito; ids agree on arbitrary content and tags; BIP-340's own vectors;
//! secret keys never show in Debug, Display or error messages; hostile
//! templates give errors, never panics.

#![cfg(feature = "schnorr")]

use ::nostr::prelude as oracle;
use ito::nostr::{self, tags_to_json, Event, KeyError, SecretKey, Tags, UnsignedEvent};
use proptest::prelude::*;

fn oracle_event(json: &[u8]) -> oracle::Event {
    oracle::Event::from_json(json).expect("rust-nostr parses ito's event")
}

fn to_json(event: &Event<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    event.to_json(&mut out);
    out
}

#[test]
fn bip340_vectors() {
    // BIP-340 test vectors 0-2 (bip-0340/test-vectors.csv): key, aux, message, signature.
    let vectors = [
        ("0000000000000000000000000000000000000000000000000000000000000003",
         "0000000000000000000000000000000000000000000000000000000000000000",
         "0000000000000000000000000000000000000000000000000000000000000000",
         "E907831F80848D1069A5371B402410364BDF1C5F8307B0084C55F1CE2DCA821525F66A4A85EA8B71E482A74F382D2CE5EBEEE8FDB2172F477DF4900D310536C0",
         "F9308A019258C31049344F85F89D5229B531C845836F99B08601F113BCE036F9"),
        ("B7E151628AED2A6ABF7158809CF4F3C762E7160F38B4DA56A784D9045190CFEF",
         "0000000000000000000000000000000000000000000000000000000000000001",
         "243F6A8885A308D313198A2E03707344A4093822299F31D0082EFA98EC4E6C89",
         "6896BD60EEAE296DB48A229FF71DFE071BDE413E6D43F917DC8DCF8C78DE33418906D11AC976ABCCB20B091292BFF4EA897EFCB639EA871CFA95F6DE339E4B0A",
         "DFF1D77F2A671C5F36183726DB2341BE58FEAE1DA2DECED843240F7B502BA659"),
        ("C90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B14E5C9",
         "C87AA53824B4D7AE2EB035A2B5BBBCCC080E76CDC6D1692C4B0B62D798E6D906",
         "7E2D58D8B3BCDF1ABADEC7829054F90DDA9805AAB56C77333024B9D0A508B75C",
         "5831AAEED7B44BB74E5EAB94BA9D4294C49BCF2A60728D8B4C200F50DD313C1BAB745879A5AD954A72C45A91C3A51D3C7ADEA98D82F8481E0E1E03674A6F3FB7",
         "DD308AFEC5777E13121FA72B9CC1B7CC0139715309B086C960E18FD969774EB8"),
    ];
    for (key, aux, msg, sig, public) in vectors {
        let key = SecretKey::from_hex(key).unwrap();
        let aux: [u8; 32] = ito::hex::decode_array(aux.as_bytes()).unwrap();
        let msg: [u8; 32] = ito::hex::decode_array(msg.as_bytes()).unwrap();
        assert_eq!(key.public_key_hex(), public.to_ascii_lowercase());
        let got = key.sign_hash_with_aux_rand(&msg, &aux);
        assert_eq!(ito::hex::encode(&got), sig.to_ascii_lowercase());
    }
}

#[test]
fn public_key_matches_rust_nostr() {
    for seed in 1..50u8 {
        let bytes = [seed; 32];
        let ours = SecretKey::from_bytes(&bytes).unwrap();
        let theirs = oracle::Keys::new(oracle::SecretKey::from_slice(&bytes).unwrap());
        assert_eq!(ours.public_key(), theirs.public_key().to_bytes());
    }
}

#[test]
fn ito_signs_rust_nostr_verifies() {
    let key = SecretKey::generate().unwrap();
    let template = UnsignedEvent::parse(
        br#"{"kind":1,"created_at":1700000000,"tags":[["e","abc"],["t","a\"b\u0001\/c"]],"content":"line\nbreak \u00e9 \ud83d\ude00 \u007f"}"#,
    )
    .unwrap();
    let event = template.sign(&key);
    assert!(nostr::verify(&event));
    let json = to_json(&event);
    let theirs = oracle_event(&json);
    theirs
        .verify()
        .expect("rust-nostr verifies ito's signature");
    assert_eq!(theirs.id.to_bytes(), event.id);
    assert_eq!(theirs.pubkey.to_bytes(), key.public_key());
}

#[test]
fn rust_nostr_signs_ito_verifies() {
    let keys = oracle::Keys::generate();
    for content in ["", "gm", "tab\there \"quoted\" \\ \u{1} é 😀", "</script>"] {
        let unsigned = oracle::UnsignedEvent::new(
            keys.public_key(),
            oracle::Timestamp::from(1_700_000_000),
            oracle::Kind::from(1u16),
            [oracle::Tag::hashtag("nostr")],
            content,
        );
        let theirs = oracle::SignEvent::sign_event(&keys, unsigned).unwrap();
        let json = theirs.as_json();
        let event = Event::parse_str(&json).unwrap();
        assert!(nostr::verify(&event), "{json}");
        // The same template under the same key gets rust-nostr's id.
        let secret = keys.secret_key().to_secret_bytes();
        let ours = SecretKey::from_bytes(&secret).unwrap();
        let template = UnsignedEvent {
            created_at: event.created_at,
            kind: event.kind,
            tags: event.tags,
            content: event.content.clone(),
        };
        assert_eq!(template.id(&ours.public_key()), theirs.id.to_bytes());
        assert_eq!(template.sign(&ours).id, theirs.id.to_bytes());
    }
}

#[test]
fn signatures_use_fresh_randomness() {
    let key = SecretKey::from_bytes(&[3; 32]).unwrap();
    let t = UnsignedEvent::new(1, "same");
    let (a, b) = (t.sign(&key), t.sign(&key));
    assert_eq!(a.id, b.id);
    assert_ne!(a.sig, b.sig);
    assert!(nostr::verify(&a) && nostr::verify(&b));
    // With fixed auxiliary bytes, BIP-340 is deterministic.
    assert_eq!(
        t.sign_with_aux_rand(&key, &[1; 32]).sig,
        t.sign_with_aux_rand(&key, &[1; 32]).sig
    );
}

#[test]
fn secrets_never_show() {
    let hex = "7f7ff03d123792d6ac594bfa67bf6d0c0ab55b6b1fdb6249303fe861f1ccba9a";
    let key = SecretKey::from_hex(hex).unwrap();
    for shown in [format!("{key:?}"), format!("{key}"), format!("{key:#?}")] {
        assert_eq!(shown, "[redacted]");
    }
    // Bad keys: no error message contains any 4-character piece of the input.
    let bad_inputs = [
        hex.replace('7', "g"),
        hex[..63].to_string(),
        format!("{hex}0"),
        "f".repeat(64), // above the group order
        "0".repeat(64),
        format!("nsec1{}", &hex[..50]),
    ];
    for input in bad_inputs {
        let err = SecretKey::parse(&input).unwrap_err();
        let message = format!("{err} {err:?}");
        for piece in input.as_bytes().windows(4) {
            let piece = std::str::from_utf8(piece).unwrap();
            if piece != "nsec" {
                assert!(!message.contains(piece), "{message:?} shows {piece:?}");
            }
        }
    }
    assert_eq!(
        SecretKey::parse(&"f".repeat(64)).unwrap_err(),
        KeyError::OutOfRange
    );
}

#[test]
fn key_parsing() {
    let hex = "7f7ff03d123792d6ac594bfa67bf6d0c0ab55b6b1fdb6249303fe861f1ccba9a";
    let key = SecretKey::parse(&format!("\n {hex} \r\n")).unwrap();
    assert_eq!(
        *key.secret_bytes(),
        *SecretKey::from_hex(hex).unwrap().secret_bytes()
    );
    assert_eq!(
        SecretKey::from_hex("ab").unwrap_err(),
        KeyError::Length { found: 2 }
    );
    assert_eq!(
        SecretKey::from_hex(&"é".repeat(32)).unwrap_err(),
        KeyError::HexDigit { offset: 0 }
    );
    assert_eq!(
        SecretKey::from_slice(&[1; 33]).unwrap_err(),
        KeyError::Length { found: 33 }
    );
    #[cfg(feature = "nip19")]
    {
        let nsec = ito::nostr::nip19::encode_nsec(&key.secret_bytes());
        assert_eq!(
            SecretKey::parse(&nsec).unwrap().public_key(),
            key.public_key()
        );
        assert_eq!(
            SecretKey::parse(&nsec.to_uppercase()).unwrap().public_key(),
            key.public_key()
        );
        // rust-nostr reads our nsec.
        let theirs = <oracle::SecretKey as oracle::FromBech32>::from_bech32(&nsec).unwrap();
        assert_eq!(theirs.to_secret_bytes(), *key.secret_bytes());
    }
}

#[test]
fn template_errors_name_field_and_offset() {
    let cases: [(&[u8], &str); 6] = [
        (
            br#"{"kind":1,"created_at":5,"tags":[],"content":"x","kind":2}"#,
            "`kind`: duplicate field at byte 49",
        ),
        (
            br#"{"kind":-1}"#,
            "`kind`: not a non-negative integer at byte 8",
        ),
        (
            br#"{"kind":70000,"created_at":5,"tags":[],"content":""}"#,
            "`kind`: integer larger than 65535 at byte 8",
        ),
        (
            br#"{"kind":1,"created_at":5,"tags":[[1]],"content":""}"#,
            "`tags`: expected a string, found `1` at byte 34",
        ),
        (
            br#"{"kind":1,"created_at":5,"tags":[],"content":"x"} x"#,
            "unexpected characters after the value at byte 50",
        ),
        (
            br#"{"kind":1,"created_at":5,"content":"x","tags":[],"pubkey":x}"#,
            "`pubkey`: expected a JSON value, found `x` at byte 58",
        ),
    ];
    for (input, message) in cases {
        let got = UnsignedEvent::parse(input)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert_eq!(got, message);
    }
    // id, pubkey and sig in a template are ignored.
    let t = UnsignedEvent::parse(
        br#"{"id":"x","pubkey":"y","sig":null,"kind":1,"created_at":5,"tags":[],"content":""}"#,
    )
    .unwrap();
    assert_eq!(t.kind, 1);
}

#[test]
fn every_prefix_of_a_template_is_an_error() {
    let full = br#"{"kind":1,"created_at":1700000000,"tags":[["e","x\n"]],"content":"caf\u00e9"}"#;
    assert!(UnsignedEvent::parse(full).is_ok());
    for len in 0..full.len() {
        let err = UnsignedEvent::parse(&full[..len]).map(|_| ()).unwrap_err();
        assert!(err.offset() <= len, "{len}: {err}");
    }
}

fn tag_value() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9]{0,8}",
        any::<String>(),
        proptest::collection::vec(0u8..0x80, 0..12).prop_map(|b| String::from_utf8(b).unwrap()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn ids_and_signatures_agree_with_rust_nostr(
        seed in 1u8..255,
        created_at in any::<u32>(),
        kind in any::<u16>(),
        tags in proptest::collection::vec(proptest::collection::vec(tag_value(), 1..4), 0..4),
        content in any::<String>(),
    ) {
        let key = SecretKey::from_bytes(&[seed; 32]).unwrap();
        let tags_json = tags_to_json(&tags);
        let template = UnsignedEvent {
            created_at: created_at as u64,
            kind,
            tags: Tags::parse(&tags_json).unwrap(),
            content: content.as_str().into(),
        };
        let event = template.sign(&key);
        prop_assert!(nostr::verify(&event));
        let theirs = oracle_event(&to_json(&event));
        prop_assert!(theirs.verify().is_ok());
        let oracle_tags = oracle::Tags::from_list(tags.iter().map(|t| oracle::Tag::parse(t.clone()).unwrap()).collect());
        let expected = oracle::EventId::compute(
            &theirs.pubkey,
            &oracle::Timestamp::from(created_at as u64),
            &oracle::Kind::from(kind),
            &oracle_tags,
            &content,
        );
        prop_assert_eq!(event.id, expected.to_bytes());
    }

    #[test]
    fn hostile_templates_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..120)) {
        let _ = UnsignedEvent::parse(&bytes);
    }

    #[test]
    fn hostile_keys_never_panic(text in "\\PC{0,80}") {
        let _ = SecretKey::parse(&text);
    }

    #[test]
    fn one_byte_mutations_of_a_template(at in 0usize..74, byte in any::<u8>()) {
        let mut t = br#"{"kind":1,"created_at":1700000000,"tags":[["e","x"]],"content":"hello"}"#.to_vec();
        let at = at % t.len();
        t[at] = byte;
        if let Ok(template) = UnsignedEvent::parse(&t) {
            let key = SecretKey::from_bytes(&[9; 32]).unwrap();
            prop_assert!(nostr::verify(&template.sign(&key)));
        }
    }
}
