//! Reading ISO Well-Known Binary without trusting it.
//!
//! A WKB geometry is a byte-order byte (`0` big endian, `1` little endian), a `u32` type code
//! (`kind + 1000 * dimensions`, ISO numbering) and a body: a point's coordinates; a line
//! string's point count and points; a polygon's ring count and rings; a multi geometry's or
//! collection's member count and members, each a complete WKB geometry with its own byte order.
//!
//! [`scan`] walks one value, checking that every count fits the bytes left before it is used,
//! that members of a multi geometry are of the member kind and all of the parent's dimensions,
//! that collections nest at most [`MAX_DEPTH`] deep and that no bytes are left over. It hands
//! each coordinate to a callback and allocates nothing. Extended WKB (PostGIS' flag bits for
//! Z, M and SRID) is not ISO WKB and is refused.

use crate::error::{Error, Result};

/// How deep geometry collections may nest (a collection in a collection ...).
pub const MAX_DEPTH: usize = 64;

/// The seven geometry kinds of the Simple Features model, numbered as in WKB.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GeometryKind {
    /// `POINT` (1).
    Point = 1,
    /// `LINESTRING` (2).
    LineString = 2,
    /// `POLYGON` (3).
    Polygon = 3,
    /// `MULTIPOINT` (4).
    MultiPoint = 4,
    /// `MULTILINESTRING` (5).
    MultiLineString = 5,
    /// `MULTIPOLYGON` (6).
    MultiPolygon = 6,
    /// `GEOMETRYCOLLECTION` (7).
    GeometryCollection = 7,
}

impl GeometryKind {
    /// The kind numbered `code` (1 to 7).
    pub fn from_code(code: u32) -> Option<GeometryKind> {
        Some(match code {
            1 => GeometryKind::Point,
            2 => GeometryKind::LineString,
            3 => GeometryKind::Polygon,
            4 => GeometryKind::MultiPoint,
            5 => GeometryKind::MultiLineString,
            6 => GeometryKind::MultiPolygon,
            7 => GeometryKind::GeometryCollection,
            _ => return None,
        })
    }

    /// The WKT keyword (`POINT`, `LINESTRING`, ...).
    pub fn name(self) -> &'static str {
        match self {
            GeometryKind::Point => "POINT",
            GeometryKind::LineString => "LINESTRING",
            GeometryKind::Polygon => "POLYGON",
            GeometryKind::MultiPoint => "MULTIPOINT",
            GeometryKind::MultiLineString => "MULTILINESTRING",
            GeometryKind::MultiPolygon => "MULTIPOLYGON",
            GeometryKind::GeometryCollection => "GEOMETRYCOLLECTION",
        }
    }
}

/// The coordinate dimensions of a geometry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dimensions {
    /// x, y.
    Xy,
    /// x, y, z.
    Xyz,
    /// x, y, m.
    Xym,
    /// x, y, z, m.
    Xyzm,
}

impl Dimensions {
    /// Number of values per coordinate (2 to 4).
    pub fn values_per_coordinate(self) -> usize {
        match self {
            Dimensions::Xy => 2,
            Dimensions::Xyz | Dimensions::Xym => 3,
            Dimensions::Xyzm => 4,
        }
    }

    /// Whether coordinates carry z.
    pub fn has_z(self) -> bool {
        matches!(self, Dimensions::Xyz | Dimensions::Xyzm)
    }

    /// Whether coordinates carry m.
    pub fn has_m(self) -> bool {
        matches!(self, Dimensions::Xym | Dimensions::Xyzm)
    }

    /// The thousands of the ISO type code: 0, 1 (Z), 2 (M), 3 (ZM).
    fn thousands(self) -> u32 {
        match self {
            Dimensions::Xy => 0,
            Dimensions::Xyz => 1,
            Dimensions::Xym => 2,
            Dimensions::Xyzm => 3,
        }
    }
}

/// A WKB geometry type: kind and dimensions, as the ISO code `kind + 1000 * d` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GeometryType {
    /// Point, line string, ...
    pub kind: GeometryKind,
    /// XY, XYZ, XYM or XYZM.
    pub dimensions: Dimensions,
}

