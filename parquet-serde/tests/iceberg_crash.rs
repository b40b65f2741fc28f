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
use parquet_serde::logs::LogWriter;
use table_crash::{kill_at_random, Rng, Row, CHILD_DIR, CHILD_SEED};

const APP: &str = "crash-writer";

fn writer(dir: &Path, table: &IcebergTable, rng: &mut Rng) -> LogWriter<Row> {
    table_crash::writer(dir, rng, |b| b.iceberg(table.clone()))
}

/// The crash child: writes forever, committing each final file, printing `ack N` after
/// each flush.
#[test]
#[ignore = "the child process of the crash tests; run by them"]
fn crash_child() {
    let (Some(dir), Some(seed)) = (std::env::var_os(CHILD_DIR), std::env::var(CHILD_SEED).ok())
    else {
        return;
    };
    let dir = Path::new(&dir);
    let mut rng = Rng(seed.parse::<u64>().unwrap() | 1);
    let table = IcebergTable::open(dir).app_id(APP);
    let mut logs = writer(dir, &table, &mut rng);
    table_crash::write_forever(&mut logs, &mut rng, || table.take_last_error());
}

/// One crash trial; the table's folder and the acknowledged row count.
fn crash_trial(seed: u64) -> (tempfile::TempDir, u64) {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let acked = kill_at_random("crash_child", dir.path(), seed, &mut rng);

    // The restart: recovery hands the rebuilt files to the hook; then the folder is
    // committed for files made final but not committed before the kill.
    let table = IcebergTable::open(dir.path()).app_id(APP);
    let logs = writer(dir.path(), &table, &mut rng);
    logs.close().unwrap();
    if let Some(e) = table.take_last_error() {
        panic!("seed {seed}: commit after recovery failed: {e}");
    }
    table.commit_folder().unwrap();
    // Every final file is in the table exactly once; committing again adds nothing.
    let again = table.commit_folder().unwrap();
    assert_eq!((again.added, again.version), (0, None), "seed {seed}");
    (dir, acked)
}

fn crash_trials(seeds: std::ops::Range<u64>) {
    let start = Instant::now();
    let trials: Vec<(u64, tempfile::TempDir, u64)> = seeds
        .map(|seed| {
            let (dir, acked) = crash_trial(seed);
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
