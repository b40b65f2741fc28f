//! [`ColumnStatistics`]: the statistics of a column chunk or page as typed bounds, with the
//! specification's rules for statistics written by older or buggy writers applied.

use super::order::SortOrder;
use super::scalar::Scalar;
use crate::core::format::{ColumnOrder, Statistics, Type};
use crate::core::values::numeric::int96_nanos;
use crate::core::values::Int96;

/// Statistics of a column chunk or page: typed min/max bounds and counts.
///
/// Built from the footer's statistics (`ColumnChunkMetaData::statistics`), by the reading
/// rules of `parquet.thrift`:
/// - `min_value`/`max_value` are used when present and the footer has `column_orders`
///   (without it their meaning is undefined); the deprecated `min`/`max` only for
///   BOOLEAN, INT32, INT64, FLOAT and DOUBLE columns whose order is signed (old writers
///   compared signed), or when min equals max (then the order does not matter);
/// - a NaN bound of a floating point column (FLOAT, DOUBLE, FLOAT16) is ignored;
/// - bounds are ignored for columns without a defined order (INTERVAL, INT96 in
///   `TYPE_ORDER`, ...) and for column orders this reader does not know; INT96 bounds in
///   `INT96_TIMESTAMP_ORDER` are read as nanoseconds since the epoch (`Scalar::Int`);
/// - truncated byte-string bounds (`is_*_value_exact = false`) are still bounds: every
///   value is `>= min` and `<= max`.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct ColumnStatistics {
    /// Lower bound of the non-null (non-NaN) values.
    pub min: Option<Scalar>,
    /// Upper bound of the non-null (non-NaN) values.
    pub max: Option<Scalar>,
    /// Whether `min` is known to be a value that occurs (not a shortened bound).
    pub min_exact: bool,
    /// Whether `max` is known to be a value that occurs (not a shortened bound).
    pub max_exact: bool,
    /// Number of nulls, when written.
    pub null_count: Option<u64>,
    /// Number of NaNs, when written (floating point columns).
    pub nan_count: Option<u64>,
    /// Number of distinct values, when written.
    pub distinct_count: Option<u64>,
}

impl ColumnStatistics {
    /// The typed statistics of a column of `physical_type` compared in `order`, given the
    /// column's `ColumnOrder` from the footer (`None` when the footer has none: then only
    /// the deprecated `min`/`max` can be used).
    pub(crate) fn from_thrift(
        stats: &Statistics,
        physical_type: Type,
        order: SortOrder,
        column_order: Option<&ColumnOrder>,
    ) -> Self {
        let count = |v: Option<i64>| v.and_then(|n| u64::try_from(n).ok());
        let mut out = ColumnStatistics {
            null_count: count(stats.null_count),
            nan_count: count(stats.nan_count),
            distinct_count: count(stats.distinct_count),
            ..Default::default()
        };
        if physical_type == Type::Int96 {
            if column_order == Some(&ColumnOrder::Int96TimestampOrder) {
                out.min = stats.min_value.as_deref().and_then(int96_bound);
                out.max = stats.max_value.as_deref().and_then(int96_bound);
                out.min_exact = out.min.is_some() && stats.is_min_value_exact.unwrap_or(false);
                out.max_exact = out.max.is_some() && stats.is_max_value_exact.unwrap_or(false);
            }
            return out;
        }
        let floating =
            matches!(physical_type, Type::Float | Type::Double) || order == SortOrder::Float16;
        let usable_order = match column_order {
            None | Some(ColumnOrder::TypeDefinedOrder) => true,
            // Under the total order a NaN bound means "all NaN": dropped below like any NaN.
            Some(ColumnOrder::Ieee754TotalOrder) => floating,
            Some(ColumnOrder::Int96TimestampOrder | ColumnOrder::Unknown(_)) => false,
        };
        if !usable_order || !order.is_defined() {
            return out;
        }
        let decode = |b: &Option<Vec<u8>>| {
            b.as_deref()
                .and_then(|b| Scalar::decode(b, physical_type, order))
                .filter(|s| !s.is_nan())
        };
        if column_order.is_some() && (stats.min_value.is_some() || stats.max_value.is_some()) {
            out.min = decode(&stats.min_value);
            out.max = decode(&stats.max_value);
            out.min_exact = out.min.is_some() && stats.is_min_value_exact.unwrap_or(false);
            out.max_exact = out.max.is_some() && stats.is_max_value_exact.unwrap_or(false);
        } else {
            let numeric = matches!(
                physical_type,
                Type::Boolean | Type::Int32 | Type::Int64 | Type::Float | Type::Double
            );
            let equal = stats.min.is_some() && stats.min == stats.max;
            if numeric && (order == SortOrder::Signed || equal) {
                out.min = decode(&stats.min);
                out.max = decode(&stats.max);
            }
        }
        out
    }

    /// Whether min and max are both known.
    pub fn has_min_max(&self) -> bool {
        self.min.is_some() && self.max.is_some()
    }
}

