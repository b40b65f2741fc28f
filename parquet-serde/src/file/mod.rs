//! Files: magic, footer, row groups; [`FileReader`] and [`FileWriter`] over any
//! [`ChunkReader`] or `std::io::Write`.

mod chunk_reader;
mod decryptor;
mod external;
mod footer;
mod indexes;
mod options;
mod pending;
mod reader;
mod selection;
mod write_crypto;
mod writer;

#[cfg(test)]
mod index_tests;

pub use crate::core::column::DataPageVersion;
pub(crate) use crate::page::PageDecryptor;
pub use chunk_reader::{ChunkReader, CountingReader};
pub use footer::{
    parse_footer, parse_footer_with, ParquetMetaData, FOOTER_SIZE, MAGIC, MAGIC_ENCRYPTED,
};
pub use indexes::{PageIndex, PageInfo};
pub use options::{
    default_threads, ColumnOverrides, ReadOptions, SortKey, StatisticsLevel, WriterOptions,
    MAX_DEFAULT_THREADS,
};
pub use pending::PendingFile;
pub use reader::{ColumnChunkData, FileReader};
pub use selection::RowSelection;
pub(crate) use selection::{local_ranges, take_rows};
pub(crate) use writer::extend_vec;
pub use writer::FileWriter;
