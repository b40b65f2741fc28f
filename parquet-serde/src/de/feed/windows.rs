//! [`Windows`]: a row group's projected columns decoded a window of rows at a time (see
//! [`ReadOptions::batch_rows`](crate::ReadOptions::batch_rows)), so that only a window's
//! values are in memory at once, in buffers the allocator hands back warm.
//!
//! Each column's reader is [parked](ColumnChunkReader::park) between windows: it keeps its
//! page, its dictionary and its counts, but not the chunk's bytes, which are fetched again
//! (borrowed, for in-memory sources) or kept (when the source handed them over owned) for
//! the next window. Entries read past a window's last row wait in the column's carry. The
//! text of a chunk whose pages are dictionary-encoded stays in a copy of its dictionary
//! when that is small next to a window (as whole chunks lend theirs).

use std::borrow::Cow;
use std::sync::{Arc, Mutex, PoisonError};

use crate::core::column::{count_level, ColumnBatch, ColumnChunkReader, LentValues};
use crate::core::file::{ChunkReader, FileReader};
use crate::core::format::Type;
use crate::core::schema::ColumnDescriptor;
use crate::error::{Error, ErrorKind, Result};

use super::super::cursor::Cursor;
use super::row_pages::{levels_of, move_levels_tail, move_tail, take_carry};
use super::{cursor_of, entries_past_last_row, stored_bytes, Group, PARALLEL_LOAD_BYTES};

/// One column chunk read window by window: its parked reader and what it read past the
/// last window. The chunk's bytes are the caller's to hand in each time.
#[derive(Debug)]
struct ColumnWindows {
    /// The chunk's reader between windows (`None` only while a window is decoded, or
    /// after a failure).
    reader: Option<ColumnChunkReader<'static>>,
    /// Entries read past the last window's rows.
    carry: ColumnBatch,
    /// While the values are lent from the dictionary: the dictionary indices of the
    /// values carried (their levels are in `carry`).
    carry_indices: Vec<u32>,
    /// The values are lent from the dictionary (a BYTE_ARRAY chunk whose pages so far are
    /// all dictionary-encoded, with a small enough dictionary).
    lend: bool,
    /// The chunk has no data page left.
    done: bool,
    max_def: i16,
    max_rep: i16,
    /// The column's physical type and width, for empty batches.
    physical: Type,
    type_length: i32,
}

/// The level entry at which row `rows` of `b` (a repeated leaf's batch) starts; `None` when
/// `b` holds no more than `rows` rows.
fn row_start(b: &ColumnBatch, rows: usize) -> Option<usize> {
    b.rep_levels
        .iter()
        .enumerate()
        .filter(|(_, &r)| r == 0)
        .nth(rows)
        .map(|(i, _)| i)
}

impl ColumnWindows {
    /// Windows of the chunk `reader` reads (parked), a leaf of type `physical` (of width
    /// `type_length`) with the given maximum levels.
    fn new(
        reader: ColumnChunkReader<'static>,
        (physical, type_length): (Type, i32),
        max_def: i16,
        max_rep: i16,
    ) -> Self {
        ColumnWindows {
            reader: Some(reader),
            carry: ColumnBatch::new(physical, type_length),
            carry_indices: Vec::new(),
            lend: physical == Type::ByteArray,
            done: false,
            max_def,
            max_rep,
            physical,
            type_length,
        }
    }

