//! Iceberg tables committed by `IcebergTable`, read by pyiceberg 0.12 (run by the
//! project's Python, `tests/iceberg_read.py`: a `StaticTable` over the newest metadata
//! file) as the same rows, values asserted:
//! - identity partitions on the log writer's Hive folders (`date=...`), the folder column
//!   filled by pyiceberg from the partition tuple; a one-day filter plans that day's files;
//! - `hour(ts)` partitions: a one-hour filter plans one file of six, a filter on `seq`
//!   prunes by our bounds;
//! - exactly-once: the same file committed twice is skipped and counted; a file without
//!   field ids is refused naming it;
//! - 4 threads, each with its own `IcebergTable`, commit 5 files each to one table: every
//!   file once, the retries counted, pyiceberg reads every row;
//! - the tracing layer's table (`hour(ts)` partitions): its events read back with the JSON
//!   text of their fields; a one-hour filter plans only that hour's file (paths printed);
//! - pyiceberg's SqlCatalog (SQLite) registers a table we wrote and appends to it; its
//!   metadata file made our next version, we commit on top of its snapshot (its manifests
//!   read and carried), and pyiceberg reads its row and ours.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::path::Path;

use parquet_serde::iceberg::IcebergTable;
use parquet_serde::logs::{LogWriter, TimePartition};
use parquet_serde::ParquetSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as J};

use common::python_json_lines;

const READ: &str = include_str!("iceberg_read.py");

/// 2026-11-24T00:00:00Z in microseconds.
const DAY0: i64 = 1_795_478_400_000_000;
const HOUR: i64 = 3_600_000_000;

#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq)]
struct Line {
    #[parquet(timestamp = "micros")]
    ts: i64,
    seq: i64,
    text: String,
    value: Option<f64>,
}

fn line(seq: i64, ts: i64) -> Line {
    Line {
        ts,
        seq,
        text: format!("event {seq}"),
        value: (seq % 3 != 0).then_some(seq as f64 * 0.5),
    }
}

/// What pyiceberg read: the rows (sorted by `seq`), each filter's (planned files, rows),
/// and the number of files of a full scan.
struct Read {
    rows: Vec<J>,
    filters: Vec<(String, u64, u64)>,
    /// Each filter's planned files (paths).
    planned: Vec<(String, Vec<String>)>,
    files: u64,
    operation: String,
}

fn read_table(metadata_uri: &str, props: J, filters: J) -> Read {
    let lines = python_json_lines(&[
        "-c",
        READ,
        metadata_uri,
        &props.to_string(),
        &filters.to_string(),
    ]);
    let mut out = Read {
        rows: Vec::new(),
        filters: Vec::new(),
        planned: Vec::new(),
        files: 0,
        operation: String::new(),
    };
    for l in lines {
        if let Some(r) = l.get("row") {
            out.rows.push(r.clone());
        } else if let Some(name) = l.get("filter") {
            out.filters.push((
                name.as_str().unwrap().to_string(),
                l["planned"].as_u64().unwrap(),
                l["rows"].as_u64().unwrap(),
            ));
            let paths = l["paths"].as_array().unwrap();
            let paths = paths.iter().map(|p| p.as_str().unwrap().to_string());
            out.planned
                .push((name.as_str().unwrap().to_string(), paths.collect()));
        } else {
            out.files = l["files"].as_u64().unwrap();
            out.operation = l["operation"].as_str().unwrap().to_string();
        }
    }
    out.rows.sort_by_key(|r| r["seq"].as_i64());
    out
}

fn metadata_uri(table: &IcebergTable) -> String {
    format!(
        "{}/{}",
        table.location(),
        table.metadata_file().unwrap().expect("a committed table")
    )
}

fn expected(lines: &[Line]) -> Vec<J> {
    let mut v: Vec<&Line> = lines.iter().collect();
    v.sort_by_key(|l| l.seq);
    v.iter()
        .map(|l| json!({"ts": l.ts, "seq": l.seq, "text": l.text, "value": l.value}))
        .collect()
}

/// The rows without the partition-only columns (`date`).
fn data_columns(rows: &[J]) -> Vec<J> {
    rows.iter()
        .map(|r| {
            let mut r = r.clone();
            r.as_object_mut().unwrap().remove("date");
            r
        })
        .collect()
}

