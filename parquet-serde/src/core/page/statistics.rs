//! [`RawStatistics`]: statistics as a writer stored them, for a column chunk or a page.

use crate::core::format::Statistics;

/// Statistics as a writer stored them (`Statistics` in parquet.thrift), for a column chunk
/// or a page: bounds are PLAIN encoded, byte arrays without a length prefix. Read them
/// typed with [`ColumnChunkMetaData::statistics`](crate::core::file::ColumnChunkMetaData::statistics).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RawStatistics<'a>(pub(crate) &'a Statistics);

impl<'a> RawStatistics<'a> {
    /// Lower bound by the column order (`Statistics.min_value`).
    pub fn min_value(&self) -> Option<&'a [u8]> {
        self.0.min_value.as_deref()
    }

    /// Upper bound by the column order (`Statistics.max_value`).
    pub fn max_value(&self) -> Option<&'a [u8]> {
        self.0.max_value.as_deref()
    }

    /// Deprecated minimum by signed comparison (`Statistics.min`).
    pub fn min(&self) -> Option<&'a [u8]> {
        self.0.min.as_deref()
    }

    /// Deprecated maximum by signed comparison (`Statistics.max`).
    pub fn max(&self) -> Option<&'a [u8]> {
        self.0.max.as_deref()
    }

    /// Number of nulls (`Statistics.null_count`); `None` means unknown, not zero.
    pub fn null_count(&self) -> Option<i64> {
        self.0.null_count
    }

    /// Number of distinct values (`Statistics.distinct_count`).
    pub fn distinct_count(&self) -> Option<i64> {
        self.0.distinct_count
    }

    /// Number of NaNs (`Statistics.nan_count`).
    pub fn nan_count(&self) -> Option<i64> {
        self.0.nan_count
    }

    /// Whether `min_value` is a value that occurs (`Statistics.is_min_value_exact`).
    pub fn is_min_value_exact(&self) -> Option<bool> {
        self.0.is_min_value_exact
    }

    /// Whether `max_value` is a value that occurs (`Statistics.is_max_value_exact`).
    pub fn is_max_value_exact(&self) -> Option<bool> {
        self.0.is_max_value_exact
    }
}
