//! The `LogicalType` union and its members.

use super::EdgeInterpolationAlgorithm;

/// Unit of TIME and TIMESTAMP logical types (`TimeUnit` union).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeUnit {
    /// Milliseconds.
    Millis,
    /// Microseconds.
    Micros,
    /// Nanoseconds.
    Nanos,
    /// A union member this library does not know (its field id).
    Unknown(i16),
}

/// Logical type annotation of a schema element (`LogicalType` union in parquet.thrift).
///
/// Union members with no fields are unit variants. A member this library does not know
/// is kept as `Unknown(field_id)`; readers then read the column as its physical type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LogicalType {
    /// UTF-8 string (`STRING`, id 1).
    String,
    /// Map (`MAP`, id 2).
    Map,
    /// List (`LIST`, id 3).
    List,
    /// Enum string (`ENUM`, id 4).
    Enum,
    /// Decimal (`DECIMAL`, id 5).
    Decimal {
        /// Digits after the decimal point.
        scale: i32,
        /// Total digits.
        precision: i32,
    },
    /// Days since the Unix epoch (`DATE`, id 6).
    Date,
    /// Time of day (`TIME`, id 7).
    Time {
        /// Whether the value is normalized to UTC.
        is_adjusted_to_utc: bool,
        /// Unit.
        unit: TimeUnit,
    },
    /// Instant or local date-time (`TIMESTAMP`, id 8).
    Timestamp {
        /// Whether the value is an instant (UTC) rather than a local date-time.
        is_adjusted_to_utc: bool,
        /// Unit.
        unit: TimeUnit,
    },
    /// Integer with a bit width and signedness (`INTEGER`, id 10).
    Integer {
        /// 8, 16, 32 or 64.
        bit_width: i8,
        /// Signed or unsigned.
        is_signed: bool,
    },
    /// Always-null column (`UNKNOWN` / NullType, id 11).
    Null,
    /// JSON document (`JSON`, id 12).
    Json,
    /// BSON document (`BSON`, id 13).
    Bson,
    /// UUID in 16 bytes (`UUID`, id 14).
    Uuid,
    /// IEEE half precision in 2 bytes (`FLOAT16`, id 15).
    Float16,
    /// Variant (`VARIANT`, id 16).
    Variant {
        /// Version of the variant specification.
        specification_version: Option<i8>,
    },
    /// Geometry in WKB (`GEOMETRY`, id 17).
    Geometry {
        /// Coordinate reference system (default `OGC:CRS84`).
        crs: Option<String>,
    },
    /// Geography in WKB (`GEOGRAPHY`, id 18).
    Geography {
        /// Coordinate reference system (default `OGC:CRS84`).
        crs: Option<String>,
        /// Edge interpolation (default spherical).
        algorithm: Option<EdgeInterpolationAlgorithm>,
    },
    /// Fixed-size vector (`VECTOR`, id 19).
    Vector,
    /// A union member this library does not know (its field id).
    Unknown(i16),
}
