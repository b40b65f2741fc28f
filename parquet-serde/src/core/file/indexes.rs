//! What a [`FileReader`] reads besides whole column chunks: the page index (ColumnIndex
//! and OffsetIndex), Bloom filters, dictionaries, and the pages holding selected rows.

use std::ops::Range;

use crate::core::bloom::Sbbf;
use crate::core::column::{
    decode_plain, empty_values, int96_bound, ColumnBatch, ColumnChunkReader, ColumnStatistics,
    Scalar, SortOrder,
};
use crate::core::encryption::{module_len, ModuleType, LENGTH_LEN};
use crate::core::format::{
    self, BoundaryOrder, ColumnChunk, ColumnIndex, ColumnMetaData, ColumnOrder, OffsetIndex,
    Statistics,
};
use crate::core::page::{Page, PageReader};
use crate::core::schema::ColumnDescriptor;
use crate::core::values::ColumnValues;
use crate::error::{Error, Result};

use super::footer::ParquetMetaData;
use super::reader::chunk_range;
use super::selection::{local_ranges, take_rows, RowSelection};
use super::{ChunkReader, FileReader};
use crate::core::page::ChunkDecryptor;

/// One data page as the page index describes it.
#[derive(Debug, Clone, PartialEq)]
pub struct PageInfo {
    /// File offset of the page header.
    pub offset: u64,
    /// Size of the page in the file, header included.
    pub compressed_size: u32,
    /// Rows of the row group in the page.
    pub rows: Range<u64>,
    /// Whether the page holds only nulls (`None` without a ColumnIndex).
    pub null_page: Option<bool>,
    /// Lower bound of the page's values (NaN bounds and unordered columns give `None`).
    pub min: Option<Scalar>,
    /// Upper bound of the page's values.
    pub max: Option<Scalar>,
    /// Nulls in the page, when written.
    pub null_count: Option<u64>,
    /// BYTE_ARRAY bytes in the page before encoding, when written.
    pub unencoded_byte_array_data_bytes: Option<i64>,
    /// Definition level histogram of the page, when written.
    pub definition_level_histogram: Option<Vec<i64>>,
    /// Repetition level histogram of the page, when written.
    pub repetition_level_histogram: Option<Vec<i64>>,
}

/// The page index of one column chunk with typed bounds: one [`PageInfo`] per data page.
#[derive(Debug, Clone, PartialEq)]
pub struct PageIndex {
    /// The data pages in file order.
    pub pages: Vec<PageInfo>,
    /// Order of the page bounds (`None` without a ColumnIndex).
    pub boundary_order: Option<BoundaryOrder>,
}

impl PageIndex {
    /// Whether the index has per-page statistics (a ColumnIndex), not only locations.
    pub fn has_statistics(&self) -> bool {
        self.boundary_order.is_some()
    }

    /// Indexes of the pages holding any of the `selection`'s rows.
    pub fn pages_for(&self, selection: &RowSelection) -> Vec<usize> {
        self.pages
            .iter()
            .enumerate()
            .filter(|(_, p)| selection.ranges_within(p.rows.clone()).next().is_some())
            .map(|(i, _)| i)
            .collect()
    }
}

impl ParquetMetaData {
    /// The column chunk `column` of row group `row_group`.
    pub(crate) fn column_chunk(&self, row_group: usize, column: usize) -> Result<&ColumnChunk> {
        self.file
            .row_groups
            .get(row_group)
            .ok_or_else(|| Error::invalid_argument(format!("no row group {row_group}")))?
            .columns
            .get(column)
            .ok_or_else(|| Error::invalid_argument(format!("no column {column}")))
    }

    /// The `ColumnOrder` of leaf `column` from the footer.
    pub(crate) fn column_order(&self, column: usize) -> Option<&ColumnOrder> {
        self.file.column_orders.as_ref()?.get(column)
    }

