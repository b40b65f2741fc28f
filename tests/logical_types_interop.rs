//! Files with the logical types that have Rust types of their own (INTERVAL, FLOAT16, DECIMAL
//! from rust_decimal and BigDecimal at every storage, dates and times from `time` and `jiff`,
//! JSON through `parquet_serde::json`, BSON) are read by pyarrow and DuckDB (subprocesses)
//! with the values we read ourselves, which are checked against the Rust values. DuckDB does
//! not read FIXED_LEN_BYTE_ARRAY INTERVALs through Arrow, so it reads the INTERVAL column with
//! SQL; it reads BSON columns only without their legacy converted type, which derived BSON
//! columns leave out.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::str::FromStr;

use bigdecimal::BigDecimal;
use common::{json_eq, read_with, rows_json};
use half::f16;
use parquet_serde::{Interval, ParquetSchema, ReadOptions};
use rust_decimal::Decimal;
use serde::Serialize;
use serde_json::{json, Value as J};
use time::macros::{date, datetime, time};

#[derive(Serialize, ParquetSchema)]
struct Row {
    id: i32,
    h: Option<f16>,
    #[parquet(decimal(precision = 9, scale = 2))]
    d9: Decimal,
    #[parquet(decimal(precision = 18, scale = 6))]
    d18: Option<Decimal>,
    #[parquet(decimal(precision = 28, scale = 10))]
    d28: Decimal,
    big38: BigDecimal,
    day: time::Date,
    at: time::OffsetDateTime,
    clock: time::Time,
    local: jiff::civil::DateTime,
    instant: jiff::Timestamp,
    #[serde(with = "parquet_serde::json")]
    doc: serde_json::Value,
}

#[derive(Serialize, ParquetSchema)]
struct Wide {
    #[parquet(decimal(precision = 60, scale = 5))]
    big: BigDecimal,
    iv: Interval,
}

/// DuckDB 2.0 refuses a file with the BSON converted type ("Unsupported converted type
/// (20)"), which derived BSON columns leave out (the logical type alone is read as a BLOB);
/// BSON has a file of its own that both read.
#[derive(Serialize, ParquetSchema)]
struct Bson {
    #[parquet(bson)]
    #[serde(with = "serde_bytes")]
    bson: Vec<u8>,
}

fn rows() -> Vec<Row> {
    (0..40)
        .map(|i: i32| Row {
            id: i,
            h: (i % 3 != 0).then(|| f16::from_f32(i as f32 * 0.5 - 7.25)),
            d9: Decimal::new(i as i64 * 12_345 - 99_999_999, 2),
            d18: (i % 4 != 1).then(|| Decimal::new(-(i as i64) * 1_000_003_000_001, 6)),
            d28: Decimal::from_str("123456789012345678.0123456789").unwrap()
                * Decimal::from(i % 5 - 2),
            big38: BigDecimal::from_str(&format!("{}.{:018}", 10i128.pow(19) - i as i128, i))
                .unwrap(),
            day: date!(2024 - 02 - 29) + time::Duration::days(i as i64 * 37 - 700),
            at: datetime!(2024-06-01 12:00:00.123456 +02:00)
                + time::Duration::seconds(i as i64 * 3_601),
            clock: time!(00:00:00.000001) + time::Duration::milliseconds(i as i64 * 1_234_567),
            local: jiff::civil::date(1999, 12, 31).at(23, 59, 59, 999_999_000)
                + jiff::SignedDuration::from_hours(i as i64),
            instant: jiff::Timestamp::new(1_700_000_000 + i as i64 * 86_400, 250_000).unwrap(),
            doc: json!({"i": i, "tags": ["a", i % 2 == 0], "none": null}),
        })
        .collect()
}

