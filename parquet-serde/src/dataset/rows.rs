//! [`DatasetReader`]: the rows of a dataset's files, one file open at a time.

use std::fmt;
use std::fs::File;
use std::path::{Path, PathBuf};

use serde::de::{Deserialize, DeserializeOwned};

use crate::core::file::{FileReader, ReadOptions};
use crate::de::Constant;
use crate::error::{Error, Result};
use crate::filter::{FilterOptions, Predicate};
use crate::record::Value;
use crate::{Batch, Reader};

use super::check::Check;
use super::list::DataFile;

/// An iterator of the rows of a dataset's files as values of `T`, file after file in time
/// order (see [`Dataset`](super::Dataset)). Each file is opened when its first row is due, read as
/// [`Reader`] reads one file (one row group in memory at a time, only the columns `T`
/// reads), with its partition values filling the fields of `T` it does not store.
///
/// Each item is one row. An error names its file; after a file that cannot be opened (not
/// Parquet, truncated, unreadable, a schema `T` does not fit) the reader moves on to the
/// next file, and after an error in a row to the next row, as [`Reader`] does. A predicate
/// that cannot apply to some file's schema (see [`Dataset::check_filter`](super::Dataset::check_filter)) is the first
/// and only item, before any row.
pub struct DatasetReader<T> {
    files: std::vec::IntoIter<(DataFile, Option<Predicate>)>,
    current: Option<(PathBuf, Reader<File, T>)>,
    options: ReadOptions,
    filter_options: FilterOptions,
    /// The columns kept of each file (every one when empty), for `Value` rows.
    select: Option<Select<T>>,
    /// The predicate's check, until it ran (before the first row).
    check: Option<Check>,
}

/// [`Reader::select_columns`] for rows of one type, with its columns.
type Select<T> = (
    fn(Reader<File, T>, &[String]) -> Result<Reader<File, T>>,
    Vec<String>,
);

impl<T> fmt::Debug for DatasetReader<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DatasetReader")
            .field("current", &self.current.as_ref().map(|c| &c.0))
            .field("files_left", &self.files.len())
            .finish_non_exhaustive()
    }
}

impl<T: Deserialize<'static>> DatasetReader<T> {
    pub(super) fn new(
        files: Vec<(DataFile, Option<Predicate>)>,
        options: ReadOptions,
        filter_options: FilterOptions,
        check: Option<Check>,
    ) -> Self {
        DatasetReader {
            files: files.into_iter(),
            current: None,
            options,
            filter_options,
            select: None,
            check,
        }
    }

    /// Before the first row: the predicate checked against every file's schema. On
    /// failure no file is left to read.
    fn check(&mut self) -> Result<()> {
        let Some(check) = self.check.take() else {
            return Ok(());
        };
        let r = check.run(&self.options);
        if r.is_err() {
            self.files = Vec::new().into_iter();
        }
        r
    }

    /// The file being read (`None` before the first row and after the last).
    pub fn current_file(&self) -> Option<&Path> {
        self.current.as_ref().map(|c| c.0.as_path())
    }

    /// The next row group of the files left as a [`Batch`] (see
    /// [`Reader::next_batch`]): what a type that borrows its text and bytes reads, file
    /// after file. `None` after the last. Partition values fill the fields the files lack
    /// (read them into `String` or `Cow`: they are not borrowed). An error names its file;
    /// after a file that cannot be opened the next call moves on to the next file.
    ///
    /// ```
    /// # fn main() -> parquet_serde::Result<()> {
    /// use parquet_serde::dataset::Dataset;
    /// use parquet_serde::ParquetSchema;
    ///
    /// #[derive(serde::Serialize, ParquetSchema)]
    /// struct Log {
    ///     message: String,
    /// }
    /// let dir = tempfile::tempdir()?;
    /// for (name, message) in [("a.parquet", "one"), ("b.parquet", "two")] {
    ///     let path = dir.path().join(name);
    ///     parquet_serde::to_path(&path, &[Log { message: message.into() }])?;
    /// }
    ///
    /// #[derive(serde::Deserialize)]
    /// struct Borrowed<'a> {
    ///     message: &'a str,
    /// }
    /// let mut rows = Dataset::open(dir.path())?.rows::<Borrowed>();
    /// let mut messages = Vec::new();
    /// while let Some(batch) = rows.next_batch() {
    ///     let batch = batch?;
    ///     messages.extend(batch.rows::<Borrowed>()?.iter().map(|r| r.message.to_owned()));
    /// }
    /// messages.sort();
    /// assert_eq!(messages, ["one", "two"]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn next_batch(&mut self) -> Option<Result<Batch>> {
        if let Err(e) = self.check() {
            return Some(Err(e));
        }
        loop {
            if let Some((path, reader)) = &mut self.current {
                match reader.next_batch() {
                    Some(batch) => {
                        return Some(batch.map(|b| b.in_file(path)).map_err(|e| at_file(e, path)))
                    }
                    None => self.current = None,
                }
            }
            let (file, predicate) = self.files.next()?;
            match self.open(&file, predicate) {
                Ok(reader) => self.current = Some((file.path().to_path_buf(), reader)),
                Err(e) => return Some(Err(at_file(e, file.path()))),
            }
        }
    }
}

