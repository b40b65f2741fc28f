//! Read-only views of the footer: [`RowGroupMetaData`] and [`ColumnChunkMetaData`] borrow
//! the decoded Thrift structures and read them field by field, so the wire structures stay
//! private and may grow without breaking users.

use crate::core::column::ColumnStatistics;
use crate::core::compression::Compression;
use crate::core::format::{
    ColumnChunk, ColumnMetaData, ColumnOrder, CompressionCodec, Encoding, PageType, RowGroup, Type,
};
use crate::core::geo::{AxisRange, Bounds};
use crate::core::schema::{ColumnDescriptor, ColumnPath, Schema};

use super::{ParquetMetaData, SortKey};
use crate::core::page::RawStatistics;

/// The writer setting for a codec, at the codec's default level; `None` for codecs this
/// library does not write.
fn from_codec(codec: CompressionCodec) -> Option<Compression> {
    Some(match codec {
        CompressionCodec::Uncompressed => Compression::Uncompressed,
        CompressionCodec::Snappy => Compression::Snappy,
        CompressionCodec::Gzip => Compression::GZIP_DEFAULT,
        CompressionCodec::Brotli => Compression::BROTLI_DEFAULT,
        CompressionCodec::Zstd => Compression::ZSTD_DEFAULT,
        CompressionCodec::Lz4Raw => Compression::Lz4Raw,
        _ => return None,
    })
}

/// Converts a count the footer checks to be non-negative (or that should be) to `u64`;
/// a negative value reads as 0.
fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

impl ParquetMetaData {
    /// Total rows of the file (`FileMetaData.num_rows`).
    pub fn num_rows(&self) -> u64 {
        count(self.file.num_rows)
    }

    /// Number of row groups (`FileMetaData.row_groups`).
    pub fn num_row_groups(&self) -> usize {
        self.file.row_groups.len()
    }

    /// Row group `i`, `None` past the last one.
    pub fn row_group(&self, i: usize) -> Option<RowGroupMetaData<'_>> {
        let rg = self.file.row_groups.get(i)?;
        Some(RowGroupMetaData {
            meta: self,
            rg,
            index: i,
        })
    }

    /// The row groups, in file order.
    pub fn row_groups(&self) -> impl ExactSizeIterator<Item = RowGroupMetaData<'_>> + '_ {
        self.file
            .row_groups
            .iter()
            .enumerate()
            .map(move |(index, rg)| RowGroupMetaData {
                meta: self,
                rg,
                index,
            })
    }

    /// The schema tree and its column descriptors (built from `FileMetaData.schema`).
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// Application key/value metadata (`FileMetaData.key_value_metadata`), in file order;
    /// a key written without a value has `None`.
    pub fn key_values(&self) -> impl Iterator<Item = (&str, Option<&str>)> + '_ {
        self.file
            .key_value_metadata
            .iter()
            .flatten()
            .map(|kv| (kv.key.as_str(), kv.value.as_deref()))
    }

    /// The writer application and version (`FileMetaData.created_by`).
    pub fn created_by(&self) -> Option<&str> {
        self.file.created_by.as_deref()
    }

    /// The format version (`FileMetaData.version`: 1, or 2 from some writers).
    pub fn version(&self) -> i32 {
        self.file.version
    }

    /// File offset where the serialized footer (`FileMetaData`) starts; column data ends
    /// before it.
    pub fn footer_offset(&self) -> u64 {
        self.footer_offset
    }

    /// Whether the footer gives a statistics order for each column
    /// (`FileMetaData.column_orders`); without it only the deprecated `min`/`max` statistics
    /// have a defined meaning.
    pub fn has_column_orders(&self) -> bool {
        self.file.column_orders.is_some()
    }

    /// The statistics order of leaf `column` (`FileMetaData.column_orders`) as
    /// parquet.thrift names it: `TYPE_ORDER`, `IEEE_754_TOTAL_ORDER`,
    /// `INT96_TIMESTAMP_ORDER`, or `UNKNOWN` for one this library does not know; `None`
    /// when the footer has no column orders.
    pub fn column_order_name(&self, column: usize) -> Option<&'static str> {
        Some(match self.column_order(column)? {
            ColumnOrder::TypeDefinedOrder => "TYPE_ORDER",
            ColumnOrder::Ieee754TotalOrder => "IEEE_754_TOTAL_ORDER",
            ColumnOrder::Int96TimestampOrder => "INT96_TIMESTAMP_ORDER",
            ColumnOrder::Unknown(_) => "UNKNOWN",
        })
    }
}

