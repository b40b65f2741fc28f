//! The `tracing` layer (feature `tracing`): [`TracingLayer::builder`] → (layer, guard).

mod batch;
mod fields;
mod hub;
#[cfg(feature = "iceberg")]
mod iceberg_row;
mod layer;
mod row;
#[cfg(test)]
mod tests;
mod visit;
mod worker;

use std::path::{Path, PathBuf};
use std::sync::mpsc::sync_channel;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use crate::core::file::WriterOptions;
use crate::error::{Error, ErrorKind, Result};
use crate::exec::{OnError, Reports};

use super::{LogWriter, LogWriterBuilder, SyncPolicy, TimePartition};

use batch::{Cursor, BATCH_EVENTS};
use hub::Hub;
pub use layer::{Overflow, TracingLayer};
pub use row::{LogEvent, LogLevel, SpanRecord};

/// The default room for events waiting for a [`TracingLayer`]'s writer thread: 64 MiB.
const DEFAULT_CAPACITY_BYTES: usize = 64 << 20;

/// A setting of the log writer, kept in order until [`TracingLayerBuilder::build`] knows
/// the row type (the plain row, or the Iceberg row for an Iceberg table).
enum Setting {
    Partition(TimePartition),
    RollBytes(u64),
    RollInterval(Duration),
    Options(Box<WriterOptions>),
    KeepFiles(usize),
    KeepAge(Duration),
    KeepBytes(u64),
    Sync(SyncPolicy),
    OnFinished(Box<dyn FnMut(&Path) + Send>),
    #[cfg(feature = "delta")]
    Delta(crate::delta::DeltaTable),
    #[cfg(feature = "iceberg")]
    Iceberg(crate::iceberg::IcebergTable),
}

impl std::fmt::Debug for Setting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Setting::Partition(p) => write!(f, "partition({p:?})"),
            Setting::RollBytes(n) => write!(f, "roll_bytes({n})"),
            Setting::RollInterval(d) => write!(f, "roll_interval({d:?})"),
            Setting::Options(_) => write!(f, "options(..)"),
            Setting::KeepFiles(n) => write!(f, "keep_files({n})"),
            Setting::KeepAge(d) => write!(f, "keep_age({d:?})"),
            Setting::KeepBytes(n) => write!(f, "keep_bytes({n})"),
            Setting::Sync(s) => write!(f, "sync({s:?})"),
            Setting::OnFinished(_) => write!(f, "on_finished(..)"),
            #[cfg(feature = "delta")]
            Setting::Delta(_) => write!(f, "delta(..)"),
            #[cfg(feature = "iceberg")]
            Setting::Iceberg(_) => write!(f, "iceberg(..)"),
        }
    }
}

impl Setting {
    /// Applies the setting to a log writer of rows `R`.
    fn apply<R: worker::Row>(self, w: LogWriterBuilder<R>) -> LogWriterBuilder<R> {
        match self {
            Setting::Partition(p) => w.partition(p),
            Setting::RollBytes(n) => w.roll_bytes(n),
            Setting::RollInterval(d) => w.roll_interval(d),
            Setting::Options(o) => w.options(*o),
            Setting::KeepFiles(n) => w.keep_files(n),
            Setting::KeepAge(d) => w.keep_age(d),
            Setting::KeepBytes(n) => w.keep_bytes(n),
            Setting::Sync(s) => w.sync(s),
            Setting::OnFinished(hook) => w.on_finished(hook),
            #[cfg(feature = "delta")]
            Setting::Delta(t) => w.delta(t),
            #[cfg(feature = "iceberg")]
            Setting::Iceberg(t) => w.iceberg(t),
        }
    }
}

/// Settings of a [`TracingLayer`], made by [`TracingLayer::builder`].
pub struct TracingLayerBuilder {
    dir: PathBuf,
    /// The log writer's settings, in the order they were made.
    writer: Vec<Setting>,
    capacity: usize,
    capacity_bytes: usize,
    overflow: Overflow,
    flush_interval: Duration,
    on_error: Option<OnError>,
}

