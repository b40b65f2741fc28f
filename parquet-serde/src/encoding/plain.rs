//! PLAIN encoding for every physical type.
//!
//! Decoders append `n` values to `out` and return the number of input bytes consumed;
//! input shorter than `n` values is an error, never a panic.

use crate::error::Result;
use crate::values::{ByteArrays, Int96};

/// A fixed-width little-endian physical type: i32, i64, f32, f64, Int96.
pub trait FixedWidth: Copy + Default + 'static {
    /// Bytes per value.
    const WIDTH: usize;
}

/// Appends `values` in PLAIN form (little endian).
pub fn encode_fixed<T: FixedWidth>(values: &[T], out: &mut Vec<u8>) {
    let _ = (values, out);
    todo!()
}

/// Decodes `n` PLAIN values of a fixed-width type.
pub fn decode_fixed<T: FixedWidth>(input: &[u8], n: usize, out: &mut Vec<T>) -> Result<usize> {
    let _ = (input, n, out);
    todo!()
}

/// Appends booleans bit-packed, LSB first.
pub fn encode_boolean(values: &[bool], out: &mut Vec<u8>) {
    let _ = (values, out);
    todo!()
}

/// Decodes `n` PLAIN booleans.
pub fn decode_boolean(input: &[u8], n: usize, out: &mut Vec<bool>) -> Result<usize> {
    let _ = (input, n, out);
    todo!()
}

/// Appends byte arrays, each as a 4-byte little-endian length and the bytes.
pub fn encode_byte_array<'a>(values: impl Iterator<Item = &'a [u8]>, out: &mut Vec<u8>) {
    let _ = (values, out);
    todo!()
}

/// Decodes `n` PLAIN byte arrays.
pub fn decode_byte_array(input: &[u8], n: usize, out: &mut ByteArrays) -> Result<usize> {
    let _ = (input, n, out);
    todo!()
}

/// Decodes `n` fixed-length byte arrays of `width` bytes, appending to `out`.
pub fn decode_fixed_len_byte_array(
    input: &[u8],
    n: usize,
    width: usize,
    out: &mut Vec<u8>,
) -> Result<usize> {
    let _ = (input, n, width, out);
    todo!()
}

#[allow(dead_code)]
fn _int96_is_fixed_width(_: Int96) {}
