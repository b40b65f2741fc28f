//! Outputs made visible and inputs removed, in the order that keeps every row readable:
//! an output is written under a temporary `.`-prefixed name (which readers skip), renamed
//! to its final name, and only then are its inputs removed, one by one. Each output lists
//! its inputs in its footer ([`INPUTS_KEY`]), so that the next compaction removes those a
//! crash left behind ([`finish_interrupted`]).

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

use super::super::list::DataFile;
use super::output::{Output, Ratio, INPUTS_KEY};
use super::plan::{read_footer, Run};
use super::{
    CompactOptions, CompactReport, CompactedInput, CompactedOutput, Inputs, PartitionCompaction,
    Step,
};

/// Compacts one run of files into outputs near the target size. Outputs are cut between
/// input files, so each input is in exactly one output.
pub(super) fn compact_partition(
    run: Run,
    options: &CompactOptions,
    inputs: Inputs,
    report: &mut CompactReport,
    step: &mut dyn FnMut(Step) -> Result<()>,
) -> Result<PartitionCompaction> {
    let target = options.get_target_size();
    let row_group_target = options.get_row_group_size();
    let mut done = PartitionCompaction {
        dir: run.dir.clone(),
        partition: run.partition.clone(),
        inputs: run
            .inputs
            .iter()
            .map(|i| CompactedInput {
                path: i.path.clone(),
                size: i.size,
                rows: i.metadata.num_rows(),
            })
            .collect(),
        outputs: Vec::new(),
    };
    let mut ratio = Ratio::default();
    let mut current: Option<(Output, usize)> = None;
    for (i, input) in run.inputs.iter().enumerate() {
        if let Some((mut output, first)) = current.take() {
            // Cut before `input` when the output is nearer the target without it than with
            // it; the row group being merged is written first, to know its real size.
            let half = ratio.estimate(input, row_group_target) / 2;
            let cut = output.estimated_size(&ratio) + half > target && {
                output.flush(&mut ratio, report)?;
                output.bytes_written() + half > target
            };
            if cut {
                let out = finish(output, first..i, &run, inputs, &mut ratio, report, step)?;
                done.outputs.push(out);
            } else {
                current = Some((output, first));
            }
        }
        let (output, _) = match &mut current {
            Some(c) => c,
            None => {
                let path = output_name_avoiding(&run.dir, &input.path, options)?;
                let list = inputs == Inputs::Remove;
                current.insert((Output::create(&path, &run, row_group_target, list)?, i))
            }
        };
        output.add(input, &mut ratio, report)?;
    }
    if let Some((output, first)) = current {
        let end = run.inputs.len();
        let out = finish(output, first..end, &run, inputs, &mut ratio, report, step)?;
        done.outputs.push(out);
    }
    Ok(done)
}

/// Closes `output`, makes it visible, then removes its inputs (`range` of the run's).
fn finish(
    output: Output,
    range: std::ops::Range<usize>,
    run: &Run,
    inputs: Inputs,
    ratio: &mut Ratio,
    report: &mut CompactReport,
    step: &mut dyn FnMut(Step) -> Result<()>,
) -> Result<CompactedOutput> {
    let finished = output.finish(ratio, report)?;
    step(Step::Written)?;
    if finished.path.exists() {
        return Err(Error::invalid_argument(format!(
            "`{}` appeared while it was written: is another compaction running in the folder?",
            finished.path.display()
        )));
    }
    finished.pending.commit()?;
    report.outputs.push(finished.path.clone());
    report.output_bytes += finished.size;
    report.rows += finished.rows;
    step(Step::Visible)?;
    for input in &run.inputs[range.clone()] {
        report.inputs += 1;
        report.input_bytes += input.size;
        if inputs == Inputs::Remove {
            std::fs::remove_file(&input.path).map_err(|e| {
                Error::from(e).context(format!(
                    "removing `{}`, whose rows are in `{}` (the next compaction removes it)",
                    input.path.display(),
                    finished.path.display()
                ))
            })?;
            report.inputs_removed += 1;
            step(Step::InputRemoved)?;
        }
    }
    Ok(CompactedOutput {
        path: finished.path,
        size: finished.size,
        rows: finished.rows,
        metadata: finished.metadata,
        inputs: range,
    })
}

