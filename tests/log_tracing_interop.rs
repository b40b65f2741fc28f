//! The `fields` VARIANT columns of `TracingLayer` files, read by DuckDB (as JSON, and as
//! typed values) and by pyarrow (the VARIANT struct of metadata and value bytes, decoded
//! here back to what was logged).

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::path::Path;

use common::{json_eq, python_json_lines};
use parquet_serde::logs::{Overflow, TracingLayer};
use parquet_serde::variant::Variant;
use serde_json::{json, Value as J};
use tracing_subscriber::layer::SubscriberExt;

/// Logs two events, one inside a span, through the layer into `dir`.
fn log_events(dir: &Path) {
    let (layer, guard) = TracingLayer::builder(dir)
        .overflow(Overflow::Block)
        .build()
        .unwrap();
    let dispatch = tracing::Dispatch::new(tracing_subscriber::registry().with(layer));
    tracing::dispatcher::with_default(&dispatch, || {
        let span = tracing::info_span!("request", id = 7u64, route = "/users");
        let _enter = span.enter();
        tracing::error!(
            neg = -3i64,
            big = u64::MAX,
            ratio = 0.25,
            ok = true,
            status = 500u64,
            who = ?("ann", 7),
            "request failed"
        );
        tracing::info!("no fields");
    });
    drop(guard);
}

const READ: &str = r#"
import duckdb, json, sys
import pyarrow.dataset as ds
path = sys.argv[1] + "/**/*.parquet"
con = duckdb.connect()
rows = con.execute(f"""
    SELECT message, fields::JSON::VARCHAR, spans[1].fields::JSON::VARCHAR,
           variant_extract(fields, 'status')::INTEGER
    FROM read_parquet('{path}') ORDER BY ts""").fetchall()
for message, fields, span, status in rows:
    print(json.dumps({"engine": "duckdb", "message": message, "fields": json.loads(fields),
                      "span": None if span is None else json.loads(span), "status": status}))
table = ds.dataset(sys.argv[1], format="parquet").to_table().sort_by("ts")
for row in table.to_pylist():
    spans = [[s["name"], s["fields"]["metadata"].hex(), s["fields"]["value"].hex()] for s in row["spans"]]
    print(json.dumps({"engine": "pyarrow", "message": row["message"],
                      "fields": [row["fields"]["metadata"].hex(), row["fields"]["value"].hex()],
                      "spans": spans}))
"#;

fn unhex(s: &J) -> Vec<u8> {
    let s = s.as_str().unwrap();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn decode(metadata: &J, value: &J) -> Variant {
    Variant::decode(&unhex(metadata), &unhex(value)).unwrap()
}

#[test]
fn duckdb_and_pyarrow_read_the_fields_of_tracing_layer_files() {
    let dir = tempfile::tempdir().unwrap();
    log_events(dir.path());
    let lines = python_json_lines(&["-c", READ, dir.path().to_str().unwrap()]);
    let of = |engine: &str| -> Vec<&J> { lines.iter().filter(|l| l["engine"] == engine).collect() };

    let duck = of("duckdb");
    assert_eq!(duck.len(), 2, "{lines:?}");
    assert_eq!(duck[0]["message"], "request failed");
    let want = json!({"big": 18446744073709551615u64, "neg": -3, "ok": true, "ratio": 0.25,
                      "status": 500, "who": "(\"ann\", 7)"});
    assert!(json_eq(&duck[0]["fields"], &want), "{}", duck[0]["fields"]);
    assert!(json_eq(
        &duck[0]["span"],
        &json!({"id": 7, "route": "/users"})
    ));
    assert_eq!(duck[0]["status"], 500);
    assert_eq!(duck[1]["fields"], json!({}));
    assert_eq!(duck[1]["span"], json!({"id": 7, "route": "/users"}));
    assert_eq!(duck[1]["status"], J::Null);

    let arrow = of("pyarrow");
    assert_eq!(arrow.len(), 2);
    let f = &arrow[0]["fields"];
    let fields = decode(&f[0], &f[1]);
    assert_eq!(fields.get("neg").and_then(Variant::as_i64), Some(-3));
    assert_eq!(fields.get("status").and_then(Variant::as_i64), Some(500));
    assert_eq!(
        fields.get("big").and_then(Variant::as_decimal),
        Some((i128::from(u64::MAX), 0))
    );
    assert_eq!(fields.get("ratio"), Some(&Variant::Double(0.25)));
    assert_eq!(fields.get("ok"), Some(&Variant::Bool(true)));
    assert_eq!(
        fields.get("who").and_then(Variant::as_str),
        Some("(\"ann\", 7)")
    );
    let span = &arrow[0]["spans"][0];
    assert_eq!(span[0], "request");
    let span_fields = decode(&span[1], &span[2]);
    assert_eq!(span_fields.get("id").and_then(Variant::as_i64), Some(7));
    assert_eq!(
        span_fields.get("route").and_then(Variant::as_str),
        Some("/users")
    );
    let f = &arrow[1]["fields"];
    assert_eq!(decode(&f[0], &f[1]), Variant::object::<&str>([]));
}
