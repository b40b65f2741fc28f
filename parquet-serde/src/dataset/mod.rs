//! Datasets: every final Parquet file below a folder (or matching a glob pattern), read as
//! one stream of rows in time order, with hive partition folders (`date=2026-11-24/hour=13`)
//! as values of the rows and pruned by predicates.
//!
//! ```
//! # fn main() -> parquet_serde::Result<()> {
//! use parquet_serde::dataset::Dataset;
//! use parquet_serde::{col, ParquetSchema};
//!
//! #[derive(serde::Serialize, serde::Deserialize, ParquetSchema, Debug, PartialEq)]
//! struct Access {
//!     #[parquet(timestamp = "micros")]
//!     ts: i64,
//!     level: String,
//!     route: String,
//! }
//! /// The same rows with the partition values, which the files do not store.
//! #[derive(serde::Deserialize, Debug, PartialEq)]
//! struct Located {
//!     date: String,
//!     hour: u8,
//!     route: String,
//! }
//!
//! let dir = tempfile::tempdir()?;
//! for (hour, route) in [(13, "/a"), (14, "/b")] {
//!     let folder = dir.path().join(format!("date=2026-11-24/hour={hour}"));
//!     std::fs::create_dir_all(&folder)?;
//!     let row = Access { ts: hour, level: "ERROR".into(), route: route.into() };
//!     parquet_serde::to_path(folder.join("part-0.parquet"), &[row])?;
//! }
//! let rows: Vec<Located> = Dataset::open(dir.path())?
//!     .filter(col("hour").ge(14).and(col("level").eq("ERROR")))?
//!     .read_all()?;
//! assert_eq!(rows, [Located { date: "2026-11-24".into(), hour: 14, route: "/b".into() }]);
//! # Ok(())
//! # }
//! ```
//!
//! # Files
//!
//! [`Dataset::open`] walks a folder recursively and keeps the files named `*.parquet`;
//! [`Dataset::glob`] keeps the files a pattern such as `logs/**/*.parquet` matches. Either
//! way, files and folders whose names start with `_` or `.` are skipped: those are files
//! still being written (a log writer's `_part-…` / `.part-…`), `_SUCCESS` markers,
//! `_metadata` and hidden files, which pyarrow, Spark and DuckDB skip too. Symbolic links
//! are followed to files, not to folders.
//!
//! Each folder named `key=value` in a file's path (as given: the root's own folders
//! count, as in DuckDB's hive partitioning) gives the file a partition value: URL-decoded (`%2F` is `/`), a
//! date when every value of the key is `YYYY-MM-DD`, else an integer when every value is
//! one, else text; `__HIVE_DEFAULT_PARTITION__` is null ([`DataFile::partition`] gives each as a [`Value`](crate::Value)). Files are
//! read in the order of their partition values (folder by folder, as values: `hour=9`
//! before `hour=13`), then of their paths: for `date=/hour=` folders and time-stamped file
//! names, time order.
//!
//! # Partition values in the rows
//!
//! A top-level field of the row type named like a partition key, which the file does not
//! store, reads the folder's value as if it were a required column: a date into `i32`
//! days (`#[parquet(date)]`), chrono's `NaiveDate` or a `String` (`YYYY-MM-DD`), an
//! integer into any integer type that holds it, text into `String`. A null value leaves the
//! field missing (`None` for an `Option`). [`Value`](crate::Value) rows get the partition
//! values as their last fields. A file that stores a column of the key's name is read
//! from that column.
//!
//! # Predicates
//!
//! [`Dataset::filter`] takes the same [`Predicate`]s as [`Reader::filter`](crate::Reader::filter).
//! Its tests of partition keys are decided by each file's folder values first, so files
//! whose folders cannot match are never opened; what is left of the predicate (over the
//! file's own columns) prunes row groups and pages of each file by statistics, Bloom
//! filters and the page index, and is then applied row by row, exactly as on one file.
//! Dates compare with `'YYYY-MM-DD'` text (a date-time text with its instant, which a
//! day's midnight is compared with, as on a DATE column), integers with numbers. The keys' values are
//! the folders' even when a file stores a column of the same name.
//!
//! # Delta tables
//!
//! With feature `delta`, a folder holding a `_delta_log/` with commits (or checkpoints) is
//! a [Delta Lake](https://delta.io) table, and [`Dataset::open`] reads its current
//! snapshot instead of walking the folder:
//! - the files are those of the log, replayed from the newest complete Parquet checkpoint
//!   (single or multi-part; the listing finds it whether `_last_checkpoint` is there,
//!   stale or missing) then the JSON commits after it; files a `remove` took out are not
//!   read even when they are still in the folder. Their paths are URL-decoded, relative
//!   to the root (`file:` URIs too); each must exist with the size the log states.
//! - the partition values are the log's, typed by the table schema: `date` columns as
//!   dates, `byte`/`short`/`integer`/`long` as integers, every other type as its text;
//!   null as null (not from the folder names).
//! - [`filter`](Dataset::filter) drops, before any file is opened, the files whose
//!   partition values cannot match (as for folders) and those whose commit statistics
//!   (`numRecords`, `nullCount`, `minValues`/`maxValues` of top-level integer, date,
//!   string and `timestamp` columns, a timestamp bound widened by the millisecond the log
//!   may have truncated) rule every row out; [`selected_files`](Dataset::selected_files)
//!   lists the files kept.
//! - [`version`](Dataset::version) reads an older snapshot;
//!   [`table_version`](Dataset::table_version) says which.
//!
//! A table that needs a reader feature this crate lacks (`deletionVectors`, column mapping
//! by name or id, `v2Checkpoint`, a reader version above 3, ...) is refused with an
//! [`Unsupported`](crate::ErrorKind::Unsupported) error naming the feature and the table;
//! `timestampNtz`, `vacuumProtocolCheck` and `variantType` are read. A corrupt log (a
//! commit that is not JSON lines of actions, a missing commit, a checkpoint that is not
//! Parquet, a missing protocol or metadata) is an error naming the file.
//!
//! ```
//! # #[cfg(feature = "delta")]
//! # fn main() -> parquet_serde::Result<()> {
//! use parquet_serde::dataset::Dataset;
//! use parquet_serde::{col, ParquetSchema};
//!
//! #[derive(serde::Serialize, serde::Deserialize, ParquetSchema, Debug, PartialEq)]
//! struct Hit {
//!     id: i64,
//! }
//! #[derive(serde::Deserialize, Debug, PartialEq)]
//! struct Located {
//!     id: i64,
//!     region: String,
//! }
//!
//! let dir = tempfile::tempdir()?;
//! // Two commits: the table with one file, then a second file.
//! let mut commits = Vec::new();
//! for (n, region) in ["eu", "us"].iter().enumerate() {
//!     let rel = format!("region={region}/part-{n}.parquet");
//!     std::fs::create_dir_all(dir.path().join(format!("region={region}")))?;
//!     parquet_serde::to_path(dir.path().join(&rel), &[Hit { id: n as i64 }])?;
//!     let size = std::fs::metadata(dir.path().join(&rel))?.len();
//!     let mut commit = String::new();
//!     if n == 0 {
//!         commit.push_str(r#"{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}
//! {"metaData":{"id":"t","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":false,\"metadata\":{}},{\"name\":\"region\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":["region"],"configuration":{}}}
//! "#);
//!     }
//!     commit.push_str(&format!(
//!         r#"{{"add":{{"path":"{rel}","partitionValues":{{"region":"{region}"}},"size":{size},"modificationTime":0,"dataChange":true,"stats":"{{\"numRecords\":1,\"minValues\":{{\"id\":{n}}},\"maxValues\":{{\"id\":{n}}}}}"}}}}"#
//!     ));
//!     commits.push(commit);
//! }
//! std::fs::create_dir_all(dir.path().join("_delta_log"))?;
//! for (v, commit) in commits.iter().enumerate() {
//!     std::fs::write(dir.path().join(format!("_delta_log/{v:020}.json")), commit)?;
//! }
//!
//! let table = Dataset::open(dir.path())?;
//! assert_eq!(table.table_version(), Some(1));
//! // The statistics rule out the file of id 0: only one file is opened.
//! let hits = table.filter(col("id").ge(1))?;
//! assert_eq!(hits.selected_files().count(), 1);
//! let rows: Vec<Located> = hits.read_all()?;
//! assert_eq!(rows, [Located { id: 1, region: "us".into() }]);
//! // Version 0 held the first file only.
//! let old: Vec<Located> = Dataset::open(dir.path())?.version(0)?.read_all()?;
//! assert_eq!(old, [Located { id: 0, region: "eu".into() }]);
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "delta"))]
//! # fn main() {}
//! ```
//!
//! # Iceberg tables
//!
//! With feature `iceberg`, a folder holding a `metadata/` folder with `*.metadata.json`
//! files is an [Apache Iceberg](https://iceberg.apache.org) table (format v2), and
//! [`Dataset::open`] reads a snapshot of it instead of walking the folder:
//! - the metadata file read is the one of the highest version (`vN.metadata.json` or
//!   `NNNNN-<uuid>.metadata.json`, as file-system tables and pyiceberg's and Java's
//!   catalogs name them); `metadata/version-hint.text` is only a hint (a writer killed
//!   before rewriting it leaves it behind the newest version), read when no name gives a
//!   version;
//! - the files are the live data files of the snapshot: those of its manifest list's
//!   manifests with status added or existing (a file an overwrite or a compaction
//!   replaced is not read, even though it is still in the folder). Their paths are
//!   absolute `file:` URIs or paths; one below the table's `location` is taken below the
//!   folder opened, so a copied or moved table reads too. Each must exist with the size
//!   its manifest states. Tables in object stores are not read (the Delta reader reads
//!   local folders only too).
//! - columns are matched by field id, not by name: each file's top-level columns are read
//!   under the names the table schema gives their ids, so a renamed column reads under
//!   its new name; a column the table added after a file was written is missing from
//!   that file's rows (`None` for an `Option` field of a typed row; absent from a
//!   [`Value`](crate::Value) row). A column the table dropped is read as
//!   `_dropped_field_ID`. Nested fields are matched by name. A predicate naming a column
//!   some files lack (added after they were written) tests it as null in those files
//!   (`level = 1` skips them, `level is null` keeps all their rows), as Iceberg does.
//! - [`filter`](Dataset::filter) drops, before any file is opened, the files whose
//!   partition values (identity; `hour` and `day` of a timestamp; `day` of a date) or
//!   manifest metrics (record and null counts, lower and upper bounds of top-level `int`,
//!   `long`, `date`, `string`, `float`, `double` and `timestamp(tz)` columns) rule every
//!   row out, as pyiceberg's scan planning does;
//! - [`version`](Dataset::version) takes a snapshot id and reads that snapshot with the
//!   schema it was written with; [`table_version`](Dataset::table_version) gives the
//!   snapshot id read.
//!
//! A snapshot with delete files (position or equality deletes: manifests of content
//! `deletes`, or data-file entries of content 1 or 2) is refused with an
//! [`Unsupported`](crate::ErrorKind::Unsupported) error naming the manifest: reading its
//! data files whole would bring deleted rows back. A format other than v2 (v3 deletion
//! vectors included) is refused too. A corrupt metadata file, manifest list or manifest
//! is an error naming the file.

