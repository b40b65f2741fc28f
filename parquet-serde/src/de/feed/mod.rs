//! The ways of feeding the row loop ([`RowLoop`](super::rows::RowLoop)) a row group's
//! cursors, behind one interface, [`Feeder`]:
//!
//! - [`FileOrder`] (file_order.rs): every row group in file order, its projected columns
//!   decoded [in order](in_order) on the calling thread, [shared out](shared_out) among
//!   several threads, or taken from the [read ahead](read_ahead) started while the rows of
//!   the row group before were handed out;
//! - [`Filtered`] (filtered.rs): only the row groups a predicate matches, and in them only
//!   the selected rows (decoded in order or shared out);
//! - [`OneGroup`] (one_group.rs): a single row group, decoded in order on the thread that
//!   assembles it (each row group of a parallel read);
//! - [`pipelined`]: helper threads decode every row group a few pages at a time and send
//!   the runs down channels, while the calling thread assembles (the whole-file reads).
//!
//! Whichever way, the cursors come in projected order and an error is the first failing
//! column's, as one thread decoding them in order would find it.

mod file_order;
mod filtered;
mod in_order;
mod one_group;
pub(super) mod pipelined;
mod read_ahead;
mod row_pages;
mod shared_out;
mod windows;

use crate::core::column::{ColumnBatch, LentValues};
use crate::core::file::{ChunkReader, FileReader};
use crate::core::schema::{ColumnDescriptor, Schema};
use crate::error::{Error, Result};

use super::cursor::Cursor;
use super::rows::Assembly;
use super::state::State;

pub(super) use file_order::FileOrder;
pub(super) use filtered::Filtered;
pub(super) use one_group::OneGroup;
pub(super) use windows::Spares;

/// Stored bytes of a row group's projected columns from which they are decoded on several
/// threads, or ahead (below, starting a thread costs more than it saves).
const PARALLEL_LOAD_BYTES: u64 = 64 << 10;

/// A row group whose cursors a [`Feeder`] installed.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Group {
    /// Row group ordinal in the file.
    pub rg: usize,
    /// Rows the cursors hold.
    pub rows: usize,
    /// The file row of the row group's first row (counted from the start of the file).
    pub first_row: u64,
}

/// A way of feeding the row loop: installs each row group's cursors in the assembly's
/// state, and knows what the row loop needs to locate a row's error.
pub(super) trait Feeder {
    /// Installs the cursors of the next row group (of `file`) into `asm`: the group, `None`
    /// when there is none left. On `Err` no cursor is left installed and the row loop
    /// moves on to the group after.
    fn next_group<R: ChunkReader>(
        &mut self,
        file: &FileReader<R>,
        asm: &mut Assembly,
    ) -> Option<Result<Group>>;

    /// Checks, after the last row of `group`, that every cursor ended with it.
    fn end_group<R: ChunkReader>(
        &mut self,
        file: &FileReader<R>,
        asm: &mut Assembly,
        group: &Group,
    ) -> Result<()> {
        check_finished(&asm.st, &asm.projected, file.schema(), group.rg)
    }

    /// The file row of row `k` of `group` (for errors).
    fn file_row(&self, group: &Group, k: usize) -> u64 {
        group.first_row + k as u64
    }

    /// The file rows of `group`'s rows, as runs in order (what [`file_row`](Self::file_row)
    /// counts through): for a batch, which outlives the feeder's knowledge of its group.
    fn file_rows(&self, group: &Group) -> Vec<std::ops::Range<u64>> {
        std::iter::once(group.first_row..group.first_row + group.rows as u64).collect()
    }

    /// After row `next - 1` of the current group failed half-way: moves every cursor to
    /// the start of row `next`. `false` when this feeder cannot, and the rows end there.
    fn resync(&mut self, asm: &mut Assembly, next: usize) -> bool {
        for &col in &asm.projected {
            if let Some(c) = &mut asm.st.cursors[col] {
                c.seek_row(next);
            }
        }
        true
    }

