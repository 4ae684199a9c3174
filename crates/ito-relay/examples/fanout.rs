//! Live fan-out through real sockets: S subscriptions (1–3 filters each:
//! authors, kinds, `#p`) over 100 connections, events published at R per
//! second for a few seconds from 4 connections; checks every delivery is
//! made and reports p50/p99 time from publishing to delivery.
//!
//! `cargo run --release -p ito-relay --example fanout -- [SUBSCRIPTIONS] [EVENTS_PER_SECOND] [SECONDS]`

use futures_util::{SinkExt, StreamExt};
use ito::nostr::{Event, Filter, SecretKey, UnsignedEvent};
use ito_relay::{Config, MemoryStore, Relay};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let subs: usize = args.next().map_or(Ok(1_000), |a| a.parse())?;
    let rate: usize = args.next().map_or(Ok(2_000), |a| a.parse())?;
    let seconds: usize = args.next().map_or(Ok(3), |a| a.parse())?;
    let keys: Vec<SecretKey> = (0..200)
        .map(|_| SecretKey::generate())
        .collect::<Result<_, _>>()?;
    let pubkeys: Vec<String> = keys.iter().map(SecretKey::public_key_hex).collect();
    let total = rate * seconds;
    // Events pre-signed; content is filled with the send time later, so
    // sign a template per event and keep the index in the content.
    let events: Vec<String> = (0..total)
        .map(|i| {
            let template = format!(
                r#"{{"created_at":{},"kind":{},"tags":[["p","{}"]],"content":"{i}"}}"#,
                1_700_000_000 + i as u64,
                [1, 7, 6][i % 3],
                pubkeys[(i * 13 + 5) % pubkeys.len()]
            );
            let mut json = Vec::new();
            UnsignedEvent::parse(template.as_bytes())
                .unwrap()
                .sign(&keys[i % keys.len()])
                .to_json(&mut json);
            String::from_utf8(json).unwrap()
        })
        .collect();
    // Subscriptions: 1-3 filters each.
    let filters: Vec<Vec<String>> = (0..subs)
        .map(|s| {
            (0..1 + s % 3)
                .map(|f| match (s + f) % 3 {
                    0 => format!(
                        r#"{{"authors":["{}"]}}"#,
                        pubkeys[(s * 7 + f) % pubkeys.len()]
                    ),
                    1 => format!(r#"{{"kinds":[{}]}}"#, [7, 6][(s + f) % 2]),
                    _ => format!(
                        r##"{{"#p":["{}"]}}"##,
                        pubkeys[(s * 11 + f) % pubkeys.len()]
                    ),
                })
                .collect()
        })
        .collect();
    // Expected deliveries, by brute force.
    let mut expected = 0u64;
    for e in &events {
        let event = Event::parse(e.as_bytes())?;
        for fs in &filters {
            if fs
                .iter()
                .any(|f| Filter::parse(f.as_bytes()).unwrap().matches(&event))
            {
                expected += 1;
            }
        }
    }
    let mut config = Config::default();
    config.limits.events_per_second = 1_000_000;
    config.limits.max_subscriptions = 64;
    config.limits.max_queries_in_flight = 64;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let (delivered, p50, p99) = rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let serving = tokio::spawn(Relay::new(Arc::new(MemoryStore::new()), config).serve(
            listener,
            async {
                stopped.await.ok();
            },
        ));
        let sent_at: Arc<Mutex<Vec<Option<Instant>>>> = Arc::new(Mutex::new(vec![None; total]));
        let latencies = Arc::new(Mutex::new(Vec::new()));
        let mut readers = Vec::new();
        let conns = 100;
        let (ready_tx, mut ready_rx) = tokio::sync::mpsc::channel::<()>(conns);
        for c in 0..conns {
            let mine: Vec<(usize, Vec<String>)> = (c..subs)
                .step_by(conns)
                .map(|s| (s, filters[s].clone()))
                .collect();
            let (sent_at, latencies, ready) =
                (sent_at.clone(), latencies.clone(), ready_tx.clone());
            readers.push(tokio::spawn(async move {
                let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
                let (mut ws, _) = tokio_tungstenite::client_async(format!("ws://{addr}/"), tcp)
                    .await
                    .unwrap();
                for (s, fs) in &mine {
                    ws.send(Message::text(format!(r#"["REQ","s{s}",{}]"#, fs.join(","))))
                        .await
                        .unwrap();
                }
                let mut eose = 0;
                while eose < mine.len() {
                    if let Some(Ok(Message::Text(t))) = ws.next().await {
                        if t.as_str().starts_with("[\"EOSE\"") {
                            eose += 1;
                        }
                        assert!(!t.as_str().starts_with("[\"CLOSED\""), "{}", t.as_str());
                    }
                }
                ready.send(()).await.unwrap();
                let mut got = 0u64;
                while let Some(Ok(m)) = ws.next().await {
                    let Message::Text(t) = m else { continue };
                    let t = t.as_str();
                    let Some(at) = t.find("\"content\":\"") else {
                        continue;
                    };
                    let rest = &t[at + 11..];
                    let i: usize = rest[..rest.find('"').unwrap()].parse().unwrap();
                    if let Some(sent) = sent_at.lock().unwrap()[i] {
                        latencies.lock().unwrap().push(sent.elapsed());
                    }
                    got += 1;
                }
                got
            }));
        }
        for _ in 0..conns {
            ready_rx.recv().await.unwrap();
        }
        // Publish at the rate from 4 connections, in 10 ms ticks.
        let events = Arc::new(events);
        let mut publishers = Vec::new();
        let per_tick = (rate / 100).max(1);
        for p in 0..4 {
            let (events, sent_at) = (events.clone(), sent_at.clone());
            publishers.push(tokio::spawn(async move {
                let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
                let (ws, _) = tokio_tungstenite::client_async(format!("ws://{addr}/"), tcp)
                    .await
                    .unwrap();
                let (mut tx, mut rx) = ws.split();
                let mine: Vec<usize> = (p..events.len()).step_by(4).collect();
                let n = mine.len();
                let acks = tokio::spawn(async move {
                    let mut oks = 0;
                    while oks < n {
                        if let Some(Ok(Message::Text(t))) = rx.next().await {
                            assert!(t.as_str().contains(",true,"), "{}", t.as_str());
                            oks += 1;
                        }
                    }
                });
                let mut tick = tokio::time::interval(Duration::from_millis(10));
                for chunk in mine.chunks((per_tick / 4).max(1)) {
                    tick.tick().await;
                    for &i in chunk {
                        sent_at.lock().unwrap()[i] = Some(Instant::now());
                        tx.feed(Message::text(format!("[\"EVENT\",{}]", events[i])))
                            .await
                            .unwrap();
                    }
                    tx.flush().await.unwrap();
                }
                acks.await.unwrap();
                tx
            }));
        }
        let mut keep = Vec::new();
        for p in publishers {
            keep.push(p.await.unwrap());
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        stop.send(()).ok();
        let mut delivered = 0;
        for r in readers {
            delivered += r.await.unwrap();
        }
        serving.await.unwrap().unwrap();
        drop(keep);
        let mut all = latencies.lock().unwrap().clone();
        all.sort();
        let pct = |p: f64| all[((all.len() as f64 * p) as usize).min(all.len().max(1) - 1)];
        (delivered, pct(0.5), pct(0.99))
    });
    println!("subscriptions {subs}, {rate} events/s for {seconds} s");
    println!("deliveries {delivered} of {expected} expected");
    println!("publish to delivery: p50 {p50:.2?}, p99 {p99:.2?}");
    assert_eq!(delivered, expected, "every delivery made");
    Ok(())
}
