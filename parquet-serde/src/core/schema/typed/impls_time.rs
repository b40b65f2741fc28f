//! [`ParquetSchema`] for the `time` crate's dates and times (feature `time`).
//!
//! To serializers that are not human-readable (this crate's) `time` writes tuples of
//! integers: `Date` as `(year, ordinal day)`, `Time` as `(hour, minute, second, nanosecond)`,
//! `PrimitiveDateTime` as the six of both, `OffsetDateTime` as those six and the offset's
//! hours, minutes and seconds. A DATE, TIME or TIMESTAMP leaf takes these tuples (an
//! `OffsetDateTime` is stored as its instant in UTC) and gives them back when `time`'s
//! `Deserialize` asks for a tuple (an `OffsetDateTime` comes back in UTC).

use time::{Date, OffsetDateTime, PrimitiveDateTime, Time};

use crate::core::format::TimeUnit;
use crate::core::schema::SchemaNode;

use super::attrs::FieldAttrs;
use super::markers;
use super::nodes;
use super::ParquetSchema;

/// An instant: TIMESTAMP(MICROS, UTC) unless the field says otherwise.
impl ParquetSchema for OffsetDateTime {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        nodes::timestamp(
            name,
            attrs.timestamp.unwrap_or(TimeUnit::Micros),
            attrs.utc.unwrap_or(true),
        )
    }
}

/// A local date-time: TIMESTAMP(MICROS, not UTC) unless the field says otherwise.
impl ParquetSchema for PrimitiveDateTime {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        nodes::timestamp(
            name,
            attrs.timestamp.unwrap_or(TimeUnit::Micros),
            attrs.utc.unwrap_or(false),
        )
    }
}

/// A date: DATE.
impl ParquetSchema for Date {
    fn parquet_node(name: &str, _attrs: &FieldAttrs) -> SchemaNode {
        nodes::date(name)
    }
}

/// A time of day: TIME(MICROS, not UTC) unless the field says otherwise.
impl ParquetSchema for Time {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        nodes::time(
            name,
            attrs.time.unwrap_or(TimeUnit::Micros),
            attrs.utc.unwrap_or(false),
        )
    }
}

impl markers::SupportsTimestamp for OffsetDateTime {}
impl markers::SupportsTimestamp for PrimitiveDateTime {}
impl markers::SupportsDate for Date {}
impl markers::SupportsTimeMillis for Time {}
impl markers::SupportsTimeMicros for Time {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::format::LogicalType;

    #[test]
    fn time_defaults() {
        let a = FieldAttrs::new();
        let ts = |utc| {
            Some(LogicalType::Timestamp {
                is_adjusted_to_utc: utc,
                unit: TimeUnit::Micros,
            })
        };
        assert_eq!(OffsetDateTime::parquet_node("t", &a).logical_type, ts(true));
        assert_eq!(
            PrimitiveDateTime::parquet_node("t", &a).logical_type,
            ts(false)
        );
        assert_eq!(
            Date::parquet_node("d", &a).logical_type,
            Some(LogicalType::Date)
        );
        assert_eq!(
            Time::parquet_node("t", &a).logical_type,
            Some(LogicalType::Time {
                is_adjusted_to_utc: false,
                unit: TimeUnit::Micros
            })
        );
    }
}
