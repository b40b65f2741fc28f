//! Binding a [`Predicate`] to a schema: columns resolved to leaves, literals coerced to the
//! column's domain, negations pushed down to the leaves.

use crate::core::column::{Scalar, SortOrder};
use crate::core::format::{LogicalType, Type};
use crate::core::schema::{ColumnDescriptor, Schema};
use crate::error::{Error, Result};

use super::coerce::{coerce_test, describe, reading, Domain};
use super::eval::UNKNOWN;
use super::pair::Pair;
use super::predicate::{CmpOp, Predicate};
use super::variant_path::{self, VariantTest};

/// How a leaf's values compare, from its physical type and sort order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Bool,
    /// INT32/INT64, signed or unsigned (DECIMAL on integers too).
    Int {
        unsigned: bool,
    },
    /// DECIMAL stored as BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY.
    DecimalBytes,
    Float,
    Float16,
    /// Byte strings in unsigned order.
    Bytes,
    /// INT96 legacy timestamps, compared as nanoseconds since the epoch.
    Int96,
    /// No order (INT96, INTERVAL, ...): only null tests.
    Unordered,
}

impl Kind {
    pub fn of(descr: &ColumnDescriptor) -> Kind {
        let order = SortOrder::for_column(descr);
        if descr.physical_type == Type::Int96 {
            return Kind::Int96;
        }
        match (descr.physical_type, order) {
            (_, SortOrder::Undefined) => Kind::Unordered,
            (Type::Boolean, _) => Kind::Bool,
            (Type::Int32 | Type::Int64, o) => Kind::Int {
                unsigned: o == SortOrder::Unsigned,
            },
            (Type::Float | Type::Double, _) => Kind::Float,
            (Type::ByteArray | Type::FixedLenByteArray, SortOrder::Float16) => Kind::Float16,
            (Type::ByteArray | Type::FixedLenByteArray, SortOrder::Signed) => Kind::DecimalBytes,
            (Type::ByteArray | Type::FixedLenByteArray, _) => Kind::Bytes,
            _ => Kind::Unordered,
        }
    }

    /// Whether NaN values can occur.
    pub fn floating(self) -> bool {
        matches!(self, Kind::Float | Kind::Float16)
    }
}

/// A test of one leaf's values.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Test {
    Cmp(CmpOp, Scalar),
    Between(Scalar, Scalar),
    In(Vec<Scalar>),
    NotIn(Vec<Scalar>),
    IsNull,
    IsNotNull,
    /// A GEOMETRY / GEOGRAPHY value's box meets `[xmin, ymin, xmax, ymax]`.
    IntersectsBbox([f64; 4]),
    /// A test of a path inside an unshredded VARIANT column (its `value` leaf is the
    /// leaf's column), decoded row by row: see `variant_path`.
    VariantPath(Box<VariantTest>),
    /// SQL LIKE on text (see [`like`](super::like)).
    Like(String),
    /// Its negation (a null value stays unknown).
    NotLike(String),
}

/// A test of one leaf column. `negated` is set only for leaves under a repeated field,
/// whose negation does not distribute into the test.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Leaf {
    pub column: usize,
    pub kind: Kind,
    pub test: Test,
    pub negated: bool,
}

/// A predicate in negation normal form over resolved leaves.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Bound {
    Leaf(Leaf),
    /// Two columns of the same rows compared.
    Pair(Pair),
    /// The same truth value (`eval::TRUE`, `FALSE` or `UNKNOWN`) for every row.
    Const(u8),
    And(Vec<Bound>),
    Or(Vec<Bound>),
}

impl Bound {
    /// The leaf columns read, in first-use order.
    pub fn columns(&self) -> Vec<usize> {
        let mut out = Vec::new();
        self.visit(&mut |c| {
            if !out.contains(&c) {
                out.push(c);
            }
        });
        out
    }

    fn visit(&self, f: &mut impl FnMut(usize)) {
        match self {
            Bound::Leaf(l) => {
                f(l.column);
                // A VARIANT path reads the `metadata` leaf beside `value`.
                if let Test::VariantPath(v) = &l.test {
                    v.other_columns().into_iter().for_each(&mut *f);
                }
            }
            Bound::Pair(p) => {
                f(p.left);
                f(p.right);
            }
            Bound::Const(_) => {}
            Bound::And(v) | Bound::Or(v) => v.iter().for_each(|b| b.visit(f)),
        }
    }

