//! [`StatisticsAccumulator`]: min, max, null and NaN counts of the values written to a page
//! or a column chunk, and their Thrift form.

use std::cmp::Ordering;
use std::ops::Range;

use super::order::{compare_decimal_bytes, f16_to_f64, f64_to_f16_exact, SortOrder};
use super::truncate::{round_max_fixed, round_min_fixed, truncate_max, truncate_min};
use crate::core::format::Statistics;
use crate::core::values::{ColumnValues, Int96};

/// How statistics are written: bounds of byte strings longer than `truncate_length` are
/// shortened (marked inexact); `utf8` keeps shortened bounds valid UTF-8 (STRING columns);
/// `float_total_order` bounds FLOAT, DOUBLE and FLOAT16 values in IEEE 754 total order
/// (`IEEE_754_TOTAL_ORDER`), `int96_order` bounds INT96 values chronologically
/// (`INT96_TIMESTAMP_ORDER`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatisticsFormat {
    /// Longest byte-string bound written, in bytes (`None`: never shortened).
    pub truncate_length: Option<usize>,
    /// Whether the column holds UTF-8 text.
    pub utf8: bool,
    /// Floating point bounds in IEEE 754 total order.
    pub float_total_order: bool,
    /// INT96 bounds in chronological order.
    pub int96_order: bool,
}

impl Default for StatisticsFormat {
    fn default() -> Self {
        StatisticsFormat {
            truncate_length: Some(64),
            utf8: false,
            float_total_order: false,
            int96_order: false,
        }
    }
}

/// A comparison of two PLAIN-encoded bounds.
pub(crate) type BytesOrder = fn(&[u8], &[u8]) -> Ordering;

/// Running min and max, typed by physical type.
#[derive(Debug, Clone, PartialEq)]
enum MinMax {
    Empty,
    Bool(bool, bool),
    I32(i32, i32),
    I64(i64, i64),
    F32(f32, f32),
    F64(f64, f64),
    Bytes(Vec<u8>, Vec<u8>),
    /// IEEE 754 total order of floats `width` bytes wide: the total-order keys
    /// ([`total_key`]) of the least and greatest non-NaN values, and of the least and
    /// greatest NaNs (kept for a page or chunk of only NaNs).
    Total {
        width: u8,
        num: Option<(i64, i64)>,
        nan: Option<(i64, i64)>,
    },
    /// INT96 timestamps in chronological order.
    I96(Int96, Int96),
}

/// Accumulates min, max, null count and NaN count over the values written to a page or a
/// column chunk, in the column's [`SortOrder`].
///
/// Floating point NaNs are counted but left out of min/max; a zero minimum is written as
/// -0.0 and a zero maximum as +0.0 (FLOAT16 likewise), as `parquet.thrift` asks for
/// `TYPE_ORDER`. In IEEE 754 total order ([`StatisticsFormat::float_total_order`]) the
/// bounds are the least and greatest non-NaN values in that order (-0.0 below +0.0, each
/// kept as it is), or the least and greatest NaNs when every value is NaN.
#[derive(Debug, Clone)]
pub struct StatisticsAccumulator {
    order: SortOrder,
    format: StatisticsFormat,
    null_count: u64,
    nan_count: u64,
    floating: bool,
    deprecated: bool,
    /// The values are FIXED_LEN_BYTE_ARRAYs: bounds keep their width when truncated.
    fixed_len: bool,
    values: u64,
    minmax: MinMax,
    /// An INT96 value outside the range where chronological order agrees with the
    /// nanoseconds predicates compare (see [`int96_in_range`]) was seen: no bounds.
    unbounded: bool,
}

impl StatisticsAccumulator {
    /// An empty accumulator for values compared with `order`, written with the default
    /// [`StatisticsFormat`].
    #[cfg(test)]
    pub fn new(order: SortOrder) -> Self {
        Self::with_format(order, StatisticsFormat::default())
    }

    /// An empty accumulator with an explicit format.
    pub fn with_format(order: SortOrder, format: StatisticsFormat) -> Self {
        StatisticsAccumulator {
            order,
            format,
            null_count: 0,
            nan_count: 0,
            floating: false,
            deprecated: false,
            fixed_len: false,
            values: 0,
            minmax: MinMax::Empty,
            unbounded: false,
        }
    }

    /// The order values are compared in.
    pub fn order(&self) -> SortOrder {
        self.order
    }

    /// Forgets every value, keeping order and format.
    pub fn reset(&mut self) {
        self.null_count = 0;
        self.nan_count = 0;
        self.values = 0;
        self.minmax = MinMax::Empty;
        self.unbounded = false;
    }

    /// Counts `n` nulls.
    pub fn add_nulls(&mut self, n: u64) {
        self.null_count += n;
    }

    /// Number of NaNs counted.
    pub fn nan_count(&self) -> u64 {
        self.nan_count
    }

    /// Number of nulls counted.
    pub fn null_count(&self) -> u64 {
        self.null_count
    }

    /// Number of non-null values seen.
    #[cfg(test)]
    pub fn num_values(&self) -> u64 {
        self.values
    }

    /// Whether values were seen but every one of them was NaN.
    pub fn only_nans(&self) -> bool {
        self.floating && self.values > 0 && self.nan_count == self.values
    }

    /// How the written bounds compare where [`Scalar`](super::Scalar) order does not say it:
    /// floats in IEEE 754 total order, INT96 timestamps chronologically; `None` otherwise.
    pub(crate) fn bounds_order(&self) -> Option<BytesOrder> {
        if self.format.float_total_order && self.floating {
            Some(|a, b| {
                signed_bits(a)
                    .map(|x| total_key(x, a.len() as u8))
                    .cmp(&signed_bits(b).map(|x| total_key(x, b.len() as u8)))
            })
        } else if matches!(self.minmax, MinMax::I96(..)) {
            Some(|a, b| int96_of(a).map(int96_key).cmp(&int96_of(b).map(int96_key)))
        } else {
            None
        }
    }

    /// Whether values were seen that leave no bounds (INT96 timestamps outside the range
    /// where their order is the order of their nanoseconds).
    pub fn unbounded(&self) -> bool {
        self.unbounded
    }

