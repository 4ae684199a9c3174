//! `ito json quote | unquote | escape | unescape`.

use clap::{Args, Subcommand};
use ito::json;

use crate::io::{read_inputs, Failure, Input, Output, Progress};
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
    let inputs = read_inputs(&args.io.files)?;
    let mut out = Output::open(args.io.output.as_deref())?;
    let total: u64 = inputs.iter().map(|i| i.data.len() as u64).sum();
    let progress = Progress::new(total);
    let mut buf = Vec::with_capacity(1 << 16);
    for input in &inputs {
        if args.lines {
            let mut start = 0;
            for line in input.data.split_inclusive(|&b| b == b'\n') {
                let body = line.strip_suffix(b"\n").unwrap_or(line);
                apply(op, input, start, body, &mut buf)?;
                buf.push(b'\n');
                start += line.len();
                if buf.len() >= 1 << 16 {
                    out.write(&buf)?;
                    buf.clear();
                }
                progress.advance(line.len() as u64);
            }
        } else {
            apply(op, input, 0, &input.data, &mut buf)?;
            if matches!(op, Op::Quote | Op::Escape) {
                buf.push(b'\n');
            }
            progress.advance(input.data.len() as u64);
        }
        out.write(&buf)?;
        buf.clear();
    }
    progress.finish();
    out.commit()
}

/// Apply `op` to `body`, which starts at byte `base` of `input`.
fn apply(op: Op, input: &Input, base: usize, body: &[u8], dst: &mut Vec<u8>) -> Result<(), Failure> {
    let fail = |offset: usize, message: &dyn std::fmt::Display| {
        Failure::at(&input.name, &input.data, base + offset, message)
    };
    match op {
        Op::Quote | Op::Escape => {
            let start = dst.len();
            json::quote_bytes(dst, body, &json::Options::default())
                .map_err(|e| fail(e.offset(), &e))?;
            if op == Op::Escape {
                // Drop the quotes that quote_bytes wrote around the value.
                dst.remove(start);
                dst.pop();
            }
        }
        Op::Unescape => json::unescape(dst, body).map_err(|e| fail(e.offset(), &e))?,
        Op::Unquote => {
            let lead = body.iter().take_while(|b| b.is_ascii_whitespace()).count();
            let (value, used) = json::unquote(&body[lead..]).map_err(|e| fail(lead + e.offset(), &e))?;
            dst.extend_from_slice(value.as_bytes());
            let rest = &body[lead + used..];
            if let Some(extra) = rest.iter().position(|b| !b.is_ascii_whitespace()) {
                return Err(fail(lead + used + extra, &"unexpected text after the closing quote"));
            }
        }
    }
    Ok(())
}
