//! DELTA_BINARY_PACKED for INT32 and INT64.
//!
//! ```text
//! header: <block size> <miniblocks per block> <total values> <first value (zigzag)>   (ULEB128)
//! block:  <min delta (zigzag)> <one bit-width byte per miniblock> <miniblocks, bit-packed>
//! ```
//! Each block holds the deltas between consecutive values minus the block's smallest delta,
//! bit-packed LSB first with one width per miniblock. Arithmetic wraps (two's complement)
//! in the width of the type, as the specification requires, so `i64::MIN` next to
//! `i64::MAX` round-trips.
//!
//! # Decoding untrusted data
//! - Block sizes must be positive multiples of 128 (at most 2^20) and miniblocks multiples
//!   of 32 values; miniblock widths above 64 are errors. Widths above 32 are accepted for
//!   INT32 (the deltas are taken modulo 2^32), as some writers compute INT32 deltas in 64 bits.
//! - Padding bits in the last miniblock and the widths of unused miniblocks may hold any
//!   value. A last miniblock cut short at the end of the data is accepted when the values
//!   needed are all there.
//! - Fewer values in the stream than asked for, and data that ends inside a block, are
//!   errors; nothing panics, and `out` is left as it was on error.

use super::bitpack64::{self, bits_of, with_width};
use super::varint::{get_uleb, get_zigzag, put_uleb, put_zigzag};
use crate::error::{Error, Result};

/// Values per block written by default.
pub const DEFAULT_BLOCK_SIZE: usize = 128;
/// Miniblocks per block written by default (32 values each).
pub const DEFAULT_MINIBLOCKS: usize = 4;
/// Largest block size the decoder accepts.
const MAX_BLOCK_SIZE: u64 = 1 << 20;

mod sealed {
    pub trait Sealed {}
    impl Sealed for i32 {}
    impl Sealed for i64 {}
}

/// The integer types DELTA_BINARY_PACKED stores: `i32` (INT32) and `i64` (INT64).
/// Arithmetic wraps in the width of the type.
pub trait DeltaInt: Copy + Default + Ord + Send + Sync + 'static + sealed::Sealed {
    /// Bits in the type.
    #[cfg_attr(not(feature = "internals"), allow(dead_code))]
    const BITS: u32;
    /// Wrapping addition.
    fn wrapping_add(self, other: Self) -> Self;
    /// Wrapping subtraction.
    fn wrapping_sub(self, other: Self) -> Self;
    /// Sign-extended value (for the zigzag header fields).
    fn to_i64(self) -> i64;
    /// The low bits of `v` (wrapping).
    fn from_i64(v: i64) -> Self;
    /// The bits of the value, zero-extended.
    fn to_bits(self) -> u64;
    /// The low bits of `v`.
    fn from_bits(v: u64) -> Self;
}

impl DeltaInt for i32 {
    const BITS: u32 = 32;
    #[inline(always)]
    fn wrapping_add(self, other: Self) -> Self {
        i32::wrapping_add(self, other)
    }
    #[inline(always)]
    fn wrapping_sub(self, other: Self) -> Self {
        i32::wrapping_sub(self, other)
    }
    #[inline(always)]
    fn to_i64(self) -> i64 {
        self as i64
    }
    #[inline(always)]
    fn from_i64(v: i64) -> Self {
        v as i32
    }
    #[inline(always)]
    fn to_bits(self) -> u64 {
        self as u32 as u64
    }
    #[inline(always)]
    fn from_bits(v: u64) -> Self {
        v as i32
    }
}

impl DeltaInt for i64 {
    const BITS: u32 = 64;
    #[inline(always)]
    fn wrapping_add(self, other: Self) -> Self {
        i64::wrapping_add(self, other)
    }
    #[inline(always)]
    fn wrapping_sub(self, other: Self) -> Self {
        i64::wrapping_sub(self, other)
    }
    #[inline(always)]
    fn to_i64(self) -> i64 {
        self
    }
    #[inline(always)]
    fn from_i64(v: i64) -> Self {
        v
    }
    #[inline(always)]
    fn to_bits(self) -> u64 {
        self as u64
    }
    #[inline(always)]
    fn from_bits(v: u64) -> Self {
        v as i64
    }
}

/// Appends `values` with the default block layout (128 values, 4 miniblocks).
pub fn encode<T: DeltaInt>(values: &[T], out: &mut Vec<u8>) {
    encode_blocks(values, DEFAULT_BLOCK_SIZE, DEFAULT_MINIBLOCKS, out);
}

