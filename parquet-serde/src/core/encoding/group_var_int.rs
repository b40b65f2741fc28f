//! GROUP_VAR_INT for INT32 and INT64 (`GROUP_VAR_INT = 1` in parquet.thrift, where it is
//! commented out as never used): written only for a column that asks for it, and read by no
//! other implementation.
//!
//! The layout is the one the project's seed documents describe:
//! - 32-bit values go in groups of 4 behind one header byte holding 2 bits per value, the
//!   first value's in the top bits: each is the value's byte count minus 1. The values follow
//!   in order, each in that many little-endian bytes (the fewest that hold its 32 bits, at
//!   least 1). Header `0b00_10_11_01` announces values of 1, 3, 4 and 2 bytes: 11 bytes in all.
//! - 64-bit values go in groups of 5 behind 2 header bytes. The seed leaves their order open;
//!   our reading: the 2 bytes are a big-endian 16-bit number whose top bit is unused (written
//!   0, ignored when read), holding five 3-bit byte counts minus 1 taken from the top down
//!   (bits 14-12 for the first value, ..., bits 2-0 for the fifth), as the 32-bit header's
//!   2-bit counts are.
//! - A last group with fewer values is written whole, zeros filling it (`1, 2, 3, 4, 5` is
//!   written as `1, 2, 3, 4, 5, 0, 0, 0`); the reader takes the page's value count and drops
//!   the padding.

use crate::core::format::Encoding;
use crate::error::{Error, Result};

/// The GROUP_VAR_INT encoding (thrift value 1), which [`Encoding`] keeps as `Unknown(1)`.
pub const GROUP_VAR_INT: Encoding = Encoding::Unknown(1);

/// Whether `encoding` is GROUP_VAR_INT (by its thrift value).
pub fn is_group_var_int(encoding: Encoding) -> bool {
    encoding.to_i32() == 1
}

/// The integer widths GROUP_VAR_INT encodes.
pub trait GroupInt: Copy + Default {
    /// Values in a group.
    const GROUP: usize;
    /// Header bytes of a group.
    const HEADER: usize;
    /// Bits of one length in the header.
    const LENGTH_BITS: u32;
    /// The value's bits, zero-extended.
    fn to_bits(self) -> u64;
    /// The value of these bits (its width's low bits).
    fn from_bits(bits: u64) -> Self;
}

impl GroupInt for i32 {
    const GROUP: usize = 4;
    const HEADER: usize = 1;
    const LENGTH_BITS: u32 = 2;
    fn to_bits(self) -> u64 {
        self as u32 as u64
    }
    fn from_bits(bits: u64) -> Self {
        bits as u32 as i32
    }
}

impl GroupInt for i64 {
    const GROUP: usize = 5;
    const HEADER: usize = 2;
    const LENGTH_BITS: u32 = 3;
    fn to_bits(self) -> u64 {
        self as u64
    }
    fn from_bits(bits: u64) -> Self {
        bits as i64
    }
}

/// Bytes that hold `bits` (1 to 8).
fn byte_len(bits: u64) -> usize {
    (((64 - bits.leading_zeros()) as usize).div_ceil(8)).max(1)
}

/// Appends `values` to `out`, the last group padded with zeros.
pub fn encode<T: GroupInt>(values: &[T], out: &mut Vec<u8>) {
    let groups = values.len().div_ceil(T::GROUP);
    out.reserve(groups * (T::HEADER + T::GROUP * 8));
    let top = T::HEADER as u32 * 8 - T::LENGTH_BITS - (T::HEADER as u32 - 1);
    for g in 0..groups {
        let mut group = [0u64; 5];
        let part = &values[g * T::GROUP..values.len().min((g + 1) * T::GROUP)];
        for (slot, v) in group.iter_mut().zip(part) {
            *slot = v.to_bits();
        }
        let mut header = 0u16;
        let header_at = out.len();
        out.extend_from_slice(&[0; 2][..T::HEADER]);
        for (j, &bits) in group[..T::GROUP].iter().enumerate() {
            let len = byte_len(bits);
            header |= ((len - 1) as u16) << (top - j as u32 * T::LENGTH_BITS);
            out.extend_from_slice(&bits.to_le_bytes()[..len]);
        }
        if T::HEADER == 1 {
            out[header_at] = header as u8;
        } else {
            out[header_at..header_at + 2].copy_from_slice(&header.to_be_bytes());
        }
    }
}

