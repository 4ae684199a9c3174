//! A Nostr relay on ito.
pub mod nip;
mod store;

pub use store::{Batch, EventStore, LmdbStore, MemoryStore, Outcome, StoreError, DEFAULT_MAP_SIZE};
