//! WKB scanning on good and hostile bytes, bounds and statistics.

use super::wkb::{self, Dimensions, GeometryKind, GeometryType, MAX_DEPTH};
use super::{bbox_intersects, GeoStatisticsBuilder};
use crate::core::format::BoundingBox;

/// A little-endian WKB writer for tests: header, counts, coordinates.
#[derive(Default)]
struct W(Vec<u8>);

impl W {
    fn head(mut self, code: u32) -> Self {
        self.0.push(1);
        self.0.extend_from_slice(&code.to_le_bytes());
        self
    }
    fn n(mut self, n: u32) -> Self {
        self.0.extend_from_slice(&n.to_le_bytes());
        self
    }
    fn c(mut self, vs: &[f64]) -> Self {
        for v in vs {
            self.0.extend_from_slice(&v.to_le_bytes());
        }
        self
    }
    fn raw(mut self, b: &[u8]) -> Self {
        self.0.extend_from_slice(b);
        self
    }
}

fn point(x: f64, y: f64) -> Vec<u8> {
    W::default().head(1).c(&[x, y]).0
}

#[test]
fn codes_round_trip() {
    for thousands in 0..4u32 {
        for kind in 1..=7u32 {
            let code = thousands * 1000 + kind;
            assert_eq!(GeometryType::from_code(code).unwrap().code(), code);
        }
    }
    for bad in [0, 8, 1000, 4001, 0x2000_0001, 0x8000_0001, u32::MAX] {
        assert!(GeometryType::from_code(bad).is_none(), "{bad}");
    }
}

#[test]
fn scans_every_kind_in_both_byte_orders() {
    let ls = W::default().head(1002).n(2).c(&[1., 2., 3., 4., 5., 6.]).0;
    let s = wkb::scan(&ls).unwrap();
    assert_eq!(s.geometry_type.kind, GeometryKind::LineString);
    assert_eq!(s.geometry_type.dimensions, Dimensions::Xyz);
    assert_eq!(s.coordinates, 2);

    // Big endian POINT M (1 2 3).
    let mut be = vec![0u8];
    be.extend_from_slice(&2001u32.to_be_bytes());
    for v in [1f64, 2., 3.] {
        be.extend_from_slice(&v.to_be_bytes());
    }
    let mut seen = Vec::new();
    let s = wkb::scan_with(&be, |c| seen.push(c)).unwrap();
    assert_eq!(s.geometry_type.code(), 2001);
    assert_eq!(seen.len(), 1);
    assert_eq!((seen[0][0], seen[0][1], seen[0][3]), (1., 2., 3.));
    assert!(seen[0][2].is_nan());

    let poly = W::default()
        .head(3)
        .n(2)
        .n(4)
        .c(&[0., 0., 1., 0., 1., 1., 0., 0.])
        .n(0)
        .0;
    assert_eq!(wkb::scan(&poly).unwrap().coordinates, 4);

    // A collection holding a multipoint (with a big-endian member) and an empty polygon.
    let mut mp = W::default().head(4).n(2).raw(&point(1., 1.)).0;
    mp.push(0);
    mp.extend_from_slice(&1u32.to_be_bytes());
    mp.extend_from_slice(&2f64.to_be_bytes());
    mp.extend_from_slice(&3f64.to_be_bytes());
    let gc = W::default().head(7).n(2).raw(&mp).head(3).n(0).0;
    let s = wkb::scan(&gc).unwrap();
    assert_eq!((s.geometry_type.code(), s.coordinates), (7, 2));
}

#[test]
fn empty_point_has_no_coordinate() {
    let s = wkb::scan(&point(f64::NAN, f64::NAN)).unwrap();
    assert_eq!(s.coordinates, 0);
}

