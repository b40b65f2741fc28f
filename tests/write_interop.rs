//! Files written by the low-level writer, for every physical type × codec × page version,
//! with nulls, several pages and row groups, and nested lists, are read by pyarrow and
//! DuckDB (run as subprocesses) with exactly the values written.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::path::Path;

use common::{json_eq, rows_json};
use parquet_serde::core::column::{ColumnBatch, DataPageVersion};
use parquet_serde::core::file::{FileWriter, WriterOptions};
use parquet_serde::core::schema::Schema;
use parquet_serde::core::values::{ByteArrays, ColumnValues, FixedLenByteArrays, Int96};
use parquet_serde::{Compression, ReadOptions};
use serde_json::{json, Value as J};

const SCHEMA: &str = "message interop {
  optional boolean c_bool;
  required int32 c_i32;
  optional int32 c_u16 (INTEGER(16,false));
  optional int64 c_i64;
  optional int64 c_ts (TIMESTAMP(MICROS,true));
  optional int32 c_date (DATE);
  optional int96 c_i96;
  optional float c_f32;
  required double c_f64;
  optional binary c_str (STRING);
  required binary c_bin;
  optional fixed_len_byte_array(4) c_flba;
  optional int64 c_dec (DECIMAL(18,3));
  optional group c_list (LIST) {
    repeated group list {
      optional int64 element;
    }
  }
  required group c_strs (LIST) {
    repeated group list {
      required binary element (STRING);
    }
  }
}";

const ROWS: usize = 2_500;
const ROWS_PER_GROUP: usize = 1_000;

fn is_null(r: usize, k: usize) -> bool {
    (r * 7 + k * 3).is_multiple_of(11)
}

fn text(r: usize) -> String {
    // Repeats enough for dictionaries, with some unicode and an empty string.
    match r % 13 {
        0 => String::new(),
        1 => "héllo \"wörld\"\n".to_string(),
        k => format!("value-{}", (r / 3) % 50 + k),
    }
}

fn base64(b: &[u8]) -> String {
    let mut s = String::new();
    parquet_serde::record::Value::Bytes(b.to_vec()).write_json(&mut s);
    s.trim_matches('"').to_string()
}

/// The rows as the `cat` JSON mapping expects them.
fn expected_rows(rows: std::ops::Range<usize>) -> Vec<J> {
    rows.map(|r| {
        let opt = |k: usize, v: J| if is_null(r, k) { J::Null } else { v };
        let f32v = (r as f32) * 0.25 - 100.0;
        let list = if r % 7 == 0 {
            J::Null
        } else if r % 7 == 1 {
            json!([])
        } else {
            J::Array(
                (0..r % 4 + 1)
                    .map(|j| if (r + j) % 5 == 0 { J::Null } else { json!((r * 10 + j) as i64 - 5000) })
                    .collect(),
            )
        };
        let strs: Vec<J> = (0..r % 3).map(|j| json!(text(r + j))).collect();
        json!({
            "c_bool": opt(0, json!(r % 3 == 0)),
            "c_i32": (r as i32) * 7919 - 1_000_000,
            "c_u16": opt(1, json!((r * 31) % 65536)),
            "c_i64": opt(2, json!(if r % 17 == 0 { i64::MIN + r as i64 } else { (r as i64) << 33 })),
            "c_ts": opt(3, J::Null),
            "c_date": opt(4, J::Null),
            "c_i96": opt(5, J::Null),
            "c_f32": opt(6, if r % 97 == 5 { json!("NaN") } else { json!(f32v) }),
            "c_f64": if r % 89 == 3 { json!("-Infinity") } else { json!(r as f64 / 3.0) },
            "c_str": opt(7, json!(text(r))),
            "c_bin": base64(&(r as u32).to_be_bytes()[..r % 5]),
            "c_flba": opt(8, json!(base64(&(r as u32).to_le_bytes()))),
            "c_dec": opt(9, J::Null),
            "c_list": list,
            "c_strs": strs,
        })
    })
    .collect()
}

/// Fills the "time-like" expectations from our own JSON mapping (their text form is tested
/// in the record module; here only equality across engines matters).
fn fill_formatted(expected: &mut [J], ours: &[J]) {
    for (e, o) in expected.iter_mut().zip(ours) {
        for k in ["c_ts", "c_date", "c_i96", "c_dec"] {
            if !e[k].is_null() || !o[k].is_null() {
                e[k] = o[k].clone();
            }
        }
    }
}

