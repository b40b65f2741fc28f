//! GEOMETRY and GEOGRAPHY columns through the typed API: WKB byte fields and, with feature
//! `geo-types`, `geo_types` geometries; their schema and their GeospatialStatistics.

use parquet_serde::core::file::FileReader;
use parquet_serde::core::schema::{EdgeInterpolationAlgorithm, LogicalType};
use parquet_serde::ParquetSchema;
use serde::{Deserialize, Serialize};

/// Little-endian WKB of POINT (x y).
fn point(x: f64, y: f64) -> Vec<u8> {
    let mut b = vec![1, 1, 0, 0, 0];
    b.extend_from_slice(&x.to_le_bytes());
    b.extend_from_slice(&y.to_le_bytes());
    b
}

/// Little-endian WKB of LINESTRING Z over `pts`.
fn line_z(pts: &[[f64; 3]]) -> Vec<u8> {
    let mut b = vec![1];
    b.extend_from_slice(&1002u32.to_le_bytes());
    b.extend_from_slice(&(pts.len() as u32).to_le_bytes());
    for p in pts {
        for v in p {
            b.extend_from_slice(&v.to_le_bytes());
        }
    }
    b
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Feature {
    id: u32,
    #[parquet(geometry)]
    geom: Vec<u8>,
    #[parquet(geometry(crs = "srid:5070"))]
    #[serde(with = "serde_bytes")]
    projected: Option<Vec<u8>>,
    #[parquet(geography(crs = "OGC:CRS84", algorithm = "karney"))]
    #[serde(with = "serde_bytes")]
    route: Vec<u8>,
}

fn features() -> Vec<Feature> {
    (0..50)
        .map(|i| {
            let f = i as f64;
            Feature {
                id: i,
                geom: point(f, -f),
                projected: (i % 2 == 0).then(|| line_z(&[[f, 1.0, 2.0], [f + 1.0, 3.0, -4.0]])),
                route: point(-170.0 + f, 10.0),
            }
        })
        .collect()
}

#[test]
fn wkb_fields_round_trip_with_their_logical_types() {
    let rows = features();
    let bytes = parquet_serde::to_vec(&rows).unwrap();
    let back: Vec<Feature> = parquet_serde::from_slice(&bytes).unwrap();
    assert_eq!(back, rows);

    let reader = FileReader::new(bytes).unwrap();
    let lt = |i: usize| reader.schema().columns()[i].logical_type.clone();
    assert_eq!(lt(1), Some(LogicalType::Geometry { crs: None }));
    assert_eq!(
        lt(2),
        Some(LogicalType::Geometry {
            crs: Some("srid:5070".into())
        })
    );
    assert_eq!(
        lt(3),
        Some(LogicalType::Geography {
            crs: Some("OGC:CRS84".into()),
            algorithm: Some(EdgeInterpolationAlgorithm::Karney)
        })
    );
    // GeospatialStatistics per chunk: GEOMETRY with its box (z only where the values have
    // it), GEOGRAPHY with the types alone; no min/max (their order is undefined).
    let md = reader.metadata();
    let chunk = |i: usize| {
        let c = md.row_group(0).unwrap().column(i).unwrap();
        assert!(c.has_metadata());
        c
    };
    let geom = chunk(1);
    assert!(geom.has_geospatial_statistics());
    let b = geom.geospatial_bbox().unwrap();
    assert_eq!(
        (b.x.min, b.x.max, b.y.min, b.y.max),
        (0.0, 49.0, -49.0, 0.0)
    );
    assert_eq!((b.z.get(), b.m.get()), (None, None));
    assert_eq!(geom.geospatial_types(), Some(&[1][..]));
    assert!(chunk(1)
        .raw_statistics()
        .is_none_or(|s| s.min_value().is_none() && s.max_value().is_none()));
    let projected = chunk(2);
    assert!(projected.has_geospatial_statistics());
    let b = projected.geospatial_bbox().unwrap();
    assert_eq!((b.x.min, b.x.max, b.y.min, b.y.max), (0.0, 49.0, 1.0, 3.0));
    assert_eq!(b.z.get(), Some((-4.0, 2.0)));
    assert_eq!(projected.geospatial_types(), Some(&[1002][..]));
    let route = chunk(3);
    assert!(route.has_geospatial_statistics());
    assert!(route.geospatial_bbox().is_none());
    assert_eq!(route.geospatial_types(), Some(&[1][..]));

    let text = reader.schema().to_string();
    assert!(text.contains("required binary geom (GEOMETRY);"), "{text}");
    assert!(
        text.contains("required binary route (GEOGRAPHY(OGC:CRS84,KARNEY));"),
        "{text}"
    );
}

#[cfg(feature = "geo-types")]
mod geo_types_fields {
    use super::*;
    use geo_types::{
        line_string, point, polygon, Geometry, LineString, MultiPoint, Point, Polygon,
    };
    use parquet_serde::core::geo::WkbGeometry;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
    struct Place {
        name: String,
        #[parquet(geometry)]
        #[serde(with = "parquet_serde::core::geo::serde_wkb")]
        at: Point<f64>,
        #[parquet(geometry(crs = "OGC:CRS84"))]
        #[serde(with = "parquet_serde::core::geo::serde_wkb")]
        shape: Geometry<f64>,
        #[parquet(geography(algorithm = "spherical"))]
        #[serde(with = "parquet_serde::core::geo::serde_wkb::option")]
        border: Option<Polygon<f64>>,
        #[parquet(geometry)]
        #[serde(with = "parquet_serde::core::geo::serde_wkb")]
        path: LineString<f64>,
    }

    fn places() -> Vec<Place> {
        (0..20)
            .map(|i| {
                let f = i as f64;
                let shape = match i % 3 {
                    0 => Geometry::Point(point!(x: f, y: f)),
                    1 => Geometry::MultiPoint(MultiPoint(vec![
                        point!(x: f, y: 0.),
                        point!(x: 0., y: f),
                    ])),
                    _ => Geometry::LineString(line_string![(x: f, y: 1.), (x: 2., y: f)]),
                };
                Place {
                    name: format!("p{i}"),
                    at: point!(x: f, y: -f),
                    shape,
                    border: (i % 4 != 0).then(
                        || polygon![(x: 0., y: 0.), (x: f, y: 0.), (x: f, y: f), (x: 0., y: 0.)],
                    ),
                    path: line_string![(x: 0., y: 0.), (x: f, y: f)],
                }
            })
            .collect()
    }

    #[test]
    fn geo_types_round_trip_as_wkb() {
        let rows = places();
        let bytes = parquet_serde::to_vec(&rows).unwrap();
        let back: Vec<Place> = parquet_serde::from_slice(&bytes).unwrap();
        assert_eq!(back, rows);

        let reader = FileReader::new(bytes.clone()).unwrap();
        let cols = reader.schema().columns();
        assert_eq!(
            cols[1].logical_type,
            Some(LogicalType::Geometry { crs: None })
        );
        assert!(matches!(
            cols[3].logical_type,
            Some(LogicalType::Geography {
                algorithm: Some(EdgeInterpolationAlgorithm::Spherical),
                ..
            })
        ));
        // The column holds WKB: read as bytes it is what `to_wkb` writes.
        #[derive(Deserialize)]
        struct Raw {
            #[serde(with = "serde_bytes")]
            at: Vec<u8>,
        }
        let raw: Vec<Raw> = parquet_serde::from_slice(&bytes).unwrap();
        for (r, p) in raw.iter().zip(&rows) {
            assert_eq!(r.at, p.at.to_wkb());
        }
    }

    #[test]
    fn a_wrong_kind_is_an_error_naming_the_field() {
        #[derive(Serialize, ParquetSchema)]
        struct Out {
            #[parquet(geometry)]
            #[serde(with = "serde_bytes")]
            g: Vec<u8>,
        }
        #[derive(Debug, Deserialize)]
        struct In {
            #[serde(with = "parquet_serde::core::geo::serde_wkb")]
            #[allow(dead_code)]
            g: Point<f64>,
        }
        let bytes = parquet_serde::to_vec(&[Out {
            g: line_z(&[[1.0, 2.0, 3.0]]),
        }])
        .unwrap();
        let err = parquet_serde::from_slice::<In>(&bytes).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("x and y only") && msg.contains("column g"),
            "{msg}"
        );
    }
}

