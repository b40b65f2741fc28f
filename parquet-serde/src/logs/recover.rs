//! Recovery: every file a crash left unfinished becomes a final file holding exactly the
//! rows its journal acknowledges. See the module docs for the protocol.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use crate::core::column::ColumnBatch;
use crate::core::file::{FileProgress, FileWriter, WriterOptions};
use crate::error::{Error, Result};

use super::live::io_at;
use super::names::{self, Kind};
use super::{frame, journal, live};

/// What [`UnfinishedFile::recover_all`](super::UnfinishedFile::recover_all) did.
#[derive(Debug, Default)]
pub struct RecoveryReport {
    /// Final files made from unfinished ones.
    pub recovered: Vec<PathBuf>,
    /// Rows in the files made.
    pub rows: u64,
    /// Unfinished files removed because they held no acknowledged row (or were already
    /// final).
    pub removed: Vec<PathBuf>,
    /// Journals left alone because their writer is still running.
    pub live: Vec<PathBuf>,
    /// Journals that could not be recovered, with why; their files are left in place
    /// (their names keep readers away).
    pub failed: Vec<(PathBuf, Error)>,
}

/// [`UnfinishedFile::recover_all`](super::UnfinishedFile::recover_all), writing the rebuilt last row group of each file with `options` (their
/// codec and key-value metadata replaced by the journal's).
pub(crate) fn recover_with(
    dir: impl AsRef<Path>,
    options: &WriterOptions,
) -> Result<RecoveryReport> {
    let mut report = RecoveryReport::default();
    let dir = dir.as_ref();
    if !dir.exists() {
        return Ok(report);
    }
    let mut journals = Vec::new();
    let mut leftovers = Vec::new();
    names::walk(dir, |folder, entry| {
        let (entry, kind) =
            entry.map_err(|e| Error::from(e).context(format!("listing `{}`", folder.display())))?;
        match kind {
            Kind::Journal(stem) => journals.push((folder.to_path_buf(), stem)),
            Kind::JournalTemp(stem) | Kind::InProgress(stem) => {
                leftovers.push((entry.path(), folder.to_path_buf(), stem))
            }
            Kind::Final | Kind::Other => {}
        }
        Ok(())
    })?;
    journals.sort();
    for (folder, stem) in &journals {
        let journal = folder.join(names::journal_name(stem));
        if live::is_live(&journal, names::stem_pid(stem)) {
            report.live.push(journal);
            continue;
        }
        match recover_one(folder, stem, options) {
            Ok(Outcome::Recovered(path, rows)) => {
                report.recovered.push(path);
                report.rows += rows;
            }
            Ok(Outcome::Removed) => report.removed.push(journal),
            Err(e) => report.failed.push((journal, e)),
        }
    }
    // A replacement journal never renamed, or a data file whose journal never made it to
    // disk: nothing in them was acknowledged.
    for (path, folder, stem) in leftovers {
        let journal = folder.join(names::journal_name(&stem));
        if live::is_live(&journal, names::stem_pid(&stem)) {
            continue;
        }
        let temp = path.extension().is_some_and(|e| e == "tmp");
        if (temp || !journal.exists()) && std::fs::remove_file(&path).is_ok() {
            report.removed.push(path);
        }
    }
    Ok(report)
}

/// [`UnfinishedFile::recover`](super::UnfinishedFile::recover): recovers one unfinished
/// file; `Ok(None)` when nothing acknowledged was in it.
pub(crate) fn recover_file(path: impl AsRef<Path>) -> Result<Option<PathBuf>> {
    let path = path.as_ref();
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = match names::kind(&name) {
        Kind::Journal(s) | Kind::InProgress(s) | Kind::JournalTemp(s) => s,
        Kind::Final | Kind::Other => {
            return Err(Error::invalid_argument(format!(
                "`{}` is not an unfinished log file (`_part-*.journal` or \
                 `_part-*.parquet.inprogress`)",
                path.display()
            )))
        }
    };
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let journal = folder.join(names::journal_name(&stem));
    if live::is_live(&journal, names::stem_pid(&stem)) {
        return Err(Error::invalid_argument(format!(
            "`{}` belongs to a writer that is still running",
            journal.display()
        )));
    }
    match recover_one(folder, &stem, &WriterOptions::default())? {
        Outcome::Recovered(p, _) => Ok(Some(p)),
        Outcome::Removed => Ok(None),
    }
}

/// What became of one unfinished file.
enum Outcome {
    /// The final file and its rows.
    Recovered(PathBuf, u64),
    /// Removed: nothing acknowledged in it.
    Removed,
}

/// What a journal acknowledges: the header, the last checkpoint and the rows after it.
pub(super) struct Acknowledged {
    pub header: journal::Header,
    pub progress: Option<FileProgress>,
    pub tail: Vec<(usize, Vec<ColumnBatch>)>,
}

impl Acknowledged {
    /// Rows in the checkpointed row groups (row counts were checked to be at least 0 when
    /// the checkpoint was read).
    pub fn grouped_rows(&self) -> u64 {
        self.progress.as_ref().map_or(0u64, |p| {
            p.row_groups
                .iter()
                .fold(0u64, |n, g| n.saturating_add(g.num_rows as u64))
        })
    }

