//! The 138 cases of parquet-testing's `shredded_variant/` (cases.json): every expected
//! variant (`*.variant.bin`: metadata bytes then value bytes) equals what we read from the
//! case's Parquet file, compared as values; every case that expects an error is an error.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::path::PathBuf;

use parquet_serde::variant::Variant;
use parquet_serde::Value;

fn dir() -> PathBuf {
    common::corpus_dir("shredded_variant")
}

/// The `var` column of every row of a case file.
fn read_vars(file: &str) -> parquet_serde::Result<Vec<Value>> {
    let bytes = common::read(&dir().join(file));
    let rows: Vec<Value> = parquet_serde::from_slice(&bytes)?;
    Ok(rows
        .into_iter()
        .map(|r| r.get("var").cloned().unwrap_or(Value::Null))
        .collect())
}

fn expected(file: &serde_json::Value) -> Option<Variant> {
    let name = file.as_str()?;
    let bytes = common::read(&dir().join(name));
    Some(Variant::decode_concatenated(&bytes).unwrap_or_else(|e| panic!("{name}: {e}")))
}

/// Checks one case; `Ok(false)` for a case entry with no files.
fn check(case: &serde_json::Value) -> Result<bool, String> {
    let Some(file) = case["parquet_file"].as_str() else {
        return Ok(false);
    };
    let read = read_vars(file);
    if let Some(message) = case["error_message"].as_str() {
        return match read {
            Err(_) => Ok(true),
            Ok(rows) => Err(format!("expected an error ({message}), read {rows:?}")),
        };
    }
    let rows = read.map_err(|e| format!("read failed: {e}"))?;
    let want: Vec<Option<Variant>> = match case.get("variant_files") {
        Some(serde_json::Value::Array(files)) => files.iter().map(expected).collect(),
        _ => vec![expected(&case["variant_file"])],
    };
    if rows.len() != want.len() {
        return Err(format!("{} rows, expected {}", rows.len(), want.len()));
    }
    for (i, (got, want)) in rows.iter().zip(&want).enumerate() {
        let ok = match (got, want) {
            (Value::Null, None) => true,
            (Value::Variant(g), Some(w)) => g == w,
            _ => false,
        };
        if !ok {
            return Err(format!("row {i}: read {got:?}, expected {want:?}"));
        }
    }
    Ok(true)
}

#[test]
fn every_shredded_variant_case() {
    let cases: Vec<serde_json::Value> =
        serde_json::from_slice(&common::read(&dir().join("cases.json")))
            .expect("cases.json parses");
    assert_eq!(cases.len(), 138);
    let (mut passed, mut empty, mut failures) = (0, 0, Vec::new());
    for case in &cases {
        match check(case) {
            Ok(true) => passed += 1,
            Ok(false) => empty += 1,
            Err(e) => failures.push(format!(
                "case {} ({}): {e}",
                case["case_number"], case["test"]
            )),
        }
    }
    println!(
        "shredded_variant: {passed} passed, {} failed, {empty} entries without files",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(passed + empty, 138);
}
