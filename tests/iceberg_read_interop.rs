//! Iceberg tables written by pyiceberg 0.12 (SqlCatalog on SQLite, pyarrow tables, as a
//! subprocess through testdata/iceberg_tables.py) read by `Dataset::open`: the same rows
//! pyiceberg scans (values asserted) at the current and every older snapshot, on random
//! data, with an identity and an hour partition, a renamed and an added column, several
//! appends and an overwrite; files pruned by partition values and by bounds are those
//! pyiceberg plans.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};

use parquet_serde::dataset::Dataset;
use parquet_serde::record::Value;
use parquet_serde::{col, Predicate};

use common::iceberg::pyiceberg;

/// A table written by pyiceberg: its warehouse (kept alive), root and snapshot ids.
struct Table {
    _dir: tempfile::TempDir,
    root: PathBuf,
    snapshots: Vec<u64>,
}

fn table(kind: &str, seed: u64) -> Table {
    let dir = tempfile::tempdir().unwrap();
    let (root, snapshots) = common::iceberg::write_table(kind, &dir.path().join("w"), seed);
    Table {
        root,
        snapshots,
        _dir: dir,
    }
}

/// A seed for random data: `$ICEBERG_SEED`, else the clock (printed, to replay a failure).
fn seed() -> u64 {
    let seed = std::env::var("ICEBERG_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
                % 1_000_000
        });
    println!("ICEBERG_SEED={seed}");
    seed
}

/// The rows pyiceberg scans at `snapshot` (the current one when `None`), sorted by id.
fn theirs(root: &Path, snapshot: Option<u64>) -> Vec<serde_json::Value> {
    sorted(common::iceberg::rows(root, snapshot))
}

/// Our rows of `dataset` in the same form (a column of the table that an older file lacks
/// is missing from our `Value` rows: written as the null pyiceberg gives), sorted by id.
fn ours(dataset: &Dataset, columns: &[String]) -> Vec<serde_json::Value> {
    sorted(
        dataset
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
                serde_json::Value::Object(v)
            })
            .collect(),
    )
}

fn sorted(mut rows: Vec<serde_json::Value>) -> Vec<serde_json::Value> {
    rows.sort_by_key(|r| r["id"].as_i64().unwrap());
    rows
}

fn columns_of(rows: &[serde_json::Value]) -> Vec<String> {
    rows[0].as_object().unwrap().keys().cloned().collect()
}

/// Asserts that `got` and `expected` are the same rows, value by value.
fn assert_same(got: &[serde_json::Value], expected: &[serde_json::Value], what: &str) {
    assert_eq!(got.len(), expected.len(), "{what}: row count");
    for (g, e) in got.iter().zip(expected) {
        assert!(common::json_eq(g, e), "{what}:\n ours   {g}\n theirs {e}");
    }
}

#[test]
fn reads_the_rows_pyiceberg_scans_at_every_snapshot() {
    let t = table("evolved", seed());
    assert_eq!(t.snapshots.len(), 6, "{:?}", t.snapshots);
    let latest = Dataset::open(&t.root).unwrap();
    assert_eq!(latest.table_version(), t.snapshots.last().copied());
    let expected = theirs(&t.root, None);
    assert!(!expected.is_empty());
    // The renamed column reads under its new name; the added one is there.
    let columns = columns_of(&expected);
    assert_eq!(
        columns,
        ["id", "level", "message", "region", "ts", "value"],
        "pyiceberg's columns (sorted)"
    );
    assert_same(&ours(&latest, &columns), &expected, "current snapshot");
    // Older files lack `level`: pyiceberg reads nulls there, and so do we.
    assert!(expected.iter().any(|r| r["level"].is_null()));
    for &s in &t.snapshots {
        let expected = theirs(&t.root, Some(s));
        let dataset = Dataset::open(&t.root).unwrap().version(s).unwrap();
        assert_eq!(dataset.table_version(), Some(s));
        assert_same(
            &ours(&dataset, &columns_of(&expected)),
            &expected,
            &format!("snapshot {s}"),
        );
    }
    // The files of the overwritten partition's older snapshots are still in the folder,
    // and not read.
    let on_disk = walk(&t.root.join("data")).len();
    assert!(
        latest.files().len() < on_disk,
        "{} of {on_disk}",
        latest.files().len()
    );
}

