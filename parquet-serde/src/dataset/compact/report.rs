//! [`CompactOptions`] (target sizes) and [`CompactReport`] (what a compaction did, counted).

use std::path::PathBuf;

/// How [`Dataset::compact`](crate::dataset::Dataset::compact) sizes its outputs.
///
/// ```
/// use parquet_serde::dataset::CompactOptions;
/// let options = CompactOptions::default().target_size(8 << 20);
/// assert_eq!(options.get_target_size(), 8 << 20);
/// assert_eq!(options.get_row_group_size(), 8 << 20); // never more than the file target
/// ```
#[derive(Debug, Clone)]
pub struct CompactOptions {
    target_size: u64,
    row_group_size: u64,
    /// Paths an output must not take although no file is there (a Delta table's removed
    /// files, whose paths are never added again).
    taken: Option<std::sync::Arc<std::collections::HashSet<PathBuf>>>,
}

impl Default for CompactOptions {
    /// A target of 256 MiB per file, 128 MiB per row group (the writer's default).
    fn default() -> Self {
        CompactOptions {
            target_size: 256 << 20,
            row_group_size: 128 << 20,
            taken: None,
        }
    }
}

impl CompactOptions {
    /// The size an output file aims at, in bytes (at least 1). Files of at least three
    /// quarters of it are left alone; the others of a partition are merged into files near
    /// it (the last output of a partition holds what is left, and may be smaller).
    pub fn target_size(mut self, bytes: u64) -> Self {
        self.target_size = bytes.max(1);
        self
    }

    /// The size a row group of an output aims at, in bytes (at least 1): input row groups
    /// of at least an eighth of it are copied verbatim (pages byte for byte, no decoding);
    /// smaller ones are merged into row groups up to this size by decoding and encoding
    /// them again.
    pub fn row_group_size(mut self, bytes: u64) -> Self {
        self.row_group_size = bytes.max(1);
        self
    }

    /// The target file size.
    pub fn get_target_size(&self) -> u64 {
        self.target_size
    }

    /// The target row group size: the one set, but never more than the file target.
    pub fn get_row_group_size(&self) -> u64 {
        self.row_group_size.min(self.target_size)
    }

    /// The same options, outputs never named as one of `paths`.
    #[cfg_attr(not(feature = "delta"), allow(dead_code))]
    pub(crate) fn avoiding(mut self, paths: std::collections::HashSet<PathBuf>) -> Self {
        self.taken = Some(std::sync::Arc::new(paths));
        self
    }

    /// Whether an output may not be named `path` (besides a file being there).
    pub(crate) fn is_taken(&self, path: &std::path::Path) -> bool {
        self.taken.as_ref().is_some_and(|t| t.contains(path))
    }

    /// Input files smaller than this are merged.
    pub(crate) fn small_file(&self) -> u64 {
        self.target_size / 4 * 3
    }
}

/// What [`Dataset::compact`](crate::dataset::Dataset::compact) did, counted: every input
/// row is in exactly one output (`rows` of each), and every file seen is either an input,
/// or counted in `files_kept`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CompactReport {
    /// Partition folders (with their schema runs: files of another schema are merged
    /// separately) in which outputs were written.
    pub partitions: usize,
    /// Files merged (each has its rows in one output).
    pub inputs: usize,
    /// Their total size in bytes.
    pub input_bytes: u64,
    /// Input files removed (all of them, unless the compaction left them to a table commit).
    pub inputs_removed: usize,
    /// Files seen but left as they were: at least three quarters of the target, or alone
    /// (with their schema) in their folder.
    pub files_kept: usize,
    /// The outputs written, in order.
    pub outputs: Vec<PathBuf>,
    /// Their total size in bytes.
    pub output_bytes: u64,
    /// Rows in the outputs (the same as in the inputs).
    pub rows: u64,
    /// Input row groups copied verbatim.
    pub row_groups_copied: usize,
    /// Their stored (compressed) bytes.
    pub bytes_copied: u64,
    /// Input row groups decoded and merged into other row groups.
    pub row_groups_reencoded: usize,
    /// Their stored (compressed) bytes.
    pub bytes_reencoded: u64,
    /// Row groups the merging wrote.
    pub row_groups_merged: usize,
    /// Inputs of an earlier, interrupted compaction (already in an output: see "Crash
    /// safety" at [`Dataset::compact`](crate::dataset::Dataset::compact)) removed before
    /// this one started.
    pub leftovers_removed: usize,
    /// The version of a Delta table's compaction commit (`None` for a folder, or when
    /// nothing was merged): see [`DeltaTable::compact`](crate::delta::DeltaTable::compact).
    pub table_version: Option<u64>,
}

impl std::fmt::Display for CompactReport {
    /// A few lines, as the command-line tool prints them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} input files ({} bytes, {} rows) in {} partitions became {} files ({} bytes)",
            self.inputs,
            self.input_bytes,
            self.rows,
            self.partitions,
            self.outputs.len(),
            self.output_bytes
        )?;
        writeln!(
            f,
            "row groups copied verbatim: {} ({} bytes); re-encoded: {} ({} bytes) into {}",
            self.row_groups_copied,
            self.bytes_copied,
            self.row_groups_reencoded,
            self.bytes_reencoded,
            self.row_groups_merged
        )?;
        write!(
            f,
            "inputs removed: {}; files left as they were: {}; leftovers of an interrupted compaction removed: {}",
            self.inputs_removed, self.files_kept, self.leftovers_removed
        )?;
        match self.table_version {
            Some(v) => write!(f, "\ncommitted as table version {v} (inputs removed from the table, deleted by vacuum)"),
            None => Ok(()),
        }
    }
}
