//! A hive-partitioned dataset written by this library (`to_path` into
//! `date=YYYY-MM-DD/hour=HH` folders, with in-progress and marker files beside) read by
//! pyarrow (`pyarrow.dataset`, hive partitioning), DuckDB (`read_parquet('dir/**/*.parquet',
//! hive_partitioning = true)`) and `Dataset`: the same rows and partition values.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::path::Path;

use parquet_serde::dataset::Dataset;
use parquet_serde::{ParquetSchema, Predicate};
use serde::{Deserialize, Serialize};

#[derive(Serialize, ParquetSchema)]
struct Log {
    #[parquet(timestamp = "micros")]
    ts: i64,
    level: String,
    target: String,
    latency_ms: f64,
}

/// A row read back with its partition values.
#[derive(Deserialize, Debug, PartialEq)]
struct Row {
    ts: i64,
    level: String,
    target: String,
    latency_ms: f64,
    date: String,
    hour: i64,
}

/// 2026-11-23T00:00:00Z in microseconds.
const DAY: i64 = 1_795_392_000_000_000;
const HOUR: i64 = 3_600_000_000;
const LEVELS: [&str; 3] = ["INFO", "WARN", "ERROR"];

/// `n` rows of one hour of day `day` (0 or 1 after 2026-11-23).
fn rows(day: i64, hour: i64, first: i64, n: i64) -> Vec<Log> {
    (first..first + n)
        .map(|i| Log {
            ts: DAY + day * 24 * HOUR + hour * HOUR + i * 1_000_003,
            level: LEVELS[(i % 3) as usize].into(),
            target: format!("svc::{}", ["db", "http", "cache"][(i % 5 % 3) as usize]),
            latency_ms: i as f64 * 0.25,
        })
        .collect()
}

fn write(root: &Path, rel: &str, rows: &[Log]) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let options = parquet_serde::WriterOptions::default().row_group_rows(40);
    parquet_serde::to_path_with(path, rows, options).unwrap();
}

fn dataset() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(
        r,
        "date=2026-11-23/hour=23/part-1.parquet",
        &rows(0, 23, 0, 50),
    );
    write(
        r,
        "date=2026-11-24/hour=09/part-1.parquet",
        &rows(1, 9, 0, 70),
    );
    write(
        r,
        "date=2026-11-24/hour=13/part-1.parquet",
        &rows(1, 13, 0, 100),
    );
    write(
        r,
        "date=2026-11-24/hour=13/part-2.parquet",
        &rows(1, 13, 100, 30),
    );
    // What a log writer leaves beside final files: an in-progress file, a hidden one, a
    // marker. Every engine skips them (DuckDB's glob only because they do not end in
    // `.parquet`: it reads `_x.parquet` and `.x.parquet`).
    let hour = r.join("date=2026-11-24/hour=13");
    std::fs::write(hour.join("_part-3.parquet.inprogress"), b"PAR1 half").unwrap();
    std::fs::write(hour.join(".part-4.parquet.tmp"), b"x").unwrap();
    std::fs::write(r.join("_SUCCESS"), b"").unwrap();
    dir
}

/// The rows `engine` reads from `root` (sorted by ts), as JSON objects.
fn engine_rows(engine: &str, root: &Path, filter: Option<&str>) -> Vec<serde_json::Value> {
    let script = common::testdata().join("dataset_with.py");
    let mut args = vec![script.as_os_str(), engine.as_ref(), root.as_os_str()];
    args.extend(filter.map(std::ffi::OsStr::new));
    common::python_json_lines(&args)
}

fn as_json(rows: &[Row]) -> Vec<serde_json::Value> {
    rows.iter()
        .map(|r| {
            serde_json::json!({
                "ts": r.ts, "level": r.level, "target": r.target, "latency_ms": r.latency_ms,
                "date": r.date, "hour": r.hour,
            })
        })
        .collect()
}

#[test]
fn pyarrow_duckdb_and_dataset_read_the_same_rows() {
    let dir = dataset();
    let ours: Vec<Row> = Dataset::open(dir.path()).unwrap().read_all().unwrap();
    assert_eq!(ours.len(), 250);
    // Time order: the files' order is the rows' order.
    assert!(ours.windows(2).all(|w| w[0].ts < w[1].ts));
    assert_eq!((ours[0].date.as_str(), ours[0].hour), ("2026-11-23", 23));
    assert_eq!(
        (ours[249].date.as_str(), ours[249].hour),
        ("2026-11-24", 13)
    );
    let ours = as_json(&ours);
    for engine in ["pyarrow", "duckdb"] {
        let theirs = engine_rows(engine, dir.path(), None);
        assert_eq!(theirs.len(), ours.len(), "{engine}");
        for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            assert!(
                common::json_eq(a, b),
                "{engine} row {i}: ours {a}, theirs {b}"
            );
        }
    }
}

#[test]
fn predicates_select_what_duckdb_selects() {
    let dir = dataset();
    for text in [
        "level = 'ERROR' and hour = 13",
        "level = 'ERROR' and ts >= '2026-11-24T13:00:01Z'",
        "date = '2026-11-24' and (target in ('svc::db', 'svc::cache') or latency_ms > 20)",
        "not (hour = 9 or level != 'WARN')",
        "hour between 10 and 23 and latency_ms <= 3.5",
    ] {
        let ours: Vec<Row> = Dataset::open(dir.path())
            .unwrap()
            .filter(Predicate::parse(text).unwrap())
            .unwrap()
            .read_all()
            .unwrap();
        assert!(!ours.is_empty(), "{text}");
        let sql = text.replace("ts >= '", "ts >= TIMESTAMPTZ '");
        let theirs = engine_rows("duckdb", dir.path(), Some(&sql));
        let ours = as_json(&ours);
        assert_eq!(ours.len(), theirs.len(), "{text}");
        for (a, b) in ours.iter().zip(&theirs) {
            assert!(common::json_eq(a, b), "{text}: ours {a}, theirs {b}");
        }
    }
}
