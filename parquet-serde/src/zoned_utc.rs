//! `jiff::Zoned` stored as its instant in a TIMESTAMP column and read back in UTC: use this
//! module with serde's `with` (feature `jiff`).
//!
//! A TIMESTAMP column holds an instant, not a time zone, and jiff's own `Zoned` text needs
//! one, so a plain `Zoned` field can be written but not read. With this module the field
//! is written as [`jiff::Timestamp`] is (TIMESTAMP(MICROS, UTC) unless `#[parquet(...)]`
//! says otherwise) and read back as that instant in UTC; attach the zone you need with
//! `Zoned::with_time_zone`.
//!
//! ```
//! use jiff::{tz::TimeZone, Zoned};
//! use parquet_serde::ParquetSchema;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
//! struct Meeting {
//!     #[serde(with = "parquet_serde::zoned_utc")]
//!     at: Zoned, // required int64 at (TIMESTAMP(MICROS,true))
//!     #[serde(with = "parquet_serde::zoned_utc::option")]
//!     ended: Option<Zoned>,
//! }
//!
//! let at: Zoned = "2026-11-24T09:30:00-05:00[-05:00]".parse().unwrap();
//! let bytes = parquet_serde::to_vec(&[Meeting { at: at.clone(), ended: None }])?;
//! let back: Vec<Meeting> = parquet_serde::from_slice(&bytes)?;
//! assert_eq!(back[0].at.timestamp(), at.timestamp()); // the same instant,
//! assert_eq!(back[0].at.time_zone(), &TimeZone::UTC); // in UTC
//! assert_eq!(back[0].at.with_time_zone(at.time_zone().clone()), at);
//! assert_eq!(back[0].ended, None);
//! # Ok::<(), parquet_serde::Error>(())
//! ```

use jiff::tz::TimeZone;
use jiff::{Timestamp, Zoned};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Serializes `value` as its instant.
pub fn serialize<S: Serializer>(value: &Zoned, serializer: S) -> Result<S::Ok, S::Error> {
    value.timestamp().serialize(serializer)
}

/// Deserializes an instant as a `Zoned` in UTC.
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Zoned, D::Error> {
    Timestamp::deserialize(deserializer).map(|t| t.to_zoned(TimeZone::UTC))
}

/// The same for `Option`s.
pub mod option {
    use super::*;

    /// Serializes `Some(value)` as its instant, `None` as a null.
    pub fn serialize<S: Serializer>(
        value: &Option<Zoned>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        value.as_ref().map(Zoned::timestamp).serialize(serializer)
    }

    /// Deserializes a null as `None`, an instant as `Some` `Zoned` in UTC.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Zoned>, D::Error> {
        Option::<Timestamp>::deserialize(deserializer).map(|t| t.map(|t| t.to_zoned(TimeZone::UTC)))
    }
}
