//! ALP (adaptive lossless floating point, `ALP = 10`) for FLOAT and DOUBLE, as AlpEncoding.md
//! in apache/parquet-format specifies it (marked preview there, so writers use it only when
//! asked). arrow-rs 60 reads these pages value for value and we read its own (checked with
//! the harness of testdata/alp/ and tests/arrow_rs_files.rs); pyarrow 26 and DuckDB 2.0 do
//! not read ALP.
//!
//! ```text
//! page:   compression_mode u8 (0) | integer_encoding u8 (0) | log2(vector size) u8 (3..=15)
//!         | num_elements i32 | num_vectors u32 offsets (from the offset array) | vectors
//! vector: exponent u8 | factor u8 | num_exceptions u16 | frame of reference i32/i64
//!         | bit width u8 | packed deltas | exception positions u16 | exception values
//! ```
//! A value `v` is stored as the integer `round(v * 10^e * 10^-f)` minus the vector's
//! smallest such integer, bit-packed. Decoding computes `int * 10^f * 10^-e` (two
//! multiplications, in the precision of the type, with the correctly rounded constants
//! below); values for which that does not give back the same bits (NaN, infinities, -0.0,
//! out of range, too many digits) are exceptions, stored verbatim.
//!
//! The encoder follows the paper's sampling: the best (e, f) pairs of a sample of the page
//! (up to 8 vectors of 256 values, all 66 or 190 pairs tried) form a preset of up to 5, and
//! each vector picks the preset pair that makes it smallest on 32 of its values.

use super::bitpack64::{self, bits_of, with_width};
use crate::core::format::Encoding;
use crate::error::{Error, Result};

/// The ALP encoding (`ALP = 10` in parquet.thrift), until [`Encoding`] names it.
pub const ALP: Encoding = Encoding::Unknown(10);

/// Whether `encoding` is ALP (by its thrift value, whatever the enum calls it).
pub fn is_alp(encoding: Encoding) -> bool {
    encoding.to_i32() == 10
}

/// log2 of the vector size written (1024 values).
pub const LOG_VECTOR_SIZE: u8 = 10;

const HEADER: usize = 7;

/// 10^0 to 10^18 as f64 (exact).
const F10_64: [f64; 19] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18,
];
/// 10^-0 to 10^-18 as f64 (correctly rounded literals).
const IF10_64: [f64; 19] = [
    1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12, 1e-13, 1e-14,
    1e-15, 1e-16, 1e-17, 1e-18,
];
/// 10^0 to 10^10 as f32 (exact).
const F10_32: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];
/// 10^-0 to 10^-10 as f32 (correctly rounded literals).
const IF10_32: [f32; 11] = [
    1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10,
];

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// The types ALP encodes: `f32` (FLOAT, integers in i32) and `f64` (DOUBLE, in i64).
pub trait AlpFloat: Copy + Default + PartialEq + Send + Sync + 'static + sealed::Sealed {
    /// Bytes per value.
    const WIDTH: usize;
    /// Largest exponent.
    const MAX_EXPONENT: u8;
    /// Bits of the integers.
    const INT_BITS: u8;
    /// The integer for `self` under (e, f), when decoding it gives back the same bits.
    fn encode(self, e: u8, f: u8) -> Option<i64>;
    /// `int * 10^f * 10^-e` in the precision of the type.
    fn decode(int: i64, e: u8, f: u8) -> Self {
        Self::scale(int, Self::multipliers(e, f))
    }
    /// `[10^f, 10^-e]` (exponent and factor in range).
    fn multipliers(e: u8, f: u8) -> [Self; 2];
    /// `int * m[0] * m[1]` in the precision of the type.
    fn scale(int: i64, m: [Self; 2]) -> Self;
    /// `min + delta`, wrapping in the integer width of the type.
    fn add_delta(min: i64, delta: u64) -> i64;
    /// The IEEE bits, zero-extended.
    fn to_bits64(self) -> u64;
    /// The value with these IEEE bits (low bits).
    fn from_bits64(bits: u64) -> Self;
}

