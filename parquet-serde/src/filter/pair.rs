//! Column against column (`a < b`): both columns of a row read into comparable cells,
//! numbers by exact value (DECIMAL scales aligned; against a float, as `f64`, as DuckDB
//! casts), instants in nanoseconds, text by bytes.

use std::cmp::Ordering;

use crate::core::column::statistics::{compare_f64, f16_to_f64};
use crate::core::column::{ColumnBatch, Scalar};
use crate::core::values::numeric::int96_nanos;
use crate::core::values::text::decimal_f64;
use crate::core::values::ColumnValues;
use crate::error::{Error, Result};

use super::eval::{FALSE, TRUE, UNKNOWN};
use super::predicate::CmpOp;

/// How a column's values are read for a comparison with another column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// Stored integers (`unsigned`: INT32/INT64 read as unsigned) meaning `u × 10^-scale`;
    /// DECIMAL byte arrays too.
    Number { scale: u32, unsigned: bool },
    /// FLOAT, DOUBLE, FLOAT16.
    Float,
    /// The stored integer times `factor` nanoseconds (INT96: its nanoseconds); `of_day`
    /// for TIME, which compares only with TIME.
    Nanos { factor: i128, of_day: bool },
    /// Byte strings in unsigned order.
    Bytes,
    /// BOOLEAN.
    Bool,
}

impl Reading {
    /// Whether values read so compare with values read as `other`.
    pub fn compares_with(self, other: Reading) -> bool {
        use Reading::*;
        match (self, other) {
            (Number { .. } | Float, Number { .. } | Float) => true,
            (Nanos { of_day: a, .. }, Nanos { of_day: b, .. }) => a == b,
            (Bytes, Bytes) | (Bool, Bool) => true,
            _ => false,
        }
    }
}

/// A test of two leaf columns of the same rows (neither repeated).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pair {
    pub left: usize,
    pub right: usize,
    pub op: CmpOp,
    pub left_reading: Reading,
    pub right_reading: Reading,
}

#[derive(Debug, Clone, Copy)]
enum Cell<'a> {
    Int(i128, u32),
    Float(f64),
    Bytes(&'a [u8]),
    Bool(bool),
}

fn compare(a: Cell<'_>, b: Cell<'_>) -> Ordering {
    match (a, b) {
        (Cell::Int(x, sx), Cell::Int(y, sy)) => compare_scaled(x, sx, y, sy),
        (Cell::Int(x, s), Cell::Float(f)) => compare_f64(decimal_f64(x, s as i32), f),
        (Cell::Float(f), Cell::Int(x, s)) => compare_f64(f, decimal_f64(x, s as i32)),
        (Cell::Float(x), Cell::Float(y)) => compare_f64(x, y),
        (Cell::Bytes(x), Cell::Bytes(y)) => x.cmp(y),
        (Cell::Bool(x), Cell::Bool(y)) => x.cmp(&y),
        // Binding pairs only readings that compare.
        _ => Ordering::Equal,
    }
}

/// `x × 10^-sx` against `y × 10^-sy`, exactly.
fn compare_scaled(x: i128, sx: u32, y: i128, sy: u32) -> Ordering {
    let up = |v: i128, by: u32| 10i128.checked_pow(by).and_then(|p| v.checked_mul(p));
    let (a, b) = if sx < sy {
        (up(x, sy - sx), Some(y))
    } else {
        (Some(x), up(y, sx - sy))
    };
    match (a, b) {
        (Some(a), Some(b)) => a.cmp(&b),
        // The scaled-up side left the i128 range, so its sign decides.
        (None, _) => {
            if x > 0 {
                Ordering::Greater
            } else {
                Ordering::Less
            }
        }
        (_, None) => {
            if y > 0 {
                Ordering::Less
            } else {
                Ordering::Greater
            }
        }
    }
}

/// The non-null values of a column as cells.
fn cells<'a>(values: &'a ColumnValues, reading: Reading) -> Result<Vec<Cell<'a>>> {
    let bad = || Error::corrupt("a column's values do not fit its type for a comparison");
    Ok(match (reading, values) {
        (Reading::Number { scale, unsigned }, ColumnValues::Int32(v)) => v
            .iter()
            .map(|&x| {
                Cell::Int(
                    if unsigned {
                        x as u32 as i128
                    } else {
                        x as i128
                    },
                    scale,
                )
            })
            .collect(),
        (Reading::Number { scale, unsigned }, ColumnValues::Int64(v)) => v
            .iter()
            .map(|&x| {
                Cell::Int(
                    if unsigned {
                        x as u64 as i128
                    } else {
                        x as i128
                    },
                    scale,
                )
            })
            .collect(),
        (Reading::Number { scale, .. }, ColumnValues::ByteArray(v)) => v
            .iter()
            .map(|b| decimal(b, scale))
            .collect::<Option<_>>()
            .ok_or_else(bad)?,
        (Reading::Number { scale, .. }, ColumnValues::FixedLenByteArray(v)) => v
            .iter()
            .map(|b| decimal(b, scale))
            .collect::<Option<_>>()
            .ok_or_else(bad)?,
        (Reading::Float, ColumnValues::Float(v)) => {
            v.iter().map(|&x| Cell::Float(x as f64)).collect()
        }
        (Reading::Float, ColumnValues::Double(v)) => v.iter().map(|&x| Cell::Float(x)).collect(),
        (Reading::Float, ColumnValues::FixedLenByteArray(v)) if v.width == 2 => v
            .data
            .chunks_exact(2)
            .map(|b| Cell::Float(f16_to_f64(u16::from_le_bytes([b[0], b[1]]))))
            .collect(),
        (Reading::Nanos { factor, .. }, ColumnValues::Int32(v)) => v
            .iter()
            .map(|&x| Cell::Int(x as i128 * factor, 0))
            .collect(),
        (Reading::Nanos { factor, .. }, ColumnValues::Int64(v)) => v
            .iter()
            .map(|&x| Cell::Int(x as i128 * factor, 0))
            .collect(),
        (Reading::Nanos { .. }, ColumnValues::Int96(v)) => {
            v.iter().map(|&x| Cell::Int(int96_nanos(x), 0)).collect()
        }
        (Reading::Bytes, ColumnValues::ByteArray(v)) => v.iter().map(Cell::Bytes).collect(),
        (Reading::Bytes, ColumnValues::FixedLenByteArray(v)) => v.iter().map(Cell::Bytes).collect(),
        (Reading::Bool, ColumnValues::Boolean(v)) => v.iter().map(|&b| Cell::Bool(b)).collect(),
        _ => return Err(bad()),
    })
}

