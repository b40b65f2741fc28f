//! BYTE_STREAM_SPLIT for FLOAT, DOUBLE, INT32, INT64 and FIXED_LEN_BYTE_ARRAY: byte `k` of
//! every value goes to stream `k`, and the `K` streams of `n` bytes follow each other. The
//! size does not change, but compressors see slowly varying bytes (signs and exponents)
//! apart from noisy ones (low mantissa bits).
//!
//! The page holds no count: the number of values in the page is its size divided by `K`, so
//! a values section whose size is not a multiple of `K`, or that holds fewer than the
//! values asked for, is an error.

use super::plain::FixedWidth;
use crate::error::{Error, Result};

/// Appends the byte streams of `plain`: values of `width` bytes back to back (their PLAIN
/// form). A trailing partial value is ignored.
pub fn encode(plain: &[u8], width: usize, out: &mut Vec<u8>) {
    if width == 0 {
        return;
    }
    let n = plain.len() / width;
    let plain = &plain[..n * width];
    let start = out.len();
    out.resize(start + n * width, 0);
    let dst = &mut out[start..];
    match width {
        2 => {
            let (d0, d1) = dst.split_at_mut(n);
            for ((v, a), b) in plain.chunks_exact(2).zip(d0).zip(d1) {
                *a = v[0];
                *b = v[1];
            }
        }
        4 => scatter4(
            plain.chunks_exact(4).map(|v| [v[0], v[1], v[2], v[3]]),
            n,
            dst,
        ),
        8 => scatter8(
            plain
                .chunks_exact(8)
                .map(|v| u64::from_le_bytes([v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]])),
            n,
            dst,
        ),
        _ => {
            for (s, stream) in dst.chunks_exact_mut(n.max(1)).enumerate().take(width) {
                for (d, v) in stream.iter_mut().zip(plain.chunks_exact(width)) {
                    *d = v[s];
                }
            }
        }
    }
}

/// Appends the byte streams of fixed-width values (FLOAT, DOUBLE, INT32, INT64).
pub fn encode_values<T: FixedWidth>(values: &[T], out: &mut Vec<u8>) {
    let n = values.len();
    let start = out.len();
    match T::WIDTH {
        4 => {
            out.resize(start + 4 * n, 0);
            scatter4(values.iter().map(|&v| le::<T, 4>(v)), n, &mut out[start..]);
        }
        8 => {
            out.resize(start + 8 * n, 0);
            let words = values.iter().map(|&v| u64::from_le_bytes(le::<T, 8>(v)));
            scatter8(words, n, &mut out[start..]);
        }
        _ => {
            let mut plain = Vec::with_capacity(n * T::WIDTH);
            super::plain::encode_fixed(values, &mut plain);
            encode(&plain, T::WIDTH, out);
        }
    }
}

/// The little-endian bytes of a value of `K` bytes.
#[inline(always)]
fn le<T: FixedWidth, const K: usize>(v: T) -> [u8; K] {
    let mut b = [0u8; K];
    v.write_le(&mut b);
    b
}

/// Writes `n` values of 4 bytes into the 4 streams of `dst` (`4 * n` bytes).
#[inline(always)]
fn scatter4(values: impl Iterator<Item = [u8; 4]>, n: usize, dst: &mut [u8]) {
    let (d0, rest) = dst.split_at_mut(n);
    let (d1, rest) = rest.split_at_mut(n);
    let (d2, d3) = rest.split_at_mut(n);
    for ((((v, a), b), c), d) in values.zip(d0).zip(d1).zip(d2).zip(d3) {
        *a = v[0];
        *b = v[1];
        *c = v[2];
        *d = v[3];
    }
}

/// Transposes an 8 x 8 byte matrix held in eight little-endian words: byte `c` of word `r`
/// moves to byte `r` of word `c` (three rounds of block swaps).
#[inline(always)]
fn transpose8(mut a: [u64; 8]) -> [u64; 8] {
    for i in 0..4 {
        let t = ((a[i] >> 32) ^ a[i + 4]) & 0xFFFF_FFFF;
        a[i] ^= t << 32;
        a[i + 4] ^= t;
    }
    for i in [0, 1, 4, 5] {
        let t = ((a[i] >> 16) ^ a[i + 2]) & 0x0000_FFFF_0000_FFFF;
        a[i] ^= t << 16;
        a[i + 2] ^= t;
    }
    for i in [0, 2, 4, 6] {
        let t = ((a[i] >> 8) ^ a[i + 1]) & 0x00FF_00FF_00FF_00FF;
        a[i] ^= t << 8;
        a[i + 1] ^= t;
    }
    a
}