impl AlpFloat for f64 {
    const WIDTH: usize = 8;
    const MAX_EXPONENT: u8 = 18;
    const INT_BITS: u8 = 64;
    #[inline]
    fn encode(self, e: u8, f: u8) -> Option<i64> {
        let x = (self * F10_64[e as usize] * IF10_64[f as usize]).round_ties_even();
        // Inside the i64 range (NaN fails both tests).
        if !(-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&x) {
            return None;
        }
        let int = x as i64;
        (Self::decode(int, e, f).to_bits() == self.to_bits()).then_some(int)
    }
    #[inline(always)]
    fn multipliers(e: u8, f: u8) -> [Self; 2] {
        [F10_64[f as usize], IF10_64[e as usize]]
    }
    #[inline(always)]
    fn scale(int: i64, m: [Self; 2]) -> Self {
        int as f64 * m[0] * m[1]
    }
    #[inline(always)]
    fn add_delta(min: i64, delta: u64) -> i64 {
        (min as u64).wrapping_add(delta) as i64
    }
    fn to_bits64(self) -> u64 {
        self.to_bits()
    }
    fn from_bits64(bits: u64) -> Self {
        f64::from_bits(bits)
    }
}

impl AlpFloat for f32 {
    const WIDTH: usize = 4;
    const MAX_EXPONENT: u8 = 10;
    const INT_BITS: u8 = 32;
    #[inline]
    fn encode(self, e: u8, f: u8) -> Option<i64> {
        let x = (self * F10_32[e as usize] * IF10_32[f as usize]).round_ties_even();
        if !(-2_147_483_648.0..2_147_483_648.0).contains(&x) {
            return None;
        }
        let int = x as i32 as i64;
        (Self::decode(int, e, f).to_bits() == self.to_bits()).then_some(int)
    }
    #[inline(always)]
    fn multipliers(e: u8, f: u8) -> [Self; 2] {
        [F10_32[f as usize], IF10_32[e as usize]]
    }
    #[inline(always)]
    fn scale(int: i64, m: [Self; 2]) -> Self {
        int as i32 as f32 * m[0] * m[1]
    }
    #[inline(always)]
    fn add_delta(min: i64, delta: u64) -> i64 {
        (min as u32).wrapping_add(delta as u32) as i32 as i64
    }
    fn to_bits64(self) -> u64 {
        self.to_bits() as u64
    }
    fn from_bits64(bits: u64) -> Self {
        f32::from_bits(bits as u32)
    }
}

/// Estimated encoded bits of `values` under (e, f): packed width times count plus the
/// exceptions.
fn estimate<T: AlpFloat>(values: &[T], e: u8, f: u8) -> u64 {
    let (mut min, mut max, mut exceptions) = (i64::MAX, i64::MIN, 0u64);
    for &v in values {
        match v.encode(e, f) {
            Some(i) => {
                min = min.min(i);
                max = max.max(i);
            }
            None => exceptions += 1,
        }
    }
    let width = if min > max {
        0
    } else {
        bits_of(max.wrapping_sub(min) as u64)
    };
    let packed = width as u64 * (values.len() as u64 - exceptions);
    packed + exceptions * (16 + 8 * T::WIDTH as u64)
}

/// The up to 5 best (e, f) pairs on a sample of `values`.
fn preset<T: AlpFloat>(values: &[T], vector_size: usize) -> Vec<(u8, u8)> {
    let vectors = values.len().div_ceil(vector_size).max(1);
    let step = vectors.div_ceil(8);
    let mut scores: Vec<((u8, u8), u64)> = Vec::new();
    let mut sample = Vec::with_capacity(256 * 8);
    for v in (0..vectors).step_by(step) {
        let vector = &values[v * vector_size..((v + 1) * vector_size).min(values.len())];
        let stride = vector.len().div_ceil(256).max(1);
        sample.extend(vector.iter().step_by(stride).copied());
    }
    for e in 0..=T::MAX_EXPONENT {
        for f in 0..=e {
            scores.push(((e, f), estimate(&sample, e, f)));
        }
    }
    // Smaller first; among equals the smaller exponent, then the larger factor.
    scores.sort_by_key(|&((e, f), s)| (s, e, std::cmp::Reverse(f)));
    scores.truncate(5);
    scores.into_iter().map(|(p, _)| p).collect()
}

/// Appends `values` ALP-encoded with vectors of 1024.
pub fn encode<T: AlpFloat>(values: &[T], out: &mut Vec<u8>) {
    encode_with(values, LOG_VECTOR_SIZE, out)
}

