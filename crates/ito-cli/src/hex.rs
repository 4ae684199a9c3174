//! `ito hex encode | decode`.

use clap::{Args, Subcommand};
use ito::hex;

use crate::io::{line_failure, open_inputs, read_inputs, stream_lines, Failure, Output, Progress};
use crate::IoArgs;

#[derive(Subcommand)]
pub(crate) enum HexCommand {
    /// Encode bytes as hex digits (one line of output per input).
    Encode(EncodeArgs),
    /// Decode hex digits to bytes; each line's digits are decoded in turn,
    /// surrounding whitespace ignored.
    Decode(DecodeArgs),
}

#[derive(Args)]
pub(crate) struct EncodeArgs {
    #[command(flatten)]
    io: IoArgs,
    /// Uppercase digits (A-F).
    #[arg(long)]
    upper: bool,
}

#[derive(Args)]
pub(crate) struct DecodeArgs {
    #[command(flatten)]
    io: IoArgs,
    /// Accept only lowercase digits (as Nostr requires).
    #[arg(long)]
    strict_lower: bool,
}

pub(crate) fn run(cmd: HexCommand) -> Result<(), Failure> {
    match cmd {
        HexCommand::Encode(args) => encode(&args),
        HexCommand::Decode(args) => decode(&args),
    }
}

fn encode(args: &EncodeArgs) -> Result<(), Failure> {
    let inputs = read_inputs(&args.io.files)?;
    let mut out = Output::open(args.io.output.as_deref())?;
    let case = if args.upper {
        hex::Case::Upper
    } else {
        hex::Case::Lower
    };
    let progress = Progress::new(inputs.iter().map(|i| i.data.len() as u64).sum());
    let mut buf = Vec::new();
    for input in &inputs {
        // Encode in chunks so huge inputs stream with a bounded buffer.
        for chunk in input.data.chunks(1 << 20) {
            buf.clear();
            hex::encode_to_vec(&mut buf, chunk, case);
            out.write(&buf)?;
            progress.advance(chunk.len() as u64);
        }
        out.write(b"\n")?;
    }
    progress.finish();
    out.commit()
}

fn decode(args: &DecodeArgs) -> Result<(), Failure> {
    let inputs = open_inputs(&args.io.files)?;
    let mut out = Output::open(args.io.output.as_deref())?;
    let accept = if args.strict_lower {
        hex::Accept::Lowercase
    } else {
        hex::Accept::AnyCase
    };
    // Line by line, streamed on every core in bounded memory.
    stream_lines(
        inputs,
        "lines",
        |line| {
            let lead = line.iter().take_while(|b| b.is_ascii_whitespace()).count();
            let digits = line[lead..].trim_ascii_end();
            let mut buf = Vec::with_capacity(digits.len() / 2);
            hex::decode_to_vec(&mut buf, digits, accept)
                .map(|()| buf)
                .map_err(|e| (lead + e.offset(), e))
        },
        |name, n, line, decoded| match decoded {
            Ok(bytes) => out.write(&bytes),
            Err((at, e)) => Err(line_failure(name, n, line, at, e)),
        },
    )?;
    out.commit()
}
