//! [`Shipper`]: the final files of a log folder uploaded to an object store, oldest first,
//! on a thread of their own, with retries; files left behind by a crash are shipped at
//! the next start.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path as FsPath, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{OnError, Reports};
use crate::logs::retention;
use crate::remote::{wait, Runtime};

use super::source::store_error;
use super::upload::{Upload, MIN_PART_SIZE};
use super::write::UploadOptions;

/// The first wait before a failed file is tried again; it doubles with each failure up
/// to [`ShipperBuilder::max_retry_delay`].
const FIRST_RETRY: Duration = Duration::from_secs(1);

/// Bytes read from a local file at a time while uploading it.
const READ_CHUNK: usize = 1 << 20;

/// Settings of a [`Shipper`], made by [`Shipper::builder`].
pub struct ShipperBuilder {
    dir: PathBuf,
    store: Arc<dyn ObjectStore>,
    prefix: Path,
    keep_local: bool,
    upload: UploadOptions,
    max_retry_delay: Duration,
    on_error: Option<OnError>,
    #[cfg(feature = "delta")]
    delta: Option<crate::delta::DeltaTable>,
    #[cfg(feature = "iceberg")]
    iceberg: Option<crate::iceberg::IcebergTable>,
}

impl std::fmt::Debug for ShipperBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShipperBuilder")
            .field("dir", &self.dir)
            .field("store", &format_args!("{}", self.store))
            .field("prefix", &self.prefix)
            .field("keep_local", &self.keep_local)
            .field("upload", &self.upload)
            .field("max_retry_delay", &self.max_retry_delay)
            .finish_non_exhaustive()
    }
}

impl ShipperBuilder {
    /// Keeps each file in the folder once it is uploaded (default: deletes it). Retention
    /// of the [`LogWriter`](crate::logs::LogWriter) then bounds the folder. A file is
    /// never deleted before its upload completed.
    pub fn keep_local(mut self, keep: bool) -> Self {
        self.keep_local = keep;
        self
    }

    /// How files are uploaded (part size, parts in flight, runtime); default
    /// [`UploadOptions::default`].
    pub fn upload_options(mut self, options: UploadOptions) -> Self {
        self.upload = options;
        self
    }

    /// The longest wait between two attempts at a file that fails (default 60 s). The
    /// wait starts at 1 s (or this, if shorter) and doubles with each failure.
    pub fn max_retry_delay(mut self, delay: Duration) -> Self {
        self.max_retry_delay = delay;
        self
    }

    /// Calls `hook` with each failed attempt, on the shipping thread (a panic in it is
    /// caught). The file is tried again later; nothing is lost.
    ///
    /// With or without a hook, nothing is printed: each failed attempt is also counted in
    /// [`ShipStats::failures`] and the last one is kept for
    /// [`Shipper::take_last_error`].
    pub fn on_error(mut self, hook: impl Fn(&Error) + Send + Sync + 'static) -> Self {
        self.on_error = Some(Arc::new(hook));
        self
    }

    /// Commits each file to `table`, a Delta table at this shipper's store and prefix
    /// ([`DeltaTable::open_store`](crate::delta::DeltaTable::open_store), feature
    /// `delta`), after its upload and before the local copy is deleted: the `add` is built
    /// from the local copy's footer. A failed commit is retried like a failed upload (the
    /// object, already there, is not uploaded again), and a file shipped again after a
    /// crash is recognised by its path and not added twice.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use object_store::memory::InMemory;
    /// use parquet_serde::delta::DeltaTable;
    /// use parquet_serde::logs::LogWriter;
    /// use parquet_serde::store::Shipper;
    ///
    /// #[derive(serde::Serialize, parquet_serde::ParquetSchema)]
    /// struct Line { text: String }
    ///
    /// let dir = tempfile::tempdir()?;
    /// let store = Arc::new(InMemory::new());
    /// let table = DeltaTable::open_store(store.clone(), "logs/app")?;
    /// let shipper = Shipper::builder(dir.path(), store, "logs/app").delta(table.clone()).start()?;
    /// let mut logs = LogWriter::<Line>::builder(dir.path()).on_finished(shipper.hook()).open()?;
    /// logs.write(&Line { text: "started".into() })?;
    /// let files = logs.close()?;
    /// shipper.close()?;
    /// assert_eq!(table.version()?, Some(0));
    /// assert_eq!(table.files()?, [files[0].file_name().unwrap().to_str().unwrap()]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "delta")]
    pub fn delta(mut self, table: crate::delta::DeltaTable) -> Self {
        self.delta = Some(table);
        self
    }

