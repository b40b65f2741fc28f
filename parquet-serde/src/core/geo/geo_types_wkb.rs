//! `geo_types` values to and from WKB (feature `geo-types`).
//!
//! Written WKB is little endian, XY (`geo_types` coordinates have x and y only). `Line`,
//! `Rect` and `Triangle` inside a `Geometry` are written as the line string and polygons they
//! are. Reading accepts either byte order and refuses Z and M coordinates, which `geo_types`
//! cannot hold, rather than dropping them.

use geo_types::{
    Coord, Geometry, GeometryCollection, LineString, MultiLineString, MultiPoint, MultiPolygon,
    Point, Polygon,
};

use crate::error::Result;

use super::wkb::{wkb_error, Cursor, Dimensions, GeometryKind, MAX_DEPTH};

/// A `geo_types` geometry that is written as and read from one WKB value.
///
/// ```
/// use geo_types::{point, Geometry};
/// use parquet_serde::core::geo::WkbGeometry;
///
/// let p = point!(x: 30.0, y: 10.0);
/// let wkb = p.to_wkb();
/// assert_eq!(wkb.len(), 21);
/// assert_eq!(Geometry::<f64>::from_wkb(&wkb)?, Geometry::Point(p));
/// # Ok::<(), parquet_serde::Error>(())
/// ```
pub trait WkbGeometry: Sized {
    /// Appends the WKB of `self` to `out`.
    fn write_wkb(&self, out: &mut Vec<u8>);

    /// The WKB of `self`.
    fn to_wkb(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_wkb(&mut out);
        out
    }

    /// Reads one WKB value (every byte of `bytes`), which must be of this type's kind.
    fn from_wkb(bytes: &[u8]) -> Result<Self>;
}

fn header(out: &mut Vec<u8>, kind: GeometryKind) {
    out.push(1);
    out.extend_from_slice(&(kind as u32).to_le_bytes());
}

fn count(out: &mut Vec<u8>, n: usize) {
    // A geometry with more than u32::MAX parts cannot be held in memory as geo_types anyway
    // (each part is at least 16 bytes), so this never saturates in practice.
    out.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
}

fn coord(out: &mut Vec<u8>, c: Coord<f64>) {
    out.extend_from_slice(&c.x.to_le_bytes());
    out.extend_from_slice(&c.y.to_le_bytes());
}

fn coords(out: &mut Vec<u8>, cs: &[Coord<f64>]) {
    count(out, cs.len());
    for &c in cs {
        coord(out, c);
    }
}

fn write_point(out: &mut Vec<u8>, p: &Point<f64>) {
    header(out, GeometryKind::Point);
    coord(out, p.0);
}

fn write_line_string(out: &mut Vec<u8>, l: &LineString<f64>) {
    header(out, GeometryKind::LineString);
    coords(out, &l.0);
}

fn write_polygon(out: &mut Vec<u8>, p: &Polygon<f64>) {
    header(out, GeometryKind::Polygon);
    // An empty exterior is POLYGON EMPTY: no rings at all.
    if p.exterior().0.is_empty() && p.interiors().is_empty() {
        count(out, 0);
        return;
    }
    count(out, 1 + p.interiors().len());
    coords(out, &p.exterior().0);
    for ring in p.interiors() {
        coords(out, &ring.0);
    }
}

fn write_geometry(out: &mut Vec<u8>, g: &Geometry<f64>) {
    match g {
        Geometry::Point(p) => write_point(out, p),
        Geometry::Line(l) => {
            header(out, GeometryKind::LineString);
            coords(out, &[l.start, l.end]);
        }
        Geometry::LineString(l) => write_line_string(out, l),
        Geometry::Polygon(p) => write_polygon(out, p),
        Geometry::MultiPoint(m) => m.write_wkb(out),
        Geometry::MultiLineString(m) => m.write_wkb(out),
        Geometry::MultiPolygon(m) => m.write_wkb(out),
        Geometry::GeometryCollection(c) => c.write_wkb(out),
        Geometry::Rect(r) => write_polygon(out, &r.to_polygon()),
        Geometry::Triangle(t) => write_polygon(out, &t.to_polygon()),
    }
}

