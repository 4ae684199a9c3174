//! Shared helpers: signed events, a small deterministic random source.
#![allow(dead_code, unreachable_pub)]

use futures_util::{SinkExt, StreamExt};
use ito::nostr::{Event, SecretKey, Tags, UnsignedEvent};
use ito_relay::{Config, EventStore, LmdbStore, Relay};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

/// xorshift64*: deterministic, no dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// A signed event's canonical JSON.
pub fn sign(
    key: &SecretKey,
    created_at: u64,
    kind: u16,
    tags: &[Vec<String>],
    content: &str,
) -> Vec<u8> {
    let tags_json = ito::nostr::tags_to_json(tags);
    let template = UnsignedEvent {
        created_at,
        kind,
        tags: Tags::parse(&tags_json).expect("tags"),
        content: content.into(),
    };
    let event = template.sign(key);
    let mut json = Vec::new();
    event.to_json(&mut json);
    json
}

pub fn tag(name: &str, value: &str) -> Vec<String> {
    vec![name.to_owned(), value.to_owned()]
}

pub fn id_of(json: &[u8]) -> [u8; 32] {
    Event::parse(json).expect("event").id
}

pub fn hex(bytes: &[u8]) -> String {
    ito::hex::encode(bytes)
}

/// The ids `store` answers to one filter (JSON text) at time `now`, in
/// the order it streams them.
pub fn ids_of(store: &dyn EventStore, filter: &str, now: u64) -> Vec<[u8; 32]> {
    let f = ito::nostr::Filter::parse(filter.as_bytes()).unwrap();
    let mut out = Vec::new();
    store
        .query(&[f], 10_000, now, &mut |e| {
            out.push(Event::parse(e).unwrap().id);
            true
        })
        .unwrap();
    out
}

pub fn keys(n: usize) -> Vec<SecretKey> {
    (0..n)
        .map(|i| {
            let mut b = [0u8; 32];
            b[0] = 1;
            b[31] = i as u8 + 1;
            SecretKey::from_bytes(&b).expect("key")
        })
        .collect()
}

pub const WAIT: Duration = Duration::from_secs(5);

pub struct Client {
    pub ws: WebSocketStream<TcpStream>,
}

impl Client {
    pub async fn connect(addr: SocketAddr) -> Client {
        let tcp = TcpStream::connect(addr).await.unwrap();
        let (ws, _) = tokio_tungstenite::client_async(format!("ws://{addr}/"), tcp)
            .await
            .unwrap();
        Client { ws }
    }

    pub async fn send(&mut self, text: &str) {
        self.ws.send(Message::text(text.to_owned())).await.unwrap();
    }

    pub async fn recv(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("an answer in time")
                .expect("an open socket")
                .unwrap();
            if let Message::Text(t) = msg {
                return serde_json::from_str(t.as_str()).unwrap();
            }
        }
    }

    /// Nothing arrives within a short while.
    pub async fn silent(&mut self) {
        let got = tokio::time::timeout(Duration::from_millis(150), self.ws.next()).await;
        assert!(got.is_err(), "expected silence, got {got:?}");
    }

    pub async fn publish(&mut self, event: &[u8]) -> (bool, String) {
        let id = hex(&id_of(event));
        self.send(&format!(
            "[\"EVENT\",{}]",
            std::str::from_utf8(event).unwrap()
        ))
        .await;
        let ok = self.recv().await;
        assert_eq!(ok[0], "OK", "{ok}");
        assert_eq!(ok[1], id.as_str());
        assert_eq!(
            ok.as_array().unwrap().len(),
            4,
            "the 4th element is always present"
        );
        (ok[2].as_bool().unwrap(), ok[3].as_str().unwrap().to_owned())
    }

    /// Sends a REQ and returns the ids of the stored events, up to EOSE.
    pub async fn req(&mut self, sub: &str, filters: &[Value]) -> Vec<String> {
        let mut msg = vec![json!("REQ"), json!(sub)];
        msg.extend(filters.iter().cloned());
        self.send(&Value::Array(msg).to_string()).await;
        let mut ids = Vec::new();
        loop {
            let m = self.recv().await;
            match m[0].as_str().unwrap() {
                "EVENT" => {
                    assert_eq!(m[1], sub);
                    ids.push(m[2]["id"].as_str().unwrap().to_owned());
                }
                "EOSE" => {
                    assert_eq!(m[1], sub);
                    return ids;
                }
                other => panic!("unexpected {other}: {m}"),
            }
        }
    }

    pub async fn live(&mut self, sub: &str) -> String {
        let m = self.recv().await;
        assert_eq!(
            (m[0].as_str(), m[1].as_str()),
            (Some("EVENT"), Some(sub)),
            "{m}"
        );
        m[2]["id"].as_str().unwrap().to_owned()
    }
}

pub fn id(event: &[u8]) -> String {
    hex(&id_of(event))
}

pub struct Running {
    pub addr: SocketAddr,
    pub stop: Option<tokio::sync::oneshot::Sender<()>>,
    pub task: tokio::task::JoinHandle<std::io::Result<()>>,
    pub _dir: tempfile::TempDir,
}

/// A relay on an LMDB store in a temporary directory.
pub async fn start(config: Config) -> Running {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(LmdbStore::open_with_map_size(dir.path(), 1 << 28).unwrap());
    start_on(store, config, dir).await
}

/// A relay on `store`.
pub async fn start_on(
    store: Arc<dyn EventStore>,
    config: Config,
    dir: tempfile::TempDir,
) -> Running {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let relay = Relay::new(store, config);
    let task = tokio::spawn(relay.serve(listener, async move {
        let _ = rx.await;
    }));
    Running {
        addr,
        stop: Some(tx),
        task,
        _dir: dir,
    }
}

pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}