    /// Typed statistics of a column chunk with the specification's reading rules applied
    /// (see [`ColumnStatistics`]); `None` when the chunk has none.
    pub fn column_statistics(&self, row_group: usize, column: usize) -> Option<ColumnStatistics> {
        let md = self
            .column_chunk(row_group, column)
            .ok()?
            .meta_data
            .as_ref()?;
        let stats = md.statistics.as_ref()?;
        Some(self.typed_statistics(column, stats))
    }

    /// Typed statistics of a `Statistics` structure (of a chunk or a page header) of leaf
    /// `column`.
    pub(crate) fn typed_statistics(&self, column: usize, stats: &Statistics) -> ColumnStatistics {
        match self.schema.columns().get(column) {
            Some(d) => ColumnStatistics::from_thrift(
                stats,
                d.physical_type,
                SortOrder::for_column(d),
                self.column_order(column),
            ),
            None => ColumnStatistics::default(),
        }
    }
}

fn within(
    footer_offset: u64,
    offset: Option<i64>,
    len: Option<i32>,
) -> Result<Option<(u64, usize)>> {
    let (Some(offset), Some(len)) = (offset, len) else {
        return Ok(None);
    };
    match (u64::try_from(offset), usize::try_from(len)) {
        (Ok(o), Ok(l)) if o.checked_add(l as u64).is_some_and(|e| e <= footer_offset) => {
            Ok(Some((o, l)))
        }
        _ => Err(Error::corrupt(format!(
            "index at {offset} of {len} bytes lies outside the file's data"
        ))),
    }
}

impl<R: ChunkReader> FileReader<R> {
    /// The metadata of a column chunk and its decryption context (`None`: not encrypted);
    /// an encrypted column without its key is a Crypto error naming the column.
    fn chunk_metadata(
        &self,
        row_group: usize,
        column: usize,
    ) -> Result<(&ColumnMetaData, Option<ChunkDecryptor>)> {
        let crypto = self.metadata().chunk_decryptor(row_group, column)?;
        let md = self
            .metadata()
            .column_chunk(row_group, column)?
            .meta_data
            .as_ref()
            .ok_or_else(|| Error::corrupt("column chunk without metadata"))?;
        Ok((md, crypto))
    }

    /// Reads the index at `offset` of `len` bytes and decodes it, decrypting it first when
    /// the chunk is encrypted.
    fn read_index<T: for<'b> format::ThriftDecode<'b>>(
        &self,
        row_group: usize,
        column: usize,
        (offset, len): (u64, usize),
        module: ModuleType,
    ) -> Result<T> {
        let bytes = self.get_ref().read_range(offset, len)?;
        let crypto = self.metadata().chunk_decryptor(row_group, column)?;
        let plain;
        let bytes: &[u8] = match crypto {
            None => &bytes,
            Some(c) => {
                plain = c
                    .decrypt_module(&bytes, module)
                    .map_err(|e| e.with_offset(offset))?;
                &plain
            }
        };
        let (value, _) = format::decode::<T>(bytes).map_err(|e| e.with_offset(offset))?;
        Ok(value)
    }

    fn located(&self, e: Error, row_group: usize, column: usize) -> Error {
        let e = e.with_row_group(row_group);
        match self.schema().columns().get(column) {
            Some(c) => e.with_column(c.path.to_string()),
            None => e,
        }
    }

    /// The ColumnIndex of a column chunk, if written.
    pub(crate) fn column_index(
        &self,
        row_group: usize,
        column: usize,
    ) -> Result<Option<ColumnIndex>> {
        let chunk = self.metadata().column_chunk(row_group, column)?;
        let at = |e: Error| self.located(e.context("column index"), row_group, column);
        let Some((offset, len)) = within(
            self.metadata().footer_offset,
            chunk.column_index_offset,
            chunk.column_index_length,
        )
        .map_err(at)?
        else {
            return Ok(None);
        };
        self.read_index(row_group, column, (offset, len), ModuleType::ColumnIndex)
            .map(Some)
            .map_err(at)
    }