fn write_logs(dir: &Path, table: &IcebergTable, partition: TimePartition, lines: &[Line]) {
    let mut logs = LogWriter::<Line>::builder(dir)
        .partition(partition)
        .time_field(|l| l.ts)
        .iceberg(table.clone())
        .open()
        .unwrap();
    for l in lines {
        logs.write(l).unwrap();
    }
    logs.close().unwrap();
    assert!(
        table.take_last_error().is_none(),
        "{:?}",
        table.take_last_error()
    );
}

#[test]
fn pyiceberg_reads_identity_partitions_on_hive_folders() {
    let dir = tempfile::tempdir().unwrap();
    let table = IcebergTable::open(dir.path()).app_id("interop");
    let lines: Vec<Line> = (0..90).map(|i| line(i, DAY0 + i * HOUR)).collect(); // 4 days
    write_logs(dir.path(), &table, TimePartition::Daily, &lines);
    assert_eq!(table.files().unwrap().len(), 4);
    assert!(table.files().unwrap()[0].starts_with("date=2026-11-24/"));
    let read = read_table(
        &metadata_uri(&table),
        json!({}),
        json!({"one_day": "date = '2026-11-25'", "seq_range": "seq >= 30 and seq < 40"}),
    );
    assert_eq!(data_columns(&read.rows), expected(&lines));
    // pyiceberg fills the folder column from the partition tuple.
    assert_eq!(read.rows[0]["date"], "2026-11-24");
    assert_eq!(read.rows[89]["date"], "2026-11-27");
    assert_eq!(read.files, 4);
    eprintln!("identity partitions: {:?}", read.filters);
    assert!(read.filters.contains(&("one_day".into(), 1, 24)));
    // seq 30..40 lies in the second day's file only (24 rows a day): pruned by our bounds.
    assert!(read.filters.contains(&("seq_range".into(), 1, 10)));
    assert_eq!(read.operation, "append");
    assert_eq!(table.app_version().unwrap(), Some(3));
}

#[test]
fn pyiceberg_prunes_hour_partitions_by_partition_and_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let table = IcebergTable::open(dir.path()).partition_by_hour("ts");
    // 6 hours, 10 rows each, one file an hour.
    let lines: Vec<Line> = (0..60)
        .map(|i| line(i, DAY0 + 13 * HOUR + i * HOUR / 10))
        .collect();
    write_logs(dir.path(), &table, TimePartition::Hourly, &lines);
    assert_eq!(table.files().unwrap().len(), 6);
    let read = read_table(
        &metadata_uri(&table),
        json!({}),
        json!({
            "one_hour": "ts >= '2026-11-24T15:00:00+00:00' and ts < '2026-11-24T16:00:00+00:00'",
            "seq_bounds": "seq >= 41 and seq <= 43",
        }),
    );
    assert_eq!(read.rows, expected(&lines));
    assert_eq!(read.files, 6);
    let one_hour = read.filters.iter().find(|f| f.0 == "one_hour").unwrap();
    let seq = read.filters.iter().find(|f| f.0 == "seq_bounds").unwrap();
    eprintln!(
        "hour partitions: one-hour filter plans {} of 6 files ({} rows); seq filter plans {} \
         of 6 ({} rows)",
        one_hour.1, one_hour.2, seq.1, seq.2
    );
    assert_eq!((one_hour.1, one_hour.2), (1, 10));
    assert_eq!((seq.1, seq.2), (1, 3));
}

#[test]
fn the_same_file_twice_is_committed_once_and_files_without_ids_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let table = IcebergTable::open(dir.path());
    let lines: Vec<Line> = (0..5).map(|i| line(i, DAY0 + i)).collect();
    write_logs(dir.path(), &table, TimePartition::None, &lines);
    let files = table.files().unwrap();
    assert_eq!(files.len(), 1);
    let version = table.version().unwrap();
    let report = table.commit_files(&files).unwrap();
    assert_eq!(
        (report.added, report.already_committed, report.version),
        (0, 1, None)
    );
    let report = table.commit_folder().unwrap();
    assert_eq!((report.added, report.already_committed), (0, 1));
    assert_eq!(table.version().unwrap(), version);

    // A file written without the table's hook has no field ids: refused, naming it.
    parquet_serde::to_path(dir.path().join("plain.parquet"), &lines).unwrap();
    let err = table.commit_files(&["plain.parquet"]).unwrap_err();
    assert!(err.to_string().contains("plain.parquet"), "{err}");
    assert!(err.to_string().contains("field id"), "{err}");
    assert_eq!(table.version().unwrap(), version);
    let read = read_table(&metadata_uri(&table), json!({}), json!({}));
    assert_eq!(read.rows, expected(&lines));
}

