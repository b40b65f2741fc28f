//! Pruning by partition values: a predicate's tests of partition keys are decided by a
//! file's folder values, leaving either a constant (the file is skipped, or every row of
//! it passes those tests) or the rest of the predicate, over the file's own columns, which
//! the file's reader applies (statistics, page index, then row by row).
//!
//! Negations are pushed down to the tests first (as binding a predicate does), so SQL's
//! three-valued logic holds: a test of a null partition value is unknown, which in a
//! negation-free predicate selects exactly what false selects.

use std::cmp::Ordering;

use crate::core::column::Scalar;
use crate::core::values::text;
use crate::error::{Error, Result};
use crate::filter::{not, CmpOp, Predicate};

use super::partition::PartitionValue;

/// A predicate with its partition tests decided.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Decided {
    /// Every row passes (no test left).
    All,
    /// No row passes: the file is skipped.
    None,
    /// The rows the remaining predicate (over the file's columns) selects.
    Rows(Predicate),
}

/// Decides the tests of `p` on the keys of `partitions` (every other column is left to
/// the file). Fails when a literal does not compare with a key's values.
pub(crate) fn decide(p: &Predicate, partitions: &[(String, PartitionValue)]) -> Result<Decided> {
    decide_inner(p, partitions, false)
}

fn decide_inner(
    p: &Predicate,
    parts: &[(String, PartitionValue)],
    negate: bool,
) -> Result<Decided> {
    let key = |column: &str| parts.iter().find(|(k, _)| k == column).map(|(_, v)| v);
    let leaf =
        |column: &str, test: &dyn Fn(&PartitionValue) -> Result<Option<bool>>| match key(column) {
            Some(v) => Ok(constant(test(v)?, negate)),
            None => Ok(Decided::Rows(if negate {
                not(p.clone())
            } else {
                p.clone()
            })),
        };
    match p {
        Predicate::Compare { column, op, value } => leaf(column, &|v| {
            Ok(compare(v, value, column)?.map(|o| op.holds(o)))
        }),
        Predicate::Between { column, low, high } => leaf(column, &|v| {
            let lo = compare(v, low, column)?;
            let hi = compare(v, high, column)?;
            Ok(lo.zip(hi).map(|(lo, hi)| lo.is_ge() && hi.is_le()))
        }),
        Predicate::InList { column, values } => leaf(column, &|v| {
            let mut any = Some(false);
            for x in values {
                match compare(v, x, column)? {
                    Some(Ordering::Equal) => return Ok(Some(true)),
                    Some(_) => {}
                    None => any = None,
                }
            }
            Ok(any)
        }),
        Predicate::IsNull { column } => leaf(column, &|v| Ok(Some(*v == PartitionValue::Null))),
        Predicate::IsNotNull { column } => leaf(column, &|v| Ok(Some(*v != PartitionValue::Null))),
        // A bounding box never names a partition key (folder values are not geometries): the
        // files decide it.
        Predicate::IntersectsBbox { .. } => Ok(Decided::Rows(if negate {
            not(p.clone())
        } else {
            p.clone()
        })),
        Predicate::Like { column, pattern } => leaf(column, &|v| match v {
            PartitionValue::Null => Ok(None),
            PartitionValue::String(s) => Ok(Some(crate::filter::like_text(s, pattern))),
            _ => Err(Error::invalid_argument(format!(
                "partition key {column:?} does not hold text; like needs text"
            ))),
        }),
        Predicate::CompareColumns { left, op, right } => match (key(left), key(right)) {
            (None, None) => Ok(Decided::Rows(if negate {
                not(p.clone())
            } else {
                p.clone()
            })),
            (Some(l), Some(r)) => {
                let truth = match literal(r) {
                    None => None,
                    Some(lit) => compare(l, &lit, left)?.map(|o| op.holds(o)),
                };
                Ok(constant(truth, negate))
            }
            // One side a key: its value is a literal for the file's column.
            (Some(v), None) | (None, Some(v)) => {
                let (column, op) = if key(left).is_some() {
                    (right, flip(*op))
                } else {
                    (left, *op)
                };
                match literal(v) {
                    None => Ok(Decided::None),
                    Some(value) => {
                        let q = Predicate::Compare {
                            column: column.clone(),
                            op,
                            value,
                        };
                        Ok(Decided::Rows(if negate { not(q) } else { q }))
                    }
                }
            }
        },
        // Unknown selects nothing, negated or not.
        Predicate::Unknown => Ok(Decided::None),
        Predicate::Not(inner) => decide_inner(inner, parts, !negate),
        Predicate::And(a, b) | Predicate::Or(a, b) => {
            let a = decide_inner(a, parts, negate)?;
            let b = decide_inner(b, parts, negate)?;
            // De Morgan under a negation.
            let is_and = matches!(p, Predicate::And(..)) != negate;
            Ok(if is_and { and(a, b) } else { or(a, b) })
        }
    }
}