    /// Whether floating point bounds are in IEEE 754 total order (a page of only NaNs then
    /// has NaN bounds, where `TYPE_ORDER` has none).
    pub fn total_order(&self) -> bool {
        self.format.float_total_order
    }

    /// Folds every value of `values` into the statistics.
    #[cfg(test)]
    pub fn add_values(&mut self, values: &ColumnValues) {
        self.add_range(values, 0..values.len());
    }

    /// Folds `values[range]` into the statistics (an out-of-range `range` is clamped).
    pub fn add_range(&mut self, values: &ColumnValues, range: Range<usize>) {
        let range = range.start.min(values.len())..range.end.min(values.len());
        if range.is_empty() {
            return;
        }
        self.values += range.len() as u64;
        match values {
            ColumnValues::Boolean(v) => {
                self.deprecated = true;
                let v = &v[range];
                let lo = !v.iter().any(|b| !b);
                let hi = v.iter().any(|&b| b);
                self.merge_bool(lo, hi);
            }
            ColumnValues::Int32(v) => self.fold_i32(v[range].iter().copied()),
            ColumnValues::Int64(v) => self.fold_i64(v[range].iter().copied()),
            ColumnValues::Float(v) if self.format.float_total_order => {
                self.floating = true;
                self.fold_total(4, v[range].iter().map(|x| x.to_bits() as i32 as i64));
            }
            ColumnValues::Double(v) if self.format.float_total_order => {
                self.floating = true;
                self.fold_total(8, v[range].iter().map(|x| x.to_bits() as i64));
            }
            ColumnValues::Float(v) => {
                self.floating = true;
                self.deprecated = true;
                let v = &v[range];
                let (nans, mm) = float_min_max(v.iter().map(|&x| x as f64));
                self.nan_count += nans;
                if let Some((lo, hi)) = mm {
                    self.merge_f32(lo as f32, hi as f32);
                }
            }
            ColumnValues::Double(v) => {
                self.floating = true;
                self.deprecated = true;
                let (nans, mm) = float_min_max(v[range].iter().copied());
                self.nan_count += nans;
                if let Some((lo, hi)) = mm {
                    self.merge_f64(lo, hi);
                }
            }
            ColumnValues::ByteArray(v) => self.fold_byte_array(
                v.offsets[range.start..=range.end]
                    .windows(2)
                    .map(|w| &v.data[w[0]..w[1]]),
            ),
            ColumnValues::FixedLenByteArray(v) => {
                self.fixed_len = true;
                if self.order == SortOrder::Float16 {
                    self.floating = true;
                    if v.width == 2 && self.format.float_total_order {
                        let bits =
                            |i: usize| i16::from_le_bytes([v.data[2 * i], v.data[2 * i + 1]]);
                        self.fold_total(2, range.map(|i| bits(i) as i64));
                    } else if v.width == 2 {
                        let (nans, mm) = float_min_max(range.map(|i| {
                            f16_to_f64(u16::from_le_bytes([v.data[2 * i], v.data[2 * i + 1]]))
                        }));
                        self.nan_count += nans;
                        if let Some((lo, hi)) = mm {
                            self.merge_f16(lo, hi, v.width);
                        }
                    }
                } else {
                    let w = v.width.max(1);
                    self.fold_fixed(v.data[range.start * w..range.end * w].chunks_exact(w));
                }
            }
            ColumnValues::Int96(v) if self.format.int96_order => {
                self.unbounded |= !v[range.clone()].iter().all(|&x| int96_in_range(x));
                if let Some((lo, hi)) = min_max_by_key(v[range].iter().copied(), int96_key) {
                    self.merge_i96(lo, hi);
                }
            }
            ColumnValues::Int96(_) => {}
        }
    }

    /// Folds floats given as their bits sign-extended from `width` bytes, in IEEE 754 total
    /// order: NaNs are counted and bounded apart from the other values.
    fn fold_total(&mut self, width: u8, bits: impl Iterator<Item = i64>) {
        let inf = infinity_bits(width);
        let magnitude = total_mask(width);
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        let (mut nan_lo, mut nan_hi) = (i64::MAX, i64::MIN);
        let mut nans = 0u64;
        for b in bits {
            let key = total_key(b, width);
            if b & magnitude > inf {
                nans += 1;
                nan_lo = nan_lo.min(key);
                nan_hi = nan_hi.max(key);
            } else {
                lo = lo.min(key);
                hi = hi.max(key);
            }
        }
        self.nan_count += nans;
        let num = (lo <= hi).then_some((lo, hi));
        let nan = (nan_lo <= nan_hi).then_some((nan_lo, nan_hi));
        self.merge_total(width, num, nan);
    }

    fn merge_total(&mut self, width: u8, num: Option<(i64, i64)>, nan: Option<(i64, i64)>) {
        let join = |a: Option<(i64, i64)>, b: Option<(i64, i64)>| match (a, b) {
            (Some((a, b)), Some((c, d))) => Some((a.min(c), b.max(d))),
            (a, b) => a.or(b),
        };
        self.minmax = match self.minmax {
            MinMax::Total { num: n, nan: m, .. } => MinMax::Total {
                width,
                num: join(n, num),
                nan: join(m, nan),
            },
            _ => MinMax::Total { width, num, nan },
        };
    }

    fn merge_i96(&mut self, lo: Int96, hi: Int96) {
        self.minmax = match self.minmax {
            MinMax::I96(a, b) => MinMax::I96(
                if int96_key(lo) < int96_key(a) { lo } else { a },
                if int96_key(hi) > int96_key(b) { hi } else { b },
            ),
            _ => MinMax::I96(lo, hi),
        };
    }

    /// Counts `n` non-null values whose min and max come separately, from
    /// [`add_entries`](Self::add_entries).
    pub(crate) fn count_values(&mut self, n: u64) {
        self.values += n;
    }

