//! Values the writer accepts for JSON, STRING and BSON columns are values DuckDB and pyarrow
//! read back: a property test writes a few hundred random values per case (valid, broken,
//! and the edges where parsers differ) through a `ValueWriter`, which refuses the bad ones
//! row by row, and reads the file with both engines once.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;
#[path = "../parquet-serde/tests/common/variant_gen.rs"]
#[allow(dead_code)]
mod variant_gen;

use std::path::Path;

use parquet_serde::core::schema::{LogicalType, PhysicalType as Type};
use parquet_serde::core::schema::{Repetition, Schema, SchemaNode};
use parquet_serde::record::{Value, ValueWriter};
use parquet_serde::WriterOptions;
use proptest::prelude::*;

/// An empty BSON document.
const EMPTY_DOC: [u8; 5] = [5, 0, 0, 0, 0];

fn row_of(fields: Vec<(&str, Value)>) -> Value {
    Value::Group(fields.into_iter().map(|(k, v)| (k.into(), v)).collect())
}

// ---------------------------------------------------------------------------------------
// Property test: whatever the writer accepts, DuckDB and pyarrow read back.

/// Candidate texts for a JSON column: valid JSON, broken JSON and the edges where parsers
/// disagree.
fn json_candidate() -> impl Strategy<Value = Vec<u8>> {
    let valid = variant_gen::json_tree().prop_map(|j| j.to_string().into_bytes());
    let edge = prop_oneof![
        Just(r#""\ud800""#.to_owned()),
        Just(r#""\udc00\ud800""#.to_owned()),
        Just(r#"["\ud83d\ude00", "\u0000", "\u2028"]"#.to_owned()),
        Just("\u{feff}1".to_owned()),
        Just("\"a\u{0}b\"".to_owned()),
        Just("\"\u{1f}\"".to_owned()),
        Just("\"\u{7f}\u{2028}\"".to_owned()),
        Just("1e400".to_owned()),
        Just("-1e-400".to_owned()),
        Just("1".repeat(400)),
        Just("-0".to_owned()),
        Just("01".to_owned()),
        Just("1.".to_owned()),
        Just("NaN".to_owned()),
        Just("[1,]".to_owned()),
        Just("{\"a\":1,\"a\":2}".to_owned()),
        Just(" \t\r\n{} \n".to_owned()),
        Just("\u{c}1".to_owned()),
        Just("".to_owned()),
        Just("{} {}".to_owned()),
        (1usize..3000).prop_map(|d| "[".repeat(d) + &"]".repeat(d)),
        (1usize..3000).prop_map(|d| "{\"a\":".repeat(d) + "1" + &"}".repeat(d)),
        (1usize..300).prop_map(|d| "[".repeat(d) + &"]".repeat(d - 1)),
    ]
    .prop_map(String::into_bytes);
    let broken = (
        variant_gen::json_tree(),
        any::<prop::sample::Index>(),
        any::<u8>(),
    )
        .prop_map(|(j, at, b)| {
            let mut v = j.to_string().into_bytes();
            let i = at.index(v.len());
            v[i] = b;
            v
        });
    prop_oneof![3 => valid, 3 => edge, 2 => broken, 1 => bytes_candidate()]
}

/// Candidate bytes for a STRING column: random bytes, valid text and the UTF-8 edges
/// (overlong forms, surrogates, code points past U+10FFFF, NUL, BOM, truncated sequences).
fn bytes_candidate() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..12),
        ".{0,20}".prop_map(String::into_bytes),
        prop::sample::select(vec![
            vec![0xc0, 0x80],
            vec![0xc1, 0xbf],
            vec![0xe0, 0x80, 0x80],
            vec![0xf0, 0x80, 0x80, 0x80],
            vec![0xed, 0xa0, 0x80],
            vec![0xed, 0xbf, 0xbf],
            vec![0xf4, 0x90, 0x80, 0x80],
            vec![0xf4, 0x8f, 0xbf, 0xbf],
            vec![0xef, 0xbb, 0xbf],
            vec![0],
            vec![b'a', 0, b'b'],
            vec![0xe2, 0x82],
            vec![0x80],
            vec![0xff, 0xfe],
            "\u{10ffff}\u{fffe}\u{ffff}".as_bytes().to_vec(),
        ]),
    ]
}

