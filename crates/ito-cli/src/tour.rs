//! `ito tour`: every capability on built-in sample data, timed side by side
//! with the std / serde_json way of doing the same work in the same run.

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashMap;
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use clap::Args;

use crate::io::Failure;

/// twitter.json and citm_catalog.json, embedded so the tour needs no files.
const TWITTER: &str = include_str!("../../../data/corpus/twitter.json");
const CITM: &str = include_str!("../../../data/corpus/citm_catalog.json");
const CANADA: &str = include_str!("../../../data/corpus/canada.json");

#[derive(Args)]
pub(crate) struct TourArgs {
    /// Time budget per measurement, in milliseconds.
    #[arg(long, default_value_t = 150)]
    millis: u64,
}

/// One line of the tour's table.
struct Row {
    what: String,
    ito: Speed,
    baseline_name: &'static str,
    baseline: Speed,
    /// Heap allocations per call (ito, baseline), where the row counts them.
    allocs: Option<(f64, f64)>,
}

/// Counts heap allocations so the interpolation rows can show them.
struct CountingAlloc;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every method forwards to `System` unchanged; the counter is a
// relaxed atomic increment with no other effect.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller upholds `GlobalAlloc::dealloc`'s contract.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller upholds `GlobalAlloc::realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// Average heap allocations (including reallocations) per call of `work`.
fn allocations_per_call(mut work: impl FnMut()) -> f64 {
    work(); // warm any thread-local scratch first
    const CALLS: u64 = 1000;
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for _ in 0..CALLS {
        work();
    }
    (ALLOCATIONS.load(Ordering::Relaxed) - before) as f64 / CALLS as f64
}

/// A measured rate: bytes (or items) per second.
#[derive(Clone, Copy)]
struct Speed {
    per_sec: f64,
    unit: Unit,
}

#[derive(Clone, Copy)]
enum Unit {
    Bytes,
    Items,
}

impl std::fmt::Display for Speed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.unit {
            Unit::Bytes if self.per_sec >= 1e9 => write!(f, "{:7.2} GB/s", self.per_sec / 1e9),
            Unit::Bytes => write!(f, "{:7.1} MB/s", self.per_sec / 1e6),
            // Slow operations (signing) read better in thousands.
            Unit::Items if self.per_sec < 1e5 => write!(f, "{:7.2} k/s ", self.per_sec / 1e3),
            Unit::Items => write!(f, "{:7.2} M/s ", self.per_sec / 1e6),
        }
    }
}

/// Run `work` (which processes `amount` units per call) repeatedly for the
/// budget and return the best rate of three rounds.
fn measure(budget: Duration, amount: usize, unit: Unit, mut work: impl FnMut()) -> Speed {
    work(); // warm caches and any lazily initialised state
            // Calls run in batches big enough that reading the clock (tens of ns,
            // more on some VMs) is not part of what is measured.
    let mut batch = 1u64;
    loop {
        let start = Instant::now();
        for _ in 0..batch {
            work();
        }
        if start.elapsed() >= Duration::from_micros(50) || batch >= 1 << 20 {
            break;
        }
        batch *= 2;
    }
    let mut best = 0f64;
    for _ in 0..3 {
        let start = Instant::now();
        let mut calls = 0u64;
        while start.elapsed() < budget / 3 {
            for _ in 0..batch {
                work();
            }
            calls += batch;
        }
        let rate = (calls as f64 * amount as f64) / start.elapsed().as_secs_f64();
        best = best.max(rate);
    }
    Speed {
        per_sec: best,
        unit,
    }
}

/// Every string (keys and values) of a JSON document, decoded by
/// `ito::json::literals` (which the library tests against serde_json).
fn strings_of(document: &str) -> Vec<String> {
    ito::json::literals(document.as_bytes())
        .map(|literal| {
            literal
                .expect("embedded corpus is valid JSON")
                .1
                .into_owned()
        })
        .collect()
}

struct Corpus {
    strings: Vec<String>,
    bytes: usize,
    literals: Vec<String>,
    literal_bytes: usize,
}

impl Corpus {
    fn load() -> Corpus {
        let mut strings = strings_of(TWITTER);
        strings.extend(strings_of(CITM));
        let bytes = strings.iter().map(String::len).sum();
        let literals: Vec<String> = strings_of(TWITTER)
            .iter()
            .map(|s| serde_json::to_string(s).expect("strings serialize"))
            .collect();
        let literal_bytes = literals.iter().map(String::len).sum();
        Corpus {
            strings,
            bytes,
            literals,
            literal_bytes,
        }
    }
}

