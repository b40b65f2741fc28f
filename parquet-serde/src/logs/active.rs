//! One file being written: the data file (row groups appended as they fill) and its journal
//! (header, checkpoints, rows not yet in a row group). See the module docs for the protocol.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;

use crate::core::file::WriterOptions;
use crate::core::schema::ParquetSchema;
use crate::error::{Error, Result};
use crate::ser::Writer;

use super::live::io_at;
use super::{frame, journal, live, names};

/// How much a flush waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SyncPolicy {
    /// `fsync` the journal (and the data file when it gained row groups) on every flush:
    /// flushed rows survive a power loss or an OS crash.
    #[default]
    Fsync,
    /// Hand the bytes to the operating system only: flushed rows survive the process
    /// being killed, not the machine going down. Files are still synced when they become
    /// final.
    OsBuffers,
}

/// The data file and journal of one file being written.
pub(crate) struct ActiveFile<T> {
    dir: PathBuf,
    stem: String,
    writer: Writer<BufWriter<File>, T>,
    journal: File,
    /// The header record, framed: the first bytes of every journal of this file.
    header: Vec<u8>,
    /// Reused for the records of a flush.
    scratch: Vec<u8>,
    /// Reused for a flush's rows: the raw payload, and its compressed form.
    row_buffers: (Vec<u8>, Vec<u8>),
    /// Row groups cut as of the last checkpoint in the journal.
    checkpointed_cuts: u64,
    sync: SyncPolicy,
    /// The partition the file's rows belong to.
    pub partition: i64,
    /// When the file was started.
    pub opened: Instant,
    failed: bool,
    /// The row count at which [`size_reached`](Self::size_reached) next sums the buffers.
    next_size_check: u64,
}

impl<T> std::fmt::Debug for ActiveFile<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ActiveFile")
            .field("dir", &self.dir)
            .field("stem", &self.stem)
            .finish_non_exhaustive()
    }
}

/// Creates the new file `path` in `dir`, creating `dir` too. A folder emptied by another
/// thread may be removed between the two steps (the [`Shipper`](crate::store::Shipper) and
/// retention remove the partition folders they empty): the folder is then made again, up
/// to 100 times. Once the file exists the folder is not empty, so it stays.
fn create_in_folder(dir: &Path, path: &Path) -> Result<File> {
    const ATTEMPTS: usize = 100;
    let mut attempt = 0;
    loop {
        attempt += 1;
        // Both steps fail that way while the folder comes and goes: `NotFound`, or a
        // folder that existed when made and was gone when checked (`AlreadyExists`).
        let racing = |e: &std::io::Error| {
            matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::AlreadyExists
            ) && attempt < ATTEMPTS
        };
        match std::fs::create_dir_all(dir) {
            Err(e) if racing(&e) => continue,
            Err(e) => return Err(Error::from(e).context(format!("creating `{}`", dir.display()))),
            Ok(()) => {}
        }
        match OpenOptions::new().write(true).create_new(true).open(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && racing(&e) => {}
            opened => return opened.map_err(io_at(path)),
        }
    }
}

