//! The one place that owns threads. Everything the library runs off the calling thread
//! starts here, and a panic on any of those threads comes back as an [`Error`] of kind
//! [`ErrorKind::Internal`] that keeps the panic's message and names the thread or job.
//!
//! - [`scope`]: workers that may borrow from the caller, all joined before it returns;
//!   [`run_groups`] shares out items among them and gives the results back in order.
//! - [`Worker`]: a thread that outlives the call starting it (the row iterator's read-ahead,
//!   the writer's column pool), told to stop when its handle goes.
//! - [`Handoff`]: bounded lanes of items from workers to the calling thread, each read in
//!   the order it was filled; an error, the end of a worker or the reader going releases
//!   every waiter.
//! - [`prefault`]: a worker's job mapping a large buffer's pages ahead of its writes.
//! - [`Reports`]: where a background thread's errors go (counted, the last one kept, and
//!   given to the user's `on_error` callback, if any): the library prints nothing.
//! - [`spawn`]: a named thread for an upper layer's background job (the tracing layer's
//!   writer, the shared log writer's flusher, the object-store shipper), its start failure
//!   returned as an error.
//! - `runtime`, `blocking` (features `object_store`, `tokio`): the tokio runtime of remote
//!   fetches and the blocking task of an async row stream.
//!
//! Built on `std` alone (`std::thread::scope`, `Mutex` and `Condvar`): the jobs are few and
//! coarse (a column chunk, a run of pages, a copy of megabytes), so scheduling costs are
//! far below what they run.

mod handoff;
pub(crate) mod prefault;
// Where the background threads of the tracing layer and the shipper send their errors.
#[cfg(any(feature = "tracing", all(feature = "object_store", feature = "logs")))]
mod reports;
#[cfg(any(feature = "object_store", feature = "tokio"))]
mod runtime;
mod scope;
mod thread;
mod worker;

use std::any::Any;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::error::{Error, ErrorKind, Result};

pub(crate) use handoff::{Handoff, Producer, Taken};
#[cfg(any(feature = "tracing", all(feature = "object_store", feature = "logs")))]
pub(crate) use reports::{OnError, Reports};
#[cfg(feature = "tokio")]
pub(crate) use runtime::blocking;
#[cfg(feature = "object_store")]
pub(crate) use runtime::runtime;
pub(crate) use scope::{run_groups, scope};
// Named threads of the log store's flusher, the tracing layer and the shipper (`Worker` starts
// its thread through it too).
#[cfg(feature = "logs")]
pub(crate) use thread::spawn;
pub(crate) use worker::Worker;

/// Runs `job`, turning a panic into the error of [`panicked`] for `who` (the thread or the
/// job that ran it).
pub(crate) fn catch<T>(who: impl fmt::Display, job: impl FnOnce() -> Result<T>) -> Result<T> {
    catch_unwind(AssertUnwindSafe(job)).unwrap_or_else(|payload| Err(panicked(who, &*payload)))
}

/// The error of a panic of `who`, with the panic's message when it has one (the payload of
/// `panic!` with a literal, or with a formatted message).
pub(crate) fn panicked(who: impl fmt::Display, payload: &(dyn Any + Send)) -> Error {
    let what = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without a message");
    Error::new(ErrorKind::Internal, format!("{who} panicked: {what}"))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Runs `f` on a thread of its own and returns its result; fails when it has not
    /// returned within `secs` seconds, so that a hang fails the test instead of blocking it.
    pub(crate) fn within<T: Send + 'static>(
        secs: u64,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> T {
        let (done, wait) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = done.send(f());
        });
        wait.recv_timeout(std::time::Duration::from_secs(secs))
            .unwrap_or_else(|_| panic!("not done within {secs} s: it hangs"))
    }

    #[test]
    fn a_panic_keeps_its_message_and_says_who() {
        let e = catch("job 3", || -> Result<()> { panic!("literal message") }).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Internal);
        assert_eq!(e.message(), "job 3 panicked: literal message");
        let n = 7;
        let e = catch("worker w", || -> Result<()> { panic!("formatted {n}") }).unwrap_err();
        assert_eq!(e.message(), "worker w panicked: formatted 7");
        let e = catch("j", || -> Result<()> { std::panic::panic_any(5u8) }).unwrap_err();
        assert_eq!(e.message(), "j panicked: a panic without a message");
        // No panic: the job's own result.
        assert_eq!(catch("j", || Ok(4)).unwrap(), 4);
        let e = catch("j", || -> Result<()> { Err(Error::corrupt("bad")) }).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Corrupt);
    }
}