#[test]
fn concurrent_committers_commit_every_file_once() {
    let dir = tempfile::tempdir().unwrap();
    // The files first (with ids, each written through a table of its own, whose hook is
    // replaced), then 4 threads commit 5 each, one commit a file.
    let lines: Vec<Line> = (0..20).map(|i| line(i, DAY0 + i)).collect();
    let root = dir.path().join("table");
    std::fs::create_dir_all(&root).unwrap();
    let mut names = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let staging = dir.path().join(format!("s{i}"));
        let t = IcebergTable::open(&staging);
        let mut w = LogWriter::<Line>::builder(&staging)
            .iceberg(t)
            .on_finished(|_| {})
            .open()
            .unwrap();
        w.write(l).unwrap();
        let f = w.close().unwrap().remove(0);
        let name = format!("f{i:02}.parquet");
        std::fs::copy(&f, root.join(&name)).unwrap();
        names.push(name);
    }
    let handles: Vec<_> = names
        .chunks(5)
        .enumerate()
        .map(|(w, chunk)| {
            let root = root.clone();
            let chunk = chunk.to_vec();
            std::thread::spawn(move || {
                let table = IcebergTable::open(&root).app_id(format!("writer-{w}"));
                let mut retries = 0;
                for f in chunk {
                    let r = table.commit_files(&[f]).unwrap();
                    assert_eq!(r.added, 1);
                    retries += r.retries;
                }
                retries
            })
        })
        .collect();
    let retries: u32 = handles.into_iter().map(|h| h.join().unwrap()).sum();
    let table = IcebergTable::open(&root);
    assert_eq!(table.files().unwrap(), names);
    assert_eq!(table.version().unwrap(), Some(20));
    for w in 0..4 {
        let t = IcebergTable::open(&root).app_id(format!("writer-{w}"));
        assert_eq!(t.app_version().unwrap(), Some(4));
    }
    eprintln!("4 threads x 5 commits: {retries} retries");
    let read = read_table(&metadata_uri(&table), json!({}), json!({}));
    assert_eq!(read.rows, expected(&lines));
}

const PYICEBERG_APPEND: &str = r#"
import datetime, json, os, sys
import pyarrow as pa
from pyiceberg.catalog.sql import SqlCatalog
wh, meta = sys.argv[1], sys.argv[2]
cat = SqlCatalog("t", uri=f"sqlite:///{wh}/catalog.db", warehouse=f"file://{wh}")
cat.create_namespace("ns")
table = cat.register_table("ns.logs", meta)
utc = datetime.timezone.utc
rows = [{"ts": datetime.datetime(2026, 11, 26, 5, tzinfo=utc), "seq": 1000,
         "text": "from pyiceberg", "value": 1.5, "date": datetime.date(2026, 11, 26)}]
table.append(pa.Table.from_pylist(rows, schema=table.schema().as_arrow()))
print(json.dumps({"metadata": table.metadata_location}))
sys.stdout.flush()
os._exit(0)
"#;

