//! `parquet-serde cat` on an Iceberg table written by our committer: the current
//! snapshot's rows (the identity partition's column filled from the partition tuple),
//! `--version <snapshot-id>` for an older snapshot, `--where` pruning, and errors for a
//! snapshot that does not exist.

use std::path::Path;
use std::process::{Command, Output};

use parquet_serde::iceberg::IcebergTable;
use parquet_serde::logs::{LogWriter, TimePartition};
use parquet_serde::ParquetSchema;
use serde::Serialize;

#[derive(Serialize, ParquetSchema)]
struct Log {
    #[parquet(timestamp = "micros")]
    ts: i64,
    id: i64,
}

/// 2026-11-24T00:00:00Z in microseconds.
const DAY0: i64 = 1_795_478_400_000_000;
const DAY: i64 = 86_400_000_000;

/// One commit of one file holding row `id` on day `day`; the snapshot id after it.
fn commit(root: &Path, table: &IcebergTable, day: i64, id: i64) -> i64 {
    let mut logs = LogWriter::<Log>::builder(root)
        .partition(TimePartition::Daily)
        .time_field(|l| l.ts)
        .iceberg(table.clone())
        .open()
        .unwrap();
    logs.write(&Log {
        ts: DAY0 + day * DAY,
        id,
    })
    .unwrap();
    logs.close().unwrap();
    assert!(table.take_last_error().is_none());
    table.snapshot_id().unwrap().unwrap()
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parquet-serde"))
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).unwrap()
}

#[test]
fn cat_reads_the_current_snapshot_and_older_ones_by_id() {
    let dir = tempfile::tempdir().unwrap();
    let table = IcebergTable::open(dir.path());
    let first = commit(dir.path(), &table, 0, 1);
    let second = commit(dir.path(), &table, 1, 2);
    let root = dir.path().to_str().unwrap();
    let out = run(&["cat", root]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"ts\":\"2026-11-24T00:00:00.000000Z\",\"id\":1,\"date\":\"2026-11-24\"}\n\
         {\"ts\":\"2026-11-25T00:00:00.000000Z\",\"id\":2,\"date\":\"2026-11-25\"}\n"
    );
    let out = run(&["cat", root, "--version", &first.to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"ts\":\"2026-11-24T00:00:00.000000Z\",\"id\":1,\"date\":\"2026-11-24\"}\n"
    );
    let out = run(&[
        "cat",
        root,
        "--version",
        &second.to_string(),
        "--where",
        "date = '2026-11-25' and id >= 2",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"ts\":\"2026-11-25T00:00:00.000000Z\",\"id\":2,\"date\":\"2026-11-25\"}\n"
    );
    // A snapshot id the table lacks: a usage error naming it.
    let out = run(&["cat", root, "--version", "7"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("snapshot 7 does not exist"),
        "{}",
        text(&out.stderr)
    );
}
