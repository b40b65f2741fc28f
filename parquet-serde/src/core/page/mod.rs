//! One page at a time: header, checksum, (de)compression, and the split of a data page into
//! its level and value sections.
//!
//! [`PageReader`] walks the pages of one column chunk; [`PageWriter`] serializes pages.

mod decryptor;
mod reader;
mod types;
mod writer;

pub use crate::core::format::PageType;
pub(crate) use decryptor::{ChunkDecryptor, PageDecryptor};
pub use reader::{PageReader, PageReaderOptions};
pub use types::Page;
pub(crate) use writer::{
    data_page_v1, data_page_v2, dictionary_page, EncodedPage, PageCodec, PageEncryptor, StoredPage,
};
pub use writer::{PageWriter, WrittenPage};
