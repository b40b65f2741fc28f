//! Compaction of a Delta table in one commit (issue 31 §2): a table our committer wrote
//! (many small files, three date partitions) compacted by `DeltaTable::compact`, then read
//! by delta-rs (`deltalake` from .ci/requirements.txt, as a subprocess) and by our reader:
//! the same rows before and after; the commit's actions; time travel to the old version
//! until vacuum; `Dataset::compact` and the CLI on a Delta root; a compaction whose input
//! another writer removed meanwhile is abandoned.

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

use common::python_json_lines;
use parquet_serde::dataset::{CompactOptions, Dataset};
use parquet_serde::delta::DeltaTable;
use parquet_serde::logs::{LogWriter, TimePartition};
use parquet_serde::ParquetSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value as J;

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

/// `n` rows over three days, files of 10 rows, each committed by the table's hook.
fn write_table(dir: &Path, table: &DeltaTable, n: i64) {
    let mut logs = LogWriter::<Row>::builder(dir)
        .partition(TimePartition::Daily)
        .time_field(|r| r.ts)
        .roll_rows(10)
        .on_finished(table.hook())
        .open()
        .unwrap();
    for seq in 0..n {
        let row = Row {
            ts: DAY0 + seq * (3 * DAY / n) + 7,
            seq,
            service: format!("svc-{}", seq % 3),
            latency: (seq % 4 != 0).then_some(seq as f64 / 8.0),
        };
        logs.write(&row).unwrap();
    }
    logs.close().unwrap();
    assert!(table.take_last_error().is_none());
}

/// delta-rs's rows of the table at `version` (the latest when `None`) as sorted
/// `(seq, service, latency, date)` lines, and its file count.
const READ: &str = r#"
import json, sys
from deltalake import DeltaTable
dt = DeltaTable(sys.argv[1]) if len(sys.argv) < 3 else DeltaTable(sys.argv[1], version=int(sys.argv[2]))
rows = sorted([r["seq"], r["service"], r["latency"], r["date"].isoformat()] for r in dt.to_pyarrow_table().to_pylist())
print(json.dumps({"version": dt.version(), "files": len(dt.file_uris()), "rows": rows}))
# delta-rs 1.6.6 may abort at interpreter exit ("terminate called without an active
# exception", about 1 run in 20 with several at once): leave before the teardown.
import os as _os, sys as _sys
_sys.stdout.flush()
_os._exit(0)
"#;

fn delta_rs(dir: &Path, version: Option<u64>) -> J {
    let mut args = vec!["-c".to_string(), READ.into(), dir.display().to_string()];
    args.extend(version.map(|v| v.to_string()));
    python_json_lines(&args).remove(0)
}

/// Our reader's rows, sorted by `seq`.
fn ours(dataset: Dataset) -> Vec<Row> {
    let mut rows: Vec<Row> = dataset.read_all().unwrap();
    rows.sort_by_key(|r| r.seq);
    rows
}