    /// Commits each file to `table`, an Iceberg table at this shipper's store and prefix
    /// ([`IcebergTable::open_store`](crate::iceberg::IcebergTable::open_store), feature
    /// `iceberg`), after its upload and before the local copy is deleted, as
    /// [`delta`](Self::delta) does for a Delta table: the manifest entry is built from the
    /// local copy's footer; a failed commit is retried like a failed upload, and a file
    /// shipped again after a crash is recognised by its path and not added twice. The
    /// files must carry field ids (write them with
    /// [`LogWriterBuilder::iceberg`](crate::logs::LogWriterBuilder::iceberg) on a table
    /// opened on the local folder, or give every field an id).
    #[cfg(feature = "iceberg")]
    pub fn iceberg(mut self, table: crate::iceberg::IcebergTable) -> Self {
        self.iceberg = Some(table);
        self
    }

    /// Starts the shipping thread. The final files already in the folder (left by a
    /// writer that stopped before they were shipped) are queued first, oldest first;
    /// each is first looked up in the store (`HEAD`) and uploaded only if the object is
    /// missing or of another size.
    pub fn start(self) -> Result<Shipper> {
        if self.upload.get_part_size() < MIN_PART_SIZE {
            return Err(Error::invalid_argument(format!(
                "part size {} is below the 5 MiB stores accept",
                self.upload.get_part_size()
            )));
        }
        let runtime = Runtime::given_or_owned(self.upload.get_runtime())?;
        let mut queue = VecDeque::new();
        if self.dir.exists() {
            for f in retention::final_files(&self.dir)? {
                queue.push_back(Pending::new(f.path, None, true));
            }
        }
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                queue,
                busy: false,
                stop: Stop::Run,
                stats: ShipStats::default(),
                left: Vec::new(),
            }),
            wake: Condvar::new(),
            idle: Condvar::new(),
            reports: Reports::new(self.on_error),
        });
        let job = Job {
            dir: self.dir,
            store: self.store,
            prefix: self.prefix,
            keep_local: self.keep_local,
            part_size: self.upload.get_part_size(),
            parts_in_flight: self.upload.get_parts_in_flight(),
            max_retry_delay: self.max_retry_delay,
            runtime,
            #[cfg(feature = "delta")]
            delta: self.delta,
            #[cfg(feature = "iceberg")]
            iceberg: self.iceberg,
        };
        let worker = Arc::clone(&shared);
        let thread = crate::exec::spawn("parquet-serde-ship", "the shipping thread", move || {
            run(&worker, &job)
        })?;
        Ok(Shipper {
            shared,
            thread: Some(thread),
        })
    }
}

/// What a [`Shipper`] did so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ShipStats {
    /// Files uploaded.
    pub uploaded: u64,
    /// Bytes uploaded.
    pub bytes: u64,
    /// Files found already in the store (same size) and not uploaded again.
    pub already_there: u64,
    /// Failed attempts: each was given to the `on_error` hook, if any, and retried; the
    /// last one is kept for [`Shipper::take_last_error`].
    pub failures: u64,
    /// Files waiting or being uploaded.
    pub pending: usize,
}

