//! Exact evaluation: a bound predicate over decoded column values, row by row, in
//! three-valued logic.

use std::cmp::Ordering;

use crate::core::column::statistics::{compare_decimal_bytes, compare_f64, f16_to_f64};
use crate::core::column::{ColumnBatch, Scalar};
use crate::core::geo::wkb::scan_with;
use crate::core::geo::{bbox_intersects, Bounds};
use crate::core::values::numeric::int96_nanos;
use crate::core::values::ColumnValues;
use crate::error::{Error, Result};

use super::bind::{Bound, Kind, Leaf, Test};
use super::like::like;
use super::pair::Pair;
use super::predicate::CmpOp;

/// Three-valued logic values: AND is the minimum, OR the maximum, NOT `TRUE - x`.
pub(crate) const FALSE: u8 = 0;
pub(crate) const UNKNOWN: u8 = 1;
pub(crate) const TRUE: u8 = 2;

/// A test with its literals in the value type `T`.
enum Typed<T> {
    Cmp(CmpOp, T),
    Between(T, T),
    /// Sorted by the column's comparison.
    In(Vec<T>),
    NotIn(Vec<T>),
    Const(bool),
}

fn typed<'t, T: Copy>(
    test: &'t Test,
    conv: impl Fn(&'t Scalar) -> Option<T>,
    cmp: impl Fn(T, T) -> Ordering,
) -> Typed<T> {
    let list = |v: &'t [Scalar]| {
        let mut out: Vec<T> = v.iter().filter_map(&conv).collect();
        out.sort_by(|a, b| cmp(*a, *b));
        out
    };
    match test {
        Test::Cmp(op, v) => match conv(v) {
            Some(x) => Typed::Cmp(*op, x),
            None => Typed::Const(*op == CmpOp::Ne),
        },
        Test::Between(a, b) => match (conv(a), conv(b)) {
            (Some(a), Some(b)) => Typed::Between(a, b),
            _ => Typed::Const(false),
        },
        Test::In(v) => Typed::In(list(v)),
        Test::NotIn(v) => Typed::NotIn(list(v)),
        Test::IsNull => Typed::Const(false),
        Test::IsNotNull => Typed::Const(true),
        // Only GEOMETRY / GEOGRAPHY byte arrays are bound to it, and text columns to LIKE,
        // both answered before this.
        Test::IntersectsBbox(_) | Test::Like(_) | Test::NotLike(_) => Typed::Const(false),
        // Decoded row by row in `variant_path`, never through column values.
        Test::VariantPath(_) => Typed::Const(false),
    }
}

fn run<T: Copy>(
    values: impl Iterator<Item = T>,
    t: &Typed<T>,
    cmp: impl Fn(T, T) -> Ordering,
    out: &mut Vec<bool>,
) {
    match t {
        Typed::Const(c) => out.extend(values.map(|_| *c)),
        Typed::Cmp(op, lit) => {
            let lit = *lit;
            match op {
                CmpOp::Eq => out.extend(values.map(|v| cmp(v, lit) == Ordering::Equal)),
                CmpOp::Ne => out.extend(values.map(|v| cmp(v, lit) != Ordering::Equal)),
                CmpOp::Lt => out.extend(values.map(|v| cmp(v, lit) == Ordering::Less)),
                CmpOp::Le => out.extend(values.map(|v| cmp(v, lit) != Ordering::Greater)),
                CmpOp::Gt => out.extend(values.map(|v| cmp(v, lit) == Ordering::Greater)),
                CmpOp::Ge => out.extend(values.map(|v| cmp(v, lit) != Ordering::Less)),
            }
        }
        Typed::Between(lo, hi) => out.extend(
            values.map(|v| cmp(v, *lo) != Ordering::Less && cmp(v, *hi) != Ordering::Greater),
        ),
        Typed::In(list) => {
            out.extend(values.map(|v| list.binary_search_by(|x| cmp(*x, v)).is_ok()))
        }
        Typed::NotIn(list) => {
            out.extend(values.map(|v| list.binary_search_by(|x| cmp(*x, v)).is_err()))
        }
    }
}

