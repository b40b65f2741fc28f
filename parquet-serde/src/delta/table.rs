//! [`DeltaTable`]: the committer. Data files become part of the table through commits
//! written with put-if-absent; removed files are deleted by [`DeltaTable::vacuum`] after a
//! grace period.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::action::{Action, Remove};
use super::checkpoint_write;
use super::commit::{
    commit_info, decode_path, file_part_of, metadata_for, now_millis, protocol_for, txn, PendingAdd,
};
use super::log_store::{commit_path, LocalLogStore, LogStore, LOG_DIR};
use super::snapshot::{commit_versions, Snapshot};
use crate::error::{Error, Result};
use crate::table::local_files::{in_table, list_data_files, relative_to};
use crate::table::{retry_commit, CommitReport};

/// A Delta Lake table this process commits to: a local folder, or a prefix of an object
/// store (feature `object_store`). Cheap to clone (clones share the table).
///
/// **Commits.** [`commit_files`](Self::commit_files) adds data files (already in place under
/// the table root) in one commit: each `add` carries the partition values of its
/// `key=value` folders, its size and modification time, and `stats` from the footer
/// statistics (`numRecords`, `minValues`, `maxValues`, `nullCount`; bounds rounded outward
/// where Delta's form is coarser: timestamps in milliseconds, strings cut to 32
/// characters; no bounds for floating point columns that may hold NaN). The first commit
/// also writes the `protocol` (the lowest the schema needs: 1/2, or 3/7 with the
/// `timestampNtz` feature for local date-times and the `variantType` feature for VARIANT
/// columns) and the `metaData` with the schema derived from the Parquet schema (structs,
/// lists, maps, decimals, dates, timestamps, `variant`; partition columns typed `date`,
/// `integer` or `string` by their values). delta-rs 1.6.6 reads a `variant` column as the
/// struct of its two binaries, `metadata` and `value`; decode them with
/// [`Variant`](crate::variant::Variant) on any side. (A shredded VARIANT is declared as that
/// struct: the shredding feature is a preview no reader here takes.)
///
/// **Exactly once.** Every commit carries a `txn` for the table's application id
/// ([`app_id`](Self::app_id), by default `parquet-serde`) whose version is one above the
/// last one in the log, so it only grows. A data file is recognised by its path: a path
/// already in the table, or removed from it, is never added again, so a file a crash
/// recovery rebuilt under its name, or a hook called twice for it, is counted in
/// [`CommitReport::already_committed`] and skipped.
///
/// **Concurrency.** The next version's commit file is created with put-if-absent (a hard
/// link locally, `PutMode::Create` on a store); a writer that loses the race reads the log
/// again, drops the files committed meanwhile, and retries with the next version. No
/// commit is ever overwritten.
///
/// **Checkpoints and removals.** With [`checkpoint_every`](Self::checkpoint_every)`(n)`
/// a Parquet checkpoint and `_last_checkpoint` are written after every n-th version.
/// [`remove_files`](Self::remove_files) commits `remove` actions; the files stay in storage
/// until [`vacuum`](Self::vacuum) deletes those removed longer ago than the grace period
/// ([`vacuum_after`](Self::vacuum_after), 7 days by default).
///
/// ```
/// use parquet_serde::delta::DeltaTable;
/// use parquet_serde::logs::{LogWriter, TimePartition};
///
/// #[derive(serde::Serialize, parquet_serde::ParquetSchema)]
/// struct Line { #[parquet(timestamp = "micros")] ts: i64, text: String }
///
/// let dir = tempfile::tempdir()?;
/// let table = DeltaTable::open(dir.path()).app_id("billing-1");
/// let mut logs = LogWriter::<Line>::builder(dir.path())
///     .partition(TimePartition::Daily)
///     .time_field(|l| l.ts)
///     .on_finished(table.hook())
///     .open()?;
/// logs.write(&Line { ts: 1_795_525_500_000_000, text: "started".into() })?;
/// let files = logs.close()?; // the hook committed the file
/// assert_eq!(table.version()?, Some(0));
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
pub struct DeltaTable {
    inner: Arc<Inner>,
}

struct Inner {
    store: Arc<dyn LogStore>,
    /// The local folder of the data files (local tables), to read footers and list.
    local_root: Option<PathBuf>,
    app_id: String,
    checkpoint_every: u64,
    vacuum_after: Duration,
    last_error: Mutex<Option<Error>>,
    errors: std::sync::atomic::AtomicU64,
}

