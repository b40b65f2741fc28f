//! Typed rows to Parquet: a serde [`Serializer`](serde::Serializer) that shreds rows into
//! leaf columns (Dremel's record shredding), driven by the row type's
//! [`ParquetSchema`].
//!
//! ```
//! use parquet_serde::ParquetSchema;
//! use std::collections::BTreeMap;
//!
//! #[derive(serde::Serialize, ParquetSchema)]
//! struct Event {
//!     #[parquet(timestamp = "micros")]
//!     ts: i64,
//!     user: Option<String>,
//!     tags: Vec<String>,
//!     attrs: BTreeMap<String, i64>,
//! }
//!
//! let rows = vec![
//!     Event { ts: 1, user: Some("ann".into()), tags: vec!["a".into()], attrs: BTreeMap::new() },
//!     Event { ts: 2, user: None, tags: vec![], attrs: [("k".to_string(), 7)].into() },
//! ];
//! let bytes = parquet_serde::to_vec(&rows)?;
//! assert_eq!(&bytes[..4], b"PAR1");
//! # Ok::<(), parquet_serde::Error>(())
//! ```
//!
//! - [`to_vec`], [`to_writer`] and [`to_path`] write a slice of rows (the `_with` forms take
//!   [`WriterOptions`]); [`Writer`] streams rows one at a time with bounded memory.
//! - [`shred`] gives the column batches (values with definition and repetition levels) of
//!   rows without writing a file.
//!
//! What each Rust type becomes is the type table of [`ParquetSchema`]. At the leaves, the
//! serializer converts serde's values to the physical type and checks ranges: an unsigned
//! integer column takes only non-negative values that fit its width (and `u32` / `u64` are
//! stored as the bits of the signed physical type, as the spec says), a DECIMAL takes its
//! unscaled integer or its text (`"12.34"`) within the precision, a TIMESTAMP / DATE / TIME
//! takes its integer, serde's `SystemTime`, or the ISO 8601 text chrono writes, a UUID its
//! 16 bytes, a `u128` or its text. The serializer is not human-readable
//! ([`is_human_readable`](serde::Serializer::is_human_readable) is `false`).
//!
//! Errors: a value that does not fit the schema is an [`ErrorKind::Data`](crate::ErrorKind)
//! error naming the column path and the row number (counted from 0); nothing of that row is
//! written.

mod direct;
mod direct_check;
mod error;
mod json;
mod plan;
mod serializer;
mod shredder;
mod value;
mod variant;
mod variant_frame;
mod writer;

pub(crate) use json::shred_json;
pub(crate) use value::shred_value;
#[cfg(feature = "logs")]
pub(crate) use writer::schema_of;
pub use writer::Writer;

use std::io::Write;
use std::path::Path;

use serde::Serialize;

use crate::core::column::ColumnBatch;
use crate::core::file::WriterOptions;
use crate::core::schema::{ParquetSchema, Schema};
use crate::error::Result;

/// Writes `rows` as a Parquet file in memory, with the default options (Snappy, dictionary
/// encoding, statistics).
///
/// Fails with [`ErrorKind::Data`](crate::ErrorKind::Data) when a row does not fit the schema
/// of `T`; nothing is returned then.
pub fn to_vec<T: Serialize + ParquetSchema>(rows: &[T]) -> Result<Vec<u8>> {
    to_vec_with(rows, WriterOptions::default())
}

/// Writes `rows` as a Parquet file in memory, with `options`.
///
/// ```
/// use parquet_serde::{Compression, ParquetSchema, WriterOptions};
///
/// #[derive(serde::Serialize, ParquetSchema)]
/// struct Row { id: u64, name: String }
///
/// let rows: Vec<Row> = (0..10).map(|id| Row { id, name: format!("n{id}") }).collect();
/// let options = WriterOptions::default().compression(Compression::Zstd(3)).row_group_rows(4);
/// let bytes = parquet_serde::to_vec_with(&rows, options)?;
/// let reader = parquet_serde::core::file::FileReader::new(bytes)?;
/// assert_eq!(reader.num_row_groups(), 3);
/// # Ok::<(), parquet_serde::Error>(())
/// ```
pub fn to_vec_with<T: Serialize + ParquetSchema>(
    rows: &[T],
    options: impl Into<WriterOptions>,
) -> Result<Vec<u8>> {
    let mut writer = Writer::in_memory(options.into())?;
    writer.write_all(rows)?;
    writer.into_inner()
}

/// Writes `rows` as a Parquet file to `sink` (wrap a `File` in a `BufWriter`), with the
/// default options; returns the sink.
///
/// On error the sink may hold the start of a file without its footer (row groups are
/// written out as they fill), which no reader accepts; [`to_path`] leaves nothing behind.
pub fn to_writer<W: Write, T: Serialize + ParquetSchema>(sink: W, rows: &[T]) -> Result<W> {
    to_writer_with(sink, rows, WriterOptions::default())
}

/// [`to_writer`] with `options`.
pub fn to_writer_with<W: Write, T: Serialize + ParquetSchema>(
    sink: W,
    rows: &[T],
    options: impl Into<WriterOptions>,
) -> Result<W> {
    let mut writer = Writer::new(sink, options.into())?;
    writer.write_all(rows)?;
    writer.into_inner()
}

/// Writes `rows` as a Parquet file at `path`, with the default options.
///
/// The file is written to a temporary file in the same directory and renamed to `path`
/// once complete, so `path` never holds a partial file: on error it is left as it was.
pub fn to_path<T: Serialize + ParquetSchema>(path: impl AsRef<Path>, rows: &[T]) -> Result<()> {
    to_path_with(path, rows, WriterOptions::default())
}

/// [`to_path`] with `options`.
pub fn to_path_with<T: Serialize + ParquetSchema>(
    path: impl AsRef<Path>,
    rows: &[T],
    options: impl Into<WriterOptions>,
) -> Result<()> {
    let mut writer = Writer::from_path(path, options.into())?;
    writer.write_all(rows)?;
    writer.close().map(drop)
}

/// Shreds `rows` into one [`ColumnBatch`] per leaf column of `T`'s schema (in schema
/// order), without writing a file: the values and the definition and repetition levels
/// Dremel's algorithm gives them.
///
/// ```
/// use parquet_serde::core::values::ColumnValues;
///
/// #[derive(serde::Serialize, parquet_serde::ParquetSchema)]
/// struct Row { tags: Vec<Option<i32>> }
///
/// let rows = [Row { tags: vec![Some(1), None, Some(3)] }, Row { tags: vec![] }];
/// let (schema, batches) = parquet_serde::shred(&rows)?;
/// assert_eq!(schema.columns()[0].path.to_string(), "tags.list.element");
/// assert_eq!(batches[0].values, ColumnValues::Int32(vec![1, 3]));
/// assert_eq!(batches[0].def_levels, [2, 1, 2, 0]);
/// assert_eq!(batches[0].rep_levels, [0, 1, 1, 0]);
/// # Ok::<(), parquet_serde::Error>(())
/// ```
pub fn shred<T: Serialize + ParquetSchema>(rows: &[T]) -> Result<(Schema, Vec<ColumnBatch>)> {
    let (schema, wrapped) = writer::schema_of::<T>()?;
    let mut shredder = shredder::Shredder::new(&schema, wrapped)?;
    for row in rows {
        shredder.shred(row)?;
    }
    let batches = shredder.take_batches();
    Ok((schema, batches))
}

#[cfg(test)]
mod tests;