/// Appends, for every value of `values`, whether it passes `test` (a column of `kind`).
pub(crate) fn test_values(test: &Test, kind: Kind, values: &ColumnValues, out: &mut Vec<bool>) {
    let int = |s: &Scalar| match s {
        Scalar::Int(i) => Some(*i),
        _ => None,
    };
    let float = |s: &Scalar| s.as_f64();
    let icmp = |a: i128, b: i128| a.cmp(&b);
    if let (Test::IntersectsBbox(q), ColumnValues::ByteArray(v)) = (test, values) {
        out.extend(v.iter().map(|wkb| value_intersects(wkb, *q)));
        return;
    }
    if let Test::Like(p) | Test::NotLike(p) = test {
        let want = matches!(test, Test::Like(_));
        match values {
            ColumnValues::ByteArray(v) => out.extend(v.iter().map(|b| like(b, p) == want)),
            ColumnValues::FixedLenByteArray(v) => out.extend(v.iter().map(|b| like(b, p) == want)),
            _ => out.extend(std::iter::repeat_n(false, values.len())),
        }
        return;
    }
    match (kind, values) {
        (Kind::Bool, ColumnValues::Boolean(v)) => {
            let t = typed(test, Scalar::as_bool, |a: bool, b: bool| a.cmp(&b));
            run(v.iter().copied(), &t, |a, b| a.cmp(&b), out);
        }
        (Kind::Int { unsigned }, ColumnValues::Int32(v)) => {
            let t = typed(test, int, icmp);
            if unsigned {
                run(v.iter().map(|&x| x as u32 as i128), &t, icmp, out);
            } else {
                run(v.iter().map(|&x| x as i128), &t, icmp, out);
            }
        }
        (Kind::Int { unsigned }, ColumnValues::Int64(v)) => {
            let t = typed(test, int, icmp);
            if unsigned {
                run(v.iter().map(|&x| x as u64 as i128), &t, icmp, out);
            } else {
                run(v.iter().map(|&x| x as i128), &t, icmp, out);
            }
        }
        (Kind::Int96, ColumnValues::Int96(v)) => {
            let t = typed(test, int, icmp);
            run(v.iter().map(|x| int96_nanos(*x)), &t, icmp, out);
        }
        (Kind::Float, ColumnValues::Float(v)) => {
            let t = typed(test, float, compare_f64);
            run(v.iter().map(|&x| x as f64), &t, compare_f64, out);
        }
        (Kind::Float, ColumnValues::Double(v)) => {
            let t = typed(test, float, compare_f64);
            run(v.iter().copied(), &t, compare_f64, out);
        }
        (Kind::Float16, ColumnValues::FixedLenByteArray(v)) if v.width == 2 => {
            let t = typed(test, float, compare_f64);
            let it = v
                .data
                .chunks_exact(2)
                .map(|b| f16_to_f64(u16::from_le_bytes([b[0], b[1]])));
            run(it, &t, compare_f64, out);
        }
        (Kind::DecimalBytes, ColumnValues::ByteArray(_) | ColumnValues::FixedLenByteArray(_)) => {
            // Literals as 16-byte big-endian two's complement; values of any width.
            let lits: Vec<[u8; 16]> = literals(test)
                .iter()
                .map(|s| int(s).unwrap_or(0).to_be_bytes())
                .collect();
            let conv = |s: &Scalar| {
                let i = int(s)?;
                lits.iter().find(|l| **l == i.to_be_bytes()).map(|l| &l[..])
            };
            let t = typed(test, conv, compare_decimal_bytes);
            match values {
                ColumnValues::ByteArray(v) => run(v.iter(), &t, compare_decimal_bytes, out),
                ColumnValues::FixedLenByteArray(v) => run(v.iter(), &t, compare_decimal_bytes, out),
                _ => {}
            }
        }
        (Kind::Bytes, ColumnValues::ByteArray(v)) => {
            let t = typed(test, Scalar::as_bytes, |a: &[u8], b: &[u8]| a.cmp(b));
            run(v.iter(), &t, |a, b| a.cmp(b), out);
        }
        (Kind::Bytes, ColumnValues::FixedLenByteArray(v)) => {
            let t = typed(test, Scalar::as_bytes, |a: &[u8], b: &[u8]| a.cmp(b));
            run(v.iter(), &t, |a, b| a.cmp(b), out);
        }
        // Unordered columns allow only null tests; other mismatches cannot be bound.
        _ => {
            let c = matches!(test, Test::IsNotNull);
            out.extend(std::iter::repeat_n(c, values.len()));
        }
    }
}

