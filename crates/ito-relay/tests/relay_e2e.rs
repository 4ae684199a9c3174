//! The real relay on a loopback port, an LMDB store in a temporary
//! directory, driven by a websocket client: NIP-01 messages and prefixes,
//! stored then live delivery, subscription replacement, CLOSED, COUNT,
//! NOTICE, the NIP rules through the socket, NIP-11, and shutdown with
//! 1001.

mod common;

use common::{id, keys, now, sign, start, tag, Client, WAIT};
use futures_util::StreamExt;
use ito_relay::Config;
use serde_json::json;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn relay_speaks_nip01_and_the_nip_rules() {
    let mut relay = start(Config::default()).await;
    let k = keys(2);
    let (a, b) = (&k[0], &k[1]);
    let t = now() - 1000;
    let mut alice = Client::connect(relay.addr).await;
    let mut bob = Client::connect(relay.addr).await;

    // EVENT -> OK, duplicates, invalid events.
    let n1 = sign(a, t, 1, &[tag("t", "x")], "one");
    assert_eq!(alice.publish(&n1).await, (true, String::new()));
    let (ok, msg) = alice.publish(&n1).await;
    assert!(ok && msg.starts_with("duplicate:"), "{msg}");
    let mut forged = String::from_utf8(sign(a, t, 1, &[], "forged")).unwrap();
    forged = forged.replace("\"content\":\"forged\"", "\"content\":\"changed\"");
    let (ok, msg) = alice.publish(forged.as_bytes()).await;
    assert!(!ok && msg.starts_with("invalid:"), "{msg}");
    // Upper-case hex in the id is invalid (the OK names the id as sent).
    let upper = String::from_utf8(sign(a, t, 1, &[], "upper")).unwrap();
    let lower_id = id(upper.as_bytes());
    let upper = upper.replace(&lower_id, &lower_id.to_uppercase());
    alice.send(&format!("[\"EVENT\",{upper}]")).await;
    let ok = alice.recv().await;
    assert_eq!(
        (ok[0].as_str(), ok[2].as_bool()),
        (Some("OK"), Some(false)),
        "{ok}"
    );
    assert!(ok[3].as_str().unwrap().starts_with("invalid:"), "{ok}");

    // REQ: stored events newest first, ties by lowest id, limit, EOSE.
    let n2 = sign(a, t + 10, 1, &[], "two");
    let n3 = sign(b, t + 10, 1, &[], "three");
    let n4 = sign(b, t + 5, 7, &[tag("e", &id(&n1))], "+");
    for e in [&n2, &n3, &n4] {
        assert!(alice.publish(e).await.0);
    }
    let (first, second) = if id(&n2) < id(&n3) {
        (id(&n2), id(&n3))
    } else {
        (id(&n3), id(&n2))
    };
    assert_eq!(
        bob.req("all", &[json!({"kinds": [1]})]).await,
        [first.clone(), second.clone(), id(&n1)]
    );
    assert_eq!(
        bob.req("lim", &[json!({"kinds": [1], "limit": 2})]).await,
        [first.clone(), second.clone()]
    );
    assert_eq!(
        bob.req("lim0", &[json!({"limit": 0})]).await,
        Vec::<String>::new()
    );
    // Two filters: no event twice.
    assert_eq!(
        bob.req(
            "two",
            &[
                json!({"#e": [id(&n1)]}),
                json!({"authors": [b.public_key_hex()]})
            ]
        )
        .await,
        [id(&n3), id(&n4)]
    );

    // Live: after EOSE, new matching events arrive with the sub id.
    assert!(bob.req("feed", &[json!({"kinds": [1]})]).await.len() == 3);
    let n5 = sign(a, t + 20, 1, &[], "live");
    assert!(alice.publish(&n5).await.0);
    // "all", "lim", "lim0"? lim0 and others are still open: the first
    // match in open-order comes for each matching subscription.
    let mut got = Vec::new();
    for _ in 0..4 {
        let m = bob.recv().await;
        assert_eq!(m[0], "EVENT");
        assert_eq!(m[2]["id"], id(&n5).as_str());
        got.push(m[1].as_str().unwrap().to_owned());
    }
    got.sort();
    // `limit` applies to the stored part only: "lim" and "lim0" get it too.
    assert_eq!(got, ["all", "feed", "lim", "lim0"]);
    for sub in ["all", "lim", "lim0", "two"] {
        bob.send(&json!(["CLOSE", sub]).to_string()).await;
    }

    // A REQ with an open id replaces it.
    assert_eq!(bob.req("feed", &[json!({"kinds": [7]})]).await, [id(&n4)]);
    let n6 = sign(a, t + 30, 1, &[], "not for feed");
    let r7 = sign(a, t + 31, 7, &[], "for feed");
    assert!(alice.publish(&n6).await.0);
    assert!(alice.publish(&r7).await.0);
    assert_eq!(bob.live("feed").await, id(&r7));
    // CLOSE ends it.
    bob.send(r#"["CLOSE","feed"]"#).await;
    let r8 = sign(a, t + 32, 7, &[], "after close");
    assert!(alice.publish(&r8).await.0);
    bob.silent().await;

    // CLOSED for refused REQs; NOTICE for what fits nothing else.
    bob.send(r#"["REQ","",{}]"#).await;
    let m = bob.recv().await;
    assert_eq!(
        (m[0].as_str(), m[1].as_str()),
        (Some("CLOSED"), Some("")),
        "{m}"
    );
    let long = "x".repeat(65);
    bob.send(&format!("[\"REQ\",\"{long}\",{{}}]")).await;
    let m = bob.recv().await;
    assert_eq!(
        (m[0].as_str(), m[1].as_str()),
        (Some("CLOSED"), Some(long.as_str())),
        "{m}"
    );
    assert!(m[2].as_str().unwrap().starts_with("invalid:"));
    bob.send("hello").await;
    assert_eq!(bob.recv().await[0], "NOTICE");
    bob.send(r#"["PING"]"#).await;
    assert_eq!(bob.recv().await[0], "NOTICE");

    // COUNT.
    bob.send(&json!(["COUNT", "c", {"kinds": [1]}, {"kinds": [7]}]).to_string())
        .await;
    let m = bob.recv().await;
    // kind 1: n1, n2, n3, n5, n6; kind 7: n4, r7, r8.
    assert_eq!(m, json!(["COUNT", "c", {"count": 8}]));

    // Replaceable: newest kept; an older one is refused.
    let p_new = sign(a, t + 100, 0, &[], "{\"name\":\"new\"}");
    let p_old = sign(a, t + 50, 0, &[], "{\"name\":\"old\"}");
    assert!(alice.publish(&p_new).await.0);
    let (ok, msg) = alice.publish(&p_old).await;
    assert!(!ok && msg.starts_with("duplicate:"), "{msg}");
    assert_eq!(
        bob.req("meta", &[json!({"kinds": [0]})]).await,
        [id(&p_new)]
    );

    // Deletion by e: gone, and refused when sent again.
    let del = sign(a, t + 200, 5, &[tag("e", &id(&n1))], "");
    assert!(alice.publish(&del).await.0);
    assert!(!bob
        .req("q1", &[json!({"ids": [id(&n1)]})])
        .await
        .contains(&id(&n1)));
    let (ok, msg) = alice.publish(&n1).await;
    assert!(!ok && msg.starts_with("blocked:"), "{msg}");
    // Deletion by a.
    let art = sign(a, t + 300, 30_023, &[tag("d", "post")], "v1");
    assert!(alice.publish(&art).await.0);
    let del_a = sign(
        a,
        t + 301,
        5,
        &[tag("a", &format!("30023:{}:post", a.public_key_hex()))],
        "",
    );
    assert!(alice.publish(&del_a).await.0);
    assert_eq!(
        bob.req("q2", &[json!({"kinds": [30023]})]).await,
        Vec::<String>::new()
    );

    // Expiration: refused when expired, served until then.
    let gone = sign(
        a,
        t,
        1,
        &[tag("expiration", &(now() - 1).to_string())],
        "gone",
    );
    let (ok, msg) = alice.publish(&gone).await;
    assert!(!ok && msg.starts_with("invalid:"), "{msg}");

    // Ephemeral: delivered live, never stored.
    assert_eq!(
        bob.req("eph", &[json!({"kinds": [20001]})]).await,
        Vec::<String>::new()
    );
    let e1 = sign(a, t, 20_001, &[], "now only");
    assert_eq!(alice.publish(&e1).await, (true, String::new()));
    assert_eq!(bob.live("eph").await, id(&e1));
    assert_eq!(
        alice.req("eph2", &[json!({"kinds": [20001]})]).await,
        Vec::<String>::new()
    );

    // NIP-11 on the same port.
    let mut tcp = TcpStream::connect(relay.addr).await.unwrap();
    tcp.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nAccept: application/nostr+json\r\n\r\n")
        .await
        .unwrap();
    let mut body = String::new();
    tcp.read_to_string(&mut body).await.unwrap();
    assert!(body.starts_with("HTTP/1.1 200"), "{body}");
    assert!(
        body.contains("application/nostr+json") && body.contains("\"max_limit\":500"),
        "{body}"
    );

    // Shutdown: every socket is closed with 1001.
    relay.stop.take().unwrap().send(()).unwrap();
    let close = tokio::time::timeout(WAIT, async {
        loop {
            match bob.ws.next().await {
                Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
                Some(Ok(_)) => continue,
                _ => return None,
            }
        }
    })
    .await
    .unwrap();
    assert_eq!(close, Some(1001));
    tokio::time::timeout(WAIT, relay.task)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_are_enforced() {
    let mut config = Config::default();
    config.limits.max_subscriptions = 2;
    config.limits.max_filters = 2;
    config.limits.events_per_second = 3;
    config.limits.max_message_length = 2000;
    let relay = start(config).await;
    let k = keys(1);
    let mut c = Client::connect(relay.addr).await;
    c.req("s1", &[json!({})]).await;
    c.req("s2", &[json!({})]).await;
    c.send(r#"["REQ","s3",{}]"#).await;
    let m = c.recv().await;
    assert_eq!((m[0].as_str(), m[1].as_str()), (Some("CLOSED"), Some("s3")));
    // Replacing an open one is fine.
    c.req("s2", &[json!({"kinds": [1]})]).await;
    c.send(r#"["CLOSE","s1"]"#).await;
    c.send(r#"["REQ","s4",{},{},{}]"#).await;
    let m = c.recv().await;
    assert_eq!((m[0].as_str(), m[1].as_str()), (Some("CLOSED"), Some("s4")));
    c.send(r#"["CLOSE","s2"]"#).await;
    // A refused REQ that names an open subscription closes it: the events
    // published below would otherwise arrive on "s5" before their OKs.
    c.req("s5", &[json!({})]).await;
    c.send(r#"["REQ","s5",{},{},{}]"#).await;
    let m = c.recv().await;
    assert_eq!((m[0].as_str(), m[1].as_str()), (Some("CLOSED"), Some("s5")));

    // Too large: refused, and the connection still works.
    let big = sign(&k[0], now(), 1, &[], &"x".repeat(3000));
    let (ok, msg) = c.publish(&big).await;
    assert!(!ok && msg.starts_with("invalid:"), "{msg}");

    // Rate: a bucket of 3 per second.
    let mut refused = 0;
    for i in 0..6 {
        let e = sign(&k[0], now(), 1, &[], &format!("r{i}"));
        let (ok, msg) = c.publish(&e).await;
        if !ok {
            assert!(msg.starts_with("rate-limited:"), "{msg}");
            refused += 1;
        }
    }
    assert!(refused >= 2, "{refused}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_reader_is_disconnected_and_others_are_served() {
    let mut config = Config::default();
    config.limits.max_outbound_bytes = 256 * 1024;
    config.limits.events_per_second = 100_000;
    let relay = start(config).await;
    let k = keys(1);
    let mut reader = Client::connect(relay.addr).await;
    reader.req("all", &[json!({"kinds": [1]})]).await;
    // The reader stops reading; a writer publishes more than the kernel's
    // socket buffers and the relay's bound hold together.
    let mut writer = Client::connect(relay.addr).await;
    let content = "x".repeat(60_000);
    let started = std::time::Instant::now();
    for i in 0..400 {
        let e = sign(&k[0], now(), 1, &[], &format!("{i}{content}"));
        assert!(
            writer.publish(&e).await.0,
            "the writer is served throughout"
        );
        if i % 50 == 49 && started.elapsed() > Duration::from_secs(20) {
            break;
        }
    }
    // Draining what the kernel holds, the reader then meets the end.
    let ended = tokio::time::timeout(Duration::from_secs(10), async {
        let mut frames = 0;
        loop {
            match reader.ws.next().await {
                Some(Ok(Message::Text(_))) => frames += 1,
                Some(Ok(_)) => {}
                _ => return frames,
            }
        }
    })
    .await
    .expect("the slow reader is disconnected");
    assert!(ended < 400, "{ended} frames: the reader was never cut off");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_answers_what_is_in_flight_and_every_ok_is_durable() {
    use ito_relay::EventStore;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_owned();
    let store =
        std::sync::Arc::new(ito_relay::LmdbStore::open_with_map_size(&path, 1 << 28).unwrap());
    let mut config = Config::default();
    config.limits.events_per_second = 100_000;
    let mut relay = common::start_on(store, config, dir).await;
    let k = keys(4);
    let events: Vec<Vec<u8>> = (0..300)
        .map(|i| sign(&k[i % 4], now(), 1, &[], &format!("in flight {i}")))
        .collect();
    let mut c = Client::connect(relay.addr).await;
    use futures_util::SinkExt;
    for e in &events {
        let text = format!("[\"EVENT\",{}]", std::str::from_utf8(e).unwrap());
        c.ws.feed(Message::text(text)).await.unwrap();
    }
    c.ws.flush().await.unwrap();
    // Stop once the relay is busy with them.
    let first = c.recv().await;
    assert_eq!(
        (first[0].as_str(), first[2].as_bool()),
        (Some("OK"), Some(true))
    );
    relay.stop.take().unwrap().send(()).unwrap();
    // Read every answer up to the close frame.
    let mut accepted = vec![first[1].as_str().unwrap().to_owned()];
    let code = tokio::time::timeout(WAIT, async {
        loop {
            match c.ws.next().await {
                Some(Ok(Message::Text(t))) => {
                    let m: serde_json::Value = serde_json::from_str(t.as_str()).unwrap();
                    assert_eq!(m[0], "OK");
                    if m[2] == true {
                        accepted.push(m[1].as_str().unwrap().to_owned());
                    }
                }
                Some(Ok(Message::Close(f))) => return f.map(|f| u16::from(f.code)),
                Some(Ok(_)) => {}
                _ => return None,
            }
        }
    })
    .await
    .unwrap();
    assert_eq!(code, Some(1001));
    tokio::time::timeout(WAIT, relay.task)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    // Every OK true is in the database after reopening it.
    let store = (0..100)
        .find_map(|_| {
            ito_relay::LmdbStore::open_with_map_size(&path, 1 << 28)
                .ok()
                .or_else(|| {
                    std::thread::sleep(Duration::from_millis(20));
                    None
                })
        })
        .expect("the database reopens");
    let filter = ito::nostr::Filter::default();
    let mut stored = std::collections::HashSet::new();
    store
        .query(
            std::slice::from_ref(&filter),
            u64::MAX,
            now(),
            &mut |json| {
                stored.insert(common::hex(&common::id_of(json)));
                true
            },
        )
        .unwrap();
    assert!(!accepted.is_empty());
    for id in &accepted {
        assert!(
            stored.contains(id),
            "OK true for {id}, but it is not stored"
        );
    }
    drop(relay._dir);
}

struct NoDms;

impl ito_relay::Policy for NoDms {
    fn reject_event(&self, event: &ito::nostr::Event<'_>) -> Option<String> {
        (event.kind == 4).then(|| "blocked: no direct messages here".to_owned())
    }
    fn reject_filters(&self, filters: &[ito::nostr::Filter<'_>]) -> Option<String> {
        filters
            .iter()
            .any(|f| f.kinds.as_ref().is_some_and(|k| k.contains(&4)))
            .then(|| "restricted: no direct messages here".to_owned())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn policy_hooks_refuse_events_and_filters() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let relay = ito_relay::Relay::with_policy(
        std::sync::Arc::new(ito_relay::MemoryStore::new()),
        Config::default(),
        std::sync::Arc::new(NoDms),
    );
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(relay.serve(listener, async {
        stopped.await.ok();
    }));
    let k = keys(1);
    let mut c = Client::connect(addr).await;
    let dm = sign(&k[0], now(), 4, &[], "secret");
    assert_eq!(
        c.publish(&dm).await,
        (false, "blocked: no direct messages here".to_owned())
    );
    assert!(c.publish(&sign(&k[0], now(), 1, &[], "public")).await.0);
    c.send(r#"["REQ","dms",{"kinds":[1]},{"kinds":[4]}]"#).await;
    assert_eq!(
        c.recv().await,
        json!(["CLOSED", "dms", "restricted: no direct messages here"])
    );
    assert_eq!(c.req("notes", &[json!({"kinds": [1]})]).await.len(), 1);
    stop.send(()).unwrap();
    task.await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_event_matching_several_filters_of_one_subscription_arrives_once() {
    let relay = start(Config::default()).await;
    let k = keys(1);
    let mut c = Client::connect(relay.addr).await;
    let filters = [
        json!({"kinds": [1]}),
        json!({"authors": [k[0].public_key_hex()]}),
        json!({"#t": ["x"]}),
        json!({}),
    ];
    c.req("many", &filters).await;
    c.req("other", &[json!({"kinds": [1]})]).await;
    let e = sign(&k[0], now(), 1, &[tag("t", "x")], "once");
    c.send(&format!("[\"EVENT\",{}]", std::str::from_utf8(&e).unwrap()))
        .await;
    let mut got = Vec::new();
    for _ in 0..3 {
        let m = c.recv().await;
        got.push(m[0].as_str().unwrap().to_owned() + ":" + m[1].as_str().unwrap());
    }
    got.sort();
    assert_eq!(
        got,
        [
            "EVENT:many",
            "EVENT:other",
            format!("OK:{}", id(&e)).as_str()
        ]
    );
    c.silent().await;
}
