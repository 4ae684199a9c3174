//! `ito json quote | unquote | escape | unescape | check | fmt`.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use ito::json;

use crate::io::{line_failure, open_inputs, read_inputs, stream_lines, Failure, Output, Progress};
use crate::IoArgs;

#[derive(Subcommand)]
pub(crate) enum JsonCommand {
    /// Render the input as one JSON string literal, quotes included.
    Quote(CodecArgs),
    /// Decode one JSON string literal (surrounding whitespace allowed) to its raw value.
    Unquote(CodecArgs),
    /// Like quote, without the surrounding quotes.
    Escape(CodecArgs),
    /// Decode the text between a JSON string's quotes to its raw value.
    Unescape(CodecArgs),
    /// Validate JSON documents (one per file, or one per line) as serde_json
    /// reads a `Value`; report each invalid one on stdout as
    /// `file:line:col: message` (line and column as serde_json counts them,
    /// the column in bytes; the message is serde_json's without its
    /// " at line L column C") and exit 1 if any is.
    Check(CheckArgs),
    /// Re-lay out JSON documents, compact or pretty, keeping every token
    /// byte for byte (numbers as written, strings with their escapes). The
    /// first invalid document is reported as `check` reports it and stops
    /// the command; with `-o` nothing is written then.
    Fmt(FmtArgs),
    /// Print the value at a jq-style PATH (`.statuses[0].user.name`,
    /// `.["a key"]`, `.[0]`) of each document, compact, one per line;
    /// `null` where the path does not exist. The document is read only as
    /// far as the value (nothing is built); each invalid document is
    /// reported on stderr as `file:line:col: message` and the command exits
    /// 1. With `--lines`, JSON lines on every core in bounded memory.
    Get(GetArgs),
}

#[derive(Args)]
pub(crate) struct GetArgs {
    /// The path: `.` then keys and `[index]`es, as jq writes them.
    path: String,
    #[command(flatten)]
    io: IoArgs,
    /// Each line is one document (JSON lines; blank lines are skipped).
    #[arg(long)]
    lines: bool,
}

#[derive(Args)]
pub(crate) struct CheckArgs {
    /// Input files (stdin when none, or `-`).
    files: Vec<PathBuf>,
    /// Each line is one document (JSON lines; blank lines are skipped).
    #[arg(long)]
    lines: bool,
}

#[derive(Args)]
pub(crate) struct FmtArgs {
    #[command(flatten)]
    io: IoArgs,
    /// Each line is one document (JSON lines; blank lines are skipped).
    #[arg(long)]
    lines: bool,
    /// No whitespace between tokens (the default).
    #[arg(long, conflicts_with = "pretty")]
    compact: bool,
    /// serde_json's pretty layout: two-space indentation, `": "`.
    #[arg(long)]
    pretty: bool,
    /// Members of every object in key order: by the unescaped key, code
    /// point by code point (serde_json's `Map` order, as `jq -S`); equal
    /// keys keep their document order, and tokens keep their spelling.
    #[arg(long)]
    sort_keys: bool,
}

#[derive(Args)]
pub(crate) struct CodecArgs {
    #[command(flatten)]
    io: IoArgs,
    /// Treat each input line as one string (one result per output line).
    #[arg(long)]
    lines: bool,
    /// Escape every non-ASCII character as \uXXXX (quote, escape).
    #[arg(long)]
    ascii: bool,
    /// Escape `/` as `\/` (quote, escape).
    #[arg(long)]
    escape_slash: bool,
    /// Escape < > & ' for embedding in HTML (quote, escape).
    #[arg(long)]
    html_safe: bool,
    /// Escape U+2028 and U+2029 for old JavaScript parsers (quote, escape).
    #[arg(long)]
    js_safe: bool,
    /// Escape DEL and the C1 control characters (quote, escape).
    #[arg(long)]
    escape_del_c1: bool,
    /// Uppercase hex digits in \u escapes (quote, escape).
    #[arg(long)]
    uppercase_hex: bool,
    /// Replace invalid UTF-8 (and, when decoding, lone surrogates) with U+FFFD instead of failing.
    #[arg(long)]
    replace_invalid: bool,
    /// When decoding, keep lone surrogate escapes as WTF-8 (output may not be UTF-8).
    #[arg(long)]
    wtf8: bool,
}