/// One row group of a file's footer (`RowGroup` in parquet.thrift), borrowed from its
/// [`ParquetMetaData`].
#[derive(Debug, Clone, Copy)]
pub struct RowGroupMetaData<'a> {
    meta: &'a ParquetMetaData,
    rg: &'a RowGroup,
    index: usize,
}

impl<'a> RowGroupMetaData<'a> {
    /// Position of the row group in the file.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Number of rows (`RowGroup.num_rows`).
    pub fn num_rows(&self) -> u64 {
        count(self.rg.num_rows)
    }

    /// Total uncompressed size of the column data (`RowGroup.total_byte_size`).
    pub fn total_byte_size(&self) -> i64 {
        self.rg.total_byte_size
    }

    /// Total stored size of the column data (`RowGroup.total_compressed_size`), if written.
    pub fn compressed_size(&self) -> Option<i64> {
        self.rg.total_compressed_size
    }

    /// Ordinal of the row group in the file (`RowGroup.ordinal`), if written.
    pub fn ordinal(&self) -> Option<i16> {
        self.rg.ordinal
    }

    /// File offset of the first page of the row group (`RowGroup.file_offset`), if written.
    pub fn file_offset(&self) -> Option<i64> {
        self.rg.file_offset
    }

    /// Sort order of the rows (`RowGroup.sorting_columns`), each key naming its leaf by its
    /// dotted path; empty when the row group is not declared sorted. A key whose column
    /// index is out of range names the column `#n`.
    pub fn sorting_columns(&self) -> Vec<SortKey> {
        let columns = self.meta.schema.columns();
        self.rg
            .sorting_columns
            .iter()
            .flatten()
            .map(|s| SortKey {
                column: usize::try_from(s.column_idx)
                    .ok()
                    .and_then(|i| columns.get(i))
                    .map(|d| d.path.to_string())
                    .unwrap_or_else(|| format!("#{}", s.column_idx)),
                descending: s.descending,
                nulls_first: s.nulls_first,
            })
            .collect()
    }

    /// Number of column chunks (one per leaf column).
    pub fn num_columns(&self) -> usize {
        self.rg.columns.len()
    }

    /// Column chunk of leaf `i`, `None` past the last leaf.
    pub fn column(&self, i: usize) -> Option<ColumnChunkMetaData<'a>> {
        Some(ColumnChunkMetaData {
            meta: self.meta,
            chunk: self.rg.columns.get(i)?,
            descr: self.meta.schema.columns().get(i)?,
            column: i,
        })
    }

    /// The column chunks, in schema leaf order (`RowGroup.columns`).
    pub fn columns(&self) -> impl ExactSizeIterator<Item = ColumnChunkMetaData<'a>> + 'a {
        let this = *self;
        let n = self.rg.columns.len().min(self.meta.schema.num_columns());
        (0..n)
            .filter_map(move |i| this.column(i))
            .collect::<Vec<_>>()
            .into_iter()
    }
}

/// One column chunk of a row group (`ColumnChunk` and its `ColumnMetaData` in
/// parquet.thrift), borrowed from its [`ParquetMetaData`].
///
/// The `ColumnMetaData` of a column encrypted with a key that was not given cannot be read
/// ([`has_metadata`](Self::has_metadata) is then `false`): its counts and sizes read as 0,
/// its lists as empty and its optional fields as `None`.
#[derive(Debug, Clone, Copy)]
pub struct ColumnChunkMetaData<'a> {
    meta: &'a ParquetMetaData,
    chunk: &'a ColumnChunk,
    descr: &'a ColumnDescriptor,
    column: usize,
}

