//! [`IcebergTable`]: the committer. Data files become part of the table through append
//! snapshots, each a new metadata file created with put-if-absent.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::catalog::Catalog;
use super::commit::{
    added_entry, check_fits, current_schema, new_table, next_metadata, Cache, PartitionChoice,
    PendingFile, Plan, TableState,
};
use super::schema::IcebergSchema;
use crate::error::{Error, Result};
use crate::table::local_files::{in_table, list_data_files, relative_to};
use crate::table::store::LocalStore;
use crate::table::{retry_commit, CommitReport};

/// An Apache Iceberg table (format v2) this process commits to, without Arrow: a local
/// folder, or a prefix of an object store (feature `object_store`). The table is a
/// file-system table: its metadata files are `metadata/v{N}.metadata.json` under the root
/// (with `metadata/version-hint.text`), readable by any Iceberg reader given the newest
/// metadata file (pyiceberg's `StaticTable`, or a catalog's `register_table`). Cheap to
/// clone (clones share the table).
///
/// **Commits.** [`commit_files`](Self::commit_files) adds data files (already in place
/// under the table root) in one `append` snapshot: a manifest (Avro) lists each file with
/// its partition tuple, record count, size, and metrics by field id (value, null and NaN
/// counts, column sizes, lower and upper bounds in Iceberg's single-value form, rounded
/// outward where Iceberg's form is coarser), a manifest list holds the new manifest and
/// the previous snapshot's, and the next metadata file makes the snapshot current.
///
/// **Schema and field ids.** The first commit creates the table from the first file's
/// schema. Iceberg matches columns by field id, so every data file must carry field ids
/// (files written through [`LogWriterBuilder::iceberg`](crate::logs::LogWriterBuilder::iceberg)
/// do); a file without them, or whose columns are not the table's, is refused with an error
/// naming it.
///
/// **Partitioning** (chosen before the first commit): by default identity on each
/// `key=value` folder of the first file's path (`date=2026-11-24/`), each key a column of
/// the table (`date`, `long` or `string` by its value) that readers fill from the partition
/// tuple; or [`partition_by_day`](Self::partition_by_day) /
/// [`partition_by_hour`](Self::partition_by_hour) of a time column, where each file must
/// hold a single day or hour (log files rolled daily or hourly do).
///
/// **Exactly once.** Each snapshot's summary carries the writer's application id
/// ([`app_id`](Self::app_id), `parquet-serde.app-id`) and a version one above its last
/// (`parquet-serde.app-version`). A data file is recognised by its path: a path any
/// snapshot of the table held is never added again, so a file a crash recovery rebuilt
/// under its name, or a hook called twice for it, is counted in
/// [`CommitReport::already_committed`] and skipped.
///
/// **Concurrency.** A writer that finds the next metadata file taken reads the table
/// again, drops the files committed meanwhile, and retries (counted in
/// [`CommitReport::retries`]). No metadata file is ever overwritten.
///
/// ```
/// use parquet_serde::iceberg::IcebergTable;
/// use parquet_serde::logs::{LogWriter, TimePartition};
///
/// #[derive(serde::Serialize, parquet_serde::ParquetSchema)]
/// struct Line { #[parquet(timestamp = "micros")] ts: i64, text: String }
///
/// let dir = tempfile::tempdir()?;
/// let table = IcebergTable::open(dir.path()).app_id("billing-1");
/// let mut logs = LogWriter::<Line>::builder(dir.path())
///     .partition(TimePartition::Daily)
///     .time_field(|l| l.ts)
///     .iceberg(table.clone())
///     .open()?;
/// logs.write(&Line { ts: 1_795_525_500_000_000, text: "started".into() })?;
/// let files = logs.close()?; // the hook committed the file
/// assert!(table.snapshot_id()?.is_some());
/// assert_eq!(table.files()?, ["date=2026-11-24/".to_string()
///     + files[0].file_name().unwrap().to_str().unwrap()]);
///
/// // Committing the same file again is recognised and skipped.
/// let report = table.commit_files(&files)?;
/// assert_eq!((report.added, report.already_committed, report.version), (0, 1, None));
/// assert!(table.take_last_error().is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct IcebergTable {
    inner: Arc<Inner>,
}