/// Writes `n` values of 8 bytes (as little-endian words) into the 8 streams of `dst`
/// (`8 * n` bytes), eight values at a time.
#[inline(always)]
fn scatter8(mut values: impl Iterator<Item = u64>, n: usize, dst: &mut [u8]) {
    let full = n / 8;
    for b in 0..full {
        let x: [u64; 8] = std::array::from_fn(|_| values.next().unwrap_or(0));
        for (k, word) in transpose8(x).iter().enumerate() {
            dst[k * n + 8 * b..k * n + 8 * b + 8].copy_from_slice(&word.to_le_bytes());
        }
    }
    for (i, v) in values.enumerate().take(n - 8 * full) {
        for (k, byte) in v.to_le_bytes().iter().enumerate() {
            dst[k * n + 8 * full + i] = *byte;
        }
    }
}

/// Checks the size of a values section for `n` values of `width` bytes; returns the stream
/// length (the values in the section).
fn stride(input: &[u8], n: usize, width: usize) -> Result<usize> {
    if width == 0 {
        return Err(Error::corrupt("BYTE_STREAM_SPLIT of 0-byte values"));
    }
    if !input.len().is_multiple_of(width) {
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

/// The first `n` bytes of each of the `K` streams of `stride` bytes.
fn streams<const K: usize>(input: &[u8], stride: usize, n: usize) -> [&[u8]; K] {
    std::array::from_fn(|s| &input[s * stride..s * stride + n])
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
        2 => {
            let [s0, s1] = streams::<2>(input, stride, n);
            for ((d, &a), &b) in dst.chunks_exact_mut(2).zip(s0).zip(s1) {
                d[0] = a;
                d[1] = b;
            }
        }
        4 => {
            let mut chunks = dst.chunks_exact_mut(4);
            gather4(streams(input, stride, n), |v| {
                if let Some(d) = chunks.next() {
                    d.copy_from_slice(&v);
                }
            });
        }
        8 => {
            let mut chunks = dst.chunks_exact_mut(8);
            gather8(streams(input, stride, n), |w| {
                // `w` first: the zip stops before taking a chunk it cannot fill.
                for (v, d) in w.iter().zip(chunks.by_ref()) {
                    d.copy_from_slice(&v.to_le_bytes());
                }
            });
        }
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
        4 => {
            let [s0, s1, s2, s3] = streams::<4>(input, stride, n);
            out.extend(
                s0.iter()
                    .zip(s1)
                    .zip(s2)
                    .zip(s3)
                    .map(|(((&a, &b), &c), &d)| T::read_le(&[a, b, c, d])),
            );
        }
        8 => gather8(streams(input, stride, n), |w| {
            out.extend(w.iter().map(|v| T::read_le(&v.to_le_bytes())))
        }),
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

/// Calls `put` with the bytes of each value of the 4 streams, in order.
#[inline(always)]
fn gather4(s: [&[u8]; 4], mut put: impl FnMut([u8; 4])) {
    let [s0, s1, s2, s3] = s;
    for (((&a, &b), &c), &d) in s0.iter().zip(s1).zip(s2).zip(s3) {
        put([a, b, c, d]);
    }
}

/// Calls `put` with the values of the 8 streams as little-endian words, eight at a time
/// (fewer at the end).
#[inline(always)]
fn gather8(s: [&[u8]; 8], mut put: impl FnMut(&[u64])) {
    let n = s[0].len();
    let full = n / 8;
    for b in 0..full {
        let x: [u64; 8] = std::array::from_fn(|k| {
            let w = &s[k][8 * b..8 * b + 8];
            u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]])
        });
        put(&transpose8(x));
    }
    let mut tail = [0u64; 8];
    for (i, t) in tail.iter_mut().enumerate().take(n - 8 * full) {
        *t = u64::from_le_bytes(std::array::from_fn(|k| s[k][8 * full + i]));
    }
    put(&tail[..n - 8 * full]);
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

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn module_example() {
        use crate::core::encoding::byte_stream_split::{decode, encode};
        // Encodings.md: three 4-byte values AA BB CC DD, 00 11 22 33, A3 B4 C5 D6.
        let plain = [
            0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6,
        ];
        let mut page = Vec::new();
        encode(&plain, 4, &mut page);
        assert_eq!(
            page,
            [0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6]
        );
        let mut back = Vec::new();
        assert_eq!(decode(&page, 3, 4, &mut back).unwrap(), 12);
        assert_eq!(back, plain);
    }
}
