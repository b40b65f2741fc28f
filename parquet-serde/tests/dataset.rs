//! Datasets end to end: files written into hive folders, read back with partition values
//! and predicates.

use std::path::Path;

use serde::{Deserialize, Serialize};

use parquet_serde::dataset::Dataset;
use parquet_serde::filter::col;
use parquet_serde::{ErrorKind, ParquetSchema, Result, Value, WriterOptions};

#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq)]
struct Log {
    ts: i64,
    level: String,
    target: String,
}

/// Writes `rows` to `root/rel` (folders made).
fn write(root: &Path, rel: &str, rows: &[Log]) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let options = WriterOptions::default().row_group_rows(2);
    parquet_serde::to_path_with(path, rows, options).unwrap();
}

fn log(ts: i64, level: &str) -> Log {
    Log {
        ts,
        level: level.into(),
        target: format!("t{}", ts % 3),
    }
}

/// Three hours over two days, two files in one hour, plus files that are not read.
fn dataset() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "date=2026-11-24/hour=13/part-2.parquet",
        &[log(40, "INFO"), log(41, "ERROR")],
    );
    write(
        root,
        "date=2026-11-24/hour=13/part-1.parquet",
        &[log(30, "ERROR"), log(31, "INFO"), log(32, "ERROR")],
    );
    write(
        root,
        "date=2026-11-24/hour=9/part-1.parquet",
        &[log(20, "INFO")],
    );
    write(
        root,
        "date=2026-11-23/hour=23/part-1.parquet",
        &[log(10, "ERROR"), log(11, "WARN")],
    );
    // In progress and hidden: never read (not even Parquet).
    std::fs::write(
        root.join("date=2026-11-24/hour=13/_part-3.parquet"),
        b"partial",
    )
    .unwrap();
    std::fs::write(root.join("date=2026-11-24/hour=13/.part-4.parquet"), b"x").unwrap();
    dir
}

#[derive(Deserialize, Debug, PartialEq)]
struct WithParts {
    ts: i64,
    date: String,
    hour: u8,
}

#[test]
fn rows_in_time_order_with_partition_values() {
    let dir = dataset();
    let rows: Vec<WithParts> = Dataset::open(dir.path()).unwrap().read_all().unwrap();
    let got: Vec<(i64, &str, u8)> = rows
        .iter()
        .map(|r| (r.ts, r.date.as_str(), r.hour))
        .collect();
    assert_eq!(
        got,
        [
            (10, "2026-11-23", 23),
            (11, "2026-11-23", 23),
            (20, "2026-11-24", 9),
            (30, "2026-11-24", 13),
            (31, "2026-11-24", 13),
            (32, "2026-11-24", 13),
            (40, "2026-11-24", 13),
            (41, "2026-11-24", 13),
        ]
    );
    // The iterator gives the same rows as read_all.
    let iterated: Vec<WithParts> = parquet_serde::dataset::Dataset::open(dir.path())
        .unwrap()
        .rows::<WithParts>()
        .collect::<Result<_>>()
        .unwrap();
    assert_eq!(iterated, rows);
}

#[test]
fn partition_values_in_every_target_type() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Days {
        date: i32,
        hour: i64,
        missing: Option<String>,
    }
    let dir = dataset();
    let rows: Vec<Days> = Dataset::open(dir.path()).unwrap().read_all().unwrap();
    assert_eq!(
        rows[0],
        Days {
            date: 20_780,
            hour: 23,
            missing: None
        }
    );
    // Optional fields take the value too; a type too small for it fails, naming it.
    #[derive(Deserialize, Debug, PartialEq)]
    struct Opt {
        hour: Option<u32>,
    }
    let rows: Vec<Opt> = Dataset::open(dir.path()).unwrap().read_all().unwrap();
    assert_eq!(rows[0], Opt { hour: Some(23) });
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Tiny {
        date: i8,
    }
    let e = Dataset::open(dir.path())
        .unwrap()
        .read_all::<Tiny>()
        .unwrap_err();
    assert!(e.to_string().contains("date"), "{e}");
    assert!(e.to_string().contains("date=2026-11-23"), "{e}");
}

#[cfg(feature = "chrono")]
#[test]
fn partition_dates_into_chrono() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct D {
        date: chrono::NaiveDate,
    }
    let dir = dataset();
    let rows: Vec<D> = Dataset::open(dir.path()).unwrap().read_all().unwrap();
    assert_eq!(
        rows.last().unwrap().date,
        chrono::NaiveDate::from_ymd_opt(2026, 11, 24).unwrap()
    );
}

#[test]
fn value_rows_end_with_partition_values() {
    let dir = dataset();
    let rows: Vec<Value> = Dataset::open(dir.path()).unwrap().read_all().unwrap();
    assert_eq!(rows.len(), 8);
    let Value::Group(fields) = &rows[0] else {
        panic!("a group")
    };
    let names: Vec<&str> = fields.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names, ["ts", "level", "target", "date", "hour"]);
    assert_eq!(rows[0].get("date"), Some(&Value::Date(20_780)));
    assert_eq!(rows[0].get("hour"), Some(&Value::Int(23)));
}

