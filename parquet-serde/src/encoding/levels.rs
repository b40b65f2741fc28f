//! Definition and repetition level sections of data pages.

use crate::error::Result;
use crate::format::Encoding;

/// Decodes the v1 level section at the start of `input` (RLE with its 4-byte length prefix,
/// or BIT_PACKED): `n` levels for `max_level`, appended to `out`. Returns bytes consumed.
/// With `max_level == 0` nothing is read and `n` zeros... are not written: returns 0.
pub fn decode_v1(
    encoding: Encoding,
    input: &[u8],
    max_level: i16,
    n: usize,
    out: &mut Vec<i16>,
) -> Result<usize> {
    let _ = (encoding, input, max_level, n, out);
    todo!()
}

/// Decodes a v2 level section (RLE, no length prefix, exactly `input`): `n` levels.
pub fn decode_v2(input: &[u8], max_level: i16, n: usize, out: &mut Vec<i16>) -> Result<()> {
    let _ = (input, max_level, n, out);
    todo!()
}

/// Encodes levels for `max_level` as RLE: with the 4-byte length prefix when `v1_prefix`.
pub fn encode_rle(levels: &[i16], max_level: i16, v1_prefix: bool, out: &mut Vec<u8>) {
    let _ = (levels, max_level, v1_prefix, out);
    todo!()
}