/// `uploaded, bytes, already_there, failures, pending` as one line (the statistics are
/// also the [`source()`](std::error::Error::source) of a failed [`Shipper::close`]).
impl std::fmt::Display for ShipStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} file(s) uploaded ({} bytes), {} already in the store, {} failed attempt(s), {} pending",
            self.uploaded, self.bytes, self.already_there, self.failures, self.pending
        )
    }
}

/// The statistics of a [`Shipper`] whose [`close`](Shipper::close) failed, as that error's
/// source.
impl std::error::Error for ShipStats {}

/// Uploads the final files of a log folder to an object store, in the order they became
/// final, on a thread of its own; the object key is the prefix followed by the file's path
/// in the folder (partition folders included), so the store holds the same Hive layout.
/// A file is deleted locally once its upload completed (unless
/// [`keep_local`](ShipperBuilder::keep_local)); a failed upload is retried with a
/// growing wait, and an upload never leaves a partial object (see
/// [`StoreWriter`](super::StoreWriter)).
///
/// Give [`hook`](Self::hook) to [`LogWriterBuilder::on_finished`]: each file the writer
/// rolls, closes or recovers is opened at once (so that retention deleting it cannot lose
/// it while this process runs) and queued. Files a crash left unshipped are found and
/// shipped by the next [`start`](ShipperBuilder::start).
///
/// ```
/// use std::sync::Arc;
/// use object_store::memory::InMemory;
/// use parquet_serde::logs::{LogWriter, TimePartition};
/// use parquet_serde::store::{Shipper, StoreReader};
/// use parquet_serde::ParquetSchema;
///
/// #[derive(serde::Serialize, serde::Deserialize, ParquetSchema, Debug, PartialEq)]
/// struct Line { #[parquet(timestamp = "micros")] ts: i64, text: String }
///
/// let dir = tempfile::tempdir()?;
/// let store = Arc::new(InMemory::new());
/// let shipper = Shipper::builder(dir.path(), store.clone(), "logs/app").start()?;
/// let mut logs = LogWriter::<Line>::builder(dir.path())
///     .partition(TimePartition::Daily)
///     .time_field(|l| l.ts)
///     .on_finished(shipper.hook())
///     .open()?;
/// logs.write(&Line { ts: 1_795_525_500_000_000, text: "started".into() })?;
/// let files = logs.close()?;
/// let stats = shipper.close()?; // waits until every queued file is shipped
/// assert_eq!(stats.uploaded, 1);
/// assert!(!files[0].exists()); // deleted locally once uploaded
///
/// let name = files[0].file_name().unwrap().to_str().unwrap();
/// let key = format!("logs/app/date=2026-11-24/{name}");
/// let rows: Vec<Line> = StoreReader::new(store, key.as_str()).read()?;
/// assert_eq!(rows[0].text, "started");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// [`LogWriterBuilder::on_finished`]: crate::logs::LogWriterBuilder::on_finished
pub struct Shipper {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Shipper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shipper")
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}

impl Shipper {
    /// Settings for shipping the final files under `dir` to `store`, under the key prefix
    /// `prefix` (`""` for the store's root): a `&str`, `String`, `&String` or object
    /// store `Path`.
    pub fn builder(
        dir: impl AsRef<FsPath>,
        store: Arc<dyn ObjectStore>,
        prefix: impl AsRef<str>,
    ) -> ShipperBuilder {
        ShipperBuilder {
            dir: dir.as_ref().to_path_buf(),
            store,
            prefix: Path::parse(prefix.as_ref()).unwrap_or_else(|_| Path::from(prefix.as_ref())),
            keep_local: false,
            upload: UploadOptions::default(),
            max_retry_delay: Duration::from_secs(60),
            on_error: None,
            #[cfg(feature = "delta")]
            delta: None,
            #[cfg(feature = "iceberg")]
            iceberg: None,
        }
    }

