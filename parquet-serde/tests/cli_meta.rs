//! `parquet-serde meta` prints statistics as logical values and each geospatial chunk's
//! GeospatialStatistics, checked against what pyarrow reads from the same files.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// Runs `parquet-serde meta <file>`: its standard output (the command must succeed).
fn meta(file: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_parquet-serde"))
        .arg("meta")
        .arg(file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "meta {}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The lines `meta` prints under each chunk, keyed by (row group, column path), that start
/// with `prefix` (the prefix removed).
fn chunk_lines(meta: &str, prefix: &str) -> BTreeMap<(usize, String), String> {
    let (mut rg, mut column) = (usize::MAX, String::new());
    let mut found = BTreeMap::new();
    for line in meta.lines() {
        if let Some(rest) = line.strip_prefix("row group ") {
            rg = rest.split(':').next().unwrap().parse().unwrap();
        } else if let Some(rest) = line.strip_prefix("  ").filter(|r| !r.starts_with(' ')) {
            column = rest.split(':').next().unwrap().to_string();
        } else if let Some(rest) = line.trim_start().strip_prefix(prefix) {
            let old = found.insert((rg, column.clone()), rest.to_string());
            assert!(old.is_none(), "two {prefix} lines for {rg} {column}");
        }
    }
    found
}

/// pyarrow's GeoStatistics of every chunk of `files`: one JSON object per chunk with the
/// file, row group, column path and the statistics (`null` when pyarrow reads none; numbers
/// as Python's `repr`, which reads back to the same double).
const PYARROW_GEO: &str = r#"
import json, sys
import pyarrow.parquet as pq
for f in sys.argv[1:]:
    md = pq.ParquetFile(f).metadata
    for rg in range(md.num_row_groups):
        for c in range(md.num_columns):
            cc = md.row_group(rg).column(c)
            g = cc.geo_statistics
            stats = None
            if g is not None:
                stats = {k: (None if getattr(g, k) is None else repr(float(getattr(g, k))))
                         for k in ["xmin", "xmax", "ymin", "ymax", "zmin", "zmax", "mmin", "mmax"]}
                stats["types"] = g.geospatial_types
            print(json.dumps({"file": f, "rg": rg, "column": cc.path_in_schema, "stats": stats}))
"#;

/// A `geospatial statistics:` line as (axis bound → value, type codes or `None` when
/// unknown).
#[allow(clippy::type_complexity)]
fn parse_geo(line: &str) -> (BTreeMap<String, f64>, Option<Vec<i64>>) {
    let (bounds, types) = line.split_once("types=").expect("types=");
    let mut values = BTreeMap::new();
    for part in bounds.split_whitespace() {
        if part == "box=none" {
            continue;
        }
        let (k, v) = part.split_once('=').unwrap_or_else(|| panic!("{part}"));
        values.insert(
            k.to_string(),
            v.parse().unwrap_or_else(|_| panic!("{part}")),
        );
    }
    let types = (types != "unknown").then(|| {
        types
            .split(", ")
            .map(|t| t.split(' ').next().unwrap().parse().unwrap())
            .collect()
    });
    (values, types)
}

#[test]
fn meta_shows_the_geospatial_statistics_pyarrow_reads() {
    let dir = common::corpus_dir("data/geospatial");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 10, "{files:?}");
    let mut args: Vec<String> = vec!["-c".into(), PYARROW_GEO.into()];
    args.extend(files.iter().map(|f| f.to_str().unwrap().to_string()));
    let expected = common::python_json_lines(&args);
    let mut printed = BTreeMap::new();
    for f in &files {
        for (key, line) in chunk_lines(&meta(f), "geospatial statistics: ") {
            printed.insert((f.to_str().unwrap().to_string(), key), line);
        }
    }
    let (mut boxes, mut with_stats, mut files_with_box) = (0, 0, std::collections::BTreeSet::new());
    for chunk in &expected {
        let file = chunk["file"].as_str().unwrap().to_string();
        let key = (
            file.clone(),
            (
                chunk["rg"].as_u64().unwrap() as usize,
                chunk["column"].as_str().unwrap().to_string(),
            ),
        );
        let line = printed.remove(&key);
        let stats = &chunk["stats"];
        if stats.is_null() {
            assert!(
                line.is_none(),
                "{key:?}: pyarrow reads none, meta printed {line:?}"
            );
            continue;
        }
        with_stats += 1;
        let line = line.unwrap_or_else(|| panic!("{key:?}: no geospatial statistics printed"));
        let (values, types) = parse_geo(&line);
        for bound in [
            "xmin", "xmax", "ymin", "ymax", "zmin", "zmax", "mmin", "mmax",
        ] {
            let want = stats[bound].as_str().map(|v| v.parse::<f64>().unwrap());
            let got = values.get(bound).copied();
            assert_eq!(
                want.map(f64::to_bits),
                got.map(f64::to_bits),
                "{key:?} {bound}: pyarrow {want:?}, meta {line}"
            );
        }
        if values.contains_key("xmin") {
            boxes += 1;
            files_with_box.insert(file);
        }
        let want_types: Option<Vec<i64>> = stats["types"]
            .as_array()
            .map(|a| a.iter().map(|t| t.as_i64().unwrap()).collect());
        assert_eq!(types, want_types, "{key:?}: {line}");
    }
    assert!(
        printed.is_empty(),
        "printed for chunks pyarrow does not list: {printed:?}"
    );
    println!(
        "{with_stats} chunks with geospatial statistics, {boxes} boxes equal pyarrow's, in {} files",
        files_with_box.len()
    );
    assert!(boxes > 0 && with_stats >= boxes);
}

#[test]
fn meta_prints_statistics_as_logical_values() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("logical.parquet");
    // One row group with two rows of every logical type, written by pyarrow.
    let script = r#"
import sys, datetime, decimal, struct, uuid
import pyarrow as pa, pyarrow.parquet as pq
t = pa.table({
    "dec": pa.array([decimal.Decimal("0.00"), decimal.Decimal("99994.90")], pa.decimal128(9, 2)),
    "dec38": pa.array([decimal.Decimal("-1." + "0" * 36 + "1"), decimal.Decimal("0." + "9" * 37)], pa.decimal128(38, 37)),
    "ts_us": pa.array([1767225600000000, 1767225600000001], pa.timestamp("us", tz="UTC")),
    "ts_ns": pa.array([-1, 1], pa.timestamp("ns")),
    "ts_ms": pa.array([0, 86_400_000], pa.timestamp("ms", tz="UTC")),
    "date": pa.array([datetime.date(1957, 11, 7), datetime.date(2024, 11, 7)]),
    "time_us": pa.array([datetime.time(12, 33, 54, 123456), datetime.time(23, 59, 59)]),
    "time_ms": pa.array([0, 3723004], pa.time32("ms")),
    "uuid": pa.array([uuid.UUID(int=1).bytes, uuid.UUID("f24f9b64-81fa-49d1-b74e-8c09a6e31c56").bytes], pa.uuid()),
    # The halves nearest 0.1 (0x2e66) and the largest (65504, 0x7bff), from their bits.
    "f16": pa.Array.from_buffers(pa.float16(), 2, [None, pa.py_buffer(struct.pack("<2H", 0x2E66, 0x7BFF))]),
    "f32": pa.array([0.1, 0.3], pa.float32()),
    "f64": pa.array([0.1, 0.3], pa.float64()),
    "u64": pa.array([0, 2**64 - 1], pa.uint64()),
})
pq.write_table(t, sys.argv[1], store_schema=False)
"#;
    common::run_python(script, &[&path]);
    let stats = chunk_lines(&meta(&path), "statistics: ");
    let minmax = |column: &str| {
        let line = &stats[&(0, column.to_string())];
        let min = line
            .split(" min=")
            .nth(1)
            .unwrap()
            .split(" max=")
            .next()
            .unwrap();
        let max = line
            .split(" max=")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        (min.to_string(), max.to_string())
    };
    let expect = [
        ("dec", "0.00", "99994.90"),
        (
            "dec38",
            &format!("-1.{}1", "0".repeat(36)),
            &format!("0.{}", "9".repeat(37)),
        ),
        (
            "ts_us",
            "2026-01-01T00:00:00.000000Z",
            "2026-01-01T00:00:00.000001Z",
        ),
        (
            "ts_ns",
            "1969-12-31T23:59:59.999999999",
            "1970-01-01T00:00:00.000000001",
        ),
        (
            "ts_ms",
            "1970-01-01T00:00:00.000Z",
            "1970-01-02T00:00:00.000Z",
        ),
        ("date", "1957-11-07", "2024-11-07"),
        ("time_us", "12:33:54.123456", "23:59:59.000000"),
        ("time_ms", "00:00:00.000", "01:02:03.004"),
        (
            "uuid",
            "00000000-0000-0000-0000-000000000001",
            "f24f9b64-81fa-49d1-b74e-8c09a6e31c56",
        ),
        ("f16", "0.1", "65500.0"),
        ("f32", "0.1", "0.3"),
        ("f64", "0.1", "0.3"),
        ("u64", "0", "18446744073709551615"),
    ];
    for (column, min, max) in expect {
        assert_eq!(
            minmax(column),
            (min.to_string(), max.to_string()),
            "{column}: {}",
            stats[&(0, column.to_string())]
        );
    }
}

