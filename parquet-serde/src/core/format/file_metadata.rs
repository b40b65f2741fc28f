//! The footer: `FileMetaData` and what it holds (row groups, column chunks, column metadata,
//! key/value pairs, sort and column orders).

use super::{
    ColumnCryptoMetaData, CompressionCodec, Encoding, EncryptionAlgorithm, GeospatialStatistics,
    PageType, SchemaElement, SizeStatistics, Statistics, Type,
};

thrift_struct! {
    /// A key/value pair of application metadata.
    #[derive(Default, Eq, Hash)]
    pub struct KeyValue {
        /// Key.
        1: required key: String,
        /// Value, if any.
        2: optional value: String,
    }
}

thrift_struct! {
    /// One sort key of a row group.
    #[derive(Default, Eq, Hash)]
    pub struct SortingColumn {
        /// Index of the leaf column in the row group.
        1: required column_idx: i32,
        /// Sorted descending rather than ascending.
        2: required descending: bool,
        /// Nulls sort before non-null values.
        3: required nulls_first: bool,
    }
}

thrift_struct! {
    /// Number of pages of one page type and encoding in a column chunk.
    #[derive(Eq, Hash)]
    pub struct PageEncodingStats {
        /// Page type.
        1: required page_type: PageType,
        /// Encoding of the pages.
        2: required encoding: Encoding,
        /// Number of such pages.
        3: required count: i32,
    }
}

thrift_struct! {
    /// Metadata of a column chunk.
    pub struct ColumnMetaData {
        /// Physical type.
        1: required r#type: Type,
        /// Every encoding used in the chunk (values and levels).
        2: required encodings: Vec<Encoding>,
        /// Path of the leaf in the schema, without the root.
        3: required path_in_schema: Vec<String>,
        /// Compression codec of the pages.
        4: required codec: CompressionCodec,
        /// Number of values, nulls included.
        5: required num_values: i64,
        /// Total uncompressed size of the pages, headers included.
        6: required total_uncompressed_size: i64,
        /// Total stored size of the pages, headers included.
        7: required total_compressed_size: i64,
        /// Application metadata of the chunk.
        8: optional key_value_metadata: Vec<KeyValue>,
        /// File offset of the first data page.
        9: required data_page_offset: i64,
        /// File offset of the index page.
        10: optional index_page_offset: i64,
        /// File offset of the dictionary page.
        11: optional dictionary_page_offset: i64,
        /// Statistics of the chunk.
        12: optional statistics: Statistics,
        /// Page counts by page type and encoding.
        13: optional encoding_stats: Vec<PageEncodingStats>,
        /// File offset of the Bloom filter (header and bitset).
        14: optional bloom_filter_offset: i64,
        /// Size of the Bloom filter, header included.
        15: optional bloom_filter_length: i32,
        /// Size statistics and level histograms of the chunk.
        16: optional size_statistics: SizeStatistics,
        /// Geospatial statistics of the chunk.
        17: optional geospatial_statistics: GeospatialStatistics,
    }
}

thrift_struct! {
    /// A column chunk of a row group: where its data and indexes are.
    #[derive(Default)]
    pub struct ColumnChunk {
        /// File holding the data when not this one (summary files only).
        1: optional file_path: String,
        /// Deprecated offset of the metadata in `file_path`; 0 when absent (the Thrift default).
        2: required file_offset: i64 = 0,
        /// Metadata of the chunk (always written in practice).
        3: optional meta_data: ColumnMetaData,
        /// File offset of the chunk's `OffsetIndex`.
        4: optional offset_index_offset: i64,
        /// Size of the chunk's `OffsetIndex`.
        5: optional offset_index_length: i32,
        /// File offset of the chunk's `ColumnIndex`.
        6: optional column_index_offset: i64,
        /// Size of the chunk's `ColumnIndex`.
        7: optional column_index_length: i32,
        /// How the chunk is encrypted.
        8: optional crypto_metadata: ColumnCryptoMetaData,
        /// Encrypted `ColumnMetaData` (encrypted columns in plaintext-footer files).
        9: optional encrypted_column_metadata: Vec<u8>,
    }
}

thrift_struct! {
    /// A row group: one column chunk per leaf column.
    #[derive(Default)]
    pub struct RowGroup {
        /// Column chunks, in schema leaf order.
        1: required columns: Vec<ColumnChunk>,
        /// Total uncompressed size of the column data.
        2: required total_byte_size: i64,
        /// Number of rows.
        3: required num_rows: i64,
        /// Sort order of the rows, if sorted.
        4: optional sorting_columns: Vec<SortingColumn>,
        /// File offset of the first page of the row group.
        5: optional file_offset: i64,
        /// Total stored size of the column data.
        6: optional total_compressed_size: i64,
        /// Ordinal of the row group in the file.
        7: optional ordinal: i16,
    }
}

thrift_union! {
    /// Order used for a column's min/max statistics.
    #[derive(Copy, Eq, Hash)]
    pub enum ColumnOrder {
        /// The order of the logical type, else of the physical type (`TYPE_ORDER`).
        1: TypeDefinedOrder,
        /// IEEE 754 total order for floating point (`IEEE_754_TOTAL_ORDER`).
        2: Ieee754TotalOrder,
        /// Chronological order of INT96 timestamps (`INT96_TIMESTAMP_ORDER`).
        3: Int96TimestampOrder,
    }
}

thrift_struct! {
    /// The file footer: schema, row groups and file-level metadata.
    #[derive(Default)]
    pub struct FileMetaData {
        /// Format version (1; readers accept 2 as well).
        1: required version: i32,
        /// Schema, flattened depth-first; the first element is the root.
        2: required schema: Vec<SchemaElement>,
        /// Number of rows in the file.
        3: required num_rows: i64,
        /// Row groups.
        4: required row_groups: Vec<RowGroup>,
        /// Application metadata.
        5: optional key_value_metadata: Vec<KeyValue>,
        /// Writer application and version.
        6: optional created_by: String,
        /// Statistics order of each leaf column, in leaf order.
        7: optional column_orders: Vec<ColumnOrder>,
        /// Encryption algorithm (encrypted files with a plaintext footer only).
        8: optional encryption_algorithm: EncryptionAlgorithm,
        /// Metadata of the footer signing key (plaintext-footer encrypted files only).
        9: optional footer_signing_key_metadata: Vec<u8>,
    }
}
