//! Pruning a table's files by what its log or manifests state of each (row count, null
//! counts, lower and upper bounds of columns), before any file is opened: a file is kept
//! unless those facts prove that no row of it can satisfy the predicate. The logic is
//! shared by the table formats (Delta's `add` statistics, Iceberg's manifest metrics and
//! partition values); each says through [`FileBounds`] what it knows of a file.
//!
//! Negations are pushed down to the tests first, as [`decide`](super::prune::decide)
//! does, so that SQL's three-valued logic holds: a test of a null is unknown, which
//! selects nothing.

use std::cmp::Ordering;

use crate::core::column::Scalar;
use crate::filter::{instant_seconds, scale_decimal, CmpOp, Predicate, Scaled};

/// What a table states of one file's top-level columns. Unknown facts rule nothing out.
pub(crate) trait FileBounds {
    /// The file's number of rows.
    fn num_records(&self) -> Option<i64>;
    /// The number of nulls of `column`.
    fn null_count(&self, column: &str) -> Option<i64>;
    /// Whether some non-null value of `column` within its bounds may satisfy
    /// `value <op> literal` (`true` when the bounds are unknown or do not compare).
    fn compare_may(&self, column: &str, op: CmpOp, literal: &Scalar) -> bool;
}

/// Whether some row of the file `bounds` describes may satisfy `p`: `false` only when
/// they rule every row out.
pub(crate) fn may_match(p: &Predicate, bounds: &dyn FileBounds) -> bool {
    if bounds.num_records() == Some(0) {
        return false;
    }
    may(p, false, bounds)
}

fn may(p: &Predicate, negate: bool, b: &dyn FileBounds) -> bool {
    match p {
        Predicate::Not(inner) => may(inner, !negate, b),
        Predicate::And(x, y) | Predicate::Or(x, y) => {
            let is_and = matches!(p, Predicate::And(..)) != negate;
            let (x, y) = (may(x, negate, b), may(y, negate, b));
            if is_and {
                x && y
            } else {
                x || y
            }
        }
        Predicate::IsNull { column } => {
            if negate {
                !all_null(b, column)
            } else {
                b.null_count(column) != Some(0)
            }
        }
        Predicate::IsNotNull { column } => {
            if negate {
                b.null_count(column) != Some(0)
            } else {
                !all_null(b, column)
            }
        }
        Predicate::Compare { column, op, value } => {
            let op = if negate { negated(*op) } else { *op };
            !all_null(b, column) && b.compare_may(column, op, value)
        }
        Predicate::Between { column, low, high } => {
            if all_null(b, column) {
                return false;
            }
            if negate {
                b.compare_may(column, CmpOp::Lt, low) || b.compare_may(column, CmpOp::Gt, high)
            } else {
                b.compare_may(column, CmpOp::Ge, low) && b.compare_may(column, CmpOp::Le, high)
            }
        }
        Predicate::InList { column, values } => {
            if all_null(b, column) {
                return false;
            }
            negate || values.iter().any(|v| b.compare_may(column, CmpOp::Eq, v))
        }
        // Not stated by the bounds: the file decides.
        Predicate::Like { .. }
        | Predicate::CompareColumns { .. }
        | Predicate::IntersectsBbox { .. }
        | Predicate::Unknown => true,
    }
}

/// Whether every value of `column` is null (so no comparison holds).
fn all_null(b: &dyn FileBounds, column: &str) -> bool {
    match (b.null_count(column), b.num_records()) {
        (Some(n), Some(records)) => n >= records,
        _ => false,
    }
}

/// `not (a op b)` as a test of `a` and `b` (for non-null values).
fn negated(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
        CmpOp::Ge => CmpOp::Lt,
    }
}

/// Whether a value between bounds `lo` and `hi` may satisfy `value <op> literal`, given
/// how each bound compares with the literal (`None`: unknown).
pub(crate) fn bounds_may(lo: Option<Ordering>, hi: Option<Ordering>, op: CmpOp) -> bool {
    match op {
        CmpOp::Eq => lo != Some(Ordering::Greater) && hi != Some(Ordering::Less),
        CmpOp::Ne => !(lo == Some(Ordering::Equal) && hi == Some(Ordering::Equal)),
        CmpOp::Lt => lo.is_none_or(|o| o.is_lt()),
        CmpOp::Le => lo.is_none_or(|o| o.is_le()),
        CmpOp::Gt => hi.is_none_or(|o| o.is_gt()),
        CmpOp::Ge => hi.is_none_or(|o| o.is_ge()),
    }
}

/// A timestamp text as microseconds since the epoch: `(n, n)` when exact, `(n, n + 1)`
/// when it falls between two microseconds.
pub(crate) fn micros(text: &str) -> Option<(i128, i128)> {
    match scale_decimal(&instant_seconds(text, true)?, 6) {
        Scaled::Exact(n) => Some((n, n)),
        Scaled::Between(n) => Some((n, n + 1)),
        Scaled::Above | Scaled::Below => None,
    }
}

/// Whether a timestamp between `lo` and `hi` microseconds may satisfy
/// `value <op> literal` (a timestamp text; any other literal rules nothing out).
pub(crate) fn micros_may(lo: Option<i128>, hi: Option<i128>, op: CmpOp, literal: &Scalar) -> bool {
    let Scalar::Bytes(b) = literal else {
        return true;
    };
    let Some((lit_lo, lit_hi)) = std::str::from_utf8(b).ok().and_then(|t| micros(t.trim())) else {
        return true;
    };
    match op {
        CmpOp::Eq => lo.is_none_or(|l| l <= lit_hi) && hi.is_none_or(|h| h >= lit_lo),
        CmpOp::Ne => true,
        CmpOp::Lt => lo.is_none_or(|l| l < lit_hi),
        CmpOp::Le => lo.is_none_or(|l| l <= lit_hi),
        CmpOp::Gt => hi.is_none_or(|h| h > lit_lo),
        CmpOp::Ge => hi.is_none_or(|h| h >= lit_lo),
    }
}