/// Writes random DECIMAL (every storage, precisions up to 38, random scales), DATE, TIME and
/// TIMESTAMP (every unit, with and without UTC) and FLOAT columns with pyarrow to
/// `argv[1]` (decimals as FIXED_LEN_BYTE_ARRAY) and `argv[2]` (decimals of precision up to
/// 18 as INT32/INT64), then prints for each file and column the min and max text `meta`
/// should show, computed by Python from what pyarrow reads: `format(Decimal, "f")`, dates
/// and times by `datetime`, the float's value.
const PYARROW_RANDOM_STATS: &str = r#"
import datetime, decimal, json, random, sys
import pyarrow as pa, pyarrow.parquet as pq
rng = random.Random(29)
cols, texts = {}, {}
for p in [1, 4, 9, 10, 18, 19, 27, 38]:
    for s in sorted({0, rng.randint(0, p), p}):
        vals = [decimal.Decimal(rng.randint(-10**p + 1, 10**p - 1)).scaleb(-s) for _ in range(40)]
        cols[f"dec{p}_{s}"] = pa.array(vals, pa.decimal128(p, s))
epoch = datetime.datetime(1970, 1, 1)
per_sec = {"ms": 10**3, "us": 10**6, "ns": 10**9}
def ts_text(v, unit, utc):
    secs, frac = divmod(v, per_sec[unit])
    t = epoch + datetime.timedelta(seconds=secs)
    digits = len(str(per_sec[unit])) - 1
    return t.strftime("%Y-%m-%dT%H:%M:%S") + "." + str(frac).zfill(digits) + ("Z" if utc else "")
