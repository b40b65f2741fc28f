//! Reading files still being written: [`UnfinishedFile::list`] lists them,
//! [`UnfinishedFile::snapshot`] gives
//! the rows a file's journal acknowledges as a complete Parquet file in memory, read-only
//! (the writer goes on undisturbed): what `parquet-serde tail` prints between flushes.

use std::fs::File;
use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};

use crate::core::file::{FileWriter, WriterOptions};
use crate::error::{Error, Result};

use super::live::io_at;
use super::names::{self, Kind};
use super::recover::{read_journal, recover_file, recover_with, write_tail, RecoveryReport};

/// A file being written (or left unfinished by a crash) in a log folder.
///
/// Its associated functions are the log folder's tools that work without a writer:
/// [`list`](Self::list) the unfinished files, read one's flushed rows while it is written
/// ([`snapshot`](Self::snapshot)), and finish what a crash left behind
/// ([`recover_all`](Self::recover_all) for a folder, [`recover`](Self::recover) for one
/// file). They live here rather than on [`LogWriter`](super::LogWriter), which is generic
/// over the row type they do not need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnfinishedFile {
    /// Its journal (`_part-….journal`): give it to [`snapshot`](Self::snapshot).
    pub journal: PathBuf,
    /// The name it will have once final (`part-….parquet`, beside the journal).
    pub final_path: PathBuf,
}

impl UnfinishedFile {
    /// The files being written under `dir` (recursively), oldest first: those of running
    /// writers, and those a crash left for recovery.
    pub fn list(dir: impl AsRef<Path>) -> Result<Vec<UnfinishedFile>> {
        let dir = dir.as_ref();
        let mut out = Vec::new();
        names::walk(dir, |folder, entry| {
            if let Ok((entry, Kind::Journal(stem))) = entry {
                out.push((
                    stem.clone(),
                    UnfinishedFile {
                        journal: entry.path(),
                        final_path: folder.join(names::final_name(&stem)),
                    },
                ));
            }
            Ok(())
        })?;
        // Stems start with the UTC time the file was started.
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out.into_iter().map(|(_, f)| f).collect())
    }

    /// The rows the journal at `journal` acknowledges (every row flushed so far), as a whole
    /// Parquet file in memory: the data file's checkpointed row groups, the rows flushed
    /// after them as one more row group, and a footer. Nothing on disk is changed, so this is
    /// safe while the writer runs; `None` when nothing was acknowledged yet.
    ///
    /// The result holds the data file up to its last checkpoint (the file is read up to
    /// there, at most the roll size) plus the rows of one row group at most. Fails when the
    /// files are gone (the writer finished, or recovery ran: read the final file then) or
    /// corrupt; never panics on their contents.
    ///
    /// ```
    /// use parquet_serde::logs::{LogWriter, UnfinishedFile};
    /// use parquet_serde::ParquetSchema;
    ///
    /// #[derive(serde::Serialize, serde::Deserialize, ParquetSchema, Debug, PartialEq)]
    /// struct Line { seq: u64 }
    ///
    /// let dir = tempfile::tempdir()?;
    /// let mut logs = LogWriter::<Line>::builder(dir.path()).open()?;
    /// logs.write(&Line { seq: 1 })?;
    /// logs.flush()?;
    /// logs.write(&Line { seq: 2 })?; // not flushed: not in the snapshot
    ///
    /// let files = UnfinishedFile::list(dir.path())?;
    /// let bytes = UnfinishedFile::snapshot(&files[0].journal)?.expect("a row was flushed");
    /// let rows: Vec<Line> = parquet_serde::from_slice(&bytes)?;
    /// assert_eq!(rows, [Line { seq: 1 }]);
    /// let finished = logs.close()?;
    /// assert_eq!(finished[0], files[0].final_path);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn snapshot(journal: impl AsRef<Path>) -> Result<Option<Vec<u8>>> {
        let journal = journal.as_ref();
        let name = journal
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let Kind::Journal(stem) = names::kind(&name) else {
            return Err(Error::invalid_argument(format!(
                "`{}` is not a log journal (`_part-*.journal`)",
                journal.display()
            )));
        };
        let bytes = std::fs::read(journal).map_err(io_at(journal))?;
        let at_journal = |e: Error| e.context(format!("`{}`", journal.display()));
        let Some(ack) = read_journal(&bytes).map_err(at_journal)? else {
            return Ok(None);
        };
        let (grouped, tail_rows) = (ack.grouped_rows(), ack.tail_rows());
        if grouped == 0 && tail_rows == 0 {
            return Ok(None);
        }
        let mut options = WriterOptions::default().compression(ack.header.compression);
        options.key_value_metadata = ack.header.key_value_metadata;
        let schema = ack.header.schema;
        let mut writer = match ack.progress.filter(|p| !p.row_groups.is_empty()) {
            Some(progress) => {
                let data = journal.with_file_name(names::data_name(&stem));
                let prefix = read_prefix(&data, progress.position)?;
                let mut sink = Cursor::new(prefix);
                sink.set_position(progress.position);
                FileWriter::resume(sink, schema, options, progress).map_err(at_journal)?
            }
            None => FileWriter::new(Cursor::new(Vec::new()), schema, options)?,
        };
        if tail_rows > 0 {
            write_tail(&mut writer, &ack.tail).map_err(at_journal)?;
        }
        let (sink, _) = writer.close()?;
        Ok(Some(sink.into_inner()))
    }

    /// Recovers every unfinished file under `dir` (all folders below it), skipping those a
    /// running writer holds. Each journal's failure is reported in
    /// [`RecoveryReport::failed`], not returned: one bad file does not stop the others. A
    /// missing `dir` holds nothing to recover.
    ///
    /// Uses the codec and key-value metadata the journal recorded for the last row group it
    /// rebuilds (a [`LogWriter`](super::LogWriter) opening `dir` recovers with its own
    /// writer options).
    pub fn recover_all(dir: impl AsRef<Path>) -> Result<RecoveryReport> {
        recover_with(dir, &WriterOptions::default())
    }

    /// Recovers one unfinished file, named by its journal, its in-progress data file or its
    /// stem's folder; `Ok(None)` when nothing acknowledged was in it.
    pub fn recover(path: impl AsRef<Path>) -> Result<Option<PathBuf>> {
        recover_file(path)
    }
}

/// The first `len` bytes of the data file at `path` (written once and never changed while
/// the writer runs). The length comes from the journal: it is checked against the file
/// before anything is allocated.
fn read_prefix(path: &Path, len: u64) -> Result<Vec<u8>> {
    let file = File::open(path).map_err(io_at(path))?;
    let size = file.metadata().map_err(io_at(path))?.len();
    if size < len {
        return Err(Error::corrupt(format!(
            "`{}` holds {size} bytes, its journal's checkpoint {len}",
            path.display()
        )));
    }
    let capacity = usize::try_from(len)
        .map_err(|_| Error::corrupt(format!("checkpoint length {len} does not fit in memory")))?;
    let mut out = Vec::with_capacity(capacity);
    file.take(len).read_to_end(&mut out).map_err(io_at(path))?;
    if out.len() as u64 != len {
        return Err(Error::corrupt(format!(
            "`{}` ended at {} bytes, before its journal's checkpoint {len}",
            path.display(),
            out.len()
        )));
    }
    Ok(out)
}