/// Candidate bytes for a BSON column: documents the bson crate encodes, and the same
/// documents with a byte changed, cut short or lengthened.
fn bson_candidate() -> impl Strategy<Value = Vec<u8>> {
    let doc = || {
        variant_gen::json_tree().prop_map(|j| {
            // Numbers past i64 do not go into BSON: an empty document then.
            bson::serialize_to_vec(&serde_json::json!({ "v": j }))
                .unwrap_or_else(|_| EMPTY_DOC.to_vec())
        })
    };
    prop_oneof![
        2 => doc(),
        1 => (doc(), any::<prop::sample::Index>(), any::<u8>()).prop_map(|(mut d, at, b)| {
            let i = at.index(d.len());
            d[i] = b;
            d
        }),
        1 => (doc(), any::<prop::sample::Index>()).prop_map(|(d, at)| {
            d[..at.index(d.len())].to_vec()
        }),
        1 => (doc(), prop::collection::vec(any::<u8>(), 1..4)).prop_map(|(d, tail)| {
            [d, tail].concat()
        }),
        1 => bytes_candidate(),
    ]
}

/// Reads the file of JSON and STRING columns (`argv[1]`) and the file of the BSON column
/// (`argv[2]`, annotated as the derive annotates it: the logical type without the legacy
/// converted type, which DuckDB 2.0 refuses) with pyarrow and with DuckDB; one JSON line per
/// engine and file with the columns `j` (text), `s` (text) and `b` (hex), nulls left out.
const READ_BACK: &str = r#"
import json, sys
import duckdb, pyarrow.parquet as pq
text, bson = sys.argv[1], sys.argv[2]
def out(engine, cols, rows):
    got = {c: [] for c in cols}
    for row in rows:
        for c, v in zip(cols, row):
            if v is not None: got[c].append(bytes(v).hex() if c == "b" else v)
    got["engine"] = engine
    print(json.dumps(got))
t = pq.read_table(text)
assert str(t.schema.field("s").type) == "string", t.schema
out("pyarrow", "js", zip(*(t.column(c).to_pylist() for c in "js")))
out("pyarrow", "b", zip(pq.read_table(bson).column("b").to_pylist()))
con = duckdb.connect()
types = con.execute("DESCRIBE SELECT * FROM read_parquet(?)", [text]).fetchall()
assert [r[1] for r in types] == ["JSON", "VARCHAR"], types
out("duckdb", "js", con.execute("SELECT j::VARCHAR, s FROM read_parquet(?)", [text]).fetchall())
types = con.execute("DESCRIBE SELECT * FROM read_parquet(?)", [bson]).fetchall()
assert [r[1] for r in types] == ["BLOB"], types
out("duckdb", "b", con.execute("SELECT b FROM read_parquet(?)", [bson]).fetchall())
"#;

/// Writes every candidate for `column` (declared by `schema`) through a `ValueWriter` into
/// `path`, where refused ones fail their row only; the accepted ones.
fn write_candidates(path: &Path, schema: Schema, column: &str, values: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let file = std::fs::File::create(path).unwrap();
    let options = WriterOptions::default().row_group_rows(64);
    let mut w = ValueWriter::new(file, schema, options).unwrap();
    let mut accepted = Vec::new();
    for v in values {
        // JSON text goes as a string (bytes would be written as their base64 JSON string);
        // JSON text that is not UTF-8 cannot be given.
        let value = match (column, std::str::from_utf8(v)) {
            ("j", Ok(text)) => Value::String(text.into()),
            ("j", Err(_)) => continue,
            _ => Value::Bytes(v.clone()),
        };
        if w.write(&row_of(vec![(column, value)])).is_ok() {
            accepted.push(v.clone());
        }
    }
    w.into_inner().unwrap();
    accepted
}

