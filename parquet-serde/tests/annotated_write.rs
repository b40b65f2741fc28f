//! Values bound for annotated columns are checked on write: JSON text must parse as JSON, the
//! bytes of a STRING (or ENUM) value must be UTF-8, a BSON value must be one BSON document.
//! A bad value fails `to_vec` / `to_path` (no file) and fails only its row in the streaming
//! writers, naming the column and the row. (`tests/annotated_interop.rs` checks that DuckDB
//! and pyarrow read every value the writer accepts.)

use parquet_serde::core::schema::Schema;
use parquet_serde::logs::LogWriter;
use parquet_serde::record::{Value, ValueWriter};
use parquet_serde::{Error, ParquetSchema, Writer, WriterOptions};
use serde::{Serialize, Serializer};

/// A value that serializes as the bytes it holds (serde's `serialize_bytes`).
#[derive(Debug, Clone, PartialEq)]
struct RawBytes(Vec<u8>);

impl Serialize for RawBytes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

#[derive(Serialize, ParquetSchema, Debug, Clone)]
struct Row {
    id: u64,
    #[parquet(json)]
    doc: String,
    #[parquet(bson)]
    blob: Vec<u8>,
    #[parquet(as_type = "String")]
    text: RawBytes,
}

/// An empty BSON document.
const EMPTY_DOC: [u8; 5] = [5, 0, 0, 0, 0];

fn good(id: u64) -> Row {
    Row {
        id,
        doc: r#"{"a": [1, "x"]}"#.into(),
        blob: EMPTY_DOC.to_vec(),
        text: RawBytes("héllo".into()),
    }
}

/// The three ways a row goes bad, each with its column's name and what the error says.
fn bad_rows() -> Vec<(Row, &'static str, &'static str)> {
    vec![
        (
            Row {
                doc: "{bad json".into(),
                ..good(1)
            },
            "doc",
            "the value for a JSON column is not valid JSON",
        ),
        (
            Row {
                doc: r#""\ud800""#.into(),
                ..good(1)
            },
            "doc",
            "lone surrogate",
        ),
        (
            Row {
                blob: b"{}".to_vec(),
                ..good(1)
            },
            "blob",
            "the value for a BSON column is not a BSON document",
        ),
        (
            Row {
                text: RawBytes(vec![b'a', 0xc0, 0x80]),
                ..good(1)
            },
            "text",
            "the value for a string column is not UTF-8",
        ),
    ]
}

fn assert_names(e: &Error, column: &str, what: &str, row: u64) {
    let text = e.to_string();
    assert!(text.contains(what), "{text}");
    assert_eq!(e.location().column.as_deref(), Some(column), "{text}");
    assert_eq!(e.location().row, Some(row), "{text}");
}

#[test]
fn a_bad_value_fails_to_vec_and_to_path_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    for (bad, column, what) in bad_rows() {
        let rows = vec![good(0), good(1), bad];
        let e = parquet_serde::to_vec(&rows).unwrap_err();
        assert_names(&e, column, what, 2);
        let path = dir.path().join("out.parquet");
        let e = parquet_serde::to_path(&path, &rows).unwrap_err();
        assert_names(&e, column, what, 2);
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(left.is_empty(), "{left:?}");
    }
    // The good rows alone are written.
    let bytes = parquet_serde::to_vec(&[good(0), good(1)]).unwrap();
    assert_eq!(parquet_serde::from_slice::<Value>(&bytes).unwrap().len(), 2);
}

#[test]
fn writer_and_log_writer_refuse_the_row_and_go_on() {
    let mut w = Writer::new(Vec::new(), WriterOptions::default()).unwrap();
    w.write(&good(0)).unwrap();
    for (i, (bad, column, what)) in bad_rows().into_iter().enumerate() {
        let e = w.write(&bad).unwrap_err();
        assert_names(&e, column, what, 1 + i as u64);
        w.write(&good(1 + i as u64)).unwrap();
    }
    let bytes = w.into_inner().unwrap();
    let back: Vec<Value> = parquet_serde::from_slice(&bytes).unwrap();
    let ids: Vec<_> = back.iter().map(|r| r.get("id").cloned()).collect();
    assert_eq!(
        ids,
        (0..5).map(|i| Some(Value::UInt(i))).collect::<Vec<_>>()
    );

    let dir = tempfile::tempdir().unwrap();
    let mut logs = LogWriter::<Row>::builder(dir.path()).open().unwrap();
    logs.write(&good(0)).unwrap();
    for (bad, column, what) in bad_rows() {
        let e = logs.write(&bad).unwrap_err();
        let text = e.to_string();
        assert!(text.contains(what) && text.contains(column), "{text}");
        logs.write(&good(1)).unwrap();
    }
    let files = logs.close().unwrap();
    let rows: usize = files
        .iter()
        .map(|f| parquet_serde::from_path::<Value>(f).unwrap().len())
        .sum();
    assert_eq!(rows, 5);
}

fn row_of(fields: Vec<(&str, Value)>) -> Value {
    Value::Group(fields.into_iter().map(|(k, v)| (k.into(), v)).collect())
}

#[test]
fn value_writer_checks_strings_bytes_json_and_bson() {
    let schema: Schema = "message m { optional binary j (JSON); optional binary s (STRING); \
                          optional binary e (ENUM); optional binary b (BSON); }"
        .parse()
        .unwrap();
    let mut w = ValueWriter::new(Vec::new(), schema, WriterOptions::default()).unwrap();
    let bad = [
        ("j", Value::String("[1,]".into()), "not valid JSON"),
        ("j", Value::String("\"\\udfff\"".into()), "lone surrogate"),
        ("s", Value::Bytes(vec![0xed, 0xa0, 0x80]), "not UTF-8"),
        ("e", Value::Bytes(vec![0xff]), "not UTF-8"),
        (
            "b",
            Value::Bytes(vec![5, 0, 0, 0, 1]),
            "not a BSON document",
        ),
        ("b", Value::String("text".into()), "not a BSON document"),
    ];
    let mut written = 0u64;
    for (column, value, what) in bad {
        let e = w.write(&row_of(vec![(column, value)])).expect_err(column);
        assert_names(&e, column, what, written);
        w.write(&row_of(vec![("s", Value::String("ok".into()))]))
            .unwrap();
        written += 1;
    }
    // Values that pass: text of a string column given as bytes, any value other than a
    // string written as its JSON form in a JSON column (bytes as base64 text).
    for (column, value) in [
        (
            "j",
            Value::String(" [1, {\"\\ud83d\\ude00\": null}] ".into()),
        ),
        ("j", Value::Bytes(vec![0xff])),
        ("j", Value::List(vec![Value::Int(1), Value::Null])),
        ("s", Value::Bytes("é".as_bytes().to_vec())),
        ("b", Value::Bytes(EMPTY_DOC.to_vec())),
    ] {
        w.write(&row_of(vec![(column, value)])).unwrap();
    }
    // The record JSON import writes JSON text it has parsed.
    w.write_json_slice(br#"{"j": {"k": "\ud83d\ude00"}, "s": "x"}"#)
        .unwrap();
    let e = w
        .write_json_slice(br#"{"j": {"k": "\ud800"}}"#)
        .unwrap_err();
    assert!(e.to_string().contains("surrogate"), "{e}");
    let bytes = w.into_inner().unwrap();
    let back: Vec<Value> = parquet_serde::from_slice(&bytes).unwrap();
    assert_eq!(back.len(), written as usize + 6);
}
