//! Delta tables written by delta-rs (`deltalake` from PyPI, as a subprocess through
//! testdata/delta_tables.py) read by `Dataset::open`: the same rows delta-rs reads (values
//! asserted, as multisets) at the latest and older versions, from JSON commits, single and
//! multi-part checkpoints; partition filters keep exactly delta-rs's files; the commit
//! statistics prune files before any is opened; tables needing a reader feature we lack are
//! refused, naming it.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};

use parquet_serde::dataset::Dataset;
use parquet_serde::record::Value;
use parquet_serde::{col, Predicate};

fn script() -> PathBuf {
    common::testdata().join("delta_tables.py")
}

/// A table of `kind` written by delta-rs into a new temporary folder.
fn table(kind: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("t");
    delta_rs(&["write", kind, &root.display().to_string()]);
    dir
}

fn root(dir: &tempfile::TempDir) -> PathBuf {
    dir.path().join("t")
}

/// Runs testdata/delta_tables.py with `args`; its output lines.
fn delta_rs(args: &[&str]) -> Vec<String> {
    let mut all = vec![script().display().to_string()];
    all.extend(args.iter().map(|a| a.to_string()));
    let out = std::process::Command::new(common::python())
        .args(&all)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "delta_tables.py {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The rows delta-rs reads at `version` (the latest when `None`), each as canonical JSON
/// text (keys sorted), sorted.
fn theirs(root: &Path, version: Option<u64>) -> Vec<String> {
    let root = root.display().to_string();
    let v = version.map(|v| v.to_string());
    let mut args = vec!["rows", root.as_str()];
    args.extend(v.as_deref());
    let mut rows: Vec<String> = delta_rs(&args)
        .iter()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l)
                .unwrap()
                .to_string()
        })
        .collect();
    rows.sort();
    rows
}

/// Our rows of `dataset` in the same form; a null partition value (a field our rows leave
/// out) is written as the null delta-rs gives, for the columns of `columns`.
fn ours(dataset: &Dataset, columns: &[String]) -> Vec<String> {
    let mut rows: Vec<String> = dataset
        .read_all::<Value>()
        .unwrap()
        .iter()
        .map(|r| {
            let mut s = String::new();
            r.write_json(&mut s);
            let mut v: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(&s).unwrap();
            for c in columns {
                v.entry(c.clone()).or_insert(serde_json::Value::Null);
            }
            serde_json::Value::Object(v).to_string()
        })
        .collect();
    rows.sort();
    rows
}

fn columns_of(rows: &[String]) -> Vec<String> {
    let first: serde_json::Value = serde_json::from_str(&rows[0]).unwrap();
    first.as_object().unwrap().keys().cloned().collect()
}

/// Asserts that we read the same multiset of rows as delta-rs at each of `versions`.
fn assert_same_rows(root: &Path, versions: &[Option<u64>]) {
    for &v in versions {
        let expected = theirs(root, v);
        assert!(!expected.is_empty(), "version {v:?}: delta-rs reads no row");
        let mut dataset = Dataset::open(root).unwrap();
        if let Some(v) = v {
            dataset = dataset.version(v).unwrap();
            assert_eq!(dataset.table_version(), Some(v));
        }
        let got = ours(&dataset, &columns_of(&expected));
        assert_eq!(got.len(), expected.len(), "version {v:?}: row count");
        for (g, e) in got.iter().zip(&expected) {
            assert_eq!(g, e, "version {v:?}");
        }
    }
}

#[test]
fn reads_the_rows_delta_rs_reads_at_the_latest_and_older_versions() {
    let dir = table("mixed");
    let root = root(&dir);
    // v0 and v1 written, checkpoint at 1, v2 append, v3 delete, v4 optimize, v5 append.
    let latest = Dataset::open(&root).unwrap();
    assert_eq!(latest.table_version(), Some(5));
    // The files of the log only: the files delete and optimize removed are still in the
    // folders, and not read.
    let on_disk = walk(&root).len();
    assert!(
        latest.files().len() < on_disk,
        "{} of {on_disk}",
        latest.files().len()
    );
    assert_same_rows(&root, &[None, Some(0), Some(1), Some(2), Some(3), Some(4)]);
    // Partition values from the log, typed by the schema: a date, an int, text, null.
    let f = latest
        .files()
        .iter()
        .find(|f| f.partition("region") == Some(Value::String("x/y".into())))
        .unwrap();
    assert!(
        f.path().to_string_lossy().contains("region=x%2Fy"),
        "{}",
        f.path().display()
    );
    assert!(latest
        .files()
        .iter()
        .any(|f| f.partition("day") == Some(Value::Null)));
    assert!(latest
        .files()
        .iter()
        .any(|f| matches!(f.partition("day"), Some(Value::Date(_)))));
    assert!(latest
        .files()
        .iter()
        .all(|f| matches!(f.partition("n"), Some(Value::Int(_)))));
}

