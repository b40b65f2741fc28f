//! Statistics, page index and Bloom filters of files we write, as pyarrow and DuckDB see
//! them: pyarrow reports the same statistics for our file as for the same rows written by
//! itself, DuckDB's parquet_metadata agrees, and DuckDB's parquet_bloom_probe uses our Bloom
//! filters.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::collections::HashMap;
use std::path::Path;

use common::testdata;
use parquet_serde::core::bloom::BloomFilterOptions;
use parquet_serde::core::column::{ColumnBatch, Scalar};
use parquet_serde::core::file::{FileReader, FileWriter, WriterOptions};
use parquet_serde::core::schema::Schema;
use parquet_serde::core::values::{ByteArrays, ColumnValues, FixedLenByteArrays, Int96};
use serde_json::{json, Value as J};

const SCHEMA: &str = "message stats {
  required boolean c_bool;
  optional int32 c_i32;
  optional int32 c_u32 (INTEGER(32,false));
  optional int64 c_i64;
  optional int64 c_u64 (INTEGER(64,false));
  optional int64 c_ts (TIMESTAMP(MICROS,true));
  optional int32 c_date (DATE);
  optional float c_f32;
  optional double c_f64;
  optional fixed_len_byte_array(2) c_f16 (FLOAT16);
  optional binary c_str (STRING);
  optional binary c_bin;
  optional fixed_len_byte_array(4) c_flba;
  optional fixed_len_byte_array(5) c_dec (DECIMAL(10,2));
  optional int64 c_dec64 (DECIMAL(18,3));
  optional group c_list (LIST) { repeated group list { optional int64 element; } }
  optional int96 c_i96;
}";

const ROWS: usize = 3000;
const PER_GROUP: usize = 1000;

fn null(r: usize, c: usize) -> bool {
    (r * 31 + c * 7).is_multiple_of(13) || c == 11 && (1000..2000).contains(&r)
}

fn i32v(r: usize) -> i32 {
    match r % 97 {
        0 => i32::MIN,
        1 => i32::MAX,
        _ => (r as i32 * 7919) % 100_000 - 50_000,
    }
}

fn u32v(r: usize) -> u32 {
    (r as u32).wrapping_mul(2_654_435_761)
}

fn i64v(r: usize) -> i64 {
    (r as i64 - 1500) * 1_000_000_007
}

fn f64v(r: usize) -> f64 {
    match r % 41 {
        0 => f64::NAN,
        1 => -0.0,
        2 => 0.0,
        _ => (r as f64).sin() * 1e3,
    }
}

/// Half floats: a few values including zeros and NaN.
fn f16v(r: usize) -> u16 {
    [
        0x3c00u16, 0xc000, 0x0000, 0x8000, 0x7e00, 0x4900, 0xbc00, 0x0001,
    ][r % 8]
}

fn text(r: usize) -> String {
    match r % 17 {
        0 => String::new(),
        1 => "héllo wörld ✓".to_string(),
        k => format!("value-{:05}-{k}", (r * 37) % 5000),
    }
}

fn decv(r: usize) -> i64 {
    (r as i64 * 12_345) % 9_999_999_999 - 4_000_000_000
}

fn batch<T>(
    rows: &[usize],
    c: usize,
    f: impl Fn(usize) -> T,
    wrap: impl FnOnce(Vec<T>) -> ColumnValues,
) -> ColumnBatch {
    let def: Vec<i16> = rows.iter().map(|&r| (!null(r, c)) as i16).collect();
    let vals: Vec<T> = rows
        .iter()
        .filter(|&&r| !null(r, c))
        .map(|&r| f(r))
        .collect();
    ColumnBatch {
        values: wrap(vals),
        def_levels: def,
        rep_levels: vec![],
    }
}

