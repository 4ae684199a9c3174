//! `ito json quote | unquote | escape | unescape`.

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
