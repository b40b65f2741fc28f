//! Delta tables written by `delta::DeltaTable`, read by delta-rs (`deltalake` 1.6.6 from
//! .ci/requirements.txt, run by the project's Python as a subprocess): the same rows with
//! their values (VARIANT columns decoded on both sides), a partition filter that reads only
//! that partition's files, a table read from our Parquet checkpoint with its JSON commits
//! hidden, the tracing layer's files, and removals then VACUUM.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use common::python_json_lines;
use parquet_serde::delta::DeltaTable;
use parquet_serde::logs::{LogWriter, Overflow, TimePartition, TracingLayer};
use parquet_serde::variant::Variant;
use parquet_serde::ParquetSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as J};
use tracing_subscriber::layer::SubscriberExt;

/// 2026-11-24T00:00:00Z in microseconds.
const DAY0: i64 = 1_795_478_400_000_000;
const DAY: i64 = 86_400_000_000;

#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq)]
struct Ctx {
    user: Option<String>,
    retries: u32,
}

#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq)]
struct Event {
    #[parquet(timestamp = "micros")]
    ts: i64,
    seq: i64,
    service: String,
    status: Option<i32>,
    latency: f64,
    tags: Vec<String>,
    attrs: BTreeMap<String, i64>,
    ctx: Ctx,
    fields: Variant,
}

fn event(seq: i64) -> Event {
    Event {
        ts: DAY0 + seq * (DAY / 100) + 123,
        seq,
        service: format!("svc-{}", seq % 3),
        status: (seq % 5 != 0).then_some(200 + (seq % 4) as i32),
        latency: seq as f64 / 8.0,
        tags: (0..seq % 3).map(|i| format!("t{i}")).collect(),
        attrs: [("n".to_string(), seq * 10)].into(),
        ctx: Ctx {
            user: (seq % 2 == 0).then(|| format!("user-{seq}")),
            retries: (seq % 4) as u32,
        },
        fields: Variant::object([
            ("seq", Variant::from(seq)),
            ("even", Variant::Bool(seq % 2 == 0)),
            ("name", Variant::from(format!("n{seq}").as_str())),
        ]),
    }
}

/// Writes `n` events over three days (files of 40 rows) into a table at `dir`; the files.
fn write_table(dir: &Path, table: &DeltaTable, n: i64) -> Vec<std::path::PathBuf> {
    let mut logs = LogWriter::<Event>::builder(dir)
        .partition(TimePartition::Daily)
        .time_field(|e| e.ts)
        .roll_rows(40)
        .on_finished(table.hook())
        .open()
        .unwrap();
    for seq in 0..n {
        logs.write(&event(seq)).unwrap();
    }
    let files = logs.close().unwrap();
    assert!(table.take_last_error().is_none());
    files
}

const READ: &str = r#"
import json, sys
from deltalake import DeltaTable
dt = DeltaTable(sys.argv[1])
print(json.dumps({"kind": "meta", "version": dt.version(),
                  "files": sorted(dt.file_uris()), "partition_columns": dt.metadata().partition_columns,
                  "protocol": [dt.protocol().min_reader_version, dt.protocol().min_writer_version]}))
def dump(kind, table):
    for row in table.to_pylist():
        row["ts"] = row["ts"].isoformat()
        row["date"] = row["date"].isoformat()
        row["fields"] = [row["fields"]["metadata"].hex(), row["fields"]["value"].hex()]
        row["attrs"] = dict(row["attrs"])
        row["kind"] = kind
        print(json.dumps(row))
dump("all", dt.to_pyarrow_table())
if len(sys.argv) > 2:
    day = sys.argv[2]
    files = dt.file_uris(partition_filters=[("date", "=", day)])
    print(json.dumps({"kind": "partition_files", "files": sorted(files)}))
    dump("partition", dt.to_pyarrow_table(partitions=[("date", "=", day)]))
