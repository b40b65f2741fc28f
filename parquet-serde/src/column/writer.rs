//! [`ColumnChunkWriter`]: values and levels of one leaf in, pages and metadata out.

use crate::bloom::{BloomFilterBuilder, BloomFilterOptions, Sbbf};
use crate::compression::Compression;
use crate::encoding::{bit_width, levels, rle::RleEncoder};
use crate::error::{Error, Result};
use crate::format::{
    ColumnIndex, ColumnMetaData, Encoding, LogicalType, OffsetIndex, PageEncodingStats, PageType,
    Type,
};
use crate::page::{PageEncryptor, PageWriter, WrittenPage};
use crate::schema::ColumnDescriptor;
use crate::values::ColumnValues;

use super::auto;
use super::batch::{clear_values, empty_values, extend_values, matches_type, ColumnBatch};
use super::dict_encoder::{value_bytes, DictEncoder};
use super::encode::{check_encoding, encode_plain, encode_values, gather};
use super::page_meta::{PageMetaCollector, PageMetaOptions};
use super::statistics::{SortOrder, StatisticsFormat};

/// Data page format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DataPageVersion {
    /// Data page v1: read by every engine (the default).
    #[default]
    V1,
    /// Data page v2: levels stored uncompressed, pages start at row boundaries.
    V2,
}

/// Options of one column chunk writer.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnWriterOptions {
    /// Codec and level of the pages.
    pub compression: Compression,
    /// Dictionary-encode values while the dictionary stays under
    /// `dictionary_page_size_limit` (then fall back to PLAIN).
    pub dictionary: bool,
    /// Largest dictionary page, in bytes (PLAIN encoded).
    pub dictionary_page_size_limit: usize,
    /// Target size of a data page before compression, in bytes.
    pub data_page_size: usize,
    /// Most rows in one data page.
    pub data_page_row_limit: usize,
    /// Data page format.
    pub data_page_version: DataPageVersion,
    /// Write min/max/null_count statistics for the chunk.
    pub statistics: bool,
    /// Write statistics in every data page header, and (with `page_index`) the
    /// ColumnIndex.
    pub page_statistics: bool,
    /// Write the page index: the OffsetIndex, and the ColumnIndex when
    /// `page_statistics` is on.
    pub page_index: bool,
    /// Write SizeStatistics (byte-array sizes and level histograms) for the chunk and the
    /// page index.
    pub size_statistics: bool,
    /// Longest min/max written for byte strings, in bytes; longer bounds are shortened and
    /// marked inexact (`None`: never).
    pub statistics_truncate_length: Option<usize>,
    /// Build a Bloom filter of the chunk's values.
    pub bloom_filter: Option<BloomFilterOptions>,
    /// Write a CRC32 on every page.
    pub checksums: bool,
    /// Value encoding of the data pages that are not dictionary-encoded (all of them
    /// without a dictionary; those after the fallback with one). `None`: PLAIN, or the
    /// writer's choice when `auto_encoding` is on. `RLE_DICTIONARY` (or `PLAIN_DICTIONARY`)
    /// turns the dictionary on with a PLAIN fallback. The writer fails to start when the
    /// encoding does not fit the physical type.
    pub encoding: Option<Encoding>,
    /// Choose from the data (when `encoding` is `None`): the dictionary while it pays (the
    /// first page only if dictionary and indices come under 3/4 of PLAIN, later values while
    /// new entries and indices do), then, from the first page without dictionary, the
    /// smallest after compression of PLAIN and the candidates for the type:
    /// DELTA_BINARY_PACKED for integers, BYTE_STREAM_SPLIT for floats when compressing,
    /// DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY for byte arrays; RLE for booleans.
    pub auto_encoding: bool,
}

impl Default for ColumnWriterOptions {
    fn default() -> Self {
        ColumnWriterOptions {
            compression: Compression::Snappy,
            dictionary: true,
            dictionary_page_size_limit: 1 << 20,
            data_page_size: 1 << 20,
            data_page_row_limit: 20_000,
            data_page_version: DataPageVersion::V1,
            statistics: true,
            page_statistics: true,
            page_index: true,
            size_statistics: true,
            statistics_truncate_length: Some(64),
            bloom_filter: None,
            checksums: true,
            encoding: None,
            auto_encoding: false,
        }
    }
}

