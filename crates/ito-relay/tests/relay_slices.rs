//! Time slices, with one query worker so that any hold-up shows: an
//! expensive `REQ` or `COUNT` gives its worker to a cheap query queued
//! behind it (the cheap answer arrives first), and a client that stops
//! reading its large answer does not hold up another connection's query.
//! The assertions are on the order of answers, never on durations.

mod common;

use common::{start_on, Client};
use ito_relay::{Config, EventStore, Limits, MemoryStore};
use serde_json::json;
use std::sync::Arc;

const AUTHOR: &str = "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1";

/// `n` kind-1 events of one author with `content_len` bytes of content,
/// written straight into the store (it keeps what it is given: the relay
/// verifies before the store, so these need no signatures); the newest
/// two have the tag `["t","rare"]`. Returns the oldest one's id.
fn fill(store: &MemoryStore, n: usize, content_len: usize) -> String {
    let content = "x".repeat(content_len);
    let sig = "0".repeat(128);
    let mut first = String::new();
    for chunk in (0..n).collect::<Vec<_>>().chunks(10_000) {
        let events: Vec<Vec<u8>> = chunk
            .iter()
            .map(|i| {
                let id = format!("{i:064x}");
                if *i == 0 {
                    first = id.clone();
                }
                let tags = if *i >= n - 2 { r#"[["t","rare"]]"# } else { "[]" };
                format!(
                    r#"{{"id":"{id}","pubkey":"{AUTHOR}","created_at":{},"kind":1,"tags":{tags},"content":"{content}","sig":"{sig}"}}"#,
                    1_600_000_000 + i
                )
                .into_bytes()
            })
            .collect();
        let refs: Vec<&[u8]> = events.iter().map(|e| e.as_slice()).collect();
        store.write_batch(&refs, 1_700_000_000).unwrap();
    }
    first
}

fn one_worker(max_limit: u64, max_outbound_bytes: usize) -> Config {
    Config {
        limits: Limits {
            query_workers: 1,
            max_limit,
            max_outbound_bytes,
            ..Limits::default()
        },
        ..Config::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expensive_query_lets_a_cheap_one_go_first() {
    let store = Arc::new(MemoryStore::new());
    // 400 000 candidates that match nothing: a scan of many slices on
    // any machine (with 40 000, a fast host finished a COUNT within one
    // 10 ms slice, so nothing had to wait for it and the order flipped).
    let first = fill(&store, 400_000, 0);
    let relay = start_on(
        store,
        one_worker(500, 4 << 20),
        tempfile::tempdir().unwrap(),
    )
    .await;
    let mut c = Client::connect(relay.addr).await;
    // The newest two events match, then 400 000 candidates do not. The
    // first is sent when the second is found (the engine reads one ahead),
    // so the client sees it early in the scan.
    let expensive = json!({"authors": [AUTHOR], "#t": ["rare"]});
    let cheap = json!({"ids": [first]});
    let answer =
        |m: serde_json::Value| format!("{}:{}", m[0].as_str().unwrap(), m[1].as_str().unwrap());
    let at = |order: &[String], what: &str| order.iter().position(|a| a == what).unwrap();

    // A REQ: once its first event arrives it holds the only worker; a
    // cheap REQ sent then is answered before it ends.
    c.send(&json!(["REQ", "slow", expensive]).to_string()).await;
    assert_eq!(answer(c.recv().await), "EVENT:slow");
    c.send(&json!(["REQ", "fast", cheap]).to_string()).await;
    let mut order = Vec::new();
    for _ in 0..4 {
        order.push(answer(c.recv().await));
    }
    assert!(
        at(&order, "EOSE:fast") < at(&order, "EOSE:slow"),
        "{order:?}"
    );

    // A COUNT queued behind such a REQ, and a cheap REQ behind the COUNT:
    // queries start in the order they came, and the COUNT gives way too.
    c.send(&json!(["REQ", "gate", expensive]).to_string()).await;
    assert_eq!(answer(c.recv().await), "EVENT:gate");
    c.send(&json!(["COUNT", "count", expensive]).to_string())
        .await;
    c.send(&json!(["REQ", "fast2", cheap]).to_string()).await;
    let mut order = Vec::new();
    for _ in 0..5 {
        order.push(answer(c.recv().await));
    }
    assert!(
        at(&order, "EOSE:fast2") < at(&order, "COUNT:count"),
        "{order:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_holds_up_nobody() {
    let store = Arc::new(MemoryStore::new());
    // 3000 events of 8 KiB: more than the socket buffers and the
    // connection's queue hold, so the stalled query waits for its reader.
    let first = fill(&store, 3000, 8192);
    let relay = start_on(
        store,
        one_worker(5000, 1 << 20),
        tempfile::tempdir().unwrap(),
    )
    .await;
    let mut stalled = Client::connect(relay.addr).await;
    stalled
        .send(&json!(["REQ", "all", {"kinds": [1]}]).to_string())
        .await;
    // Its query is running once its first event arrives; then it stops
    // reading.
    assert_eq!(stalled.recv().await[0], "EVENT");
    // Not an assertion on time: long enough for its query to fill the
    // socket buffers and the queue, and wait for the reader.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let mut c = Client::connect(relay.addr).await;
    // Answered while the stalled reader's query still waits (it would
    // wait 30 s before being dropped; `recv` gives up after 5).
    assert_eq!(c.req("one", &[json!({"ids": [&first]})]).await, [first]);
    drop(stalled);
}
