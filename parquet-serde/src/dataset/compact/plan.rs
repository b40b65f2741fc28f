//! Which files go together: the files of one folder (one hive partition), in the dataset's
//! order, smaller than three quarters of the target, split into runs of one schema. Every
//! footer is read before anything is written, and an encrypted input is refused.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use crate::core::file::ParquetMetaData;
use crate::error::{Error, Result};
use crate::record::Value;

use super::super::list::DataFile;
use super::{CompactOptions, CompactReport};

/// One input: its path, size and footer.
#[derive(Debug)]
pub(super) struct Input {
    pub path: PathBuf,
    pub size: u64,
    pub metadata: ParquetMetaData,
}

impl Input {
    /// Stored (compressed) bytes of row group `rg`: the row group's `total_compressed_size`,
    /// else the sum of its chunks'.
    pub fn row_group_bytes(&self, rg: usize) -> u64 {
        let Some(group) = self.metadata.row_group(rg) else {
            return 0;
        };
        let bytes = match group.compressed_size() {
            Some(n) if n > 0 => n,
            _ => group.columns().map(|c| c.compressed_size().max(0)).sum(),
        };
        u64::try_from(bytes).unwrap_or(0)
    }
}

/// Files of one folder and one schema, merged together.
#[derive(Debug)]
pub(super) struct Run {
    pub dir: PathBuf,
    pub partition: Vec<(String, Value)>,
    pub inputs: Vec<Input>,
}

/// The runs of `files` to merge; files left alone are counted in `report.files_kept`.
pub(super) fn plan(
    files: &[DataFile],
    options: &CompactOptions,
    report: &mut CompactReport,
) -> Result<Vec<Run>> {
    // Folders in the order their first file comes, each with its files in order.
    let mut folders: Vec<(PathBuf, Vec<&DataFile>)> = Vec::new();
    for f in files {
        let dir = f.path().parent().unwrap_or(Path::new("")).to_path_buf();
        match folders.iter_mut().find(|(d, _)| *d == dir) {
            Some((_, list)) => list.push(f),
            None => folders.push((dir, vec![f])),
        }
    }
    let mut runs = Vec::new();
    for (dir, list) in folders {
        let mut run: Option<Run> = None;
        for f in list {
            let size = std::fs::metadata(f.path())
                .map_err(|e| Error::from(e).context(f.path().display()))?
                .len();
            if size >= options.small_file() {
                report.files_kept += 1;
                continue;
            }
            let metadata = read_footer(f.path())?;
            let input = Input {
                path: f.path().to_path_buf(),
                size,
                metadata,
            };
            match &mut run {
                Some(r) if same_schema(&r.inputs[0], &input) => r.inputs.push(input),
                _ => {
                    if let Some(r) = run.take() {
                        keep(r, &mut runs, report);
                    }
                    run = Some(Run {
                        dir: dir.clone(),
                        partition: f
                            .partitions()
                            .into_iter()
                            .map(|(k, v)| (k.to_string(), v))
                            .collect(),
                        inputs: vec![input],
                    });
                }
            }
        }
        if let Some(r) = run {
            keep(r, &mut runs, report);
        }
    }
    Ok(runs)
}

/// Keeps a run of at least two files; a file alone is left as it is.
fn keep(run: Run, runs: &mut Vec<Run>, report: &mut CompactReport) {
    if run.inputs.len() >= 2 {
        runs.push(run);
    } else {
        report.files_kept += run.inputs.len();
    }
}

/// Whether two files have the same schema (fields, names, types, repetitions, logical
/// types): only those are merged.
fn same_schema(a: &Input, b: &Input) -> bool {
    a.metadata.schema().root().fields() == b.metadata.schema().root().fields()
}

/// The footer of `path`; an encrypted file is refused (its pages are bound to it).
pub(super) fn read_footer(path: &Path) -> Result<ParquetMetaData> {
    let at = |e: Error| e.context(format!("`{}`", path.display()));
    let mut file = File::open(path).map_err(|e| at(e.into()))?;
    let len = file.metadata().map_err(|e| at(e.into()))?.len();
    let mut magic = [0u8; 4];
    if len >= 8 {
        file.seek(SeekFrom::End(-4)).map_err(|e| at(e.into()))?;
        file.read_exact(&mut magic).map_err(|e| at(e.into()))?;
    }
    let encrypted = || {
        at(Error::unsupported(
            "the file is encrypted: compaction merges plaintext files only",
        ))
    };
    if &magic == b"PARE" {
        return Err(encrypted());
    }
    let metadata = ParquetMetaData::parse(&file).map_err(at)?;
    if metadata.is_encrypted() {
        return Err(encrypted());
    }
    Ok(metadata)
}
