//! [`LogWriter`]: rows in, a folder of rolling, crash-safe Parquet files out.

use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::core::file::WriterOptions;
use crate::core::schema::ParquetSchema;
use crate::error::{Error, Result};

use super::active::{ActiveFile, SyncPolicy};
use super::names::{now_micros, TimePartition};
use super::recover::{recover_with, RecoveryReport};
use super::retention::{self, Retention};

/// The time of a row, in microseconds since the Unix epoch (UTC).
type TimeField<T> = Box<dyn Fn(&T) -> i64 + Send + Sync>;

/// Called with the path of each file that becomes final.
type FinishedHook = Box<dyn FnMut(&Path) + Send>;

/// Settings of a [`LogWriter`], made by [`LogWriter::builder`].
pub struct LogWriterBuilder<T> {
    dir: PathBuf,
    partition: TimePartition,
    time_field: Option<TimeField<T>>,
    roll_bytes: Option<u64>,
    roll_rows: Option<u64>,
    roll_interval: Option<Duration>,
    flush_interval: Option<Duration>,
    options: WriterOptions,
    retention: Retention,
    sync: SyncPolicy,
    on_finished: Option<FinishedHook>,
    /// The Delta table final files are committed to (retention then commits removals).
    #[cfg(feature = "delta")]
    delta: Option<crate::delta::DeltaTable>,
    /// The Iceberg table final files are committed to (files then carry field ids).
    #[cfg(feature = "iceberg")]
    iceberg: Option<crate::iceberg::IcebergTable>,
    _rows: PhantomData<fn(&T)>,
}

impl<T> std::fmt::Debug for LogWriterBuilder<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogWriterBuilder")
            .field("dir", &self.dir)
            .field("partition", &self.partition)
            .field("roll_bytes", &self.roll_bytes)
            .field("roll_rows", &self.roll_rows)
            .field("roll_interval", &self.roll_interval)
            .field("flush_interval", &self.flush_interval)
            .field("sync", &self.sync)
            .field("on_finished", &self.on_finished.is_some())
            .finish_non_exhaustive()
    }
}

impl<T: Serialize + ParquetSchema> LogWriterBuilder<T> {
    /// Spreads files over Hive folders by the rows' time (default: [`TimePartition::None`]).
    pub fn partition(mut self, partition: TimePartition) -> Self {
        self.partition = partition;
        self
    }

    /// The time of a row (microseconds since the Unix epoch, UTC), which picks its
    /// partition. Default: the clock when the row is written.
    pub fn time_field(mut self, f: impl Fn(&T) -> i64 + Send + Sync + 'static) -> Self {
        self.time_field = Some(Box::new(f));
        self
    }

    /// Starts a new file once the current one holds about this many bytes (written plus
    /// buffered before compression). Default: 256 MiB.
    pub fn roll_bytes(mut self, bytes: u64) -> Self {
        self.roll_bytes = Some(bytes);
        self
    }

    /// Starts a new file once the current one holds this many rows.
    pub fn roll_rows(mut self, rows: u64) -> Self {
        self.roll_rows = Some(rows);
        self
    }

    /// Starts a new file once the current one is this old.
    pub fn roll_interval(mut self, interval: Duration) -> Self {
        self.roll_interval = Some(interval);
        self
    }

    /// Flushes (makes the rows written so far durable) when a write comes this long after
    /// the last flush; [`SharedLogWriter`](super::SharedLogWriter) also flushes on a timer
    /// between writes. Default: none (flush with [`LogWriter::flush`]).
    pub fn flush_interval(mut self, interval: Duration) -> Self {
        self.flush_interval = Some(interval);
        self
    }

    /// The options of the files (codec, row group size, statistics, ...). Encryption is
    /// not supported for log files.
    pub fn options(mut self, options: WriterOptions) -> Self {
        self.options = options;
        self
    }

    /// Keeps at most `n` final files (the newest) under the folder; older ones are
    /// deleted whenever a file becomes final.
    pub fn keep_files(mut self, n: usize) -> Self {
        self.retention.files = Some(n);
        self
    }

    /// Deletes final files made final longer than `age` ago.
    pub fn keep_age(mut self, age: Duration) -> Self {
        self.retention.age = Some(age);
        self
    }

    /// Keeps the final files (the newest) within `bytes` in all.
    pub fn keep_bytes(mut self, bytes: u64) -> Self {
        self.retention.bytes = Some(bytes);
        self
    }