    /// Folds the min and max of `values[i]` for every `i` in `entries` (the dictionary
    /// entries a page refers to) without counting them as values: the page's values are
    /// counted once each by [`count_values`](Self::count_values). Entries are folded in the
    /// order given, so that of values comparing equal (decimals of different lengths) the
    /// first one stays, as when every value is folded in page order.
    ///
    /// NaNs are not counted either: floating point columns (FLOAT, DOUBLE, FLOAT16) fold
    /// their values with [`add_range`](Self::add_range), which counts NaNs once per value.
    pub(crate) fn add_entries(&mut self, values: &ColumnValues, entries: &[u32]) {
        if entries.is_empty() {
            return;
        }
        match values {
            ColumnValues::Int32(v) => self.fold_i32(entries.iter().map(|&i| v[i as usize])),
            ColumnValues::Int64(v) => self.fold_i64(entries.iter().map(|&i| v[i as usize])),
            ColumnValues::ByteArray(v) => {
                self.fold_byte_array(entries.iter().map(|&i| v.get(i as usize)))
            }
            ColumnValues::FixedLenByteArray(v) if self.order != SortOrder::Float16 => {
                self.fixed_len = true;
                self.fold_fixed(entries.iter().map(|&i| v.get(i as usize)));
            }
            _ => {
                // Booleans, floats and INT96: one entry at a time, uncounted.
                let (values_before, nans_before) = (self.values, self.nan_count);
                for &i in entries {
                    self.add_range(values, i as usize..i as usize + 1);
                }
                (self.values, self.nan_count) = (values_before, nans_before);
            }
        }
    }

    /// Folds the min and max of INT32 values (compared as unsigned in unsigned order).
    fn fold_i32(&mut self, it: impl Iterator<Item = i32>) {
        let unsigned = self.order == SortOrder::Unsigned;
        self.deprecated = !unsigned;
        let mm = if unsigned {
            min_max_ord(it.map(|x| x as u32)).map(|(a, b)| (a as i32, b as i32))
        } else {
            min_max_ord(it)
        };
        if let Some((lo, hi)) = mm {
            self.merge_i32(lo, hi);
        }
    }

    /// Folds the min and max of INT64 values (compared as unsigned in unsigned order).
    fn fold_i64(&mut self, it: impl Iterator<Item = i64>) {
        let unsigned = self.order == SortOrder::Unsigned;
        self.deprecated = !unsigned;
        let mm = if unsigned {
            min_max_ord(it.map(|x| x as u64)).map(|(a, b)| (a as i64, b as i64))
        } else {
            min_max_ord(it)
        };
        if let Some((lo, hi)) = mm {
            self.merge_i64(lo, hi);
        }
    }