impl std::fmt::Debug for DeltaTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeltaTable")
            .field("location", &self.inner.store.describe())
            .field("app_id", &self.inner.app_id)
            .field("checkpoint_every", &self.inner.checkpoint_every)
            .field("vacuum_after", &self.inner.vacuum_after)
            .finish_non_exhaustive()
    }
}

impl DeltaTable {
    /// The table in the local folder `root` (created by the first commit). Nothing is read
    /// until a method needs it.
    pub fn open(root: impl AsRef<Path>) -> DeltaTable {
        let root = root.as_ref().to_path_buf();
        DeltaTable::with_store(Arc::new(LocalLogStore::new(&root)), Some(root))
    }

    pub(crate) fn with_store(store: Arc<dyn LogStore>, local_root: Option<PathBuf>) -> Self {
        DeltaTable {
            inner: Arc::new(Inner {
                store,
                local_root,
                app_id: "parquet-serde".into(),
                checkpoint_every: 0,
                vacuum_after: Duration::from_secs(7 * 24 * 3600),
                last_error: Mutex::new(None),
                errors: Default::default(),
            }),
        }
    }

    fn with(self, f: impl FnOnce(&mut Inner)) -> Self {
        let mut inner = match Arc::try_unwrap(self.inner) {
            Ok(inner) => inner,
            Err(shared) => Inner {
                store: Arc::clone(&shared.store),
                local_root: shared.local_root.clone(),
                app_id: shared.app_id.clone(),
                checkpoint_every: shared.checkpoint_every,
                vacuum_after: shared.vacuum_after,
                last_error: Mutex::new(None),
                errors: Default::default(),
            },
        };
        f(&mut inner);
        DeltaTable {
            inner: Arc::new(inner),
        }
    }

    /// The application id of this writer's `txn` actions: stable across restarts (one per
    /// writing service instance, e.g. its name and host).
    pub fn app_id(self, id: impl Into<String>) -> Self {
        let id = id.into();
        self.with(|i| i.app_id = id)
    }

    /// Writes a Parquet checkpoint and `_last_checkpoint` after every `n`-th version this
    /// writer commits (0, the default: never).
    pub fn checkpoint_every(self, n: u64) -> Self {
        self.with(|i| i.checkpoint_every = n)
    }

    /// How long a removed file stays in storage before [`vacuum`](Self::vacuum) deletes
    /// it (default 7 days).
    pub fn vacuum_after(self, grace: Duration) -> Self {
        self.with(|i| i.vacuum_after = grace)
    }

    /// Where the table is (`/data/logs`, `s3://bucket/prefix`).
    pub fn location(&self) -> String {
        self.inner.store.describe()
    }

    /// The latest version; `None` when the table has no commit yet.
    pub fn version(&self) -> Result<Option<u64>> {
        Ok(commit_versions(&self.inner.store.list(LOG_DIR)?)
            .last()
            .copied())
    }

    /// The live data files of the latest version, by path relative to the root, sorted.
    pub fn files(&self) -> Result<Vec<String>> {
        match self.snapshot()? {
            None => Ok(Vec::new()),
            Some(s) => s.files.keys().map(|p| decode_path(p)).collect(),
        }
    }

    /// The last version this table's application id committed (its `txn`), if any.
    pub fn app_version(&self) -> Result<Option<i64>> {
        Ok(self
            .snapshot()?
            .and_then(|s| s.txns.get(&self.inner.app_id).copied()))
    }

    pub(crate) fn snapshot(&self) -> Result<Option<Snapshot>> {
        if self.version()?.is_none() {
            return Ok(None);
        }
        Snapshot::load(self.inner.store.as_ref(), None).map(Some)
    }

    fn local_root(&self, what: &str) -> Result<&Path> {
        self.inner.local_root.as_deref().ok_or_else(|| {
            Error::invalid_argument(format!(
                "{}: {what} needs the files in a local folder (this table is in an object \
                 store: commit through the Shipper)",
                self.inner.store.describe()
            ))
        })
    }

    /// Adds data files, already in place under the table's folder, in one commit. Paths are
    /// absolute or relative to the root; files the table already holds or removed earlier
    /// are skipped (see the type's docs on exactly-once).
    pub fn commit_files<P: AsRef<Path>>(&self, files: &[P]) -> Result<CommitReport> {
        let root = self.local_root("commit_files")?;
        let mut pending = Vec::with_capacity(files.len());
        for f in files {
            let (full, relative) = in_table(root, f.as_ref())?;
            pending.push(PendingAdd::from_file(&relative, &full)?);
        }
        self.commit(pending, Vec::new())
    }

