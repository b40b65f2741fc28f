//! [`ParquetSchema`] for `geo_types` geometries (feature `geo-types`): a `BYTE_ARRAY`
//! GEOMETRY (or, with `#[parquet(geography(...))]`, GEOGRAPHY) column of WKB values.
//!
//! The values reach the column as WKB through
//! `#[serde(with = "parquet_serde::core::geo::serde_wkb")]`.

use geo_types::{
    Geometry, GeometryCollection, LineString, MultiLineString, MultiPoint, MultiPolygon, Point,
    Polygon,
};

use crate::core::schema::SchemaNode;

use super::attrs::{FieldAttrs, GeoSpec};
use super::markers;
use super::nodes;
use super::ParquetSchema;

macro_rules! geo_leaf {
    ($($ty:ident),*) => {$(
        /// `BYTE_ARRAY` GEOMETRY (the default CRS) unless the field says otherwise.
        impl ParquetSchema for $ty<f64> {
            fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
                nodes::geo(name, attrs.geo.unwrap_or(GeoSpec::GEOMETRY))
            }
        }

        impl markers::SupportsGeo for $ty<f64> {}
    )*};
}

geo_leaf!(
    Geometry,
    Point,
    LineString,
    Polygon,
    MultiPoint,
    MultiLineString,
    MultiPolygon,
    GeometryCollection
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::format::{EdgeInterpolationAlgorithm, LogicalType, Type};
    use crate::core::schema::NodeKind;

    #[test]
    fn geometry_nodes() {
        let n = Point::<f64>::parquet_node("p", &FieldAttrs::new());
        assert_eq!(n.logical_type, Some(LogicalType::Geometry { crs: None }));
        assert!(matches!(
            n.kind,
            NodeKind::Primitive {
                physical_type: Type::ByteArray,
                ..
            }
        ));
        let mut a = FieldAttrs::new();
        a.geo = Some(GeoSpec::geography(
            Some("srid:4326"),
            Some(EdgeInterpolationAlgorithm::Vincenty),
        ));
        let n = <Option<Geometry<f64>>>::parquet_node("g", &a);
        assert_eq!(
            n.logical_type,
            Some(LogicalType::Geography {
                crs: Some("srid:4326".into()),
                algorithm: Some(EdgeInterpolationAlgorithm::Vincenty)
            })
        );
        assert_eq!(n.converted_type, None);
    }
}
