//! Files written from typed rows (`parquet_serde::to_path`) are read by pyarrow and DuckDB
//! (run as subprocesses through testdata/read_with.py) with exactly the values of the rows:
//! each engine's rows, in the JSON mapping of `parquet-serde cat`, equal the expected JSON
//! built from the Rust values, and so do our own reader's.

// `is_multiple_of` is newer than the crate's minimum Rust version.
#![allow(unknown_lints, clippy::manual_is_multiple_of)]

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::collections::BTreeMap;

use common::{json_eq, rows_json};
use parquet_serde::core::schema::TimeUnit;
use parquet_serde::record::Value;
use parquet_serde::{Compression, ParquetSchema, ReadOptions, WriterOptions};
use serde::Serialize;
use serde_json::Value as J;

#[derive(Serialize, ParquetSchema)]
struct LogRecord {
    #[parquet(timestamp = "micros")]
    ts: i64,
    level: Level,
    target: String,
    message: String,
    user_id: Option<u64>,
    tags: Vec<String>,
    attrs: BTreeMap<String, String>,
    http: Option<Http>,
    spans: Vec<Span>,
}

#[derive(Serialize, ParquetSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Level {
    Debug,
    Info,
    Warn,
    Error,
}

#[derive(Serialize, ParquetSchema)]
struct Http {
    method: String,
    status: u16,
    latency_ms: f64,
    route: Option<String>,
}

#[derive(Serialize, ParquetSchema)]
struct Span {
    name: String,
    dur_us: i64,
    parent: Option<u32>,
}

const LEVELS: [(Level, &str); 4] = [
    (Level::Debug, "debug"),
    (Level::Info, "info"),
    (Level::Warn, "warn"),
    (Level::Error, "error"),
];

fn log(i: usize) -> LogRecord {
    LogRecord {
        ts: 1_700_000_000_000_000 + i as i64 * 1_001,
        level: LEVELS[i % 4].0,
        target: format!("app::mod{}", i % 7),
        message: format!("request {i} \"handled\" {}", "é".repeat(i % 3)),
        user_id: (i % 5 != 0).then(|| {
            if i % 11 == 0 {
                u64::MAX - i as u64
            } else {
                i as u64 * 31
            }
        }),
        tags: (0..i % 4).map(|k| format!("t{}", (i + k) % 9)).collect(),
        attrs: (0..i % 3)
            .map(|k| (format!("k{k}"), format!("v{}", i * k)))
            .collect(),
        http: (i % 3 != 1).then(|| Http {
            method: ["GET", "POST"][i % 2].to_string(),
            status: [200, 404, 503][i % 3],
            latency_ms: i as f64 / 8.0,
            route: (i % 2 == 0).then(|| format!("/r/{i}")),
        }),
        spans: (0..i % 3)
            .map(|k| Span {
                name: format!("s{k}"),
                dur_us: (i * 100 + k) as i64,
                parent: (k > 0).then(|| k as u32 - 1),
            })
            .collect(),
    }
}

fn s(v: &str) -> Value {
    Value::String(v.to_string())
}