    /// Folds the min and max of BYTE_ARRAY values: decimals in signed order, else bytes.
    fn fold_byte_array<'a>(&mut self, it: impl Iterator<Item = &'a [u8]>) {
        match self.order {
            SortOrder::Signed => self.add_bytes(it, compare_decimal_bytes),
            SortOrder::Unsigned => self.add_bytes_unsigned(it),
            _ => {}
        }
    }

    /// Folds the min and max of FIXED_LEN_BYTE_ARRAY values other than FLOAT16.
    fn fold_fixed<'a>(&mut self, it: impl Iterator<Item = &'a [u8]>) {
        match self.order {
            SortOrder::Signed => self.add_bytes(it, compare_decimal_bytes),
            SortOrder::Unsigned => self.add_bytes(it, <[u8]>::cmp),
            _ => {}
        }
    }

    fn byte_cmp(&self) -> fn(&[u8], &[u8]) -> Ordering {
        match self.order {
            SortOrder::Signed => compare_decimal_bytes,
            _ => |a: &[u8], b: &[u8]| a.cmp(b),
        }
    }

    fn add_bytes<'a>(
        &mut self,
        mut it: impl Iterator<Item = &'a [u8]>,
        cmp: impl Fn(&[u8], &[u8]) -> Ordering,
    ) {
        let Some(first) = it.next() else { return };
        let (mut lo, mut hi) = (first, first);
        for v in it {
            if cmp(v, lo) == Ordering::Less {
                lo = v;
            } else if cmp(v, hi) == Ordering::Greater {
                hi = v;
            }
        }
        self.merge_bytes(lo, hi, cmp);
    }

    /// [`add_bytes`](Self::add_bytes) in unsigned byte order, comparing the first 8 bytes as
    /// an integer before whole strings.
    fn add_bytes_unsigned<'a>(&mut self, mut it: impl Iterator<Item = &'a [u8]>) {
        let Some(first) = it.next() else { return };
        let (mut lo, mut hi) = (first, first);
        let (mut lo_key, mut hi_key) = (prefix_key(first), prefix_key(first));
        for v in it {
            let key = prefix_key(v);
            // Keys in order imply strings in order; equal keys need the strings.
            if key < lo_key || key == lo_key && v < lo {
                lo = v;
                lo_key = key;
            } else if key > hi_key || key == hi_key && v > hi {
                hi = v;
                hi_key = key;
            }
        }
        self.merge_bytes(lo, hi, <[u8]>::cmp);
    }

    fn merge_bytes(&mut self, lo: &[u8], hi: &[u8], cmp: impl Fn(&[u8], &[u8]) -> Ordering) {
        match &mut self.minmax {
            MinMax::Bytes(min, max) => {
                if cmp(lo, min) == Ordering::Less {
                    min.clear();
                    min.extend_from_slice(lo);
                }
                if cmp(hi, max) == Ordering::Greater {
                    max.clear();
                    max.extend_from_slice(hi);
                }
            }
            _ => self.minmax = MinMax::Bytes(lo.to_vec(), hi.to_vec()),
        }
    }

    fn merge_f16(&mut self, lo: f64, hi: f64, _width: usize) {
        // Store as bytes; zero handling as for the other floats.
        let enc = |x: f64| f64_to_f16_exact(x).to_le_bytes().to_vec();
        match &mut self.minmax {
            MinMax::Bytes(min, max) => {
                let (cur_lo, cur_hi) = (f16_of(min), f16_of(max));
                if lo < cur_lo || lo == 0.0 && cur_lo == 0.0 {
                    *min = enc(if lo == 0.0 { -0.0 } else { lo });
                }
                if hi > cur_hi {
                    *max = enc(hi);
                }
            }
            _ => self.minmax = MinMax::Bytes(enc(lo), enc(hi)),
        }
    }

    fn merge_bool(&mut self, lo: bool, hi: bool) {
        self.minmax = match self.minmax {
            MinMax::Bool(a, b) => MinMax::Bool(a & lo, b | hi),
            _ => MinMax::Bool(lo, hi),
        }
    }

    fn merge_i32(&mut self, lo: i32, hi: i32) {
        let unsigned = self.order == SortOrder::Unsigned;
        self.minmax = match self.minmax {
            MinMax::I32(a, b) if unsigned => MinMax::I32(
                (a as u32).min(lo as u32) as i32,
                (b as u32).max(hi as u32) as i32,
            ),
            MinMax::I32(a, b) => MinMax::I32(a.min(lo), b.max(hi)),
            _ => MinMax::I32(lo, hi),
        }
    }

    fn merge_i64(&mut self, lo: i64, hi: i64) {
        let unsigned = self.order == SortOrder::Unsigned;
        self.minmax = match self.minmax {
            MinMax::I64(a, b) if unsigned => MinMax::I64(
                (a as u64).min(lo as u64) as i64,
                (b as u64).max(hi as u64) as i64,
            ),
            MinMax::I64(a, b) => MinMax::I64(a.min(lo), b.max(hi)),
            _ => MinMax::I64(lo, hi),
        }
    }

    fn merge_f32(&mut self, lo: f32, hi: f32) {
        self.minmax = match self.minmax {
            MinMax::F32(a, b) => MinMax::F32(
                fmin(a as f64, lo as f64) as f32,
                fmax(b as f64, hi as f64) as f32,
            ),
            _ => MinMax::F32(lo, hi),
        }
    }

    fn merge_f64(&mut self, lo: f64, hi: f64) {
        self.minmax = match self.minmax {
            MinMax::F64(a, b) => MinMax::F64(fmin(a, lo), fmax(b, hi)),
            _ => MinMax::F64(lo, hi),
        }
    }

    /// Folds another accumulator of the same column (a page into its chunk) into this one.
    pub fn merge(&mut self, other: &StatisticsAccumulator) {
        self.null_count += other.null_count;
        self.nan_count += other.nan_count;
        self.values += other.values;
        self.floating |= other.floating;
        self.deprecated |= other.deprecated;
        self.fixed_len |= other.fixed_len;
        self.unbounded |= other.unbounded;
        match &other.minmax {
            MinMax::Empty => {}
            MinMax::Bool(a, b) => self.merge_bool(*a, *b),
            MinMax::I32(a, b) => self.merge_i32(*a, *b),
            MinMax::I64(a, b) => self.merge_i64(*a, *b),
            MinMax::F32(a, b) => self.merge_f32(*a, *b),
            MinMax::F64(a, b) => self.merge_f64(*a, *b),
            MinMax::Total { width, num, nan } => self.merge_total(*width, *num, *nan),
            MinMax::I96(a, b) => self.merge_i96(*a, *b),
            MinMax::Bytes(a, b) => {
                if self.order == SortOrder::Float16 {
                    self.merge_f16(f16_of(a), f16_of(b), 2);
                } else {
                    let cmp = self.byte_cmp();
                    match &mut self.minmax {
                        MinMax::Bytes(min, max) => {
                            if cmp(a, min) == Ordering::Less {
                                min.clone_from(a);
                            }
                            if cmp(b, max) == Ordering::Greater {
                                max.clone_from(b);
                            }
                        }
                        _ => self.minmax = MinMax::Bytes(a.clone(), b.clone()),
                    }
                }
            }
        }
    }

    /// The exact min and max, PLAIN encoded (byte arrays without length), if any.
    pub fn min_max_bytes(&self) -> Option<(Vec<u8>, Vec<u8>)> {
        if self.unbounded {
            return None;
        }
        Some(match &self.minmax {
            MinMax::Empty => return None,
            MinMax::Bool(a, b) => (vec![*a as u8], vec![*b as u8]),
            MinMax::I32(a, b) => (a.to_le_bytes().to_vec(), b.to_le_bytes().to_vec()),
            MinMax::I64(a, b) => (a.to_le_bytes().to_vec(), b.to_le_bytes().to_vec()),
            MinMax::F32(a, b) => (a.to_le_bytes().to_vec(), b.to_le_bytes().to_vec()),
            MinMax::F64(a, b) => (a.to_le_bytes().to_vec(), b.to_le_bytes().to_vec()),
            MinMax::Bytes(a, b) => (a.clone(), b.clone()),
            MinMax::Total { width, num, nan } => {
                let (lo, hi) = num.or(*nan)?;
                let bytes =
                    |key: i64| total_key(key, *width).to_le_bytes()[..*width as usize].to_vec();
                (bytes(lo), bytes(hi))
            }
            MinMax::I96(a, b) => (int96_bytes(*a), int96_bytes(*b)),
        })
    }

    /// The bounds as written: byte strings of the unsigned order longer than the truncate
    /// length are shortened, FIXED_LEN_BYTE_ARRAYs rounded within their width instead
    /// (readers require bounds of exactly the type's length). Returns
    /// `(min, min_exact, max, max_exact)`.
    pub fn bounds(&self) -> Option<(Vec<u8>, bool, Vec<u8>, bool)> {
        let (min, max) = self.min_max_bytes()?;
        if let (MinMax::Bytes(..), SortOrder::Unsigned, Some(limit)) =
            (&self.minmax, self.order, self.format.truncate_length)
        {
            if self.fixed_len {
                let (min, min_exact) = match round_min_fixed(&min, limit) {
                    Some(t) => (t, false),
                    None => (min, true),
                };
                let (max, max_exact) = match round_max_fixed(&max, limit) {
                    Some(t) => (t, false),
                    None => (max, true),
                };
                return Some((min, min_exact, max, max_exact));
            }
            let (min, min_exact) = match truncate_min(&min, limit, self.format.utf8) {
                Some(t) => (t, false),
                None => (min, true),
            };
            let (max, max_exact) = match truncate_max(&max, limit, self.format.utf8) {
                Some(t) => (t, false),
                None => (max, true),
            };
            return Some((min, min_exact, max, max_exact));
        }
        Some((min, true, max, true))
    }

    /// The Thrift statistics: `null_count` always; `min_value`/`max_value` (with their
    /// exactness) when the order is defined and a non-NaN value was seen; `nan_count` for
    /// floating point columns; the deprecated `min`/`max` too for BOOLEAN, INT32, INT64,
    /// FLOAT and DOUBLE in signed order, where old readers' signed comparison agrees.
    pub fn to_thrift(&self) -> Statistics {
        let mut s = Statistics {
            null_count: Some(self.null_count as i64),
            nan_count: self.floating.then_some(self.nan_count as i64),
            ..Default::default()
        };
        if let Some((min, min_exact, max, max_exact)) = self.bounds() {
            if self.deprecated && self.order == SortOrder::Signed {
                s.min = Some(min.clone());
                s.max = Some(max.clone());
            }
            s.min_value = Some(min);
            s.max_value = Some(max);
            s.is_min_value_exact = Some(min_exact);
            s.is_max_value_exact = Some(max_exact);
        }
        s
    }
}

