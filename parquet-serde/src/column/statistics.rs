//! Min/max/null-count statistics of column chunks, accumulated while writing.

use std::cmp::Ordering;

use crate::format::Statistics;
use crate::values::ColumnValues;

/// How values of a column compare, from its physical and logical type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortOrder {
    /// Signed comparison (signed integers, floats, booleans).
    Signed,
    /// Unsigned comparison (unsigned integers; bytes compared as unsigned, lexicographically).
    Unsigned,
    /// No defined order (INT96, INTERVAL, and types whose order this writer does not
    /// implement yet): min/max are not written.
    Undefined,
}

/// Accumulates min, max and null count over the values written to a column chunk.
///
/// Floating-point NaNs are left out of min/max; -0.0 and +0.0 follow the spec (a minimum
/// of zero is written as -0.0 and a maximum of zero as +0.0).
#[derive(Debug, Clone)]
pub struct StatisticsAccumulator {
    order: SortOrder,
    null_count: u64,
    min: Option<Vec<u8>>,
    max: Option<Vec<u8>>,
}

impl StatisticsAccumulator {
    /// An empty accumulator for values compared with `order`.
    pub fn new(order: SortOrder) -> Self {
        StatisticsAccumulator {
            order,
            null_count: 0,
            min: None,
            max: None,
        }
    }

    /// Counts `n` nulls.
    pub fn add_nulls(&mut self, n: u64) {
        self.null_count += n;
    }

    /// Folds every value of `values` into min and max.
    pub fn add_values(&mut self, values: &ColumnValues) {
        if self.order == SortOrder::Undefined {
            return;
        }
        let unsigned = self.order == SortOrder::Unsigned;
        match values {
            ColumnValues::Boolean(v) => {
                if let (Some(lo), Some(hi)) = (v.iter().min(), v.iter().max()) {
                    self.merge(&[*lo as u8], &[*hi as u8], |a, b| a[0].cmp(&b[0]));
                }
            }
            ColumnValues::Int32(v) => {
                let (lo, hi) = if unsigned {
                    let it = v.iter().map(|&x| x as u32);
                    (
                        it.clone().min().map(|x| x as i32),
                        it.max().map(|x| x as i32),
                    )
                } else {
                    (v.iter().copied().min(), v.iter().copied().max())
                };
                if let (Some(lo), Some(hi)) = (lo, hi) {
                    let cmp = cmp_i32(unsigned);
                    self.merge(&lo.to_le_bytes(), &hi.to_le_bytes(), cmp);
                }
            }
            ColumnValues::Int64(v) => {
                let (lo, hi) = if unsigned {
                    let it = v.iter().map(|&x| x as u64);
                    (
                        it.clone().min().map(|x| x as i64),
                        it.max().map(|x| x as i64),
                    )
                } else {
                    (v.iter().copied().min(), v.iter().copied().max())
                };
                if let (Some(lo), Some(hi)) = (lo, hi) {
                    let cmp = cmp_i64(unsigned);
                    self.merge(&lo.to_le_bytes(), &hi.to_le_bytes(), cmp);
                }
            }
            ColumnValues::Float(v) => {
                if let Some((lo, hi)) = float_min_max(v.iter().map(|&x| x as f64)) {
                    let (lo, hi) = (lo as f32, hi as f32);
                    self.merge(&lo.to_le_bytes(), &hi.to_le_bytes(), |a, b| {
                        f32_of(a).partial_cmp(&f32_of(b)).unwrap_or(Ordering::Equal)
                    });
                }
            }
            ColumnValues::Double(v) => {
                if let Some((lo, hi)) = float_min_max(v.iter().copied()) {
                    self.merge(&lo.to_le_bytes(), &hi.to_le_bytes(), |a, b| {
                        f64_of(a).partial_cmp(&f64_of(b)).unwrap_or(Ordering::Equal)
                    });
                }
            }
            ColumnValues::ByteArray(v) => {
                if let (Some(lo), Some(hi)) = (v.iter().min(), v.iter().max()) {
                    self.merge(lo, hi, |a, b| a.cmp(b));
                }
            }
            ColumnValues::FixedLenByteArray(v) => {
                if let (Some(lo), Some(hi)) = (v.iter().min(), v.iter().max()) {
                    self.merge(lo, hi, |a, b| a.cmp(b));
                }
            }
            ColumnValues::Int96(_) => {}
        }
    }