    /// The next `rows` rows of the chunk, whose bytes are `bytes` (fewer rows only when
    /// the chunk ends first: the cursor's check then refuses them), in the buffers of
    /// `spare` when it is an empty batch of the column's type. The values of a BYTE_ARRAY
    /// chunk whose pages so far are all dictionary-encoded stay in the dictionary (a copy
    /// of it, when it is small next to the window: at most [`LEND_BYTES_PER_ROW`] bytes a
    /// row); the batch then holds the levels alone.
    fn next(
        &mut self,
        bytes: &[u8],
        rows: usize,
        spare: Option<ColumnBatch>,
    ) -> Result<(ColumnBatch, Option<LentValues>)> {
        let (max_def, max_rep) = (self.max_def, self.max_rep);
        let (physical, width) = (self.physical, self.type_length);
        let mut out = take_carry(&mut self.carry, spare, || ColumnBatch::new(physical, width));
        let lending = self.lend;
        if lending {
            let carried = std::mem::take(&mut self.carry_indices);
            self.reader_mut()?.lend(carried);
        }
        // A required flat leaf has no levels: while lent, its entries are its indices.
        let counts_lent = max_def == 0 && max_rep == 0;
        // A repeated leaf's last row may go on in the next page: its end is known once the
        // next row starts (or the chunk ends). Its rows are counted as pages come in.
        let (mut scanned, mut started) = (0, 0);
        let mut enough = |b: &ColumnBatch, lent: usize| match max_rep {
            0 => levels_of(b, max_def, max_rep) + if counts_lent { lent } else { 0 } >= rows,
            _ => {
                started += count_level(&b.rep_levels[scanned..], 0);
                scanned = b.rep_levels.len();
                started > rows
            }
        };
        let lent_now = self.reader_mut()?.lent_len();
        if !self.done && !enough(&out, lent_now) {
            self.read_until(bytes, &mut out, enough)?;
        }
        let reader = self.reader_mut()?;
        let lent = match lending.then(|| reader.take_lent()).flatten() {
            Some(indices) => {
                let max_bytes = rows.saturating_mul(LEND_BYTES_PER_ROW);
                match reader.dictionary_copy(max_bytes) {
                    Some(dictionary) => Some(LentValues {
                        dictionary,
                        indices,
                    }),
                    // Too large a dictionary to copy for each window: its values are
                    // copied out instead, from now on.
                    None => {
                        reader.gather_lent(&indices, &mut out.values)?;
                        self.lend = false;
                        None
                    }
                }
            }
            // A page of another encoding ended the lending (the values were copied out).
            None => {
                self.lend = false;
                None
            }
        };
        let entries = match &lent {
            Some(lent) if counts_lent => lent.indices.len(),
            _ => levels_of(&out, max_def, max_rep),
        };
        let cut = match max_rep {
            0 => Some(rows).filter(|&r| r < entries),
            _ => row_start(&out, rows),
        };
        match (cut, lent) {
            (Some(cut), Some(mut lent)) => {
                let values = move_levels_tail(&mut out, &mut self.carry, cut, max_def);
                self.carry_indices = lent.indices.split_off(values.min(lent.indices.len()));
                Ok((out, Some(lent)))
            }
            (Some(cut), None) => {
                move_tail(&mut out, &mut self.carry, cut, max_def);
                Ok((out, None))
            }
            (None, lent) => Ok((out, lent)),
        }
    }

    /// The parked reader.
    fn reader_mut(&mut self) -> Result<&mut ColumnChunkReader<'static>> {
        self.reader.as_mut().ok_or_else(lost_reader)
    }

    /// Decodes pages into `out` until `enough` holds (of `out` and the values lent so
    /// far) or the chunk ends.
    fn read_until(
        &mut self,
        bytes: &[u8],
        out: &mut ColumnBatch,
        mut enough: impl FnMut(&ColumnBatch, usize) -> bool,
    ) -> Result<()> {
        let parked = self.reader.take().ok_or_else(lost_reader)?;
        let mut reader = parked.resume(bytes)?;
        while !enough(out, reader.lent_len()) {
            if !reader.read_page(out)? {
                self.done = true;
                break;
            }
        }
        self.reader = Some(reader.park());
        Ok(())
    }

    /// Checks, after the row group's last window, that the chunk holds no entry past it.
    fn finish(&mut self, bytes: &[u8]) -> Result<()> {
        let (max_def, max_rep) = (self.max_def, self.max_rep);
        let (physical, width) = (self.physical, self.type_length);
        let mut rest = take_carry(&mut self.carry, None, || ColumnBatch::new(physical, width));
        let carried = std::mem::take(&mut self.carry_indices).len();
        if carried == 0 && !self.done {
            self.read_until(bytes, &mut rest, |b, _| levels_of(b, max_def, max_rep) > 0)?;
        }
        if carried > 0 || levels_of(&rest, max_def, max_rep) > 0 {
            return Err(entries_past_last_row());
        }
        Ok(())
    }
}

