//! [`ParquetSchema`] for `jiff`'s dates and times (feature `jiff`).
//!
//! jiff serializes as text (ISO 8601 / RFC 3339, `Zoned` with its time zone in brackets);
//! the serializer parses it into the leaf's integer (a `Zoned` is stored as its instant in
//! UTC; its time zone is not kept) and the deserializer formats it back. A plain `Zoned`
//! cannot be read back (jiff's text needs the time zone, which the column does not hold):
//! give the field `#[serde(with = "parquet_serde::zoned_utc")]` to read it in UTC, or read
//! the column as a `jiff::Timestamp` and attach a zone.

use jiff::civil::{Date, DateTime, Time};
use jiff::{Timestamp, Zoned};

use crate::core::format::TimeUnit;
use crate::core::schema::SchemaNode;

use super::attrs::FieldAttrs;
use super::markers;
use super::nodes;
use super::ParquetSchema;

/// TIMESTAMP in `unit` (micros unless the field says otherwise), adjusted to UTC unless the
/// field says otherwise.
fn instant(name: &str, attrs: &FieldAttrs) -> SchemaNode {
    nodes::timestamp(
        name,
        attrs.timestamp.unwrap_or(TimeUnit::Micros),
        attrs.utc.unwrap_or(true),
    )
}

/// An instant: TIMESTAMP(MICROS, UTC) unless the field says otherwise.
impl ParquetSchema for Timestamp {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        instant(name, attrs)
    }
}

/// An instant in a time zone, stored as the instant: TIMESTAMP(MICROS, UTC) unless the field
/// says otherwise. Written only (see the module docs).
impl ParquetSchema for Zoned {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        instant(name, attrs)
    }
}

/// A civil date-time: TIMESTAMP(MICROS, not UTC) unless the field says otherwise.
impl ParquetSchema for DateTime {
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

impl markers::SupportsTimestamp for Timestamp {}
impl markers::SupportsTimestamp for Zoned {}
impl markers::SupportsTimestamp for DateTime {}
impl markers::SupportsDate for Date {}
impl markers::SupportsTimeMillis for Time {}
impl markers::SupportsTimeMicros for Time {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::format::LogicalType;

    #[test]
    fn jiff_defaults() {
        let a = FieldAttrs::new();
        let ts = |utc| {
            Some(LogicalType::Timestamp {
                is_adjusted_to_utc: utc,
                unit: TimeUnit::Micros,
            })
        };
        assert_eq!(Timestamp::parquet_node("t", &a).logical_type, ts(true));
        assert_eq!(Zoned::parquet_node("t", &a).logical_type, ts(true));
        assert_eq!(DateTime::parquet_node("t", &a).logical_type, ts(false));
        assert_eq!(
            Date::parquet_node("d", &a).logical_type,
            Some(LogicalType::Date)
        );
    }
}
