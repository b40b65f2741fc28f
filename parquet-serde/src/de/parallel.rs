//! Row groups assembled in parallel ([`Reader::read_all_par`](super::Reader::read_all_par)):
//! each row group is decoded and its rows built on one of several threads (from `exec/`),
//! and the rows come back in file order.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde::de::DeserializeOwned;

use crate::core::file::{ChunkReader, FileReader};
use crate::error::Result;
use crate::exec;

use super::feed::{Feeder, OneGroup, RowRange};
use super::rows::{Assembly, RowLoop};
use super::state::State;
use super::tree::Tree;

/// Rows of a row group below which it is not cut into runs (starting a thread and reading
/// the page index cost more than the run saves).
const SPLIT_ROWS: u64 = 1 << 14;

/// What one job of a parallel read assembles: a whole row group, or a run of its rows.
#[derive(Debug, Clone)]
struct Part {
    rg: usize,
    rows: Option<Range<u64>>,
}

/// The jobs of a parallel read of `file` on `threads` threads: one per row group; when there
/// are fewer row groups than threads, each row group of at least [`SPLIT_ROWS`] rows whose
/// projected columns all have an offset index is cut into equal runs, as many as threads.
fn parts<R: ChunkReader>(file: &FileReader<R>, projected: &[usize], threads: usize) -> Vec<Part> {
    let groups = &file.metadata().file.row_groups;
    let split = groups.len() < threads && !projected.is_empty();
    let mut out = Vec::new();
    for (rg, g) in groups.iter().enumerate() {
        let rows = g.num_rows.max(0) as u64;
        if split && rows >= SPLIT_ROWS && RowRange::indexed(file, rg, projected) {
            let n = threads as u64;
            out.extend((0..n).map(|k| Part {
                rg,
                rows: Some(rows * k / n..rows * (k + 1) / n),
            }));
        } else {
            out.push(Part { rg, rows: None });
        }
    }
    out
}

/// Whether a parallel read of `file` has more than one job (else the sequential read,
/// whose helper thread decodes while the calling one assembles, does better).
pub(super) fn worth<R: ChunkReader>(
    file: &FileReader<R>,
    projected: &[usize],
    threads: usize,
) -> bool {
    file.num_row_groups() >= 2 || parts(file, projected, threads).len() >= 2
}

/// Every row of `file` as `T`, each row group (or run of rows, see [`parts`]) decoded and
/// assembled whole on one of `threads` threads (the calling one included), the rows in file
/// order; stops at the first error in file order. A thread holds one row group's columns
/// (or one run's) at a time.
pub(super) fn read_all<R: ChunkReader, T: DeserializeOwned + Send>(
    file: &FileReader<R>,
    tree: &Arc<Tree>,
    projected: &[usize],
    threads: usize,
) -> Result<Vec<T>> {
    let parts = parts(file, projected, threads);
    let groups: Vec<Vec<Part>> = parts.iter().map(|p| vec![p.clone()]).collect();
    // The first row group that failed: the ones after it are not read.
    let failed = AtomicUsize::new(usize::MAX);
    let results = exec::run_groups("parquet-serde-rows", threads, groups, |part: Part| {
        if part.rg > failed.load(Ordering::Relaxed) {
            return Ok(Vec::new());
        }
        let rows = match part.rows {
            None => group_rows::<R, T, _>(
                file,
                tree,
                projected,
                OneGroup::new(part.rg),
                rows_of(file, part.rg),
            ),
            Some(r) => {
                let len = r.end - r.start;
                group_rows::<R, T, _>(file, tree, projected, RowRange::new(part.rg, r), len)
            }
        };
        if rows.is_err() {
            failed.fetch_min(part.rg, Ordering::Relaxed);
        }
        rows
    });
    let total: usize = results
        .iter()
        .flatten()
        .map(|r| r.as_ref().map_or(0, Vec::len))
        .sum();
    let mut out = Vec::new();
    // Rows in `out` before the row group being gathered.
    let mut group_start = (usize::MAX, 0);
    for (i, (part, rows)) in parts.iter().zip(results.into_iter().flatten()).enumerate() {
        if group_start.0 != part.rg {
            group_start = (part.rg, out.len());
        }
        match rows {
            // The first job's rows grow into the whole (a large buffer grows in place,
            // without a copy of the rows it holds); the other jobs' rows move after them.
            Ok(rows) if i == 0 => {
                out = rows;
                out.reserve(total - out.len());
            }
            Ok(rows) => out.extend(rows),
            // A run of a split row group: that row group and the ones after are read the
            // sequential way, which reports the error as it words it (it may name another
            // column or row than the run's; a run's own inconsistency may not be one).
            Err(_) if part.rows.is_some() => {
                out.truncate(group_start.1);
                for rg in part.rg..file.num_row_groups() {
                    out.extend(group_rows::<R, T, _>(
                        file,
                        tree,
                        projected,
                        OneGroup::new(rg),
                        rows_of(file, rg),
                    )?);
                }
                return Ok(out);
            }
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

/// Rows of row group `rg` by the footer.
fn rows_of<R: ChunkReader>(file: &FileReader<R>, rg: usize) -> u64 {
    let groups = &file.metadata().file.row_groups;
    groups.get(rg).map_or(0, |g| g.num_rows.max(0) as u64)
}

/// The rows `feeder` feeds (one row group, or a run of its rows; `len` rows), decoded and
/// assembled on this thread, stopping at the first error (located as the row iterator
/// locates it).
fn group_rows<R: ChunkReader, T: DeserializeOwned, F: Feeder>(
    file: &FileReader<R>,
    tree: &Arc<Tree>,
    projected: &[usize],
    mut feeder: F,
    len: u64,
) -> Result<Vec<T>> {
    let mut own = Assembly {
        tree: tree.clone(),
        st: State::for_reading(tree),
        projected: projected.to_vec(),
        owned: Vec::new(),
    };
    let mut rows = RowLoop::new();
    let capacity = len.min(1 << 20) as usize;
    let mut out = Vec::with_capacity(capacity);
    while let Some(row) = rows.next(file, &mut own, &mut feeder) {
        out.push(row?);
    }
    Ok(out)
}
