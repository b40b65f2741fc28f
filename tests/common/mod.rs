//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

use parquet_serde::core::file::{FileReader, ReadOptions};
use parquet_serde::record::{write_json, Value};

/// The parquet-testing corpus: `$PARQUET_TESTING`, else `../shared/parquet-testing` beside
/// the project root.
pub fn corpus() -> PathBuf {
    if let Some(p) = std::env::var_os("PARQUET_TESTING") {
        return PathBuf::from(p);
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let beside = root.join("../shared/parquet-testing");
    if beside.is_dir() {
        return beside;
    }
    PathBuf::from("/work/shared/parquet-testing")
}

/// The project's testdata directory.
pub fn testdata() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata")
}

/// Every row of `bytes` as JSON lines (the `cat` mapping), reading all columns.
pub fn rows_json(bytes: Vec<u8>, options: ReadOptions) -> parquet_serde::Result<Vec<String>> {
    let reader = FileReader::with_options(bytes, options)?;
    let mut lines = Vec::new();
    for row in parquet_serde::Reader::<_, Value>::from_file_reader(reader)? {
        let mut s = String::new();
        write_json(&row?, &mut s);
        lines.push(s);
    }
    Ok(lines)
}

/// JSON equality where numbers compare by value (1 == 1.0) and everything else exactly.
pub fn json_eq(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as J;
    match (a, b) {
        (J::Number(x), J::Number(y)) => match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
            (Some(p), Some(q), _, _) => p == q,
            (_, _, Some(p), Some(q)) => p == q,
            _ => x.as_f64() == y.as_f64(),
        },
        (J::Array(x), J::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (J::Object(x), J::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((k1, v1), (k2, v2))| k1 == k2 && json_eq(v1, v2))
        }
        _ => a == b,
    }
}

/// The Python interpreter with pyarrow and duckdb: `$PARQUET_SERDE_PYTHON`, else the
/// project's `.venv`. Panics with the setup command when neither exists.
pub fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("PARQUET_SERDE_PYTHON") {
        return PathBuf::from(p);
    }
    let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
    assert!(
        venv.exists(),
        "interop tests need Python with pyarrow and duckdb: run `bash .ci/run` once (it creates .venv), \
         or set PARQUET_SERDE_PYTHON"
    );
    venv
}

/// Rows of `files` as read by `engine` ("pyarrow" or "duckdb") through
/// testdata/read_with.py, in the `cat` JSON mapping: one entry per file, with its rows or
/// the engine's error.
pub fn read_with(
    engine: &str,
    files: &[PathBuf],
) -> Vec<(String, Result<Vec<serde_json::Value>, String>)> {
    let out = std::process::Command::new(python())
        .arg(testdata().join("read_with.py"))
        .arg(engine)
        .args(files)
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "{engine}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut result: Vec<(String, Result<Vec<serde_json::Value>, String>)> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("== ") {
            match rest.split_once(" ERROR ") {
                Some((f, e)) => result.push((f.to_string(), Err(e.to_string()))),
                None => result.push((rest.to_string(), Ok(vec![]))),
            }
        } else if let Some((_, Ok(rows))) = result.last_mut() {
            rows.push(serde_json::from_str(line).unwrap());
        }
    }
    result
}
