//! Column chunks: typed values with definition/repetition levels, read from pages and
//! written into pages.
//!
//! - [`ColumnChunkReader`] decodes a column chunk into [`ColumnBatch`]es.
//! - [`ColumnChunkWriter`] encodes values and levels into pages and column metadata.

mod auto;
mod batch;
mod decode;
mod dict_encoder;
mod dictionary;
mod encode;
mod reader;
mod statistics;
mod writer;

#[cfg(test)]
mod encoding_tests;
#[cfg(test)]
mod tests;

pub use batch::ColumnBatch;
pub use encode::check_encoding;
pub use reader::ColumnChunkReader;
pub use statistics::{SortOrder, StatisticsAccumulator};
pub use writer::{ColumnChunkWriter, ColumnWriterOptions, DataPageVersion, WrittenColumnChunk};