#[cfg(any(feature = "delta", feature = "iceberg"))]
mod bounds_prune;
mod check;
pub(crate) mod compact;
#[cfg(feature = "delta")]
mod delta_stats;
#[cfg(feature = "delta")]
mod delta_table;
mod glob;
#[cfg(feature = "iceberg")]
mod iceberg_table;
mod list;
mod partition;
mod prune;
mod rows;

use std::path::Path;

use serde::de::{Deserialize, DeserializeOwned};

use crate::core::file::ReadOptions;
use crate::error::Result;
use crate::filter::{FilterOptions, Predicate};

pub use compact::{CompactOptions, CompactReport};
pub use list::DataFile;
pub use rows::DatasetReader;

use prune::Decided;

/// The files of a dataset, with the predicate their rows are read with.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// Every file found, in time order.
    files: Vec<DataFile>,
    /// The files a predicate may match, each with what is left of it.
    selected: Vec<(DataFile, Option<Predicate>)>,
    predicate: Option<Predicate>,
    options: ReadOptions,
    filter_options: FilterOptions,
    /// The Delta table the files come from (feature `delta`).
    #[cfg(feature = "delta")]
    delta: Option<delta_table::DeltaTable>,
    /// The Iceberg table snapshot the files come from (feature `iceberg`).
    #[cfg(feature = "iceberg")]
    iceberg: Option<iceberg_table::IcebergSnapshot>,
}

