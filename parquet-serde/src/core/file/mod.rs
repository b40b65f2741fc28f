//! Files: magic, footer, row groups; [`FileReader`] and [`FileWriter`] over any
//! [`ChunkReader`] or `std::io::Write`.

pub(crate) mod chunk_reader;
mod copy;
mod decryptor;
mod external;
mod footer;
mod indexes;
mod metadata;
mod options;
mod pending;
mod reader;
mod selection;
mod write_crypto;
mod writer;

#[cfg(test)]
mod index_tests;
#[cfg(test)]
mod shape_corpus_tests;

pub use crate::core::format::BoundaryOrder;
pub(crate) use crate::core::page::PageDecryptor;
pub(crate) use chunk_reader::not_a_file;
pub use chunk_reader::ChunkReader;
#[cfg(test)]
pub(crate) use chunk_reader::CountingReader;
pub use footer::ParquetMetaData;
#[cfg(any(feature = "object_store", feature = "tokio"))]
pub(crate) use footer::{FOOTER_SIZE, MAGIC};
pub use indexes::{PageIndex, PageInfo};
pub use metadata::{ColumnChunkMetaData, RowGroupMetaData};
pub(crate) use options::SchemaHook;
pub use options::{ColumnOverrides, ReadOptions, SortKey, StatisticsLevel, WriterOptions};
pub use pending::PendingFile;
pub(crate) use reader::ColumnChunkData;
pub use reader::FileReader;
pub use selection::RowSelection;
pub(crate) use selection::{local_ranges, take_rows};
pub use writer::FileWriter;
pub(crate) use writer::{extend_vec, FileProgress};
#[cfg(any(feature = "object_store", feature = "tokio"))]
pub(crate) use {
    chunk_reader::check_range,
    footer::{check_head_magic, parse_footer_tail},
    reader::{chunk_range, parquet_816_padding},
};