    /// The OffsetIndex of a column chunk, if written.
    pub(crate) fn offset_index(
        &self,
        row_group: usize,
        column: usize,
    ) -> Result<Option<OffsetIndex>> {
        let chunk = self.metadata().column_chunk(row_group, column)?;
        let at = |e: Error| self.located(e.context("offset index"), row_group, column);
        let Some((offset, len)) = within(
            self.metadata().footer_offset,
            chunk.offset_index_offset,
            chunk.offset_index_length,
        )
        .map_err(at)?
        else {
            return Ok(None);
        };
        self.read_index(row_group, column, (offset, len), ModuleType::OffsetIndex)
            .map(Some)
            .map_err(at)
    }

    /// The page index of a column chunk with typed bounds: `None` without an OffsetIndex;
    /// without a ColumnIndex the pages have locations only. Fails when the two indexes
    /// disagree with each other or with the row group.
    pub fn page_index(&self, row_group: usize, column: usize) -> Result<Option<PageIndex>> {
        let Some(oi) = self.offset_index(row_group, column)? else {
            return Ok(None);
        };
        let ci = self.column_index(row_group, column)?;
        let descr = self.descr(column)?;
        let num_rows = self.metadata().file.row_groups[row_group].num_rows.max(0) as u64;
        build_page_index(
            &oi,
            ci.as_ref(),
            descr,
            self.metadata().column_order(column),
            num_rows,
            self.metadata().footer_offset,
        )
        .map(Some)
        .map_err(|e| self.located(e.context("page index"), row_group, column))
    }

    fn descr(&self, column: usize) -> Result<&ColumnDescriptor> {
        self.schema()
            .columns()
            .get(column)
            .ok_or_else(|| Error::invalid_argument(format!("no column {column}")))
    }

    /// The Bloom filter of a column chunk, if written. Reads `bloom_filter_length` bytes
    /// when the writer recorded it, else the header first and then the bitset.
    pub fn bloom_filter(&self, row_group: usize, column: usize) -> Result<Option<Sbbf>> {
        let at = |e: Error| self.located(e.context("Bloom filter"), row_group, column);
        let (md, crypto) = self.chunk_metadata(row_group, column).map_err(at)?;
        let Some(offset) = md.bloom_filter_offset else {
            return Ok(None);
        };
        // A chunk stored in another file: its filter is not in this one (and is not used).
        if self
            .metadata()
            .column_chunk(row_group, column)
            .map_err(at)?
            .file_path
            .is_some()
        {
            return Ok(None);
        }
        let end = self.metadata().footer_offset;
        let offset = u64::try_from(offset)
            .ok()
            .filter(|&o| o < end)
            .ok_or_else(|| {
                at(Error::corrupt(format!(
                    "Bloom filter offset {offset} outside the data"
                )))
            })?;
        if let Some(c) = crypto {
            return self
                .encrypted_bloom_filter(&c, offset, md.bloom_filter_length)
                .map(Some)
                .map_err(at);
        }
        if let Some(len) = md.bloom_filter_length {
            let (o, l) = within(end, Some(offset as i64), Some(len))
                .map_err(at)?
                .unwrap_or((offset, 0));
            let bytes = self.get_ref().read_range(o, l).map_err(at)?;
            return Sbbf::read(&bytes).map(|(f, _)| Some(f)).map_err(at);
        }
        // Without a length: the header is small; read it, then the bitset.
        let head_len = (end - offset).min(64) as usize;
        let head = self.get_ref().read_range(offset, head_len).map_err(at)?;
        let (header, hlen) = Sbbf::read_header(&head).map_err(at)?;
        let n = header.num_bytes as usize;
        let start = offset + hlen as u64;
        if start + n as u64 > end {
            return Err(at(Error::corrupt(format!(
                "Bloom filter bitset of {n} bytes runs into the footer"
            ))));
        }
        let bitset = self.get_ref().read_range(start, n).map_err(at)?;
        Sbbf::from_bitset(&bitset).map(Some).map_err(at)
    }

