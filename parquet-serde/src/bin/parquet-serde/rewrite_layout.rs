//! IN's layout, kept by `rewrite` where no option changes it: each column's codec, whether it
//! has a dictionary, the value encoding of its other pages, and the data page version.

use parquet_serde::core::column::Encoding;
use parquet_serde::core::file::{ColumnChunkMetaData, FileReader};
use parquet_serde::core::page::PageType;
use parquet_serde::{Compression, Error};

/// A column's layout in IN, read from the pages of its first chunk.
#[derive(Debug, Clone, Copy, Default)]
pub struct Layout {
    /// It has a dictionary page.
    pub dictionary: bool,
    /// The encoding of its first data page not dictionary-encoded.
    pub encoding: Option<Encoding>,
    /// It has a v2 data page.
    pub v2: bool,
}

/// The layout of `column` (that of its chunk in the first row group).
pub fn layout(reader: &FileReader<std::fs::File>, column: usize) -> Result<Layout, Error> {
    let mut l = Layout::default();
    if reader.num_row_groups() == 0 {
        return Ok(l);
    }
    let chunk = reader.column_chunk(0, column)?;
    let mut pages = chunk.pages(reader.options());
    while let Some(p) = pages.next_raw()? {
        let encoding = match p.page_type() {
            PageType::DictionaryPage => {
                l.dictionary = true;
                continue;
            }
            PageType::DataPageV2 => {
                l.v2 = true;
                p.encoding()
            }
            PageType::DataPage => p.encoding(),
            _ => None,
        };
        match encoding {
            Some(Encoding::PlainDictionary | Encoding::RleDictionary) | None => {}
            Some(e) => {
                l.encoding.get_or_insert(e);
            }
        }
    }
    Ok(l)
}

/// The writer setting of the codec a chunk of IN uses, at its default level
/// ([`ColumnChunkMetaData::compression`]): the deprecated Hadoop LZ4 becomes LZ4_RAW, a codec
/// this library does not write (or unreadable metadata) Snappy.
pub fn compression_of(chunk: ColumnChunkMetaData<'_>) -> Compression {
    chunk
        .compression()
        .unwrap_or_else(|| match chunk.codec_name().as_deref() {
            Some("LZ4") => Compression::Lz4Raw,
            _ => Compression::Snappy,
        })
}
