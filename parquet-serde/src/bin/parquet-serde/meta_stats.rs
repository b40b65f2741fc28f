//! The statistics lines of `meta`: min and max as the logical values of their column
//! (decimal text, dates, times, timestamps with their unit's digits and zone, UUIDs, float16
//! and float in their shortest form, INT96 as UTC timestamps), and each GEOMETRY /
//! GEOGRAPHY chunk's GeospatialStatistics (bounding box, Z and M ranges, geometry types).

use parquet_serde::core::column::{Scalar, SortOrder};
use parquet_serde::core::file::FileReader;
use parquet_serde::core::geo::Bounds;
use parquet_serde::core::page::RawStatistics;
use parquet_serde::core::schema::PhysicalType as Type;
use parquet_serde::core::schema::{ColumnDescriptor, SchemaNode};
use parquet_serde::core::values::Int96;

/// The statistics of chunk `c` of row group `rg`: null and distinct counts, min and max as
/// logical values (or the raw bytes, with why they are not usable), NaN count.
pub fn stats_text(
    reader: &FileReader<std::fs::File>,
    rg: usize,
    c: usize,
    s: RawStatistics<'_>,
    d: &ColumnDescriptor,
) -> String {
    let metadata = reader.metadata();
    let typed = metadata.column_statistics(rg, c).unwrap_or_default();
    let leaf = metadata.schema().column_node(c);
    let mut parts = Vec::new();
    if let Some(n) = s.null_count() {
        parts.push(format!("nulls={n}"));
    }
    if let Some(n) = s.distinct_count() {
        parts.push(format!("distinct={n}"));
    }
    match (&typed.min, &typed.max) {
        (None, None) => {
            let (min, max) = match (s.min_value(), s.max_value()) {
                (Some(a), Some(b)) => (Some(a), Some(b)),
                _ => (s.min(), s.max()),
            };
            if let (Some(lo), Some(hi)) = (min, max) {
                parts.push(format!(
                    "raw_min={} raw_max={} (not usable: {})",
                    raw(lo, d, leaf),
                    raw(hi, d, leaf),
                    unusable_reason(s, d)
                ));
            }
        }
        (lo, hi) => {
            let show = |v: &Option<Scalar>| match (v, leaf) {
                (Some(v), Some(leaf)) => v.logical_text(leaf),
                (Some(v), None) => v.to_string(),
                (None, _) => "-".to_string(),
            };
            parts.push(format!("min={} max={}", show(lo), show(hi)));
            if lo.is_some() && s.is_min_value_exact() == Some(false) {
                parts.push("min_inexact".to_string());
            }
            if hi.is_some() && s.is_max_value_exact() == Some(false) {
                parts.push("max_inexact".to_string());
            }
        }
    }
    if let Some(n) = s.nan_count() {
        parts.push(format!("nans={n}"));
    }
    parts.join(" ")
}

/// A bound the reader does not use for pruning, still shown as its logical value when its
/// bytes decode as one (a DECIMAL's legacy min/max as decimal text, an INT96 as its UTC
/// timestamp), else in hex.
fn raw(b: &[u8], d: &ColumnDescriptor, leaf: Option<&SchemaNode>) -> String {
    if d.physical_type == Type::Int96 {
        if let Ok(words) = <[u8; 12]>::try_from(b) {
            let word =
                |i: usize| u32::from_le_bytes([words[i], words[i + 1], words[i + 2], words[i + 3]]);
            return Int96([word(0), word(4), word(8)]).to_string();
        }
    }
    match (
        Scalar::decode(b, d.physical_type, SortOrder::for_column(d)),
        leaf,
    ) {
        (Some(v), Some(leaf)) => v.logical_text(leaf),
        _ => b.iter().map(|x| format!("{x:02x}")).collect(),
    }
}