fn column_batches(rows: std::ops::Range<usize>) -> Vec<ColumnBatch> {
    let n = rows.len();
    let def = |k: usize| {
        rows.clone()
            .map(|r| if is_null(r, k) { 0 } else { 1 })
            .collect::<Vec<i16>>()
    };
    let present = |k: usize| rows.clone().filter(move |&r| !is_null(r, k));
    let batch = |values, def_levels| ColumnBatch {
        values,
        def_levels,
        rep_levels: vec![],
    };
    let mut strings = ByteArrays::new();
    for r in present(7) {
        strings.push(text(r).as_bytes());
    }
    let mut bins = ByteArrays::new();
    for r in rows.clone() {
        bins.push(&(r as u32).to_be_bytes()[..r % 5]);
    }
    let mut flba = FixedLenByteArrays::new(4);
    for r in present(8) {
        flba.push(&(r as u32).to_le_bytes());
    }
    // c_list: optional list of optional int64 (max def 3, max rep 1).
    let (mut lv, mut ld, mut lr) = (vec![], vec![], vec![]);
    // c_strs: required list of required strings (max def 1, max rep 1).
    let (mut sv, mut sd, mut sr) = (ByteArrays::new(), vec![], vec![]);
    for r in rows.clone() {
        if r % 7 == 0 {
            ld.push(0);
            lr.push(0);
        } else if r % 7 == 1 {
            ld.push(1);
            lr.push(0);
        } else {
            for j in 0..r % 4 + 1 {
                lr.push(if j == 0 { 0 } else { 1 });
                if (r + j) % 5 == 0 {
                    ld.push(2);
                } else {
                    ld.push(3);
                    lv.push((r * 10 + j) as i64 - 5000);
                }
            }
        }
        if r % 3 == 0 {
            sd.push(0);
            sr.push(0);
        }
        for j in 0..r % 3 {
            sd.push(1);
            sr.push(if j == 0 { 0 } else { 1 });
            sv.push(text(r + j).as_bytes());
        }
    }
    assert_eq!(n, rows.len());
    vec![
        batch(
            ColumnValues::Boolean(present(0).map(|r| r % 3 == 0).collect()),
            def(0),
        ),
        batch(
            ColumnValues::Int32(
                rows.clone()
                    .map(|r| (r as i32) * 7919 - 1_000_000)
                    .collect(),
            ),
            vec![],
        ),
        batch(
            ColumnValues::Int32(
                present(1)
                    .map(|r| ((r * 31) % 65536) as u16 as i32)
                    .collect(),
            ),
            def(1),
        ),
        batch(
            ColumnValues::Int64(
                present(2)
                    .map(|r| {
                        if r % 17 == 0 {
                            i64::MIN + r as i64
                        } else {
                            (r as i64) << 33
                        }
                    })
                    .collect(),
            ),
            def(2),
        ),
        batch(
            ColumnValues::Int64(
                present(3)
                    .map(|r| 1_700_000_000_000_000 + r as i64 * 1_000_003)
                    .collect(),
            ),
            def(3),
        ),
        batch(
            ColumnValues::Int32(present(4).map(|r| r as i32 * 37 - 20_000).collect()),
            def(4),
        ),
        batch(
            ColumnValues::Int96(
                present(5)
                    .map(|r| Int96::from_nanos(1_600_000_000_123_456_789 + r as i64 * 999_999_937))
                    .collect(),
            ),
            def(5),
        ),
        batch(
            ColumnValues::Float(
                present(6)
                    .map(|r| {
                        if r % 97 == 5 {
                            f32::NAN
                        } else {
                            (r as f32) * 0.25 - 100.0
                        }
                    })
                    .collect(),
            ),
            def(6),
        ),
        batch(
            ColumnValues::Double(
                rows.clone()
                    .map(|r| {
                        if r % 89 == 3 {
                            f64::NEG_INFINITY
                        } else {
                            r as f64 / 3.0
                        }
                    })
                    .collect(),
            ),
            vec![],
        ),
        batch(ColumnValues::ByteArray(strings), def(7)),
        batch(ColumnValues::ByteArray(bins), vec![]),
        batch(ColumnValues::FixedLenByteArray(flba), def(8)),
        batch(
            ColumnValues::Int64(
                present(9)
                    .map(|r| r as i64 * 1_234_567 - 99_999_999)
                    .collect(),
            ),
            def(9),
        ),
        ColumnBatch {
            values: ColumnValues::Int64(lv),
            def_levels: ld,
            rep_levels: lr,
        },
        ColumnBatch {
            values: ColumnValues::ByteArray(sv),
            def_levels: sd,
            rep_levels: sr,
        },
    ]
}

fn write_file(path: &Path, options: WriterOptions) {
    let schema: Schema = SCHEMA.parse().unwrap();
    let file = std::fs::File::create(path).unwrap();
    let mut writer = FileWriter::new(std::io::BufWriter::new(file), schema, options).unwrap();
    let mut start = 0;
    while start < ROWS {
        let end = (start + ROWS_PER_GROUP).min(ROWS);
        let mut chunks = Vec::new();
        for (c, batch) in column_batches(start..end).into_iter().enumerate() {
            let mut w = writer.column_writer(c).unwrap();
            // Two writes per chunk, split inside the rows, to exercise appends.
            let max_def = writer.schema().columns()[c].max_def_level;
            let half = split_at_row(&batch, (end - start) / 2, max_def);
            w.write(&half.0).unwrap();
            w.write(&half.1).unwrap();
            chunks.push(w.close().unwrap());
        }
        writer.write_row_group(chunks).unwrap();
        start = end;
    }
    writer.close().unwrap();
}