fn json_section(corpus: &Corpus, budget: Duration, rows: &mut Vec<Row>) -> Result<(), Failure> {
    // Check before timing: ito's bytes must equal serde_json's.
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    for s in &corpus.strings {
        ito::json::quote(&mut ours, s);
        serde_json::to_writer(&mut theirs, s).map_err(|e| Failure::msg(e.to_string()))?;
    }
    if ours != theirs {
        return Err(Failure::msg(
            "tour: ito::json::quote differs from serde_json on the corpus",
        ));
    }
    let mut dst = Vec::with_capacity(ours.len());
    rows.push(Row {
        what: format!("json quote: {} corpus strings", corpus.strings.len()),
        ito: measure(budget, corpus.bytes, Unit::Bytes, || {
            dst.clear();
            for s in &corpus.strings {
                ito::json::quote(&mut dst, black_box(s));
            }
            black_box(&dst);
        }),
        allocs: None,
        baseline_name: "serde_json::to_writer",
        baseline: measure(budget, corpus.bytes, Unit::Bytes, || {
            dst.clear();
            for s in &corpus.strings {
                let _ = serde_json::to_writer(&mut dst, black_box(s));
            }
            black_box(&dst);
        }),
    });

    for lit in &corpus.literals {
        let (value, _) = ito::json::unquote(lit.as_bytes())
            .map_err(|e| Failure::msg(format!("tour: unquote failed: {e}")))?;
        let expected: String =
            serde_json::from_str(lit).map_err(|e| Failure::msg(e.to_string()))?;
        if value != expected {
            return Err(Failure::msg(
                "tour: ito::json::unquote differs from serde_json",
            ));
        }
    }
    rows.push(Row {
        what: format!("json unquote: {} twitter literals", corpus.literals.len()),
        ito: measure(budget, corpus.literal_bytes, Unit::Bytes, || {
            for lit in &corpus.literals {
                black_box(ito::json::unquote(black_box(lit.as_bytes())).ok());
            }
        }),
        allocs: None,
        baseline_name: "serde_json::from_str::<String>",
        baseline: measure(budget, corpus.literal_bytes, Unit::Bytes, || {
            for lit in &corpus.literals {
                black_box(serde_json::from_str::<String>(black_box(lit)).ok());
            }
        }),
    });
    Ok(())
}

/// Whole documents: `ito::json::to_vec` against `serde_json::to_vec` on the
/// three corpora as `serde_json::Value` (checked byte-equal first).
fn documents_section(budget: Duration, rows: &mut Vec<Row>) -> Result<(), Failure> {
    for (name, doc) in [
        ("twitter.json", TWITTER),
        ("citm_catalog.json", CITM),
        ("canada.json", CANADA),
    ] {
        let value: serde_json::Value =
            serde_json::from_str(doc).map_err(|e| Failure::msg(e.to_string()))?;
        let theirs = serde_json::to_vec(&value).map_err(|e| Failure::msg(e.to_string()))?;
        let ours = ito::json::to_vec(&value).map_err(|e| Failure::msg(e.to_string()))?;
        if ours != theirs {
            return Err(Failure::msg(format!(
                "tour: ito::json::to_vec differs from serde_json on {name}"
            )));
        }
        rows.push(Row {
            what: format!("json to_vec: {name} as Value"),
            ito: measure(budget, ours.len(), Unit::Bytes, || {
                drop(black_box(ito::json::to_vec(black_box(&value)).ok()));
            }),
            allocs: None,
            baseline_name: "serde_json::to_vec",
            baseline: measure(budget, ours.len(), Unit::Bytes, || {
                drop(black_box(serde_json::to_vec(black_box(&value)).ok()));
            }),
        });
    }
    Ok(())
}