    /// Whether a row's error came from decoding a column chunk (located by the decoder,
    /// not at the row, as a reader decoding the chunk before any row would report it).
    fn decoding_failed(&self) -> bool {
        false
    }

    /// Where the buffers of a [`Batch`](super::Batch) of this feeder go when it is
    /// dropped, for the next batches: a feeder that decodes windows into reused buffers.
    fn spares(&self) -> Option<std::sync::Arc<Spares>> {
        None
    }
}

/// Row groups in file order, each with the file row its first row is: the numbering the
/// feeders that walk the whole file share.
#[derive(Debug, Default)]
pub(super) struct GroupOrder {
    next: usize,
    /// The file row of the first row of `next`.
    first_row: u64,
}

impl GroupOrder {
    /// The next row group and the file row of its first row; `None` past the last.
    pub fn advance<R: ChunkReader>(&mut self, file: &FileReader<R>) -> Option<(usize, u64)> {
        let rg = self.next;
        let group = file.metadata().file.row_groups.get(rg)?;
        self.next += 1;
        let first_row = self.first_row;
        self.first_row = first_row.saturating_add(group.num_rows.max(0) as u64);
        Some((rg, first_row))
    }
}

/// Rows of row group `rg` (0 for a row group the footer does not list).
pub(super) fn group_rows<R: ChunkReader>(file: &FileReader<R>, rg: usize) -> Result<usize> {
    let rows = file
        .metadata()
        .file
        .row_groups
        .get(rg)
        .map_or(0, |g| g.num_rows.max(0) as u64);
    usize::try_from(rows).map_err(|_| Error::corrupt("row count exceeds memory"))
}

/// The file row of the first row of row group `rg`.
pub(super) fn first_row<R: ChunkReader>(file: &FileReader<R>, rg: usize) -> u64 {
    let groups = &file.metadata().file.row_groups;
    groups[..rg.min(groups.len())]
        .iter()
        .map(|g| g.num_rows.max(0) as u64)
        .sum()
}

/// Stored bytes of column `col` in row group `rg`, or in every row group for `None`.
pub(super) fn stored_bytes<R: ChunkReader>(
    file: &FileReader<R>,
    col: usize,
    rg: Option<usize>,
) -> u64 {
    let groups = &file.metadata().file.row_groups;
    let groups = match rg {
        Some(rg) => groups.get(rg..=rg).unwrap_or(&[]),
        None => groups,
    };
    groups
        .iter()
        .filter_map(|g| g.columns.get(col)?.meta_data.as_ref())
        .map(|m| m.total_compressed_size.max(0) as u64)
        .sum()
}

/// Whether the `projected` columns of row group `rg` are worth decoding on several of
/// `threads` threads, or ahead: more than one thread allowed and enough stored bytes.
fn worth_threads<R: ChunkReader>(
    file: &FileReader<R>,
    rg: usize,
    projected: &[usize],
    threads: usize,
) -> bool {
    let stored: u64 = projected
        .iter()
        .map(|&c| stored_bytes(file, c, Some(rg)))
        .sum();
    threads > 1 && stored >= PARALLEL_LOAD_BYTES
}

/// Words the error of a cursor holding `held` rows where `expected` were due.
type Mismatch = fn(held: usize, expected: usize) -> String;

/// [`Mismatch`] for a whole column chunk.
fn chunk_mismatch(held: usize, rows: usize) -> String {
    format!("column chunk holds {held} rows, its row group {rows}")
}

