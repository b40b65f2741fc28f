//! The deprecated BIT_PACKED level encoding (MSB first).

use crate::error::Result;

/// Decodes `n` levels `bit_width` bits wide; returns bytes consumed.
pub fn decode_levels(input: &[u8], bit_width: u8, n: usize, out: &mut Vec<i16>) -> Result<usize> {
    let _ = (input, bit_width, n, out);
    todo!()
}