impl<T: DeserializeOwned> DatasetReader<T> {
    /// Every row left, in order, stopping at the first error. Whole files are read as
    /// [`from_path`](crate::from_path) reads them (helper threads decode while this thread
    /// assembles).
    pub fn read_all(mut self) -> Result<Vec<T>> {
        self.check()?;
        let mut out = Vec::new();
        if let Some((path, reader)) = self.current.take() {
            reader
                .collect_into(&mut out)
                .map_err(|e| at_file(e, &path))?;
        }
        while let Some((file, predicate)) = self.files.next() {
            let reader = self
                .open(&file, predicate)
                .map_err(|e| at_file(e, file.path()))?;
            reader
                .collect_into(&mut out)
                .map_err(|e| at_file(e, file.path()))?;
        }
        Ok(out)
    }
}

/// `e` with the file it happened in.
pub(super) fn at_file(e: Error, path: &Path) -> Error {
    e.context(format_args!("`{}`", path.display()))
}

impl<T: Deserialize<'static>> DatasetReader<T> {
    /// Opens `file` for rows of `T` with its partition values as constant fields, its
    /// columns selected, filtered by `predicate` when there is one.
    fn open(&self, file: &DataFile, predicate: Option<Predicate>) -> Result<Reader<File, T>> {
        let f = File::open(file.path())?;
        let mut reader = FileReader::with_options(f, self.options.clone())?;
        file.rename_by_id(&mut reader)?;
        let constants: Vec<Constant> = file
            .partition_values()
            .iter()
            .filter_map(|(k, v)| Some(Constant::new(k, v.constant()?)))
            .collect();
        let mut reader = Reader::with_constants(reader, &constants)?;
        if let Some((select, columns)) = &self.select {
            reader = select(reader, columns)?;
        }
        match predicate {
            Some(p) => reader.filter_with_options(p, self.filter_options),
            None => Ok(reader),
        }
    }
}

impl DatasetReader<Value> {
    /// Keeps of each file's rows only the columns named (see
    /// [`Reader::select_columns`]); a partition key named keeps its value. Every column
    /// when `columns` is empty. Fails when rows were already read.
    pub fn select_columns<S: AsRef<str>>(mut self, columns: &[S]) -> Result<Self> {
        if self.current.is_some() {
            return Err(Error::invalid_argument(
                "columns must be selected before the first row is read",
            ));
        }
        let columns: Vec<String> = columns.iter().map(|c| c.as_ref().to_string()).collect();
        self.select = (!columns.is_empty()).then_some((
            |r: Reader<File, Value>, c: &[String]| r.select_columns(c),
            columns,
        ));
        Ok(self)
    }
}

impl<T: DeserializeOwned> Iterator for DatasetReader<T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        if let Err(e) = self.check() {
            return Some(Err(e));
        }
        loop {
            if let Some((path, reader)) = &mut self.current {
                match reader.next() {
                    Some(row) => return Some(row.map_err(|e| at_file(e, path))),
                    None => self.current = None,
                }
            }
            let (file, predicate) = self.files.next()?;
            match self.open(&file, predicate) {
                Ok(reader) => self.current = Some((file.path().to_path_buf(), reader)),
                Err(e) => return Some(Err(at_file(e, file.path()))),
            }
        }
    }
}
