//! Compaction: the small final files of each partition folder merged into files near a
//! target size ([`Dataset::compact`](super::Dataset::compact)).
//!
//! One job per file: `plan.rs` finds each partition's inputs (and refuses what cannot be
//! merged), `output.rs` writes one output (row groups copied verbatim, small ones merged by
//! re-encoding), `commit.rs` makes outputs visible and removes their inputs, `report.rs`
//! holds the public options and report. The crate-internal [`compact_files`] is the seam a
//! table committer uses: it compacts without deleting the inputs and returns, per
//! partition, the inputs each output consumed and the output's footer.

mod commit;
mod output;
mod plan;
mod report;

#[cfg(feature = "iceberg")]
mod iceberg;
#[cfg(any(feature = "delta", feature = "iceberg"))]
pub(super) mod table;
#[cfg(test)]
mod tests;

use std::path::PathBuf;

use crate::core::file::ParquetMetaData;
use crate::error::Result;
use crate::record::Value;

use super::list::DataFile;

pub use report::{CompactOptions, CompactReport};

#[cfg(feature = "iceberg")]
pub(crate) use iceberg::compact_iceberg;

/// What happens to the inputs of an output once it is visible.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Inputs {
    /// Removed from the folder, each right after the output holding its rows is visible
    /// (plain folder mode).
    Remove,
    /// Left in place: a table committer removes them from the table in the commit that adds
    /// the outputs, and deletes them later.
    #[allow(dead_code)]
    Keep,
}

/// One input file of a compaction.
#[derive(Debug, Clone)]
#[allow(dead_code)]
pub(crate) struct CompactedInput {
    pub path: PathBuf,
    /// Size in bytes when it was read.
    pub size: u64,
    pub rows: u64,
}

/// One output file of a compaction, visible under `path`.
#[derive(Debug, Clone)]
#[allow(dead_code)]
pub(crate) struct CompactedOutput {
    pub path: PathBuf,
    pub size: u64,
    pub rows: u64,
    /// The output's footer, as written (statistics for a table's `add` action).
    pub metadata: ParquetMetaData,
    /// The inputs whose rows it holds (indices into [`PartitionCompaction::inputs`]); every
    /// input belongs to exactly one output.
    pub inputs: std::ops::Range<usize>,
}

/// What a compaction did in one partition folder.
#[derive(Debug, Clone)]
#[allow(dead_code)]
pub(crate) struct PartitionCompaction {
    /// The folder.
    pub dir: PathBuf,
    /// Its hive partition values, outermost first (as [`DataFile::partitions`]).
    pub partition: Vec<(String, Value)>,
    pub inputs: Vec<CompactedInput>,
    pub outputs: Vec<CompactedOutput>,
}

/// A compaction's result: per partition, inputs consumed and outputs written, and the
/// totals.
#[derive(Debug, Clone)]
#[allow(dead_code)] // `partitions` is for a table committer
pub(crate) struct Compaction {
    pub partitions: Vec<PartitionCompaction>,
    pub report: CompactReport,
}

/// A step of a compaction, for tests that inject a failure between steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Step {
    /// An output is written whole, still under its temporary name.
    Written,
    /// An output is visible under its final name; its inputs are all still there.
    Visible,
    /// One input of a visible output was removed.
    InputRemoved,
}

/// Compacts `files` (a dataset's files) partition by partition, see
/// [`Dataset::compact`](super::Dataset::compact); `inputs` says whether inputs are removed.
pub(crate) fn compact_files(
    files: &[DataFile],
    options: &CompactOptions,
    inputs: Inputs,
) -> Result<Compaction> {
    compact_files_with(files, options, inputs, &mut |_| Ok(()))
}

/// [`compact_files`], calling `step` after each step (an error stops the compaction there,
/// as a crash would).
pub(crate) fn compact_files_with(
    files: &[DataFile],
    options: &CompactOptions,
    inputs: Inputs,
    step: &mut dyn FnMut(Step) -> Result<()>,
) -> Result<Compaction> {
    let mut report = CompactReport::default();
    if inputs == Inputs::Remove {
        report.leftovers_removed = commit::finish_interrupted(files)?;
    }
    let files: Vec<DataFile> = files
        .iter()
        .filter(|f| f.path().exists())
        .cloned()
        .collect();
    let partitions = plan::plan(&files, options, &mut report)?;
    let mut done = Vec::with_capacity(partitions.len());
    for partition in partitions {
        done.push(commit::compact_partition(
            partition,
            options,
            inputs,
            &mut report,
            step,
        )?);
    }
    done.retain(|p: &PartitionCompaction| !p.outputs.is_empty());
    report.partitions = done.len();
    Ok(Compaction {
        partitions: done,
        report,
    })
}
