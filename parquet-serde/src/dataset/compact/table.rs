//! A table's compaction: [`compact_files`] with the inputs kept in place, then ONE
//! commit that removes the inputs from the table and adds the outputs, through the
//! table's committer ([`TableCommitter`]: Delta's [`DeltaTable::compact`], Iceberg's
//! `IcebergTable::compact` in `iceberg.rs`).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

#[cfg(feature = "delta")]
use crate::delta::DeltaTable;
use crate::error::{Error, Result};

#[cfg(feature = "delta")]
use super::super::delta_table;
use super::super::list::DataFile;
use super::{compact_files, CompactOptions, CompactReport, Inputs};

/// What a compaction needs of a table's committer.
pub(crate) trait TableCommitter {
    /// Where the table is, for messages.
    fn location(&self) -> String;
    /// The local folder of the table (`None` for a table in an object store).
    fn local_folder(&self) -> Option<&Path>;
    /// Paths (relative to the root) an output may not take: files the table holds or
    /// held, whose names its log or metadata keeps.
    fn known_paths(&self) -> Result<Vec<String>>;
    /// Commits the compaction as one commit: per output, the table's paths of its inputs
    /// (removed) and its path relative to the root (added). The table version (Delta) or
    /// snapshot id (Iceberg) of the commit.
    fn commit_compaction(&self, groups: &[(Vec<String>, String)]) -> Result<Option<u64>>;
}

#[cfg(feature = "delta")]
impl TableCommitter for DeltaTable {
    fn location(&self) -> String {
        DeltaTable::location(self)
    }
    fn local_folder(&self) -> Option<&Path> {
        DeltaTable::local_folder(self)
    }
    fn known_paths(&self) -> Result<Vec<String>> {
        DeltaTable::known_paths(self)
    }
    fn commit_compaction(&self, groups: &[(Vec<String>, String)]) -> Result<Option<u64>> {
        Ok(self.commit_rewrite(groups)?.version)
    }
}

#[cfg(feature = "delta")]
impl DeltaTable {
    /// Compacts the table's live files (a local table): the small files of each partition
    /// are merged as [`Dataset::compact`](crate::dataset::Dataset::compact) merges a
    /// folder's (same options, outputs written beside their inputs), then ONE commit
    /// removes every input (`dataChange=false`, `deletionTimestamp` now) and adds every
    /// output (`dataChange=false`, statistics from its footer, the partition values of its
    /// inputs), with this table's `txn` and retries (see the type's docs). No file is
    /// deleted: the inputs stay in storage, readable by older versions (time travel),
    /// until [`vacuum`](Self::vacuum) deletes them after the grace period.
    /// [`CompactReport::table_version`] is the commit's version (`None` when nothing was
    /// merged); `inputs_removed` stays 0 (nothing leaves storage).
    ///
    /// **Concurrent writers.** Files added meanwhile are left alone (the commit is retried
    /// on the next version). When another writer removed one of the inputs before the
    /// commit landed (a concurrent compaction, a retention), the compaction is abandoned:
    /// its outputs are deleted, nothing is committed, and the error names the input (its
    /// rows must not come back); run it again on the new version. The same happens on any
    /// error after outputs were written: no output is left behind for a later
    /// [`commit_folder`](Self::commit_folder) to add twice.
    ///
    /// A table in an object store is refused ([`ErrorKind::Unsupported`](crate::ErrorKind)).
    ///
    /// ```
    /// use parquet_serde::dataset::{CompactOptions, Dataset};
    /// use parquet_serde::delta::DeltaTable;
    ///
    /// #[derive(serde::Serialize, serde::Deserialize, parquet_serde::ParquetSchema)]
    /// struct Row { id: i64 }
    ///
    /// let dir = tempfile::tempdir()?;
    /// std::fs::create_dir(dir.path().join("k=a"))?;
    /// let table = DeltaTable::open(dir.path());
    /// for n in 0..4 {
    ///     let path = dir.path().join(format!("k=a/part-{n}.parquet"));
    ///     parquet_serde::to_path(&path, &[Row { id: n }])?;
    ///     table.commit_files(&[path])?;
    /// }
    /// let report = table.compact(&CompactOptions::default())?;
    /// assert_eq!((report.inputs, report.outputs.len(), report.table_version), (4, 1, Some(4)));
    /// assert_eq!(table.files()?, ["k=a/part-0.compact.parquet"]);
    /// assert!(dir.path().join("k=a/part-0.parquet").exists()); // until vacuum
    /// let rows: Vec<Row> = Dataset::open(dir.path())?.read_all()?;
    /// assert_eq!(rows.len(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn compact(&self, options: &CompactOptions) -> Result<CompactReport> {
        let root = self.local_folder().ok_or_else(|| {
            Error::unsupported(format!(
                "{}: compacting a table in an object store (only a local table can be compacted)",
                self.location()
            ))
        })?;
        if self.version()?.is_none() {
            return Ok(CompactReport::default());
        }
        let (files, info) = delta_table::open(root, None)?;
        compact_table(self, &files, &info.paths, options)
    }
}