#[test]
fn predicates_prune_partitions_then_rows() {
    let dir = dataset();
    let ds = Dataset::open(dir.path()).unwrap();
    assert_eq!(ds.files().len(), 4);
    let ds = ds
        .filter(col("date").eq("2026-11-24").and(col("hour").ge(10)))
        .unwrap()
        .filter(col("level").eq("ERROR"))
        .unwrap();
    assert_eq!(ds.selected_files().count(), 2);
    let rows: Vec<Log> = ds.read_all().unwrap();
    let ts: Vec<i64> = rows.iter().map(|r| r.ts).collect();
    assert_eq!(ts, [30, 32, 41]);
    // A disjunction over a partition key and a column: whole partitions and single rows.
    let ds = Dataset::open(dir.path())
        .unwrap()
        .filter(col("hour").eq(9).or(col("level").eq("WARN")))
        .unwrap();
    let rows: Vec<Log> = ds.read_all().unwrap();
    let ts: Vec<i64> = rows.iter().map(|r| r.ts).collect();
    assert_eq!(ts, [11, 20]);
    // Negation: not (hour = 13 or level = 'INFO').
    let ds = Dataset::open(dir.path())
        .unwrap()
        .filter(!(col("hour").eq(13).or(col("level").eq("INFO"))))
        .unwrap();
    let ts: Vec<i64> = ds.read_all::<Log>().unwrap().iter().map(|r| r.ts).collect();
    assert_eq!(ts, [10, 11]);
    // A bad literal for a partition key names it.
    let e = Dataset::open(dir.path())
        .unwrap()
        .filter(col("date").eq(1.5))
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument);
    assert!(e.message().contains("\"date\""), "{e}");
}

#[test]
fn globs_select_files() {
    let dir = dataset();
    let pattern = format!("{}/date=2026-11-24/*/*.parquet", dir.path().display());
    let ds = Dataset::glob(&pattern).unwrap();
    assert_eq!(ds.files().len(), 3);
    let rows: Vec<WithParts> = ds.read_all().unwrap();
    assert_eq!(rows[0].ts, 20);
    assert!(rows.iter().all(|r| r.date == "2026-11-24"));
    let none = Dataset::glob(&format!("{}/nothing/**/*.parquet", dir.path().display())).unwrap();
    assert_eq!(none.files().len(), 0);
    assert!(Dataset::is_pattern("a/**/*.parquet"));
    assert!(!Dataset::is_pattern("a/b.parquet"));
}

#[test]
fn bad_files_are_errors_naming_them_and_reading_goes_on() {
    let dir = dataset();
    let root = dir.path();
    let good = std::fs::read(root.join("date=2026-11-24/hour=9/part-1.parquet")).unwrap();
    let hour = root.join("date=2026-11-24/hour=10");
    std::fs::create_dir_all(&hour).unwrap();
    std::fs::write(hour.join("a-empty.parquet"), b"").unwrap();
    std::fs::write(hour.join("b-truncated.parquet"), &good[..good.len() - 9]).unwrap();
    let mut flipped = good.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0xff;
    std::fs::write(hour.join("c-flipped.parquet"), &flipped).unwrap();
    std::fs::write(
        hour.join("d-text.parquet"),
        b"not parquet at all, not at all",
    )
    .unwrap();
    std::fs::create_dir_all(root.join("date=%ZZ/hour=x=y")).unwrap();
    std::fs::write(root.join("date=%ZZ/hour=x=y/odd name .parquet"), &good).unwrap();
    let mut ok = 0;
    let mut errors = Vec::new();
    for row in Dataset::open(root).unwrap().rows::<Value>() {
        match row {
            Ok(_) => ok += 1,
            Err(e) => errors.push(e.to_string()),
        }
    }
    // The good files' rows all come through; the odd names are read (as text values).
    // The flipped file may still read (a byte of a statistic or of padding).
    assert!(ok == 8 + 1 || ok == 8 + 2, "{ok}: {errors:?}");
    for name in ["a-empty", "b-truncated", "d-text"] {
        assert!(
            errors.iter().any(|e| e.contains(name)),
            "{name}: {errors:?}"
        );
    }
    // A flipped byte is caught by a checksum or the decoder, or falls in padding; when
    // caught, the error names the file.
    for e in &errors {
        assert!(e.contains("hour=10"), "{e}");
    }
    // read_all stops at the first error, which names the file.
    let e = Dataset::open(root)
        .unwrap()
        .read_all::<Value>()
        .unwrap_err();
    assert!(e.to_string().contains("a-empty.parquet"), "{e}");
}

#[test]
fn every_truncation_of_a_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let rows: Vec<Log> = (0..50).map(|i| log(i, "INFO")).collect();
    write(root, "date=2026-11-24/hour=13/part-0.parquet", &rows);
    let good = std::fs::read(root.join("date=2026-11-24/hour=13/part-0.parquet")).unwrap();
    let hour = root.join("date=2026-11-24/hour=14");
    std::fs::create_dir_all(&hour).unwrap();
    for len in (0..good.len()).step_by(13) {
        let name = format!("part-{len:05}.parquet");
        std::fs::write(hour.join(&name), &good[..len]).unwrap();
        let ds = Dataset::open(root)
            .unwrap()
            .retain(|f| f.path().ends_with(&name));
        assert_eq!(ds.files().len(), 1);
        let errors: Vec<String> = ds
            .rows::<Log>()
            .filter_map(|r| r.err().map(|e| e.to_string()))
            .collect();
        assert!(!errors.is_empty(), "{len} bytes read without an error");
        assert!(errors.iter().all(|e| e.contains(&name)), "{errors:?}");
        std::fs::remove_file(hour.join(&name)).unwrap();
    }
    // The good file alone still reads.
    let back: Vec<Log> = Dataset::open(root).unwrap().read_all().unwrap();
    assert_eq!(back, rows);
}