/// Appends `values` ALP-encoded with vectors of `2^log_vector_size` values (clamped to 3..=15).
pub fn encode_with<T: AlpFloat>(values: &[T], log_vector_size: u8, out: &mut Vec<u8>) {
    let log = log_vector_size.clamp(3, 15);
    let vector_size = 1usize << log;
    out.extend_from_slice(&[0, 0, log]);
    // Pages are far below 2^31 values (the page writer checks sizes against i32).
    out.extend_from_slice(&(values.len() as i32).to_le_bytes());
    let num_vectors = values.len().div_ceil(vector_size);
    let offsets_at = out.len();
    out.resize(offsets_at + 4 * num_vectors, 0);
    let candidates = preset(values, vector_size);
    let mut scratch = Vectors::default();
    for (i, vector) in values.chunks(vector_size).enumerate() {
        let offset = (out.len() - offsets_at) as u32;
        out[offsets_at + 4 * i..offsets_at + 4 * i + 4].copy_from_slice(&offset.to_le_bytes());
        let (e, f) = if candidates.len() == 1 {
            candidates[0]
        } else {
            let stride = vector.len().div_ceil(32).max(1);
            let sample: Vec<T> = vector.iter().step_by(stride).copied().collect();
            candidates
                .iter()
                .copied()
                .min_by_key(|&(e, f)| estimate(&sample, e, f))
                .unwrap_or((0, 0))
        };
        encode_vector(vector, e, f, &mut scratch, out);
    }
}

#[derive(Default)]
struct Vectors {
    ints: Vec<i64>,
    deltas: Vec<u64>,
    positions: Vec<u16>,
}

/// Appends one vector (at most 2^15 values) encoded with (e, f).
fn encode_vector<T: AlpFloat>(vector: &[T], e: u8, f: u8, s: &mut Vectors, out: &mut Vec<u8>) {
    s.ints.clear();
    s.positions.clear();
    let mut placeholder = None;
    for (i, &v) in vector.iter().enumerate() {
        match v.encode(e, f) {
            Some(int) => {
                placeholder.get_or_insert(int);
                s.ints.push(int);
            }
            None => {
                s.positions.push(i as u16);
                s.ints.push(0);
            }
        }
    }
    let placeholder = placeholder.unwrap_or(0);
    for &p in &s.positions {
        s.ints[p as usize] = placeholder;
    }
    let min = s.ints.iter().copied().min().unwrap_or(0);
    s.deltas.clear();
    s.deltas
        .extend(s.ints.iter().map(|&i| (i as u64).wrapping_sub(min as u64)));
    let width = bits_of(s.deltas.iter().fold(0, |a, &d| a.max(d)));
    out.extend_from_slice(&[e, f]);
    out.extend_from_slice(&(s.positions.len() as u16).to_le_bytes());
    out.extend_from_slice(&min.to_le_bytes()[..T::WIDTH]);
    out.push(width);
    bitpack64::pack_any(&s.deltas, width, out);
    for &p in &s.positions {
        out.extend_from_slice(&p.to_le_bytes());
    }
    for &p in &s.positions {
        out.extend_from_slice(&vector[p as usize].to_bits64().to_le_bytes()[..T::WIDTH]);
    }
}

fn le_u64(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(b)
}

/// Decodes the first `n` values of an ALP page section, appending them to `out`; returns the
/// bytes consumed (the end of the last vector read). On error `out` is left as it was.
pub fn decode<T: AlpFloat>(input: &[u8], n: usize, out: &mut Vec<T>) -> Result<usize> {
    let start = out.len();
    let result = decode_inner(input, n, out);
    if result.is_err() {
        out.truncate(start);
    }
    result
}