impl std::fmt::Debug for TracingLayerBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TracingLayerBuilder")
            .field("dir", &self.dir)
            .field("writer", &self.writer)
            .field("capacity", &self.capacity)
            .field("capacity_bytes", &self.capacity_bytes)
            .field("overflow", &self.overflow)
            .field("flush_interval", &self.flush_interval)
            .finish_non_exhaustive()
    }
}

impl TracingLayer {
    /// Settings for a layer writing to the folder `dir`: hourly partitions by event time,
    /// a flush every second, room for 64 MiB of events waiting for the writer thread, beyond which events below `WARN` are dropped (and
    /// counted) while `WARN` and `ERROR` events wait ([`Overflow::DropBelowWarn`]), zstd
    /// files.
    pub fn builder(dir: impl AsRef<Path>) -> TracingLayerBuilder {
        TracingLayerBuilder {
            dir: dir.as_ref().to_path_buf(),
            writer: vec![
                Setting::Partition(TimePartition::Hourly),
                Setting::Options(Box::new(
                    WriterOptions::default().compression(crate::Compression::Zstd(3)),
                )),
            ],
            capacity: usize::MAX,
            capacity_bytes: DEFAULT_CAPACITY_BYTES,
            overflow: Overflow::DropBelowWarn,
            flush_interval: Duration::from_secs(1),
            on_error: None,
        }
    }
}

impl TracingLayerBuilder {
    /// Folders by event time (default: [`TimePartition::Hourly`]).
    pub fn partition(mut self, partition: TimePartition) -> Self {
        self.writer.push(Setting::Partition(partition));
        self
    }

    /// A bound on the events that may wait for the writer thread, in addition to the bound
    /// in bytes ([`capacity_bytes`](Self::capacity_bytes)): whichever is reached first
    /// fills the room. Rounded up to whole batches of 128 events (at least one batch): at
    /// most that many batches wait, and a batch of large events (32 KiB) holds fewer.
    /// Default: no bound in events (only the bytes bound the room).
    pub fn capacity(mut self, events: usize) -> Self {
        self.capacity = events.max(1);
        self
    }

    /// The bytes that events waiting for the writer thread may take (default 64 MiB).
    /// Each event counts its real size: a fixed head of about 140 bytes, 32 more per span, its message text and its VARIANT bytes (about 300
    /// bytes in all for an event with a few fields in one span). Events are handed over in
    /// batches (128 events or 32 KiB): a batch always finds room when none waits, and each
    /// application thread also fills a batch of its own, outside this bound, before
    /// handing it over.
    pub fn capacity_bytes(mut self, bytes: usize) -> Self {
        self.capacity_bytes = bytes;
        self
    }

