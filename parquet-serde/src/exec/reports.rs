//! [`Reports`]: where the errors of a background thread go. A background thread has no
//! caller to return its errors to, and the library prints nothing: each error is counted
//! and kept as the last one (for the thread's handle to give back), and handed to the
//! user's `on_error` callback when one was set.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::error::Error;

/// A user's `on_error` callback.
pub(crate) type OnError = Arc<dyn Fn(&Error) + Send + Sync>;

/// The errors of one background thread: counted, the last one kept, and each given to the
/// callback, if any, as it happens.
pub(crate) struct Reports {
    on_error: Option<OnError>,
    kept: Mutex<Kept>,
}

/// What [`Reports`] keeps.
#[derive(Default)]
struct Kept {
    count: u64,
    last: Option<Error>,
}

impl std::fmt::Debug for Reports {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reports")
            .field("on_error", &self.on_error.is_some())
            .field("count", &self.count())
            .finish_non_exhaustive()
    }
}

impl Reports {
    /// Reports that go to `on_error`, if given.
    pub(crate) fn new(on_error: Option<OnError>) -> Reports {
        Reports {
            on_error,
            kept: Mutex::new(Kept::default()),
        }
    }

    /// Gives `e` to the callback (a panic in it is caught: a background thread must not
    /// stop for it), then counts it and keeps it as the last error.
    pub(crate) fn report(&self, e: Error) {
        self.notify(&e);
        self.keep(e);
    }

    /// Counts `e` and keeps it as the last error, without calling the callback (for an
    /// error that a rate limit holds back from it).
    pub(crate) fn keep(&self, e: Error) {
        let mut kept = self.lock();
        kept.count += 1;
        kept.last = Some(e);
    }

    /// Gives `notice` to the callback only: neither counted nor kept (for news that is not
    /// an error and is recorded elsewhere, as the counts of dropped log events).
    pub(crate) fn notify(&self, notice: &Error) {
        if let Some(f) = &self.on_error {
            let _ = catch_unwind(AssertUnwindSafe(|| f(notice)));
        }
    }

    /// The errors reported so far.
    pub(crate) fn count(&self) -> u64 {
        self.lock().count
    }

    /// The last error reported, unless taken already.
    pub(crate) fn take_last(&self) -> Option<Error> {
        self.lock().last.take()
    }

    fn lock(&self) -> MutexGuard<'_, Kept> {
        // Two plain fields, each written whole: consistent across a panic.
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn without_a_callback_errors_are_counted_and_the_last_kept() {
        let reports = Reports::new(None);
        reports.report(Error::data("first"));
        reports.keep(Error::data("second"));
        reports.notify(&Error::data("a notice"));
        assert_eq!(reports.count(), 2);
        assert_eq!(reports.take_last().unwrap().message(), "second");
        assert!(reports.take_last().is_none(), "taken");
        assert_eq!(reports.count(), 2, "the count stays");
    }

    #[test]
    fn the_callback_sees_reports_and_notices_and_may_panic() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        let reports = Reports::new(Some(Arc::new(move |e: &Error| {
            log.lock().unwrap().push(e.message().to_string());
            panic!("a callback that panics");
        })));
        reports.report(Error::new(ErrorKind::Io, "disk full"));
        reports.keep(Error::data("held back"));
        reports.notify(&Error::data("3 events dropped"));
        assert_eq!(*seen.lock().unwrap(), ["disk full", "3 events dropped"]);
        assert_eq!(reports.count(), 2);
        assert_eq!(reports.take_last().unwrap().message(), "held back");
    }
}
