//! Literals in a column's domain: what a literal means on each column type (see the
//! [module](super#what-literals-mean)). Numbers and instants are placed among the column's
//! stored integers ([`exact`](super::exact)), text is read as dates, times, UUIDs or numbers,
//! and a literal that cannot compare at all is refused naming the column, its type and the
//! literal.

use crate::core::column::{Decimal, Scalar};
use crate::core::format::{LogicalType, TimeUnit, Type};
use crate::core::schema::ColumnDescriptor;
use crate::core::values::text;
use crate::error::{Error, Result};

use super::bind::{Kind, Test};
use super::exact::{self, Scaled};
use super::pair::Reading;
use super::predicate::CmpOp;
use super::temporal;

/// How a column's literals are read: the domain a literal is brought into before the
/// test runs on the column's stored values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Domain {
    Bool,
    /// Stored integers `u` meaning `u × 10^-scale`: INT32/INT64 (scale 0), DECIMAL on any
    /// physical type. Integer, decimal and float literals compare by exact value.
    Scaled {
        scale: u32,
    },
    /// TIMESTAMP in units of `10^-digits` s: ISO 8601 text compared exactly; a number is
    /// the stored integer.
    Timestamp {
        utc: bool,
        digits: u32,
    },
    /// INT96 legacy timestamps, as nanoseconds (text only).
    Int96,
    /// DATE: days; text is a date or the exact instant a day's midnight is compared with,
    /// a number is the stored integer.
    Date,
    /// TIME in units of `10^-digits` s: text compared exactly, a number is the stored integer.
    Time {
        digits: u32,
    },
    /// FLOAT, DOUBLE, FLOAT16: `single` when decimal and integer literals round to `f32`
    /// first (as DuckDB casts them to the column's FLOAT).
    Float {
        single: bool,
    },
    /// UUID: text in its hyphenated form, or 16 bytes.
    Uuid,
    /// Strings and bytes, in unsigned byte order.
    Bytes,
    /// No order: only null tests.
    Unordered,
}

impl Domain {
    pub(crate) fn of(d: &ColumnDescriptor, kind: Kind) -> Domain {
        let lt = d.effective_logical_type();
        match (kind, &lt) {
            (Kind::Int96, _) => Domain::Int96,
            (Kind::Bool, _) => Domain::Bool,
            (Kind::Int { .. } | Kind::DecimalBytes, Some(LogicalType::Decimal { scale, .. })) => {
                Domain::Scaled {
                    scale: (*scale).max(0) as u32,
                }
            }
            (
                Kind::Int { .. },
                Some(LogicalType::Timestamp {
                    is_adjusted_to_utc,
                    unit,
                }),
            ) => Domain::Timestamp {
                utc: *is_adjusted_to_utc,
                digits: text::unit_scale(*unit).1 as u32,
            },
            (Kind::Int { .. }, Some(LogicalType::Time { unit, .. })) => Domain::Time {
                digits: text::unit_scale(*unit).1 as u32,
            },
            (Kind::Int { .. }, Some(LogicalType::Date)) => Domain::Date,
            (Kind::Int { .. }, _) => Domain::Scaled { scale: 0 },
            (Kind::DecimalBytes, _) => Domain::Scaled { scale: 0 },
            (Kind::Float, _) => Domain::Float {
                single: d.physical_type == Type::Float,
            },
            (Kind::Float16, _) => Domain::Float { single: true },
            (Kind::Bytes, Some(LogicalType::Uuid)) => Domain::Uuid,
            (Kind::Bytes, _) => Domain::Bytes,
            (Kind::Unordered, _) => Domain::Unordered,
        }
    }
}

/// The column's physical type as the format names it: `INT64`, `FIXED_LEN_BYTE_ARRAY(16)`.
fn physical(d: &ColumnDescriptor) -> String {
    d.physical_type.format_name_with_width(d.type_length)
}