/// Splits a batch before row `row`.
fn split_at_row(b: &ColumnBatch, row: usize, max_def: i16) -> (ColumnBatch, ColumnBatch) {
    let n = b.num_levels();
    let mut level = n;
    let mut rows_seen = 0;
    for i in 0..n {
        if b.rep_levels.is_empty() || b.rep_levels[i] == 0 {
            if rows_seen == row {
                level = i;
                break;
            }
            rows_seen += 1;
        }
    }
    let values_before = if b.def_levels.is_empty() {
        level
    } else {
        b.def_levels[..level]
            .iter()
            .filter(|&&d| d == max_def)
            .count()
    };
    let cut = |v: &ColumnValues, range: std::ops::Range<usize>| -> ColumnValues {
        match v {
            ColumnValues::Boolean(x) => ColumnValues::Boolean(x[range].to_vec()),
            ColumnValues::Int32(x) => ColumnValues::Int32(x[range].to_vec()),
            ColumnValues::Int64(x) => ColumnValues::Int64(x[range].to_vec()),
            ColumnValues::Int96(x) => ColumnValues::Int96(x[range].to_vec()),
            ColumnValues::Float(x) => ColumnValues::Float(x[range].to_vec()),
            ColumnValues::Double(x) => ColumnValues::Double(x[range].to_vec()),
            ColumnValues::ByteArray(x) => {
                let mut o = ByteArrays::new();
                for i in range {
                    o.push(x.get(i));
                }
                ColumnValues::ByteArray(o)
            }
            ColumnValues::FixedLenByteArray(x) => {
                let mut o = FixedLenByteArrays::new(x.width());
                for i in range {
                    o.push(x.get(i));
                }
                ColumnValues::FixedLenByteArray(o)
            }
        }
    };
    let lv =
        |l: &Vec<i16>, r: std::ops::Range<usize>| if l.is_empty() { vec![] } else { l[r].to_vec() };
    let total = b.values.len();
    (
        ColumnBatch {
            values: cut(&b.values, 0..values_before),
            def_levels: lv(&b.def_levels, 0..level),
            rep_levels: lv(&b.rep_levels, 0..level),
        },
        ColumnBatch {
            values: cut(&b.values, values_before..total),
            def_levels: lv(&b.def_levels, level..n),
            rep_levels: lv(&b.rep_levels, level..n),
        },
    )
}

#[test]
fn pyarrow_and_duckdb_read_what_we_write() {
    let dir = tempfile::tempdir().unwrap();
    let codecs = [
        ("uncompressed", Compression::Uncompressed),
        ("snappy", Compression::Snappy),
        ("gzip", Compression::Gzip(6)),
        ("brotli", Compression::Brotli(5)),
        ("zstd", Compression::Zstd(3)),
        ("lz4raw", Compression::Lz4Raw),
    ];
    let mut files = Vec::new();
    for (name, codec) in codecs {
        for (v, version) in [("v1", DataPageVersion::V1), ("v2", DataPageVersion::V2)] {
            for dictionary in [true, false] {
                let path = dir
                    .path()
                    .join(format!("{name}-{v}-dict{dictionary}.parquet"));
                let options = WriterOptions::default()
                    .compression(codec)
                    .data_page_version(version)
                    .dictionary(dictionary)
                    .page_size(2048);
                write_file(&path, options);
                files.push(path);
            }
        }
    }
    let mut expected = expected_rows(0..ROWS);
    // Our own reader first: it must give the rows written.
    let ours: Vec<J> = rows_json(std::fs::read(&files[0]).unwrap(), ReadOptions::default())
        .unwrap()
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    fill_formatted(&mut expected, &ours);
    for (i, (e, o)) in expected.iter().zip(&ours).enumerate() {
        assert!(
            json_eq(e, o),
            "our reader, row {i}:\n  ours     {o}\n  expected {e}"
        );
    }
    let mut checked = 0;
    for engine in ["pyarrow", "duckdb"] {
        let results = common::read_with(engine, &files);
        assert_eq!(results.len(), files.len(), "{engine} read every file");
        for (file, rows) in results {
            let rows = rows.unwrap_or_else(|e| panic!("{engine} failed on {file}: {e}"));
            assert_eq!(rows.len(), ROWS, "{engine} {file}");
            for (i, (e, got)) in expected.iter().zip(&rows).enumerate() {
                let mut e = e.clone();
                if engine == "duckdb" {
                    // DuckDB keeps timestamps in microseconds: INT96 nanoseconds are cut.
                    if let Some(s) = e["c_i96"].as_str() {
                        e["c_i96"] = json!(format!("{}000Z", &s[..s.len() - 4]));
                    }
                }
                assert!(
                    json_eq(&e, got),
                    "{engine} {file} row {i}:\n  {engine} {got}\n  expected {e}"
                );
            }
            checked += 1;
        }
    }
    println!("{checked} file reads by pyarrow and DuckDB equal to the {ROWS} rows written");
}
