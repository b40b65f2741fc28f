//! [`RowPages`]: a column chunk decoded a few pages at a time, cut at row starts, so that
//! every batch it hands out holds whole rows (a row may span pages in files of other
//! writers; its entries then wait for the next batch).

use crate::core::column::{
    count_level, extend_values, truncate_values, ColumnBatch, ColumnChunkReader,
};
use crate::error::Result;

/// Batches of whole rows from one column chunk.
#[derive(Debug)]
pub(crate) struct RowPages<'a> {
    reader: ColumnChunkReader<'a>,
    max_def: i16,
    max_rep: i16,
    /// Entries of the last row read, which the next page may continue.
    carry: ColumnBatch,
    done: bool,
}

impl<'a> RowPages<'a> {
    /// Batches from `reader`, a reader of a leaf with the given maximum levels.
    pub fn new(reader: ColumnChunkReader<'a>, max_def: i16, max_rep: i16) -> Self {
        let carry = reader.new_batch();
        RowPages {
            reader,
            max_def,
            max_rep,
            carry,
            done: false,
        }
    }

    /// The next batch of whole rows (at least one data page's worth, unless the chunk
    /// ends), `None` after the last. A chunk that starts inside a row comes out as a batch
    /// starting inside a row, for the caller's checks to refuse.
    #[cfg(test)]
    pub fn next_batch(&mut self) -> Result<Option<ColumnBatch>> {
        self.next_batch_in(None)
    }

    /// [`next_batch`](Self::next_batch) into `spare`, an empty batch of the column's type
    /// whose buffers are reused.
    pub fn next_batch_in(&mut self, spare: Option<ColumnBatch>) -> Result<Option<ColumnBatch>> {
        if self.done {
            return Ok(None);
        }
        let mut out = take_carry(&mut self.carry, spare, || self.reader.new_batch());
        loop {
            if !self.reader.read_page(&mut out)? {
                self.done = true;
                break;
            }
            if self.max_rep == 0 {
                if out.num_levels() > 0 {
                    break;
                }
                continue;
            }
            // Cut before the last row start: that row may go on in the next page.
            if let Some(cut) = out
                .rep_levels
                .iter()
                .rposition(|&r| r == 0)
                .filter(|&i| i > 0)
            {
                move_tail(&mut out, &mut self.carry, cut, self.max_def);
                break;
            }
        }
        if self.done && levels_of(&out, self.max_def, self.max_rep) == 0 {
            return Ok(None);
        }
        Ok(Some(out))
    }
}

/// The entries carried over from the last batch (`carry`, left empty) as the start of the
/// next one: moved into `spare` when it is an empty batch of the same type (its buffers are
/// reused), else handed over whole (`new` then makes the next carry).
pub(super) fn take_carry(
    carry: &mut ColumnBatch,
    spare: Option<ColumnBatch>,
    new: impl FnOnce() -> ColumnBatch,
) -> ColumnBatch {
    match spare {
        // An empty batch from this column (so of its type): the carried row moves in.
        Some(mut out)
            if out.values.is_empty()
                && out.def_levels.is_empty()
                && out.rep_levels.is_empty()
                && std::mem::discriminant(&out.values) == std::mem::discriminant(&carry.values) =>
        {
            out.def_levels.extend_from_slice(&carry.def_levels);
            out.rep_levels.extend_from_slice(&carry.rep_levels);
            extend_values(&mut out.values, &carry.values, 0..carry.values.len());
            carry.def_levels.clear();
            carry.rep_levels.clear();
            truncate_values(&mut carry.values, 0);
            out
        }
        _ => std::mem::replace(carry, new()),
    }
}

/// Moves the entries of `out` (a leaf with maximum definition level `max_def`) from level
/// entry `cut` on to the end of `carry`.
pub(super) fn move_tail(out: &mut ColumnBatch, carry: &mut ColumnBatch, cut: usize, max_def: i16) {
    let values = move_levels_tail(out, carry, cut, max_def);
    let total = out.values.len();
    extend_values(&mut carry.values, &out.values, values..total);
    truncate_values(&mut out.values, values);
}

/// [`move_tail`] of the levels alone; the values before level entry `cut`.
pub(super) fn move_levels_tail(
    out: &mut ColumnBatch,
    carry: &mut ColumnBatch,
    cut: usize,
    max_def: i16,
) -> usize {
    let values = if max_def > 0 {
        count_level(&out.def_levels[..cut], max_def)
    } else {
        cut
    };
    if max_def > 0 {
        carry.def_levels.extend_from_slice(&out.def_levels[cut..]);
        out.def_levels.truncate(cut);
    }
    if !out.rep_levels.is_empty() {
        carry.rep_levels.extend_from_slice(&out.rep_levels[cut..]);
        out.rep_levels.truncate(cut);
    }
    values
}

