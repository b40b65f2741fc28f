//! Dictionary pages: decoding the dictionary and expanding indices into values.

use crate::encoding::rle::RleDecoder;
use crate::error::{Error, Result};
use crate::values::{ByteArrays, ColumnValues, FixedLenByteArrays};

/// Dictionary indices decoded at a time (the page header's count is not trusted for room).
const INDEX_RUN: usize = 1 << 16;

/// A decoded dictionary (the values of a dictionary page).
#[derive(Debug, Clone)]
pub(crate) struct Dictionary {
    values: ColumnValues,
}

impl Dictionary {
    /// Decodes `num_values` PLAIN values into the (empty) container `values`.
    pub fn decode(buf: &[u8], num_values: usize, mut values: ColumnValues) -> Result<Self> {
        super::decode::decode_plain(buf, num_values, &mut values)?;
        Ok(Dictionary { values })
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Decodes `n` indices (a bit-width byte, then the RLE/bit-packed hybrid) and appends
    /// the values they name to `out`.
    pub fn decode_indices(
        &self,
        data: &[u8],
        n: usize,
        scratch: &mut Vec<u32>,
        out: &mut ColumnValues,
    ) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        let (&bit_width, rest) = data
            .split_first()
            .ok_or_else(|| Error::corrupt("dictionary-encoded page without a bit width"))?;
        if bit_width > 32 {
            return Err(Error::corrupt(format!(
                "dictionary index bit width {bit_width} > 32"
            )));
        }
        // `n` comes from the page header: the indices are decoded a bounded run at a time,
        // so memory grows only with the values the data really holds.
        let mut decoder = RleDecoder::new(rest, bit_width);
        let mut done = 0;
        while done < n {
            let want = (n - done).min(INDEX_RUN);
            scratch.clear();
            scratch.resize(want, 0);
            let got = decoder.next_batch_u32(scratch)?;
            if got != want {
                return Err(Error::corrupt(format!(
                    "page holds {} dictionary indices, expected {n}",
                    done + got
                )));
            }
            self.gather(scratch, out)?;
            done += want;
        }
        Ok(())
    }

    /// Appends the values at `indices` to `out` (same physical type).
    pub fn gather(&self, indices: &[u32], out: &mut ColumnValues) -> Result<()> {
        let len = self.len();
        if let Some(&bad) = indices.iter().find(|&&i| i as usize >= len) {
            return Err(Error::corrupt(format!(
                "dictionary index {bad} out of range for a dictionary of {len} values"
            )));
        }
        // Every index is < len from here on.
        match (&self.values, out) {
            (ColumnValues::Boolean(d), ColumnValues::Boolean(o)) => gather_copy(d, indices, o),
            (ColumnValues::Int32(d), ColumnValues::Int32(o)) => gather_copy(d, indices, o),
            (ColumnValues::Int64(d), ColumnValues::Int64(o)) => gather_copy(d, indices, o),
            (ColumnValues::Int96(d), ColumnValues::Int96(o)) => gather_copy(d, indices, o),
            (ColumnValues::Float(d), ColumnValues::Float(o)) => gather_copy(d, indices, o),
            (ColumnValues::Double(d), ColumnValues::Double(o)) => gather_copy(d, indices, o),
            (ColumnValues::ByteArray(d), ColumnValues::ByteArray(o)) => gather_bytes(d, indices, o),
            (ColumnValues::FixedLenByteArray(d), ColumnValues::FixedLenByteArray(o)) => {
                gather_fixed(d, indices, o)
            }
            _ => {
                return Err(Error::corrupt(
                    "dictionary type differs from the column type",
                ))
            }
        }
        Ok(())
    }
}

fn gather_copy<T: Copy>(dict: &[T], indices: &[u32], out: &mut Vec<T>) {
    out.reserve(indices.len());
    out.extend(indices.iter().map(|&i| dict[i as usize]));
}

fn gather_bytes(dict: &ByteArrays, indices: &[u32], out: &mut ByteArrays) {
    let bytes: usize = indices
        .iter()
        .map(|&i| dict.offsets[i as usize + 1] - dict.offsets[i as usize])
        .sum();
    out.data.reserve(bytes);
    out.offsets.reserve(indices.len());
    for &i in indices {
        out.push(dict.get(i as usize));
    }
}

fn gather_fixed(dict: &FixedLenByteArrays, indices: &[u32], out: &mut FixedLenByteArrays) {
    out.data.reserve(indices.len() * dict.width);
    for &i in indices {
        out.data.extend_from_slice(dict.get(i as usize));
    }
}
