//! Decoding a row group's projected columns in order on the calling thread: what small
//! row groups (and readers allowed one thread) do.

use crate::core::file::{ChunkReader, FileReader};
use crate::error::Result;

use super::super::cursor::Cursor;
use super::{chunk_mismatch, cursor_of};

/// `decode(col)` for every column of `projected`, in order, stopping at the first error
/// (the last result then).
pub(super) fn in_order(
    projected: &[usize],
    decode: impl Fn(usize) -> Result<Cursor>,
) -> Vec<Result<Cursor>> {
    let mut out = Vec::with_capacity(projected.len());
    for &col in projected {
        let cursor = decode(col);
        let failed = cursor.is_err();
        out.push(cursor);
        if failed {
            break;
        }
    }
    out
}

/// Fetches and decodes column `col` of row group `rg` (of `rows` rows) into a cursor.
///
/// Text values stay in their pages: rows handed out one by one, then dropped, copy each
/// string when their row is built, which keeps the allocator's memory warm (strings built
/// ahead for the whole row group measured slower for such a stream). Those of a column
/// whose pages are all dictionary-encoded stay in the dictionary.
pub(super) fn load_column<R: ChunkReader>(
    file: &FileReader<R>,
    rg: usize,
    rows: usize,
    col: usize,
) -> Result<Cursor> {
    cursor_of(
        file.read_column_lent(rg, col)?,
        &file.schema().columns()[col],
        rg,
        rows,
        chunk_mismatch,
    )
}