/// A finished column chunk: its bytes and its metadata, with offsets relative to the
/// chunk's first byte (the file writer moves them to file positions).
#[derive(Debug, Clone)]
pub struct WrittenColumnChunk {
    /// Dictionary page (if any) followed by the data pages.
    pub data: Vec<u8>,
    /// Column metadata with chunk-relative offsets.
    pub metadata: ColumnMetaData,
    /// Rows in the chunk.
    pub num_rows: u64,
    /// The chunk's ColumnIndex (written after the row groups).
    pub column_index: Option<ColumnIndex>,
    /// The chunk's OffsetIndex, page offsets relative to the chunk's first byte.
    pub offset_index: Option<OffsetIndex>,
    /// The chunk's Bloom filter.
    pub bloom_filter: Option<Sbbf>,
    /// `(row group, column)` ordinals the pages were encrypted for, in encrypted columns
    /// (their AADs bind them there); `None` for plaintext pages.
    pub encrypted_for: Option<(usize, usize)>,
}

/// Encodes the values and levels of one leaf column into pages.
///
/// Values arrive as [`ColumnBatch`]es (non-null values plus levels); pages are cut at row
/// boundaries once they reach the target size. Dictionary encoding is used while the
/// dictionary stays under its size limit, then the chunk falls back to PLAIN.
#[derive(Debug)]
pub struct ColumnChunkWriter {
    path: Vec<String>,
    physical_type: Type,
    type_length: i32,
    max_def: i16,
    max_rep: i16,
    options: ColumnWriterOptions,
    pages: PageWriter,
    page_def: Vec<i16>,
    page_rep: Vec<i16>,
    page_values: ColumnValues,
    page_indices: Vec<u32>,
    page_rows: usize,
    dict: Option<DictEncoder>,
    dict_fallback: bool,
    fallback_pending: bool,
    data: Vec<u8>,
    meta: PageMetaCollector,
    bloom: Option<BloomFilterBuilder>,
    flush_pending: bool,
    encoding_stats: Vec<PageEncodingStats>,
    num_levels: u64,
    num_rows: u64,
    total_uncompressed: u64,
    scratch: Vec<u8>,
    /// Encoding of the pages without dictionary (`None` until `Auto` has chosen).
    value_encoding: Option<Encoding>,
    /// Dictionary-encoded data pages written so far.
    dict_data_pages: usize,
    /// `Auto` bookkeeping: the dictionary's cost so far, and where it stood at the last check.
    dict_cost: DictCost,
    dict_checked: DictCost,
    /// `(row group, column)` the pages are encrypted for, when encrypted.
    encrypted_for: Option<(usize, usize)>,
}

/// What the dictionary has cost: its PLAIN size, the indices handed out, and the PLAIN size
/// of the values they stand for.
#[derive(Debug, Clone, Copy, Default)]
struct DictCost {
    dictionary: usize,
    indices: usize,
    plain: usize,
}

impl DictCost {
    /// Whether the dictionary paid between `since` and `self`: new entries plus indices
    /// (at `width` bits) under 3/4 of the PLAIN size of the values.
    fn pays_since(&self, since: &DictCost, width: usize) -> bool {
        let dictionary = self.dictionary - since.dictionary;
        let indices = (self.indices - since.indices) * width / 8;
        (dictionary + indices) * auto::PAYS_DEN <= (self.plain - since.plain) * auto::PAYS_NUM
    }
}

/// Values between two checks by `Auto` that the dictionary still pays.
const AUTO_DICTIONARY_SAMPLE: usize = 8192;

