//! Named threads that outlive their caller: [`Worker`](super::Worker)'s, and the upper layers'
//! background jobs (the tracing layer's writer, the shared log writer's flusher, the
//! object-store shipper). A failure to start one is returned as an [`Error`] that says which,
//! never dropped.

use std::thread::JoinHandle;

use crate::error::{Error, Result};

/// Starts a thread named `name` running `job`; `what` names it in the error when the system
/// cannot start it ("starting {what}").
pub(crate) fn spawn<T: Send + 'static>(
    name: &str,
    what: &str,
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<JoinHandle<T>> {
    std::thread::Builder::new()
        .name(name.into())
        .spawn(job)
        .map_err(|e| Error::from(e).context(format!("starting {what}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thread_is_named_and_its_result_comes_back() {
        let handle = spawn("parquet-serde-test", "a test thread", || {
            std::thread::current().name().map(str::to_string)
        })
        .unwrap();
        assert_eq!(
            handle.join().unwrap().as_deref(),
            Some("parquet-serde-test")
        );
    }
}
