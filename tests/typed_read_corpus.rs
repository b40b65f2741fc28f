//! Every readable file of the parquet-testing corpus read as `Value` rows through the typed
//! deserializer equals the dynamic reader's rows.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use parquet_serde::core::file::{FileReader, ReadOptions};
use parquet_serde::record::Value;

#[test]
fn value_rows_match_the_dynamic_reader() {
    let dir = common::corpus_dir("data");
    let mut compared = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.extension().and_then(|e| e.to_str()) != Some("parquet") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let options = ReadOptions::default().verify_checksums(false);
        if FileReader::with_options(&bytes[..], options.clone()).is_err() {
            continue;
        }
        let Ok(expected) = parquet_serde::from_slice_with::<Value>(&bytes, options.clone()) else {
            continue;
        };
        let reader = parquet_serde::Reader::<_, Value>::with_options(&bytes[..], options).unwrap();
        let got: Result<Vec<Value>, _> = reader.collect();
        let got = got.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(got.len(), expected.len(), "{}", path.display());
        for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
            assert!(
                same(g, e),
                "{} row {i}:\n got {g:?}\nwant {e:?}",
                path.display()
            );
        }
        compared += 1;
    }
    assert!(compared > 40, "only {compared} files compared");
}

/// Equality where NaN equals NaN.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Float(x), Value::Float(y)) | (Value::Float16(x), Value::Float16(y)) => {
            x.to_bits() == y.to_bits() || x.is_nan() && y.is_nan()
        }
        (Value::Double(x), Value::Double(y)) => {
            x.to_bits() == y.to_bits() || x.is_nan() && y.is_nan()
        }
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((k1, v1), (k2, v2))| same(k1, k2) && same(v1, v2))
        }
        (Value::Group(x), Value::Group(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((k1, v1), (k2, v2))| k1 == k2 && same(v1, v2))
        }
        _ => a == b,
    }
}