/// The column's type for messages: `DECIMAL(12,2) (INT64)`, `TIMESTAMP(MILLIS, adjusted
/// to UTC)`, `STRING (BYTE_ARRAY)`, `INT32`.
pub(crate) fn describe(d: &ColumnDescriptor) -> String {
    let unit = |u: TimeUnit| format!("{u:?}").to_uppercase();
    match d.effective_logical_type() {
        Some(LogicalType::Decimal { precision, scale }) => {
            format!("DECIMAL({precision},{scale}) ({})", physical(d))
        }
        Some(LogicalType::Timestamp {
            is_adjusted_to_utc,
            unit: u,
        }) => format!(
            "TIMESTAMP({}, {})",
            unit(u),
            if is_adjusted_to_utc {
                "adjusted to UTC"
            } else {
                "local"
            }
        ),
        Some(LogicalType::Time { unit: u, .. }) => format!("TIME({})", unit(u)),
        Some(lt) => format!("{} ({})", format!("{lt:?}").to_uppercase(), physical(d)),
        None => physical(d),
    }
}

/// One literal of a test on a column in `domain`, in the column's domain.
enum Lit {
    /// Among the column's integers.
    Scaled(Scaled),
    /// A value compared as is.
    Value(Scalar),
}

/// The literal in the column's domain; an error when it cannot compare with the column at
/// all (the message names the column, its type and the literal).
fn coerce(value: &Scalar, domain: Domain, d: &ColumnDescriptor, path: &str) -> Result<Lit> {
    let bad = |hint: &str| {
        Err(Error::invalid_argument(format!(
            "column {path:?} holds {}; the literal {value} does not compare with it{hint}",
            describe(d)
        )))
    };
    let text = value.as_str().map(str::trim);
    // A NaN literal is above every number (NaN is greatest).
    let number = |v: &Scalar, scale| match v {
        Scalar::Float(f) if f.is_nan() => Some(Scaled::Above),
        _ => exact::scale_number(v, scale),
    };
    let raw = |v: &Scalar| match v {
        Scalar::Int(i) => Some(Scaled::Exact(*i)),
        _ => None,
    };
    let temporal = |parsed: Option<Decimal>, digits: u32, form: &str| match parsed {
        Some(secs) => Ok(Lit::Scaled(exact::scale_decimal(&secs, digits))),
        None => bad(&format!(" (write it as '{form}')")),
    };
    const INSTANT: &str = "YYYY-MM-DD[THH:MM:SS[.fff][Z|+HH:MM]]";
    match (domain, value) {
        (Domain::Bool, Scalar::Bool(_)) => Ok(Lit::Value(value.clone())),
        (Domain::Scaled { scale }, v) => match number(&numeric_text(v), scale) {
            Some(s) => Ok(Lit::Scaled(s)),
            None => bad(""),
        },
        (Domain::Timestamp { utc, digits }, v) => match (raw(v), text) {
            (Some(s), _) => Ok(Lit::Scaled(s)),
            (None, Some(t)) => temporal(temporal::instant_seconds(t, utc), digits, INSTANT),
            _ => bad(&format!(" (write it as '{INSTANT}')")),
        },
        (Domain::Int96, _) => match text {
            Some(t) => temporal(temporal::instant_seconds(t, true), 9, INSTANT),
            None => bad(&format!(" (write it as '{INSTANT}')")),
        },
        (Domain::Date, v) => match (raw(v), text) {
            (Some(s), _) => Ok(Lit::Scaled(s)),
            (None, Some(t)) => match temporal::date_scaled(t) {
                Some(days) => Ok(Lit::Scaled(days)),
                None => bad(" (write it as 'YYYY-MM-DD')"),
            },
            _ => bad(" (write it as 'YYYY-MM-DD')"),
        },
        (Domain::Time { digits }, v) => match (raw(v), text) {
            (Some(s), _) => Ok(Lit::Scaled(s)),
            (None, Some(t)) => temporal(temporal::time_seconds(t), digits, "HH:MM:SS[.fff]"),
            _ => bad(" (write it as 'HH:MM:SS[.fff]')"),
        },
        (Domain::Float { single }, v) => {
            let f = match &numeric_text(v) {
                Scalar::Float(f) => *f,
                Scalar::Int(i) if single => *i as f32 as f64,
                Scalar::Int(i) => *i as f64,
                Scalar::Decimal(x) if single => x.to_f32() as f64,
                Scalar::Decimal(x) => x.to_f64(),
                _ => return bad(""),
            };
            Ok(Lit::Value(Scalar::Float(f)))
        }
        (Domain::Uuid, Scalar::Bytes(b)) => match text.and_then(text::parse_uuid) {
            Some(u) => Ok(Lit::Value(Scalar::Bytes(u.to_vec()))),
            None if b.len() == 16 => Ok(Lit::Value(value.clone())),
            None => bad(" (write it as 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx')"),
        },
        (Domain::Bytes, Scalar::Bytes(_)) => Ok(Lit::Value(value.clone())),
        (Domain::Unordered, _) => bad(" (only is null / is not null apply)"),
        _ => bad(""),
    }
}

