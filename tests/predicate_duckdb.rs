//! Issue 28's differential test of predicates, library half: random typed tables (every type
//! predicates take, nulls, several row groups, small pages with the page index, dictionaries
//! and Bloom filters), random predicates from the whole grammar, and for each the ids
//! `Predicate::parse` selects, on the file and on the same rows as a Hive folder
//! (`Dataset`), compared with DuckDB's `WHERE` (the oracle; `read_parquet(..., hive_partitioning
//! = true)` on the folder). The command line's `--where` half is
//! `parquet-serde/tests/cli_where_duckdb.rs`. The generator is in
//! `parquet-serde/tests/common/pred_diff.rs`.
//!
//! `PRED_DIFF_SEED=N` replays table N alone (every difference names its seed);
//! `PRED_DIFF_TABLES=N` runs N tables.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;
#[path = "../parquet-serde/tests/common/pred_diff.rs"]
mod pred_diff;

use std::path::Path;
use std::time::Instant;

use parquet_serde::core::file::FileReader;
use parquet_serde::dataset::Dataset;
use parquet_serde::{Predicate, Value};
use pred_diff::{Grammar, Pred, Rng, Table, Tally};

/// The grammar drawn from: every part issue 28 asks for.
const GRAMMAR: Grammar = Grammar::BEFORE;
/// Tables per run, rows per table, predicates per table.
const TABLES: u64 = 10;
const ROWS: usize = 300;
const PREDICATES: usize = 110;

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

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name)
        .ok()
        .map(|v| v.parse().unwrap_or_else(|_| panic!("{name}={v:?}")))
}

#[test]
fn predicates_agree_with_duckdb() {
    let start = Instant::now();
    let seeds: Vec<u64> = match env_u64("PRED_DIFF_SEED") {
        Some(s) => vec![s],
        None => (1..=env_u64("PRED_DIFF_TABLES").unwrap_or(TABLES)).collect(),
    };
    let dir = tempfile::tempdir().unwrap();
    let script = common::testdata().join("pred_diff_duckdb.py");
    let mut tally = Tally::default();
    for &seed in &seeds {
        let table = Table::new(seed, ROWS, &GRAMMAR, GRAMMAR.int96 && seed % 5 == 0);
        let (file, hive) = pred_diff::table_paths(dir.path(), seed);
        table.write(&file, &hive);
        let mut r = Rng::new(seed.wrapping_mul(7919));
        let preds: Vec<Pred> = (0..PREDICATES)
            .map(|_| table.predicate(&mut r, &GRAMMAR, 2))
            .collect();
        let answers = pred_diff::duckdb(&common::python(), &script, &file, &hive, &preds);
        for (pred, (duck_file, duck_hive)) in preds.iter().zip(&answers) {
            tally.record(seed, "file", pred, on_file(&file, &pred.ours), duck_file);
            tally.record(seed, "hive", pred, on_folder(&hive, &pred.ours), duck_hive);
        }
        tally.tables += 1;
        tally.predicates += preds.len();
    }
    let summary = tally.summary(start.elapsed().as_secs_f64());
    println!("{summary}");
    for d in &tally.differences {
        println!("{d}");
    }
    assert!(
        tally.differences.is_empty(),
        "{summary}\nfirst differences:\n{}",
        tally
            .differences
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    if seeds.len() > 1 {
        assert!(tally.predicates >= 1000, "{summary}");
    }
}