    /// What a flush waits for (default: [`SyncPolicy::Fsync`]).
    pub fn sync(mut self, sync: SyncPolicy) -> Self {
        self.sync = sync;
        self
    }

    /// Calls `hook` with the path of every file that becomes final: each file this
    /// writer rolls or closes, and each file the recovery at [`open`](Self::open)
    /// rebuilds. It runs on the writing thread, before retention, so it should only hand
    /// the path on (to [`store::Shipper::hook`](crate::store) with the `object_store`
    /// feature, for example, which uploads the files to an object store).
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use parquet_serde::logs::LogWriter;
    /// use parquet_serde::ParquetSchema;
    ///
    /// #[derive(serde::Serialize, ParquetSchema)]
    /// struct Line { ts: i64 }
    ///
    /// let dir = tempfile::tempdir()?;
    /// let finished = Arc::new(Mutex::new(Vec::new()));
    /// let seen = Arc::clone(&finished);
    /// let mut logs = LogWriter::<Line>::builder(dir.path())
    ///     .on_finished(move |path| seen.lock().unwrap().push(path.to_path_buf()))
    ///     .open()?;
    /// logs.write(&Line { ts: 1 })?;
    /// let files = logs.close()?;
    /// assert_eq!(*finished.lock().unwrap(), files);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn on_finished(mut self, hook: impl FnMut(&Path) + Send + 'static) -> Self {
        self.on_finished = Some(Box::new(hook));
        self
    }

    /// Makes the folder a Delta table (feature `delta`; `table` opened on this folder):
    /// each final file is committed to it (this sets the [`on_finished`](Self::on_finished)
    /// hook to [`DeltaTable::hook`](crate::delta::DeltaTable::hook)), and retention commits
    /// `remove` actions instead of deleting files under running queries; the removed files
    /// are deleted by [`DeltaTable::vacuum`](crate::delta::DeltaTable::vacuum), which runs
    /// after each roll, once their grace period passed.
    ///
    /// ```
    /// use std::time::Duration;
    /// use parquet_serde::delta::DeltaTable;
    /// use parquet_serde::logs::LogWriter;
    ///
    /// #[derive(serde::Serialize, parquet_serde::ParquetSchema)]
    /// struct Line { text: String }
    ///
    /// let dir = tempfile::tempdir()?;
    /// let table = DeltaTable::open(dir.path()).vacuum_after(Duration::from_secs(3600));
    /// let mut logs = LogWriter::<Line>::builder(dir.path())
    ///     .keep_files(2)
    ///     .delta(table.clone())
    ///     .open()?;
    /// for i in 0..4 {
    ///     logs.write(&Line { text: format!("line {i}") })?;
    ///     logs.roll()?;
    /// }
    /// assert_eq!(table.files()?.len(), 2); // the table keeps two files
    /// assert_eq!(logs.finished_files().iter().filter(|f| f.exists()).count(), 4); // until vacuum
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "delta")]
    pub fn delta(mut self, table: crate::delta::DeltaTable) -> Self {
        self.on_finished = Some(Box::new(table.hook()));
        self.delta = Some(table);
        self
    }

    /// Makes the folder an Iceberg table (feature `iceberg`; `table` opened on this
    /// folder): the files are written with field ids (the derive's `#[parquet(field_id =
    /// N)]` where given, the table's ids for its columns, stable new ids otherwise; files
    /// written without this stay as they were), and, for a table in a local folder, each
    /// final file is committed to the table (this sets the [`on_finished`](Self::on_finished)
    /// hook to [`IcebergTable::hook`](crate::iceberg::IcebergTable::hook)). For a table in
    /// an object store ([`IcebergTable::open_store`](crate::iceberg::IcebergTable::open_store))
    /// only the field ids are set: the [`Shipper`](crate::store::Shipper) given the table
    /// commits the files it uploads. Retention deletes files as for a plain folder.
    ///
    /// ```
    /// use parquet_serde::iceberg::IcebergTable;
    /// use parquet_serde::logs::LogWriter;
    ///
    /// #[derive(serde::Serialize, parquet_serde::ParquetSchema)]
    /// struct Line { text: String }
    ///
    /// let dir = tempfile::tempdir()?;
    /// let table = IcebergTable::open(dir.path());
    /// let mut logs = LogWriter::<Line>::builder(dir.path()).iceberg(table.clone()).open()?;
    /// logs.write(&Line { text: "started".into() })?;
    /// logs.close()?;
    /// assert_eq!(table.files()?.len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "iceberg")]
    pub fn iceberg(mut self, table: crate::iceberg::IcebergTable) -> Self {
        if table.is_local() {
            self.on_finished = Some(Box::new(table.hook()));
        }
        self.iceberg = Some(table);
        self
    }

    /// Recovers what a crash left under the folder (files of writers still running are
    /// left alone), then opens the writer. The first file starts with the first row.
    pub fn open(self) -> Result<LogWriter<T>> {
        if self.options.encryption.is_some() {
            return Err(Error::unsupported("log files cannot be encrypted"));
        }
        crate::ser::schema_of::<T>()?;
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| Error::from(e).context(format!("creating `{}`", self.dir.display())))?;
        let mut config = self;
        #[cfg(feature = "iceberg")]
        if let Some(table) = &config.iceberg {
            // Field ids: the table's for its columns (read now), new ones otherwise.
            let existing = table.current_schema()?;
            config.options =
                crate::iceberg::field_ids::with_field_id_hook(config.options.clone(), existing);
        }
        let recovery = recover_with(&config.dir, &config.options)?;
        if let Some(hook) = config.on_finished.as_mut() {
            recovery.recovered.iter().for_each(|p| hook(p));
        }
        Ok(LogWriter {
            config,
            active: None,
            last_flush: Instant::now(),
            recovery,
            finished: Vec::new(),
        })
    }
}