/// A cursor over `decoded`, the leaf `descr` in row group `rg` (levels and values, or
/// values lent from its dictionary), which must hold `rows` rows (else the error
/// `mismatch` words).
fn cursor_of(
    (batch, lent): (ColumnBatch, Option<LentValues>),
    descr: &ColumnDescriptor,
    rg: usize,
    rows: usize,
    mismatch: Mismatch,
) -> Result<Cursor> {
    let at = |e: Error| e.with_row_group(rg).with_column(descr.path.to_string());
    let cursor = Cursor::lent(batch, lent, descr.max_def_level, descr.max_rep_level).map_err(at)?;
    let n = cursor.rows();
    if n != rows {
        return Err(at(Error::corrupt(mismatch(n, rows))));
    }
    Ok(cursor)
}

/// `decode(col)` for every column of `projected` in row group `rg`, in projected order:
/// [shared out](shared_out::shared_out) among `threads` threads when there are several
/// columns and [`worth_threads`] holds, else [in order](in_order::in_order) on this
/// thread, stopping at the first error.
fn columns<R: ChunkReader>(
    file: &FileReader<R>,
    rg: usize,
    projected: &[usize],
    threads: usize,
    decode: impl Fn(usize) -> Result<Cursor> + Sync,
) -> Vec<Result<Cursor>> {
    if projected.len() > 1 && worth_threads(file, rg, projected, threads) {
        let size = |col| stored_bytes(file, col, Some(rg));
        return shared_out::shared_out(projected, threads, size, decode);
    }
    in_order::in_order(projected, decode)
}

/// Installs `cursors` (in projected order) in `asm`, every other cursor cleared; the
/// first error, with the cursors cleared.
fn install(asm: &mut Assembly, cursors: Vec<Result<Cursor>>) -> Result<()> {
    asm.clear_cursors();
    for (&col, cursor) in asm.projected.iter().zip(cursors) {
        match cursor {
            Ok(cursor) => asm.st.cursors[col] = Some(cursor),
            Err(e) => {
                asm.clear_cursors();
                return Err(e);
            }
        }
    }
    Ok(())
}

/// The error of a column holding level entries past the last row of its row group.
pub(super) fn entries_past_last_row() -> Error {
    Error::corrupt("column has level entries past the last row")
}

/// Checks that the cursors of the `projected` columns of finished row group `rg` hold no
/// level entries past its last row.
fn check_finished(st: &State, projected: &[usize], schema: &Schema, rg: usize) -> Result<()> {
    for &col in projected {
        if let Some(c) = &st.cursors[col] {
            if !c.at_end() {
                return Err(entries_past_last_row()
                    .with_row_group(rg)
                    .with_column(schema.columns()[col].path.to_string()));
            }
        }
    }
    Ok(())
}

/// The feeders of the row iterator ([`Reader`](super::Reader)): every row group, or the
/// rows a filter selects.
#[derive(Debug)]
pub(super) enum ReaderFeed {
    /// Every row group in file order.
    FileOrder(FileOrder),
    /// The row groups and rows a predicate selects.
    Filtered(Box<Filtered>),
}

impl Feeder for ReaderFeed {
    fn next_group<R: ChunkReader>(
        &mut self,
        file: &FileReader<R>,
        asm: &mut Assembly,
    ) -> Option<Result<Group>> {
        match self {
            ReaderFeed::FileOrder(f) => f.next_group(file, asm),
            ReaderFeed::Filtered(f) => f.next_group(file, asm),
        }
    }

    fn file_row(&self, group: &Group, k: usize) -> u64 {
        match self {
            ReaderFeed::FileOrder(f) => f.file_row(group, k),
            ReaderFeed::Filtered(f) => f.file_row(group, k),
        }
    }

    fn file_rows(&self, group: &Group) -> Vec<std::ops::Range<u64>> {
        match self {
            ReaderFeed::FileOrder(f) => f.file_rows(group),
            ReaderFeed::Filtered(f) => f.file_rows(group),
        }
    }

    fn spares(&self) -> Option<std::sync::Arc<Spares>> {
        match self {
            ReaderFeed::FileOrder(f) => f.spares(),
            ReaderFeed::Filtered(f) => f.spares(),
        }
    }
}
