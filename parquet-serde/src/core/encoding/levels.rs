//! Definition and repetition level sections of data pages.
//!
//! - Data page v1: each section is either RLE (the hybrid encoding behind a 4-byte
//!   little-endian length) or the deprecated BIT_PACKED (`ceil(n * bit_width / 8)` bytes, no
//!   prefix), as the page header's level encoding says.
//! - Data page v2: each section is the hybrid encoding without a prefix; its length is in
//!   the page header.
//!
//! The bit width is `bit_width(max_level)`. Decoders check that every level is at most
//! `max_level` and fail ([`ErrorKind::Corrupt`](crate::ErrorKind::Corrupt)) on short data.

use super::rle::{decode_chunked, RleDecoder, RleEncoder};
use super::{bit_packed, bit_width};
use crate::core::format::Encoding;
use crate::error::{Error, Result};

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
    let width = level_width(max_level)?;
    if max_level == 0 {
        return Ok(0);
    }
    let start = out.len();
    let result = match encoding {
        Encoding::Rle => {
            let (len, body) = input
                .split_first_chunk::<4>()
                .ok_or_else(|| Error::corrupt("RLE levels: the 4-byte length is missing"))?;
            let len = u32::from_le_bytes(*len) as usize;
            let data = body.get(..len).ok_or_else(|| {
                Error::corrupt(format!(
                    "RLE levels: length {len} runs past the {} bytes of the page",
                    body.len()
                ))
            })?;
            decode_rle(data, width, max_level, n, out).map(|()| 4 + len)
        }
        Encoding::BitPacked => bit_packed::decode_levels(input, width, n, out).and_then(|used| {
            check_max(&out[start..], max_level, width)?;
            Ok(used)
        }),
        other => Err(Error::corrupt(format!(
            "{other:?} is not an encoding of levels"
        ))),
    };
    if result.is_err() {
        out.truncate(start);
    }
    result
}

/// Decodes a v2 level section (RLE, no length prefix, exactly `input`): `n` levels.
///
/// With `max_level == 0` nothing is read or written.
pub fn decode_v2(input: &[u8], max_level: i16, n: usize, out: &mut Vec<i16>) -> Result<()> {
    let width = level_width(max_level)?;
    if max_level == 0 {
        return Ok(());
    }
    let start = out.len();
    let result = decode_rle(input, width, max_level, n, out);
    if result.is_err() {
        out.truncate(start);
    }
    result
}

/// Encodes levels for `max_level` as RLE: with the 4-byte length prefix when `v1_prefix`.
///
/// A negative `max_level` is taken as 0; levels are expected in `0..=max_level` (bits
/// above the width are dropped).
pub fn encode_rle(levels: &[i16], max_level: i16, v1_prefix: bool, out: &mut Vec<u8>) {
    let width = bit_width(max_level.max(0) as u64);
    let mut buffer = std::mem::take(out);
    let prefix_at = buffer.len();
    if v1_prefix {
        buffer.extend_from_slice(&[0; 4]);
    }
    let mut encoder = RleEncoder::with_buffer(width, buffer);
    encoder.put_i16(levels);
    *out = encoder.finish();
    if v1_prefix {
        // A page is far below 4 GiB (page sizes are i32 in the page header).
        let len = (out.len() - prefix_at - 4) as u32;
        out[prefix_at..prefix_at + 4].copy_from_slice(&len.to_le_bytes());
    }
}

/// The bit width of levels up to `max_level`; negative maxima are a caller bug.
fn level_width(max_level: i16) -> Result<u8> {
    if max_level < 0 {
        return Err(Error::invalid_argument(format!(
            "negative max level {max_level}"
        )));
    }
    Ok(bit_width(max_level as u64))
}

fn decode_rle(data: &[u8], width: u8, max_level: i16, n: usize, out: &mut Vec<i16>) -> Result<()> {
    decode_chunked(RleDecoder::new(data, width), n, out, |chunk| {
        check_max(chunk, max_level, width)
    })
    .map_err(|e| e.context("levels"))
}