#[test]
fn multi_part_missing_and_stale_last_checkpoint_read_the_same_rows() {
    let dir = table("mixed");
    let root = root(&dir);
    let log = root.join("_delta_log");
    let expected_latest = theirs(&root, None);
    delta_rs(&["split_checkpoint", &root.display().to_string(), "1"]);
    assert!(log
        .join("00000000000000000001.checkpoint.0000000002.0000000002.parquet")
        .exists());
    // Commits 0 and 1 gone: only the two-part checkpoint can give the table at 1.
    std::fs::remove_file(log.join("00000000000000000000.json")).unwrap();
    std::fs::remove_file(log.join("00000000000000000001.json")).unwrap();
    std::fs::remove_file(log.join("_last_checkpoint")).unwrap();
    let columns = columns_of(&expected_latest);
    assert_eq!(
        ours(&Dataset::open(&root).unwrap(), &columns),
        expected_latest
    );
    let v2 = Dataset::open(&root).unwrap().version(2).unwrap();
    assert_eq!(ours(&v2, &columns), theirs(&root, Some(2)));
    // A stale `_last_checkpoint` (naming version 0) changes nothing.
    std::fs::write(log.join("_last_checkpoint"), r#"{"version":0,"size":3}"#).unwrap();
    assert_eq!(
        ours(&Dataset::open(&root).unwrap(), &columns),
        expected_latest
    );
    // Before the checkpoint, with the commits gone: an error naming the missing commit.
    let e = Dataset::open(&root).unwrap().version(0).unwrap_err();
    assert!(e.to_string().contains("00000000000000000000.json"), "{e}");
}

#[test]
fn a_partition_filter_keeps_only_that_partitions_files() {
    let dir = table("mixed");
    let root = root(&dir);
    for region in ["north america", "x/y", "eu"] {
        let dataset = Dataset::open(&root)
            .unwrap()
            .filter(col("region").eq(region))
            .unwrap();
        let mut kept: Vec<String> = dataset
            .selected_files()
            .map(|f| f.path().display().to_string())
            .collect();
        kept.sort();
        let mut expected = delta_rs(&["files", &root.display().to_string(), "region", region]);
        expected.sort();
        assert!(!expected.is_empty());
        assert_eq!(kept, expected, "region = {region:?}");
        println!("region = {region:?}: {} files: {kept:#?}", kept.len());
        let rows: Vec<Value> = dataset.read_all().unwrap();
        let all: Vec<String> = theirs(&root, None)
            .into_iter()
            .filter(|r| r.contains(&format!("\"region\":{}", serde_json::json!(region))))
            .collect();
        assert_eq!(rows.len(), all.len(), "region = {region:?}");
    }
    // A null partition value: `is null` keeps the files whose log value is null.
    let nulls = Dataset::open(&root)
        .unwrap()
        .filter(col("region").is_null())
        .unwrap();
    assert!(nulls.selected_files().count() > 0);
    assert!(nulls
        .selected_files()
        .all(|f| f.partition("region") == Some(Value::Null)));
}

#[test]
fn commit_statistics_prune_files_before_any_is_opened() {
    let dir = table("ranges");
    let root = root(&dir);
    let all = Dataset::open(&root).unwrap();
    assert_eq!(all.files().len(), 5);
    let cases: &[(&str, usize, usize)] = &[
        ("id >= 450", 1, 50),
        ("id between 150 and 250", 2, 101),
        ("id = 1000", 0, 0),
        ("not id < 400", 1, 100),
        ("word = 'w123'", 1, 1),
        ("id < 100 or id >= 400", 2, 200),
        ("id != 3", 5, 499),
        // Timestamps: id seconds and 123 us after midnight; stats in milliseconds.
        ("ts >= '2026-11-24T00:07:30Z'", 1, 50),
        ("ts > '2026-11-24T00:06:39.000123Z'", 2, 100),
        ("ts < '2026-11-24T00:01:39.999Z'", 1, 100),
        // A bound is widened by a millisecond: the file from 00:01:40.000123 stays.
        ("ts < '2026-11-24T00:01:40Z'", 2, 100),
        ("ts = '2026-11-24T00:03:20.000123Z'", 1, 1),
    ];
    for &(text, files, rows) in cases {
        let dataset = Dataset::open(&root)
            .unwrap()
            .filter(Predicate::parse(text).unwrap())
            .unwrap();
        assert_eq!(
            dataset.selected_files().count(),
            files,
            "{text}: files opened"
        );
        let got: Vec<Value> = dataset.read_all().unwrap();
        assert_eq!(got.len(), rows, "{text}: rows");
    }
    // The files are not even touched: the selected ones are read, the others may be gone.
    let keep = Dataset::open(&root)
        .unwrap()
        .filter(col("id").ge(450))
        .unwrap();
    let kept: Vec<PathBuf> = keep
        .selected_files()
        .map(|f| f.path().to_path_buf())
        .collect();
    for f in all.files() {
        if !kept.contains(&f.path().to_path_buf()) {
            std::fs::write(f.path(), b"not parquet any more").unwrap();
        }
    }
    assert_eq!(keep.read_all::<Value>().unwrap().len(), 50);
}

#[test]
fn tables_that_need_a_reader_feature_we_lack_are_refused_naming_it() {
    for (kind, feature) in [
        ("deletion_vectors", "`deletionVectors`"),
        ("column_mapping", "`columnMapping` (mode \"name\")"),
    ] {
        let dir = table(kind);
        let root = root(&dir);
        let e = Dataset::open(&root).unwrap_err();
        assert_eq!(e.kind(), parquet_serde::ErrorKind::Unsupported, "{e}");
        assert!(e.to_string().contains(feature), "{kind}: {e}");
        assert!(
            e.to_string().contains(&root.display().to_string()),
            "{kind}: {e}"
        );
    }
}

/// The `.parquet` files below `dir`, outside any `_delta_log` folder (checkpoints).
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = common::files_below(dir);
    out.retain(|p| {
        let in_log = p
            .strip_prefix(dir)
            .unwrap()
            .components()
            .any(|c| c.as_os_str() == "_delta_log");
        p.extension().is_some_and(|e| e == "parquet") && !in_log
    });
    out
}
