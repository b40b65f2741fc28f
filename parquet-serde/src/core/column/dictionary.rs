//! Dictionary pages: decoding the dictionary and expanding indices into values.

use crate::core::encoding::rle::RleDecoder;
use crate::core::values::{gather, ByteArrays, ColumnValues, GatherError};
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
        scratch.clear();
        self.index_runs(data, n, scratch, |run| {
            self.gather(run, out)?;
            run.clear();
            Ok(())
        })
    }

    /// [`decode_indices`](Self::decode_indices) that appends the indices themselves to
    /// `out`, each checked to name a value of the dictionary (for values lent from it
    /// instead of copied out).
    pub fn decode_indices_lent(&self, data: &[u8], n: usize, out: &mut Vec<u32>) -> Result<()> {
        let len = self.values.len();
        let start = out.len();
        let mut checked = start;
        self.index_runs(data, n, out, |run| {
            // The run's indices, in one vectorized pass for the largest.
            let new = &run[checked..];
            let max = new.iter().fold(0u32, |m, &i| m.max(i));
            if new.is_empty() || (max as usize) < len {
                checked = run.len();
                return Ok(());
            }
            let index = new
                .iter()
                .copied()
                .find(|&i| i as usize >= len)
                .unwrap_or(max);
            Err(out_of_range(index, len))
        })
        .inspect_err(|_| out.truncate(start))
    }

    /// Decodes the `n` indices of `data` a bounded run at a time, appended to `buf`, calling
    /// `run` after each (which may take them out of `buf`).
    fn index_runs(
        &self,
        data: &[u8],
        n: usize,
        buf: &mut Vec<u32>,
        mut run: impl FnMut(&mut Vec<u32>) -> Result<()>,
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
            let at = buf.len();
            buf.resize(at + want, 0);
            let got = decoder.next_batch_u32(&mut buf[at..])?;
            if got != want {
                buf.truncate(at);
                return Err(Error::corrupt(format!(
                    "page holds {} dictionary indices, expected {n}",
                    done + got
                )));
            }
            run(buf)?;
            done += want;
        }
        Ok(())
    }

    /// The values of a BYTE_ARRAY dictionary; the error [`gather`](Self::gather) gives
    /// for any other.
    pub fn into_byte_arrays(self) -> Result<ByteArrays> {
        match self.values {
            ColumnValues::ByteArray(values) => Ok(values),
            _ => Err(type_mismatch()),
        }
    }

    /// A copy of the values of a BYTE_ARRAY dictionary of at most `max_bytes` bytes of
    /// values; `None` for any other.
    pub fn byte_arrays(&self, max_bytes: usize) -> Option<ByteArrays> {
        match &self.values {
            ColumnValues::ByteArray(v) if v.data.len() <= max_bytes => Some(v.clone()),
            _ => None,
        }
    }

    /// Appends the values at `indices` to `out` (same physical type).
    pub fn gather(&self, indices: &[u32], out: &mut ColumnValues) -> Result<()> {
        gather(&self.values, indices, out).map_err(|e| match e {
            GatherError::OutOfRange { index, len } => out_of_range(index, len),
            GatherError::TypeMismatch => type_mismatch(),
        })
    }
}

/// The error of a dictionary whose physical type is not its column's.
fn type_mismatch() -> Error {
    Error::corrupt("dictionary type differs from the column type")
}

/// The error of a dictionary index `index` past a dictionary of `len` values.
fn out_of_range(index: u32, len: usize) -> Error {
    Error::corrupt(format!(
        "dictionary index {index} out of range for a dictionary of {len} values"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::values::ByteArrays;

    fn two_words() -> Dictionary {
        let mut words = ByteArrays::new();
        words.push(b"a");
        words.push(b"bc");
        Dictionary {
            values: ColumnValues::ByteArray(words),
        }
    }

    #[test]
    fn lent_indices_are_the_gathered_values_and_are_checked_in_range() {
        let dict = two_words();
        // Bit width 1, then a bit-packed group of 8 (header 0b11): 1,0,1,1,0,0,0,1.
        let page = [1u8, 0b11, 0b1000_1101];
        let mut lent = vec![7];
        dict.decode_indices_lent(&page, 8, &mut lent).unwrap();
        assert_eq!(lent, [7, 1, 0, 1, 1, 0, 0, 0, 1]);
        let mut gathered = ColumnValues::ByteArray(ByteArrays::new());
        dict.decode_indices(&page, 8, &mut Vec::new(), &mut gathered)
            .unwrap();
        let ColumnValues::ByteArray(g) = gathered else {
            unreachable!()
        };
        let words: Vec<&[u8]> = g.iter().collect();
        assert_eq!(
            words,
            [&b"bc"[..], b"a", b"bc", b"bc", b"a", b"a", b"a", b"bc"]
        );
        // An RLE run of 4 times index 5 (bit width 3): past the dictionary's 2 values.
        let bad = [3u8, 4 << 1, 5];
        let e = dict.decode_indices_lent(&bad, 4, &mut lent).unwrap_err();
        assert!(
            e.to_string()
                .contains("dictionary index 5 out of range for a dictionary of 2 values"),
            "{e}"
        );
        assert_eq!(lent.len(), 9, "nothing appended on error");
        // Fewer indices than the page header announces.
        let e = dict.decode_indices_lent(&page, 20, &mut lent).unwrap_err();
        assert!(
            e.to_string()
                .contains("page holds 8 dictionary indices, expected 20"),
            "{e}"
        );
        assert_eq!(lent.len(), 9);
    }
}