/// Level entries of a batch of a leaf with the given maximum levels.
pub(super) fn levels_of(b: &ColumnBatch, max_def: i16, max_rep: i16) -> usize {
    if max_def > 0 {
        b.def_levels.len()
    } else if max_rep > 0 {
        b.rep_levels.len()
    } else {
        b.values.len()
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::core::compression::Compression;
    use crate::core::encoding::levels;
    use crate::core::format::{Encoding, Type};
    use crate::core::page::{PageReader, PageReaderOptions, PageWriter};
    use crate::core::values::ColumnValues;

    /// A chunk of `Vec<i32>` rows (optional list of required int32: def max 2, rep max 1)
    /// in v1 pages of `per_page` level entries each, cut wherever that falls (inside rows
    /// too, as some writers do).
    pub(in crate::de::feed) fn chunk(rows: &[Vec<i32>], per_page: usize) -> (Vec<u8>, i64) {
        let (mut def, mut rep, mut values) = (Vec::new(), Vec::new(), Vec::new());
        for row in rows {
            if row.is_empty() {
                def.push(1);
                rep.push(0);
            }
            for (i, &x) in row.iter().enumerate() {
                values.push(x);
                def.push(2);
                rep.push((i > 0) as i16);
            }
        }
        let mut pages = PageWriter::new(Compression::Uncompressed, true);
        let (mut out, mut v) = (Vec::new(), 0);
        for start in (0..def.len()).step_by(per_page) {
            let end = (start + per_page).min(def.len());
            let mut body = Vec::new();
            levels::encode_rle(&rep[start..end], 1, true, &mut body);
            levels::encode_rle(&def[start..end], 2, true, &mut body);
            for &d in &def[start..end] {
                if d == 2 {
                    body.extend_from_slice(&values[v].to_le_bytes());
                    v += 1;
                }
            }
            pages
                .write_data_v1(&body, end - start, Encoding::Plain, None, &mut out)
                .unwrap();
        }
        (out, def.len() as i64)
    }

    fn batches(data: &[u8], num_values: i64) -> Vec<ColumnBatch> {
        let pages = PageReader::new(
            data,
            0,
            crate::core::format::CompressionCodec::Uncompressed,
            num_values,
            PageReaderOptions::default(),
        );
        let reader = ColumnChunkReader::new(pages, Type::Int32, 0, 2, 1);
        let mut rp = RowPages::new(reader, 2, 1);
        let mut out = Vec::new();
        while let Some(b) = rp.next_batch().unwrap() {
            out.push(b);
        }
        assert!(rp.next_batch().unwrap().is_none());
        out
    }

    pub(in crate::de::feed) fn rows_of(batches: &[ColumnBatch]) -> Vec<Vec<i32>> {
        let mut out: Vec<Vec<i32>> = Vec::new();
        for b in batches {
            let ColumnValues::Int32(v) = &b.values else {
                unreachable!()
            };
            let mut vi = 0;
            for (i, &r) in b.rep_levels.iter().enumerate() {
                if r == 0 {
                    out.push(Vec::new());
                }
                if b.def_levels[i] == 2 {
                    out.last_mut().unwrap().push(v[vi]);
                    vi += 1;
                }
            }
        }
        out
    }

    /// 200 rows of 0 to 6 values each: with small pages, rows cut across pages.
    pub(in crate::de::feed) fn ragged_rows() -> Vec<Vec<i32>> {
        (0..200)
            .map(|i| (0..(i % 7)).map(|k| i * 10 + k).collect())
            .collect()
    }

    /// Level entries per page for [`chunk`]: from one (every row cut) to one page for all.
    pub(in crate::de::feed) const PAGE_SIZES: [usize; 6] = [1, 2, 3, 5, 64, 10_000];

    #[test]
    fn batches_hold_whole_rows_when_pages_split_rows() {
        let rows = ragged_rows();
        for per_page in PAGE_SIZES {
            let (data, num_values) = chunk(&rows, per_page);
            let got = batches(&data, num_values);
            for b in &got {
                assert_eq!(b.rep_levels.first(), Some(&0), "per_page {per_page}");
                assert_eq!(b.rep_levels.len(), b.def_levels.len());
            }
            if per_page <= 5 {
                assert!(got.len() > 10, "small pages give many batches");
            }
            assert_eq!(rows_of(&got), rows, "per_page {per_page}");
        }
    }

    #[test]
    fn one_row_over_many_pages_is_one_batch() {
        let rows = vec![(0..50).collect::<Vec<i32>>(), vec![7]];
        let (data, num_values) = chunk(&rows, 4);
        let got = batches(&data, num_values);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].rep_levels.len(), 50);
        assert_eq!(rows_of(&got), rows);
    }
}
