//! Opening a remote file: the footer in one request (two when it is longer than the first
//! guess), then the fetch plan for the projection and the predicate, then the synchronous
//! [`Reader`] over the [`RemoteFile`].

use std::ops::Range;
use std::sync::Arc;

use serde::de::DeserializeOwned;

use crate::core::file::{
    check_head_magic, chunk_range, parquet_816_padding, parse_footer_tail, ChunkReader, FileReader,
    ParquetMetaData, ReadOptions, RowSelection, FOOTER_SIZE, MAGIC,
};
use crate::error::{Error, Result};
use crate::filter::{bind_predicate, FilterOptions, Predicate};
use crate::Reader;

use super::file::RemoteFile;
use super::plan::UnitPlan;
use super::runtime::{wait, Runtime};
use super::source::RangeSource;

/// How a remote file is fetched: the size of the first (footer) request, the gap below
/// which nearby ranges are fetched as one request, and how many row groups are fetched
/// ahead of the one being read.
///
/// ```
/// use parquet_serde::store::RemoteOptions;
/// let options = RemoteOptions::default().coalesce_gap(64 << 10).prefetch(2);
/// assert_eq!(options.get_coalesce_gap(), 64 << 10);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteOptions {
    footer_hint: u64,
    coalesce_gap: u64,
    prefetch: usize,
}

impl Default for RemoteOptions {
    /// A 64 KiB first request, gaps of up to 256 KiB bridged when small against the
    /// request (see [`coalesce_gap`](Self::coalesce_gap)), one row group fetched ahead.
    fn default() -> Self {
        RemoteOptions {
            footer_hint: 64 << 10,
            coalesce_gap: 256 << 10,
            prefetch: 1,
        }
    }
}

impl RemoteOptions {
    /// Bytes of the first request, from the end of the file: a footer (with the 8 bytes of
    /// length and magic) that fits is read in one request, a longer one needs a second.
    /// At least 8.
    pub fn footer_hint(mut self, bytes: u64) -> Self {
        self.footer_hint = bytes.max(FOOTER_SIZE as u64);
        self
    }

    /// The largest gap bridged between two ranges fetched as one request (the bytes
    /// between them are fetched and dropped): fewer requests against more bytes. Within
    /// it, a gap is bridged only when it is small: at most a quarter of this (64 KiB by
    /// default), or at most 1/32 of the bytes of the request it makes.
    pub fn coalesce_gap(mut self, bytes: u64) -> Self {
        self.coalesce_gap = bytes;
        self
    }

    /// Row groups fetched ahead of the one being read (0: each when first needed).
    pub fn prefetch(mut self, row_groups: usize) -> Self {
        self.prefetch = row_groups;
        self
    }

    /// The footer request's size.
    pub fn get_footer_hint(&self) -> u64 {
        self.footer_hint
    }

    /// The coalescing gap.
    pub fn get_coalesce_gap(&self) -> u64 {
        self.coalesce_gap
    }

    /// Row groups fetched ahead.
    pub fn get_prefetch(&self) -> usize {
        self.prefetch
    }
}

/// What to read of a remote file.
#[derive(Debug, Clone, Default)]
pub(crate) struct ReadRequest {
    pub options: ReadOptions,
    pub remote: RemoteOptions,
    pub filter: Option<(Predicate, FilterOptions)>,
}

/// The most bytes of the predicate's columns fetched while opening, to select the rows
/// exactly before the other columns are planned (they stay in memory until the file is
/// dropped).
const MAX_PRESELECT_BYTES: u64 = 32 << 20;

