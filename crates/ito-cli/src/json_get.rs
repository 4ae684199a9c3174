//! `ito json get PATH`: the value at a jq-style path (`.a.b[0]`) of each
//! document, read lazily with `ito::json::get` (nothing after the value is
//! read, no tree is built), printed compact, one per line; `null` where the
//! path does not exist, as jq prints it.

use crate::io::{open_inputs, read_inputs, stream_lines, Failure, Output};
use ito::json::{self, PathItem};
use std::path::PathBuf;

/// One step of a path: an object key or an array index.
#[derive(Debug, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

/// Parses a jq-style path: `.` (the document), `.key`, `."any key"`,
/// `.[0]`, `["key"]`, chained (`.statuses[0].user.name`). Keys written
/// bare are ASCII letters, digits and `_`; any other key is quoted as a
/// JSON string.
fn parse_path(text: &str) -> Result<Vec<Step>, String> {
    let bad = |at: usize, what: &str| format!("path `{text}`: {what} at byte {at}");
    let bytes = text.as_bytes();
    if bytes.first() != Some(&b'.') {
        return Err(bad(0, "expected `.`"));
    }
    let mut steps = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'.' => {
                i += 1;
                match bytes.get(i) {
                    None if steps.is_empty() && i == 1 => break, // `.` alone
                    Some(b'"') => {
                        let (key, end) = quoted(text, i).map_err(|e| bad(i, &e))?;
                        steps.push(Step::Key(key));
                        i = end;
                    }
                    Some(b'[') => {}
                    Some(c) if c.is_ascii_alphanumeric() || *c == b'_' => {
                        let start = i;
                        while bytes
                            .get(i)
                            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
                        {
                            i += 1;
                        }
                        steps.push(Step::Key(text[start..i].to_owned()));
                    }
                    _ => return Err(bad(i, "expected a key or `[`")),
                }
            }
            b'[' => {
                i += 1;
                if bytes.get(i) == Some(&b'"') {
                    let (key, end) = quoted(text, i).map_err(|e| bad(i, &e))?;
                    steps.push(Step::Key(key));
                    i = end;
                } else {
                    let start = i;
                    while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                        i += 1;
                    }
                    let index = text[start..i]
                        .parse()
                        .map_err(|_| bad(start, "expected an index or a quoted key"))?;
                    steps.push(Step::Index(index));
                }
                if bytes.get(i) != Some(&b']') {
                    return Err(bad(i, "expected `]`"));
                }
                i += 1;
            }
            _ => return Err(bad(i, "expected `.` or `[`")),
        }
    }
    Ok(steps)
}

/// The JSON string starting at `text[at]` (a `"`): its value and the index
/// after its closing quote.
fn quoted(text: &str, at: usize) -> Result<(String, usize), String> {
    let bytes = text.as_bytes();
    let mut i = at + 1;
    while i < bytes.len() && bytes[i] != b'"' {
        i += if bytes[i] == b'\\' { 2 } else { 1 };
    }
    if i >= bytes.len() {
        return Err("unterminated key".into());
    }
    let mut key = Vec::new();
    json::unescape(&mut key, &bytes[at + 1..i]).map_err(|e| e.to_string())?;
    let key = String::from_utf8(key).map_err(|_| "a key that is not UTF-8".to_owned())?;
    Ok((key, i + 1))
}

/// Appends the value at `path` in `doc` (compact) or `null`, and a newline;
/// an error is `(offset in doc, message)`.
fn value_at(path: &[PathItem<'_>], doc: &[u8], out: &mut Vec<u8>) -> Result<(), (usize, String)> {
    match json::get(doc, path) {
        Ok(Some(raw)) => json::layout::compact(out, raw.as_str().as_bytes()),
        Ok(None) => out.extend_from_slice(b"null"),
        Err(e) => return Err((e.offset(), e.to_string())),
    }
    out.push(b'\n');
    Ok(())
}

/// `ito json get PATH [--lines] [-o FILE] [FILE...]`: every document's
/// value; each invalid document is reported on stderr as
/// `file:line:col: message` and the command exits 1 after the rest.
pub(crate) fn run(
    path: &str,
    files: &[PathBuf],
    output: Option<&std::path::Path>,
    lines: bool,
) -> Result<(), Failure> {
    let steps = parse_path(path).map_err(Failure::msg)?;
    let items: Vec<PathItem<'_>> = steps
        .iter()
        .map(|s| match s {
            Step::Key(k) => PathItem::Key(k),
            Step::Index(i) => PathItem::Index(*i),
        })
        .collect();
    let mut out = Output::open(output)?;
    let mut bad = 0u64;
    if lines {
        stream_lines(
            open_inputs(files)?,
            "lines",
            |line| {
                let blank = line.iter().all(u8::is_ascii_whitespace);
                (!blank).then(|| {
                    let mut value = Vec::new();
                    value_at(&items, line, &mut value).map(|()| value)
                })
            },
            |name, n, _, result| match result {
                None => Ok(()),
                Some(Ok(value)) => out.write(&value),
                Some(Err((offset, message))) => {
                    bad += 1;
                    eprintln!("{name}:{n}:{}: {message}", offset + 1);
                    Ok(())
                }
            },
        )?;
    } else {
        for input in read_inputs(files)? {
            let mut value = Vec::new();
            match value_at(&items, &input.data, &mut value) {
                Ok(()) => out.write(&value)?,
                Err((offset, message)) => {
                    bad += 1;
                    let (line, col) = json::line_column(&input.data, offset);
                    eprintln!("{}:{line}:{col}: {message}", input.name);
                }
            }
        }
    }
    out.commit()?;
    if bad > 0 {
        return Err(Failure::msg(format!("{bad} invalid document(s)")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_parse_as_jq_writes_them() {
        use Step::*;
        assert_eq!(parse_path(".").unwrap(), []);
        assert_eq!(
            parse_path(".statuses[0].user.screen_name").unwrap(),
            [
                Key("statuses".into()),
                Index(0),
                Key("user".into()),
                Key("screen_name".into())
            ]
        );
        assert_eq!(
            parse_path(r#".["a.b"]."c d".[12]["\u00e9"]"#).unwrap(),
            [
                Key("a.b".into()),
                Key("c d".into()),
                Index(12),
                Key("é".into())
            ]
        );
        for bad in ["", "a", ".a..b", ".[x]", ".[1", r#".["a]"#, ".a b", ".-"] {
            assert!(parse_path(bad).is_err(), "{bad}");
        }
    }
}
