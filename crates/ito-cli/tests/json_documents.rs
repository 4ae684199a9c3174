//! `ito json check` and `ito json fmt`: layout changes only (every token
//! byte for byte), serde_json's pretty layout, `file:line:col: message`
//! reports, the exit status with exactly one bad document, atomic `-o`.

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
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// The report line for `doc` (line `line_no` of `name`) built from
/// serde_json's own error: its line and column, its message without the
/// " at line L column C" tail.
fn serde_json_report(name: &str, line_no: usize, doc: &[u8]) -> String {
    let e = serde_json::from_slice::<serde_json::Value>(doc).unwrap_err();
    let message = e.to_string();
    let tail = format!(" at line {} column {}", e.line(), e.column());
    let message = message.strip_suffix(&tail).unwrap();
    format!(
        "{name}:{}:{}: {message}\n",
        line_no + e.line() - 1,
        e.column()
    )
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ito-json-doc-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const TWITTER: &str = include_str!("../../../data/corpus/twitter.json");
const CITM: &str = include_str!("../../../data/corpus/citm_catalog.json");
const CANADA: &str = include_str!("../../../data/corpus/canada.json");
const EVENTS: &str = include_str!("../../../data/nostr/events.jsonl");

/// `{"a": [1, "x"], "b": {}}` with `ws` between every pair of tokens.
fn spaced(ws: &str) -> String {
    let tokens = [
        "{", "\"a\"", ":", "[", "1", ",", "\"x\"", "]", ",", "\"b\"", ":", "{", "}", "}",
    ];
    let mut doc = ws.to_string();
    for t in tokens {
        doc.push_str(t);
        doc.push_str(ws);
    }
    doc
}

#[test]
fn every_whitespace_byte_between_tokens_is_dropped_or_laid_out() {
    for ws in [" ", "\t", "\n", "\r", " \t\n\r", "\r\n"] {
        let doc = spaced(ws);
        let compact = ito(&["json", "fmt"], doc.as_bytes());
        assert!(compact.status.success(), "{}", text(&compact.stderr));
        assert_eq!(
            text(&compact.stdout),
            "{\"a\":[1,\"x\"],\"b\":{}}\n",
            "{ws:?}"
        );
        let pretty = ito(&["json", "fmt", "--pretty"], doc.as_bytes());
        assert_eq!(
            text(&pretty.stdout),
            "{\n  \"a\": [\n    1,\n    \"x\"\n  ],\n  \"b\": {}\n}\n",
            "{ws:?}"
        );
        let check = ito(&["json", "check"], doc.as_bytes());
        assert!(check.status.success(), "{ws:?}: {}", text(&check.stdout));
    }
}

#[test]
fn every_escape_spelling_and_number_spelling_is_kept() {
    let strings = [
        r#""\"\\\/\b\f\n\r\t""#,
        r#""\u0000\u001f\u0041\u00e9\u00E9\u2028\uD83D\uDE00\ud83d\ude00""#,
        r#""é😀 raw UTF-8, [structure] {in} : strings, \" ""#,
        r#""""#,
    ];
    let numbers = [
        "0",
        "-0",
        "-0.0",
        "1E2",
        "1e+2",
        "1E-2",
        "1.0e300",
        "0.10",
        "123456789012345678901234567890",
    ];
    let mut items: Vec<&str> = strings.to_vec();
    items.extend(numbers);
    items.extend(["true", "false", "null"]);
    let compact = format!("[{}]", items.join(","));
    let loose = format!("[ {} ]", items.join(" ,\n\t"));
    let out = ito(&["json", "fmt", "--compact"], loose.as_bytes());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), compact + "\n");
    let out = ito(&["json", "fmt", "--pretty"], loose.as_bytes());
    let pretty = format!("[\n  {}\n]\n", items.join(",\n  "));
    assert_eq!(text(&out.stdout), pretty);
    // As object keys too.
    let object: Vec<String> = strings.iter().map(|s| format!("{s} : 1")).collect();
    let out = ito(
        &["json", "fmt"],
        format!("{{ {} }}", object.join(" , ")).as_bytes(),
    );
    let want: Vec<String> = strings.iter().map(|s| format!("{s}:1")).collect();
    assert_eq!(text(&out.stdout), format!("{{{}}}\n", want.join(",")));
}