/// Appends `values` with `block_size` values per block (a positive multiple of 128) in
/// `miniblocks` miniblocks (each a multiple of 32 values).
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
pub fn encode_with<T: DeltaInt>(
    values: &[T],
    block_size: usize,
    miniblocks: usize,
    out: &mut Vec<u8>,
) -> Result<()> {
    check_layout(block_size as u64, miniblocks as u64).map_err(|e| {
        Error::invalid_argument(format!("DELTA_BINARY_PACKED layout: {}", e.message()))
    })?;
    encode_blocks(values, block_size, miniblocks, out);
    Ok(())
}

fn check_layout(block_size: u64, miniblocks: u64) -> Result<usize> {
    if block_size == 0 || !block_size.is_multiple_of(128) || block_size > MAX_BLOCK_SIZE {
        return Err(Error::corrupt(format!(
            "block size {block_size} is not a multiple of 128 from 128 to {MAX_BLOCK_SIZE}"
        )));
    }
    if miniblocks == 0
        || !block_size.is_multiple_of(miniblocks)
        || !(block_size / miniblocks).is_multiple_of(32)
    {
        return Err(Error::corrupt(format!(
            "{miniblocks} miniblocks do not split a block of {block_size} values into multiples of 32"
        )));
    }
    Ok((block_size / miniblocks) as usize)
}

fn encode_blocks<T: DeltaInt>(
    values: &[T],
    block_size: usize,
    miniblocks: usize,
    out: &mut Vec<u8>,
) {
    put_uleb(block_size as u64, out);
    put_uleb(miniblocks as u64, out);
    put_uleb(values.len() as u64, out);
    let Some(&first) = values.first() else {
        put_zigzag(0, out);
        return;
    };
    put_zigzag(first.to_i64(), out);
    let per_mini = block_size / miniblocks;
    // A block's deltas (`values[i + 1] - values[i]`) go into `deltas`, then minus the
    // block's smallest into `rel` (zero past the end: the padding values are zero, as the
    // specification asks): loops over slices, no push per value.
    let mut deltas: Vec<T> = vec![T::default(); block_size];
    let mut rel = vec![0u64; block_size];
    let mut at = 0;
    while at + 1 < values.len() {
        let end = (at + block_size).min(values.len() - 1);
        let block = &mut deltas[..end - at];
        for (d, w) in block.iter_mut().zip(values[at..=end].windows(2)) {
            *d = w[1].wrapping_sub(w[0]);
        }
        at = end;
        // Not empty: `end > at`.
        let min = block.iter().copied().min().unwrap_or_default();
        for (r, &d) in rel.iter_mut().zip(block.iter()) {
            *r = d.wrapping_sub(min).to_bits();
        }
        rel[block.len()..].fill(0);
        put_zigzag(min.to_i64(), out);
        let used = block.len().div_ceil(per_mini);
        let widths_at = out.len();
        out.resize(widths_at + miniblocks, 0);
        for (m, mini) in rel.chunks_exact(per_mini).take(used).enumerate() {
            let width = bits_of(mini.iter().fold(0, |a, &r| a | r));
            out[widths_at + m] = width;
            bitpack64::pack(mini, width, out);
        }
    }
}

/// The parsed stream header.
#[derive(Debug, Clone, Copy)]
struct Header {
    miniblocks: usize,
    per_mini: usize,
    total: usize,
    first: i64,
}

fn parse_header(input: &[u8], pos: &mut usize) -> Result<Header> {
    let block_size = get_uleb(input, pos, "DELTA_BINARY_PACKED block size")?;
    let miniblocks = get_uleb(input, pos, "DELTA_BINARY_PACKED miniblock count")?;
    let per_mini =
        check_layout(block_size, miniblocks).map_err(|e| e.context("DELTA_BINARY_PACKED"))?;
    let total = get_uleb(input, pos, "DELTA_BINARY_PACKED value count")?;
    let first = get_zigzag(input, pos, "DELTA_BINARY_PACKED first value")?;
    let total = usize::try_from(total).map_err(|_| {
        Error::corrupt(format!(
            "DELTA_BINARY_PACKED value count {total} is too large"
        ))
    })?;
    Ok(Header {
        miniblocks: miniblocks as usize,
        per_mini,
        total,
        first,
    })
}