/// Our rows of `bytes` in the `cat` mapping.
fn ours(bytes: Vec<u8>) -> Vec<J> {
    rows_json(bytes, ReadOptions::default())
        .unwrap()
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn check_engine(engine: &str, path: &std::path::Path, want: &[J]) {
    let got = read_with(engine, &[path.to_path_buf()]);
    let (_, rows) = &got[0];
    let rows = rows.as_ref().unwrap_or_else(|e| panic!("{engine}: {e}"));
    assert_eq!(rows.len(), want.len(), "{engine}");
    for (i, (g, w)) in rows.iter().zip(want).enumerate() {
        assert!(json_eq(g, w), "{engine} row {i}:\n got  {g}\n want {w}");
    }
}

#[test]
fn pyarrow_and_duckdb_read_our_logical_types() {
    let rows = rows();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("types.parquet");
    parquet_serde::to_path(&path, &rows).unwrap();
    let want = ours(std::fs::read(&path).unwrap());
    // Our reading is the Rust values.
    assert_eq!(want[1]["d9"], json!("-999876.54"));
    assert_eq!(want[0]["h"], J::Null);
    assert_eq!(want[1]["h"], json!(-6.75));
    assert_eq!(
        want[0]["big38"],
        json!("10000000000000000000.000000000000000000")
    );
    assert_eq!(want[0]["day"], json!("2022-03-31"));
    assert_eq!(want[0]["at"], json!("2024-06-01T10:00:00.123456Z"));
    assert_eq!(want[0]["clock"], json!("00:00:00.000001"));
    assert_eq!(want[0]["local"], json!("1999-12-31T23:59:59.999999"));
    assert_eq!(want[0]["instant"], json!("2023-11-14T22:13:20.000250Z"));
    assert_eq!(
        want[0]["doc"],
        json!(r#"{"i":0,"none":null,"tags":["a",true]}"#)
    );
    check_engine("pyarrow", &path, &want);
    check_engine("duckdb", &path, &want);
}

#[test]
fn wide_decimals_and_intervals() {
    let rows: Vec<Wide> = (0..10)
        .map(|i: u32| Wide {
            big: BigDecimal::from_str(&format!("-{}{i}.{:05}", "7".repeat(50), i)).unwrap(),
            iv: Interval::new(i * 7, i, i * 3_600_000 + 3),
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wide.parquet");
    parquet_serde::to_path(&path, &rows).unwrap();
    let want = ours(std::fs::read(&path).unwrap());
    assert_eq!(want[3]["big"], json!(format!("-{}3.00003", "7".repeat(50))));
    // pyarrow reads the 60-digit BYTE_ARRAY decimal as decimal256, the INTERVAL as its bytes.
    check_engine("pyarrow", &path, &want);
    // DuckDB reads INTERVAL as its interval type.
    let out = std::process::Command::new(common::python())
        .arg("-c")
        .arg(
            "import duckdb, sys\n\
             for (m, d, us) in duckdb.sql(\"SELECT datepart('month', iv) + 12 * datepart('year', iv), \
             datepart('day', iv), epoch_us(to_microseconds(0) + iv) - datepart('day', iv) * 86400000000 \
             - (datepart('month', iv) + 12 * datepart('year', iv)) * 2592000000000 \
             FROM read_parquet('\" + sys.argv[1] + \"')\").fetchall(): print(m, d, us)",
        )
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    let expect: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "{} {} {}",
                r.iv.months,
                r.iv.days,
                r.iv.millis as u64 * 1000
            )
        })
        .collect();
    assert_eq!(got, expect);
}

#[test]
fn pyarrow_and_duckdb_read_bson() {
    // BSON documents {"i": i} (int32).
    let rows: Vec<Bson> = (0..5u8)
        .map(|i| Bson {
            bson: vec![12, 0, 0, 0, 0x10, b'i', 0, i, 0, 0, 0, 0],
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bson.parquet");
    parquet_serde::to_path(&path, &rows).unwrap();
    let want = ours(std::fs::read(&path).unwrap());
    assert_eq!(want[0]["bson"], json!("DAAAABBpAAAAAAAA"));
    check_engine("pyarrow", &path, &want);
    check_engine("duckdb", &path, &want);
}