/// A free final name for the output whose first input is `first`, beside it and sorting
/// next to it: `STEM.compact.parquet`, else `STEM.compact-N.parquet` (`STEM` without an
/// earlier `.compact` suffix).
#[cfg(test)]
pub(super) fn output_name(dir: &Path, first: &Path) -> Result<PathBuf> {
    output_name_avoiding(dir, first, &CompactOptions::default())
}

/// [`output_name`], never one of the paths `options` says are taken.
fn output_name_avoiding(dir: &Path, first: &Path, options: &CompactOptions) -> Result<PathBuf> {
    let name = first.file_name().and_then(|n| n.to_str()).unwrap_or("part");
    let mut stem = name.strip_suffix(".parquet").unwrap_or(name);
    if let Some((s, suffix)) = stem.rsplit_once(".compact") {
        if suffix.is_empty()
            || suffix
                .strip_prefix('-')
                .is_some_and(|n| n.parse::<u32>().is_ok())
        {
            stem = s;
        }
    }
    for n in 1..=10_000u32 {
        let candidate = if n == 1 {
            dir.join(format!("{stem}.compact.parquet"))
        } else {
            dir.join(format!("{stem}.compact-{n}.parquet"))
        };
        if !candidate.exists() && !options.is_taken(&candidate) {
            return Ok(candidate);
        }
    }
    Err(Error::invalid_argument(format!(
        "no free output name for `{stem}` in `{}`",
        dir.display()
    )))
}

/// Removes the inputs an earlier compaction had already merged but not yet removed when it
/// stopped: files named (with the same size) in the [`INPUTS_KEY`] entry of another file
/// of their folder. Files whose footer cannot be read are left to the planning, which
/// reports them. Returns how many were removed.
pub(super) fn finish_interrupted(files: &[DataFile]) -> Result<usize> {
    let mut removed = 0;
    let mut folders: Vec<&Path> = files.iter().filter_map(|f| f.path().parent()).collect();
    folders.sort();
    folders.dedup();
    for dir in folders {
        remove_unfinished_outputs(dir)?;
    }
    for f in files {
        let Ok(metadata) = read_footer(f.path()) else {
            continue;
        };
        let Some(listed) = metadata.key_value(INPUTS_KEY) else {
            continue;
        };
        let dir = f.path().parent().unwrap_or(Path::new(""));
        for line in listed.lines() {
            let Some((size, name)) = line.split_once('\t') else {
                continue;
            };
            if name.contains('/') || name.contains('\\') || name.starts_with('.') {
                continue;
            }
            let path = dir.join(name);
            if path == f.path() {
                continue;
            }
            let same = std::fs::metadata(&path)
                .is_ok_and(|m| m.is_file() && Some(m.len()) == size.parse().ok());
            if same {
                std::fs::remove_file(&path).map_err(|e| {
                    Error::from(e).context(format!(
                        "removing `{}`, whose rows are in `{}`",
                        path.display(),
                        f.path().display()
                    ))
                })?;
                removed += 1;
            }
        }
    }
    Ok(removed)
}

/// Removes the temporary files of outputs a crash left unfinished in `dir`
/// (`.STEM.compact….parquet.XXXXXX.tmp`, see [`PendingFile`](crate::core::file::PendingFile)):
/// their rows are still in their inputs.
fn remove_unfinished_outputs(dir: &Path) -> Result<()> {
    let at = |e: std::io::Error| Error::from(e).context(dir.display());
    for entry in std::fs::read_dir(dir).map_err(at)? {
        let entry = entry.map_err(at)?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if is_unfinished_output(name) && entry.file_type().map_err(at)?.is_file() {
            std::fs::remove_file(entry.path()).map_err(at)?;
        }
    }
    Ok(())
}

/// Whether `name` is the temporary file of an output being written.
pub(super) fn is_unfinished_output(name: &str) -> bool {
    name.starts_with('.')
        && name.ends_with(".tmp")
        && (name.contains(".compact.parquet.") || name.contains(".compact-"))
}