/// The actions of commit `version`, one JSON object each.
fn commit(dir: &Path, version: u64) -> Vec<J> {
    let text = std::fs::read_to_string(dir.join(format!("_delta_log/{version:020}.json"))).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn one_commit_removes_the_inputs_and_adds_the_outputs_then_vacuum_deletes_the_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let grace = Duration::from_secs(2);
    let table = DeltaTable::open(dir.path()).vacuum_after(grace);
    write_table(dir.path(), &table, 120);
    let before_files: BTreeSet<String> = table.files().unwrap().into_iter().collect();
    assert!(before_files.len() >= 12, "{before_files:?}");
    let old = table.version().unwrap().unwrap();
    let rs_before = delta_rs(dir.path(), None);
    let ours_before = ours(Dataset::open(dir.path()).unwrap());
    assert_eq!(ours_before.len(), 120);
    assert_eq!(rs_before["rows"].as_array().unwrap().len(), 120);

    let report = table.compact(&CompactOptions::default()).unwrap();
    let compacted = std::time::Instant::now();
    // Vacuum waits for the grace period: the inputs stay (checked again below).
    assert!(table.vacuum().unwrap().is_empty());
    assert_eq!(report.table_version, Some(old + 1));
    assert_eq!(
        table.version().unwrap(),
        Some(old + 1),
        "exactly one new version"
    );
    assert_eq!(
        (report.inputs, report.rows, report.inputs_removed),
        (before_files.len(), 120, 0)
    );
    assert_eq!(report.outputs.len(), 3, "one output per date partition");

    // The commit: a remove of every input, an add of every output, nothing else of data.
    let after_files: BTreeSet<String> = table.files().unwrap().into_iter().collect();
    assert_eq!(after_files.len(), 3);
    assert!(after_files.is_disjoint(&before_files));
    let actions = commit(dir.path(), old + 1);
    let removes: BTreeSet<String> = actions
        .iter()
        .filter_map(|a| a.get("remove"))
        .map(|r| {
            assert_eq!(r["dataChange"], false);
            assert!(r["deletionTimestamp"].as_i64().unwrap() > 0);
            r["path"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(removes, before_files);
    let mut records = 0;
    let adds: BTreeSet<String> = actions
        .iter()
        .filter_map(|a| a.get("add"))
        .map(|a| {
            assert_eq!(a["dataChange"], false);
            let path = a["path"].as_str().unwrap();
            let date = path
                .split('/')
                .next()
                .unwrap()
                .strip_prefix("date=")
                .unwrap();
            assert_eq!(a["partitionValues"]["date"], date);
            let stats: J = serde_json::from_str(a["stats"].as_str().unwrap()).unwrap();
            records += stats["numRecords"].as_i64().unwrap();
            assert!(stats["minValues"]["seq"].is_i64(), "{stats}");
            path.to_string()
        })
        .collect();
    assert_eq!(adds, after_files);
    assert_eq!(records, 120);
    assert_eq!(actions.iter().filter(|a| a.get("txn").is_some()).count(), 1);
    assert_eq!(
        actions.len(),
        removes.len() + adds.len() + 2,
        "commitInfo + txn"
    );

    // The same rows, to both readers; the old version still reads the old files.
    let rs_after = delta_rs(dir.path(), None);
    assert_eq!(rs_after["rows"], rs_before["rows"]);
    assert_eq!(rs_after["files"], 3);
    assert_eq!(ours(Dataset::open(dir.path()).unwrap()), ours_before);
    assert_eq!(delta_rs(dir.path(), Some(old))["rows"], rs_before["rows"]);
    let then = Dataset::open(dir.path()).unwrap().version(old).unwrap();
    assert_eq!(then.files().len(), before_files.len());
    assert_eq!(ours(then), ours_before);

    // After the grace period, vacuum deletes the inputs only.
    assert!(before_files.iter().all(|f| dir.path().join(f).exists()));
    std::thread::sleep((grace + Duration::from_millis(200)).saturating_sub(compacted.elapsed()));
    let deleted: BTreeSet<String> = table.vacuum().unwrap().into_iter().collect();
    assert_eq!(deleted, before_files);
    assert!(before_files.iter().all(|f| !dir.path().join(f).exists()));
    assert!(after_files.iter().all(|f| dir.path().join(f).exists()));
    assert_eq!(delta_rs(dir.path(), None)["rows"], rs_before["rows"]);
    assert_eq!(ours(Dataset::open(dir.path()).unwrap()), ours_before);
}

#[test]
fn dataset_compact_and_the_cli_on_a_delta_root_delete_no_referenced_file() {
    for cli in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let table = DeltaTable::open(dir.path());
        write_table(dir.path(), &table, 60);
        let before: Vec<String> = table.files().unwrap();
        let old = table.version().unwrap().unwrap();
        if cli {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_parquet-serde"))
                .arg("compact")
                .arg(dir.path())
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(
                text.contains(&format!("table version {}", old + 1)),
                "{text}"
            );
        } else {
            let report = Dataset::open(dir.path())
                .unwrap()
                .compact(&CompactOptions::default())
                .unwrap();
            assert_eq!(report.table_version, Some(old + 1));
        }
        // Every file any version references is still there; the table moved one version.
        assert_eq!(table.version().unwrap(), Some(old + 1));
        for f in before.iter().chain(&table.files().unwrap()) {
            assert!(dir.path().join(f).exists(), "{f} deleted (cli: {cli})");
        }
        assert_eq!(ours(Dataset::open(dir.path()).unwrap()).len(), 60);
        assert_eq!(
            delta_rs(dir.path(), None)["rows"].as_array().unwrap().len(),
            60
        );
    }
}

#[test]
fn a_compaction_whose_input_another_writer_removed_is_abandoned() {
    let dir = tempfile::tempdir().unwrap();
    let table = DeltaTable::open(dir.path());
    write_table(dir.path(), &table, 60);
    // The compaction plans on this snapshot; meanwhile another writer removes a file.
    let stale = Dataset::open(dir.path()).unwrap();
    let gone = table.files().unwrap()[1].clone();
    table.remove_files(&[gone.as_str()]).unwrap();
    let version = table.version().unwrap();
    let listing = |dir: &Path| -> BTreeSet<String> {
        walk(dir)
            .into_iter()
            .filter(|p| !p.contains("_delta_log"))
            .collect()
    };
    let files_before = listing(dir.path());
    let err = stale.compact(&CompactOptions::default()).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains(&gone) && text.contains("was removed"),
        "{text}"
    );
    assert!(text.contains("outputs deleted"), "{text}");
    assert_eq!(table.version().unwrap(), version, "nothing committed");
    assert_eq!(
        listing(dir.path()),
        files_before,
        "the outputs were deleted"
    );
    // The rows of the removed file did not come back; a new compaction succeeds.
    assert_eq!(ours(Dataset::open(dir.path()).unwrap()).len(), 50);
    let report = table.compact(&CompactOptions::default()).unwrap();
    // The partition that lost a file has one left, which stays as it is.
    assert_eq!((report.rows, report.files_kept), (40, 1));
    assert_eq!(ours(Dataset::open(dir.path()).unwrap()).len(), 50);
}

/// Every file below `dir`, relative, `/`-separated.
fn walk(dir: &Path) -> Vec<String> {
    common::files_below(dir)
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(dir).unwrap();
            rel.to_string_lossy().replace('\\', "/")
        })
        .collect()
}