/// Typed rows: the renamed column under its new name, the added one `None` in older files.
#[test]
fn typed_rows_read_renamed_and_added_columns() {
    #[derive(serde::Deserialize, Debug)]
    struct Row {
        id: i64,
        message: Option<String>,
        level: Option<i32>,
    }
    let t = table("evolved", seed());
    let expected = theirs(&t.root, None);
    let mut rows: Vec<Row> = Dataset::open(&t.root).unwrap().read_all().unwrap();
    rows.sort_by_key(|r| r.id);
    assert_eq!(rows.len(), expected.len());
    for (r, e) in rows.iter().zip(&expected) {
        assert_eq!(r.id, e["id"].as_i64().unwrap());
        assert_eq!(r.message.as_deref(), e["message"].as_str(), "id {}", r.id);
        assert_eq!(r.level.map(i64::from), e["level"].as_i64(), "id {}", r.id);
    }
    assert!(rows
        .iter()
        .any(|r| r.level.is_none() && r.message.is_some()));
    // Filters on the added column: null in the older files, which lack it.
    for (p, keep) in [
        (
            col("level").eq(1),
            &(|r: &serde_json::Value| r["level"] == 1) as &dyn Fn(&_) -> bool,
        ),
        (col("level").is_null(), &|r: &serde_json::Value| {
            r["level"].is_null()
        }),
        (col("level").ne(1), &|r: &serde_json::Value| {
            !r["level"].is_null() && r["level"] != 1
        }),
    ] {
        let what = format!("{p:?}");
        let got: Vec<Value> = Dataset::open(&t.root)
            .unwrap()
            .filter(p)
            .unwrap()
            .read_all()
            .unwrap();
        let want = expected.iter().filter(|r| keep(r)).count();
        assert!(want > 0, "{what}");
        assert_eq!(got.len(), want, "{what}");
    }
    // The renamed column filters under its new name.
    let some: Vec<Value> = Dataset::open(&t.root)
        .unwrap()
        .filter(col("message").is_not_null())
        .unwrap()
        .read_all()
        .unwrap();
    let expected = expected.iter().filter(|r| !r["message"].is_null()).count();
    assert_eq!(some.len(), expected);
}

#[test]
fn partition_and_bounds_pruning_keep_the_files_pyiceberg_plans() {
    let t = table("evolved", seed());
    let root = t.root.display().to_string();
    let all = Dataset::open(&t.root).unwrap();
    // One hour of `ts` (the hour partition) and one region (the identity partition).
    let cases = [
        (
            "ts",
            "2026-11-28T02:00:00+00:00",
            "2026-11-28T03:00:00+00:00",
            col("ts")
                .ge("2026-11-28T02:00:00Z")
                .and(col("ts").lt("2026-11-28T03:00:00Z")),
        ),
        ("id", "0", "10", col("id").ge(0).and(col("id").lt(10))),
    ];
    for (column, lo, hi, predicate) in cases {
        let mut expected = pyiceberg(&["plan", &root, column, lo, hi]);
        expected.sort();
        let dataset = Dataset::open(&t.root).unwrap().filter(predicate).unwrap();
        let mut kept: Vec<String> = dataset
            .selected_files()
            .map(|f| f.path().display().to_string())
            .collect();
        kept.sort();
        println!(
            "{lo} <= {column} < {hi}: {} of {} files planned",
            kept.len(),
            all.files().len()
        );
        assert!(kept.len() < all.files().len(), "{column}: nothing pruned");
        assert_eq!(kept, expected, "{lo} <= {column} < {hi}");
    }
    let us = Dataset::open(&t.root)
        .unwrap()
        .filter(col("region").eq("us"))
        .unwrap();
    let rows: Vec<Value> = us.read_all().unwrap();
    let expected = theirs(&t.root, None)
        .into_iter()
        .filter(|r| r["region"] == "us")
        .count();
    assert_eq!(rows.len(), expected);
    assert!(us.selected_files().count() < all.files().len());
}

#[test]
fn bounds_prune_the_files_of_an_unpartitioned_table() {
    let t = table("plain", 1);
    let all = Dataset::open(&t.root).unwrap();
    assert_eq!(all.files().len(), 3);
    let cases: &[(&str, usize, usize)] = &[
        ("id >= 120", 1, 30),
        ("id between 40 and 60", 2, 21),
        ("id = 1000", 0, 0),
        ("ts >= '2026-11-28T02:00:00Z'", 1, 50),
        ("ts < '2026-11-28T01:00:00Z'", 1, 50),
        ("msg = 'm77'", 2, 1),
        ("value > 99.5", 1, 50),
    ];
    for &(text, files, rows) in cases {
        let dataset = Dataset::open(&t.root)
            .unwrap()
            .filter(Predicate::parse(text).unwrap())
            .unwrap();
        assert_eq!(dataset.selected_files().count(), files, "{text}: files");
        assert_eq!(dataset.read_all::<Value>().unwrap().len(), rows, "{text}");
    }
}

/// The `.parquet` files below `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = common::files_below(dir);
    out.retain(|p| p.extension().is_some_and(|e| e == "parquet"));
    out
}