    /// An encrypted Bloom filter at `offset`: the header module, then the bitset module.
    fn encrypted_bloom_filter(
        &self,
        crypto: &ChunkDecryptor,
        offset: u64,
        length: Option<i32>,
    ) -> Result<Sbbf> {
        let end = self.metadata().footer_offset;
        // When the writer recorded the length, both modules must lie within it.
        let limit = match length {
            Some(l) => {
                let (o, l) = within(end, Some(offset as i64), Some(l))?.unwrap_or((offset, 0));
                o + l as u64
            }
            None => end,
        };
        let module_at = |at: u64, what: ModuleType| -> Result<Vec<u8>> {
            let prefix_len = LENGTH_LEN.min((limit.saturating_sub(at)) as usize);
            let prefix = self.get_ref().read_range(at, prefix_len)?;
            let n = module_len(&prefix).map_err(|e| e.context(what.name()))?;
            if at.checked_add(n as u64).is_none_or(|e| e > limit) {
                return Err(Error::corrupt(format!(
                    "{} of {n} bytes runs past the Bloom filter's bytes",
                    what.name()
                ))
                .with_offset(at));
            }
            let module = self.get_ref().read_range(at, n)?;
            crypto
                .decrypt_module(&module, what)
                .map_err(|e| e.with_offset(at))
        };
        let header = module_at(offset, ModuleType::BloomFilterHeader)?;
        // Some writers (parquet-java) pad the header module with zeros: ignore what
        // follows the header.
        let (h, _) = Sbbf::read_header(&header)?;
        let header_len = module_len(&self.get_ref().read_range(offset, LENGTH_LEN)?)?;
        let bitset = module_at(offset + header_len as u64, ModuleType::BloomFilterBitset)?;
        if bitset.len() != h.num_bytes as usize {
            return Err(Error::corrupt(format!(
                "Bloom filter bitset of {} bytes, its header says {}",
                bitset.len(),
                h.num_bytes
            )));
        }
        Sbbf::from_bitset(&bitset)
    }

    /// The dictionary of a column chunk, decoded, if it starts with a dictionary page.
    pub fn dictionary(&self, row_group: usize, column: usize) -> Result<Option<ColumnValues>> {
        let at = |e: Error| self.located(e.context("dictionary page"), row_group, column);
        let (md, crypto) = self.chunk_metadata(row_group, column).map_err(at)?;
        let descr = self.descr(column)?;
        let (start, _) = chunk_range(md);
        let data = md.data_page_offset.max(0) as u64;
        if start >= data {
            return Ok(None);
        }
        let bytes = self
            .read_chunk_bytes(row_group, column, start, (data - start) as usize)
            .map_err(at)?;
        let decryptor = match crypto {
            Some(c) => Some(c.pages(true).map_err(at)?),
            None => None,
        };
        let mut pages = PageReader::new(
            &bytes,
            start,
            md.codec,
            i64::MAX,
            self.options().page_options(),
        )
        .with_decryptor(decryptor);
        match pages.next_page().map_err(at)? {
            Some(Page::Dictionary {
                buf, num_values, ..
            }) => {
                let mut values = empty_values(descr.physical_type, descr.type_length);
                decode_plain(&buf, num_values, &mut values).map_err(at)?;
                Ok(Some(values))
            }
            _ => Ok(None),
        }
    }

    /// The selected rows of a column chunk: only the pages holding them are fetched when
    /// the chunk has an OffsetIndex (plus the dictionary page), else the whole chunk.
    /// Rows come back in order, whole (all levels of a nested row).
    pub fn read_column_rows(
        &self,
        row_group: usize,
        column: usize,
        selection: &RowSelection,
    ) -> Result<ColumnBatch> {
        let num_rows = self.row_group_rows(row_group)?;
        let index = if selection
            .intersect(&RowSelection::all(num_rows))
            .row_count()
            == num_rows
        {
            None
        } else {
            self.offset_pages(row_group, column)?
        };
        self.read_rows_in_pages(row_group, column, selection, index.as_ref())
    }

    fn row_group_rows(&self, row_group: usize) -> Result<u64> {
        Ok(self
            .metadata()
            .file
            .row_groups
            .get(row_group)
            .ok_or_else(|| Error::invalid_argument(format!("no row group {row_group}")))?
            .num_rows
            .max(0) as u64)
    }

