//! NIP-42 through a real websocket: the challenge on connect, each check
//! of an `AUTH` event, `auth-required:` for filters that ask for a
//! direct message by kind (other filters served without them), and kinds
//! 4 and 1059 reaching only their author and recipients, stored (with
//! `limit` counting visible events only), live and counted; the `on_auth` policy hook; AUTH off by default.

mod common;

use common::{id, keys, now, sign, start, tag, Client};
use ito::nostr::SecretKey;
use ito_relay::{Config, MemoryStore, Policy, Relay};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;

fn auth_config() -> Config {
    Config {
        auth: true,
        ..Config::default()
    }
}

/// Connects and reads the `["AUTH", challenge]` the relay opens with.
async fn connect(addr: SocketAddr) -> (Client, String) {
    let mut c = Client::connect(addr).await;
    let m = c.recv().await;
    assert_eq!(m[0], "AUTH", "{m}");
    let challenge = m[1].as_str().unwrap().to_owned();
    assert_eq!(challenge.len(), 32, "{m}");
    (c, challenge)
}

/// Sends `["AUTH", event]`; returns the `OK`'s (accepted, message).
async fn auth(c: &mut Client, event: &[u8]) -> (bool, String) {
    c.send(&format!(
        "[\"AUTH\",{}]",
        std::str::from_utf8(event).unwrap()
    ))
    .await;
    let ok = c.recv().await;
    assert_eq!(
        (ok[0].as_str(), ok[1].as_str()),
        (Some("OK"), Some(id(event).as_str()))
    );
    (ok[2].as_bool().unwrap(), ok[3].as_str().unwrap().to_owned())
}

fn auth_event(key: &SecretKey, challenge: &str, relay: &str, created_at: u64) -> Vec<u8> {
    sign(
        key,
        created_at,
        22242,
        &[tag("relay", relay), tag("challenge", challenge)],
        "",
    )
}

async fn closed(c: &mut Client, sub: &str, what: &str, filter: Value) {
    c.send(&json!([what, sub, filter]).to_string()).await;
    let m = c.recv().await;
    assert_eq!(
        (m[0].as_str(), m[1].as_str()),
        (Some("CLOSED"), Some(sub)),
        "{m}"
    );
    assert!(m[2].as_str().unwrap().starts_with("auth-required: "), "{m}");
}

