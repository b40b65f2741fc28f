//! `#[serde(with = "parquet_serde::core::geo::serde_wkb")]`: a `geo_types` field serialized as
//! its WKB bytes (feature `geo-types`).
//!
//! `geo_types` values have no serde form that is WKB, so a GEOMETRY or GEOGRAPHY column of them
//! needs both attributes: `#[parquet(geometry)]` (or `geography(...)`) for the schema and this
//! module for the values. An `Option` of a geometry takes [`option`].
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
//!     #[serde(with = "parquet_serde::core::geo::serde_wkb::option")]
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

/// Serializes `value` as its WKB bytes.
pub fn serialize<G: WkbGeometry, S: Serializer>(value: &G, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_bytes(&value.to_wkb())
}

/// Deserializes a geometry from WKB bytes.
pub fn deserialize<'de, G: WkbGeometry, D: Deserializer<'de>>(d: D) -> Result<G, D::Error> {
    d.deserialize_byte_buf(WkbVisitor(PhantomData))
}

/// The same for `Option<G>`: `None` is a null.
pub mod option {
    use super::*;

    /// Serializes `Some(g)` as the WKB of `g` and `None` as none.
    pub fn serialize<G: WkbGeometry, S: Serializer>(
        value: &Option<G>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(g) => s.serialize_some(&BytesOf(g.to_wkb())),
            None => s.serialize_none(),
        }
    }

    /// Deserializes a nullable WKB value.
    pub fn deserialize<'de, G: WkbGeometry, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<G>, D::Error> {
        d.deserialize_option(OptionVisitor(PhantomData))
    }

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
            super::deserialize(d).map(Some)
        }
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