/// A text literal that reads as a number (`'12.50'`, `'1e3'`, `'NaN'`, `'-inf'`) as that
/// number, as DuckDB casts text to a numeric column; any other literal as it is.
fn numeric_text(v: &Scalar) -> Scalar {
    let Some(t) = v.as_str().map(str::trim) else {
        return v.clone();
    };
    if let Ok(i) = t.parse::<i128>() {
        return Scalar::Int(i);
    }
    if let Ok(d) = t.parse::<Decimal>() {
        return Scalar::Decimal(d);
    }
    match t.parse::<f64>() {
        Ok(f) => Scalar::Float(f),
        Err(_) => v.clone(),
    }
}

/// `test` with its literals in the column's domain: on integer domains rewritten into an
/// equivalent test on the stored integers (see [`exact`]).
pub(crate) fn coerce_test(
    test: Test,
    domain: Domain,
    d: &ColumnDescriptor,
    path: &str,
) -> Result<Test> {
    let c = |v: &Scalar| coerce(v, domain, d, path);
    let scaled = |l: Lit| match l {
        Lit::Scaled(s) => Ok(s),
        Lit::Value(v) => Err(v),
    };
    let test = match domain {
        Domain::Bool => booleans_as_numbers(test, d, path)?,
        Domain::Scaled { .. } | Domain::Float { .. } => {
            // Ordered against a boolean only on integers (not DECIMAL), as DuckDB.
            let decimal = matches!(
                d.effective_logical_type(),
                Some(LogicalType::Decimal { .. })
            );
            let ordered = matches!(domain, Domain::Scaled { .. }) && !decimal;
            boolean_literals(test, ordered, d, path)?
        }
        _ => test,
    };
    let negated = matches!(test, Test::NotIn(_));
    Ok(match test {
        Test::Cmp(op, v) => match scaled(c(&v)?) {
            Ok(s) => exact::cmp(op, s),
            Err(v) => Test::Cmp(op, v),
        },
        Test::Between(a, b) => match (scaled(c(&a)?), scaled(c(&b)?)) {
            (Ok(a), Ok(b)) => exact::between(a, b),
            (Err(a), Err(b)) => Test::Between(a, b),
            // Every literal of a domain comes out the same way.
            _ => {
                return Err(Error::invalid_argument(format!(
                    "column {path:?}: mixed literals"
                )))
            }
        },
        Test::In(v) | Test::NotIn(v) => {
            let mut ints = Vec::new();
            let mut values = Vec::new();
            for x in &v {
                match scaled(c(x)?) {
                    Ok(s) => ints.push(s),
                    Err(v) => values.push(v),
                }
            }
            values.extend(exact::members(ints));
            if negated {
                Test::NotIn(values)
            } else {
                Test::In(values)
            }
        }
        other => other,
    })
}

/// The refusal of an order test between a boolean and a number (only `=`, `!=` and `in`
/// compare them, as in DuckDB).
fn unordered(d: &ColumnDescriptor, path: &str, value: &Scalar) -> Error {
    Error::invalid_argument(format!(
        "column {path:?} holds {}; the literal {value} compares with it only by =, != and in",
        describe(d)
    ))
}