/// Decodes the first `n` values of a DELTA_BINARY_PACKED stream at the start of `input`,
/// appending them to `out`; returns the bytes consumed (the whole stream, also when it holds
/// more than `n` values).
///
/// `T` is `i32` for INT32 and `i64` for INT64 columns.
pub fn decode<T: DeltaInt>(input: &[u8], n: usize, out: &mut Vec<T>) -> Result<usize> {
    let start = out.len();
    let result = decode_inner(input, n, out);
    if result.is_err() {
        out.truncate(start);
    }
    result
}

/// Decodes a whole stream (as many values as its header says), appending them to `out`;
/// returns the bytes consumed. `max_values` bounds the count the header may claim.
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
pub fn decode_all<T: DeltaInt>(input: &[u8], max_values: usize, out: &mut Vec<T>) -> Result<usize> {
    let mut pos = 0;
    let header = parse_header(input, &mut pos)?;
    if header.total > max_values {
        return Err(Error::corrupt(format!(
            "DELTA_BINARY_PACKED stream claims {} values, more than the {max_values} expected",
            header.total
        )));
    }
    decode(input, header.total, out)
}

fn decode_inner<T: DeltaInt>(input: &[u8], n: usize, out: &mut Vec<T>) -> Result<usize> {
    let mut pos = 0;
    let h = parse_header(input, &mut pos)?;
    if h.total < n {
        return Err(Error::corrupt(format!(
            "DELTA_BINARY_PACKED stream holds {} values, expected {n}",
            h.total
        )));
    }
    if h.total == 0 {
        return Ok(pos);
    }
    // Every block takes at least its min delta and its width bytes: a bound on the values
    // the rest of the input can hold, checked before reserving.
    let block_size = h.per_mini * h.miniblocks;
    let max_blocks = (input.len() - pos) / (1 + h.miniblocks);
    let max_values = max_blocks.saturating_mul(block_size).saturating_add(1);
    if h.total > max_values {
        return Err(Error::corrupt(format!(
            "DELTA_BINARY_PACKED stream claims {} values but {} bytes hold at most {max_values}",
            h.total,
            input.len()
        )));
    }
    let mut want = n;
    let mut last = T::from_i64(h.first);
    if want > 0 {
        out.reserve(want);
        out.push(last);
        want -= 1;
    }
    let mut remaining = h.total - 1;
    let mut block = 0usize;
    while remaining > 0 {
        let min_delta = T::from_i64(get_zigzag(
            input,
            &mut pos,
            "DELTA_BINARY_PACKED min delta",
        )?);
        let widths = input.get(pos..pos + h.miniblocks).ok_or_else(|| {
            Error::corrupt(format!(
                "DELTA_BINARY_PACKED block {block}: the data ends in the miniblock widths"
            ))
            .with_offset(pos as u64)
        })?;
        pos += h.miniblocks;
        for (m, &width) in widths.iter().enumerate() {
            if remaining == 0 {
                // Widths of unused miniblocks may hold anything.
                break;
            }
            if width > 64 {
                return Err(Error::corrupt(format!(
                    "DELTA_BINARY_PACKED block {block} miniblock {m}: bit width {width} is above 64"
                ))
                .with_offset(pos as u64));
            }
            let in_mini = remaining.min(h.per_mini);
            let full = h.per_mini * width as usize / 8;
            let avail = input.len() - pos;
            let bytes = if full <= avail {
                full
            } else {
                // A last miniblock cut short: accepted when the values needed are there.
                let needed = (in_mini * width as usize).div_ceil(8);
                if in_mini == remaining && needed <= avail {
                    needed
                } else {
                    return Err(Error::corrupt(format!(
                        "DELTA_BINARY_PACKED block {block} miniblock {m}: {full} bytes of \
                         {width}-bit values, {avail} left"
                    ))
                    .with_offset(pos as u64));
                }
            };
            let k = in_mini.min(want);
            if k > 0 {
                let at = out.len();
                out.resize(at + k, T::default());
                let dst = &mut out[at..];
                let src = &input[pos..pos + bytes];
                with_width!(width, W => unpack_mini::<W, T>(src, min_delta, &mut last, dst), _ => {});
                want -= k;
            }
            remaining -= in_mini;
            pos += bytes;
        }
        block += 1;
    }
    Ok(pos)
}

