//! Time slices: a stored query's turn on the query workers.
//!
//! ```text
//! workers: a fair semaphore with Limits::query_workers permits
//! a query:  take its place in the queue when its message arrives (so
//!           queries start in the order they came), wait for a permit
//!           (its turn), then run on the blocking pool;
//!           every TICK_EVERY candidates: if it ran SLICE (10 ms) and all
//!             permits are taken, give its permit back and queue again
//!             (fair: the queries already waiting go first);
//!           while its reader is slow: give the permit back until the
//!             reader catches up
//! ```
//!
//! So one expensive `REQ` or `COUNT`, or one client that stops reading,
//! delays another connection's query by at most a slice, never by the
//! whole scan (strfry slices the same way).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};
use tokio::sync::{AcquireError, OwnedSemaphorePermit, Semaphore};

type Acquire = Pin<Box<dyn Future<Output = Result<OwnedSemaphorePermit, AcquireError>> + Send>>;

/// A query's place in the queue for a worker, taken when its message
/// arrives: the queries of all connections start in the order their
/// messages came, whatever order their tasks first run in.
pub(crate) struct Place {
    workers: Arc<Semaphore>,
    acquire: Result<Acquire, Option<OwnedSemaphorePermit>>,
}

impl Place {
    /// Joins the queue now.
    pub(crate) fn take(workers: &Arc<Semaphore>) -> Place {
        let mut acquire: Acquire = Box::pin(workers.clone().acquire_owned());
        // tokio's semaphore is first come, first served, and a waiter
        // joins the queue on its first poll: poll once here, then the
        // task that awaits it polls again with its own waker.
        let acquire = match acquire
            .as_mut()
            .poll(&mut Context::from_waker(Waker::noop()))
        {
            Poll::Pending => Ok(acquire),
            Poll::Ready(permit) => Err(permit.ok()),
        };
        Place {
            workers: workers.clone(),
            acquire,
        }
    }

    /// Waits for the turn (on the runtime, before the blocking part);
    /// `None` when the relay is closing the pool.
    pub(crate) async fn turn(self) -> Option<Turn> {
        let permit = match self.acquire {
            Ok(acquire) => acquire.await.ok()?,
            Err(permit) => permit?,
        };
        Some(Turn {
            workers: self.workers,
            permit: Some(permit),
            slice: Instant::now(),
            runtime: tokio::runtime::Handle::current(),
        })
    }
}

/// How long a query runs before it lets waiting queries have its worker.
pub(crate) const SLICE: Duration = Duration::from_millis(10);

/// One query's hold on a worker, given back now and then.
pub(crate) struct Turn {
    workers: Arc<Semaphore>,
    permit: Option<OwnedSemaphorePermit>,
    slice: Instant,
    runtime: tokio::runtime::Handle,
}

impl Turn {
    /// Marks the start of the running part (off the runtime).
    pub(crate) fn start(&mut self) {
        self.slice = Instant::now();
    }

    /// Whether [`Turn::tick`] would give the worker up now.
    pub(crate) fn due(&self) -> bool {
        self.permit.is_some()
            && self.slice.elapsed() >= SLICE
            && self.workers.available_permits() == 0
    }

    /// Called during a scan: after a slice, when every worker is taken,
    /// queues again behind the waiting queries. False when the pool is
    /// closed.
    pub(crate) fn tick(&mut self) -> bool {
        if self.slice.elapsed() >= SLICE && self.workers.available_permits() == 0 {
            self.permit = None;
            return self.resume();
        }
        true
    }

    /// Gives the worker back, e.g. while waiting for a slow reader.
    pub(crate) fn pause(&mut self) {
        self.permit = None;
    }

    /// Takes a worker again after [`Turn::pause`] (waiting behind the
    /// queries already queued); false when the pool is closed.
    pub(crate) fn resume(&mut self) -> bool {
        if self.permit.is_none() {
            match self.runtime.block_on(self.workers.clone().acquire_owned()) {
                Ok(p) => self.permit = Some(p),
                Err(_) => return false,
            }
            self.slice = Instant::now();
        }
        true
    }
}
