//! The RLE / bit-packing hybrid encoding (levels, booleans, dictionary indices).
//!
//! A sequence of runs, each starting with a ULEB128 header: `count << 1` for an RLE run (one
//! value repeated `count` times, stored in `ceil(bit_width / 8)` little-endian bytes), or
//! `groups << 1 | 1` for a bit-packed run of `groups * 8` values packed LSB first.
//!
//! # Decoding untrusted data
//!
//! [`RleDecoder`] never panics, never loops without consuming input, and never allocates.
//! - Data that ends early (in a run header, in an RLE value, or inside a bit-packed run)
//!   yields the values that are complete, then the decoder reports the end of the data: the
//!   batch functions return fewer values than asked (`Ok`). Callers that need `n` values
//!   check the count; [`decode_dict_indices`] and the level functions do and return an error.
//! - A run header longer than 32 bits, an RLE value wider than the bit width, and a bit
//!   width above 32 are errors ([`ErrorKind::Corrupt`](crate::ErrorKind::Corrupt)).
//! - Runs of length zero are skipped (the format forbids them, some writers emit them).
//! - With bit width 0 and no data at all, the decoder yields zeros without end: every value
//!   of a 0-bit column is 0, and some writers omit the runs.

use super::bitpack::{self, FromPacked};
use crate::error::{Error, Result};

/// Longest run the encoder writes (the format caps run lengths at 2^31 - 1).
const MAX_RUN: usize = (1 << 31) - 1;

/// Most groups of 8 in one bit-packed run of the encoder: its header then fits one byte.
const MAX_GROUPS_PER_PACKED_RUN: usize = 63;

/// Streaming decoder of the hybrid encoding (no length prefix: callers strip it).
#[derive(Debug, Clone)]
pub struct RleDecoder<'a> {
    data: &'a [u8],
    /// Next run header.
    pos: usize,
    bit_width: u8,
    /// Values left in the current RLE run.
    rle_left: usize,
    rle_value: u32,
    /// Values left in the current bit-packed run, not counting `buf`.
    packed_left: usize,
    /// Byte offset of the next packed value (always at a group boundary).
    packed_pos: usize,
    /// Values unpacked ahead from a bit-packed run: `buf[buf_pos..buf_len]`.
    buf: [u32; 32],
    buf_pos: usize,
    buf_len: usize,
    /// Bit width 0 and no data: zeros without end.
    zeros_forever: bool,
}

impl<'a> RleDecoder<'a> {
    /// A decoder of values `bit_width` bits wide (0 to 32). A width above 32 makes every
    /// call return an error.
    pub fn new(data: &'a [u8], bit_width: u8) -> Self {
        RleDecoder {
            data,
            pos: 0,
            bit_width,
            rle_left: 0,
            rle_value: 0,
            packed_left: 0,
            packed_pos: 0,
            buf: [0; 32],
            buf_pos: 0,
            buf_len: 0,
            zeros_forever: bit_width == 0 && data.is_empty(),
        }
    }

    /// The bit width of the values.
    #[cfg_attr(not(feature = "internals"), allow(dead_code))]
    pub fn bit_width(&self) -> u8 {
        self.bit_width
    }

    /// Fills `out` as far as the data goes; returns how many were written (less than
    /// `out.len()` only at the end of the data). Elements of `out` past that count may
    /// have been overwritten.
    pub fn next_batch_u32(&mut self, out: &mut [u32]) -> Result<usize> {
        self.next_batch(out)
    }

    /// Same as [`next_batch_u32`](Self::next_batch_u32) for levels. Fails for bit widths
    /// above 15, whose values do not all fit a non-negative `i16`.
    #[cfg_attr(not(feature = "internals"), allow(dead_code))]
    pub fn next_batch_i16(&mut self, out: &mut [i16]) -> Result<usize> {
        if self.bit_width > 15 {
            return Err(Error::corrupt(format!(
                "level bit width {} is above 15",
                self.bit_width
            )));
        }
        self.next_batch(out)
    }

    /// Same as [`next_batch_u32`](Self::next_batch_u32) for booleans (bit width 1; any
    /// non-zero value is `true`).
    pub fn next_batch_bool(&mut self, out: &mut [bool]) -> Result<usize> {
        self.next_batch(out)
    }

