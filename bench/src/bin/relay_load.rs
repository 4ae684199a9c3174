//! `relay_load`: the relay benchmark's load client (issue 36, "Performance").
//!
//! ```text
//! relay_load prepare [--stored N] [--live N]   sign the corpus once, cache it under target/relay-bench/
//! relay_load bound                             ito::nostr::batch verification alone on the ingest events
//! relay_load run RELAY... [options]            start each relay in turn and run every row on it
//! relay_load queries RELAY... [options]        rows 4 and 5 only, on the database a `run` left
//! relay_load report RELAY... [--second DIR]    bench/report/relay.md and relay.svg from the saved runs
//! ```
//!
//! `queries` is for iterating on the query path: it starts each relay on
//! target/relay-bench/db/RELAY as the last `run` with the same `--stored`
//! left it (every stored event taken as acknowledged), runs the answer
//! check and the stored-query row, and prints them; it writes no results.
//!
//! RELAY is `ito` (the `ito` binary, `--ito PATH`, default
//! target/h-bench/release/ito) or a peer built by scripts/relay_peers.sh
//! into target/peers/bin/: `nostr-rs-relay`, `rnostr`, `nrb-lmdb`,
//! `khatru-lmdb`. Each relay gets a fresh database directory and its
//! per-connection rate limits raised (see [`Relay::spawn`]).
//!
//! Rows, in this order, on the same pre-signed events and filters:
//!
//! 1. NIP probes (ties, `limit`, duplicates, NIP-40, `COUNT`, upper-case
//!    hex, a `REQ` replacing a `REQ`): deviations are recorded, not fatal.
//! 2. Durable ingest: the first `--ingest` events from 16 connections, each
//!    pipelined (a window of events in flight): events/s to `OK true`,
//!    p50/p99 time to `OK`.
//! 3. The rest of the stored corpus the same way (untimed row), then bytes
//!    of database per stored event.
//! 4. Answers checked against a brute-force model (`Filter::matches` over
//!    the stored events, newest first, ties by lowest id, `limit`) on a
//!    sample of the query mix.
//! 5. Stored queries: 64 connections, one `REQ` in flight each, drawn from
//!    authors / kinds+since / `#e` / `#p` / ids filters, `limit` 500:
//!    queries/s, p50/p99 time to `EOSE`.
//! 6. Live fan-out: 1,000 subscriptions (1-3 filters: authors, kinds, `#p`)
//!    on 50 connections while 4 connections publish 2,000 events/s: every
//!    expected delivery counted, latency from send to delivery.
//! 7. Idle connections: resident memory of the relay per connection.
//! 8. Time to open the database: the relay restarted on it, until a stored
//!    event is served.
//!
//! The relay's resident memory is sampled every 100 ms throughout; every row
//! reports the client's own CPU (getrusage of this process over wall time)
//! and the load average. Results go to stdout and to
//! target/relay-bench/results/RELAY.json.
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use ito::nostr::{Event, Filter, SecretKey, UnsignedEvent};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

type Res<T> = Result<T, Box<dyn std::error::Error + Send + Sync>>;
type Ws = WebSocketStream<TcpStream>;

const AUTHORS: usize = 1000;
const FANOUT_KINDS: u16 = 100;
const PROBE_KIND: u16 = 5555;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn work_dir() -> PathBuf {
    root().join("target/relay-bench")
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

// ---------------------------------------------------------------- options

struct Opts {
    stored: usize,
    live: usize,
    ingest: usize,
    ingest_conns: usize,
    window: usize,
    query_conns: usize,
    query_secs: f64,
    sample: usize,
    subs: usize,
    fanout_rate: f64,
    fanout_secs: f64,
    idle: usize,
    ingest_cap_secs: f64,
    ito: PathBuf,
    peers: PathBuf,
    /// `report`: a results directory shown as a second table.
    second: Option<PathBuf>,
}

impl Opts {
    fn parse(args: &mut Vec<String>) -> Res<Opts> {
        let mut o = Opts {
            stored: 200_000,
            live: 40_000,
            ingest: 100_000,
            ingest_conns: 16,
            window: 64,
            query_conns: 64,
            query_secs: 10.0,
            sample: 200,
            subs: 1000,
            fanout_rate: 2000.0,
            fanout_secs: 10.0,
            idle: 10_000,
            ingest_cap_secs: 1e9,
            ito: root().join("target/h-bench/release/ito"),
            peers: root().join("target/peers/bin"),
            second: None,
        };
        let mut rest = Vec::new();
        let mut it = std::mem::take(args).into_iter();
        while let Some(a) = it.next() {
            if !a.starts_with("--") {
                rest.push(a);
                continue;
            }
            let v = it.next().ok_or_else(|| format!("{a} needs a value"))?;
            match a.as_str() {
                "--stored" => o.stored = v.parse()?,
                "--live" => o.live = v.parse()?,
                "--ingest" => o.ingest = v.parse()?,
                "--ingest-conns" => o.ingest_conns = v.parse()?,
                "--window" => o.window = v.parse()?,
                "--query-conns" => o.query_conns = v.parse()?,
                "--query-secs" => o.query_secs = v.parse()?,
                "--sample" => o.sample = v.parse()?,
                "--subs" => o.subs = v.parse()?,
                "--fanout-rate" => o.fanout_rate = v.parse()?,
                "--fanout-secs" => o.fanout_secs = v.parse()?,
                "--idle" => o.idle = v.parse()?,
                "--ingest-cap-secs" => o.ingest_cap_secs = v.parse()?,
                "--ito" => o.ito = v.into(),
                "--peers" => o.peers = v.into(),
                "--second" => o.second = Some(v.into()),
                _ => return Err(format!("unknown option {a}").into()),
            }
        }
        *args = rest;
        Ok(o)
    }
}

// ---------------------------------------------------------------- corpus

/// The pre-signed events: `stored` events for the database (the first
/// `ingest` of them are the timed ingest), then `live` events for fan-out,
/// by other authors and of kinds nobody stored.
struct Corpus {
    lines: Vec<&'static str>,
    events: Vec<Event<'static>>,
    index: HashMap<[u8; 32], u32>,
    stored: usize,
    /// Distinct stored authors, `p` targets and `e` targets (hex).
    authors: Vec<String>,
    ptags: Vec<String>,
    etags: Vec<String>,
    live_authors: Vec<String>,
    live_ptags: Vec<String>,
    base: u64,
}

fn corpus_path(stored: usize, live: usize) -> PathBuf {
    work_dir().join(format!("corpus-{stored}-{live}.jsonl"))
}

fn keys(n: usize) -> Res<Vec<SecretKey>> {
    Ok((0..n)
        .map(|_| SecretKey::generate())
        .collect::<Result<_, _>>()?)
}

fn sign(template: &str, key: &SecretKey) -> String {
    let unsigned = UnsignedEvent::parse(template.as_bytes()).expect("template");
    let mut out = Vec::with_capacity(template.len() + 300);
    unsigned.sign(key).to_json(&mut out);
    String::from_utf8(out).expect("utf-8")
}

fn prepare(stored: usize, live: usize) -> Res<()> {
    use rayon::prelude::*;
    let path = corpus_path(stored, live);
    std::fs::create_dir_all(work_dir())?;
    let started = Instant::now();
    let stored_keys = keys(AUTHORS)?;
    let live_keys = keys(AUTHORS)?;
    let spk: Vec<String> = stored_keys.iter().map(SecretKey::public_key_hex).collect();
    let lpk: Vec<String> = live_keys.iter().map(SecretKey::public_key_hex).collect();
    let base = now_secs() - 30 * 86_400;
    // Events 0..1000 are the roots the `e` tags of later events point at.
    let stored_event = |i: usize, roots: &[String]| {
        let kind = if (i / 7).is_multiple_of(4) { 7 } else { 1 };
        let mut tags = format!(r#"[["p","{}"]"#, spk[(i * 31 + 7) % AUTHORS]);
        if i >= AUTHORS && i % 2 == 1 {
            tags.push_str(&format!(r#",["e","{}"]"#, roots[(i * 13) % roots.len()]));
        }
        tags.push(']');
        let t = format!(
            r#"{{"created_at":{},"kind":{kind},"tags":{tags},"content":"bench event {i}: the quick brown fox jumps over the lazy dog, again and again, for the relay benchmark"}}"#,
            base + (i / 4) as u64
        );
        sign(&t, &stored_keys[i % AUTHORS])
    };
    let first = AUTHORS.min(stored);
    let mut lines: Vec<String> = (0..first)
        .into_par_iter()
        .map(|i| stored_event(i, &[]))
        .collect();
    let roots: Vec<String> = lines
        .iter()
        .map(|l| ito::hex::encode(&Event::parse(l.as_bytes()).expect("own event").id))
        .collect();
    lines.par_extend(
        (first..stored)
            .into_par_iter()
            .map(|i| stored_event(i, &roots)),
    );
    lines.par_extend((0..live).into_par_iter().map(|j| {
        let t = format!(
            r#"{{"created_at":{},"kind":{},"tags":[["p","{}"]],"content":"live event {j} for the fan-out row"}}"#,
            base + 2_000_000 + (j / 2) as u64,
            1000 + (j * 17) % FANOUT_KINDS as usize,
            lpk[(j * 31 + 3) % AUTHORS]
        );
        sign(&t, &live_keys[(j * 7) % AUTHORS])
    }));
    let mut text = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    for l in &lines {
        text.push_str(l);
        text.push('\n');
    }
    std::fs::write(&path, text)?;
    eprintln!(
        "signed {} events in {:.1?} -> {}",
        lines.len(),
        started.elapsed(),
        path.display()
    );
    Ok(())
}

fn load_corpus(stored: usize, live: usize) -> Res<Corpus> {
    let path = corpus_path(stored, live);
    if !path.exists() {
        prepare(stored, live)?;
    }
    let text: &'static str = Box::leak(std::fs::read_to_string(&path)?.into_boxed_str());
    let lines: Vec<&'static str> = text.lines().collect();
    if lines.len() != stored + live {
        return Err(format!("{} holds {} events", path.display(), lines.len()).into());
    }
    let events: Vec<Event<'static>> = lines
        .iter()
        .map(|l| Event::parse(l.as_bytes()))
        .collect::<Result<_, _>>()?;
    let index = events
        .iter()
        .enumerate()
        .map(|(i, e)| (e.id, i as u32))
        .collect();
    let distinct = |range: std::ops::Range<usize>,
                    what: &dyn Fn(&Event<'static>) -> Vec<String>| {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for e in &events[range] {
            for v in what(e) {
                if seen.insert(v.clone()) {
                    out.push(v);
                }
            }
        }
        out
    };
    let author = |e: &Event<'static>| vec![ito::hex::encode(&e.pubkey)];
    let tag = |name: &'static str| {
        move |e: &Event<'static>| {
            e.tags
                .iter()
                .filter_map(|t| {
                    let v: Vec<_> = t.iter().collect();
                    (v.len() >= 2 && v[0] == name).then(|| v[1].to_string())
                })
                .collect::<Vec<_>>()
        }
    };
    let authors = distinct(0..stored, &author);
    let ptags = distinct(0..stored, &tag("p"));
    let etags = distinct(0..stored, &tag("e"));
    let live_authors = distinct(stored..stored + live, &author);
    let live_ptags = distinct(stored..stored + live, &tag("p"));
    let base = events.first().map_or(0, |e| e.created_at);
    Ok(Corpus {
        lines,
        events,
        index,
        stored,
        authors,
        ptags,
        etags,
        live_authors,
        live_ptags,
        base,
    })
}

/// A small deterministic generator (splitmix64) for the query mix.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One filter of the stored-query mix: authors / kinds+since / `#e` /
/// `#p` / 20 ids, `limit` 500.
fn query_filter(c: &Corpus, rng: &mut Rng) -> String {
    match rng.below(5) {
        0 => format!(
            r#"{{"authors":["{}"],"limit":500}}"#,
            c.authors[rng.below(c.authors.len())]
        ),
        1 => format!(
            r#"{{"kinds":[{}],"since":{},"limit":500}}"#,
            if rng.below(2) == 0 { 1 } else { 7 },
            c.base + rng.below(c.stored / 4 + 1) as u64
        ),
        2 => format!(
            r##"{{"#e":["{}"],"limit":500}}"##,
            c.etags[rng.below(c.etags.len())]
        ),
        3 => format!(
            r##"{{"#p":["{}"],"limit":500}}"##,
            c.ptags[rng.below(c.ptags.len())]
        ),
        _ => {
            let ids: Vec<String> = (0..20)
                .map(|_| {
                    format!(
                        "\"{}\"",
                        ito::hex::encode(&c.events[rng.below(c.stored)].id)
                    )
                })
                .collect();
            format!(r#"{{"ids":[{}],"limit":500}}"#, ids.join(","))
        }
    }
}

/// NIP-01's answer to one filter over the stored events: newest first, ties
/// by lowest id, at most `limit`.
fn model_answer(c: &Corpus, filter: &str, stored: &[AtomicBool]) -> Res<Vec<[u8; 32]>> {
    let f = Filter::parse(filter.as_bytes())?;
    let mut hits: Vec<&Event<'_>> = c.events[..c.stored]
        .iter()
        .zip(stored)
        .filter(|(e, s)| s.load(Ordering::Relaxed) && f.matches(e))
        .map(|(e, _)| e)
        .collect();
    hits.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(a.id.cmp(&b.id)));
    hits.truncate(f.limit.unwrap_or(u64::MAX) as usize);
    Ok(hits.iter().map(|e| e.id).collect())
}

// ---------------------------------------------------------------- messages

/// The parts of a relay message the client needs, scanned without building
/// a JSON tree (the client must stay cheap).
#[derive(Debug)]
enum Msg<'a> {
    Event {
        sub: &'a str,
        id: Option<[u8; 32]>,
    },
    Ok {
        id: Option<[u8; 32]>,
        accepted: bool,
        rest: &'a str,
    },
    Eose {
        sub: &'a str,
    },
    Closed {
        sub: &'a str,
        rest: &'a str,
    },
    Count {
        sub: &'a str,
        rest: &'a str,
    },
    Other,
}