    /// A hook for [`LogWriterBuilder::on_finished`](crate::logs::LogWriterBuilder::on_finished)
    /// that queues each final file (opened at once; a file that cannot be opened is
    /// reported and skipped). It may outlive the shipper: files handed to it after the
    /// shipper stopped stay in the folder for the next start.
    pub fn hook(&self) -> impl FnMut(&FsPath) + Send + 'static {
        let shared = Arc::clone(&self.shared);
        move |path: &FsPath| shared.enqueue(path)
    }

    /// Queues a final file of the folder, as [`hook`](Self::hook) does.
    pub fn ship(&self, path: impl AsRef<FsPath>) {
        self.shared.enqueue(path.as_ref());
    }

    /// What the shipper did so far.
    pub fn stats(&self) -> ShipStats {
        let state = self.shared.lock();
        ShipStats {
            pending: state.queue.len() + usize::from(state.busy),
            ..state.stats
        }
    }

    /// The last failed attempt (counted in [`ShipStats::failures`]) not taken yet by an
    /// earlier call: a file that failed to upload, or that could not be opened when it was
    /// queued. Without an [`on_error`](ShipperBuilder::on_error) hook this is where the
    /// errors of the shipping thread are read; the library prints nothing.
    pub fn take_last_error(&self) -> Option<Error> {
        self.shared.reports.take_last()
    }

    /// Waits until no file is pending (or `timeout` passes); whether none is.
    pub fn wait_idle(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut state = self.shared.lock();
        while !state.queue.is_empty() || state.busy {
            let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                return false;
            };
            state = match self.shared.idle.wait_timeout(state, left) {
                Ok((s, _)) => s,
                Err(e) => e.into_inner().0,
            };
        }
        true
    }

    /// Ships every queued file without waiting for retry times (a file whose attempt
    /// fails now is tried once more, at once), stops the thread and returns the
    /// statistics. Fails, naming them, if some files could not be shipped even so: they
    /// stay in the folder and the next [`start`](ShipperBuilder::start) ships them. Every
    /// failed attempt went to the [`on_error`](ShipperBuilder::on_error) hook, and the
    /// error's [`source()`](std::error::Error::source) is the [`ShipStats`] of the whole
    /// run (`pending` counts the files left):
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use object_store::memory::InMemory;
    /// # use parquet_serde::store::{Shipper, ShipStats};
    /// # let dir = tempfile::tempdir()?;
    /// # let shipper = Shipper::builder(dir.path(), Arc::new(InMemory::new()), "p").start()?;
    /// let stats: ShipStats = match shipper.close() {
    ///     Ok(stats) => stats,
    ///     Err(e) => *std::error::Error::source(&e)
    ///         .and_then(|s| s.downcast_ref::<ShipStats>())
    ///         .expect("close's error carries the statistics"),
    /// };
    /// assert_eq!(stats.pending, 0);
    /// # Ok::<(), parquet_serde::Error>(())
    /// ```
    pub fn close(mut self) -> Result<ShipStats> {
        self.shared.set_stop(Stop::Drain);
        if let Some(thread) = self.thread.take() {
            thread
                .join()
                .map_err(|_| Error::new(ErrorKind::Internal, "the shipping thread panicked"))?;
        }
        let state = self.shared.lock();
        let stats = ShipStats {
            pending: state.left.len() + state.queue.len(),
            ..state.stats
        };
        if !state.left.is_empty() {
            let names: Vec<String> = state
                .left
                .iter()
                .map(|p| format!("`{}`", p.display()))
                .collect();
            return Err(Error::new(
                ErrorKind::Io,
                format!(
                    "{} file(s) not shipped (they stay for the next start): {}",
                    names.len(),
                    names.join(", ")
                ),
            )
            .with_source(stats));
        }
        Ok(stats)
    }
}

impl Drop for Shipper {
    /// Stops the thread after the upload under way (without waiting for it); files still
    /// queued stay in the folder for the next start.
    fn drop(&mut self) {
        if self.thread.is_some() {
            self.shared.set_stop(Stop::Now);
        }
    }
}