/// Fails if a level exceeds `max_level` (possible only when `max_level` is not all ones).
fn check_max(levels: &[i16], max_level: i16, width: u8) -> Result<()> {
    if i32::from(max_level) == (1i32 << width) - 1 {
        return Ok(());
    }
    let max = levels.iter().fold(0i16, |m, &v| m.max(v));
    if max > max_level {
        return Err(Error::corrupt(format!(
            "level {max} is above the max level {max_level}"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;
    use proptest::prelude::*;

    #[test]
    fn v1_rle_with_prefix() {
        let levels = [0, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0];
        let mut page = vec![0xEE];
        encode_rle(&levels, 1, true, &mut page);
        let body_len = u32::from_le_bytes(page[1..5].try_into().unwrap()) as usize;
        assert_eq!(page.len(), 5 + body_len);
        page.extend_from_slice(b"values");
        let mut out = Vec::new();
        let used = decode_v1(Encoding::Rle, &page[1..], 1, levels.len(), &mut out).unwrap();
        assert_eq!(used, 4 + body_len);
        assert_eq!(out, levels);
    }

    #[test]
    fn v1_bit_packed() {
        // Encodings.md: 30 values of 2 bits in 8 bytes.
        let levels: Vec<i16> = (0..30).map(|i| i % 4).collect();
        let mut page = Vec::new();
        bit_packed::encode_levels(&levels, 2, &mut page);
        page.push(0x99);
        let mut out = Vec::new();
        assert_eq!(
            decode_v1(Encoding::BitPacked, &page, 3, 30, &mut out).unwrap(),
            8
        );
        assert_eq!(out, levels);
        // Levels above max_level 2 (width 2) are corrupt.
        out.clear();
        let err = decode_v1(Encoding::BitPacked, &page, 2, 30, &mut out).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Corrupt);
        assert!(out.is_empty());
    }

    #[test]
    fn v2_without_prefix() {
        let levels: Vec<i16> = (0..1000).map(|i| (i % 3) as i16).collect();
        let mut page = Vec::new();
        encode_rle(&levels, 2, false, &mut page);
        let mut out = Vec::new();
        decode_v2(&page, 2, levels.len(), &mut out).unwrap();
        assert_eq!(out, levels);
        assert!(decode_v2(&page, 2, levels.len() + 8, &mut out).is_err());
        assert_eq!(out, levels);
    }

    #[test]
    fn max_level_zero_reads_nothing() {
        let mut out = Vec::new();
        assert_eq!(decode_v1(Encoding::Rle, &[], 0, 10, &mut out).unwrap(), 0);
        decode_v2(&[1, 2, 3], 0, 10, &mut out).unwrap();
        assert!(out.is_empty());
    }

    #[test]
    fn bad_sections() {
        let mut out = Vec::new();
        // Missing or oversized length prefix.
        assert!(decode_v1(Encoding::Rle, &[1, 0], 1, 1, &mut out).is_err());
        assert!(decode_v1(Encoding::Rle, &[9, 0, 0, 0, 0x02, 0x01], 1, 1, &mut out).is_err());
        assert!(decode_v1(Encoding::Rle, &[0xFF; 4], 1, 1, &mut out).is_err());
        // Fewer levels than asked.
        assert!(decode_v1(Encoding::Rle, &[2, 0, 0, 0, 0x02, 0x01], 1, 2, &mut out).is_err());
        // A level above the max (3 with max 2, width 2).
        assert!(decode_v2(&[0x02, 0x03], 2, 1, &mut out).is_err());
        // Not a level encoding.
        assert!(decode_v1(Encoding::Plain, &[0; 8], 1, 1, &mut out).is_err());
        // Negative max level.
        assert_eq!(
            decode_v2(&[], -1, 1, &mut out).unwrap_err().kind(),
            ErrorKind::InvalidArgument
        );
        assert!(out.is_empty());
        // A huge count does not allocate it up front.
        assert!(decode_v2(&[0x02, 0x01], 1, usize::MAX, &mut out).is_err());
        assert!(out.capacity() <= 64 * 1024);
    }

    proptest! {
        #[test]
        fn round_trip(max in 0i16..=i16::MAX, raw in prop::collection::vec(any::<u16>(), 0..500), runs in any::<bool>()) {
            let levels: Vec<i16> = raw
                .iter()
                .enumerate()
                .map(|(i, &v)| {
                    let v = if runs { raw[i / 50] } else { v };
                    (v % (max as u16 + 1)) as i16
                })
                .collect();
            let mut v1 = Vec::new();
            encode_rle(&levels, max, true, &mut v1);
            let mut v2 = Vec::new();
            encode_rle(&levels, max, false, &mut v2);
            let mut out = Vec::new();
            if max > 0 {
                prop_assert_eq!(decode_v1(Encoding::Rle, &v1, max, levels.len(), &mut out).unwrap(), v1.len());
                prop_assert_eq!(&out, &levels);
                out.clear();
                decode_v2(&v2, max, levels.len(), &mut out).unwrap();
                prop_assert_eq!(&out, &levels);
                for cut in 0..v1.len() {
                    let mut out = Vec::new();
                    prop_assert!(decode_v1(Encoding::Rle, &v1[..cut], max, levels.len(), &mut out).is_err());
                    prop_assert!(out.is_empty());
                }
                for cut in 0..v2.len() {
                    // Cutting only padding may leave every level: then they must be right.
                    let mut out = Vec::new();
                    if decode_v2(&v2[..cut], max, levels.len(), &mut out).is_ok() {
                        prop_assert_eq!(&out, &levels);
                    } else {
                        prop_assert!(out.is_empty());
                    }
                }
            }
        }
    }
}

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn decode_v1_example() {
        use crate::core::encoding::levels::decode_v1;
        use crate::core::format::Encoding;
        // Length 2, then an RLE run of 5 ones; the values follow.
        let page = [2, 0, 0, 0, 0x0A, 0x01, 0xAA, 0xBB];
        let mut levels = Vec::new();
        assert_eq!(
            decode_v1(Encoding::Rle, &page, 1, 5, &mut levels).unwrap(),
            6
        );
        assert_eq!(levels, [1, 1, 1, 1, 1]);
    }
}
