//! [`ColumnChunkWriter`]: values and levels of one leaf in, pages and metadata out.

use std::sync::Arc;

use crate::core::bloom::{BloomFilterBuilder, BloomFilterOptions, Sbbf};
use crate::core::compression::Compression;
use crate::core::encoding::{bit_width, levels, rle::RleEncoder};
use crate::core::format::{
    ColumnIndex, ColumnMetaData, Encoding, LogicalType, OffsetIndex, PageEncodingStats, PageType,
    Type,
};
use crate::core::geo::GeoStatisticsBuilder;
use crate::core::page::{
    data_page_v1, data_page_v2, dictionary_page, EncodedPage, PageCodec, PageEncryptor, StoredPage,
};
use crate::core::schema::ColumnDescriptor;
use crate::core::values::ColumnValues;
use crate::error::{Error, Result};

use super::auto;
use super::batch::{
    clear_values, count_level, empty_values, extend_values, level_outside, matches_type,
    ColumnBatch,
};
use super::cdc::{CdcOptions, Chunker};
use super::dict_encoder::{value_bytes, DictEncoder, PageEntries};
use super::encode::{check_encoding, encode_plain, encode_values, gather};
use super::page_meta::{PageMetaCollector, PageMetaOptions};
use super::statistics::{SortOrder, StatisticsFormat};

/// Data page format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum DataPageVersion {
    /// Data page v1: read by every engine (the default).
    #[default]
    V1,
    /// Data page v2: levels stored uncompressed, pages start at row boundaries.
    V2,
}

/// Options of one column chunk writer.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
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
    /// Write page statistics: in the ColumnIndex with `page_index`, else in every data
    /// page header.
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
    /// Statistics of FLOAT, DOUBLE and FLOAT16 values in IEEE 754 total order
    /// (`IEEE_754_TOTAL_ORDER`): the file must declare that order for the column.
    pub float_total_order: bool,
    /// Statistics (and a ColumnIndex) of INT96 values in chronological order
    /// (`INT96_TIMESTAMP_ORDER`), on by default as in `WriterOptions`: the file must declare
    /// that order for the column.
    pub int96_order: bool,
    /// Cut data pages where the values say, as Arrow C++ and arrow-rs do, so that pages
    /// deduplicate across versions of a file (`None`: off). Pages are still cut at
    /// `data_page_size` and `data_page_row_limit` as well.
    pub content_defined_chunking: Option<CdcOptions>,
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
            content_defined_chunking: None,
            checksums: true,
            encoding: None,
            auto_encoding: false,
            float_total_order: false,
            int96_order: true,
        }
    }
}

/// A finished column chunk: its bytes and its metadata, with offsets relative to the
/// chunk's first byte (the file writer moves them to file positions).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct WrittenColumnChunk {
    /// The chunk's bytes in pieces, one per page (header and stored bytes): the dictionary
    /// page (if any), then the data pages. They go one after the other in the file.
    pub(crate) pages: Vec<Vec<u8>>,
    /// Column metadata with chunk-relative offsets.
    pub(crate) metadata: ColumnMetaData,
    /// Rows in the chunk.
    pub num_rows: u64,
    /// The chunk's ColumnIndex (written after the row groups).
    pub(crate) column_index: Option<ColumnIndex>,
    /// The chunk's OffsetIndex, page offsets relative to the chunk's first byte.
    pub(crate) offset_index: Option<OffsetIndex>,
    /// The chunk's Bloom filter.
    pub bloom_filter: Option<Sbbf>,
    /// `(row group, column)` ordinals the pages were encrypted for, in encrypted columns
    /// (their AADs bind them there); `None` for plaintext pages.
    pub encrypted_for: Option<(usize, usize)>,
}

impl WrittenColumnChunk {
    /// Size of the chunk in bytes.
    pub fn len(&self) -> usize {
        self.pages.iter().map(Vec::len).sum()
    }

    /// Whether the chunk has no bytes (never the case for a closed chunk writer's chunk).
    pub fn is_empty(&self) -> bool {
        self.pages.iter().all(Vec::is_empty)
    }

