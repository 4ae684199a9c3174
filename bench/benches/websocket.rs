//! The relay's websocket layer, chosen by measurement: tokio-tungstenite
//! (what `ito-relay` uses) against fastwebsockets, on the relay's own
//! traffic, in memory so that only the crates' work is timed.
//!
//! - `read`: the server side reads 1,000 masked text frames, each an
//!   `["EVENT", …]` message of the bundled events (client to relay), and
//!   looks at every payload's bytes. tungstenite checks UTF-8 itself;
//!   fastwebsockets does not, so its row checks it with
//!   `std::str::from_utf8` (the relay's JSON parser would check it too).
//!   A relay must also take fragmented messages: the
//!   `FragmentCollector` row is fastwebsockets doing that, like for like.
//! - `write`: the server side writes 1,000 unmasked text frames of
//!   `["EVENT", "sub", …]` messages (relay to subscriber) into memory,
//!   flushing once at the end, as the relay's writer task does when its
//!   queue holds several messages.
//!
//! Both run on one current-thread tokio runtime; contenders alternate
//! within each group.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fastwebsockets::{FragmentCollector, Frame, OpCode, Payload, Role as FwsRole, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::io;
use tokio_tungstenite::tungstenite::protocol::Role;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

const FRAMES: usize = 1000;

/// The bundled events as client `EVENT` messages and relay `EVENT`
/// messages, `FRAMES` of each (repeating the file as needed).
fn messages() -> (Vec<String>, Vec<String>) {
    let lines: Vec<&str> = include_str!("../../data/nostr/events.jsonl")
        .lines()
        .filter(|l| !l.is_empty())
        .collect();
    let client = (0..FRAMES)
        .map(|i| format!(r#"["EVENT",{}]"#, lines[i % lines.len()]))
        .collect();
    let relay = (0..FRAMES)
        .map(|i| format!(r#"["EVENT","sub{}",{}]"#, i % 7, lines[i % lines.len()]))
        .collect();
    (client, relay)
}

/// RFC 6455 client frames (FIN, text, masked), as a browser sends them.
fn masked_frames(messages: &[String]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        let p = m.as_bytes();
        out.push(0x81);
        match p.len() {
            0..=125 => out.push(0x80 | p.len() as u8),
            126..=65535 => {
                out.push(0x80 | 126);
                out.extend_from_slice(&(p.len() as u16).to_be_bytes());
            }
            _ => {
                out.push(0x80 | 127);
                out.extend_from_slice(&(p.len() as u64).to_be_bytes());
            }
        }
        let key = (i as u32).wrapping_mul(0x9E37_79B9).to_be_bytes();
        out.extend_from_slice(&key);
        out.extend(p.iter().enumerate().map(|(j, b)| b ^ key[j % 4]));
    }
    out
}

/// An in-memory socket: reads `input`, writes into a `Vec`.
fn socket(input: &[u8]) -> io::Join<&[u8], Vec<u8>> {
    io::join(input, Vec::new())
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime")
}

/// Reads every frame of a fastwebsockets reader (`WebSocket` or
/// `FragmentCollector`: no common trait), checking each text payload's
/// UTF-8; the payload bytes seen.
macro_rules! fws_read_all {
    ($ws:ident) => {{
        let mut bytes = 0;
        while let Ok(frame) = $ws.read_frame().await {
            if frame.opcode == OpCode::Text {
                let t = std::str::from_utf8(&frame.payload).expect("UTF-8");
                bytes += black_box(t.as_bytes()).len();
            }
        }
        bytes
    }};
}

fn read(c: &mut Criterion) {
    let (client, _) = messages();
    let wire = masked_frames(&client);
    let payload: usize = client.iter().map(String::len).sum();
    let rt = rt();
    let mut g = c.benchmark_group("websocket/read");
    g.throughput(Throughput::Bytes(payload as u64));
    g.bench_function("tokio-tungstenite", |b| {
        b.iter(|| {
            rt.block_on(async {
                let mut ws =
                    WebSocketStream::from_raw_socket(socket(black_box(&wire)), Role::Server, None)
                        .await;
                let mut bytes = 0;
                while let Some(Ok(m)) = ws.next().await {
                    if let Message::Text(t) = m {
                        bytes += black_box(t.as_bytes()).len();
                    }
                }
                assert_eq!(bytes, payload);
            })
        })
    });
    // Plain, and with fragmented messages reassembled as a relay needs
    // (its tests send fragmented frames), as tungstenite does.
    for collect in [false, true] {
        let name = if collect {
            "fastwebsockets+FragmentCollector"
        } else {
            "fastwebsockets"
        };
        g.bench_function(name, |b| {
            b.iter(|| {
                rt.block_on(async {
                    let mut ws =
                        WebSocket::after_handshake(socket(black_box(&wire)), FwsRole::Server);
                    ws.set_auto_close(false);
                    ws.set_auto_pong(false);
                    let bytes = if collect {
                        let mut ws = FragmentCollector::new(ws);
                        fws_read_all!(ws)
                    } else {
                        fws_read_all!(ws)
                    };
                    assert_eq!(bytes, payload);
                })
            })
        });
    }
    g.finish();
}

fn write(c: &mut Criterion) {
    let (_, relay) = messages();
    let payload: usize = relay.iter().map(String::len).sum();
    let rt = rt();
    let mut g = c.benchmark_group("websocket/write");
    g.throughput(Throughput::Bytes(payload as u64));
    g.bench_function("tokio-tungstenite", |b| {
        b.iter(|| {
            rt.block_on(async {
                let mut ws =
                    WebSocketStream::from_raw_socket(socket(&[]), Role::Server, None).await;
                for m in black_box(&relay) {
                    ws.feed(Message::text(m.as_str())).await.expect("feed");
                }
                ws.flush().await.expect("flush");
                let written = ws.get_ref().writer().len();
                assert!(written > payload);
            })
        })
    });
    g.bench_function("fastwebsockets", |b| {
        b.iter(|| {
            rt.block_on(async {
                let mut ws = WebSocket::after_handshake(socket(&[]), FwsRole::Server);
                ws.set_writev(false);
                for m in black_box(&relay) {
                    ws.write_frame(Frame::text(Payload::Borrowed(m.as_bytes())))
                        .await
                        .expect("write");
                }
                ws.flush().await.expect("flush");
                let written = ws.into_inner().writer().len();
                assert!(written > payload);
            })
        })
    });
    g.finish();
}

criterion_group!(benches, read, write);
criterion_main!(benches);