/// Writes rows of `T` to a folder of Parquet files that roll by size, rows, time and
/// partition, with durable flushes and crash recovery. See the [module docs](super).
///
/// `LogWriter` is `Send`: move it to a thread, or share it between threads as a
/// [`SharedLogWriter`](super::SharedLogWriter).
pub struct LogWriter<T> {
    config: LogWriterBuilder<T>,
    active: Option<ActiveFile<T>>,
    last_flush: Instant,
    recovery: RecoveryReport,
    finished: Vec<PathBuf>,
}

impl<T> std::fmt::Debug for LogWriter<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogWriter")
            .field("config", &self.config)
            .field("active", &self.active)
            .finish_non_exhaustive()
    }
}

impl<T: Serialize + ParquetSchema> LogWriter<T> {
    /// Settings for a writer to the folder `dir` (created if missing).
    pub fn builder(dir: impl AsRef<Path>) -> LogWriterBuilder<T> {
        LogWriterBuilder {
            dir: dir.as_ref().to_path_buf(),
            partition: TimePartition::None,
            time_field: None,
            roll_bytes: Some(256 << 20),
            roll_rows: None,
            roll_interval: None,
            flush_interval: None,
            options: WriterOptions::default(),
            retention: Retention::default(),
            sync: SyncPolicy::Fsync,
            on_finished: None,
            #[cfg(feature = "delta")]
            delta: None,
            #[cfg(feature = "iceberg")]
            iceberg: None,
            _rows: PhantomData,
        }
    }

    /// What the recovery at [`open`](LogWriterBuilder::open) did.
    pub fn recovery(&self) -> &RecoveryReport {
        &self.recovery
    }

    /// The flush interval set, if any.
    pub fn flush_interval(&self) -> Option<Duration> {
        self.config.flush_interval
    }

    /// The folder written to.
    pub fn dir(&self) -> &Path {
        &self.config.dir
    }

    /// Writes one row: into the current file, or a new one when the row's partition
    /// differs or the current file is due to roll. Flushes when the flush interval has
    /// passed. A row that does not fit the schema is refused with an
    /// [`ErrorKind::Data`](crate::ErrorKind::Data) error and the writer stays usable.
    pub fn write(&mut self, row: &T) -> Result<()> {
        let micros = match (&self.config.time_field, self.config.partition) {
            // Unpartitioned files ignore the row's time: the clock is not read (per row,
            // reading it costs more than shredding a small row).
            (_, TimePartition::None) => 0,
            (Some(f), _) => f(row),
            (None, _) => now_micros(),
        };
        let partition = self.config.partition.key(micros);
        let roll = match self.active.as_mut() {
            Some(a) => a.partition != partition || due_to_roll(&self.config, a),
            None => false,
        };
        if roll {
            self.roll()?;
        }
        if self.active.is_none() {
            let dir = self.config.dir.join(self.config.partition.folder(micros));
            self.active = Some(ActiveFile::create(
                &dir,
                partition,
                &self.config.options,
                self.config.sync,
            )?);
        }
        if let Some(active) = self.active.as_mut() {
            active.write(row)?;
        }
        self.tick()
    }

