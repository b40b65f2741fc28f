//! VARIANT interop with DuckDB and pyarrow (run as subprocesses):
//! - VARIANT columns DuckDB writes, unshredded-by-default and shredded (`SHREDDING`), read
//!   by us as the JSON DuckDB returns for them;
//! - VARIANT columns we write, unshredded and shredded, read by DuckDB as the JSON we wrote,
//!   and unshredded ones by pyarrow with our exact metadata and value bytes.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::process::Command;

use common::{json_eq, python};
use parquet_serde::{ParquetSchema, Value};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as J};

/// JSON documents covering every JSON shape (and numbers of several widths).
fn docs() -> Vec<J> {
    vec![
        json!({"status": 500, "path": "/api/v1", "ok": false, "tags": ["a", "b"], "lat": 0.25}),
        json!({"status": 200, "path": "/", "nested": {"deep": {"deeper": [1, [2, [3]]]}}}),
        json!("just a string, longer than sixty-four bytes so it is not a short string at all"),
        json!([1, -2, 300, -70000, 5000000000i64, null, true, "é ☃"]),
        json!({"status": 404, "extra": null, "big": 123456789012345i64, "f": -1.5}),
        json!(42),
        json!({}),
        json!([]),
        J::Null,
    ]
}

/// Runs a Python script with `args`; its stdout.
fn run_python(script: &str, args: &[&str]) -> String {
    let out = Command::new(python())
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "python failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The JSON of our reading of each row's `v`.
fn our_json(bytes: &[u8]) -> Vec<(i64, J)> {
    let rows: Vec<Value> = parquet_serde::from_slice(bytes).expect("we read it");
    rows.iter()
        .map(|r| {
            let id = match r.get("id") {
                Some(Value::Int(i)) => *i,
                other => panic!("id {other:?}"),
            };
            let v = match r.get("v") {
                Some(Value::Variant(v)) => J::from(v),
                Some(Value::Null) => J::Null,
                other => panic!("v {other:?}"),
            };
            (id, v)
        })
        .collect()
}

const DUCKDB_WRITE: &str = r#"
import duckdb, json, sys
docs = json.loads(sys.argv[1])
con = duckdb.connect()
con.execute("CREATE TABLE t (id INTEGER, j VARCHAR)")
con.executemany("INSERT INTO t VALUES (?, ?)", [(i, json.dumps(d)) for i, d in enumerate(docs)])
con.execute("INSERT INTO t VALUES (?, NULL)", [len(docs)])
shred = sys.argv[3]
opts = "(FORMAT parquet)" if shred == "" else "(FORMAT parquet, SHREDDING {'v': '" + shred + "'})"
con.execute(f"COPY (SELECT id, j::JSON::VARIANT AS v FROM t ORDER BY id) TO '{sys.argv[2]}' {opts}")
for id, v in con.execute(f"SELECT id, v::JSON::VARCHAR FROM '{sys.argv[2]}' ORDER BY id").fetchall():
    print(json.dumps([id, None if v is None else json.loads(v)]))
"#;

fn duckdb_case(shred: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("duck.parquet");
    let docs = serde_json::to_string(&docs()).unwrap();
    let out = run_python(DUCKDB_WRITE, &[&docs, path.to_str().unwrap(), shred]);
    let expected: Vec<(i64, J)> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("duckdb json"))
        .collect();
    let bytes = std::fs::read(&path).unwrap();
    let ours = our_json(&bytes);
    assert_eq!(ours.len(), expected.len());
    for ((id, got), (eid, want)) in ours.iter().zip(&expected) {
        assert_eq!(id, eid);
        assert!(json_eq(got, want), "row {id}: we read {got}, DuckDB {want}");
    }
}

#[test]
fn duckdb_variants_read_as_duckdb_returns_them() {
    duckdb_case("");
}

#[test]
fn duckdb_shredded_variants_read_as_duckdb_returns_them() {
    duckdb_case("STRUCT(status INTEGER, path VARCHAR, tags VARCHAR[], lat DOUBLE)");
    duckdb_case("BIGINT[]");
}

