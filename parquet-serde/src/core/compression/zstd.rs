//! ZSTD: one or more Zstandard frames (RFC 8878).

use std::cell::RefCell;
use std::io::Cursor;

use ::zstd::zstd_safe::{self, CCtx, CParameter, DCtx};

use super::{check_plausible, codec_failure, size_mismatch};
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
    // Room for the worst case, written in place (no zero-filling of the spare capacity).
    output.reserve(zstd_safe::compress_bound(input.len()));
    let written = with_context(&COMPRESSOR, CCtx::try_create, |cctx| {
        cctx.set_parameter(CParameter::CompressionLevel(level))?;
        cctx.compress2(&mut at(output, start), input)
    });
    match written {
        Ok(n) => {
            debug_assert_eq!(output.len(), start + n);
            Ok(())
        }
        Err(e) => {
            output.truncate(start);
            Err(codec_failure("ZSTD", "compression", e))
        }
    }
}

/// Appends exactly `uncompressed_size` bytes decoded from the zstd frames in `input`.
pub(super) fn decompress(
    input: &[u8],
    uncompressed_size: usize,
    output: &mut Vec<u8>,
) -> Result<()> {
    check_plausible("ZSTD", input.len(), uncompressed_size, MAX_RATIO, 0)?;
    let start = output.len();
    // The announced size, written in place: zstd writes no further than the capacity, and
    // more or fewer bytes than announced are an error.
    output.reserve_exact(uncompressed_size);
    let written = with_context(&DECOMPRESSOR, DCtx::try_create, |dctx| {
        dctx.decompress(&mut at(output, start), input)
    });
    match written {
        Ok(n) if n == uncompressed_size => Ok(()),
        Ok(n) => {
            output.truncate(start);
            Err(size_mismatch("ZSTD", uncompressed_size, n))
        }
        Err(e) => {
            output.truncate(start);
            Err(codec_failure("ZSTD", "decompression", e))
        }
    }
}

thread_local! {
    /// This thread's compression context, kept between pages: a new one per page costs an
    /// allocation and the setup of its tables (about a megabyte at level 1 for 1 MiB pages).
    static COMPRESSOR: RefCell<Option<CCtx<'static>>> = const { RefCell::new(None) };
    /// This thread's decompression context, kept between pages for the same reason.
    static DECOMPRESSOR: RefCell<Option<DCtx<'static>>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's context from `slot` (made by `create` on first use); a
/// failure is zstd's error name. A context that failed is dropped, so the next call starts
/// from a fresh one; a re-entrant call (the slot is busy) or a thread being torn down gets a
/// context of its own.
fn with_context<C>(
    slot: &'static std::thread::LocalKey<RefCell<Option<C>>>,
    create: fn() -> Option<C>,
    f: impl FnOnce(&mut C) -> std::result::Result<usize, zstd_safe::ErrorCode>,
) -> std::result::Result<usize, &'static str> {
    let mut f = Some(f);
    let pooled = slot.try_with(|cell| {
        let Ok(mut kept) = cell.try_borrow_mut() else {
            return None;
        };
        if kept.is_none() {
            *kept = create();
        }
        let ctx = kept.as_mut()?;
        let run = f.take()?;
        let result = run(ctx).map_err(zstd_safe::get_error_name);
        if result.is_err() {
            *kept = None;
        }
        Some(result)
    });
    if let Ok(Some(result)) = pooled {
        return result;
    }
    let (Some(run), Some(mut ctx)) = (f.take(), create()) else {
        return Err("no zstd context (out of memory)");
    };
    run(&mut ctx).map_err(zstd_safe::get_error_name)
}

/// `output` as a zstd destination whose writing starts at `start` (its length): zstd writes
/// into the spare capacity and the length is set to what it wrote.
fn at(output: &mut Vec<u8>, start: usize) -> Cursor<&mut Vec<u8>> {
    let mut cursor = Cursor::new(output);
    cursor.set_position(start as u64);
    cursor
}