fn f16_of(b: &[u8]) -> f64 {
    match b {
        [x, y] => f16_to_f64(u16::from_le_bytes([*x, *y])),
        _ => f64::NAN,
    }
}

/// The key whose signed order is the IEEE 754 total order of floats given as their bits
/// sign-extended from `width` bytes (negative values have their magnitude bits flipped, as
/// `f64::total_cmp` does); the mapping is its own inverse, and keeps the sign extension.
#[inline]
fn total_key(bits: i64, width: u8) -> i64 {
    if bits < 0 {
        bits ^ total_mask(width)
    } else {
        bits
    }
}

/// Every bit of a `width`-byte float but the sign.
#[inline]
fn total_mask(width: u8) -> i64 {
    i64::MAX >> (64 - width as u32 * 8)
}

/// The bits of +infinity of a `width`-byte float: greater magnitude bits are NaN.
#[inline]
fn infinity_bits(width: u8) -> i64 {
    match width {
        2 => 0x7c00,
        4 => 0x7f80_0000,
        _ => 0x7ff0_0000_0000_0000,
    }
}

/// The chronological key of an INT96 timestamp, as `parquet.thrift` orders them: the Julian
/// day (last 4 bytes) as a signed 32-bit integer, then the nanoseconds (first 8 bytes) as a
/// signed 64-bit integer.
#[inline]
fn int96_key(v: Int96) -> (i32, i64) {
    (
        v.0[2] as i32,
        (v.0[0] as u64 | (v.0[1] as u64) << 32) as i64,
    )
}

/// A float's little-endian bits (2, 4 or 8 bytes) sign-extended to 64 bits.
fn signed_bits(b: &[u8]) -> Option<i64> {
    Some(match b.len() {
        2 => i16::from_le_bytes(b.try_into().ok()?) as i64,
        4 => i32::from_le_bytes(b.try_into().ok()?) as i64,
        8 => i64::from_le_bytes(b.try_into().ok()?),
        _ => return None,
    })
}

/// An INT96 from its 12 PLAIN bytes.
fn int96_of(b: &[u8]) -> Option<Int96> {
    let w = |i: usize| {
        Some(u32::from_le_bytes(
            b.get(4 * i..4 * i + 4)?.try_into().ok()?,
        ))
    };
    (b.len() == 12).then_some(())?;
    Some(Int96([w(0)?, w(1)?, w(2)?]))
}

/// Whether an INT96 timestamp's chronological key orders it as its nanoseconds since the
/// epoch do: a Julian day below 2^31 and nanoseconds within the day.
fn int96_in_range(v: Int96) -> bool {
    let (day, of_day) = int96_key(v);
    day >= 0 && (0..86_400_000_000_000).contains(&of_day)
}

