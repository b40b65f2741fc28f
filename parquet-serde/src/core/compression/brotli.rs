//! BROTLI (RFC 7932), quality 0 to 11, window 2^22 bytes as other Parquet writers use.

use super::codec_error;
use crate::error::{Error, Result};

/// The quality most Parquet writers default to.
pub(super) const DEFAULT_QUALITY: u32 = 1;

/// Log2 of the window size used when compressing.
const LG_WINDOW: u32 = 22;

/// Size of the internal buffers of the brotli reader and writer.
const BUFFER_SIZE: usize = 64 * 1024;

/// How much output to allocate up front per input byte. Brotli can expand far more (long
/// repeats cost a few bits), so the output then grows as decoded bytes actually arrive.
const RESERVE_RATIO: usize = 64;

/// Checks a brotli quality (0 to 11).
pub(super) fn check_quality(quality: u32) -> Result<()> {
    if quality > 11 {
        return Err(Error::invalid_argument(format!(
            "brotli quality {quality} is out of range 0 to 11"
        )));
    }
    Ok(())
}

/// Appends the brotli stream of `input` to `output`.
pub(super) fn compress(input: &[u8], quality: u32, output: &mut Vec<u8>) -> Result<()> {
    use std::io::Write;
    check_quality(quality)?;
    let start = output.len();
    let mut writer = ::brotli::CompressorWriter::new(output, BUFFER_SIZE, quality, LG_WINDOW);
    let result = writer.write_all(input).and_then(|()| writer.flush());
    let output = writer.into_inner();
    if let Err(e) = result {
        output.truncate(start);
        return Err(codec_error("BROTLI", "compression", e));
    }
    Ok(())
}

/// Appends exactly `uncompressed_size` bytes decoded from the brotli stream `input`.
///
/// Decodes straight into `output`, which grows (by doubling) as decoded bytes arrive, up to
/// `uncompressed_size + 1` bytes: a stream that wants more is an error before it gets it.
pub(super) fn decompress(
    input: &[u8],
    uncompressed_size: usize,
    output: &mut Vec<u8>,
) -> Result<()> {
    use ::brotli::enc::StandardAlloc;
    use ::brotli::{BrotliDecompressStream, BrotliResult, BrotliState};

    let start = output.len();
    let limit = uncompressed_size.saturating_add(1);
    let first = uncompressed_size
        .min(input.len().saturating_mul(RESERVE_RATIO).max(BUFFER_SIZE))
        .saturating_add(1);
    output.resize(start + first, 0);
    // Standard streams only (no large-window extension): the window, and so the decoder's
    // ring buffer, stays at most 16 MiB whatever the stream asks.
    let mut state = BrotliState::new_strict(
        StandardAlloc::default(),
        StandardAlloc::default(),
        StandardAlloc::default(),
    );
    let mut available_in = input.len();
    let mut input_offset = 0;
    let mut output_offset = start;
    let mut total_out = 0;
    let result = loop {
        let mut available_out = output.len() - output_offset;
        let status = BrotliDecompressStream(
            &mut available_in,
            &mut input_offset,
            input,
            &mut available_out,
            &mut output_offset,
            output,
            &mut total_out,
            &mut state,
        );
        match status {
            BrotliResult::ResultSuccess => break Ok(()),
            BrotliResult::NeedsMoreOutput => {
                let filled = output_offset - start;
                if filled >= limit {
                    break Err(Error::compression(format!(
                        "BROTLI page decompressed to more than {uncompressed_size} bytes, as its header says"
                    )));
                }
                let grown = filled.saturating_mul(2).max(BUFFER_SIZE).min(limit);
                output.resize(start + grown, 0);
            }
            BrotliResult::NeedsMoreInput => {
                break Err(Error::compression("BROTLI stream is truncated"))
            }
            BrotliResult::ResultFailure => {
                break Err(Error::compression(
                    "BROTLI decompression failed: corrupt stream",
                ))
            }
        }
    };
    let got = output_offset - start;
    output.truncate(output_offset);
    match result {
        Ok(()) if got == uncompressed_size => Ok(()),
        Ok(()) => {
            output.truncate(start);
            Err(super::size_mismatch("BROTLI", uncompressed_size, got))
        }
        Err(e) => {
            output.truncate(start);
            Err(e)
        }
    }
}