    /// Adds every final data file under the folder that the table does not hold yet (nor
    /// removed): `*.parquet` files outside `_delta_log/` whose names and folders do not
    /// start with `_` or `.`. Run it at start-up to commit the files a crash left between
    /// becoming final and being committed.
    pub fn commit_folder(&self) -> Result<CommitReport> {
        let root = self.local_root("commit_folder")?.to_path_buf();
        let found = list_data_files(&root, None)?;
        let known = match self.snapshot()? {
            Some(s) => s,
            None => return self.commit_files(&found),
        };
        let mut report = CommitReport::default();
        let mut todo = Vec::new();
        for f in found {
            let relative = relative_to(&root, &f)?;
            let encoded = super::commit::encode_path(&relative);
            if known.files.contains_key(&encoded) || known.tombstones.contains_key(&encoded) {
                report.already_committed += 1;
            } else {
                todo.push(f);
            }
        }
        let mut out = self.commit_files(&todo)?;
        out.already_committed += report.already_committed;
        Ok(out)
    }

    /// Commits `remove` actions for data files (paths relative to the root) in one commit;
    /// files the table does not hold are counted in
    /// [`already_committed`](CommitReport::already_committed). The files stay in storage
    /// until [`vacuum`](Self::vacuum).
    pub fn remove_files<S: AsRef<str>>(&self, paths: &[S]) -> Result<CommitReport> {
        let paths = paths
            .iter()
            .map(|p| super::commit::encode_path(p.as_ref().trim_start_matches('/')))
            .collect();
        self.commit(Vec::new(), paths)
    }

    /// Deletes from storage the files removed from the table longer ago than the grace
    /// period ([`vacuum_after`](Self::vacuum_after)) and not added again; returns their
    /// paths. Files the table never held are not touched.
    pub fn vacuum(&self) -> Result<Vec<String>> {
        let Some(snapshot) = self.snapshot()? else {
            return Ok(Vec::new());
        };
        let grace = i64::try_from(self.inner.vacuum_after.as_millis()).unwrap_or(i64::MAX);
        let cutoff = now_millis().saturating_sub(grace);
        let mut deleted = Vec::new();
        for (path, remove) in &snapshot.tombstones {
            let when = remove.deletion_timestamp.unwrap_or(0);
            if when > cutoff {
                continue;
            }
            let relative = decode_path(path)?;
            if relative.starts_with('/') || relative.split('/').any(|s| s == "..") {
                return Err(Error::corrupt(format!(
                    "{}: removed path `{path}` is outside the table",
                    self.inner.store.describe()
                )));
            }
            self.inner.store.delete(&relative)?;
            deleted.push(relative);
        }
        Ok(deleted)
    }

    /// Writes a Parquet checkpoint of the latest version and points `_last_checkpoint` at
    /// it; returns the version. An error when the table has no commit.
    pub fn checkpoint(&self) -> Result<u64> {
        let snapshot = self.snapshot()?.ok_or_else(|| {
            Error::invalid_argument(format!(
                "{}: no commit to checkpoint",
                self.inner.store.describe()
            ))
        })?;
        checkpoint_write::write(self.inner.store.as_ref(), &snapshot)?;
        Ok(snapshot.version)
    }

