//! What pyarrow and DuckDB read a derived unit enum as: a STRING column (the default) as
//! text in both; an ENUM column (`#[parquet(enum)]`) as text in DuckDB but as binary in
//! pyarrow, which is why STRING is the default.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use parquet_serde::ParquetSchema;
use serde::Serialize;

#[derive(Serialize, ParquetSchema, Clone, Copy)]
enum Status {
    Active,
    Cancelled,
}

#[derive(Serialize, ParquetSchema, Clone, Copy)]
#[parquet(enum)]
enum StatusEnum {
    Active,
    Cancelled,
}

#[derive(Serialize, ParquetSchema)]
struct Order {
    id: u32,
    text: Status,
    annotated: StatusEnum,
}

const READ: &str = r#"
import json, sys
import duckdb, pyarrow.parquet as pq
t = pq.read_table(sys.argv[1])
print(json.dumps({"engine": "pyarrow",
    "types": [str(t.schema.field(c).type) for c in ("text", "annotated")],
    "text": t.column("text").to_pylist(),
    "annotated": [v.decode() if isinstance(v, bytes) else v for v in t.column("annotated").to_pylist()]}))
con = duckdb.connect()
types = con.execute("DESCRIBE SELECT text, annotated FROM read_parquet(?)", [sys.argv[1]]).fetchall()
rows = con.execute("SELECT text, annotated FROM read_parquet(?) ORDER BY id", [sys.argv[1]]).fetchall()
print(json.dumps({"engine": "duckdb", "types": [r[1] for r in types],
    "text": [r[0] for r in rows], "annotated": [r[1] for r in rows]}))
"#;

#[test]
fn pyarrow_reads_string_enums_as_text_and_enum_enums_as_binary() {
    let rows: Vec<Order> = (0..6)
        .map(|i| {
            let (text, annotated) = match i % 3 {
                0 => (Status::Cancelled, StatusEnum::Cancelled),
                _ => (Status::Active, StatusEnum::Active),
            };
            Order {
                id: i,
                text,
                annotated,
            }
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("orders.parquet");
    parquet_serde::to_path(&path, &rows).unwrap();
    let lines = common::python_json_lines(&["-c".as_ref(), READ.as_ref(), path.as_os_str()]);
    let names: Vec<&str> = (0..6)
        .map(|i| if i % 3 == 0 { "Cancelled" } else { "Active" })
        .collect();
    let types = |line: &serde_json::Value| line["types"].clone();
    assert_eq!(types(&lines[0]), serde_json::json!(["string", "binary"]));
    assert_eq!(types(&lines[1]), serde_json::json!(["VARCHAR", "VARCHAR"]));
    for line in &lines {
        assert_eq!(line["text"], serde_json::json!(names), "{line}");
        assert_eq!(line["annotated"], serde_json::json!(names), "{line}");
    }
}
