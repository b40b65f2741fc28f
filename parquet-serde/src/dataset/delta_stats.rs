//! Pruning a Delta table's files by the statistics of their `add` actions (numRecords,
//! minValues, maxValues, nullCount), before any file is opened: a file is kept unless its
//! statistics prove that no row of it can satisfy the predicate.
//!
//! Only what the statistics state exactly is used: top-level columns of integer, date and
//! string types (a string bound of 32 characters or more may be a truncated prefix: it
//! still bounds from below, so only a minimum is used then), and `timestamp` columns, whose
//! bounds are written as milliseconds: each is widened by a millisecond on its side, so a
//! bound truncated either way still holds. Decimals and floating-point bounds (JSON
//! numbers) are not used, nor `timestamp_ntz` bounds. Negations
//! are pushed down to the tests first, as [`decide`](super::prune::decide) does, so that
//! SQL's three-valued logic holds: a test of a null is unknown, which selects nothing.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde_json::Value as Json;

use crate::core::column::Scalar;
use crate::delta::schema::FieldType;
use crate::delta::stats::FileStats;
use crate::filter::{CmpOp, Predicate};

use super::bounds_prune::{bounds_may, micros, micros_may, FileBounds};
use super::partition::{parse_date, PartitionValue};
use super::prune::compare;

/// String bounds at least this long may have been truncated by the writer (Delta writers
/// truncate at 32 characters).
const TRUNCATED_CHARS: usize = 32;

/// Whether some row of a file with `stats` may satisfy `p` (over the file's columns, of
/// `types`): `false` only when the statistics rule every row out.
pub(crate) fn may_match(
    p: &Predicate,
    stats: &FileStats,
    types: &BTreeMap<String, FieldType>,
) -> bool {
    super::bounds_prune::may_match(p, &Pruner { stats, types })
}

struct Pruner<'a> {
    stats: &'a FileStats,
    types: &'a BTreeMap<String, FieldType>,
}

impl FileBounds for Pruner<'_> {
    fn num_records(&self) -> Option<i64> {
        self.stats.num_records
    }

    fn null_count(&self, column: &str) -> Option<i64> {
        self.stats.null_count.get(column).copied()
    }

    fn compare_may(&self, column: &str, op: CmpOp, literal: &Scalar) -> bool {
        let Some(ty) = self.types.get(column) else {
            return true;
        };
        if ty.is("timestamp") {
            return self.timestamp_may(column, op, literal);
        }
        let bound = |b: Option<&Json>, is_max: bool| -> Option<Ordering> {
            let v = typed(b?, ty, is_max)?;
            compare(&v, literal, column).ok().flatten()
        };
        let lo = bound(self.stats.min.get(column), false);
        let hi = bound(self.stats.max.get(column), true);
        bounds_may(lo, hi, op)
    }
}

impl Pruner<'_> {
    /// [`compare_may`](Self::compare_may) for a `timestamp` column, in microseconds: the
    /// bounds widened by a millisecond, a literal between two microseconds as both.
    fn timestamp_may(&self, column: &str, op: CmpOp, literal: &Scalar) -> bool {
        const MS: i128 = 1_000;
        let bound = |b: Option<&Json>| b.and_then(Json::as_str).and_then(micros);
        let lo = bound(self.stats.min.get(column)).map(|(l, _)| l - MS);
        let hi = bound(self.stats.max.get(column)).map(|(_, h)| h + MS);
        micros_may(lo, hi, op, literal)
    }
}

