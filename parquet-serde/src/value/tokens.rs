//! The private serde protocol between the row assembler (`de/`) and [`Value`](super::Value)'s
//! `Deserialize`: the names by which `Value` asks for a value in full fidelity and by which
//! the assembler answers with logical values and MAPs. It sits here, beside `Value`, the
//! lowest layer that needs it: `de/` (above) imports it from here.

use crate::core::format::TimeUnit;

/// The newtype-struct name by which [`Value`](super::Value)'s `Deserialize` asks for the value in full
/// fidelity (logical types kept).
pub(crate) const VALUE_TOKEN: &str = "$parquet_serde::private::Value";

/// Name of the variant by which a MAP reaches [`Value`](super::Value)'s visitor: a newtype variant holding
/// the sequence of `(key, value)` pairs.
pub(crate) const MAP_TAG: &str = "$parquet_serde::Map";

/// Variant names by which logical values reach [`Value`](super::Value)'s visitor in full fidelity, each a
/// tuple variant of the listed scalars.
pub(crate) mod tags {
    /// `[days: i32]`.
    pub const DATE: &str = "$parquet_serde::Date";
    /// `[value: i64, unit: i64 (thrift field id: 1 ms, 2 µs, 3 ns)]`.
    pub const TIME: &str = "$parquet_serde::Time";
    /// `[value: i64, unit: i64, utc: bool]`.
    pub const TIMESTAMP: &str = "$parquet_serde::Timestamp";
    /// `[unscaled: bytes (big-endian), scale: i64]`.
    pub const DECIMAL: &str = "$parquet_serde::Decimal";
    /// `[bytes: 16 bytes]`.
    pub const UUID: &str = "$parquet_serde::Uuid";
    /// `[w0: i64, w1: i64, w2: i64]` (the three u32 words).
    pub const INT96: &str = "$parquet_serde::Int96";
    /// `[value: f32]`.
    pub const FLOAT16: &str = "$parquet_serde::Float16";
}

/// The thrift field id of a time unit (how [`tags`] carry units).
pub(crate) fn unit_id(unit: TimeUnit) -> i64 {
    match unit {
        TimeUnit::Millis => 1,
        TimeUnit::Micros => 2,
        TimeUnit::Nanos => 3,
        TimeUnit::Unknown(id) => id as i64,
    }
}
