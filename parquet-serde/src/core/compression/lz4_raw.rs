//! LZ4_RAW: one raw LZ4 block, no framing and no size prefix.

use super::{check_plausible, codec_error, size_mismatch};
use crate::error::{Error, Result};

/// Worst-case LZ4 expansion: each extra match-length byte adds at most 255 output bytes.
const MAX_RATIO: usize = 255;

/// Writes the LZ4 block of `input` at `buf[start..]` and returns where it ends; like
/// [`super::snappy::compress_at`], `buf` only grows, so a buffer kept between pages is
/// zero-filled once.
pub(super) fn compress_at(input: &[u8], buf: &mut Vec<u8>, start: usize) -> Result<usize> {
    if u32::try_from(input.len()).is_err() {
        return Err(Error::compression(
            "LZ4 cannot compress a page of 4 GiB or more",
        ));
    }
    let end = start + lz4_flex::block::get_maximum_output_size(input.len());
    if buf.len() < end {
        buf.resize(end, 0);
    }
    lz4_flex::block::compress_into(input, &mut buf[start..end])
        .map(|n| start + n)
        .map_err(|e| codec_error("LZ4_RAW", "compression", e))
}

/// Decodes one raw LZ4 block that must inflate to exactly `uncompressed_size` bytes into
/// `output[start..]` (`output` ends up `start + uncompressed_size` long; bytes it held past
/// `start` are overwritten, not zero-filled first). On error `output` is cut back to
/// `start`. Shared with the deprecated LZ4 codec, whose frames hold raw blocks.
pub(super) fn decompress_block(
    codec: &str,
    input: &[u8],
    uncompressed_size: usize,
    output: &mut Vec<u8>,
    start: usize,
) -> Result<()> {
    if input.is_empty() && uncompressed_size == 0 {
        output.truncate(start);
        return Ok(());
    }
    let result =
        check_plausible(codec, input.len(), uncompressed_size, MAX_RATIO, 16).and_then(|()| {
            output.resize(start + uncompressed_size, 0);
            match lz4_flex::block::decompress_into(input, &mut output[start..]) {
                Ok(n) if n == uncompressed_size => Ok(()),
                Ok(n) => Err(size_mismatch(codec, uncompressed_size, n)),
                Err(e) => Err(codec_error(codec, "decompression", e)),
            }
        });
    if result.is_err() {
        output.truncate(start);
    }
    result
}