/// A bound as a value of the column's type; `None` when it is not used (another type, a
/// bound that may be truncated, a value that does not parse).
fn typed(v: &Json, ty: &FieldType, is_max: bool) -> Option<PartitionValue> {
    if ty.is_integer() {
        return v.as_i64().map(PartitionValue::Int);
    }
    if ty.is("date") {
        return parse_date(v.as_str()?).map(PartitionValue::Date);
    }
    if ty.is("string") {
        let s = v.as_str()?;
        if is_max && s.chars().count() >= TRUNCATED_CHARS {
            return None;
        }
        return Some(PartitionValue::String(s.to_string()));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter::col;

    fn stats() -> (FileStats, BTreeMap<String, FieldType>) {
        let s = FileStats::parse(
            r#"{"numRecords":4,
                "minValues":{"ts":"2026-11-01T00:00:01.000Z","id":10,"name":"b","day":"2026-11-02","dec":1.5,"long":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
                "maxValues":{"ts":"2026-11-01T00:00:02.000Z","id":20,"name":"d","day":"2026-11-05","dec":2.5,"long":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"},
                "nullCount":{"id":0,"name":1,"day":0,"nulls":4}}"#,
            "t",
        )
        .unwrap();
        let types = [
            ("id", "long"),
            ("name", "string"),
            ("day", "date"),
            ("dec", "decimal(4,1)"),
            ("long", "string"),
            ("nulls", "integer"),
            ("ts", "timestamp"),
        ]
        .into_iter()
        .map(|(k, t)| (k.to_string(), FieldType::Primitive(t.to_string())))
        .collect();
        (s, types)
    }

    #[test]
    fn prunes_only_what_the_bounds_rule_out() {
        let (s, t) = stats();
        let may = |p: Predicate| may_match(&p, &s, &t);
        let parse = |q: &str| may_match(&Predicate::parse(q).unwrap(), &s, &t);
        assert!(may(col("id").eq(10)) && may(col("id").eq(20)) && !may(col("id").eq(21)));
        assert!(!may(col("id").lt(10)) && may(col("id").le(10)));
        assert!(!may(col("id").gt(20)) && may(col("id").ge(20)));
        assert!(may(col("id").ne(15)));
        assert!(!may(!col("id").ge(10)), "not id >= 10 is id < 10");
        assert!(!may(col("id").between(21, 30)) && may(col("id").between(0, 10)));
        assert!(!may(!col("id").between(0, 30)));
        assert!(!may(col("id").in_list([1, 2, 30])) && may(col("id").in_list([1, 15])));
        assert!(!may(col("name").eq("a")) && may(col("name").eq("c")));
        assert!(!parse("day < '2026-11-02'") && parse("day <= '2026-11-02'"));
        assert!(!parse("day > '2026-11-05T00:00:01Z'"));
        // Nulls: counts rule out is null / is not null / any comparison.
        assert!(!may(col("id").is_null()) && may(col("name").is_null()));
        assert!(!may(col("nulls").is_not_null()) && !may(col("nulls").eq(1)));
        assert!(!may(!col("nulls").eq(1)), "unknown, negated or not");
        // And / or; bounds not used (decimals, truncated strings, unknown columns).
        assert!(!may(col("id").eq(1).and(col("name").eq("c"))));
        assert!(may(col("id").eq(1).or(col("name").eq("c"))));
        assert!(!may(!(col("id").ge(10).and(col("id").le(20)))));
        assert!(may(col("dec").gt(100)));
        assert!(may(col("long").gt("b")) && !may(col("long").lt("a")));
        assert!(may(col("other").eq(1)));
        // Timestamps: bounds in milliseconds, widened by one.
        assert!(!parse("ts > '2026-11-01T00:00:02.001Z'"));
        assert!(parse("ts > '2026-11-01T00:00:02.0009Z'"));
        assert!(parse("ts >= '2026-11-01T00:00:02.001Z'"));
        assert!(!parse("ts < '2026-11-01T00:00:00.999Z'"));
        assert!(parse("ts <= '2026-11-01T00:00:00.999Z'"));
        assert!(!parse("ts = '2026-11-01T01:00:00Z'") && parse("ts = '2026-11-01T00:00:01.5Z'"));
        assert!(!parse("ts between '2026-11-02' and '2026-11-03'"));
        assert!(parse("ts != '2026-11-01T00:00:01.5Z'"));
        // A literal of the wrong type is left to the file's check.
        assert!(may(col("id").eq("x")));
        let empty = FileStats {
            num_records: Some(0),
            ..FileStats::default()
        };
        assert!(!may_match(&col("id").is_null(), &empty, &t));
    }
}