impl<T: Serialize + ParquetSchema> ActiveFile<T> {
    /// Starts a file in `dir` (created if missing): the journal with its header first
    /// (synced), then the data file.
    pub fn create(
        dir: &Path,
        partition: i64,
        options: &WriterOptions,
        sync: SyncPolicy,
    ) -> Result<Self> {
        let stem = names::new_stem();
        let (schema, _) = crate::ser::schema_of::<T>()?;
        // The schema the writer below writes (VARIANT columns shredded by the options,
        // field ids for an Iceberg table): recovery rebuilds the file from this header.
        let schema = options.file_schema(schema)?;
        let mut header = Vec::new();
        frame::put(
            journal::HEADER,
            &journal::encode_header(&schema, options)?,
            &mut header,
        )?;
        let journal_path = dir.join(names::journal_name(&stem));
        live::register(&journal_path);
        let mut journal = create_in_folder(dir, &journal_path)?;
        journal.write_all(&header).map_err(io_at(&journal_path))?;
        if sync == SyncPolicy::Fsync {
            journal.sync_data().map_err(io_at(&journal_path))?;
        }
        let data_path = dir.join(names::data_name(&stem));
        let data = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&data_path)
            .map_err(io_at(&data_path))?;
        if sync == SyncPolicy::Fsync {
            live::sync_dir(dir).map_err(io_at(dir))?;
        }
        let mut writer = Writer::new(BufWriter::with_capacity(1 << 16, data), options.clone())?;
        writer.enable_tap();
        Ok(ActiveFile {
            dir: dir.to_path_buf(),
            stem,
            writer,
            journal,
            header,
            scratch: Vec::new(),
            row_buffers: (Vec::new(), Vec::new()),
            checkpointed_cuts: 0,
            sync,
            partition,
            opened: Instant::now(),
            next_size_check: 0,
            failed: false,
        })
    }

    /// Writes one row (kept in memory or in a row group until the next flush).
    pub fn write(&mut self, row: &T) -> Result<()> {
        self.writer.write(row)
    }

    /// Rows written to the file.
    pub fn num_rows(&self) -> u64 {
        self.writer.num_rows()
    }

    /// Bytes the file has or will have: written plus buffered (before compression).
    pub fn size(&self) -> u64 {
        self.writer.bytes_written() + self.writer.buffered_bytes() as u64
    }

    /// Whether the file holds at least `limit` bytes (as [`size`](Self::size) counts them).
    /// The size is a sum over every column's buffers, too dear for every row: it is taken
    /// again only after half the rows that would fill the rest at the average row size so
    /// far (at most 64 rows later), so a file rolls within about one row of the limit,
    /// and within 64 rows when its rows grow suddenly.
    pub fn size_reached(&mut self, limit: u64) -> bool {
        let rows = self.num_rows();
        if rows < self.next_size_check {
            return false;
        }
        let size = self.size();
        if size >= limit {
            return true;
        }
        let per_row = (size / rows.max(1)).max(1);
        self.next_size_check = rows + ((limit - size) / per_row / 2).clamp(1, 64);
        false
    }

    /// Makes every row written so far durable: row groups cut since the last flush are
    /// synced and checkpointed (in a new journal that replaces the old one), the rows
    /// after them appended to the journal as one record.
    pub fn flush(&mut self) -> Result<()> {
        if self.failed {
            return Err(Error::invalid_argument(
                "the log file failed earlier; its flushed rows are recovered on the next open",
            ));
        }
        let result = self.flush_inner();
        if result.is_err() {
            self.failed = true;
        }
        result
    }

    fn flush_inner(&mut self) -> Result<()> {
        self.writer.settle()?;
        let mut records = std::mem::take(&mut self.scratch);
        records.clear();
        let cut = self.writer.cuts() != self.checkpointed_cuts;
        if cut {
            let data_path = self.dir.join(names::data_name(&self.stem));
            let sink = self.writer.sink_mut();
            sink.flush()
                .and_then(|()| match self.sync {
                    SyncPolicy::Fsync => sink.get_ref().sync_data(),
                    SyncPolicy::OsBuffers => Ok(()),
                })
                .map_err(|e| Error::from(e).context(format!("`{}`", data_path.display())))?;
            records.extend_from_slice(&self.header);
            let checkpoint = journal::encode_checkpoint(&self.writer.progress())?;
            frame::put(journal::CHECKPOINT, &checkpoint, &mut records)?;
        }
        let (mut raw, mut payload) = std::mem::take(&mut self.row_buffers);
        payload.clear();
        let rows = self
            .writer
            .take_tap(|tap| {
                if tap.rows == 0 {
                    return Ok(0);
                }
                journal::encode_rows_lz4(tap.rows, &tap.batches, &mut raw, &mut payload)
                    .map(|()| tap.rows)
            })
            .unwrap_or(Ok(0))?;
        if rows > 0 {
            frame::put(journal::ROWS_LZ4, &payload, &mut records)?;
        }
        self.row_buffers = (raw, payload);
        if cut {
            self.replace_journal(&records)?;
            self.checkpointed_cuts = self.writer.cuts();
        } else if rows > 0 {
            let path = self.journal_path();
            self.journal
                .write_all(&records)
                .and_then(|()| match self.sync {
                    SyncPolicy::Fsync => self.journal.sync_data(),
                    SyncPolicy::OsBuffers => Ok(()),
                })
                .map_err(|e| Error::from(e).context(format!("`{}`", path.display())))?;
        }
        self.scratch = records;
        Ok(())
    }

    /// Writes `records` as a new journal and renames it over the old one.
    fn replace_journal(&mut self, records: &[u8]) -> Result<()> {
        let temp = self.dir.join(names::journal_temp_name(&self.stem));
        let path = self.journal_path();
        let mut file = File::create(&temp).map_err(io_at(&temp))?;
        file.write_all(records).map_err(io_at(&temp))?;
        if self.sync == SyncPolicy::Fsync {
            file.sync_data().map_err(io_at(&temp))?;
        }
        std::fs::rename(&temp, &path).map_err(io_at(&path))?;
        if self.sync == SyncPolicy::Fsync {
            live::sync_dir(&self.dir).map_err(io_at(&self.dir))?;
        }
        self.journal = file;
        Ok(())
    }

    /// Finishes the file: footer, sync, rename to its final name, journal removed. A file
    /// without rows is removed instead. Returns the final path (if any).
    pub fn finish(self) -> Result<Option<PathBuf>> {
        let journal = self.journal_path();
        let out = self.finish_inner();
        live::release(&journal);
        out
    }

    fn finish_inner(self) -> Result<Option<PathBuf>> {
        if self.failed {
            return Err(Error::invalid_argument(
                "the log file failed earlier; its flushed rows are recovered on the next open",
            ));
        }
        let data_path = self.dir.join(names::data_name(&self.stem));
        let journal_path = self.journal_path();
        let rows = self.writer.num_rows();
        let out = if rows == 0 {
            drop(self.writer);
            std::fs::remove_file(&data_path).map_err(io_at(&data_path))?;
            None
        } else {
            let (sink, _) = self.writer.close()?;
            let file = sink
                .into_inner()
                .map_err(|e| io_at(&data_path)(e.into_error()))?;
            file.sync_all().map_err(io_at(&data_path))?;
            let final_path = self.dir.join(names::final_name(&self.stem));
            std::fs::rename(&data_path, &final_path).map_err(io_at(&final_path))?;
            live::sync_dir(&self.dir).map_err(io_at(&self.dir))?;
            Some(final_path)
        };
        std::fs::remove_file(&journal_path).map_err(io_at(&journal_path))?;
        Ok(out)
    }
}