    /// A hook for [`LogWriterBuilder::on_finished`](crate::logs::LogWriterBuilder::on_finished)
    /// (and the tracing layer's): commits each final file as it comes. A failed commit is
    /// kept for [`take_last_error`](Self::take_last_error) and the file stays for the next
    /// [`commit_folder`](Self::commit_folder).
    pub fn hook(&self) -> impl FnMut(&Path) + Send + 'static {
        let table = self.clone();
        move |path: &Path| {
            if let Err(e) = table.commit_files(&[path]) {
                table
                    .inner
                    .errors
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                *table
                    .inner
                    .last_error
                    .lock()
                    .unwrap_or_else(|p| p.into_inner()) = Some(e);
            }
        }
    }

    /// The last error of a [`hook`](Self::hook) commit not taken yet.
    pub fn take_last_error(&self) -> Option<Error> {
        self.inner
            .last_error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
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
            vec![PendingAdd::from_open(relative, file, local)?],
            Vec::new(),
        )
    }

    /// The table under `prefix` (`""` for the store's root) of an object store (feature
    /// `object_store`): commits are created with `PutMode::Create`, so the store must
    /// support conditional puts (S3 with `If-None-Match`, as object_store's S3 client sends
    /// by default, GCS, Azure, local); the first commit to a store that cannot is refused
    /// with an error naming it. Data files get there through a
    /// [`Shipper`](crate::store::Shipper) given this table
    /// ([`ShipperBuilder::delta`](crate::store::ShipperBuilder::delta)), which commits each
    /// file after its upload and before the local copy is deleted.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use object_store::memory::InMemory;
    /// use parquet_serde::delta::DeltaTable;
    ///
    /// let table = DeltaTable::open_store(Arc::new(InMemory::new()), "logs/app")?;
    /// assert_eq!(table.version()?, None);
    /// assert!(table.location().ends_with("logs/app"));
    /// # Ok::<(), parquet_serde::Error>(())
    /// ```
    #[cfg(feature = "object_store")]
    pub fn open_store(
        store: Arc<dyn object_store::ObjectStore>,
        prefix: impl Into<object_store::path::Path>,
    ) -> Result<DeltaTable> {
        let runtime = crate::remote::Runtime::owned()?;
        let log = crate::table::object_store::ObjectTableStore::new(store, prefix.into(), runtime);
        Ok(DeltaTable::with_store(Arc::new(log), None))
    }

    /// One commit of `adds` and `removes` (encoded paths), retried until it lands.
    pub(crate) fn commit(
        &self,
        adds: Vec<PendingAdd>,
        removes: Vec<String>,
    ) -> Result<CommitReport> {
        self.commit_as(adds, removes, false)
    }

    /// The paths (relative to the root) of the latest version's live files and of the
    /// files it removed: paths a new file must not take, as they are never added again.
    pub(crate) fn known_paths(&self) -> Result<Vec<String>> {
        match self.snapshot()? {
            None => Ok(Vec::new()),
            Some(s) => s
                .files
                .keys()
                .chain(s.tombstones.keys())
                .map(|p| decode_path(p))
                .collect(),
        }
    }

    /// The local folder of a local table; `None` for a table in an object store.
    pub(crate) fn local_folder(&self) -> Option<&Path> {
        self.inner.local_root.as_deref()
    }

    /// Commits a rewrite (a compaction): in ONE commit, a `remove` of every file of each
    /// group's `inputs` (encoded paths) and an `add` of its `output` (a path relative to
    /// the root of a file in place), both with `dataChange=false`, the output's partition
    /// values those of its first input. Every input must still be live in the version the
    /// commit lands on and every output new to the table: when another writer removed an
    /// input meanwhile (a concurrent compaction, a retention), the commit is refused with
    /// an error and nothing is written to the log (the caller deletes its outputs).
    pub(crate) fn commit_rewrite(&self, groups: &[(Vec<String>, String)]) -> Result<CommitReport> {
        let root = self.local_root("compact")?.to_path_buf();
        let snapshot = self.snapshot()?.ok_or_else(|| {
            Error::invalid_argument(format!("{}: no commit to compact", self.location()))
        })?;
        let mut adds = Vec::with_capacity(groups.len());
        let mut removes = Vec::new();
        for (inputs, output) in groups {
            let mut pending = PendingAdd::from_file(output, &root.join(output))?;
            if let Some(add) = inputs.first().and_then(|p| snapshot.files.get(p)) {
                pending.add.partition_values = add.partition_values.clone();
            }
            pending.add.data_change = false;
            adds.push(pending);
            removes.extend(inputs.iter().cloned());
        }
        self.commit_as(adds, removes, true)
    }

    /// [`commit`](Self::commit); a `rewrite` marks every action `dataChange=false` and
    /// fails, rather than skipping, an input no longer live or an output already known.
    fn commit_as(
        &self,
        adds: Vec<PendingAdd>,
        removes: Vec<String>,
        rewrite: bool,
    ) -> Result<CommitReport> {
        let store = self.inner.store.as_ref();
        let mut report = CommitReport::default();
        if adds.is_empty() && removes.is_empty() {
            return Ok(report);
        }
        retry_commit(store.describe(), |attempt| {
            let snapshot = self.snapshot()?;
            let mut actions = Vec::new();
            let mut skipped = 0;
            let live_adds: Vec<&PendingAdd> = adds
                .iter()
                .filter(|p| {
                    let known = snapshot.as_ref().is_some_and(|s| {
                        s.files.contains_key(&p.add.path) || s.tombstones.contains_key(&p.add.path)
                    });
                    skipped += usize::from(known);
                    !known
                })
                .collect();
            if rewrite && skipped > 0 {
                let known = adds
                    .iter()
                    .find(|p| !live_adds.iter().any(|l| l.add.path == p.add.path));
                return Err(Error::invalid_argument(format!(
                    "{}: compaction output `{}` is already in the table's log (or removed \
                     from it): nothing committed",
                    store.describe(),
                    known.map_or("", |p| p.add.path.as_str())
                )));
            }
            let mut live_removes = Vec::new();
            for path in &removes {
                match snapshot.as_ref().and_then(|s| s.files.get(path)) {
                    Some(add) => live_removes.push(Remove {
                        path: path.clone(),
                        deletion_timestamp: Some(now_millis()),
                        data_change: !rewrite,
                        extended_file_metadata: Some(true),
                        partition_values: Some(add.partition_values.clone()),
                        size: Some(add.size),
                        deletion_vector: None,
                    }),
                    None if rewrite => {
                        let what = match snapshot.as_ref() {
                            Some(s) if s.tombstones.contains_key(path) => "was removed",
                            _ => "is not",
                        };
                        return Err(Error::invalid_argument(format!(
                            "{}: compaction input `{path}` {what} in the table as of version \
                             {} (another writer changed it meanwhile): nothing committed, \
                             its rows must not come back",
                            store.describe(),
                            snapshot.as_ref().map_or(0, |s| s.version)
                        )));
                    }
                    None => skipped += 1,
                }
            }
            if live_adds.is_empty() && live_removes.is_empty() {
                report.already_committed = skipped;
                return Ok(Some(report));
            }
            let version = match &snapshot {
                None => {
                    let first = live_adds[0];
                    let owned: Vec<PendingAdd> = live_adds.iter().map(|p| (*p).clone()).collect();
                    actions.push(Action::Protocol(protocol_for(first.needs)));
                    actions.push(Action::Metadata(metadata_for(first, &owned)?));
                    0
                }
                Some(s) => s.version + 1,
            };
            let table_schema = match (&snapshot, &actions.get(1)) {
                (Some(s), _) => file_part_of(&s.metadata).map_err(|e| {
                    e.context(format!(
                        "{}: the table's metaData as of version {}",
                        store.describe(),
                        s.version
                    ))
                })?,
                (None, Some(Action::Metadata(m))) => file_part_of(m)?,
                _ => String::new(),
            };
            let partition_columns = match (&snapshot, &actions.get(1)) {
                (Some(s), _) => s.metadata.partition_columns.clone(),
                (None, Some(Action::Metadata(m))) => m.partition_columns.clone(),
                _ => Vec::new(),
            };
            for p in &live_adds {
                check_fits(p, &table_schema, &partition_columns, store)?;
            }
            let app_version = snapshot
                .as_ref()
                .and_then(|s| s.txns.get(&self.inner.app_id).copied())
                .map_or(0, |v| v.saturating_add(1));
            let n_adds = live_adds.len();
            let n_removes = live_removes.len();
            actions.push(commit_info(
                match (rewrite, n_removes) {
                    (true, _) => "OPTIMIZE",
                    (false, 0) => "WRITE",
                    (false, _) => "DELETE",
                },
                n_adds,
                n_removes,
            ));
            actions.push(txn(&self.inner.app_id, app_version));
            actions.extend(live_adds.into_iter().map(|p| Action::Add(p.add.clone())));
            actions.extend(live_removes.into_iter().map(Action::Remove));
            if store.put_if_absent(&commit_path(version), &Action::commit_bytes(&actions))? {
                report.version = Some(version);
                report.added = n_adds;
                report.removed = n_removes;
                report.already_committed = skipped;
                report.retries = attempt;
                let every = self.inner.checkpoint_every;
                if every > 0 && (version + 1) % every == 0 {
                    let snapshot = Snapshot::load(store, Some(version))?;
                    checkpoint_write::write(store, &snapshot)?;
                }
                return Ok(Some(report));
            }
            // Another writer took this version: read the log again and retry.
            Ok(None)
        })
    }
}