impl Dataset {
    /// The final `.parquet` files below folder `dir`, recursively (see the
    /// [module docs](self#files)); with feature `delta`, when `dir` is a Delta table's root
    /// (a `_delta_log/` with commits), the files of its current snapshot instead (see
    /// [Delta tables](self#delta-tables)). Fails when `dir` is not a folder or a folder
    /// cannot be listed, or when the Delta log is corrupt or needs a reader feature this
    /// crate lacks; files are opened only when read.
    pub fn open(dir: impl AsRef<Path>) -> Result<Dataset> {
        #[cfg(feature = "delta")]
        if delta_table::is_delta_root(dir.as_ref()) {
            return Self::open_delta(dir.as_ref(), None);
        }
        #[cfg(feature = "iceberg")]
        if iceberg_table::is_iceberg_root(dir.as_ref()) {
            return Self::open_iceberg(dir.as_ref(), None);
        }
        Ok(Self::from_files(list::list_dir(dir.as_ref())?))
    }

    /// Snapshot `snapshot` of the Iceberg table at `root` (the current one when `None`).
    #[cfg(feature = "iceberg")]
    fn open_iceberg(root: &Path, snapshot: Option<u64>) -> Result<Dataset> {
        let (files, table) = iceberg_table::open(root, snapshot)?;
        let mut dataset = Self::from_files(files);
        dataset.iceberg = Some(table);
        Ok(dataset)
    }