impl<'a> ColumnChunkMetaData<'a> {
    fn md(&self) -> Option<&'a ColumnMetaData> {
        self.chunk.meta_data.as_ref()
    }

    /// Whether the chunk's `ColumnMetaData` is present and readable (it is absent for an
    /// encrypted column whose key is unknown).
    pub fn has_metadata(&self) -> bool {
        self.chunk.meta_data.is_some()
    }

    /// Index of the leaf column in the schema.
    pub fn column_index(&self) -> usize {
        self.column
    }

    /// Path of the leaf column in the schema (`ColumnMetaData.path_in_schema`, taken from
    /// the schema so that it is known for encrypted columns too).
    pub fn path(&self) -> &'a ColumnPath {
        &self.descr.path
    }

    /// The schema's description of the leaf column.
    pub fn descriptor(&self) -> &'a ColumnDescriptor {
        self.descr
    }

    /// Physical type (`ColumnMetaData.type`; the schema's when the metadata is unreadable).
    pub fn physical_type(&self) -> Type {
        self.md().map_or(self.descr.physical_type, |m| m.r#type)
    }

    /// Every encoding used in the chunk, values and levels (`ColumnMetaData.encodings`).
    pub fn encodings(&self) -> &'a [Encoding] {
        self.md().map_or(&[], |m| &m.encodings)
    }

    /// Compression of the pages (`ColumnMetaData.codec`) at the codec's default level (the
    /// level is not stored); `None` for a codec this library cannot write (LZO, the Hadoop
    /// LZ4, an unknown id) and when the metadata is unreadable.
    pub fn compression(&self) -> Option<Compression> {
        from_codec(self.md()?.codec)
    }

    /// The codec's name as parquet.thrift spells it (`ColumnMetaData.codec`: `SNAPPY`,
    /// `LZ4_RAW`, `LZO`, ...), `None` when the metadata is unreadable.
    pub fn codec_name(&self) -> Option<String> {
        self.md().map(|m| m.codec.to_string())
    }

    /// Whether the pages are stored without compression (`ColumnMetaData.codec` is
    /// `UNCOMPRESSED`).
    pub fn is_uncompressed(&self) -> bool {
        self.md()
            .is_some_and(|m| m.codec == CompressionCodec::Uncompressed)
    }

    /// Number of values, nulls included (`ColumnMetaData.num_values`).
    pub fn num_values(&self) -> i64 {
        self.md().map_or(0, |m| m.num_values)
    }

    /// Total stored size of the pages, headers included
    /// (`ColumnMetaData.total_compressed_size`).
    pub fn compressed_size(&self) -> i64 {
        self.md().map_or(0, |m| m.total_compressed_size)
    }

    /// Total uncompressed size of the pages, headers included
    /// (`ColumnMetaData.total_uncompressed_size`).
    pub fn uncompressed_size(&self) -> i64 {
        self.md().map_or(0, |m| m.total_uncompressed_size)
    }

    /// File offset of the first data page (`ColumnMetaData.data_page_offset`).
    pub fn data_page_offset(&self) -> i64 {
        self.md().map_or(0, |m| m.data_page_offset)
    }

    /// File offset of the dictionary page (`ColumnMetaData.dictionary_page_offset`).
    pub fn dictionary_page_offset(&self) -> Option<i64> {
        self.md()?.dictionary_page_offset
    }

    /// File offset of the index page (`ColumnMetaData.index_page_offset`).
    pub fn index_page_offset(&self) -> Option<i64> {
        self.md()?.index_page_offset
    }

    /// Byte range of the chunk in the file: from its first page (dictionary or data) for
    /// `ColumnMetaData.total_compressed_size` bytes.
    pub fn byte_range(&self) -> Option<(u64, u64)> {
        self.md().map(super::reader::chunk_range)
    }

    /// Typed statistics of the chunk (`ColumnMetaData.statistics`) with the
    /// specification's reading rules applied (see [`ColumnStatistics`]).
    pub fn statistics(&self) -> Option<ColumnStatistics> {
        let stats = self.md()?.statistics.as_ref()?;
        Some(self.meta.typed_statistics(self.column, stats))
    }

    /// The chunk's statistics as written (`ColumnMetaData.statistics`): PLAIN encoded
    /// bounds, byte arrays without a length prefix.
    pub fn raw_statistics(&self) -> Option<RawStatistics<'a>> {
        self.md()?.statistics.as_ref().map(RawStatistics)
    }

    /// Application key/value metadata of the chunk (`ColumnMetaData.key_value_metadata`).
    pub fn key_values(&self) -> impl Iterator<Item = (&'a str, Option<&'a str>)> + 'a {
        self.md()
            .and_then(|m| m.key_value_metadata.as_ref())
            .into_iter()
            .flatten()
            .map(|kv| (kv.key.as_str(), kv.value.as_deref()))
    }

    /// Page counts by page type and encoding (`ColumnMetaData.encoding_stats`), as
    /// `(page type, encoding, count)`; `None` when not written.
    pub fn encoding_stats(&self) -> Option<Vec<(PageType, Encoding, i32)>> {
        let stats = self.md()?.encoding_stats.as_ref()?;
        Some(
            stats
                .iter()
                .map(|s| (s.page_type, s.encoding, s.count))
                .collect(),
        )
    }

    /// File offset of the Bloom filter, header included
    /// (`ColumnMetaData.bloom_filter_offset`).
    pub fn bloom_filter_offset(&self) -> Option<i64> {
        self.md()?.bloom_filter_offset
    }

    /// Size of the Bloom filter, header included (`ColumnMetaData.bloom_filter_length`).
    pub fn bloom_filter_length(&self) -> Option<i32> {
        self.md()?.bloom_filter_length
    }

    /// Where the chunk's `ColumnIndex` is: `(ColumnChunk.column_index_offset,
    /// ColumnChunk.column_index_length)`, when both are written.
    pub fn column_index_range(&self) -> Option<(i64, i32)> {
        Some((
            self.chunk.column_index_offset?,
            self.chunk.column_index_length?,
        ))
    }

    /// Where the chunk's `OffsetIndex` is: `(ColumnChunk.offset_index_offset,
    /// ColumnChunk.offset_index_length)`, when both are written.
    pub fn offset_index_range(&self) -> Option<(i64, i32)> {
        Some((
            self.chunk.offset_index_offset?,
            self.chunk.offset_index_length?,
        ))
    }

    /// Whether the chunk has size statistics (`ColumnMetaData.size_statistics`).
    pub fn has_size_statistics(&self) -> bool {
        self.md().is_some_and(|m| m.size_statistics.is_some())
    }

    /// Bytes of the BYTE_ARRAY values without their length prefixes
    /// (`SizeStatistics.unencoded_byte_array_data_bytes`).
    pub fn unencoded_byte_array_data_bytes(&self) -> Option<i64> {
        self.md()?
            .size_statistics
            .as_ref()?
            .unencoded_byte_array_data_bytes
    }

    /// How often each repetition level occurs, index = level
    /// (`SizeStatistics.repetition_level_histogram`).
    pub fn repetition_level_histogram(&self) -> Option<&'a [i64]> {
        self.md()?
            .size_statistics
            .as_ref()?
            .repetition_level_histogram
            .as_deref()
    }

    /// How often each definition level occurs, index = level
    /// (`SizeStatistics.definition_level_histogram`).
    pub fn definition_level_histogram(&self) -> Option<&'a [i64]> {
        self.md()?
            .size_statistics
            .as_ref()?
            .definition_level_histogram
            .as_deref()
    }

    /// Whether the chunk has geospatial statistics
    /// (`ColumnMetaData.geospatial_statistics`).
    pub fn has_geospatial_statistics(&self) -> bool {
        self.md().is_some_and(|m| m.geospatial_statistics.is_some())
    }

    /// Bounding box of the chunk's GEOMETRY/GEOGRAPHY values
    /// (`GeospatialStatistics.bbox`), each axis's `min`/`max` as written (the x minimum
    /// may exceed the maximum for a GEOGRAPHY box crossing the antimeridian); a z or m axis
    /// without bounds is left empty.
    pub fn geospatial_bbox(&self) -> Option<Bounds> {
        let b = self.md()?.geospatial_statistics.as_ref()?.bbox.as_ref()?;
        let axis = |min: Option<f64>, max: Option<f64>| match (min, max) {
            (Some(min), Some(max)) => AxisRange { min, max },
            _ => AxisRange::default(),
        };
        Some(Bounds {
            x: AxisRange {
                min: b.xmin,
                max: b.xmax,
            },
            y: AxisRange {
                min: b.ymin,
                max: b.ymax,
            },
            z: axis(b.zmin, b.zmax),
            m: axis(b.mmin, b.mmax),
        })
    }

    /// The WKB geometry type codes that occur in the chunk
    /// (`GeospatialStatistics.geospatial_types`); `None` when unknown.
    pub fn geospatial_types(&self) -> Option<&'a [i32]> {
        self.md()?
            .geospatial_statistics
            .as_ref()?
            .geospatial_types
            .as_deref()
    }

    /// Whether the chunk is encrypted (`ColumnChunk.crypto_metadata` is set).
    pub fn is_encrypted(&self) -> bool {
        self.chunk.crypto_metadata.is_some()
    }

    /// Whether the chunk is encrypted with the footer key
    /// (`ColumnCryptoMetaData.ENCRYPTION_WITH_FOOTER_KEY`).
    pub fn is_encrypted_with_footer_key(&self) -> bool {
        matches!(
            self.chunk.crypto_metadata,
            Some(crate::core::format::ColumnCryptoMetaData::EncryptionWithFooterKey)
        )
    }

    /// Key metadata of a chunk encrypted with its own key
    /// (`EncryptionWithColumnKey.key_metadata`).
    pub fn column_key_metadata(&self) -> Option<&'a [u8]> {
        match &self.chunk.crypto_metadata {
            Some(crate::core::format::ColumnCryptoMetaData::EncryptionWithColumnKey(k)) => {
                k.key_metadata.as_deref()
            }
            _ => None,
        }
    }

    /// Whether the chunk's data sits in another file (`ColumnChunk.file_path`, summary
    /// files only), and that file's path.
    pub fn file_path(&self) -> Option<&'a str> {
        self.chunk.file_path.as_deref()
    }
}