#[test]
fn hostile_bytes_are_errors() {
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", vec![]),
        ("byte order 2", vec![2, 1, 0, 0, 0]),
        ("short type", vec![1, 1, 0]),
        ("type 0", W::default().head(0).0),
        ("type 8", W::default().head(8).0),
        (
            "EWKB Z flag",
            W::default().head(0x8000_0001).c(&[1., 2., 3.]).0,
        ),
        (
            "EWKB SRID flag",
            W::default().head(0x2000_0001).n(4326).c(&[1., 2.]).0,
        ),
        ("short point", W::default().head(1).c(&[1.]).0),
        ("huge point count", W::default().head(2).n(u32::MAX).0),
        (
            "count past end",
            W::default().head(2).n(2).c(&[1., 2., 3.]).0,
        ),
        ("huge ring count", W::default().head(3).n(0x4000_0000).0),
        ("huge member count", W::default().head(7).n(u32::MAX).0),
        (
            "trailing bytes",
            W::default().head(1).c(&[1., 2.]).raw(&[0]).0,
        ),
        (
            "wrong member kind",
            W::default().head(4).n(1).head(2).n(0).0,
        ),
        (
            "wrong member dims",
            W::default().head(4).n(1).head(1001).c(&[1., 2., 3.]).0,
        ),
        (
            "collection member dims",
            W::default().head(7).n(1).head(1001).c(&[1., 2., 3.]).0,
        ),
        (
            "truncated member",
            W::default().head(6).n(1).head(3).n(1).n(3).0,
        ),
    ];
    for (name, bytes) in cases {
        let err = wkb::scan(&bytes).expect_err(name);
        assert!(
            err.message().contains("invalid WKB at byte"),
            "{name}: {err}"
        );
    }
}

#[test]
fn nesting_is_capped() {
    // MAX_DEPTH + 1 collections, one inside the other (the innermost empty).
    let mut bytes = Vec::new();
    for _ in 0..MAX_DEPTH {
        bytes.extend_from_slice(&W::default().head(7).n(1).0);
    }
    bytes.extend_from_slice(&W::default().head(7).n(0).0);
    let err = wkb::scan(&bytes).unwrap_err();
    assert!(err.message().contains("nest"), "{err}");
    // MAX_DEPTH collections are fine.
    let mut bytes = Vec::new();
    for _ in 0..MAX_DEPTH - 1 {
        bytes.extend_from_slice(&W::default().head(7).n(1).0);
    }
    bytes.extend_from_slice(&W::default().head(7).n(0).0);
    wkb::scan(&bytes).unwrap();
}

#[test]
fn every_truncation_of_a_valid_value_is_an_error() {
    let gc = W::default()
        .head(3007)
        .n(2)
        .head(3001)
        .c(&[1., 2., 3., 4.])
        .head(3003)
        .n(1)
        .n(4)
        .c(&[
            0., 0., 0., 0., 1., 0., 0., 0., 1., 1., 0., 0., 0., 0., 0., 0.,
        ])
        .0;
    wkb::scan(&gc).unwrap();
    for len in 0..gc.len() {
        assert!(wkb::scan(&gc[..len]).is_err(), "prefix {len}");
    }
    // Flipping any single byte never panics.
    for i in 0..gc.len() {
        for v in [0u8, 1, 0x7f, 0xff] {
            let mut b = gc.clone();
            b[i] = v;
            let _ = wkb::scan(&b);
        }
    }
}

#[test]
fn statistics_follow_the_nan_and_empty_rules() {
    let mut b = GeoStatisticsBuilder::new();
    assert!(b.finish(true).is_none());
    b.add(&point(f64::NAN, f64::NAN)); // POINT EMPTY: a type, no box
    let s = b.finish(true).unwrap();
    assert!(s.bbox.is_none());
    assert_eq!(s.geospatial_types, Some(vec![1]));

    // POINT (1 NaN) gives x but no y: still no box.
    b.add(&point(1., f64::NAN));
    assert!(b.finish(true).unwrap().bbox.is_none());

    b.add(&W::default().head(3002).n(1).c(&[5., -2., f64::NAN, 7.]).0);
    let s = b.finish(true).unwrap();
    let bbox = s.bbox.unwrap();
    assert_eq!(
        (bbox.xmin, bbox.xmax, bbox.ymin, bbox.ymax),
        (1., 5., -2., -2.)
    );
    assert_eq!((bbox.zmin, bbox.zmax), (None, None));
    assert_eq!((bbox.mmin, bbox.mmax), (Some(7.), Some(7.)));
    assert_eq!(s.geospatial_types, Some(vec![1, 3002]));
    // Without the box (GEOGRAPHY) only the types remain.
    assert!(b.finish(false).unwrap().bbox.is_none());

    b.add(&[1, 2, 3]);
    assert!(b.is_invalid());
    assert!(b.finish(true).is_none());
}

