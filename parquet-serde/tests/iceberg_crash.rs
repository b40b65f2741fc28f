//! The Iceberg committer under SIGKILL, with pyiceberg 0.12 (run by the project's Python,
//! through testdata/iceberg_tables.py) reading the tables at the end: delta_commit.rs's
//! crash test against an Iceberg table.
//!
//! A child process (this binary again, on the ignored `crash_child`) writes with a
//! `LogWriter` attached to an `IcebergTable` (`LogWriterBuilder::iceberg`: field ids, and
//! each final file committed by the table's hook), and prints each acknowledged row count;
//! it is killed at a random moment. The restart (a `LogWriter` opened on the folder, whose
//! recovery hands the rebuilt files to the hook, then `commit_folder`) must leave a table
//! whose current snapshot, as pyiceberg reads it, holds every acknowledged row exactly
//! once. 30 trials in the suite, 500 ignored.
#![cfg(all(unix, feature = "iceberg", feature = "logs"))]

mod common;
#[path = "common/table_crash.rs"]
mod table_crash;

use std::path::Path;
use std::time::Instant;

use parquet_serde::dataset::Dataset;
use parquet_serde::iceberg::IcebergTable;
use parquet_serde::logs::LogWriterBuilder;
use table_crash::Row;

impl table_crash::CrashTable for IcebergTable {
    fn open(dir: &Path, app: &str) -> Self {
        IcebergTable::open(dir).app_id(app)
    }
    fn attach(&self, builder: LogWriterBuilder<Row>) -> LogWriterBuilder<Row> {
        builder.iceberg(self.clone())
    }
    fn take_last_error(&self) -> Option<parquet_serde::Error> {
        IcebergTable::take_last_error(self)
    }
    fn commit_folder(&self) -> parquet_serde::Result<(usize, Option<u64>)> {
        IcebergTable::commit_folder(self).map(|r| (r.added, r.version))
    }
}

/// The crash child: writes forever, committing each final file, printing `ack N` after
/// each flush.
#[test]
#[ignore = "the child process of the crash tests; run by them"]
fn crash_child() {
    table_crash::crash_child::<IcebergTable>();
}

fn crash_trials(seeds: std::ops::Range<u64>) {
    let start = Instant::now();
    let trials: Vec<(u64, tempfile::TempDir, u64)> = seeds
        .map(|seed| {
            let (dir, acked) = table_crash::crash_trial::<IcebergTable>(seed);
            (seed, dir, acked)
        })
        .collect();
    let mut args = vec!["seqs".to_string()];
    args.extend(
        trials
            .iter()
            .map(|(_, d, _)| d.path().display().to_string()),
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let lines = common::iceberg::pyiceberg(&args);
    assert_eq!(lines.len(), trials.len());
    let mut total = 0;
    for ((seed, dir, acked), line) in trials.iter().zip(&lines) {
        let line: serde_json::Value = serde_json::from_str(line).unwrap();
        let rows = line["rows"].as_u64().unwrap();
        assert_eq!(
            line["exact"], true,
            "seed {seed}: rows are not 0..{rows} exactly once"
        );
        assert!(
            rows >= *acked,
            "seed {seed}: {rows} rows in the table, {acked} acknowledged"
        );
        let ours = IcebergTable::open(dir.path()).files().unwrap().len();
        assert_eq!(line["files"], ours, "seed {seed}");
        if rows > 0 {
            // Our reader agrees.
            let n = Dataset::open(dir.path())
                .unwrap()
                .read_all::<Row>()
                .unwrap()
                .len();
            assert_eq!(n as u64, rows, "seed {seed}");
        }
        total += rows;
    }
    eprintln!(
        "{} crash trials with the Iceberg committer in {:?}: {total} rows",
        trials.len(),
        start.elapsed()
    );
}

#[test]
fn acknowledged_rows_are_in_the_table_once_after_sigkill_30_trials() {
    crash_trials(1..31);
}

#[test]
#[ignore = "long: 500 crash trials with the Iceberg committer"]
fn acknowledged_rows_are_in_the_table_once_after_sigkill_500_trials() {
    crash_trials(1000..1500);
}