    /// The snapshot of the Delta table at `root` at `version` (the latest when `None`).
    #[cfg(feature = "delta")]
    fn open_delta(root: &Path, version: Option<u64>) -> Result<Dataset> {
        let (files, table) = delta_table::open(root, version)?;
        let mut dataset = Self::from_files(files);
        dataset.delta = Some(table);
        Ok(dataset)
    }

    /// The same Delta table at an older (or newer) `version`: its files at that version,
    /// read with the same options and predicate (see the [module docs](self#delta-tables));
    /// of an Iceberg table, the snapshot whose id is `version` (see
    /// [Iceberg tables](self#iceberg-tables)). Fails when the dataset is not a table, when
    /// the version or snapshot does not exist, or when its log or metadata cannot be read.
    #[cfg(any(feature = "delta", feature = "iceberg"))]
    pub fn version(self, version: u64) -> Result<Dataset> {
        let reopened = self.reopen(version)?;
        let mut older = reopened.read_options(self.options);
        if let Some(p) = self.predicate {
            older = older.filter_with_options(p, self.filter_options)?;
        }
        Ok(older)
    }

    /// The table at `version` (a Delta version, or an Iceberg snapshot id).
    #[cfg(any(feature = "delta", feature = "iceberg"))]
    fn reopen(&self, version: u64) -> Result<Dataset> {
        #[cfg(feature = "delta")]
        if let Some(table) = &self.delta {
            return Self::open_delta(&table.root, Some(version));
        }
        #[cfg(feature = "iceberg")]
        if let Some(table) = &self.iceberg {
            return Self::open_iceberg(&table.root, Some(version));
        }
        let _ = version;
        Err(crate::error::Error::invalid_argument(
            "not a table: only a Delta table (a folder with a _delta_log/) or an Iceberg \
             table (a folder with metadata/*.metadata.json) has versions",
        ))
    }

