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
//!     #[serde(with = "parquet_serde::zoned_utc")]
//!     ended: Option<Zoned>, // optional int64 ended (TIMESTAMP(MICROS,true))
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

/// Serializes `value` (a `Zoned`, or an `Option<Zoned>`: `None` as a null) as its
/// instant.
pub fn serialize<T: ZonedValue, S: Serializer>(
    value: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    value.serialize_instant(serializer)
}

/// Deserializes an instant as a `Zoned` in UTC (for an `Option<Zoned>`, a null as `None`).
pub fn deserialize<'de, T: ZonedValue, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    T::deserialize_instant(deserializer)
}

/// The old spelling for `Option<Zoned>` fields: the functions above serve both.
#[doc(hidden)]
pub mod option {
    pub use super::{deserialize, serialize};
}

mod sealed {
    use super::*;

    /// What [`serialize`](super::serialize) and [`deserialize`](super::deserialize) take:
    /// `Zoned` and `Option<Zoned>` (sealed: not nameable outside this module).
    pub trait ZonedValue: Sized {
        /// Serializes the value as its instant.
        fn serialize_instant<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error>;
        /// Deserializes an instant in UTC.
        fn deserialize_instant<'de, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<Self, D::Error>;
    }

    impl ZonedValue for Zoned {
        fn serialize_instant<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            self.timestamp().serialize(serializer)
        }
        fn deserialize_instant<'de, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<Self, D::Error> {
            Timestamp::deserialize(deserializer).map(|t| t.to_zoned(TimeZone::UTC))
        }
    }

    impl ZonedValue for Option<Zoned> {
        fn serialize_instant<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            self.as_ref().map(Zoned::timestamp).serialize(serializer)
        }
        fn deserialize_instant<'de, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<Self, D::Error> {
            Option::<Timestamp>::deserialize(deserializer)
                .map(|t| t.map(|t| t.to_zoned(TimeZone::UTC)))
        }
    }
}
use sealed::ZonedValue;
