//! One connection's outbound side, shared by its socket task, the writer
//! thread, query threads and the fan-out: a queue of frames with a byte
//! bound. A reader that lets more than the bound pile up is disconnected.
//!
//! A stored query streams many frames at once: it frames them into one
//! buffer ([`Frames`]) and queues the batch as one item, so the socket
//! task is woken once per batch instead of once per event, and no event
//! gets an allocation of its own.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use tokio::sync::{mpsc, Notify};

/// An outbound frame.
#[derive(Debug)]
pub(crate) enum Out {
    Text(String),
    /// Several text frames, back to back in one buffer.
    Frames(Frames),
    /// Close with this code and reason, then stop.
    Close(u16, &'static str),
}

/// Text frames framed back to back into one buffer: frame `i` is
/// `text[ends[i - 1]..ends[i]]` (from 0 for the first).
#[derive(Debug, Default)]
pub(crate) struct Frames {
    text: Vec<u8>,
    ends: Vec<usize>,
}

impl Frames {
    /// Makes room for `bytes` more of frames.
    pub(crate) fn reserve(&mut self, bytes: usize) {
        self.text.reserve(bytes);
        self.ends.reserve(bytes / 512);
    }

    /// Appends the frame `head . body . tail` (one copy of `body`).
    pub(crate) fn push(&mut self, head: &[u8], body: &[u8], tail: &[u8]) {
        self.text.reserve(head.len() + body.len() + tail.len());
        self.text.extend_from_slice(head);
        self.text.extend_from_slice(body);
        self.text.extend_from_slice(tail);
        self.ends.push(self.text.len());
    }

    /// Bytes held.
    pub(crate) fn len(&self) -> usize {
        self.text.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The frames, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &[u8]> + '_ {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(self.ends.iter()).map(|(a, &b)| &self.text[a..b])
    }

    /// The buffer and where each frame ends (ascending).
    pub(crate) fn into_parts(self) -> (Vec<u8>, Vec<usize>) {
        (self.text, self.ends)
    }
}

#[derive(Debug)]
pub(crate) struct Conn {
    pub(crate) id: u64,
    tx: mpsc::UnboundedSender<Out>,
    queued: AtomicUsize,
    max_queued: usize,
    killed: AtomicBool,
    /// Woken when the connection is to be dropped (slow reader).
    pub(crate) kill: Notify,
    /// `EVENT`s handed to verification or the writer and not answered.
    pub(crate) in_flight: AtomicUsize,
    /// Woken when `in_flight` drops to zero.
    pub(crate) drained: Notify,
    /// Woken whenever an `EVENT` is answered.
    pub(crate) answered: Notify,
    /// `REQ`s and `COUNT`s waiting for or running their stored part.
    pub(crate) queries: AtomicUsize,
    /// The keys this connection authenticated as (NIP-42); read by the
    /// fan-out to decide who sees a direct message.
    authed: Mutex<Vec<[u8; 32]>>,
}

impl Conn {
    pub(crate) fn new(id: u64, max_queued: usize) -> (Conn, mpsc::UnboundedReceiver<Out>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (
            Conn {
                id,
                tx,
                queued: AtomicUsize::new(0),
                max_queued,
                killed: AtomicBool::new(false),
                kill: Notify::new(),
                in_flight: AtomicUsize::new(0),
                drained: Notify::new(),
                answered: Notify::new(),
                queries: AtomicUsize::new(0),
                authed: Mutex::new(Vec::new()),
            },
            rx,
        )
    }

    /// Queues a text frame; false when the connection is gone or was just
    /// dropped for exceeding its bound.
    pub(crate) fn send(&self, frame: Vec<u8>) -> bool {
        let len = frame.len();
        if !self.admit(len) {
            return false;
        }
        // Frames are built from validated UTF-8 (parsed events, escaped
        // strings); a failure here would be a bug, and drops the frame.
        match String::from_utf8(frame) {
            Ok(text) => self.tx.send(Out::Text(text)).is_ok(),
            Err(_) => {
                self.queued.fetch_sub(len, Ordering::Relaxed);
                false
            }
        }
    }

    /// Queues a batch of text frames as one item, counted against the
    /// bound like [`Conn::send`]; false as for [`Conn::send`]. The socket
    /// task checks each frame's UTF-8 as it writes it.
    pub(crate) fn send_frames(&self, frames: Frames) -> bool {
        if frames.is_empty() {
            return !self.is_killed();
        }
        let len = frames.len();
        self.admit(len) && self.tx.send(Out::Frames(frames)).is_ok()
    }

    /// Counts `len` more bytes queued; false (and the connection dropped)
    /// when that passes the bound, or when it is already gone.
    fn admit(&self, len: usize) -> bool {
        if self.killed.load(Ordering::Relaxed) {
            return false;
        }
        let before = self.queued.fetch_add(len, Ordering::Relaxed);
        if before + len > self.max_queued {
            self.queued.fetch_sub(len, Ordering::Relaxed);
            self.kill();
            return false;
        }
        true
    }

    /// Bytes queued and not yet written to the socket.
    pub(crate) fn queued(&self) -> usize {
        self.queued.load(Ordering::Relaxed)
    }

    /// Half the bound: where a query waits for the reader instead of
    /// queueing more.
    pub(crate) fn soft_bound(&self) -> usize {
        self.max_queued / 2
    }

    pub(crate) fn written(&self, len: usize) {
        self.queued.fetch_sub(len, Ordering::Relaxed);
    }

    pub(crate) fn close(&self, code: u16, reason: &'static str) {
        let _ = self.tx.send(Out::Close(code, reason));
    }

    pub(crate) fn kill(&self) {
        if !self.killed.swap(true, Ordering::Relaxed) {
            self.kill.notify_one();
        }
    }

    pub(crate) fn is_killed(&self) -> bool {
        self.killed.load(Ordering::Relaxed)
    }

    /// The keys the connection authenticated as, so far.
    pub(crate) fn authed(&self) -> Vec<[u8; 32]> {
        self.authed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Runs `f` on the keys the connection authenticated as, without a copy.
    pub(crate) fn with_authed<R>(&self, f: impl FnOnce(&[[u8; 32]]) -> R) -> R {
        f(&self.authed.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Records that the connection authenticated as `pubkey`.
    pub(crate) fn add_authed(&self, pubkey: [u8; 32]) {
        let mut keys = self.authed.lock().unwrap_or_else(|e| e.into_inner());
        if !keys.contains(&pubkey) {
            keys.push(pubkey);
        }
    }

    pub(crate) fn begin_event(&self) {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
    }

    pub(crate) fn end_event(&self) {
        if self.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.drained.notify_waiters();
        }
        self.answered.notify_one();
    }
}