    /// What to do when the room is full (default: [`Overflow::DropBelowWarn`]).
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
        self.writer.push(Setting::RollBytes(bytes));
        self
    }

    /// Rolls files at this age (see [`LogWriterBuilder::roll_interval`]).
    pub fn roll_interval(mut self, interval: Duration) -> Self {
        self.writer.push(Setting::RollInterval(interval));
        self
    }

    /// The options of the files (default: zstd level 3).
    pub fn options(mut self, options: WriterOptions) -> Self {
        self.writer.push(Setting::Options(Box::new(options)));
        self
    }

    /// Retention by count (see [`LogWriterBuilder::keep_files`]).
    pub fn keep_files(mut self, n: usize) -> Self {
        self.writer.push(Setting::KeepFiles(n));
        self
    }

    /// Retention by age (see [`LogWriterBuilder::keep_age`]).
    pub fn keep_age(mut self, age: Duration) -> Self {
        self.writer.push(Setting::KeepAge(age));
        self
    }

    /// Retention by total size (see [`LogWriterBuilder::keep_bytes`]).
    pub fn keep_bytes(mut self, bytes: u64) -> Self {
        self.writer.push(Setting::KeepBytes(bytes));
        self
    }

    /// What a flush waits for (default: [`SyncPolicy::Fsync`]).
    pub fn sync(mut self, sync: SyncPolicy) -> Self {
        self.writer.push(Setting::Sync(sync));
        self
    }

    /// Calls `hook` with each file that becomes final (see
    /// [`LogWriterBuilder::on_finished`]), on the writer thread: with the `object_store`
    /// feature, `store::Shipper::hook` uploads the files to an object store.
    pub fn on_finished(mut self, hook: impl FnMut(&Path) + Send + 'static) -> Self {
        self.writer.push(Setting::OnFinished(Box::new(hook)));
        self
    }

    /// Makes the folder a Delta table, as
    /// [`LogWriterBuilder::delta`](crate::logs::LogWriterBuilder::delta) does (feature
    /// `delta`): each final file is committed, retention commits removals.
    #[cfg(feature = "delta")]
    pub fn delta(mut self, table: crate::delta::DeltaTable) -> Self {
        self.writer.push(Setting::Delta(table));
        self
    }

    /// Makes the folder an Iceberg table, as
    /// [`LogWriterBuilder::iceberg`](crate::logs::LogWriterBuilder::iceberg) does (feature
    /// `iceberg`): files carry field ids, each final file is committed.
    ///
    /// The rows are then written in types an Iceberg v2 table holds (tabled in the
    /// [module docs](crate::logs#the-tracing-layer)): the same columns and meaning as
    /// [`LogEvent`], with `thread_id` and `dropped` as signed `INT64` (Iceberg `long`),
    /// `line` as `INT64` (`long`), and `fields` (and each span's `fields`) as a `STRING`
    /// with the JSON logical type (Iceberg `string`) holding the VARIANT object's JSON
    /// text. A counter above `i64::MAX` is never clamped: that event is not written, and
    /// the error is reported and counted as the writer thread's errors are. Read such
    /// files as JSON text, not as [`LogEvent`]s; the layer's files for other folders are
    /// as without this setting.
    ///
    /// ```
    /// use parquet_serde::iceberg::IcebergTable;
    /// use parquet_serde::logs::TracingLayer;
    /// use parquet_serde::record::Value;
    /// use tracing_subscriber::layer::SubscriberExt;
    ///
    /// let dir = tempfile::tempdir()?;
    /// let table = IcebergTable::open(dir.path());
    /// let (layer, guard) = TracingLayer::builder(dir.path()).iceberg(table.clone()).build()?;
    /// let dispatch = tracing::Dispatch::new(tracing_subscriber::registry().with(layer));
    /// tracing::dispatcher::with_default(&dispatch, || tracing::info!(status = 200, "ok"));
    /// guard.close()?;
    /// let files = table.files()?;
    /// assert_eq!(files.len(), 1);
    /// let rows: Vec<Value> = parquet_serde::from_path(dir.path().join(&files[0]))?;
    /// assert_eq!(rows[0].get("fields"), Some(&Value::String(r#"{"status":200}"#.into())));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "iceberg")]
    pub fn iceberg(mut self, table: crate::iceberg::IcebergTable) -> Self {
        self.writer.push(Setting::Iceberg(table));
        self
    }

    /// Where the writer thread's errors go, and the counts of dropped events (as an
    /// [`ErrorKind::Data`](crate::ErrorKind::Data) error saying how many were dropped
    /// since the last report): at most one report a second (errors in between are counted
    /// in the next report; dropped events are added to the next count), and a last one
    /// when the guard closes the files. The callback runs on the writer thread; a panic in
    /// it is caught.
    ///
    /// With or without a callback, nothing is printed: every error of the writer thread is
    /// also counted ([`TracingGuard::errors`]) and the last one kept
    /// ([`TracingGuard::take_last_error`], [`TracingGuard::close`]); the counts of dropped
    /// events are also written as rows (`dropped`).
    pub fn on_error(mut self, f: impl Fn(&Error) + Send + Sync + 'static) -> Self {
        self.on_error = Some(Arc::new(f));
        self
    }

    /// Recovers the folder, opens the writer and starts its thread. Returns the layer
    /// (for `tracing_subscriber::registry().with(layer)`) and the guard that flushes and
    /// closes the files when dropped.
    pub fn build(self) -> Result<(TracingLayer, TracingGuard)> {
        #[cfg(feature = "iceberg")]
        if self.writer.iter().any(|s| matches!(s, Setting::Iceberg(_))) {
            return self.start::<iceberg_row::IcebergCursor>();
        }
        self.start::<Cursor>()
    }

    /// Opens the log writer of rows `R` and starts the writer thread.
    fn start<R: worker::Row>(self) -> Result<(TracingLayer, TracingGuard)> {
        let time = LogWriter::<R>::builder(&self.dir).time_field(|r: &R| r.cursor().ts());
        let writer = self.writer.into_iter().fold(time, |w, s| s.apply(w));
        let writer = writer.open()?;
        let batches = self.capacity.div_ceil(BATCH_EVENTS).max(1);
        let hub = Arc::new(Hub::new(batches, self.capacity_bytes, self.overflow));
        let thread_hub = Arc::clone(&hub);
        let reports = Arc::new(Reports::new(self.on_error));
        let (interval, thread_reports) = (self.flush_interval, Arc::clone(&reports));
        let handle = crate::exec::spawn(
            "parquet-serde-tracing",
            "the tracing writer thread",
            move || worker::run(writer, thread_hub, interval, thread_reports),
        )?;
        let layer = TracingLayer {
            hub: Arc::clone(&hub),
        };
        let guard = TracingGuard {
            hub,
            thread: Some(handle),
            reports,
        };
        Ok((layer, guard))
    }
}

