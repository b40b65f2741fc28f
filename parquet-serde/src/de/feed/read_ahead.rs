//! Decoding the next row group's projected columns on a background thread while the rows
//! of the row group before are handed out.

use crate::core::file::{ChunkReader, ColumnChunkData, FileReader};
use crate::core::schema::ColumnDescriptor;
use crate::error::Result;
use crate::exec::{self, Worker};

use super::super::cursor::Cursor;
use super::{chunk_mismatch, cursor_of, group_rows};

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
                            chunk.read_all_lent(descr, options)?,
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