fn bytes_batch(rows: &[usize], c: usize, f: impl Fn(usize) -> Vec<u8>) -> ColumnBatch {
    let mut v = ByteArrays::new();
    for &r in rows.iter().filter(|&&r| !null(r, c)) {
        v.push(&f(r));
    }
    ColumnBatch {
        values: ColumnValues::ByteArray(v),
        def_levels: rows.iter().map(|&r| (!null(r, c)) as i16).collect(),
        rep_levels: vec![],
    }
}

fn fixed_batch(
    rows: &[usize],
    c: usize,
    width: usize,
    f: impl Fn(usize) -> Vec<u8>,
) -> ColumnBatch {
    let mut v = FixedLenByteArrays::new(width);
    for &r in rows.iter().filter(|&&r| !null(r, c)) {
        v.push(&f(r));
    }
    ColumnBatch {
        values: ColumnValues::FixedLenByteArray(v),
        def_levels: rows.iter().map(|&r| (!null(r, c)) as i16).collect(),
        rep_levels: vec![],
    }
}

fn write(path: &Path, options: WriterOptions) {
    let schema: Schema = SCHEMA.parse().unwrap();
    let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
    for g in 0..ROWS / PER_GROUP {
        let rows: Vec<usize> = (g * PER_GROUP..(g + 1) * PER_GROUP).collect();
        let batches = vec![
            ColumnBatch {
                values: ColumnValues::Boolean(rows.iter().map(|r| r % 3 == 0).collect()),
                def_levels: vec![],
                rep_levels: vec![],
            },
            batch(&rows, 1, i32v, ColumnValues::Int32),
            batch(&rows, 2, |r| u32v(r) as i32, ColumnValues::Int32),
            batch(&rows, 3, i64v, ColumnValues::Int64),
            batch(
                &rows,
                4,
                |r| (u64::MAX - r as u64 * 3) as i64,
                ColumnValues::Int64,
            ),
            batch(
                &rows,
                5,
                |r| 1_700_000_000_000_000 + r as i64 * 1_000,
                ColumnValues::Int64,
            ),
            batch(
                &rows,
                6,
                |r| 19_000 + (r as i32 % 400) - 200,
                ColumnValues::Int32,
            ),
            batch(&rows, 7, |r| f64v(r) as f32, ColumnValues::Float),
            batch(&rows, 8, f64v, ColumnValues::Double),
            fixed_batch(&rows, 9, 2, |r| f16v(r).to_le_bytes().to_vec()),
            bytes_batch(&rows, 10, |r| text(r).into_bytes()),
            bytes_batch(&rows, 11, |r| vec![(r % 256) as u8, 0xff, (r % 7) as u8]),
            fixed_batch(&rows, 12, 4, |r| {
                (r as u32)
                    .wrapping_mul(2_654_435_761)
                    .to_be_bytes()
                    .to_vec()
            }),
            fixed_batch(&rows, 13, 5, |r| decv(r).to_be_bytes()[3..].to_vec()),
            batch(&rows, 14, |r| decv(r) * 7, ColumnValues::Int64),
            {
                let (mut v, mut d, mut rep) = (Vec::new(), Vec::new(), Vec::new());
                for &r in &rows {
                    if null(r, 15) {
                        d.push(0);
                        rep.push(0);
                        continue;
                    }
                    let n = r % 4;
                    if n == 0 {
                        d.push(1);
                        rep.push(0);
                    }
                    for j in 0..n {
                        rep.push((j > 0) as i16);
                        if (r + j) % 5 == 0 {
                            d.push(2);
                        } else {
                            d.push(3);
                            v.push((r * 10 + j) as i64 - 10_000);
                        }
                    }
                }
                ColumnBatch {
                    values: ColumnValues::Int64(v),
                    def_levels: d,
                    rep_levels: rep,
                }
            },
            batch(
                &rows,
                16,
                |r| Int96::from_nanos(r as i64 * 1_000_000_007),
                ColumnValues::Int96,
            ),
        ];
        let mut chunks = Vec::new();
        for (c, b) in batches.iter().enumerate() {
            let mut cw = w.column_writer(c).unwrap();
            cw.write(b).unwrap();
            chunks.push(cw.close().unwrap());
        }
        w.write_row_group(chunks).unwrap();
    }
    let (bytes, _) = w.close().unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn run(args: &[&str]) -> Vec<J> {
    let script = testdata().join("stats_with.py");
    let mut all = vec![script.as_os_str()];
    all.extend(args.iter().map(std::ffi::OsStr::new));
    common::python_json_lines(&all)
}

fn norm(s: &Scalar) -> J {
    match s {
        Scalar::Bool(b) => json!(b),
        Scalar::Int(i) => json!(i.to_string()),
        Scalar::Float(f) if f.is_nan() => json!("NaN"),
        Scalar::Float(f) => json!(f),
        Scalar::Bytes(b) => {
            json!({ "hex": b.iter().map(|x| format!("{x:02x}")).collect::<String>() })
        }
        // Statistics hold no other kind (decimals are predicate literals only).
        other => panic!("a statistic holds {other:?}"),
    }
}

fn same(a: &J, b: &J) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y && x.is_sign_negative() == y.is_sign_negative(),
        _ => a == b,
    }
}

