//! Not API, no semver promise; for benches and fuzzing (and the tests that craft malformed
//! files). Compiled only with the non-default feature `internals`.

/// The Thrift compact protocol and the wire structures of `parquet.thrift`
/// (`crate::core::format`, private to the crate).
pub mod format {
    pub use crate::core::format::*;
}

use crate::core::file::{ChunkReader, FileReader};
use crate::core::format::{ColumnIndex, OffsetIndex};
use crate::error::Result;

/// The Thrift `ColumnIndex` of a column chunk as stored, if written.
pub fn column_index<R: ChunkReader>(
    reader: &FileReader<R>,
    row_group: usize,
    column: usize,
) -> Result<Option<ColumnIndex>> {
    reader.column_index(row_group, column)
}

/// The Thrift `OffsetIndex` of a column chunk as stored, if written.
pub fn offset_index<R: ChunkReader>(
    reader: &FileReader<R>,
    row_group: usize,
    column: usize,
) -> Result<Option<OffsetIndex>> {
    reader.offset_index(row_group, column)
}

/// The Thrift `FileMetaData` a [`ParquetMetaData`](crate::core::file::ParquetMetaData)
/// reads, for tests that re-encode a modified footer.
pub fn file_metadata(
    metadata: &crate::core::file::ParquetMetaData,
) -> &crate::core::format::FileMetaData {
    &metadata.file
}
