//! GZIP: gzip members (RFC 1952) around DEFLATE. Readers accept several concatenated members,
//! which some writers emit for one page.

use super::{check_plausible, codec_error, read_exact_size};
use crate::error::{Error, Result};

/// The usual default level of gzip tools and Parquet writers.
pub(super) const DEFAULT_LEVEL: u32 = 6;

/// Worst-case DEFLATE expansion (a 258-byte match costs at least 2 bits).
const MAX_RATIO: usize = 1032;

/// Checks a gzip level (0 to 9).
pub(super) fn check_level(level: u32) -> Result<()> {
    if level > 9 {
        return Err(Error::invalid_argument(format!(
            "gzip level {level} is out of range 0 to 9"
        )));
    }
    Ok(())
}

/// Appends one gzip member holding `input` to `output`.
pub(super) fn compress(input: &[u8], level: u32, output: &mut Vec<u8>) -> Result<()> {
    use std::io::Write;
    check_level(level)?;
    let start = output.len();
    let mut encoder = flate2::write::GzEncoder::new(output, flate2::Compression::new(level));
    let result = encoder.write_all(input).and_then(|()| encoder.try_finish());
    let output = encoder.get_mut();
    if let Err(e) = result {
        output.truncate(start);
        return Err(codec_error("GZIP", "compression", e));
    }
    Ok(())
}

/// Appends exactly `uncompressed_size` bytes decoded from one or more gzip members.
pub(super) fn decompress(
    input: &[u8],
    uncompressed_size: usize,
    output: &mut Vec<u8>,
) -> Result<()> {
    // The decoder also needs the 18 bytes of gzip header and trailer per member.
    check_plausible("GZIP", input.len(), uncompressed_size, MAX_RATIO, 0)?;
    let decoder = flate2::bufread::MultiGzDecoder::new(input);
    read_exact_size(
        "GZIP",
        decoder,
        uncompressed_size,
        uncompressed_size,
        output,
    )
}
