//! The README's promises: its first two shell commands are the tour and the
//! test command, and every relative link in it (and in docs/*.md and the
//! benchmark report) names a file that exists.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The lines of fenced code blocks tagged `sh`, `bash`, `shell` or
/// `console`, comments and blank lines removed, trailing comments cut.
fn shell_commands(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_shell = None;
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        if let Some(tag) = trimmed.strip_prefix("```") {
            in_shell = match in_shell {
                Some(_) => None,
                None => Some(matches!(tag.trim(), "sh" | "bash" | "shell" | "console")),
            };
            continue;
        }
        if in_shell == Some(true) {
            let command = trimmed.split(" #").next().unwrap_or("").trim();
            if !command.is_empty() && !command.starts_with('#') {
                out.push(command.split_whitespace().collect::<Vec<_>>().join(" "));
            }
        }
    }
    out
}

/// Link targets outside code: `[text](target)` and `src="target"`.
fn link_targets(markdown: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop inline code spans: links are never inside them.
        let text: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = text.as_str();
        while let Some(at) = rest.find("](") {
            let tail = &rest[at + 2..];
            let end = tail.find(')').unwrap_or(tail.len());
            targets.push(
                tail[..end]
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_owned(),
            );
            rest = &tail[end..];
        }
        let mut rest = text.as_str();
        while let Some(at) = rest.find("src=\"") {
            let tail = &rest[at + 5..];
            let end = tail.find('"').unwrap_or(tail.len());
            targets.push(tail[..end].to_owned());
            rest = &tail[end..];
        }
    }
    targets
}

/// The relative links of `file` that do not resolve to an existing path.
fn broken_links(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let dir = file.parent().unwrap();
    link_targets(&text)
        .into_iter()
        .filter(|t| !t.is_empty() && !t.starts_with('#') && !t.contains("://"))
        .filter(|t| !t.starts_with("mailto:"))
        .filter(|t| {
            let path = t.split('#').next().unwrap();
            !dir.join(path).exists()
        })
        .collect()
}

#[test]
fn first_two_commands_are_the_tour_and_the_tests() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let commands = shell_commands(&readme);
    assert!(
        commands.len() >= 2,
        "README has fewer than two shell commands"
    );
    assert_eq!(commands[0], "cargo run --release -p ito-cli -- tour");
    assert_eq!(commands[1], "bash scripts/test.sh");
}

#[test]
fn relative_links_resolve() {
    let mut files = vec![root().join("README.md")];
    for dir in ["docs", "bench/report"] {
        if let Ok(entries) = std::fs::read_dir(root().join(dir)) {
            for e in entries.flatten() {
                if e.path().extension().is_some_and(|x| x == "md") {
                    files.push(e.path());
                }
            }
        }
    }
    files.push(root().join("bench/RESULTS.md"));
    let mut broken = Vec::new();
    for f in &files {
        for t in broken_links(f) {
            broken.push(format!("{}: {t}", f.display()));
        }
    }
    assert!(
        broken.is_empty(),
        "broken relative links:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_link_scanner_finds_links_and_skips_code() {
    let md = "see [a](x.md) and `[b](y.md)` and <img src=\"c.svg\">\n```sh\n[d](z.md) # not a link\ncargo run\n```\n";
    assert_eq!(link_targets(md), ["x.md", "c.svg"]);
    assert_eq!(shell_commands(md), ["[d](z.md)", "cargo run"]);
}
