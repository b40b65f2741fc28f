//! The `tracing` layer (feature `tracing`): [`TracingLayer::builder`] → (layer, guard).

mod batch;
mod fields;
mod hub;
mod layer;
mod row;
#[cfg(test)]
mod tests;
mod visit;
mod worker;

use std::path::Path;
use std::sync::mpsc::sync_channel;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use crate::error::{Error, Result};
use crate::file::WriterOptions;

use super::{LogWriter, LogWriterBuilder, SyncPolicy, TimePartition};

use batch::{Cursor, BATCH_EVENTS};
use hub::Hub;
pub use layer::{Overflow, TracingLayer};
pub use row::{LogEvent, LogLevel, SpanRecord};
use worker::OnError;

/// Settings of a [`TracingLayer`], made by [`TracingLayer::builder`].
pub struct TracingLayerBuilder {
    writer: LogWriterBuilder<Cursor>,
    capacity: usize,
    overflow: Overflow,
    flush_interval: Duration,
    on_error: Option<OnError>,
}

impl std::fmt::Debug for TracingLayerBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TracingLayerBuilder")
            .field("writer", &self.writer)
            .field("capacity", &self.capacity)
            .field("overflow", &self.overflow)
            .field("flush_interval", &self.flush_interval)
            .finish_non_exhaustive()
    }
}

impl TracingLayer {
    /// Settings for a layer writing to the folder `dir`: hourly partitions by event time,
    /// a flush every second, room for 8,192 events waiting for the writer thread, beyond
    /// which events are dropped (and counted), zstd files.
    pub fn builder(dir: impl AsRef<Path>) -> TracingLayerBuilder {
        TracingLayerBuilder {
            writer: LogWriter::builder(dir)
                .partition(TimePartition::Hourly)
                .time_field(Cursor::ts)
                .options(WriterOptions::default().compression(crate::Compression::Zstd(3))),
            capacity: 1 << 13,
            overflow: Overflow::Drop,
            flush_interval: Duration::from_secs(1),
            on_error: None,
        }
    }
}

impl TracingLayerBuilder {
    /// Folders by event time (default: [`TimePartition::Hourly`]).
    pub fn partition(mut self, partition: TimePartition) -> Self {
        self.writer = self.writer.partition(partition);
        self
    }

    /// Events that may wait for the writer thread (default 8,192), counted in whole
    /// batches of 128 (at least one batch). Each application thread also fills a batch
    /// of its own before handing it over. A waiting event takes about 300 bytes for an
    /// event with a few fields in one span (a fixed head, its message, its VARIANT bytes).
    pub fn capacity(mut self, events: usize) -> Self {
        self.capacity = events.max(1);
        self
    }

    /// What to do when the capacity is reached (default: [`Overflow::Drop`]).
    pub fn overflow(mut self, overflow: Overflow) -> Self {
        self.overflow = overflow;
        self
    }

    /// How often the writer thread flushes (default: every second).
    pub fn flush_interval(mut self, interval: Duration) -> Self {
        self.flush_interval = interval;
        self
    }

    /// Rolls files at about this many bytes (see [`LogWriterBuilder::roll_bytes`]).
    pub fn roll_bytes(mut self, bytes: u64) -> Self {
        self.writer = self.writer.roll_bytes(bytes);
        self
    }

    /// Rolls files at this age (see [`LogWriterBuilder::roll_interval`]).
    pub fn roll_interval(mut self, interval: Duration) -> Self {
        self.writer = self.writer.roll_interval(interval);
        self
    }

    /// The options of the files (default: zstd level 3).
    pub fn options(mut self, options: WriterOptions) -> Self {
        self.writer = self.writer.options(options);
        self
    }

    /// Retention by count (see [`LogWriterBuilder::keep_files`]).
    pub fn keep_files(mut self, n: usize) -> Self {
        self.writer = self.writer.keep_files(n);
        self
    }

    /// Retention by age (see [`LogWriterBuilder::keep_age`]).
    pub fn keep_age(mut self, age: Duration) -> Self {
        self.writer = self.writer.keep_age(age);
        self
    }

    /// Retention by total size (see [`LogWriterBuilder::keep_bytes`]).
    pub fn keep_bytes(mut self, bytes: u64) -> Self {
        self.writer = self.writer.keep_bytes(bytes);
        self
    }

    /// What a flush waits for (default: [`SyncPolicy::Fsync`]).
    pub fn sync(mut self, sync: SyncPolicy) -> Self {
        self.writer = self.writer.sync(sync);
        self
    }

    /// Calls `hook` with each file that becomes final (see
    /// [`LogWriterBuilder::on_finished`]), on the writer thread: with the `object_store`
    /// feature, `store::Shipper::hook` uploads the files to an object store.
    pub fn on_finished(mut self, hook: impl FnMut(&Path) + Send + 'static) -> Self {
        self.writer = self.writer.on_finished(hook);
        self
    }

    /// Where the writer thread's errors go (default: standard error), at most one a
    /// second. The callback runs on the writer thread; a panic in it is caught.
    pub fn on_error(mut self, f: impl Fn(&Error) + Send + Sync + 'static) -> Self {
        self.on_error = Some(Arc::new(f));
        self
    }

    /// Recovers the folder, opens the writer and starts its thread. Returns the layer
    /// (for `tracing_subscriber::registry().with(layer)`) and the guard that flushes and
    /// closes the files when dropped.
    pub fn build(self) -> Result<(TracingLayer, TracingGuard)> {
        let writer = self.writer.open()?;
        let batches = self.capacity.div_ceil(BATCH_EVENTS).max(1);
        let hub = Arc::new(Hub::new(batches, self.overflow));
        let thread_hub = Arc::clone(&hub);
        let (interval, on_error) = (self.flush_interval, self.on_error);
        let handle = std::thread::Builder::new()
            .name("parquet-serde-tracing".into())
            .spawn(move || worker::run(writer, thread_hub, interval, on_error))
            .map_err(|e| Error::from(e).context("starting the tracing writer thread"))?;
        let layer = TracingLayer {
            hub: Arc::clone(&hub),
        };
        let guard = TracingGuard {
            hub,
            thread: Some(handle),
        };
        Ok((layer, guard))
    }
}

/// Keeps the writer thread of a [`TracingLayer`]; dropping it writes the events logged
/// so far, closes the files (they become final) and ends the thread. Events after that are
/// dropped.
#[derive(Debug)]
pub struct TracingGuard {
    hub: Arc<Hub>,
    thread: Option<JoinHandle<()>>,
}

impl TracingGuard {
    /// Waits until every event logged before the call (on any thread) is written and
    /// flushed (durable).
    pub fn flush(&self) -> Result<()> {
        let stopped = || Error::invalid_argument("the tracing writer thread has stopped");
        let (done, wait) = sync_channel(1);
        if !self.hub.request_flush(done) {
            return Err(stopped());
        }
        wait.recv().map_err(|_| stopped())
    }
}

impl Drop for TracingGuard {
    fn drop(&mut self) {
        self.hub.request_shutdown();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
