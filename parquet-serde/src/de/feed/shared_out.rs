//! Decoding a row group's projected columns shared out among several threads (the calling
//! one included), balanced by stored bytes; the results in projected order.

use crate::error::{Error, ErrorKind, Result};
use crate::exec;

use super::super::cursor::Cursor;

/// `decode(col)` for every column of `projected`, shared out among up to `threads` threads
/// (the calling one included) by `size(col)`; the results in projected order.
pub(super) fn shared_out(
    projected: &[usize],
    threads: usize,
    size: impl Fn(usize) -> u64,
    decode: impl Fn(usize) -> Result<Cursor> + Sync,
) -> Vec<Result<Cursor>> {
    let groups: Vec<Vec<usize>> = share_out(projected, threads, size);
    let done = exec::run_groups("parquet-serde-decode", threads, groups.clone(), |k| {
        decode(projected[k])
    });
    let mut results: Vec<Option<Result<Cursor>>> = projected.iter().map(|_| None).collect();
    for (group, done) in groups.into_iter().zip(done) {
        for (k, r) in group.into_iter().zip(done) {
            results[k] = Some(r);
        }
    }
    results
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(not_decoded())))
        .collect()
}

/// The error of a column a shared-out decoding left without a result (a bug).
fn not_decoded() -> Error {
    Error::new(ErrorKind::Internal, "a column was left undecoded")
}

/// Splits the leaf columns `cols` among `workers` threads, balancing `size` (largest first
/// to the least loaded): per worker, positions in `cols`, ascending.
pub(super) fn share_out(
    cols: &[usize],
    workers: usize,
    size: impl Fn(usize) -> u64,
) -> Vec<Vec<usize>> {
    let workers = workers.min(cols.len()).max(1);
    let mut order: Vec<(u64, usize)> = cols
        .iter()
        .enumerate()
        .map(|(k, &c)| (size(c), k))
        .collect();
    order.sort_by(|a, b| b.cmp(a));
    let mut groups = vec![(0u64, Vec::new()); workers];
    for (bytes, k) in order {
        if let Some(g) = groups.iter_mut().min_by_key(|g| g.0) {
            g.0 += bytes;
            g.1.push(k);
        }
    }
    groups
        .into_iter()
        .map(|(_, mut g)| {
            g.sort_unstable();
            g
        })
        .filter(|g| !g.is_empty())
        .collect()
}