    /// The version of the Delta table's snapshot read, or the id of the Iceberg table's
    /// snapshot read; `None` when the dataset is not a table (or is an Iceberg table
    /// without a snapshot yet).
    #[cfg(any(feature = "delta", feature = "iceberg"))]
    pub fn table_version(&self) -> Option<u64> {
        #[cfg(feature = "delta")]
        if let Some(t) = &self.delta {
            return Some(t.version);
        }
        #[cfg(feature = "iceberg")]
        if let Some(t) = &self.iceberg {
            return t.snapshot_id.and_then(|id| u64::try_from(id).ok());
        }
        None
    }

    /// The final files `pattern` matches (`logs/**/*.parquet`, `logs/date=2026-11-*/*/*`;
    /// see the [module docs](self#files)). No match is an empty dataset; a pattern
    /// without a wildcard, or with an unclosed `[`, is an error.
    pub fn glob(pattern: &str) -> Result<Dataset> {
        Ok(Self::from_files(list::list_glob(pattern)?))
    }

    /// Whether `path` is a glob pattern (holds `*`, `?` or `[`) rather than a path.
    pub fn is_pattern(path: &str) -> bool {
        glob::is_pattern(path)
    }

    fn from_files(files: Vec<DataFile>) -> Dataset {
        Dataset {
            selected: files.iter().map(|f| (f.clone(), None)).collect(),
            files,
            predicate: None,
            options: ReadOptions::default(),
            filter_options: FilterOptions::default(),
            #[cfg(feature = "delta")]
            delta: None,
            #[cfg(feature = "iceberg")]
            iceberg: None,
        }
    }

    /// Reads the files with `options` (decryption keys, checksums, threads).
    pub fn read_options(mut self, options: ReadOptions) -> Dataset {
        self.options = options;
        self
    }

    /// Reads only the rows where `predicate` holds (see the [module docs](self#predicates)):
    /// files whose partition values cannot match are dropped now. Calling it again requires
    /// both predicates. Fails when a literal does not compare with a partition key's values;
    /// a column neither a partition key nor in a file, or a literal that does not compare
    /// with a file's column, fails before the first row is read (see
    /// [`check_filter`](Self::check_filter)).
    pub fn filter(self, predicate: Predicate) -> Result<Dataset> {
        self.filter_with_options(predicate, FilterOptions::default())
    }

    /// [`filter`](Self::filter), choosing which metadata is used to skip data in each
    /// file (the rows are the same whatever the options).
    pub fn filter_with_options(
        mut self,
        predicate: Predicate,
        options: FilterOptions,
    ) -> Result<Dataset> {
        let predicate = match self.predicate.take() {
            Some(old) => old.and(predicate),
            None => predicate,
        };
        #[cfg(feature = "iceberg")]
        if let Some(t) = &self.iceberg {
            self.files = t.nulls_for_missing(&self.files, &predicate);
        }
        let mut selected = Vec::new();
        for f in &self.files {
            match prune::decide(&predicate, f.partition_values())
                .map_err(|e| e.context(f.path().display()))?
            {
                Decided::None => {}
                Decided::All => selected.push((f.clone(), None)),
                Decided::Rows(p) if !self.stats_may_match(f, &p) => {}
                Decided::Rows(p) => selected.push((f.clone(), Some(p))),
            }
        }
        self.selected = selected;
        self.predicate = Some(predicate);
        self.filter_options = options;
        Ok(self)
    }

    /// Whether the statistics a Delta log states of `file` leave a row that may satisfy
    /// `rest` (always, for files not of a Delta table).
    fn stats_may_match(&self, file: &DataFile, rest: &Predicate) -> bool {
        #[cfg(feature = "delta")]
        if let Some(t) = &self.delta {
            return t.may_match(file, rest);
        }
        #[cfg(feature = "iceberg")]
        if let Some(t) = &self.iceberg {
            return t.may_match(file, rest);
        }
        let _ = (file, rest);
        true
    }

