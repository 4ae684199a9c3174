//! `ito`: the command-line face of the ito library. Argument parsing and I/O
//! only; every transformation is a library call.

mod hex;
mod intern;
mod io;
mod json;
mod json_get;
mod nip19;
mod nostr;
mod relay;
mod tour;
mod tour_relay;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

/// Fast, correct string work: JSON string codec, interning, Nostr and hex.
#[derive(Parser)]
#[command(name = "ito", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run every capability on built-in sample data and compare with std/serde_json.
    Tour(tour::TourArgs),
    /// JSON: string codec (quote, unquote, escape, unescape) and documents (check, fmt).
    #[command(subcommand)]
    Json(json::JsonCommand),
    /// Hex encode and decode.
    #[command(subcommand)]
    Hex(hex::HexCommand),
    /// Interning statistics.
    #[command(subcommand)]
    Intern(intern::InternCommand),
    /// Nostr events: ids, signatures (verify and sign), filters, NIP-19 strings.
    #[command(subcommand)]
    Nostr(nostr::NostrCommand),
    /// A Nostr relay: serve an LMDB database, import and export events.
    #[command(subcommand)]
    Relay(relay::RelayCommand),
}

/// Input files and output destination, shared by the streaming commands.
#[derive(Args, Clone)]
pub(crate) struct IoArgs {
    /// Input files (stdin when none, or `-`).
    files: Vec<PathBuf>,
    /// Write the result to FILE (atomically: a temporary file renamed into place).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Tour(args) => tour::run(&args),
        Command::Json(cmd) => json::run(cmd),
        Command::Hex(cmd) => hex::run(cmd),
        Command::Intern(cmd) => intern::run(cmd),
        Command::Nostr(cmd) => nostr::run(cmd),
        Command::Relay(cmd) => relay::run(cmd),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // `ito ... | head`: the reader went away; stop quietly.
        Err(failure) if failure.closed_pipe => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("{}", failure.message);
            ExitCode::FAILURE
        }
    }
}