/// Reads one geometry at the cursor: byte order, type (XY only) and body.
fn read_geometry(cur: &mut Cursor, depth: usize) -> Result<Geometry<f64>> {
    let start = cur.pos;
    let little = cur.byte_order()?;
    let ty = cur.geometry_type(little)?;
    if ty.dimensions != Dimensions::Xy {
        return Err(wkb_error(
            format!(
                "type code {}: geo_types holds x and y only, not {:?} coordinates",
                ty.code(),
                ty.dimensions
            ),
            start,
        ));
    }
    let point = |cur: &mut Cursor| -> Result<Coord<f64>> {
        let c = cur.coordinate(little, Dimensions::Xy)?;
        Ok(Coord { x: c[0], y: c[1] })
    };
    let line = |cur: &mut Cursor| -> Result<LineString<f64>> {
        let n = cur.count(little, 16, "points")?;
        let mut cs = Vec::with_capacity(n);
        for _ in 0..n {
            cs.push(point(cur)?);
        }
        Ok(LineString(cs))
    };
    let members = |cur: &mut Cursor| cur.count(little, 9, "members");
    Ok(match ty.kind {
        GeometryKind::Point => Geometry::Point(Point(point(cur)?)),
        GeometryKind::LineString => Geometry::LineString(line(cur)?),
        GeometryKind::Polygon => {
            let n = cur.count(little, 4, "rings")?;
            let mut rings = Vec::with_capacity(n);
            for _ in 0..n {
                rings.push(line(cur)?);
            }
            let mut rings = rings.into_iter();
            let exterior = rings.next().unwrap_or_else(|| LineString(Vec::new()));
            Geometry::Polygon(Polygon::new(exterior, rings.collect()))
        }
        GeometryKind::MultiPoint => {
            let n = members(cur)?;
            let mut out = Vec::with_capacity(n);
            for _ in 0..n {
                out.push(member::<Point<f64>>(cur, depth)?);
            }
            Geometry::MultiPoint(MultiPoint(out))
        }
        GeometryKind::MultiLineString => {
            let n = members(cur)?;
            let mut out = Vec::with_capacity(n);
            for _ in 0..n {
                out.push(member::<LineString<f64>>(cur, depth)?);
            }
            Geometry::MultiLineString(MultiLineString(out))
        }
        GeometryKind::MultiPolygon => {
            let n = members(cur)?;
            let mut out = Vec::with_capacity(n);
            for _ in 0..n {
                out.push(member::<Polygon<f64>>(cur, depth)?);
            }
            Geometry::MultiPolygon(MultiPolygon(out))
        }
        GeometryKind::GeometryCollection => {
            if depth >= MAX_DEPTH {
                return Err(wkb_error(
                    format!("geometry collections nest more than {MAX_DEPTH} deep"),
                    start,
                ));
            }
            let n = members(cur)?;
            let mut out = Vec::with_capacity(n);
            for _ in 0..n {
                out.push(read_geometry(cur, depth + 1)?);
            }
            Geometry::GeometryCollection(GeometryCollection(out))
        }
    })
}

/// One member of a multi geometry, which must be a `T`.
fn member<T: TryFrom<Geometry<f64>>>(cur: &mut Cursor, depth: usize) -> Result<T> {
    let start = cur.pos;
    let g = read_geometry(cur, depth + 1)?;
    let kind = kind_name(&g);
    T::try_from(g).map_err(|_| {
        wkb_error(
            format!("a {kind} is not a member its multi geometry may hold"),
            start,
        )
    })
}

fn kind_name(g: &Geometry<f64>) -> &'static str {
    match g {
        Geometry::Point(_) => "POINT",
        Geometry::Line(_) | Geometry::LineString(_) => "LINESTRING",
        Geometry::Polygon(_) | Geometry::Rect(_) | Geometry::Triangle(_) => "POLYGON",
        Geometry::MultiPoint(_) => "MULTIPOINT",
        Geometry::MultiLineString(_) => "MULTILINESTRING",
        Geometry::MultiPolygon(_) => "MULTIPOLYGON",
        Geometry::GeometryCollection(_) => "GEOMETRYCOLLECTION",
    }
}

/// Reads all of `bytes` as one geometry.
fn read_all(bytes: &[u8]) -> Result<Geometry<f64>> {
    let mut cur = Cursor { bytes, pos: 0 };
    let g = read_geometry(&mut cur, 0)?;
    if cur.pos != bytes.len() {
        return Err(wkb_error(
            format!("{} bytes follow the geometry", bytes.len() - cur.pos),
            cur.pos,
        ));
    }
    Ok(g)
}

impl WkbGeometry for Geometry<f64> {
    fn write_wkb(&self, out: &mut Vec<u8>) {
        write_geometry(out, self);
    }

    fn from_wkb(bytes: &[u8]) -> Result<Self> {
        read_all(bytes)
    }
}

/// `WkbGeometry` for a variant of `Geometry`: written as itself, read when the WKB is of
/// that kind.
macro_rules! variant {
    ($ty:ident, $name:literal, |$out:ident, $v:ident| $write:expr) => {
        impl WkbGeometry for $ty<f64> {
            fn write_wkb(&self, $out: &mut Vec<u8>) {
                let $v = self;
                $write
            }

            fn from_wkb(bytes: &[u8]) -> Result<Self> {
                let g = read_all(bytes)?;
                let kind = kind_name(&g);
                $ty::try_from(g)
                    .map_err(|_| wkb_error(format!("a {kind} where a {} was expected", $name), 0))
            }
        }
    };
}

variant!(Point, "POINT", |out, p| write_point(out, p));
variant!(LineString, "LINESTRING", |out, l| write_line_string(out, l));
variant!(Polygon, "POLYGON", |out, p| write_polygon(out, p));
variant!(MultiPoint, "MULTIPOINT", |out, m| {
    header(out, GeometryKind::MultiPoint);
    count(out, m.0.len());
    for p in &m.0 {
        write_point(out, p);
    }
});
variant!(MultiLineString, "MULTILINESTRING", |out, m| {
    header(out, GeometryKind::MultiLineString);
    count(out, m.0.len());
    for l in &m.0 {
        write_line_string(out, l);
    }
});
variant!(MultiPolygon, "MULTIPOLYGON", |out, m| {
    header(out, GeometryKind::MultiPolygon);
    count(out, m.0.len());
    for p in &m.0 {
        write_polygon(out, p);
    }
});
variant!(GeometryCollection, "GEOMETRYCOLLECTION", |out, c| {
    header(out, GeometryKind::GeometryCollection);
    count(out, c.0.len());
    for g in &c.0 {
        write_geometry(out, g);
    }
});