/// Boolean literals on a numeric column, as DuckDB casts them: `true` is 1 and `false` 0.
/// `=`, `!=` and `in` take them on every numeric column; `<`, `between` and the other
/// orders only on integers (`ordered`), not on DECIMAL or floating point.
fn boolean_literals(test: Test, ordered: bool, d: &ColumnDescriptor, path: &str) -> Result<Test> {
    let num = |v: Scalar| match v {
        Scalar::Bool(b) => Scalar::Int(b as i128),
        other => other,
    };
    let is_bool = |v: &Scalar| matches!(v, Scalar::Bool(_));
    Ok(match test {
        Test::Cmp(op, v) if is_bool(&v) => {
            if !ordered && !matches!(op, CmpOp::Eq | CmpOp::Ne) {
                return Err(unordered(d, path, &v));
            }
            Test::Cmp(op, num(v))
        }
        Test::Between(a, b) if is_bool(&a) || is_bool(&b) => {
            if !ordered {
                return Err(unordered(d, path, if is_bool(&a) { &a } else { &b }));
            }
            Test::Between(num(a), num(b))
        }
        Test::In(v) => Test::In(v.into_iter().map(num).collect()),
        Test::NotIn(v) => Test::NotIn(v.into_iter().map(num).collect()),
        other => other,
    })
}

/// A text literal on a BOOLEAN column as DuckDB casts it: `true`, `t`, `yes`, `y`, `1` and
/// `false`, `f`, `no`, `n`, `0`, in any case, with no space around.
fn text_boolean(t: &[u8]) -> Option<bool> {
    let t = std::str::from_utf8(t).ok()?.to_ascii_lowercase();
    match t.as_str() {
        "true" | "t" | "yes" | "y" | "1" => Some(true),
        "false" | "f" | "no" | "n" | "0" => Some(false),
        _ => None,
    }
}

/// How boolean `b` (as 0 or 1, DuckDB's cast) compares with number `v`; `None` when `v`
/// is no number.
fn bool_vs_number(b: bool, v: &Scalar) -> Option<std::cmp::Ordering> {
    let i = b as i128;
    Some(match v {
        Scalar::Int(x) => i.cmp(x),
        Scalar::Decimal(x) => x.cmp_int(i).reverse(),
        // NaN is greater than every number.
        Scalar::Float(f) => (i as f64)
            .partial_cmp(f)
            .unwrap_or(std::cmp::Ordering::Less),
        _ => return None,
    })
}

/// Whether a test is a `not in`.
enum TestKind {
    NotIn,
    Other,
}

