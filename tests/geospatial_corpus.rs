//! GEOMETRY / GEOGRAPHY against the corpus and pyarrow:
//! - every `data/geospatial/*.parquet` reads to the WKB bytes pyarrow reads, and its
//!   GeospatialStatistics as we read them equal pyarrow's;
//! - the statistics of `geospatial.parquet` equal what `geospatial.yaml` (the WKT each row
//!   group was made from) implies, and what our own statistics builder computes from the
//!   values;
//! - pyarrow reads the GEOMETRY columns we write: same WKB, logical type and statistics.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use parquet_serde::core::file::ColumnChunkMetaData;
use parquet_serde::core::file::FileReader;
// The writer's geospatial statistics builder, run over each row group (not API).
use parquet_serde::__internals::geo::GeoStatisticsBuilder;
use parquet_serde::{ParquetSchema, Value};
use serde::Serialize;
use serde_json::Value as Json;

/// For each file of the folder `argv[1]` (or the single file `argv[1]`): its geospatial
/// column, that column's values as hex, its logical type and per row group its GeoStatistics.
const PYARROW: &str = r#"
import glob, json, math, os, sys
import pyarrow.parquet as pq

def num(v):
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else v

arg = sys.argv[1]
paths = sorted(glob.glob(os.path.join(arg, '*.parquet'))) if os.path.isdir(arg) else [arg]
out = {}
for path in paths:
    f = pq.ParquetFile(path)
    md = f.metadata
    names = [md.schema.column(j).name for j in range(md.num_columns)]
    j = [k for k, n in enumerate(names) if n in ('geometry', 'geography', 'geom')][0]
    table = f.read()
    rows = [None if v is None else v.hex() for v in table.column(names[j]).to_pylist()]
    stats = []
    for i in range(md.num_row_groups):
        g = md.row_group(i).column(j).geo_statistics
        if g is None:
            stats.append(None)
            continue
        d = {k: num(getattr(g, k)) for k in
             ['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax', 'mmin', 'mmax']}
        types = list(g.geospatial_types or [])
        # Statistics that say nothing (an all-null chunk) are no statistics.
        empty = all(v is None for v in d.values()) and not types
        d['types'] = types
        stats.append(None if empty else d)
    out[os.path.basename(path)] = {
        'column': j, 'rows': rows, 'stats': stats,
        'logical': str(md.schema.column(j).logical_type),
    }
print(json.dumps(out))
"#;