    /// Skips up to `n` values; returns how many were skipped (less than `n` only at the end
    /// of the data).
    #[cfg_attr(not(feature = "internals"), allow(dead_code))]
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        self.check_width()?;
        let mut skipped = 0;
        while skipped < n {
            let want = n - skipped;
            if self.buf_pos < self.buf_len {
                let k = want.min(self.buf_len - self.buf_pos);
                self.buf_pos += k;
                skipped += k;
            } else if self.rle_left > 0 {
                let k = want.min(self.rle_left);
                self.rle_left -= k;
                skipped += k;
            } else if self.packed_left > 0 {
                let groups = want.min(self.packed_left) / 8;
                if groups > 0 {
                    self.packed_pos += groups * self.bit_width as usize;
                    self.packed_left -= groups * 8;
                    skipped += groups * 8;
                } else if !self.fill_buf() {
                    break;
                }
            } else if self.zeros_forever {
                return Ok(n);
            } else if !self.next_run()? {
                break;
            }
        }
        Ok(skipped)
    }

    fn check_width(&self) -> Result<()> {
        if self.bit_width > 32 {
            return Err(Error::corrupt(format!(
                "RLE bit width {} is above 32",
                self.bit_width
            )));
        }
        Ok(())
    }

    #[inline]
    fn next_batch<T: FromPacked>(&mut self, out: &mut [T]) -> Result<usize> {
        self.check_width()?;
        let mut filled = 0;
        while filled < out.len() {
            let rest = &mut out[filled..];
            if self.buf_pos < self.buf_len {
                let avail = &self.buf[self.buf_pos..self.buf_len];
                let k = rest.len().min(avail.len());
                for (o, &v) in rest[..k].iter_mut().zip(avail) {
                    *o = T::from_packed(v);
                }
                self.buf_pos += k;
                filled += k;
            } else if self.rle_left > 0 {
                let k = rest.len().min(self.rle_left);
                rest[..k].fill(T::from_packed(self.rle_value));
                self.rle_left -= k;
                filled += k;
            } else if self.packed_left > 0 {
                let k = rest.len().min(self.packed_left) / 32 * 32;
                if k > 0 {
                    // Whole blocks of 32 straight into the output.
                    let nbytes = k / 32 * 4 * self.bit_width as usize;
                    let Some(src) = self.data.get(self.packed_pos..self.packed_pos + nbytes) else {
                        // Unreachable: packed_left never exceeds the bytes present.
                        self.packed_left = 0;
                        continue;
                    };
                    bitpack::unpack(self.bit_width, src, &mut rest[..k]);
                    self.packed_pos += nbytes;
                    self.packed_left -= k;
                    filled += k;
                } else if let Some(n) = self.finish_packed_run_in_place(rest) {
                    filled += n;
                } else if !self.fill_buf() {
                    self.packed_left = 0;
                }
            } else if self.zeros_forever {
                rest.fill(T::from_packed(0));
                filled = out.len();
            } else if !self.next_run()? {
                break;
            }
        }
        Ok(filled)
    }

    /// The end of a bit-packed run (fewer than 32 values, whole groups) when `out` has room
    /// for 32 and the data holds 32 values' worth of bytes: unpacks a whole block straight
    /// into `out` (the values after the run's end are scratch, overwritten by the next
    /// ones or past the count returned) and consumes only the run's values.
    #[inline]
    fn finish_packed_run_in_place<T: FromPacked>(&mut self, out: &mut [T]) -> Option<usize> {
        let n = self.packed_left;
        let block_bytes = 4 * self.bit_width as usize;
        if out.len() < 32 || n >= 32 || n & 7 != 0 {
            return None;
        }
        let src = self
            .data
            .get(self.packed_pos..self.packed_pos + block_bytes)?;
        bitpack::unpack(self.bit_width, src, &mut out[..32]);
        self.packed_pos += n / 8 * self.bit_width as usize;
        self.packed_left = 0;
        Some(n)
    }

    /// Unpacks up to 32 values of the current bit-packed run into `buf`.
    fn fill_buf(&mut self) -> bool {
        let n = self.packed_left.min(32);
        let src = self.data.get(self.packed_pos..).unwrap_or(&[]);
        match bitpack::unpack_tail(self.bit_width, src, n, &mut self.buf) {
            Some(used) => {
                self.packed_pos += used;
                self.packed_left -= n;
                self.buf_pos = 0;
                self.buf_len = n;
                true
            }
            None => false,
        }
    }

    /// Reads the ULEB128 run header; `None` at the end of the data (or in a cut header).
    fn read_header(&mut self) -> Result<Option<u32>> {
        let mut value = 0u32;
        for i in 0..5 {
            let Some(&b) = self.data.get(self.pos) else {
                self.pos = self.data.len();
                return Ok(None);
            };
            self.pos += 1;
            if i == 4 && b > 0x0F {
                return Err(Error::corrupt(format!(
                    "RLE run header at byte {} is longer than 32 bits",
                    self.pos - 5
                )));
            }
            value |= u32::from(b & 0x7F) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(Some(value));
            }
        }
        // The fifth byte is at most 0x0F, so the loop always returns.
        Ok(None)
    }

    /// Moves to the next non-empty run; false at the end of the data.
    fn next_run(&mut self) -> Result<bool> {
        let width = self.bit_width as usize;
        loop {
            let header_pos = self.pos;
            let Some(header) = self.read_header()? else {
                return Ok(false);
            };
            let count = (header >> 1) as usize;
            if header & 1 == 0 {
                let value_len = width.div_ceil(8);
                let Some(bytes) = self.data.get(self.pos..self.pos + value_len) else {
                    self.pos = self.data.len();
                    return Ok(false);
                };
                self.pos += value_len;
                let value = bytes
                    .iter()
                    .rev()
                    .fold(0u32, |acc, &b| (acc << 8) | u32::from(b));
                if width < 32 && value >> width != 0 {
                    return Err(Error::corrupt(format!(
                        "RLE run at byte {header_pos} repeats {value}, wider than {width} bits"
                    )));
                }
                if count > 0 {
                    self.rle_value = value;
                    self.rle_left = count;
                    return Ok(true);
                }
            } else {
                // count groups of 8 values (at most 2^34 values: fits u64 everywhere).
                let values = count as u64 * 8;
                if width == 0 {
                    // Nothing is stored: a run of zeros.
                    self.rle_value = 0;
                    self.rle_left = usize::try_from(values).map_err(|_| {
                        Error::corrupt(format!("RLE run at byte {header_pos} is too long"))
                    })?;
                    if values > 0 {
                        return Ok(true);
                    }
                    continue;
                }
                let run_bytes = count as u64 * width as u64;
                let avail = (self.data.len() - self.pos) as u64;
                let (bytes, values) = if run_bytes <= avail {
                    (run_bytes, values)
                } else {
                    // Cut short: keep the values that are complete.
                    (avail, avail * 8 / width as u64)
                };
                // Both are at most the data length, so they fit usize.
                self.packed_pos = self.pos;
                self.pos += bytes as usize;
                self.packed_left = values as usize;
                if values > 0 {
                    return Ok(true);
                }
            }
        }
    }
}

