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
//! `PRED_DIFF_TABLES=N` runs N tables, from seed `PRED_DIFF_FIRST` (1 unless set).

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;
#[path = "../parquet-serde/tests/common/pred_diff.rs"]
mod pred_diff;

use std::cell::RefCell;
use std::path::Path;

use parquet_serde::core::file::FileReader;
use parquet_serde::dataset::Dataset;
use parquet_serde::{Predicate, Value};
use pred_diff::{Grammar, Run};

/// The grammar drawn from.
const GRAMMAR: Grammar = Grammar::ALL;

fn id_of(row: &Value) -> i64 {
    match row.get("id") {
        Some(Value::Int(i)) => *i,
        other => panic!("row without an id: {other:?}"),
    }
}

/// What pruning skipped over a run: row groups by statistics, Bloom filters and
/// dictionaries, and rows of the row groups read that the page index skipped.
#[derive(Default, Debug)]
struct Pruned {
    statistics: usize,
    bloom_filter: usize,
    dictionary: usize,
    page_index_rows: u64,
}

/// The ids `text` selects in `file`, through `Predicate::parse` and `FileReader::filter`;
/// what pruning skipped is added to `pruned`, and `Filter::select` must count as many rows.
fn on_file(file: &Path, text: &str, pruned: &RefCell<Pruned>) -> Result<Vec<i64>, String> {
    let predicate = Predicate::parse(text).map_err(|e| e.to_string())?;
    let reader = FileReader::new(std::fs::read(file).unwrap()).map_err(|e| e.to_string())?;
    let filter = reader.filter(predicate).map_err(|e| e.to_string())?;
    let rows = filter.read_rows(&["id"]).map_err(|e| e.to_string())?;
    let selection = filter.select().map_err(|e| e.to_string())?;
    let ids: Vec<i64> = rows.iter().map(id_of).collect();
    let report = &selection.report;
    if selection.row_count() != ids.len() as u64 || report.rows_selected != ids.len() as u64 {
        return Err(format!(
            "select() counts {} rows (report {}), read_rows gives {}",
            selection.row_count(),
            report.rows_selected,
            ids.len()
        ));
    }
    let mut p = pruned.borrow_mut();
    p.statistics += report.pruned_by_statistics;
    p.bloom_filter += report.pruned_by_bloom_filter;
    p.dictionary += report.pruned_by_dictionary;
    p.page_index_rows += report.rows_in_row_groups_read - report.rows_candidate;
    Ok(ids)
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
    agree_with_duckdb(false);
}

/// The same tables with float statistics in IEEE 754 total order and INT96 statistics in
/// chronological order (`WriterOptions::float_total_order`, `int96_timestamp_order`):
/// pruning with them keeps the predicates' SQL order (NaN = NaN, NaN greatest, -0.0 = +0.0).
#[test]
fn predicates_agree_with_duckdb_on_total_order_files() {
    agree_with_duckdb(true);
}

fn agree_with_duckdb(orders: bool) {
    let pruned = RefCell::new(Pruned::default());
    let tally = Run {
        grammar: GRAMMAR,
        seeds: pred_diff::seeds(10),
        rows: 300,
        predicates: 110,
        every: 1,
        python: common::python(),
        script: common::testdata().join("pred_diff_duckdb.py"),
        on_file: &|file, text| on_file(file, text, &pruned),
        on_folder: &on_folder,
        orders,
    }
    .run();
    let pruned = pruned.into_inner();
    println!("pruned: {pruned:?}");
    tally.check(1000);
    // the answers went through every kind of pruning
    if tally.tables > 1 {
        assert!(
            pruned.statistics > 0
                && pruned.bloom_filter > 0
                && pruned.dictionary > 0
                && pruned.page_index_rows > 0,
            "{pruned:?}"
        );
    }
}
