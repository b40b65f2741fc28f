//! The tokio threads of remote reads: the runtime the library owns for fetches when the
//! caller gives none (feature `object_store`), and the blocking task that runs the
//! synchronous reader under an async row stream (feature `tokio`, on the caller's runtime).

/// A multi-thread tokio runtime with `workers` worker threads named `name`, I/O and timers
/// enabled; fails ("starting {what}") when it cannot start.
#[cfg(feature = "object_store")]
pub(crate) fn runtime(
    name: &str,
    workers: usize,
    what: &str,
) -> crate::error::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .thread_name(name)
        .enable_all()
        .build()
        .map_err(|e| crate::error::Error::from(e).context(format!("starting {what}")))
}

/// Runs `job` on the blocking threads of the runtime of `handle` (tokio starts them as it
/// needs them; a panic of `job` reaches its join handle).
#[cfg(feature = "tokio")]
pub(crate) fn blocking<T: Send + 'static>(
    handle: &tokio::runtime::Handle,
    job: impl FnOnce() -> T + Send + 'static,
) -> tokio::task::JoinHandle<T> {
    handle.spawn_blocking(job)
}