    /// The leaf columns of point lookups (`eq`, `in_list`, not negated): those whose
    /// Bloom filters and dictionaries can rule a row group out.
    #[cfg(any(feature = "object_store", feature = "tokio"))]
    pub fn lookup_columns(&self) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(&mut |l| {
            let lookup = matches!(l.test, Test::Cmp(CmpOp::Eq, _) | Test::In(_)) && !l.negated;
            if lookup && !out.contains(&l.column) {
                out.push(l.column);
            }
        });
        out
    }

    #[cfg(any(feature = "object_store", feature = "tokio"))]
    pub fn leaves<'a>(&'a self, f: &mut impl FnMut(&'a Leaf)) {
        match self {
            Bound::Leaf(l) => f(l),
            Bound::Pair(_) | Bound::Const(_) => {}
            Bound::And(v) | Bound::Or(v) => v.iter().for_each(|b| b.leaves(f)),
        }
    }
}

/// Resolves `predicate` against `schema`.
pub(crate) fn bind(predicate: &Predicate, schema: &Schema) -> Result<Bound> {
    bind_inner(predicate, schema, false)
}

/// The leaf at `path`; a shredded VARIANT field or value (a group holding a `typed_value`
/// leaf, as [`Column::field`](super::Column::field) names it) stands for its `typed_value`.
fn resolve<'s>(schema: &'s Schema, path: &str) -> Result<(usize, &'s ColumnDescriptor)> {
    let found = schema
        .column_index(path)
        .or_else(|| schema.column_index(&format!("{path}.typed_value")));
    let i = found.ok_or_else(|| {
        let leaves: Vec<String> = schema
            .columns()
            .iter()
            .map(|c| c.path.to_string())
            .filter(|p| p.starts_with(path))
            .take(5)
            .collect();
        let hint = if leaves.is_empty() {
            String::new()
        } else {
            format!(" (leaves under it: {})", leaves.join(", "))
        };
        Error::invalid_argument(format!("no leaf column {path:?} in the schema{hint}"))
    })?;
    Ok((i, &schema.columns()[i]))
}

/// `left op right` over two non-repeated columns whose values compare.
fn bind_pair(schema: &Schema, left: &str, op: CmpOp, right: &str) -> Result<Pair> {
    let (l, ld) = resolve(schema, left)?;
    let (r, rd) = resolve(schema, right)?;
    for (path, d) in [(left, ld), (right, rd)] {
        if d.max_rep_level > 0 {
            return Err(Error::invalid_argument(format!(
                "column {path:?} is under a repeated field: it compares only with literals"
            )));
        }
    }
    match (reading(ld), reading(rd)) {
        (Some(a), Some(b)) if a.compares_with(b) => Ok(Pair {
            left: l,
            right: r,
            op,
            left_reading: a,
            right_reading: b,
        }),
        _ => Err(Error::invalid_argument(format!(
            "column {left:?} holds {} and column {right:?} holds {}: they do not compare",
            describe(ld),
            describe(rd)
        ))),
    }
}

fn negate_op(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
        CmpOp::Ge => CmpOp::Lt,
    }
}

