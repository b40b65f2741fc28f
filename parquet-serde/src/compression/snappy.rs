//! SNAPPY: the raw Snappy block format (no framing), as every Parquet writer uses it.

use std::cell::RefCell;

use super::{check_plausible, codec_error, size_mismatch};
use crate::error::Result;

/// Worst-case Snappy expansion: a 3-byte copy element yields at most 64 bytes.
const MAX_RATIO: usize = 22;

/// Appends the Snappy block of `input` to `output`.
pub(super) fn compress(input: &[u8], output: &mut Vec<u8>) -> Result<()> {
    let start = output.len();
    // The worst case is zero-filled here (snap writes into initialized memory only); callers
    // that compress page after page use `compress_reusing`, which fills it once.
    output.resize(start + snap::raw::max_compress_len(input.len()).max(1), 0);
    match encode(input, &mut output[start..]) {
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

/// Writes the Snappy block of `input` at `buf[start..]` and returns where it ends. `buf`'s
/// bytes past `start` are overwritten; its length only grows (to the worst case of the
/// largest input so far), so a buffer kept between pages is zero-filled once instead of
/// once per page (a megabyte of `memset` per 1 MiB page).
pub(super) fn compress_reusing(input: &[u8], buf: &mut Vec<u8>, start: usize) -> Result<usize> {
    let end = start + snap::raw::max_compress_len(input.len()).max(1);
    if buf.len() < end {
        buf.resize(end, 0);
    }
    encode(input, &mut buf[start..end])
        .map(|n| start + n)
        .map_err(|e| codec_error("SNAPPY", "compression", e))
}

thread_local! {
    /// This thread's encoder: a new one per page allocates and zeroes its 32 KiB hash table.
    static ENCODER: RefCell<snap::raw::Encoder> = RefCell::new(snap::raw::Encoder::new());
}

/// Compresses `input` into `out` with this thread's encoder (a fresh one on a re-entrant
/// call or while the thread is being torn down).
fn encode(input: &[u8], out: &mut [u8]) -> std::result::Result<usize, snap::Error> {
    let pooled = ENCODER.try_with(|cell| {
        let mut kept = cell.try_borrow_mut().ok()?;
        Some(kept.compress(input, out))
    });
    match pooled {
        Ok(Some(result)) => result,
        _ => snap::raw::Encoder::new().compress(input, out),
    }
}

/// Appends exactly `uncompressed_size` bytes decoded from the Snappy block `input`.
pub(super) fn decompress(
    input: &[u8],
    uncompressed_size: usize,
    output: &mut Vec<u8>,
) -> Result<()> {
    let start = output.len();
    check_block(input, uncompressed_size)?;
    output.resize(start + uncompressed_size, 0);
    decode(input, uncompressed_size, &mut output[start..]).inspect_err(|_| output.truncate(start))
}

/// Replaces the contents of `buf` by exactly `uncompressed_size` bytes decoded from the
/// Snappy block `input`. Bytes `buf` already holds are overwritten rather than zero-filled
/// first, so a page buffer handed back for the next page costs no `memset`. On error `buf`
/// is emptied.
pub(super) fn decompress_reusing(
    input: &[u8],
    uncompressed_size: usize,
    buf: &mut Vec<u8>,
) -> Result<()> {
    check_block(input, uncompressed_size).inspect_err(|_| buf.clear())?;
    // `resize` zero-fills only what the buffer did not hold yet.
    buf.resize(uncompressed_size, 0);
    decode(input, uncompressed_size, buf).inspect_err(|_| buf.clear())
}

/// Checks the length the block announces against the page header, and that `input` could
/// inflate to it, before anything is allocated.
fn check_block(input: &[u8], uncompressed_size: usize) -> Result<()> {
    let declared =
        snap::raw::decompress_len(input).map_err(|e| codec_error("SNAPPY", "decompression", e))?;
    if declared != uncompressed_size {
        return Err(size_mismatch("SNAPPY", uncompressed_size, declared));
    }
    check_plausible("SNAPPY", input.len(), uncompressed_size, MAX_RATIO, 16)
}

/// Decodes `input` into `out` (`uncompressed_size` bytes long), which it must fill exactly.
fn decode(input: &[u8], uncompressed_size: usize, out: &mut [u8]) -> Result<()> {
    match snap::raw::Decoder::new().decompress(input, out) {
        Ok(n) if n == uncompressed_size => Ok(()),
        Ok(n) => Err(size_mismatch("SNAPPY", uncompressed_size, n)),
        Err(e) => Err(codec_error("SNAPPY", "decompression", e)),
    }
}
