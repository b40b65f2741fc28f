//! Decoding the next row group's projected columns on a background thread while the rows
//! of the row group before are handed out.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

use crate::error::Result;
use crate::file::{ChunkReader, ColumnChunkData, FileReader};
use crate::schema::ColumnDescriptor;

use super::super::cursor::Cursor;
use super::shared_out::panicked;
use super::{chunk_mismatch, cursor_of, group_rows};

/// A row group's projected columns being decoded on a background thread, from copies of
/// their stored bytes: the row iterator starts it for the next row group when it enters
/// one, so that decoding overlaps with handing out rows. Memory then holds two row groups.
/// Dropped unfinished (the reader dropped early), it tells the thread to stop after the
/// column at hand.
#[derive(Debug)]
pub(super) struct ReadAhead {
    rg: usize,
    handle: Option<JoinHandle<Vec<Result<Cursor>>>>,
    cancel: Arc<AtomicBool>,
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
        let cancel = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&cancel);
        let handle = std::thread::Builder::new()
            .name("parquet-serde-ahead".into())
            .spawn(move || {
                let mut out = Vec::with_capacity(chunks.len());
                for (chunk, descr) in chunks.iter().zip(&descrs) {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let decoded = catch_unwind(AssertUnwindSafe(|| {
                        cursor_of(
                            chunk.read_all(descr, options)?,
                            descr,
                            rg,
                            rows,
                            chunk_mismatch,
                        )
                    }));
                    out.push(decoded.unwrap_or_else(|_| Err(panicked())));
                }
                out
            })
            .ok()?;
        Some(ReadAhead {
            rg,
            handle: Some(handle),
            cancel,
        })
    }

    /// The row group being decoded.
    pub fn row_group(&self) -> usize {
        self.rg
    }

    /// Waits for the cursors, in projected order.
    pub fn finish(mut self) -> Vec<Result<Cursor>> {
        match self.handle.take().map(JoinHandle::join) {
            Some(Ok(cursors)) => cursors,
            // Panics are caught inside: a failed join has nothing to give.
            _ => vec![Err(panicked())],
        }
    }
}

impl Drop for ReadAhead {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}