#[test]
fn bbox_test_handles_wraparound_and_nan() {
    let b = BoundingBox {
        xmin: -10.,
        xmax: 10.,
        ymin: -5.,
        ymax: 5.,
        ..Default::default()
    };
    assert!(bbox_intersects(&b, 10., 5., 20., 20.)); // touching corners
    assert!(!bbox_intersects(&b, -10., 5.1, 10., 6.));
    // A query across the antimeridian.
    assert!(bbox_intersects(&b, 170., 0., -5., 1.));
    assert!(!bbox_intersects(&b, 170., 0., -15., 1.));
    assert!(bbox_intersects(&b, f64::NAN, 0., 0., 0.));
}

#[cfg(feature = "geo-types")]
mod geo_types_wkb {
    use geo_types::{
        line_string, point, polygon, Geometry, GeometryCollection, LineString, MultiLineString,
        MultiPoint, MultiPolygon, Point, Polygon, Rect,
    };

    use super::super::wkb;
    use super::super::WkbGeometry;

    fn all() -> Vec<Geometry<f64>> {
        let ls: LineString<f64> =
            line_string![(x: 30., y: 10.), (x: 10., y: 30.), (x: 40., y: 40.)];
        let poly: Polygon<f64> = polygon!(
            exterior: [(x: 35., y: 10.), (x: 45., y: 45.), (x: 15., y: 40.), (x: 35., y: 10.)],
            interiors: [[(x: 20., y: 30.), (x: 35., y: 35.), (x: 30., y: 20.), (x: 20., y: 30.)]],
        );
        vec![
            Geometry::Point(point!(x: 30., y: 10.)),
            Geometry::LineString(ls.clone()),
            Geometry::Polygon(poly.clone()),
            Geometry::MultiPoint(MultiPoint(vec![point!(x: 1., y: 2.), point!(x: 3., y: 4.)])),
            Geometry::MultiLineString(MultiLineString(vec![ls.clone(), LineString(vec![])])),
            Geometry::MultiPolygon(MultiPolygon(vec![poly.clone()])),
            Geometry::GeometryCollection(GeometryCollection(vec![
                Geometry::Point(point!(x: 1., y: 1.)),
                Geometry::GeometryCollection(GeometryCollection(vec![Geometry::LineString(ls)])),
                Geometry::Polygon(Polygon::new(LineString(vec![]), vec![])),
            ])),
        ]
    }

    #[test]
    fn geometries_round_trip_through_wkb() {
        for g in all() {
            let bytes = g.to_wkb();
            let summary = wkb::scan(&bytes).unwrap();
            assert_eq!(Geometry::<f64>::from_wkb(&bytes).unwrap(), g);
            // The variant types read their own kind and refuse the others.
            let code = summary.geometry_type.code();
            assert_eq!(Point::<f64>::from_wkb(&bytes).is_ok(), code == 1, "{g:?}");
            assert_eq!(Polygon::<f64>::from_wkb(&bytes).is_ok(), code == 3, "{g:?}");
        }
    }

    #[test]
    fn known_bytes_and_derived_shapes() {
        // POINT (30 10) as pyarrow's corpus has it.
        let expected = b"\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00>@\x00\x00\x00\x00\x00\x00$@";
        assert_eq!(point!(x: 30., y: 10.).to_wkb(), expected);
        let rect = Geometry::Rect(Rect::new((0., 0.), (1., 2.)));
        let back = Geometry::<f64>::from_wkb(&rect.to_wkb()).unwrap();
        assert!(matches!(back, Geometry::Polygon(p) if p.exterior().0.len() == 5));
    }

    #[test]
    fn z_and_m_and_bad_bytes_are_refused() {
        let mut z = vec![1u8];
        z.extend_from_slice(&1001u32.to_le_bytes());
        for v in [1f64, 2., 3.] {
            z.extend_from_slice(&v.to_le_bytes());
        }
        wkb::scan(&z).unwrap();
        let err = Geometry::<f64>::from_wkb(&z).unwrap_err();
        assert!(err.message().contains("x and y only"), "{err}");
        let good = all()[6].to_wkb();
        for len in 0..good.len() {
            assert!(Geometry::<f64>::from_wkb(&good[..len]).is_err());
        }
        let mut huge = vec![1u8];
        huge.extend_from_slice(&4u32.to_le_bytes());
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        assert!(Geometry::<f64>::from_wkb(&huge).is_err());
    }
}