struct Inner {
    catalog: Catalog,
    /// The local folder of the data files (local tables), to read footers and list.
    local_root: Option<PathBuf>,
    app_id: String,
    partition: PartitionChoice,
    cache: Cache,
    last_error: Mutex<Option<Error>>,
    errors: AtomicU64,
}

impl std::fmt::Debug for IcebergTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IcebergTable")
            .field("location", &self.inner.catalog.location)
            .field("app_id", &self.inner.app_id)
            .field("partition", &self.inner.partition)
            .finish_non_exhaustive()
    }
}

/// The URI of a local folder (`file:///abs/path`), the folder created if needed.
fn local_uri(root: &Path) -> String {
    let _ = std::fs::create_dir_all(root);
    let abs = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let text = abs.to_string_lossy().replace('\\', "/");
    if text.starts_with('/') {
        format!("file://{text}")
    } else {
        format!("file:///{text}")
    }
}

impl IcebergTable {
    /// The table in the local folder `root` (created by the first commit). Nothing is read
    /// until a method needs it.
    pub fn open(root: impl AsRef<Path>) -> IcebergTable {
        let root = root.as_ref().to_path_buf();
        let catalog = Catalog::new(Arc::new(LocalStore::new(&root)), local_uri(&root));
        IcebergTable::with_catalog(catalog, Some(root))
    }

    fn with_catalog(catalog: Catalog, local_root: Option<PathBuf>) -> IcebergTable {
        IcebergTable {
            inner: Arc::new(Inner {
                catalog,
                local_root,
                app_id: "parquet-serde".into(),
                partition: PartitionChoice::HiveKeys,
                cache: Cache::default(),
                last_error: Mutex::new(None),
                errors: AtomicU64::new(0),
            }),
        }
    }

    fn with(self, f: impl FnOnce(&mut Inner)) -> Self {
        let mut inner = match Arc::try_unwrap(self.inner) {
            Ok(inner) => inner,
            Err(shared) => Inner {
                catalog: shared.catalog.clone(),
                local_root: shared.local_root.clone(),
                app_id: shared.app_id.clone(),
                partition: shared.partition.clone(),
                cache: Cache::default(),
                last_error: Mutex::new(None),
                errors: AtomicU64::new(0),
            },
        };
        f(&mut inner);
        IcebergTable {
            inner: Arc::new(inner),
        }
    }

    /// The application id kept in the summary of this writer's snapshots: stable across
    /// restarts (one per writing service instance, e.g. its name and host).
    pub fn app_id(self, id: impl Into<String>) -> Self {
        let id = id.into();
        self.with(|i| i.app_id = id)
    }

    /// A new table is partitioned by `day(column)` (a top-level date or timestamp column)
    /// instead of its files' folders. An existing table keeps its spec.
    pub fn partition_by_day(self, column: impl Into<String>) -> Self {
        let c = column.into();
        self.with(|i| i.partition = PartitionChoice::Day(c))
    }

    /// A new table is partitioned by `hour(column)` (a top-level timestamp column) instead
    /// of its files' folders: each file must hold rows of one hour. An existing table keeps
    /// its spec.
    pub fn partition_by_hour(self, column: impl Into<String>) -> Self {
        let c = column.into();
        self.with(|i| i.partition = PartitionChoice::Hour(c))
    }

    /// The table's location URI (`file:///data/logs`, `s3://bucket/prefix`).
    pub fn location(&self) -> String {
        self.inner.catalog.location.clone()
    }

    /// The newest metadata version `N` (`metadata/vN.metadata.json`); `None` before the
    /// first commit.
    pub fn version(&self) -> Result<Option<u64>> {
        Ok(self.inner.catalog.versions()?.last().copied())
    }

