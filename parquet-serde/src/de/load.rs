//! How the row iterator gets a row group's projected columns as cursors: decoded in order
//! on the calling thread, shared out among several threads, or decoded ahead on a
//! background thread while the rows of the row group before are handed out.
//!
//! Whichever way, the results come in projected order and an error is the first failing
//! column's, as one thread decoding them in order would find it.

use crate::column::ColumnBatch;
use crate::error::{Error, ErrorKind, Result};
use crate::exec::{self, Worker};
use crate::file::{ChunkReader, ColumnChunkData, FileReader};
use crate::schema::ColumnDescriptor;

use super::cursor::Cursor;
use super::pipeline;

/// Stored bytes of a row group's projected columns from which they are decoded on several
/// threads, or ahead (below, starting a thread costs more than it saves).
const PARALLEL_LOAD_BYTES: u64 = 64 << 10;

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

/// Stored bytes of the `projected` columns of row group `rg`.
fn stored<R: ChunkReader>(file: &FileReader<R>, rg: usize, projected: &[usize]) -> u64 {
    projected
        .iter()
        .map(|&c| pipeline::stored_bytes(file, c, Some(rg)))
        .sum()
}

/// Whether the `projected` columns of row group `rg` are worth decoding on several of
/// `threads` threads, or ahead: more than one thread allowed and enough stored bytes.
pub(super) fn worth_threads<R: ChunkReader>(
    file: &FileReader<R>,
    rg: usize,
    projected: &[usize],
    threads: usize,
) -> bool {
    threads > 1 && stored(file, rg, projected) >= PARALLEL_LOAD_BYTES
}

/// Words the error of a cursor holding `held` rows where `expected` were due.
pub(super) type Mismatch = fn(held: usize, expected: usize) -> String;

/// [`Mismatch`] for a whole column chunk.
fn chunk_mismatch(held: usize, rows: usize) -> String {
    format!("column chunk holds {held} rows, its row group {rows}")
}

/// A cursor over `batch`, the decoded leaf `descr` in row group `rg`, which must hold
/// `rows` rows (else the error `mismatch` words).
pub(super) fn cursor_of(
    batch: ColumnBatch,
    descr: &ColumnDescriptor,
    rg: usize,
    rows: usize,
    mismatch: Mismatch,
) -> Result<Cursor> {
    let at = |e: Error| e.with_row_group(rg).with_column(descr.path.to_string());
    let cursor = Cursor::new(batch, descr.max_def_level, descr.max_rep_level).map_err(at)?;
    let n = cursor.rows();
    if n != rows {
        return Err(at(Error::corrupt(mismatch(n, rows))));
    }
    Ok(cursor)
}

/// Fetches and decodes column `col` of row group `rg` (of `rows` rows) into a cursor.
///
/// Text values stay in their pages: rows handed out one by one, then dropped, copy each
/// string when their row is built, which keeps the allocator's memory warm (strings built
/// ahead for the whole row group measured slower for such a stream).
pub(super) fn load_column<R: ChunkReader>(
    file: &FileReader<R>,
    rg: usize,
    rows: usize,
    col: usize,
) -> Result<Cursor> {
    let batch = file.read_column(rg, col)?;
    cursor_of(
        batch,
        &file.schema().columns()[col],
        rg,
        rows,
        chunk_mismatch,
    )
}

/// `decode(col)` for every column of `projected` in row group `rg`, in projected order:
/// shared out among `threads` threads (see [`shared_out`]) when there are several columns
/// and [`worth_threads`] holds, else on this thread, stopping at the first error.
pub(super) fn columns<R: ChunkReader>(
    file: &FileReader<R>,
    rg: usize,
    projected: &[usize],
    threads: usize,
    decode: impl Fn(usize) -> Result<Cursor> + Sync,
) -> Vec<Result<Cursor>> {
    if projected.len() > 1 && worth_threads(file, rg, projected, threads) {
        let size = |col| pipeline::stored_bytes(file, col, Some(rg));
        return shared_out(projected, threads, size, decode);
    }
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

/// `decode(col)` for every column of `projected`, shared out among up to `threads` threads
/// (the calling one included) by `size(col)`; the results in projected order.
fn shared_out(
    projected: &[usize],
    threads: usize,
    size: impl Fn(usize) -> u64,
    decode: impl Fn(usize) -> Result<Cursor> + Sync,
) -> Vec<Result<Cursor>> {
    let groups: Vec<Vec<usize>> = pipeline::share_out(projected, threads, size);
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

/// A row group's projected columns being decoded on a background thread, from copies of
/// their stored bytes: the row iterator starts it for the next row group when it enters
/// one, so that decoding overlaps with handing out rows. Memory then holds two row groups.
/// Dropped unfinished (the reader dropped early), the worker is told to stop after the
/// column at hand.
#[derive(Debug)]
pub(super) struct ReadAhead {
    rg: usize,
    worker: Worker<Vec<Result<Cursor>>>,
}

impl ReadAhead {
    /// Starts decoding the `projected` columns of row group `rg` of `file`. `None` when a
    /// chunk cannot be fetched or no thread started: the row group is then loaded when
    /// reached (and its error, if any, found then).
    pub fn start<R: ChunkReader>(
        file: &FileReader<R>,
        rg: usize,
        projected: &[usize],
    ) -> Option<ReadAhead> {
        let rows = group_rows(file, rg).ok()?;
        let chunks = projected
            .iter()
            .map(|&col| file.column_chunk(rg, col).map(ColumnChunkData::into_owned))
            .collect::<Result<Vec<_>>>()
            .ok()?;
        let columns = file.schema().columns();
        let descrs: Vec<ColumnDescriptor> = projected.iter().map(|&c| columns[c].clone()).collect();
        let options = file.options().page_options();
        let worker = Worker::spawn("parquet-serde-ahead", move |stop| {
            let mut out = Vec::with_capacity(chunks.len());
            for (chunk, descr) in chunks.iter().zip(&descrs) {
                if stop.is_set() {
                    break;
                }
                // A panic is a bug, not bad input: it fails this column.
                out.push(exec::catch(
                    format_args!("decoding column {} ahead", descr.path),
                    || {
                        cursor_of(
                            chunk.read_all(descr, options)?,
                            descr,
                            rg,
                            rows,
                            chunk_mismatch,
                        )
                    },
                ));
            }
            Ok(out)
        })
        .ok()?;
        Some(ReadAhead { rg, worker })
    }

    /// The row group being decoded.
    pub fn row_group(&self) -> usize {
        self.rg
    }

    /// Waits for the cursors, in projected order.
    pub fn finish(self) -> Vec<Result<Cursor>> {
        self.worker.join().unwrap_or_else(|e| vec![Err(e)])
    }
}
