//! [`PageMetaCollector`]: everything a column chunk writer records about its pages besides
//! their bytes: page and chunk statistics, level histograms and byte-array sizes, and the
//! page index (ColumnIndex and OffsetIndex).

use std::cmp::Ordering;
use std::ops::Range;

use crate::core::format::{
    BoundaryOrder, ColumnIndex, OffsetIndex, PageLocation, SizeStatistics, Statistics, Type,
};
use crate::core::values::ColumnValues;

use super::batch::{count_level, ColumnBatch};
use super::statistics::{BytesOrder, Scalar, SortOrder, StatisticsAccumulator, StatisticsFormat};

/// Which page metadata a column chunk writer records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PageMetaOptions {
    /// min/max/null_count of the chunk in ColumnMetaData.
    pub chunk_statistics: bool,
    /// Statistics in every data page header, and the ColumnIndex.
    pub page_statistics: bool,
    /// OffsetIndex (and ColumnIndex when page statistics are on).
    pub page_index: bool,
    /// SizeStatistics in ColumnMetaData, and level histograms in the page index.
    pub size_statistics: bool,
}

/// What a finished chunk's metadata holds besides sizes and offsets.
#[derive(Debug, Default)]
pub(crate) struct ChunkMeta {
    pub statistics: Option<Statistics>,
    pub size_statistics: Option<SizeStatistics>,
    pub column_index: Option<ColumnIndex>,
    pub offset_index: Option<OffsetIndex>,
}

/// Level histogram: `hist[l]` counts level `l` (levels outside `hist` are not counted; the
/// writer checked them against the maximum).
fn histogram(levels: &[i16], hist: &mut [i64]) {
    if hist.len() <= 8 {
        // One counting pass per level: compare-and-count loops vectorize, where
        // increments of a few counters in memory wait on each other.
        for (l, h) in hist.iter_mut().enumerate() {
            // `l` < 8: it fits an i16.
            *h += count_level(levels, l as i16) as i64;
        }
        return;
    }
    for &l in levels {
        if let Some(h) = hist.get_mut(l as usize) {
            *h += 1;
        }
    }
}

/// Records page and chunk metadata as values and pages go by.
#[derive(Debug)]
pub(crate) struct PageMetaCollector {
    options: PageMetaOptions,
    physical_type: Type,
    max_def: i16,
    max_rep: i16,
    page: StatisticsAccumulator,
    chunk: StatisticsAccumulator,
    page_def: Vec<i64>,
    page_rep: Vec<i64>,
    chunk_def: Vec<i64>,
    chunk_rep: Vec<i64>,
    page_bytes: i64,
    chunk_bytes: i64,
    // Page index, one entry per data page.
    column_index_ok: bool,
    null_pages: Vec<bool>,
    min_values: Vec<Vec<u8>>,
    max_values: Vec<Vec<u8>>,
    null_counts: Vec<i64>,
    /// NaNs of every page, written for floating point columns in IEEE 754 total order (as
    /// arrow-rs 60 does; `TYPE_ORDER` files keep the ColumnIndex they had).
    nan_counts: Option<Vec<i64>>,
    def_hists: Vec<i64>,
    rep_hists: Vec<i64>,
    /// First row of every data page.
    first_rows: Vec<i64>,
    unencoded: Vec<i64>,
}

impl PageMetaCollector {
    pub fn new(
        options: PageMetaOptions,
        physical_type: Type,
        max_def: i16,
        max_rep: i16,
        order: SortOrder,
        format: StatisticsFormat,
    ) -> Self {
        let stats_order = if options.chunk_statistics || options.page_statistics {
            order
        } else {
            SortOrder::Undefined
        };
        let int96_order = format.int96_order && physical_type == Type::Int96;
        let floating =
            matches!(physical_type, Type::Float | Type::Double) || order == SortOrder::Float16;
        let nan_counts = (floating && format.float_total_order).then(Vec::new);
        let acc = StatisticsAccumulator::with_format(stats_order, format);
        let def_len = if max_def > 0 { max_def as usize + 1 } else { 0 };
        let rep_len = if max_rep > 0 { max_rep as usize + 1 } else { 0 };
        PageMetaCollector {
            options,
            physical_type,
            max_def,
            max_rep,
            page: acc.clone(),
            chunk: acc,
            page_def: vec![0; def_len],
            page_rep: vec![0; rep_len],
            chunk_def: vec![0; def_len],
            chunk_rep: vec![0; rep_len],
            page_bytes: 0,
            chunk_bytes: 0,
            // INT96 and other unordered columns get no ColumnIndex (parquet.thrift).
            // (INT96 in INT96_TIMESTAMP_ORDER gets one.)
            column_index_ok: options.page_statistics
                && options.page_index
                && (order.is_defined() || int96_order),
            null_pages: Vec::new(),
            min_values: Vec::new(),
            max_values: Vec::new(),
            null_counts: Vec::new(),
            nan_counts,
            def_hists: Vec::new(),
            rep_hists: Vec::new(),
            first_rows: Vec::new(),
            unencoded: Vec::new(),
        }
    }

