//! The Iceberg committer with concurrent writer processes, pyiceberg 0.12 (through
//! testdata/iceberg_tables.py) reading the tables at the end: delta_commit.rs's
//! concurrency test against an Iceberg table.
//!
//! 4 processes (the ignored `commit_child`, this binary again) each commit 5 files of
//! their own, one commit each, to one table; repeated 10 times: metadata versions
//! contiguous (v1..v20, none overwritten), every file present once, every writer's
//! `parquet-serde.app-version` at its last commit, and pyiceberg reads every row once.
#![cfg(all(unix, feature = "iceberg", feature = "logs"))]

mod common;
#[path = "common/table_crash.rs"]
mod table_crash;

use std::path::Path;
use std::time::Instant;

use parquet_serde::iceberg::IcebergTable;
use parquet_serde::logs::LogWriter;
use table_crash::{row, run_writers, Row, CHILD_DIR, WRITER_ID};

const FILES_PER_WRITER: usize = 5;
const WRITERS: usize = 4;
const ROWS_PER_FILE: u64 = 10;

/// A concurrent writer: commits `FILES_PER_WRITER` files of its own, one commit each.
/// Each file gets its field ids from a staging table of its own (whose hook is replaced),
/// then is copied into `writer={id}/` of the table and committed.
#[test]
#[ignore = "the child process of the concurrency tests; run by them"]
fn commit_child() {
    let (Some(dir), Some(id)) = (std::env::var_os(CHILD_DIR), std::env::var(WRITER_ID).ok()) else {
        return;
    };
    let root = Path::new(&dir);
    let n: u64 = id.parse().unwrap();
    let table = IcebergTable::open(root).app_id(format!("writer-{id}"));
    let staging = tempfile::tempdir().unwrap();
    for k in 0..FILES_PER_WRITER {
        let stage = staging.path().join(format!("s{k}"));
        let mut w = LogWriter::<Row>::builder(&stage)
            .iceberg(IcebergTable::open(&stage))
            .on_finished(|_| {})
            .open()
            .unwrap();
        let first = n * 1000 + k as u64 * ROWS_PER_FILE;
        for seq in first..first + ROWS_PER_FILE {
            w.write(&row(seq)).unwrap();
        }
        let file = w.close().unwrap().remove(0);
        let relative = format!("writer={id}/part-{k}.parquet");
        std::fs::create_dir_all(root.join(format!("writer={id}"))).unwrap();
        std::fs::copy(&file, root.join(&relative)).unwrap();
        let report = table.commit_files(&[&relative]).unwrap();
        assert_eq!(report.added, 1);
        println!(
            "committed {} after {} retries",
            report.version.unwrap(),
            report.retries
        );
    }
}

#[test]
fn four_processes_commit_to_one_iceberg_table_10_times() {
    let start = Instant::now();
    let mut retries = 0;
    let mut dirs = Vec::new();
    for _round in 0..10 {
        let dir = tempfile::tempdir().unwrap();
        for out in run_writers("commit_child", dir.path(), WRITERS) {
            retries += table_crash::retries(&out);
        }
        check_table(dir.path());
        dirs.push(dir);
    }
    let n = WRITERS * FILES_PER_WRITER;
    let mut args = vec!["seqs".to_string()];
    args.extend(dirs.iter().map(|d| d.path().display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    for line in common::iceberg::pyiceberg(&args) {
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["files"], n, "{line}");
        assert_eq!(v["rows"], n as u64 * ROWS_PER_FILE, "{line}");
        // `seq`s are writer * 1000 + 0..50, not 0..rows: count them instead.
    }
    eprintln!(
        "10 rounds of 4 writer processes on an Iceberg table in {:?}, {retries} lost races retried",
        start.elapsed()
    );
}

/// Metadata versions 1..=20 all there, every file once, each writer at its last version,
/// and every row once as our reader reads it.
fn check_table(dir: &Path) {
    let n = WRITERS * FILES_PER_WRITER;
    let mut versions: Vec<String> = std::fs::read_dir(dir.join("metadata"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|f| f.ends_with(".metadata.json"))
        .collect();
    versions.sort_by_key(|f| {
        f.trim_start_matches('v')
            .trim_end_matches(".metadata.json")
            .parse::<u64>()
            .unwrap()
    });
    let want: Vec<String> = (1..=n).map(|v| format!("v{v}.metadata.json")).collect();
    assert_eq!(versions, want, "versions are contiguous and none is lost");
    let table = IcebergTable::open(dir);
    assert_eq!(table.version().unwrap(), Some(n as u64));
    let mut files = table.files().unwrap();
    files.sort();
    let mut want: Vec<String> = (0..WRITERS)
        .flat_map(|w| (0..FILES_PER_WRITER).map(move |k| format!("writer={w}/part-{k}.parquet")))
        .collect();
    want.sort();
    assert_eq!(files, want, "every file once");
    for w in 0..WRITERS {
        let t = IcebergTable::open(dir).app_id(format!("writer-{w}"));
        assert_eq!(
            t.app_version().unwrap(),
            Some(FILES_PER_WRITER as i64 - 1),
            "writer-{w}"
        );
    }
    let mut seqs: Vec<i64> = parquet_serde::dataset::Dataset::open(dir)
        .unwrap()
        .read_all::<Row>()
        .unwrap()
        .iter()
        .map(|r| r.seq)
        .collect();
    seqs.sort_unstable();
    let mut want: Vec<i64> = (0..WRITERS as i64)
        .flat_map(|w| w * 1000..w * 1000 + (FILES_PER_WRITER as u64 * ROWS_PER_FILE) as i64)
        .collect();
    want.sort_unstable();
    assert_eq!(seqs, want, "every row once");
}
