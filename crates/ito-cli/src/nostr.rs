//! `ito nostr id | verify`: one event JSON object per line.

use clap::{Args, Subcommand};
use ito::nostr::{self, Event};

use crate::io::{read_inputs, Failure, Output, Progress};
use crate::IoArgs;

#[derive(Subcommand)]
pub(crate) enum NostrCommand {
    /// Print the computed NIP-01 id of each event (one per input line).
    Id(IoArgs),
    /// Check each event's id (and Schnorr signature); report bad events as
    /// `file:line: reason` and exit non-zero if any fails.
    Verify(VerifyArgs),
}

#[derive(Args)]
pub(crate) struct VerifyArgs {
    #[command(flatten)]
    io: IoArgs,
    /// Check only ids, not signatures.
    #[arg(long)]
    id_only: bool,
}

pub(crate) fn run(cmd: NostrCommand) -> Result<(), Failure> {
    match cmd {
        NostrCommand::Id(args) => ids(&args),
        NostrCommand::Verify(args) => verify(&args),
    }
}

/// Each non-blank line of each input with its 1-based line number and byte
/// offset.
fn event_lines(data: &[u8]) -> impl Iterator<Item = (usize, usize, &[u8])> {
    let mut offset = 0;
    data.split_inclusive(|&b| b == b'\n')
        .enumerate()
        .map(move |(i, line)| {
            let start = offset;
            offset += line.len();
            (i + 1, start, line)
        })
        .filter(|(_, _, line)| !line.trim_ascii().is_empty())
}

fn ids(args: &IoArgs) -> Result<(), Failure> {
    let inputs = read_inputs(&args.files)?;
    let mut out = Output::open(args.output.as_deref())?;
    let progress = Progress::new(inputs.iter().map(|i| i.data.len() as u64).sum());
    let mut scratch = Vec::new();
    let mut line_out = [0u8; 65];
    line_out[64] = b'\n';
    for input in &inputs {
        for (_, start, line) in event_lines(&input.data) {
            let event = Event::parse(line)
                .map_err(|e| Failure::at(&input.name, &input.data, start + e.offset(), e))?;
            let id = nostr::event_id_with(&mut scratch, &event);
            let hex: [u8; 64] = ito::hex::encode_array(&id);
            line_out[..64].copy_from_slice(&hex);
            out.write(&line_out)?;
            progress.advance(line.len() as u64);
        }
    }
    progress.finish();
    out.commit()
}

fn verify(args: &VerifyArgs) -> Result<(), Failure> {
    let inputs = read_inputs(&args.io.files)?;
    let mut out = Output::open(args.io.output.as_deref())?;
    let progress = Progress::new(inputs.iter().map(|i| i.data.len() as u64).sum());
    let mut scratch = Vec::new();
    let (mut good, mut bad) = (0u64, 0u64);
    for input in &inputs {
        for (line_no, _, line) in event_lines(&input.data) {
            progress.advance(line.len() as u64);
            match check(line, &mut scratch, args.id_only) {
                Ok(()) => good += 1,
                Err(reason) => {
                    bad += 1;
                    out.write(format!("{}:{line_no}: {reason}\n", input.name).as_bytes())?;
                }
            }
        }
    }
    progress.finish();
    let what = if args.id_only || !cfg!(feature = "schnorr") {
        "ids checked"
    } else {
        "ids and signatures checked"
    };
    eprintln!("{} events: {good} ok, {bad} bad ({what})", good + bad);
    out.commit()?;
    if bad > 0 {
        return Err(Failure::msg(format!("{bad} bad event(s)")));
    }
    Ok(())
}

fn check(line: &[u8], scratch: &mut Vec<u8>, id_only: bool) -> Result<(), String> {
    let event = Event::parse(line).map_err(|e| e.to_string())?;
    let computed = nostr::event_id_with(scratch, &event);
    if computed != event.id {
        return Err(format!(
            "id mismatch: the event says {}, its contents hash to {}",
            ito::hex::encode(&event.id),
            ito::hex::encode(&computed)
        ));
    }
    if !id_only {
        check_signature(&event)?;
    }
    Ok(())
}

#[cfg(feature = "schnorr")]
fn check_signature(event: &Event<'_>) -> Result<(), String> {
    if nostr::verify_signature(event) {
        Ok(())
    } else {
        Err("invalid Schnorr signature".to_string())
    }
}

#[cfg(not(feature = "schnorr"))]
fn check_signature(_: &Event<'_>) -> Result<(), String> {
    Ok(())
}