/// A table we wrote is registered in pyiceberg's SqlCatalog (SQLite) and appended to by
/// pyiceberg; its metadata file made our next version, we commit on top of pyiceberg's
/// snapshot (reading its manifests and carrying them), and pyiceberg reads every row.
#[test]
fn we_commit_on_top_of_a_pyiceberg_append_through_its_sql_catalog() {
    let dir = tempfile::tempdir().unwrap();
    let wh = tempfile::tempdir().unwrap();
    let table = IcebergTable::open(dir.path());
    let first: Vec<Line> = (0..10).map(|i| line(i, DAY0 + i * HOUR)).collect();
    write_logs(dir.path(), &table, TimePartition::Daily, &first);
    let lines = python_json_lines(&[
        "-c",
        PYICEBERG_APPEND,
        wh.path().to_str().unwrap(),
        &metadata_uri(&table),
    ]);
    let theirs = lines[0]["metadata"].as_str().unwrap().to_string();
    // pyiceberg's metadata file becomes our next version (what a catalog sync would do).
    let path = theirs.strip_prefix("file://").unwrap();
    let next = table.version().unwrap().unwrap() + 1;
    std::fs::copy(
        path,
        dir.path().join(format!("metadata/v{next}.metadata.json")),
    )
    .unwrap();
    assert_eq!(table.files().unwrap().len(), 2, "ours and pyiceberg's");
    let pyiceberg_snapshot = table.snapshot_id().unwrap();

    let second: Vec<Line> = (10..20).map(|i| line(i, DAY0 + 26 * HOUR + i)).collect();
    write_logs(dir.path(), &table, TimePartition::Daily, &second);
    assert_eq!(table.version().unwrap(), Some(next + 1));
    assert_ne!(table.snapshot_id().unwrap(), pyiceberg_snapshot);
    let files = table.files().unwrap();
    assert_eq!(files.len(), 3, "{files:?}");
    let read = read_table(
        &metadata_uri(&table),
        json!({}),
        json!({"their_day": "date = '2026-11-26'"}),
    );
    let mut want = expected(&first);
    want.extend(expected(&second));
    let (ours, theirs): (Vec<J>, Vec<J>) = data_columns(&read.rows)
        .into_iter()
        .partition(|r| r["seq"].as_i64() != Some(1000));
    assert_eq!(ours, want);
    assert_eq!(theirs[0]["text"], "from pyiceberg");
    assert_eq!(theirs[0]["ts"], DAY0 + 2 * 24 * HOUR + 5 * HOUR);
    eprintln!("after pyiceberg's append and ours: {:?}", read.filters);
    assert!(read.filters.contains(&("their_day".into(), 1, 1)));
}

/// A row of the tracing layer's Iceberg schema (its columns in Iceberg v2 types, `fields`
/// as JSON text), to add files of past hours to the layer's table.
#[cfg(feature = "tracing")]
#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq)]
#[parquet(name = "log_event")]
struct IcebergEvent {
    #[parquet(timestamp = "micros")]
    ts: i64,
    level: String,
    target: String,
    message: Option<String>,
    module_path: Option<String>,
    file: Option<String>,
    line: Option<i64>,
    thread_name: Option<String>,
    thread_id: i64,
    #[parquet(json)]
    fields: String,
    spans: Vec<IcebergSpan>,
    dropped: Option<i64>,
}

#[cfg(feature = "tracing")]
#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq)]
struct IcebergSpan {
    name: String,
    #[parquet(json)]
    fields: String,
}

