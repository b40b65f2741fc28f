//! [`Worker`]: a thread that may outlive the call that started it.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

use crate::error::{Error, Result};

use super::{catch, panicked};

/// Asked of a [`Worker`]'s job now and then: whether its handle has gone (or asked it to
/// stop), so that the rest of its work is not wanted.
#[derive(Debug, Clone, Default)]
pub(crate) struct Stop(Arc<AtomicBool>);

impl Stop {
    /// Whether the worker should stop.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A job on a thread of its own. Dropping the handle tells the job to stop (through its
/// [`Stop`]) without waiting for it; [`join`](Self::join) waits for its result.
pub(crate) struct Worker<T> {
    name: String,
    handle: Option<JoinHandle<Result<T>>>,
    stop: Stop,
}

impl<T: Send + 'static> Worker<T> {
    /// Starts `job` on a new thread called `name`. A panic of the job is its error (see
    /// [`panicked`]). Fails when no thread could start.
    pub fn spawn(
        name: impl Into<String>,
        job: impl FnOnce(&Stop) -> Result<T> + Send + 'static,
    ) -> Result<Self> {
        let name = name.into();
        let who = name.clone();
        let stop = Stop::default();
        let theirs = stop.clone();
        let handle = super::thread::spawn(&name, &format!("thread {name}"), move || {
            catch(format_args!("thread {who}"), || job(&theirs))
        })?;
        Ok(Worker {
            name,
            handle: Some(handle),
            stop,
        })
    }
}

impl<T> Worker<T> {
    /// Waits for the job's result.
    pub fn join(mut self) -> Result<T> {
        let handle = self.handle.take();
        let joined = handle.map(JoinHandle::join);
        match joined {
            Some(Ok(result)) => result,
            // The job's panics are caught on its thread; this is for completeness.
            Some(Err(payload)) => Err(panicked(format_args!("thread {}", self.name), &*payload)),
            None => Err(Error::new(
                crate::ErrorKind::Internal,
                format!("thread {} was already joined", self.name),
            )),
        }
    }
}

impl<T> fmt::Debug for Worker<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Worker")
            .field("name", &self.name)
            .field("stopped", &self.stop.is_set())
            .finish_non_exhaustive()
    }
}

impl<T> Drop for Worker<T> {
    fn drop(&mut self) {
        self.stop.set();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::tests::within;
    use crate::ErrorKind;
    use std::time::Duration;

    #[test]
    fn join_gives_the_result_or_the_panic() {
        let w = Worker::spawn("test-worker", |_| Ok(21 * 2)).unwrap();
        assert_eq!(within(10, move || w.join().unwrap()), 42);
        let w = Worker::spawn("test-worker-panics", |_| -> Result<()> {
            panic!("worker panics on purpose")
        })
        .unwrap();
        let e = within(10, move || w.join().unwrap_err());
        assert_eq!(e.kind(), ErrorKind::Internal);
        assert_eq!(
            e.message(),
            "thread test-worker-panics panicked: worker panics on purpose"
        );
    }

    #[test]
    fn dropping_the_handle_stops_the_job() {
        let (tx, rx) = std::sync::mpsc::channel();
        let w = Worker::spawn("test-stoppable", move |stop| {
            while !stop.is_set() {
                std::thread::sleep(Duration::from_millis(1));
            }
            let _ = tx.send(());
            Ok(())
        })
        .unwrap();
        drop(w);
        rx.recv_timeout(Duration::from_secs(10))
            .expect("the job sees the stop");
    }
}