impl CodecArgs {
    fn options(&self) -> json::Options {
        json::Options::new()
            .ascii_only(self.ascii)
            .escape_slash(self.escape_slash)
            .html_safe(self.html_safe)
            .js_safe(self.js_safe)
            .escape_del_and_c1(self.escape_del_c1)
            .uppercase_hex(self.uppercase_hex)
            .replace_invalid(self.replace_invalid)
            .wtf8(self.wtf8)
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Op {
    Quote,
    Unquote,
    Escape,
    Unescape,
}

pub(crate) fn run(cmd: JsonCommand) -> Result<(), Failure> {
    let (op, args) = match cmd {
        JsonCommand::Quote(a) => (Op::Quote, a),
        JsonCommand::Unquote(a) => (Op::Unquote, a),
        JsonCommand::Escape(a) => (Op::Escape, a),
        JsonCommand::Unescape(a) => (Op::Unescape, a),
        JsonCommand::Check(a) => return check(&a.files, a.lines),
        JsonCommand::Get(a) => {
            return crate::json_get::run(&a.path, &a.io.files, a.io.output.as_deref(), a.lines)
        }
        JsonCommand::Fmt(a) => {
            let layout = Layout {
                pretty: a.pretty,
                sort_keys: a.sort_keys,
            };
            return fmt(&a.io, a.lines, layout);
        }
    };
    let options = args.options();
    if args.lines {
        return lines(op, &options, &args.io);
    }
    let inputs = read_inputs(&args.io.files)?;
    let mut out = Output::open(args.io.output.as_deref())?;
    let total: u64 = inputs.iter().map(|i| i.data.len() as u64).sum();
    let progress = Progress::new(total);
    let mut scratch = Vec::new();
    let mut buf = Vec::with_capacity(1 << 16);
    for input in &inputs {
        apply(op, &options, &input.data, &mut buf, &mut scratch)
            .map_err(|(at, message)| Failure::at(&input.name, &input.data, at, message))?;
        if matches!(op, Op::Quote | Op::Escape) {
            buf.push(b'\n');
        }
        progress.advance(input.data.len() as u64);
        out.write(&buf)?;
        buf.clear();
    }
    progress.finish();
    out.commit()
}

/// `--lines`: each line is one string, streamed on every core in bounded
/// memory; output lines stay in input order.
fn lines(op: Op, options: &json::Options, io: &IoArgs) -> Result<(), Failure> {
    let inputs = open_inputs(&io.files)?;
    let mut out = Output::open(io.output.as_deref())?;
    stream_lines(
        inputs,
        "lines",
        |line| {
            let mut dst = Vec::with_capacity(line.len() + 3);
            apply(op, options, line, &mut dst, &mut Vec::new()).map(|()| {
                dst.push(b'\n');
                dst
            })
        },
        |name, n, line, result| match result {
            Ok(bytes) => out.write(&bytes),
            Err((at, message)) => Err(line_failure(name, n, line, at, message)),
        },
    )?;
    out.commit()
}

/// Apply `op` to `body`; an error is its byte offset in `body` and a
/// message.
fn apply(
    op: Op,
    options: &json::Options,
    body: &[u8],
    dst: &mut Vec<u8>,
    scratch: &mut Vec<u8>,
) -> Result<(), (usize, String)> {
    let fail = |offset: usize, kind: &dyn std::fmt::Display| (offset, kind.to_string());
    match op {
        Op::Quote => {
            json::quote_bytes(dst, body, options).map_err(|e| fail(e.offset(), &e.kind()))?
        }
        Op::Escape => {
            // quote_bytes validates UTF-8 in the same pass; keep what is
            // between the quotes.
            scratch.clear();
            json::quote_bytes(scratch, body, options).map_err(|e| fail(e.offset(), &e.kind()))?;
            dst.extend_from_slice(&scratch[1..scratch.len() - 1]);
        }
        Op::Unescape => {
            json::unescape_with(dst, body, options).map_err(|e| fail(e.offset(), &e.kind()))?
        }
        Op::Unquote => {
            let lead = body.iter().take_while(|b| b.is_ascii_whitespace()).count();
            let rest = &body[lead..];
            if options.replace_invalid || options.wtf8 {
                // Lenient decoding: find the closing quote by backslash
                // parity, then decode the text between with the options.
                if rest.first() != Some(&b'"') {
                    return Err(fail(lead, &json::ErrorKind::MissingQuote));
                }
                let used = closing_quote(rest)
                    .ok_or_else(|| fail(lead + rest.len(), &json::ErrorKind::Unterminated))?;
                json::unescape_with(dst, &rest[1..used - 1], options)
                    .map_err(|e| fail(lead + 1 + e.offset(), &e.kind()))?;
                return trailing(rest, used)
                    .map_err(|at| fail(lead + at, &"unexpected text after the closing quote"));
            }
            let (value, used) =
                json::unquote(rest).map_err(|e| fail(lead + e.offset(), &e.kind()))?;
            dst.extend_from_slice(value.as_bytes());
            trailing(rest, used)
                .map_err(|at| fail(lead + at, &"unexpected text after the closing quote"))?;
        }
    }
    Ok(())
}

/// `Err(offset)` of the first non-whitespace byte after `used`, if any.
fn trailing(text: &[u8], used: usize) -> Result<(), usize> {
    match text[used..].iter().position(|b| !b.is_ascii_whitespace()) {
        Some(extra) => Err(used + extra),
        None => Ok(()),
    }
}

/// Bytes through the closing quote of the string literal that `text`
/// starts with, found by backslash parity (works on any bytes).
fn closing_quote(text: &[u8]) -> Option<usize> {
    let mut i = 1;
    while i < text.len() {
        match text[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

// ---- whole documents: check and fmt ----

/// A document that failed validation: where (line and column as
/// serde_json counts them: 1-based, the column in bytes) and why.
struct Invalid {
    line: usize,
    column: usize,
    message: String,
}

/// Validates one JSON document (surrounding whitespace allowed) with
/// ito's deserializer, which accepts and refuses exactly what serde_json's
/// parser does when it reads a `Value`, with its messages and positions.
fn validate(doc: &[u8]) -> Result<(), Invalid> {
    match json::from_slice::<Strict>(doc) {
        Ok(Strict) => Ok(()),
        Err(e) => Err(invalid(&e, e.line(), e.column())),
    }
}

/// Any JSON value, read token by token and kept as nothing: what a parser
/// accepts into a `Value` (every string decoded, so invalid UTF-8 and lone
/// surrogate escapes are errors), without building it. `IgnoredAny` may
/// not be enough: serde_json skips it without decoding strings.
struct Strict;

impl<'de> serde::Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Strict, D::Error> {
        d.deserialize_any(Strict)
    }
}

impl<'de> serde::de::Visitor<'de> for Strict {
    type Value = Strict;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Strict, E> {
        Ok(Strict)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Strict, E> {
        Ok(Strict)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Strict, E> {
        Ok(Strict)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Strict, E> {
        Ok(Strict)
    }

    fn visit_str<E>(self, _: &str) -> Result<Strict, E> {
        Ok(Strict)
    }

    fn visit_unit<E>(self) -> Result<Strict, E> {
        Ok(Strict)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Strict, A::Error> {
        while seq.next_element::<Strict>()?.is_some() {}
        Ok(Strict)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Strict, A::Error> {
        while map.next_entry::<Strict, Strict>()?.is_some() {}
        Ok(Strict)
    }
}

/// The parser's message without its " at line L column C" tail, which
/// the report puts in front as `file:L:C:`.
fn invalid(e: &dyn std::fmt::Display, line: usize, column: usize) -> Invalid {
    let text = e.to_string();
    let tail = format!(" at line {line} column {column}");
    let message = text.strip_suffix(&tail).unwrap_or(&text).to_string();
    Invalid {
        line,
        column,
        message,
    }
}

impl Invalid {
    /// `name:line:col: message`, the line counted from `first_line`.
    fn report(&self, name: &str, first_line: usize) -> String {
        let line = first_line + self.line.max(1) - 1;
        format!("{name}:{line}:{}: {}", self.column, self.message)
    }
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}

/// `check`: report every invalid document on stdout, a count on stderr,
/// and fail if any was invalid.
fn check(files: &[PathBuf], lines: bool) -> Result<(), Failure> {
    let mut out = Output::open(None)?;
    let (mut good, mut bad) = (0u64, 0u64);
    if lines {
        let inputs = open_inputs(files)?;
        stream_lines(
            inputs,
            "lines",
            |line| (!is_blank(line)).then(|| validate(line)),
            |name, n, _, result| match result {
                None => Ok(()),
                Some(Ok(())) => {
                    good += 1;
                    Ok(())
                }
                Some(Err(invalid)) => {
                    bad += 1;
                    out.write(invalid.report(name, n).as_bytes())?;
                    out.write(b"\n")
                }
            },
        )?;
    } else {
        for input in read_inputs(files)? {
            match validate(&input.data) {
                Ok(()) => good += 1,
                Err(invalid) => {
                    bad += 1;
                    out.write(invalid.report(&input.name, 1).as_bytes())?;
                    out.write(b"\n")?;
                }
            }
        }
    }
    out.commit()?;
    eprintln!("{} documents: {good} valid, {bad} invalid", good + bad);
    if bad > 0 {
        return Err(Failure::msg(format!("{bad} invalid document(s)")));
    }
    Ok(())
}

/// The layout `fmt` writes: compact or pretty, keys as written or sorted.
#[derive(Clone, Copy)]
struct Layout {
    pretty: bool,
    sort_keys: bool,
}

/// Validates `doc` and appends it to `dst` in `layout`, with a newline.
fn relayout(layout: Layout, doc: &[u8], dst: &mut Vec<u8>) -> Result<(), Invalid> {
    validate(doc)?;
    match (layout.sort_keys, layout.pretty) {
        (false, false) => json::layout::compact(dst, doc),
        (false, true) => json::layout::pretty(dst, doc),
        (true, false) => json::layout::sort_keys(dst, doc),
        (true, true) => {
            let mut sorted = Vec::with_capacity(doc.len());
            json::layout::sort_keys(&mut sorted, doc);
            json::layout::pretty(dst, &sorted);
        }
    }
    dst.push(b'\n');
    Ok(())
}

/// `fmt`: every document in the new layout. The first invalid document
/// stops the command with its report; with `-o` nothing is written then,
/// and without `--lines` every input is checked before anything is.
fn fmt(io: &IoArgs, lines: bool, layout: Layout) -> Result<(), Failure> {
    if lines {
        let inputs = open_inputs(&io.files)?;
        let mut out = Output::open(io.output.as_deref())?;
        stream_lines(
            inputs,
            "lines",
            |line| {
                if is_blank(line) {
                    return Ok(Vec::new());
                }
                let mut dst = Vec::with_capacity(line.len() + 1);
                relayout(layout, line, &mut dst).map(|()| dst)
            },
            |name, n, _, result| match result {
                Ok(bytes) => out.write(&bytes),
                Err(invalid) => Err(Failure::msg(invalid.report(name, n))),
            },
        )?;
        return out.commit();
    }
    let inputs = read_inputs(&io.files)?;
    let total: u64 = inputs.iter().map(|i| i.data.len() as u64).sum();
    let progress = Progress::new(total);
    let mut docs = Vec::with_capacity(inputs.len());
    for input in &inputs {
        let mut dst = Vec::new();
        relayout(layout, &input.data, &mut dst)
            .map_err(|invalid| Failure::msg(invalid.report(&input.name, 1)))?;
        progress.advance(input.data.len() as u64);
        docs.push(dst);
    }
    progress.finish();
    let mut out = Output::open(io.output.as_deref())?;
    for doc in &docs {
        out.write(doc)?;
    }
    out.commit()
}