    /// Checks that the whole predicate applies to the dataset, before any part of it is
    /// removed by partition pruning or constant folding: each test of a partition key
    /// compares with the key's values, and every other test applies to every selected file
    /// (to the first file found when none is selected): each column it names is a leaf of
    /// the file, and each literal compares with that column's type. So a predicate is
    /// refused on a dataset exactly when one of its files refuses it. Reads the footer of
    /// each of those files; a file that cannot be opened is left to the reading. [`rows`](Self::rows) and
    /// [`read_all`](Self::read_all) check this before their first row, so that a predicate
    /// that cannot apply fails before any row is read, with the file's path.
    pub fn check_filter(&self) -> Result<()> {
        match self.check() {
            Some(c) => c.run(&self.options),
            None => Ok(()),
        }
    }

    /// The check of the whole predicate (see [`check_filter`](Self::check_filter)).
    fn check(&self) -> Option<check::Check> {
        let selected: Vec<DataFile> = self.selected.iter().map(|(f, _)| f.clone()).collect();
        let p = self.predicate.clone()?;
        Some(check::Check::new(p, &self.files, &selected))
    }

    /// Keeps only the files for which `keep` holds (of those found, and of those a
    /// predicate selected).
    pub fn retain(mut self, mut keep: impl FnMut(&DataFile) -> bool) -> Dataset {
        self.files.retain(&mut keep);
        self.selected.retain(|(f, _)| keep(f));
        self
    }

    /// Every file found, in the order read.
    pub fn files(&self) -> &[DataFile] {
        &self.files
    }

    /// The files read: those the predicate's partition tests may match (every file
    /// without a predicate).
    pub fn selected_files(&self) -> impl Iterator<Item = &DataFile> {
        self.selected.iter().map(|(f, _)| f)
    }

    /// The predicate set by [`filter`](Self::filter).
    pub fn predicate(&self) -> Option<&Predicate> {
        self.predicate.as_ref()
    }

