//! Exact literals in a column's integer domain: a number (or instant) `v` against a column
//! whose stored integer `u` means `u × 10^-scale` (DECIMAL unscaled values, integers with
//! scale 0, timestamps in their unit). Where `v × 10^scale` is not an integer, or lies
//! beyond every `i128`, a test is rewritten into an equivalent one on integers (`u > 1.005`
//! at scale 2 is `u > 100`), so that statistics, page index, dictionaries and Bloom filters
//! keep comparing in the column's own domain, and no float is on the way.

use crate::core::column::{Decimal, Scalar};

use super::bind::Test;
use super::predicate::CmpOp;

/// Where `v × 10^scale` lies among the integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scaled {
    /// Exactly this integer.
    Exact(i128),
    /// Strictly between this integer and the next (which is an `i128` too).
    Between(i128),
    /// Above every `i128`.
    Above,
    /// Below every `i128`.
    Below,
}

/// `d × 10^scale` among the integers.
pub(crate) fn scale_decimal(d: &Decimal, scale: u32) -> Scaled {
    let digits = d.digits();
    let k = d.scale();
    if digits.bytes().all(|b| b == b'0') {
        return Scaled::Exact(0);
    }
    let (int, rest): (String, &str) = if scale >= k {
        let zeros = (scale - k) as usize;
        if digits.trim_start_matches('0').len() + zeros > 40 {
            return if d.is_negative() {
                Scaled::Below
            } else {
                Scaled::Above
            };
        }
        (format!("{digits}{}", "0".repeat(zeros)), "")
    } else {
        let cut = ((k - scale) as usize).min(digits.len());
        let (i, r) = digits.split_at(digits.len() - cut);
        (i.to_string(), r)
    };
    let inexact = rest.bytes().any(|b| b != b'0');
    let int = int.trim_start_matches('0');
    let magnitude = if int.is_empty() {
        Some(0u128)
    } else if int.len() > 39 {
        None
    } else {
        int.parse::<u128>().ok()
    };
    let negative = d.is_negative();
    let Some(m) = magnitude else {
        return if negative {
            Scaled::Below
        } else {
            Scaled::Above
        };
    };
    if negative {
        // -m, and with a fraction the floor is -m - 1.
        let floor = if inexact { m.checked_add(1) } else { Some(m) };
        match floor {
            Some(f) if f <= i128::MIN.unsigned_abs() => {
                let v = 0i128.wrapping_sub_unsigned(f);
                if inexact {
                    Scaled::Between(v)
                } else {
                    Scaled::Exact(v)
                }
            }
            _ => Scaled::Below,
        }
    } else {
        match i128::try_from(m) {
            Ok(v) if !inexact => Scaled::Exact(v),
            Ok(v) if v < i128::MAX => Scaled::Between(v),
            _ => Scaled::Above,
        }
    }
}

/// A numeric literal (integer, decimal or float) as `v × 10^scale`: `None` for NaN and for
/// literals that are not numbers. ±inf are beyond every integer.
pub(crate) fn scale_number(v: &Scalar, scale: u32) -> Option<Scaled> {
    match v {
        Scalar::Int(i) => Some(scale_decimal(&Decimal::from(*i), scale)),
        Scalar::Decimal(d) => Some(scale_decimal(d, scale)),
        Scalar::Float(f) if f.is_nan() => None,
        Scalar::Float(f) if f.is_infinite() => Some(if *f > 0.0 {
            Scaled::Above
        } else {
            Scaled::Below
        }),
        Scalar::Float(f) => Decimal::from_f64(*f).map(|d| scale_decimal(&d, scale)),
        _ => None,
    }
}

/// Matches no non-null value (a null stays unknown).
fn none() -> Test {
    Test::In(vec![])
}

/// Matches every non-null value.
fn all() -> Test {
    Test::NotIn(vec![])
}

/// `u op v` as an equivalent test on integers `u`.
pub(crate) fn cmp(op: CmpOp, v: Scaled) -> Test {
    use CmpOp::*;
    match (v, op) {
        (Scaled::Exact(t), _) => Test::Cmp(op, Scalar::Int(t)),
        (_, Eq) => none(),
        (_, Ne) => all(),
        (Scaled::Between(f), Lt | Le) => Test::Cmp(Le, Scalar::Int(f)),
        (Scaled::Between(f), Gt | Ge) => Test::Cmp(Gt, Scalar::Int(f)),
        (Scaled::Above, Lt | Le) | (Scaled::Below, Gt | Ge) => all(),
        (Scaled::Above, Gt | Ge) | (Scaled::Below, Lt | Le) => none(),
    }
}

