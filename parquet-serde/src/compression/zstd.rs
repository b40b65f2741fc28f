//! ZSTD: one or more Zstandard frames (RFC 8878).

use super::{check_plausible, codec_error, size_mismatch};
use crate::error::{Error, Result};

/// The zstd library's default level.
pub(super) const DEFAULT_LEVEL: i32 = 3;

/// Worst-case Zstandard expansion: a 4-byte RLE block yields at most 128 KiB.
const MAX_RATIO: usize = 32 * 1024;

/// Checks a zstd level against the range of the linked library (0 means its default).
pub(super) fn check_level(level: i32) -> Result<()> {
    let range = ::zstd::compression_level_range();
    if !range.contains(&level) {
        return Err(Error::invalid_argument(format!(
            "zstd level {level} is out of range {} to {}",
            range.start(),
            range.end()
        )));
    }
    Ok(())
}

/// Appends one zstd frame holding `input` to `output`.
pub(super) fn compress(input: &[u8], level: i32, output: &mut Vec<u8>) -> Result<()> {
    check_level(level)?;
    let start = output.len();
    output.resize(start + ::zstd::zstd_safe::compress_bound(input.len()), 0);
    match ::zstd::bulk::compress_to_buffer(input, &mut output[start..], level) {
        Ok(n) => output.truncate(start + n),
        Err(e) => {
            output.truncate(start);
            return Err(codec_error("ZSTD", "compression", e));
        }
    }
    Ok(())
}

/// Appends exactly `uncompressed_size` bytes decoded from the zstd frames in `input`.
pub(super) fn decompress(
    input: &[u8],
    uncompressed_size: usize,
    output: &mut Vec<u8>,
) -> Result<()> {
    check_plausible("ZSTD", input.len(), uncompressed_size, MAX_RATIO, 0)?;
    let start = output.len();
    // Exactly the announced room: zstd fails rather than write past the end of a slice.
    output.resize(start + uncompressed_size, 0);
    match ::zstd::bulk::decompress_to_buffer(input, &mut output[start..]) {
        Ok(n) if n == uncompressed_size => Ok(()),
        Ok(n) => {
            output.truncate(start);
            Err(size_mismatch("ZSTD", uncompressed_size, n))
        }
        Err(e) => {
            output.truncate(start);
            Err(codec_error("ZSTD", "decompression", e))
        }
    }
}