fn unusable_reason(s: RawStatistics<'_>, d: &ColumnDescriptor) -> &'static str {
    if !SortOrder::for_column(d).is_defined() {
        "no defined order"
    } else if s.min_value().is_none() {
        "legacy min/max in signed order"
    } else {
        "NaN bounds, or no or unknown column order in the footer"
    }
}

/// A chunk's GeospatialStatistics: `box=none` or `xmin=.. xmax=.. ymin=.. ymax=..` with
/// `zmin`, `zmax`, `mmin`, `mmax` when present (each number in its shortest round-trip
/// form), then `types=` the ISO WKB codes with their names (`1 POINT, 3002 POLYGON ZM`), or
/// `types=unknown` when the writer did not list them (no list, or an empty one).
pub fn geo_stats_text(bbox: Option<Bounds>, types: Option<&[i32]>) -> String {
    let mut parts = Vec::new();
    match &bbox {
        None => parts.push("box=none".to_string()),
        Some(b) => {
            let z = b.z.get();
            let m = b.m.get();
            for (name, v) in [
                ("xmin", Some(b.x.min)),
                ("xmax", Some(b.x.max)),
                ("ymin", Some(b.y.min)),
                ("ymax", Some(b.y.max)),
                ("zmin", z.map(|z| z.0)),
                ("zmax", z.map(|z| z.1)),
                ("mmin", m.map(|m| m.0)),
                ("mmax", m.map(|m| m.1)),
            ] {
                if let Some(v) = v {
                    parts.push(format!("{name}={v:?}"));
                }
            }
        }
    }
    let types = match types {
        // The format lists no types, or none, when the writer did not know them.
        None => "unknown".to_string(),
        Some([]) => "unknown".to_string(),
        Some(codes) => codes
            .iter()
            .map(|&code| match type_name(code) {
                Some(name) => format!("{code} {name}"),
                None => format!("{code} (not an ISO WKB type)"),
            })
            .collect::<Vec<_>>()
            .join(", "),
    };
    parts.push(format!("types={types}"));
    parts.join(" ")
}

/// The name of an ISO WKB type code (`kind + 1000 * dimensions`): `POINT`, `LINESTRING Z`,
/// `POLYGON M`, `MULTIPOINT ZM`, ...; `None` for any other number.
fn type_name(code: i32) -> Option<String> {
    const KINDS: [&str; 7] = [
        "POINT",
        "LINESTRING",
        "POLYGON",
        "MULTIPOINT",
        "MULTILINESTRING",
        "MULTIPOLYGON",
        "GEOMETRYCOLLECTION",
    ];
    let kind = KINDS.get(usize::try_from(code % 1000).ok()?.checked_sub(1)?)?;
    let suffix = match code / 1000 {
        0 => "",
        1 => " Z",
        2 => " M",
        3 => " ZM",
        _ => return None,
    };
    Some(format!("{kind}{suffix}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet_serde::core::geo::AxisRange;
    use parquet_serde::core::schema::Schema;

    #[test]
    fn unusable_bounds_print_as_logical_values_when_they_decode() {
        let s: Schema = "message m {
            required int96 t;
            required binary b;
            required fixed_len_byte_array(4) d (DECIMAL(9, 2));
            required fixed_len_byte_array(12) i (INTERVAL);
        }"
        .parse()
        .unwrap();
        let mut bytes = Vec::new();
        for w in Int96::from_nanos(1_000_000_001).0 {
            bytes.extend(w.to_le_bytes());
        }
        let leaf = |i: usize| s.column_node(i);
        assert_eq!(
            raw(&bytes, &s.columns()[0], leaf(0)),
            "1970-01-01T00:00:01.000000001Z"
        );
        // Not 12 bytes: hex.
        assert_eq!(raw(&[1, 2], &s.columns()[0], leaf(0)), "0102");
        // Other types as their logical value, when they decode.
        assert_eq!(raw(&[0xc8], &s.columns()[1], leaf(1)), "0xc8");
        assert_eq!(raw(b"ab", &s.columns()[1], leaf(1)), "\"ab\"");
        assert_eq!(raw(&[0, 0, 0, 0xc8], &s.columns()[2], leaf(2)), "2.00");
        // An interval has no order: hex.
        assert_eq!(raw(&[7; 12], &s.columns()[3], leaf(3)), "07".repeat(12));
    }

    #[test]
    fn geospatial_statistics_text() {
        let bbox = Bounds {
            x: AxisRange {
                min: -180.0,
                max: 0.1,
            },
            y: AxisRange {
                min: -90.5,
                max: 1e300,
            },
            z: AxisRange::default(),
            m: AxisRange {
                min: -0.0,
                max: 2.0,
            },
        };
        assert_eq!(
            geo_stats_text(Some(bbox), Some(&[1, 3002, 2007, 8, -1])),
            "xmin=-180.0 xmax=0.1 ymin=-90.5 ymax=1e300 mmin=-0.0 mmax=2.0 \
             types=1 POINT, 3002 LINESTRING ZM, 2007 GEOMETRYCOLLECTION M, \
             8 (not an ISO WKB type), -1 (not an ISO WKB type)"
        );
        assert_eq!(geo_stats_text(None, Some(&[])), "box=none types=unknown");
    }
}