fn group(fields: Vec<(&str, Value)>) -> Value {
    Value::Group(
        fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// The row as a `Value`, built from the Rust value alone.
fn log_value(i: usize) -> Value {
    let r = log(i);
    group(vec![
        (
            "ts",
            Value::Timestamp {
                value: r.ts,
                unit: TimeUnit::Micros,
                utc: true,
            },
        ),
        ("level", s(LEVELS[i % 4].1)),
        ("target", s(&r.target)),
        ("message", s(&r.message)),
        ("user_id", r.user_id.map_or(Value::Null, Value::UInt)),
        ("tags", Value::List(r.tags.iter().map(|t| s(t)).collect())),
        (
            "attrs",
            Value::Map(r.attrs.iter().map(|(k, v)| (s(k), s(v))).collect()),
        ),
        (
            "http",
            r.http.as_ref().map_or(Value::Null, |h| {
                group(vec![
                    ("method", s(&h.method)),
                    ("status", Value::UInt(h.status as u64)),
                    ("latency_ms", Value::Double(h.latency_ms)),
                    ("route", h.route.as_deref().map_or(Value::Null, s)),
                ])
            }),
        ),
        (
            "spans",
            Value::List(
                r.spans
                    .iter()
                    .map(|sp| {
                        group(vec![
                            ("name", s(&sp.name)),
                            ("dur_us", Value::Int(sp.dur_us)),
                            (
                                "parent",
                                sp.parent.map_or(Value::Null, |p| Value::UInt(p as u64)),
                            ),
                        ])
                    })
                    .collect(),
            ),
        ),
    ])
}

/// Scalar types beyond the log record: decimals, dates, times, fixed bytes, enums with
/// data, nested options, UUIDs.
#[derive(Serialize, ParquetSchema)]
struct Misc {
    #[parquet(decimal(precision = 9, scale = 2))]
    price: i32,
    #[parquet(decimal(precision = 20, scale = 4))]
    big: String,
    wide: i128,
    #[parquet(date)]
    day: i32,
    #[parquet(time = "micros")]
    at_us: i64,
    #[parquet(time = "millis")]
    at_ms: i32,
    #[parquet(uuid)]
    id: [u8; 16],
    #[parquet(timestamp = "nanos", utc = false)]
    local_ns: i64,
    fixed: [u8; 3],
    #[parquet(bytes)]
    blob: Vec<u8>,
    small: i8,
    f: f32,
    grid: Vec<Option<Vec<Option<i16>>>>,
    shape: Shape,
}

#[derive(Serialize, ParquetSchema)]
enum Shape {
    Point,
    Circle(f64),
    Rect { w: u32, h: u32 },
}

fn misc(i: usize) -> Misc {
    Misc {
        price: i as i32 * 101 - 5_000,
        big: format!("{}.{:04}", i as i64 * 1_000_000_007 - 3, i % 10_000),
        wide: (i as i128 - 50) * 10i128.pow(30),
        day: i as i32 * 37 - 2_000,
        at_us: (i as i64 * 7_919_123) % 86_400_000_000,
        at_ms: ((i as i64 * 7_919_123) % 86_400_000) as i32,
        id: (i as u128)
            .wrapping_mul(0x0123_4567_89ab_cdef_0011_2233_4455_6677)
            .to_be_bytes(),
        local_ns: i as i64 * 1_000_000_123 - 7,
        fixed: [i as u8, 1, 2],
        blob: (0..i % 5).map(|k| k as u8 * 50).collect(),
        small: (i % 256) as u8 as i8,
        f: i as f32 * 0.25,
        grid: (0..i % 3)
            .map(|k| {
                (k != 1).then(|| {
                    (0..(i + k) % 3)
                        .map(|j| (j != 1).then_some(j as i16 - 1))
                        .collect()
                })
            })
            .collect(),
        shape: match i % 3 {
            0 => Shape::Point,
            1 => Shape::Circle(i as f64),
            _ => Shape::Rect { w: i as u32, h: 2 },
        },
    }
}

fn dec(unscaled: i128, width: usize, scale: i32) -> Value {
    Value::Decimal {
        unscaled: unscaled.to_be_bytes()[16 - width..].to_vec(),
        scale,
    }
}

fn misc_value(i: usize) -> Value {
    let m = misc(i);
    let big_unscaled = (i as i128 * 1_000_000_007 - 3) * 10_000 + (i % 10_000) as i128;
    let opt = |v: Option<Value>| v.unwrap_or(Value::Null);
    group(vec![
        ("price", dec(m.price as i128, 4, 2)),
        ("big", dec(big_unscaled, 9, 4)),
        ("wide", dec(m.wide, 16, 0)),
        ("day", Value::Date(m.day)),
        (
            "at_us",
            Value::Time {
                value: m.at_us,
                unit: TimeUnit::Micros,
            },
        ),
        (
            "at_ms",
            Value::Time {
                value: m.at_ms as i64,
                unit: TimeUnit::Millis,
            },
        ),
        ("id", Value::Uuid(m.id)),
        (
            "local_ns",
            Value::Timestamp {
                value: m.local_ns,
                unit: TimeUnit::Nanos,
                utc: false,
            },
        ),
        ("fixed", Value::Bytes(m.fixed.to_vec())),
        ("blob", Value::Bytes(m.blob.clone())),
        ("small", Value::Int(m.small as i64)),
        ("f", Value::Float(m.f)),
        (
            "grid",
            Value::List(
                m.grid
                    .iter()
                    .map(|row| {
                        opt(row.as_ref().map(|r| {
                            Value::List(
                                r.iter()
                                    .map(|c| opt(c.map(|v| Value::Int(v as i64))))
                                    .collect(),
                            )
                        }))
                    })
                    .collect(),
            ),
        ),
        (
            "shape",
            match m.shape {
                Shape::Point => group(vec![
                    ("Point", Value::Bool(true)),
                    ("Circle", Value::Null),
                    ("Rect", Value::Null),
                ]),
                Shape::Circle(r) => group(vec![
                    ("Point", Value::Null),
                    ("Circle", Value::Double(r)),
                    ("Rect", Value::Null),
                ]),
                Shape::Rect { w, h } => group(vec![
                    ("Point", Value::Null),
                    ("Circle", Value::Null),
                    (
                        "Rect",
                        group(vec![
                            ("w", Value::UInt(w as u64)),
                            ("h", Value::UInt(h as u64)),
                        ]),
                    ),
                ]),
            },
        ),
    ])
}

fn to_json(v: &Value) -> J {
    let mut out = String::new();
    v.write_json(&mut out);
    serde_json::from_str(&out).unwrap()
}

const ROWS: usize = 3_000;

#[test]
fn pyarrow_and_duckdb_read_typed_files() {
    let dir = tempfile::tempdir().unwrap();
    let logs: Vec<LogRecord> = (0..ROWS).map(log).collect();
    let miscs: Vec<Misc> = (0..ROWS).map(misc).collect();
    let mut files = Vec::new();
    let mut expected = Vec::new();
    let log_json: Vec<J> = (0..ROWS).map(|i| to_json(&log_value(i))).collect();
    let misc_json: Vec<J> = (0..ROWS).map(|i| to_json(&misc_value(i))).collect();
    let variants = [
        ("default", WriterOptions::default()),
        (
            "zstd-v2-small",
            WriterOptions::default()
                .compression(Compression::Zstd(3))
                .data_page_version(parquet_serde::core::column::DataPageVersion::V2)
                .page_size(4096)
                .row_group_rows(1_000),
        ),
        (
            "plain-gzip",
            WriterOptions::default()
                .dictionary(false)
                .compression(Compression::Gzip(6)),
        ),
    ];
    for (name, options) in &variants {
        let path = dir.path().join(format!("logs-{name}.parquet"));
        parquet_serde::to_path_with(&path, &logs, options.clone()).unwrap();
        files.push(path);
        expected.push(&log_json);
        let path = dir.path().join(format!("misc-{name}.parquet"));
        parquet_serde::to_path_with(&path, &miscs, options.clone()).unwrap();
        files.push(path);
        expected.push(&misc_json);
    }
    // Our own reader first.
    for (file, want) in files.iter().zip(&expected) {
        let ours: Vec<J> = rows_json(std::fs::read(file).unwrap(), ReadOptions::default())
            .unwrap()
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(ours.len(), ROWS);
        for (i, (o, e)) in ours.iter().zip(want.iter()).enumerate() {
            assert!(
                json_eq(e, o),
                "our reader {} row {i}:\n  ours     {o}\n  expected {e}",
                file.display()
            );
        }
    }
    let mut checked = 0;
    for engine in ["pyarrow", "duckdb"] {
        let results = common::read_with(engine, &files);
        assert_eq!(results.len(), files.len(), "{engine} read every file");
        for ((file, rows), want) in results.into_iter().zip(&expected) {
            let rows = rows.unwrap_or_else(|e| panic!("{engine} failed on {file}: {e}"));
            assert_eq!(rows.len(), ROWS, "{engine} {file}");
            for (i, (got, e)) in rows.iter().zip(want.iter()).enumerate() {
                assert!(
                    json_eq(e, got),
                    "{engine} {file} row {i}:\n  {engine} {got}\n  expected {e}"
                );
            }
            checked += 1;
        }
    }
    println!("{checked} typed files read by pyarrow and DuckDB equal to the rows written");
}