/// Whether the box of one WKB value meets the query box; an empty or invalid value does not.
fn value_intersects(wkb: &[u8], [xmin, ymin, xmax, ymax]: [f64; 4]) -> bool {
    let mut bounds = Bounds::default();
    if scan_with(wkb, |c| bounds.add(c)).is_err() {
        return false;
    }
    bounds
        .to_bounding_box()
        .is_some_and(|b| bbox_intersects(&b, xmin, ymin, xmax, ymax))
}

pub(crate) fn literals(test: &Test) -> Vec<&Scalar> {
    match test {
        Test::Cmp(_, v) => vec![v],
        Test::Between(a, b) => vec![a, b],
        Test::In(v) | Test::NotIn(v) => v.iter().collect(),
        Test::IsNull
        | Test::IsNotNull
        | Test::IntersectsBbox(_)
        | Test::Like(_)
        | Test::NotLike(_)
        | Test::VariantPath(_) => vec![],
    }
}

/// The truth value of `leaf` for each of the `rows` rows of `batch` (a decoded column
/// with levels up to `max_def`/`max_rep`).
pub(crate) fn eval_leaf(
    leaf: &Leaf,
    batch: &ColumnBatch,
    max_def: i16,
    max_rep: i16,
    rows: usize,
) -> Result<Vec<u8>> {
    let mut passed = Vec::with_capacity(batch.values.len());
    test_values(&leaf.test, leaf.kind, &batch.values, &mut passed);
    let (null_result, _) = match leaf.test {
        Test::IsNull => (TRUE, ()),
        Test::IsNotNull => (FALSE, ()),
        _ => (UNKNOWN, ()),
    };
    let slot = |v: bool| if v { TRUE } else { FALSE };
    let n = batch.num_levels();
    // `rows` comes from the footer: each row starts at a level entry of the decoded
    // column, so more rows than entries is corrupt, found before any room is reserved.
    if rows > n || max_rep == 0 && n != rows {
        return Err(Error::corrupt(format!(
            "column holds {n} level entries where {rows} rows were expected"
        )));
    }
    let mut out = Vec::with_capacity(rows);
    if max_rep == 0 {
        if max_def == 0 {
            out.extend(passed.iter().map(|&v| slot(v)));
        } else {
            let mut k = 0;
            for &d in &batch.def_levels {
                if d == max_def {
                    // One value per slot at the maximum level: k < passed.len().
                    out.push(slot(passed.get(k).copied().unwrap_or(false)));
                    k += 1;
                } else {
                    out.push(null_result);
                }
            }
        }
    } else {
        let mut k = 0;
        for (i, &r) in batch.rep_levels.iter().enumerate() {
            let d = batch.def_levels.get(i).copied().unwrap_or(max_def);
            let v = if d == max_def {
                k += 1;
                slot(passed.get(k - 1).copied().unwrap_or(false))
            } else {
                null_result
            };
            if r == 0 {
                out.push(v);
            } else if let Some(last) = out.last_mut() {
                *last = (*last).max(v);
            }
        }
        if out.len() != rows {
            return Err(Error::corrupt(format!(
                "column holds {} rows where {rows} were expected",
                out.len()
            )));
        }
    }
    if leaf.negated {
        out.iter_mut().for_each(|x| *x = TRUE - *x);
    }
    Ok(out)
}

