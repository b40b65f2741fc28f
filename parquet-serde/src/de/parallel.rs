//! Row groups assembled in parallel ([`Reader::read_all_par`](super::Reader::read_all_par)):
//! each row group is decoded and its rows built on one of several threads (from `exec/`),
//! and the rows come back in file order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde::de::DeserializeOwned;

use crate::core::file::{ChunkReader, FileReader};
use crate::error::Result;
use crate::exec;

use super::feed::OneGroup;
use super::rows::{Assembly, RowLoop};
use super::state::State;
use super::tree::Tree;

/// Every row of `file` as `T`, each row group decoded and assembled whole on one of
/// `threads` threads (the calling one included), the rows in file order; stops at the
/// first error in file order. A thread holds one row group's columns at a time: at most
/// `threads` row groups are decoded at once.
pub(super) fn read_all<R: ChunkReader, T: DeserializeOwned + Send>(
    file: &FileReader<R>,
    tree: &Arc<Tree>,
    projected: &[usize],
    threads: usize,
) -> Result<Vec<T>> {
    let groups: Vec<Vec<usize>> = (0..file.num_row_groups()).map(|rg| vec![rg]).collect();
    // The first row group that failed: the ones after it are not read.
    let failed = AtomicUsize::new(usize::MAX);
    let results = exec::run_groups("parquet-serde-rows", threads, groups, |rg| {
        if rg > failed.load(Ordering::Relaxed) {
            return Ok(Vec::new());
        }
        let rows = group_rows::<R, T>(file, tree, projected, rg);
        if rows.is_err() {
            failed.fetch_min(rg, Ordering::Relaxed);
        }
        rows
    });
    let total = results
        .iter()
        .flatten()
        .map(|r| r.as_ref().map_or(0, Vec::len))
        .sum();
    let mut out = Vec::with_capacity(total);
    for rows in results.into_iter().flatten() {
        out.extend(rows?);
    }
    Ok(out)
}

/// The rows of row group `rg`, decoded and assembled on this thread, stopping at the first
/// error (located as the row iterator locates it).
fn group_rows<R: ChunkReader, T: DeserializeOwned>(
    file: &FileReader<R>,
    tree: &Arc<Tree>,
    projected: &[usize],
    rg: usize,
) -> Result<Vec<T>> {
    let mut own = Assembly {
        tree: tree.clone(),
        st: State::for_reading(tree),
        projected: projected.to_vec(),
        owned: Vec::new(),
    };
    let mut feeder = OneGroup::new(rg);
    let mut rows = RowLoop::new();
    let capacity = file
        .metadata()
        .file
        .row_groups
        .get(rg)
        .map_or(0, |g| g.num_rows.clamp(0, 1 << 20) as usize);
    let mut out = Vec::with_capacity(capacity);
    while let Some(step) = rows.next_many(file, &mut own, &mut feeder, &mut out, usize::MAX) {
        step?;
    }
    Ok(out)
}
