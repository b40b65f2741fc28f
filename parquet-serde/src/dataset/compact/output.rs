//! One output file being written: row groups of at least an eighth of the row-group target
//! copied verbatim ([`FileWriter::copy_row_group`]), smaller ones decoded column by column
//! into open column writers that become one row group near the target.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::core::bloom::BloomFilterOptions;
use crate::core::column::ColumnChunkWriter;
use crate::core::file::ParquetMetaData;
use crate::core::file::{FileReader, FileWriter, PendingFile, WriterOptions};
use crate::error::{Error, ErrorKind, Result};

use super::plan::{Input, Run};
use super::CompactReport;

/// The key of an output's footer entry that lists its inputs (`size<TAB>name` lines), so
/// that a compaction interrupted before it removed them all is finished by the next one.
pub(super) const INPUTS_KEY: &str = "parquet-serde.compacted_from";

/// How much re-encoding shrinks stored bytes, measured over a run (to place file cuts).
#[derive(Debug, Default)]
pub(super) struct Ratio {
    stored_in: u64,
    written: u64,
}

impl Ratio {
    /// The output bytes one input byte of small row groups becomes (1 before any is known).
    fn get(&self) -> f64 {
        if self.stored_in == 0 {
            1.0
        } else {
            self.written as f64 / self.stored_in as f64
        }
    }

    /// The bytes `input` is expected to add to an output.
    pub(super) fn estimate(&self, input: &Input, row_group_target: u64) -> u64 {
        let mut total = 0.0;
        for rg in 0..input.metadata.num_row_groups() {
            let bytes = input.row_group_bytes(rg);
            total += if verbatim(bytes, row_group_target) {
                bytes as f64
            } else {
                bytes as f64 * self.get()
            };
        }
        total as u64
    }
}

/// Whether a row group of `bytes` stored bytes is copied as stored.
fn verbatim(bytes: u64, row_group_target: u64) -> bool {
    bytes >= row_group_target / 8
}

/// An output being written under a temporary name.
pub(super) struct Output {
    writer: FileWriter<BufWriter<File>>,
    pending: PendingFile,
    path: PathBuf,
    row_group_target: u64,
    /// Column writers of the row group being merged (empty when none is).
    live: Vec<ColumnChunkWriter>,
    /// Stored bytes of the input row groups in `live`.
    live_in: u64,
    /// Inputs added, with their sizes and names, for [`INPUTS_KEY`].
    listed: String,
    /// Whether the footer lists the inputs (plain folders: a table's log does it there).
    list_inputs: bool,
    pub inputs: usize,
}

/// A finished output, still under its temporary name.
pub(super) struct Finished {
    pub pending: PendingFile,
    pub path: PathBuf,
    pub size: u64,
    pub rows: u64,
    pub metadata: ParquetMetaData,
}

impl Output {
    /// Starts the output `path` of `run`: the first input's schema, each column's codec
    /// and Bloom filter as in the first input, the key-value pairs every input has.
    pub fn create(
        path: &Path,
        run: &Run,
        row_group_target: u64,
        list_inputs: bool,
    ) -> Result<Output> {
        let first = &run.inputs[0].metadata;
        let schema = first.schema().clone();
        let mut options = WriterOptions::default();
        if let Some(group) = first.row_group(0) {
            for chunk in group.columns() {
                let name = chunk.path().to_string();
                if let Some(codec) = chunk.compression() {
                    options = options.column_compression(name.clone(), codec);
                }
                if chunk.bloom_filter_offset().is_some() {
                    options = options.bloom_filter(name, BloomFilterOptions::default());
                }
            }
        }
        for (key, value) in first.key_values() {
            let Some(value) = value else { continue };
            if key != INPUTS_KEY
                && run.inputs[1..]
                    .iter()
                    .all(|i| i.metadata.key_value(key) == Some(value))
            {
                options = options.key_value_metadata(key, value);
            }
        }
        let (pending, file) = PendingFile::create(path)?;
        let writer = FileWriter::new(BufWriter::with_capacity(1 << 16, file), schema, options)?;
        Ok(Output {
            writer,
            pending,
            path: path.to_path_buf(),
            row_group_target,
            live: Vec::new(),
            live_in: 0,
            listed: String::new(),
            list_inputs,
            inputs: 0,
        })
    }

    /// Bytes the output would have if it were closed now (footer aside): the bytes
    /// written, and the row group being merged as `ratio` expects it to shrink (its
    /// buffered bytes, mostly not compressed yet, before any is measured).
    pub fn estimated_size(&self, ratio: &Ratio) -> u64 {
        self.writer.bytes_written() + self.estimated_live(ratio)
    }