/// Literals on a BOOLEAN column: text as DuckDB casts it to BOOLEAN; numbers compare with
/// the column's values as 0 and 1 (as DuckDB casts the column), by every order for whole
/// numbers and only by `=`, `!=` and `in` for decimals and floats. A test with a number
/// becomes one on the booleans it holds for (`flag > 0` is `flag = true`, `flag = 2` holds
/// for none), so statistics and dictionaries prune it as any boolean test.
fn booleans_as_numbers(test: Test, d: &ColumnDescriptor, path: &str) -> Result<Test> {
    use std::cmp::Ordering;
    let bad = |v: &Scalar| {
        Error::invalid_argument(format!(
            "column {path:?} holds {}; the literal {v} does not compare with it",
            describe(d)
        ))
    };
    // Text as a boolean, or as a number when a number is among the test's literals (as
    // DuckDB casts every one of them to their common type); a number stays a number; a
    // boolean stays.
    let number = |v: &Scalar| matches!(v, Scalar::Int(_) | Scalar::Decimal(_) | Scalar::Float(_));
    let numbers = match &test {
        Test::Cmp(_, v) => number(v),
        Test::Between(a, b) => number(a) || number(b),
        Test::In(v) | Test::NotIn(v) => v.iter().any(number),
        _ => false,
    };
    let lit = |v: Scalar| -> Result<Scalar> {
        match &v {
            Scalar::Bytes(_) if numbers => {
                Some(numeric_text(&v)).filter(number).ok_or_else(|| bad(&v))
            }
            Scalar::Bytes(b) => text_boolean(b).map(Scalar::Bool).ok_or_else(|| bad(&v)),
            _ => Ok(v),
        }
    };
    let is_number = |v: &Scalar| !matches!(v, Scalar::Bool(_));
    let test_kind = if matches!(test, Test::NotIn(_)) {
        TestKind::NotIn
    } else {
        TestKind::Other
    };
    // The booleans for which `holds` is true, as a test.
    let of = |holds: &dyn Fn(bool) -> bool| match (holds(false), holds(true)) {
        (false, false) => Test::In(vec![]),
        (true, true) => Test::NotIn(vec![]),
        (f, _) => Test::Cmp(CmpOp::Eq, Scalar::Bool(!f)),
    };
    Ok(match test {
        Test::Cmp(op, v) => {
            let v = lit(v)?;
            if !is_number(&v) {
                return Ok(Test::Cmp(op, v));
            }
            if !matches!(v, Scalar::Int(_)) && !matches!(op, CmpOp::Eq | CmpOp::Ne) {
                return Err(unordered(d, path, &v));
            }
            of(&|b| bool_vs_number(b, &v).is_some_and(|o| op.holds(o)))
        }
        Test::Between(a, b) => {
            let (a, b) = (lit(a)?, lit(b)?);
            if !is_number(&a) && !is_number(&b) {
                return Ok(Test::Between(a, b));
            }
            let num = |v: &Scalar| match v {
                Scalar::Bool(x) => Scalar::Int(*x as i128),
                other => other.clone(),
            };
            let (a, b) = (num(&a), num(&b));
            for v in [&a, &b] {
                if !matches!(v, Scalar::Int(_)) {
                    return Err(unordered(d, path, v));
                }
            }
            of(&|x| {
                bool_vs_number(x, &a).is_some_and(Ordering::is_ge)
                    && bool_vs_number(x, &b).is_some_and(Ordering::is_le)
            })
        }
        Test::In(v) | Test::NotIn(v) => {
            let negated = matches!(test_kind, TestKind::NotIn);
            let mut out = Vec::new();
            for x in v {
                let x = lit(x)?;
                let b = match &x {
                    Scalar::Bool(b) => Some(*b),
                    n => [false, true]
                        .into_iter()
                        .find(|&b| bool_vs_number(b, n) == Some(Ordering::Equal)),
                };
                // A number neither 0 nor 1 equals no boolean.
                if let Some(b) = b {
                    out.push(Scalar::Bool(b));
                }
            }
            if negated {
                Test::NotIn(out)
            } else {
                Test::In(out)
            }
        }
        other => other,
    })
}

