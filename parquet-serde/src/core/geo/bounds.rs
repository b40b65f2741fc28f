//! Bounding boxes: the smallest and largest value seen on each axis.

use crate::core::format::BoundingBox;

/// The smallest and largest value seen on one axis; empty until a value that is not NaN is
/// added.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AxisRange {
    /// Smallest value (`+inf` while empty).
    pub min: f64,
    /// Largest value (`-inf` while empty).
    pub max: f64,
}

impl Default for AxisRange {
    fn default() -> Self {
        AxisRange {
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
        }
    }
}

impl AxisRange {
    /// Widens the range to `v`; NaN is skipped.
    pub fn add(&mut self, v: f64) {
        if !v.is_nan() {
            self.min = self.min.min(v);
            self.max = self.max.max(v);
        }
    }

    /// Whether no value was added.
    pub fn is_empty(&self) -> bool {
        self.min > self.max
    }

    /// `(min, max)`, or `None` when empty.
    pub fn get(&self) -> Option<(f64, f64)> {
        (!self.is_empty()).then_some((self.min, self.max))
    }
}

/// Ranges of x, y, z and m over many coordinates, as GeospatialStatistics' bounding box
/// wants them: NaN values are skipped per axis, an axis without values is left out, and there
/// is no box without both x and y.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Bounds {
    /// Longitude / easting.
    pub x: AxisRange,
    /// Latitude / northing.
    pub y: AxisRange,
    /// Elevation.
    pub z: AxisRange,
    /// Measure.
    pub m: AxisRange,
}

impl Bounds {
    /// Widens the box to the coordinate `[x, y, z, m]` (NaN where an axis is absent).
    pub fn add(&mut self, c: [f64; 4]) {
        self.x.add(c[0]);
        self.y.add(c[1]);
        self.z.add(c[2]);
        self.m.add(c[3]);
    }

    /// The Thrift bounding box; `None` unless both x and y have values.
    pub(crate) fn to_bounding_box(self) -> Option<BoundingBox> {
        let (xmin, xmax) = self.x.get()?;
        let (ymin, ymax) = self.y.get()?;
        let z = self.z.get();
        let m = self.m.get();
        Some(BoundingBox {
            xmin,
            xmax,
            ymin,
            ymax,
            zmin: z.map(|z| z.0),
            zmax: z.map(|z| z.1),
            mmin: m.map(|m| m.0),
            mmax: m.map(|m| m.1),
        })
    }
}