#[derive(Serialize, Deserialize, ParquetSchema)]
struct Row {
    id: i64,
    #[parquet(variant)]
    v: Option<J>,
}

/// The shredding schema of [`ShreddedRow::v`].
#[derive(Serialize, Deserialize, ParquetSchema)]
struct Shape {
    status: i64,
    path: String,
    tags: Vec<String>,
    lat: f64,
}

#[derive(Serialize, Deserialize, ParquetSchema)]
struct ShreddedRow {
    id: i64,
    #[parquet(variant(shred = "Shape"))]
    v: Option<J>,
}

const READ_OURS: &str = r#"
import duckdb, json, sys
import pyarrow.parquet as pq
path = sys.argv[1]
con = duckdb.connect()
for id, v in con.execute(f"SELECT id, v::JSON::VARCHAR FROM '{path}' ORDER BY id").fetchall():
    print("duckdb " + json.dumps([id, None if v is None else json.loads(v)]))
for row in pq.read_table(path).to_pylist():
    v = row["v"]
    if v is None:
        print("pyarrow null")
    elif v.get("value") is None:
        print("pyarrow shredded")
    else:
        print("pyarrow " + v["metadata"].hex() + " " + v["value"].hex())
"#;

#[test]
fn duckdb_reads_our_shredded_variants() {
    let rows: Vec<ShreddedRow> = docs()
        .into_iter()
        .map(Some)
        .chain([None])
        .enumerate()
        .map(|(i, v)| ShreddedRow { id: i as i64, v })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shredded.parquet");
    parquet_serde::to_path(&path, &rows).unwrap();
    let out = run_python(READ_OURS, &[path.to_str().unwrap()]);
    let duck: Vec<(i64, J)> = out
        .lines()
        .filter_map(|l| l.strip_prefix("duckdb "))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(duck.len(), rows.len());
    for (row, (id, got)) in rows.iter().zip(&duck) {
        assert_eq!(*id, row.id);
        let want = row.v.clone().unwrap_or(J::Null);
        assert!(
            json_eq(got, &want),
            "row {id}: DuckDB read {got}, we wrote {want}"
        );
    }
    // And we read it back as written.
    let ours = our_json(&std::fs::read(&path).unwrap());
    for (row, (_, got)) in rows.iter().zip(&ours) {
        assert!(json_eq(got, &row.v.clone().unwrap_or(J::Null)));
    }
}

#[test]
fn duckdb_and_pyarrow_read_our_variants() {
    let rows: Vec<Row> = docs()
        .into_iter()
        .map(Some)
        .chain([None])
        .enumerate()
        .map(|(i, v)| Row { id: i as i64, v })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ours.parquet");
    parquet_serde::to_path(&path, &rows).unwrap();
    let out = run_python(READ_OURS, &[path.to_str().unwrap()]);
    let duck: Vec<(i64, J)> = out
        .lines()
        .filter_map(|l| l.strip_prefix("duckdb "))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let arrow: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("pyarrow "))
        .collect();
    assert_eq!(duck.len(), rows.len());
    assert_eq!(arrow.len(), rows.len());
    for (row, ((id, got), bytes)) in rows.iter().zip(duck.iter().zip(&arrow)) {
        assert_eq!(*id, row.id);
        let want = row.v.clone().unwrap_or(J::Null);
        assert!(
            json_eq(got, &want),
            "row {id}: DuckDB read {got}, we wrote {want}"
        );
        match &row.v {
            None => assert_eq!(*bytes, "null"),
            Some(v) => {
                // The bytes of the writer's encoder (`to_variant_bytes`).
                let (m, b) = parquet_serde::variant::to_variant_bytes(v).unwrap();
                let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
                assert_eq!(*bytes, format!("{} {}", hex(&m), hex(&b)), "row {id}");
            }
        }
    }
}