fn pyarrow(path: &Path) -> serde_json::Map<String, Json> {
    let out = Command::new(common::python())
        .arg("-c")
        .arg(PYARROW)
        .arg(path)
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "pyarrow: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    match serde_json::from_slice(&out.stdout).unwrap() {
        Json::Object(m) => m,
        other => panic!("unexpected pyarrow output {other}"),
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// GeospatialStatistics in pyarrow's JSON form (NaN and absent as null, types as a list;
/// statistics with neither a box nor types as null).
/// `bbox` is `[xmin, xmax, ymin, ymax, zmin, zmax, mmin, mmax]`.
fn stats_json(bbox: Option<[Option<f64>; 8]>, types: Option<&[i32]>) -> Json {
    if bbox.is_none() && types.is_none_or(|t| t.is_empty()) {
        return Json::Null;
    }
    let f = |i: usize| {
        bbox.and_then(|b| b[i])
            .filter(|v| !v.is_nan())
            .map_or(Json::Null, Json::from)
    };
    serde_json::json!({
        "xmin": f(0), "xmax": f(1),
        "ymin": f(2), "ymax": f(3),
        "zmin": f(4), "zmax": f(5),
        "mmin": f(6), "mmax": f(7),
        "types": types.unwrap_or_default(),
    })
}

/// The geospatial statistics of a column chunk in the footer, as [`stats_json`].
fn chunk_stats_json(chunk: ColumnChunkMetaData<'_>) -> Json {
    let bbox = chunk.geospatial_bbox().map(|b| {
        let (z, m) = (b.z.get(), b.m.get());
        [
            Some(b.x.min),
            Some(b.x.max),
            Some(b.y.min),
            Some(b.y.max),
            z.map(|z| z.0),
            z.map(|z| z.1),
            m.map(|m| m.0),
            m.map(|m| m.1),
        ]
    });
    stats_json(bbox, chunk.geospatial_types())
}

/// The rows of the file `reader` holds, as `Value`s of the `columns` only.
fn value_rows(reader: &FileReader<Vec<u8>>, columns: &[&str]) -> Vec<Value> {
    parquet_serde::Reader::<_, Value>::with_options(&reader.get_ref()[..], reader.options().clone())
        .unwrap()
        .select_columns(columns)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// The geospatial column's values of every row, as hex (null as `None`).
fn our_rows(reader: &FileReader<Vec<u8>>, column: usize) -> Vec<Option<String>> {
    let name = reader.schema().columns()[column].path.to_string();
    value_rows(reader, &[name.as_str()])
        .iter()
        .map(|row| match row.get(&name) {
            Some(Value::Bytes(b)) => Some(hex(b)),
            Some(Value::Null) | None => None,
            Some(other) => panic!("{name}: {other:?} is not WKB bytes"),
        })
        .collect()
}

#[test]
fn corpus_reads_as_pyarrow_reads_it() {
    let dir = common::corpus_dir("data/geospatial");
    let expected = pyarrow(&dir);
    assert!(expected.len() >= 10, "{} files", expected.len());
    for (file, exp) in &expected {
        let bytes = common::read(&dir.join(file));
        let reader = FileReader::new(bytes).unwrap();
        let column = exp["column"].as_u64().unwrap() as usize;
        let rows: Vec<Option<String>> = serde_json::from_value(exp["rows"].clone()).unwrap();
        assert_eq!(our_rows(&reader, column), rows, "{file}: values");

        let descr = &reader.schema().columns()[column];
        let printed = format!("{:?}", descr.logical_type);
        let geography = exp["logical"].as_str().unwrap().starts_with("Geography");
        assert!(
            printed.contains(if geography { "Geography" } else { "Geometry" }),
            "{file}: {printed}"
        );
        let md = reader.metadata();
        let exp_stats = exp["stats"].as_array().unwrap();
        assert_eq!(md.num_row_groups(), exp_stats.len(), "{file}");
        let values: Vec<Option<Vec<u8>>> = {
            let name = descr.path.to_string();
            value_rows(&reader, &[name.as_str()])
                .iter()
                .map(|r| match r.get(&name) {
                    Some(Value::Bytes(b)) => Some(b.clone()),
                    _ => None,
                })
                .collect()
        };
        let mut start = 0usize;
        for (rg, exp) in md.row_groups().zip(exp_stats) {
            let ours = chunk_stats_json(rg.column(column).unwrap());
            assert_eq!(&ours, exp, "{file}: statistics as read");
            // Our builder over the row group's values gives the writer's statistics (a
            // GEOGRAPHY writer may widen its box for curved edges: types only there).
            let end = start + rg.num_rows() as usize;
            let mut builder = GeoStatisticsBuilder::new();
            for v in values[start..end].iter().flatten() {
                builder.add(v);
            }
            start = end;
            let built = builder.finish(!geography);
            let built = built.map_or(Json::Null, |g| {
                let bbox = g.bbox.as_ref().map(|b| {
                    [
                        Some(b.xmin),
                        Some(b.xmax),
                        Some(b.ymin),
                        Some(b.ymax),
                        b.zmin,
                        b.zmax,
                        b.mmin,
                        b.mmax,
                    ]
                });
                stats_json(bbox, g.geospatial_types.as_deref())
            });
            if ours == Json::Null {
                // The writer wrote none (crs-geography.parquet).
            } else if geography {
                assert_eq!(built["types"], ours["types"], "{file}: types");
            } else {
                assert_eq!(built, ours, "{file}: statistics we compute");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// geospatial.yaml

/// Row group name -> its WKT values (`None` for null), from the yaml's simple shape: top-level
/// `key:` lines, `- item` lines, items continued on lines indented by two spaces.
fn parse_yaml(text: &str) -> BTreeMap<String, Vec<Option<String>>> {
    let mut out: BTreeMap<String, Vec<Option<String>>> = BTreeMap::new();
    let mut key = String::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(k) = line.strip_suffix(':').filter(|_| !line.starts_with(' ')) {
            key = k.to_string();
            out.entry(key.clone()).or_default();
        } else if let Some(item) = line.strip_prefix("- ") {
            let item = item.trim();
            out.get_mut(&key)
                .unwrap()
                .push((item != "null").then(|| item.to_string()));
        } else if let Some(more) = line.strip_prefix("  ") {
            let last = out.get_mut(&key).unwrap().last_mut().unwrap();
            let last = last.as_mut().unwrap();
            last.push(' ');
            last.push_str(more.trim());
        } else {
            panic!("unexpected yaml line {line:?}");
        }
    }
    out
}

/// The statistics the WKT values imply: ISO type codes, and per axis min/max of the
/// coordinates that are numbers.
fn expected_from_wkt(values: &[Option<String>]) -> Json {
    let mut types = std::collections::BTreeSet::new();
    let mut axes = [(f64::INFINITY, f64::NEG_INFINITY); 4];
    for wkt in values.iter().flatten() {
        let tokens: Vec<String> = wkt
            .replace(['(', ')', ','], " ")
            .split_whitespace()
            .map(str::to_string)
            .collect();
        // The ISO WKB kind codes (OGC Simple Features, WKB geometry types).
        let kind = match tokens[0].as_str() {
            "POINT" => 1,
            "LINESTRING" => 2,
            "POLYGON" => 3,
            "MULTIPOINT" => 4,
            "MULTILINESTRING" => 5,
            "MULTIPOLYGON" => 6,
            "GEOMETRYCOLLECTION" => 7,
            other => panic!("a WKT kind the corpus does not use: {other}"),
        };
        let dims = match tokens.get(1).map(String::as_str) {
            Some("Z") => "Z",
            Some("M") => "M",
            Some("ZM") => "ZM",
            _ => "",
        };
        let thousands = match dims {
            "Z" => 1,
            "M" => 2,
            "ZM" => 3,
            _ => 0,
        };
        types.insert(kind + 1000 * thousands);
        let numbers: Vec<f64> = tokens.iter().filter_map(|t| t.parse().ok()).collect();
        let width = 2 + dims.len();
        // Axis slots of each coordinate value: x, y, then z and/or m.
        let slots: Vec<usize> = match dims {
            "Z" => vec![0, 1, 2],
            "M" => vec![0, 1, 3],
            "ZM" => vec![0, 1, 2, 3],
            _ => vec![0, 1],
        };
        assert_eq!(numbers.len() % width, 0, "{wkt}");
        for c in numbers.chunks(width) {
            for (v, &slot) in c.iter().zip(&slots) {
                if !v.is_nan() {
                    axes[slot].0 = axes[slot].0.min(*v);
                    axes[slot].1 = axes[slot].1.max(*v);
                }
            }
        }
    }
    if types.is_empty() {
        return Json::Null;
    }
    let has = |a: usize| axes[a].0 <= axes[a].1;
    let bound = |a: usize, max: bool| {
        if !(has(0) && has(1) && has(a)) {
            return Json::Null;
        }
        Json::from(if max { axes[a].1 } else { axes[a].0 })
    };
    serde_json::json!({
        "xmin": bound(0, false), "xmax": bound(0, true),
        "ymin": bound(1, false), "ymax": bound(1, true),
        "zmin": bound(2, false), "zmax": bound(2, true),
        "mmin": bound(3, false), "mmax": bound(3, true),
        "types": types.into_iter().collect::<Vec<_>>(),
    })
}

#[test]
fn statistics_equal_the_yaml_expectations() {
    let text = common::read_to_string(&common::corpus_path("geospatial/geospatial.yaml"));
    let groups = parse_yaml(&text);
    assert!(groups.len() >= 30, "{} groups", groups.len());
    let reader = FileReader::new(common::corpus_file("geospatial/geospatial.parquet")).unwrap();
    let rows = value_rows(&reader, &["group"]);
    let md = reader.metadata();
    assert_eq!(md.num_row_groups(), groups.len());
    let mut start = 0usize;
    for rg in md.row_groups() {
        let Some(Value::String(name)) = rows[start].get("group") else {
            panic!("row {start}: no group name");
        };
        start += rg.num_rows() as usize;
        let wkt = &groups[name];
        assert_eq!(wkt.len(), rg.num_rows() as usize, "{name}: rows");
        let ours = chunk_stats_json(rg.column(2).unwrap());
        assert_eq!(ours, expected_from_wkt(wkt), "row group {name}");
    }
}

// ---------------------------------------------------------------------------------------------
// Our files, read by pyarrow

#[derive(Serialize, ParquetSchema)]
struct Feature {
    id: u32,
    #[parquet(geometry(crs = "srid:4326"))]
    #[serde(with = "serde_bytes")]
    geom: Option<Vec<u8>>,
}

fn wkb_linestring_zm(pts: &[[f64; 4]]) -> Vec<u8> {
    let mut b = vec![1];
    b.extend_from_slice(&3002u32.to_le_bytes());
    b.extend_from_slice(&(pts.len() as u32).to_le_bytes());
    for p in pts {
        for v in p {
            b.extend_from_slice(&v.to_le_bytes());
        }
    }
    b
}

#[test]
fn pyarrow_reads_our_geometry_columns() {
    let rows: Vec<Feature> = (0..30)
        .map(|i| {
            let f = i as f64;
            Feature {
                id: i,
                geom: (i % 5 != 0).then(|| {
                    wkb_linestring_zm(&[[f, -f, 1.0, f * 2.0], [f + 0.5, 2.0, f64::NAN, 3.0]])
                }),
            }
        })
        .collect();
    let options = parquet_serde::WriterOptions::default().row_group_rows(10);
    let bytes = parquet_serde::to_vec_with(&rows, options).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ours.parquet");
    std::fs::write(&path, &bytes).unwrap();

    let got = pyarrow(&path);
    let exp = &got["ours.parquet"];
    assert_eq!(exp["logical"], "Geometry(crs=srid:4326)");
    let expected_rows: Vec<Json> = rows
        .iter()
        .map(|r| r.geom.as_ref().map_or(Json::Null, |g| Json::from(hex(g))))
        .collect();
    assert_eq!(exp["rows"], Json::Array(expected_rows));
    let reader = FileReader::new(bytes).unwrap();
    for (i, rg) in reader.metadata().row_groups().enumerate() {
        let ours = rg.column(1).unwrap();
        assert!(ours.has_geospatial_statistics());
        assert_eq!(chunk_stats_json(ours), exp["stats"][i], "row group {i}");
    }
    // Row group 0 holds rows 0..10 (0 and 5 null): x 1 ..= 9.5, y -9 ..= 2, z 1 (the NaN
    // skipped), m 2 ..= 18.
    assert_eq!(
        exp["stats"][0],
        serde_json::json!({"xmin": 1.0, "xmax": 9.5, "ymin": -9.0, "ymax": 2.0,
            "zmin": 1.0, "zmax": 1.0, "mmin": 2.0, "mmax": 18.0, "types": [3002]})
    );
}