/// How a column reads for a comparison with another column; `None` when it cannot.
pub(crate) fn reading(d: &ColumnDescriptor) -> Option<Reading> {
    let kind = Kind::of(d);
    let nanos = |digits: u32| 10i128.pow(9 - digits.min(9));
    Some(match Domain::of(d, kind) {
        Domain::Bool => Reading::Bool,
        Domain::Scaled { scale } => Reading::Number {
            scale,
            unsigned: kind == Kind::Int { unsigned: true },
        },
        Domain::Timestamp { digits, .. } => Reading::Nanos {
            factor: nanos(digits),
            of_day: false,
        },
        Domain::Int96 => Reading::Nanos {
            factor: 1,
            of_day: false,
        },
        Domain::Date => Reading::Nanos {
            factor: 86_400_000_000_000,
            of_day: false,
        },
        Domain::Time { digits } => Reading::Nanos {
            factor: nanos(digits),
            of_day: true,
        },
        Domain::Float { .. } => Reading::Float,
        Domain::Uuid | Domain::Bytes => Reading::Bytes,
        Domain::Unordered => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::schema::Schema;
    use crate::filter::bind::{bind, Bound, Leaf};
    use crate::filter::col;
    use crate::filter::predicate::{CmpOp, Predicate};

    fn schema() -> Schema {
        "message m {
          optional int32 d32 (DECIMAL(9,2)); optional int64 d64 (DECIMAL(12,2));
          optional fixed_len_byte_array(8) dfix (DECIMAL(18,2)); optional binary dbin (DECIMAL(20,2));
          optional int64 ms (TIMESTAMP(MILLIS,true)); optional int64 local (TIMESTAMP(MICROS,false));
          optional int32 day (DATE); optional int64 t (TIME(MICROS,false)); optional int96 old;
          optional int32 i; optional int64 u (INTEGER(64,false)); optional float f;
          optional fixed_len_byte_array(16) id (UUID);
        }"
        .parse()
        .unwrap()
    }

    fn test_of(p: &str) -> Test {
        let s = schema();
        match bind(&Predicate::parse(p).unwrap(), &s).unwrap() {
            Bound::Leaf(l) => l.test,
            other => panic!("{p}: {other:?}"),
        }
    }

    fn int(i: i128) -> Scalar {
        Scalar::Int(i)
    }

    #[test]
    fn decimals_on_every_physical_type_compare_by_value() {
        for c in ["d32", "d64", "dfix", "dbin"] {
            let t = |rest: &str| test_of(&format!("{c} {rest}"));
            assert_eq!(t("> 90000"), Test::Cmp(CmpOp::Gt, int(9_000_000)), "{c}");
            assert_eq!(t("> 90000.00"), Test::Cmp(CmpOp::Gt, int(9_000_000)), "{c}");
            assert_eq!(t("> 1.005"), Test::Cmp(CmpOp::Gt, int(100)), "{c}");
            assert_eq!(t(">= 1.005"), Test::Cmp(CmpOp::Gt, int(100)), "{c}");
            assert_eq!(t("< -1.005"), Test::Cmp(CmpOp::Le, int(-101)), "{c}");
            assert_eq!(t("= 1.005"), Test::In(vec![]), "{c}");
            assert_eq!(t("!= 1.005"), Test::NotIn(vec![]), "{c}");
            assert_eq!(
                t("between 1.001 and 2.009"),
                Test::Between(int(101), int(200)),
                "{c}"
            );
            assert_eq!(
                t("in (1.5, 1.505, 2)"),
                Test::In(vec![int(150), int(200)]),
                "{c}"
            );
            // Beyond 38 digits.
            let huge = "9".repeat(45);
            assert_eq!(t(&format!("< {huge}")), Test::NotIn(vec![]), "{c}");
            assert_eq!(t(&format!("> -{huge}.5")), Test::NotIn(vec![]), "{c}");
            assert_eq!(t(&format!("= {huge}")), Test::In(vec![]), "{c}");
        }
        // A float literal means its shortest text.
        let s = schema();
        let b = bind(&col("d64").eq(0.1), &s).unwrap();
        assert!(
            matches!(
                b,
                Bound::Leaf(Leaf {
                    test: Test::Cmp(CmpOp::Eq, Scalar::Int(10)),
                    ..
                })
            ),
            "{b:?}"
        );
        assert_eq!(
            Predicate::parse("amount > 766.1742230874571007")
                .unwrap()
                .to_string(),
            "amount > 766.1742230874571007"
        );
    }

    #[test]
    fn integers_take_any_number() {
        assert_eq!(test_of("i = 1.0"), Test::Cmp(CmpOp::Eq, int(1)));
        assert_eq!(test_of("i > 1.5"), Test::Cmp(CmpOp::Gt, int(1)));
        assert_eq!(test_of("i < 1e3"), Test::Cmp(CmpOp::Lt, int(1000)));
        assert_eq!(
            test_of("u = 18446744073709551615"),
            Test::Cmp(CmpOp::Eq, int(u64::MAX as i128))
        );
        assert_eq!(
            test_of("i = 1.0000000000000000000000000000000000000000001"),
            Test::In(vec![])
        );
    }

    #[test]
    fn times_finer_than_the_unit_are_exact() {
        // 19.833999 s on a millisecond column lies between 19833 and 19834 ms.
        let base: i128 = 1_795_525_200_000; // 2026-11-24T13:00:00Z in ms
        let lit = "'2026-11-24T13:00:19.833999Z'";
        let between = base + 19_833;
        let t = |op: &str| test_of(&format!("ms {op} {lit}"));
        assert_eq!(t(">="), Test::Cmp(CmpOp::Gt, int(between)));
        assert_eq!(t(">"), Test::Cmp(CmpOp::Gt, int(between)));
        assert_eq!(t("<"), Test::Cmp(CmpOp::Le, int(between)));
        assert_eq!(t("<="), Test::Cmp(CmpOp::Le, int(between)));
        assert_eq!(t("="), Test::In(vec![]));
        assert_eq!(t("!="), Test::NotIn(vec![]));
        assert_eq!(
            test_of(&format!("ms in ({lit}, '2026-11-24T13:00:00Z')")),
            Test::In(vec![int(base)])
        );
        assert_eq!(
            test_of(&format!("ms between {lit} and '2026-11-24T13:00:20.0001Z'")),
            Test::Between(int(between + 1), int(base + 20_000))
        );
        // A date alone is midnight.
        assert_eq!(
            test_of("ms >= '2026-11-24'"),
            Test::Cmp(CmpOp::Ge, int(1_795_478_400_000))
        );
        // Not adjusted to UTC: the wall clock, an offset ignored.
        assert_eq!(
            test_of("local = '1970-01-01T00:00:01+05:00'"),
            Test::Cmp(CmpOp::Eq, int(1_000_000))
        );
        // A timestamp on a DATE column is its instant, which a day's midnight is compared
        // with: 13:00 lies between 2026-11-24 and the next day.
        assert_eq!(test_of("day = '2026-11-24T13:00:00Z'"), Test::In(vec![]));
        assert_eq!(
            test_of("day < '2026-11-24T13:00:00Z'"),
            Test::Cmp(CmpOp::Le, int(20_781))
        );
        assert_eq!(
            test_of("day >= '2026-11-24T13:00:00'"),
            Test::Cmp(CmpOp::Gt, int(20_781))
        );
        assert_eq!(
            test_of("day = '2026-11-24T00:00:00'"),
            Test::Cmp(CmpOp::Eq, int(20_781))
        );
        // TIME, sub-microsecond.
        assert_eq!(
            test_of("t > '00:00:01.0000001'"),
            Test::Cmp(CmpOp::Gt, int(1_000_000))
        );
        // INT96 in nanoseconds; sub-nanosecond digits kept.
        assert_eq!(
            test_of("old = '1970-01-01T00:00:01Z'"),
            Test::Cmp(CmpOp::Eq, int(1_000_000_000))
        );
        assert_eq!(
            test_of("old < '1970-01-01T00:00:00.0000000001Z'"),
            Test::Cmp(CmpOp::Le, int(0))
        );
    }

    #[test]
    fn booleans_and_numbers_compare_as_in_duckdb() {
        let s: Schema = "message m {
          optional boolean flag; optional int32 i; optional int64 u (INTEGER(64,false));
          optional double x; optional int32 dec (DECIMAL(9,2));
        }"
        .parse()
        .unwrap();
        let t = |p: &str| match bind(&Predicate::parse(p).unwrap(), &s) {
            Ok(Bound::Leaf(l)) => Ok(l.test),
            Ok(other) => panic!("{p}: {other:?}"),
            Err(e) => Err(e.to_string()),
        };
        let yes = Test::Cmp(CmpOp::Eq, Scalar::Bool(true));
        let no = Test::Cmp(CmpOp::Eq, Scalar::Bool(false));
        let every = Test::NotIn(vec![]);
        let none = Test::In(vec![]);
        // Numbers on a BOOLEAN column: the column as 0 and 1.
        for (p, want) in [
            ("flag = 1", &yes),
            ("flag = 0", &no),
            ("flag = 2", &none),
            ("flag = -1", &none),
            ("flag != 2", &every),
            ("flag > 0", &yes),
            ("flag < 1", &no),
            ("flag >= -1", &every),
            ("flag > 1", &none),
            ("flag <= 18446744073709551615", &every),
            ("flag = 1.0", &yes),
            ("flag = 1e0", &yes),
            ("flag = 0.5", &none),
            ("flag != 1.5", &every),
            ("flag between 0 and 1", &every),
            ("flag between 1 and 5", &yes),
            ("flag = 't'", &yes),
            ("flag = '0'", &no),
        ] {
            assert_eq!(t(p).as_ref(), Ok(want), "{p}");
        }
        // Text is the boolean it casts to.
        assert_eq!(
            t("flag < 'YES'"),
            Ok(Test::Cmp(CmpOp::Lt, Scalar::Bool(true)))
        );
        assert_eq!(
            t("flag in (2, 1, 0.5)"),
            Ok(Test::In(vec![Scalar::Bool(true)]))
        );
        assert_eq!(
            t("flag not in (2, 0)"),
            Ok(Test::NotIn(vec![Scalar::Bool(false)]))
        );
        // Text among numbers is a number.
        assert_eq!(
            t("flag in ('1', 2)"),
            Ok(Test::In(vec![Scalar::Bool(true)]))
        );
        assert_eq!(t("flag between '0' and 1"), Ok(every.clone()));
        // Refused as DuckDB refuses: a fraction by order, text that is no boolean, text
        // among numbers that is no number.
        for p in [
            "flag in ('no', 1)",
            "flag between 'no' and 0",
            "flag < 0.5",
            "flag >= 1.0",
            "flag between 0.5 and 2",
            "flag = 'maybe'",
            "flag = '2'",
            "flag = ' true'",
        ] {
            assert!(t(p).is_err(), "{p}");
        }
        // Booleans on numeric columns: 1 and 0; by order only on integers.
        assert_eq!(t("i = true"), Ok(Test::Cmp(CmpOp::Eq, int(1))));
        assert_eq!(t("i > true"), Ok(Test::Cmp(CmpOp::Gt, int(1))));
        assert_eq!(t("u < false"), Ok(Test::Cmp(CmpOp::Lt, int(0))));
        assert_eq!(
            t("i between false and true"),
            Ok(Test::Between(int(0), int(1)))
        );
        assert_eq!(t("i in (true, 2)"), Ok(Test::In(vec![int(1), int(2)])));
        assert_eq!(t("x = true"), Ok(Test::Cmp(CmpOp::Eq, Scalar::Float(1.0))));
        assert_eq!(t("dec != false"), Ok(Test::Cmp(CmpOp::Ne, int(0))));
        assert_eq!(t("dec in (true)"), Ok(Test::In(vec![int(100)])));
        for p in ["x < true", "dec >= false", "x between false and true"] {
            let e = t(p).unwrap_err();
            assert!(e.contains("only by =, != and in"), "{p}: {e}");
        }
    }

    #[test]
    fn floats_uuids_and_refusals() {
        // A decimal literal on FLOAT rounds to f32 (as DuckDB casts it).
        assert_eq!(
            test_of("f = 0.1"),
            Test::Cmp(CmpOp::Eq, Scalar::Float(0.1f32 as f64))
        );
        assert_eq!(
            test_of("id = '01234567-89ab-cdef-0123-456789abcdef'"),
            Test::Cmp(
                CmpOp::Eq,
                Scalar::Bytes(vec![
                    1, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 1, 0x23, 0x45, 0x67, 0x89, 0xab,
                    0xcd, 0xef
                ])
            )
        );
        let s = schema();
        // 16 bytes are a UUID as they are.
        let b = bind(&col("id").eq([7u8; 16]), &s).unwrap();
        assert!(
            matches!(&b, Bound::Leaf(Leaf { test: Test::Cmp(CmpOp::Eq, Scalar::Bytes(v)), .. }) if v == &[7u8; 16]),
            "{b:?}"
        );
        let e = |p: &str| {
            bind(&Predicate::parse(p).unwrap(), &s)
                .unwrap_err()
                .to_string()
        };
        let m = e("d64 = 'x'");
        assert!(
            m.contains("\"d64\"") && m.contains("DECIMAL(12,2)") && m.contains("\"x\""),
            "{m}"
        );
        assert!(e("id = 'nope'").contains("xxxxxxxx-xxxx"));
        assert!(
            e("old = 5").contains("INT96") || e("old = 5").contains("Int96"),
            "{}",
            e("old = 5")
        );
    }
}
