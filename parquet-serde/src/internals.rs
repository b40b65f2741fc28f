//! Not API, no semver promise; for benches and fuzzing (and the tests that craft malformed
//! files). Compiled only with the non-default feature `internals`.

/// The Thrift compact protocol and the wire structures of `parquet.thrift`
/// (`crate::core::format`, private to the crate).
pub mod format {
    pub use crate::core::format::*;
}

/// The Thrift `FileMetaData` a [`ParquetMetaData`](crate::core::file::ParquetMetaData)
/// reads, for tests that re-encode a modified footer.
pub fn file_metadata(
    metadata: &crate::core::file::ParquetMetaData,
) -> &crate::core::format::FileMetaData {
    &metadata.file
}
