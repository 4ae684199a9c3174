//! The tour's relay row: `ito-relay` started in-process on a free loopback
//! port over an LMDB database in a temporary directory, the built-in
//! events published and queried back through a real websocket, and every
//! answer checked against what NIP-01 says it must be.

use crate::io::Failure;
use futures_util::{SinkExt, StreamExt};
use ito::nostr::Event;
use ito_relay::{Config, LmdbStore, Relay};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

/// Runs the round trip; returns the line the tour prints.
pub(crate) fn run(events: &str) -> Result<String, Failure> {
    let fail = |what: String| Failure::msg(format!("tour: relay: {what}"));
    let dir = std::env::temp_dir().join(format!("ito-tour-relay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = LmdbStore::open(&dir).map_err(|e| fail(format!("open {}: {e}", dir.display())))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| fail(format!("runtime: {e}")))?;
    let result = runtime.block_on(round_trip(Arc::new(store), events));
    drop(runtime);
    let _ = std::fs::remove_dir_all(&dir);
    result.map_err(fail)
}

async fn round_trip(store: Arc<LmdbStore>, events: &str) -> Result<String, String> {
    let start = Instant::now();
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let relay = Relay::new(store, Config::default());
    let serving = tokio::spawn(relay.serve(listener, async {
        stopped.await.ok();
    }));

    let url = format!("ws://{addr}/");
    let tcp = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    let (mut ws, _) = tokio_tungstenite::client_async(url.as_str(), tcp)
        .await
        .map_err(|e| format!("connect: {e}"))?;

    // Publish: one OK true per event, each sent after its commit.
    let lines: Vec<&str> = events.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut parsed = Vec::new();
    for line in &lines {
        let event = Event::parse(line.as_bytes()).map_err(|e| format!("sample event: {e}"))?;
        parsed.push((event.created_at, event.id, event.kind, line.to_string()));
        send(&mut ws, format!("[\"EVENT\",{line}]")).await?;
    }
    for _ in &lines {
        let ok = next(&mut ws).await?;
        if ok[0] != "OK" || ok[2] != true {
            return Err(format!("expected OK true, got {ok}"));
        }
    }

    // Every stored event, newest first, ties by lowest id.
    parsed.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let want: Vec<String> = parsed.iter().map(|p| ito::hex::encode(&p.1)).collect();
    let all = query(&mut ws, r#"["REQ","all",{}]"#).await?;
    if all != want {
        return Err(format!("REQ {{}} answered {all:?}, expected {want:?}"));
    }
    // `limit` on a kind filter: the newest three of that kind.
    let kind1: Vec<String> = parsed
        .iter()
        .filter(|p| p.2 == 1)
        .take(3)
        .map(|p| ito::hex::encode(&p.1))
        .collect();
    let limited = query(&mut ws, r#"["REQ","k1",{"kinds":[1],"limit":3}]"#).await?;
    if limited != kind1 {
        return Err(format!(
            "REQ kinds:[1] limit:3 answered {limited:?}, expected {kind1:?}"
        ));
    }
    send(&mut ws, r#"["COUNT","n",{}]"#.to_owned()).await?;
    let count = next(&mut ws).await?;
    if count[0] != "COUNT" || count[2]["count"] != lines.len() {
        return Err(format!("COUNT answered {count}, expected {}", lines.len()));
    }
    ws.close(None).await.ok();
    stop.send(()).ok();
    serving
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())?;
    Ok(format!(
        "relay: ito-relay on {url} (LMDB in a temporary directory): {} events published, each OK true after its commit; \
         REQ {{}} gave all {} newest first, REQ kinds:[1] limit:3 the newest 3, COUNT {}; all checked, {:.0} ms",
        lines.len(),
        all.len(),
        lines.len(),
        start.elapsed().as_secs_f64() * 1e3
    ))
}

type Socket = WebSocketStream<TcpStream>;

async fn send(ws: &mut Socket, text: String) -> Result<(), String> {
    ws.send(Message::text(text))
        .await
        .map_err(|e| e.to_string())
}

/// The next relay message, as JSON (within 10 seconds).
async fn next(ws: &mut Socket) -> Result<serde_json::Value, String> {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .map_err(|_| "no answer within 10 s".to_owned())?
            .ok_or("the relay closed the connection")?
            .map_err(|e| e.to_string())?;
        if let Message::Text(text) = message {
            return serde_json::from_str(text.as_str()).map_err(|e| e.to_string());
        }
    }
}

/// The ids a REQ answers before its EOSE, in order; closes it after.
async fn query(ws: &mut Socket, req: &str) -> Result<Vec<String>, String> {
    send(ws, req.to_owned()).await?;
    let mut ids = Vec::new();
    loop {
        let message = next(ws).await?;
        match message[0].as_str() {
            Some("EVENT") => ids.push(message[2]["id"].as_str().unwrap_or_default().to_owned()),
            Some("EOSE") => break,
            _ => return Err(format!("unexpected answer to {req}: {message}")),
        }
    }
    let sub = serde_json::from_str::<serde_json::Value>(req).map_err(|e| e.to_string())?;
    send(ws, format!("[\"CLOSE\",{}]", sub[1])).await?;
    Ok(ids)
}
