//! Page compression codecs: pure functions over byte slices, one file per codec.

use crate::error::Result;
use crate::format::CompressionCodec;

/// A codec with its level, as chosen by a writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Compression {
    /// No compression.
    Uncompressed,
    /// Snappy (the default: fast, and read by every engine).
    #[default]
    Snappy,
    /// Gzip with a level from 0 to 9.
    Gzip(u32),
    /// Brotli with a quality from 0 to 11.
    Brotli(u32),
    /// Zstandard with a level from 1 to 22 (negative levels are the fast modes).
    Zstd(i32),
    /// Raw LZ4 block.
    Lz4Raw,
}

impl Compression {
    /// The codec id written in the column metadata.
    pub fn codec(self) -> CompressionCodec {
        todo!()
    }

    /// Compresses `input`, appending to `output`.
    pub fn compress(self, input: &[u8], output: &mut Vec<u8>) -> Result<()> {
        let _ = (input, output);
        todo!()
    }
}

/// Decompresses a page compressed with `codec`, appending exactly `uncompressed_size` bytes to
/// `output`; any other size is an error.
pub fn decompress(
    codec: CompressionCodec,
    input: &[u8],
    uncompressed_size: usize,
    output: &mut Vec<u8>,
) -> Result<()> {
    let _ = (codec, input, uncompressed_size, output);
    todo!()
}