fn options() -> WriterOptions {
    let mut o = WriterOptions::default()
        .page_row_limit(300)
        .sorting_column("c_i64", false, true);
    for c in [
        "c_i32",
        "c_u32",
        "c_i64",
        "c_str",
        "c_f64",
        "c_date",
        "c_dec",
        "c_list.list.element",
    ] {
        o = o.bloom_filter(c, BloomFilterOptions::default());
    }
    o
}

#[test]
fn pyarrow_reports_the_statistics_it_writes_itself() {
    let dir = tempfile::tempdir().unwrap();
    let ours = dir.path().join("ours.parquet");
    let theirs = dir.path().join("theirs.parquet");
    write(&ours, options());
    let (o, t) = (ours.to_str().unwrap(), theirs.to_str().unwrap());
    run(&["rewrite", o, t, &PER_GROUP.to_string()]);
    let stats = run(&["pyarrow", o, t]);
    let mut by_file: HashMap<(String, u64, String), J> = HashMap::new();
    for s in stats {
        let f = s["file"].as_str().unwrap().to_string();
        by_file.insert(
            (
                f,
                s["rg"].as_u64().unwrap(),
                s["path"].as_str().unwrap().to_string(),
            ),
            s,
        );
    }
    let reader = FileReader::new(std::fs::read(&ours).unwrap()).unwrap();
    let md = reader.metadata();
    let mut compared = 0;
    let mut failures = Vec::new();
    for rg in 0..md.num_row_groups() {
        for (c, d) in md.schema().columns().iter().enumerate() {
            let path = d.path.to_string();
            let a = &by_file[&(o.to_string(), rg as u64, path.clone())];
            let b = &by_file[&(t.to_string(), rg as u64, path.clone())];
            let at = format!("rg {rg} {path}");
            if path == "c_i96" {
                // pyarrow rewrites INT96 as INT64 timestamps; ours are INT96 in
                // INT96_TIMESTAMP_ORDER, which pyarrow 26 does not know: no min/max for it.
                assert_eq!(
                    (&a["has_min_max"], &a["null_count"]),
                    (&json!(false), &json!(77)),
                    "{at}"
                );
                compared += 1;
                continue;
            }
            if a["has_min_max"] != b["has_min_max"] || a["null_count"] != b["null_count"] {
                failures.push(format!("{at}: ours {a} theirs {b}"));
                continue;
            }
            if a["has_min_max"] == json!(true) {
                if !(same(&a["min"], &b["min"]) && same(&a["max"], &b["max"])) {
                    failures.push(format!(
                        "{at}: ours {} {} theirs {} {}",
                        a["min"], a["max"], b["min"], b["max"]
                    ));
                    continue;
                }
                // And our own reader reads what pyarrow reads.
                let s = md.column_statistics(rg, c).unwrap();
                assert!(same(&norm(s.min.as_ref().unwrap()), &a["min"]), "{at}");
                assert!(same(&norm(s.max.as_ref().unwrap()), &a["max"]), "{at}");
            }
            // INT96 too, in INT96_TIMESTAMP_ORDER.
            assert_eq!(a["has_column_index"], json!(true), "{at}");
            assert_eq!(a["has_offset_index"], json!(true), "{at}");
            compared += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(compared, 3 * 17);
    let keys = run(&["pyarrow", o]);
    assert!(keys
        .iter()
        .any(|k| k["path"] == json!("c_str") && k["bloom_filter_offset"].as_i64().is_some()));
}

#[test]
fn duckdb_metadata_agrees() {
    let dir = tempfile::tempdir().unwrap();
    let ours = dir.path().join("ours.parquet");
    let theirs = dir.path().join("theirs.parquet");
    write(&ours, options());
    let (o, t) = (ours.to_str().unwrap(), theirs.to_str().unwrap());
    run(&["rewrite", o, t, &PER_GROUP.to_string()]);
    let rows = run(&["duckdb", o, t]);
    let key = |r: &J| {
        (
            r["file_name"].as_str().unwrap().to_string(),
            r["row_group_id"].as_u64().unwrap(),
            r["path_in_schema"].as_str().unwrap().to_string(),
        )
    };
    let map: HashMap<_, _> = rows.iter().map(|r| (key(r), r)).collect();
    let reader = FileReader::new(std::fs::read(&ours).unwrap()).unwrap();
    let md = reader.metadata();
    let mut failures = Vec::new();
    for rg in 0..3u64 {
        for (c, d) in md.schema().columns().iter().enumerate() {
            // DuckDB names nested paths with ", ".
            let path = d.path.parts().join(", ");
            let a = map[&(o.to_string(), rg, path.clone())];
            let b = map[&(t.to_string(), rg, path.clone())];
            if path == "c_i96" {
                // INT96_TIMESTAMP_ORDER bounds, which DuckDB shows; pyarrow's rewrite has
                // INT64 timestamps.
                assert!(a["stats_min_value"].is_string(), "{}", a["stats_min_value"]);
                continue;
            }
            for f in ["stats_min_value", "stats_max_value", "stats_null_count"] {
                // pyarrow stores DECIMAL(18,3) as FIXED_LEN_BYTE_ARRAY, we as INT64: DuckDB
                // prints both as the same decimal.
                if a[f] != b[f] {
                    failures.push(format!("rg {rg} {path} {f}: ours {} theirs {}", a[f], b[f]));
                }
            }
            let ours = md.column_statistics(rg as usize, c).unwrap();
            assert_eq!(a["stats_null_count"].as_u64(), ours.null_count, "{path}");
            if d.path.to_string() == "c_str" {
                let (lo, hi) = (ours.min.unwrap(), ours.max.unwrap());
                assert_eq!(a["stats_min_value"].as_str(), lo.as_str(), "{path}");
                assert_eq!(a["stats_max_value"].as_str(), hi.as_str(), "{path}");
            }
            if d.path.to_string() == "c_f64" {
                assert!(
                    a["stats_nan_count"].as_u64().is_some(),
                    "we write nan_count"
                );
            }
            assert!(
                a["bloom_filter_offset"].is_number()
                    == [
                        "c_i32",
                        "c_u32",
                        "c_i64",
                        "c_str",
                        "c_f64",
                        "c_date",
                        "c_dec",
                        "c_list.list.element"
                    ]
                    .contains(&d.path.to_string().as_str()),
                "{path}"
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn duckdb_probes_our_bloom_filters() {
    let dir = tempfile::tempdir().unwrap();
    let ours = dir.path().join("ours.parquet");
    write(&ours, options());
    let o = ours.to_str().unwrap();
    // Which row groups hold a value (non-null), per column.
    let groups = |c: usize, pred: &dyn Fn(usize) -> bool| -> Vec<bool> {
        (0..3)
            .map(|g| (g * PER_GROUP..(g + 1) * PER_GROUP).any(|r| !null(r, c) && pred(r)))
            .collect()
    };
    let cases: Vec<(&str, usize, J, Vec<bool>)> = vec![
        (
            "c_str",
            10,
            json!(text(1234)),
            groups(10, &|r| text(r) == text(1234)),
        ),
        (
            "c_str",
            10,
            json!("héllo wörld ✓"),
            groups(10, &|r| r % 17 == 1),
        ),
        ("c_str", 10, json!("not there"), vec![false; 3]),
        (
            "c_i32",
            1,
            json!(i32v(2500)),
            groups(1, &|r| i32v(r) == i32v(2500)),
        ),
        ("c_i32", 1, json!(123_456_789), vec![false; 3]),
        (
            "c_i64",
            3,
            json!(i64v(10)),
            groups(3, &|r| i64v(r) == i64v(10)),
        ),
        (
            "c_u32",
            2,
            json!(u32v(2999)),
            groups(2, &|r| u32v(r) == u32v(2999)),
        ),
        (
            "c_f64",
            8,
            json!(f64v(1003)),
            groups(8, &|r| f64v(r) == f64v(1003)),
        ),
    ];
    let mut false_positives = 0;
    for (column, _, value, present) in cases {
        let probe = run(&["bloom", o, column, &value.to_string()]);
        let excludes: Vec<bool> = probe[0]["excludes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_bool().unwrap())
            .collect();
        assert_eq!(excludes.len(), 3, "{column} {value}");
        for g in 0..3 {
            if present[g] {
                assert!(
                    !excludes[g],
                    "{column} = {value}: DuckDB excludes row group {g} holding it"
                );
            } else if !excludes[g] {
                false_positives += 1;
            }
        }
    }
    assert!(
        false_positives <= 1,
        "{false_positives} row groups not excluded for absent values"
    );
}

#[test]
fn truncated_statistics_as_pyarrow_reads_them() {
    // Long strings: bounds shortened to 8 bytes, marked inexact, still bounds.
    let schema: Schema = "message m { required binary s (STRING); }".parse().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.parquet");
    let mut w = FileWriter::new(
        Vec::new(),
        schema,
        WriterOptions::default().statistics_truncate_length(Some(8)),
    )
    .unwrap();
    let mut v = ByteArrays::new();
    for s in [
        "aaaaaaaaaaaa-first",
        "zzzzzzzzzz-last",
        "mmmm",
        "ééééé-accents",
    ] {
        v.push(s.as_bytes());
    }
    let mut c = w.column_writer(0).unwrap();
    c.write(&ColumnBatch {
        values: ColumnValues::ByteArray(v),
        def_levels: vec![],
        rep_levels: vec![],
    })
    .unwrap();
    w.write_row_group(vec![c.close().unwrap()]).unwrap();
    std::fs::write(&path, w.close().unwrap().0).unwrap();
    let p = path.to_str().unwrap();
    let s = &run(&["pyarrow", p])[0];
    assert_eq!(s["min"], json!({"hex": hex("aaaaaaaa")}));
    // "ééééé-accents" is the largest (0xc3 > 'z'); cut to "éééé" and the last é raised.
    assert_eq!(s["max"], json!({"hex": hex("éééê")}));
    let d = &run(&["duckdb", p])[0];
    assert_eq!(
        (d["min_is_exact"].as_bool(), d["max_is_exact"].as_bool()),
        (Some(false), Some(false))
    );
    let r = FileReader::new(std::fs::read(&path).unwrap()).unwrap();
    let st = r.metadata().column_statistics(0, 0).unwrap();
    assert!(!st.min_exact && !st.max_exact);
}

fn hex(s: &str) -> String {
    s.bytes().map(|b| format!("{b:02x}")).collect()
}
