//! Internal kernels and wire structures for the benches (`benches/`), the fuzz targets
//! (`fuzz/`) and the tests that craft malformed files or check files by hand.
//!
//! **Not API, no semver promise.** Compiled only with the non-default feature `internals`,
//! hidden from the documentation; anything here may change or go in any release. Programs
//! use the public modules ([`core`](crate::core) and the crate root) instead.

/// The value and level encodings (one module per encoding).
pub mod encoding {
    pub use crate::core::encoding::{
        alp, byte_stream_split, delta_binary_packed, delta_byte_array, delta_length_byte_array,
        group_var_int, levels, plain, rle, rle_boolean,
    };
}

/// The page codecs, over byte slices.
pub mod compression {
    use crate::core::compression::Compression;
    use crate::error::Result;

    /// Decompresses `input` (compressed with `codec`) into `output`, which must grow by
    /// exactly `uncompressed_size` bytes.
    pub fn decompress(
        codec: Compression,
        input: &[u8],
        uncompressed_size: usize,
        output: &mut Vec<u8>,
    ) -> Result<()> {
        crate::core::compression::decompress(codec.codec(), input, uncompressed_size, output)
    }

    /// [`decompress`] into a buffer whose old contents are not needed.
    pub fn decompress_reusing(
        codec: Compression,
        input: &[u8],
        uncompressed_size: usize,
        buf: &mut Vec<u8>,
    ) -> Result<()> {
        crate::core::compression::decompress_reusing(codec.codec(), input, uncompressed_size, buf)
    }

    /// Compresses `input` into `buf[start..]` and returns where the compressed bytes end.
    pub fn compress_reusing(
        codec: Compression,
        input: &[u8],
        buf: &mut Vec<u8>,
        start: usize,
    ) -> Result<usize> {
        codec.compress_reusing(input, buf, start)
    }
}

/// The module ciphers, AADs and framing of Parquet Modular Encryption.
pub mod encryption {
    pub use crate::core::encryption::aad::{file_aad, footer_aad, module_aad, ModuleType};
    pub use crate::core::encryption::cipher::{
        module_len, ModuleKey, CTR_OVERHEAD, GCM_OVERHEAD, SIGNATURE_LEN,
    };
}

/// The key material and key metadata JSON of the envelope-encryption key tools.
pub mod keytools {
    pub use crate::core::keytools::material::{KeyMaterial, KeyMetadata};
}

/// The hashes of Bloom filters and the builder a column writer fills.
pub mod bloom {
    pub use crate::core::bloom::builder::BloomFilterBuilder;

    /// XXH64 hashes of values, as Bloom filters store them.
    pub mod hash {
        pub use crate::core::bloom::hash::*;
    }
}

/// WKB scanning and the geospatial statistics of a column chunk.
pub mod geo {
    pub use crate::core::geo::stats::GeoStatisticsBuilder;

    /// Scanning one WKB value.
    pub mod wkb {
        pub use crate::core::geo::wkb::*;
    }
}

/// The Thrift compact protocol and the wire structures of `parquet.thrift`
/// (`crate::core::format`, private to the crate).
pub mod format {
    pub use crate::core::format::*;
}

use crate::core::file::{ChunkReader, FileReader};
use crate::core::format::{ColumnIndex, OffsetIndex};
use crate::error::Result;

/// The Thrift `ColumnIndex` of a column chunk as stored, if written.
pub fn column_index<R: ChunkReader>(
    reader: &FileReader<R>,
    row_group: usize,
    column: usize,
) -> Result<Option<ColumnIndex>> {
    reader.column_index(row_group, column)
}

/// The Thrift `OffsetIndex` of a column chunk as stored, if written.
pub fn offset_index<R: ChunkReader>(
    reader: &FileReader<R>,
    row_group: usize,
    column: usize,
) -> Result<Option<OffsetIndex>> {
    reader.offset_index(row_group, column)
}

/// The Thrift `FileMetaData` a [`ParquetMetaData`](crate::core::file::ParquetMetaData)
/// reads, for tests that re-encode a modified footer.
pub fn file_metadata(
    metadata: &crate::core::file::ParquetMetaData,
) -> &crate::core::format::FileMetaData {
    &metadata.file
}

/// The Variant encoders and the borrowed, checked Variant view.
pub mod variant {
    pub use crate::variant::kernels::*;
}

/// A `ChunkReader` that counts the bytes and reads it serves: how much of a file a read touched.
pub use crate::core::file::chunk_reader::CountingReader;

/// A page reader over the bytes of one column chunk (`PageReader::new`, crate-private: its
/// codec is the wire enum), for fuzz targets that frame pages by hand.
pub fn page_reader<'a>(
    data: &'a [u8],
    file_offset: u64,
    codec: crate::core::format::CompressionCodec,
    num_values: i64,
    options: &crate::core::file::ReadOptions,
) -> crate::core::page::PageReader<'a> {
    crate::core::page::PageReader::new(data, file_offset, codec, num_values, options.page_options())
}
