//! [`Filtered`]: the row groups a predicate matches, and in them only the selected rows.

use std::fmt;

use crate::core::file::{ChunkReader, FileReader, RowSelection};
use crate::error::{Error, Result};
use crate::filter::Predicate;
use crate::filter::{bind_predicate, Bound, Candidate, Filter, FilterOptions, FilterReport};

use super::super::cursor::Cursor;
use super::super::rows::Assembly;
use super::{columns, cursor_of, first_row, install, Feeder, Group};

/// The selected rows of a row group, their count, and the cursors of its projected columns
/// over those rows (in projected order; decoded in order, they stop at the first error).
type SelectedGroup = (RowSelection, usize, Vec<Result<Cursor>>);

/// Feeds the rows a predicate selects: row groups are skipped by statistics, dictionaries
/// and Bloom filters, pages by the page index, and each candidate row group's predicate
/// columns are tested row by row; the projected columns are then decoded for the selected
/// rows only (shared out among the allowed threads when worth it).
pub(in crate::de) struct Filtered {
    /// The predicate, its binding and options (taken out while a row group is matched).
    parts: Option<(Predicate, Bound, FilterOptions)>,
    candidates: std::vec::IntoIter<Candidate>,
    report: FilterReport,
    /// The selected rows of the row group being read.
    selected: RowSelection,
}

impl fmt::Debug for Filtered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Filtered")
            .field("predicate", &self.predicate())
            .field("report", &self.report)
            .finish_non_exhaustive()
    }
}

impl Filtered {
    /// Binds `predicate` to the schema of `file` and prunes its row groups.
    pub fn new<R: ChunkReader>(
        file: &FileReader<R>,
        predicate: Predicate,
        options: FilterOptions,
    ) -> Result<Filtered> {
        let bound = bind_predicate(&predicate, file.schema())?;
        let filter = Filter::from_parts(file, predicate, bound, options);
        let (candidates, report) = filter.prune_inner()?;
        Ok(Filtered {
            parts: Some(filter.into_parts()),
            candidates: candidates.into_iter(),
            report,
            selected: RowSelection::none(),
        })
    }

    /// The predicate (`None` only while a row group is matched).
    pub fn predicate(&self) -> Option<&Predicate> {
        self.parts.as_ref().map(|p| &p.0)
    }

    /// What the filter skipped so far.
    pub fn report(&self) -> &FilterReport {
        &self.report
    }
}

impl Feeder for Filtered {
    /// Matches the next candidate row group and decodes the projected columns for its
    /// selected rows only.
    ///
    /// With more than one thread allowed and enough stored bytes, the projected columns
    /// are shared out among that many threads; the error reported is still the first
    /// failing column's in schema order.
    fn next_group<R: ChunkReader>(
        &mut self,
        file: &FileReader<R>,
        asm: &mut Assembly,
    ) -> Option<Result<Group>> {
        let threads = file.options().threads;
        loop {
            let candidate = self.candidates.next()?;
            let rg = candidate.rg;
            let (predicate, bound, options) = self.parts.take()?;
            let filter = Filter::from_parts(file, predicate, bound, options);
            let projected = &asm.projected;
            let loaded = (|| -> Result<Option<SelectedGroup>> {
                let Some(m) = filter.match_candidate(candidate)? else {
                    return Ok(None);
                };
                let rows = usize::try_from(m.selected.row_count())
                    .map_err(|_| Error::corrupt("row count exceeds memory"))?;
                let decode = |col: usize| {
                    let descr = &file.schema().columns()[col];
                    let batch = filter
                        .read_selected(&m, col)
                        .map_err(|e| e.with_row_group(rg).with_column(descr.path.to_string()))?;
                    cursor_of((batch, None), descr, rg, rows, |held, rows| {
                        format!("column holds {held} selected rows, the filter selected {rows}")
                    })
                };
                let cursors = columns(file, rg, projected, threads, decode);
                Ok(Some((m.selected, rows, cursors)))
            })();
            self.parts = Some(filter.into_parts());
            let (selected, rows, cursors) = match loaded {
                Ok(Some(x)) => x,
                Ok(None) => continue,
                Err(e) => {
                    asm.clear_cursors();
                    return Some(Err(e.with_row_group(rg)));
                }
            };
            self.report.rows_selected += selected.row_count();
            self.selected = selected;
            let group = Group {
                rg,
                rows,
                first_row: first_row(file, rg),
            };
            return Some(install(asm, cursors).map(|()| group));
        }
    }

    /// The row's place in the file: the `k`th selected row of the group.
    fn file_row(&self, group: &Group, k: usize) -> u64 {
        let mut k = k as u64;
        for r in self.selected.ranges() {
            let len = r.end - r.start;
            if k < len {
                return group.first_row + r.start + k;
            }
            k -= len;
        }
        group.first_row
    }

    fn file_rows(&self, group: &Group) -> Vec<std::ops::Range<u64>> {
        let at = |r: &std::ops::Range<u64>| group.first_row + r.start..group.first_row + r.end;
        self.selected.ranges().iter().map(at).collect()
    }
}