/// Compacts `files` of `table` (their log or manifest paths in `paths`) and commits the
/// result; see [`DeltaTable::compact`].
pub(crate) fn compact_table(
    table: &impl TableCommitter,
    files: &[DataFile],
    paths: &HashMap<PathBuf, String>,
    options: &CompactOptions,
) -> Result<CompactReport> {
    let root = table.local_folder().ok_or_else(|| {
        Error::unsupported(format!(
            "{}: compacting a table in an object store",
            table.location()
        ))
    })?;
    for f in files {
        if !f.path().starts_with(root) {
            return Err(Error::unsupported(format!(
                "{}: `{}` is outside the table folder: its table cannot be compacted here",
                table.location(),
                f.path().display()
            )));
        }
    }
    // An output never takes the path of a file the table holds or removed (whose file a
    // vacuum may have deleted): the log would refuse to add it.
    let known = table.known_paths()?.iter().map(|p| root.join(p)).collect();
    let options = options.clone().avoiding(known);
    let before = listing(files);
    let compaction = match compact_files(files, &options, Inputs::Keep) {
        Ok(c) => c,
        Err(e) => {
            remove_new_outputs(files, &before);
            return Err(e.context(format!(
                "{}: compaction abandoned, nothing committed",
                table.location()
            )));
        }
    };
    let outputs: Vec<&Path> = compaction
        .partitions
        .iter()
        .flat_map(|p| p.outputs.iter().map(|o| o.path.as_path()))
        .collect();
    let committed = groups(&compaction, root, paths).and_then(|g| table.commit_compaction(&g));
    match committed {
        Ok(version) => {
            let mut report = compaction.report;
            report.table_version = version;
            Ok(report)
        }
        Err(e) => {
            for o in &outputs {
                let _ = std::fs::remove_file(o);
            }
            Err(e.context(format!(
                "{}: compaction abandoned, its {} outputs deleted",
                table.location(),
                outputs.len()
            )))
        }
    }
}