for unit in ["ms", "us", "ns"]:
    for utc in [False, True]:
        if unit == "ns":
            vals = [rng.randint(-2**63, 2**63 - 1) for _ in range(40)]
        else:  # years 1019 to 9892
            vals = [rng.randint(-30 * 10**9, 250 * 10**9) * per_sec[unit] + rng.randrange(per_sec[unit]) for _ in range(40)]
        name = f"ts_{unit}_{'utc' if utc else 'local'}"
        cols[name] = pa.array(vals, pa.timestamp(unit, tz="UTC" if utc else None))
        texts[name] = (ts_text(min(vals), unit, utc), ts_text(max(vals), unit, utc))
days = [rng.randint(-700_000, 2_900_000) for _ in range(40)]
cols["date"] = pa.array(days, pa.date32())
day = lambda d: (datetime.date(1970, 1, 1) + datetime.timedelta(days=d)).isoformat()
texts["date"] = (day(min(days)), day(max(days)))
for unit, typ in [("ms", pa.time32("ms")), ("us", pa.time64("us")), ("ns", pa.time64("ns"))]:
    vals = [rng.randrange(86_400 * per_sec[unit]) for _ in range(40)]
    cols[f"time_{unit}"] = pa.array(vals, typ)
    texts[f"time_{unit}"] = tuple(ts_text(v, unit, False)[11:] for v in (min(vals), max(vals)))
cols["f32"] = pa.array([rng.uniform(-1e6, 1e6) for _ in range(40)], pa.float32())
table = pa.table(cols)
for i, path in enumerate(sys.argv[1:3]):
    pq.write_table(table, path, store_schema=False, store_decimal_as_integer=(i == 1))
    md = pq.ParquetFile(path).metadata.row_group(0)
    for c in range(md.num_columns):
        cc = md.column(c)
        name = cc.path_in_schema
        st = cc.statistics
        if name.startswith("dec"):
            want = (format(st.min, "f"), format(st.max, "f"))
        elif name == "f32":
            want = (repr(st.min), repr(st.max))
        else:
            want = texts[name]
        print(json.dumps({"file": i, "column": name, "physical": cc.physical_type, "min": want[0], "max": want[1]}))
"#;

#[test]
fn meta_prints_random_statistics_as_python_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        dir.path().join("flba.parquet"),
        dir.path().join("ints.parquet"),
    ];
    let expected = common::python_json_lines(&[
        "-c",
        PYARROW_RANDOM_STATS,
        files[0].to_str().unwrap(),
        files[1].to_str().unwrap(),
    ]);
    let printed: Vec<_> = files
        .iter()
        .map(|f| chunk_lines(&meta(f), "statistics: "))
        .collect();
    let mut physical = std::collections::BTreeSet::new();
    for chunk in &expected {
        let column = chunk["column"].as_str().unwrap();
        let line = &printed[chunk["file"].as_u64().unwrap() as usize][&(0, column.to_string())];
        let min = line
            .split(" min=")
            .nth(1)
            .unwrap()
            .split(" max=")
            .next()
            .unwrap();
        let max = line
            .split(" max=")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        let (want_min, want_max) = (
            chunk["min"].as_str().unwrap(),
            chunk["max"].as_str().unwrap(),
        );
        if column == "f32" {
            // Python widens the float to a double; the same f32 either way.
            let same = |ours: &str, theirs: &str| {
                ours.parse::<f32>().unwrap().to_bits()
                    == (theirs.parse::<f64>().unwrap() as f32).to_bits()
            };
            assert!(
                same(min, want_min) && same(max, want_max),
                "{column}: {line}, Python {want_min} {want_max}"
            );
        } else {
            assert_eq!((min, max), (want_min, want_max), "{column}: {line}");
        }
        if column.starts_with("dec") {
            physical.insert(chunk["physical"].as_str().unwrap().to_string());
        }
    }
    println!(
        "{} chunks equal Python's; decimals stored as {physical:?}",
        expected.len()
    );
    assert_eq!(physical.len(), 3, "{physical:?}");
}
