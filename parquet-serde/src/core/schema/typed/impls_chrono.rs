//! [`ParquetSchema`] for chrono's date and time types (feature `chrono`).
//!
//! chrono serializes these as text (RFC 3339 and ISO 8601 forms); the serializer parses the
//! text that arrives at a TIMESTAMP, DATE or TIME leaf into the leaf's integer, and the
//! deserializer formats it back when chrono's `Deserialize` asks for a string.

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, TimeZone};

use crate::core::format::TimeUnit;
use crate::core::schema::SchemaNode;

use super::attrs::FieldAttrs;
use super::markers;
use super::nodes;
use super::ParquetSchema;

/// An instant: TIMESTAMP(MICROS, UTC) unless the field says otherwise. An offset other than
/// UTC is not stored (the value is normalized to UTC).
impl<Tz: TimeZone> ParquetSchema for DateTime<Tz> {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        nodes::timestamp(
            name,
            attrs.timestamp.unwrap_or(TimeUnit::Micros),
            attrs.utc.unwrap_or(true),
        )
    }
}

/// A local date-time: TIMESTAMP(MICROS, not UTC) unless the field says otherwise.
impl ParquetSchema for NaiveDateTime {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        nodes::timestamp(
            name,
            attrs.timestamp.unwrap_or(TimeUnit::Micros),
            attrs.utc.unwrap_or(false),
        )
    }
}

/// A date: DATE.
impl ParquetSchema for NaiveDate {
    fn parquet_node(name: &str, _attrs: &FieldAttrs) -> SchemaNode {
        nodes::date(name)
    }
}

/// A time of day: TIME(MICROS, not UTC) unless the field says otherwise.
impl ParquetSchema for NaiveTime {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        nodes::time(
            name,
            attrs.time.unwrap_or(TimeUnit::Micros),
            attrs.utc.unwrap_or(false),
        )
    }
}

impl<Tz: TimeZone> markers::SupportsTimestamp for DateTime<Tz> {}
impl markers::SupportsTimestamp for NaiveDateTime {}
impl markers::SupportsDate for NaiveDate {}
impl markers::SupportsTimeMillis for NaiveTime {}
impl markers::SupportsTimeMicros for NaiveTime {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::format::{ConvertedType, LogicalType, Type};
    use crate::core::schema::NodeKind;

    #[test]
    fn chrono_defaults() {
        let a = FieldAttrs::new();
        let n = <DateTime<chrono::Utc>>::parquet_node("t", &a);
        assert_eq!(
            n.logical_type,
            Some(LogicalType::Timestamp {
                is_adjusted_to_utc: true,
                unit: TimeUnit::Micros
            })
        );
        let n = NaiveDateTime::parquet_node("t", &a);
        assert_eq!(
            n.logical_type,
            Some(LogicalType::Timestamp {
                is_adjusted_to_utc: false,
                unit: TimeUnit::Micros
            })
        );
        assert_eq!(n.converted_type, Some(ConvertedType::TimestampMicros));
        let n = NaiveDate::parquet_node("d", &a);
        assert_eq!(n.logical_type, Some(LogicalType::Date));
        let n = NaiveTime::parquet_node("t", &a);
        assert!(matches!(
            n.kind,
            NodeKind::Primitive {
                physical_type: Type::Int64,
                ..
            }
        ));
        let mut millis = FieldAttrs::new();
        millis.time = Some(TimeUnit::Millis);
        let n = NaiveTime::parquet_node("t", &millis);
        assert!(matches!(
            n.kind,
            NodeKind::Primitive {
                physical_type: Type::Int32,
                ..
            }
        ));
        assert_eq!(n.converted_type, Some(ConvertedType::TimeMillis));
    }
}