/// An INT96 PLAIN encoded: three little-endian 32-bit words.
fn int96_bytes(v: Int96) -> Vec<u8> {
    v.0.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Min and max of a sequence by a key (`None` when empty); of equal keys the first stays.
fn min_max_by_key<T: Copy, K: Ord>(
    mut it: impl Iterator<Item = T>,
    key: impl Fn(T) -> K,
) -> Option<(T, T)> {
    let first = it.next()?;
    Some(it.fold((first, first), |(lo, hi), v| {
        (
            if key(v) < key(lo) { v } else { lo },
            if key(v) > key(hi) { v } else { hi },
        )
    }))
}

/// Min and max of a non-empty sequence (`None` when empty).
#[inline]
fn min_max_ord<T: Ord + Copy>(mut it: impl Iterator<Item = T>) -> Option<(T, T)> {
    let first = it.next()?;
    Some(it.fold((first, first), |(lo, hi), v| (lo.min(v), hi.max(v))))
}

fn fmin(a: f64, b: f64) -> f64 {
    if b < a || (b == 0.0 && a == 0.0) && b.is_sign_negative() {
        b
    } else {
        a
    }
}

fn fmax(a: f64, b: f64) -> f64 {
    if b > a || (b == 0.0 && a == 0.0) && b.is_sign_positive() {
        b
    } else {
        a
    }
}

/// NaN count and (min, max) of the non-NaN values, a zero minimum as -0.0 and a zero
/// maximum as +0.0.
fn float_min_max(values: impl Iterator<Item = f64>) -> (u64, Option<(f64, f64)>) {
    let (mut nans, mut count) = (0u64, 0u64);
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    // Branch-free: a NaN is never below `lo` nor above `hi`, so it only counts.
    for v in values {
        nans += u64::from(v.is_nan());
        count += 1;
        lo = if v < lo { v } else { lo };
        hi = if v > hi { v } else { hi };
    }
    if nans == count {
        return (nans, None);
    }
    let lo = if lo == 0.0 { -0.0 } else { lo };
    let hi = if hi == 0.0 { 0.0 } else { hi };
    (nans, Some((lo, hi)))
}

/// The first 8 bytes of `v` as a big-endian integer, zero-padded: when two keys differ,
/// the strings compare as their keys do (a string that ends early pads with zeros, and a
/// string that is a prefix of another sorts first).
#[inline]
fn prefix_key(v: &[u8]) -> u64 {
    let n = v.len();
    if let Some(head) = v.first_chunk::<8>() {
        return u64::from_be_bytes(*head);
    }
    if n >= 4 {
        // Two overlapping loads: bytes 0..4 and n-4..n, each moved to its place (the
        // bytes both hold land on the same bits).
        let first = u32::from_be_bytes([v[0], v[1], v[2], v[3]]) as u64;
        let last = u32::from_be_bytes([v[n - 4], v[n - 3], v[n - 2], v[n - 1]]) as u64;
        return first << 32 | last << (8 * (8 - n));
    }
    v.iter()
        .enumerate()
        .fold(0, |key, (i, &b)| key | (b as u64) << (56 - 8 * i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::values::{ByteArrays, FixedLenByteArrays};
    use proptest::prelude::*;

    #[test]
    fn prefix_keys_are_zero_padded_big_endian() {
        for n in 0..12usize {
            let v: Vec<u8> = (0..n).map(|i| 0xA0 + i as u8).collect();
            let mut buf = [0u8; 8];
            let k = n.min(8);
            buf[..k].copy_from_slice(&v[..k]);
            assert_eq!(prefix_key(&v), u64::from_be_bytes(buf), "length {n}");
        }
    }

    proptest! {
        #[test]
        fn unsigned_bytes_match_a_plain_min_max(values in proptest::collection::vec(
            proptest::collection::vec(prop_oneof![Just(0u8), Just(1u8), Just(255u8), any::<u8>()], 0..12),
            1..40)) {
            let mut b = ByteArrays::new();
            for v in &values {
                b.push(v);
            }
            let mut s = StatisticsAccumulator::with_format(
                SortOrder::Unsigned,
                StatisticsFormat { truncate_length: None, ..StatisticsFormat::default() },
            );
            s.add_values(&ColumnValues::ByteArray(b));
            let lo = values.iter().min().unwrap().clone();
            let hi = values.iter().max().unwrap().clone();
            prop_assert_eq!(s.min_max_bytes(), Some((lo, hi)));
        }
    }

    #[test]
    fn signed_and_unsigned_ints() {
        let v = ColumnValues::Int32(vec![3, -1, 7]);
        let mut s = StatisticsAccumulator::new(SortOrder::Signed);
        s.add_values(&v);
        let t = s.to_thrift();
        assert_eq!(t.min_value, Some((-1i32).to_le_bytes().to_vec()));
        assert_eq!(t.max_value, Some(7i32.to_le_bytes().to_vec()));
        assert_eq!(t.min, t.min_value);
        assert_eq!(t.nan_count, None);
        let mut u = StatisticsAccumulator::new(SortOrder::Unsigned);
        u.add_values(&v);
        let t = u.to_thrift();
        assert_eq!(t.min_value, Some(3i32.to_le_bytes().to_vec()));
        assert_eq!(t.max_value, Some((-1i32).to_le_bytes().to_vec()));
        assert_eq!(t.min, None, "no deprecated fields for unsigned order");
        let mut u64s = StatisticsAccumulator::new(SortOrder::Unsigned);
        u64s.add_values(&ColumnValues::Int64(vec![i64::MIN, 5]));
        let (lo, hi) = u64s.min_max_bytes().unwrap();
        assert_eq!(
            (lo, hi),
            (5i64.to_le_bytes().to_vec(), i64::MIN.to_le_bytes().to_vec())
        );
    }

    fn total() -> StatisticsAccumulator {
        StatisticsAccumulator::with_format(
            SortOrder::Signed,
            StatisticsFormat {
                float_total_order: true,
                ..StatisticsFormat::default()
            },
        )
    }

    fn bits64(t: &Statistics) -> (Option<u64>, Option<u64>) {
        let b = |v: &Option<Vec<u8>>| {
            v.as_ref()
                .map(|v| u64::from_le_bytes(v[..].try_into().unwrap()))
        };
        (b(&t.min_value), b(&t.max_value))
    }

    #[test]
    fn total_order_keeps_zeros_and_bounds_only_nans_with_nans() {
        let neg_nan = f64::from_bits(0xfff8_0000_0000_0000);
        let mut s = total();
        s.add_values(&ColumnValues::Double(vec![
            f64::NAN,
            0.0,
            1.5,
            neg_nan,
            0.0,
        ]));
        let t = s.to_thrift();
        // +0.0 stays +0.0 (TYPE_ORDER writes -0.0); NaNs are counted, not bounds.
        assert_eq!(bits64(&t), (Some(0.0f64.to_bits()), Some(1.5f64.to_bits())));
        assert_eq!(t.nan_count, Some(2));
        assert_eq!(
            (t.min, t.max),
            (None, None),
            "no deprecated min/max in total order"
        );
        let mut z = total();
        z.add_values(&ColumnValues::Double(vec![-0.0, 0.0, -0.0]));
        let t = z.to_thrift();
        assert_eq!(
            bits64(&t),
            (Some((-0.0f64).to_bits()), Some(0.0f64.to_bits()))
        );
        // Only NaNs: the least and greatest NaN in total order.
        let mut n = total();
        n.add_values(&ColumnValues::Double(vec![
            f64::NAN,
            neg_nan,
            f64::from_bits(0xfff8_0000_0000_0002),
        ]));
        assert!(n.only_nans());
        let t = n.to_thrift();
        assert_eq!(
            bits64(&t),
            (Some(0xfff8_0000_0000_0002), Some(f64::NAN.to_bits()))
        );
        // Merged with a page of numbers, the numbers bound the chunk.
        n.merge(&z);
        let t = n.to_thrift();
        assert_eq!(
            bits64(&t),
            (Some((-0.0f64).to_bits()), Some(0.0f64.to_bits()))
        );
        assert_eq!(t.nan_count, Some(3));
        // Infinities are numbers.
        let mut i = total();
        i.add_values(&ColumnValues::Double(vec![
            f64::INFINITY,
            f64::NAN,
            f64::NEG_INFINITY,
        ]));
        let t = i.to_thrift();
        assert_eq!(
            bits64(&t),
            (
                Some(f64::NEG_INFINITY.to_bits()),
                Some(f64::INFINITY.to_bits())
            )
        );
    }

    #[test]
    fn total_order_float_and_float16() {
        let mut s = total();
        s.add_values(&ColumnValues::Float(vec![
            -0.0,
            -1.0,
            f32::from_bits(0xffc0_0000),
        ]));
        let t = s.to_thrift();
        let b = |v: &Option<Vec<u8>>| {
            f32::from_le_bytes(v.clone().unwrap()[..].try_into().unwrap()).to_bits()
        };
        assert_eq!(
            (b(&t.min_value), b(&t.max_value)),
            ((-1.0f32).to_bits(), (-0.0f32).to_bits())
        );
        assert_eq!(t.nan_count, Some(1));
        let mut h = StatisticsAccumulator::with_format(
            SortOrder::Float16,
            StatisticsFormat {
                float_total_order: true,
                ..StatisticsFormat::default()
            },
        );
        let mut v = FixedLenByteArrays::new(2);
        for bits in [0x8000u16, 0x7e00, 0x3c00, 0xfe00, 0x0000] {
            v.push(&bits.to_le_bytes());
        }
        h.add_values(&ColumnValues::FixedLenByteArray(v));
        let t = h.to_thrift();
        // -0.0 .. 1.0, two NaNs.
        assert_eq!(t.min_value, Some(0x8000u16.to_le_bytes().to_vec()));
        assert_eq!(t.max_value, Some(0x3c00u16.to_le_bytes().to_vec()));
        assert_eq!(t.nan_count, Some(2));
        let mut only = StatisticsAccumulator::with_format(SortOrder::Float16, h.format);
        let mut v = FixedLenByteArrays::new(2);
        v.push(&0x7e00u16.to_le_bytes());
        v.push(&0xfe01u16.to_le_bytes());
        only.add_values(&ColumnValues::FixedLenByteArray(v));
        let t = only.to_thrift();
        assert_eq!(t.min_value, Some(0xfe01u16.to_le_bytes().to_vec()));
        assert_eq!(t.max_value, Some(0x7e00u16.to_le_bytes().to_vec()));
    }

    #[test]
    fn total_order_matches_total_cmp() {
        proptest!(|(v in proptest::collection::vec(any::<u64>(), 1..40))| {
            let values: Vec<f64> = v.iter().map(|&b| f64::from_bits(b)).collect();
            let mut s = total();
            s.add_values(&ColumnValues::Double(values.clone()));
            let t = s.to_thrift();
            let numbers: Vec<f64> = values.iter().copied().filter(|x| !x.is_nan()).collect();
            let pool = if numbers.is_empty() { &values } else { &numbers };
            let lo = pool.iter().copied().min_by(f64::total_cmp).unwrap();
            let hi = pool.iter().copied().max_by(f64::total_cmp).unwrap();
            prop_assert_eq!(bits64(&t), (Some(lo.to_bits()), Some(hi.to_bits())));
            prop_assert_eq!(t.nan_count, Some((values.len() - numbers.len()) as i64));
        });
    }

    #[test]
    fn int96_chronological_bounds() {
        let mut s = StatisticsAccumulator::with_format(
            SortOrder::Undefined,
            StatisticsFormat {
                int96_order: true,
                ..StatisticsFormat::default()
            },
        );
        let before = Int96::from_nanos(-5);
        let epoch = Int96::from_nanos(0);
        let later = Int96::from_nanos(86_400_000_000_123);
        s.add_values(&ColumnValues::Int96(vec![epoch, later, before]));
        let t = s.to_thrift();
        assert_eq!(t.min_value, Some(int96_bytes(before)));
        assert_eq!(t.max_value, Some(int96_bytes(later)));
        let order = s.bounds_order().unwrap();
        assert_eq!(
            order(&int96_bytes(before), &int96_bytes(epoch)),
            Ordering::Less
        );
        // Nanoseconds beyond a day: no bounds at all.
        s.add_values(&ColumnValues::Int96(vec![Int96([0, 0x10_0000, 2_440_588])]));
        assert!(s.unbounded());
        assert_eq!(s.to_thrift().min_value, None);
        // Without the order, INT96 gets no bounds, as before.
        let mut old = StatisticsAccumulator::new(SortOrder::Undefined);
        old.add_values(&ColumnValues::Int96(vec![epoch]));
        assert_eq!(old.to_thrift().min_value, None);
    }

    #[test]
    fn floats_skip_nan_and_sign_zeros() {
        let mut s = StatisticsAccumulator::new(SortOrder::Signed);
        s.add_values(&ColumnValues::Double(vec![f64::NAN, 0.0, -0.0]));
        s.add_nulls(2);
        let t = s.to_thrift();
        assert_eq!(t.min_value, Some((-0.0f64).to_le_bytes().to_vec()));
        assert_eq!(t.max_value, Some(0.0f64.to_le_bytes().to_vec()));
        assert_eq!(t.null_count, Some(2));
        assert_eq!(t.nan_count, Some(1));
        let mut n = StatisticsAccumulator::new(SortOrder::Signed);
        n.add_values(&ColumnValues::Float(vec![f32::NAN]));
        let t = n.to_thrift();
        assert_eq!((t.min_value, t.max, t.nan_count), (None, None, Some(1)));
        assert!(n.only_nans());
        // Positive zero min from one page, negative zero from another.
        let mut a = StatisticsAccumulator::new(SortOrder::Signed);
        a.add_values(&ColumnValues::Float(vec![0.0, 1.0]));
        let mut b = StatisticsAccumulator::new(SortOrder::Signed);
        b.add_values(&ColumnValues::Float(vec![-0.0, -0.0]));
        a.merge(&b);
        let (lo, hi) = a.min_max_bytes().unwrap();
        assert_eq!(lo, (-0.0f32).to_le_bytes());
        assert_eq!(hi, 1.0f32.to_le_bytes());
    }

    #[test]
    fn float16_by_value() {
        let mut v = FixedLenByteArrays::new(2);
        for bits in [0x3c00u16, 0xc000, 0x7e00, 0x0000, 0x4000] {
            v.push(&bits.to_le_bytes());
        }
        let mut s = StatisticsAccumulator::new(SortOrder::Float16);
        s.add_values(&ColumnValues::FixedLenByteArray(v));
        let t = s.to_thrift();
        assert_eq!(t.min_value, Some(vec![0x00, 0xc0])); // -2
        assert_eq!(t.max_value, Some(vec![0x00, 0x40])); // 2
        assert_eq!(t.nan_count, Some(1));
        assert_eq!(t.min, None);
        let mut z = FixedLenByteArrays::new(2);
        z.push(&[0, 0]);
        z.push(&[0, 0x7e]);
        let mut s = StatisticsAccumulator::new(SortOrder::Float16);
        s.add_values(&ColumnValues::FixedLenByteArray(z));
        let t = s.to_thrift();
        assert_eq!(t.min_value, Some(vec![0x00, 0x80])); // -0
        assert_eq!(t.max_value, Some(vec![0x00, 0x00])); // +0
        for bits in [
            0u16, 1, 0x3ff, 0x400, 0x3c00, 0x7bff, 0x8001, 0xfbff, 0x7c00,
        ] {
            assert_eq!(f64_to_f16_exact(f16_to_f64(bits)), bits, "{bits:#x}");
        }
    }

    #[test]
    fn bytes_unsigned_lexicographic_across_batches() {
        let mut s = StatisticsAccumulator::new(SortOrder::Unsigned);
        let mut a = ByteArrays::new();
        a.push(b"b");
        a.push(&[0xff]);
        s.add_values(&ColumnValues::ByteArray(a));
        let mut b = ByteArrays::new();
        b.push(b"a");
        s.add_values(&ColumnValues::ByteArray(b));
        let t = s.to_thrift();
        assert_eq!(t.min_value, Some(b"a".to_vec()));
        assert_eq!(t.max_value, Some(vec![0xff]));
        assert_eq!(t.min, None);
        assert_eq!(t.is_min_value_exact, Some(true));
    }

    #[test]
    fn decimals_by_value() {
        let mut v = FixedLenByteArrays::new(2);
        for x in [5i16, -300, 200] {
            v.push(&x.to_be_bytes());
        }
        let mut s = StatisticsAccumulator::new(SortOrder::Signed);
        s.add_values(&ColumnValues::FixedLenByteArray(v));
        let t = s.to_thrift();
        assert_eq!(t.min_value, Some((-300i16).to_be_bytes().to_vec()));
        assert_eq!(t.max_value, Some(200i16.to_be_bytes().to_vec()));
        assert_eq!(t.min, None, "old readers compare FLBA bytes, not decimals");
    }

    #[test]
    fn truncation_marks_inexact() {
        let mut s = StatisticsAccumulator::with_format(
            SortOrder::Unsigned,
            StatisticsFormat {
                truncate_length: Some(4),
                utf8: true,
                ..StatisticsFormat::default()
            },
        );
        let mut a = ByteArrays::new();
        a.push("abcdefgh".as_bytes());
        a.push("zz".as_bytes());
        a.push("abc".as_bytes());
        s.add_values(&ColumnValues::ByteArray(a));
        let t = s.to_thrift();
        assert_eq!(t.min_value, Some(b"abc".to_vec()));
        assert_eq!(t.is_min_value_exact, Some(true));
        let mut b = ByteArrays::new();
        b.push("zzzzzz".as_bytes());
        s.add_values(&ColumnValues::ByteArray(b));
        let t = s.to_thrift();
        assert_eq!(t.max_value, Some(b"zzz{".to_vec()));
        assert_eq!(t.is_max_value_exact, Some(false));
    }

    #[test]
    fn fixed_len_bounds_keep_their_width_when_truncated() {
        let format = StatisticsFormat {
            truncate_length: Some(4),
            ..StatisticsFormat::default()
        };
        let mut page = StatisticsAccumulator::with_format(SortOrder::Unsigned, format);
        let mut v = FixedLenByteArrays::new(16);
        v.push(&[0x12; 16]);
        v.push(&[0x80; 16]);
        page.add_values(&ColumnValues::FixedLenByteArray(v));
        let t = page.to_thrift();
        let mut lo = vec![0x12; 4];
        lo.resize(16, 0);
        let mut hi = vec![0x80; 4];
        hi.resize(16, 0xff);
        assert_eq!(
            (t.min_value, t.max_value),
            (Some(lo.clone()), Some(hi.clone()))
        );
        assert_eq!(
            (t.is_min_value_exact, t.is_max_value_exact),
            (Some(false), Some(false))
        );
        // Merged into a chunk, the rule still holds.
        let mut chunk = StatisticsAccumulator::with_format(SortOrder::Unsigned, format);
        chunk.merge(&page);
        let (min, _, max, _) = chunk.bounds().unwrap();
        assert_eq!((min, max), (lo, hi));
    }

    #[test]
    fn undefined_order_counts_nulls_only() {
        let mut s = StatisticsAccumulator::new(SortOrder::Undefined);
        s.add_values(&ColumnValues::Int96(vec![Default::default()]));
        let mut b = ByteArrays::new();
        b.push(b"x");
        s.add_values(&ColumnValues::ByteArray(b));
        s.add_nulls(1);
        let t = s.to_thrift();
        assert_eq!((t.min_value, t.null_count), (None, Some(1)));
    }

    #[test]
    fn booleans() {
        let mut s = StatisticsAccumulator::new(SortOrder::Signed);
        s.add_range(&ColumnValues::Boolean(vec![true, false, true]), 0..1);
        assert_eq!(s.min_max_bytes(), Some((vec![1], vec![1])));
        s.add_values(&ColumnValues::Boolean(vec![false]));
        assert_eq!(s.min_max_bytes(), Some((vec![0], vec![1])));
    }
}

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn statisticsaccumulator_example() {
        use crate::core::column::statistics::{SortOrder, StatisticsAccumulator};
        use crate::core::values::ColumnValues;
        let mut s = StatisticsAccumulator::new(SortOrder::Signed);
        s.add_values(&ColumnValues::Int32(vec![3, -1, 7]));
        s.add_nulls(2);
        let t = s.to_thrift();
        assert_eq!(t.min_value, Some((-1i32).to_le_bytes().to_vec()));
        assert_eq!(t.null_count, Some(2));
    }
}
