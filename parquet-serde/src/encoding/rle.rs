//! The RLE / bit-packing hybrid encoding (levels, booleans, dictionary indices).

use crate::error::Result;

/// Streaming decoder of the hybrid encoding (no length prefix: callers strip it).
pub struct RleDecoder<'a> {
    _data: &'a [u8],
}

impl<'a> RleDecoder<'a> {
    /// A decoder of values `bit_width` bits wide (0 to 32).
    pub fn new(data: &'a [u8], bit_width: u8) -> Self {
        let _ = bit_width;
        todo!("{}", data.len())
    }

    /// Fills `out` as far as the data goes; returns how many were written (less than
    /// `out.len()` only at the end of the data).
    pub fn next_batch_u32(&mut self, out: &mut [u32]) -> Result<usize> {
        let _ = out;
        todo!()
    }

    /// Same as [`next_batch_u32`](Self::next_batch_u32) for levels.
    pub fn next_batch_i16(&mut self, out: &mut [i16]) -> Result<usize> {
        let _ = out;
        todo!()
    }
}

/// Encoder of the hybrid encoding (no length prefix).
pub struct RleEncoder {
    _bit_width: u8,
}

impl RleEncoder {
    /// An encoder of values `bit_width` bits wide (0 to 32).
    pub fn new(bit_width: u8) -> Self {
        RleEncoder {
            _bit_width: bit_width,
        }
    }

    /// Appends values.
    pub fn put_u32(&mut self, values: &[u32]) {
        let _ = values;
        todo!()
    }

    /// Appends levels.
    pub fn put_i16(&mut self, values: &[i16]) {
        let _ = values;
        todo!()
    }

    /// Finishes and returns the encoded bytes.
    pub fn finish(self) -> Vec<u8> {
        todo!()
    }
}
