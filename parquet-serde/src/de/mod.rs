//! Typed reading: Parquet rows into any `T: serde::Deserialize`.
//!
//! ```no_run
//! use std::collections::BTreeMap;
//!
//! #[derive(serde::Deserialize)]
//! struct LogRecord {
//!     ts: i64,
//!     level: Level,
//!     message: String,
//!     user_id: Option<u64>,
//!     tags: Vec<String>,
//!     attrs: BTreeMap<String, String>,
//! }
//!
//! #[derive(serde::Deserialize)]
//! #[serde(rename_all = "lowercase")]
//! enum Level { Debug, Info, Warn, Error }
//!
//! // All rows at once:
//! let rows: Vec<LogRecord> = parquet_serde::from_path("logs.parquet")?;
//! // Or a row group at a time:
//! for row in parquet_serde::Reader::<_, LogRecord>::from_path("logs.parquet")? {
//!     let row = row?;
//! }
//! # Ok::<(), parquet_serde::Error>(())
//! ```
//!
//! # How it works
//!
//! Each projected leaf column of a row group is decoded once into values and levels (a
//! cursor). Rows are then assembled by answering serde's calls from the cursors: the
//! deserializer of a schema node consumes exactly one instance of the node from every
//! cursor below it, reading presence from definition levels and list lengths from
//! repetition levels. Nothing goes through a dynamic row; strings are handed to the visitor
//! from the column's buffer (`visit_str`), so a `String` field costs its own allocation only.
//!
//! [`from_slice`], [`from_reader`] and [`from_path`] (and their `_with` forms) read with
//! [`ReadOptions::threads`] threads (by default the machine's parallelism, at most 4): helper
//! threads fetch, decrypt, decompress and decode the projected column chunks a few pages at a
//! time, validate text, and build the owned `String`s of text columns read into `String`
//! targets while they are ahead; the calling thread assembles the rows from what they send
//! (handed over with `visit_string`, no copy). Rows are built on the calling thread only, so
//! `T` need not be `Send`; memory stays bounded by a few pages per column, whatever the row
//! group size. On Linux, one more helper maps the pages of the result `Vec` a little ahead of
//! the rows assembled, and the calling thread asks for the cache lines of the levels, values
//! and strings it is about to read (the helpers wrote them on another core). The [`Reader`]
//! iterator decodes a row group at a time: the first one's columns shared out among the
//! threads, each next one on a background thread while the rows of the one before are
//! handed out (so two row groups are in memory). Row groups under 64 KiB stored are decoded
//! on the calling thread.
//!
//! What the Rust type may be and how it matches the file is in the crate docs
//! ("Reading into a Rust type").

mod access;
pub(crate) mod assemble;
mod batch;
mod constant;
mod cursor;
mod error;
pub(crate) mod fast;
mod feed;
mod leaf;
mod node;
mod parallel;
mod probe;
mod reader;
mod rows;
mod select;
mod source;
mod state;
mod tree;
mod variant;

#[cfg(test)]
mod tests;

use std::path::Path;

use serde::de::DeserializeOwned;

use crate::core::file::{ChunkReader, FileReader, ReadOptions};
use crate::error::Result;
use crate::filter::{Filter, FilterOptions, Predicate};
use crate::value::Value;

use feed::{Feeder, Filtered};
use rows::{Assembly, RowLoop};

pub use batch::Batch;
pub(crate) use constant::{ConstValue, Constant};
pub use error::DeError;
pub use reader::Reader;
pub(crate) use source::IntoChunkReader;

/// Room for the rows of `file`: the footer's row count is a hint only, capped by the
/// file's size (hostile footers) and by 1 GiB of rows.
fn capacity<R: ChunkReader, T>(file: &FileReader<R>) -> usize {
    let len = file.get_ref().len_bytes().max(1 << 16);
    let budget = ((1u64 << 30) / std::mem::size_of::<T>().max(1) as u64).max(1);
    let rows = file.metadata().num_rows();
    rows.min(len).min(budget) as usize
}

/// The leaf columns rows of `T` read from files of `schema` (of those `columns` selects,
/// every one when empty), ascending: what a [`Reader`] of them decodes.
#[cfg(any(feature = "object_store", feature = "tokio"))]
pub(crate) fn projection<T: DeserializeOwned, S: AsRef<str>>(
    schema: &crate::core::schema::Schema,
    columns: &[S],
) -> Result<Vec<usize>> {
    Ok(Assembly::new::<T, S>(schema, columns)?.projected)
}

/// Collects a reader's rows, stopping at the first error.
pub(crate) fn collect<R: ChunkReader, T: DeserializeOwned>(reader: Reader<R, T>) -> Result<Vec<T>> {
    let mut rows = Vec::with_capacity(reader.capacity());
    reader.collect_into(&mut rows)?;
    Ok(rows)
}

/// Rows of `T` from `file`, fed by `feeder`, at most `limit`, stopping at the first error.
fn collect_fed<R: ChunkReader, T: DeserializeOwned>(
    file: &FileReader<R>,
    asm: &mut Assembly,
    mut feeder: impl Feeder,
    limit: usize,
) -> Result<Vec<T>> {
    let mut out = Vec::with_capacity(capacity::<R, T>(file).min(limit));
    let mut rows = RowLoop::new();
    while out.len() < limit {
        let max = limit - out.len();
        match rows.next_many(file, asm, &mut feeder, &mut out, max) {
            Some(step) => step?,
            None => break,
        }
    }
    Ok(out)
}