/// `ito::format!` against `std::format!`: throughput and allocations.
fn interpolation_section(budget: Duration, rows: &mut Vec<Row>) -> Result<(), Failure> {
    let name = black_box(String::from("the interpolated 29-byte text"));
    let user = black_box("ayumi");
    let id = black_box(4_194_304u64);
    let ms = black_box(12.5f64);
    let path = black_box(String::from("/var/log/ito/requests-2026-11-21.jsonl"));

    macro_rules! compare {
        ($what:expr, $($args:tt)*) => {{
            let ours = ito::format!($($args)*);
            let theirs = std::format!($($args)*);
            if ours != theirs.as_str() {
                return Err(Failure::msg(format!(
                    "tour: ito::format! gave {ours:?}, std::format! gave {theirs:?}"
                )));
            }
            rows.push(Row {
                what: format!("{} ({} B)", $what, theirs.len()),
                ito: measure(budget, 1, Unit::Items, || {
                    black_box(ito::format!($($args)*));
                }),
                baseline_name: "std::format!",
                baseline: measure(budget, 1, Unit::Items, || {
                    black_box(std::format!($($args)*));
                }),
                allocs: Some((
                    allocations_per_call(|| {
                        black_box(ito::format!($($args)*));
                    }),
                    allocations_per_call(|| {
                        black_box(std::format!($($args)*));
                    }),
                )),
            });
        }};
    }
    compare!(
        "format: \"hello\" + \", \" + 29 B (Ruby talk)",
        "hello, {}",
        name
    );
    compare!(
        "format: log line with a float",
        "user {user} id={id} took {ms:.1} ms"
    );
    compare!("format: name:id, fits inline", "{}:{}", user, id);
    compare!("format: 3 strings + int", "{path} [{user}] {name} #{id}");
    Ok(())
}

/// Interning the words of twitter.json: ito's `Interner` and `LocalInterner`
/// against the usual `HashMap<String, u32>`.
fn interning_section(budget: Duration, rows: &mut Vec<Row>) -> Result<(), Failure> {
    let words: Vec<&str> = TWITTER.split_whitespace().collect();
    let bytes: usize = words.iter().map(|w| w.len()).sum();

    fn std_intern(map: &mut HashMap<String, u32>, w: &str) -> u32 {
        if let Some(&id) = map.get(w) {
            return id;
        }
        let id = map.len() as u32;
        map.insert(w.to_owned(), id);
        id
    }

    // Same distinct count both ways, and resolve(intern(w)) == w.
    let interner = ito::Interner::new();
    let mut map = HashMap::new();
    for w in &words {
        let sym = interner.intern(w);
        if interner.resolve(sym) != *w {
            return Err(Failure::msg("tour: interner resolved a different string"));
        }
        std_intern(&mut map, w);
    }
    if interner.len() != map.len() {
        return Err(Failure::msg(
            "tour: interner and HashMap disagree on distinct count",
        ));
    }
    rows.push(Row {
        what: format!("intern, fresh table: {} twitter words", words.len()),
        ito: measure(budget, words.len(), Unit::Items, || {
            let interner = ito::Interner::new();
            for w in &words {
                black_box(interner.intern(black_box(w)));
            }
        }),
        baseline_name: "HashMap<String, u32>",
        baseline: measure(budget, words.len(), Unit::Items, || {
            let mut map = HashMap::new();
            for w in &words {
                black_box(std_intern(&mut map, black_box(w)));
            }
        }),
        allocs: None,
    });
    rows.push(Row {
        what: format!("intern hits: {} words ({} B)", words.len(), bytes),
        ito: measure(budget, words.len(), Unit::Items, || {
            for w in &words {
                black_box(interner.intern(black_box(w)));
            }
        }),
        baseline_name: "HashMap<String, u32>",
        baseline: measure(budget, words.len(), Unit::Items, || {
            for w in &words {
                black_box(std_intern(&mut map, black_box(w)));
            }
        }),
        allocs: None,
    });

    // The single-threaded table: same symbols-per-string contract.
    let mut local = ito::LocalInterner::new();
    for w in &words {
        let sym = local.intern(w);
        if local.resolve(sym) != *w {
            return Err(Failure::msg(
                "tour: LocalInterner resolved a different string",
            ));
        }
    }
    if local.len() != map.len() {
        return Err(Failure::msg(
            "tour: LocalInterner and HashMap disagree on distinct count",
        ));
    }
    rows.push(Row {
        what: format!("LocalInterner hits: {} words", words.len()),
        ito: measure(budget, words.len(), Unit::Items, || {
            for w in &words {
                black_box(local.intern(black_box(w)));
            }
        }),
        baseline_name: "HashMap<String, u32>",
        baseline: measure(budget, words.len(), Unit::Items, || {
            for w in &words {
                black_box(std_intern(&mut map, black_box(w)));
            }
        }),
        allocs: None,
    });
    Ok(())
}

