//! Durable ingest through real sockets: N pre-signed events from C
//! pipelined connections to an in-process relay on an LMDB store in a
//! temporary directory; events/s to `OK true`, p50/p99 time to `OK`, and
//! the bound: `nostr::batch` verification alone on the same events.
//!
//! `cargo run --release -p ito-relay --example ingest -- [EVENTS] [CONNECTIONS]`
//!
//! `... --example ingest -- store FILE.jsonl [EVENTS] [BATCH]`: the writer
//! alone, no sockets and no verification: the first EVENTS events of a
//! file of signed events (one per line) given to `LmdbStore::write_batch`
//! BATCH at a time (default 512, the batch the relay forms under 16
//! connections with 64 events in flight each), as the relay's writer
//! thread does; events/s and microseconds per event of apply, commit and
//! sync, on one thread.

use futures_util::{SinkExt, StreamExt};
use ito::nostr::{batch, SecretKey, UnsignedEvent};
use ito_relay::{Config, EventStore, LmdbStore, Relay};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// The writer alone on the events of `file` (see the module doc).
fn store_only(file: &str, events: usize, batch: usize) -> Result<(), Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(file)?;
    let lines: Vec<&[u8]> = text.lines().take(events).map(str::as_bytes).collect();
    let dir = std::env::temp_dir().join(format!("ito-relay-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = LmdbStore::open(&dir)?;
    let started = Instant::now();
    let mut stored = 0;
    for chunk in lines.chunks(batch) {
        let result = store.write_batch(chunk, 0)?;
        stored += result.outcomes.iter().filter(|o| o.is_live()).count();
    }
    let elapsed = started.elapsed().as_secs_f64();
    drop(store);
    std::fs::remove_dir_all(&dir)?;
    let n = lines.len();
    println!(
        "writer alone: {n} events ({stored} stored) in batches of {batch}: {:.0} events/s, {:.1} us per event",
        n as f64 / elapsed,
        1e6 * elapsed / n as f64
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1).peekable();
    if args.peek().map(String::as_str) == Some("store") {
        args.next();
        let file = args.next().ok_or("store needs a file of signed events")?;
        let events = args.next().map_or(Ok(usize::MAX), |a| a.parse())?;
        let batch = args.next().map_or(Ok(512), |a| a.parse())?;
        return store_only(&file, events, batch);
    }
    let events: usize = args.next().map_or(Ok(20_000), |a| a.parse())?;
    let conns: usize = args.next().map_or(Ok(16), |a| a.parse())?;
    let keys: Vec<SecretKey> = (0..64)
        .map(|_| SecretKey::generate())
        .collect::<Result<_, _>>()?;
    let signing = Instant::now();
    let lines: Vec<String> = (0..events)
        .map(|i| {
            let template = format!(
                r#"{{"created_at":{},"kind":1,"tags":[["t","bench"],["p","{}"]],"content":"event number {i} of the ingest run"}}"#,
                1_700_000_000 + i as u64,
                keys[(i + 1) % keys.len()].public_key_hex()
            );
            let mut json = Vec::new();
            UnsignedEvent::parse(template.as_bytes()).unwrap().sign(&keys[i % keys.len()]).to_json(&mut json);
            String::from_utf8(json).unwrap()
        })
        .collect();
    eprintln!("signed {events} events in {:.2?}", signing.elapsed());

    let verifying = Instant::now();
    let verdicts = batch::verify_all(&lines, batch::Check::Signature);
    let bound = events as f64 / verifying.elapsed().as_secs_f64();
    assert!(verdicts.iter().all(|v| v.is_ok()));

    let dir = std::env::temp_dir().join(format!("ito-relay-ingest-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Arc::new(LmdbStore::open(&dir)?);
    let mut config = Config::default();
    config.limits.events_per_second = 1_000_000;
    config.limits.max_outbound_bytes = 64 << 20;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let (rate, p50, p99) = rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let serving = tokio::spawn(Relay::new(store, config).serve(listener, async {
            stopped.await.ok();
        }));
        let lines = Arc::new(lines);
        let started = Instant::now();
        let mut tasks = Vec::new();
        for c in 0..conns {
            let lines = lines.clone();
            tasks.push(tokio::spawn(async move {
                let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
                let (ws, _) = tokio_tungstenite::client_async(format!("ws://{addr}/"), tcp)
                    .await
                    .unwrap();
                let (mut tx, mut rx) = ws.split();
                let mine: Vec<usize> = (c..lines.len()).step_by(conns).collect();
                let n = mine.len();
                let sent_at = Arc::new(std::sync::Mutex::new(Vec::with_capacity(n)));
                let sent = sent_at.clone();
                let sender = tokio::spawn(async move {
                    for i in mine {
                        sent.lock().unwrap().push(Instant::now());
                        tx.feed(Message::text(format!("[\"EVENT\",{}]", lines[i])))
                            .await
                            .unwrap();
                    }
                    tx.flush().await.unwrap();
                    tx
                });
                let mut latencies = Vec::with_capacity(n);
                let mut k = 0;
                while k < n {
                    let Some(Ok(Message::Text(t))) = rx.next().await else {
                        panic!("closed")
                    };
                    assert!(t.as_str().contains(",true,"), "{}", t.as_str());
                    // OKs come back in order per connection.
                    let at = sent_at.lock().unwrap()[k];
                    latencies.push(at.elapsed());
                    k += 1;
                }
                drop(sender.await);
                latencies
            }));
        }
        let mut all: Vec<Duration> = Vec::new();
        for t in tasks {
            all.extend(t.await.unwrap());
        }
        let elapsed = started.elapsed();
        stop.send(()).ok();
        serving.await.unwrap().unwrap();
        all.sort();
        let pct = |p: f64| all[((all.len() as f64 * p) as usize).min(all.len() - 1)];
        (events as f64 / elapsed.as_secs_f64(), pct(0.50), pct(0.99))
    });
    // Blocks in use, not the sparse file length.
    #[cfg(unix)]
    let size: u64 = {
        use std::os::unix::fs::MetadataExt;
        std::fs::read_dir(&dir)?
            .filter_map(|e| e.ok()?.metadata().ok())
            .map(|m| m.blocks() * 512)
            .sum()
    };
    #[cfg(not(unix))]
    let size: u64 = 0;
    std::fs::remove_dir_all(&dir)?;
    println!("events {events}, connections {conns}");
    println!("verification bound (nostr::batch, every core): {bound:.0} events/s");
    println!(
        "relay ingest to OK true:                       {rate:.0} events/s ({:.2}x the bound)",
        rate / bound
    );
    println!("time to OK: p50 {p50:.2?}, p99 {p99:.2?}");
    println!(
        "database files: {size} bytes ({:.0} bytes per event)",
        size as f64 / events as f64
    );
    Ok(())
}