/// A decided test: `Some(truth)` of the test itself, `None` when unknown (a null value).
fn constant(truth: Option<bool>, negate: bool) -> Decided {
    match truth {
        Some(t) if t != negate => Decided::All,
        // False, or unknown (which selects nothing, negated or not).
        _ => Decided::None,
    }
}

fn and(a: Decided, b: Decided) -> Decided {
    match (a, b) {
        (Decided::None, _) | (_, Decided::None) => Decided::None,
        (Decided::All, x) | (x, Decided::All) => x,
        (Decided::Rows(a), Decided::Rows(b)) => Decided::Rows(a.and(b)),
    }
}

fn or(a: Decided, b: Decided) -> Decided {
    match (a, b) {
        (Decided::All, _) | (_, Decided::All) => Decided::All,
        (Decided::None, x) | (x, Decided::None) => x,
        (Decided::Rows(a), Decided::Rows(b)) => Decided::Rows(a.or(b)),
    }
}

/// A partition value as a literal (`None` for null): a date as its `YYYY-MM-DD` text.
fn literal(v: &PartitionValue) -> Option<Scalar> {
    Some(match v {
        PartitionValue::Null => return None,
        PartitionValue::Int(i) => Scalar::Int(*i as i128),
        PartitionValue::String(s) => Scalar::from(s.as_str()),
        PartitionValue::Date(d) => {
            let mut s = String::new();
            text::date(*d as i64, &mut s).ok()?;
            Scalar::from(s)
        }
    })
}

/// `a op b` is `b flip(op) a`.
fn flip(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        other => other,
    }
}

/// Literal bytes as trimmed text.
fn as_text(b: &[u8]) -> Option<&str> {
    std::str::from_utf8(b).ok().map(str::trim)
}