/// Keeps the writer thread of a [`TracingLayer`]; dropping it (or [`close`](Self::close))
/// writes the events logged so far, closes the files (they become final) and ends the
/// thread. Events after that are dropped.
///
/// The writer thread's errors never reach the application's logging calls: they go to the
/// [`on_error`](TracingLayerBuilder::on_error) callback if one was set, and in any case are
/// counted here ([`errors`](Self::errors)), the last one kept
/// ([`take_last_error`](Self::take_last_error), [`close`](Self::close)).
#[derive(Debug)]
pub struct TracingGuard {
    hub: Arc<Hub>,
    thread: Option<JoinHandle<()>>,
    reports: Arc<Reports>,
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

    /// The errors the writer thread met so far (a failed write, flush or roll, a panic),
    /// each counted once, including those the once-a-second limit of `on_error` folded
    /// into a later report. Dropped events are not errors: they are counted in rows.
    pub fn errors(&self) -> u64 {
        self.reports.count()
    }

    /// The last error the writer thread met, unless an earlier call took it.
    pub fn take_last_error(&self) -> Option<Error> {
        self.reports.take_last()
    }

    /// Does what dropping the guard does (writes the events logged so far, closes the files,
    /// ends the thread), then fails with the last error of the writer thread if one was met
    /// and not taken by [`take_last_error`](Self::take_last_error), even when `on_error`
    /// saw it; the message says how many errors there were in all.
    pub fn close(mut self) -> Result<()> {
        let joined = self.stop();
        if let Some(e) = self.reports.take_last() {
            let n = self.reports.count();
            return Err(e.context(format!("the log writer thread met {n} error(s); the last")));
        }
        joined
    }

    /// Asks the writer thread to finish and waits for it.
    fn stop(&mut self) -> Result<()> {
        self.hub.request_shutdown();
        match self.thread.take().map(JoinHandle::join) {
            Some(Err(_)) => Err(Error::new(
                ErrorKind::Internal,
                "the log writer thread panicked while reporting",
            )),
            _ => Ok(()),
        }
    }
}

impl Drop for TracingGuard {
    fn drop(&mut self) {
        let _ = self.stop();
    }
}