    /// The newest metadata file, relative to the root (`metadata/v3.metadata.json`): what
    /// a reader opens (pyiceberg's `StaticTable.from_metadata`).
    pub fn metadata_file(&self) -> Result<Option<String>> {
        Ok(self.version()?.map(super::catalog::metadata_path))
    }

    /// The current snapshot's id; `None` before the first commit.
    pub fn snapshot_id(&self) -> Result<Option<i64>> {
        Ok(self
            .inner
            .catalog
            .latest()?
            .and_then(|(_, m)| m.current_snapshot_id))
    }

    /// The live data files of the current snapshot, by path relative to the root, sorted.
    pub fn files(&self) -> Result<Vec<String>> {
        match self.state()? {
            None => Ok(Vec::new()),
            Some(s) => s
                .live
                .keys()
                .map(|uri| self.inner.catalog.relative(uri, "data file"))
                .collect(),
        }
    }

    /// The last `parquet-serde.app-version` this table's application id committed, if any.
    pub fn app_version(&self) -> Result<Option<i64>> {
        Ok(self
            .state()?
            .and_then(|s| s.app_version(&self.inner.app_id)))
    }

    pub(crate) fn state(&self) -> Result<Option<TableState>> {
        TableState::load(&self.inner.catalog, &self.inner.cache)
    }

    /// The table's current schema; `None` before the first commit.
    #[cfg_attr(not(feature = "logs"), allow(dead_code))]
    pub(crate) fn current_schema(&self) -> Result<Option<IcebergSchema>> {
        match self.inner.catalog.latest()? {
            None => Ok(None),
            Some((_, m)) => current_schema(&m, &self.inner.catalog).map(Some),
        }
    }

    /// Whether the table's files are in a local folder (not an object store).
    #[cfg_attr(not(feature = "logs"), allow(dead_code))]
    pub(crate) fn is_local(&self) -> bool {
        self.inner.local_root.is_some()
    }

    pub(crate) fn local_root(&self, what: &str) -> Result<&Path> {
        self.inner.local_root.as_deref().ok_or_else(|| {
            Error::invalid_argument(format!(
                "{}: {what} needs the files in a local folder (this table is in an object \
                 store: commit through the Shipper)",
                self.inner.catalog.describe()
            ))
        })
    }

    /// Adds data files, already in place under the table's folder, in one `append`
    /// snapshot. Paths are absolute or relative to the root; files the table holds or held
    /// are skipped (see the type's docs on exactly-once).
    pub fn commit_files<P: AsRef<Path>>(&self, files: &[P]) -> Result<CommitReport> {
        let root = self.local_root("commit_files")?;
        let mut pending = Vec::with_capacity(files.len());
        for f in files {
            let (full, relative) = in_table(root, f.as_ref())?;
            pending.push(PendingFile::from_file(&relative, &full)?);
        }
        self.commit(pending, Vec::new(), false)
    }

    /// Adds every final data file under the folder that the table does not hold (nor held):
    /// `*.parquet` files outside `metadata/` whose names and folders do not start with `_`
    /// or `.`. Run it at start-up to commit the files a crash left between becoming final
    /// and being committed.
    pub fn commit_folder(&self) -> Result<CommitReport> {
        let root = self.local_root("commit_folder")?.to_path_buf();
        let found = list_data_files(&root, Some("metadata"))?;
        let Some(state) = self.state()? else {
            return self.commit_files(&found);
        };
        let ever = state.ever(&self.inner.catalog, &self.inner.cache)?;
        let mut todo = Vec::new();
        let mut known = 0;
        for f in found {
            let relative = relative_to(&root, &f)?;
            if ever.contains(&self.inner.catalog.uri(&relative)) {
                known += 1;
            } else {
                todo.push(f);
            }
        }
        let mut out = self.commit_files(&todo)?;
        out.already_committed += known;
        Ok(out)
    }

