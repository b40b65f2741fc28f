//! `#[serde(with = "parquet_serde::core::geo::serde_wkb")]`: a `geo_types` field serialized as
//! its WKB bytes (feature `geo-types`).
//!
//! `geo_types` values have no serde form that is WKB, so a GEOMETRY or GEOGRAPHY column of them
//! needs both attributes: `#[parquet(geometry)]` (or `geography(...)`) for the schema and this
//! module for the values, for a geometry and an `Option` of one alike.
//!
//! ```
//! use geo_types::{point, Geometry, Point};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, parquet_serde::ParquetSchema, PartialEq, Debug)]
//! struct Place {
//!     name: String,
//!     #[parquet(geometry)]
//!     #[serde(with = "parquet_serde::core::geo::serde_wkb")]
//!     location: Point<f64>,
//!     #[parquet(geography(crs = "OGC:CRS84", algorithm = "spherical"))]
//!     #[serde(with = "parquet_serde::core::geo::serde_wkb")]
//!     area: Option<Geometry<f64>>,
//! }
//!
//! let rows = vec![Place { name: "a".into(), location: point!(x: 1.0, y: 2.0), area: None }];
//! let bytes = parquet_serde::to_vec(&rows)?;
//! assert_eq!(parquet_serde::from_slice::<Place>(&bytes)?, rows);
//! # Ok::<(), parquet_serde::Error>(())
//! ```

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, SeqAccess, Visitor};
use serde::{Deserializer, Serializer};

use super::WkbGeometry;

/// Serializes `value` (a geometry, or an `Option` of one: `None` as a null) as its WKB
/// bytes.
pub fn serialize<T: WkbValue, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    value.serialize_wkb(s)
}

/// Deserializes a geometry from WKB bytes (for an `Option` of one, a null as `None`).
pub fn deserialize<'de, T: WkbValue, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    T::deserialize_wkb(d)
}

/// The old spelling for `Option` fields: the functions above serve both.
#[doc(hidden)]
pub mod option {
    pub use super::{deserialize, serialize};
}

mod sealed {
    use super::*;

    /// What [`serialize`](super::serialize) and [`deserialize`](super::deserialize) take:
    /// a [`WkbGeometry`] and an `Option` of one (sealed: not nameable outside this module).
    pub trait WkbValue: Sized {
        /// Serializes the value as its WKB bytes.
        fn serialize_wkb<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error>;
        /// Deserializes the value from WKB bytes.
        fn deserialize_wkb<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
    }

    impl<G: WkbGeometry> WkbValue for G {
        fn serialize_wkb<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(&self.to_wkb())
        }
        fn deserialize_wkb<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_byte_buf(WkbVisitor(PhantomData))
        }
    }

    impl<G: WkbGeometry> WkbValue for Option<G> {
        fn serialize_wkb<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match self {
                Some(g) => s.serialize_some(&BytesOf(g.to_wkb())),
                None => s.serialize_none(),
            }
        }
        fn deserialize_wkb<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_option(OptionVisitor(PhantomData))
        }
    }
}
use sealed::WkbValue;

struct OptionVisitor<G>(PhantomData<G>);

impl<'de, G: WkbGeometry> Visitor<'de> for OptionVisitor<G> {
    type Value = Option<G>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("WKB bytes or null")
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        G::deserialize_wkb(d).map(Some)
    }
}

/// Bytes that serialize with `serialize_bytes` (a `Vec<u8>` alone would be a sequence).
struct BytesOf(Vec<u8>);

impl serde::Serialize for BytesOf {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

struct WkbVisitor<G>(PhantomData<G>);

impl<'de, G: WkbGeometry> Visitor<'de> for WkbVisitor<G> {
    type Value = G;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("WKB bytes")
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<G, E> {
        G::from_wkb(v).map_err(|e| E::custom(e.message()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<G, A::Error> {
        // Some formats hand bytes over as a sequence of u8; the hint bounds nothing, so it
        // is capped.
        let mut bytes = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(b) = seq.next_element::<u8>()? {
            bytes.push(b);
        }
        self.visit_bytes(&bytes)
    }
}