/// Decodes `out.len()` values of a miniblock of `W`-bit deltas from `src` (which holds at
/// least `ceil(out.len() * W / 8)` bytes): each is the previous value plus `min` plus the
/// unpacked delta.
#[inline(never)]
fn unpack_mini<const W: usize, T: DeltaInt>(src: &[u8], min: T, last: &mut T, out: &mut [T]) {
    let mut l = *last;
    if W == 0 {
        for o in out.iter_mut() {
            l = l.wrapping_add(min);
            *o = l;
        }
        *last = l;
        return;
    }
    let groups = out.len() / 32;
    let (full, tail) = out.split_at_mut(groups * 32);
    for (s, o) in src.chunks_exact(4 * W).zip(full.chunks_exact_mut(32)) {
        let o = &mut o[..32];
        bitpack64::unpack32_with::<W>(s, |i, v| {
            l = l.wrapping_add(min.wrapping_add(T::from_bits(v)));
            o[i] = l;
        });
    }
    if !tail.is_empty() {
        let mut buf = [0u64; 32];
        let rest = &src[groups * 4 * W..];
        // The caller checked that `src` holds the needed bytes.
        if bitpack64::unpack_tail(W as u8, rest, tail.len(), &mut buf).is_some() {
            for (o, &v) in tail.iter_mut().zip(&buf) {
                l = l.wrapping_add(min.wrapping_add(T::from_bits(v)));
                *o = l;
            }
        }
    }
    *last = l;
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The encoder as first written (one value at a time), which the faster one must match
    /// byte for byte.
    fn reference_encode<T: DeltaInt>(
        values: &[T],
        block_size: usize,
        miniblocks: usize,
        out: &mut Vec<u8>,
    ) {
        put_uleb(block_size as u64, out);
        put_uleb(miniblocks as u64, out);
        put_uleb(values.len() as u64, out);
        let Some((&first, rest)) = values.split_first() else {
            put_zigzag(0, out);
            return;
        };
        put_zigzag(first.to_i64(), out);
        let per_mini = block_size / miniblocks;
        let mut prev = first;
        for block in rest.chunks(block_size) {
            let mut deltas = Vec::new();
            for &v in block {
                deltas.push(v.wrapping_sub(prev));
                prev = v;
            }
            let min = deltas.iter().copied().min().unwrap();
            let mut rel = vec![0u64; block_size];
            for (r, &d) in rel.iter_mut().zip(&deltas) {
                *r = d.wrapping_sub(min).to_bits();
            }
            put_zigzag(min.to_i64(), out);
            let used = deltas.len().div_ceil(per_mini);
            let widths_at = out.len();
            out.resize(widths_at + miniblocks, 0);
            for m in 0..used {
                let mini = &rel[m * per_mini..(m + 1) * per_mini];
                let width = bits_of(mini.iter().fold(0, |a, &r| a | r));
                out[widths_at + m] = width;
                bitpack64::pack(mini, width, out);
            }
        }
    }

    fn round_trip<T: DeltaInt + std::fmt::Debug>(values: &[T]) -> Vec<u8> {
        let mut page = Vec::new();
        encode(values, &mut page);
        let mut out: Vec<T> = vec![];
        assert_eq!(decode(&page, values.len(), &mut out).unwrap(), page.len());
        assert_eq!(out, values);
        page
    }

    #[test]
    fn spec_example_1() {
        // Encodings.md example 1 with the real block size: 1..=5, all deltas 1.
        let page = round_trip(&[1i32, 2, 3, 4, 5]);
        assert_eq!(page, [0x80, 0x01, 4, 5, 2, 2, 0, 0, 0, 0]);
    }

    #[test]
    fn spec_example_2() {
        // Encodings.md example 2: 7, 5, 3, 1, 2, 3, 4, 5: min delta -2, relative
        // deltas 0, 0, 0, 3, 3, 3, 3 packed in 2 bits (padded to 32 values).
        let page = round_trip(&[7i64, 5, 3, 1, 2, 3, 4, 5]);
        let mut expect = vec![0x80, 0x01, 4, 8, 14, 3, 2, 0, 0, 0];
        expect.extend_from_slice(&[0b1100_0000, 0b0011_1111]);
        expect.resize(expect.len() + 6, 0);
        assert_eq!(page, expect);
    }

    #[test]
    fn spec_example_with_block_of_8_is_rejected() {
        // The specification's examples use blocks of 8, which it calls invalid.
        let page = [8, 1, 5, 2, 2, 0];
        let err = decode::<i32>(&page, 5, &mut vec![]).unwrap_err();
        assert!(err.to_string().contains("block size 8"), "{err}");
    }

    #[test]
    fn wrapping_extremes() {
        round_trip(&[i64::MIN, i64::MAX, i64::MIN, 0, i64::MAX, -1, i64::MIN]);
        round_trip(&[i32::MIN, i32::MAX, i32::MIN, 0, i32::MAX, -1]);
        let mut page = Vec::new();
        encode(&[i64::MIN, i64::MAX], &mut page);
        // One delta of -1 (wrapping): min delta -1, width 0.
        assert_eq!(page[page.len() - 5..], [1, 0, 0, 0, 0]);
    }

    #[test]
    fn empty_and_single() {
        let page = round_trip::<i32>(&[]);
        assert_eq!(page, [0x80, 0x01, 4, 0, 0]);
        let page = round_trip(&[-3i64]);
        assert_eq!(page, [0x80, 0x01, 4, 1, 5]);
    }

    #[test]
    fn many_blocks_and_layouts() {
        let v: Vec<i64> = (0..5000i64)
            .map(|i| 1_700_000_000_000 + i * 1000 + (i * 7919) % 13 - (i % 3) * 1_000_000)
            .collect();
        round_trip(&v);
        for (bs, mb) in [(128, 1), (128, 2), (256, 8), (1024, 1), (512, 16)] {
            let mut page = Vec::new();
            encode_with(&v, bs, mb, &mut page).unwrap();
            let mut out: Vec<i64> = vec![];
            assert_eq!(decode(&page, v.len(), &mut out).unwrap(), page.len());
            assert_eq!(out, v);
        }
        assert!(encode_with(&v, 100, 1, &mut vec![]).is_err());
        assert!(encode_with(&v, 128, 8, &mut vec![]).is_err());
    }

    #[test]
    fn decode_fewer_than_stored_consumes_all() {
        let v: Vec<i32> = (0..300).map(|i| i * i).collect();
        let mut page = Vec::new();
        encode(&v, &mut page);
        page.extend_from_slice(b"tail");
        let mut out: Vec<i32> = vec![];
        assert_eq!(decode(&page, 10, &mut out).unwrap(), page.len() - 4);
        assert_eq!(out, &v[..10]);
        let mut all: Vec<i32> = vec![];
        assert_eq!(decode_all(&page, 300, &mut all).unwrap(), page.len() - 4);
        assert_eq!(all, v);
        assert!(decode_all(&page, 299, &mut vec![0i32; 0]).is_err());
    }

    #[test]
    fn arbitrary_padding_and_unused_widths() {
        // 40 values: block of 128 with 4 miniblocks, two used.
        let v: Vec<i32> = (0..40).map(|i| i * 3).collect();
        let mut page = Vec::new();
        encode(&v, &mut page);
        // Header is 5 bytes (0x80 0x01 4 40 0), min delta 1 byte, then 4 widths.
        assert_eq!(&page[6..10], &[0, 0, 0, 0]);
        // Make the deltas non-constant so miniblock 1 has a width.
        let mut w = v.clone();
        w[39] += 5;
        let mut page = Vec::new();
        encode(&w, &mut page);
        let widths_at = 6;
        assert_eq!(page[widths_at + 2], 0);
        page[widths_at + 2] = 200;
        page[widths_at + 3] = 77;
        // Garbage in the padding bits of the last miniblock (after value 39 - 32 = 7).
        let last = page.len() - 1;
        page[last] = 0xFF;
        let mut out: Vec<i32> = vec![];
        decode(&page, 40, &mut out).unwrap();
        assert_eq!(out, w);
    }

    #[test]
    fn int32_accepts_wide_miniblocks() {
        // A writer computing INT32 deltas in 64 bits: deltas of 2^32 - 1 need 33 bits.
        let v = [i32::MIN, i32::MAX, i32::MIN];
        let wide: Vec<i64> = v.iter().map(|&x| x as i64).collect();
        let mut page = Vec::new();
        encode(&wide, &mut page);
        let mut out = vec![];
        decode::<i32>(&page, 3, &mut out).unwrap();
        assert_eq!(out, v);
    }

    #[test]
    fn truncated_last_miniblock_is_accepted_at_the_end() {
        let v: Vec<i64> = (0..10).map(|i| i * i * i).collect();
        let mut page = Vec::new();
        encode(&v, &mut page);
        // 9 deltas; relative deltas need some width w: keep ceil(9 * w / 8) bytes.
        let header = 5; // 0x80 0x01 4 10 0
        let min_len = 1; // zigzag(1)
        let w = page[header + min_len] as usize;
        let keep = header + min_len + 4 + (9 * w).div_ceil(8);
        let mut out: Vec<i64> = vec![];
        assert_eq!(decode(&page[..keep], 10, &mut out).unwrap(), keep);
        assert_eq!(out, v);
        assert!(decode::<i64>(&page[..keep - 1], 10, &mut vec![]).is_err());
    }

    #[test]
    fn errors_say_what() {
        let mut page = Vec::new();
        encode(&[1i64, 5, 9], &mut page);
        let e = decode::<i64>(&page, 4, &mut vec![]).unwrap_err();
        assert!(e.to_string().contains("holds 3 values, expected 4"), "{e}");
        // Width 65.
        let bad = [0x80, 0x01, 1, 2, 0, 0, 65];
        let e = decode::<i64>(&bad, 2, &mut vec![]).unwrap_err();
        assert!(e.to_string().contains("bit width 65"), "{e}");
        // A count the bytes cannot hold.
        let e = decode::<i64>(&[0x80, 0x01, 4, 0xFF, 0xFF, 0x7F, 0], 1, &mut vec![]).unwrap_err();
        assert!(e.to_string().contains("at most"), "{e}");
    }

    #[test]
    fn every_truncation_fails_and_leaves_out_alone() {
        let v: Vec<i64> = (0..700).map(|i| (i * 7919) % 1000 - 500).collect();
        let mut page = Vec::new();
        encode(&v, &mut page);
        for cut in 0..page.len() {
            let mut out = vec![42i64];
            // A cut inside the last miniblock may still hold every value needed.
            if decode(&page[..cut], v.len(), &mut out).is_ok() {
                assert_eq!(&out[1..], &v[..]);
            } else {
                assert_eq!(out, [42]);
            }
        }
    }

    proptest! {
        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200), n in 0usize..2000) {
            let _ = decode::<i32>(&bytes, n, &mut vec![]);
            let _ = decode::<i64>(&bytes, n, &mut vec![]);
            let _ = decode_all::<i64>(&bytes, 10_000, &mut vec![]);
        }

        #[test]
        fn random_values_round_trip(v in proptest::collection::vec(any::<i64>(), 0..1000),
                                    small in proptest::collection::vec(-1000i32..1000, 0..1000)) {
            round_trip(&v);
            round_trip(&small);
            let sorted: Vec<i64> = v.iter().scan(0i64, |s, &x| { *s = s.wrapping_add(x >> 40); Some(*s) }).collect();
            round_trip(&sorted);
        }

        #[test]
        fn same_bytes_as_the_reference_encoder(v in proptest::collection::vec(any::<i64>(), 0..1200),
                                               small in proptest::collection::vec(-70i32..70, 0..1200),
                                               layout in 0usize..3) {
            let (block, minis) = [(128, 4), (256, 8), (512, 4)][layout];
            let sorted: Vec<i64> = v.iter().scan(0i64, |s, &x| { *s = s.wrapping_add(x >> 50); Some(*s) }).collect();
            for values in [&v, &sorted] {
                let (mut ours, mut reference) = (Vec::new(), Vec::new());
                encode_with(values, block, minis, &mut ours).unwrap();
                reference_encode(values, block, minis, &mut reference);
                prop_assert_eq!(ours, reference);
            }
            let (mut ours, mut reference) = (Vec::new(), Vec::new());
            encode_with(&small, block, minis, &mut ours).unwrap();
            reference_encode(&small, block, minis, &mut reference);
            prop_assert_eq!(ours, reference);
        }

        #[test]
        fn mutated_pages_never_panic(v in proptest::collection::vec(any::<i32>(), 1..300),
                                     at in any::<usize>(), byte in any::<u8>()) {
            let mut page = Vec::new();
            encode(&v, &mut page);
            let i = at % page.len();
            page[i] = byte;
            let _ = decode::<i32>(&page, v.len(), &mut vec![]);
        }
    }
}

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn encode_example() {
        use crate::core::encoding::delta_binary_packed::{decode, encode};
        let mut page = Vec::new();
        encode(&[1i64, 2, 3, 4, 5], &mut page);
        // Header 128, 4, 5 values, first 1; one block: min delta 1, widths 0 0 0 0, no data.
        assert_eq!(page, [0x80, 0x01, 4, 5, 2, 2, 0, 0, 0, 0]);
        let mut out: Vec<i64> = Vec::new();
        assert_eq!(decode(&page, 5, &mut out).unwrap(), page.len());
        assert_eq!(out, [1, 2, 3, 4, 5]);
    }
}