/// The relay's hot loop: parse `["EVENT", e]` and match the event against a
/// REQ's three filters, ito against the `nostr` crate (rust-nostr).
fn relay_section(budget: Duration, rows: &mut Vec<Row>) -> Result<(), Failure> {
    use ::nostr::prelude as rn;
    use ito::nostr::{matches_any, ClientMessage};
    let messages: Vec<String> = EVENTS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| format!("[\"EVENT\",{l}]"))
        .collect();
    let req = r##"["REQ","tour",{"kinds":[1,7]},{"#p":["bf2376e17ba4ec269d10fcc996a4746b451152be9031fa48e74553dde5526bce"]},{"since":1700000000}]"##;
    let fail = |what: &str| Failure::msg(format!("tour: relay: {what}"));
    let Ok(ClientMessage::Req { filters, .. }) = ClientMessage::parse(req.as_bytes()) else {
        return Err(fail("sample REQ"));
    };
    let Ok(rn::ClientMessage::Req {
        filters: theirs, ..
    }) = rn::ClientMessage::from_json(req)
    else {
        return Err(fail("sample REQ (nostr crate)"));
    };
    let ours_match = |m: &str| match ClientMessage::parse(m.as_bytes()) {
        Ok(ClientMessage::Event { event, .. }) => Some(matches_any(&filters, &event)),
        _ => None,
    };
    let theirs_match = |m: &str| match rn::ClientMessage::from_json(m) {
        Ok(rn::ClientMessage::Event(event)) => Some(
            theirs
                .iter()
                .any(|f| f.match_event(&event, rn::MatchEventOptions::new())),
        ),
        _ => None,
    };
    let mut matched = 0;
    for m in &messages {
        let ours = ours_match(m);
        if ours.is_none() || ours != theirs_match(m) {
            return Err(fail("match result differs from the nostr crate"));
        }
        matched += usize::from(ours == Some(true));
    }
    rows.push(Row {
        what: format!(
            "relay: parse EVENT + match a 3-filter REQ, {} events ({matched} match)",
            messages.len()
        ),
        ito: measure(budget, messages.len(), Unit::Items, || {
            for m in &messages {
                black_box(ours_match(black_box(m)));
            }
        }),
        baseline_name: "nostr crate (rust-nostr 0.45)",
        baseline: measure(budget, messages.len(), Unit::Items, || {
            for m in &messages {
                black_box(theirs_match(black_box(m)));
            }
        }),
        allocs: None,
    });
    Ok(())
}

/// Built-in Nostr events (real signed events from public test suites).
const EVENTS: &str = include_str!("../../../data/nostr/events.jsonl");

/// Nostr ids and hex: ito against serde_json + sha2 and `format!("{:02x}")`.
fn nostr_section(budget: Duration, rows: &mut Vec<Row>) -> Result<(), Failure> {
    use sha2::{Digest, Sha256};
    let lines: Vec<&str> = EVENTS.lines().filter(|l| !l.trim().is_empty()).collect();
    let values: Vec<serde_json::Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l))
        .collect::<Result<_, _>>()
        .map_err(|e| Failure::msg(format!("tour: sample event: {e}")))?;
    let serde_id = |v: &serde_json::Value| -> [u8; 32] {
        let canonical = serde_json::json!([
            0,
            v["pubkey"],
            v["created_at"],
            v["kind"],
            v["tags"],
            v["content"]
        ]);
        Sha256::digest(canonical.to_string().as_bytes()).into()
    };
    let mut scratch = Vec::new();
    for (line, value) in lines.iter().zip(&values) {
        let event = ito::nostr::Event::parse_str(line)
            .map_err(|e| Failure::msg(format!("tour: sample event: {e}")))?;
        let id = ito::nostr::event_id_with(&mut scratch, &event);
        if id != serde_id(value) || id != event.id {
            return Err(Failure::msg(
                "tour: nostr id differs from the serde_json oracle",
            ));
        }
    }
    rows.push(Row {
        what: format!("nostr: parse + id of {} events", lines.len()),
        ito: measure(budget, lines.len(), Unit::Items, || {
            for line in &lines {
                if let Ok(event) = ito::nostr::Event::parse_str(black_box(line)) {
                    black_box(ito::nostr::event_id_with(&mut scratch, &event));
                }
            }
        }),
        baseline_name: "serde_json::json! + sha2",
        baseline: measure(budget, lines.len(), Unit::Items, || {
            for line in &lines {
                if let Ok(value) = serde_json::from_str::<serde_json::Value>(black_box(line)) {
                    black_box(serde_id(&value));
                }
            }
        }),
        allocs: None,
    });

    let data: Vec<u8> = (0..1usize << 20).map(|i| (i * 131 % 251) as u8).collect();
    let std_hex = |bytes: &[u8]| -> String {
        use std::fmt::Write;
        let mut s = String::with_capacity(bytes.len() * 2);
        for b in bytes {
            let _ = write!(s, "{b:02x}");
        }
        s
    };
    let mut encoded = Vec::new();
    ito::hex::encode_to_vec(&mut encoded, &data, ito::hex::Case::Lower);
    if encoded != std_hex(&data).as_bytes() {
        return Err(Failure::msg(
            "tour: hex encoding differs from format!(\"{:02x}\")",
        ));
    }
    rows.push(Row {
        what: "hex encode 1 MiB".to_string(),
        ito: measure(budget, data.len(), Unit::Bytes, || {
            encoded.clear();
            ito::hex::encode_to_vec(&mut encoded, black_box(&data), ito::hex::Case::Lower);
            black_box(&encoded);
        }),
        baseline_name: "write!(\"{:02x}\") per byte",
        baseline: measure(budget, data.len(), Unit::Bytes, || {
            black_box(std_hex(black_box(&data)));
        }),
        allocs: None,
    });
    Ok(())
}

