//! Internal kernels for the benches (`benches/`) and the fuzz targets (`fuzz/`).
//!
//! **Not API, no semver promise.** Compiled only with the non-default feature `internals`,
//! hidden from the documentation; anything here may change or go in any release. Programs
//! use the public modules ([`core`](crate::core) and the crate root) instead.

/// The value and level encodings (one module per encoding).
pub mod encoding {
    pub use crate::core::encoding::{
        alp, byte_stream_split, delta_binary_packed, delta_byte_array, delta_length_byte_array,
        levels, plain, rle, rle_boolean,
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