# delta-rs 1.6.6 may abort at interpreter exit ("terminate called without an active
# exception", about 1 run in 20 with several at once): leave before the teardown.
import os as _os, sys as _sys
_sys.stdout.flush()
_os._exit(0)
"#;

fn unhex(s: &J) -> Vec<u8> {
    let s = s.as_str().unwrap();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn date_of(ts: i64) -> String {
    let day = (ts - DAY0).div_euclid(DAY);
    format!("2026-11-{}", 24 + day)
}

/// Checks delta-rs's rows (of `kind`) against `want`, value by value.
fn check_rows(lines: &[J], kind: &str, want: &[Event]) {
    let mut got: Vec<&J> = lines.iter().filter(|l| l["kind"] == kind).collect();
    got.sort_by_key(|r| r["seq"].as_i64().unwrap());
    assert_eq!(got.len(), want.len(), "{kind} rows");
    for (row, e) in got.iter().zip(want) {
        assert_eq!(row["seq"], e.seq);
        assert_eq!(row["service"], e.service.as_str());
        assert_eq!(row["status"], json!(e.status));
        assert_eq!(row["latency"], e.latency);
        assert_eq!(row["tags"], json!(e.tags));
        assert_eq!(row["attrs"], json!(e.attrs));
        assert_eq!(row["ctx"]["user"], json!(e.ctx.user));
        assert_eq!(row["ctx"]["retries"], e.ctx.retries);
        assert_eq!(row["date"], date_of(e.ts).as_str());
        let secs = e.ts.div_euclid(1_000_000);
        let micros = e.ts.rem_euclid(1_000_000);
        let time = secs % 86_400;
        let want_ts = format!(
            "{}T{:02}:{:02}:{:02}.{micros:06}+00:00",
            date_of(e.ts),
            time / 3600,
            time / 60 % 60,
            time % 60
        );
        assert_eq!(row["ts"], want_ts.as_str());
        let fields = Variant::decode(&unhex(&row["fields"][0]), &unhex(&row["fields"][1])).unwrap();
        assert_eq!(fields, e.fields, "seq {}", e.seq);
    }
}

#[test]
fn delta_rs_reads_a_local_table_and_prunes_by_partition() {
    let dir = tempfile::tempdir().unwrap();
    let table = DeltaTable::open(dir.path()).app_id("interop");
    let files = write_table(dir.path(), &table, 250);
    let version = table.version().unwrap().unwrap();
    assert_eq!(version + 1, files.len() as u64, "one commit per file");
    let want: Vec<Event> = (0..250).map(event).collect();

    let day = "2026-11-25";
    let lines = python_json_lines(&["-c", READ, dir.path().to_str().unwrap(), day]);
    let meta = &lines[0];
    assert_eq!(meta["version"], version);
    assert_eq!(meta["partition_columns"], json!(["date"]));
    // The VARIANT column `fields` needs the `variantType` table feature: 3/7.
    assert_eq!(meta["protocol"], json!([3, 7]));
    assert_eq!(meta["files"].as_array().unwrap().len(), files.len());
    check_rows(&lines, "all", &want);

    // The partition filter: only that day's files, and only its rows.
    let part = lines
        .iter()
        .find(|l| l["kind"] == "partition_files")
        .unwrap();
    let part_files: Vec<&str> = part["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    println!("delta-rs files for date = {day}: {part_files:#?}");
    let ours: Vec<String> = table
        .files()
        .unwrap()
        .into_iter()
        .filter(|f| f.starts_with("date=2026-11-25/"))
        .collect();
    assert!(!part_files.is_empty());
    assert_eq!(part_files.len(), ours.len());
    for f in &part_files {
        assert!(f.contains("/date=2026-11-25/"), "{f}");
    }
    let want_day: Vec<Event> = want
        .iter()
        .filter(|e| date_of(e.ts) == day)
        .cloned()
        .collect();
    check_rows(&lines, "partition", &want_day);
}

#[test]
fn delta_rs_reads_from_our_checkpoint_with_the_json_commits_hidden() {
    let dir = tempfile::tempdir().unwrap();
    let table = DeltaTable::open(dir.path())
        .app_id("cp")
        .checkpoint_every(4);
    let files = write_table(dir.path(), &table, 240);
    assert_eq!(files.len(), 7);
    // Versions 0..=6: a checkpoint after version 3 (every 4th commit).
    let log = dir.path().join("_delta_log");
    assert!(log.join("00000000000000000003.checkpoint.parquet").exists());
    let last: J =
        serde_json::from_slice(&std::fs::read(log.join("_last_checkpoint")).unwrap()).unwrap();
    assert_eq!(last["version"], 3);
    // Hide the JSON commits the checkpoint covers: readers must start from it.
    for v in 0..=3 {
        let name = format!("{v:020}.json");
        std::fs::rename(log.join(&name), dir.path().join(format!("hidden-{name}"))).unwrap();
    }
    let lines = python_json_lines(&["-c", READ, dir.path().to_str().unwrap()]);
    assert_eq!(lines[0]["version"], 6);
    check_rows(&lines, "all", &(0..240).map(event).collect::<Vec<_>>());
}

const READ_TRACING: &str = r#"
import json, sys
from deltalake import DeltaTable
dt = DeltaTable(sys.argv[1])
for row in dt.to_pyarrow_table().sort_by("ts").to_pylist():
    print(json.dumps({"message": row["message"], "level": row["level"], "line": row["line"],
                      "thread_id": str(row["thread_id"]),
                      "fields": [row["fields"]["metadata"].hex(), row["fields"]["value"].hex()]}))
# delta-rs 1.6.6 may abort at interpreter exit ("terminate called without an active
# exception", about 1 run in 20 with several at once): leave before the teardown.
import os as _os, sys as _sys
_sys.stdout.flush()
_os._exit(0)
"#;

#[test]
fn delta_rs_reads_the_tracing_layers_table() {
    let dir = tempfile::tempdir().unwrap();
    let table = DeltaTable::open(dir.path()).app_id("tracing");
    let (layer, guard) = TracingLayer::builder(dir.path())
        .overflow(Overflow::Block)
        .on_finished(table.hook())
        .build()
        .unwrap();
    let dispatch = tracing::Dispatch::new(tracing_subscriber::registry().with(layer));
    tracing::dispatcher::with_default(&dispatch, || {
        tracing::error!(status = 500u64, ok = true, who = "ann", "request failed");
        tracing::info!("no fields");
    });
    guard.close().unwrap();
    if let Some(e) = table.take_last_error() {
        panic!("{e}");
    }
    assert_eq!(table.version().unwrap(), Some(0));
    let lines = python_json_lines(&["-c", READ_TRACING, dir.path().to_str().unwrap()]);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["message"], "request failed");
    assert_eq!(lines[0]["level"], "ERROR");
    assert!(lines[0]["line"].as_i64().unwrap() > 0);
    let f = &lines[0]["fields"];
    let fields = Variant::decode(&unhex(&f[0]), &unhex(&f[1])).unwrap();
    assert_eq!(fields.get("status").and_then(Variant::as_i64), Some(500));
    assert_eq!(fields.get("ok"), Some(&Variant::Bool(true)));
    assert_eq!(fields.get("who").and_then(Variant::as_str), Some("ann"));
    assert_eq!(lines[1]["message"], "no fields");
}

const READ_FILES: &str = r#"
import json, sys
from deltalake import DeltaTable
dt = DeltaTable(sys.argv[1])
print(json.dumps({"version": dt.version(), "rows": dt.to_pyarrow_table().num_rows,
                  "files": len(dt.file_uris())}))
# delta-rs 1.6.6 may abort at interpreter exit ("terminate called without an active
# exception", about 1 run in 20 with several at once): leave before the teardown.
import os as _os, sys as _sys
_sys.stdout.flush()
_os._exit(0)
"#;

#[test]
fn removals_are_commits_and_vacuum_waits_for_the_grace_period() {
    let dir = tempfile::tempdir().unwrap();
    let table = DeltaTable::open(dir.path()).vacuum_after(Duration::from_millis(300));
    let files = write_table(dir.path(), &table, 100);
    let first = table.files().unwrap()[0].clone();
    let rows_in_first = 40;
    let report = table
        .remove_files(&[first.as_str(), "date=2026-11-24/absent.parquet"])
        .unwrap();
    assert_eq!((report.removed, report.already_committed), (1, 1));
    assert!(
        dir.path().join(&first).exists(),
        "kept until the grace period passed"
    );
    assert!(table.vacuum().unwrap().is_empty());
    let lines = python_json_lines(&["-c", READ_FILES, dir.path().to_str().unwrap()]);
    assert_eq!(lines[0]["rows"], 100 - rows_in_first);
    assert_eq!(lines[0]["files"], files.len() - 1);
    // A removed path is never added again (exactly-once), even when asked.
    let again = table.commit_files(&[dir.path().join(&first)]).unwrap();
    assert_eq!((again.added, again.already_committed), (0, 1));
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(table.vacuum().unwrap(), std::slice::from_ref(&first));
    assert!(!dir.path().join(&first).exists());
    let lines = python_json_lines(&["-c", READ_FILES, dir.path().to_str().unwrap()]);
    assert_eq!(lines[0]["rows"], 100 - rows_in_first);
}

/// The Python block after `<!-- delta-query -->` in README.md.
fn readme_query() -> String {
    let readme = std::fs::read_to_string(common::repo().join("README.md")).unwrap();
    let at = readme
        .find("<!-- delta-query -->")
        .expect("the README's delta-rs query");
    let block = &readme[at..];
    let start = block.find("```python\n").unwrap() + "```python\n".len();
    let end = start + block[start..].find("```").unwrap();
    block[start..end].to_string()
}

#[test]
fn the_readmes_delta_rs_query_runs_on_a_tracing_layer_table() {
    let query = readme_query();
    // The example runs the same query.
    let example = include_str!("../examples/delta_table.rs");
    assert!(
        example.contains(query.trim()),
        "examples/delta_table.rs runs the README's query"
    );

    let dir = tempfile::tempdir().unwrap();
    let table = DeltaTable::open(dir.path())
        .app_id("readme")
        .checkpoint_every(2);
    assert_eq!(table.commit_folder().unwrap().added, 0);
    let (layer, guard) = TracingLayer::builder(dir.path())
        .overflow(Overflow::Block)
        .roll_bytes(16 << 10)
        .on_finished(table.hook())
        .build()
        .unwrap();
    let dispatch = tracing::Dispatch::new(tracing_subscriber::registry().with(layer));
    tracing::dispatcher::with_default(&dispatch, || {
        for id in 0..3000u64 {
            if id % 100 == 0 {
                tracing::error!(id, "request failed");
            } else {
                tracing::info!(id, "request handled");
            }
        }
    });
    guard.close().unwrap();
    assert!(table.take_last_error().is_none());
    let version = table.version().unwrap().unwrap();
    assert!(version >= 2, "several commits, so a checkpoint: {version}");
    // The README's text, then the exit that dodges delta-rs's abort at interpreter teardown.
    let script = query.replace("logs/app", dir.path().to_str().unwrap())
        + "\nimport os as _os, sys as _sys\n_sys.stdout.flush()\n_os._exit(0)\n";
    let out = String::from_utf8(common::run_python(&script, &[] as &[&str])).unwrap();
    let files = table.files().unwrap().len();
    assert!(
        out.contains(&format!("version {version} files {files}\n")),
        "{out}"
    );
    assert!(out.contains("30 errors of 3000 events"), "{out}");
}