fn decode_inner<T: AlpFloat>(input: &[u8], n: usize, out: &mut Vec<T>) -> Result<usize> {
    let header = input.get(..HEADER).ok_or_else(|| {
        Error::corrupt(format!("ALP header of {} bytes, expected 7", input.len()))
    })?;
    if header[0] != 0 {
        return Err(Error::unsupported(format!(
            "ALP compression mode {} (only 0, ALP, is defined)",
            header[0]
        )));
    }
    if header[1] != 0 {
        return Err(Error::unsupported(format!(
            "ALP integer encoding {} (only 0, FOR + bit packing, is defined)",
            header[1]
        )));
    }
    let log = header[2];
    if !(3..=15).contains(&log) {
        return Err(Error::corrupt(format!(
            "ALP log2 vector size {log} is outside 3..=15"
        )));
    }
    let vector_size = 1usize << log;
    let count = i32::from_le_bytes([header[3], header[4], header[5], header[6]]);
    if count < 0 || (count as usize) < n {
        return Err(Error::corrupt(format!(
            "ALP page holds {count} values, expected {n}"
        )));
    }
    let count = count as usize;
    let num_vectors = count.div_ceil(vector_size);
    let body = &input[HEADER..];
    let header_len = 4 + 1 + T::WIDTH;
    if num_vectors > body.len() / (4 + header_len) {
        return Err(Error::corrupt(format!(
            "ALP page of {count} values needs {num_vectors} vectors, more than its {} bytes hold",
            input.len()
        )));
    }
    let offsets = &body[..4 * num_vectors];
    let mut end = 4 * num_vectors;
    out.reserve(n);
    let mut left = n;
    for v in 0..num_vectors {
        if left == 0 {
            break;
        }
        let in_vector = vector_size.min(count - v * vector_size);
        let o = &offsets[4 * v..4 * v + 4];
        let offset = u32::from_le_bytes([o[0], o[1], o[2], o[3]]) as usize;
        let at = |e: Error| {
            e.context(format!("ALP vector {v}"))
                .with_offset((HEADER + offset) as u64)
        };
        let used = decode_vector(
            body.get(offset..).unwrap_or(&[]),
            in_vector,
            left.min(in_vector),
            out,
        )
        .map_err(at)?;
        end = end.max(offset + used);
        left -= left.min(in_vector);
    }
    Ok(HEADER + end)
}

/// Decodes the first `k` of the `len` values of the vector at the start of `input`; returns
/// the vector's size in bytes.
fn decode_vector<T: AlpFloat>(
    input: &[u8],
    len: usize,
    k: usize,
    out: &mut Vec<T>,
) -> Result<usize> {
    let header_len = 4 + T::WIDTH + 1;
    let h = input
        .get(..header_len)
        .ok_or_else(|| Error::corrupt("the data ends in the vector header"))?;
    let (e, f) = (h[0], h[1]);
    let exceptions = u16::from_le_bytes([h[2], h[3]]) as usize;
    let min = le_u64(&h[4..4 + T::WIDTH]);
    // Sign-extend the frame of reference from its width.
    let shift = 64 - 8 * T::WIDTH as u32;
    let min = ((min << shift) as i64) >> shift;
    let width = h[4 + T::WIDTH];
    if e > T::MAX_EXPONENT || f > e {
        return Err(Error::corrupt(format!(
            "exponent {e} and factor {f}: need factor <= exponent <= {}",
            T::MAX_EXPONENT
        )));
    }
    if width > T::INT_BITS {
        return Err(Error::corrupt(format!(
            "bit width {width} is above {}",
            T::INT_BITS
        )));
    }
    if exceptions > len {
        return Err(Error::corrupt(format!(
            "{exceptions} exceptions in a vector of {len} values"
        )));
    }
    let packed = (len * width as usize).div_ceil(8);
    let size = header_len + packed + exceptions * (2 + T::WIDTH);
    if input.len() < size {
        return Err(Error::corrupt(format!(
            "vector of {size} bytes, {} left",
            input.len()
        )));
    }
    let src = &input[header_len..header_len + packed];
    let at = out.len();
    out.resize(at + k, T::default());
    let dst = &mut out[at..];
    with_width!(width, W => unpack_vector::<W, T>(src, min, e, f, dst), _ => {});
    let positions = &input[header_len + packed..header_len + packed + 2 * exceptions];
    let values = &input[header_len + packed + 2 * exceptions..size];
    for (p, v) in positions.chunks_exact(2).zip(values.chunks_exact(T::WIDTH)) {
        let p = u16::from_le_bytes([p[0], p[1]]) as usize;
        if p >= len {
            return Err(Error::corrupt(format!(
                "exception position {p} outside a vector of {len} values"
            )));
        }
        if let Some(slot) = dst.get_mut(p) {
            *slot = T::from_bits64(le_u64(v));
        }
    }
    Ok(size)
}

