//! GEOMETRY and GEOGRAPHY values: Well-Known Binary (WKB), bounding boxes and geospatial
//! statistics.
//!
//! The two logical types annotate `BYTE_ARRAY` columns whose values are ISO WKB (the OGC
//! Simple Features encoding with XY, XYZ, XYM and XYZM coordinates, in either byte order).
//! The crate reads such values without trusting them (every count is checked against the
//! bytes left, nesting is capped, no panic on any input) and accumulates their bounding
//! boxes and type codes into the `GeospatialStatistics` of a column chunk. With feature
//! `geo-types`, this module converts `geo_types` values to and from WKB (`WkbGeometry`, and
//! `serde_wkb` for `#[serde(with)]`).

mod bounds;
#[cfg(feature = "geo-types")]
mod geo_types_wkb;
#[cfg(feature = "geo-types")]
pub mod serde_wkb;
pub(crate) mod stats;
#[cfg(test)]
mod tests;
pub(crate) mod wkb;

pub use bounds::{AxisRange, Bounds};
#[cfg(feature = "geo-types")]
pub use geo_types_wkb::WkbGeometry;
pub(crate) use stats::{bbox_intersects, usable_bbox, GeoStatisticsBuilder};

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn module_example() -> crate::Result<()> {
        use crate::core::geo::{wkb, GeoStatisticsBuilder};

        // POINT (30 10), little endian.
        let mut point = vec![1, 1, 0, 0, 0];
        point.extend_from_slice(&30f64.to_le_bytes());
        point.extend_from_slice(&10f64.to_le_bytes());
        let summary = wkb::scan(&point)?;
        assert_eq!(summary.geometry_type.code(), 1);

        let mut stats = GeoStatisticsBuilder::new();
        stats.add(&point);
        let stats = stats.finish(true).unwrap();
        let bbox = stats.bbox.unwrap();
        assert_eq!(
            (bbox.xmin, bbox.xmax, bbox.ymin, bbox.ymax),
            (30.0, 30.0, 10.0, 10.0)
        );
        assert_eq!(stats.geospatial_types, Some(vec![1]));
        Ok(())
    }
}
