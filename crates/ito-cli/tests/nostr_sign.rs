//! `ito nostr sign` and `ito nostr nip19`: signed events verify with
//! rust-nostr, keys come only from files or the environment and never show
//! in messages, NIP-19 strings round-trip, and one bad input fails with
//! `file:line:col: message`.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use nostr::prelude as oracle;

const KEY: &str = "7f7ff03d123792d6ac594bfa67bf6d0c0ab55b6b1fdb6249303fe861f1ccba9a";

fn ito(args: &[&str], env: &[(&str, &str)], stdin: &[u8]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ito"));
    cmd.args(args)
        .env_remove("NOSTR_SECRET_KEY")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("ito runs");
    // A command that fails early may close stdin before reading it.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn temp_file(name: &str, contents: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("ito-sign-test-{name}-{}", std::process::id()));
    std::fs::write(&path, contents).unwrap();
    path
}

const TEMPLATES: &str = concat!(
    r#"{"created_at":1700000000,"kind":1,"tags":[["t","nostr"]],"content":"gm"}"#,
    "\n\n",
    r#"{"kind":7,"content":"+","tags":[["e","abc"]],"created_at":1700000001}"#,
    "\n",
    r#"{"created_at":1700000002,"kind":1,"tags":[],"content":"line\nbreak \u00e9 \ud83d\ude00"}"#,
    "\n",
);

#[test]
#[cfg(feature = "schnorr")]
fn signed_events_verify_with_rust_nostr_and_ito() {
    let out = ito(
        &["nostr", "sign"],
        &[("NOSTR_SECRET_KEY", KEY)],
        TEMPLATES.as_bytes(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "the blank line is skipped");
    let keys = oracle::Keys::parse(KEY).unwrap();
    for (line, content) in lines.iter().zip(["gm", "+", "line\nbreak é 😀"]) {
        let event = oracle::Event::from_json(line).unwrap();
        event.verify().expect("rust-nostr verifies");
        assert_eq!(event.pubkey, keys.public_key());
        assert_eq!(event.content, content);
    }
    // ito's own verify accepts them too.
    let verified = ito(&["nostr", "verify"], &[], &out.stdout);
    assert!(verified.status.success(), "{}", stderr(&verified));
}

#[test]
#[cfg(feature = "schnorr")]
fn key_from_file_or_named_variable() {
    let file = temp_file("key", &format!("{KEY}\n"));
    let by_file = ito(
        &["nostr", "sign", "--key-file", file.to_str().unwrap()],
        &[],
        TEMPLATES.as_bytes(),
    );
    assert!(by_file.status.success(), "{}", stderr(&by_file));
    let nsec = ito(
        &["nostr", "nip19", "encode", "nsec", "--key-env", "MY_KEY"],
        &[("MY_KEY", KEY)],
        b"",
    );
    assert!(nsec.status.success(), "{}", stderr(&nsec));
    let nsec = String::from_utf8(nsec.stdout).unwrap();
    let by_env = ito(
        &["nostr", "sign", "--key-env", "MY_KEY"],
        &[("MY_KEY", nsec.trim())],
        TEMPLATES.as_bytes(),
    );
    assert!(by_env.status.success(), "{}", stderr(&by_env));
    let pubkey = |out: &Output| -> Vec<String> {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["pubkey"].to_string())
            .collect()
    };
    assert_eq!(pubkey(&by_file), pubkey(&by_env));
    std::fs::remove_file(file).unwrap();
}

#[test]
#[cfg(feature = "schnorr")]
fn missing_or_bad_keys_fail_without_showing_the_key() {
    let none = ito(&["nostr", "sign"], &[], TEMPLATES.as_bytes());
    assert!(!none.status.success());
    assert!(
        stderr(&none).contains("no secret key: set NOSTR_SECRET_KEY"),
        "{}",
        stderr(&none)
    );
    let bad = format!("{}zz", &KEY[..62]);
    let out = ito(
        &["nostr", "sign"],
        &[("NOSTR_SECRET_KEY", &bad)],
        TEMPLATES.as_bytes(),
    );
    assert!(!out.status.success());
    let message = stderr(&out);
    assert_eq!(
        message.trim(),
        "$NOSTR_SECRET_KEY: secret key: not a hex digit at byte 62"
    );
    assert!(!message.contains(&KEY[..8]));
    assert!(out.stdout.is_empty());
    // There is no flag that takes a key.
    let arg = ito(&["nostr", "sign", "--key", KEY], &[], b"");
    assert!(!arg.status.success());
}

