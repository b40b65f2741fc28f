//! An Iceberg table's compaction ([`IcebergTable::compact`]): the small files of each
//! partition merged as a folder's are, committed as ONE `replace` snapshot by the table's
//! committer.

use std::collections::HashMap;
use std::path::Path;

use crate::core::file::FileReader;
use crate::error::{Error, Result};
use crate::iceberg::schema::iceberg_schema;
use crate::iceberg::IcebergTable;

use super::super::iceberg_table::{self, IcebergSnapshot};
use super::super::list::DataFile;
use super::table::{compact_table, TableCommitter};
use super::{CompactOptions, CompactReport};

impl TableCommitter for IcebergTable {
    fn location(&self) -> String {
        IcebergTable::location(self)
    }
    fn local_folder(&self) -> Option<&Path> {
        self.local_root("compaction").ok()
    }
    fn known_paths(&self) -> Result<Vec<String>> {
        // Files are never deleted (no snapshot expiry here): an output that avoids every
        // file on disk avoids every file the table holds or held.
        Ok(Vec::new())
    }
    fn commit_compaction(&self, groups: &[(Vec<String>, String)]) -> Result<Option<u64>> {
        let removed: Vec<String> = groups.iter().flat_map(|(i, _)| i.iter().cloned()).collect();
        let added: Vec<String> = groups.iter().map(|(_, o)| o.clone()).collect();
        let report = self.commit_replace(&removed, &added)?;
        Ok(report.snapshot_id.and_then(|id| u64::try_from(id).ok()))
    }
}

impl IcebergTable {
    /// Compacts the table's live data files (a local table): the small files of each
    /// partition folder are merged as [`Dataset::compact`](crate::dataset::Dataset::compact)
    /// merges a folder's (same options, outputs written beside their inputs), then ONE
    /// `replace` snapshot removes every input (DELETED manifest entries) and adds every
    /// output (metrics from its footer, the partition tuple of its folder and time
    /// column), with this table's retries. No file is deleted: the inputs stay in storage,
    /// readable at older snapshots (time travel), until the snapshots are expired (which
    /// this crate does not do). [`CompactReport::table_version`] is the snapshot's id
    /// (`None` when nothing was merged); `inputs_removed` stays 0.
    ///
    /// Only files that fit the table's current schema (as a commit checks them: same ids
    /// at the same names, types equal or promoted) and its current partition spec are
    /// merged: files written before a column was renamed, or under an older spec, are left
    /// as they are (counted in [`CompactReport::files_kept`]).
    ///
    /// **Concurrent writers.** Files added meanwhile are left alone (the commit is retried
    /// on the next metadata version). When another writer removed one of the inputs
    /// before the commit landed (a concurrent compaction), the compaction is abandoned: its
    /// outputs are deleted, nothing is committed, and the error names the input.
    ///
    /// A table whose metadata files a catalog names (`NNNNN-<uuid>.metadata.json`, as
    /// pyiceberg's SQL catalog does) is refused: commit to it through that catalog. So is a
    /// table in an object store ([`ErrorKind::Unsupported`](crate::ErrorKind)).
    ///
    /// ```
    /// use parquet_serde::dataset::{CompactOptions, Dataset};
    /// use parquet_serde::iceberg::IcebergTable;
    /// use parquet_serde::logs::{LogWriter, TimePartition};
    ///
    /// #[derive(serde::Serialize, serde::Deserialize, parquet_serde::ParquetSchema)]
    /// struct Line { #[parquet(timestamp = "micros")] ts: i64, text: String }
    ///
    /// let dir = tempfile::tempdir()?;
    /// let table = IcebergTable::open(dir.path());
    /// for n in 0..4 {
    ///     let mut logs = LogWriter::<Line>::builder(dir.path())
    ///         .partition(TimePartition::Daily)
    ///         .time_field(|l| l.ts)
    ///         .iceberg(table.clone())
    ///         .open()?;
    ///     logs.write(&Line { ts: 1_795_525_500_000_000 + n, text: format!("line {n}") })?;
    ///     logs.close()?;
    /// }
    /// assert_eq!(table.files()?.len(), 4);
    /// let report = table.compact(&CompactOptions::default())?;
    /// assert_eq!((report.inputs, report.outputs.len(), report.rows), (4, 1, 4));
    /// assert_eq!(report.table_version, table.snapshot_id()?.map(|id| id as u64));
    /// assert_eq!(table.files()?.len(), 1);
    /// let lines: Vec<Line> = Dataset::open(dir.path())?.read_all()?;
    /// assert_eq!(lines.len(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn compact(&self, options: &CompactOptions) -> Result<CompactReport> {
        let root = self.local_root("compaction").map_err(|e| {
            Error::unsupported(format!(
                "{}: compacting a table in an object store ({e})",
                self.location()
            ))
        })?;
        if self.snapshot_id()?.is_none() {
            return Ok(CompactReport::default());
        }
        let (files, info) = iceberg_table::open(root, None)?;
        compact_iceberg(self, &files, &info, options)
    }
}

/// Compacts `files` of the table `info` describes (those with its current schema and
/// spec) and commits the result; see [`IcebergTable::compact`].
pub(crate) fn compact_iceberg(
    table: &IcebergTable,
    files: &[DataFile],
    info: &IcebergSnapshot,
    options: &CompactOptions,
) -> Result<CompactReport> {
    if !info.file_system_table {
        return Err(Error::unsupported(format!(
            "{}: the table's metadata files are named by a catalog (not \
             `metadata/vN.metadata.json`): compact it through that catalog",
            info.root.display()
        )));
    }
    let root = table.local_folder().ok_or_else(|| {
        Error::unsupported(format!(
            "{}: compacting a table in an object store",
            table.location()
        ))
    })?;
    let (schema, _) = &info.current;
    let mut fitting = Vec::with_capacity(files.len());
    let mut paths = HashMap::new();
    let mut left = 0;
    for f in files {
        let at = |e: Error| e.context(format_args!("`{}`", f.path().display()));
        let reader = FileReader::new(std::fs::File::open(f.path()).map_err(|e| at(e.into()))?)
            .map_err(at)?;
        let file_schema = iceberg_schema(reader.schema(), schema.schema_id);
        let current = info.has_current_spec(f.path())
            && file_schema.is_ok_and(|s| schema.check_file_fits(&s).is_ok());
        if !current {
            left += 1;
            continue;
        }
        paths.insert(f.path().to_path_buf(), relative(root, f.path())?);
        fitting.push(f.clone());
    }
    let mut report = compact_table(table, &fitting, &paths, options)?;
    report.files_kept += left;
    Ok(report)
}

/// `path` relative to `root`, `/`-separated.
fn relative(root: &Path, path: &Path) -> Result<String> {
    let rel = path.strip_prefix(root).map_err(|_| {
        Error::unsupported(format!(
            "`{}` is outside the table folder {}: its table cannot be compacted here",
            path.display(),
            root.display()
        ))
    })?;
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    parts
        .map(|p| p.join("/"))
        .ok_or_else(|| Error::invalid_argument(format!("`{}`: not UTF-8", path.display())))
}