fn decimal(b: &[u8], scale: u32) -> Option<Cell<'_>> {
    match Scalar::decode(
        b,
        crate::core::format::Type::FixedLenByteArray,
        crate::core::column::SortOrder::Signed,
    )? {
        Scalar::Int(i) => Some(Cell::Int(i, scale)),
        _ => None,
    }
}

/// Per row, the non-null value (`Some(i)`: index among the values) or null.
fn slots(batch: &ColumnBatch, max_def: i16, rows: usize) -> Result<Vec<Option<usize>>> {
    if max_def == 0 {
        if batch.values.len() != rows {
            return Err(Error::corrupt(format!(
                "column holds {} values where {rows} rows were expected",
                batch.values.len()
            )));
        }
        return Ok((0..rows).map(Some).collect());
    }
    if batch.def_levels.len() != rows {
        return Err(Error::corrupt(format!(
            "column holds {} level entries where {rows} rows were expected",
            batch.def_levels.len()
        )));
    }
    let mut k = 0;
    let mut out = Vec::with_capacity(rows);
    for &d in &batch.def_levels {
        if d == max_def {
            out.push(Some(k));
            k += 1;
        } else {
            out.push(None);
        }
    }
    if k > batch.values.len() {
        return Err(Error::corrupt("fewer values than defined levels"));
    }
    Ok(out)
}

/// The truth value of `pair` for each of `rows` rows, from both columns' batches (with
/// their maximum definition levels).
pub(crate) fn eval_pair(
    pair: &Pair,
    (left, left_def): (&ColumnBatch, i16),
    (right, right_def): (&ColumnBatch, i16),
    rows: usize,
) -> Result<Vec<u8>> {
    let l = cells(&left.values, pair.left_reading)?;
    let r = cells(&right.values, pair.right_reading)?;
    let ls = slots(left, left_def, rows)?;
    let rs = slots(right, right_def, rows)?;
    Ok(ls
        .iter()
        .zip(&rs)
        .map(|(a, b)| match (a, b) {
            (Some(a), Some(b)) => {
                let o = compare(l[*a], r[*b]);
                if pair.op.holds(o) {
                    TRUE
                } else {
                    FALSE
                }
            }
            _ => UNKNOWN,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_compare_across_scales_exactly() {
        assert_eq!(compare_scaled(150, 2, 15, 1), Ordering::Equal);
        assert_eq!(compare_scaled(151, 2, 15, 1), Ordering::Greater);
        assert_eq!(compare_scaled(-1, 0, i128::MIN, 38), Ordering::Greater);
        assert_eq!(compare_scaled(i128::MAX, 0, 1, 0), Ordering::Greater);
        assert_eq!(compare_scaled(1, 0, i128::MAX, 1), Ordering::Less);
        assert_eq!(compare_scaled(2, 0, i128::MAX, 38), Ordering::Greater);
        assert_eq!(decimal_f64(-5, 3), -0.005);
        assert_eq!(decimal_f64(12345, 2), 123.45);
        assert_eq!(compare(Cell::Int(1, 1), Cell::Float(0.1)), Ordering::Equal);
        assert_eq!(
            compare(Cell::Float(f64::NAN), Cell::Int(1, 0)),
            Ordering::Greater
        );
    }

    #[test]
    fn rows_with_nulls_are_unknown() {
        let pair = Pair {
            left: 0,
            right: 1,
            op: CmpOp::Lt,
            left_reading: Reading::Number {
                scale: 0,
                unsigned: false,
            },
            right_reading: Reading::Float,
        };
        let a = ColumnBatch {
            values: ColumnValues::Int32(vec![1, 5]),
            def_levels: vec![1, 0, 1],
            rep_levels: vec![],
        };
        let b = ColumnBatch {
            values: ColumnValues::Double(vec![2.0, 3.0, 4.0]),
            def_levels: vec![],
            rep_levels: vec![],
        };
        assert_eq!(
            eval_pair(&pair, (&a, 1), (&b, 0), 3).unwrap(),
            [TRUE, UNKNOWN, FALSE]
        );
        assert!(eval_pair(&pair, (&a, 1), (&b, 0), 4).is_err());
    }
}