/// When the thread stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// Not yet.
    Run,
    /// Once every queued file was tried.
    Drain,
    /// After the current upload.
    Now,
}

/// A file to ship.
struct Pending {
    path: PathBuf,
    /// The file, opened when it became final (None for files found at start).
    file: Option<File>,
    /// Whether to look the object up first (files found at start may be shipped already).
    check_store: bool,
    failures: u32,
    not_before: Instant,
    /// Whether its one more attempt at close was made.
    retried_at_close: bool,
}

impl Pending {
    fn new(path: PathBuf, file: Option<File>, check_store: bool) -> Pending {
        Pending {
            path,
            file,
            check_store,
            failures: 0,
            not_before: Instant::now(),
            retried_at_close: false,
        }
    }
}

/// The queue and statistics, shared by the shipper, its hooks and its thread.
struct Shared {
    state: Mutex<State>,
    /// Wakes the thread: a file was queued, or it must stop.
    wake: Condvar,
    /// Wakes [`Shipper::wait_idle`].
    idle: Condvar,
    /// The failed attempts: to the `on_error` hook, the last one kept.
    reports: Reports,
}

struct State {
    queue: VecDeque<Pending>,
    busy: bool,
    stop: Stop,
    stats: ShipStats,
    /// Files given up on while draining.
    left: Vec<PathBuf>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // The state stays consistent across a panic (plain fields, updated whole).
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn set_stop(&self, stop: Stop) {
        self.lock().stop = stop;
        self.wake.notify_all();
    }

    fn enqueue(&self, path: &FsPath) {
        let file = File::open(path);
        let mut state = self.lock();
        if state.stop != Stop::Run || state.queue.iter().any(|p| p.path == path) {
            return;
        }
        match file {
            Ok(file) => {
                state
                    .queue
                    .push_back(Pending::new(path.to_path_buf(), Some(file), false));
                self.wake.notify_all();
            }
            Err(e) => {
                state.stats.failures += 1;
                drop(state);
                self.reports.report(Error::from(e).context(format!(
                    "cannot ship `{}` (it stays for the next start)",
                    path.display()
                )));
            }
        }
    }
}

/// What the shipping thread needs.
struct Job {
    dir: PathBuf,
    store: Arc<dyn ObjectStore>,
    prefix: Path,
    keep_local: bool,
    part_size: usize,
    parts_in_flight: usize,
    max_retry_delay: Duration,
    runtime: Runtime,
    /// The table each shipped file is committed to.
    #[cfg(feature = "delta")]
    delta: Option<crate::delta::DeltaTable>,
    #[cfg(feature = "iceberg")]
    iceberg: Option<crate::iceberg::IcebergTable>,
}

/// How a file was shipped.
enum Shipped {
    Uploaded(u64),
    AlreadyThere,
}

/// The shipping thread: takes the oldest file due, ships it, and again.
fn run(shared: &Shared, job: &Job) {
    while let Some(mut next) = take_next(shared) {
        let result = job.ship(&mut next);
        let mut state = shared.lock();
        state.busy = false;
        match result {
            Ok(Shipped::Uploaded(bytes)) => {
                state.stats.uploaded += 1;
                state.stats.bytes += bytes;
            }
            Ok(Shipped::AlreadyThere) => state.stats.already_there += 1,
            Err(e) => {
                state.stats.failures += 1;
                next.failures += 1;
                let e = e.context(format!("shipping `{}`", next.path.display()));
                match state.stop {
                    Stop::Run => {
                        next.not_before = Instant::now() + job.retry_delay(next.failures);
                        // The oldest file stays first: files arrive in the store in order.
                        state.queue.push_front(next);
                    }
                    // Closing: a file whose attempt failed is tried once more at once.
                    Stop::Drain if !next.retried_at_close => {
                        next.retried_at_close = true;
                        next.not_before = Instant::now();
                        state.queue.push_front(next);
                    }
                    Stop::Drain | Stop::Now => state.left.push(next.path),
                }
                drop(state);
                shared.reports.report(e);
                state = shared.lock();
            }
        }
        if state.queue.is_empty() {
            shared.idle.notify_all();
        }
    }
    shared.idle.notify_all();
}

