//! Decoding a row group's projected columns shared out among several threads (the calling
//! one included), balanced by stored bytes; the results in projected order.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::error::{Error, ErrorKind, Result};

use super::super::cursor::Cursor;

/// `decode(col)` for every column of `projected`, shared out among up to `threads` threads
/// (the calling one included) by `size(col)`; the results in projected order.
pub(super) fn shared_out(
    projected: &[usize],
    threads: usize,
    size: impl Fn(usize) -> u64,
    decode: impl Fn(usize) -> Result<Cursor> + Sync,
) -> Vec<Result<Cursor>> {
    let decode = |group: &[usize]| -> Vec<(usize, Result<Cursor>)> {
        group.iter().map(|&k| (k, decode(projected[k]))).collect()
    };
    let mut results: Vec<Option<Result<Cursor>>> = projected.iter().map(|_| None).collect();
    let mut groups = share_out(projected, threads, size).into_iter();
    let mut mine = groups.next().unwrap_or_default();
    std::thread::scope(|scope| {
        let mut spawned = Vec::new();
        for group in groups {
            let decode = &decode;
            let theirs = group.clone();
            let started = std::thread::Builder::new()
                .name("parquet-serde-decode".into())
                .spawn_scoped(scope, move || {
                    // A panic is a bug, not bad input: it fails the group's columns.
                    catch_unwind(AssertUnwindSafe(|| decode(&theirs))).map_err(|_| theirs)
                });
            match started {
                Ok(handle) => spawned.push(handle),
                // No thread to be had: this one decodes the group as well.
                Err(_) => mine.extend(group),
            }
        }
        for (k, r) in decode(&mine) {
            results[k] = Some(r);
        }
        for handle in spawned {
            // The closure catches panics, so joining gives its result.
            let Ok(done) = handle.join() else { continue };
            match done {
                Ok(done) => {
                    for (k, r) in done {
                        results[k] = Some(r);
                    }
                }
                Err(group) => {
                    for k in group {
                        results[k] = Some(Err(panicked()));
                    }
                }
            }
        }
    });
    results
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(panicked())))
        .collect()
}

pub(super) fn panicked() -> Error {
    Error::new(ErrorKind::Internal, "a column decoding thread panicked")
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
