//! Column chunks: typed values with definition/repetition levels, read from pages and
//! written into pages.
//!
//! - [`ColumnChunkReader`] decodes a column chunk into [`ColumnBatch`]es.
//! - [`ColumnChunkWriter`] encodes values and levels into pages and column metadata:
//!   statistics per chunk and per page, size statistics, the page index and Bloom filters.
//! - [`ColumnStatistics`]: a chunk's or a page's statistics as typed values ([`Scalar`]),
//!   compared in the column's [`SortOrder`].

mod auto;
mod batch;
mod cdc;
mod cdc_gear;
mod decode;
mod dict_encoder;
mod dictionary;
mod encode;
mod page_meta;
pub(crate) mod parallel;
mod reader;
pub(crate) mod statistics;
mod writer;

#[cfg(test)]
mod encoding_tests;
#[cfg(test)]
mod tests;

pub use crate::core::format::Encoding;
pub use batch::ColumnBatch;
pub(crate) use batch::{
    count_level, empty_values, empty_values_like, extend_values, truncate_values, SizeHint,
};
pub use cdc::CdcOptions;
pub(crate) use decode::decode_plain;
pub(crate) use encode::check_encoding;
#[cfg(feature = "logs")]
pub(crate) use encode::encode_plain;
pub use reader::ColumnChunkReader;
pub(crate) use reader::LentValues;
pub(crate) use statistics::int96_bound;
pub use statistics::{ColumnStatistics, Decimal, Scalar, SortOrder};
pub use writer::{ColumnChunkWriter, ColumnWriterOptions, DataPageVersion, WrittenColumnChunk};