    /// A hook for [`LogWriterBuilder::on_finished`](crate::logs::LogWriterBuilder::on_finished)
    /// (and the tracing layer's): commits each final file as it comes. A failed commit is
    /// kept for [`take_last_error`](Self::take_last_error) and the file stays for the next
    /// [`commit_folder`](Self::commit_folder).
    pub fn hook(&self) -> impl FnMut(&Path) + Send + 'static {
        let table = self.clone();
        move |path: &Path| {
            if let Err(e) = table.commit_files(&[path]) {
                table.record_error(e);
            }
        }
    }

    fn record_error(&self, e: Error) {
        self.inner.errors.fetch_add(1, Ordering::Relaxed);
        *self
            .inner
            .last_error
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = Some(e);
    }

    /// The last error of a [`hook`](Self::hook) commit not taken yet.
    pub fn take_last_error(&self) -> Option<Error> {
        self.inner
            .last_error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
    }

    /// The table under `prefix` (`""` for the store's root) of an object store (feature
    /// `object_store`): metadata files are created with `PutMode::Create`, so the store must
    /// support conditional puts (S3 with `If-None-Match`, as object_store's S3 client sends
    /// by default, GCS, Azure, local); the first commit to a store that cannot is refused
    /// with an error naming it. The location URI is `s3://bucket/prefix` for S3
    /// (`gs://`, for GCS; `memory:///prefix` for the in-memory store). Data files get there
    /// through a [`Shipper`](crate::store::Shipper) given this table
    /// ([`ShipperBuilder::iceberg`](crate::store::ShipperBuilder::iceberg)), which commits
    /// each file after its upload and before the local copy is deleted.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use object_store::memory::InMemory;
    /// use parquet_serde::iceberg::IcebergTable;
    ///
    /// let table = IcebergTable::open_store(Arc::new(InMemory::new()), "logs/app")?;
    /// assert_eq!(table.version()?, None);
    /// assert_eq!(table.location(), "memory:///logs/app");
    /// # Ok::<(), parquet_serde::Error>(())
    /// ```
    #[cfg(feature = "object_store")]
    pub fn open_store(
        store: Arc<dyn object_store::ObjectStore>,
        prefix: impl Into<object_store::path::Path>,
    ) -> Result<IcebergTable> {
        let prefix: object_store::path::Path = prefix.into();
        let location = store_uri(&store.to_string(), prefix.as_ref());
        let runtime = crate::remote::Runtime::owned()?;
        let table_store = crate::table::object_store::ObjectTableStore::new(store, prefix, runtime);
        let catalog = Catalog::new(
            Arc::new(table_store) as Arc<dyn crate::table::store::TableStore>,
            location,
        );
        Ok(IcebergTable::with_catalog(catalog, None))
    }

    /// Adds the data file at `relative` (its bytes in the open `file`, a local copy at
    /// `local`) to a table whose files live elsewhere (the shipper's object store).
    #[cfg(all(feature = "object_store", feature = "logs"))]
    pub(crate) fn commit_copy(
        &self,
        relative: &str,
        file: &std::fs::File,
        local: &Path,
    ) -> Result<CommitReport> {
        self.commit(
            vec![PendingFile::from_open(relative, file, local)?],
            Vec::new(),
            false,
        )
    }

    /// Commits a compaction as one `replace` snapshot: `removed` (paths relative to the
    /// root, each live in the table) become DELETED entries, `added` (relative paths of
    /// files in place, new to the table) are added. When another writer removed an input
    /// meanwhile, or an output is already known, nothing is committed and the error says
    /// which (the caller deletes its outputs).
    #[cfg_attr(not(test), allow(dead_code))] // ice-read's compaction calls it
    pub(crate) fn commit_replace(
        &self,
        removed: &[String],
        added: &[String],
    ) -> Result<CommitReport> {
        let root = self.local_root("compaction")?.to_path_buf();
        let pending = added
            .iter()
            .map(|r| PendingFile::from_file(r, &root.join(r)))
            .collect::<Result<Vec<_>>>()?;
        self.commit(pending, removed.to_vec(), true)
    }

    /// One snapshot adding `adds` and removing `removes` (relative paths), retried until it
    /// lands. A `replace` fails, rather than skipping, on an input no longer live or an
    /// output already known.
    fn commit(
        &self,
        adds: Vec<PendingFile>,
        removes: Vec<String>,
        replace: bool,
    ) -> Result<CommitReport> {
        let catalog = &self.inner.catalog;
        let cache = &self.inner.cache;
        if adds.is_empty() && removes.is_empty() {
            return Ok(CommitReport::default());
        }
        let removed_uris: BTreeSet<String> = removes
            .iter()
            .map(|r| catalog.uri(r.trim_start_matches('/')))
            .collect();
        retry_commit(catalog.describe(), |attempt| {
            let state = self.state()?;
            let ever = match &state {
                Some(s) => s.ever(catalog, cache)?,
                None => BTreeSet::new(),
            };
            let mut report = CommitReport {
                retries: attempt,
                ..CommitReport::default()
            };
            let live_adds: Vec<&PendingFile> = adds
                .iter()
                .filter(|p| {
                    let known = ever.contains(&catalog.uri(&p.relative));
                    report.already_committed += usize::from(known);
                    !known
                })
                .collect();
            if replace && report.already_committed > 0 {
                return Err(Error::invalid_argument(format!(
                    "{}: compaction output is already in the table (or was): nothing committed",
                    catalog.describe()
                )));
            }
            for r in &removed_uris {
                let live = state.as_ref().is_some_and(|s| s.live.contains_key(r));
                if !live {
                    return Err(Error::invalid_argument(format!(
                        "{}: compaction input `{r}` is not in the table's current snapshot \
                         (another writer changed it meanwhile): nothing committed, its rows \
                         must not come back",
                        catalog.describe()
                    )));
                }
            }
            if live_adds.is_empty() && removed_uris.is_empty() {
                return Ok(Some(report));
            }
            let now = now_millis();
            let fresh = match &state {
                Some(_) => None,
                None => Some(new_table(
                    catalog,
                    live_adds[0],
                    &self.inner.partition,
                    now,
                )?),
            };
            let metadata = state.as_ref().map(|s| &s.metadata).or(fresh.as_ref());
            let Some(metadata) = metadata else {
                return Err(Error::internal("a commit without a table"));
            };
            let schema = current_schema(metadata, catalog)?;
            let spec = metadata.spec().cloned().ok_or_else(|| {
                Error::corrupt(format!("{}: no default partition spec", catalog.describe()))
            })?;
            let current = state
                .as_ref()
                .map(|s| super::catalog::metadata_path(s.version));
            let as_of = |e: Error| match &current {
                Some(file) => e.context(format!("the table as of {file}")),
                None => e,
            };
            let mut added = Vec::with_capacity(live_adds.len());
            for p in &live_adds {
                check_fits(p, &schema, catalog).map_err(as_of)?;
                added.push(added_entry(catalog, p, &schema, &spec).map_err(as_of)?);
            }
            let plan = Plan {
                operation: if replace { "replace" } else { "append" },
                added,
                removed: removed_uris.clone(),
                app_id: &self.inner.app_id,
            };
            let (next, id) =
                next_metadata(catalog, cache, state.as_ref(), fresh, &plan, now).map_err(as_of)?;
            let version = state.as_ref().map_or(1, |s| s.version + 1);
            if !catalog.commit(version, &next)? {
                return Ok(None); // another writer took this version: read again, retry
            }
            report.version = Some(version);
            report.snapshot_id = Some(id);
            report.added = live_adds.len();
            report.removed = removed_uris.len();
            Ok(Some(report))
        })
    }
}