fn skip_ws(s: &str) -> &str {
    s.trim_start_matches([' ', '\n', '\r', '\t', ','])
}

/// A JSON string without escapes at the start of `s`, and what follows.
fn plain_string(s: &str) -> Option<(&str, &str)> {
    let s = skip_ws(s).strip_prefix('"')?;
    let end = s.find('"')?;
    Some((&s[..end], &s[end + 1..]))
}

fn hex32(s: &str) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    ito::hex::decode_to_slice(s.as_bytes(), &mut out, ito::hex::Accept::AnyCase).ok()?;
    Some(out)
}

fn event_id_in(obj: &str) -> Option<[u8; 32]> {
    // Most relays send the id first: read it without a search.
    const HEAD: &str = "{\"id\":\"";
    let head = skip_ws(obj);
    if head.starts_with(HEAD) && head.as_bytes().get(HEAD.len() + 64) == Some(&b'"') {
        return hex32(head.get(HEAD.len()..HEAD.len() + 64)?);
    }
    let mut from = 0;
    while let Some(at) = obj[from..].find("\"id\"") {
        let after = obj[from + at + 4..].trim_start();
        if let Some(v) = after.strip_prefix(':') {
            if let Some((hex, _)) = plain_string(v) {
                return hex32(hex);
            }
        }
        from += at + 4;
    }
    None
}

fn parse_msg(text: &str) -> Msg<'_> {
    let Some(body) = skip_ws(text).strip_prefix('[') else {
        return Msg::Other;
    };
    let Some((kind, rest)) = plain_string(body) else {
        return Msg::Other;
    };
    match kind {
        "EVENT" => match plain_string(rest) {
            Some((sub, obj)) => Msg::Event {
                sub,
                id: event_id_in(obj),
            },
            None => Msg::Other,
        },
        "OK" => match plain_string(rest) {
            Some((id, rest)) => {
                let rest = skip_ws(rest);
                Msg::Ok {
                    id: hex32(id),
                    accepted: rest.starts_with("true"),
                    rest,
                }
            }
            None => Msg::Other,
        },
        "EOSE" => plain_string(rest).map_or(Msg::Other, |(sub, _)| Msg::Eose { sub }),
        "CLOSED" => plain_string(rest).map_or(Msg::Other, |(sub, rest)| Msg::Closed { sub, rest }),
        "COUNT" => plain_string(rest).map_or(Msg::Other, |(sub, rest)| Msg::Count { sub, rest }),
        _ => Msg::Other,
    }
}

// ---------------------------------------------------------------- measuring

fn cpu_secs() -> f64 {
    // SAFETY: getrusage writes one rusage into the zeroed struct we own.
    let ru = unsafe {
        let mut ru: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut ru);
        ru
    };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    tv(ru.ru_utime) + tv(ru.ru_stime)
}

/// CPU seconds (user + system) process `pid` has used, from
/// `/proc/PID/stat`; 0 when it cannot be read.
fn proc_cpu_secs(pid: u32) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0.0;
    };
    // Fields after the command name (which may hold spaces), from field 3:
    // utime and stime are fields 14 and 15, in clock ticks.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<u64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0))
        .collect();
    // SAFETY: sysconf only reads a configuration value.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    (f.get(11).copied().unwrap_or(0) + f.get(12).copied().unwrap_or(0)) as f64 / ticks
}

/// Adds the relay's CPU time over a query row, and per streamed event
/// (less sensitive to a shared host's load than queries/s).
fn with_relay_cpu(mut v: Value, pid: u32, before: f64) -> Value {
    let cpu = proc_cpu_secs(pid) - before;
    let events = v["events_per_s"].as_f64().unwrap_or(0.0) * v["wall_s"].as_f64().unwrap_or(0.0);
    if let Some(o) = v.as_object_mut() {
        o.insert("relay_cpu_s".into(), round(cpu, 2).into());
        if events > 0.0 {
            o.insert(
                "relay_us_per_event".into(),
                round(cpu * 1e6 / events, 3).into(),
            );
        }
    }
    v
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// Samples a process's resident memory every 100 ms; `take_peak` returns
/// and resets the peak since the last call.
struct RssSampler {
    pid: u32,
    peak: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
}

impl RssSampler {
    fn start(pid: u32) -> RssSampler {
        let peak = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (p, s) = (peak.clone(), stop.clone());
        std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                p.fetch_max(rss_kib(pid), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        RssSampler { pid, peak, stop }
    }
    fn take_peak(&self) -> u64 {
        self.peak.swap(0, Ordering::Relaxed).max(rss_kib(self.pid))
    }
}

impl Drop for RssSampler {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Wall time, client CPU and load average of one row.
struct Row {
    began: Instant,
    cpu: f64,
}

impl Row {
    fn start() -> Row {
        Row {
            began: Instant::now(),
            cpu: cpu_secs(),
        }
    }
    fn finish(&self) -> Value {
        let wall = self.began.elapsed().as_secs_f64();
        let cpu = cpu_secs() - self.cpu;
        json!({
            "wall_s": round(wall, 3),
            "client_cpu_s": round(cpu, 3),
            "client_cpu_share": round(cpu / wall, 3),
            "loadavg": loadavg(),
        })
    }
}

fn round(x: f64, digits: i32) -> f64 {
    let m = 10f64.powi(digits);
    (x * m).round() / m
}

fn pct(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 * p) as usize).min(sorted.len() - 1);
    sorted[i] as f64 / 1e6
}

fn dir_bytes(dir: &Path) -> u64 {
    // Allocated bytes (what `du` counts): LMDB's map file is sparse.
    use std::os::unix::fs::MetadataExt;
    let mut total = 0;
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            if let Ok(m) = e.metadata() {
                total += if m.is_dir() {
                    dir_bytes(&e.path())
                } else {
                    m.blocks() * 512
                };
            }
        }
    }
    total
}

// ---------------------------------------------------------------- relays

struct Relay {
    name: String,
    child: Child,
    addr: String,
    db: PathBuf,
}

fn free_port() -> Res<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

