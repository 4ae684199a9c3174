//! `ito relay`: serve, import and export a relay database. Arguments and
//! I/O only; the relay is `ito_relay`.

use crate::io::{line_failure, open_inputs, stream_lines, Failure, Output};
use clap::{Args, Subcommand};
use std::io;
use std::path::{Path, PathBuf};

const DEFAULT_DB: &str = "./ito-relay-db";

#[derive(Subcommand)]
pub(crate) enum RelayCommand {
    /// Serve a Nostr relay (NIP-01, 09, 11, 40, 42, 45) on an LMDB database until SIGINT/SIGTERM.
    Serve(ServeArgs),
    /// Verify and store events from JSON lines (files or stdin), in bounded memory.
    Import(ImportArgs),
    /// Write the stored events as JSON lines, newest first.
    Export(ExportArgs),
}

#[derive(Args)]
pub(crate) struct DbArg {
    /// The database directory (created if missing).
    #[arg(long, value_name = "DIR", default_value = DEFAULT_DB)]
    db: PathBuf,
}

#[derive(Args)]
pub(crate) struct ServeArgs {
    #[command(flatten)]
    db: DbArg,
    /// Address to listen on [default: 127.0.0.1:7777, or the config file's `listen`].
    #[arg(long, value_name = "ADDR")]
    listen: Option<std::net::SocketAddr>,
    /// A JSON configuration file: `listen`, `name`, `description`, `purge_interval_secs`, `auth`, `relay_url`, `limits`.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Turn on NIP-42 AUTH: kinds 4 and 1059 are then served only to their authenticated author or recipients.
    #[arg(long)]
    auth: bool,
    /// The URL clients reach the relay at, whose host AUTH events must name [default: the Host header].
    #[arg(long, value_name = "URL")]
    relay_url: Option<String>,
}

#[derive(Args)]
pub(crate) struct ImportArgs {
    #[command(flatten)]
    db: DbArg,
    /// JSON-lines files of signed events (stdin when none, or `-`).
    files: Vec<PathBuf>,
}

#[derive(Args)]
pub(crate) struct ExportArgs {
    #[command(flatten)]
    db: DbArg,
    /// Only events matching this NIP-01 filter (its `limit` is honoured).
    #[arg(long, value_name = "JSON")]
    filter: Option<String>,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

pub(crate) fn run(cmd: RelayCommand) -> Result<(), Failure> {
    match cmd {
        RelayCommand::Serve(args) => serve(&args),
        RelayCommand::Import(args) => import(&args),
        RelayCommand::Export(args) => export(&args),
    }
}

fn open(db: &Path) -> Result<ito_relay::LmdbStore, Failure> {
    ito_relay::LmdbStore::open(db).map_err(|e| Failure::msg(format!("{}: {e}", db.display())))
}

fn serve(args: &ServeArgs) -> Result<(), Failure> {
    let mut config = match &args.config {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure::msg(format!("{}: cannot read: {e}", path.display())))?;
            ito_relay::Config::from_json(&text)
                .map_err(|e| Failure::msg(format!("{}: {e}", path.display())))?
        }
        None => ito_relay::Config::default(),
    };
    if let Some(listen) = args.listen {
        config.listen = listen;
    }
    config.auth |= args.auth;
    if let Some(url) = &args.relay_url {
        config.relay_url = Some(url.clone());
    }
    let db = &args.db.db;
    ito_relay::serve_until_signal(db, config, |addr| {
        eprintln!("ito relay: serving {} on ws://{addr}", db.display());
    })
    .map_err(|e| Failure::msg(format!("ito relay: {e}")))?;
    eprintln!("ito relay: stopped");
    Ok(())
}

fn import(args: &ImportArgs) -> Result<(), Failure> {
    let store = open(&args.db.db)?;
    let inputs = open_inputs(&args.files)?;
    let mut importer = ito_relay::Importer::new(&store);
    let mut refused = 0u64;
    stream_lines(
        inputs,
        "events",
        ito_relay::prepare_import,
        |name, n, line, prepared| match prepared {
            Ok(None) => Ok(()),
            Ok(Some(json)) => importer
                .add(json)
                .map_err(|e| Failure::msg(format!("{}: {e}", args.db.db.display()))),
            Err(reason) => {
                refused += 1;
                eprintln!("{}", line_failure(name, n, line, 0, reason).message);
                Ok(())
            }
        },
    )?;
    let stats = importer
        .finish()
        .map_err(|e| Failure::msg(format!("{}: {e}", args.db.db.display())))?;
    eprintln!(
        "ito relay: {} stored, {} not stored by the NIP rules (duplicates, replaced, deleted, expired, ephemeral), {refused} invalid",
        stats.stored, stats.skipped
    );
    Ok(())
}

/// `io::Write` over the CLI's atomic output.
struct Sink<'a>(&'a mut Output);

impl io::Write for Sink<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .write(buf)
            .map_err(|f| io::Error::new(io::ErrorKind::BrokenPipe, f.message))?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn export(args: &ExportArgs) -> Result<(), Failure> {
    let filter = args
        .filter
        .as_deref()
        .map(|text| ito::nostr::Filter::parse(text.as_bytes()))
        .transpose()
        .map_err(|e| Failure::msg(format!("--filter: {e}")))?;
    let store = open(&args.db.db)?;
    let mut out = Output::open(args.output.as_deref())?;
    ito_relay::export(&store, filter.as_ref(), &mut Sink(&mut out)).map_err(Failure::write)?;
    out.commit()
}
