//! PLAIN encoding for every physical type.
//!
//! Decoders append `n` values to `out` and return the number of input bytes consumed;
//! input shorter than `n` values is an error, never a panic. On error `out` is left as it
//! was. Allocations are bounded by the input length, whatever `n` says.
//!
//! | type | layout |
//! |---|---|
//! | BOOLEAN | bit-packed, LSB first, `ceil(n / 8)` bytes |
//! | INT32, FLOAT | 4 bytes little endian |
//! | INT64, DOUBLE | 8 bytes little endian |
//! | INT96 | 12 bytes: three little-endian `u32` words |
//! | BYTE_ARRAY | 4-byte little-endian length, then the bytes |
//! | FIXED_LEN_BYTE_ARRAY | the bytes |

use crate::core::values::{ByteArrays, Int96};
use crate::error::{Error, Result};

/// A fixed-width little-endian physical type: i32, i64, f32, f64, Int96.
pub trait FixedWidth: Copy + Default + 'static {
    /// Bytes per value.
    const WIDTH: usize;

    /// Reads a value from exactly [`WIDTH`](Self::WIDTH) little-endian bytes.
    fn read_le(bytes: &[u8]) -> Self;

    /// Writes the value into exactly [`WIDTH`](Self::WIDTH) bytes, little endian.
    fn write_le(self, bytes: &mut [u8]);
}