impl ColumnChunkWriter {
    /// A writer for the leaf `descr`: its path, types, levels and [`SortOrder`]; bounds of
    /// STRING, ENUM and JSON columns are shortened on character boundaries.
    pub fn for_column(descr: &ColumnDescriptor, options: ColumnWriterOptions) -> Result<Self> {
        let mut w = Self::new(
            descr.path.parts().to_vec(),
            descr.physical_type,
            descr.type_length,
            descr.max_def_level,
            descr.max_rep_level,
            SortOrder::for_column(descr),
            options,
        )?;
        let utf8 = matches!(
            descr.logical_type,
            Some(LogicalType::String | LogicalType::Enum | LogicalType::Json)
        ) || descr.logical_type.is_none()
            && matches!(
                descr.converted_type,
                Some(
                    crate::format::ConvertedType::Utf8
                        | crate::format::ConvertedType::Enum
                        | crate::format::ConvertedType::Json
                )
            );
        if utf8 {
            w.meta = w.new_meta(SortOrder::for_column(descr), true);
        }
        Ok(w)
    }

    fn new_meta(&self, sort_order: SortOrder, utf8: bool) -> PageMetaCollector {
        let o = &self.options;
        PageMetaCollector::new(
            PageMetaOptions {
                chunk_statistics: o.statistics,
                page_statistics: o.page_statistics,
                page_index: o.page_index,
                size_statistics: o.size_statistics,
            },
            self.physical_type,
            self.max_def,
            self.max_rep,
            sort_order,
            StatisticsFormat {
                truncate_length: o.statistics_truncate_length,
                utf8,
            },
        )
    }