/// `lo <= u <= hi` as an equivalent test on integers `u`.
pub(crate) fn between(lo: Scaled, hi: Scaled) -> Test {
    // The least integer >= lo (None: unbounded below), and the greatest <= hi.
    let low = match lo {
        Scaled::Exact(t) => Some(Some(t)),
        Scaled::Between(f) => Some(Some(f + 1)),
        Scaled::Below => Some(None),
        Scaled::Above => None,
    };
    let high = match hi {
        Scaled::Exact(t) | Scaled::Between(t) => Some(Some(t)),
        Scaled::Above => Some(None),
        Scaled::Below => None,
    };
    match (low, high) {
        (None, _) | (_, None) => none(),
        (Some(None), Some(None)) => all(),
        (Some(Some(l)), Some(None)) => Test::Cmp(CmpOp::Ge, Scalar::Int(l)),
        (Some(None), Some(Some(h))) => Test::Cmp(CmpOp::Le, Scalar::Int(h)),
        (Some(Some(l)), Some(Some(h))) => Test::Between(Scalar::Int(l), Scalar::Int(h)),
    }
}

/// The integers of an IN list (values no integer equals are dropped: they match nothing).
pub(crate) fn members(values: impl IntoIterator<Item = Scaled>) -> Vec<Scalar> {
    values
        .into_iter()
        .filter_map(|v| match v {
            Scaled::Exact(t) => Some(Scalar::Int(t)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[test]
    fn scales_exactly() {
        assert_eq!(scale_decimal(&dec("90000"), 2), Scaled::Exact(9_000_000));
        assert_eq!(scale_decimal(&dec("90000.00"), 2), Scaled::Exact(9_000_000));
        assert_eq!(scale_decimal(&dec("1.005"), 2), Scaled::Between(100));
        assert_eq!(scale_decimal(&dec("-1.005"), 2), Scaled::Between(-101));
        assert_eq!(scale_decimal(&dec("1.0050"), 3), Scaled::Exact(1005));
        assert_eq!(scale_decimal(&dec("-0.001"), 0), Scaled::Between(-1));
        assert_eq!(scale_decimal(&dec("0.001"), 0), Scaled::Between(0));
        // Beyond 38 digits and beyond i128.
        let long = "1".repeat(45);
        assert_eq!(scale_decimal(&dec(&long), 0), Scaled::Above);
        assert_eq!(scale_decimal(&dec(&format!("-{long}")), 0), Scaled::Below);
        assert_eq!(
            scale_decimal(&dec(&format!("0.{long}")), 2),
            Scaled::Between(11)
        );
        assert_eq!(
            scale_decimal(&dec("170141183460469231731687303715884105727"), 0),
            Scaled::Exact(i128::MAX)
        );
        assert_eq!(
            scale_decimal(&dec("170141183460469231731687303715884105727.5"), 0),
            Scaled::Above
        );
        assert_eq!(
            scale_decimal(&dec("-170141183460469231731687303715884105728"), 0),
            Scaled::Exact(i128::MIN)
        );
        assert_eq!(
            scale_decimal(&dec("-170141183460469231731687303715884105727.5"), 0),
            Scaled::Between(i128::MIN)
        );
        assert_eq!(
            scale_decimal(&dec("-170141183460469231731687303715884105728.5"), 0),
            Scaled::Below
        );
        assert_eq!(scale_decimal(&dec("1"), 60), Scaled::Above);
        assert_eq!(
            scale_number(&Scalar::Float(1.5), 0),
            Some(Scaled::Between(1))
        );
        assert_eq!(scale_number(&Scalar::Float(f64::NAN), 0), None);
        assert_eq!(
            scale_number(&Scalar::Float(f64::NEG_INFINITY), 0),
            Some(Scaled::Below)
        );
    }

    /// Random literals (long, fractional, negative, beyond i128) against random stored
    /// integers at random scales: the rewritten test on integers agrees with comparing the
    /// exact decimals (`Decimal`'s own order) on every operator, BETWEEN and IN.
    #[test]
    fn rewritten_tests_agree_with_exact_decimal_order() {
        use crate::core::values::ColumnValues;
        use crate::filter::bind::Kind;
        use crate::filter::eval::test_values;
        use std::cmp::Ordering;
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let stored: Vec<i64> = (-40..=40).chain([i64::MIN, i64::MAX, -1000, 999]).collect();
        let values = ColumnValues::Int64(stored.clone());
        let at_scale = |u: i64, s: u32| -> Decimal {
            let digits = u.unsigned_abs().to_string();
            let digits = format!(
                "{}{digits}",
                "0".repeat((s as usize + 1).saturating_sub(digits.len()))
            );
            let (i, f) = digits.split_at(digits.len() - s as usize);
            format!("{}{i}.{f}0", if u < 0 { "-" } else { "" })
                .parse()
                .unwrap()
        };
        for _ in 0..1500 {
            let scale = (next() % 4) as u32;
            let lit = |next: &mut dyn FnMut() -> u64| -> Decimal {
                let len = 1 + (next() % 6) as usize;
                let mut digits: String = (0..len)
                    .map(|_| char::from(b'0' + (next() % 10) as u8))
                    .collect();
                if next() % 20 < 1 {
                    digits.push_str(&"9".repeat(45));
                }
                let point = (next() % (digits.len() as u64 + 1)) as usize;
                let sign = if next() & 1 == 1 { "-" } else { "" };
                format!(
                    "{sign}{}.{}",
                    &digits[..digits.len() - point],
                    &digits[digits.len() - point..]
                )
                .replace("-.", "-0.")
                .trim_start_matches('.')
                .parse()
                .unwrap_or_else(|_| Decimal::from(0))
            };
            let a = lit(&mut next);
            let b = lit(&mut next);
            let run = |t: &Test| {
                let mut out = Vec::new();
                test_values(t, Kind::Int { unsigned: false }, &values, &mut out);
                out
            };
            let ord = |u: i64, d: &Decimal| at_scale(u, scale).cmp(d);
            for op in [
                CmpOp::Eq,
                CmpOp::Ne,
                CmpOp::Lt,
                CmpOp::Le,
                CmpOp::Gt,
                CmpOp::Ge,
            ] {
                let got = run(&cmp(op, scale_decimal(&a, scale)));
                let want: Vec<bool> = stored.iter().map(|&u| op.holds(ord(u, &a))).collect();
                assert_eq!(got, want, "u {op:?} {a} at scale {scale}");
            }
            let got = run(&between(scale_decimal(&a, scale), scale_decimal(&b, scale)));
            let want: Vec<bool> = stored
                .iter()
                .map(|&u| ord(u, &a) != Ordering::Less && ord(u, &b) != Ordering::Greater)
                .collect();
            assert_eq!(got, want, "u between {a} and {b} at scale {scale}");
            let got = run(&Test::In(members([
                scale_decimal(&a, scale),
                scale_decimal(&b, scale),
            ])));
            let want: Vec<bool> = stored
                .iter()
                .map(|&u| ord(u, &a) == Ordering::Equal || ord(u, &b) == Ordering::Equal)
                .collect();
            assert_eq!(got, want, "u in ({a}, {b}) at scale {scale}");
        }
    }

    #[test]
    fn rewrites_tests_on_integers() {
        use CmpOp::*;
        let int = |i| Scalar::Int(i);
        // u > 1.005 at scale 2: u > 100; u >= 1.005: u > 100; u < 1.005: u <= 100.
        assert_eq!(cmp(Gt, Scaled::Between(100)), Test::Cmp(Gt, int(100)));
        assert_eq!(cmp(Ge, Scaled::Between(100)), Test::Cmp(Gt, int(100)));
        assert_eq!(cmp(Lt, Scaled::Between(100)), Test::Cmp(Le, int(100)));
        assert_eq!(cmp(Le, Scaled::Between(100)), Test::Cmp(Le, int(100)));
        assert_eq!(cmp(Eq, Scaled::Between(100)), Test::In(vec![]));
        assert_eq!(cmp(Ne, Scaled::Between(100)), Test::NotIn(vec![]));
        assert_eq!(cmp(Lt, Scaled::Above), Test::NotIn(vec![]));
        assert_eq!(cmp(Gt, Scaled::Above), Test::In(vec![]));
        assert_eq!(cmp(Gt, Scaled::Below), Test::NotIn(vec![]));
        assert_eq!(
            between(Scaled::Between(1), Scaled::Between(4)),
            Test::Between(int(2), int(4))
        );
        assert_eq!(
            between(Scaled::Below, Scaled::Exact(4)),
            Test::Cmp(Le, int(4))
        );
        assert_eq!(between(Scaled::Below, Scaled::Above), Test::NotIn(vec![]));
        assert_eq!(between(Scaled::Above, Scaled::Above), Test::In(vec![]));
        assert_eq!(
            members([Scaled::Exact(3), Scaled::Between(3), Scaled::Above]),
            vec![int(3)]
        );
    }
}