/// Waits for the next file that is due; `None` when the thread must stop.
fn take_next(shared: &Shared) -> Option<Pending> {
    let mut state = shared.lock();
    loop {
        if state.stop == Stop::Now {
            return None;
        }
        let due = state.queue.front().map(|p| p.not_before);
        let wait = match due {
            None if state.stop == Stop::Drain => return None,
            None => None,
            Some(_) if state.stop == Stop::Drain => Some(Duration::ZERO),
            Some(at) => Some(at.saturating_duration_since(Instant::now())),
        };
        if wait == Some(Duration::ZERO) {
            let next = state.queue.pop_front();
            state.busy = next.is_some();
            return next;
        }
        state = match wait {
            Some(d) => match shared.wake.wait_timeout(state, d) {
                Ok((s, _)) => s,
                Err(e) => e.into_inner().0,
            },
            None => shared.wake.wait(state).unwrap_or_else(|e| e.into_inner()),
        };
    }
}

impl Job {
    fn retry_delay(&self, failures: u32) -> Duration {
        let first = FIRST_RETRY.min(self.max_retry_delay);
        first
            .saturating_mul(1u32 << failures.saturating_sub(1).min(16))
            .min(self.max_retry_delay)
    }

    /// The object key of a file: the prefix, then the file's path below the folder.
    fn key(&self, path: &FsPath) -> Result<Path> {
        let rel = path.strip_prefix(&self.dir).map_err(|_| {
            Error::invalid_argument(format!(
                "`{}` is not in the shipped folder `{}`",
                path.display(),
                self.dir.display()
            ))
        })?;
        let mut key = self.prefix.clone();
        for part in rel.components() {
            let part = part.as_os_str().to_str().ok_or_else(|| {
                Error::invalid_argument(format!("`{}` is not UTF-8", path.display()))
            })?;
            key = key.join(part);
        }
        Ok(key)
    }

    fn ship(&self, pending: &mut Pending) -> Result<Shipped> {
        let path = pending.path.clone();
        let key = self.key(&path)?;
        let at = |e: std::io::Error| Error::from(e).context(format!("`{}`", path.display()));
        let mut file = match pending.file.take() {
            Some(f) => f,
            None => File::open(&path).map_err(at)?,
        };
        let size = file.metadata().map_err(at)?.len();
        let shipped = if pending.check_store && self.stored_size(&key)? == Some(size) {
            Shipped::AlreadyThere
        } else {
            if let Err(e) = self.upload(&mut file, key, size) {
                // Keep the open file for the next attempt (retention may have deleted the path).
                pending.file = Some(file);
                return Err(e);
            }
            Shipped::Uploaded(size)
        };
        #[cfg(feature = "delta")]
        if let Some(table) = &self.delta {
            // Committed after the upload and before the local copy goes.
            if let Err(e) = self.commit(table, &path, &file) {
                pending.file = Some(file);
                pending.check_store = true; // the object is there: not uploaded again
                return Err(e);
            }
        }
        #[cfg(feature = "iceberg")]
        if let Some(table) = &self.iceberg {
            let committed = self.relative(&path).and_then(|rel| {
                table.commit_copy(&rel, &file, &path).map_err(|e| {
                    e.context(format!(
                        "committing to the Iceberg table {}",
                        table.location()
                    ))
                })
            });
            if let Err(e) = committed {
                pending.file = Some(file);
                pending.check_store = true;
                return Err(e);
            }
        }
        self.remove_local(&path)?;
        Ok(shipped)
    }