#[test]
fn pretty_is_serde_jsons_layout() {
    for (name, doc) in [("twitter", TWITTER), ("citm", CITM), ("canada", CANADA)] {
        let value: serde_json::Value = serde_json::from_str(doc).unwrap();
        // The corpora spell some numbers and escapes as serde_json would
        // not (`\/`, `1.0E2`); compare on serde_json's own rendering.
        let canonical = serde_json::to_string(&value).unwrap();
        let out = ito(&["json", "fmt", "--pretty"], canonical.as_bytes());
        assert!(out.status.success(), "{name}");
        assert!(
            out.stdout == (serde_json::to_string_pretty(&value).unwrap() + "\n").as_bytes(),
            "{name}: pretty layout differs"
        );
        // Compact after pretty gives serde_json's compact bytes back.
        let back = ito(&["json", "fmt", "--compact"], &out.stdout);
        assert!(back.stdout == (canonical + "\n").as_bytes(), "{name}");
    }
}

#[test]
fn lines_keep_their_order_and_layout_per_line() {
    let mut input = String::new();
    let mut want = String::new();
    for i in 0..2000 {
        let line = EVENTS
            .lines()
            .filter(|l| !l.trim().is_empty())
            .nth(i % 9)
            .unwrap();
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        input.push_str(&pretty.replace('\n', " "));
        input.push('\n');
        if i % 100 == 0 {
            input.push_str(" \t\n");
        }
        // serde_json's Value sorts keys: its compact rendering of the
        // same value is the expected line.
        want.push_str(&serde_json::to_string(&value).unwrap());
        want.push('\n');
    }
    let out = ito(&["json", "fmt", "--lines"], input.as_bytes());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stdout == want.as_bytes(), "compact lines differ");
    let check = ito(&["json", "check", "--lines"], input.as_bytes());
    assert!(check.status.success());
    assert_eq!(
        text(&check.stderr),
        "2000 documents: 2000 valid, 0 invalid\n"
    );
}

#[test]
fn check_reports_file_line_col_message_and_fails_on_one_bad_document() {
    let dir = temp_dir("check");
    let good = dir.join("good.json");
    let bad = dir.join("bad.json");
    std::fs::write(&good, "{\"a\": [1, 2]}\n").unwrap();
    // Line 2, serde_json's column 7: "expected `,` or `]`".
    std::fs::write(&bad, "{\"a\":\n  [1, 2 3]}\n").unwrap();
    let (g, b) = (good.to_str().unwrap(), bad.to_str().unwrap());

    let out = ito(&["json", "check", g], b"");
    assert!(out.status.success());
    let out = ito(&["json", "check", g, b, g], b"");
    assert!(!out.status.success(), "one bad document must fail the run");
    assert_eq!(text(&out.stdout), format!("{b}:2:9: expected `,` or `]`\n"));
    assert_eq!(
        text(&out.stderr),
        "3 documents: 2 valid, 1 invalid\n1 invalid document(s)\n"
    );
    // The same position and message as serde_json's own error.
    let e = serde_json::from_str::<serde_json::Value>("{\"a\":\n  [1, 2 3]}").unwrap_err();
    assert_eq!(e.to_string(), "expected `,` or `]` at line 2 column 9");

    // --lines: exactly one bad line among good ones.
    let lines = "[1]\n\n{\"a\":1,}\n\"x\"\n";
    let out = ito(&["json", "check", "--lines"], lines.as_bytes());
    assert!(!out.status.success(), "one bad line must fail the run");
    assert_eq!(text(&out.stdout), "<stdin>:3:8: trailing comma\n");
    assert!(text(&out.stderr).starts_with("3 documents: 2 valid, 1 invalid\n"));

    // End of input, trailing characters, invalid UTF-8.
    for doc in [
        &b"[1, "[..],
        b"[1] x",
        b"\"\xFF\"",
        b"",
        b"[1,]",
        b"{\"a\" 1}",
        b"\"\\ud800\"",
        b"\"a\tb\"",
        b"01",
        b"[1e]",
        b"nul",
        // serde_json's number semantics: a float beyond f64 is refused.
        b"[1.0e400]",
    ] {
        let out = ito(&["json", "check"], doc);
        assert!(!out.status.success());
        assert_eq!(text(&out.stdout), serde_json_report("<stdin>", 1, doc));
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn fmt_fails_on_one_bad_document_and_writes_nothing() {
    let dir = temp_dir("fmt");
    let dest = dir.join("out.json");
    let d = dest.to_str().unwrap();
    let out = ito(&["json", "fmt", "-o", d], b"[1,\n2,]");
    assert!(!out.status.success());
    assert_eq!(
        text(&out.stderr),
        serde_json_report("<stdin>", 1, b"[1,\n2,]")
    );
    assert!(out.stdout.is_empty());
    assert!(!dest.exists(), "no output file on failure");
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "temporary file left"
    );

    // --lines: one bad line after good ones; the file is not created.
    let out = ito(
        &["json", "fmt", "--lines", "-o", d],
        b"[1]\n[2]\n[3,]\n[4]\n",
    );
    assert!(!out.status.success());
    assert_eq!(text(&out.stderr), serde_json_report("<stdin>", 3, b"[3,]"));
    assert!(!dest.exists());
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);

    // Several files: the bad one is named and nothing is written, not
    // even the good file's output.
    let good = dir.join("good.json");
    let bad = dir.join("bad.json");
    std::fs::write(&good, "[ 1 ]").unwrap();
    std::fs::write(&bad, "{]").unwrap();
    let out = ito(
        &["json", "fmt", good.to_str().unwrap(), bad.to_str().unwrap()],
        b"",
    );
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert_eq!(
        text(&out.stderr),
        format!("{}:1:2: key must be a string\n", bad.display())
    );

    // Success replaces the file atomically.
    std::fs::write(&dest, "old").unwrap();
    let out = ito(&["json", "fmt", "-o", d, good.to_str().unwrap()], b"");
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(&dest).unwrap(), "[1]\n");
    std::fs::remove_dir_all(dir).unwrap();
}

