//! [`read_rows`]: the rows of an opened file as [`Value`]s.

use crate::core::file::{ChunkReader, FileReader};
use crate::error::Result;

use super::Value;

/// Reads the rows of an opened file as [`Value`] groups, keeping the leaf columns whose
/// dotted paths are one of `columns` or lie below one (every column when `columns` is
/// empty; a MAP's entries are read whole), at most `limit` rows. The rows are the ones
/// [`from_slice::<Value>`](crate::from_slice) reads, with the same assembler (see
/// [`Reader::select_columns`](crate::Reader::select_columns)). Naming nothing that
/// exists is an error.
///
/// ```
/// # fn main() -> parquet_serde::Result<()> {
/// use parquet_serde::core::file::FileReader;
/// use parquet_serde::record::{read_rows, Value};
///
/// #[derive(serde::Serialize, parquet_serde::ParquetSchema)]
/// struct Row {
///     id: i64,
///     name: Option<String>,
/// }
/// let bytes = parquet_serde::to_vec(&[Row { id: 1, name: None }, Row { id: 2, name: None }])?;
/// let file = FileReader::new(&bytes[..])?;
/// let rows = read_rows(&file, &["id"], Some(1))?;
/// assert_eq!(rows, [Value::Group(vec![("id".into(), Value::Int(1))])]);
/// # Ok(())
/// # }
/// ```
pub fn read_rows<R: ChunkReader>(
    reader: &FileReader<R>,
    columns: &[&str],
    limit: Option<usize>,
) -> Result<Vec<Value>> {
    crate::de::rows_of(reader, columns, limit)
}
