//! `kill -9` during ingest at 20 moments: after each, the database opens
//! without a repair step and holds every event that got `OK true`.
//!
//! The relay runs in a child process (this test binary again, running the
//! ignored `crash_child` test), which is killed with SIGKILL a few
//! milliseconds into a pipelined stream of events.

mod common;

use common::{hex, id_of, keys, now, sign, Rng};
use futures_util::{SinkExt, StreamExt};
use ito::nostr::Filter;
use ito_relay::{Config, EventStore, LmdbStore, Relay};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

const DIR_VAR: &str = "ITO_RELAY_CRASH_DIR";

#[test]
#[ignore = "the child side of crash_loses_no_acknowledged_event"]
fn crash_child() {
    let Ok(dir) = std::env::var(DIR_VAR) else {
        return;
    };
    let dir = Path::new(&dir);
    let store = Arc::new(LmdbStore::open_with_map_size(&dir.join("db"), 1 << 28).unwrap());
    let mut config = Config::default();
    config.limits.events_per_second = 1_000_000;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        std::fs::write(dir.join("port.tmp"), port.to_string()).unwrap();
        std::fs::rename(dir.join("port.tmp"), dir.join("port")).unwrap();
        Relay::new(store, config)
            .serve(listener, std::future::pending())
            .await
            .unwrap();
    });
}

#[test]
fn crash_loses_no_acknowledged_event() {
    let dir = tempfile::tempdir().unwrap();
    let exe = std::env::current_exe().unwrap();
    let k = keys(4);
    let mut rng = Rng(2026);
    let mut acknowledged: Vec<String> = Vec::new();
    for round in 0..20 {
        let _ = std::fs::remove_file(dir.path().join("port"));
        let mut child = std::process::Command::new(&exe)
            .args(["--exact", "crash_child", "--ignored", "--test-threads=1"])
            .env(DIR_VAR, dir.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        let port: u16 = loop {
            if let Ok(text) = std::fs::read_to_string(dir.path().join("port")) {
                break text.trim().parse().unwrap();
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "the child relay did not start"
            );
            std::thread::sleep(Duration::from_millis(5));
        };
        let events: Vec<String> = (0..300)
            .map(|i| {
                String::from_utf8(sign(
                    &k[i % 4],
                    now(),
                    1,
                    &[],
                    &format!("round {round} event {i}"),
                ))
                .unwrap()
            })
            .collect();
        let kill_after = Duration::from_millis(rng.below(40));
        let acked = Arc::new(Mutex::new(Vec::new()));
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let addr = format!("127.0.0.1:{port}");
            let tcp = tokio::net::TcpStream::connect(&addr).await.unwrap();
            let (ws, _) = tokio_tungstenite::client_async(format!("ws://{addr}/"), tcp)
                .await
                .unwrap();
            let (mut tx, mut rx) = ws.split();
            let acked2 = acked.clone();
            let reader = tokio::spawn(async move {
                while let Some(Ok(m)) = rx.next().await {
                    if let Message::Text(t) = m {
                        let v: serde_json::Value = serde_json::from_str(t.as_str()).unwrap();
                        if v[0] == "OK" && v[2] == true {
                            acked2
                                .lock()
                                .unwrap()
                                .push(v[1].as_str().unwrap().to_owned());
                        }
                    }
                }
            });
            let sender = tokio::spawn(async move {
                for e in events {
                    if tx
                        .send(Message::text(format!("[\"EVENT\",{e}]")))
                        .await
                        .is_err()
                    {
                        break;
                    }
                }
            });
            tokio::time::sleep(kill_after).await;
            // SIGKILL: no shutdown path runs.
            child.kill().unwrap();
            let _ = tokio::time::timeout(Duration::from_secs(5), reader).await;
            sender.abort();
        });
        child.wait().unwrap();
        let n = acked.lock().unwrap().len();
        eprintln!("round {round}: killed after {kill_after:?}, {n} of 300 acknowledged");
        acknowledged.extend(acked.lock().unwrap().drain(..));
        // Opens without repair, and holds every acknowledged event.
        let store = LmdbStore::open_with_map_size(&dir.path().join("db"), 1 << 28).unwrap();
        let mut stored = std::collections::HashSet::new();
        store
            .query(&[Filter::default()], u64::MAX, now(), &mut |json| {
                stored.insert(hex(&id_of(json)));
                true
            })
            .unwrap();
        for id in &acknowledged {
            assert!(
                stored.contains(id),
                "round {round}: OK true for {id} but it is gone"
            );
        }
        assert_eq!(store.len().unwrap() as usize, stored.len());
    }
    assert!(!acknowledged.is_empty());
}