/// Milliseconds since the epoch now.
fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The URI of a prefix of an object store, from the store's `Display`
/// (`AmazonS3(bucket)`, `GoogleCloudStorage(bucket)`, `InMemory`, ...).
#[cfg(feature = "object_store")]
fn store_uri(store: &str, prefix: &str) -> String {
    let inside = |name: &str| {
        store
            .strip_prefix(name)
            .and_then(|r| r.strip_prefix('('))
            .and_then(|r| r.strip_suffix(')'))
            .map(str::to_string)
    };
    let base = if let Some(bucket) = inside("AmazonS3") {
        format!("s3://{bucket}")
    } else if let Some(bucket) = inside("GoogleCloudStorage") {
        format!("gs://{bucket}")
    } else {
        let scheme: String = store
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        let scheme = match scheme.as_str() {
            "inmemory" => "memory".to_string(),
            "" => "store".to_string(),
            s => s.to_string(),
        };
        format!("{scheme}://")
    };
    match (base.ends_with("//"), prefix.is_empty()) {
        (_, true) => base,
        (true, false) => format!("{base}/{prefix}"),
        (false, false) => format!("{base}/{prefix}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::iceberg::field_ids::with_field_id_hook;

    #[derive(serde::Serialize, crate::ParquetSchema)]
    #[parquet(crate = "crate")]
    struct Row {
        id: i64,
        name: String,
    }

    fn write(dir: &Path, relative: &str, ids: std::ops::Range<i64>) {
        let path = dir.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let rows: Vec<Row> = ids
            .map(|id| Row {
                id,
                name: format!("n{id}"),
            })
            .collect();
        let options = with_field_id_hook(crate::WriterOptions::default(), None);
        crate::ser::to_path_with(path, &rows, options).unwrap();
    }

    fn table_with(files: &[&str]) -> (tempfile::TempDir, IcebergTable) {
        let dir = tempfile::tempdir().unwrap();
        for (i, f) in files.iter().enumerate() {
            let i = i as i64;
            write(dir.path(), f, i * 10..i * 10 + 3);
        }
        let table = IcebergTable::open(dir.path());
        let report = table.commit_files(files).unwrap();
        assert_eq!((report.added, report.version), (files.len(), Some(1)));
        (dir, table)
    }

    #[test]
    fn a_replace_removes_and_adds_in_one_snapshot() {
        let (dir, table) = table_with(&["k=a/f0.parquet", "k=a/f1.parquet", "k=b/f2.parquet"]);
        write(dir.path(), "k=a/c.parquet", 0..13);
        let report = table
            .commit_replace(
                &["k=a/f0.parquet".into(), "k=a/f1.parquet".into()],
                &["k=a/c.parquet".into()],
            )
            .unwrap();
        assert_eq!(
            (report.added, report.removed, report.version),
            (1, 2, Some(2))
        );
        assert_eq!(table.files().unwrap(), ["k=a/c.parquet", "k=b/f2.parquet"]);
        let state = table.state().unwrap().unwrap();
        let snap = state.metadata.current_snapshot().unwrap();
        assert_eq!(snap.operation(), "replace");
        assert_eq!(snap.summary["deleted-data-files"], "2");
        assert_eq!(snap.summary["total-data-files"], "2");
        assert_eq!(snap.summary["total-records"], "16");
        assert_eq!(
            snap.parent_snapshot_id,
            state.metadata.snapshots[0].snapshot_id.into()
        );
        // The rewritten manifest holds the removed files as DELETED entries.
        let deleted: usize = state
            .manifests
            .iter()
            .map(|m| m.counts.deleted_files as usize)
            .sum();
        assert_eq!(deleted, 2);

        // A removed file is never added again; a removed input cannot be replaced again.
        let again = table.commit_files(&["k=a/f0.parquet"]).unwrap();
        assert_eq!((again.added, again.already_committed), (0, 1));
        write(dir.path(), "k=a/d.parquet", 0..1);
        let err = table
            .commit_replace(&["k=a/f0.parquet".into()], &["k=a/d.parquet".into()])
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("not in the table's current snapshot"),
            "{err}"
        );
        let err = table
            .commit_replace(&["k=b/f2.parquet".into()], &["k=a/c.parquet".into()])
            .unwrap_err();
        assert!(err.to_string().contains("already in the table"), "{err}");
        assert_eq!(table.version().unwrap(), Some(2));
    }

    #[test]
    fn files_of_another_schema_or_partitioning_are_refused() {
        let (dir, table) = table_with(&["k=a/f0.parquet"]);
        #[derive(serde::Serialize, crate::ParquetSchema)]
        #[parquet(crate = "crate")]
        struct Other {
            id: i32,
        }
        std::fs::create_dir_all(dir.path().join("k=b")).unwrap();
        let options = with_field_id_hook(crate::WriterOptions::default(), None);
        crate::ser::to_path_with(
            dir.path().join("k=b/o.parquet"),
            &[Other { id: 1 }],
            options,
        )
        .unwrap();
        let err = table.commit_files(&["k=b/o.parquet"]).unwrap_err();
        assert!(
            err.to_string().contains("does not have the table's schema"),
            "{err}"
        );
        write(dir.path(), "flat.parquet", 0..1);
        let err = table.commit_files(&["flat.parquet"]).unwrap_err();
        assert!(err.to_string().contains("flat.parquet"), "{err}");
        let err = table.commit_files(&["/elsewhere/f.parquet"]).unwrap_err();
        assert!(err.to_string().contains("not in the table folder"), "{err}");
        assert_eq!(table.version().unwrap(), Some(1));
    }

    /// Truncations and flipped bytes of `file` (relative to the root): each commit on top
    /// is an error naming the file or a success, never a panic, and nothing is overwritten.
    fn corrupt_each(dir: &Path, file: &str, step: usize) {
        let path = dir.join(file);
        let good = std::fs::read(&path).unwrap();
        let mut cases: Vec<Vec<u8>> = (0..good.len())
            .step_by(step)
            .map(|n| good[..n].to_vec())
            .collect();
        for i in (0..good.len()).step_by(step) {
            for x in [0x01, 0x80, 0xff] {
                let mut c = good.clone();
                c[i] ^= x;
                cases.push(c);
            }
        }
        let name = Path::new(file).file_name().unwrap().to_str().unwrap();
        let mut errors = 0;
        for case in cases {
            std::fs::write(&path, &case).unwrap();
            let table = IcebergTable::open(dir); // a fresh cache
            match table.commit_files(&["k=a/f1.parquet"]) {
                Err(e) => {
                    errors += 1;
                    assert!(e.to_string().contains(name), "{e}");
                }
                Ok(_) => {
                    std::fs::remove_file(dir.join("metadata/v2.metadata.json")).unwrap();
                }
            }
            assert_eq!(std::fs::read(&path).unwrap(), case, "never overwritten");
        }
        assert!(errors > 0, "{file}: no case failed");
        std::fs::write(&path, &good).unwrap();
    }

    #[test]
    fn corrupt_metadata_lists_and_manifests_are_errors_naming_the_file() {
        let (dir, table) = table_with(&["k=a/f0.parquet"]);
        write(dir.path(), "k=a/f1.parquet", 5..6);
        let state = table.state().unwrap().unwrap();
        let list = table
            .inner
            .catalog
            .relative(
                &state.metadata.current_snapshot().unwrap().manifest_list,
                "l",
            )
            .unwrap();
        let manifest = table
            .inner
            .catalog
            .relative(&state.manifests[0].manifest_path, "m")
            .unwrap();
        corrupt_each(dir.path(), "metadata/v1.metadata.json", 41);
        corrupt_each(dir.path(), &list, 13);
        corrupt_each(dir.path(), &manifest, 29);
    }
}