async fn count(c: &mut Client, sub: &str, filter: Value) -> u64 {
    c.send(&json!(["COUNT", sub, filter]).to_string()).await;
    let m = c.recv().await;
    assert_eq!(
        (m[0].as_str(), m[1].as_str()),
        (Some("COUNT"), Some(sub)),
        "{m}"
    );
    m[2]["count"].as_u64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn direct_messages_reach_only_their_author_and_recipients() {
    let relay = start(auth_config()).await;
    let url = format!("ws://{}/", relay.addr);
    let k = keys(3);
    let (alice, bob, carol) = (&k[0], &k[1], &k[2]);
    let t = now() - 100;
    let dm = sign(alice, t, 4, &[tag("p", &bob.public_key_hex())], "hi bob");
    let wrap = sign(
        carol,
        t + 1,
        1059,
        &[tag("p", &bob.public_key_hex())],
        "sealed",
    );
    let note = sign(alice, t - 10, 1, &[], "public");

    // Publishing needs no AUTH; reading direct messages does.
    let (mut anon, challenge) = connect(relay.addr).await;
    for e in [&dm, &wrap, &note] {
        assert_eq!(anon.publish(e).await, (true, String::new()));
    }
    // Asking for a protected kind by name: auth-required.
    for filter in [json!({"kinds": [4]}), json!({"kinds": [1, 1059]})] {
        closed(&mut anon, "dm", "REQ", filter.clone()).await;
        closed(&mut anon, "n", "COUNT", filter).await;
    }
    // Any other filter is served, without the direct messages.
    for (sub, filter, want) in [
        ("notes", json!({"kinds": [1]}), vec![id(&note)]),
        ("all", json!({}), vec![id(&note)]),
        ("by-id", json!({"ids": [id(&dm), id(&wrap)]}), vec![]),
        ("to-bob", json!({"#p": [bob.public_key_hex()]}), vec![]),
    ] {
        assert_eq!(
            anon.req(sub, std::slice::from_ref(&filter)).await,
            want,
            "{filter}"
        );
        anon.send(&json!(["CLOSE", sub]).to_string()).await;
        assert_eq!(count(&mut anon, sub, filter).await, want.len() as u64);
    }

    // Each check of the AUTH event, then one that passes.
    let now = now();
    for (event, word) in [
        (auth_event(bob, "wrong", &url, now), "challenge"),
        (
            auth_event(bob, &challenge, "wss://elsewhere.example/", now),
            "relay",
        ),
        (auth_event(bob, &challenge, &url, now - 700), "created_at"),
        (
            sign(
                bob,
                now,
                1,
                &[tag("relay", &url), tag("challenge", &challenge)],
                "",
            ),
            "kind",
        ),
    ] {
        let (ok, message) = auth(&mut anon, &event).await;
        assert!(
            !ok && message.starts_with("invalid: ") && message.contains(word),
            "{message}"
        );
    }
    closed(&mut anon, "dm", "REQ", json!({"kinds": [4]})).await;
    // An AUTH whose event does not parse is answered OK false, naming it.
    let bad_id = "ab".repeat(32);
    anon.send(&json!(["AUTH", {"id": bad_id, "kind": 22242}]).to_string())
        .await;
    let ok = anon.recv().await;
    assert_eq!(
        (ok[0].as_str(), ok[1].as_str(), ok[2].as_bool()),
        (Some("OK"), Some(bad_id.as_str()), Some(false)),
        "{ok}"
    );
    assert!(ok[3].as_str().unwrap().starts_with("invalid: "), "{ok}");
    // The host compares leniently: scheme, case, port and path aside.
    let lenient = format!("WSS://{}:443/some/path", relay.addr.ip());
    assert_eq!(
        auth(&mut anon, &auth_event(bob, &challenge, &lenient, now)).await,
        (true, String::new())
    );
    let mut bob_c = anon;
    let mut both = [id(&wrap), id(&dm)];
    assert_eq!(bob_c.req("dm", &[json!({"kinds": [4, 1059]})]).await, both);
    assert_eq!(count(&mut bob_c, "c", json!({})).await, 3);

    // Carol authenticates too: she wrote the gift wrap, but the DM is
    // neither hers nor to her, and `limit` counts what she may see.
    let (mut carol_c, challenge) = connect(relay.addr).await;
    assert!(
        auth(&mut carol_c, &auth_event(carol, &challenge, &url, now))
            .await
            .0
    );
    assert_eq!(
        carol_c.req("dm", &[json!({"kinds": [4]})]).await,
        Vec::<String>::new()
    );
    assert_eq!(
        carol_c.req("all", &[json!({"limit": 2})]).await,
        [id(&wrap), id(&note)]
    );
    assert_eq!(count(&mut carol_c, "c", json!({})).await, 2);

    // Live: a new DM to bob reaches bob's subscription and its author's,
    // not carol's (pending or live alike).
    let (mut alice_c, challenge) = connect(relay.addr).await;
    assert!(
        auth(&mut alice_c, &auth_event(alice, &challenge, &url, now))
            .await
            .0
    );
    assert_eq!(
        alice_c.req("mine", &[json!({"kinds": [4]})]).await,
        [id(&dm)]
    );
    carol_c.send(r#"["CLOSE","dm"]"#).await;
    carol_c.send(r#"["CLOSE","all"]"#).await;
    carol_c
        .req("live", &[json!({"kinds": [4]}), json!({"kinds": [1]})])
        .await;
    let dm2 = sign(alice, now, 4, &[tag("p", &bob.public_key_hex())], "again");
    let (mut sender, _) = connect(relay.addr).await;
    assert!(sender.publish(&dm2).await.0);
    assert_eq!(bob_c.live("dm").await, id(&dm2));
    assert_eq!(alice_c.live("mine").await, id(&dm2));
    carol_c.silent().await;
    // ... while a public note still reaches carol.
    let note2 = sign(alice, now, 1, &[], "public again");
    assert!(sender.publish(&note2).await.0);
    assert_eq!(carol_c.live("live").await, id(&note2));
    both = [id(&dm2), id(&wrap)];
    assert_eq!(
        bob_c
            .req("dm2", &[json!({"kinds": [4, 1059], "limit": 2})])
            .await,
        both
    );
}

struct NotCarol([u8; 32]);

impl Policy for NotCarol {
    fn on_auth(&self, pubkey: &[u8; 32]) -> Option<String> {
        (*pubkey == self.0).then(|| "restricted: not you".to_owned())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_on_auth_hook_can_refuse_and_auth_is_off_by_default() {
    let k = keys(3);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    // relay_url, when set, is what the relay tag must name.
    let config = Config {
        relay_url: Some("wss://relay.example.com".to_owned()),
        ..auth_config()
    };
    let relay = Relay::with_policy(
        Arc::new(MemoryStore::new()),
        config,
        Arc::new(NotCarol(k[2].public_key())),
    );
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(relay.serve(listener, async {
        stopped.await.ok();
    }));
    let (mut c, challenge) = connect(addr).await;
    let (ok, message) = auth(
        &mut c,
        &auth_event(&k[2], &challenge, "wss://relay.example.com", now()),
    )
    .await;
    assert!(!ok && message == "restricted: not you", "{message}");
    closed(&mut c, "x", "REQ", json!({"kinds": [4]})).await;
    let (ok, message) = auth(
        &mut c,
        &auth_event(&k[1], &challenge, &format!("ws://{addr}"), now()),
    )
    .await;
    assert!(!ok && message.contains("relay"), "{message}");
    assert!(
        auth(
            &mut c,
            &auth_event(&k[1], &challenge, "wss://relay.example.com/", now())
        )
        .await
        .0
    );
    assert_eq!(
        c.req("x", &[json!({"kinds": [4]})]).await,
        Vec::<String>::new()
    );
    stop.send(()).unwrap();
    task.await.unwrap().unwrap();

    // Off: no challenge, AUTH refused, direct messages served as any event.
    let relay = start(Config::default()).await;
    let mut c = Client::connect(relay.addr).await;
    let dm = sign(&k[0], now(), 4, &[tag("p", &k[1].public_key_hex())], "x");
    assert!(c.publish(&dm).await.0);
    let (ok, message) = auth(&mut c, &auth_event(&k[0], "x", "ws://127.0.0.1", now())).await;
    assert!(!ok && message.starts_with("restricted: "), "{message}");
    assert_eq!(c.req("dm", &[json!({"kinds": [4]})]).await, [id(&dm)]);
}