/// The error of a column whose parked reader is gone (a window that failed part-way, whose
/// row group should have ended there).
fn lost_reader() -> Error {
    Error::new(
        ErrorKind::Internal,
        "a column read window by window lost its reader",
    )
}

/// Bytes of dictionary values per window row up to which a window's text values stay in
/// their dictionary (a copy of it per window) rather than being copied out.
const LEND_BYTES_PER_ROW: usize = 16;

/// The buffers of windows whose rows were read (their cursors dropped, or their batches),
/// per leaf column, for the next windows: the allocator's fresh memory costs a page fault
/// per page on first touch, and a window's buffers are large.
#[derive(Debug)]
pub(in crate::de) struct Spares {
    per_leaf: Mutex<Vec<Vec<ColumnBatch>>>,
}

/// Spare batches kept per leaf column, at most (a reader holding batches alive while it
/// reads the next ones keeps no more).
const SPARES_PER_LEAF: usize = 2;

impl Spares {
    /// A pool for the `leaves` leaf columns of a schema.
    pub fn new(leaves: usize) -> Arc<Self> {
        Arc::new(Spares {
            per_leaf: Mutex::new((0..leaves).map(|_| Vec::new()).collect()),
        })
    }

    /// Keeps `cursor`'s buffers, emptied, for leaf `col`.
    fn give(&self, col: usize, cursor: Cursor) {
        let spare = cursor.into_spare().batch;
        let mut per_leaf = self.per_leaf.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(kept) = per_leaf.get_mut(col) {
            if kept.len() < SPARES_PER_LEAF {
                kept.push(spare);
            }
        }
    }

    /// Keeps the buffers of every cursor of `cursors` (one per leaf column), leaving none.
    pub fn take_back(&self, cursors: &mut [Option<Cursor>]) {
        for (col, cursor) in cursors.iter_mut().enumerate() {
            if let Some(cursor) = cursor.take() {
                self.give(col, cursor);
            }
        }
    }

    /// Buffers kept for leaf `col`, if any.
    fn take(&self, col: usize) -> Option<ColumnBatch> {
        let mut per_leaf = self.per_leaf.lock().unwrap_or_else(PoisonError::into_inner);
        per_leaf.get_mut(col)?.pop()
    }
}

/// A row group's projected columns read a window of at most `window` rows at a time.
#[derive(Debug)]
pub(super) struct Windows {
    rg: usize,
    /// The file row of the row group's first row.
    first_row: u64,
    /// Rows of the row group, and of them those handed out in windows so far.
    rows: usize,
    done: usize,
    window: usize,
    /// The projected columns, in projected order (each behind a lock of its own, for
    /// windows decoded on several threads).
    columns: Vec<Mutex<Column>>,
    descrs: Vec<ColumnDescriptor>,
    /// Stored bytes of the projected columns in the row group.
    stored: u64,
    /// Buffers of windows read, for the next ones.
    spares: Arc<Spares>,
}

/// A projected column of the row group read window by window.
#[derive(Debug)]
struct Column {
    col: usize,
    windows: ColumnWindows,
    /// The chunk's bytes, when the source handed them over owned (read from a file): kept
    /// for the next windows. `None`: fetched again (borrowed) for each window.
    owned: Option<Vec<u8>>,
}

impl Column {
    /// Opens column `col` of row group `rg` of `file`.
    fn open<R: ChunkReader>(file: &FileReader<R>, rg: usize, col: usize) -> Result<Self> {
        let descr = &file.schema().columns()[col];
        let chunk = file.column_chunk(rg, col)?;
        let reader = chunk
            .chunk_reader(descr, file.options().page_options())
            .park();
        let owned = match chunk.bytes {
            Cow::Owned(bytes) => Some(bytes),
            Cow::Borrowed(_) => None,
        };
        Ok(Column {
            col,
            windows: ColumnWindows::new(
                reader,
                (descr.physical_type, descr.type_length),
                descr.max_def_level,
                descr.max_rep_level,
            ),
            owned,
        })
    }

