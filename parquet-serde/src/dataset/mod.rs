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

mod check;
mod glob;
mod list;
mod partition;
mod prune;
mod rows;

use std::path::Path;

use serde::de::{Deserialize, DeserializeOwned};

use crate::core::file::ReadOptions;
use crate::error::Result;
use crate::filter::{FilterOptions, Predicate};

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
}

impl Dataset {
    /// The final `.parquet` files below folder `dir`, recursively (see the
    /// [module docs](self#files)). Fails when `dir` is not a folder or a folder cannot be
    /// listed; files are opened only when read.
    pub fn open(dir: impl AsRef<Path>) -> Result<Dataset> {
        Ok(Self::from_files(list::list_dir(dir.as_ref())?))
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
        let mut selected = Vec::new();
        for f in &self.files {
            match prune::decide(&predicate, f.partition_values())
                .map_err(|e| e.context(f.path().display()))?
            {
                Decided::None => {}
                Decided::All => selected.push((f.clone(), None)),
                Decided::Rows(p) => selected.push((f.clone(), Some(p))),
            }
        }
        self.selected = selected;
        self.predicate = Some(predicate);
        self.filter_options = options;
        Ok(self)
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

    /// Every row of every selected file as `T`, in order, stopping at the first error.
    pub fn read_all<T: DeserializeOwned>(&self) -> Result<Vec<T>> {
        self.rows::<T>().read_all()
    }
}
