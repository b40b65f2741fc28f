//! Paths inside the `fields` VARIANT column of folders the tracing layer writes:
//! `cat DIR --where "fields.status = 500"` and `cat DIR --columns fields.status`, through the
//! command line, and the same predicates through the library's dataset reader.

use std::path::Path;
use std::process::{Command, Output};

use parquet_serde::dataset::Dataset;
use parquet_serde::logs::{LogEvent, LogLevel, Overflow, TracingLayer};
use parquet_serde::{col, Predicate};
use serde_json::{json, Value as J};
use tracing_subscriber::layer::SubscriberExt;

/// 41 events through the layer into `dir`: `status` 500 on every fifth (the text "500" on
/// every tenth, the integer on the others), 200 otherwise, `ms` a float, `i` the event's
/// number; the last event has no fields.
fn log_events(dir: &Path) {
    let (layer, guard) = TracingLayer::builder(dir)
        .overflow(Overflow::Block)
        .build()
        .unwrap();
    let dispatch = tracing::Dispatch::new(tracing_subscriber::registry().with(layer));
    tracing::dispatcher::with_default(&dispatch, || {
        for i in 0..40u64 {
            let ms = i as f64 * 1.5;
            match i % 10 {
                0 => tracing::error!(status = "500", ms, i, "failed as text"),
                5 => tracing::error!(status = 500u64, ms, i, "failed"),
                _ => tracing::info!(status = 200u64, ms, i, "ok"),
            }
        }
        tracing::info!("no fields");
    });
    drop(guard);
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parquet-serde"))
        .args(args)
        .output()
        .unwrap()
}

fn lines(out: &Output) -> Vec<J> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn cat_where_and_columns_on_variant_paths_of_a_tracing_folder() {
    let dir = tempfile::tempdir().unwrap();
    log_events(dir.path());
    let d = dir.path().to_str().unwrap();

    // Integer 500 and the text "500" both cast to BIGINT 500.
    let out = run(&[
        "cat",
        d,
        "--where",
        "fields.status = 500",
        "--columns",
        "fields.i",
    ]);
    let rows = lines(&out);
    let ids: Vec<i64> = rows
        .iter()
        .map(|r| r["fields"]["i"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [0, 5, 10, 15, 20, 25, 30, 35], "{rows:?}");
    assert_eq!(rows[0], json!({"fields": {"i": 0}}));

    // A text literal compares the text: only the string "500" and the integer's digits.
    let out = run(&[
        "cat",
        d,
        "--where",
        "fields.status = '500'",
        "--columns",
        "fields.status",
    ]);
    let rows = lines(&out);
    assert_eq!(rows.len(), 8);
    assert!(rows
        .iter()
        .all(|r| r["fields"]["status"] == json!(500) || r["fields"]["status"] == json!("500")));

    // `!=` does not match the event without the field; `is null` does.
    let out = run(&[
        "cat",
        d,
        "--where",
        "fields.status != 500",
        "--columns",
        "message",
    ]);
    assert_eq!(lines(&out).len(), 32);
    let out = run(&[
        "cat",
        d,
        "--where",
        "fields.status is null",
        "--columns",
        "message",
    ]);
    assert_eq!(lines(&out), [json!({"message": "no fields"})]);

    // Doubles, and `and` with an ordinary column.
    let out = run(&[
        "cat",
        d,
        "--where",
        "fields.ms >= 30.0 and level = 'ERROR'",
        "--columns",
        "fields.ms,fields.status",
    ]);
    let rows = lines(&out);
    assert_eq!(
        rows,
        [
            json!({"fields": {"ms": 30.0, "status": "500"}}),
            json!({"fields": {"ms": 37.5, "status": 500}}),
            json!({"fields": {"ms": 45.0, "status": "500"}}),
            json!({"fields": {"ms": 52.5, "status": 500}}),
        ]
    );

    // `--columns fields.status` alone: only that path, `{}` where it is missing.
    let out = run(&["cat", d, "--columns", "fields.status"]);
    let rows = lines(&out);
    assert_eq!(rows.len(), 41);
    assert_eq!(rows[1], json!({"fields": {"status": 200}}));
    assert_eq!(rows[40], json!({"fields": {}}));
    // The whole column, when asked for too.
    let out = run(&[
        "cat",
        d,
        "--columns",
        "fields.status,fields",
        "--limit",
        "1",
    ]);
    assert_eq!(lines(&out)[0]["fields"]["ms"], json!(0.0));

    // One file of the folder, read as a file.
    let mut files = Vec::new();
    let mut dirs = vec![dir.path().to_path_buf()];
    while let Some(f) = dirs.pop() {
        for e in std::fs::read_dir(f).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else {
                files.push(p);
            }
        }
    }
    assert_eq!(files.len(), 1, "{files:?}");
    let file = files[0].to_str().unwrap();
    let out = run(&[
        "cat",
        file,
        "--where",
        "fields.status = 500",
        "--columns",
        "fields.i",
    ]);
    assert_eq!(lines(&out).len(), 8);
    assert_eq!(lines(&out)[1], json!({"fields": {"i": 5}}));

    // An array index is refused in --columns, with the reason.
    let out = run(&["cat", d, "--columns", "fields.tags[1]"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("array indexes"));

    // Through the library: parsed and typed predicates on the dataset agree.
    let read = |p: Predicate| -> Vec<LogEvent> {
        Dataset::open(dir.path())
            .unwrap()
            .filter(p)
            .unwrap()
            .read_all()
            .unwrap()
    };
    let typed = read(col("fields").field("status").ge(500));
    let parsed = read(Predicate::parse("fields.status >= 500").unwrap());
    assert_eq!(typed.len(), 8);
    assert_eq!(typed, parsed);
    assert!(typed.iter().all(|e| e.level == LogLevel::Error));
}
