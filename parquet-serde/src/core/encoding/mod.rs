//! Value and level encodings: pure functions over byte slices, one file per encoding.
//!
//! - [`plain`]: PLAIN for every physical type.
//! - [`rle`]: the RLE / bit-packing hybrid (levels, booleans, dictionary indices).
//! - [`bit_packed`]: the deprecated BIT_PACKED level encoding.
//! - [`levels`]: definition/repetition level sections of v1 and v2 data pages.
//! - [`rle_boolean`]: RLE for BOOLEAN values (length-prefixed hybrid).
//! - [`delta_binary_packed`]: DELTA_BINARY_PACKED for INT32 and INT64.
//! - [`delta_length_byte_array`]: DELTA_LENGTH_BYTE_ARRAY for BYTE_ARRAY.
//! - [`delta_byte_array`]: DELTA_BYTE_ARRAY for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY.
//! - [`byte_stream_split`]: BYTE_STREAM_SPLIT for FLOAT, DOUBLE, INT32, INT64 and
//!   FIXED_LEN_BYTE_ARRAY.
//! - [`alp`]: ALP for FLOAT and DOUBLE (preview in the specification).
//! - [`group_var_int`]: GROUP_VAR_INT for INT32 and INT64 (the seed documents' layout; no
//!   other implementation reads it).
//! - `names.rs`: the specification's names of encodings, behind
//!   [`Encoding`](crate::core::format::Encoding)'s `Display` and `FromStr`.

pub mod alp;
pub mod bit_packed;
pub(crate) mod bitpack;
pub(crate) mod bitpack64;
pub mod byte_stream_split;
pub mod delta_binary_packed;
pub mod delta_byte_array;
pub mod delta_length_byte_array;
pub mod group_var_int;
pub mod levels;
mod names;
pub mod plain;
pub mod rle;
pub mod rle_boolean;
mod varint;

/// Bits needed to store `max` (0 for 0): the bit width of levels and dictionary indices.
pub fn bit_width(max: u64) -> u8 {
    (64 - max.leading_zeros()) as u8
}

#[cfg(test)]
mod tests {
    #[test]
    fn bit_width() {
        let cases = [
            (0, 0),
            (1, 1),
            (2, 2),
            (3, 2),
            (4, 3),
            (7, 3),
            (8, 4),
            (255, 8),
            (256, 9),
        ];
        for (max, width) in cases {
            assert_eq!(super::bit_width(max), width, "max {max}");
        }
        assert_eq!(super::bit_width(u32::MAX as u64), 32);
        assert_eq!(super::bit_width(u64::MAX), 64);
    }
}
