//! The CLI's string paths on random Unicode text: `ito nostr sign`, `id`
//! and `verify` on events whose content and tags have every UTF-8 width (1
//! to 4 bytes), the bytes NIP-01 escapes, and lengths from 0 to 4,096 bytes
//! around every power of two; rust-nostr is the oracle. A `\uXXXX` lone
//! surrogate has no UTF-8 form: it fails with `file:line:col`.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use nostr::prelude as oracle;

const KEY: &str = "7f7ff03d123792d6ac594bfa67bf6d0c0ab55b6b1fdb6249303fe861f1ccba9a";

fn ito(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ito"))
        .args(args)
        .env("NOSTR_SECRET_KEY", KEY)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ito runs");
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

/// A seeded generator (xorshift64*): the same text on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next() % u64::from(hi - lo + 1)) as u32
    }
}

/// One character of width class `kind` (0: ASCII, 1: escaped bytes and
/// DEL, 2-4: UTF-8 widths, 5: U+FFFD, U+2028, U+FEFF and friends).
fn char_of(rng: &mut Rng, kind: u32) -> char {
    let code = match kind {
        0 => rng.range(0x20, 0x7e),
        1 => [
            0x22, 0x5c, 0x0a, 0x0d, 0x09, 0x08, 0x0c, 0x00, 0x01, 0x1f, 0x7f,
        ][rng.range(0, 10) as usize],
        2 => rng.range(0x80, 0x7ff),
        3 => {
            let c = rng.range(0x800, 0xfffd - 0x800);
            if c < 0xd800 {
                c
            } else {
                c + 0x800
            }
        }
        4 => rng.range(0x10000, 0x10ffff),
        _ => [0xfffd, 0x2028, 0x2029, 0xfeff, 0xe9, 0x1f600][rng.range(0, 5) as usize],
    };
    char::from_u32(code).unwrap()
}

/// Text of about `bytes` UTF-8 bytes, of one width class or mixed.
fn text(rng: &mut Rng, bytes: usize) -> String {
    let only = (rng.range(0, 9) < 6).then(|| rng.range(0, 5));
    let mut s = String::new();
    while s.len() < bytes {
        let kind = only.unwrap_or_else(|| rng.range(0, 5));
        s.push(char_of(rng, kind));
    }
    s
}

fn cases() -> Vec<String> {
    let mut rng = Rng(35);
    let mut targets = vec![0, 1, 2, 3];
    let mut p = 4usize;
    while p <= 4096 {
        targets.extend([p - 3, p - 1, p, p + 1, p + 3]);
        p *= 2;
    }
    for _ in 0..16 {
        targets.push(rng.range(0, 4096) as usize);
    }
    targets.into_iter().map(|n| text(&mut rng, n)).collect()
}

#[test]
#[cfg(feature = "schnorr")]
fn signed_ids_and_verdicts_agree_with_rust_nostr() {
    let cases = cases();
    assert!(
        cases
            .iter()
            .filter(|s| s.len() > 256 && !s.is_ascii())
            .count()
            > 15
    );
    let mut templates = String::new();
    for (i, s) in cases.iter().enumerate() {
        let template = serde_json::json!({
            "kind": 30000 + i % 10,
            "created_at": 1_700_000_000 + i,
            "tags": [["d", s], ["e", "00".repeat(32), s]],
            "content": s,
        });
        templates.push_str(&template.to_string());
        templates.push('\n');
    }
    let signed = ito(&["nostr", "sign"], templates.as_bytes());
    assert!(
        signed.status.success(),
        "{}",
        String::from_utf8_lossy(&signed.stderr)
    );
    let lines: Vec<&str> = std::str::from_utf8(&signed.stdout)
        .unwrap()
        .lines()
        .collect();
    assert_eq!(lines.len(), cases.len());
    let ids = ito(&["nostr", "id"], &signed.stdout);
    assert!(ids.status.success());
    let ids: Vec<&str> = std::str::from_utf8(&ids.stdout).unwrap().lines().collect();
    for ((line, s), id) in lines.iter().zip(&cases).zip(&ids) {
        let event = oracle::Event::from_json(line).unwrap();
        event
            .verify()
            .expect("rust-nostr verifies the signed event");
        assert_eq!(&event.content, s);
        assert_eq!(event.id.to_hex(), *id, "ito nostr id");
    }
    let verified = ito(&["nostr", "verify"], &signed.stdout);
    assert!(
        verified.status.success(),
        "{}",
        String::from_utf8_lossy(&verified.stderr)
    );
    // One changed character anywhere in the content is caught.
    let mut changed = String::new();
    for line in &lines {
        let mut event: serde_json::Value = serde_json::from_str(line).unwrap();
        let content = event["content"].as_str().unwrap().to_owned() + "é";
        event["content"] = content.into();
        changed.push_str(&event.to_string());
        changed.push('\n');
    }
    let bad = ito(&["nostr", "verify"], changed.as_bytes());
    assert!(!bad.status.success());
}

#[test]
#[cfg(feature = "schnorr")]
fn lone_surrogates_fail_with_their_position() {
    for (template, col) in [
        (
            r#"{"kind":1,"created_at":1,"tags":[],"content":"ab\ud800"}"#,
            49,
        ),
        (
            r#"{"kind":1,"created_at":1,"tags":[["t","\udfff"]],"content":""}"#,
            40,
        ),
    ] {
        let out = ito(&["nostr", "sign"], format!("{template}\n").as_bytes());
        assert!(!out.status.success(), "{template}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&format!("<stdin>:1:{col}:")), "{err}");
        assert!(err.to_lowercase().contains("surrogate"), "{err}");
    }
}