/// Decodes `out.len()` values of `W`-bit deltas from `src` (which holds at least
/// `ceil(out.len() * W / 8)` bytes).
#[inline(never)]
fn unpack_vector<const W: usize, T: AlpFloat>(src: &[u8], min: i64, e: u8, f: u8, out: &mut [T]) {
    let m = T::multipliers(e, f);
    if W == 0 {
        out.fill(T::decode(min, e, f));
        return;
    }
    let groups = out.len() / 32;
    let (full, tail) = out.split_at_mut(groups * 32);
    for (s, o) in src.chunks_exact(4 * W).zip(full.chunks_exact_mut(32)) {
        let o = &mut o[..32];
        bitpack64::unpack32_with::<W>(s, |i, d| o[i] = T::scale(T::add_delta(min, d), m));
    }
    if !tail.is_empty() {
        let mut buf = [0u64; 32];
        if bitpack64::unpack_tail(W as u8, &src[groups * 4 * W..], tail.len(), &mut buf).is_some() {
            for (o, &d) in tail.iter_mut().zip(&buf) {
                *o = T::scale(T::add_delta(min, d), m);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn bits<T: AlpFloat>(v: &[T]) -> Vec<u64> {
        v.iter().map(|x| x.to_bits64()).collect()
    }

    fn round_trip<T: AlpFloat>(values: &[T]) -> Vec<u8> {
        let mut page = Vec::new();
        encode(values, &mut page);
        let mut out: Vec<T> = Vec::new();
        assert_eq!(decode(&page, values.len(), &mut out).unwrap(), page.len());
        assert_eq!(bits(&out), bits(values));
        page
    }

    /// Reference bit packer (LSB first).
    fn pack_ref(values: &[u64], w: usize) -> Vec<u8> {
        let mut out = vec![0u8; (values.len() * w).div_ceil(8)];
        for (i, &v) in values.iter().enumerate() {
            for b in 0..w {
                if v >> b & 1 == 1 {
                    out[(i * w + b) / 8] |= 1 << ((i * w + b) % 8);
                }
            }
        }
        out
    }

    #[test]
    fn spec_worked_example() {
        // AlpEncoding.md: {1500.0, NaN, 2500.0, 333.5} with e=4, f=3 is 31 bytes.
        let values = [1500.0f64, f64::NAN, 2500.0, 333.5];
        let mut vector = Vec::new();
        encode_vector(&values, 4, 3, &mut Vectors::default(), &mut vector);
        let mut expect = vec![4, 3, 1, 0];
        expect.extend_from_slice(&3335i64.to_le_bytes());
        expect.push(15);
        expect.extend_from_slice(&pack_ref(&[11665, 11665, 21665, 0], 15));
        expect.extend_from_slice(&[1, 0]);
        expect.extend_from_slice(&f64::NAN.to_bits().to_le_bytes());
        assert_eq!(vector.len(), 31);
        assert_eq!(vector, expect);
        // As a page: header, one offset (4), the vector.
        let mut page = vec![0, 0, 10, 4, 0, 0, 0, 4, 0, 0, 0];
        page.extend_from_slice(&vector);
        let mut out: Vec<f64> = Vec::new();
        assert_eq!(decode(&page, 4, &mut out).unwrap(), page.len());
        assert_eq!(bits(&out), bits(&values));
    }

    #[test]
    fn spec_for_example() {
        // Encoded [123, 456, 789, 12]: FOR 12, deltas [111, 444, 777, 0] in 10 bits, 5 bytes.
        let values = [1.23f32, 4.56, 7.89, 0.12];
        let mut vector = Vec::new();
        encode_vector(&values, 2, 0, &mut Vectors::default(), &mut vector);
        let mut expect = vec![2, 0, 0, 0];
        expect.extend_from_slice(&12i32.to_le_bytes());
        expect.push(10);
        expect.extend_from_slice(&pack_ref(&[111, 444, 777, 0], 10));
        assert_eq!(vector, expect);
        assert_eq!(vector.len(), 9 + 5);
    }

    #[test]
    fn special_values_are_exceptions() {
        round_trip(&[
            0.0f64,
            -0.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1e300,
            -1.5,
            5e-324,
        ]);
        round_trip(&[
            0.0f32,
            -0.0,
            f32::NAN,
            f32::INFINITY,
            3.4e38,
            1.1,
            f32::from_bits(0x7FC0_1234),
        ]);
        // All exceptions, and a single value.
        round_trip(&[f64::NAN; 5]);
        round_trip(&[42.5f32]);
        round_trip::<f64>(&[]);
    }

    #[test]
    fn decimals_compress() {
        let prices: Vec<f64> = (0..5000)
            .map(|i| ((i * 7919) % 100_000) as f64 / 100.0)
            .collect();
        let page = round_trip(&prices);
        // About 17 bits a value instead of 64.
        assert!(page.len() < prices.len() * 3, "{} bytes", page.len());
        let temps: Vec<f32> = (0..3000)
            .map(|i| ((i % 700) as f32 - 200.0) / 10.0)
            .collect();
        let page = round_trip(&temps);
        assert!(page.len() < temps.len() * 2, "{} bytes", page.len());
        let ints: Vec<f64> = (0..2000).map(|i| (i as f64) * 1e6).collect();
        round_trip(&ints);
    }

    #[test]
    fn partial_reads_and_small_vectors() {
        let v: Vec<f64> = (0..100).map(|i| i as f64 / 8.0).collect();
        let mut page = Vec::new();
        encode_with(&v, 3, &mut page);
        let mut out: Vec<f64> = Vec::new();
        decode(&page, 100, &mut out).unwrap();
        assert_eq!(out, v);
        let mut out: Vec<f64> = Vec::new();
        decode(&page, 21, &mut out).unwrap();
        assert_eq!(out, &v[..21]);
    }

    #[test]
    fn header_errors() {
        let mut page = Vec::new();
        encode(&[1.5f64, 2.5], &mut page);
        let mut p = page.clone();
        p[0] = 1;
        assert_eq!(
            decode::<f64>(&p, 2, &mut vec![]).unwrap_err().kind(),
            crate::ErrorKind::Unsupported
        );
        let mut p = page.clone();
        p[2] = 16;
        assert!(decode::<f64>(&p, 2, &mut vec![])
            .unwrap_err()
            .to_string()
            .contains("3..=15"));
        let e = decode::<f64>(&page, 3, &mut vec![]).unwrap_err();
        assert!(e.to_string().contains("holds 2 values, expected 3"), "{e}");
        // Exponent above the maximum for FLOAT.
        let mut p = Vec::new();
        encode(&[1.5f32], &mut p);
        p[11] = 11;
        assert!(decode::<f32>(&p, 1, &mut vec![])
            .unwrap_err()
            .to_string()
            .contains("exponent 11"));
    }

    #[test]
    fn every_truncation_fails() {
        let v: Vec<f64> = (0..1500)
            .map(|i| i as f64 * 0.01)
            .chain([f64::NAN])
            .collect();
        let mut page = Vec::new();
        encode(&v, &mut page);
        for cut in (0..page.len()).step_by(7).chain([page.len() - 1]) {
            let mut out = vec![1.0f64];
            assert!(
                decode(&page[..cut], v.len(), &mut out).is_err(),
                "cut {cut}"
            );
            assert_eq!(out, [1.0]);
        }
    }

    proptest! {
        #[test]
        fn random_round_trip(bits in proptest::collection::vec(any::<u64>(), 0..1500),
                             decimals in proptest::collection::vec(-1_000_000i64..1_000_000, 0..1500)) {
            round_trip(&bits.iter().map(|&b| f64::from_bits(b)).collect::<Vec<_>>());
            round_trip(&bits.iter().map(|&b| f32::from_bits(b as u32)).collect::<Vec<_>>());
            round_trip(&decimals.iter().map(|&d| d as f64 / 1000.0).collect::<Vec<_>>());
            round_trip(&decimals.iter().map(|&d| d as f32 / 100.0).collect::<Vec<_>>());
        }

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300), n in 0usize..3000) {
            let _ = decode::<f64>(&bytes, n, &mut vec![]);
            let _ = decode::<f32>(&bytes, n, &mut vec![]);
            let mut p = vec![0, 0, 3];
            p.extend_from_slice(&bytes);
            let _ = decode::<f64>(&p, n, &mut vec![]);
        }
    }
}

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn encode_example() {
        use crate::core::encoding::alp::{decode, encode};
        let prices = [19.99f64, 5.25, 100.0, 0.5, 19.99, f64::NAN];
        let mut page = Vec::new();
        encode(&prices, &mut page);
        let mut out: Vec<f64> = Vec::new();
        assert_eq!(decode(&page, 6, &mut out).unwrap(), page.len());
        assert_eq!(&out[..5], &prices[..5]);
        assert!(out[5].is_nan());
    }
}