impl Relay {
    /// Starts `name` on a database directory, with the per-connection limits
    /// raised for the benchmark: ito's `events_per_second` (default 100) and
    /// connection cap; nostr-rs-relay with no `messages_per_sec` and larger
    /// buffers; rnostr with its rate limiter off, `max_limit` 500 (default
    /// 300), 100 subscriptions and NIP-45 on; nrb-lmdb with
    /// `notes_per_minute` and `max_reqs` raised (in its generated main.rs);
    /// khatru has no limit by default.
    fn spawn(name: &str, db: &Path, opts: &Opts) -> Res<Relay> {
        let port = free_port()?;
        let addr = format!("127.0.0.1:{port}");
        let conf = work_dir().join("conf");
        std::fs::create_dir_all(&conf)?;
        std::fs::create_dir_all(db)?;
        let bin = |b: &str| opts.peers.join(b);
        let mut cmd = match name {
            "ito" => {
                let path = conf.join("ito.json");
                std::fs::write(
                    &path,
                    r#"{"limits":{"events_per_second":1000000,"max_connections":30000,"max_subscriptions":100}}"#,
                )?;
                let mut c = Command::new(&opts.ito);
                c.args(["relay", "serve", "--db"])
                    .arg(db)
                    .args(["--listen", &addr, "--config"])
                    .arg(path);
                c
            }
            "nostr-rs-relay" => {
                let path = conf.join("nostr-rs-relay.toml");
                std::fs::write(
                    &path,
                    format!(
                        "[info]\nrelay_url = \"ws://{addr}/\"\nname = \"bench\"\n\
                         [database]\ndata_directory = \"{}\"\n\
                         [network]\naddress = \"127.0.0.1\"\nport = {port}\n\
                         [limits]\nmessages_per_sec = 0\nsubscriptions_per_min = 0\n\
                         broadcast_buffer = 65536\nevent_persist_buffer = 16384\n",
                        db.display()
                    ),
                )?;
                let mut c = Command::new(bin("nostr-rs-relay"));
                c.arg("--config").arg(path).arg("--db").arg(db);
                c
            }
            "rnostr" => {
                let path = conf.join("rnostr.toml");
                std::fs::write(
                    &path,
                    format!(
                        "[information]\nname = \"bench\"\n\
                         [data]\npath = \"{}\"\n\
                         [network]\nhost = \"127.0.0.1\"\nport = {port}\n\
                         [limitation]\nmax_message_length = 524288\nmax_subscriptions = 100\n\
                         max_filters = 10\nmax_limit = 500\nmax_subid_length = 100\nmin_prefix = 10\n\
                         max_event_tags = 5000\nmax_event_time_older_than_now = 94608000\n\
                         max_event_time_newer_than_now = 900\n\
                         [metrics]\nenabled = false\n[auth]\nenabled = false\n\
                         [rate_limiter]\nenabled = false\n[count]\nenabled = true\n[search]\nenabled = false\n",
                        db.display()
                    ),
                )?;
                let mut c = Command::new(bin("rnostr"));
                c.args(["relay", "-c"]).arg(path);
                c
            }
            "nrb-lmdb" | "khatru-lmdb" => {
                let mut c = Command::new(bin(name));
                c.arg(db).arg(&addr);
                c
            }
            _ => return Err(format!("unknown relay {name}").into()),
        };
        let logs = work_dir().join("logs");
        std::fs::create_dir_all(&logs)?;
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(logs.join(format!("{name}.log")))?;
        let child = cmd
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .spawn()
            .map_err(|e| format!("{name}: {e}"))?;
        Ok(Relay {
            name: name.into(),
            child,
            addr,
            db: db.into(),
        })
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits until the relay accepts a websocket.
    async fn ready(&mut self, within: Duration) -> Res<()> {
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait()? {
                return Err(format!("{} exited: {status}", self.name).into());
            }
            if let Ok(ws) = connect(&self.addr).await {
                drop(ws);
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!("{} not listening after {within:?}", self.name).into());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    fn stop(&mut self) {
        // SAFETY: kill(2) on the pid of a child we spawned and have not reaped.
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGTERM);
        }
        let deadline = Instant::now() + Duration::from_secs(15);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.stop();
        }
    }
}

async fn connect(addr: &str) -> Res<Ws> {
    let tcp = TcpStream::connect(addr).await?;
    tcp.set_nodelay(true)?;
    // The websocket zeroes its whole free read buffer before each read
    // (128 KiB by default); the relays write in smaller chunks, so a
    // smaller buffer costs the client less per read.
    let config = WebSocketConfig::default().read_buffer_size(32 * 1024);
    let (ws, _) =
        tokio_tungstenite::client_async_with_config(format!("ws://{addr}/"), tcp, Some(config))
            .await?;
    Ok(ws)
}

async fn recv_text(ws: &mut SplitStream<Ws>, within: Duration) -> Option<String> {
    loop {
        match tokio::time::timeout(within, ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => return Some(t.as_str().to_owned()),
            Ok(Some(Ok(Message::Close(_)))) | Ok(Some(Err(_))) | Ok(None) | Err(_) => return None,
            Ok(Some(Ok(_))) => continue,
        }
    }
}

// ---------------------------------------------------------------- rows

/// Publishes `which` events over `conns` connections, each with up to
/// `window` events awaiting their `OK`. Returns events/s to the last `OK`,
/// the times to `OK` and the refusals.
async fn publish(
    c: &'static Corpus,
    addr: &str,
    which: std::ops::Range<usize>,
    conns: usize,
    window: usize,
    cap: Duration,
    stored: &Arc<Vec<AtomicBool>>,
) -> Res<Value> {
    let t0 = Instant::now();
    let sent: Arc<Vec<AtomicU64>> = Arc::new(which.clone().map(|_| AtomicU64::new(0)).collect());
    let refused = Arc::new(Mutex::new(HashMap::<String, u64>::new()));
    let mut tasks = Vec::new();
    let n = which.len();
    for k in 0..conns {
        let ws = connect(addr).await?;
        let (mut tx, mut rx): (SplitSink<Ws, Message>, SplitStream<Ws>) = ws.split();
        let mine: Vec<usize> = which.clone().skip(k).step_by(conns).collect();
        let refused = refused.clone();
        let start = which.start;
        let permits = Arc::new(tokio::sync::Semaphore::new(window));
        let p2 = permits.clone();
        let count = mine.len();
        let sent_w = sent.clone();
        // How many this connection sent, and whether it has stopped (all
        // sent, or the time cap reached).
        let sent_n = Arc::new(AtomicU64::new(0));
        let stopped = Arc::new(AtomicBool::new(false));
        let (sent_n_w, stopped_w) = (sent_n.clone(), stopped.clone());
        let stored = stored.clone();
        let writer = tokio::spawn(async move {
            for (m, &i) in mine.iter().enumerate() {
                if t0.elapsed() > cap {
                    tx.flush().await?;
                    break;
                }
                let permit = match p2.try_acquire() {
                    Ok(p) => p,
                    Err(_) => {
                        tx.flush().await?;
                        p2.acquire().await?
                    }
                };
                permit.forget();
                sent_w[i - start].store(t0.elapsed().as_nanos() as u64, Ordering::Relaxed);
                tx.feed(Message::text(format!("[\"EVENT\",{}]", c.lines[i])))
                    .await?;
                sent_n_w.fetch_add(1, Ordering::Release);
                if m + 1 == count {
                    tx.flush().await?;
                }
            }
            stopped_w.store(true, Ordering::Release);
            Ok::<_, Box<dyn std::error::Error + Send + Sync>>(tx)
        });
        let sent_r = sent.clone();
        let reader = tokio::spawn(async move {
            let mut lat = Vec::with_capacity(count);
            let mut ok = 0u64;
            let mut quiet = Instant::now();
            while lat.len() < count {
                if stopped.load(Ordering::Acquire)
                    && lat.len() as u64 >= sent_n.load(Ordering::Acquire)
                {
                    break;
                }
                let text = match tokio::time::timeout(Duration::from_millis(500), rx.next()).await {
                    Err(_) if quiet.elapsed() < Duration::from_secs(60) => continue,
                    Ok(Some(Ok(Message::Text(t)))) => t,
                    Ok(Some(Ok(Message::Ping(_) | Message::Pong(_)))) => continue,
                    _ => break,
                };
                quiet = Instant::now();
                if let Msg::Ok { id, accepted, rest } = parse_msg(text.as_str()) {
                    let now = t0.elapsed().as_nanos() as u64;
                    if let Some(i) = id.and_then(|id| c.index.get(&id)) {
                        let s = sent_r[*i as usize - start].load(Ordering::Relaxed);
                        lat.push(now.saturating_sub(s));
                    }
                    if accepted {
                        ok += 1;
                        if let Some(i) = id.and_then(|id| c.index.get(&id)) {
                            stored[*i as usize].store(true, Ordering::Relaxed);
                        }
                    } else {
                        let why: String =
                            rest.chars().skip_while(|&ch| ch != '"').take(40).collect();
                        *refused.lock().unwrap().entry(why).or_default() += 1;
                    }
                    permits.add_permits(1);
                }
            }
            (lat, ok, t0.elapsed())
        });
        tasks.push((writer, reader));
    }
    let mut lat = Vec::with_capacity(n);
    let (mut ok, mut last) = (0u64, Duration::ZERO);
    for (w, r) in tasks {
        let (l, o, t) = r.await?;
        lat.extend(l);
        ok += o;
        last = last.max(t);
        if let Ok(Ok(mut tx)) = w.await {
            let _ = tx.close().await;
        }
    }
    lat.sort_unstable();
    let secs = last.as_secs_f64();
    let refused = refused.lock().unwrap().clone();
    Ok(json!({
        "events": n,
        "answered": lat.len(),
        "ok_true": ok,
        "refused": refused,
        "events_per_s_to_ok": round(ok as f64 / secs, 0),
        "ok_p50_ms": round(pct(&lat, 0.5), 2),
        "ok_p99_ms": round(pct(&lat, 0.99), 2),
        "secs": round(secs, 2),
    }))
}