    /// Commits the shipped file at `path` (open as `file`) to `table`.
    #[cfg(feature = "delta")]
    fn commit(&self, table: &crate::delta::DeltaTable, path: &FsPath, file: &File) -> Result<()> {
        table
            .commit_copy(&self.relative(path)?, file, path)
            .map(|_| ())
            .map_err(|e| {
                e.context(format!(
                    "committing to the Delta table {}",
                    table.location()
                ))
            })
    }

    /// The path of a shipped file below the folder, `/`-separated.
    #[cfg(any(feature = "delta", feature = "iceberg"))]
    fn relative(&self, path: &FsPath) -> Result<String> {
        let rel = path.strip_prefix(&self.dir).map_err(|_| {
            Error::invalid_argument(format!(
                "`{}` is not in the shipped folder `{}`",
                path.display(),
                self.dir.display()
            ))
        })?;
        let mut parts = Vec::new();
        for part in rel.components() {
            parts.push(part.as_os_str().to_str().ok_or_else(|| {
                Error::invalid_argument(format!("`{}` is not UTF-8", path.display()))
            })?);
        }
        Ok(parts.join("/"))
    }

    /// The size of the object at `key`, `None` when there is none.
    fn stored_size(&self, key: &Path) -> Result<Option<u64>> {
        let (store, key) = (Arc::clone(&self.store), key.clone());
        wait(&self.runtime, async move {
            match store.head(&key).await {
                Ok(meta) => Ok(Some(meta.size)),
                Err(object_store::Error::NotFound { .. }) => Ok(None),
                Err(e) => Err(store_error(e, &key)),
            }
        })
    }

    fn upload(&self, file: &mut File, key: Path, size: u64) -> Result<()> {
        file.seek(SeekFrom::Start(0))?;
        let mut upload = Upload::new(
            Arc::clone(&self.store),
            key,
            self.runtime.clone(),
            self.part_size,
            self.parts_in_flight,
        );
        let mut buf = vec![0u8; READ_CHUNK];
        let mut sent = 0u64;
        loop {
            let n = file.read(&mut buf)?;
            if n == 0 {
                break;
            }
            upload.write_all(&buf[..n])?;
            sent += n as u64;
        }
        if sent != size {
            // Final files never change; one that did is not shipped half-written.
            return Err(Error::new(
                ErrorKind::Io,
                format!("the file changed while it was uploaded ({size} bytes, then {sent})"),
            ));
        }
        upload.finish()
    }

    fn remove_local(&self, path: &FsPath) -> Result<()> {
        if self.keep_local {
            return Ok(());
        }
        match std::fs::remove_file(path) {
            Ok(()) => {}
            // Retention got there first.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::from(e).context(format!("removing `{}`", path.display()))),
        }
        if let Some(parent) = path.parent() {
            retention::remove_empty_up_to(parent, &self.dir);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_the_partition_folders() {
        let job = Job {
            dir: PathBuf::from("/logs/app"),
            store: Arc::new(object_store::memory::InMemory::new()),
            prefix: Path::from("bucket-prefix/app"),
            keep_local: false,
            part_size: MIN_PART_SIZE,
            parts_in_flight: 1,
            max_retry_delay: Duration::from_secs(60),
            runtime: Runtime::owned().unwrap(),
            #[cfg(feature = "delta")]
            delta: None,
            #[cfg(feature = "iceberg")]
            iceberg: None,
        };
        let key = job
            .key(FsPath::new(
                "/logs/app/date=2026-11-24/hour=13/part-20261124T130500.000007Z-1-0a.parquet",
            ))
            .unwrap();
        assert_eq!(
            key.as_ref(),
            "bucket-prefix/app/date=2026-11-24/hour=13/part-20261124T130500.000007Z-1-0a.parquet"
        );
        assert!(job.key(FsPath::new("/elsewhere/part-1.parquet")).is_err());

        assert_eq!(job.retry_delay(1), Duration::from_secs(1));
        assert_eq!(job.retry_delay(3), Duration::from_secs(4));
        assert_eq!(job.retry_delay(40), Duration::from_secs(60));
    }
}
