//! BYTE_STREAM_SPLIT for FLOAT, DOUBLE, INT32, INT64 and FIXED_LEN_BYTE_ARRAY: byte `k` of
//! every value goes to stream `k`, and the `K` streams of `n` bytes follow each other. The
//! size does not change, but compressors see slowly varying bytes (signs and exponents)
//! apart from noisy ones (low mantissa bits).
//!
//! ```
//! use parquet_serde::encoding::byte_stream_split::{decode, encode};
//! // Encodings.md: three 4-byte values AA BB CC DD, 00 11 22 33, A3 B4 C5 D6.
//! let plain = [0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6];
//! let mut page = Vec::new();
//! encode(&plain, 4, &mut page);
//! assert_eq!(page, [0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6]);
//! let mut back = Vec::new();
//! assert_eq!(decode(&page, 3, 4, &mut back).unwrap(), 12);
//! assert_eq!(back, plain);
//! ```
//!
//! The page holds no count: the number of values in the page is its size divided by `K`, so
//! a values section whose size is not a multiple of `K`, or that holds fewer than the
//! values asked for, is an error.

use super::plain::FixedWidth;
use crate::error::{Error, Result};

/// Appends the byte streams of `plain`: values of `width` bytes back to back (their PLAIN
/// form). A trailing partial value is ignored.
pub fn encode(plain: &[u8], width: usize, out: &mut Vec<u8>) {
    match width {
        0 => {}
        2 => encode_k::<2>(plain, out),
        4 => encode_k::<4>(plain, out),
        8 => encode_k::<8>(plain, out),
        _ => {
            let n = plain.len() / width;
            let start = out.len();
            out.resize(start + n * width, 0);
            let dst = &mut out[start..];
            for (s, stream) in dst.chunks_exact_mut(n.max(1)).enumerate().take(width) {
                for (d, v) in stream.iter_mut().zip(plain.chunks_exact(width)) {
                    *d = v[s];
                }
            }
        }
    }
}

fn encode_k<const K: usize>(plain: &[u8], out: &mut Vec<u8>) {
    let n = plain.len() / K;
    let start = out.len();
    out.resize(start + n * K, 0);
    let mut rest = &mut out[start..];
    let mut streams: [&mut [u8]; K] = std::array::from_fn(|_| {
        let (head, tail) = std::mem::take(&mut rest).split_at_mut(n);
        rest = tail;
        head
    });
    for (i, v) in plain.chunks_exact(K).enumerate() {
        for (s, stream) in streams.iter_mut().enumerate() {
            stream[i] = v[s];
        }
    }
}

/// Appends the byte streams of fixed-width values (FLOAT, DOUBLE, INT32, INT64).
pub fn encode_values<T: FixedWidth>(values: &[T], out: &mut Vec<u8>) {
    let mut plain = Vec::with_capacity(values.len() * T::WIDTH);
    super::plain::encode_fixed(values, &mut plain);
    encode(&plain, T::WIDTH, out);
}

/// Checks the size of a values section for `n` values of `width` bytes; returns the stream
/// length (the values in the section).
fn stride(input: &[u8], n: usize, width: usize) -> Result<usize> {
    if width == 0 {
        return Err(Error::corrupt("BYTE_STREAM_SPLIT of 0-byte values"));
    }
    if input.len() % width != 0 {
        return Err(Error::corrupt(format!(
            "BYTE_STREAM_SPLIT section of {} bytes is not a multiple of the {width}-byte values",
            input.len()
        )));
    }
    let stride = input.len() / width;
    if stride < n {
        return Err(Error::corrupt(format!(
            "BYTE_STREAM_SPLIT section holds {stride} values of {width} bytes, expected {n}"
        )));
    }
    Ok(stride)
}

/// Decodes the first `n` values of `width` bytes from the streams in `input` (the whole
/// values section), appending their PLAIN form to `out`; returns the bytes consumed (all of
/// `input`).
pub fn decode(input: &[u8], n: usize, width: usize, out: &mut Vec<u8>) -> Result<usize> {
    let stride = stride(input, n, width)?;
    let start = out.len();
    out.resize(start + n * width, 0);
    let dst = &mut out[start..];
    match width {
        2 => gather::<2>(input, stride, n, |i, b| {
            dst[i * 2..i * 2 + 2].copy_from_slice(&b)
        }),
        4 => gather::<4>(input, stride, n, |i, b| {
            dst[i * 4..i * 4 + 4].copy_from_slice(&b)
        }),
        8 => gather::<8>(input, stride, n, |i, b| {
            dst[i * 8..i * 8 + 8].copy_from_slice(&b)
        }),
        _ => {
            for s in 0..width {
                let stream = &input[s * stride..s * stride + n];
                for (d, &b) in dst.chunks_exact_mut(width).zip(stream) {
                    d[s] = b;
                }
            }
        }
    }
    Ok(input.len())
}