    /// Rows after the checkpoint.
    pub fn tail_rows(&self) -> u64 {
        self.tail
            .iter()
            .fold(0u64, |n, (r, _)| n.saturating_add(*r as u64))
    }
}

/// Writes the journal's rows after the checkpoint as one row group.
pub(super) fn write_tail<W: std::io::Write>(
    writer: &mut FileWriter<W>,
    tail: &[(usize, Vec<ColumnBatch>)],
) -> Result<()> {
    let mut columns = (0..writer.schema().num_columns())
        .map(|c| writer.column_writer(c))
        .collect::<Result<Vec<_>>>()?;
    for (_, batches) in tail {
        for (column, batch) in columns.iter_mut().zip(batches) {
            column.write(batch)?;
        }
    }
    let chunks = columns
        .into_iter()
        .map(|c| c.close())
        .collect::<Result<Vec<_>>>()?;
    writer.write_row_group(chunks)
}

/// Reads a journal's whole frames.
pub(super) fn read_journal(bytes: &[u8]) -> Result<Option<Acknowledged>> {
    let (frames, _) = frame::frames(bytes);
    let Some(first) = frames.first() else {
        return Ok(None);
    };
    if first.kind != journal::HEADER {
        return Err(Error::corrupt("the journal does not start with its header").with_offset(0));
    }
    let header = journal::decode_header(first.payload)?;
    let mut ack = Acknowledged {
        header,
        progress: None,
        tail: Vec::new(),
    };
    for f in &frames[1..] {
        let at_frame = |e: Error| e.with_offset(f.offset as u64);
        match f.kind {
            journal::CHECKPOINT => {
                ack.progress = Some(
                    journal::decode_checkpoint(f.payload, &ack.header.schema).map_err(at_frame)?,
                );
                ack.tail.clear();
            }
            journal::ROWS => ack
                .tail
                .push(journal::decode_rows(f.payload, &ack.header.schema).map_err(at_frame)?),
            journal::ROWS_LZ4 => ack
                .tail
                .push(journal::decode_rows_lz4(f.payload, &ack.header.schema).map_err(at_frame)?),
            journal::HEADER => {
                return Err(at_frame(Error::corrupt("a second header in the journal")));
            }
            k => {
                return Err(at_frame(Error::corrupt(format!(
                    "unknown journal record kind {k}"
                ))))
            }
        }
    }
    Ok(Some(ack))
}

fn recover_one(folder: &Path, stem: &str, options: &WriterOptions) -> Result<Outcome> {
    let journal_path = folder.join(names::journal_name(stem));
    let data_path = folder.join(names::data_name(stem));
    let final_path = folder.join(names::final_name(stem));
    let temp_path = folder.join(names::journal_temp_name(stem));
    let remove_all = || -> Result<()> {
        for p in [&data_path, &temp_path, &journal_path] {
            match std::fs::remove_file(p) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io_at(p)(e)),
                _ => {}
            }
        }
        live::sync_dir(folder).map_err(io_at(folder))
    };
    // Crashed after the rename to the final name: the journal is all that is left to do.
    if final_path.exists() {
        remove_all()?;
        return Ok(Outcome::Removed);
    }
    let bytes = std::fs::read(&journal_path).map_err(io_at(&journal_path))?;
    let ack =
        read_journal(&bytes).map_err(|e| e.context(format!("`{}`", journal_path.display())))?;
    let Some(ack) = ack else {
        remove_all()?;
        return Ok(Outcome::Removed);
    };
    let (grouped, tail_rows) = (ack.grouped_rows(), ack.tail_rows());
    if grouped == 0 && tail_rows == 0 {
        remove_all()?;
        return Ok(Outcome::Removed);
    }
    let mut options = options.clone().compression(ack.header.compression);
    options.key_value_metadata = ack.header.key_value_metadata;
    options.encryption = None;
    let schema = ack.header.schema;
    let mut writer = match ack.progress.filter(|p| !p.row_groups.is_empty()) {
        Some(progress) => {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .open(&data_path)
                .map_err(io_at(&data_path))?;
            let len = file.metadata().map_err(io_at(&data_path))?.len();
            if len < progress.position {
                return Err(Error::corrupt(format!(
                    "`{}` holds {len} bytes, its journal's checkpoint {}",
                    data_path.display(),
                    progress.position
                )));
            }
            file.set_len(progress.position).map_err(io_at(&data_path))?;
            file.seek(SeekFrom::End(0)).map_err(io_at(&data_path))?;
            FileWriter::resume(BufWriter::new(file), schema, options, progress)?
        }
        None => {
            let file = File::create(&data_path).map_err(io_at(&data_path))?;
            FileWriter::new(BufWriter::new(file), schema, options)?
        }
    };
    if tail_rows > 0 {
        write_tail(&mut writer, &ack.tail)?;
    }
    let (sink, _) = writer.close()?;
    let file = sink
        .into_inner()
        .map_err(|e| io_at(&data_path)(e.into_error()))?;
    file.sync_all().map_err(io_at(&data_path))?;
    drop(file);
    std::fs::rename(&data_path, &final_path).map_err(io_at(&final_path))?;
    live::sync_dir(folder).map_err(io_at(folder))?;
    remove_all()?;
    Ok(Outcome::Recovered(
        final_path,
        grouped.saturating_add(tail_rows),
    ))
}