/// Creating events: signing templates and NIP-19 strings, against
/// rust-nostr, each checked first (ito's signatures verify with rust-nostr
/// and ids agree; every string decodes to the same value in both).
#[cfg(feature = "schnorr")]
fn creation_section(budget: Duration, rows: &mut Vec<Row>) -> Result<(), Failure> {
    use ::nostr::prelude as rn;
    use ::nostr::prelude::FromBech32;
    use ito::nostr::{nip19, Event, SecretKey, UnsignedEvent};
    let fail = |what: &str| Failure::msg(format!("tour: signing and NIP-19: {what}"));
    let events: Vec<Event<'_>> = EVENTS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(Event::parse_str)
        .collect::<Result<_, _>>()
        .map_err(|e| fail(&e.to_string()))?;
    let secret = [0x42u8; 32];
    let key = SecretKey::from_bytes(&secret).map_err(|e| fail(&e.to_string()))?;
    let keys = rn::Keys::new(rn::SecretKey::from_slice(&secret).map_err(|e| fail(&e.to_string()))?);
    let templates: Vec<UnsignedEvent<'_>> = events
        .iter()
        .map(|e| UnsignedEvent {
            created_at: e.created_at,
            kind: e.kind,
            tags: e.tags,
            content: e.content.clone(),
        })
        .collect();
    let their_templates: Vec<rn::UnsignedEvent> = events
        .iter()
        .map(|e| {
            let tags: Vec<rn::Tag> = e
                .tags
                .to_vec()
                .into_iter()
                .filter_map(|t| rn::Tag::parse(t).ok())
                .collect();
            rn::UnsignedEvent::new(
                keys.public_key(),
                rn::Timestamp::from(e.created_at),
                rn::Kind::from(e.kind),
                tags,
                e.content.to_string(),
            )
        })
        .collect();
    let mut json = Vec::new();
    for (ours, theirs) in templates.iter().zip(&their_templates) {
        let signed = ours.sign(&key);
        json.clear();
        signed.to_json(&mut json);
        let parsed = rn::Event::from_json(&json)
            .map_err(|_| fail("rust-nostr cannot read a signed event"))?;
        if parsed.verify().is_err() {
            return Err(fail("rust-nostr rejects ito's signature"));
        }
        if theirs.compute_id().to_bytes() != signed.id {
            return Err(fail("ito's id differs from rust-nostr's"));
        }
    }
    rows.push(Row {
        what: format!("nostr: sign {} templates (id + BIP-340)", templates.len()),
        ito: measure(budget, templates.len(), Unit::Items, || {
            for t in &templates {
                black_box(black_box(t).sign(&key));
            }
        }),
        baseline_name: "nostr crate (rust-nostr 0.45)",
        baseline: measure(budget, templates.len(), Unit::Items, || {
            for t in &their_templates {
                let _ = black_box(rn::SignEvent::sign_event(&keys, black_box(t).clone()));
            }
        }),
        allocs: None,
    });

    // npub, note, nprofile and nevent strings of the sample events.
    let relays = vec![
        "wss://relay.damus.io".to_string(),
        "wss://nos.lol".to_string(),
    ];
    let mut strings = Vec::new();
    for e in &events {
        strings.push(nip19::encode_npub(&e.pubkey));
        strings.push(nip19::encode_note(&e.id));
        let profile = nip19::ProfilePointer {
            pubkey: e.pubkey,
            relays: relays.clone(),
        };
        strings.push(profile.encode().map_err(|e| fail(&e.to_string()))?);
        let pointer = nip19::EventPointer {
            id: e.id,
            relays: relays.clone(),
            author: Some(e.pubkey),
            kind: Some(e.kind.into()),
        };
        strings.push(pointer.encode().map_err(|e| fail(&e.to_string()))?);
    }
    let ours = |s: &str| nip19::decode(s).ok();
    let theirs = |s: &str| rn::Nip19::from_bech32(s).ok();
    for s in &strings {
        let same = match (ours(s), theirs(s)) {
            (Some(nip19::Nip19::Npub(a)), Some(rn::Nip19::Pubkey(b))) => a == b.to_bytes(),
            (Some(nip19::Nip19::Note(a)), Some(rn::Nip19::EventId(b))) => a == b.to_bytes(),
            (Some(nip19::Nip19::Nprofile(a)), Some(rn::Nip19::Profile(b))) => {
                a.pubkey == b.public_key.to_bytes()
                    && a.relays.iter().eq(b.relays.iter().map(|r| r.as_str()))
            }
            (Some(nip19::Nip19::Nevent(a)), Some(rn::Nip19::Event(b))) => {
                a.id == b.event_id.to_bytes()
                    && a.author == b.author.map(|k| k.to_bytes())
                    && a.kind == b.kind.map(|k| u32::from(k.as_u16()))
                    && a.relays.iter().eq(b.relays.iter().map(|r| r.as_str()))
            }
            _ => false,
        };
        if !same {
            return Err(fail("a NIP-19 string decodes differently in rust-nostr"));
        }
    }
    rows.push(Row {
        what: format!(
            "nostr: NIP-19 decode {} npub/note/nprofile/nevent",
            strings.len()
        ),
        ito: measure(budget, strings.len(), Unit::Items, || {
            for s in &strings {
                black_box(ours(black_box(s)));
            }
        }),
        baseline_name: "nostr crate (rust-nostr 0.45)",
        baseline: measure(budget, strings.len(), Unit::Items, || {
            for s in &strings {
                black_box(theirs(black_box(s)));
            }
        }),
        allocs: None,
    });
    Ok(())
}

