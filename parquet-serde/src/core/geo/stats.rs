//! GeospatialStatistics of a column chunk: accumulated while writing, tested by predicates.

use std::collections::BTreeSet;

use crate::core::format::{BoundingBox, GeospatialStatistics};

use super::bounds::Bounds;
use super::wkb;

/// Accumulates the bounding box and geometry type codes of a column chunk's WKB values.
///
/// A value that is not valid WKB makes the statistics unknown: [`finish`](Self::finish)
/// then returns `None`, as a reader must not trust a box that left some value out.
#[derive(Debug, Clone, Default)]
pub struct GeoStatisticsBuilder {
    bounds: Bounds,
    types: BTreeSet<u32>,
    invalid: bool,
}

impl GeoStatisticsBuilder {
    /// No values yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one WKB value (nulls are not added: they contribute nothing).
    pub fn add(&mut self, value: &[u8]) {
        if self.invalid {
            return;
        }
        let bounds = &mut self.bounds;
        match wkb::scan_with(value, |c| bounds.add(c)) {
            Ok(summary) => {
                self.types.insert(summary.geometry_type.code());
            }
            Err(_) => self.invalid = true,
        }
    }

    /// Whether a value that is not valid WKB was added.
    #[cfg_attr(not(feature = "internals"), allow(dead_code))]
    pub fn is_invalid(&self) -> bool {
        self.invalid
    }

    /// The statistics: the bounding box when `with_bbox` (GEOGRAPHY columns leave it out:
    /// the box of the vertices does not bound edges that curve on the sphere) and there is
    /// one, and the sorted type codes when any value was added. `None` when nothing is known
    /// (no values, or an invalid one).
    pub fn finish(&self, with_bbox: bool) -> Option<GeospatialStatistics> {
        if self.invalid {
            return None;
        }
        let bbox = if with_bbox {
            self.bounds.to_bounding_box()
        } else {
            None
        };
        let types: Vec<i32> = self.types.iter().map(|&t| t as i32).collect();
        if bbox.is_none() && types.is_empty() {
            return None;
        }
        Some(GeospatialStatistics {
            bbox,
            geospatial_types: (!types.is_empty()).then_some(types),
        })
    }
}

/// Whether a column chunk with bounding box `bbox` may hold a geometry that intersects the
/// query box `[xmin, xmax] x [ymin, ymax]`.
///
/// A box whose `xmin` is greater than its `xmax` wraps around the antimeridian (it covers
/// `x >= xmin` or `x <= xmax`); both the stored box and the query may. NaN bounds prove
/// nothing, so they may match.
pub fn bbox_intersects(bbox: &BoundingBox, xmin: f64, ymin: f64, xmax: f64, ymax: f64) -> bool {
    let nan = [
        bbox.xmin, bbox.xmax, bbox.ymin, bbox.ymax, xmin, ymin, xmax, ymax,
    ]
    .iter()
    .any(|v| v.is_nan());
    if nan {
        return true;
    }
    if bbox.ymin > ymax || ymin > bbox.ymax {
        return false;
    }
    x_intersects((bbox.xmin, bbox.xmax), (xmin, xmax))
}

/// Whether two x ranges meet, either of which may wrap (`min > max`).
fn x_intersects(a: (f64, f64), b: (f64, f64)) -> bool {
    let parts = |(lo, hi): (f64, f64)| -> [(f64, f64); 2] {
        if lo <= hi {
            [(lo, hi), (f64::NAN, f64::NAN)]
        } else {
            [(lo, f64::INFINITY), (f64::NEG_INFINITY, hi)]
        }
    };
    parts(a)
        .iter()
        .any(|&(alo, ahi)| parts(b).iter().any(|&(blo, bhi)| alo <= bhi && blo <= ahi))
}

/// The bounding box in `stats`, when a reader may use it: present, and every bound a number.
pub(crate) fn usable_bbox(stats: &GeospatialStatistics) -> Option<&BoundingBox> {
    let b = stats.bbox.as_ref()?;
    let nan = [b.xmin, b.xmax, b.ymin, b.ymax].iter().any(|v| v.is_nan());
    (!nan).then_some(b)
}

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn bbox_intersects_example() {
        use crate::core::format::BoundingBox;
        use crate::core::geo::bbox_intersects;
        let b = BoundingBox {
            xmin: 0.0,
            xmax: 10.0,
            ymin: 0.0,
            ymax: 10.0,
            ..Default::default()
        };
        assert!(bbox_intersects(&b, 5.0, 5.0, 20.0, 20.0));
        assert!(!bbox_intersects(&b, 11.0, 0.0, 20.0, 10.0));
        // A stored box across the antimeridian: x in [170, 180] or [-180, -170].
        let w = BoundingBox {
            xmin: 170.0,
            xmax: -170.0,
            ymin: 0.0,
            ymax: 1.0,
            ..Default::default()
        };
        assert!(bbox_intersects(&w, -175.0, 0.0, -172.0, 1.0));
        assert!(!bbox_intersects(&w, 0.0, 0.0, 10.0, 1.0));
    }
}
