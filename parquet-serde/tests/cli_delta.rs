//! `cat`, `cat --where`, `cat --version N` and `tail` on a Delta table this test writes by
//! hand (three commits: a file, a second file, then the first removed), and the refusal of
//! a table that needs deletion vectors.

use std::path::Path;
use std::process::{Command, Output};

use parquet_serde::ParquetSchema;
use serde::Serialize;

#[derive(Serialize, ParquetSchema)]
struct Log {
    id: i64,
    level: String,
}

const PROTOCOL: &str = r#"{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}"#;
const METADATA: &str = r#"{"metaData":{"id":"t","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":false,\"metadata\":{}},{\"name\":\"level\",\"type\":\"string\",\"nullable\":false,\"metadata\":{}},{\"name\":\"date\",\"type\":\"date\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":["date"],"configuration":{}}}"#;

/// The data file of `date` holding `rows`, and its `add` line.
fn file(root: &Path, date: &str, rows: &[(i64, &str)]) -> String {
    let rel = format!("date={date}/part-0.parquet");
    let path = root.join(&rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let rows: Vec<Log> = rows
        .iter()
        .map(|&(id, level)| Log {
            id,
            level: level.into(),
        })
        .collect();
    parquet_serde::to_path(&path, &rows).unwrap();
    let size = std::fs::metadata(&path).unwrap().len();
    format!(
        r#"{{"add":{{"path":"{rel}","partitionValues":{{"date":"{date}"}},"size":{size},"modificationTime":0,"dataChange":true}}}}"#
    )
}

fn table() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    let a = file(r, "2026-11-24", &[(1, "ERROR"), (2, "INFO")]);
    let b = file(r, "2026-11-25", &[(3, "ERROR")]);
    let remove = r#"{"remove":{"path":"date=2026-11-24/part-0.parquet","deletionTimestamp":5,"dataChange":true}}"#;
    let log = r.join("_delta_log");
    std::fs::create_dir_all(&log).unwrap();
    for (v, c) in [
        format!("{PROTOCOL}\n{METADATA}\n{a}\n"),
        format!("{b}\n"),
        format!("{remove}\n"),
    ]
    .iter()
    .enumerate()
    {
        std::fs::write(log.join(format!("{v:020}.json")), c).unwrap();
    }
    dir
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
fn cat_reads_the_snapshot_and_older_versions() {
    let dir = table();
    let root = dir.path().to_str().unwrap();
    let out = run(&["cat", root]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // The first file was removed at version 2: only the second one is read.
    assert_eq!(
        text(&out.stdout),
        "{\"id\":3,\"level\":\"ERROR\",\"date\":\"2026-11-25\"}\n"
    );
    let out = run(&["cat", root, "--version", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"id\":1,\"level\":\"ERROR\",\"date\":\"2026-11-24\"}\n\
         {\"id\":2,\"level\":\"INFO\",\"date\":\"2026-11-24\"}\n\
         {\"id\":3,\"level\":\"ERROR\",\"date\":\"2026-11-25\"}\n"
    );
    let out = run(&[
        "cat",
        root,
        "--version",
        "1",
        "--where",
        "date = '2026-11-24' and level = 'INFO'",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"id\":2,\"level\":\"INFO\",\"date\":\"2026-11-24\"}\n"
    );
    let out = run(&["tail", root, "--once", "-n", "5"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"id\":3,\"level\":\"ERROR\",\"date\":\"2026-11-25\"}\n"
    );
}

#[test]
fn bad_versions_and_refused_tables_say_why() {
    let dir = table();
    let root = dir.path().to_str().unwrap();
    let out = run(&["cat", root, "--version", "7"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("version 7 does not exist (the latest is 2)"),
        "{}",
        text(&out.stderr)
    );
    let data = dir.path().join("date=2026-11-25/part-0.parquet");
    let out = run(&["cat", data.to_str().unwrap(), "--version", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("is not a Delta table"),
        "{}",
        text(&out.stderr)
    );
    // A protocol that needs deletion vectors: refused, naming the feature and the table.
    let c0 = dir.path().join("_delta_log/00000000000000000000.json");
    let commit = std::fs::read_to_string(&c0).unwrap().replace(
        PROTOCOL,
        r#"{"protocol":{"minReaderVersion":3,"minWriterVersion":7,"readerFeatures":["deletionVectors"],"writerFeatures":["deletionVectors"]}}"#,
    );
    std::fs::write(&c0, commit).unwrap();
    let out = run(&["cat", root]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("`deletionVectors`") && err.contains(root),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}