/// Per output, the log paths of its inputs and its path relative to `root`.
fn groups(
    compaction: &super::Compaction,
    root: &Path,
    paths: &HashMap<PathBuf, String>,
) -> Result<Vec<(Vec<String>, String)>> {
    let mut out = Vec::new();
    for p in &compaction.partitions {
        for o in &p.outputs {
            let inputs = p.inputs[o.inputs.clone()]
                .iter()
                .map(|i| {
                    paths.get(&i.path).cloned().ok_or_else(|| {
                        Error::internal(format!(
                            "`{}` is not a file of the table",
                            i.path.display()
                        ))
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            out.push((inputs, relative(root, &o.path)?));
        }
    }
    Ok(out)
}

/// `path` relative to `root`, `/`-separated.
fn relative(root: &Path, path: &Path) -> Result<String> {
    let rel = path.strip_prefix(root).map_err(|_| {
        Error::internal(format!("output `{}` is outside the table", path.display()))
    })?;
    let parts = rel
        .components()
        .map(|c| {
            c.as_os_str().to_str().ok_or_else(|| {
                Error::invalid_argument(format!("`{}`: the path is not UTF-8", path.display()))
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(parts.join("/"))
}

/// The files in the folders of `files` now.
fn listing(files: &[DataFile]) -> HashSet<PathBuf> {
    let mut seen = HashSet::new();
    let mut dirs: Vec<&Path> = files.iter().filter_map(|f| f.path().parent()).collect();
    dirs.sort();
    dirs.dedup();
    for dir in dirs {
        if let Ok(entries) = std::fs::read_dir(dir) {
            seen.extend(entries.flatten().map(|e| e.path()));
        }
    }
    seen
}

/// Deletes the outputs a failed compaction finished (files named like outputs that were
/// not in the folders before it started).
fn remove_new_outputs(files: &[DataFile], before: &HashSet<PathBuf>) {
    for path in listing(files) {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let output = name.ends_with(".parquet") && name.contains(".compact");
        if output && !before.contains(&path) {
            let _ = std::fs::remove_file(&path);
        }
    }
}

#[cfg(all(test, feature = "delta"))]
mod tests {
    use super::*;

    #[cfg(feature = "object_store")]
    #[test]
    fn a_table_in_an_object_store_is_refused() {
        let store = std::sync::Arc::new(object_store::memory::InMemory::new());
        let table = DeltaTable::open_store(store, "t").unwrap();
        let err = table.compact(&CompactOptions::default()).unwrap_err();
        assert_eq!(err.kind(), crate::ErrorKind::Unsupported);
        assert!(err.to_string().contains("object store"), "{err}");
    }

    #[derive(serde::Serialize, serde::Deserialize, crate::ParquetSchema)]
    #[parquet(crate = "crate")]
    struct Row {
        id: i64,
    }

    #[test]
    fn outputs_never_take_the_path_of_a_removed_file_a_vacuum_deleted() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("k=a")).unwrap();
        let table = DeltaTable::open(dir.path()).vacuum_after(std::time::Duration::ZERO);
        let add = |n: i64| {
            let path = dir.path().join(format!("k=a/part-{n}.parquet"));
            crate::ser::to_path(&path, &[Row { id: n }]).unwrap();
            table.commit_files(&[path]).unwrap();
        };
        let options = CompactOptions::default();
        add(0);
        add(1);
        table.compact(&options).unwrap();
        add(2);
        table.compact(&options).unwrap();
        assert_eq!(table.files().unwrap(), ["k=a/part-0.compact-2.parquet"]);
        std::thread::sleep(std::time::Duration::from_millis(5));
        let deleted = table.vacuum().unwrap();
        assert!(deleted.contains(&"k=a/part-0.compact.parquet".to_string()));
        // `part-0.compact.parquet` is free on disk, but removed in the log.
        add(3);
        let report = table.compact(&options).unwrap();
        assert_eq!(report.rows, 4);
        assert_eq!(table.files().unwrap(), ["k=a/part-0.compact-3.parquet"]);
        let rows: Vec<Row> = crate::dataset::Dataset::open(dir.path())
            .unwrap()
            .read_all()
            .unwrap();
        let mut ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        ids.sort();
        assert_eq!(ids, [0, 1, 2, 3]);
    }

    #[test]
    fn an_empty_table_has_nothing_to_compact() {
        let dir = tempfile::tempdir().unwrap();
        let report = DeltaTable::open(dir.path())
            .compact(&CompactOptions::default())
            .unwrap();
        assert_eq!(report, CompactReport::default());
    }
}