/// Decodes the first `n` fixed-width values (FLOAT, DOUBLE, INT32, INT64) from the streams
/// in `input`, appending them to `out`; returns the bytes consumed (all of `input`).
pub fn decode_values<T: FixedWidth>(input: &[u8], n: usize, out: &mut Vec<T>) -> Result<usize> {
    let stride = stride(input, n, T::WIDTH)?;
    out.reserve(n);
    match T::WIDTH {
        4 => gather::<4>(input, stride, n, |_, b| out.push(T::read_le(&b))),
        8 => gather::<8>(input, stride, n, |_, b| out.push(T::read_le(&b))),
        w => {
            let mut buf = vec![0u8; w];
            for i in 0..n {
                for (s, b) in buf.iter_mut().enumerate() {
                    *b = input[s * stride + i];
                }
                out.push(T::read_le(&buf));
            }
        }
    }
    Ok(input.len())
}

/// Calls `put(i, bytes of value i)` for the first `n` values of `K` streams of `stride`
/// bytes (`K * stride <= input.len()`, `n <= stride`).
#[inline(always)]
fn gather<const K: usize>(
    input: &[u8],
    stride: usize,
    n: usize,
    mut put: impl FnMut(usize, [u8; K]),
) {
    let streams: [&[u8]; K] = std::array::from_fn(|s| &input[s * stride..s * stride + n]);
    for i in 0..n {
        put(i, std::array::from_fn(|s| streams[s][i]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn floats_round_trip_with_special_values() {
        let v = [
            0.0f32,
            -0.0,
            f32::NAN,
            f32::INFINITY,
            f32::MIN_POSITIVE,
            -1.5,
            3.25e10,
        ];
        let mut page = Vec::new();
        encode_values(&v, &mut page);
        assert_eq!(page.len(), 28);
        let mut out: Vec<f32> = vec![];
        decode_values(&page, v.len(), &mut out).unwrap();
        let bits = |x: &[f32]| x.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&out), bits(&v));
        let d = [f64::NAN, -0.0, 1e300, -7.0, f64::MAX];
        let mut page = Vec::new();
        encode_values(&d, &mut page);
        let mut out: Vec<f64> = vec![];
        decode_values(&page, d.len(), &mut out).unwrap();
        assert_eq!(
            out.iter().map(|f| f.to_bits()).collect::<Vec<_>>(),
            d.iter().map(|f| f.to_bits()).collect::<Vec<_>>()
        );
        let ints = [i64::MIN, i64::MAX, 0, -1];
        let mut page = Vec::new();
        encode_values(&ints, &mut page);
        let mut out: Vec<i64> = vec![];
        decode_values(&page, 4, &mut out).unwrap();
        assert_eq!(out, ints);
    }

    #[test]
    fn fixed_widths() {
        for width in [1usize, 2, 3, 4, 8, 16] {
            let plain: Vec<u8> = (0..width * 37).map(|i| (i * 31 % 251) as u8).collect();
            let mut page = Vec::new();
            encode(&plain, width, &mut page);
            // Stream s holds byte s of every value.
            for i in 0..37 {
                for s in 0..width {
                    assert_eq!(page[s * 37 + i], plain[i * width + s]);
                }
            }
            let mut out = vec![];
            decode(&page, 37, width, &mut out).unwrap();
            assert_eq!(out, plain, "width {width}");
            // Fewer values than the section holds: the first ones.
            let mut out = vec![];
            decode(&page, 5, width, &mut out).unwrap();
            assert_eq!(out, &plain[..5 * width]);
        }
    }

    #[test]
    fn size_errors() {
        let e = decode(&[1, 2, 3], 1, 2, &mut vec![]).unwrap_err();
        assert!(e.to_string().contains("not a multiple"), "{e}");
        let e = decode_values::<f64>(&[0; 16], 3, &mut vec![]).unwrap_err();
        assert!(
            e.to_string()
                .contains("holds 2 values of 8 bytes, expected 3"),
            "{e}"
        );
        assert!(decode(&[], 0, 4, &mut vec![]).is_ok());
        assert!(decode(&[1], 0, 0, &mut vec![]).is_err());
    }

    proptest! {
        #[test]
        fn random_round_trip(v in proptest::collection::vec(any::<u64>(), 0..500)) {
            let mut page = Vec::new();
            encode_values(&v.iter().map(|&x| x as i64).collect::<Vec<_>>(), &mut page);
            let mut out: Vec<i64> = vec![];
            decode_values(&page, v.len(), &mut out).unwrap();
            prop_assert_eq!(out.iter().map(|&x| x as u64).collect::<Vec<_>>(), v);
        }

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..100), n in 0usize..50, w in 0usize..20) {
            let _ = decode(&bytes, n, w, &mut vec![]);
            let _ = decode_values::<f32>(&bytes, n, &mut vec![]);
        }
    }
}