    /// `f` on the column's windows and its chunk's bytes (kept, or fetched from `file`).
    fn with_bytes<R: ChunkReader, T>(
        &mut self,
        file: &FileReader<R>,
        rg: usize,
        f: impl FnOnce(&mut ColumnWindows, &[u8]) -> Result<T>,
    ) -> Result<T> {
        match &self.owned {
            Some(bytes) => f(&mut self.windows, bytes),
            None => f(&mut self.windows, &file.column_chunk_bytes(rg, self.col)?),
        }
    }
}

impl Windows {
    /// Opens the `projected` columns of row group `rg` (`rows` rows, the first of which is
    /// file row `first_row`), to be read `window` rows at a time into buffers from
    /// `spares` when it has some.
    pub fn open<R: ChunkReader>(
        file: &FileReader<R>,
        (rg, first_row, rows): (usize, u64, usize),
        projected: &[usize],
        window: usize,
        spares: Arc<Spares>,
    ) -> Result<Self> {
        let columns = projected
            .iter()
            .map(|&col| Column::open(file, rg, col).map(Mutex::new))
            .collect::<Result<Vec<_>>>()?;
        let all = file.schema().columns();
        Ok(Windows {
            rg,
            first_row,
            rows,
            done: 0,
            window: window.max(1),
            columns,
            descrs: projected.iter().map(|&c| all[c].clone()).collect(),
            stored: projected
                .iter()
                .map(|&c| stored_bytes(file, c, Some(rg)))
                .sum(),
            spares,
        })
    }

    /// The row group being read.
    pub fn row_group(&self) -> usize {
        self.rg
    }

    /// The next window's group, and the rows each of its columns must hold; `None` after
    /// the last.
    pub fn next_group(&self) -> Option<Group> {
        if self.done >= self.rows {
            return None;
        }
        Some(Group {
            rg: self.rg,
            rows: self.window.min(self.rows - self.done),
            first_row: self.first_row + self.done as u64,
        })
    }

    /// Threads of the `threads` allowed worth decoding window `group` on: all of them when
    /// the window's share of the row group's stored bytes is worth it, else one.
    pub fn threads(&self, group: &Group, threads: usize) -> usize {
        let share = self.stored as u128 * group.rows as u128 / self.rows.max(1) as u128;
        if share >= PARALLEL_LOAD_BYTES as u128 {
            threads
        } else {
            1
        }
    }

    /// `e` located at the column at projected position `k`: the row group and its path.
    fn locate(&self, k: usize, e: Error) -> Error {
        e.with_row_group(self.rg)
            .with_column(self.descrs[k].path.to_string())
    }

    /// Decodes the column at projected position `k` for `group` (the window of
    /// [`next_group`](Self::next_group)) into a cursor.
    pub fn decode<R: ChunkReader>(
        &self,
        file: &FileReader<R>,
        k: usize,
        group: &Group,
    ) -> Result<Cursor> {
        let descr = &self.descrs[k];
        let mut column = self.columns[k]
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let rows = group.rows;
        let spare = self.spares.take(column.col);
        let batch = column
            .with_bytes(file, self.rg, |windows, bytes| {
                windows.next(bytes, rows, spare)
            })
            .map_err(|e| self.locate(k, e))?;
        cursor_of(batch, descr, self.rg, group.rows, window_mismatch)
    }

    /// Counts the window `group` as handed out.
    pub fn advance(&mut self, group: &Group) {
        self.done += group.rows;
    }

    /// Checks, after the last window, that no column holds entries past it.
    pub fn finish<R: ChunkReader>(&mut self, file: &FileReader<R>) -> Result<()> {
        for k in 0..self.columns.len() {
            let rg = self.rg;
            let column = self.columns[k]
                .get_mut()
                .unwrap_or_else(PoisonError::into_inner);
            column
                .with_bytes(file, rg, |windows, bytes| windows.finish(bytes))
                .map_err(|e| self.locate(k, e))?;
        }
        Ok(())
    }
}