/// Decodes `n` dictionary indices of a data page's values section: one byte of bit width
/// (0 to 32), then the hybrid encoding. Appends them to `out` and checks that each is below
/// `dict_len`.
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
pub fn decode_dict_indices(
    input: &[u8],
    n: usize,
    dict_len: usize,
    out: &mut Vec<u32>,
) -> Result<()> {
    if n == 0 {
        return Ok(());
    }
    let (&bit_width, data) = input
        .split_first()
        .ok_or_else(|| Error::corrupt("dictionary indices: the bit width byte is missing"))?;
    if bit_width > 32 {
        return Err(Error::corrupt(format!(
            "dictionary index bit width {bit_width} is above 32"
        )));
    }
    let start = out.len();
    let result = decode_chunked(RleDecoder::new(data, bit_width), n, out, |chunk| {
        let max = chunk.iter().fold(0u32, |m, &v| m.max(v));
        if max as usize >= dict_len {
            return Err(Error::corrupt(format!(
                "dictionary index {max} is out of range for a dictionary of {dict_len} values"
            )));
        }
        Ok(())
    });
    if result.is_err() {
        out.truncate(start);
    }
    result.map_err(|e| e.context("dictionary indices"))
}

/// Appends exactly `n` values from `decoder` to `out`, a bounded chunk at a time (so that a
/// huge `n` from a page header allocates only as much as the data really holds), calling
/// `check` on each chunk. Leaves `out` extended on error; callers truncate.
pub(crate) fn decode_chunked<T: FromPacked + Default>(
    mut decoder: RleDecoder<'_>,
    n: usize,
    out: &mut Vec<T>,
    mut check: impl FnMut(&[T]) -> Result<()>,
) -> Result<()> {
    // Small enough that zero-filling, decoding and checking a chunk stay in L1.
    const CHUNK: usize = 2048;
    let mut done = 0;
    while done < n {
        let k = (n - done).min(CHUNK);
        let at = out.len();
        out.resize(at + k, T::default());
        let got = decoder.next_batch(&mut out[at..])?;
        if got < k {
            return Err(Error::corrupt(format!(
                "RLE data ends after {} of {n} values",
                done + got
            )));
        }
        check(&out[at..])?;
        done += k;
    }
    Ok(())
}