    /// Records the slots `levels` of `batch`, whose non-null values are `values`.
    pub fn add(&mut self, batch: &ColumnBatch, levels: Range<usize>, values: Range<usize>) {
        self.page.add_range(&batch.values, values.clone());
        self.add_nulls_and_sizes(batch, levels, values);
    }

    /// [`add`](Self::add) but for the min and max of the values: they are dictionary-encoded
    /// and come from the page's distinct entries at the end of the page
    /// ([`add_dictionary_entries`](Self::add_dictionary_entries)). The values are counted.
    pub fn add_levels(&mut self, batch: &ColumnBatch, levels: Range<usize>, values: Range<usize>) {
        // As `add_range` counts them: clamped to the batch.
        let len = batch.values.len();
        let counted = values.end.min(len).saturating_sub(values.start.min(len));
        self.page.count_values(counted as u64);
        self.add_nulls_and_sizes(batch, levels, values);
    }

    /// Folds the min and max of the dictionary entries `entries` of `dict` (used by the
    /// current page, values already counted by [`add_levels`](Self::add_levels)) into the
    /// page statistics.
    pub fn add_dictionary_entries(&mut self, dict: &ColumnValues, entries: &[u32]) {
        self.page.add_entries(dict, entries);
    }

    /// Null count, level histograms and byte-array sizes of the slots `levels` of `batch`.
    fn add_nulls_and_sizes(
        &mut self,
        batch: &ColumnBatch,
        levels: Range<usize>,
        values: Range<usize>,
    ) {
        self.page.add_nulls((levels.len() - values.len()) as u64);
        if self.max_def > 0 {
            histogram(&batch.def_levels[levels.clone()], &mut self.page_def);
        }
        if self.max_rep > 0 {
            histogram(&batch.rep_levels[levels], &mut self.page_rep);
        }
        if let ColumnValues::ByteArray(v) = &batch.values {
            if !values.is_empty() {
                self.page_bytes += (v.offsets[values.end] - v.offsets[values.start]) as i64;
            }
        }
    }

    /// The statistics to put in the header of the page being finished, if any: only when
    /// there is no page index to hold them. With a page index the ColumnIndex carries the
    /// same bounds where readers look for them (as parquet-java and arrow-rs write), and
    /// repeating them in every header costs bytes and time (two truncated strings per page).
    pub fn page_header_statistics(&self) -> Option<Statistics> {
        (self.options.page_statistics && !self.options.page_index).then(|| self.page.to_thrift())
    }

    /// Closes the current page, whose first row is `first_row` (its place in the chunk is
    /// given to [`finish`](Self::finish)).
    pub fn finish_page(&mut self, first_row: i64) {
        if self.options.page_index {
            self.first_rows.push(first_row);
            if self.physical_type == Type::ByteArray {
                self.unencoded.push(self.page_bytes);
            }
        }
        if self.column_index_ok {
            if self.page.only_nans() && !self.page.total_order() || self.page.unbounded() {
                // TYPE_ORDER: a page of only NaNs has no bounds, so no ColumnIndex at all
                // (in total order it has NaN bounds); likewise a page of INT96 values
                // without bounds (a null page would claim it holds no value).
                self.column_index_ok = false;
            } else {
                let bounds = self.page.bounds();
                self.null_pages.push(bounds.is_none());
                let (min, _, max, _) = bounds.unwrap_or_default();
                self.min_values.push(min);
                self.max_values.push(max);
                self.null_counts.push(self.page.null_count() as i64);
                if let Some(n) = self.nan_counts.as_mut() {
                    n.push(self.page.nan_count() as i64);
                }
                self.def_hists.extend_from_slice(&self.page_def);
                self.rep_hists.extend_from_slice(&self.page_rep);
            }
        }
        self.chunk.merge(&self.page);
        self.page.reset();
        self.chunk_bytes += self.page_bytes;
        self.page_bytes = 0;
        for (c, p) in self.chunk_def.iter_mut().zip(&mut self.page_def) {
            *c += std::mem::take(p);
        }
        for (c, p) in self.chunk_rep.iter_mut().zip(&mut self.page_rep) {
            *c += std::mem::take(p);
        }
    }

