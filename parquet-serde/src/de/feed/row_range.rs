//! [`RowRange`]: a run of rows of one row group, only the pages holding them fetched and
//! decoded (found by the offset index), on the thread that assembles them: a part of a
//! parallel read that splits a large row group among threads.

use std::ops::Range;

use crate::core::file::{ChunkReader, FileReader, RowSelection};
use crate::error::{Error, Result};

use super::super::rows::Assembly;
use super::in_order::in_order;
use super::{cursor_of, first_row, group_rows, install, Feeder, Group};

/// Feeds rows `rows` (counted in the row group) of row group `rg` alone.
#[derive(Debug)]
pub(in crate::de) struct RowRange {
    rg: usize,
    rows: Range<u64>,
    done: bool,
}

impl RowRange {
    /// Feeds rows `rows` of row group `rg`.
    pub fn new(rg: usize, rows: Range<u64>) -> Self {
        RowRange {
            rg,
            rows,
            done: false,
        }
    }

    /// Whether every column of `projected` in row group `rg` has an offset index, so that
    /// a range of rows reads only its pages (else each range would decode the whole chunk).
    pub fn indexed<R: ChunkReader>(file: &FileReader<R>, rg: usize, projected: &[usize]) -> bool {
        projected
            .iter()
            .all(|&col| matches!(file.offset_pages(rg, col), Ok(Some(p)) if !p.pages.is_empty()))
    }
}

impl Feeder for RowRange {
    fn next_group<R: ChunkReader>(
        &mut self,
        file: &FileReader<R>,
        asm: &mut Assembly,
    ) -> Option<Result<Group>> {
        if std::mem::replace(&mut self.done, true) {
            return None;
        }
        let rg = self.rg;
        let loaded = (|| {
            let all = group_rows(file, rg)? as u64;
            let rows = self.rows.start.min(all)..self.rows.end.min(all);
            let n = usize::try_from(rows.end - rows.start)
                .map_err(|_| Error::corrupt("row count exceeds memory"))?;
            let selection = RowSelection::from_ranges([rows.clone()]);
            let cursors = in_order(&asm.projected, |col| {
                let descr = &file.schema().columns()[col];
                let at = |e: Error| e.with_row_group(rg).with_column(descr.path.to_string());
                let pages = file.offset_pages(rg, col).map_err(at)?;
                let batch = file
                    .read_rows_in_pages(rg, col, &selection, pages.as_ref())
                    .map_err(at)?;
                cursor_of(batch, descr, rg, n, |held, due| {
                    format!("column holds {held} rows of a range of {due}")
                })
            });
            install(asm, cursors)?;
            Ok(Group {
                rg,
                rows: n,
                // Errors count rows from the range's first one.
                first_row: first_row(file, rg) + rows.start,
            })
        })();
        Some(loaded)
    }
}