/// `ito json get`: the value at a jq-style path, compact, against
/// serde_json's `Value::pointer` on the corpus; `null` where it does not
/// exist; JSON lines in order; `file:line:col` for an invalid document.
#[test]
fn get_prints_the_value_at_a_path() {
    let twitter = TWITTER.as_bytes();
    let value: serde_json::Value = serde_json::from_slice(twitter).unwrap();
    for (path, pointer) in [
        (
            ".statuses[0].user.screen_name",
            "/statuses/0/user/screen_name",
        ),
        (".statuses[99].id_str", "/statuses/99/id_str"),
        (".search_metadata", "/search_metadata"),
        (
            r#".statuses[3]["entities"].hashtags"#,
            "/statuses/3/entities/hashtags",
        ),
        (".statuses[100]", "/statuses/100"),
        (".nope.deeper", "/nope/deeper"),
    ] {
        let out = ito(&["json", "get", path], twitter);
        assert!(out.status.success(), "{path}: {}", text(&out.stderr));
        let want = value
            .pointer(pointer)
            .cloned()
            .unwrap_or(serde_json::Value::Null);
        let got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(got, want, "{path}");
        assert_eq!(
            out.stdout.iter().filter(|&&b| b == b'\n').count(),
            1,
            "one line"
        );
    }
    let lines = b"{\"a\":{\"b\":[1, 2]}}\n\n{\"a\":null}\n{\"b\":1}\n{\"a\":{\"b\":[3,\n";
    let out = ito(&["json", "get", "--lines", ".a.b[1]"], lines);
    assert!(!out.status.success());
    assert_eq!(text(&out.stdout), "2\nnull\nnull\n");
    assert!(
        text(&out.stderr).starts_with("<stdin>:5:"),
        "{}",
        text(&out.stderr)
    );
    let bad_path = ito(&["json", "get", ".a..b"], b"{}");
    assert!(!bad_path.status.success());
    assert!(text(&bad_path.stderr).contains("path `.a..b`"));
}

#[test]
fn fmt_sort_keys_orders_members_and_keeps_spellings() {
    let doc = "{ \"b\" : [ {\"y\":1, \"x\" : 2.50} ], \"\\u0061\" : \"\\/\", \"a\": null }\n";
    let out = ito(&["json", "fmt", "--sort-keys"], doc.as_bytes());
    assert!(out.status.success(), "{}", text(&out.stderr));
    // `"\u0061"` is `"a"`: equal keys keep their document order.
    assert_eq!(
        text(&out.stdout),
        "{\"\\u0061\":\"\\/\",\"a\":null,\"b\":[{\"x\":2.50,\"y\":1}]}\n"
    );
    let out = ito(&["json", "fmt", "--sort-keys", "--pretty"], doc.as_bytes());
    assert_eq!(
        text(&out.stdout),
        "{\n  \"\\u0061\": \"\\/\",\n  \"a\": null,\n  \"b\": [\n    {\n      \"x\": 2.50,\n      \"y\": 1\n    }\n  ]\n}\n"
    );
    let lines = "{\"b\":1,\"a\":2}\n\n[{\"d\":0,\"c\":0}]\n";
    let out = ito(&["json", "fmt", "--sort-keys", "--lines"], lines.as_bytes());
    assert_eq!(
        text(&out.stdout),
        "{\"a\":2,\"b\":1}\n[{\"c\":0,\"d\":0}]\n"
    );
    // Invalid input is reported as without the flag.
    let out = ito(&["json", "fmt", "--sort-keys"], b"{\"b\":1,}");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("1:8:"), "{}", text(&out.stderr));
}