    /// The chunk's metadata; `pages` holds the offset in the chunk and the stored size
    /// (header included) of every data page.
    pub fn finish(self, pages: &[(i64, i32)]) -> ChunkMeta {
        let statistics = self
            .options
            .chunk_statistics
            .then(|| self.chunk.to_thrift());
        let size_statistics = self.options.size_statistics.then(|| SizeStatistics {
            unencoded_byte_array_data_bytes: (self.physical_type == Type::ByteArray)
                .then_some(self.chunk_bytes),
            repetition_level_histogram: (self.max_rep > 0).then(|| self.chunk_rep.clone()),
            definition_level_histogram: (self.max_def > 0).then(|| self.chunk_def.clone()),
        });
        let offset_index = self.options.page_index.then(|| OffsetIndex {
            page_locations: self
                .first_rows
                .iter()
                .zip(pages)
                .map(|(&first_row_index, &(offset, size))| PageLocation {
                    offset,
                    compressed_page_size: size,
                    first_row_index,
                })
                .collect(),
            unencoded_byte_array_data_bytes: (self.physical_type == Type::ByteArray
                && self.options.size_statistics)
                .then(|| self.unencoded.clone()),
        });
        let column_index = self.column_index_ok.then(|| {
            let boundary_order = boundary_order(
                &self.null_pages,
                &self.min_values,
                &self.max_values,
                self.physical_type,
                self.chunk.order(),
                self.chunk.bounds_order(),
            );
            let hists = self.options.size_statistics;
            ColumnIndex {
                null_pages: self.null_pages,
                min_values: self.min_values,
                max_values: self.max_values,
                boundary_order,
                null_counts: Some(self.null_counts),
                repetition_level_histograms: (hists && self.max_rep > 0).then_some(self.rep_hists),
                definition_level_histograms: (hists && self.max_def > 0).then_some(self.def_hists),
                nan_counts: self.nan_counts,
            }
        });
        ChunkMeta {
            statistics,
            size_statistics,
            column_index,
            offset_index,
        }
    }
}