    /// The chunk's bytes, page by page (the dictionary page first), in file order.
    pub fn pages(&self) -> impl Iterator<Item = &[u8]> {
        self.pages.iter().map(Vec::as_slice)
    }

    /// The chunk's bytes in one buffer.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.pages.concat()
    }
}

/// Where a stored page goes in its chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PageSlot {
    /// Data page of this ordinal.
    Data(usize),
    /// The dictionary page.
    Dictionary,
}

/// Encodes the values and levels of one leaf column into pages.
///
/// Values arrive as [`ColumnBatch`]es (non-null values plus levels); pages are cut at row
/// boundaries once they reach the target size. Dictionary encoding is used while the
/// dictionary stays under its size limit, then the chunk falls back to PLAIN (with
/// `auto_encoding`, while the dictionary pays, then to the encoding chosen from the data).
#[derive(Debug)]
pub struct ColumnChunkWriter {
    path: Vec<String>,
    physical_type: Type,
    type_length: i32,
    max_def: i16,
    max_rep: i16,
    options: ColumnWriterOptions,
    codec: Arc<PageCodec>,
    /// Pages are handed out by [`take_encoded`](Self::take_encoded) to be stored elsewhere,
    /// instead of stored as they are made.
    deferred: bool,
    /// Pages made and not taken yet (deferred mode).
    encoded: Vec<(PageSlot, EncodedPage)>,
    /// Data pages by ordinal: `None` while stored elsewhere (deferred mode).
    stored: Vec<Option<StoredPage>>,
    dictionary_page: Option<StoredPage>,
    /// Whether the dictionary page was made (and is stored or being stored): at close, or
    /// as soon as the dictionary is final (after the fallback).
    has_dictionary_page: bool,
    /// Bytes of the pages stored here.
    stored_bytes: usize,
    /// Decompressed bytes of the pages made: the chunk's size before compression.
    encoded_bytes: usize,
    /// Page bodies to reuse.
    spare_bodies: Vec<Vec<u8>>,
    page_def: Vec<i16>,
    page_rep: Vec<i16>,
    page_values: ColumnValues,
    page_indices: Vec<u32>,
    page_rows: usize,
    dict: Option<DictEncoder>,
    /// The dictionary entries the page being filled uses, for its min and max.
    dict_entries: PageEntries,
    /// Whether the min and max of dictionary-encoded values come from the entries they use
    /// (not for floating point columns, whose NaNs count once per value; tests turn it off
    /// to compare with the statistics of every value).
    entry_statistics: bool,
    dict_fallback: bool,
    fallback_pending: bool,
    meta: PageMetaCollector,
    bloom: Option<BloomFilterBuilder>,
    flush_pending: bool,
    encoding_stats: Vec<PageEncodingStats>,
    num_levels: u64,
    num_rows: u64,
    scratch: Vec<u8>,
    /// Encoding of the pages without dictionary (`None` until `Auto` has chosen).
    value_encoding: Option<Encoding>,
    /// Whether `Auto` may choose the delta byte-array encodings (see
    /// [`auto::delta_bytes_readable`]).
    delta_bytes: bool,
    /// Dictionary-encoded data pages written so far.
    dict_data_pages: usize,
    /// `Auto` bookkeeping: the dictionary's cost so far, and where it stood at the last check.
    dict_cost: DictCost,
    dict_checked: DictCost,
    /// `(row group, column)` the pages are encrypted for, when encrypted.
    encrypted_for: Option<(usize, usize)>,
    /// GEOMETRY / GEOGRAPHY columns: their GeospatialStatistics, and whether the bounding
    /// box is kept (GEOMETRY only).
    geo: Option<(GeoStatisticsBuilder, bool)>,
    /// Content-defined chunking: the chunker, and the page starts it found in a batch.
    cdc: Option<(Chunker, Vec<usize>)>,
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
                    crate::core::format::ConvertedType::Utf8
                        | crate::core::format::ConvertedType::Enum
                        | crate::core::format::ConvertedType::Json
                )
            );
        if utf8 {
            w.meta = w.new_meta(SortOrder::for_column(descr), true);
        }
        w.delta_bytes = auto::delta_bytes_readable(descr);
        if let (Some((chunker, _)), Some(LogicalType::Integer { bit_width, .. })) =
            (w.cdc.as_mut(), &descr.logical_type)
        {
            if descr.physical_type == Type::Int32 && *bit_width < 32 {
                chunker.set_int32_width((*bit_width as usize / 8).max(1));
            }
        }
        // GeospatialStatistics go with the chunk statistics; a GEOGRAPHY keeps only the types
        // (a box of the vertices does not bound edges that curve on the sphere).
        if w.options.statistics && descr.physical_type == Type::ByteArray {
            w.geo = match descr.logical_type {
                Some(LogicalType::Geometry { .. }) => Some((GeoStatisticsBuilder::new(), true)),
                Some(LogicalType::Geography { .. }) => Some((GeoStatisticsBuilder::new(), false)),
                _ => None,
            };
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
                float_total_order: o.float_total_order,
                int96_order: o.int96_order,
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
        let cdc = match options.content_defined_chunking {
            Some(o) => Some((
                Chunker::new(o, max_def, max_rep).map_err(|e| e.with_column(path.join(".")))?,
                Vec::new(),
            )),
            None => None,
        };
        let mut w = ColumnChunkWriter {
            cdc,
            codec: Arc::new(PageCodec::new(options.compression, options.checksums, None)),
            deferred: false,
            encoded: Vec::new(),
            stored: Vec::new(),
            dictionary_page: None,
            has_dictionary_page: false,
            stored_bytes: 0,
            encoded_bytes: 0,
            spare_bodies: Vec::new(),
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
            dict_entries: PageEntries::default(),
            entry_statistics: !matches!(physical_type, Type::Float | Type::Double)
                && sort_order != SortOrder::Float16,
            dict_fallback: false,
            fallback_pending: false,
            encoding_stats: Vec::new(),
            num_levels: 0,
            num_rows: 0,
            scratch: Vec::new(),
            value_encoding,
            delta_bytes: true,
            dict_data_pages: 0,
            dict_cost: DictCost::default(),
            dict_checked: DictCost::default(),
            encrypted_for: None,
            geo: None,
        };
        w.meta = w.new_meta(sort_order, false);
        Ok(w)
    }

    /// Encrypts the chunk's pages with `encryptor`, made for `(row group, column)`. Set
    /// before any value is written.
    pub(crate) fn set_encryptor(&mut self, encryptor: PageEncryptor, ordinals: (usize, usize)) {
        self.codec = Arc::new(PageCodec::new(
            self.options.compression,
            self.options.checksums,
            Some(encryptor),
        ));
        self.encrypted_for = Some(ordinals);
    }

    /// From now on, pages made are not stored here but handed out by
    /// [`take_encoded`](Self::take_encoded), to be stored (on any thread) with
    /// [`codec`](Self::codec) and given back with [`put_stored`](Self::put_stored) before
    /// [`finish`](Self::finish).
    pub(crate) fn defer_pages(&mut self) {
        self.deferred = true;
    }

    /// The codec storing this chunk's pages.
    pub(crate) fn codec(&self) -> &Arc<PageCodec> {
        &self.codec
    }

    /// The pages made since the last call (deferred mode), with where they go.
    pub(crate) fn take_encoded(&mut self) -> std::vec::Drain<'_, (PageSlot, EncodedPage)> {
        self.encoded.drain(..)
    }

    /// Puts back a page stored elsewhere, and the body it came from (for reuse).
    pub(crate) fn put_stored(&mut self, slot: PageSlot, page: StoredPage, body: Vec<u8>) {
        self.stored_bytes += page.bytes.len();
        match slot {
            PageSlot::Data(i) => {
                if let Some(s) = self.stored.get_mut(i) {
                    *s = Some(page);
                }
            }
            PageSlot::Dictionary => self.dictionary_page = Some(page),
        }
        self.recycle(body);
    }

    fn recycle(&mut self, mut body: Vec<u8>) {
        if self.spare_bodies.len() < 2 {
            body.clear();
            self.spare_bodies.push(body);
        }
    }

    /// The chunk's size before compression so far: pages made (decompressed, headers
    /// left out), the page being filled and the dictionary. It depends on the values
    /// written only (not on compression or threads).
    pub(crate) fn encoded_size(&self) -> usize {
        self.encoded_bytes
            + self.pending_value_bytes()
            + self.dict.as_ref().map_or(0, |d| d.plain_bytes())
    }

    fn err(&self, e: Error) -> Error {
        e.with_column(self.path_string())
    }

    /// The column's dotted path.
    pub(crate) fn path_string(&self) -> String {
        self.path.join(".")
    }

    /// Rows written so far.
    pub fn num_rows(&self) -> u64 {
        self.num_rows
    }

    /// Bytes buffered so far (written pages plus the page being filled), an estimate of
    /// the chunk's size.
    pub fn buffered_bytes(&self) -> usize {
        let elsewhere: usize = self.encoded.iter().map(|(_, p)| p.body.len()).sum();
        self.stored_bytes
            + elsewhere
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

    /// Whether values go through the dictionary: until it falls back, and after that until
    /// the page that decided it is written. That page may not end before its last row does
    /// (a repeated column's next batch can continue the row), and a page holds dictionary
    /// indices or plain values, never both.
    fn using_dict(&self) -> bool {
        self.dict.is_some() && (!self.dict_fallback || self.fallback_pending)
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
        if let Some(bad) = level_outside(&batch.def_levels, self.max_def) {
            return Err(Error::data(format!(
                "definition level {bad} outside 0..={}",
                self.max_def
            )));
        }
        if let Some(bad) = level_outside(&batch.rep_levels, self.max_rep) {
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
            count_level(&batch.def_levels, self.max_def)
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
        // Content-defined chunking: the levels where a page must start.
        let mut cuts = match self.cdc.as_mut() {
            Some((chunker, cuts)) => {
                let mut cuts = std::mem::take(cuts);
                chunker.cuts(batch, n, &mut cuts);
                cuts
            }
            None => Vec::new(),
        };
        let mut next_cut = 0;
        let (mut level, mut value) = (0usize, 0usize);
        while level < n {
            let at_cut = cuts.get(next_cut) == Some(&level);
            if at_cut {
                next_cut += 1;
            }
            if at_cut || self.flush_pending && (self.max_rep == 0 || batch.rep_levels[level] == 0) {
                // The full page ended at a batch end and this batch starts a new row, or the
                // chunker cuts here (always where a row starts).
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
            if let Some(&cut) = cuts.get(next_cut) {
                end = end.min(cut);
            }
            let values = if self.max_def > 0 {
                count_level(&batch.def_levels[level..end], self.max_def)
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
        if let Some((_, spare)) = self.cdc.as_mut() {
            cuts.clear();
            *spare = cuts;
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
            count_level(&batch.rep_levels[levels.clone()], 0)
        } else {
            levels.len()
        };
        let by_entries = self.entry_statistics && self.using_dict();
        if by_entries {
            // Min and max come from the dictionary entries the page uses, at its end.
            self.meta.add_levels(batch, levels.clone(), values.clone());
        } else {
            // A page holds dictionary indices or plain values, never both (see `using_dict`):
            // no entry of this page waits to be folded.
            debug_assert!(self.dict_entries.used().is_empty());
            self.meta.add(batch, levels.clone(), values.clone());
        }
        if let (Some((geo, _)), ColumnValues::ByteArray(v)) = (self.geo.as_mut(), &batch.values) {
            for i in values.clone() {
                geo.add(v.get(i));
            }
        }
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
                let first = self.page_indices.len();
                dict.intern(&batch.values, values, &mut self.page_indices);
                if by_entries {
                    self.dict_entries
                        .note(&self.page_indices[first..], dict.len());
                }
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
                let e = auto::choose(
                    &self.page_values,
                    self.options.compression,
                    self.delta_bytes,
                    scratch,
                );
                self.value_encoding = Some(e);
                e
            }
        }
    }

    /// Folds the dictionary entries noted for the page being filled into its statistics.
    fn fold_dict_entries(&mut self) {
        if let Some(dict) = &self.dict {
            if !self.dict_entries.used().is_empty() {
                self.meta
                    .add_dictionary_entries(dict.values(), self.dict_entries.used());
            }
        }
        self.dict_entries.folded();
    }

    /// Folds the min and max of dictionary-encoded values into the page statistics one by
    /// one (as before the entries were used), to compare the results of both ways.
    #[cfg(test)]
    pub(crate) fn fold_every_value(&mut self) {
        self.entry_statistics = false;
    }

    /// Encodes the buffered page and hands it on (see [`emit`](Self::emit)).
    fn flush_page(&mut self) -> Result<()> {
        self.fallback_pending = false;
        // The page statistics are complete before the dictionary may be dropped below and
        // before they are read.
        self.fold_dict_entries();
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
        let encoding = if dict_page {
            if self.dict_data_pages == 0 {
                // Later checks of `Auto` look at what comes after the first page.
                self.dict_checked = self.dict_cost;
            }
            self.dict_data_pages += 1;
            Encoding::RleDictionary
        } else {
            let mut scratch = std::mem::take(&mut self.scratch);
            let e = self.value_encoding(&mut scratch);
            self.scratch = scratch;
            e
        };
        // Levels, then the values, straight into the page body.
        let mut body = self.spare_bodies.pop().unwrap_or_default();
        body.clear();
        let (mut rep_len, mut def_len) = (0, 0);
        let v1 = self.options.data_page_version == DataPageVersion::V1;
        if self.max_rep > 0 {
            levels::encode_rle(&self.page_rep, self.max_rep, v1, &mut body);
            rep_len = body.len();
        }
        if self.max_def > 0 {
            levels::encode_rle(&self.page_def, self.max_def, v1, &mut body);
            def_len = body.len() - rep_len;
        }
        if dict_page {
            let len = self.dict.as_ref().map_or(0, |d| d.len()) as u64;
            let width = bit_width(len.saturating_sub(1)).max(1);
            body.push(width);
            let mut enc = RleEncoder::with_buffer(width, body);
            enc.put_u32(&self.page_indices);
            body = enc.finish();
        } else {
            encode_values(encoding, &self.page_values, &mut body)?;
        }
        let non_null = self.page_indices.len().max(self.page_values.len());
        let statistics = self.meta.page_header_statistics();
        let ordinal = self.stored.len();
        self.encoded_bytes += body.len();
        let page = if v1 {
            data_page_v1(body, num_values, encoding, statistics, ordinal)?
        } else {
            let counts = (num_values, num_values - non_null, self.page_rows);
            let compressed = self.options.compression != Compression::Uncompressed;
            data_page_v2(
                body, rep_len, def_len, counts, encoding, statistics, compressed, ordinal,
            )?
        };
        let first_row = (self.num_rows - self.page_rows as u64) as i64;
        self.meta.finish_page(first_row);
        self.dict_entries.next_page();
        self.note_page(page.header.r#type, encoding);
        self.stored.push(None);
        self.emit(PageSlot::Data(ordinal), page)?;
        self.page_def.clear();
        self.page_rep.clear();
        self.page_indices.clear();
        clear_values(&mut self.page_values);
        self.page_rows = 0;
        if dict_page && self.dict_fallback {
            // The last dictionary-encoded page: the dictionary is final, its page can be
            // made now rather than at close.
            self.emit_dictionary_page()?;
        }
        Ok(())
    }

    /// Stores `page` now, or (deferred mode) keeps it for [`take_encoded`](Self::take_encoded).
    fn emit(&mut self, slot: PageSlot, page: EncodedPage) -> Result<()> {
        if self.deferred {
            self.encoded.push((slot, page));
            return Ok(());
        }
        let stored = self.codec.store(&page, &mut self.scratch)?;
        self.put_stored(slot, stored, page.body);
        Ok(())
    }

    fn note_page(&mut self, page_type: PageType, encoding: Encoding) {
        match self
            .encoding_stats
            .iter_mut()
            .find(|s| s.page_type == page_type && s.encoding == encoding)
        {
            Some(s) => s.count += 1,
            None => self.encoding_stats.push(PageEncodingStats {
                page_type,
                encoding,
                count: 1,
            }),
        }
    }

    /// Flushes the last page, writes the dictionary page in front, and returns the chunk.
    pub fn close(mut self) -> Result<WrittenColumnChunk> {
        self.deferred = false;
        self.close_pages()?;
        self.finish()
    }

    /// Makes the last data page and the dictionary page: after this, only pages stored
    /// elsewhere come back ([`put_stored`](Self::put_stored)) before
    /// [`finish`](Self::finish).
    pub(crate) fn close_pages(&mut self) -> Result<()> {
        self.flush_pending = false;
        self.flush_page().map_err(|e| self.err(e))?;
        self.emit_dictionary_page()?;
        if self.dict.take().is_some_and(|d| d.len() > 0) {
            // Listed after the data pages' encodings, wherever the page was made.
            self.note_page(PageType::DictionaryPage, Encoding::Plain);
        }
        Ok(())
    }

    /// Makes the dictionary page, once (when the dictionary has entries).
    fn emit_dictionary_page(&mut self) -> Result<()> {
        let Some(dict) = self.dict.as_ref().filter(|d| d.len() > 0) else {
            return Ok(());
        };
        if self.has_dictionary_page {
            return Ok(());
        }
        let mut plain_values = self.spare_bodies.pop().unwrap_or_default();
        plain_values.clear();
        plain_values.reserve(dict.plain_bytes());
        encode_plain(dict.values(), &mut plain_values).map_err(|e| self.err(e))?;
        let page = dictionary_page(plain_values, dict.len()).map_err(|e| self.err(e))?;
        self.has_dictionary_page = true;
        self.emit(PageSlot::Dictionary, page)
            .map_err(|e| self.err(e))
    }

    /// The finished chunk, once every page is stored.
    pub(crate) fn finish(mut self) -> Result<WrittenColumnChunk> {
        let missing = self.stored.iter().any(Option::is_none)
            || self.has_dictionary_page != self.dictionary_page.is_some();
        if missing || !self.encoded.is_empty() {
            return Err(self.err(Error::invalid_argument(
                "column chunk finished before all its pages were stored",
            )));
        }
        let mut pages = Vec::with_capacity(self.stored.len() + 1);
        let mut total_uncompressed = 0u64;
        let mut offset = 0usize;
        let mut dictionary_page_offset = None;
        if let Some(page) = self.dictionary_page.take() {
            total_uncompressed += page.info.total_uncompressed() as u64;
            dictionary_page_offset = Some(0);
            offset += page.bytes.len();
            pages.push(page.bytes);
        }
        let data_page_offset = offset as i64;
        let mut locations = Vec::with_capacity(self.stored.len());
        for page in std::mem::take(&mut self.stored).into_iter().flatten() {
            total_uncompressed += page.info.total_uncompressed() as u64;
            let size = i32::try_from(page.bytes.len())
                .map_err(|_| self.err(Error::invalid_argument("page larger than 2 GiB")))?;
            locations.push((offset as i64, size));
            offset += page.bytes.len();
            pages.push(page.bytes);
        }
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
        let meta = self.meta.finish(&locations);
        let metadata = ColumnMetaData {
            r#type: self.physical_type,
            encodings,
            path_in_schema: self.path.clone(),
            codec: self.options.compression.codec(),
            num_values: self.num_levels as i64,
            total_uncompressed_size: total_uncompressed as i64,
            total_compressed_size: offset as i64,
            key_value_metadata: None,
            data_page_offset,
            index_page_offset: None,
            dictionary_page_offset,
            statistics: meta.statistics,
            encoding_stats: Some(std::mem::take(&mut self.encoding_stats)),
            bloom_filter_offset: None,
            bloom_filter_length: None,
            size_statistics: meta.size_statistics,
            geospatial_statistics: self.geo.as_ref().and_then(|(g, bbox)| g.finish(*bbox)),
        };
        Ok(WrittenColumnChunk {
            pages,
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
