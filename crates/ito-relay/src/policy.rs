//! Policy hooks: plain functions that refuse what a relay does not want,
//! the way a custom relay is a few lines on top of this one.

use ito::nostr::{Event, Filter};
use std::net::SocketAddr;

/// What a relay accepts beyond the NIPs. Every method has a default that
/// accepts; implement the ones you need.
///
/// ```
/// use ito::nostr::Event;
/// use ito_relay::Policy;
/// /// Only text notes, and nothing from one address.
/// struct NotesOnly;
/// impl Policy for NotesOnly {
///     fn reject_event(&self, event: &Event<'_>) -> Option<String> {
///         (event.kind != 1).then(|| "blocked: only kind 1 here".to_owned())
///     }
///     fn accept_connection(&self, peer: std::net::SocketAddr) -> bool {
///         peer.ip() != std::net::Ipv4Addr::new(192, 0, 2, 1)
///     }
/// }
/// let relay_policy: std::sync::Arc<dyn Policy> = std::sync::Arc::new(NotesOnly);
/// # let _ = relay_policy;
/// ```
pub trait Policy: Send + Sync + 'static {
    /// Called for every event whose id and signature hold, before it
    /// reaches the writer (on the verification pool, so it may be slow
    /// without holding up sockets). `Some(message)` refuses the event with
    /// `OK false` and `message`, which should start with a NIP-01 prefix
    /// (`blocked:`, `restricted:`, ...).
    fn reject_event(&self, event: &Event<'_>) -> Option<String> {
        let _ = event;
        None
    }

    /// Called for every `REQ` and `COUNT` within the limits;
    /// `Some(message)` refuses it with `CLOSED` and `message`.
    fn reject_filters(&self, filters: &[Filter<'_>]) -> Option<String> {
        let _ = filters;
        None
    }

    /// Called when a connection proves (NIP-42 `AUTH`) that it holds the
    /// key `pubkey`, after the event's checks passed; `Some(message)`
    /// refuses it with `OK false` and `message` (start it with
    /// `restricted:`), and the connection stays unauthenticated as that
    /// key.
    fn on_auth(&self, pubkey: &[u8; 32]) -> Option<String> {
        let _ = pubkey;
        None
    }

    /// Called when a client asks for a websocket; `false` refuses it with
    /// HTTP 403.
    fn accept_connection(&self, peer: SocketAddr) -> bool {
        let _ = peer;
        true
    }
}

/// The policy that accepts everything the NIPs allow.
#[derive(Clone, Copy, Debug, Default)]
pub struct AcceptAll;

impl Policy for AcceptAll {}