    /// The page index of a chunk from its OffsetIndex alone (page locations, no bounds).
    pub(crate) fn offset_pages(
        &self,
        row_group: usize,
        column: usize,
    ) -> Result<Option<PageIndex>> {
        let Some(oi) = self.offset_index(row_group, column)? else {
            return Ok(None);
        };
        let descr = self.descr(column)?;
        let num_rows = self.row_group_rows(row_group)?;
        build_page_index(
            &oi,
            None,
            descr,
            None,
            num_rows,
            self.metadata().footer_offset,
        )
        .map(Some)
        .map_err(|e| self.located(e.context("offset index"), row_group, column))
    }

    /// [`read_column_rows`](Self::read_column_rows) with the chunk's page locations known
    /// (`None`: read the whole chunk).
    pub(crate) fn read_rows_in_pages(
        &self,
        row_group: usize,
        column: usize,
        selection: &RowSelection,
        pages: Option<&PageIndex>,
    ) -> Result<ColumnBatch> {
        let descr = self.descr(column)?;
        let num_rows = self.row_group_rows(row_group)?;
        let selection = selection.intersect(&RowSelection::all(num_rows));
        let (max_def, max_rep) = (descr.max_def_level, descr.max_rep_level);
        let Some(pi) = pages.filter(|p| !p.pages.is_empty() && selection.row_count() < num_rows)
        else {
            let batch = self.read_column(row_group, column)?;
            if selection.row_count() == num_rows {
                return Ok(batch);
            }
            let ranges: Vec<Range<usize>> = selection
                .ranges()
                .iter()
                .map(|r| r.start as usize..r.end as usize)
                .collect();
            return Ok(take_rows(&batch, max_def, max_rep, &ranges));
        };
        let at = |e: Error| self.located(e, row_group, column);
        let (md, crypto) = self.chunk_metadata(row_group, column).map_err(at)?;
        let selected = pi.pages_for(&selection);
        // Dictionary page (whatever precedes the first data page), then the selected pages,
        // adjacent ones fetched in one read.
        let (chunk_start, _) = chunk_range(md);
        let first = pi.pages[0].offset;
        let mut buf = Vec::new();
        if chunk_start < first && !selected.is_empty() {
            buf.extend_from_slice(
                &self
                    .read_chunk_bytes(
                        row_group,
                        column,
                        chunk_start,
                        (first - chunk_start) as usize,
                    )
                    .map_err(at)?,
            );
        }
        let mut covered: Vec<Range<u64>> = Vec::new();
        let mut i = 0;
        while i < selected.len() {
            let mut j = i;
            while j + 1 < selected.len()
                && selected[j + 1] == selected[j] + 1
                && pi.pages[selected[j]].offset + pi.pages[selected[j]].compressed_size as u64
                    == pi.pages[selected[j + 1]].offset
            {
                j += 1;
            }
            let (a, b) = (&pi.pages[selected[i]], &pi.pages[selected[j]]);
            let len = b.offset + b.compressed_size as u64 - a.offset;
            buf.extend_from_slice(
                &self
                    .read_chunk_bytes(row_group, column, a.offset, len as usize)
                    .map_err(at)?,
            );
            covered.extend(selected[i..=j].iter().map(|&k| pi.pages[k].rows.clone()));
            i = j + 1;
        }
        // Encrypted pages: each data page's AAD holds its ordinal in the chunk.
        let decryptor = match crypto {
            Some(c) => Some(
                c.pages(chunk_start < first)
                    .map_err(at)?
                    .with_data_page_ordinals(selected.clone()),
            ),
            None => None,
        };
        let pages = PageReader::new(
            &buf,
            chunk_start,
            md.codec,
            i64::MAX,
            self.options().page_options(),
        )
        .with_decryptor(decryptor);
        let batch = ColumnChunkReader::new(
            pages,
            descr.physical_type,
            descr.type_length,
            max_def,
            max_rep,
        )
        .read_all()
        .map_err(at)?;
        let local = local_ranges(&covered, &selection);
        Ok(take_rows(&batch, max_def, max_rep, &local))
    }
}