/// Combines the results of `rows` rows: of leaves (by leaf order of `bound`, as
/// `leaf_results` yields them), of column pairs (`pair_results`) and constants.
pub(crate) fn combine(
    bound: &Bound,
    rows: usize,
    leaf_results: &mut impl FnMut(&Leaf) -> Result<Vec<u8>>,
    pair_results: &mut impl FnMut(&Pair) -> Result<Vec<u8>>,
) -> Result<Vec<u8>> {
    match bound {
        Bound::Leaf(l) => leaf_results(l),
        Bound::Pair(p) => pair_results(p),
        Bound::Const(c) => Ok(vec![*c; rows]),
        Bound::And(parts) | Bound::Or(parts) => {
            let and = matches!(bound, Bound::And(_));
            let mut acc: Option<Vec<u8>> = None;
            for p in parts {
                let r = combine(p, rows, leaf_results, pair_results)?;
                acc = Some(match acc {
                    None => r,
                    Some(mut a) => {
                        for (x, y) in a.iter_mut().zip(r) {
                            *x = if and { (*x).min(y) } else { (*x).max(y) };
                        }
                        a
                    }
                });
            }
            Ok(acc.unwrap_or_default())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::values::{ByteArrays, FixedLenByteArrays};

    fn t(test: Test, kind: Kind, v: &ColumnValues) -> Vec<bool> {
        let mut out = Vec::new();
        test_values(&test, kind, v, &mut out);
        out
    }

    #[test]
    fn integer_tests() {
        let v = ColumnValues::Int32(vec![-1, 0, 5, i32::MAX]);
        let s = Kind::Int { unsigned: false };
        assert_eq!(
            t(Test::Cmp(CmpOp::Lt, Scalar::Int(0)), s, &v),
            [true, false, false, false]
        );
        assert_eq!(
            t(Test::Cmp(CmpOp::Le, Scalar::Int(1 << 40)), s, &v),
            [true; 4]
        );
        let u = Kind::Int { unsigned: true };
        assert_eq!(
            t(Test::Cmp(CmpOp::Gt, Scalar::Int(5)), u, &v),
            [true, false, false, true]
        );
        assert_eq!(
            t(
                Test::In(vec![Scalar::Int(5), Scalar::Int(-1), Scalar::Int(9)]),
                s,
                &v
            ),
            [true, false, true, false]
        );
        assert_eq!(
            t(Test::NotIn(vec![Scalar::Int(5)]), s, &v),
            [true, true, false, true]
        );
        assert_eq!(
            t(Test::Between(Scalar::Int(0), Scalar::Int(5)), s, &v),
            [false, true, true, false]
        );
        let w = ColumnValues::Int64(vec![-1]);
        assert_eq!(
            t(Test::Cmp(CmpOp::Eq, Scalar::Int(u64::MAX as i128)), u, &w),
            [true]
        );
    }

    #[test]
    fn float_tests_order_nan_last() {
        let v = ColumnValues::Double(vec![f64::NAN, -0.0, 1.5]);
        let f = Kind::Float;
        assert_eq!(
            t(Test::Cmp(CmpOp::Eq, Scalar::Float(0.0)), f, &v),
            [false, true, false]
        );
        assert_eq!(
            t(Test::Cmp(CmpOp::Gt, Scalar::Float(1.0)), f, &v),
            [true, false, true]
        );
        assert_eq!(
            t(Test::Cmp(CmpOp::Eq, Scalar::Float(f64::NAN)), f, &v),
            [true, false, false]
        );
        assert_eq!(
            t(Test::Cmp(CmpOp::Ne, Scalar::Float(f64::NAN)), f, &v),
            [false, true, true]
        );
        let mut h = FixedLenByteArrays::new(2);
        h.push(&0x3c00u16.to_le_bytes());
        h.push(&0xc000u16.to_le_bytes());
        let h = ColumnValues::FixedLenByteArray(h);
        assert_eq!(
            t(Test::Cmp(CmpOp::Lt, Scalar::Float(0.0)), Kind::Float16, &h),
            [false, true]
        );
    }

    #[test]
    fn bytes_and_decimals() {
        let mut b = ByteArrays::new();
        for s in ["ERROR", "INFO", "", "WARN"] {
            b.push(s.as_bytes());
        }
        let b = ColumnValues::ByteArray(b);
        assert_eq!(
            t(Test::Cmp(CmpOp::Eq, Scalar::from("ERROR")), Kind::Bytes, &b),
            [true, false, false, false]
        );
        assert_eq!(
            t(
                Test::In(vec![Scalar::from("WARN"), Scalar::from("")]),
                Kind::Bytes,
                &b
            ),
            [false, false, true, true]
        );
        let mut d = FixedLenByteArrays::new(2);
        for x in [-300i16, 5, 200] {
            d.push(&x.to_be_bytes());
        }
        let d = ColumnValues::FixedLenByteArray(d);
        assert_eq!(
            t(Test::Cmp(CmpOp::Lt, Scalar::Int(5)), Kind::DecimalBytes, &d),
            [true, false, false]
        );
        assert_eq!(
            t(
                Test::In(vec![Scalar::Int(200), Scalar::Int(-300)]),
                Kind::DecimalBytes,
                &d
            ),
            [true, false, true]
        );
    }

    #[test]
    fn rows_in_three_valued_logic() {
        let leaf = |test, negated| Leaf {
            column: 0,
            kind: Kind::Int { unsigned: false },
            test,
            negated,
        };
        // Flat optional: [1, null, 3]
        let b = ColumnBatch {
            values: ColumnValues::Int32(vec![1, 3]),
            def_levels: vec![1, 0, 1],
            rep_levels: vec![],
        };
        let eq3 = leaf(Test::Cmp(CmpOp::Eq, Scalar::Int(3)), false);
        assert_eq!(
            eval_leaf(&eq3, &b, 1, 0, 3).unwrap(),
            [FALSE, UNKNOWN, TRUE]
        );
        assert_eq!(
            eval_leaf(&leaf(Test::IsNull, false), &b, 1, 0, 3).unwrap(),
            [FALSE, TRUE, FALSE]
        );
        assert!(eval_leaf(&eq3, &b, 1, 0, 4).is_err());
        // Lists: [1, 3], [], [null, 2], null
        let l = ColumnBatch {
            values: ColumnValues::Int32(vec![1, 3, 2]),
            def_levels: vec![3, 3, 1, 2, 3, 0],
            rep_levels: vec![0, 1, 0, 0, 1, 0],
        };
        assert_eq!(
            eval_leaf(&eq3, &l, 3, 1, 4).unwrap(),
            [TRUE, UNKNOWN, UNKNOWN, UNKNOWN]
        );
        let gt1 = leaf(Test::Cmp(CmpOp::Gt, Scalar::Int(1)), false);
        assert_eq!(
            eval_leaf(&gt1, &l, 3, 1, 4).unwrap(),
            [TRUE, UNKNOWN, TRUE, UNKNOWN]
        );
        let not_gt1 = leaf(Test::Cmp(CmpOp::Gt, Scalar::Int(1)), true);
        assert_eq!(
            eval_leaf(&not_gt1, &l, 3, 1, 4).unwrap(),
            [FALSE, UNKNOWN, FALSE, UNKNOWN]
        );
        assert_eq!(
            eval_leaf(&leaf(Test::IsNull, false), &l, 3, 1, 4).unwrap(),
            [FALSE, TRUE, TRUE, TRUE]
        );
        // Kleene AND / OR.
        let tree = Bound::Or(vec![
            Bound::Leaf(eq3.clone()),
            Bound::Leaf(leaf(Test::IsNull, false)),
        ]);
        let r = combine(
            &tree,
            3,
            &mut |l| eval_leaf(l, &b, 1, 0, 3),
            &mut |_| unreachable!(),
        )
        .unwrap();
        assert_eq!(r, [FALSE, TRUE, TRUE]);
        let tree = Bound::And(vec![
            Bound::Leaf(eq3),
            Bound::Leaf(leaf(Test::IsNull, false)),
        ]);
        let r = combine(
            &tree,
            3,
            &mut |l| eval_leaf(l, &b, 1, 0, 3),
            &mut |_| unreachable!(),
        )
        .unwrap();
        assert_eq!(r, [FALSE, UNKNOWN, FALSE]);
    }
}
