//! Issue 28's differential test of predicates, library half: random typed tables (every type
//! predicates take, nulls, several row groups, small pages with the page index, dictionaries
//! and Bloom filters), random predicates from the whole grammar, and for each the ids
//! `Predicate::parse` selects, on the file (`FileReader::filter`) and on the same rows as a
//! Hive folder (`Dataset::filter`), compared with DuckDB's `WHERE` (the oracle, with
//! `read_parquet(..., hive_partitioning = true)` on the folder). The command line's `--where`
//! half is `parquet-serde/tests/cli_where_duckdb.rs` (only a test of that package can run
//! its binary). The generator is `parquet-serde/tests/common/pred_diff.rs`.
//!
//! `PRED_DIFF_SEED=N` replays table N alone (every difference names its seed);
//! `PRED_DIFF_TABLES=N` runs N tables.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;
#[path = "../parquet-serde/tests/common/pred_diff.rs"]
mod pred_diff;

use std::path::Path;

use parquet_serde::core::file::FileReader;
use parquet_serde::dataset::Dataset;
use parquet_serde::{Predicate, Value};
use pred_diff::{Grammar, Run};

/// The grammar drawn from.
const GRAMMAR: Grammar = Grammar::LANDED;

fn id_of(row: &Value) -> i64 {
    match row.get("id") {
        Some(Value::Int(i)) => *i,
        other => panic!("row without an id: {other:?}"),
    }
}

/// The ids `text` selects in `file`, through `Predicate::parse` and `FileReader::filter`.
fn on_file(file: &Path, text: &str) -> Result<Vec<i64>, String> {
    let predicate = Predicate::parse(text).map_err(|e| e.to_string())?;
    let reader = FileReader::new(std::fs::read(file).unwrap()).map_err(|e| e.to_string())?;
    let filter = reader.filter(predicate).map_err(|e| e.to_string())?;
    let rows = filter.read_rows(&["id"]).map_err(|e| e.to_string())?;
    Ok(rows.iter().map(id_of).collect())
}

/// The ids `text` selects in the Hive folder `dir`, through `Dataset::filter`.
fn on_folder(dir: &Path, text: &str) -> Result<Vec<i64>, String> {
    let predicate = Predicate::parse(text).map_err(|e| e.to_string())?;
    let dataset = Dataset::open(dir)
        .and_then(|d| d.filter(predicate))
        .map_err(|e| e.to_string())?;
    let rows = dataset
        .rows::<Value>()
        .select_columns(&["id"])
        .and_then(|r| r.read_all())
        .map_err(|e| e.to_string())?;
    let mut ids: Vec<i64> = rows.iter().map(id_of).collect();
    ids.sort_unstable();
    Ok(ids)
}

#[test]
fn predicates_agree_with_duckdb() {
    let tally = Run {
        grammar: GRAMMAR,
        seeds: pred_diff::seeds(10),
        rows: 300,
        predicates: 110,
        every: 1,
        python: common::python(),
        script: common::testdata().join("pred_diff_duckdb.py"),
        on_file: &on_file,
        on_folder: &on_folder,
    }
    .run();
    tally.check(1000);
}