impl GeometryType {
    /// The ISO WKB code (`1` .. `7`, `1001` .. `1007`, `2001` .. `2007`, `3001` .. `3007`),
    /// as the `geospatial_types` of GeospatialStatistics lists it.
    pub fn code(self) -> u32 {
        self.kind as u32 + 1000 * self.dimensions.thousands()
    }

    /// The type of an ISO code; `None` for any other number (including Extended WKB's flag
    /// bits).
    pub fn from_code(code: u32) -> Option<GeometryType> {
        let dimensions = match code / 1000 {
            0 => Dimensions::Xy,
            1 => Dimensions::Xyz,
            2 => Dimensions::Xym,
            3 => Dimensions::Xyzm,
            _ => return None,
        };
        Some(GeometryType {
            kind: GeometryKind::from_code(code % 1000)?,
            dimensions,
        })
    }
}

/// What [`scan`] found in one WKB value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WkbSummary {
    /// The type of the outermost geometry.
    pub geometry_type: GeometryType,
    /// Coordinates read (at every depth).
    pub coordinates: u64,
}

/// Checks that `bytes` is one complete ISO WKB geometry and summarises it.
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
pub fn scan(bytes: &[u8]) -> Result<WkbSummary> {
    scan_with(bytes, |_| {})
}

/// [`scan`], handing every coordinate to `each`: `[x, y, z, m]`, with `NaN` for the axes the
/// geometry has not.
pub fn scan_with(bytes: &[u8], mut each: impl FnMut([f64; 4])) -> Result<WkbSummary> {
    let mut cursor = Cursor { bytes, pos: 0 };
    let mut coordinates = 0u64;
    let geometry_type = cursor.geometry(None, 0, &mut |c| {
        coordinates += 1;
        each(c)
    })?;
    if cursor.pos != bytes.len() {
        return Err(wkb_error(
            format!("{} bytes follow the geometry", bytes.len() - cursor.pos),
            cursor.pos,
        ));
    }
    Ok(WkbSummary {
        geometry_type,
        coordinates,
    })
}

/// The type of the outermost geometry of `bytes`, read from its first five bytes only.
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
pub fn peek_type(bytes: &[u8]) -> Result<GeometryType> {
    let mut cursor = Cursor { bytes, pos: 0 };
    let little = cursor.byte_order()?;
    cursor.geometry_type(little)
}

/// An error about WKB at byte `pos`.
pub(crate) fn wkb_error(msg: impl std::fmt::Display, pos: usize) -> Error {
    Error::data(format!("invalid WKB at byte {pos}: {msg}"))
}

/// A position in a WKB value.
pub(crate) struct Cursor<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) pos: usize,
}