#[test]
#[cfg(feature = "schnorr")]
fn one_bad_template_names_file_line_and_column() {
    let input = format!(
        "{TEMPLATES}{}\n",
        r#"{"created_at":1,"kind":1,"tags":[["t",5]],"content":""}"#
    );
    let file = temp_file("templates", &input);
    let name = file.to_str().unwrap();
    let out = ito(&["nostr", "sign", name], &[("NOSTR_SECRET_KEY", KEY)], b"");
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out).trim(),
        format!("{name}:5:39: `tags`: expected a string, found `5` at byte 38")
    );
    std::fs::remove_file(file).unwrap();
}

#[test]
fn nip19_decode_prints_nostr_tools_shapes() {
    let out = ito(
        &["nostr", "nip19", "decode",
          "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6",
          "nprofile1qqsrhuxx8l9ex335q7he0f09aej04zpazpl0ne2cgukyawd24mayt8gpp4mhxue69uhhytnc9e3k7mgpz4mhxue69uhkg6nzv9ejuumpv34kytnrdaksjlyr9p"],
        &[],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let values: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let pk = "3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d";
    assert_eq!(values[0], serde_json::json!({"type": "npub", "data": pk}));
    assert_eq!(
        values[1],
        serde_json::json!({"type": "nprofile", "data": {"pubkey": pk, "relays": ["wss://r.x.com", "wss://djbas.sadkb.com"]}})
    );
}

#[test]
fn nip19_encode_then_decode_from_stdin() {
    let id = "5a".repeat(32);
    let author = "3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d";
    let encoded = ito(
        &[
            "nostr",
            "nip19",
            "encode",
            "nevent",
            &id,
            "--relay",
            "wss://a.example",
            "--relay",
            "wss://b.example",
            "--author",
            author,
            "--kind",
            "30023",
        ],
        &[],
        b"",
    );
    assert!(encoded.status.success(), "{}", stderr(&encoded));
    let nevent = String::from_utf8(encoded.stdout).unwrap();
    // rust-nostr reads it.
    let theirs = <oracle::Nip19Event as oracle::FromBech32>::from_bech32(nevent.trim()).unwrap();
    assert_eq!(theirs.event_id.to_hex(), id);
    let naddr = ito(
        &[
            "nostr",
            "nip19",
            "encode",
            "naddr",
            "--identifier",
            "x",
            "--pubkey",
            author,
            "--kind",
            "30023",
        ],
        &[],
        b"",
    );
    let npub = ito(&["nostr", "nip19", "encode", "npub", author], &[], b"");
    let input = [nevent.as_bytes(), &naddr.stdout, &npub.stdout].concat();
    let out = ito(&["nostr", "nip19", "decode"], &[], &input);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let values: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        values[0],
        serde_json::json!({"type": "nevent", "data": {"id": id, "relays": ["wss://a.example", "wss://b.example"], "author": author, "kind": 30023}})
    );
    assert_eq!(values[1]["data"]["identifier"], "x");
    assert_eq!(values[2]["data"], author);
}

#[test]
fn nip19_one_bad_string_names_line_and_column() {
    let good = "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6";
    let bad = good.replace("180c", "180b");
    let out = ito(
        &["nostr", "nip19", "decode"],
        &[],
        format!("{good}\n{bad}\n").as_bytes(),
    );
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out).trim(),
        "<stdin>:2:8: invalid character `b` at byte 7"
    );
    let out = ito(
        &["nostr", "nip19", "decode", &good.replace('w', "x")],
        &[],
        b"",
    );
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out).trim(),
        "<argument 1>:1:1: checksum mismatch (a character is wrong)"
    );
    let out = ito(&["nostr", "nip19", "encode", "npub", "xyz"], &[], b"");
    assert!(!out.status.success());
}