pub(crate) fn run(args: &TourArgs) -> Result<(), Failure> {
    let budget = Duration::from_millis(args.millis.max(3));
    let corpus = Corpus::load();
    crate::io::outln!(
        "ito tour — built-in corpus: twitter.json + citm_catalog.json ({} strings, {} bytes); SIMD kernel: {}",
        corpus.strings.len(),
        corpus.bytes,
        ito::Kernel::best()
    );
    crate::io::outln!("Every ito result below was first checked against the baseline's output.\n");
    let mut rows = Vec::new();
    json_section(&corpus, budget, &mut rows)?;
    documents_section(budget, &mut rows)?;
    interpolation_section(budget, &mut rows)?;
    interning_section(budget, &mut rows)?;
    nostr_section(budget, &mut rows)?;
    relay_section(budget, &mut rows)?;
    #[cfg(feature = "schnorr")]
    creation_section(budget, &mut rows)?;
    print_table(&rows);
    crate::io::outln!("\n{}", crate::tour_relay::run(EVENTS)?);
    Ok(())
}

fn print_table(rows: &[Row]) {
    let width = rows
        .iter()
        .map(|r| r.what.chars().count())
        .max()
        .unwrap_or(0)
        .max(10);
    let base_width = rows
        .iter()
        .map(|r| r.baseline_name.len())
        .max()
        .unwrap_or(0)
        .max(8);
    crate::io::outln!(
        "{:width$}  {:>12}  {:base_width$}  {:>12}  {:>7}  {:>13}",
        "what",
        "ito",
        "baseline",
        "baseline",
        "ratio",
        "allocs/call"
    );
    for row in rows {
        let allocs = match row.allocs {
            Some((ours, theirs)) => format!("{ours:.0} vs {theirs:.0}"),
            None => String::new(),
        };
        let pad = width - row.what.chars().count();
        crate::io::outln!(
            "{}{:pad$}  {}  {:base_width$}  {}  {:6.1}×  {:>13}",
            row.what,
            "",
            row.ito,
            row.baseline_name,
            row.baseline,
            row.ito.per_sec / row.baseline.per_sec.max(f64::MIN_POSITIVE),
            allocs
        );
    }
}