/// A bound of an INT96 column in `INT96_TIMESTAMP_ORDER` (12 PLAIN bytes) as nanoseconds
/// since the epoch, the number predicates compare INT96 values by. That order compares the
/// Julian day as signed, then the nanoseconds of the day as signed: it agrees with the
/// nanoseconds only for days below 2^31 and nanoseconds within a day, so a bound outside
/// those is not used.
pub(crate) fn int96_bound(b: &[u8]) -> Option<Scalar> {
    let w = |i: usize| -> Option<u32> {
        Some(u32::from_le_bytes(
            b.get(4 * i..4 * i + 4)?.try_into().ok()?,
        ))
    };
    if b.len() != 12 {
        return None;
    }
    let v = Int96([w(0)?, w(1)?, w(2)?]);
    let of_day = v.0[0] as u64 | (v.0[1] as u64) << 32;
    (v.0[2] < 1 << 31 && of_day < 86_400_000_000_000).then(|| Scalar::Int(int96_nanos(v)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TYPE: Option<&ColumnOrder> = Some(&ColumnOrder::TypeDefinedOrder);

    fn st() -> Statistics {
        Statistics::default()
    }

    #[test]
    fn prefers_min_value() {
        let s = Statistics {
            min_value: Some(1i32.to_le_bytes().to_vec()),
            max_value: Some(9i32.to_le_bytes().to_vec()),
            min: Some(0i32.to_le_bytes().to_vec()),
            max: Some(0i32.to_le_bytes().to_vec()),
            is_min_value_exact: Some(true),
            null_count: Some(3),
            ..st()
        };
        let c = ColumnStatistics::from_thrift(&s, Type::Int32, SortOrder::Signed, TYPE);
        assert_eq!(c.min, Some(Scalar::Int(1)));
        assert_eq!(c.max, Some(Scalar::Int(9)));
        assert!(c.min_exact && !c.max_exact);
        assert_eq!(c.null_count, Some(3));
        // Without column_orders, min_value/max_value mean nothing; the legacy fields remain.
        let c = ColumnStatistics::from_thrift(&s, Type::Int32, SortOrder::Signed, None);
        assert_eq!((c.min, c.max), (Some(Scalar::Int(0)), Some(Scalar::Int(0))));
    }

    #[test]
    fn deprecated_fields_only_where_signed_comparison_agrees() {
        let s = Statistics {
            min: Some(b"a".to_vec()),
            max: Some(b"z".to_vec()),
            ..st()
        };
        let c = ColumnStatistics::from_thrift(&s, Type::ByteArray, SortOrder::Unsigned, None);
        assert_eq!(c.min, None);
        let s = Statistics {
            min: Some((-1i32).to_le_bytes().to_vec()),
            max: Some(5i32.to_le_bytes().to_vec()),
            ..st()
        };
        let c = ColumnStatistics::from_thrift(&s, Type::Int32, SortOrder::Signed, None);
        assert_eq!(
            (c.min, c.max),
            (Some(Scalar::Int(-1)), Some(Scalar::Int(5)))
        );
        assert!(!c.min_exact);
        let c = ColumnStatistics::from_thrift(&s, Type::Int32, SortOrder::Unsigned, None);
        assert_eq!(c.min, None, "unsigned column with signed legacy stats");
        let eq = Statistics {
            min: Some(5i32.to_le_bytes().to_vec()),
            max: Some(5i32.to_le_bytes().to_vec()),
            ..st()
        };
        let c = ColumnStatistics::from_thrift(&eq, Type::Int32, SortOrder::Unsigned, None);
        assert_eq!(c.min, Some(Scalar::Int(5)));
    }

    #[test]
    fn nan_bounds_are_ignored() {
        let s = Statistics {
            min_value: Some(1.0f64.to_le_bytes().to_vec()),
            max_value: Some(f64::NAN.to_le_bytes().to_vec()),
            ..st()
        };
        let c = ColumnStatistics::from_thrift(&s, Type::Double, SortOrder::Signed, TYPE);
        assert_eq!(c.min, Some(Scalar::Float(1.0)));
        assert_eq!(c.max, None);
        let c = ColumnStatistics::from_thrift(
            &s,
            Type::Double,
            SortOrder::Signed,
            Some(&ColumnOrder::Ieee754TotalOrder),
        );
        assert_eq!(c.max, None);
    }

    #[test]
    fn unknown_orders_drop_bounds() {
        let s = Statistics {
            min_value: Some(1i32.to_le_bytes().to_vec()),
            max_value: Some(2i32.to_le_bytes().to_vec()),
            null_count: Some(-4),
            ..st()
        };
        for order in [ColumnOrder::Unknown(7), ColumnOrder::Ieee754TotalOrder] {
            let c = ColumnStatistics::from_thrift(&s, Type::Int32, SortOrder::Signed, Some(&order));
            assert_eq!(c.min, None);
            assert_eq!(c.null_count, None, "negative counts are dropped");
        }
        let c = ColumnStatistics::from_thrift(&s, Type::Int96, SortOrder::Undefined, TYPE);
        assert_eq!(c.min, None);
    }

    #[test]
    fn wrong_lengths_are_ignored() {
        let s = Statistics {
            min_value: Some(vec![1, 2]),
            max_value: Some(2i64.to_le_bytes().to_vec()),
            ..st()
        };
        let c = ColumnStatistics::from_thrift(&s, Type::Int64, SortOrder::Signed, TYPE);
        assert_eq!((c.min, c.max), (None, Some(Scalar::Int(2))));
    }
}
