//! Files: magic, footer, row groups; [`FileReader`] and [`FileWriter`] over any
//! [`ChunkReader`] or `std::io::Write`.

mod chunk_reader;
mod footer;
mod options;
mod reader;
mod writer;

pub use crate::column::DataPageVersion;
pub use chunk_reader::{ChunkReader, CountingReader};
pub use footer::{parse_footer, ParquetMetaData, FOOTER_SIZE, MAGIC, MAGIC_ENCRYPTED};
pub use options::{ColumnOverrides, ReadOptions, StatisticsLevel, WriterOptions};
pub use reader::{ColumnChunkData, FileReader};
pub use writer::FileWriter;
