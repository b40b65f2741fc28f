//! SNAPPY: the raw Snappy block format (no framing), as every Parquet writer uses it.

use super::{check_plausible, codec_error, size_mismatch};
use crate::error::Result;

/// Worst-case Snappy expansion: a 3-byte copy element yields at most 64 bytes.
const MAX_RATIO: usize = 22;

/// Appends the Snappy block of `input` to `output`.
pub(super) fn compress(input: &[u8], output: &mut Vec<u8>) -> Result<()> {
    let start = output.len();
    output.resize(start + snap::raw::max_compress_len(input.len()).max(1), 0);
    match snap::raw::Encoder::new().compress(input, &mut output[start..]) {
        Ok(n) => {
            output.truncate(start + n);
            Ok(())
        }
        Err(e) => {
            output.truncate(start);
            Err(codec_error("SNAPPY", "compression", e))
        }
    }
}

/// Appends exactly `uncompressed_size` bytes decoded from the Snappy block `input`.
pub(super) fn decompress(
    input: &[u8],
    uncompressed_size: usize,
    output: &mut Vec<u8>,
) -> Result<()> {
    // The block starts with its decompressed length: check it before allocating.
    let declared =
        snap::raw::decompress_len(input).map_err(|e| codec_error("SNAPPY", "decompression", e))?;
    if declared != uncompressed_size {
        return Err(size_mismatch("SNAPPY", uncompressed_size, declared));
    }
    check_plausible("SNAPPY", input.len(), uncompressed_size, MAX_RATIO, 16)?;
    let start = output.len();
    output.resize(start + uncompressed_size, 0);
    match snap::raw::Decoder::new().decompress(input, &mut output[start..]) {
        Ok(n) if n == uncompressed_size => Ok(()),
        Ok(n) => {
            output.truncate(start);
            Err(size_mismatch("SNAPPY", uncompressed_size, n))
        }
        Err(e) => {
            output.truncate(start);
            Err(codec_error("SNAPPY", "decompression", e))
        }
    }
}
