//! LZ4_RAW: one raw LZ4 block, no framing and no size prefix.

use super::{check_plausible, codec_error, size_mismatch};
use crate::error::{Error, Result};

/// Worst-case LZ4 expansion: each extra match-length byte adds at most 255 output bytes.
const MAX_RATIO: usize = 255;

/// Appends the LZ4 block of `input` to `output`.
pub(super) fn compress(input: &[u8], output: &mut Vec<u8>) -> Result<()> {
    if u32::try_from(input.len()).is_err() {
        return Err(Error::compression(
            "LZ4 cannot compress a page of 4 GiB or more",
        ));
    }
    let start = output.len();
    output.resize(
        start + lz4_flex::block::get_maximum_output_size(input.len()),
        0,
    );
    match lz4_flex::block::compress_into(input, &mut output[start..]) {
        Ok(n) => {
            output.truncate(start + n);
            Ok(())
        }
        Err(e) => {
            output.truncate(start);
            Err(codec_error("LZ4_RAW", "compression", e))
        }
    }
}

/// Writes the LZ4 block of `input` at `buf[start..]` and returns where it ends; like
/// [`super::snappy::compress_reusing`], `buf` only grows, so a buffer kept between pages is
/// zero-filled once.
pub(super) fn compress_reusing(input: &[u8], buf: &mut Vec<u8>, start: usize) -> Result<usize> {
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

/// Replaces the contents of `buf` by exactly `uncompressed_size` bytes decoded from the LZ4
/// block `input`, overwriting what `buf` holds instead of zero-filling it first. On error
/// `buf` is emptied.
pub(super) fn decompress_reusing(
    input: &[u8],
    uncompressed_size: usize,
    buf: &mut Vec<u8>,
) -> Result<()> {
    let result = check_plausible("LZ4_RAW", input.len(), uncompressed_size, MAX_RATIO, 16)
        .and_then(|()| {
            buf.resize(uncompressed_size, 0);
            match lz4_flex::block::decompress_into(input, buf) {
                Ok(n) if n == uncompressed_size => Ok(()),
                Ok(n) => Err(size_mismatch("LZ4_RAW", uncompressed_size, n)),
                Err(e) => Err(codec_error("LZ4_RAW", "decompression", e)),
            }
        });
    if result.is_err() {
        buf.clear();
    }
    result
}

/// Appends exactly `uncompressed_size` bytes decoded from the LZ4 block `input`.
pub(super) fn decompress(
    input: &[u8],
    uncompressed_size: usize,
    output: &mut Vec<u8>,
) -> Result<()> {
    decompress_block("LZ4_RAW", input, uncompressed_size, output)
}

/// Decodes one raw LZ4 block that must inflate to exactly `uncompressed_size` bytes.
/// Shared with the deprecated LZ4 codec, whose frames hold raw blocks.
pub(super) fn decompress_block(
    codec: &str,
    input: &[u8],
    uncompressed_size: usize,
    output: &mut Vec<u8>,
) -> Result<()> {
    if input.is_empty() && uncompressed_size == 0 {
        return Ok(());
    }
    check_plausible(codec, input.len(), uncompressed_size, MAX_RATIO, 16)?;
    let start = output.len();
    output.resize(start + uncompressed_size, 0);
    match lz4_flex::block::decompress_into(input, &mut output[start..]) {
        Ok(n) if n == uncompressed_size => Ok(()),
        Ok(n) => {
            output.truncate(start);
            Err(size_mismatch(codec, uncompressed_size, n))
        }
        Err(e) => {
            output.truncate(start);
            Err(codec_error(codec, "decompression", e))
        }
    }
}