/// Words the error of a column whose chunk ended inside a window.
fn window_mismatch(held: usize, rows: usize) -> String {
    format!("column chunk ended {held} rows into a window of {rows} rows of its row group")
}

#[cfg(test)]
mod tests {
    use super::super::row_pages::tests::{chunk, ragged_rows, rows_of, PAGE_SIZES};
    use super::*;
    use crate::core::format::CompressionCodec;
    use crate::core::page::{PageReader, PageReaderOptions};

    /// Windows over `data`, a chunk of `num_values` levels made by [`chunk`] (optional
    /// list of required int32).
    fn open(data: &[u8], num_values: i64) -> ColumnWindows {
        let pages = PageReader::new(
            data,
            0,
            CompressionCodec::Uncompressed,
            num_values,
            PageReaderOptions::default(),
        );
        let reader = ColumnChunkReader::new(pages, Type::Int32, 0, 2, 1).park();
        ColumnWindows::new(reader, (Type::Int32, 0), 2, 1)
    }

    /// Windows of `window` rows over a chunk of `rows` (optional list of required int32)
    /// in pages of `per_page` level entries, cut wherever that falls (inside rows too).
    fn windows_of(rows: &[Vec<i32>], per_page: usize, window: usize) -> Vec<ColumnBatch> {
        let (data, num_values) = chunk(rows, per_page);
        let mut windows = open(&data, num_values);
        let mut out = Vec::new();
        let mut left = rows.len();
        while left > 0 {
            let n = window.min(left);
            // The bytes handed in again each time (a copy: not the same buffer), and the
            // last window's buffers, emptied, to decode into.
            let spare = out.last().map(|b: &ColumnBatch| {
                let mut b = b.clone();
                b.def_levels.clear();
                b.rep_levels.clear();
                crate::core::column::truncate_values(&mut b.values, 0);
                b
            });
            let (batch, lent) = windows.next(&data.clone(), n, spare).unwrap();
            assert!(lent.is_none());
            assert_eq!(
                rows_of_batch(&batch),
                n,
                "window {window}, per_page {per_page}"
            );
            out.push(batch);
            left -= n;
        }
        windows.finish(&data).unwrap();
        out
    }

    fn rows_of_batch(b: &ColumnBatch) -> usize {
        count_level(&b.rep_levels, 0)
    }

    #[test]
    fn windows_cut_at_row_starts_when_pages_cut_rows() {
        let rows = ragged_rows();
        for per_page in PAGE_SIZES {
            for window in [1, 2, 7, 33, 199, 200, 500] {
                let got = windows_of(&rows, per_page, window);
                for b in &got {
                    assert_eq!(b.rep_levels.first(), Some(&0));
                }
                assert_eq!(rows_of(&got), rows, "per_page {per_page}, window {window}");
            }
        }
    }

    #[test]
    fn a_row_over_many_pages_stays_whole() {
        let rows = vec![vec![1], (0..50).collect::<Vec<i32>>(), vec![7], vec![]];
        for window in [1, 2, 3] {
            assert_eq!(rows_of(&windows_of(&rows, 4, window)), rows);
        }
    }

    #[test]
    fn bytes_of_another_length_are_refused_and_entries_left_over_are_an_error() {
        let rows: Vec<Vec<i32>> = (0..20).map(|i| vec![i]).collect();
        let (data, num_values) = chunk(&rows, 3);
        let e = open(&data, num_values)
            .next(&data[1..], 5, None)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Internal, "{e}");
        // A row group of 15 rows over a chunk of 20.
        let mut windows = open(&data, num_values);
        assert_eq!(rows_of_batch(&windows.next(&data, 15, None).unwrap().0), 15);
        let e = windows.finish(&data).unwrap_err();
        assert!(e.to_string().contains("past the last row"), "{e}");
    }
}
