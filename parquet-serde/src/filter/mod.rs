//! Reading only what a query needs: a typed [`Predicate`] over leaf columns, used to skip
//! row groups (statistics, Bloom filters, dictionaries) and pages (page index), then
//! applied exactly, so the rows selected are those a full scan filtered row by row would
//! give.
//!
//! ```no_run
//! use parquet_serde::core::file::FileReader;
//! use parquet_serde::filter::col;
//! let reader = FileReader::new(std::fs::File::open("logs.parquet")?)?;
//! let filter = reader.filter(col("level").eq("ERROR").and(col("ts").between(1_000, 2_000)))?;
//! let selection = filter.select()?;          // row groups and rows
//! println!("{:?}", selection.report);        // what was skipped
//! let rows = filter.read_rows(&[])?;         // the rows, every column
//! # Ok::<(), parquet_serde::Error>(())
//! ```
//!
//! [`Predicate::parse`] reads a predicate from SQL-like text
//! (`level = 'ERROR' and ts >= '2026-11-24T13:00:00Z'`), as the command line's `--where`.
//!
//! [`Filter::select`] gives per row group a [`RowSelection`](crate::file::RowSelection);
//! [`FileReader::read_column_rows`](crate::file::FileReader::read_column_rows) reads those
//! rows of any column, fetching only the pages that hold them.

mod bind;
mod eval;
mod exact;
mod like;
mod pair;
mod parse;
mod predicate;
mod prune;
mod scan;
mod temporal;
mod variant_path;

#[cfg(test)]
mod tests;

pub(crate) use bind::{bind as bind_predicate, Bound};

/// SQL LIKE on text (for partition keys).
pub(crate) fn like_text(s: &str, pattern: &str) -> bool {
    like::like(s.as_bytes(), pattern)
}
pub use predicate::{col, not, CmpOp, Column, Operand, Predicate};
pub(crate) use scan::Candidate;
pub use scan::{Filter, FilterOptions, FilterReport, Selection};