impl<T> ActiveFile<T> {
    fn journal_path(&self) -> PathBuf {
        self.dir.join(names::journal_name(&self.stem))
    }

    /// Leaves the files as a crash would (for recovery by the next open), and stops
    /// counting them as live.
    pub fn abandon(self) {
        let journal = self.journal_path();
        drop(self.writer);
        live::release(&journal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_created_while_another_thread_removes_the_emptied_folder() {
        // A shipper or retention removes a partition folder once it has emptied it; the
        // writer starting its next file there at that moment must not fail on the folder
        // it just made. One removal per file, racing with the next file's creation.
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("date=2026-11-24").join("hour=13");
        let (tick, ticks) = std::sync::mpsc::channel::<()>();
        let failed = std::thread::scope(|s| {
            s.spawn(|| {
                for () in ticks {
                    crate::logs::retention::remove_empty_up_to(&dir, root.path());
                }
            });
            let mut failed = None;
            for i in 0..3000 {
                let path = dir.join(format!("f{i}"));
                match create_in_folder(&dir, &path) {
                    Ok(_) => std::fs::remove_file(&path).unwrap(),
                    Err(e) => {
                        failed = Some((i, e));
                        break;
                    }
                }
                let _ = tick.send(());
            }
            // The remover ends with the channel, so that the scope can end.
            drop(tick);
            failed
        });
        assert!(failed.is_none(), "{failed:?}");
    }
}