    /// The rows of every selected file as `T`, one file open at a time (see
    /// [`DatasetReader`]). A type that borrows its text (`&str`, `Cow`) reads them by
    /// [batches](DatasetReader::next_batch).
    pub fn rows<T: Deserialize<'static>>(&self) -> DatasetReader<T> {
        DatasetReader::new(
            self.selected.clone(),
            self.options.clone(),
            self.filter_options,
            self.check(),
        )
    }

    /// Merges the small files of each partition folder into files near a target size
    /// (default 256 MiB), and removes them. Rows are neither lost nor changed: each output
    /// holds exactly the rows of its inputs, in their order (the dataset's order, which is
    /// time order for time-stamped file names); the report counts them.
    ///
    /// ```
    /// # fn main() -> parquet_serde::Result<()> {
    /// use parquet_serde::dataset::{CompactOptions, Dataset};
    ///
    /// #[derive(serde::Serialize, serde::Deserialize, parquet_serde::ParquetSchema)]
    /// struct Line { ts: i64, message: String }
    /// let dir = tempfile::tempdir()?;
    /// let folder = dir.path().join("date=2026-11-28");
    /// std::fs::create_dir(&folder)?;
    /// for n in 0..10 {
    ///     let line = Line { ts: n, message: format!("line {n}") };
    ///     parquet_serde::to_path(folder.join(format!("part-{n:02}.parquet")), &[line])?;
    /// }
    /// let report = Dataset::open(dir.path())?.compact(&CompactOptions::default())?;
    /// assert_eq!((report.inputs, report.outputs.len(), report.rows), (10, 1, 10));
    /// assert_eq!(report.inputs_removed, 10);
    /// let lines: Vec<Line> = Dataset::open(dir.path())?.read_all()?;
    /// assert!(lines.iter().map(|l| l.ts).eq(0..10));
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # What is merged
    ///
    /// The files of one folder (one hive partition) are merged together, never with another
    /// folder's. Of the dataset's selected files (a [`filter`](Self::filter) on partition keys
    /// limits the compaction to those partitions; the rest of a predicate is ignored: files
    /// are merged whole), those smaller than three quarters of the target are inputs; the
    /// others stay as they are. Only files with the same schema are merged: a folder whose
    /// files change schema is merged in runs of consecutive files with one schema, and a
    /// run of one file is left as it is. An encrypted input is refused with an error naming
    /// it, before anything is written. Files and folders whose names start with `_` or `.`
    /// (files being written) are never touched. Outputs are cut between input files, near
    /// the target (each input is in exactly one output); the last output of each run holds
    /// what is left and may be smaller.
    ///
    /// Row groups of at least an eighth of the row-group target
    /// ([`CompactOptions::row_group_size`]) are copied verbatim: their pages byte for byte,
    /// with their statistics, page index and Bloom filter. Smaller ones are decoded and
    /// encoded again, together, into row groups near the row-group target, with each
    /// column's codec of the first input, a Bloom filter where the first input has one,
    /// and the writer's defaults otherwise (statistics, page index).
    ///
    /// An output keeps the key-value metadata every one of its inputs has, and adds the
    /// entry `parquet-serde.compacted_from`, which lists its inputs (size and name, one
    /// `SIZE<TAB>NAME` line each) for the crash recovery below. It declares no sort order (`sorting_columns`): its rows are
    /// those of several files one after the other.
    ///
    /// # Crash safety
    ///
    /// Each output is written under a temporary name starting with `.` (which readers
    /// skip), synced, and renamed to its final name, `STEM.compact.parquet` beside its
    /// first input (of name `STEM.parquet`). Only then are its inputs removed, one by one.
    /// Between that rename and the last removal, a reader listing the folder may see an
    /// output and some of its inputs, so read some rows twice: that is the only window of
    /// duplicates. A crash (or an error)
    /// - while an output is written leaves the inputs as they were and a `.`-prefixed
    ///   temporary file, which the next compaction removes: no duplicate, no loss;
    /// - after the rename, before all its inputs are removed, leaves duplicates until the
    ///   next compaction of the dataset, which first removes every file an output lists
    ///   with the same size (counted in [`CompactReport::leftovers_removed`]).
    ///
    /// Outputs already finished stay finished. Run one compaction of a folder at a time;
    /// writers may keep adding files meanwhile (files that appear after the listing are
    /// not touched).
    ///
    /// # Delta tables
    ///
    /// On a dataset opened from a Delta table's root (feature `delta`), the files of its
    /// snapshot are compacted as [`DeltaTable::compact`](crate::delta::DeltaTable::compact)
    /// does (its selected files only): no file is deleted, the inputs are removed from the
    /// table in the commit that adds the outputs, and stay in storage until a vacuum.
    ///
    /// # Iceberg tables
    ///
    /// On a dataset opened from an Iceberg table's root (feature `iceberg`), its selected
    /// files are compacted as [`IcebergTable::compact`](crate::iceberg::IcebergTable::compact)
    /// does: one `replace` snapshot removes the inputs and adds the outputs; no file is
    /// deleted (the inputs stay for older snapshots until they are expired).
    pub fn compact(&self, options: &CompactOptions) -> Result<CompactReport> {
        let files: Vec<DataFile> = self.selected_files().cloned().collect();
        #[cfg(feature = "delta")]
        if let Some(table) = &self.delta {
            let committer = crate::delta::DeltaTable::open(&table.root);
            return compact::table::compact_table(&committer, &files, &table.paths, options);
        }
        #[cfg(feature = "iceberg")]
        if let Some(table) = &self.iceberg {
            let committer = crate::iceberg::IcebergTable::open(&table.root);
            return compact::compact_iceberg(&committer, &files, table, options);
        }
        Ok(compact::compact_files(&files, options, compact::Inputs::Remove)?.report)
    }

    /// Every row of every selected file as `T`, in order, stopping at the first error.
    pub fn read_all<T: DeserializeOwned>(&self) -> Result<Vec<T>> {
        self.rows::<T>().read_all()
    }
}
