//! The streaming commands: bounded memory on large inputs, output in input
//! order on any number of threads, `nostr filter`, and a quiet exit on a
//! closed output pipe for every command.

use std::io::{Read, Write};
use std::process::{Command, Stdio};

const EVENTS: &str = include_str!("../../../data/nostr/events.jsonl");

fn ito() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ito"))
}

fn run(args: &[&str], stdin: &[u8], threads: Option<usize>) -> std::process::Output {
    let mut cmd = ito();
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(n) = threads {
        cmd.env("RAYON_NUM_THREADS", n.to_string());
    }
    let mut child = cmd.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn field(line: &str, key: &str) -> serde_json::Value {
    serde_json::from_str::<serde_json::Value>(line).unwrap()[key].clone()
}

#[test]
fn ids_keep_input_order_across_chunks_and_threads() {
    // ~14 MB: several 4 MiB chunks.
    let mut input = String::new();
    let mut expected = String::new();
    for i in 0..3000 {
        for line in EVENTS.lines() {
            input.push_str(line);
            input.push('\n');
            expected.push_str(field(line, "id").as_str().unwrap());
            expected.push('\n');
        }
        if i % 100 == 0 {
            input.push_str("  \n");
        }
    }
    for threads in [1, 2, 3] {
        let out = run(&["nostr", "id"], input.as_bytes(), Some(threads));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stdout == expected.as_bytes(),
            "{threads} threads: ids out of order"
        );
    }
}

#[test]
fn verify_reports_bad_lines_in_order() {
    let mut input = String::new();
    let mut bad = Vec::new();
    for i in 0..500 {
        let line = EVENTS.lines().nth(i % 9).unwrap();
        if i % 37 == 5 {
            input.push_str(&line.replacen("\"kind\":", "\"kind\": ", 1).replacen(
                "\"content\":\"",
                "\"content\":\"x",
                1,
            ));
            bad.push(i + 1);
        } else {
            input.push_str(line);
        }
        input.push('\n');
    }
    let out = run(&["nostr", "verify"], input.as_bytes(), Some(2));
    assert!(!out.status.success());
    let report = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<usize> = report
        .lines()
        .map(|l| l.split(':').nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(lines, bad, "{report}");
    assert!(String::from_utf8_lossy(&out.stderr).contains(&format!(
        "500 events: {} ok, {} bad",
        500 - bad.len(),
        bad.len()
    )));
}

#[test]
fn filter_by_flags_and_by_req() {
    let lines: Vec<&str> = EVENTS.lines().collect();
    let kind = |l: &str| field(l, "kind").as_u64().unwrap();
    let created = |l: &str| field(l, "created_at").as_u64().unwrap();
    let pubkey = |l: &str| field(l, "pubkey").as_str().unwrap().to_string();

    // --kinds 1,7 --since T
    let since = 1_680_000_000;
    let out = run(
        &[
            "nostr",
            "filter",
            "--kinds",
            "1,7",
            "--since",
            &since.to_string(),
        ],
        EVENTS.as_bytes(),
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want: String = lines
        .iter()
        .filter(|l| matches!(kind(l), 1 | 7) && created(l) >= since)
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), want);

    // --authors HEX: every event by the first event's author.
    let author = pubkey(lines[0]);
    let out = run(
        &["nostr", "filter", "--authors", &author],
        EVENTS.as_bytes(),
        None,
    );
    let want: String = lines
        .iter()
        .filter(|l| pubkey(l) == author)
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(!want.is_empty());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), want);

    // --req: two filters, any may match; whitespace and CRLF in the file.
    let dir = std::env::temp_dir().join(format!("ito-filter-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let req = dir.join("req.json");
    std::fs::write(&req, format!("[\"REQ\",\r\n \"s\",\r\n {{\"kinds\": [3]}},\r\n {{\"authors\": [\"{author}\"], \"until\": 1700000000}}]\r\n")).unwrap();
    let events_file = dir.join("events.jsonl");
    std::fs::write(&events_file, EVENTS).unwrap();
    let out = run(
        &[
            "nostr",
            "filter",
            "--req",
            req.to_str().unwrap(),
            events_file.to_str().unwrap(),
        ],
        b"",
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want: String = lines
        .iter()
        .filter(|l| kind(l) == 3 || (pubkey(l) == author && created(l) <= 1_700_000_000))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), want);

    // A bad REQ file: file:line:col and failure.
    std::fs::write(&req, "[\"REQ\",\n\"s\",\n{\"kinds\": [1, -1]}]").unwrap();
    let out = run(
        &["nostr", "filter", "--req", req.to_str().unwrap()],
        EVENTS.as_bytes(),
        None,
    );
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with(&format!("{}:3:15: ", req.display())),
        "{err}"
    );
    std::fs::remove_dir_all(dir).unwrap();

    // A line that is not an event: reported, the rest still filtered.
    let input = format!("{}\nnot json\n{}\n", lines[0], lines[1]);
    let out = run(&["nostr", "filter", "--kinds", "1"], input.as_bytes(), None);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("<stdin>:2:1: "));
    assert_eq!(
        out.stdout.iter().filter(|&&b| b == b'\n').count(),
        [lines[0], lines[1]].iter().filter(|l| kind(l) == 1).count()
    );
}

