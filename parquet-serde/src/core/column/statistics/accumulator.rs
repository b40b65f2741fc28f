//! [`StatisticsAccumulator`]: min, max, null and NaN counts of the values written to a page
//! or a column chunk, and their Thrift form.

use std::cmp::Ordering;
use std::ops::Range;

use super::order::{compare_decimal_bytes, f16_to_f64, f64_to_f16_exact, SortOrder};
use super::truncate::{round_max_fixed, round_min_fixed, truncate_max, truncate_min};
use crate::core::format::Statistics;
use crate::core::values::ColumnValues;

/// How statistics are written: bounds of byte strings longer than `truncate_length` are
/// shortened (marked inexact); `utf8` keeps shortened bounds valid UTF-8 (STRING columns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatisticsFormat {
    /// Longest byte-string bound written, in bytes (`None`: never shortened).
    pub truncate_length: Option<usize>,
    /// Whether the column holds UTF-8 text.
    pub utf8: bool,
}

impl Default for StatisticsFormat {
    fn default() -> Self {
        StatisticsFormat {
            truncate_length: Some(64),
            utf8: false,
        }
    }
}

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
}

/// Accumulates min, max, null count and NaN count over the values written to a page or a
/// column chunk, in the column's [`SortOrder`].
///
/// Floating point NaNs are counted but left out of min/max; a zero minimum is written as
/// -0.0 and a zero maximum as +0.0 (FLOAT16 likewise), as `parquet.thrift` asks for
/// `TYPE_ORDER`.
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
    }

    /// Counts `n` nulls.
    pub fn add_nulls(&mut self, n: u64) {
        self.null_count += n;
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
                    if v.width == 2 {
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
            ColumnValues::Int96(_) => {}
        }
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
        match &other.minmax {
            MinMax::Empty => {}
            MinMax::Bool(a, b) => self.merge_bool(*a, *b),
            MinMax::I32(a, b) => self.merge_i32(*a, *b),
            MinMax::I64(a, b) => self.merge_i64(*a, *b),
            MinMax::F32(a, b) => self.merge_f32(*a, *b),
            MinMax::F64(a, b) => self.merge_f64(*a, *b),
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
        Some(match &self.minmax {
            MinMax::Empty => return None,
            MinMax::Bool(a, b) => (vec![*a as u8], vec![*b as u8]),
            MinMax::I32(a, b) => (a.to_le_bytes().to_vec(), b.to_le_bytes().to_vec()),
            MinMax::I64(a, b) => (a.to_le_bytes().to_vec(), b.to_le_bytes().to_vec()),
            MinMax::F32(a, b) => (a.to_le_bytes().to_vec(), b.to_le_bytes().to_vec()),
            MinMax::F64(a, b) => (a.to_le_bytes().to_vec(), b.to_le_bytes().to_vec()),
            MinMax::Bytes(a, b) => (a.clone(), b.clone()),
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
                StatisticsFormat { truncate_length: None, utf8: false },
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
            utf8: false,
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