/// Two columns' candidates in one file: the JSON ones, then the STRING ones.
fn write_text(path: &Path, json: &[Vec<u8>], strings: &[Vec<u8>]) -> [Vec<Vec<u8>>; 2] {
    let schema = "message m { optional binary j (JSON); optional binary s (STRING); }";
    let dir = path.parent().unwrap();
    let (a, b) = (dir.join("j.parquet"), dir.join("s.parquet"));
    let accepted = [
        write_candidates(&a, schema.parse().unwrap(), "j", json),
        write_candidates(&b, schema.parse().unwrap(), "s", strings),
    ];
    // One file holding both: the rows of the first, then those of the second.
    let mut w = ValueWriter::new(
        std::fs::File::create(path).unwrap(),
        schema.parse().unwrap(),
        WriterOptions::default().row_group_rows(64),
    )
    .unwrap();
    for f in [&a, &b] {
        for row in parquet_serde::from_path::<Value>(f).unwrap() {
            w.write(&row).unwrap();
        }
    }
    w.into_inner().unwrap();
    accepted
}

/// One optional BSON column, annotated as the derive annotates it.
fn bson_schema() -> Schema {
    let mut b = SchemaNode::primitive("b", Repetition::Optional, Type::ByteArray)
        .with_logical_type(LogicalType::Bson);
    b.converted_type = None;
    Schema::new(SchemaNode::group("m", Repetition::Required, vec![b])).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn what_the_writer_accepts_duckdb_and_pyarrow_read(
        json in prop::collection::vec(json_candidate(), 150..300),
        strings in prop::collection::vec(bytes_candidate(), 150..300),
        bson in prop::collection::vec(bson_candidate(), 100..200),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let (text, bson_file) = (dir.path().join("text.parquet"), dir.path().join("bson.parquet"));
        let [accepted_j, accepted_s] = write_text(&text, &json, &strings);
        let accepted_b = write_candidates(&bson_file, bson_schema(), "b", &bson);
        // Every value the checks accept is what serde_json, std and the bson crate accept.
        for v in &accepted_j {
            let text = std::str::from_utf8(v).unwrap();
            prop_assert!(serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok(), "{text:?}");
        }
        for v in &accepted_b {
            prop_assert!(bson::deserialize_from_slice::<bson::Document>(v).is_ok(), "{v:?}");
        }
        // Some of each kind are refused, most are accepted.
        for (accepted, all) in [(&accepted_j, &json), (&accepted_s, &strings), (&accepted_b, &bson)] {
            prop_assert!(accepted.len() < all.len() && accepted.len() * 4 > all.len());
        }
        let lines = common::python_json_lines(&[
            "-c".as_ref(),
            READ_BACK.as_ref(),
            text.as_os_str(),
            bson_file.as_os_str(),
        ]);
        prop_assert_eq!(lines.len(), 4);
        let as_text = |v: &Vec<u8>| serde_json::Value::String(String::from_utf8(v.clone()).unwrap());
        let want_j: Vec<_> = accepted_j.iter().map(as_text).collect();
        let want_s: Vec<_> = accepted_s.iter().map(as_text).collect();
        let want_b: Vec<_> = accepted_b
            .iter()
            .map(|v| serde_json::Value::String(v.iter().map(|b| format!("{b:02x}")).collect()))
            .collect();
        for line in &lines {
            let engine = &line["engine"];
            for (column, want) in [("j", &want_j), ("s", &want_s), ("b", &want_b)] {
                if let Some(got) = line[column].as_array() {
                    prop_assert_eq!(got.len(), want.len(), "{} {}", engine, column);
                    for (got, want) in got.iter().zip(want.iter()) {
                        prop_assert_eq!(got, want, "{} {}", engine, column);
                    }
                }
            }
        }
    }
}