/// An error unless the file's schema and partitions are the table's.
fn check_fits(
    p: &PendingAdd,
    table_schema: &str,
    partition_columns: &[String],
    store: &dyn LogStore,
) -> Result<()> {
    if p.schema != table_schema {
        return Err(Error::schema(format!(
            "{}: `{}` does not have the table's schema (file: {}, table: {table_schema})",
            store.describe(),
            p.add.path,
            p.schema
        )));
    }
    let keys: Vec<&String> = p.add.partition_values.keys().collect();
    let mut want: Vec<&String> = partition_columns.iter().collect();
    want.sort();
    if keys != want {
        return Err(Error::schema(format!(
            "{}: `{}` has partition folders {keys:?}, the table {want:?}",
            store.describe(),
            p.add.path
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize, crate::ParquetSchema)]
    #[parquet(crate = "crate")]
    struct Row {
        id: i64,
        name: String,
    }

    fn table_with_one_file() -> (tempfile::TempDir, DeltaTable, Vec<u8>) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("k=a")).unwrap();
        let rows = [Row {
            id: 1,
            name: "x".into(),
        }];
        crate::ser::to_path(dir.path().join("k=a/f0.parquet"), &rows).unwrap();
        crate::ser::to_path(dir.path().join("k=a/f1.parquet"), &rows).unwrap();
        let table = DeltaTable::open(dir.path());
        table.commit_files(&["k=a/f0.parquet"]).unwrap();
        let commit = std::fs::read(dir.path().join(commit_path(0))).unwrap();
        (dir, table, commit)
    }

    #[test]
    fn a_corrupt_commit_is_an_error_naming_it_never_a_panic() {
        let (dir, table, commit) = table_with_one_file();
        let path = dir.path().join(commit_path(0));
        // Every prefix of the commit, and bytes flipped along it: an error or a table,
        // never a panic, and never a commit written over it.
        let mut cases: Vec<Vec<u8>> = (0..commit.len()).map(|n| commit[..n].to_vec()).collect();
        for i in (0..commit.len()).step_by(7) {
            let mut c = commit.clone();
            c[i] ^= 0x5a;
            cases.push(c);
        }
        cases.push(b"{\"add\":{\"path\":1}}\n".to_vec());
        cases.push(b"{\"protocol\":{\"minReaderVersion\":1e999}}\n".to_vec());
        cases.push(vec![0xff; 64]);
        for case in cases {
            std::fs::write(&path, &case).unwrap();
            match table.commit_files(&["k=a/f1.parquet"]) {
                // The error names the commit, or the table and the version.
                Err(e) => assert!(
                    e.to_string().contains("00000000000000000000.json")
                        || e.to_string().contains(&format!(
                            "{}: the table's metaData as of version 0",
                            dir.path().display()
                        ))
                        || e.to_string().contains("version 0")
                        || e.to_string().contains("does not have the table's schema"),
                    "{e}"
                ),
                Ok(_) => {
                    // The commit was still readable: the new one is version 1.
                    assert_eq!(std::fs::read(&path).unwrap(), case);
                    std::fs::remove_file(dir.path().join(commit_path(1))).unwrap();
                }
            }
        }
    }

    #[test]
    fn vacuum_never_deletes_outside_the_table() {
        let (dir, table, _) = table_with_one_file();
        let outside = dir.path().join("outside.txt");
        std::fs::write(&outside, b"keep").unwrap();
        let remove = Action::Remove(Remove {
            path: "%2E%2E/outside.txt".into(),
            deletion_timestamp: Some(0),
            data_change: true,
            extended_file_metadata: None,
            partition_values: None,
            size: None,
            deletion_vector: None,
        });
        std::fs::write(
            dir.path().join(commit_path(1)),
            Action::commit_bytes(&[remove]),
        )
        .unwrap();
        let err = table.vacuum().unwrap_err();
        assert!(err.to_string().contains("outside the table"), "{err}");
        assert!(outside.exists());
    }

    #[test]
    fn files_of_another_schema_or_partitioning_are_refused() {
        let (dir, table, _) = table_with_one_file();
        #[derive(serde::Serialize, crate::ParquetSchema)]
        #[parquet(crate = "crate")]
        struct Other {
            id: i32,
        }
        crate::ser::to_path(dir.path().join("k=a/other.parquet"), &[Other { id: 1 }]).unwrap();
        let err = table.commit_files(&["k=a/other.parquet"]).unwrap_err();
        assert!(
            err.to_string().contains("does not have the table's schema"),
            "{err}"
        );
        std::fs::copy(
            dir.path().join("k=a/f1.parquet"),
            dir.path().join("flat.parquet"),
        )
        .unwrap();
        let err = table.commit_files(&["flat.parquet"]).unwrap_err();
        assert!(err.to_string().contains("partition folders"), "{err}");
        let err = table.commit_files(&["/elsewhere/f.parquet"]).unwrap_err();
        assert!(err.to_string().contains("not in the table folder"), "{err}");
        assert_eq!(table.version().unwrap(), Some(0));
    }
}
