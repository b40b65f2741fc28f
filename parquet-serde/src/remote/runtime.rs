//! [`Runtime`]: the tokio runtime remote fetches run on, owned or given, and [`wait`], the
//! one way a blocking thread waits for a future on it.

use std::future::Future;
use std::sync::Arc;

use tokio::runtime::Handle;

use crate::error::{Error, ErrorKind, Result};

/// A runtime the library started (one worker thread, shut down in the background when the
/// last user is dropped, so dropping it inside async code does not panic).
#[derive(Debug)]
struct Owned(Option<tokio::runtime::Runtime>);

impl Drop for Owned {
    fn drop(&mut self) {
        if let Some(rt) = self.0.take() {
            rt.shutdown_background();
        }
    }
}

/// Where remote fetches run: a runtime of the library's own, or a handle of the caller's.
#[derive(Debug, Clone)]
pub(crate) struct Runtime {
    handle: Handle,
    _owned: Option<Arc<Owned>>,
}

impl Runtime {
    /// A runtime with one worker thread (I/O and timers enabled), owned.
    #[cfg(feature = "object_store")]
    pub fn owned() -> Result<Runtime> {
        let rt = crate::exec::runtime("parquet-serde-fetch", 1, "a tokio runtime for fetches")?;
        Ok(Runtime {
            handle: rt.handle().clone(),
            _owned: Some(Arc::new(Owned(Some(rt)))),
        })
    }

    /// The caller's runtime.
    pub fn from_handle(handle: Handle) -> Runtime {
        Runtime {
            handle,
            _owned: None,
        }
    }

    /// The given handle, else an owned runtime.
    #[cfg(feature = "object_store")]
    pub fn given_or_owned(handle: Option<Handle>) -> Result<Runtime> {
        match handle {
            Some(h) => Ok(Runtime::from_handle(h)),
            None => Runtime::owned(),
        }
    }

    /// The runtime's handle.
    pub fn handle(&self) -> &Handle {
        &self.handle
    }
}

/// Runs `fut` on `runtime` and blocks the calling thread until it is done. The calling
/// thread must not be the one driving a current-thread `runtime` (its async code): that
/// runtime could not run `fut` while the thread waits. Blocking threads
/// (`spawn_blocking`) and plain threads are fine.
pub(crate) fn wait<T: Send + 'static>(
    runtime: &Runtime,
    fut: impl Future<Output = Result<T>> + Send + 'static,
) -> Result<T> {
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    let task = runtime.handle.spawn(async move {
        // The receiver is gone only when the waiting thread gave up.
        let _ = tx.send(fut.await);
    });
    match rx.recv() {
        Ok(out) => out,
        Err(_) => {
            task.abort();
            Err(Error::new(
                ErrorKind::Io,
                "the runtime shut down before the fetch finished",
            ))
        }
    }
}
