#![warn(missing_docs)]
//! A Nostr relay on ito: NIP-01 on an embedded database, durable, with
//! the NIPs' rules read strictly.
//!
//! ```text
//! socket task ──EVENT──> rayon: parse, verify id + signature ──> writer thread
//!      │                                                           │ one transaction
//!      │<────────────────────── OK (after the commit) ─────────────┤ per wake-up
//!      │                                                           │
//!      ├──REQ──> blocking pool: EventStore::query ──> EVENT… EOSE  │ (applied, before
//!      │         (registered first in the fan-out)                 v  the sync)
//!      │<──────────── live EVENTs <── Fanout: one FilterIndex over every subscription
//! ```
//!
//! - [`EventStore`]: where events live, with NIP-01/09/40 rules and
//!   streamed queries; [`LmdbStore`] (default, durable) and
//!   [`MemoryStore`]. Both are ordered tables underneath and share one
//!   implementation of the rules and of the query engine, so they answer
//!   alike (the oracle test holds both to a brute-force scan). Each stored
//!   event gets a sequence number: the event rows are keyed by it, so a
//!   new event is appended at the end of the database instead of dirtying
//!   a random page, and index keys end in a 24-byte `!created_at .
//!   id[..8] . seq` (the layout, format 3, is in `store/keys.rs`). A
//!   database of another format is refused with [`StoreError::Format`]:
//!   move it with `ito relay export` (old build), `ito relay import` (new).
//! - [`Relay`]: sockets, limits ([`Limits`], one place, printed in NIP-11),
//!   the group-commit writer, fan-out, shutdown; [`Policy`] hooks refuse
//!   events, filters or connections beyond what the NIPs say.
//! - [`Session`]: one connection's protocol without a socket (`session.rs`,
//!   which the socket task also runs), for tests and the `relay_conn` fuzz
//!   target.
//! - Stored queries share [`Limits::query_workers`] workers in arrival
//!   order and in 10 ms slices (`turn.rs`), so one expensive `REQ` or
//!   `COUNT`, or a client that stops reading, holds up no other query.
//! - [`serve_until_signal`], [`Importer`], [`export`]: what `ito relay
//!   serve`, `import` and `export` call.
//!
//! # The rules, strictly
//!
//! - `OK true` only after the transaction holding the event committed and
//!   synced; `duplicate:` (accepted) for an event already stored; `invalid:`
//!   for bad ids, signatures, upper-case hex, expired events and too many
//!   tags; `blocked:` for events their author deleted; `rate-limited:`.
//! - Live subscribers get an event once its transaction applied it,
//!   before the sync (milliseconds on a shared disk): a crash can lose an
//!   event a subscriber saw, never one acknowledged to its publisher.
//! - Answers hold exactly `min(limit, matches)` events per filter, newest
//!   first, ties by lowest id, no event twice across the filters of one
//!   `REQ`; `limit` bounds the stored part only.
//! - Replaceable (0, 3, 10000–19999) and addressable (30000–39999, a missing
//!   `d` is `""`) events: only the newest, ties by lowest id. An older one
//!   is refused with `duplicate:`.
//! - Ephemeral events (20000–29999) are delivered live and never stored.
//! - NIP-09 by `e` and `a`, the author's own events only; a deleted event,
//!   or one arriving after its author's request named it, is refused; a
//!   request naming a request does nothing; requests are kept and served.
//! - NIP-40: refused when expired on arrival, never served, purged by the
//!   writer every `purge_interval`.
//! - `COUNT` (NIP-45) is answered exactly.
//! - NIP-42 `AUTH` when [`Config::auth`] is on (off by default): a
//!   challenge on connect; kinds 4 and 1059 served, stored and live, only
//!   to a connection authenticated as their author or a `p`-tagged
//!   recipient; a `REQ`/`COUNT` that asks for them by kind (4 or 1059
//!   in `kinds`) from a connection not authenticated gets `CLOSED`
//!   `auth-required:`, and every other query is answered without the
//!   events its reader may not see. The checks and the relay-URL rule
//!   are in `auth.rs`.
//! - An empty or 65-character subscription id gets `CLOSED`; a message
//!   that cannot be processed gets `OK false`, `CLOSED` or a `NOTICE`,
//!   whichever names it, never silence.
//!
//! # Embedding
//!
//! ```
//! use std::sync::Arc;
//! use ito_relay::{Config, MemoryStore, Relay};
//! # let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build()?;
//! # rt.block_on(async {
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
//! let relay = Relay::new(Arc::new(MemoryStore::new()), Config::default());
//! let serving = tokio::spawn(relay.serve(listener, async { stopped.await.ok(); }));
//! // ... clients connect to ws://<listener address>/ ...
//! stop.send(()).ok();
//! serving.await??;
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! # }).map_err(|e| e as Box<dyn std::error::Error>)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Crates, and why
//!
//! - `heed` (LMDB): one writer and readers that never block; copy-on-write
//!   pages, so `kill -9` leaves the last commit and no repair step.
//! - `tokio` (only the runtime, sockets, timers, channels and signals) and
//!   `tokio-tungstenite` for WebSocket frames. The HTTP head is read here,
//!   so NIP-11 shares the port without an HTTP server crate; the framing
//!   crate could be swapped (e.g. for `fastwebsockets`) behind the same
//!   per-connection queue if a measurement shows it pays.
//! - `rayon` for signature checks on every core, off the socket tasks.
//!
//! # Not yet
//!
//! The comparison benchmark against other relays is still to come.
//!
//! # A store for more than one machine
//!
//! A store for PostgreSQL, FoundationDB or the like implements
//! [`EventStore`]: `write_batch` applies a batch in one transaction and
//! returns after the commit is durable, with a batch number that grows per
//! commit; `query` reads one consistent snapshot and returns the batch
//! number it includes (the fan-out uses it so that no event is lost or
//! sent twice around `EOSE`). On FoundationDB the tables of this crate's
//! key layout map one to one onto key ranges (the index keys already sort
//! newest first) and the batch number is a versionstamp. On PostgreSQL the
//! events are one table with the canonical JSON in a `bytea` column,
//! B-tree indexes on `(pubkey, created_at DESC, id)`, `(kind, created_at
//! DESC, id)` and a tag table `(name, value, created_at DESC, id)`; each
//! filter is one `ORDER BY created_at DESC, id LIMIT n` query, merged as
//! here, read at `REPEATABLE READ` with the batch number read inside it.
//! The NIP rules need only get, seek, put and delete inside a transaction,
//! so they carry over unchanged. Several relay processes can then share
//! the database, each feeding its own fan-out from the database's change
//! feed (FoundationDB watches, PostgreSQL `LISTEN`/`NOTIFY`).
mod auth;
mod config;
mod conn;
mod fanout;
pub mod nip;
mod policy;
mod server;
mod session;
mod store;
mod tools;
mod turn;
mod writer;

pub use config::{Config, Limits};
pub use policy::{AcceptAll, Policy};
pub use server::Relay;
pub use session::Session;
pub use store::{
    Batch, EventStore, LmdbStore, MemoryStore, Outcome, QuerySink, StoreError, DEFAULT_MAP_SIZE,
    TICK_EVERY,
};
pub use tools::{export, prepare_import, serve_until_signal, ImportStats, Importer};
