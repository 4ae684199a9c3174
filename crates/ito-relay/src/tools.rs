//! What the `ito relay` commands call: serving a directory until a
//! signal, importing JSON lines, exporting.

use crate::config::Config;
use crate::server::Relay;
use crate::store::{EventStore, LmdbStore, Outcome, StoreError};
use crate::writer::now;
use ito::nostr::{Event, Filter};
use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;

/// Serves the LMDB database in `db` as `config` says until SIGINT or
/// SIGTERM, then shuts down as [`Relay::serve`] describes. Builds its own
/// multi-threaded runtime; `ready` is called with the bound address.
pub fn serve_until_signal(
    db: &Path,
    config: Config,
    ready: impl FnOnce(std::net::SocketAddr),
) -> io::Result<()> {
    let store = Arc::new(LmdbStore::open(db).map_err(io::Error::other)?);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.listen).await?;
        ready(listener.local_addr()?);
        Relay::new(store, config).serve(listener, signal()).await
    })
}

async fn signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Checks one JSON line for import: `Ok(None)` for a blank line, the
/// event's canonical JSON when its id and signature hold, else why not.
/// Pure and thread-safe: run it on every core (the CLI streams lines
/// through `ito::nostr::batch::for_each_line`).
///
/// ```
/// assert_eq!(ito_relay::prepare_import(b"  "), Ok(None));
/// assert!(ito_relay::prepare_import(br#"{"id":"00"}"#).is_err());
/// ```
pub fn prepare_import(line: &[u8]) -> Result<Option<Vec<u8>>, String> {
    if line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
        return Ok(None);
    }
    let event = Event::parse(line).map_err(|e| e.to_string())?;
    if !ito::nostr::verify_id(&event) {
        return Err("the id does not match the event".to_owned());
    }
    if !ito::nostr::verify_signature(&event) {
        return Err("invalid Schnorr signature".to_owned());
    }
    let mut json = Vec::with_capacity(line.len());
    event.to_json(&mut json);
    Ok(Some(json))
}

/// What an import did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImportStats {
    /// Events stored.
    pub stored: u64,
    /// Events refused by the NIP rules (duplicate, superseded, deleted,
    /// expired, ephemeral).
    pub skipped: u64,
}

/// Writes prepared events in transactions of [`Importer::BATCH`].
///
/// ```
/// use ito_relay::{Importer, MemoryStore};
/// let store = MemoryStore::new();
/// let mut importer = Importer::new(&store);
/// let stats = importer.finish()?;
/// assert_eq!(stats.stored, 0);
/// # Ok::<(), ito_relay::StoreError>(())
/// ```
pub struct Importer<'s> {
    store: &'s dyn EventStore,
    pending: Vec<Vec<u8>>,
    stats: ImportStats,
}

impl std::fmt::Debug for Importer<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Importer")
            .field("stats", &self.stats)
            .finish()
    }
}

impl<'s> Importer<'s> {
    /// Events per transaction.
    pub const BATCH: usize = 2048;

    /// An importer into `store`.
    pub fn new(store: &'s dyn EventStore) -> Importer<'s> {
        Importer {
            store,
            pending: Vec::with_capacity(Self::BATCH),
            stats: ImportStats::default(),
        }
    }

    /// Adds one prepared event (see [`prepare_import`]).
    pub fn add(&mut self, json: Vec<u8>) -> Result<(), StoreError> {
        self.pending.push(json);
        if self.pending.len() >= Self::BATCH {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), StoreError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let refs: Vec<&[u8]> = self.pending.iter().map(Vec::as_slice).collect();
        let batch = self.store.write_batch(&refs, now())?;
        for o in batch.outcomes {
            if o == Outcome::Stored {
                self.stats.stored += 1;
            } else {
                self.stats.skipped += 1;
            }
        }
        self.pending.clear();
        Ok(())
    }

    /// Commits what is left and returns the totals.
    pub fn finish(mut self) -> Result<ImportStats, StoreError> {
        self.flush()?;
        Ok(self.stats)
    }
}

/// Writes every stored event matching `filter` (all when `None`) to
/// `out`, one JSON line each, newest first; returns how many. The
/// filter's `limit` is honoured; without one, everything is written.
///
/// ```
/// let store = ito_relay::MemoryStore::new();
/// let mut out = Vec::new();
/// assert_eq!(ito_relay::export(&store, None, &mut out)?, 0);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn export(
    store: &dyn EventStore,
    filter: Option<&Filter<'_>>,
    out: &mut dyn Write,
) -> io::Result<u64> {
    let all = Filter::default();
    let filter = filter.unwrap_or(&all);
    let mut n = 0;
    let mut failed = None;
    store
        .query(std::slice::from_ref(filter), u64::MAX, now(), &mut |json| {
            let written = out.write_all(json).and_then(|()| out.write_all(b"\n"));
            match written {
                Ok(()) => {
                    n += 1;
                    true
                }
                Err(e) => {
                    failed = Some(e);
                    false
                }
            }
        })
        .map_err(io::Error::other)?;
    match failed {
        Some(e) => Err(e),
        None => Ok(n),
    }
}