/// Every command, with stdout closed before it writes: status 0, nothing on
/// stderr.
#[test]
fn closed_output_pipe_is_a_quiet_success() {
    let big_events = EVENTS.repeat(2000);
    let text = "line with \"quotes\"\n".repeat(200_000);
    let escaped = "line with \\\"quotes\\\"\n".repeat(200_000);
    let events: Vec<&str> = EVENTS.lines().filter(|l| !l.trim().is_empty()).collect();
    let document = format!("[{}]", vec![events.join(",\n"); 300].join(",\n"));
    let cases: Vec<(Vec<&str>, &[u8])> = vec![
        (vec!["nostr", "id"], big_events.as_bytes()),
        (vec!["nostr", "verify", "--id-only"], big_events.as_bytes()),
        (
            vec!["nostr", "filter", "--kinds", "1"],
            big_events.as_bytes(),
        ),
        (vec!["json", "quote"], text.as_bytes()),
        (vec!["json", "escape", "--lines"], text.as_bytes()),
        (vec!["json", "unescape", "--lines"], escaped.as_bytes()),
        (vec!["json", "fmt", "--lines"], big_events.as_bytes()),
        (
            vec!["json", "fmt", "--pretty", "--lines"],
            big_events.as_bytes(),
        ),
        (vec!["json", "fmt"], document.as_bytes()),
        (vec!["json", "fmt", "--pretty"], document.as_bytes()),
        (vec!["hex", "encode"], text.as_bytes()),
        (vec!["intern", "stats"], text.as_bytes()),
        (vec!["tour", "--millis", "3"], b""),
    ];
    for (args, input) in cases {
        let mut child = ito()
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // the reader goes away at once
        let mut stdin = child.stdin.take().unwrap();
        let data = input.to_vec();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&data);
        });
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let status = child.wait().unwrap();
        writer.join().unwrap();
        // `verify --id-only` writes nothing for good events and the summary
        // goes to stderr: it simply succeeds.
        assert!(status.success(), "{args:?}: {status} {stderr}");
        if args[1] != "verify" {
            assert_eq!(stderr, "", "{args:?}");
        }
    }
}

/// The child's peak resident memory so far (`VmHWM` of its own address
/// space; `wait4`'s `ru_maxrss` would also count the test process's pages
/// that the child held between fork and exec).
#[cfg(target_os = "linux")]
fn vm_hwm(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// Streams `total` bytes of events into `ito args` through a pipe and
/// returns the child's peak resident memory, polled while it runs.
#[cfg(target_os = "linux")]
fn peak_memory(args: &[&str], total: usize, tamper: bool) -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;
    let mut child = ito()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let peak = Arc::new(AtomicU64::new(0));
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut block = EVENTS.repeat(64);
    if tamper {
        block = block.replacen("\"kind\":1,", "\"kind\":2,", 1);
    }
    let writer_peak = Arc::clone(&peak);
    let writer = std::thread::spawn(move || {
        let mut sent = 0;
        while sent < total {
            stdin.write_all(block.as_bytes()).unwrap();
            sent += block.len();
            writer_peak.fetch_max(vm_hwm(pid), Ordering::Relaxed);
        }
    });
    let reader_peak = Arc::clone(&peak);
    let reader = std::thread::spawn(move || {
        let mut sink = [0u8; 1 << 16];
        let mut n = 0u64;
        while let Ok(k) = stdout.read(&mut sink) {
            if k == 0 {
                break;
            }
            n += k as u64;
            reader_peak.fetch_max(vm_hwm(pid), Ordering::Relaxed);
        }
        n
    });
    writer.join().unwrap();
    let output_bytes = reader.join().unwrap();
    let status = child.wait().unwrap();
    if !tamper {
        assert!(status.success(), "{args:?}");
    }
    let rss = peak.load(Ordering::Relaxed);
    assert!(rss > 0, "VmHWM never read");
    eprintln!(
        "{args:?}: {} MiB in, {output_bytes} bytes out, peak RSS {:.1} MiB",
        total >> 20,
        rss as f64 / (1 << 20) as f64
    );
    rss
}

const LIMIT: u64 = 64 << 20;

/// 96 MiB through each streaming command: the old whole-input reading held
/// more than that; streaming stays far below 64 MiB.
#[cfg(target_os = "linux")]
#[test]
fn streaming_commands_use_bounded_memory() {
    let total = 96 << 20;
    for args in [
        &["nostr", "id"][..],
        &["nostr", "verify", "--id-only"],
        &["nostr", "filter", "--kinds", "1"],
        &["json", "escape", "--lines"],
        &["json", "check", "--lines"],
        &["json", "fmt", "--lines"],
    ] {
        let rss = peak_memory(args, total, false);
        assert!(rss < LIMIT, "{args:?}: peak RSS {rss} bytes");
    }
    // Bad events reported on every chunk do not grow memory either.
    assert!(peak_memory(&["nostr", "verify", "--id-only"], total, true) < LIMIT);
}

/// The operator's case at archive scale: 640 MiB of events, ids and
/// signatures checked (opt-in: `cargo test -p ito-cli --test streaming --
/// --ignored`; about a minute on 2 cores).
#[cfg(target_os = "linux")]
#[test]
#[ignore]
fn archive_scale_verify_uses_bounded_memory() {
    for args in [&["nostr", "verify"][..], &["nostr", "id"]] {
        let rss = peak_memory(args, 640 << 20, false);
        assert!(rss < LIMIT, "{args:?}: peak RSS {rss} bytes");
    }
}
