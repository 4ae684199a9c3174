//! A Nostr relay on ito.
mod config;
mod conn;
mod fanout;
pub mod nip;
mod server;
mod store;
mod tools;
mod writer;

pub use config::{Config, Limits};
pub use server::Relay;
pub use store::{Batch, EventStore, LmdbStore, MemoryStore, Outcome, StoreError, DEFAULT_MAP_SIZE};
pub use tools::{export, prepare_import, serve_until_signal, ImportStats, Importer};