    /// Writes rows in order; stops at the first that fails.
    pub fn write_all(&mut self, rows: &[T]) -> Result<()> {
        rows.iter().try_for_each(|r| self.write(r))
    }

    /// Flushes if the flush interval has passed, and rolls the file if it is due by age.
    pub fn tick(&mut self) -> Result<()> {
        if self
            .config
            .flush_interval
            .is_some_and(|i| self.last_flush.elapsed() >= i)
        {
            self.flush()?;
        }
        if let (Some(interval), Some(a)) = (self.config.roll_interval, &self.active) {
            if a.opened.elapsed() >= interval {
                self.roll()?;
            }
        }
        Ok(())
    }

    /// Makes every row written so far durable (see [`SyncPolicy`]): after `kill -9`, the
    /// next [`open`](LogWriterBuilder::open) or [`recover_all`](super::UnfinishedFile::recover_all) brings them
    /// back, exactly once and in order.
    pub fn flush(&mut self) -> Result<()> {
        self.last_flush = Instant::now();
        match self.active.as_mut() {
            Some(a) => a.flush(),
            None => Ok(()),
        }
    }

    /// Finishes the current file (it becomes final, under its `part-*.parquet` name) and
    /// applies retention; the next row starts a new file.
    pub fn roll(&mut self) -> Result<()> {
        if let Some(a) = self.active.take() {
            if let Some(path) = a.finish()? {
                if let Some(hook) = self.config.on_finished.as_mut() {
                    hook(&path);
                }
                self.finished.push(path);
            }
        }
        self.last_flush = Instant::now();
        #[cfg(feature = "delta")]
        if let Some(table) = &self.config.delta {
            return retain_in_table(table, &self.config.dir, &self.config.retention);
        }
        retention::apply(&self.config.dir, &self.config.retention)?;
        Ok(())
    }

    /// Leaves the current file as a crash would (its flushed rows are recovered by the
    /// next open) and starts a new one with the next row: what the tracing layer does
    /// after an error.
    #[cfg(feature = "tracing")]
    pub(crate) fn abandon_current(&mut self) {
        if let Some(a) = self.active.take() {
            a.abandon();
        }
    }

    /// The final files this writer made so far (some may since be deleted by retention).
    pub fn finished_files(&self) -> &[PathBuf] {
        &self.finished
    }

    /// Finishes the current file and returns every final file this writer made.
    pub fn close(mut self) -> Result<Vec<PathBuf>> {
        self.roll()?;
        Ok(std::mem::take(&mut self.finished))
    }
}

impl<T> Drop for LogWriter<T> {
    /// A writer dropped without [`close`](LogWriter::close) leaves its file as a crash
    /// would: flushed rows are recovered by the next open.
    fn drop(&mut self) {
        if let Some(a) = self.active.take() {
            a.abandon();
        }
    }
}

/// Whether the file `a` is due to roll by size, rows or age.
fn due_to_roll<T: Serialize + ParquetSchema>(
    config: &LogWriterBuilder<T>,
    a: &mut ActiveFile<T>,
) -> bool {
    config.roll_bytes.is_some_and(|b| a.size_reached(b))
        || config.roll_rows.is_some_and(|r| a.num_rows() >= r)
        || config
            .roll_interval
            .is_some_and(|i| a.opened.elapsed() >= i)
}

/// Whether `LogWriter` can move between threads.
#[allow(dead_code)]
fn log_writer_is_send<T: Send>() {
    fn send<S: Send>() {}
    send::<LogWriter<T>>();
}

/// Retention in a Delta table: the files it does not keep are removed from the table (a
/// commit), then the files removed longer ago than the grace period are deleted.
#[cfg(feature = "delta")]
fn retain_in_table(table: &crate::delta::DeltaTable, dir: &Path, keep: &Retention) -> Result<()> {
    let mut paths = Vec::new();
    for f in retention::select(dir, keep)? {
        let Ok(rel) = f.path.strip_prefix(dir) else {
            continue;
        };
        let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
        if let Some(parts) = parts {
            paths.push(parts.join("/"));
        }
    }
    if !paths.is_empty() {
        table.remove_files(&paths)?;
    }
    table.vacuum()?;
    Ok(())
}
