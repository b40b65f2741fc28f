//! Every readable file of the parquet-testing corpus read as `Value` rows through the typed
//! deserializer equals the dynamic reader's rows.

mod common;

use common::corpus;

use parquet_serde::core::file::{FileReader, ReadOptions};
use parquet_serde::record::{read_rows, Value};

#[test]
fn value_rows_match_the_dynamic_reader() {
    let dir = corpus().join("data");
    let mut compared = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.extension().and_then(|e| e.to_str()) != Some("parquet") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let options = ReadOptions::default().verify_checksums(false);
        let Ok(file) = FileReader::with_options(&bytes[..], options.clone()) else {
            continue;
        };
        let Ok(expected) = read_rows(&file, &[], None) else {
            continue;
        };
        let reader = parquet_serde::Reader::<_, Value>::with_options(&bytes[..], options).unwrap();
        let got: Result<Vec<Value>, _> = reader.collect();
        let got = got.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(got.len(), expected.len(), "{}", path.display());
        for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
            let e = &keys_as_null_map(g, e);
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

/// The dynamic reader's row `want`, where it reads a MAP without a value column as the list
/// of its keys, in the typed reader's reading of the schema's shape: a map of null values.
/// Only a list standing where `got` has a map of null values is changed.
fn keys_as_null_map(got: &Value, want: &Value) -> Value {
    match (got, want) {
        (Value::Map(entries), Value::List(keys))
            if entries.len() == keys.len() && entries.iter().all(|(_, v)| *v == Value::Null) =>
        {
            Value::Map(keys.iter().map(|k| (k.clone(), Value::Null)).collect())
        }
        (Value::Group(g), Value::Group(w)) if g.len() == w.len() => Value::Group(
            g.iter()
                .zip(w)
                .map(|((_, gv), (name, wv))| (name.clone(), keys_as_null_map(gv, wv)))
                .collect(),
        ),
        (Value::List(g), Value::List(w)) if g.len() == w.len() => Value::List(
            g.iter()
                .zip(w)
                .map(|(gv, wv)| keys_as_null_map(gv, wv))
                .collect(),
        ),
        (Value::Map(g), Value::Map(w)) if g.len() == w.len() => Value::Map(
            g.iter()
                .zip(w)
                .map(|((gk, gv), (wk, wv))| (keys_as_null_map(gk, wk), keys_as_null_map(gv, wv)))
                .collect(),
        ),
        _ => want.clone(),
    }
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
