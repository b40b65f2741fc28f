//! [`DatasetReader`]: the rows of a dataset's files, one file open at a time.

use std::fmt;
use std::fs::File;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use crate::de::Constant;
use crate::error::{Error, Result};
use crate::file::{FileReader, ReadOptions};
use crate::filter::{FilterOptions, Predicate};
use crate::Reader;

use super::list::DataFile;
use super::Dataset;

/// An iterator of the rows of a dataset's files as values of `T`, file after file in time
/// order (see [`Dataset`]). Each file is opened when its first row is due, read as
/// [`Reader`] reads one file (one row group in memory at a time, only the columns `T`
/// reads), with its partition values filling the fields of `T` it does not store.
///
/// Each item is one row. An error names its file; after a file that cannot be opened (not
/// Parquet, truncated, unreadable, a schema `T` does not fit) the reader moves on to the
/// next file, and after an error in a row to the next row, as [`Reader`] does.
pub struct DatasetReader<T> {
    files: std::vec::IntoIter<(DataFile, Option<Predicate>)>,
    current: Option<(PathBuf, Reader<File, T>)>,
    options: ReadOptions,
    filter_options: FilterOptions,
}

impl<T> fmt::Debug for DatasetReader<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DatasetReader")
            .field("current", &self.current.as_ref().map(|c| &c.0))
            .field("files_left", &self.files.len())
            .finish_non_exhaustive()
    }
}

impl<T: DeserializeOwned> DatasetReader<T> {
    pub(super) fn new(
        files: Vec<(DataFile, Option<Predicate>)>,
        options: ReadOptions,
        filter_options: FilterOptions,
    ) -> Self {
        DatasetReader {
            files: files.into_iter(),
            current: None,
            options,
            filter_options,
        }
    }

    /// The file being read (`None` before the first row and after the last).
    pub fn current_file(&self) -> Option<&Path> {
        self.current.as_ref().map(|c| c.0.as_path())
    }

    /// Every row left, in order, stopping at the first error. Whole files are read as
    /// [`from_path`](crate::from_path) reads them (helper threads decode while this thread
    /// assembles).
    pub fn read_all(mut self) -> Result<Vec<T>> {
        let mut out = Vec::new();
        if let Some((path, reader)) = self.current.take() {
            reader
                .collect_into(&mut out)
                .map_err(|e| at_file(e, &path))?;
        }
        for (file, predicate) in self.files.by_ref() {
            let reader = open::<T>(&file, predicate, &self.options, self.filter_options)
                .map_err(|e| at_file(e, file.path()))?;
            reader
                .collect_into(&mut out)
                .map_err(|e| at_file(e, file.path()))?;
        }
        Ok(out)
    }
}

/// `e` with the file it happened in.
fn at_file(e: Error, path: &Path) -> Error {
    e.context(path.display())
}

/// Opens `file` for rows of `T` with its partition values as constant fields, filtered by
/// `predicate` when there is one.
fn open<T: DeserializeOwned>(
    file: &DataFile,
    predicate: Option<Predicate>,
    options: &ReadOptions,
    filter_options: FilterOptions,
) -> Result<Reader<File, T>> {
    let f = File::open(file.path())?;
    let reader = FileReader::with_options(f, options.clone())?;
    let constants: Vec<Constant> = file
        .partitions()
        .iter()
        .filter_map(|(k, v)| Some(Constant::new(k, v.constant()?)))
        .collect();
    let reader = Reader::with_constants(reader, &constants)?;
    match predicate {
        Some(p) => reader.filter_with_options(p, filter_options),
        None => Ok(reader),
    }
}

impl<T: DeserializeOwned> Iterator for DatasetReader<T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        loop {
            if let Some((path, reader)) = &mut self.current {
                match reader.next() {
                    Some(row) => return Some(row.map_err(|e| at_file(e, path))),
                    None => self.current = None,
                }
            }
            let (file, predicate) = self.files.next()?;
            match open::<T>(&file, predicate, &self.options, self.filter_options) {
                Ok(reader) => self.current = Some((file.path().to_path_buf(), reader)),
                Err(e) => return Some(Err(at_file(e, file.path()))),
            }
        }
    }
}

impl<T: DeserializeOwned> Reader<File, T> {
    /// The rows of every final `.parquet` file below folder `dir`, in time order, with
    /// hive partition values (`date=…/hour=…` folders) filling the fields of `T` the files
    /// do not store: [`Dataset::open`] then [`Dataset::rows`]. For a predicate, glob
    /// patterns or options, use [`Dataset`].
    ///
    /// ```no_run
    /// # fn main() -> parquet_serde::Result<()> {
    /// #[derive(serde::Deserialize)]
    /// struct Access {
    ///     date: String, // from the folder `date=2026-11-24`
    ///     route: String,
    /// }
    /// for row in parquet_serde::Reader::<_, Access>::from_dir("logs/access")? {
    ///     let row = row?;
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn from_dir(dir: impl AsRef<Path>) -> Result<DatasetReader<T>> {
        Ok(Dataset::open(dir)?.rows())
    }
}
