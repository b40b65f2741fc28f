//! The deprecated BIT_PACKED level encoding (MSB first).
//!
//! Values are packed back to back from the most significant bit of each byte, with no
//! length prefix and no run headers; the last byte is padded with zeros. `n` values of
//! `w` bits take exactly `ceil(n * w / 8)` bytes. Only old writers emit it, for levels.

use crate::error::{Error, Result};

/// Widest level this decoder takes (levels are `i16` and non-negative).
const MAX_WIDTH: u8 = 15;

/// Decodes `n` levels `bit_width` bits wide; returns bytes consumed.
///
/// Fails when the input holds fewer than `ceil(n * bit_width / 8)` bytes, or when
/// `bit_width` is above 15.
pub fn decode_levels(input: &[u8], bit_width: u8, n: usize, out: &mut Vec<i16>) -> Result<usize> {
    if bit_width > MAX_WIDTH {
        return Err(Error::corrupt(format!(
            "BIT_PACKED level width {bit_width} is above {MAX_WIDTH}"
        )));
    }
    let w = bit_width as usize;
    let nbytes = n
        .checked_mul(w)
        .map(|bits| bits.div_ceil(8))
        .filter(|&b| b <= input.len())
        .ok_or_else(|| {
            Error::corrupt(format!(
                "BIT_PACKED: {n} levels of {w} bits do not fit in {} bytes",
                input.len()
            ))
        })?;
    if w == 0 {
        // No bytes to read, so nothing bounds `n` but the caller: grow as usual.
        out.resize(out.len() + n, 0);
        return Ok(0);
    }
    // `n <= input.len() * 8`, so this reservation is bounded by the input.
    out.reserve(n);
    let data = &input[..nbytes];
    let mask = (1u128 << w) - 1;
    // 8 values of w bits are exactly w bytes: read them as one big-endian number.
    let mut groups = data.chunks_exact(w);
    let full = n / 8;
    for group in groups.by_ref().take(full) {
        let word = be_word(group);
        let top = 8 * w;
        out.extend((1..=8).map(|j| ((word >> (top - j * w)) & mask) as i16));
    }
    let tail = n - full * 8;
    if tail > 0 {
        let rest = &data[full * w..];
        let word = be_word(rest);
        // `rest` holds fewer than w bytes: shift as if the group were complete.
        let word = word << (8 * (w - rest.len()));
        let top = 8 * w;
        out.extend((1..=tail).map(|j| ((word >> (top - j * w)) & mask) as i16));
    }
    Ok(nbytes)
}

/// Appends `levels` as `bit_width`-bit values, MSB first (for writers of old files and for
/// tests; new files use the RLE hybrid). Bits above the width are dropped.
#[cfg(test)]
pub fn encode_levels(levels: &[i16], bit_width: u8, out: &mut Vec<u8>) {
    let w = u32::from(bit_width.min(MAX_WIDTH));
    let mask = (1u32 << w) - 1;
    let mut acc = 0u32;
    let mut bits = 0u32;
    for &level in levels {
        acc = (acc << w) | (level as u32 & mask);
        bits += w;
        while bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
        acc &= (1 << bits) - 1;
    }
    if bits > 0 {
        out.push((acc << (8 - bits)) as u8);
    }
}

/// Big-endian number from up to 16 bytes.
#[inline]
fn be_word(bytes: &[u8]) -> u128 {
    bytes
        .iter()
        .fold(0u128, |acc, &b| (acc << 8) | u128::from(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn spec_example() {
        let mut out = Vec::new();
        encode_levels(&[0, 1, 2, 3, 4, 5, 6, 7], 3, &mut out);
        assert_eq!(out, [0b0000_0101, 0b0011_1001, 0b0111_0111]);
    }

    #[test]
    fn spec_size_30_values_2_bits() {
        // Encodings.md: 30 values of 2 bits take 8 bytes.
        let levels: Vec<i16> = (0..30).map(|i| i % 4).collect();
        let mut bytes = Vec::new();
        encode_levels(&levels, 2, &mut bytes);
        assert_eq!(bytes.len(), 8);
        let mut out = Vec::new();
        assert_eq!(decode_levels(&bytes, 2, 30, &mut out).unwrap(), 8);
        assert_eq!(out, levels);
    }

    #[test]
    fn short_input_and_bad_width() {
        let mut out = vec![3];
        assert!(decode_levels(&[0xFF], 3, 3, &mut out).is_err());
        assert!(decode_levels(&[0xFF; 4], 16, 1, &mut out).is_err());
        assert!(decode_levels(&[0xFF], 1, usize::MAX, &mut out).is_err());
        assert_eq!(out, [3]);
        assert_eq!(decode_levels(&[], 0, 4, &mut out).unwrap(), 0);
        assert_eq!(out, [3, 0, 0, 0, 0]);
    }

    proptest! {
        #[test]
        fn round_trip(w in 0u8..=15, raw in prop::collection::vec(any::<i16>(), 0..300)) {
            let mask = ((1u32 << w) - 1) as i16;
            let levels: Vec<i16> = raw.iter().map(|&v| v & mask).collect();
            let mut bytes = Vec::new();
            encode_levels(&levels, w, &mut bytes);
            prop_assert_eq!(bytes.len(), (levels.len() * w as usize).div_ceil(8));
            let mut out = Vec::new();
            prop_assert_eq!(decode_levels(&bytes, w, levels.len(), &mut out).unwrap(), bytes.len());
            prop_assert_eq!(&out, &levels);
            for cut in 0..bytes.len() {
                let mut out = Vec::new();
                prop_assert!(decode_levels(&bytes[..cut], w, levels.len(), &mut out).is_err());
            }
        }
    }
}

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn decode_levels_example() {
        use crate::core::encoding::bit_packed::decode_levels;
        // Encodings.md: 0..=7 with bit width 3.
        let mut out = Vec::new();
        let used = decode_levels(&[0b0000_0101, 0b0011_1001, 0b0111_0111], 3, 8, &mut out).unwrap();
        assert_eq!(used, 3);
        assert_eq!(out, [0, 1, 2, 3, 4, 5, 6, 7]);
    }
}