    /// A writer for the leaf at `path` of `physical_type` (`type_length` for
    /// FIXED_LEN_BYTE_ARRAY) with the given maximum levels, comparing values for statistics
    /// with `sort_order`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        path: Vec<String>,
        physical_type: Type,
        type_length: i32,
        max_def: i16,
        max_rep: i16,
        sort_order: SortOrder,
        options: ColumnWriterOptions,
    ) -> Result<Self> {
        if let Type::Unknown(t) = physical_type {
            return Err(Error::invalid_argument(format!(
                "cannot write physical type {t}"
            )));
        }
        if physical_type == Type::FixedLenByteArray && type_length <= 0 {
            return Err(Error::schema(format!(
                "FIXED_LEN_BYTE_ARRAY column {} needs a positive type_length",
                path.join(".")
            )));
        }
        let mut dictionary = options.dictionary;
        let value_encoding = match options.encoding {
            Some(e) => {
                check_encoding(e, physical_type).map_err(|err| err.with_column(path.join(".")))?;
                if matches!(e, Encoding::RleDictionary | Encoding::PlainDictionary) {
                    dictionary = true;
                    Some(Encoding::Plain)
                } else {
                    Some(e)
                }
            }
            None if options.auto_encoding => None,
            None => Some(Encoding::Plain),
        };
        // Booleans gain nothing from a dictionary.
        let dict = (dictionary && physical_type != Type::Boolean)
            .then(|| DictEncoder::new(empty_values(physical_type, type_length)));
        let bloom = options
            .bloom_filter
            .filter(|_| physical_type != Type::Boolean)
            .map(BloomFilterBuilder::new);
        let mut w = ColumnChunkWriter {
            pages: PageWriter::new(options.compression, options.checksums),
            page_values: empty_values(physical_type, type_length),
            // Replaced below once the options are in place.
            meta: PageMetaCollector::new(
                PageMetaOptions {
                    chunk_statistics: false,
                    page_statistics: false,
                    page_index: false,
                    size_statistics: false,
                },
                physical_type,
                max_def,
                max_rep,
                SortOrder::Undefined,
                StatisticsFormat::default(),
            ),
            bloom,
            flush_pending: false,
            path,
            physical_type,
            type_length,
            max_def,
            max_rep,
            options,
            page_def: Vec::new(),
            page_rep: Vec::new(),
            page_indices: Vec::new(),
            page_rows: 0,
            dict,
            dict_fallback: false,
            fallback_pending: false,
            data: Vec::new(),
            encoding_stats: Vec::new(),
            num_levels: 0,
            num_rows: 0,
            total_uncompressed: 0,
            scratch: Vec::new(),
            value_encoding,
            dict_data_pages: 0,
            dict_cost: DictCost::default(),
            dict_checked: DictCost::default(),
            encrypted_for: None,
        };
        w.meta = w.new_meta(sort_order, false);
        Ok(w)
    }

    /// Encrypts the chunk's pages with `encryptor`, made for `(row group, column)`. Set
    /// before any value is written.
    pub(crate) fn set_encryptor(&mut self, encryptor: PageEncryptor, ordinals: (usize, usize)) {
        self.pages.set_encryptor(encryptor);
        self.encrypted_for = Some(ordinals);
    }

    fn err(&self, e: Error) -> Error {
        e.with_column(self.path.join("."))
    }

    /// Rows written so far.
    pub fn num_rows(&self) -> u64 {
        self.num_rows
    }

    /// Bytes buffered so far (written pages plus the page being filled), an estimate of
    /// the chunk's size.
    pub fn buffered_bytes(&self) -> usize {
        self.data.len()
            + self.pending_value_bytes()
            + self.dict.as_ref().map_or(0, |d| d.plain_bytes())
    }

    fn pending_value_bytes(&self) -> usize {
        let levels = (self.page_def.len() + self.page_rep.len()) / 4;
        if self.using_dict() {
            let width = bit_width(self.dict.as_ref().map_or(0, |d| d.len()) as u64).max(1) as usize;
            levels + self.page_indices.len() * width / 8
        } else {
            levels + value_bytes(&self.page_values)
        }
    }

    fn using_dict(&self) -> bool {
        self.dict.is_some() && !self.dict_fallback
    }

    /// Checks a batch against the column: level counts, level ranges, value count and type.
    fn check(&self, batch: &ColumnBatch) -> Result<usize> {
        let n = if self.max_def > 0 {
            batch.def_levels.len()
        } else if self.max_rep > 0 {
            batch.rep_levels.len()
        } else {
            batch.values.len()
        };
        if (self.max_def == 0) != batch.def_levels.is_empty() && n > 0 {
            return Err(Error::data(format!(
                "{} definition levels for a column whose max definition level is {}",
                batch.def_levels.len(),
                self.max_def
            )));
        }
        if self.max_rep > 0 && batch.rep_levels.len() != n
            || self.max_rep == 0 && !batch.rep_levels.is_empty()
        {
            return Err(Error::data(format!(
                "{} repetition levels for {n} values (max repetition level {})",
                batch.rep_levels.len(),
                self.max_rep
            )));
        }
        if let Some(bad) = batch
            .def_levels
            .iter()
            .find(|&&d| d < 0 || d > self.max_def)
        {
            return Err(Error::data(format!(
                "definition level {bad} outside 0..={}",
                self.max_def
            )));
        }
        if let Some(bad) = batch
            .rep_levels
            .iter()
            .find(|&&r| r < 0 || r > self.max_rep)
        {
            return Err(Error::data(format!(
                "repetition level {bad} outside 0..={}",
                self.max_rep
            )));
        }
        if self.num_levels == 0 && batch.rep_levels.first().is_some_and(|&r| r != 0) {
            return Err(Error::data(
                "the first repetition level of a column chunk must be 0",
            ));
        }
        let non_null = if self.max_def > 0 {
            batch
                .def_levels
                .iter()
                .filter(|&&d| d == self.max_def)
                .count()
        } else {
            n
        };
        if non_null != batch.values.len() {
            return Err(Error::data(format!(
                "{} values for {non_null} non-null slots",
                batch.values.len()
            )));
        }
        if !matches_type(&batch.values, self.physical_type) {
            return Err(Error::data(format!(
                "values do not match physical type {:?}",
                self.physical_type
            )));
        }
        if let ColumnValues::FixedLenByteArray(v) = &batch.values {
            if v.width != self.type_length as usize {
                return Err(Error::data(format!(
                    "fixed-length values of {} bytes for a column of {} bytes",
                    v.width, self.type_length
                )));
            }
        }
        Ok(n)
    }

    /// Appends a batch of values and levels.
    pub fn write(&mut self, batch: &ColumnBatch) -> Result<()> {
        let n = self.check(batch).map_err(|e| self.err(e))?;
        let bytes_per_level = (value_bytes(&batch.values) / n.max(1)).max(1);
        let (mut level, mut value) = (0usize, 0usize);
        while level < n {
            if self.flush_pending && (self.max_rep == 0 || batch.rep_levels[level] == 0) {
                // The full page ended at a batch end; this batch starts a new row.
                self.flush_pending = false;
                self.flush_page().map_err(|e| self.err(e))?;
            }
            let room_bytes = self
                .options
                .data_page_size
                .saturating_sub(self.pending_value_bytes());
            let room_rows = self
                .options
                .data_page_row_limit
                .saturating_sub(self.page_rows)
                .max(1);
            // `Auto` looks at the dictionary every AUTO_DICTIONARY_SAMPLE values once the first
            // page is out.
            let room_rows =
                if self.options.auto_encoding && self.using_dict() && self.dict_data_pages > 0 {
                    room_rows.min(AUTO_DICTIONARY_SAMPLE)
                } else {
                    room_rows
                };
            let mut end = n.min(level + (room_bytes / bytes_per_level).clamp(1, room_rows));
            if self.max_rep > 0 {
                while end < n && batch.rep_levels[end] != 0 {
                    end += 1;
                }
            }
            let values = if self.max_def > 0 {
                batch.def_levels[level..end]
                    .iter()
                    .filter(|&&d| d == self.max_def)
                    .count()
            } else {
                end - level
            };
            self.append(batch, level..end, value..value + values);
            level = end;
            value += values;
            if self.fallback_pending
                || self.pending_value_bytes() >= self.options.data_page_size
                || self.page_rows >= self.options.data_page_row_limit
            {
                if self.max_rep > 0 && end == n {
                    // The next batch may continue this row: pages end on row boundaries.
                    self.flush_pending = true;
                } else {
                    self.flush_page().map_err(|e| self.err(e))?;
                }
            }
        }
        Ok(())
    }

    fn append(
        &mut self,
        batch: &ColumnBatch,
        levels: std::ops::Range<usize>,
        values: std::ops::Range<usize>,
    ) {
        let rows = if self.max_rep > 0 {
            batch.rep_levels[levels.clone()]
                .iter()
                .filter(|&&r| r == 0)
                .count()
        } else {
            levels.len()
        };
        self.meta.add(batch, levels.clone(), values.clone());
        self.page_rows += rows;
        self.num_rows += rows as u64;
        self.num_levels += levels.len() as u64;
        if self.max_def > 0 {
            self.page_def
                .extend_from_slice(&batch.def_levels[levels.clone()]);
        }
        if self.max_rep > 0 {
            self.page_rep.extend_from_slice(&batch.rep_levels[levels]);
        }
        if self.using_dict() {
            if let Some(dict) = self.dict.as_mut() {
                self.dict_cost.indices += values.len();
                self.dict_cost.plain += range_bytes(&batch.values, values.clone());
                let known = dict.len();
                dict.intern(&batch.values, values, &mut self.page_indices);
                self.dict_cost.dictionary = dict.plain_bytes();
                if let Some(bloom) = self.bloom.as_mut() {
                    // Only values new to the dictionary need hashing.
                    bloom.insert_values(dict.values(), known..dict.len());
                }
                if dict.plain_bytes() > self.options.dictionary_page_size_limit {
                    // Pages so far keep their indices; later values are written in the
                    // fallback encoding.
                    self.dict_fallback = true;
                    self.fallback_pending = true;
                } else if self.options.auto_encoding
                    && self.dict_data_pages > 0
                    && self.dict_cost.indices - self.dict_checked.indices >= AUTO_DICTIONARY_SAMPLE
                {
                    let since = self.dict_checked;
                    self.dict_checked = self.dict_cost;
                    if !self.dictionary_pays(&since) {
                        // This page ends with the dictionary; later ones use the fallback.
                        self.dict_fallback = true;
                        self.fallback_pending = true;
                    }
                }
            }
        } else {
            if let Some(bloom) = self.bloom.as_mut() {
                bloom.insert_values(&batch.values, values.clone());
            }
            extend_values(&mut self.page_values, &batch.values, values);
        }
    }
}

