//! Compaction of an Iceberg table in one `replace` snapshot (issue 32 §4): a table our
//! committer wrote (many small files, three date partitions, random data) compacted by
//! `IcebergTable::compact` and by `Dataset::compact`, then read by pyiceberg 0.12 (as a
//! subprocess) and by our reader: the same rows before and after, the files and snapshot
//! operations pyiceberg sees, time travel to the snapshot before, inputs kept on disk; a
//! table whose metadata a catalog names is refused.

mod common;

use std::path::Path;

use common::iceberg;
use parquet_serde::dataset::{CompactOptions, Dataset};
use parquet_serde::iceberg::IcebergTable;
use parquet_serde::logs::{LogWriter, TimePartition};
use parquet_serde::ParquetSchema;
use serde::{Deserialize, Serialize};

/// 2026-11-24T00:00:00Z in microseconds.
const DAY0: i64 = 1_795_478_400_000_000;
const DAY: i64 = 86_400_000_000;

#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq, PartialOrd)]
struct Row {
    #[parquet(timestamp = "micros")]
    ts: i64,
    seq: i64,
    service: String,
    latency: Option<f64>,
}

/// `n` rows over three days with random services and latencies (from `seed`), files of 10
/// rows, each committed by the table's hook.
fn write_table(dir: &Path, table: &IcebergTable, n: i64, seed: u64) {
    let mut rng = seed | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut logs = LogWriter::<Row>::builder(dir)
        .partition(TimePartition::Daily)
        .time_field(|r| r.ts)
        .roll_rows(10)
        .iceberg(table.clone())
        .open()
        .unwrap();
    for seq in 0..n {
        let r = next();
        let row = Row {
            ts: DAY0 + seq * (3 * DAY / n) + 7,
            seq,
            service: format!("svc-{}", r % 5),
            latency: (r % 4 != 0).then_some((r >> 8) as f64 / 1024.0),
        };
        logs.write(&row).unwrap();
    }
    logs.close().unwrap();
    assert!(table.take_last_error().is_none());
}

/// pyiceberg's rows as sorted canonical JSON text.
fn theirs(root: &Path, snapshot: Option<u64>) -> Vec<String> {
    let mut rows: Vec<String> = iceberg::rows(root, snapshot)
        .iter()
        .map(|r| r.to_string())
        .collect();
    rows.sort();
    rows
}

fn ours(root: &Path) -> Vec<Row> {
    let mut rows: Vec<Row> = Dataset::open(root).unwrap().read_all().unwrap();
    rows.sort_by_key(|r| r.seq);
    rows
}

fn seed() -> u64 {
    let seed = std::env::var("ICEBERG_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
        });
    println!("ICEBERG_SEED={seed}");
    seed
}

#[test]
fn a_compaction_is_one_replace_snapshot_pyiceberg_reads_with_the_same_rows() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let table = IcebergTable::open(root);
    write_table(root, &table, 90, seed());
    let before_files = table.files().unwrap();
    assert!(before_files.len() >= 9, "{before_files:?}");
    let before_snapshot = table.snapshot_id().unwrap().unwrap() as u64;
    let expected = theirs(root, None);
    assert_eq!(expected.len(), 90);
    let our_before = ours(root);

    let report = table.compact(&CompactOptions::default()).unwrap();
    println!("{report}");
    assert_eq!(report.inputs, before_files.len());
    assert_eq!(report.outputs.len(), 3, "one output per date partition");
    assert_eq!(report.rows, 90);
    assert_eq!(report.inputs_removed, 0, "no file leaves storage");
    let after_snapshot = table.snapshot_id().unwrap().unwrap() as u64;
    assert_eq!(report.table_version, Some(after_snapshot));

    // pyiceberg: the same rows, from 3 files, in a `replace` snapshot after the appends.
    assert_eq!(theirs(root, None), expected);
    let (snapshots, files) = iceberg::info(root);
    assert_eq!(files.len(), 3, "{files:?}");
    assert!(
        files.iter().all(|f| f.ends_with(".compact.parquet")),
        "{files:?}"
    );
    assert_eq!(
        snapshots.last().unwrap(),
        &(after_snapshot, "replace".to_string())
    );
    assert!(snapshots[..snapshots.len() - 1]
        .iter()
        .all(|(_, op)| op == "append"));
    // Ours: the same rows, from the 3 outputs.
    assert_eq!(ours(root), our_before);
    assert_eq!(Dataset::open(root).unwrap().files().len(), 3);

    // Time travel: the snapshot before still reads the small files, which are on disk.
    assert_eq!(theirs(root, Some(before_snapshot)), expected);
    let old = Dataset::open(root)
        .unwrap()
        .version(before_snapshot)
        .unwrap();
    assert_eq!(old.files().len(), before_files.len());
    assert_eq!(old.read_all::<Row>().unwrap().len(), 90);
    for f in &before_files {
        assert!(root.join(f).exists(), "{f} deleted");
    }

    // Nothing small is left: a second compaction commits nothing.
    let again = table.compact(&CompactOptions::default()).unwrap();
    assert_eq!((again.inputs, again.table_version), (0, None));
    assert_eq!(table.snapshot_id().unwrap().unwrap() as u64, after_snapshot);
}

#[test]
fn dataset_compact_on_an_iceberg_root_limited_to_one_partition() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let table = IcebergTable::open(root);
    write_table(root, &table, 60, seed());
    let expected = theirs(root, None);
    let before = table.files().unwrap().len();
    // Only the first day's files.
    let report = Dataset::open(root)
        .unwrap()
        .filter(parquet_serde::col("ts").lt("2026-11-25T00:00:00Z"))
        .unwrap()
        .compact(&CompactOptions::default())
        .unwrap();
    assert_eq!(report.outputs.len(), 1, "{report}");
    assert!(report.table_version.is_some());
    assert_eq!(theirs(root, None), expected);
    let (snapshots, files) = iceberg::info(root);
    assert_eq!(files.len(), before - report.inputs + 1);
    assert_eq!(snapshots.last().unwrap().1, "replace");
}

#[test]
fn a_table_named_by_a_catalog_is_not_compacted_here() {
    let dir = tempfile::tempdir().unwrap();
    let (root, _) = iceberg::write_table("plain", &dir.path().join("w"), 5);
    let before = iceberg::info(&root);
    let e = Dataset::open(&root)
        .unwrap()
        .compact(&CompactOptions::default())
        .unwrap_err();
    assert_eq!(e.kind(), parquet_serde::ErrorKind::Unsupported, "{e}");
    assert!(e.to_string().contains("named by a catalog"), "{e}");
    assert_eq!(iceberg::info(&root), before, "nothing committed");
}
