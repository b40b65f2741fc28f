//! Page headers: `PageHeader` and the per-kind `DataPageHeader`, `DataPageHeaderV2`,
//! `DictionaryPageHeader`, `IndexPageHeader`.

use super::{Encoding, PageType, Statistics};

thrift_struct! {
    /// Header of a version 1 data page.
    pub struct DataPageHeader {
        /// Number of values, nulls included.
        1: required num_values: i32,
        /// Encoding of the values.
        2: required encoding: Encoding,
        /// Encoding of the definition levels.
        3: required definition_level_encoding: Encoding,
        /// Encoding of the repetition levels.
        4: required repetition_level_encoding: Encoding,
        /// Statistics of the page.
        5: optional statistics: Statistics,
    }
}

thrift_struct! {
    /// Header of an index page (no fields; index pages are not written in practice).
    #[derive(Default, Eq, Hash)]
    pub struct IndexPageHeader {}
}

thrift_struct! {
    /// Header of a dictionary page.
    pub struct DictionaryPageHeader {
        /// Number of entries in the dictionary.
        1: required num_values: i32,
        /// Encoding of the entries (PLAIN, or the deprecated PLAIN_DICTIONARY).
        2: required encoding: Encoding,
        /// Whether the entries are sorted ascending.
        3: optional is_sorted: bool,
    }
}

thrift_struct! {
    /// Header of a version 2 data page: levels come first, uncompressed, with their byte
    /// lengths here.
    pub struct DataPageHeaderV2 {
        /// Number of values, nulls included.
        1: required num_values: i32,
        /// Number of nulls.
        2: required num_nulls: i32,
        /// Number of rows (pages start at row boundaries).
        3: required num_rows: i32,
        /// Encoding of the values.
        4: required encoding: Encoding,
        /// Byte length of the (RLE, uncompressed) definition levels.
        5: required definition_levels_byte_length: i32,
        /// Byte length of the (RLE, uncompressed) repetition levels.
        6: required repetition_levels_byte_length: i32,
        /// Whether the values section is compressed; absent means `true` (the Thrift default).
        /// See [`DataPageHeaderV2::values_compressed`].
        7: optional is_compressed: bool,
        /// Statistics of the page.
        8: optional statistics: Statistics,
    }
}

impl DataPageHeaderV2 {
    /// `is_compressed` with its default applied: `true` when absent.
    pub fn values_compressed(&self) -> bool {
        self.is_compressed.unwrap_or(true)
    }
}

thrift_struct! {
    /// Header in front of every page; exactly one of the `*_header` fields matches `type`.
    pub struct PageHeader {
        /// Kind of page.
        1: required r#type: PageType,
        /// Size of the page after this header, uncompressed.
        2: required uncompressed_page_size: i32,
        /// Size of the page after this header as stored (compressed, maybe encrypted).
        3: required compressed_page_size: i32,
        /// CRC32 of the stored page bytes after this header.
        4: optional crc: i32,
        /// Set for data pages v1.
        5: optional data_page_header: DataPageHeader,
        /// Set for index pages.
        6: optional index_page_header: IndexPageHeader,
        /// Set for dictionary pages.
        7: optional dictionary_page_header: DictionaryPageHeader,
        /// Set for data pages v2.
        8: optional data_page_header_v2: DataPageHeaderV2,
    }
}