#[test]
fn a_bbox_predicate_prunes_row_groups_by_their_geospatial_statistics() {
    // 5 row groups of 10 points each: group g holds x in [10g, 10g + 9], y = -x.
    let rows = features();
    let options = parquet_serde::WriterOptions::default().row_group_rows(10);
    let bytes = parquet_serde::to_vec_with(&rows, options).unwrap();
    let reader = FileReader::new(bytes).unwrap();
    assert_eq!(reader.metadata().num_row_groups(), 5);

    // x in [12, 23.5], y in [-30, 0]: points 12..=23 of groups 1 and 2.
    let filter = reader
        .filter(parquet_serde::col("geom").intersects_bbox(12.0, -30.0, 23.5, 0.0))
        .unwrap();
    let selection = filter.select().unwrap();
    assert_eq!(selection.report.row_groups, 5);
    assert_eq!(selection.report.pruned_by_statistics, 3);
    assert_eq!(selection.report.rows_selected, 12);
    let picked: Vec<usize> = selection.row_groups.iter().map(|(rg, _)| *rg).collect();
    assert_eq!(picked, vec![1, 2]);
    let ids: Vec<i64> = filter
        .read_rows(&["id"])
        .unwrap()
        .iter()
        .map(|v| serde_json::to_value(v).unwrap()["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, (12..=23).collect::<Vec<_>>());

    // A box no chunk meets prunes everything; the negation keeps everything.
    let none = reader
        .filter(parquet_serde::col("geom").intersects_bbox(100.0, 0.0, 200.0, 1.0))
        .unwrap()
        .select()
        .unwrap();
    assert_eq!(none.report.pruned_by_statistics, 5);
    assert_eq!(none.row_count(), 0);
    let all = reader
        .filter(!parquet_serde::col("geom").intersects_bbox(100.0, 0.0, 200.0, 1.0))
        .unwrap()
        .select()
        .unwrap();
    assert_eq!(all.row_count(), 50);

    // Only geospatial columns take the test.
    let err = reader
        .filter(parquet_serde::col("id").intersects_bbox(0.0, 0.0, 1.0, 1.0))
        .unwrap_err();
    assert!(err.to_string().contains("GEOMETRY or GEOGRAPHY"), "{err}");
}