    fn merge(&mut self, lo: &[u8], hi: &[u8], cmp: impl Fn(&[u8], &[u8]) -> Ordering) {
        match &self.min {
            Some(m) if cmp(m, lo) != Ordering::Greater => {}
            _ => self.min = Some(lo.to_vec()),
        }
        match &self.max {
            Some(m) if cmp(m, hi) != Ordering::Less => {}
            _ => self.max = Some(hi.to_vec()),
        }
    }

    /// Number of nulls counted.
    pub fn null_count(&self) -> u64 {
        self.null_count
    }

    /// The Thrift statistics: null_count always, min_value/max_value when the order is
    /// defined and there was a non-NaN value.
    pub fn to_thrift(&self) -> Statistics {
        let exact = self.min.as_ref().map(|_| true);
        Statistics {
            null_count: Some(self.null_count as i64),
            min_value: self.min.clone(),
            max_value: self.max.clone(),
            is_min_value_exact: exact,
            is_max_value_exact: exact,
            ..Default::default()
        }
    }
}

fn cmp_i32(unsigned: bool) -> impl Fn(&[u8], &[u8]) -> Ordering {
    move |a, b| {
        let (x, y) = (
            i32::from_le_bytes(a.try_into().unwrap_or([0; 4])),
            i32::from_le_bytes(b.try_into().unwrap_or([0; 4])),
        );
        if unsigned {
            (x as u32).cmp(&(y as u32))
        } else {
            x.cmp(&y)
        }
    }
}

fn cmp_i64(unsigned: bool) -> impl Fn(&[u8], &[u8]) -> Ordering {
    move |a, b| {
        let (x, y) = (
            i64::from_le_bytes(a.try_into().unwrap_or([0; 8])),
            i64::from_le_bytes(b.try_into().unwrap_or([0; 8])),
        );
        if unsigned {
            (x as u64).cmp(&(y as u64))
        } else {
            x.cmp(&y)
        }
    }
}

fn f32_of(b: &[u8]) -> f32 {
    f32::from_le_bytes(b.try_into().unwrap_or([0; 4]))
}

fn f64_of(b: &[u8]) -> f64 {
    f64::from_le_bytes(b.try_into().unwrap_or([0; 8]))
}

/// Min and max ignoring NaN, with a zero minimum written as -0.0 and a zero maximum as +0.0.
fn float_min_max(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let mut out: Option<(f64, f64)> = None;
    for v in values.filter(|v| !v.is_nan()) {
        out = Some(match out {
            None => (v, v),
            Some((lo, hi)) => (lo.min(v), hi.max(v)),
        });
    }
    out.map(|(lo, hi)| {
        (
            if lo == 0.0 { -0.0 } else { lo },
            if hi == 0.0 { 0.0 } else { hi },
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::ByteArrays;

    #[test]
    fn signed_and_unsigned_ints() {
        let v = ColumnValues::Int32(vec![3, -1, 7]);
        let mut s = StatisticsAccumulator::new(SortOrder::Signed);
        s.add_values(&v);
        let t = s.to_thrift();
        assert_eq!(t.min_value, Some((-1i32).to_le_bytes().to_vec()));
        assert_eq!(t.max_value, Some(7i32.to_le_bytes().to_vec()));
        let mut u = StatisticsAccumulator::new(SortOrder::Unsigned);
        u.add_values(&v);
        let t = u.to_thrift();
        assert_eq!(t.min_value, Some(3i32.to_le_bytes().to_vec()));
        assert_eq!(t.max_value, Some((-1i32).to_le_bytes().to_vec()));
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
        let mut n = StatisticsAccumulator::new(SortOrder::Signed);
        n.add_values(&ColumnValues::Float(vec![f32::NAN]));
        assert_eq!(n.to_thrift().min_value, None);
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
    }
}