impl ColumnChunkWriter {
    /// Whether dictionary encoding paid since `since` (see [`DictCost::pays_since`]).
    fn dictionary_pays(&self, since: &DictCost) -> bool {
        let Some(dict) = &self.dict else {
            return false;
        };
        let width = bit_width(dict.len().saturating_sub(1) as u64).max(1) as usize;
        self.dict_cost.pays_since(since, width)
    }

    /// Gives up the dictionary before any dictionary-encoded page is written: the buffered
    /// indices become values again.
    fn drop_dictionary(&mut self) {
        if let Some(dict) = self.dict.take() {
            gather(dict.values(), &self.page_indices, &mut self.page_values);
            self.page_indices.clear();
        }
    }

    /// The encoding of pages without dictionary, chosen from the buffered values by `Auto`.
    fn value_encoding(&mut self, scratch: &mut Vec<u8>) -> Encoding {
        match self.value_encoding {
            Some(e) => e,
            None => {
                let e = auto::choose(&self.page_values, self.options.compression, scratch);
                self.value_encoding = Some(e);
                e
            }
        }
    }

    /// Encodes the buffered page and appends it to the chunk.
    fn flush_page(&mut self) -> Result<()> {
        self.fallback_pending = false;
        // `Auto`: the first dictionary-encoded page is written only if the dictionary pays
        // for everything so far (later pages are checked as values arrive).
        if self.options.auto_encoding
            && self.dict_data_pages == 0
            && !self.page_indices.is_empty()
            && !self.dictionary_pays(&DictCost::default())
        {
            self.drop_dictionary();
        }
        let num_values = self
            .page_def
            .len()
            .max(self.page_rep.len())
            .max(self.page_indices.len().max(self.page_values.len()));
        if num_values == 0 {
            return Ok(());
        }
        let dict_page = !self.page_indices.is_empty();
        // Values section.
        let mut values = std::mem::take(&mut self.scratch);
        let encoding = if dict_page {
            if self.dict_data_pages == 0 {
                // Later checks of `Auto` look at what comes after the first page.
                self.dict_checked = self.dict_cost;
            }
            self.dict_data_pages += 1;
            Encoding::RleDictionary
        } else {
            self.value_encoding(&mut values)
        };
        values.clear();
        if dict_page {
            let len = self.dict.as_ref().map_or(0, |d| d.len()) as u64;
            let width = bit_width(len.saturating_sub(1)).max(1);
            values.push(width);
            let mut enc = RleEncoder::new(width);
            enc.put_u32(&self.page_indices);
            values.extend_from_slice(&enc.finish());
        } else {
            encode_values(encoding, &self.page_values, &mut values)?;
        }
        let non_null = self.page_indices.len().max(self.page_values.len());
        let statistics = self.meta.page_header_statistics();
        let page_offset = self.data.len() as i64;
        let written = match self.options.data_page_version {
            DataPageVersion::V1 => {
                let mut body = Vec::with_capacity(values.len() + num_values / 4 + 16);
                if self.max_rep > 0 {
                    levels::encode_rle(&self.page_rep, self.max_rep, true, &mut body);
                }
                if self.max_def > 0 {
                    levels::encode_rle(&self.page_def, self.max_def, true, &mut body);
                }
                body.extend_from_slice(&values);
                self.pages
                    .write_data_v1(&body, num_values, encoding, statistics, &mut self.data)?
            }
            DataPageVersion::V2 => {
                let mut rep = Vec::new();
                let mut def = Vec::new();
                if self.max_rep > 0 {
                    levels::encode_rle(&self.page_rep, self.max_rep, false, &mut rep);
                }
                if self.max_def > 0 {
                    levels::encode_rle(&self.page_def, self.max_def, false, &mut def);
                }
                let counts = (num_values, num_values - non_null, self.page_rows);
                self.pages.write_data_v2(
                    &rep,
                    &def,
                    &values,
                    counts,
                    encoding,
                    statistics,
                    &mut self.data,
                )?
            }
        };
        self.scratch = values;
        let size = i32::try_from(written.total_compressed())
            .map_err(|_| Error::invalid_argument("page larger than 2 GiB"))?;
        let first_row = (self.num_rows - self.page_rows as u64) as i64;
        self.meta.finish_page(page_offset, size, first_row);
        self.note_page(&written);
        self.page_def.clear();
        self.page_rep.clear();
        self.page_indices.clear();
        clear_values(&mut self.page_values);
        self.page_rows = 0;
        Ok(())
    }