/// Runs one `REQ` and collects the ids until `EOSE` (or `CLOSED`, or 30 s).
/// Each message is read where the websocket left it, and one timer covers
/// the whole answer: the client's cycles are taken from the relay.
async fn req(
    tx: &mut SplitSink<Ws, Message>,
    rx: &mut SplitStream<Ws>,
    sub: &str,
    filters: &str,
) -> Res<(Vec<[u8; 32]>, &'static str)> {
    tx.send(Message::text(format!("[\"REQ\",\"{sub}\",{filters}]")))
        .await?;
    let mut ids = Vec::new();
    let answer = async {
        while let Some(Ok(message)) = rx.next().await {
            let text = match &message {
                Message::Text(t) => t.as_str(),
                Message::Close(_) => break,
                _ => continue,
            };
            match parse_msg(text) {
                Msg::Event {
                    sub: s,
                    id: Some(id),
                } if s == sub => ids.push(id),
                Msg::Eose { sub: s } if s == sub => return "eose",
                Msg::Closed { sub: s, .. } if s == sub => return "closed",
                _ => {}
            }
        }
        "timeout"
    };
    let end = tokio::time::timeout(Duration::from_secs(30), answer)
        .await
        .unwrap_or("timeout");
    Ok((ids, end))
}

/// The query sample checked against the model: how many answers are
/// exactly NIP-01's, and what is wrong with the others.
async fn check_answers(
    c: &'static Corpus,
    addr: &str,
    sample: &[(String, Vec<[u8; 32]>)],
) -> Res<Value> {
    let (mut tx, mut rx) = connect(addr).await?.split();
    let mut exact = 0;
    let mut kinds: HashMap<&'static str, u64> = HashMap::new();
    let mut examples: Vec<String> = Vec::new();
    for (n, (filter, want)) in sample.iter().enumerate() {
        let sub = format!("c{n}");
        let (got, end) = req(&mut tx, &mut rx, &sub, filter).await?;
        tx.send(Message::text(format!("[\"CLOSE\",\"{sub}\"]")))
            .await?;
        if got == *want && end == "eose" {
            exact += 1;
            continue;
        }
        let mut what = Vec::new();
        if end != "eose" {
            what.push(if end == "closed" { "CLOSED" } else { "no EOSE" });
        }
        let mut uniq = got.clone();
        uniq.sort_unstable();
        uniq.dedup();
        if uniq.len() != got.len() {
            what.push("duplicates");
        }
        let mut want_sorted = want.clone();
        want_sorted.sort_unstable();
        let extra = uniq
            .iter()
            .filter(|id| want_sorted.binary_search(id).is_err())
            .count();
        let missing = want_sorted
            .iter()
            .filter(|id| uniq.binary_search(id).is_err())
            .count();
        let matching = |id: &[u8; 32]| {
            c.index.get(id).is_some_and(|&i| {
                Filter::parse(filter.as_bytes()).is_ok_and(|f| f.matches(&c.events[i as usize]))
            })
        };
        if got.len() > want.len() && got.iter().all(matching) {
            what.push("more than limit");
        } else if extra > 0 && !got.iter().all(matching) {
            what.push("events not matching");
        } else if extra > 0 {
            what.push("wrong events at the limit (tie order)");
        }
        if missing > 0 && got.len() < want.len() {
            what.push("missing events");
        }
        if extra == 0 && missing == 0 && uniq.len() == got.len() && got != *want {
            let times: Vec<u64> = got
                .iter()
                .map(|id| c.events[c.index[id] as usize].created_at)
                .collect();
            if times.windows(2).all(|w| w[0] >= w[1]) {
                what.push("ties not by lowest id");
            } else {
                what.push("not newest first");
            }
        }
        for w in &what {
            *kinds.entry(*w).or_default() += 1;
        }
        if examples.len() < 5 {
            examples.push(format!(
                "{filter}: got {} want {}: {}",
                got.len(),
                want.len(),
                what.join(", ")
            ));
        }
    }
    Ok(json!({"sample": sample.len(), "exact": exact, "deviations": kinds, "examples": examples}))
}

/// Stored queries from `conns` connections for `secs`.
async fn queries(c: &'static Corpus, addr: &str, conns: usize, secs: f64) -> Res<Value> {
    let deadline = Instant::now() + Duration::from_secs_f64(secs);
    let mut tasks = Vec::new();
    for k in 0..conns {
        let (mut tx, mut rx) = connect(addr).await?.split();
        tasks.push(tokio::spawn(async move {
            let mut rng = Rng(0x5eed_0000 + k as u64);
            let (mut lat, mut events, mut bad) = (Vec::new(), 0u64, 0u64);
            let mut n = 0u64;
            while Instant::now() < deadline {
                let filter = query_filter(c, &mut rng);
                let sub = format!("q{n}");
                n += 1;
                let t = Instant::now();
                let Ok((ids, end)) = req(&mut tx, &mut rx, &sub, &filter).await else {
                    bad += 1;
                    break;
                };
                if end != "eose" {
                    bad += 1;
                }
                lat.push(t.elapsed().as_nanos() as u64);
                events += ids.len() as u64;
                if tx
                    .send(Message::text(format!("[\"CLOSE\",\"{sub}\"]")))
                    .await
                    .is_err()
                {
                    break;
                }
            }
            (lat, events, bad)
        }));
    }
    let began = Instant::now();
    let (mut lat, mut events, mut bad) = (Vec::new(), 0, 0);
    for t in tasks {
        let (l, e, b) = t.await?;
        lat.extend(l);
        events += e;
        bad += b;
    }
    let wall = began.elapsed().as_secs_f64();
    lat.sort_unstable();
    Ok(json!({
        "connections": conns,
        "queries": lat.len(),
        "queries_per_s": round(lat.len() as f64 / wall, 0),
        "events_per_s": round(events as f64 / wall, 0),
        "eose_p50_ms": round(pct(&lat, 0.5), 2),
        "eose_p99_ms": round(pct(&lat, 0.99), 2),
        "without_eose": bad,
    }))
}

/// Live fan-out: `subs` subscriptions on 50 connections, `rate` events/s
/// published for `secs` from 4 connections; with `rate` 0, `count` events
/// as fast as the relay takes them (the sustained rate). The events are the
/// live part of the corpus from `offset` on.
async fn fanout(
    c: &'static Corpus,
    addr: &str,
    subs: usize,
    rate: f64,
    secs: f64,
    offset: usize,
) -> Res<Value> {
    let live = c.stored + offset..c.lines.len();
    let count = if rate > 0.0 {
        (rate * secs) as usize
    } else {
        (secs as usize).max(1)
    }
    .min(live.len());
    // The subscriptions and who should get what.
    let mut sub_filters: Vec<String> = Vec::with_capacity(subs);
    for s in 0..subs {
        let n = 1 + s % 3;
        let fs: Vec<String> = (0..n)
            .map(|f| match (s + f) % 3 {
                0 => format!(
                    r#"{{"authors":["{}"]}}"#,
                    c.live_authors[(s * 37 + f * 11) % c.live_authors.len()]
                ),
                1 => format!(
                    r#"{{"kinds":[{}]}}"#,
                    1000 + (s * 7 + f) % FANOUT_KINDS as usize
                ),
                _ => format!(
                    r##"{{"#p":["{}"]}}"##,
                    c.live_ptags[(s * 53 + f * 5) % c.live_ptags.len()]
                ),
            })
            .collect();
        sub_filters.push(fs.join(","));
    }
    // How many subscriptions each event should reach.
    let mut per_event = vec![0u64; count];
    for f in &sub_filters {
        let list = format!("[{f}]");
        let parsed = Filter::parse_list(list.as_bytes())?;
        for (j, e) in c.events[live.start..live.start + count].iter().enumerate() {
            if ito::nostr::matches_any(&parsed, e) {
                per_event[j] += 1;
            }
        }
    }
    let t0 = Instant::now();
    let sent: Arc<Vec<AtomicU64>> =
        Arc::new((0..count).map(|_| AtomicU64::new(u64::MAX)).collect());
    let sub_conns = 50.min(subs);
    let done = Arc::new(AtomicBool::new(false));
    let mut readers = Vec::new();
    for k in 0..sub_conns {
        let (mut tx, mut rx) = connect(addr).await?.split();
        let mine: Vec<usize> = (k..subs).step_by(sub_conns).collect();
        // One at a time, as a client opening its feeds does (and within
        // every relay's bound on queries in flight).
        let mut closed = Vec::new();
        for &s in &mine {
            tx.send(Message::text(format!(
                "[\"REQ\",\"f{s}\",{}]",
                sub_filters[s]
            )))
            .await?;
            loop {
                let Some(text) = recv_text(&mut rx, Duration::from_secs(30)).await else {
                    return Err(format!("fan-out: subscription f{s} unanswered").into());
                };
                match parse_msg(&text) {
                    Msg::Eose { .. } => break,
                    Msg::Closed { sub, rest } => {
                        closed.push(format!("{sub}: {rest}"));
                        break;
                    }
                    _ => {}
                }
            }
        }
        if !closed.is_empty() {
            return Err(format!(
                "fan-out: subscriptions refused: {:?}",
                &closed[..closed.len().min(3)]
            )
            .into());
        }
        let (sent, done) = (sent.clone(), done.clone());
        let start = live.start;
        readers.push(tokio::spawn(async move {
            let _tx = tx;
            let mut lat = Vec::new();
            let mut seen = std::collections::HashSet::new();
            let (mut dup, mut stray) = (0u64, 0u64);
            let mut last = Instant::now();
            let mut last_delivery = 0u64;
            loop {
                let text = match tokio::time::timeout(Duration::from_millis(200), rx.next()).await {
                    Err(_) => {
                        // Quiet: done once publishing has ended and 3 s passed.
                        if done.load(Ordering::Relaxed) && last.elapsed() > Duration::from_secs(3) {
                            break;
                        }
                        continue;
                    }
                    Ok(Some(Ok(Message::Text(t)))) => t,
                    Ok(Some(Ok(Message::Close(_)))) | Ok(Some(Err(_))) | Ok(None) => break,
                    Ok(Some(Ok(_))) => continue,
                };
                last = Instant::now();
                if let Msg::Event { sub, id: Some(id) } = parse_msg(text.as_str()) {
                    let now = t0.elapsed().as_nanos() as u64;
                    match c.index.get(&id).map(|&i| i as usize) {
                        Some(i) if i >= start && i - start < sent.len() => {
                            if seen.insert((sub.to_owned(), i)) {
                                last_delivery = now;
                                lat.push(
                                    now.saturating_sub(sent[i - start].load(Ordering::Relaxed)),
                                );
                            } else {
                                dup += 1;
                            }
                        }
                        _ => stray += 1,
                    }
                }
            }
            (lat, dup, stray, last_delivery)
        }));
    }
    // Publishers, paced.
    let pubs = 4;
    let mut writers = Vec::new();
    let began = Instant::now();
    for k in 0..pubs {
        let (mut tx, mut rx) = connect(addr).await?.split();
        let mine: Vec<usize> = (k..count).step_by(pubs).collect();
        let sent = sent.clone();
        let start = live.start;
        let per_pub = rate / pubs as f64;
        let expect = mine.len() as u64;
        let drain = tokio::spawn(async move {
            let mut oks = 0u64;
            let mut refused = 0u64;
            while oks + refused < expect {
                let Some(text) = recv_text(&mut rx, Duration::from_secs(10)).await else {
                    break;
                };
                if let Msg::Ok { accepted, .. } = parse_msg(&text) {
                    if accepted {
                        oks += 1;
                    } else {
                        refused += 1;
                    }
                }
            }
            (oks, refused)
        });
        writers.push((
            tokio::spawn(async move {
                let mut next = 0;
                let mut tick = tokio::time::interval(Duration::from_millis(2));
                // A relay that cannot keep up is given twice the time, and
                // the unpaced row a minute, then publishing stops.
                let stop_at = if per_pub > 0.0 {
                    Duration::from_secs_f64(2.0 * mine.len() as f64 / per_pub)
                } else {
                    Duration::from_secs(60)
                };
                while next < mine.len() && began.elapsed() < stop_at {
                    tick.tick().await;
                    let due = if per_pub > 0.0 {
                        ((began.elapsed().as_secs_f64() * per_pub) as usize).min(mine.len())
                    } else {
                        (next + 256).min(mine.len())
                    };
                    while next < due && began.elapsed() < stop_at {
                        let j = mine[next];
                        sent[j].store(t0.elapsed().as_nanos() as u64, Ordering::Relaxed);
                        tx.feed(Message::text(format!("[\"EVENT\",{}]", c.lines[start + j])))
                            .await?;
                        next += 1;
                    }
                    tx.flush().await?;
                }
                Ok::<_, Box<dyn std::error::Error + Send + Sync>>((tx, next))
            }),
            drain,
        ));
    }
    let mut oks = 0;
    let mut refused = 0;
    let mut keep = Vec::new();
    let (mut expected, mut published) = (0u64, 0usize);
    for (k, (w, d)) in writers.into_iter().enumerate() {
        let (tx, n) = w.await??;
        keep.push(tx);
        published += n;
        expected += (k..count)
            .step_by(pubs)
            .take(n)
            .map(|j| per_event[j])
            .sum::<u64>();
        let (o, r) = d.await?;
        oks += o;
        refused += r;
    }
    let published_in = began.elapsed().as_secs_f64();
    let begun_ns = (began - t0).as_nanos() as u64;
    done.store(true, Ordering::Relaxed);
    let (mut lat, mut dup, mut stray, mut last) = (Vec::new(), 0, 0, 0);
    for r in readers {
        let (l, d, s, t) = r.await?;
        lat.extend(l);
        dup += d;
        stray += s;
        last = last.max(t);
    }
    let delivering = last.saturating_sub(begun_ns) as f64 / 1e9;
    drop(keep);
    lat.sort_unstable();
    Ok(json!({
        "subscriptions": subs,
        "published": published,
        "publish_rate_per_s": round(published as f64 / published_in, 0),
        "ok_true": oks,
        "refused": refused,
        "expected_deliveries": expected,
        "delivered": lat.len(),
        "deliveries_per_s": round(lat.len() as f64 / delivering.max(1e-9), 0),
        "events_per_s_all_delivered": round(published as f64 / delivering.max(1e-9), 0),
        "duplicates": dup,
        "unexpected": stray,
        "delivery_p50_ms": round(pct(&lat, 0.5), 2),
        "delivery_p99_ms": round(pct(&lat, 0.99), 2),
        "delivery_max_ms": round(pct(&lat, 1.0), 2),
    }))
}