/// Opens the file of `source` for rows of `T`: fetches the footer, plans the ranges the
/// projection of `T` and the predicate need, and reads nothing twice: what lies in the
/// tail fetched with the footer (the page indexes, often) is read from it, and so is
/// whatever a unit kept in memory holds. The magic at the start of the file is checked
/// when the tail reaches it, else not at all (as arrow-rs does: the footer's magic and
/// lengths are checked, and each page's header).
///
/// With a predicate, the metadata it prunes with is fetched here (one unit, kept), the
/// row groups and pages left are found by pruning, and when the predicate makes point
/// lookups and its columns are small against the rest (at most a quarter of the
/// candidate bytes and 32 MiB), their
/// candidate pages are fetched here too (one unit, kept) and the predicate is evaluated,
/// so that the other columns are planned only for the pages holding selected rows: a
/// `level = 'ERROR'` over rows clustered in bursts fetches only the bursts' pages.
/// Blocks on `runtime`.
pub(crate) fn open<T: DeserializeOwned>(
    source: Arc<dyn RangeSource>,
    runtime: Runtime,
    request: ReadRequest,
) -> Result<Reader<RemoteFile, T>> {
    let ReadRequest {
        options,
        remote,
        filter,
    } = request;
    let name = source.describe();
    let (tail, len) = wait(&runtime, source.tail(remote.footer_hint))?;
    if tail.len() as u64 > len {
        return Err(Error::corrupt(format!(
            "{name}: {} bytes fetched from the end of a file of {len}",
            tail.len()
        )));
    }
    let file = RemoteFile::new(source, runtime, len, tail, remote.prefetch);
    let metadata =
        parse_footer_tail(&file, options.decryption.as_ref()).map_err(|e| e.context(&name))?;
    let mut in_memory = vec![file.tail_range()];
    if in_memory[0].start == 0 && len >= 2 * MAGIC.len() as u64 {
        let end_magic = file.read_range(len - MAGIC.len() as u64, MAGIC.len())?;
        let magic: [u8; 4] = [end_magic[0], end_magic[1], end_magic[2], end_magic[3]];
        check_head_magic(&file.read_range(0, MAGIC.len())?, &magic)
            .map_err(|e| e.context(&name))?;
    }
    let projected = crate::de::projection::<T, &str>(&metadata.schema, &[])?;
    let gap = remote.coalesce_gap;
    let Some((predicate, filter_options)) = filter else {
        let groups = metadata.num_row_groups();
        let units = (0..groups)
            .map(|rg| {
                let wanted = projected
                    .iter()
                    .filter_map(|&c| chunk_bytes(&metadata, rg, c))
                    .collect();
                UnitPlan::new(wanted, len, gap, false, &in_memory)
            })
            .collect();
        file.plan(units);
        return Reader::from_file_reader(FileReader::from_metadata(file, metadata, options));
    };
    let bound = bind_predicate(&predicate, &metadata.schema)?;
    let tested = bound.columns();
    let lookups = bound.lookup_columns();
    let probe = FileReader::from_metadata(&file, metadata.clone(), options.clone());
    // Row groups the statistics in the footer leave: the only ones whose metadata pruning
    // reads.
    let survivors: Vec<usize> = if filter_options.statistics {
        let stats_only = FilterOptions {
            statistics: true,
            bloom_filters: false,
            dictionaries: false,
            page_index: false,
        };
        probe
            .filter(predicate.clone())?
            .with_options(stats_only)
            .prune()?
            .row_groups
            .into_iter()
            .map(|(rg, _)| rg)
            .collect()
    } else {
        (0..metadata.num_row_groups()).collect()
    };
    let mut wanted = Vec::new();
    for &rg in &survivors {
        for &c in &tested {
            wanted.extend(pruning_bytes(
                &metadata,
                rg,
                c,
                lookups.contains(&c),
                filter_options,
            ));
        }
        if filter_options.page_index {
            for &c in projected.iter().filter(|c| !tested.contains(c)) {
                wanted.extend(offset_index_bytes(&metadata, rg, c));
            }
        }
    }
    let pruning = UnitPlan::new(wanted, len, gap, true, &in_memory);
    in_memory.extend(pruning.fetch.iter().cloned());
    file.plan(vec![pruning]);
    let pruned = probe
        .filter(predicate.clone())?
        .with_options(filter_options)
        .prune()?;
    let mut columns = projected.clone();
    columns.extend(tested.iter().filter(|c| !projected.contains(c)));
    let bytes_of = |of: &[usize], selection: &[(usize, RowSelection)]| -> Vec<Range<u64>> {
        selection
            .iter()
            .flat_map(|(rg, rows)| {
                of.iter()
                    .flat_map(|&c| selected_bytes(&probe, *rg, c, rows, filter_options.page_index))
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let total = |ranges: &[Range<u64>]| ranges.iter().map(|r| r.end - r.start).sum::<u64>();
    let tested_bytes = bytes_of(&tested, &pruned.row_groups);
    let candidate_bytes = total(&bytes_of(&columns, &pruned.row_groups));
    let (tested_total, others) = (
        total(&tested_bytes),
        candidate_bytes - total(&tested_bytes).min(candidate_bytes),
    );
    // Only point lookups (`eq`, `in`) are evaluated first: ranges are pruned as well by
    // the page index's min/max, and a first pass would cost a request.
    let selection = if !lookups.is_empty()
        && tested_total <= MAX_PRESELECT_BYTES
        && tested_total.saturating_mul(3) <= others
    {
        let unit = UnitPlan::new(tested_bytes, len, gap, true, &in_memory);
        in_memory.extend(unit.fetch.iter().cloned());
        file.plan(vec![unit]);
        probe
            .filter(predicate.clone())?
            .with_options(filter_options)
            .select()?
    } else {
        pruned
    };
    let units = selection
        .row_groups
        .iter()
        .map(|(rg, rows)| {
            let wanted = columns
                .iter()
                .flat_map(|&c| selected_bytes(&probe, *rg, c, rows, filter_options.page_index))
                .collect();
            UnitPlan::new(wanted, len, gap, false, &in_memory)
        })
        .collect();
    drop(probe);
    file.plan(units);
    Reader::from_file_reader(FileReader::from_metadata(file, metadata, options))?
        .filter_with_options(predicate, filter_options)
}

/// The bytes a reader reads for a whole column chunk (`None`: the chunk has no metadata,
/// an encrypted one without its key for example; its read fails on its own).
fn chunk_bytes(metadata: &ParquetMetaData, rg: usize, column: usize) -> Option<Range<u64>> {
    let md = metadata.column_chunk(rg, column).ok()?.meta_data.as_ref()?;
    let (start, len) = chunk_range(md);
    let len = len.saturating_add(parquet_816_padding(metadata, start, len));
    Some(start..start.saturating_add(len))
}

fn index_bytes(offset: Option<i64>, len: Option<i32>) -> Option<Range<u64>> {
    let start = u64::try_from(offset?).ok()?;
    let len = u64::try_from(len?).ok()?;
    Some(start..start.checked_add(len)?)
}

fn offset_index_bytes(metadata: &ParquetMetaData, rg: usize, c: usize) -> Option<Range<u64>> {
    let chunk = metadata.column_chunk(rg, c).ok()?;
    index_bytes(chunk.offset_index_offset, chunk.offset_index_length)
}

/// Bytes the pruning of row group `rg` reads for tested column `c`: its page index, and
/// for point lookups its Bloom filter or else its dictionary page.
fn pruning_bytes(
    metadata: &ParquetMetaData,
    rg: usize,
    c: usize,
    lookup: bool,
    options: FilterOptions,
) -> Vec<Range<u64>> {
    let mut out = Vec::new();
    let Ok(chunk) = metadata.column_chunk(rg, c) else {
        return out;
    };
    if options.page_index {
        out.extend(index_bytes(
            chunk.offset_index_offset,
            chunk.offset_index_length,
        ));
        out.extend(index_bytes(
            chunk.column_index_offset,
            chunk.column_index_length,
        ));
    }
    let Some(md) = chunk.meta_data.as_ref() else {
        return out;
    };
    if !lookup {
        return out;
    }
    let bloom = md.bloom_filter_offset.and_then(|o| u64::try_from(o).ok());
    if options.bloom_filters {
        if let Some(offset) = bloom {
            // Without a recorded length the reader reads a header of up to 64 bytes first.
            let len = md.bloom_filter_length.and_then(|l| u64::try_from(l).ok());
            let end = metadata.footer_offset;
            out.push(offset..offset.saturating_add(len.unwrap_or(64)).min(end));
            return out;
        }
    }
    if options.dictionaries {
        let (start, _) = chunk_range(md);
        let data = md.data_page_offset.max(0) as u64;
        if start < data {
            out.push(start..data);
        }
    }
    out
}

/// Bytes a filtered read of `rows` of row group `rg` reads for column `c`: with an
/// OffsetIndex, the dictionary page and the pages holding the rows; else the whole chunk.
fn selected_bytes<R: ChunkReader>(
    probe: &FileReader<R>,
    rg: usize,
    c: usize,
    rows: &RowSelection,
    page_index: bool,
) -> Vec<Range<u64>> {
    let metadata = probe.metadata();
    let num_rows = metadata
        .file
        .row_groups
        .get(rg)
        .map_or(0, |g| g.num_rows.max(0) as u64);
    let pages = match page_index && rows.row_count() < num_rows {
        true => probe.offset_pages(rg, c).ok().flatten(),
        false => None,
    };
    let (Some(pi), Some(md)) = (
        pages.filter(|p| !p.pages.is_empty()),
        metadata
            .column_chunk(rg, c)
            .ok()
            .and_then(|ch| ch.meta_data.as_ref()),
    ) else {
        return chunk_bytes(metadata, rg, c).into_iter().collect();
    };
    let (chunk_start, _) = chunk_range(md);
    let first = pi.pages[0].offset;
    let mut out = Vec::new();
    if chunk_start < first {
        out.push(chunk_start..first);
    }
    out.extend(pi.pages_for(rows).into_iter().map(|k| {
        let p = &pi.pages[k];
        p.offset..p.offset + p.compressed_size as u64
    }));
    out
}