    fn note_page(&mut self, page: &WrittenPage) {
        self.total_uncompressed += page.total_uncompressed() as u64;
        match self
            .encoding_stats
            .iter_mut()
            .find(|s| s.page_type == page.page_type && s.encoding == page.encoding)
        {
            Some(s) => s.count += 1,
            None => self.encoding_stats.push(PageEncodingStats {
                page_type: page.page_type,
                encoding: page.encoding,
                count: 1,
            }),
        }
    }

    /// Flushes the last page, writes the dictionary page in front, and returns the chunk.
    pub fn close(mut self) -> Result<WrittenColumnChunk> {
        self.flush_pending = false;
        self.flush_page().map_err(|e| self.err(e))?;
        let mut data = Vec::new();
        let mut dictionary_page_offset = None;
        if let Some(dict) = self.dict.take().filter(|d| d.len() > 0) {
            let mut plain_values = Vec::with_capacity(dict.plain_bytes());
            encode_plain(dict.values(), &mut plain_values);
            let page = self
                .pages
                .write_dictionary(&plain_values, dict.len(), &mut data)
                .map_err(|e| self.err(e))?;
            self.note_page(&page);
            dictionary_page_offset = Some(0);
        }
        let data_page_offset = data.len() as i64;
        data.extend_from_slice(&self.data);
        // Encodings: levels are RLE; values PLAIN and/or RLE_DICTIONARY (dictionary page PLAIN).
        let mut encodings = Vec::new();
        for s in &self.encoding_stats {
            if !encodings.contains(&s.encoding) {
                encodings.push(s.encoding);
            }
        }
        if (self.max_def > 0 || self.max_rep > 0) && !encodings.contains(&Encoding::Rle) {
            encodings.push(Encoding::Rle);
        }
        // Dictionary page first in the stats, as readers list them.
        self.encoding_stats
            .sort_by_key(|s| s.page_type != PageType::DictionaryPage);
        let meta = self.meta.finish(data_page_offset);
        let metadata = ColumnMetaData {
            r#type: self.physical_type,
            encodings,
            path_in_schema: self.path.clone(),
            codec: self.options.compression.codec(),
            num_values: self.num_levels as i64,
            total_uncompressed_size: self.total_uncompressed as i64,
            total_compressed_size: data.len() as i64,
            key_value_metadata: None,
            data_page_offset,
            index_page_offset: None,
            dictionary_page_offset,
            statistics: meta.statistics,
            encoding_stats: Some(self.encoding_stats),
            bloom_filter_offset: None,
            bloom_filter_length: None,
            size_statistics: meta.size_statistics,
            geospatial_statistics: None,
        };
        Ok(WrittenColumnChunk {
            data,
            metadata,
            num_rows: self.num_rows,
            column_index: meta.column_index,
            offset_index: meta.offset_index,
            bloom_filter: self.bloom.take().map(BloomFilterBuilder::finish),
            encrypted_for: self.encrypted_for,
        })
    }
}

/// PLAIN size of `values[range]` (booleans a byte each, as `value_bytes` counts them).
fn range_bytes(values: &ColumnValues, range: std::ops::Range<usize>) -> usize {
    match values {
        ColumnValues::ByteArray(v) => {
            v.offsets[range.end] - v.offsets[range.start] + 4 * range.len()
        }
        ColumnValues::FixedLenByteArray(v) => v.width * range.len(),
        ColumnValues::Boolean(_) => range.len(),
        ColumnValues::Int32(_) | ColumnValues::Float(_) => 4 * range.len(),
        ColumnValues::Int64(_) | ColumnValues::Double(_) => 8 * range.len(),
        ColumnValues::Int96(_) => 12 * range.len(),
    }
}
