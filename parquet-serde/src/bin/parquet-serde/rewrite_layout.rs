//! IN's layout, kept by `rewrite` where no option changes it: each column's codec, whether it
//! has a dictionary, the value encoding of its other pages, and the data page version.

use parquet_serde::core::file::FileReader;
use parquet_serde::core::format::{CompressionCodec, Encoding, PageType};
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
    let mut pages = chunk.pages(reader.options().page_options());
    while let Some(p) = pages.next_raw()? {
        let h = &p.header;
        let encoding = match h.r#type {
            PageType::DictionaryPage => {
                l.dictionary = true;
                continue;
            }
            PageType::DataPageV2 => {
                l.v2 = true;
                h.data_page_header_v2.as_ref().map(|d| d.encoding)
            }
            _ => h.data_page_header.as_ref().map(|d| d.encoding),
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

/// The writer setting of a codec IN uses, at its default level.
pub fn compression_of(codec: CompressionCodec) -> Compression {
    match codec {
        CompressionCodec::Uncompressed => Compression::Uncompressed,
        CompressionCodec::Gzip => Compression::GZIP_DEFAULT,
        CompressionCodec::Brotli => Compression::BROTLI_DEFAULT,
        CompressionCodec::Zstd => Compression::ZSTD_DEFAULT,
        CompressionCodec::Lz4 | CompressionCodec::Lz4Raw => Compression::Lz4Raw,
        _ => Compression::Snappy,
    }
}