/// Encoder of the hybrid encoding (no length prefix).
///
/// Like other writers, it writes an RLE run for 8 or more repeats that start at a group
/// boundary, and bit-packed runs of up to 63 groups of 8 otherwise; the last group is
/// padded with zeros. Bits of a value above the bit width are dropped.
#[derive(Debug, Clone)]
pub struct RleEncoder {
    bit_width: u8,
    out: Vec<u8>,
    /// Values of the group being collected.
    buffered: [u32; 8],
    num_buffered: usize,
    /// The last value and how many times in a row it came (8 or more: an RLE run is open
    /// and its values are not buffered).
    current: u32,
    repeat_count: usize,
    /// The open bit-packed run: index of its reserved header byte and its groups so far.
    packed_header: Option<usize>,
    packed_groups: usize,
}

impl RleEncoder {
    /// An encoder of values `bit_width` bits wide (0 to 32).
    ///
    /// # Panics
    ///
    /// If `bit_width` is above 32 (a caller bug: widths come from `bit_width(max)`).
    pub fn new(bit_width: u8) -> Self {
        Self::with_buffer(bit_width, Vec::new())
    }

    /// An encoder that appends to `buffer` (returned by [`finish`](Self::finish)).
    ///
    /// # Panics
    ///
    /// If `bit_width` is above 32.
    pub fn with_buffer(bit_width: u8, buffer: Vec<u8>) -> Self {
        assert!(bit_width <= 32, "RLE bit width {bit_width} is above 32");
        RleEncoder {
            bit_width,
            out: buffer,
            buffered: [0; 8],
            num_buffered: 0,
            current: 0,
            repeat_count: 0,
            packed_header: None,
            packed_groups: 0,
        }
    }

    /// Appends values.
    pub fn put_u32(&mut self, values: &[u32]) {
        self.put_slice(values, |v| v);
    }

    /// Appends levels.
    pub fn put_i16(&mut self, values: &[i16]) {
        self.put_slice(values, |v| v as u16 as u32);
    }

    /// Appends booleans (bit width 1).
    pub fn put_bools(&mut self, values: &[bool]) {
        self.put_slice(values, u32::from);
    }

    /// Finishes and returns the encoded bytes.
    pub fn finish(mut self) -> Vec<u8> {
        if self.repeat_count >= 8 {
            self.write_rle_run();
        } else if self.num_buffered > 0 {
            if self.packed_header.is_none() && self.num_buffered == self.repeat_count {
                // Only one value since the last run: a short RLE run is smaller.
                self.write_rle_run();
            } else {
                self.buffered[self.num_buffered..].fill(0);
                self.write_group();
            }
        }
        self.close_packed_run();
        self.out
    }

    #[inline]
    fn mask(&self) -> u32 {
        ((1u64 << self.bit_width) - 1) as u32
    }

