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
//! # What literals mean
//!
//! A literal compares with a column in the column's logical type, exactly:
//!
//! - **Integers and DECIMAL** (INT32, INT64, FIXED_LEN_BYTE_ARRAY, BYTE_ARRAY; signed or
//!   unsigned over the whole range): integer, decimal (`90000.00`, kept digit for digit as a
//!   [`Decimal`](crate::core::column::Decimal)) and float literals compare by numeric value,
//!   never through `f64`: `amount > 90000` on `DECIMAL(12,2)` means 90000.00, `amount >
//!   1.005` on scale 2 selects 1.01 and up, `a = 1.0` on an integer column is `a = 1`, and
//!   `a = 1.5` selects nothing. A float literal means its shortest decimal text (`0.1`); text
//!   that reads as a number (`'12.50'`) is that number.
//! - **FLOAT, DOUBLE, FLOAT16**: compare as floating point, -0.0 equal to +0.0, NaN equal to
//!   NaN and greater than every number (as DuckDB). Integer and decimal literals on FLOAT and
//!   FLOAT16 are rounded to `f32` first, as DuckDB casts them to the column's type.
//! - **TIMESTAMP** (any unit, UTC-adjusted or not), **INT96**, **DATE**, **TIME**: ISO 8601 text,
//!   `'2026-11-24'`, `'2026-11-24T13:00:19.833999Z'`, `'2026-11-24 14:00+01:00'`,
//!   `'13:00:00.5'`, compared by its exact value, every fraction digit counted (a literal finer
//!   than the column's unit is never cut down to it). A date alone is its midnight. On a
//!   UTC-adjusted timestamp (and INT96) an offset gives the instant, and a literal without
//!   offset is UTC; on a timestamp not adjusted to UTC, and on TIME, the wall-clock reading is
//!   compared and an offset is ignored; on DATE a day is the instant of its midnight (UTC),
//!   compared with a date-time literal's exact instant, as DuckDB compares a DATE with a
//!   `TIMESTAMP` (`d < '2024-01-01T10:00:00'` holds for d = 2024-01-01, `d =
//!   '2024-01-01T10:00:00'` for no day, `d = '2024-01-01T00:00:00'` for that day; DuckDB
//!   itself cuts an untyped *text* literal to its date). A number on a TIMESTAMP, DATE or TIME column is its stored
//!   integer.
//! - **UUID**: its text form (`'01234567-89ab-cdef-0123-456789abcdef'`) or 16 bytes.
//! - **STRING, ENUM, JSON, BYTE_ARRAY**: text or bytes, in unsigned byte order; `like` with `%`
//!   and `_`.
//! - **BOOLEAN**: `true` / `false`; text as DuckDB casts it (`'true'`, `'t'`, `'yes'`,
//!   `'y'`, `'1'` and `'false'`, `'f'`, `'no'`, `'n'`, `'0'`, any case, no space around).
//!
//! **Booleans and numbers** compare as in DuckDB 2.0 (found by experiment): a number
//! against a BOOLEAN column compares with the column's values as 0 and 1 (`flag = 1` is
//! `flag = true`, `flag > 0` too, `flag = 2` and `flag = 0.5` hold for no row, `flag != 2`
//! for every non-null row), by every order for a whole number and only by `=`, `!=` and
//! `in` for a decimal or float literal; `true` and `false` against a numeric column are 1
//! and 0 (`i = true` is `i = 1`), by every order on integer columns and only by `=`, `!=`
//! and `in` on DECIMAL and floating-point ones. Hive keys of integers take booleans the same
//! way.
//!
//! A literal that cannot compare with its column is refused when the predicate is bound
//! to a file (on a dataset, before any row: see [`Dataset::check_filter`](crate::dataset::Dataset::check_filter));
//! the error names the column, its type and the literal. The refusals (DuckDB refuses
//! each too, with a binder or conversion error): text that does not read as the column's
//! type (`i = 'x'`, `flag = 'maybe'`, `d = 'yesterday'`, `id = 'nope'` on a UUID); a
//! number or boolean against a text column (DuckDB casts the column's text instead, failing
//! on the first value that is not one), a UUID, or a DATE, TIME, TIMESTAMP or INT96 column
//! (except that a number on a DATE, TIME or TIMESTAMP column is its stored integer,
//! where DuckDB refuses); a boolean ordered against a DECIMAL or float column, or a decimal or
//! float ordered against a BOOLEAN one; `like` on a column that is not text; any test but
//! `is null` on a column without an order (INTERVAL). `x in (1, null)` is true where `x = 1` and unknown
//! elsewhere, so `x not in (1, null)` is never true, as in SQL. Two columns compare when
//! both hold numbers, both text, both booleans, both instants (DATE, TIMESTAMP, INT96) or
//! both TIME.
//!
//! Pruning by statistics, page index, dictionaries and Bloom filters follows the same rules:
//! a literal that falls between two of the column's stored values is turned into an
//! equivalent test on stored values (`u > 1.005` on scale 2 is `u > 100` in cents), so no
//! row group or page holding a match is skipped.
//!
//! # Paths inside VARIANT columns
//!
//! A column path that names no leaf but starts with a VARIANT group (one holding `metadata`
//! and `value` leaves) is read as that column and a path inside its values:
//!
//! ```text
//! variant_path := variant_column ("." name | "[" index "]")*
//! ```
//!
//! The column alone (`fields = 500`, `fields is null`) tests the whole value.
//! `fields.http.status` is field `status` of field `http`; `fields.tags[1]` the first element
//! of array `tags` (indexes start at 1, as DuckDB's `fields.tags[1]`); a `typed_value` step
//! is skipped, so [`Column::field`] names the same path
//! (`col("fields").field("status")` is `fields.typed_value.status`). A field name holding
//! `.` or `[` cannot be named. A VARIANT column under a repeated field is refused when the
//! predicate is bound.
//!
//! In a **shredded** column (VariantShredding.md), `fields.status` finds each row's value
//! wherever the row holds it: in the field's `typed_value` leaf, or in a `value` column
//! (bytes of a value of another type, or of the residual object of a partly shredded one),
//! and tests it as in an unshredded column. Row groups are skipped by the statistics of the
//! field's typed column where its `value` column holds only nulls (so every value is typed)
//! and the typed column compares as the cast does: whole numbers on signed integer columns,
//! numbers with an exponent on DOUBLE, text on STRING, booleans on BOOLEAN (this relies on
//! the shredding rule that an object is never left in an ancestor's `value` column when
//! its `typed_value` group could hold it). Pages are not skipped. A path through a shredded
//! array is refused. The form [`Column::field`] builds for a shredded
//! field, `fields.typed_value.status`, names that field's typed leaf instead: it prunes by
//! its statistics and compares only values of the shredded type (see [`Column::field`]).
//!
//! ## What a path test means
//!
//! A test compares the value at the path as DuckDB 2.0 compares
//! `TRY_CAST(variant_extract(...) AS T)`, with `T` the literal's type:
//!
//! | literal | `T` |
//! |---|---|
//! | whole number within `i64` / beyond | `BIGINT` / `HUGEINT` |
//! | number with a point or an exponent, or a whole number beyond `i128` | `DOUBLE` (the literal rounded to the nearest double) |
//! | `'text'` | `VARCHAR` |
//! | `true`, `false` | `BOOLEAN` |
//!
//! The value is *null* (the comparison is unknown, so neither `=` nor `!=` matches) when the
//! column is null, the path is missing (a field of a non-object, an index past the end), the
//! value is a variant null, or it does not cast. `is null` is true exactly then, except
//! that a value that does not cast is not null. `between` is `>= low and <= high` and
//! `in (a, b)` is `= a or = b`, each literal with its own `T`; `like` matches the `VARCHAR`
//! cast. `x is true` is `x = true and x is not null`, as on columns, so where the value
//! does not cast to `BOOLEAN` it is unknown (DuckDB's `TRY_CAST(..) IS TRUE` is false
//! there, so `not (x is true)` differs on such values). A column on the other side of a
//! comparison (`fields.a < b`) is refused.
//!
//! What casts, as found by experiment on DuckDB 2.0 (`TRY_CAST(<x>::VARIANT AS T)`):
//!
//! | value | `BIGINT` / `HUGEINT` | `DOUBLE` | `VARCHAR` | `BOOLEAN` |
//! |---|---|---|---|---|
//! | int8 .. int64 | the value | the value | decimal digits | `!= 0` |
//! | float, double | rounded half to even; NaN, ±inf, out of range: null | the value | shortest round-trip digits as Python's `repr` (`1.5`, `2.0`, `1e+20`, `-0.0`) | `!= 0` (NaN is true) |
//! | decimal4/8/16 | rounded half away from zero; out of range: null | nearest double | digits with the scale (`1.50`), no `0` before the point when DuckDB's width (38 for decimal16, else the unscaled value's digit count) is the scale (`.05`) | `!= 0` |
//! | boolean | 1, 0 | 1.0, 0.0 | `true`, `false` | the value |
//! | string | trimmed of whitespace; `-` but no `+`; decimal digits, `0x` hex, `0b` binary; else null | leading whitespace only; no `+`; decimal or exponent forms, `.5`, `5.`, `nan`, `inf`, `infinity` (any case); overflow is ±inf | the string | `true`, `t`, `yes` / `false`, `f`, `no`, any case, nothing else |
//! | (string, both numeric casts) | unsigned text starting with `0` and another digit (`00012`, `012.5`) is null; `-012` is not | | | |
//! | date | null | null | `YYYY-MM-DD` | null |
//! | uuid | null | null | hyphenated lowercase | null |
//! | time | null | null | `HH:MM:SS[.ffffff]`, trailing zeros of the fraction cut | null |
//! | timestamps | null | null | `YYYY-MM-DD HH:MM:SS[.fff…]` as for time, with `+00` when adjusted to UTC (DuckDB's `TimeZone` UTC) | null |
//! | binary | null | null | printable ASCII as is, other bytes `\xHH` | null |
//! | object, array | null | null | **null here** (DuckDB gives a text form of its own) | null |
//! | null | null | null | null | null |
//!
//! The differences from DuckDB: objects and arrays never compare with a text literal, and
//! `not (x is true)` / `x is not true` on a value that does not cast (above).
//!
//! Comparisons then follow the column rules: numbers by value (doubles with NaN equal to NaN
//! and greatest), text by bytes, `false < true`. In an unshredded column, row groups and
//! pages are never skipped for a path test (the `value` column's statistics say nothing
//! about the path).
//!
//! [`Filter::select`] gives per row group a [`RowSelection`](crate::core::file::RowSelection);
//! [`FileReader::read_column_rows`](crate::core::file::FileReader::read_column_rows) reads those
//! rows of any column, fetching only the pages that hold them.

mod bind;
mod coerce;
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
mod variant_shredded;

#[cfg(test)]
mod tests;

pub(crate) use bind::{bind as bind_predicate, Bound};

pub(crate) use temporal::instant_seconds;

/// SQL LIKE on text (for partition keys).
pub(crate) fn like_text(s: &str, pattern: &str) -> bool {
    like::like(s.as_bytes(), pattern)
}
#[cfg(any(feature = "delta", feature = "iceberg"))]
pub(crate) use exact::{scale_decimal, Scaled};
pub(crate) use predicate::not;
pub use predicate::{col, CmpOp, Column, Predicate};
pub(crate) use scan::Candidate;
pub use scan::{Filter, FilterOptions, FilterReport, Selection};