/// How partition value `v` of key `key` compares with `lit`: `None` for a null value.
/// Dates compare with `YYYY-MM-DD` text (or days), integers with numbers (or their text),
/// text with text.
pub(super) fn compare(v: &PartitionValue, lit: &Scalar, key: &str) -> Result<Option<Ordering>> {
    let bad = |what: &str| {
        Err(Error::invalid_argument(format!(
            "partition key {key:?} holds {what}; the literal {lit} does not compare with it"
        )))
    };
    Ok(Some(match (v, lit) {
        (PartitionValue::Null, _) => return Ok(None),
        (PartitionValue::Date(d), Scalar::Bytes(b)) => {
            // The day's midnight against the literal's instant, as on a DATE column.
            match as_text(b).and_then(|t| crate::filter::instant_seconds(t, true)) {
                Some(x) => x.cmp_int(*d as i128 * 86_400).reverse(),
                None => return bad("dates (compare with 'YYYY-MM-DD')"),
            }
        }
        (PartitionValue::Date(d), Scalar::Int(x)) => (*d as i128).cmp(x),
        (PartitionValue::Date(_), _) => return bad("dates (compare with 'YYYY-MM-DD')"),
        (PartitionValue::Int(i), Scalar::Int(x)) => (*i as i128).cmp(x),
        (PartitionValue::Int(i), Scalar::Float(x)) => match (*i as f64).partial_cmp(x) {
            Some(o) => o,
            // NaN is greater than every number.
            None => Ordering::Less,
        },
        (PartitionValue::Int(i), Scalar::Decimal(x)) => x.cmp_int(*i as i128).reverse(),
        (PartitionValue::Int(i), Scalar::Bytes(b)) => {
            match as_text(b).and_then(|t| t.parse::<i64>().ok()) {
                Some(x) => i.cmp(&x),
                None => return bad("integers"),
            }
        }
        // A boolean is 1 or 0, as on an integer column.
        (PartitionValue::Int(i), Scalar::Bool(b)) => (*i as i128).cmp(&(*b as i128)),
        (PartitionValue::String(s), Scalar::Bytes(b)) => s.as_bytes().cmp(b.as_slice()),
        (PartitionValue::String(_), _) => return bad("text (compare with a quoted string)"),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter::col;

    fn parts() -> Vec<(String, PartitionValue)> {
        vec![
            ("date".into(), PartitionValue::Date(20_781)),
            ("hour".into(), PartitionValue::Int(13)),
            ("region".into(), PartitionValue::Null),
        ]
    }

    #[test]
    fn decides_partition_tests() {
        let p = parts();
        assert_eq!(decide(&col("hour").eq(13), &p).unwrap(), Decided::All);
        assert_eq!(decide(&col("hour").gt(13), &p).unwrap(), Decided::None);
        assert_eq!(
            decide(&col("hour").between(10, 13), &p).unwrap(),
            Decided::All
        );
        assert_eq!(
            decide(&col("hour").in_list([1, 13]), &p).unwrap(),
            Decided::All
        );
        assert_eq!(decide(&col("hour").eq("13"), &p).unwrap(), Decided::All);
        assert_eq!(
            decide(&col("date").eq("2026-11-24"), &p).unwrap(),
            Decided::All
        );
        assert_eq!(
            decide(&col("date").lt("2026-11-24"), &p).unwrap(),
            Decided::None
        );
        assert_eq!(decide(&!col("hour").eq(13), &p).unwrap(), Decided::None);
        // Exact numbers, timestamps on a date key by their date, LIKE, IN with null.
        assert_eq!(decide(&col("hour").eq(13.0), &p).unwrap(), Decided::All);
        let parse = |t: &str| Predicate::parse(t).unwrap();
        assert_eq!(decide(&parse("hour > 12.99"), &p).unwrap(), Decided::All);
        assert_eq!(decide(&parse("hour = 13.01"), &p).unwrap(), Decided::None);
        // A date-time on a date key: the day's midnight against its instant.
        assert_eq!(
            decide(&parse("date = '2026-11-24T23:00:00Z'"), &p).unwrap(),
            Decided::None
        );
        assert_eq!(
            decide(&parse("date < '2026-11-24T23:00:00Z'"), &p).unwrap(),
            Decided::All
        );
        assert_eq!(
            decide(&parse("date = '2026-11-24T00:00:00'"), &p).unwrap(),
            Decided::All
        );
        assert_eq!(
            decide(&parse("date like '2026%'"), &p).unwrap_err().kind(),
            crate::ErrorKind::InvalidArgument
        );
        assert_eq!(
            decide(&parse("hour in (1, null)"), &p).unwrap(),
            Decided::None
        );
        assert_eq!(
            decide(&parse("hour in (13, null)"), &p).unwrap(),
            Decided::All
        );
        assert_eq!(
            decide(&parse("hour not in (1, null)"), &p).unwrap(),
            Decided::None
        );
        // Two keys compare; a key against a file column is a literal test of the column.
        assert_eq!(
            decide(&parse("hour < date"), &p).unwrap_err().kind(),
            crate::ErrorKind::InvalidArgument
        );
        assert_eq!(
            decide(&parse("level > hour"), &p).unwrap(),
            Decided::Rows(col("level").gt(13))
        );
        assert_eq!(
            decide(&parse("hour > level"), &p).unwrap(),
            Decided::Rows(col("level").lt(13))
        );
        // Null values: unknown, negated or not.
        assert_eq!(decide(&col("region").eq("eu"), &p).unwrap(), Decided::None);
        assert_eq!(decide(&!col("region").eq("eu"), &p).unwrap(), Decided::None);
        assert_eq!(decide(&col("region").is_null(), &p).unwrap(), Decided::All);
        assert_eq!(
            decide(&!col("region").is_null(), &p).unwrap(),
            Decided::None
        );
    }

    #[test]
    fn leaves_file_columns() {
        let p = parts();
        let level = col("level").eq("ERROR");
        let q = col("hour").eq(13).and(level.clone());
        assert_eq!(decide(&q, &p).unwrap(), Decided::Rows(level.clone()));
        let q = col("hour").eq(12).or(level.clone());
        assert_eq!(decide(&q, &p).unwrap(), Decided::Rows(level.clone()));
        let q = col("hour").eq(13).or(level.clone());
        assert_eq!(decide(&q, &p).unwrap(), Decided::All);
        // not (hour = 13 and level = ERROR) = hour != 13 or not level = ERROR.
        let q = !(col("hour").eq(13).and(level.clone()));
        assert_eq!(decide(&q, &p).unwrap(), Decided::Rows(!level.clone()));
        assert_eq!(decide(&level, &[]).unwrap(), Decided::Rows(level));
    }

    #[test]
    fn bad_literals_name_the_key() {
        let p = parts();
        let e = decide(&col("date").eq("yesterday"), &p).unwrap_err();
        assert!(e.message().contains("\"date\""), "{e}");
        assert!(decide(&col("hour").eq("x"), &p).is_err());
        // A boolean on an integer key is 1 or 0.
        assert_eq!(decide(&col("hour").gt(true), &p).unwrap(), Decided::All);
        assert_eq!(decide(&col("hour").eq(true), &p).unwrap(), Decided::None);
    }
}