/// The tracing layer's files, committed through `TracingLayerBuilder::iceberg` to a table
/// partitioned by `hour(ts)`: pyiceberg reads the events (values asserted, the JSON text of
/// `fields` and of the span's fields included), then, with files of two past hours added
/// to the table, a one-hour filter plans only that hour's file.
#[cfg(feature = "tracing")]
#[test]
fn pyiceberg_reads_the_tracing_layers_table() {
    use parquet_serde::logs::{Overflow, TracingLayer};
    use tracing_subscriber::layer::SubscriberExt;
    let dir = tempfile::tempdir().unwrap();
    let table = IcebergTable::open(dir.path())
        .app_id("tracing")
        .partition_by_hour("ts");
    let (layer, guard) = TracingLayer::builder(dir.path())
        .overflow(Overflow::Block)
        .iceberg(table.clone())
        .build()
        .unwrap();
    let dispatch = tracing::Dispatch::new(tracing_subscriber::registry().with(layer));
    // The event and the line to expect come from one macro call: inside a macro, `line!()`
    // (this one and the one in `tracing::error!`) is the line of the outermost call, so
    // the two agree however the call is laid out.
    macro_rules! error_at_line {
        ($($event:tt)*) => {{
            tracing::error!($($event)*);
            line!()
        }};
    }
    let line = tracing::dispatcher::with_default(&dispatch, || {
        let span = tracing::info_span!("request", route = "/users", attempt = 2u64);
        let _in = span.enter();
        let line = error_at_line!(
            status = 500u64,
            who = "ann",
            big = u64::MAX,
            "request failed"
        );
        drop(_in);
        tracing::info!("no fields");
        line
    });
    guard.close().unwrap();
    if let Some(e) = table.take_last_error() {
        panic!("{e}");
    }
    let layer_files = table.files().unwrap();
    assert!(!layer_files.is_empty());

    let read = read_table(&metadata_uri(&table), json!({}), json!({}));
    let mut rows = read.rows.clone();
    rows.sort_by_key(|r| r["message"].as_str().map(str::to_string));
    assert_eq!(rows.len(), 2, "{rows:?}");
    let (quiet, failed) = (&rows[0], &rows[1]);
    assert_eq!(failed["message"], "request failed");
    assert_eq!(failed["level"], "ERROR");
    assert_eq!(failed["target"], "iceberg_interop");
    assert_eq!(failed["module_path"], "iceberg_interop");
    assert!(failed["file"]
        .as_str()
        .unwrap()
        .ends_with("iceberg_interop.rs"));
    assert_eq!(failed["line"], line);
    assert!(failed["thread_id"].as_i64().unwrap() >= 0);
    assert_eq!(failed["thread_id"], quiet["thread_id"]);
    assert_eq!(failed["dropped"], J::Null);
    let fields: J = serde_json::from_str(failed["fields"].as_str().unwrap()).unwrap();
    assert_eq!(
        failed["fields"].as_str().unwrap(),
        format!(r#"{{"big":{},"status":500,"who":"ann"}}"#, u64::MAX),
        "{fields}"
    );
    assert_eq!(
        failed["spans"],
        json!([{"name": "request", "fields": r#"{"attempt":2,"route":"/users"}"#}])
    );
    assert_eq!(quiet["message"], "no fields");
    assert_eq!(quiet["level"], "INFO");
    assert_eq!(quiet["fields"], "{}");
    assert_eq!(quiet["spans"], json!([]));
    let now_hour = failed["ts"].as_i64().unwrap().div_euclid(HOUR) * HOUR;

    // Files of two past hours, written through the table (ids by path from its schema).
    let past: Vec<IcebergEvent> = (0..4)
        .map(|i| IcebergEvent {
            ts: DAY0 + 13 * HOUR + i * HOUR / 2,
            level: "WARN".into(),
            target: "past".into(),
            message: Some(format!("past {i}")),
            module_path: None,
            file: None,
            line: None,
            thread_name: None,
            thread_id: i,
            fields: format!(r#"{{"i":{i}}}"#),
            spans: vec![],
            dropped: None,
        })
        .collect();
    let mut logs = LogWriter::<IcebergEvent>::builder(dir.path())
        .partition(TimePartition::Hourly)
        .time_field(|e| e.ts)
        .iceberg(table.clone())
        .open()
        .unwrap();
    for e in &past {
        logs.write(e).unwrap();
    }
    logs.close().unwrap();
    if let Some(e) = table.take_last_error() {
        panic!("{e}");
    }
    let all = table.files().unwrap();
    assert_eq!(all.len(), layer_files.len() + 2, "{all:?}");

    // RFC 3339 text of a time in microseconds (UTC), by the civil-from-days algorithm.
    let iso = |micros: i64| {
        let (days, secs) = (
            micros.div_euclid(86_400_000_000),
            micros.rem_euclid(86_400_000_000) / 1_000_000,
        );
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = doy - (153 * mp + 2) / 5 + 1;
        let m = if mp < 10 { mp + 3 } else { mp - 9 };
        let y = yoe + era * 400 + i64::from(m <= 2);
        format!(
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}+00:00",
            secs / 3600,
            secs / 60 % 60,
            secs % 60
        )
    };
    assert_eq!(iso(DAY0 + 14 * HOUR), "2026-11-24T14:00:00+00:00");
    let hour_filter =
        |start: i64| format!("ts >= '{}' and ts < '{}'", iso(start), iso(start + HOUR));
    let read = read_table(
        &metadata_uri(&table),
        json!({}),
        json!({
            "past_hour": hour_filter(DAY0 + 14 * HOUR),
            "layer_hour": hour_filter(now_hour),
        }),
    );
    assert_eq!(read.rows.len(), 6);
    assert_eq!(read.files as usize, all.len());
    for (name, paths) in &read.planned {
        eprintln!(
            "tracing layer's table: filter {name} plans {} of {} files: {paths:?}",
            paths.len(),
            all.len()
        );
    }
    let planned = |name: &str| {
        read.planned
            .iter()
            .find(|p| p.0 == name)
            .map(|p| p.1.clone())
            .unwrap()
    };
    let past_hour = planned("past_hour");
    assert_eq!(past_hour.len(), 1, "{past_hour:?}");
    assert!(
        past_hour[0].contains("date=2026-11-24/hour=14/"),
        "{past_hour:?}"
    );
    assert!(read.filters.contains(&("past_hour".into(), 1, 2)));
    let layer_hour = planned("layer_hour");
    assert_eq!(layer_hour.len(), layer_files.len(), "{layer_hour:?}");
    assert!(read
        .filters
        .contains(&("layer_hour".into(), layer_files.len() as u64, 2)));
}