    /// Bytes written so far (the row groups, not the footer).
    pub fn bytes_written(&self) -> u64 {
        self.writer.bytes_written()
    }

    /// Adds every row group of `input`.
    pub fn add(
        &mut self,
        input: &Input,
        ratio: &mut Ratio,
        report: &mut CompactReport,
    ) -> Result<()> {
        let at = |e: Error| e.context(format!("`{}`", input.path.display()));
        let file = File::open(&input.path).map_err(|e| at(e.into()))?;
        let reader = FileReader::new(file).map_err(at)?;
        if reader.metadata().num_rows() != input.metadata.num_rows()
            || reader.schema().root().fields() != input.metadata.schema().root().fields()
        {
            return Err(at(Error::invalid_argument(
                "the file changed while it was compacted",
            )));
        }
        for rg in 0..reader.num_row_groups() {
            let bytes = input.row_group_bytes(rg);
            if verbatim(bytes, self.row_group_target) {
                self.flush(ratio, report).map_err(at)?;
                match self.writer.copy_row_group(&reader, rg) {
                    Ok(()) => {
                        report.row_groups_copied += 1;
                        report.bytes_copied += bytes;
                        continue;
                    }
                    // Chunks that cannot be copied exactly are decoded instead.
                    Err(e) if e.kind() == ErrorKind::Unsupported => {}
                    Err(e) => return Err(at(e.with_row_group(rg))),
                }
            } else if self.live_in > 0
                && self.estimated_live(ratio) + (bytes as f64 * ratio.get()) as u64
                    > self.row_group_target
            {
                self.flush(ratio, report).map_err(at)?;
            }
            self.merge(&reader, rg)
                .map_err(|e| at(e.with_row_group(rg)))?;
            self.live_in += bytes;
            report.row_groups_reencoded += 1;
            report.bytes_reencoded += bytes;
        }
        let name = input.path.file_name().and_then(|n| n.to_str());
        if let Some(name) = name.filter(|n| !n.contains('\n')) {
            self.listed.push_str(&format!("{}\t{name}\n", input.size));
        }
        self.inputs += 1;
        Ok(())
    }

    /// Bytes the row group being merged is expected to take.
    fn estimated_live(&self, ratio: &Ratio) -> u64 {
        if ratio.stored_in > 0 {
            (self.live_in as f64 * ratio.get()) as u64
        } else {
            self.live.iter().map(|c| c.buffered_bytes() as u64).sum()
        }
    }

    /// Decodes row group `rg` of `reader` into the row group being merged.
    fn merge(&mut self, reader: &FileReader<File>, rg: usize) -> Result<()> {
        if self.live.is_empty() {
            for c in 0..self.writer.schema().num_columns() {
                self.live.push(self.writer.column_writer(c)?);
            }
        }
        for (c, column) in self.live.iter_mut().enumerate() {
            let batch = reader.read_column(rg, c)?;
            column.write(&batch)?;
        }
        Ok(())
    }

    /// Writes the row group being merged, if any.
    pub fn flush(&mut self, ratio: &mut Ratio, report: &mut CompactReport) -> Result<()> {
        if self.live.is_empty() {
            return Ok(());
        }
        let chunks = std::mem::take(&mut self.live)
            .into_iter()
            .map(ColumnChunkWriter::close)
            .collect::<Result<Vec<_>>>()?;
        ratio.written += chunks.iter().map(|c| c.len() as u64).sum::<u64>();
        ratio.stored_in += std::mem::take(&mut self.live_in);
        self.writer.write_row_group(chunks)?;
        report.row_groups_merged += 1;
        Ok(())
    }

    /// Writes what is left and the footer (listing the inputs, if asked).
    pub fn finish(mut self, ratio: &mut Ratio, report: &mut CompactReport) -> Result<Finished> {
        self.flush(ratio, report)?;
        if self.list_inputs {
            let listed = std::mem::take(&mut self.listed);
            self.writer.push_key_value(INPUTS_KEY.to_string(), listed);
        }
        let (sink, metadata) = self.writer.close()?;
        let mut file = sink.into_inner().map_err(|e| Error::from(e.into_error()))?;
        file.flush()?;
        let size = file.metadata()?.len();
        let rows = metadata.num_rows();
        Ok(Finished {
            pending: self.pending,
            path: self.path,
            size,
            rows,
            metadata,
        })
    }
}