fn bind_inner(p: &Predicate, schema: &Schema, negate: bool) -> Result<Bound> {
    let leaf = |path: &str, test: Test| -> Result<Bound> {
        let is_leaf = |p: &str| schema.column_index(p).is_some();
        if !is_leaf(path) && !is_leaf(&format!("{path}.typed_value")) {
            if let Some(bound) = variant_path::bind(schema, path, test.clone(), negate) {
                return bound;
            }
        }
        let (column, d) = resolve(schema, path)?;
        let kind = Kind::of(d);
        let domain = Domain::of(d, kind);
        let geo = matches!(
            d.logical_type,
            Some(LogicalType::Geometry { .. } | LogicalType::Geography { .. })
        ) && d.physical_type == Type::ByteArray;
        if matches!(test, Test::IntersectsBbox(_)) && !geo {
            return Err(Error::invalid_argument(format!(
                "intersects_bbox needs a GEOMETRY or GEOGRAPHY column; {path:?} is not one"
            )));
        }
        if matches!(test, Test::Like(_)) && domain != Domain::Bytes {
            return Err(Error::invalid_argument(format!(
                "like needs a text column; {path:?} holds {}",
                describe(d)
            )));
        }
        let test = coerce_test(test, domain, d, path)?;
        if !negate {
            return Ok(Bound::Leaf(Leaf {
                column,
                kind,
                test,
                negated: false,
            }));
        }
        if d.max_rep_level > 0 || matches!(test, Test::IntersectsBbox(_)) {
            // "not any value matches" is no test of single values; a box test has no
            // complement test (a value outside the box may still be null or empty).
            return Ok(Bound::Leaf(Leaf {
                column,
                kind,
                test,
                negated: true,
            }));
        }
        let mk = |test| {
            Bound::Leaf(Leaf {
                column,
                kind,
                test,
                negated: false,
            })
        };
        Ok(match test {
            Test::Cmp(op, v) => mk(Test::Cmp(negate_op(op), v)),
            Test::Between(a, b) => Bound::Or(vec![
                mk(Test::Cmp(CmpOp::Lt, a)),
                mk(Test::Cmp(CmpOp::Gt, b)),
            ]),
            Test::In(v) => mk(Test::NotIn(v)),
            Test::NotIn(v) => mk(Test::In(v)),
            Test::IsNull => mk(Test::IsNotNull),
            Test::IsNotNull => mk(Test::IsNull),
            Test::Like(p) => mk(Test::NotLike(p)),
            Test::NotLike(p) => mk(Test::Like(p)),
            // Bound by `variant_path` before this.
            Test::VariantPath(v) => Bound::Leaf(Leaf {
                column,
                kind,
                test: Test::VariantPath(v),
                negated: true,
            }),
            // Taken care of above.
            Test::IntersectsBbox(b) => Bound::Leaf(Leaf {
                column,
                kind,
                test: Test::IntersectsBbox(b),
                negated: true,
            }),
        })
    };
    match p {
        Predicate::Compare { column, op, value } => leaf(column, Test::Cmp(*op, value.clone())),
        Predicate::Between { column, low, high } => {
            leaf(column, Test::Between(low.clone(), high.clone()))
        }
        Predicate::InList { column, values } => leaf(column, Test::In(values.clone())),
        Predicate::IsNull { column } => leaf(column, Test::IsNull),
        Predicate::IsNotNull { column } => leaf(column, Test::IsNotNull),
        Predicate::IntersectsBbox { column, bbox } => leaf(column, Test::IntersectsBbox(*bbox)),
        Predicate::Like { column, pattern } => leaf(column, Test::Like(pattern.clone())),
        Predicate::CompareColumns { left, op, right } => {
            let op = if negate { negate_op(*op) } else { *op };
            bind_pair(schema, left, op, right).map(Bound::Pair)
        }
        // Unknown, and so is its negation.
        Predicate::Unknown => Ok(Bound::Const(UNKNOWN)),
        Predicate::And(a, b) | Predicate::Or(a, b) => {
            let parts = vec![
                bind_inner(a, schema, negate)?,
                bind_inner(b, schema, negate)?,
            ];
            // De Morgan: a negated AND is an OR of negations, and the other way round.
            let is_and = matches!(p, Predicate::And(..)) != negate;
            let mut flat = Vec::new();
            for part in parts {
                match part {
                    Bound::And(v) if is_and => flat.extend(v),
                    Bound::Or(v) if !is_and => flat.extend(v),
                    other => flat.push(other),
                }
            }
            Ok(if is_and {
                Bound::And(flat)
            } else {
                Bound::Or(flat)
            })
        }
        Predicate::Not(inner) => bind_inner(inner, schema, !negate),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter::{col, not};

    fn schema() -> Schema {
        "message m {
          required int64 ts; optional binary level (STRING); optional double x;
          required int32 u (INTEGER(32,false)); optional fixed_len_byte_array(4) d (DECIMAL(9,2));
          optional int96 old;
          optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
        }"
        .parse()
        .unwrap()
    }

    fn leaf(column: usize, kind: Kind, test: Test, negated: bool) -> Bound {
        Bound::Leaf(Leaf {
            column,
            kind,
            test,
            negated,
        })
    }

    #[test]
    fn binds_and_pushes_negations() {
        let s = schema();
        let b = bind(&not(col("ts").lt(5).and(col("level").eq("A"))), &s).unwrap();
        let int = Kind::Int { unsigned: false };
        assert_eq!(
            b,
            Bound::Or(vec![
                leaf(0, int, Test::Cmp(CmpOp::Ge, Scalar::Int(5)), false),
                leaf(
                    1,
                    Kind::Bytes,
                    Test::Cmp(CmpOp::Ne, Scalar::from("A")),
                    false
                ),
            ])
        );
        let b = bind(&not(col("x").between(1, 2.5)), &s).unwrap();
        assert_eq!(
            b,
            Bound::Or(vec![
                leaf(
                    2,
                    Kind::Float,
                    Test::Cmp(CmpOp::Lt, Scalar::Float(1.0)),
                    false
                ),
                leaf(
                    2,
                    Kind::Float,
                    Test::Cmp(CmpOp::Gt, Scalar::Float(2.5)),
                    false
                ),
            ])
        );
        let b = bind(&not(not(col("u").is_null())), &s).unwrap();
        assert_eq!(
            b,
            leaf(3, Kind::Int { unsigned: true }, Test::IsNull, false)
        );
        let b = bind(&!col("tags.list.element").eq("x"), &s).unwrap();
        assert_eq!(
            b,
            leaf(
                6,
                Kind::Bytes,
                Test::Cmp(CmpOp::Eq, Scalar::from("x")),
                true
            )
        );
        let b = bind(&(col("ts").eq(1) & col("ts").eq(2) & col("ts").eq(3)), &s).unwrap();
        assert!(matches!(b, Bound::And(v) if v.len() == 3));
        assert_eq!(bind(&col("d").eq(-5), &s).unwrap().columns(), vec![4]);
    }

    #[test]
    fn text_literals_of_dates_times_and_timestamps() {
        let s: Schema = "message m {
          required int64 ts (TIMESTAMP(MICROS,true)); required int32 d (DATE);
          required int64 t (TIME(NANOS,false)); required int64 plain;
        }"
        .parse()
        .unwrap();
        let int = Kind::Int { unsigned: false };
        let cmp = |c, op, v: i128| leaf(c, int, Test::Cmp(op, Scalar::Int(v)), false);
        let b = bind(&col("ts").ge("2026-11-24T13:00:00Z"), &s).unwrap();
        assert_eq!(b, cmp(0, CmpOp::Ge, 1_795_525_200_000_000));
        let b = bind(&col("ts").lt("2026-11-24 14:00:00+01:00"), &s).unwrap();
        assert_eq!(b, cmp(0, CmpOp::Lt, 1_795_525_200_000_000));
        let b = bind(&col("d").eq("2026-11-24"), &s).unwrap();
        assert_eq!(b, cmp(1, CmpOp::Eq, 20_781));
        let b = bind(&col("t").eq("00:00:01.5"), &s).unwrap();
        assert_eq!(b, cmp(2, CmpOp::Eq, 1_500_000_000));
        // Numbers still compare with the raw integer.
        assert_eq!(bind(&col("ts").eq(5), &s).unwrap(), cmp(0, CmpOp::Eq, 5));
        let e = bind(&col("ts").ge("yesterday"), &s).unwrap_err();
        assert!(e.message().contains("'YYYY-MM-DD[THH:MM"), "{e}");
        assert!(
            e.message().contains("TIMESTAMP(MICROS, adjusted to UTC)"),
            "{e}"
        );
        assert!(bind(&col("plain").eq("2026-11-24"), &s).is_err());
    }

    #[test]
    fn rejects_bad_columns_and_literals() {
        let s = schema();
        let e = bind(&col("tags").eq(1), &s).unwrap_err();
        assert!(e.message().contains("tags.list.element"), "{e}");
        assert!(bind(&col("nope").is_null(), &s).is_err());
        assert!(bind(&col("ts").eq("x"), &s).is_err());
        // A fraction on an integer column: no integer equals it.
        assert_eq!(
            bind(&col("ts").eq(1.5), &s).unwrap(),
            leaf(0, Kind::Int { unsigned: false }, Test::In(vec![]), false)
        );
        assert!(bind(&col("level").eq(1), &s).is_err());
        assert!(bind(&col("old").eq(1), &s).is_err());
        assert!(bind(&col("old").is_null(), &s).is_ok());
        assert!(bind(&col("x").in_list([1, 2]), &s).is_ok());
    }
}
