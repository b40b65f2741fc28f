//! [`SharedLogWriter`]: one [`LogWriter`] shared by many threads, flushed on a timer.

use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

use serde::Serialize;

use crate::core::schema::ParquetSchema;
use crate::error::{Error, Result};

use super::writer::LogWriter;

/// A cloneable handle to one [`LogWriter`]: every clone writes to the same files, one
/// row at a time under a lock. With a flush interval, a background thread flushes on
/// time even when no row comes; it stops when the last handle is dropped.
///
/// Made by [`LogWriter::into_shared`].
pub struct SharedLogWriter<T> {
    inner: Arc<Mutex<Option<LogWriter<T>>>>,
}

impl<T> Clone for SharedLogWriter<T> {
    fn clone(&self) -> Self {
        SharedLogWriter {
            inner: Arc::clone(&self.inner),
        }
    }
}

impl<T> std::fmt::Debug for SharedLogWriter<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedLogWriter").finish_non_exhaustive()
    }
}

impl<T: Serialize + ParquetSchema + 'static> LogWriter<T> {
    /// A handle for many threads; starts the timed flusher when a flush interval is set.
    /// Fails when the system cannot start that thread; the writer is then dropped as
    /// without [`close`](LogWriter::close) (its flushed rows are recovered by the next open).
    pub fn into_shared(self) -> Result<SharedLogWriter<T>> {
        let interval = self.flush_interval();
        let inner = Arc::new(Mutex::new(Some(self)));
        if let Some(interval) = interval {
            let weak = Arc::downgrade(&inner);
            crate::exec::spawn(
                "parquet-serde-log-flush",
                "the log flusher thread",
                move || flush_on_time(weak, interval),
            )?;
        }
        Ok(SharedLogWriter { inner })
    }
}

/// Flushes every `interval` until the writer is gone or closed.
fn flush_on_time<T: Serialize + ParquetSchema>(
    weak: Weak<Mutex<Option<LogWriter<T>>>>,
    interval: Duration,
) {
    let step = interval.min(Duration::from_millis(100));
    loop {
        std::thread::sleep(step);
        let Some(inner) = weak.upgrade() else { return };
        let mut guard = inner.lock().unwrap_or_else(|e| e.into_inner());
        let Some(writer) = guard.as_mut() else { return };
        // An error here shows again on the next write or flush.
        let _ = writer.tick();
    }
}

impl<T: Serialize + ParquetSchema> SharedLogWriter<T> {
    fn lock(&self) -> Result<MutexGuard<'_, Option<LogWriter<T>>>> {
        Ok(self.inner.lock().unwrap_or_else(|e| e.into_inner()))
    }

    fn with<R>(&self, f: impl FnOnce(&mut LogWriter<T>) -> Result<R>) -> Result<R> {
        let mut guard = self.lock()?;
        match guard.as_mut() {
            Some(w) => f(w),
            None => Err(Error::invalid_argument("the log writer is closed")),
        }
    }

    /// Writes one row (see [`LogWriter::write`]).
    pub fn write(&self, row: &T) -> Result<()> {
        self.with(|w| w.write(row))
    }

    /// Writes rows in order under one lock.
    pub fn write_all(&self, rows: &[T]) -> Result<()> {
        self.with(|w| w.write_all(rows))
    }

    /// Makes every row written so far, by any handle, durable.
    pub fn flush(&self) -> Result<()> {
        self.with(|w| w.flush())
    }

    /// Closes the writer for every handle; returns the final files it made. Later calls
    /// on any handle fail.
    pub fn close(&self) -> Result<Vec<std::path::PathBuf>> {
        let writer = self.lock()?.take();
        match writer {
            Some(w) => w.close(),
            None => Err(Error::invalid_argument("the log writer is closed")),
        }
    }
}