/// Checks an OffsetIndex (and ColumnIndex) against the row group and builds typed pages.
pub(crate) fn build_page_index(
    oi: &OffsetIndex,
    ci: Option<&ColumnIndex>,
    descr: &ColumnDescriptor,
    column_order: Option<&ColumnOrder>,
    num_rows: u64,
    footer_offset: u64,
) -> Result<PageIndex> {
    let n = oi.page_locations.len();
    let mut pages = Vec::with_capacity(n);
    for (i, l) in oi.page_locations.iter().enumerate() {
        let next_row = match oi.page_locations.get(i + 1) {
            Some(next) => next.first_row_index,
            None => num_rows as i64,
        };
        let ok = l.offset >= 0
            && l.compressed_page_size > 0
            && (l.offset as u64)
                .checked_add(l.compressed_page_size as u64)
                .is_some_and(|e| e <= footer_offset)
            && l.first_row_index >= 0
            && l.first_row_index < next_row
            && next_row as u64 <= num_rows
            && (i > 0 || l.first_row_index == 0);
        if !ok {
            return Err(Error::corrupt(format!(
                "page location {i} (offset {}, {} bytes, first row {}) does not fit a row group of {num_rows} rows",
                l.offset, l.compressed_page_size, l.first_row_index
            )));
        }
        pages.push(PageInfo {
            offset: l.offset as u64,
            compressed_size: l.compressed_page_size as u32,
            rows: l.first_row_index as u64..next_row as u64,
            null_page: None,
            min: None,
            max: None,
            null_count: None,
            unencoded_byte_array_data_bytes: oi
                .unencoded_byte_array_data_bytes
                .as_ref()
                .and_then(|v| v.get(i).copied()),
            definition_level_histogram: None,
            repetition_level_histogram: None,
        });
    }
    let Some(ci) = ci else {
        return Ok(PageIndex {
            pages,
            boundary_order: None,
        });
    };
    if ci.null_pages.len() != n || ci.min_values.len() != n || ci.max_values.len() != n {
        return Err(Error::corrupt(format!(
            "column index of {} pages for an offset index of {n}",
            ci.null_pages.len()
        )));
    }
    let order = SortOrder::for_column(descr);
    // Without column_orders the bounds of a ColumnIndex mean nothing (parquet.thrift).
    let usable = match column_order {
        Some(ColumnOrder::TypeDefinedOrder) => true,
        Some(ColumnOrder::Ieee754TotalOrder) => {
            matches!(
                descr.physical_type,
                format::Type::Float | format::Type::Double
            ) || order == SortOrder::Float16
        }
        _ => false,
    };
    let int96 = descr.physical_type == format::Type::Int96
        && column_order == Some(&ColumnOrder::Int96TimestampOrder);
    let hist = |v: &Option<Vec<i64>>, max: i16, i: usize| {
        let w = max as usize + 1;
        v.as_ref()
            .filter(|v| max > 0 && v.len() == n * w)
            .map(|v| v[i * w..(i + 1) * w].to_vec())
    };
    for (i, p) in pages.iter_mut().enumerate() {
        let null_page = ci.null_pages[i];
        p.null_page = Some(null_page);
        if !null_page && int96 {
            p.min = int96_bound(&ci.min_values[i]);
            p.max = int96_bound(&ci.max_values[i]);
        } else if !null_page && usable {
            let decode =
                |b: &[u8]| Scalar::decode(b, descr.physical_type, order).filter(|s| !s.is_nan());
            p.min = decode(&ci.min_values[i]);
            p.max = decode(&ci.max_values[i]);
        }
        p.null_count = ci
            .null_counts
            .as_ref()
            .filter(|v| v.len() == n)
            .and_then(|v| u64::try_from(v[i]).ok());
        p.definition_level_histogram =
            hist(&ci.definition_level_histograms, descr.max_def_level, i);
        p.repetition_level_histogram =
            hist(&ci.repetition_level_histograms, descr.max_rep_level, i);
    }
    Ok(PageIndex {
        pages,
        boundary_order: Some(ci.boundary_order),
    })
}
