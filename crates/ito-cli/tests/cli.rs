//! End-to-end tests of the `ito` binary: output bytes, exit status,
//! `file:line:col` diagnostics and atomic `-o`.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn ito(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ito"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ito runs");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ito-cli-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn quote_matches_serde_json_and_round_trips() {
    let text = "tab\there \"quoted\" \u{1}\u{1F600}\\ end";
    let out = ito(&["json", "quote"], text.as_bytes());
    assert!(out.status.success());
    let expected = serde_json::to_string(text).unwrap() + "\n";
    assert_eq!(String::from_utf8(out.stdout.clone()).unwrap(), expected);

    let back = ito(&["json", "unquote"], &out.stdout);
    assert!(
        back.status.success(),
        "{}",
        String::from_utf8_lossy(&back.stderr)
    );
    assert_eq!(back.stdout, text.as_bytes());
}

#[test]
fn escape_unescape_lines() {
    let out = ito(&["json", "escape", "--lines"], b"a\"b\nc\\d\n");
    assert_eq!(out.stdout, b"a\\\"b\nc\\\\d\n");
    let back = ito(&["json", "unescape", "--lines"], &out.stdout);
    assert_eq!(back.stdout, b"a\"b\nc\\d\n");
}

#[test]
fn errors_name_file_line_and_column_and_fail() {
    let dir = temp_dir("errors");
    let input = dir.join("in.txt");
    std::fs::write(&input, "ok\nbad \\u12\n").unwrap();
    let out = ito(
        &["json", "unescape", "--lines", input.to_str().unwrap()],
        b"",
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with(&format!("{}:2:5: unexpected end of input", input.display())),
        "{stderr}"
    );

    let out = ito(&["json", "quote"], b"ab\xFFcd");
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "<stdin>:1:3: invalid UTF-8\n"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn output_file_is_written_atomically() {
    let dir = temp_dir("atomic");
    let dest = dir.join("out.json");
    std::fs::write(&dest, "previous").unwrap();

    // A failing run leaves the previous file untouched and no temporary.
    let out = ito(
        &["json", "unquote", "-o", dest.to_str().unwrap()],
        b"\"x\\q\"",
    );
    assert!(!out.status.success());
    assert_eq!(std::fs::read_to_string(&dest).unwrap(), "previous");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);

    let out = ito(&["json", "quote", "-o", dest.to_str().unwrap()], b"new");
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&dest).unwrap(), "\"new\"\n");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn unquote_rejects_trailing_text() {
    let out = ito(&["json", "unquote"], b"  \"a\" x");
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "<stdin>:1:7: unexpected text after the closing quote\n"
    );
}

#[test]
fn hex_round_trip_and_errors() {
    let data: Vec<u8> = (0..=255u8).collect();
    let out = ito(&["hex", "encode"], &data);
    assert!(out.status.success());
    let mut expected = String::new();
    for b in &data {
        expected.push_str(&format!("{b:02x}"));
    }
    expected.push('\n');
    assert_eq!(String::from_utf8(out.stdout.clone()).unwrap(), expected);
    let back = ito(&["hex", "decode"], &out.stdout);
    assert_eq!(back.stdout, data);

    let bad = ito(&["hex", "decode", "--strict-lower"], b"00\n0A\n");
    assert!(!bad.status.success());
    assert!(String::from_utf8(bad.stderr)
        .unwrap()
        .starts_with("<stdin>:2:2: "));
}

const EVENTS: &str = include_str!("../../../data/nostr/events.jsonl");

#[test]
fn nostr_id_prints_each_events_id() {
    let out = ito(&["nostr", "id"], EVENTS.as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ids: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    let claimed: Vec<String> = EVENTS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(ids, claimed);
}

#[test]
fn nostr_verify_reports_bad_events_and_fails() {
    let good = ito(&["nostr", "verify"], EVENTS.as_bytes());
    assert!(
        good.status.success(),
        "{}",
        String::from_utf8_lossy(&good.stdout)
    );

    let first = EVENTS.lines().next().unwrap();
    let mut value: serde_json::Value = serde_json::from_str(first).unwrap();
    value["content"] = serde_json::Value::String("tampered".into());
    let input = format!("{first}\n{value}\n{{\"id\": 5}}\n");
    let out = ito(&["nostr", "verify"], input.as_bytes());
    assert!(!out.status.success());
    let report = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines.len(), 2, "{report}");
    assert!(lines[0].starts_with("<stdin>:2:1: id mismatch"), "{report}");
    // `{"id": 5}`: the number is at byte 7, column 8.
    assert!(lines[1].starts_with("<stdin>:3:8: "), "{report}");
    let summary = String::from_utf8(out.stderr).unwrap();
    assert!(summary.contains("3 events: 1 ok, 2 bad"), "{summary}");
}

/// Each failing-exit path with exactly one bad input among good ones: a
/// test with two or more would not notice a `bad > 1` threshold.
#[test]
fn nostr_verify_fails_on_exactly_one_bad_event() {
    let first = EVENTS.lines().next().unwrap();
    let mut value: serde_json::Value = serde_json::from_str(first).unwrap();
    value["content"] = serde_json::Value::String("tampered".into());
    for (bad, col, reason) in [
        (value.to_string(), 1, "id mismatch"),
        ("{\"id\": 5}".to_string(), 8, ""),
    ] {
        let input = format!("{first}\n{bad}\n{first}\n");
        for args in [&["nostr", "verify"][..], &["nostr", "verify", "--id-only"]] {
            let out = ito(args, input.as_bytes());
            assert!(
                !out.status.success(),
                "{args:?}: one bad event must fail the run"
            );
            let report = String::from_utf8(out.stdout).unwrap();
            assert_eq!(report.lines().count(), 1, "{report}");
            assert!(
                report.starts_with(&format!("<stdin>:2:{col}: {reason}")),
                "{report}"
            );
            let summary = String::from_utf8(out.stderr).unwrap();
            assert!(summary.contains("3 events: 2 ok, 1 bad"), "{summary}");
        }
    }
}

#[test]
fn nostr_filter_and_id_fail_on_exactly_one_bad_line() {
    let first = EVENTS.lines().next().unwrap();
    let input = format!("{first}\n{{\"id\": 5}}\n{first}\n");
    let out = ito(&["nostr", "filter", "--kinds", "1"], input.as_bytes());
    assert!(!out.status.success(), "one bad line must fail the run");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with("<stdin>:2:8: "), "{stderr}");
    assert!(stderr.contains("1 line(s) were not events"), "{stderr}");

    let out = ito(&["nostr", "id"], input.as_bytes());
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with("<stdin>:2:8: "), "{stderr}");
}

#[test]
fn intern_stats_counts() {
    let out = ito(&["intern", "stats", "--top", "1"], b"a\nbb\na\na\n");
    assert!(out.status.success());
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(report.contains("lines:          4\n"), "{report}");
    assert!(report.contains("distinct:       2\n"), "{report}");
    assert!(report.contains("bytes saved:    2 "), "{report}");
    assert!(report.contains("3  \"a\""), "{report}");
}

#[test]
fn tour_runs_and_checks_every_section() {
    let out = ito(&["tour", "--millis", "3"], b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8(out.stdout).unwrap();
    for section in [
        "json quote",
        "json unquote",
        "format:",
        "intern",
        "nostr",
        "hex encode",
        "relay: ito-relay on ws://127.0.0.1:",
        "all checked",
    ] {
        assert!(table.contains(section), "missing {section}: {table}");
    }
}
