//! Hostile input: every prefix of every message type gets exactly one
//! answer (`NOTICE`, `OK` or `CLOSED`) and the connection stays usable;
//! binary, oversized, non-UTF-8 and fragmented frames and ping floods
//! neither panic the relay nor disturb another connection.

mod common;

use common::{keys, now, sign, start, Client};
use futures_util::{SinkExt, StreamExt};
use ito_relay::Config;
use serde_json::json;
use std::time::Duration;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_prefix_of_every_message_is_answered() {
    let relay = start(Config::default()).await;
    let k = keys(1);
    let event = String::from_utf8(sign(
        &k[0],
        now(),
        1,
        &[common::tag("t", "x")],
        "a \"quoted\" note",
    ))
    .unwrap();
    let messages = [
        format!("[\"EVENT\",{event}]"),
        r##"["REQ","sub",{"kinds":[1],"#t":["x"],"since":1,"limit":5},{"authors":["0000000000000000000000000000000000000000000000000000000000000000"]}]"##.to_owned(),
        r#"["COUNT","c",{"kinds":[1]}]"#.to_owned(),
        r#"["CLOSE","sub"]"#.to_owned(),
        format!("[\"AUTH\",{event}]"),
    ];
    let mut c = Client::connect(relay.addr).await;
    let mut answered = 0;
    for m in &messages {
        // Prefixes end on a char boundary (a text frame is UTF-8).
        for end in (0..m.len()).filter(|&i| m.is_char_boundary(i)) {
            c.send(&m[..end]).await;
            let a = c.recv().await;
            let kind = a[0].as_str().unwrap().to_owned();
            assert!(
                ["NOTICE", "OK", "CLOSED"].contains(&kind.as_str()),
                "prefix {:?}: {a}",
                &m[..end]
            );
            if kind == "OK" {
                assert_eq!(a[2], false);
                assert!(a[3].as_str().unwrap().starts_with("invalid:"), "{a}");
            }
            answered += 1;
        }
    }
    assert!(answered > 500);
    // Still usable.
    assert!(c.publish(event.as_bytes()).await.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_frames_do_not_disturb_other_connections() {
    let mut config = Config::default();
    config.limits.max_message_length = 4096;
    let relay = start(config).await;
    let k = keys(1);
    let mut good = Client::connect(relay.addr).await;
    let check_good = |n: usize| sign(&k[0], now(), 1, &[], &format!("still served {n}"));

    // Binary: a NOTICE, and the connection goes on.
    let mut c = Client::connect(relay.addr).await;
    c.ws.send(Message::binary(vec![1u8, 2, 3])).await.unwrap();
    assert_eq!(c.recv().await[0], "NOTICE");
    // Fragmented text: reassembled and understood.
    let msg = r#"["COUNT","frag",{"kinds":[1]}]"#.as_bytes();
    c.ws.send(Message::Frame(Frame::message(
        msg[..10].to_vec(),
        OpCode::Data(Data::Text),
        false,
    )))
    .await
    .unwrap();
    c.ws.send(Message::Frame(Frame::message(
        msg[10..].to_vec(),
        OpCode::Data(Data::Continue),
        true,
    )))
    .await
    .unwrap();
    assert_eq!(c.recv().await, json!(["COUNT", "frag", {"count": 0}]));
    // Between the limit and twice it: refused by name, still connected.
    c.send(&format!(
        r#"["REQ","big",{{"search":"{}"}}]"#,
        "x".repeat(5000)
    ))
    .await;
    let m = c.recv().await;
    assert_eq!(
        (m[0].as_str(), m[1].as_str()),
        (Some("CLOSED"), Some("big")),
        "{m}"
    );
    // A ping flood is answered with pongs.
    for _ in 0..2000 {
        c.ws.feed(Message::Ping(b"p".to_vec().into()))
            .await
            .unwrap();
    }
    c.ws.flush().await.unwrap();
    assert!(good.publish(&check_good(1)).await.0);
    let mut pongs = 0;
    while pongs < 2000 {
        match tokio::time::timeout(Duration::from_secs(5), c.ws.next())
            .await
            .unwrap()
        {
            Some(Ok(Message::Pong(_))) => pongs += 1,
            Some(Ok(_)) => {}
            other => panic!("{other:?}"),
        }
    }

    // Not UTF-8 in a text frame: the connection is closed, nothing else.
    let mut bad = Client::connect(relay.addr).await;
    bad.ws
        .send(Message::Frame(Frame::message(
            vec![b'[', 0xff, 0xfe, b']'],
            OpCode::Data(Data::Text),
            true,
        )))
        .await
        .unwrap();
    let end = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match bad.ws.next().await {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(end.is_ok(), "the connection ends");
    // Over twice the limit: the connection is closed.
    let mut huge = Client::connect(relay.addr).await;
    let _ = huge.ws.send(Message::text("x".repeat(20_000))).await;
    let end = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match huge.ws.next().await {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(end.is_ok(), "the connection ends");
    // A half-open HTTP request that never finishes is harmless too.
    let _idle = tokio::net::TcpStream::connect(relay.addr).await.unwrap();

    assert!(good.publish(&check_good(2)).await.0);
    assert_eq!(good.req("after", &[json!({"kinds": [1]})]).await.len(), 2);
}