macro_rules! fixed_width {
    ($($t:ty => $w:literal),*) => {$(
        impl FixedWidth for $t {
            const WIDTH: usize = $w;

            #[inline(always)]
            fn read_le(bytes: &[u8]) -> Self {
                let mut le = [0u8; $w];
                le.copy_from_slice(&bytes[..$w]);
                <$t>::from_le_bytes(le)
            }

            #[inline(always)]
            fn write_le(self, bytes: &mut [u8]) {
                bytes[..$w].copy_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}

fixed_width!(i32 => 4, i64 => 8, f32 => 4, f64 => 8);

impl FixedWidth for Int96 {
    const WIDTH: usize = 12;

    #[inline(always)]
    fn read_le(bytes: &[u8]) -> Self {
        Int96([
            i32::read_le(&bytes[0..4]) as u32,
            i32::read_le(&bytes[4..8]) as u32,
            i32::read_le(&bytes[8..12]) as u32,
        ])
    }

    #[inline(always)]
    fn write_le(self, bytes: &mut [u8]) {
        for (dst, word) in bytes[..12].chunks_exact_mut(4).zip(self.0) {
            dst.copy_from_slice(&word.to_le_bytes());
        }
    }
}

/// Appends `values` in PLAIN form (little endian).
pub fn encode_fixed<T: FixedWidth>(values: &[T], out: &mut Vec<u8>) {
    let start = out.len();
    out.resize(start + values.len() * T::WIDTH, 0);
    for (dst, &v) in out[start..].chunks_exact_mut(T::WIDTH).zip(values) {
        v.write_le(dst);
    }
}

/// Decodes `n` PLAIN values of a fixed-width type.
pub fn decode_fixed<T: FixedWidth>(input: &[u8], n: usize, out: &mut Vec<T>) -> Result<usize> {
    let nbytes = n
        .checked_mul(T::WIDTH)
        .filter(|&b| b <= input.len())
        .ok_or_else(|| short("PLAIN", n, T::WIDTH, input.len()))?;
    out.reserve(n);
    out.extend(input[..nbytes].chunks_exact(T::WIDTH).map(T::read_le));
    Ok(nbytes)
}

/// Appends booleans bit-packed, LSB first.
pub fn encode_boolean(values: &[bool], out: &mut Vec<u8>) {
    out.reserve(values.len().div_ceil(8));
    for chunk in values.chunks(8) {
        let byte = chunk
            .iter()
            .enumerate()
            .fold(0u8, |acc, (i, &b)| acc | (u8::from(b) << i));
        out.push(byte);
    }
}

/// Decodes `n` PLAIN booleans.
pub fn decode_boolean(input: &[u8], n: usize, out: &mut Vec<bool>) -> Result<usize> {
    decode_boolean_bits(input, 0, n, out)?;
    Ok(n.div_ceil(8))
}

/// Decodes `n` PLAIN booleans starting at bit `first_bit` of `input`, for readers that
/// decode a page in batches; returns the bit after the last value read.
pub fn decode_boolean_bits(
    input: &[u8],
    first_bit: usize,
    n: usize,
    out: &mut Vec<bool>,
) -> Result<usize> {
    let end_bit = first_bit
        .checked_add(n)
        .filter(|&end| end.div_ceil(8) <= input.len())
        .ok_or_else(|| {
            Error::corrupt(format!(
                "PLAIN booleans: {n} values from bit {first_bit} do not fit in {} bytes",
                input.len()
            ))
        })?;
    out.reserve(n);
    let mut bit = first_bit;
    // Up to the first byte boundary, then whole bytes, then the tail.
    while bit < end_bit && bit & 7 != 0 {
        out.push(input[bit / 8] >> (bit % 8) & 1 != 0);
        bit += 1;
    }
    let whole = (end_bit - bit) / 8;
    for &byte in &input[bit / 8..bit / 8 + whole] {
        out.extend_from_slice(&expand_byte(byte));
    }
    bit += whole * 8;
    while bit < end_bit {
        out.push(input[bit / 8] >> (bit % 8) & 1 != 0);
        bit += 1;
    }
    Ok(end_bit)
}

#[inline(always)]
fn expand_byte(b: u8) -> [bool; 8] {
    std::array::from_fn(|i| b >> i & 1 != 0)
}

/// Appends byte arrays, each as a 4-byte little-endian length and the bytes.
///
/// A value of 4 GiB or longer is an [`ErrorKind::InvalidArgument`](crate::ErrorKind) error
/// (PLAIN cannot store its length); the values before it stay appended to `out`.
pub fn encode_byte_array<'a>(
    values: impl Iterator<Item = &'a [u8]>,
    out: &mut Vec<u8>,
) -> Result<()> {
    for v in values {
        let len = u32::try_from(v.len()).map_err(|_| {
            Error::invalid_argument(format!(
                "a byte array of {} bytes: PLAIN stores lengths below 4 GiB",
                v.len()
            ))
        })?;
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(v);
    }
    Ok(())
}

/// Decodes `n` PLAIN byte arrays.
pub fn decode_byte_array(input: &[u8], n: usize, out: &mut ByteArrays) -> Result<usize> {
    // Every value takes at least its 4-byte length: check `n` before reserving for it.
    let min_bytes = n
        .checked_mul(4)
        .filter(|&b| b <= input.len())
        .ok_or_else(|| short("PLAIN BYTE_ARRAY", n, 4, input.len()))?;
    let start_values = out.offsets.len();
    let start_data = out.data.len();
    out.offsets.reserve(n);
    out.data.reserve(input.len() - min_bytes);
    let mut pos = 0usize;
    for i in 0..n {
        let value = input
            .get(pos..pos + 4)
            .map(|len| u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize)
            .and_then(|len| input.get(pos + 4..(pos + 4).checked_add(len)?));
        let Some(value) = value else {
            out.offsets.truncate(start_values);
            out.data.truncate(start_data);
            return Err(Error::corrupt(format!(
                "PLAIN BYTE_ARRAY value {i} of {n} at byte {pos} runs past the {} bytes of the page",
                input.len()
            ))
            .with_offset(pos as u64));
        };
        out.data.extend_from_slice(value);
        out.offsets.push(out.data.len());
        pos += 4 + value.len();
    }
    Ok(pos)
}

/// Decodes `n` fixed-length byte arrays of `width` bytes, appending to `out`.
pub fn decode_fixed_len_byte_array(
    input: &[u8],
    n: usize,
    width: usize,
    out: &mut Vec<u8>,
) -> Result<usize> {
    let nbytes = n
        .checked_mul(width)
        .filter(|&b| b <= input.len())
        .ok_or_else(|| short("PLAIN FIXED_LEN_BYTE_ARRAY", n, width, input.len()))?;
    out.extend_from_slice(&input[..nbytes]);
    Ok(nbytes)
}

fn short(what: &str, n: usize, width: usize, len: usize) -> Error {
    Error::corrupt(format!(
        "{what}: {n} values of {width} bytes do not fit in the {len} bytes of the page"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn fixed_bytes() {
        let mut out = Vec::new();
        encode_fixed(&[1i32, -2], &mut out);
        assert_eq!(out, [1, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF]);
        out.clear();
        encode_fixed(&[1.5f64], &mut out);
        assert_eq!(out, 1.5f64.to_le_bytes());
        out.clear();
        encode_fixed(&[Int96([1, 2, 3])], &mut out);
        assert_eq!(out, [1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]);
        let mut back = Vec::new();
        assert_eq!(decode_fixed::<Int96>(&out, 1, &mut back).unwrap(), 12);
        assert_eq!(back, [Int96([1, 2, 3])]);
    }

    #[test]
    fn booleans_lsb_first() {
        let values = [
            true, false, true, true, false, false, false, false, true, true,
        ];
        let mut out = Vec::new();
        encode_boolean(&values, &mut out);
        assert_eq!(out, [0b0000_1101, 0b0000_0011]);
        let mut back = Vec::new();
        assert_eq!(decode_boolean(&out, 10, &mut back).unwrap(), 2);
        assert_eq!(back, values);
        // In batches from a bit offset.
        let mut parts = Vec::new();
        let mut bit = 0;
        for k in [3, 1, 5, 1] {
            bit = decode_boolean_bits(&out, bit, k, &mut parts).unwrap();
        }
        assert_eq!(bit, 10);
        assert_eq!(parts, values);
        assert!(decode_boolean(&out, 17, &mut back).is_err());
        assert!(decode_boolean_bits(&out, usize::MAX, 2, &mut back).is_err());
    }

    /// A value of 4 GiB does not fit PLAIN's 4-byte length: an error, not a panic, with the
    /// values before it appended.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn byte_array_of_4_gib_is_an_error() {
        // Zeroed and never touched, so the 4 GiB stay virtual.
        let huge = vec![0u8; 1 << 32];
        let mut out = Vec::new();
        let err = encode_byte_array([&b"ok"[..], &huge[..]].into_iter(), &mut out).unwrap_err();
        assert_eq!(err.kind(), crate::ErrorKind::InvalidArgument);
        assert!(err.to_string().contains("4294967296 bytes"), "{err}");
        assert_eq!(out, [2, 0, 0, 0, b'o', b'k']);
    }

    #[test]
    fn byte_arrays() {
        let values: [&[u8]; 4] = [b"", b"a", b"parquet", &[0xFF; 300]];
        let mut page = Vec::new();
        encode_byte_array(values.iter().copied(), &mut page).unwrap();
        assert_eq!(&page[..9], &[0, 0, 0, 0, 1, 0, 0, 0, b'a']);
        let mut out = ByteArrays::new();
        out.push(b"before");
        assert_eq!(decode_byte_array(&page, 4, &mut out).unwrap(), page.len());
        assert_eq!(out.len(), 5);
        assert_eq!(out.iter().skip(1).collect::<Vec<_>>(), values);
        // Every truncation fails and leaves `out` alone.
        for cut in 0..page.len() {
            let mut out = ByteArrays::new();
            out.push(b"x");
            assert!(decode_byte_array(&page[..cut], 4, &mut out).is_err());
            assert_eq!(out.len(), 1);
            assert_eq!(out.data, b"x");
        }
        // A huge length or count.
        let mut out = ByteArrays::new();
        assert!(decode_byte_array(&[0xFF, 0xFF, 0xFF, 0xFF, 1], 1, &mut out).is_err());
        assert!(decode_byte_array(&page, usize::MAX, &mut out).is_err());
        assert_eq!(out.len(), 0);
    }

    #[test]
    fn fixed_len_byte_arrays() {
        let mut out = vec![7];
        assert_eq!(
            decode_fixed_len_byte_array(&[1, 2, 3, 4, 5], 2, 2, &mut out).unwrap(),
            4
        );
        assert_eq!(out, [7, 1, 2, 3, 4]);
        assert!(decode_fixed_len_byte_array(&[1, 2, 3], 2, 2, &mut out).is_err());
        assert!(decode_fixed_len_byte_array(&[1, 2, 3], usize::MAX, 2, &mut out).is_err());
        assert_eq!(decode_fixed_len_byte_array(&[], 5, 0, &mut out).unwrap(), 0);
    }

    fn round_trip<T: FixedWidth + PartialEq + std::fmt::Debug>(values: &[T]) {
        let mut page = Vec::new();
        encode_fixed(values, &mut page);
        assert_eq!(page.len(), values.len() * T::WIDTH);
        let mut back: Vec<T> = Vec::new();
        assert_eq!(
            decode_fixed(&page, values.len(), &mut back).unwrap(),
            page.len()
        );
        assert_eq!(back, values);
        for cut in 0..page.len() {
            let mut back = Vec::new();
            assert!(decode_fixed::<T>(&page[..cut], values.len(), &mut back).is_err());
            assert!(back.is_empty());
        }
    }

    proptest! {
        #[test]
        fn fixed_round_trips(
            a in prop::collection::vec(any::<i32>(), 0..50),
            b in prop::collection::vec(any::<i64>(), 0..50),
            c in prop::collection::vec(any::<u32>(), 0..50),
            d in prop::collection::vec(any::<u64>(), 0..50),
            e in prop::collection::vec(any::<[u32; 3]>(), 0..50),
        ) {
            round_trip(&a);
            round_trip(&b);
            // Floats by bit pattern (NaN != NaN).
            let f: Vec<f32> = c.iter().map(|&x| f32::from_bits(x)).collect();
            let mut page = Vec::new();
            encode_fixed(&f, &mut page);
            let mut back: Vec<f32> = Vec::new();
            decode_fixed(&page, f.len(), &mut back).unwrap();
            prop_assert!(back.iter().map(|x| x.to_bits()).eq(c.iter().copied()));
            let g: Vec<f64> = d.iter().map(|&x| f64::from_bits(x)).collect();
            page.clear();
            encode_fixed(&g, &mut page);
            let mut back: Vec<f64> = Vec::new();
            decode_fixed(&page, g.len(), &mut back).unwrap();
            prop_assert!(back.iter().map(|x| x.to_bits()).eq(d.iter().copied()));
            let h: Vec<Int96> = e.into_iter().map(Int96).collect();
            round_trip(&h);
        }

        #[test]
        fn boolean_round_trip(values in prop::collection::vec(any::<bool>(), 0..100), start in 0usize..16) {
            let mut page = Vec::new();
            encode_boolean(&values, &mut page);
            prop_assert_eq!(page.len(), values.len().div_ceil(8));
            let mut back = Vec::new();
            prop_assert_eq!(decode_boolean(&page, values.len(), &mut back).unwrap(), page.len());
            prop_assert_eq!(&back, &values);
            let start = start.min(values.len());
            back.clear();
            decode_boolean_bits(&page, start, values.len() - start, &mut back).unwrap();
            prop_assert_eq!(&back[..], &values[start..]);
        }

        #[test]
        fn byte_array_garbage(data in prop::collection::vec(any::<u8>(), 0..100), n in 0usize..40) {
            let mut out = ByteArrays::new();
            if let Ok(used) = decode_byte_array(&data, n, &mut out) {
                prop_assert!(used <= data.len());
                prop_assert_eq!(out.len(), n);
            } else {
                prop_assert_eq!(out.len(), 0);
            }
        }
    }
}

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn decode_fixed_example() {
        use crate::core::encoding::plain::decode_fixed;
        let mut out: Vec<i32> = Vec::new();
        assert_eq!(
            decode_fixed(&[1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 9], 2, &mut out).unwrap(),
            8
        );
        assert_eq!(out, [1, -1]);
    }

    #[test]
    fn decode_byte_array_example() {
        use crate::core::encoding::plain::decode_byte_array;
        use crate::core::values::ByteArrays;
        let mut out = ByteArrays::new();
        let page = [2, 0, 0, 0, b'h', b'i', 0, 0, 0, 0];
        assert_eq!(decode_byte_array(&page, 2, &mut out).unwrap(), 10);
        assert_eq!(out.get(0), b"hi");
        assert_eq!(out.get(1), b"");
    }
}
