//! Issue 28's differential test of predicates, command-line half: the tables and predicates
//! of `tests/predicate_duckdb.rs` (the generator is `common/pred_diff.rs`), a sample of the
//! predicates given to `parquet-serde cat --where` on the file and on the Hive folder, and
//! the ids printed compared with DuckDB's `WHERE`. It lives here because Cargo builds the
//! binary only for this package's tests. A refused predicate must fail before any row is
//! printed.
//!
//! `PRED_DIFF_SEED=N` replays table N alone; `PRED_DIFF_TABLES=N` runs N tables, from seed
//! `PRED_DIFF_FIRST` (1 unless set).

mod common;
#[path = "common/pred_diff.rs"]
mod pred_diff;

use std::path::Path;
use std::process::Command;

use pred_diff::{Grammar, Run};

/// The grammar drawn from (as `tests/predicate_duckdb.rs`).
const GRAMMAR: Grammar = Grammar::ALL;

/// The ids `parquet-serde cat PATH --columns id --where TEXT` prints, or its error; an
/// error after rows were printed is a difference of its own.
fn cat_where(path: &Path, text: &str) -> Result<Vec<i64>, String> {
    let out = Command::new(env!("CARGO_BIN_EXE_parquet-serde"))
        .arg("cat")
        .arg(path)
        .args(["--columns", "id", "--where", text])
        .output()
        .expect("run parquet-serde");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 output");
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
        return Err(if stdout.is_empty() {
            err
        } else {
            format!("{}: {err}", pred_diff::ROWS_BEFORE_ERROR)
        });
    }
    let mut ids: Vec<i64> = stdout
        .lines()
        .map(|l| {
            let row: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            row["id"].as_i64().unwrap_or_else(|| panic!("no id in {l}"))
        })
        .collect();
    ids.sort_unstable();
    Ok(ids)
}

#[test]
fn where_agrees_with_duckdb() {
    let tally = Run {
        grammar: GRAMMAR,
        seeds: pred_diff::seeds(10),
        rows: 300,
        predicates: 110,
        every: 4,
        python: common::python(),
        script: common::testdata().join("pred_diff_duckdb.py"),
        on_file: &cat_where,
        on_folder: &cat_where,
        orders: false,
    }
    .run();
    tally.check(250);
}