/// The rows of an opened file where `predicate` holds, as `T` (see [`Reader::filter`]),
/// keeping the leaf columns `columns` selects (every one when empty).
fn filtered_rows_of<R: ChunkReader, T: DeserializeOwned, S: AsRef<str>>(
    file: &FileReader<R>,
    predicate: Predicate,
    options: FilterOptions,
    columns: &[S],
) -> Result<Vec<T>> {
    let mut asm = Assembly::new::<T, S>(file.schema(), columns)?;
    let feeder = Filtered::new(file, predicate, options)?;
    collect_fed(file, &mut asm, feeder, usize::MAX)
}

// Here, not in `filter/`: the filter layer sits below the row assembler.
impl<R: ChunkReader> Filter<'_, R> {
    /// The selected rows as [`Value`] groups, keeping the leaf columns whose dotted paths
    /// are one of `columns` or lie below one (every leaf when empty). The rows are assembled
    /// as the filtered [`Reader`] assembles them.
    pub fn read_rows(&self, columns: &[&str]) -> Result<Vec<Value>> {
        let (file, predicate, options) = self.parts();
        filtered_rows_of(file, predicate.clone(), options, columns)
    }
}

/// Reads every row of the Parquet file in `bytes`.
///
/// ```
/// # fn main() -> parquet_serde::Result<()> {
/// # let bytes = {
/// #     use parquet_serde::{core::column::ColumnBatch, core::file::{FileWriter, WriterOptions}, core::values::ColumnValues};
/// #     let schema = "message m { required int32 x; optional binary name (STRING); }".parse()?;
/// #     let mut w = FileWriter::new(Vec::new(), schema, WriterOptions::default())?;
/// #     let mut x = w.column_writer(0)?;
/// #     x.write(&ColumnBatch { values: ColumnValues::Int32(vec![7, 8]), def_levels: vec![], rep_levels: vec![] })?;
/// #     let mut names = parquet_serde::core::values::ByteArrays::new();
/// #     names.push(b"seven");
/// #     let mut n = w.column_writer(1)?;
/// #     n.write(&ColumnBatch { values: ColumnValues::ByteArray(names), def_levels: vec![1, 0], rep_levels: vec![] })?;
/// #     w.write_row_group(vec![x.close()?, n.close()?])?;
/// #     w.close()?.0
/// # };
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Row {
///     x: i64,
///     name: Option<String>,
/// }
/// let rows: Vec<Row> = parquet_serde::from_slice(&bytes)?;
/// assert_eq!(rows, vec![Row { x: 7, name: Some("seven".into()) }, Row { x: 8, name: None }]);
/// # Ok(())
/// # }
/// ```
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<Vec<T>> {
    collect(Reader::<_, T>::new(bytes)?)
}

/// Reads every row from a [`ChunkReader`] (a `File` is read by positioned reads of the
/// columns needed; `&[u8]`, `Vec<u8>`) or from a stream (`Stdin`, `StdinLock`, `Cursor`, or
/// any other `Read` wrapped in a `BufReader`), which is read into memory first.
pub fn from_reader<T: DeserializeOwned, S: IntoChunkReader>(source: S) -> Result<Vec<T>> {
    collect(Reader::<_, T>::new(source.into_chunk_reader()?)?)
}

/// Reads every row of the file at `path` (positioned reads of the columns needed). Its
/// errors name the file; a folder is an error pointing to `Dataset`, which reads folders.
pub fn from_path<T: DeserializeOwned>(path: impl AsRef<Path>) -> Result<Vec<T>> {
    collect(Reader::<_, T>::from_path(path)?)
}

/// Reads every row of the Parquet file in `bytes` with reader options: decryption keys,
/// checksum verification, page size limit.
///
/// ```
/// # fn main() -> parquet_serde::Result<()> {
/// #[derive(serde::Serialize, serde::Deserialize, parquet_serde::ParquetSchema, Debug, PartialEq)]
/// struct Row {
///     x: i64,
/// }
/// let bytes = parquet_serde::to_vec(&[Row { x: 1 }])?;
/// let options = parquet_serde::ReadOptions::default().verify_checksums(false);
/// let rows: Vec<Row> = parquet_serde::from_slice_with(&bytes, options)?;
/// assert_eq!(rows, vec![Row { x: 1 }]);
/// # Ok(())
/// # }
/// ```
pub fn from_slice_with<T: DeserializeOwned>(
    bytes: &[u8],
    options: impl Into<ReadOptions>,
) -> Result<Vec<T>> {
    collect(Reader::<_, T>::with_options(bytes, options.into())?)
}

/// [`from_reader`] with reader options.
pub fn from_reader_with<T: DeserializeOwned, S: IntoChunkReader>(
    source: S,
    options: impl Into<ReadOptions>,
) -> Result<Vec<T>> {
    collect(Reader::<_, T>::with_options(
        source.into_chunk_reader()?,
        options.into(),
    )?)
}

/// [`from_path`] with reader options.
pub fn from_path_with<T: DeserializeOwned>(
    path: impl AsRef<Path>,
    options: impl Into<ReadOptions>,
) -> Result<Vec<T>> {
    collect(Reader::<_, T>::from_path_with_options(
        path,
        options.into(),
    )?)
}