/// ASCENDING when the min and max values of the non-null pages never decrease,
/// DESCENDING when they never increase, else UNORDERED; compared as [`Scalar`]s in `order`,
/// or with `bytes_order` when given (total-order floats, INT96).
fn boundary_order(
    null_pages: &[bool],
    mins: &[Vec<u8>],
    maxs: &[Vec<u8>],
    physical_type: Type,
    order: SortOrder,
    bytes_order: Option<BytesOrder>,
) -> BoundaryOrder {
    let decode = |b: &[u8]| Scalar::decode(b, physical_type, order);
    // Without `bytes_order`, pages whose bounds do not decode are left out.
    let pages: Vec<(&[u8], &[u8])> = null_pages
        .iter()
        .zip(mins.iter().zip(maxs))
        .filter(|(null, _)| !**null)
        .map(|(_, (lo, hi))| (lo.as_slice(), hi.as_slice()))
        .filter(|(lo, hi)| bytes_order.is_some() || decode(lo).is_some() && decode(hi).is_some())
        .collect();
    let compare = |a: &[u8], b: &[u8]| match bytes_order {
        Some(cmp) => Some(cmp(a, b)),
        None => decode(a)?.compare(&decode(b)?),
    };
    let (mut asc, mut desc) = (true, true);
    for w in pages.windows(2) {
        let lo = compare(w[0].0, w[1].0);
        let hi = compare(w[0].1, w[1].1);
        match (lo, hi) {
            (Some(a), Some(b)) => {
                if a == Ordering::Greater || b == Ordering::Greater {
                    asc = false;
                }
                if a == Ordering::Less || b == Ordering::Less {
                    desc = false;
                }
            }
            _ => return BoundaryOrder::Unordered,
        }
    }
    if asc {
        BoundaryOrder::Ascending
    } else if desc {
        BoundaryOrder::Descending
    } else {
        BoundaryOrder::Unordered
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> PageMetaOptions {
        PageMetaOptions {
            chunk_statistics: true,
            page_statistics: true,
            page_index: true,
            size_statistics: true,
        }
    }

    fn int_batch(values: Vec<i32>, def: Vec<i16>) -> ColumnBatch {
        ColumnBatch {
            values: ColumnValues::Int32(values),
            def_levels: def,
            rep_levels: vec![],
        }
    }

    #[test]
    fn histograms_count_each_level() {
        for max in [1usize, 3, 7, 8, 12] {
            let levels: Vec<i16> = (0..1000).map(|i| ((i * 7) % (max + 1)) as i16).collect();
            let mut hist = vec![0i64; max + 1];
            histogram(&levels, &mut hist);
            histogram(&levels[..10], &mut hist);
            let mut want = vec![0i64; max + 1];
            for &l in levels.iter().chain(&levels[..10]) {
                want[l as usize] += 1;
            }
            assert_eq!(hist, want, "max {max}");
        }
        // Levels beyond the histogram are not counted.
        let mut hist = vec![0i64; 2];
        histogram(&[0, 1, 2, -1, 1], &mut hist);
        assert_eq!(hist, [1, 2]);
    }

    #[test]
    fn pages_and_chunk() {
        let mut c = PageMetaCollector::new(
            opts(),
            Type::Int32,
            1,
            0,
            SortOrder::Signed,
            StatisticsFormat::default(),
        );
        let b = int_batch(vec![5, 3], vec![1, 0, 1]);
        c.add(&b, 0..3, 0..2);
        // The page index holds the page statistics: none in the header.
        assert!(c.page_header_statistics().is_none());
        let mut headers = PageMetaCollector::new(
            PageMetaOptions {
                page_index: false,
                ..opts()
            },
            Type::Int32,
            1,
            0,
            SortOrder::Signed,
            StatisticsFormat::default(),
        );
        headers.add(&b, 0..3, 0..2);
        let s = headers.page_header_statistics().unwrap();
        assert_eq!(s.min_value, Some(3i32.to_le_bytes().to_vec()));
        assert_eq!(s.null_count, Some(1));
        c.finish_page(0);
        let b = int_batch(vec![], vec![0, 0]);
        c.add(&b, 0..2, 0..0);
        c.finish_page(3);
        let b = int_batch(vec![9], vec![1]);
        c.add(&b, 0..1, 0..1);
        c.finish_page(5);
        let m = c.finish(&[(20, 100), (120, 50), (170, 60)]);
        let ci = m.column_index.unwrap();
        assert_eq!(ci.null_pages, vec![false, true, false]);
        assert_eq!(ci.min_values[1], Vec::<u8>::new());
        assert_eq!(ci.max_values[2], 9i32.to_le_bytes().to_vec());
        assert_eq!(ci.null_counts, Some(vec![1, 2, 0]));
        assert_eq!(ci.boundary_order, BoundaryOrder::Ascending);
        assert_eq!(ci.definition_level_histograms, Some(vec![1, 2, 2, 0, 0, 1]));
        assert_eq!(ci.repetition_level_histograms, None);
        let oi = m.offset_index.unwrap();
        assert_eq!(
            oi.page_locations
                .iter()
                .map(|l| (l.offset, l.first_row_index))
                .collect::<Vec<_>>(),
            vec![(20, 0), (120, 3), (170, 5)]
        );
        assert_eq!(oi.unencoded_byte_array_data_bytes, None);
        let st = m.statistics.unwrap();
        assert_eq!(st.min_value, Some(3i32.to_le_bytes().to_vec()));
        assert_eq!(st.max_value, Some(9i32.to_le_bytes().to_vec()));
        assert_eq!(st.null_count, Some(3));
        let ss = m.size_statistics.unwrap();
        assert_eq!(ss.definition_level_histogram, Some(vec![3, 3]));
        assert_eq!(ss.unencoded_byte_array_data_bytes, None);
    }

    #[test]
    fn nan_only_page_drops_column_index() {
        let mut c = PageMetaCollector::new(
            opts(),
            Type::Double,
            0,
            0,
            SortOrder::Signed,
            StatisticsFormat::default(),
        );
        let b = ColumnBatch {
            values: ColumnValues::Double(vec![f64::NAN, 1.0]),
            def_levels: vec![],
            rep_levels: vec![],
        };
        c.add(&b, 0..1, 0..1);
        c.finish_page(0);
        c.add(&b, 1..2, 1..2);
        c.finish_page(1);
        let m = c.finish(&[(0, 10), (10, 10)]);
        assert!(m.column_index.is_none());
        assert_eq!(m.offset_index.unwrap().page_locations.len(), 2);
        let s = m.statistics.unwrap();
        assert_eq!(s.nan_count, Some(1));
        assert_eq!(s.min_value, Some(1.0f64.to_le_bytes().to_vec()));
    }

    #[test]
    fn dictionary_entries_give_the_statistics_of_every_value() {
        let dict = ColumnValues::Int32(vec![7, -2, 4]);
        let b = int_batch(vec![7, 7, -2, 7], vec![1, 1, 0, 1, 1]);
        let mut every = PageMetaCollector::new(
            opts(),
            Type::Int32,
            1,
            0,
            SortOrder::Signed,
            StatisticsFormat::default(),
        );
        let mut entries = PageMetaCollector::new(
            opts(),
            Type::Int32,
            1,
            0,
            SortOrder::Signed,
            StatisticsFormat::default(),
        );
        every.add(&b, 0..5, 0..4);
        entries.add_levels(&b, 0..5, 0..4);
        entries.add_dictionary_entries(&dict, &[0, 1]);
        // Values are counted once each, not once per entry.
        assert_eq!(entries.page.num_values(), 4);
        assert_eq!(every.page.num_values(), 4);
        assert_eq!(entries.page.to_thrift(), every.page.to_thrift());
        assert_eq!(entries.page_def, every.page_def);
    }

    #[test]
    fn boundary_orders() {
        let e = |v: i32| v.to_le_bytes().to_vec();
        let bo = |mins: &[i32], maxs: &[i32]| {
            boundary_order(
                &vec![false; mins.len()],
                &mins.iter().map(|&v| e(v)).collect::<Vec<_>>(),
                &maxs.iter().map(|&v| e(v)).collect::<Vec<_>>(),
                Type::Int32,
                SortOrder::Signed,
                None,
            )
        };
        assert_eq!(bo(&[1, 2, 2], &[3, 3, 4]), BoundaryOrder::Ascending);
        assert_eq!(bo(&[5, 2, 1], &[9, 3, 3]), BoundaryOrder::Descending);
        assert_eq!(bo(&[1, 2, 1], &[3, 3, 4]), BoundaryOrder::Unordered);
        assert_eq!(bo(&[1], &[3]), BoundaryOrder::Ascending);
        // In IEEE 754 total order -0.0 is below +0.0: pages [+0, +0] then [-0, -0] descend
        // (by value they would be equal, so "ascending").
        let mut acc = StatisticsAccumulator::with_format(
            SortOrder::Signed,
            StatisticsFormat {
                float_total_order: true,
                ..StatisticsFormat::default()
            },
        );
        acc.add_range(&ColumnValues::Double(vec![0.0]), 0..1);
        let f = |v: f64| v.to_le_bytes().to_vec();
        let total = |mins: &[f64], maxs: &[f64]| {
            boundary_order(
                &vec![false; mins.len()],
                &mins.iter().map(|&v| f(v)).collect::<Vec<_>>(),
                &maxs.iter().map(|&v| f(v)).collect::<Vec<_>>(),
                Type::Double,
                SortOrder::Signed,
                acc.bounds_order(),
            )
        };
        assert_eq!(total(&[0.0, -0.0], &[0.0, -0.0]), BoundaryOrder::Descending);
        assert_eq!(
            total(&[-0.0, 0.0], &[-0.0, f64::NAN]),
            BoundaryOrder::Ascending
        );
    }

    #[test]
    fn byte_array_sizes_and_rep_histograms() {
        let mut c = PageMetaCollector::new(
            opts(),
            Type::ByteArray,
            2,
            1,
            SortOrder::Unsigned,
            StatisticsFormat::default(),
        );
        let mut v = crate::core::values::ByteArrays::new();
        v.push(b"ab");
        v.push(b"cde");
        let b = ColumnBatch {
            values: ColumnValues::ByteArray(v),
            def_levels: vec![2, 2, 0, 1],
            rep_levels: vec![0, 1, 0, 0],
        };
        c.add(&b, 0..4, 0..2);
        c.finish_page(0);
        let m = c.finish(&[(0, 10)]);
        assert_eq!(
            m.offset_index.unwrap().unencoded_byte_array_data_bytes,
            Some(vec![5])
        );
        let ss = m.size_statistics.unwrap();
        assert_eq!(ss.unencoded_byte_array_data_bytes, Some(5));
        assert_eq!(ss.repetition_level_histogram, Some(vec![3, 1]));
        assert_eq!(ss.definition_level_histogram, Some(vec![1, 1, 2]));
        let ci = m.column_index.unwrap();
        assert_eq!(ci.repetition_level_histograms, Some(vec![3, 1]));
        assert_eq!(ci.null_counts, Some(vec![2]));
    }
}
