//! Stored queries and idle connections through real sockets, on an
//! in-process relay over an LMDB store in a temporary directory.
//!
//! 1. Imports N pre-signed events (64 authors, kinds 1/7, `#p` tags).
//! 2. C connections each run REQs drawn from authors / kinds+since / `#p`
//!    / ids filters with `limit` 500, one after another, for a few
//!    seconds: queries/s and p50/p99 time to `EOSE`.
//! 3. Opens I idle websocket connections and reports the growth of the
//!    process's resident memory per connection (client side included:
//!    both ends live in this process).
//!
//! `cargo run --release -p ito-relay --example query -- [EVENTS] [CONNECTIONS] [IDLE]`

use futures_util::{SinkExt, StreamExt};
use ito::nostr::{SecretKey, UnsignedEvent};
use ito_relay::{Config, EventStore, Importer, LmdbStore, Relay};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let events: usize = args.next().map_or(Ok(50_000), |a| a.parse())?;
    let conns: usize = args.next().map_or(Ok(16), |a| a.parse())?;
    let idle: usize = args.next().map_or(Ok(2_000), |a| a.parse())?;
    let keys: Vec<SecretKey> = (0..64)
        .map(|_| SecretKey::generate())
        .collect::<Result<_, _>>()?;
    let pubkeys: Vec<String> = keys.iter().map(SecretKey::public_key_hex).collect();
    let dir = std::env::temp_dir().join(format!("ito-relay-query-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Arc::new(LmdbStore::open(&dir)?);
    let started = Instant::now();
    let mut ids = Vec::with_capacity(events);
    {
        let mut importer = Importer::new(&*store);
        for i in 0..events {
            let template = format!(
                r#"{{"created_at":{},"kind":{},"tags":[["p","{}"]],"content":"event {i}"}}"#,
                1_700_000_000 + i as u64,
                if i % 4 == 0 { 7 } else { 1 },
                pubkeys[(i * 7 + 3) % pubkeys.len()]
            );
            let event = UnsignedEvent::parse(template.as_bytes())?.sign(&keys[i % keys.len()]);
            ids.push(ito::hex::encode(&event.id));
            let mut json = Vec::new();
            event.to_json(&mut json);
            importer.add(json)?;
        }
        importer.finish()?;
    }
    eprintln!(
        "signed and imported {events} events in {:.2?}",
        started.elapsed()
    );
    assert_eq!(LmdbStore::len(&store)?, events as u64);

    // The query engine alone, on this thread: the same mix of filters.
    let filter_text = |q: usize| match q % 4 {
        0 => format!(
            r#"{{"authors":["{}"],"limit":500}}"#,
            pubkeys[q % pubkeys.len()]
        ),
        1 => format!(
            r#"{{"kinds":[7],"since":{},"limit":500}}"#,
            1_700_000_000 + (q * 97) % events
        ),
        2 => format!(
            r##"{{"#p":["{}"],"limit":500}}"##,
            pubkeys[q % pubkeys.len()]
        ),
        _ => {
            let list: Vec<String> = (0..20)
                .map(|j| format!("\"{}\"", ids[(q * 31 + j * 1009) % ids.len()]))
                .collect();
            format!(r#"{{"ids":[{}],"limit":500}}"#, list.join(","))
        }
    };
    let (mut queries, mut streamed) = (0u64, 0u64);
    let engine = Instant::now();
    while engine.elapsed() < Duration::from_secs(2) {
        let text = filter_text(queries as usize);
        let filter = ito::nostr::Filter::parse(text.as_bytes())?;
        store.query(
            std::slice::from_ref(&filter),
            500,
            u64::MAX / 2,
            &mut |_| {
                streamed += 1;
                true
            },
        )?;
        queries += 1;
    }
    let secs = engine.elapsed().as_secs_f64();
    println!(
        "query engine alone (one thread): {:.0} queries/s, {:.0} events/s streamed ({:.2} us per event)",
        queries as f64 / secs,
        streamed as f64 / secs,
        secs * 1e6 / streamed as f64
    );

    let mut config = Config::default();
    config.limits.max_connections = idle + conns + 16;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let store_dyn: Arc<dyn EventStore> = store;
    let (qps, p50, p99, per_conn) = rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let serving = tokio::spawn(Relay::new(store_dyn, config).serve(listener, async {
            stopped.await.ok();
        }));
        let (pubkeys, ids) = (Arc::new(pubkeys), Arc::new(ids));
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut tasks = Vec::new();
        for c in 0..conns {
            let (pubkeys, ids) = (pubkeys.clone(), ids.clone());
            tasks.push(tokio::spawn(async move {
                let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
                let (mut ws, _) = tokio_tungstenite::client_async(format!("ws://{addr}/"), tcp)
                    .await
                    .unwrap();
                let mut times = Vec::new();
                let mut q = c;
                while Instant::now() < deadline {
                    q += conns;
                    let filter = match q % 4 {
                        0 => format!(
                            r#"{{"authors":["{}"],"limit":500}}"#,
                            pubkeys[q % pubkeys.len()]
                        ),
                        1 => format!(
                            r#"{{"kinds":[7],"since":{},"limit":500}}"#,
                            1_700_000_000 + (q * 97) % events
                        ),
                        2 => format!(
                            r##"{{"#p":["{}"],"limit":500}}"##,
                            pubkeys[q % pubkeys.len()]
                        ),
                        _ => {
                            let list: Vec<String> = (0..20)
                                .map(|j| format!("\"{}\"", ids[(q * 31 + j * 1009) % ids.len()]))
                                .collect();
                            format!(r#"{{"ids":[{}],"limit":500}}"#, list.join(","))
                        }
                    };
                    let sent = Instant::now();
                    ws.send(Message::text(format!(r#"["REQ","q",{filter}]"#)))
                        .await
                        .unwrap();
                    loop {
                        let Some(Ok(Message::Text(t))) = ws.next().await else {
                            panic!("closed")
                        };
                        if t.as_str().starts_with("[\"EOSE\"") {
                            break;
                        }
                    }
                    times.push(sent.elapsed());
                    ws.send(Message::text(r#"["CLOSE","q"]"#)).await.unwrap();
                }
                times
            }));
        }
        let begun = Instant::now();
        let mut all = Vec::new();
        for t in tasks {
            all.extend(t.await.unwrap());
        }
        let secs = begun.elapsed().as_secs_f64();
        all.sort();
        let pct = |p: f64| all[((all.len() as f64 * p) as usize).min(all.len() - 1)];
        let qps = all.len() as f64 / secs;

        // Idle connections.
        tokio::time::sleep(Duration::from_millis(200)).await;
        let before = rss_kib();
        let mut open = Vec::with_capacity(idle);
        for _ in 0..idle {
            let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
            let (ws, _) = tokio_tungstenite::client_async(format!("ws://{addr}/"), tcp)
                .await
                .unwrap();
            open.push(ws);
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        let per_conn = (rss_kib().saturating_sub(before)) as f64 / idle.max(1) as f64;
        drop(open);
        stop.send(()).ok();
        serving.await.unwrap().unwrap();
        (qps, pct(0.5), pct(0.99), per_conn)
    });
    let _ = std::fs::remove_dir_all(&dir);
    println!("events {events}, query connections {conns}");
    println!("stored queries (limit 500; authors / kinds+since / #p / 20 ids): {qps:.0} queries/s, time to EOSE p50 {p50:.2?}, p99 {p99:.2?}");
    println!("idle connections {idle}: {per_conn:.1} KiB resident per connection (relay and client ends together)");
    Ok(())
}