/// Opens `n` idle websocket connections; the relay's resident memory
/// before and after.
async fn idle(addr: &str, pid: u32, n: usize) -> Res<Value> {
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = rss_kib(pid);
    let par = 32;
    let mut tasks = Vec::new();
    for k in 0..par {
        let addr = addr.to_owned();
        tasks.push(tokio::spawn(async move {
            let mut open = Vec::new();
            let mut failed = 0;
            for _ in (k..n).step_by(par) {
                match tokio::time::timeout(Duration::from_secs(10), connect(&addr)).await {
                    Ok(Ok(ws)) => open.push(ws),
                    _ => failed += 1,
                }
            }
            (open, failed)
        }));
    }
    let mut open = Vec::new();
    let mut failed = 0;
    for t in tasks {
        let (o, f) = t.await?;
        open.extend(o);
        failed += f;
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = rss_kib(pid);
    // Still serving with all of them open?
    let (mut tx, mut rx) = connect(addr).await?.split();
    let (_, end) = req(&mut tx, &mut rx, "alive", r#"{"kinds":[1],"limit":1}"#).await?;
    drop(open);
    Ok(json!({
        "opened": n - failed,
        "failed": failed,
        "rss_before_kib": before,
        "rss_after_kib": after,
        "kib_per_connection": round((after.saturating_sub(before)) as f64 / (n - failed).max(1) as f64, 2),
        "served_while_open": end == "eose",
    }))
}

// ---------------------------------------------------------------- NIP probes

/// Signs probe events at run time (they need the current time).
struct Prober {
    tx: SplitSink<Ws, Message>,
    rx: SplitStream<Ws>,
}

impl Prober {
    async fn publish(&mut self, event: &str) -> Res<Option<(bool, String)>> {
        let id = event_id_in(event);
        self.tx
            .send(Message::text(format!("[\"EVENT\",{event}]")))
            .await?;
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            let Some(text) = recv_text(&mut self.rx, Duration::from_secs(5)).await else {
                break;
            };
            if let Msg::Ok {
                id: got,
                accepted,
                rest,
            } = parse_msg(&text)
            {
                if got == id || id.is_none() {
                    return Ok(Some((accepted, rest.to_owned())));
                }
            }
            if text.starts_with("[\"NOTICE\"") {
                return Ok(Some((false, text)));
            }
        }
        Ok(None)
    }
    async fn req(&mut self, sub: &str, filters: &str) -> Res<Vec<[u8; 32]>> {
        let (ids, _) = req(&mut self.tx, &mut self.rx, sub, filters).await?;
        self.tx
            .send(Message::text(format!("[\"CLOSE\",\"{sub}\"]")))
            .await?;
        Ok(ids)
    }
}

fn probe_event(key: &SecretKey, created_at: u64, tags: &str, content: &str) -> String {
    sign(
        &format!(
            r#"{{"created_at":{created_at},"kind":{PROBE_KIND},"tags":{tags},"content":"{content}"}}"#
        ),
        key,
    )
}

async fn probes(addr: &str) -> Res<Value> {
    let (tx, rx) = connect(addr).await?.split();
    let mut p = Prober { tx, rx };
    let mut dev: Vec<String> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let now = now_secs();
    let k = keys(4)?;
    let pk: Vec<String> = k.iter().map(SecretKey::public_key_hex).collect();

    // Ties: five events by one author at one second.
    let ties: Vec<String> = (0..5)
        .map(|i| probe_event(&k[0], now - 100, "[]", &format!("tie {i}")))
        .collect();
    let mut tie_ids: Vec<[u8; 32]> = Vec::new();
    for e in &ties {
        match p.publish(e).await? {
            Some((true, _)) => tie_ids.push(event_id_in(e).unwrap_or_default()),
            other => notes.push(format!("tie event refused: {other:?}")),
        }
    }
    tie_ids.sort_unstable();
    let got = p
        .req("t1", &format!(r#"{{"authors":["{}"],"limit":3}}"#, pk[0]))
        .await?;
    if got.len() != 3 {
        dev.push(format!(
            "limit: authors filter with limit 3 over 5 events answered {} events",
            got.len()
        ));
    } else if got[..] != tie_ids[..3] {
        dev.push("ties: equal created_at not ordered by lowest id (limit 3 of 5 ties)".into());
    }
    // limit on an ids filter.
    let ids: Vec<String> = tie_ids
        .iter()
        .map(|i| format!("\"{}\"", ito::hex::encode(i)))
        .collect();
    let got = p
        .req("t2", &format!(r#"{{"ids":[{}],"limit":2}}"#, ids.join(",")))
        .await?;
    if got.len() != 2 {
        dev.push(format!(
            "limit: ids filter of 5 ids with limit 2 answered {} events",
            got.len()
        ));
    }
    // Duplicates: re-published, and matched by two filters of one REQ.
    match p.publish(&ties[0]).await? {
        Some((accepted, msg)) => notes.push(format!(
            "re-published event: OK {accepted} {}",
            msg.chars().take(40).collect::<String>()
        )),
        None => dev.push("re-published event: no OK".into()),
    }
    let got = p
        .req("t3", &format!(r#"{{"authors":["{}"]}}"#, pk[0]))
        .await?;
    if got.len() != tie_ids.len() {
        dev.push(format!(
            "duplicates: a re-published event stored twice ({} answers for {} events)",
            got.len(),
            tie_ids.len()
        ));
    }
    let got = p
        .req(
            "t4",
            &format!(r#"{{"ids":[{}]}},{{"authors":["{}"]}}"#, ids[0], pk[0]),
        )
        .await?;
    if got.len() != tie_ids.len() {
        dev.push(format!(
            "duplicates: one event matched by two filters of a REQ sent {} times",
            got.len() + 1 - tie_ids.len()
        ));
    }
    // NIP-40: already expired, and expiring in 2 s.
    let expired = probe_event(
        &k[1],
        now - 10,
        &format!(r#"[["expiration","{}"]]"#, now - 5),
        "expired",
    );
    if let Some((true, _)) = p.publish(&expired).await? {
        dev.push("NIP-40: an already expired event accepted".into());
    }
    let soon = probe_event(
        &k[1],
        now - 1,
        &format!(r#"[["expiration","{}"]]"#, now + 2),
        "expiring",
    );
    let accepted_soon = matches!(p.publish(&soon).await?, Some((true, _)));
    tokio::time::sleep(Duration::from_millis(3200)).await;
    let got = p
        .req("t5", &format!(r#"{{"authors":["{}"]}}"#, pk[1]))
        .await?;
    if accepted_soon && !got.is_empty() {
        dev.push(format!(
            "NIP-40: expired events served ({} of them)",
            got.len()
        ));
    }
    // COUNT.
    p.tx.send(Message::text(format!(
        r#"["COUNT","n1",{{"authors":["{}"]}}]"#,
        pk[0]
    )))
    .await?;
    let mut counted = None;
    while let Some(text) = recv_text(&mut p.rx, Duration::from_secs(3)).await {
        match parse_msg(&text) {
            Msg::Count { sub: "n1", rest } => {
                counted = Some(rest.to_owned());
                break;
            }
            Msg::Closed { sub: "n1", rest } => {
                counted = Some(format!("CLOSED {rest}"));
                break;
            }
            _ if text.starts_with("[\"NOTICE\"") => {
                counted = Some(text);
                break;
            }
            _ => {}
        }
    }
    match counted {
        None => dev.push("NIP-45: COUNT unanswered".into()),
        Some(r)
            if !r.contains(&format!(":{}", tie_ids.len()))
                && !r.contains(&format!(": {}", tie_ids.len())) =>
        {
            dev.push(format!(
                "NIP-45: COUNT answered {}",
                r.chars().take(60).collect::<String>()
            ))
        }
        _ => {}
    }
    // Upper-case hex id.
    let fresh = probe_event(&k[2], now - 50, "[]", "upper-case id");
    let id = event_id_in(&fresh).unwrap_or_default();
    let hex = ito::hex::encode(&id);
    let upper = fresh.replacen(&hex, &hex.to_uppercase(), 1);
    if let Some((true, _)) = p.publish(&upper).await? {
        dev.push("hex: an event with an upper-case id accepted".into());
    }
    // A REQ with an open subscription's id replaces it.
    let _ = p
        .req("probe-r", &format!(r#"{{"authors":["{}"]}}"#, pk[3]))
        .await; // closed again by req()
    p.tx.send(Message::text(format!(
        r#"["REQ","r",{{"authors":["{}"]}}]"#,
        pk[3]
    )))
    .await?;
    p.tx.send(Message::text(format!(
        r#"["REQ","r",{{"authors":["{}"]}}]"#,
        pk[2]
    )))
    .await?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let to_old = probe_event(&k[3], now - 20, "[]", "for the replaced subscription");
    let old_id = event_id_in(&to_old);
    p.tx.send(Message::text(format!("[\"EVENT\",{to_old}]")))
        .await?;
    let mut delivered_old = false;
    while let Some(text) = recv_text(&mut p.rx, Duration::from_secs(1)).await {
        if let Msg::Event { sub: "r", id } = parse_msg(&text) {
            if id == old_id {
                delivered_old = true;
            }
        }
    }
    if delivered_old {
        dev.push(
            "REQ: a second REQ with the same id added to the subscription instead of replacing it"
                .into(),
        );
    }
    Ok(json!({"deviations": dev, "notes": notes}))
}

// ---------------------------------------------------------------- driver

fn bound(c: &Corpus, n: usize) -> Value {
    use ito::nostr::batch::{verify_all, Check};
    let events = &c.lines[..n.min(c.stored)];
    let mut best = f64::MAX;
    let mut ok = 0;
    for _ in 0..3 {
        let t = Instant::now();
        let verdicts = verify_all(events, Check::Signature);
        best = best.min(t.elapsed().as_secs_f64());
        ok = verdicts.iter().filter(|v| v.is_ok()).count();
    }
    json!({
        "events": events.len(),
        "ok": ok,
        "threads": rayon::current_num_threads(),
        "events_per_s": round(events.len() as f64 / best, 0),
        "loadavg": loadavg(),
    })
}

/// Rows 4 and 5 on the database a `run` left (the `queries` command).
async fn query_rows(name: &str, c: &'static Corpus, o: &Opts, sample: &[String]) -> Res<Value> {
    let db = work_dir().join("db").join(name);
    if !db.is_dir() {
        return Err(format!(
            "no database at {}: run `relay_load run {name}` first",
            db.display()
        )
        .into());
    }
    let mut relay = Relay::spawn(name, &db, o)?;
    relay.ready(Duration::from_secs(120)).await?;
    let stored: Vec<AtomicBool> = (0..c.stored).map(|_| AtomicBool::new(true)).collect();
    let sample: Vec<(String, Vec<[u8; 32]>)> = sample
        .iter()
        .map(|f| (f.clone(), model_answer(c, f, &stored).expect("own filter")))
        .collect();
    let row = Row::start();
    let answers = merge(check_answers(c, &relay.addr, &sample).await?, row.finish());
    eprintln!("[{name}] answers: {answers}");
    let row = Row::start();
    let relay_cpu = proc_cpu_secs(relay.pid());
    let q = merge(
        queries(c, &relay.addr, o.query_conns, o.query_secs).await?,
        row.finish(),
    );
    let q = with_relay_cpu(q, relay.pid(), relay_cpu);
    eprintln!("[{name}] queries: {q}");
    relay.stop();
    Ok(json!({"relay": name, "answers": answers, "queries": q}))
}

async fn run_relay(name: &str, c: &'static Corpus, o: &Opts, sample: &[String]) -> Res<Value> {
    let db = work_dir().join("db").join(name);
    let _ = std::fs::remove_dir_all(&db);
    let mut out = serde_json::Map::new();
    out.insert("relay".into(), name.into());
    let mut relay = Relay::spawn(name, &db, o)?;
    let started = Instant::now();
    relay.ready(Duration::from_secs(60)).await?;
    out.insert(
        "start_empty_ms".into(),
        round(started.elapsed().as_secs_f64() * 1e3, 1).into(),
    );
    let pid = relay.pid();
    let rss = RssSampler::start(pid);
    tokio::time::sleep(Duration::from_millis(300)).await;
    out.insert("rss_empty_kib".into(), rss_kib(pid).into());
    let addr = relay.addr.clone();
    let mut step = |key: &str, v: Value, rss: &RssSampler| {
        let mut v = v;
        if let Value::Object(m) = &mut v {
            m.insert("relay_rss_peak_kib".into(), rss.take_peak().into());
        }
        eprintln!("[{name}] {key}: {v}");
        out.insert(key.into(), v);
    };

    let row = Row::start();
    let v = probes(&addr)
        .await
        .unwrap_or_else(|e| json!({"error": e.to_string()}));
    step("nip_probes", merge(v, row.finish()), &rss);

    let row = Row::start();
    // Which events the relay acknowledged: the model of its database.
    let stored: Arc<Vec<AtomicBool>> =
        Arc::new((0..c.stored).map(|_| AtomicBool::new(false)).collect());
    let cap = Duration::from_secs_f64(o.ingest_cap_secs);
    let v = publish(
        c,
        &addr,
        0..o.ingest.min(c.stored),
        o.ingest_conns,
        o.window,
        cap,
        &stored,
    )
    .await?;
    step("ingest", merge(v, row.finish()), &rss);

    if o.ingest < c.stored {
        let row = Row::start();
        let v = publish(
            c,
            &addr,
            o.ingest..c.stored,
            o.ingest_conns,
            o.window,
            cap,
            &stored,
        )
        .await?;
        step("fill", merge(v, row.finish()), &rss);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let bytes = dir_bytes(&relay.db);
    let held = stored.iter().filter(|s| s.load(Ordering::Relaxed)).count();
    step(
        "database",
        json!({"bytes": bytes, "stored_events": held, "bytes_per_event": round(bytes as f64 / held.max(1) as f64, 1)}),
        &rss,
    );

    let row = Row::start();
    let sample: Vec<(String, Vec<[u8; 32]>)> = sample
        .iter()
        .map(|f| (f.clone(), model_answer(c, f, &stored).expect("own filter")))
        .collect();
    let v = check_answers(c, &addr, &sample)
        .await
        .unwrap_or_else(|e| json!({"error": e.to_string()}));
    step("answers", merge(v, row.finish()), &rss);

    let row = Row::start();
    let relay_cpu = proc_cpu_secs(pid);
    let v = queries(c, &addr, o.query_conns, o.query_secs)
        .await
        .unwrap_or_else(|e| json!({"error": e.to_string()}));
    step(
        "queries",
        with_relay_cpu(merge(v, row.finish()), pid, relay_cpu),
        &rss,
    );

    let row = Row::start();
    let v = match fanout(c, &addr, o.subs, o.fanout_rate, o.fanout_secs, 0).await {
        Ok(v) => v,
        Err(e) => json!({"error": e.to_string()}),
    };
    step("fanout", merge(v, row.finish()), &rss);

    // The sustained rate: the next events of the live corpus, unpaced.
    let used = (o.fanout_rate * o.fanout_secs) as usize;
    let rest = (c.lines.len() - c.stored).saturating_sub(used);
    if rest > 0 {
        let row = Row::start();
        let v = match fanout(c, &addr, o.subs, 0.0, rest as f64, used).await {
            Ok(v) => v,
            Err(e) => json!({"error": e.to_string()}),
        };
        step("fanout_max", merge(v, row.finish()), &rss);
    }

    let row = Row::start();
    let v = match idle(&addr, pid, o.idle).await {
        Ok(v) => v,
        Err(e) => json!({"error": e.to_string()}),
    };
    step("idle", merge(v, row.finish()), &rss);
    drop(rss);

    relay.stop();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut again = Relay::spawn(name, &db, o)?;
    let t = Instant::now();
    let first = ito::hex::encode(&c.events[0].id);
    let opened = async {
        again.ready(Duration::from_secs(120)).await?;
        let (mut tx, mut rx) = connect(&again.addr).await?.split();
        let (ids, _) = req(
            &mut tx,
            &mut rx,
            "open",
            &format!(r#"{{"ids":["{first}"]}}"#),
        )
        .await?;
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(ids.len())
    }
    .await;
    let open_ms = t.elapsed().as_secs_f64() * 1e3;
    again.stop();
    out.insert(
        "reopen".into(),
        json!({"ms_to_first_answer": round(open_ms, 1), "served": opened.map_err(|e| e.to_string())?, "stored_events": c.stored}),
    );
    eprintln!("[{name}] reopen: {}", out["reopen"]);
    Ok(Value::Object(out))
}

fn merge(mut a: Value, b: Value) -> Value {
    if let (Value::Object(a), Value::Object(b)) = (&mut a, b) {
        a.extend(b);
    }
    a
}

/// A figure of one row of a relay's results, if the row ran.
fn fig(v: &Value, row: &str, key: &str) -> Option<f64> {
    v.get(row)?.get(key)?.as_f64()
}

fn cell(v: Option<f64>, digits: usize) -> String {
    match v {
        Some(x) if x.is_finite() => {
            let s = format!("{x:.digits$}");
            // Thousands separators on the integer part.
            let (int, frac) = s.split_once('.').map_or((s.as_str(), ""), |(i, f)| (i, f));
            let mut out = String::new();
            for (n, ch) in int.chars().enumerate() {
                if n > 0 && (int.len() - n) % 3 == 0 && ch != '-' {
                    out.push(',');
                }
                out.push(ch);
            }
            if !frac.is_empty() {
                out.push('.');
                out.push_str(frac);
            }
            out
        }
        _ => "—".into(),
    }
}

/// The results of the last `run` of each relay as a Markdown table (to
/// paste into bench/RESULTS.md) and bench/report/relay.svg: ito's ratio
/// over each peer, and over the bound.
/// The report's table, bound, ratios and NIP deviations for the runs
/// `names` saved in `dir`, and the chart's rows.
fn tables(dir: &Path, names: &[String]) -> Res<(String, Vec<ito_bench::headline::Row>)> {
    let read = |n: &str| -> Res<Value> {
        Ok(serde_json::from_str(&std::fs::read_to_string(
            dir.join(format!("{n}.json")),
        )?)?)
    };
    let bound = read("bound")?;
    let runs: Vec<(String, Value)> = names
        .iter()
        .filter_map(|n| read(n).ok().map(|v| (n.clone(), v)))
        .collect();
    let mut md = String::new();
    md.push_str(&format!(
        "| row | {} |\n|---|{}\n",
        runs.iter()
            .map(|r| r.0.as_str())
            .collect::<Vec<_>>()
            .join(" | "),
        "---|".repeat(runs.len())
    ));
    type Get = dyn Fn(&Value) -> Option<String>;
    let f = |row: &'static str, key: &'static str, d: usize| -> Box<Get> {
        Box::new(move |v: &Value| Some(cell(fig(v, row, key), d)))
    };
    let rows: Vec<(&str, Box<Get>)> = vec![
        (
            "durable ingest, events/s to `OK true`",
            f("ingest", "events_per_s_to_ok", 0),
        ),
        (
            "ingest: time to `OK` p50 / p99 (ms)",
            Box::new(|v: &Value| {
                Some(format!(
                    "{} / {}",
                    cell(fig(v, "ingest", "ok_p50_ms"), 1),
                    cell(fig(v, "ingest", "ok_p99_ms"), 1)
                ))
            }),
        ),
        (
            "ingest: `OK true` of events sent",
            Box::new(|v: &Value| {
                Some(format!(
                    "{} of {}",
                    cell(fig(v, "ingest", "ok_true"), 0),
                    cell(fig(v, "ingest", "events"), 0)
                ))
            }),
        ),
        (
            "ingest: client CPU / load average",
            Box::new(|v: &Value| {
                Some(format!(
                    "{} % / {}",
                    cell(fig(v, "ingest", "client_cpu_share").map(|x| x * 100.0), 1),
                    v.get("ingest")?.get("loadavg")?.as_str()?
                ))
            }),
        ),
        (
            "rest of the database (untimed row), events/s",
            f("fill", "events_per_s_to_ok", 0),
        ),
        (
            "query answers exactly NIP-01's (sample)",
            Box::new(|v: &Value| {
                Some(format!(
                    "{} of {}",
                    cell(fig(v, "answers", "exact"), 0),
                    cell(fig(v, "answers", "sample"), 0)
                ))
            }),
        ),
        (
            "stored queries/s (64 connections)",
            f("queries", "queries_per_s", 0),
        ),
        (
            "queries: time to `EOSE` p50 / p99 (ms)",
            Box::new(|v: &Value| {
                Some(format!(
                    "{} / {}",
                    cell(fig(v, "queries", "eose_p50_ms"), 1),
                    cell(fig(v, "queries", "eose_p99_ms"), 1)
                ))
            }),
        ),
        (
            "queries: events streamed/s",
            f("queries", "events_per_s", 0),
        ),
        (
            "queries: client CPU / load average",
            Box::new(|v: &Value| {
                Some(format!(
                    "{} % / {}",
                    cell(fig(v, "queries", "client_cpu_share").map(|x| x * 100.0), 1),
                    v.get("queries")?.get("loadavg")?.as_str()?
                ))
            }),
        ),
        (
            "fan-out at 2,000 events/s: published/s",
            f("fanout", "publish_rate_per_s", 0),
        ),
        (
            "fan-out: delivered of expected (duplicates)",
            Box::new(|v: &Value| {
                Some(format!(
                    "{} of {} ({})",
                    cell(fig(v, "fanout", "delivered"), 0),
                    cell(fig(v, "fanout", "expected_deliveries"), 0),
                    cell(fig(v, "fanout", "duplicates"), 0)
                ))
            }),
        ),
        (
            "fan-out: delivery p50 / p99 (ms)",
            Box::new(|v: &Value| {
                Some(format!(
                    "{} / {}",
                    cell(fig(v, "fanout", "delivery_p50_ms"), 1),
                    cell(fig(v, "fanout", "delivery_p99_ms"), 1)
                ))
            }),
        ),
        (
            "fan-out unpaced: events/s with every delivery made",
            f("fanout_max", "events_per_s_all_delivered", 0),
        ),
        (
            "fan-out unpaced: deliveries/s (delivered of expected)",
            Box::new(|v: &Value| {
                Some(format!(
                    "{} ({} of {})",
                    cell(fig(v, "fanout_max", "deliveries_per_s"), 0),
                    cell(fig(v, "fanout_max", "delivered"), 0),
                    cell(fig(v, "fanout_max", "expected_deliveries"), 0)
                ))
            }),
        ),
        (
            "idle connections: KiB resident each (opened)",
            Box::new(|v: &Value| {
                Some(format!(
                    "{} ({})",
                    cell(fig(v, "idle", "kib_per_connection"), 1),
                    cell(fig(v, "idle", "opened"), 0)
                ))
            }),
        ),
        (
            "resident MiB: empty / peak ingest / queries / fan-out",
            Box::new(|v: &Value| {
                let peak = |rows: &[&str]| {
                    let m = rows
                        .iter()
                        .filter_map(|r| fig(v, r, "relay_rss_peak_kib"))
                        .fold(None, |a: Option<f64>, x| Some(a.map_or(x, |a| a.max(x))));
                    cell(m.map(|k| k / 1024.0), 0)
                };
                Some(format!(
                    "{} / {} / {} / {}",
                    cell(v.get("rss_empty_kib")?.as_f64().map(|k| k / 1024.0), 0),
                    peak(&["ingest", "fill"]),
                    peak(&["queries"]),
                    peak(&["fanout", "fanout_max"])
                ))
            }),
        ),
        (
            "events in the database (acknowledged)",
            f("database", "stored_events", 0),
        ),
        (
            "rows that failed",
            Box::new(|v: &Value| {
                let failed: Vec<String> = v
                    .as_object()?
                    .iter()
                    .filter_map(|(k, r)| Some(format!("{k}: {}", r.get("error")?.as_str()?)))
                    .collect();
                Some(if failed.is_empty() {
                    "none".into()
                } else {
                    failed.join("; ")
                })
            }),
        ),
        (
            "database bytes per stored event",
            f("database", "bytes_per_event", 0),
        ),
        (
            "time to open the database, ms to first answer",
            f("reopen", "ms_to_first_answer", 0),
        ),
    ];
    for (label, get) in &rows {
        md.push_str(&format!(
            "| {label} | {} |\n",
            runs.iter()
                .map(|(_, v)| get(v).unwrap_or_else(|| "—".into()))
                .collect::<Vec<_>>()
                .join(" | ")
        ));
    }
    md.push_str(&format!(
        "\nThe bound (`ito::nostr::batch::verify_all`, id and signature, {} threads, the same {} events): {} events/s (load {}).\n",
        bound["threads"], bound["events"], cell(bound["events_per_s"].as_f64(), 0), bound["loadavg"].as_str().unwrap_or("")
    ));
    // Ratios: ito against the best peer, and against the bound.
    let ito = runs.iter().find(|r| r.0 == "ito").map(|r| &r.1);
    let mut chart_rows = Vec::new();
    if let Some(ito) = ito {
        for (row, key, what) in [
            ("ingest", "events_per_s_to_ok", "durable ingest"),
            ("queries", "queries_per_s", "stored queries"),
            (
                "fanout_max",
                "events_per_s_all_delivered",
                "fan-out, sustained",
            ),
        ] {
            let Some(mine) = fig(ito, row, key) else {
                continue;
            };
            let best = runs
                .iter()
                .filter(|r| r.0 != "ito")
                .filter_map(|r| fig(&r.1, row, key).map(|x| (x, r.0.clone())))
                .fold(None, |b: Option<(f64, String)>, x| match b {
                    Some(b) if b.0 >= x.0 => Some(b),
                    _ => Some(x),
                });
            if let Some((b, who)) = &best {
                md.push_str(&format!(
                    "- {what}: ito {} against the best peer ({who}, {}): **{:.1}×**\n",
                    cell(Some(mine), 0),
                    cell(Some(*b), 0),
                    mine / b
                ));
            }
            for (peer, v) in runs.iter().filter(|r| r.0 != "ito") {
                if let Some(x) = fig(v, row, key).filter(|x| *x > 0.0) {
                    chart_rows.push(ito_bench::headline::Row {
                        area: "relay".into(),
                        work: what.into(),
                        peer: peer.clone(),
                        ito_ns: 1e9 / mine,
                        peer_ns: 1e9 / x,
                        ratio: mine / x,
                        ratio_lo: mine / x,
                        ratio_hi: mine / x,
                        rounds: 1,
                    });
                }
            }
            if row == "ingest" {
                if let Some(b) = bound["events_per_s"].as_f64() {
                    md.push_str(&format!(
                        "- durable ingest against the bound: **{:.2}×**",
                        mine / b
                    ));
                    for (peer, v) in runs.iter().filter(|r| r.0 != "ito") {
                        if let Some(x) = fig(v, row, key) {
                            md.push_str(&format!("; {peer} {:.3}×", x / b));
                        }
                    }
                    md.push('\n');
                    chart_rows.push(ito_bench::headline::Row {
                        area: "relay".into(),
                        work: what.into(),
                        peer: "the bound (verification alone)".into(),
                        ito_ns: 1e9 / mine,
                        peer_ns: 1e9 / b,
                        ratio: mine / b,
                        ratio_lo: mine / b,
                        ratio_hi: mine / b,
                        rounds: 1,
                    });
                }
            }
        }
    }
    md.push_str("\nNIP deviations:\n");
    for (name, v) in &runs {
        let mut d: Vec<String> = v["nip_probes"]["deviations"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        if let Some(m) = v["answers"]["deviations"].as_object() {
            for (k, n) in m {
                d.push(format!("query sample: {k} ({n} answers)"));
            }
        }
        if let Some(n) = fig(v, "fanout", "duplicates").filter(|n| *n > 0.0) {
            d.push(format!(
                "live: {n} events delivered twice to one subscription"
            ));
        }
        md.push_str(&format!(
            "- {name}: {}\n",
            if d.is_empty() {
                "none found".into()
            } else {
                d.join("; ")
            }
        ));
    }
    Ok((md, chart_rows))
}

/// How many events the runs in `dir` stored (ito's run, else the first).
fn stored_events(dir: &Path, names: &[String]) -> Option<u64> {
    let read = |n: &String| -> Option<Value> {
        serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{n}.json"))).ok()?).ok()
    };
    let runs: Vec<Value> = names.iter().filter_map(read).collect();
    let pick = runs.iter().find(|v| v["relay"] == "ito").or(runs.first())?;
    pick["reopen"]["stored_events"]
        .as_u64()
        .or_else(|| pick["database"]["stored_events"].as_u64())
}

/// Writes bench/report/relay.md (and relay.svg) from the runs `names` in
/// target/relay-bench/results/; with `--second DIR`, the runs saved in
/// DIR (every relay found there) follow as a second table, without a
/// chart. The dates and commits come from RELAY_BENCH_DATE and
/// RELAY_BENCH_COMMIT (RELAY_BENCH_SECOND_DATE and
/// RELAY_BENCH_SECOND_COMMIT for the second table).
fn report(names: &[String], second: Option<&Path>) -> Res<()> {
    let dir = work_dir().join("results");
    let (md, chart_rows) = tables(&dir, names)?;
    println!("{md}");
    let size = |n: Option<u64>| {
        n.map_or("—".into(), |n| {
            let s = n.to_string();
            let mut out = String::new();
            for (i, c) in s.chars().enumerate() {
                if i > 0 && (s.len() - i) % 3 == 0 {
                    out.push(',');
                }
                out.push(c);
            }
            out
        })
    };
    let cpu = ito_bench::report::cpu_name();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let sub = |date: &str, commit: &str| {
        format!(
            "<sub>{cpu}, {cores} cores, release build (no `-C target-cpu=native`), {date} UTC, \
             commit {commit} (ito binary)</sub>\n"
        )
    };
    let second_md = match second {
        Some(d) => {
            let mut found: Vec<String> = Vec::new();
            for name in ["ito", "rnostr", "nostr-rs-relay", "nrb-lmdb", "khatru-lmdb"] {
                if d.join(format!("{name}.json")).is_file() {
                    found.push(name.into());
                }
            }
            let (md2, _) = tables(d, &found)?;
            format!(
                "\n### {} relays on a {}-event database (an earlier run)\n\n{md2}\n{}",
                found.len(),
                size(stored_events(d, &found)),
                sub(
                    &std::env::var("RELAY_BENCH_SECOND_DATE").unwrap_or_default(),
                    &std::env::var("RELAY_BENCH_SECOND_COMMIT").unwrap_or_default()
                )
            )
        }
        None => String::new(),
    };
    let date = std::env::var("RELAY_BENCH_DATE").unwrap_or_default();
    let commit = std::env::var("RELAY_BENCH_COMMIT").unwrap_or_else(|_| {
        Command::new("git")
            .args(["rev-parse", "--short", "HEAD"])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
            .unwrap_or_default()
    });
    let section = format!(
        "## Nostr relay\n\n\
         Written by `relay_load report` (source: `bench/src/bin/relay_load.rs`; peers built by \
         `scripts/relay_peers.sh`). Every relay runs alone on loopback, one after another, on the \
         same pre-signed events and filters, with per-connection rate limits raised; the load \
         client is the project's own. Ratios are ito's figure over the peer's (**above 1: ito \
         is ahead**); the bound is `ito::nostr::batch` verification alone on the same events and \
         cores. Methods and older figures: [`bench/RESULTS.md`](../RESULTS.md).\n\n\
         ### {} on a {}-event database\n\n\
         ![Nostr relay chart](relay.svg)\n\n{md}\n{}{second_md}",
        names.join(" and "),
        size(stored_events(&dir, names)),
        sub(&date, &commit),
    );
    std::fs::write(root().join("bench/report/relay.md"), section)?;
    if !chart_rows.is_empty() {
        let run = ito_bench::headline::env::Run {
            mode: "release".into(),
            cpu: ito_bench::report::cpu_name(),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            kernel: String::new(),
            rustc: String::new(),
            date,
            commit,
            load: (0.0, 0.0),
            quick: false,
            seconds: 0.0,
            rows: chart_rows,
            python: String::new(),
        };
        let area = ito_bench::headline::Area {
            slug: "relay",
            title: "Nostr relay",
            about: "",
            run: |_| {},
        };
        if let Some(svg) = ito_bench::headline::chart::svg(&area, &[run]) {
            let path = root().join("bench/report/relay.svg");
            std::fs::write(&path, svg)?;
            eprintln!("chart: {}", path.display());
        }
    }
    Ok(())
}

/// What `run` and `queries` share: the corpus (loaded once, for the whole
/// process), the sample of query filters every relay answers (the same
/// seed, so the same filters), and the client's two-thread runtime.
fn query_setup(o: &Opts) -> Res<(&'static Corpus, Vec<String>, tokio::runtime::Runtime)> {
    let c: &'static Corpus = Box::leak(Box::new(load_corpus(o.stored, o.live)?));
    let mut rng = Rng(0xc0ffee);
    let sample: Vec<String> = (0..o.sample).map(|_| query_filter(c, &mut rng)).collect();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    Ok((c, sample, rt))
}

fn main() -> Res<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let o = Opts::parse(&mut args)?;
    let Some(cmd) = args.first().cloned() else {
        eprintln!("usage: relay_load prepare|bound|run RELAY... [--stored N] [--live N] [--ingest N] [--idle N] ...");
        std::process::exit(2);
    };
    match cmd.as_str() {
        "prepare" => prepare(o.stored, o.live),
        "bound" => {
            let c = load_corpus(o.stored, o.live)?;
            println!("{}", bound(&c, o.ingest));
            Ok(())
        }
        "run" => {
            let (c, sample, rt) = query_setup(&o)?;
            let results = work_dir().join("results");
            std::fs::create_dir_all(&results)?;
            let b = bound(c, o.ingest);
            eprintln!("bound: {b}");
            std::fs::write(
                results.join("bound.json"),
                serde_json::to_string_pretty(&b)?,
            )?;
            for name in &args[1..] {
                match rt.block_on(run_relay(name, c, &o, &sample)) {
                    Ok(v) => {
                        std::fs::write(
                            results.join(format!("{name}.json")),
                            serde_json::to_string_pretty(&v)?,
                        )?;
                        println!("{v}");
                    }
                    Err(e) => {
                        eprintln!("[{name}] failed: {e}");
                        std::fs::write(
                            results.join(format!("{name}.json")),
                            json!({"relay": name, "error": e.to_string()}).to_string(),
                        )?;
                    }
                }
            }
            Ok(())
        }
        "queries" => {
            let (c, sample, rt) = query_setup(&o)?;
            for name in &args[1..] {
                println!("{}", rt.block_on(query_rows(name, c, &o, &sample))?);
            }
            Ok(())
        }
        "report" => report(&args[1..], o.second.as_deref()),
        _ => Err(format!("unknown command {cmd}").into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "5c83da77af1dec6d7289834998ad7aafbd9e2191396d75ec3cc27f5a77226f36";

    fn event_id(text: &str) -> Option<[u8; 32]> {
        match parse_msg(text) {
            Msg::Event { sub: "s", id } => id,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_event_id_is_read_first_or_anywhere_and_always_checked() {
        let want = hex32(ID);
        assert!(want.is_some());
        // The id first (the fast path), with and without a space.
        assert_eq!(
            event_id(&format!(r#"["EVENT","s",{{"id":"{ID}","kind":1}}]"#)),
            want
        );
        assert_eq!(
            event_id(&format!(r#"["EVENT","s", {{"id":"{ID}"}}]"#)),
            want
        );
        // The id later, after a field whose value says "id".
        let late = format!(r#"["EVENT","s",{{"kind":1,"content":"id","id":"{ID}"}}]"#);
        assert_eq!(event_id(&late), want);
        // Too short, too long, not hex: no id.
        let short = &ID[..63];
        for bad in [
            format!(r#"["EVENT","s",{{"id":"{short}","kind":1}}]"#),
            format!(r#"["EVENT","s",{{"id":"{ID}0","kind":1}}]"#),
            format!(r#"["EVENT","s",{{"id":"{}x","kind":1}}]"#, &ID[..63]),
        ] {
            assert_eq!(event_id(&bad), None, "{bad}");
        }
    }
}
