//! One page at a time: header, checksum, (de)compression, and the split of a data page into
//! its level and value sections.
//!
//! [`PageReader`] walks the pages of one column chunk; the column writer serializes pages
//! through the crate-private `PageWriter`.

mod decryptor;
mod reader;
mod statistics;
mod types;
mod writer;

pub use crate::core::format::PageType;
pub(crate) use decryptor::{ChunkDecryptor, PageDecryptor};
pub use reader::PageReader;
pub(crate) use reader::PageReaderOptions;
pub use statistics::RawStatistics;
pub use types::Page;
#[cfg(test)]
pub(crate) use writer::PageWriter;
pub(crate) use writer::{
    data_page_v1, data_page_v2, dictionary_page, EncodedPage, PageCodec, PageEncryptor, StoredPage,
};