impl Cursor<'_> {
    fn left(&self) -> usize {
        self.bytes.len() - self.pos
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N]> {
        let end = self.pos.checked_add(N).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(wkb_error(
                format!("{N} bytes needed, {} left", self.left()),
                self.pos,
            ));
        };
        let mut out = [0u8; N];
        out.copy_from_slice(&self.bytes[self.pos..end]);
        self.pos = end;
        Ok(out)
    }

    /// The byte-order byte: `true` for little endian.
    pub(crate) fn byte_order(&mut self) -> Result<bool> {
        let at = self.pos;
        match self.take::<1>()?[0] {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(wkb_error(
                format!("byte order {other} is neither 0 (big) nor 1 (little endian)"),
                at,
            )),
        }
    }

    pub(crate) fn u32(&mut self, little: bool) -> Result<u32> {
        let b = self.take::<4>()?;
        Ok(if little {
            u32::from_le_bytes(b)
        } else {
            u32::from_be_bytes(b)
        })
    }

    pub(crate) fn f64(&mut self, little: bool) -> Result<f64> {
        let b = self.take::<8>()?;
        Ok(if little {
            f64::from_le_bytes(b)
        } else {
            f64::from_be_bytes(b)
        })
    }

    pub(crate) fn geometry_type(&mut self, little: bool) -> Result<GeometryType> {
        let at = self.pos;
        let code = self.u32(little)?;
        GeometryType::from_code(code).ok_or_else(|| {
            let what = if code & 0xE000_0000 != 0 {
                "Extended WKB (EWKB) flags are not ISO WKB"
            } else {
                "not an ISO WKB geometry type"
            };
            wkb_error(format!("type code {code} ({code:#x}): {what}"), at)
        })
    }

    /// A count of items of at least `min_size` bytes each, checked against the bytes left.
    pub(crate) fn count(&mut self, little: bool, min_size: usize, what: &str) -> Result<usize> {
        let at = self.pos;
        let n = self.u32(little)? as usize;
        if n.saturating_mul(min_size) > self.left() {
            return Err(wkb_error(
                format!(
                    "{n} {what} need at least {} bytes, {} left",
                    n.saturating_mul(min_size),
                    self.left()
                ),
                at,
            ));
        }
        Ok(n)
    }

    /// One coordinate of `dims`, as `[x, y, z, m]`.
    pub(crate) fn coordinate(&mut self, little: bool, dims: Dimensions) -> Result<[f64; 4]> {
        let x = self.f64(little)?;
        let y = self.f64(little)?;
        let mut c = [x, y, f64::NAN, f64::NAN];
        if dims.has_z() {
            c[2] = self.f64(little)?;
        }
        if dims.has_m() {
            c[3] = self.f64(little)?;
        }
        Ok(c)
    }

    fn points(
        &mut self,
        little: bool,
        dims: Dimensions,
        each: &mut dyn FnMut([f64; 4]),
    ) -> Result<()> {
        let n = self.count(little, 8 * dims.values_per_coordinate(), "points")?;
        for _ in 0..n {
            each(self.coordinate(little, dims)?);
        }
        Ok(())
    }

    /// One geometry; `expect` is the kind and dimensions a multi geometry's member must have
    /// (`None` at the top and in collections, whose members only share the dimensions).
    fn geometry(
        &mut self,
        expect: Option<(Option<GeometryKind>, Dimensions)>,
        depth: usize,
        each: &mut dyn FnMut([f64; 4]),
    ) -> Result<GeometryType> {
        let start = self.pos;
        let little = self.byte_order()?;
        let ty = self.geometry_type(little)?;
        if let Some((kind, dims)) = expect {
            if kind.is_some_and(|k| k != ty.kind) || dims != ty.dimensions {
                return Err(wkb_error(
                    format!(
                        "member of type code {} does not fit its parent (expected {}{:?})",
                        ty.code(),
                        kind.map_or("any kind, ", |k| k.name()),
                        dims
                    ),
                    start,
                ));
            }
        }
        let dims = ty.dimensions;
        match ty.kind {
            GeometryKind::Point => {
                let c = self.coordinate(little, dims)?;
                // POINT EMPTY is written with every coordinate NaN: no coordinate.
                if !(c[0].is_nan() && c[1].is_nan()) {
                    each(c);
                }
            }
            GeometryKind::LineString => self.points(little, dims, each)?,
            GeometryKind::Polygon => {
                let rings = self.count(little, 4, "rings")?;
                for _ in 0..rings {
                    self.points(little, dims, each)?;
                }
            }
            GeometryKind::MultiPoint
            | GeometryKind::MultiLineString
            | GeometryKind::MultiPolygon
            | GeometryKind::GeometryCollection => {
                let member = match ty.kind {
                    GeometryKind::MultiPoint => Some(GeometryKind::Point),
                    GeometryKind::MultiLineString => Some(GeometryKind::LineString),
                    GeometryKind::MultiPolygon => Some(GeometryKind::Polygon),
                    _ => None,
                };
                if member.is_none() && depth >= MAX_DEPTH {
                    return Err(wkb_error(
                        format!("geometry collections nest more than {MAX_DEPTH} deep"),
                        start,
                    ));
                }
                // The smallest member: byte order, type and an empty count (9 bytes).
                let n = self.count(little, 9, "members")?;
                for _ in 0..n {
                    self.geometry(Some((member, dims)), depth + 1, each)?;
                }
            }
        }
        Ok(ty)
    }
}

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn scan_example() -> crate::Result<()> {
        use crate::core::geo::wkb;
        // LINESTRING EMPTY, big endian.
        let s = wkb::scan(&[0, 0, 0, 0, 2, 0, 0, 0, 0])?;
        assert_eq!((s.geometry_type.code(), s.coordinates), (2, 0));
        assert!(wkb::scan(&[0, 0, 0, 0, 2, 0, 0, 0, 9]).is_err()); // 9 points, no bytes
        Ok(())
    }
}