/// Decodes `n` values from `input`, appending to `out`; returns the bytes read (whole
/// groups). A header or a value past the end of `input` is an error naming its offset.
pub fn decode<T: GroupInt>(input: &[u8], n: usize, out: &mut Vec<T>) -> Result<usize> {
    let groups = n.div_ceil(T::GROUP);
    // Every group takes at least a header and a byte per value: a count the input cannot
    // hold fails before anything is allocated for it.
    let least = groups.saturating_mul(T::HEADER + T::GROUP);
    if least > input.len() {
        return Err(Error::corrupt(format!(
            "GROUP_VAR_INT: {n} values need at least {least} bytes, the page has {}",
            input.len()
        )));
    }
    out.reserve(n);
    let top = T::HEADER as u32 * 8 - T::LENGTH_BITS - (T::HEADER as u32 - 1);
    let mask = (1u16 << T::LENGTH_BITS) - 1;
    let mut pos = 0;
    let mut left = n;
    for _ in 0..groups {
        let header = match input.get(pos..pos + T::HEADER) {
            Some(&[one]) => one as u16,
            Some(&[high, low]) => u16::from_be_bytes([high, low]),
            _ => {
                return Err(Error::corrupt(format!(
                    "GROUP_VAR_INT: the group header at byte {pos} is past the end of the {} \
                     bytes of values",
                    input.len()
                )))
            }
        };
        let group_at = pos;
        pos += T::HEADER;
        for j in 0..T::GROUP {
            let len = ((header >> (top - j as u32 * T::LENGTH_BITS)) & mask) as usize + 1;
            let Some(bytes) = input.get(pos..pos + len) else {
                return Err(Error::corrupt(format!(
                    "GROUP_VAR_INT: value {j} of the group at byte {group_at} has {len} bytes \
                     from byte {pos}, past the end of the {} bytes of values",
                    input.len()
                )));
            };
            if left > 0 {
                let mut le = [0u8; 8];
                le[..len].copy_from_slice(bytes);
                out.push(T::from_bits(u64::from_le_bytes(le)));
                left -= 1;
            }
            pos += len;
        }
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_example_32() {
        // The seed's header 0b00101101: values of 1, 3, 4 and 2 bytes, 11 bytes in all.
        let values = [0xFF_i32, 0xFF_FFFF, -1, 0xFFFF];
        let mut out = Vec::new();
        encode(&values, &mut out);
        assert_eq!(out[0], 0b0010_1101);
        assert_eq!(out.len(), 11);
        assert_eq!(&out[1..], &[0xFF; 10]);
        let mut back = Vec::new();
        assert_eq!(decode::<i32>(&out, 4, &mut back).unwrap(), 11);
        assert_eq!(back, values);
        // The value starts the seed lists: bytes 1, 2, 5 and 9.
        let values = [0x11_i32, 0x33_2222, 0x4444_4444, 0x5555];
        let mut out = Vec::new();
        encode(&values, &mut out);
        assert_eq!(
            out,
            [0x2D, 0x11, 0x22, 0x22, 0x33, 0x44, 0x44, 0x44, 0x44, 0x55, 0x55]
        );
    }

    #[test]
    fn seed_padding_example() {
        // (1, 2, 3, 4, 5) is written as (1, 2, 3, 4, 5, 0, 0, 0): two groups back to back.
        let mut out = Vec::new();
        encode(&[1i32, 2, 3, 4, 5], &mut out);
        assert_eq!(out, [0, 1, 2, 3, 4, 0, 5, 0, 0, 0]);
        let mut back = Vec::new();
        assert_eq!(decode::<i32>(&out, 5, &mut back).unwrap(), 10);
        assert_eq!(back, [1, 2, 3, 4, 5]);
    }

    #[test]
    fn header_64_is_big_endian_from_the_top() {
        // Lengths 1, 2, 8, 3, 1: 3-bit fields 000 001 111 010 000 from bit 14 down.
        let values = [7i64, 0x1234, -1, 0x0A_0000, 0];
        let mut out = Vec::new();
        encode(&values, &mut out);
        let header: u16 = 0b0_000_001_111_010_000;
        assert_eq!(&out[..2], &header.to_be_bytes());
        assert_eq!(out.len(), 2 + 1 + 2 + 8 + 3 + 1);
        assert_eq!(&out[2..5], &[7, 0x34, 0x12]);
        let mut back = Vec::new();
        decode::<i64>(&out, 5, &mut back).unwrap();
        assert_eq!(back, values);
        // The unused top bit is ignored.
        out[0] |= 0x80;
        let mut back = Vec::new();
        decode::<i64>(&out, 5, &mut back).unwrap();
        assert_eq!(back, values);
    }

    fn sample32(n: usize) -> Vec<i32> {
        (0..n as i64)
            .map(|i| ((i * 0x9E37_79B9i64) >> (i % 31)) as i32 ^ -((i % 3 == 0) as i32))
            .collect()
    }

    #[test]
    fn round_trips_at_every_group_remainder() {
        for n in 0..=23 {
            let v32 = sample32(n);
            let mut out = Vec::new();
            encode(&v32, &mut out);
            let mut back = Vec::new();
            assert_eq!(decode::<i32>(&out, n, &mut back).unwrap(), out.len());
            assert_eq!(back, v32, "INT32, {n} values");
            let v64: Vec<i64> = (0..n as i64)
                .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15u64 as i64) >> (i % 63))
                .chain([i64::MIN, i64::MAX, 0, -1])
                .take(n)
                .collect();
            let mut out = Vec::new();
            encode(&v64, &mut out);
            let mut back = Vec::new();
            assert_eq!(decode::<i64>(&out, n, &mut back).unwrap(), out.len());
            assert_eq!(back, v64, "INT64, {n} values");
        }
    }

    #[test]
    fn bad_input_is_an_error_naming_the_offset() {
        let mut out = Vec::new();
        encode(&sample32(8), &mut out);
        for cut in 0..out.len() {
            let err = decode::<i32>(&out[..cut], 8, &mut Vec::new()).unwrap_err();
            assert!(err.to_string().contains("GROUP_VAR_INT"), "{err}");
        }
        // A header announcing more bytes than there are.
        let err = decode::<i32>(&[0xFF, 1, 2, 3, 4, 5, 6, 7], 4, &mut Vec::new()).unwrap_err();
        assert!(err.to_string().contains("from byte 5"), "{err}");
        // A count no input of this size holds fails before allocating.
        assert!(decode::<i64>(&[0; 16], usize::MAX, &mut Vec::new()).is_err());
    }
}