    fn put_slice<T: Copy>(&mut self, values: &[T], to_u32: impl Fn(T) -> u32) {
        let mask = self.mask();
        let mut i = 0;
        while i < values.len() {
            let whole = (self.num_buffered == 0 && self.repeat_count < 8)
                .then(|| values[i..].first_chunk::<8>())
                .flatten();
            if let Some(&chunk) = whole {
                // A whole group at once; same result as 8 calls of `put_one`.
                let group: [u32; 8] = chunk.map(|v| to_u32(v) & mask);
                i += 8;
                if group.iter().all(|&v| v == group[0]) {
                    // 8 repeats at a group boundary: an RLE run starts.
                    self.current = group[0];
                    self.repeat_count = 8;
                    self.close_packed_run();
                } else {
                    self.buffered = group;
                    self.write_group();
                    self.current = group[7];
                    self.repeat_count = 0;
                }
                continue;
            }
            if self.repeat_count >= 8 {
                // Inside an RLE run: extend it as far as the value repeats.
                let current = self.current;
                let room = MAX_RUN - self.repeat_count;
                let run = values[i..]
                    .iter()
                    .take(room)
                    .take_while(|&&v| to_u32(v) & mask == current)
                    .count();
                self.repeat_count += run;
                i += run;
                if self.repeat_count == MAX_RUN {
                    self.write_rle_run();
                }
                if i == values.len() {
                    break;
                }
            }
            self.put_one(to_u32(values[i]) & mask);
            i += 1;
        }
    }

    #[inline]
    fn put_one(&mut self, v: u32) {
        if v == self.current {
            self.repeat_count += 1;
            if self.repeat_count > 8 {
                return;
            }
        } else {
            if self.repeat_count >= 8 {
                self.write_rle_run();
            }
            self.repeat_count = 1;
            self.current = v;
        }
        self.buffered[self.num_buffered] = v;
        self.num_buffered += 1;
        if self.num_buffered == 8 {
            self.flush_group();
        }
    }

    /// Called with 8 buffered values.
    fn flush_group(&mut self) {
        if self.repeat_count >= 8 {
            // The 8 values are all `current`: they start an RLE run.
            self.num_buffered = 0;
            self.close_packed_run();
            return;
        }
        self.write_group();
        self.repeat_count = 0;
    }

    /// Writes the 8 buffered values into the open bit-packed run (opening one if needed).
    fn write_group(&mut self) {
        if self.packed_header.is_none() {
            self.packed_header = Some(self.out.len());
            self.out.push(0);
        }
        bitpack::pack8(&self.buffered, self.bit_width, &mut self.out);
        self.num_buffered = 0;
        self.packed_groups += 1;
        if self.packed_groups == MAX_GROUPS_PER_PACKED_RUN {
            self.close_packed_run();
        }
    }

    fn close_packed_run(&mut self) {
        if let Some(at) = self.packed_header.take() {
            // At most 63 groups: the header `groups << 1 | 1` fits one byte.
            self.out[at] = (self.packed_groups << 1 | 1) as u8;
            self.packed_groups = 0;
        }
    }

    fn write_rle_run(&mut self) {
        self.close_packed_run();
        let mut header = (self.repeat_count as u64) << 1;
        while header >= 0x80 {
            self.out.push(header as u8 | 0x80);
            header >>= 7;
        }
        self.out.push(header as u8);
        let value_len = (self.bit_width as usize).div_ceil(8);
        self.out
            .extend_from_slice(&self.current.to_le_bytes()[..value_len]);
        self.repeat_count = 0;
        self.num_buffered = 0;
    }
}

#[cfg(test)]
mod tests;

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn rledecoder_example() {
        use crate::core::encoding::rle::{RleDecoder, RleEncoder};
        let mut enc = RleEncoder::new(2);
        enc.put_u32(&[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 0]);
        let bytes = enc.finish();
        let mut dec = RleDecoder::new(&bytes, 2);
        let mut out = [0u32; 13];
        assert_eq!(dec.next_batch_u32(&mut out).unwrap(), 13);
        assert_eq!(out, [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 0]);
    }

    #[test]
    fn decode_dict_indices_example() {
        use crate::core::encoding::rle::decode_dict_indices;
        // Bit width 2, one bit-packed group of 8 values: 0 1 2 3 0 1 2 3.
        let page = [2, 0b11, 0b1110_0100, 0b1110_0100];
        let mut out = Vec::new();
        decode_dict_indices(&page, 8, 4, &mut out).unwrap();
        assert_eq!(out, [0, 1, 2, 3, 0, 1, 2, 3]);
        assert!(decode_dict_indices(&page, 8, 3, &mut out).is_err());
    }
}
