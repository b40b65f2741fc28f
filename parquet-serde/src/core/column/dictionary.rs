//! Dictionary pages: decoding the dictionary and expanding indices into values.

use crate::core::encoding::rle::RleDecoder;
use crate::core::values::{gather, ColumnValues, GatherError};
use crate::error::{Error, Result};

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
        gather(&self.values, indices, out).map_err(|e| match e {
            GatherError::OutOfRange { index, len } => Error::corrupt(format!(
                "dictionary index {index} out of range for a dictionary of {len} values"
            )),
            GatherError::TypeMismatch => {
                Error::corrupt("dictionary type differs from the column type")
            }
        })
    }
}
