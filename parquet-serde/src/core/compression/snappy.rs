//! SNAPPY: the raw Snappy block format (no framing), as every Parquet writer uses it.

use std::cell::RefCell;

use super::{check_plausible, codec_error, size_mismatch};
use crate::error::Result;

/// Worst-case Snappy expansion: a 3-byte copy element yields at most 64 bytes.
const MAX_RATIO: usize = 22;

/// Writes the Snappy block of `input` at `buf[start..]` and returns where it ends. `buf`'s
/// bytes past `start` are overwritten; its length only grows (to the worst case of the
/// largest input so far), so a buffer kept between pages is zero-filled once instead of
/// once per page (a megabyte of `memset` per 1 MiB page).
pub(super) fn compress_at(input: &[u8], buf: &mut Vec<u8>, start: usize) -> Result<usize> {
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

/// Decodes the Snappy block `input`, which must inflate to exactly `uncompressed_size`
/// bytes, into `buf[start..]`: `buf` ends up `start + uncompressed_size` long. Bytes `buf`
/// already holds past `start` are overwritten rather than zero-filled first, so a page
/// buffer handed back for the next page costs no `memset`. On error `buf` is cut back to
/// `start`.
pub(super) fn decompress_at(
    input: &[u8],
    uncompressed_size: usize,
    buf: &mut Vec<u8>,
    start: usize,
) -> Result<()> {
    // The block starts with its decompressed length: check it before allocating.
    let declared =
        snap::raw::decompress_len(input).map_err(|e| codec_error("SNAPPY", "decompression", e));
    let checked = declared.and_then(|declared| {
        if declared != uncompressed_size {
            return Err(size_mismatch("SNAPPY", uncompressed_size, declared));
        }
        check_plausible("SNAPPY", input.len(), uncompressed_size, MAX_RATIO, 16)
    });
    let result = checked.and_then(|()| {
        // `resize` zero-fills only what the buffer did not hold yet.
        buf.resize(start + uncompressed_size, 0);
        match snap::raw::Decoder::new().decompress(input, &mut buf[start..]) {
            Ok(n) if n == uncompressed_size => Ok(()),
            Ok(n) => Err(size_mismatch("SNAPPY", uncompressed_size, n)),
            Err(e) => Err(codec_error("SNAPPY", "decompression", e)),
        }
    });
    if result.is_err() {
        buf.truncate(start);
    }
    result
}
