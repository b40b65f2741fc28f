//! One Iceberg value of a primitive type, and its single-value binary serialization (the
//! spec's Appendix D: what manifests hold as `lower_bounds` / `upper_bounds`):
//! little-endian integers and floats, a decimal's unscaled value as big-endian two's
//! complement in the fewest bytes, UUIDs as their 16 bytes, strings as UTF-8, dates as days
//! and times and timestamps as microseconds.

use std::cmp::Ordering;

use super::schema::PrimitiveType;
use crate::core::column::Scalar;
use crate::error::{Error, Result};

/// A value of an Iceberg primitive type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Literal {
    /// `boolean`.
    Boolean(bool),
    /// `int`.
    Int(i32),
    /// `long`.
    Long(i64),
    /// `float`.
    Float(f32),
    /// `double`.
    Double(f64),
    /// `decimal(P,S)`: the unscaled value.
    Decimal(i128),
    /// `date`: days since 1970-01-01.
    Date(i32),
    /// `time`: microseconds since midnight.
    Time(i64),
    /// `timestamp`: microseconds since 1970-01-01 00:00 (no zone).
    Timestamp(i64),
    /// `timestamptz`: microseconds since 1970-01-01 00:00 UTC.
    Timestamptz(i64),
    /// `string`.
    String(String),
    /// `uuid`: the 16 bytes, big-endian.
    Uuid([u8; 16]),
    /// `fixed[L]`.
    Fixed(Vec<u8>),
    /// `binary`.
    Binary(Vec<u8>),
}

impl Literal {
    /// The single-value binary serialization.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        match self {
            Literal::Boolean(b) => vec![u8::from(*b)],
            Literal::Int(v) | Literal::Date(v) => v.to_le_bytes().to_vec(),
            Literal::Long(v)
            | Literal::Time(v)
            | Literal::Timestamp(v)
            | Literal::Timestamptz(v) => v.to_le_bytes().to_vec(),
            Literal::Float(v) => v.to_le_bytes().to_vec(),
            Literal::Double(v) => v.to_le_bytes().to_vec(),
            Literal::Decimal(v) => decimal_bytes(*v),
            Literal::String(s) => s.as_bytes().to_vec(),
            Literal::Uuid(u) => u.to_vec(),
            Literal::Fixed(b) | Literal::Binary(b) => b.clone(),
        }
    }

    /// Reads a single-value serialization of type `ty` (a manifest's bound). Errors
    /// ([`Corrupt`](crate::ErrorKind::Corrupt)) on a length that does not fit the type
    /// or a string that is not UTF-8. An `int` bound of a `long` column (written before a
    /// type promotion) reads as a long, as the spec allows; likewise `float` for `double`.
    pub(crate) fn from_bytes(ty: PrimitiveType, bytes: &[u8]) -> Result<Literal> {
        let bad = || {
            Error::corrupt(format!(
                "a {ty} bound of {} bytes does not fit the type",
                bytes.len()
            ))
        };
        let le4 = |b: &[u8]| -> Result<[u8; 4]> { b.try_into().map_err(|_| bad()) };
        let le8 = |b: &[u8]| -> Result<[u8; 8]> { b.try_into().map_err(|_| bad()) };
        Ok(match ty {
            PrimitiveType::Boolean => match bytes {
                [0] => Literal::Boolean(false),
                [1] => Literal::Boolean(true),
                _ => return Err(bad()),
            },
            PrimitiveType::Int => Literal::Int(i32::from_le_bytes(le4(bytes)?)),
            PrimitiveType::Date => Literal::Date(i32::from_le_bytes(le4(bytes)?)),
            PrimitiveType::Long => match bytes.len() {
                4 => Literal::Long(i64::from(i32::from_le_bytes(le4(bytes)?))),
                _ => Literal::Long(i64::from_le_bytes(le8(bytes)?)),
            },
            PrimitiveType::Time => Literal::Time(i64::from_le_bytes(le8(bytes)?)),
            PrimitiveType::Timestamp => Literal::Timestamp(i64::from_le_bytes(le8(bytes)?)),
            PrimitiveType::Timestamptz => Literal::Timestamptz(i64::from_le_bytes(le8(bytes)?)),
            PrimitiveType::Float => Literal::Float(f32::from_le_bytes(le4(bytes)?)),
            PrimitiveType::Double => match bytes.len() {
                4 => Literal::Double(f64::from(f32::from_le_bytes(le4(bytes)?))),
                _ => Literal::Double(f64::from_le_bytes(le8(bytes)?)),
            },
            PrimitiveType::Decimal { .. } => {
                if bytes.is_empty() || bytes.len() > 16 {
                    return Err(bad());
                }
                let fill = if bytes[0] & 0x80 != 0 { 0xFF } else { 0 };
                let mut full = [fill; 16];
                full[16 - bytes.len()..].copy_from_slice(bytes);
                Literal::Decimal(i128::from_be_bytes(full))
            }
            PrimitiveType::String => Literal::String(
                std::str::from_utf8(bytes)
                    .map_err(|_| Error::corrupt("a string bound is not UTF-8"))?
                    .to_string(),
            ),
            PrimitiveType::Uuid => Literal::Uuid(bytes.try_into().map_err(|_| bad())?),
            PrimitiveType::Fixed(_) => Literal::Fixed(bytes.to_vec()),
            PrimitiveType::Binary => Literal::Binary(bytes.to_vec()),
        })
    }

    /// The value as this crate's statistics and predicates hold it (for pruning with the
    /// filter's comparisons): integers, dates (days), times and timestamps (microseconds)
    /// and decimals (unscaled) as `Int`, floats as `Float`, strings, UUIDs and bytes as
    /// `Bytes`.
    pub(crate) fn to_scalar(&self) -> Scalar {
        match self {
            Literal::Boolean(b) => Scalar::Bool(*b),
            Literal::Int(v) | Literal::Date(v) => Scalar::Int(i128::from(*v)),
            Literal::Long(v)
            | Literal::Time(v)
            | Literal::Timestamp(v)
            | Literal::Timestamptz(v) => Scalar::Int(i128::from(*v)),
            Literal::Float(v) => Scalar::Float(f64::from(*v)),
            Literal::Double(v) => Scalar::Float(*v),
            Literal::Decimal(v) => Scalar::Int(*v),
            Literal::String(s) => Scalar::Bytes(s.as_bytes().to_vec()),
            Literal::Uuid(u) => Scalar::Bytes(u.to_vec()),
            Literal::Fixed(b) | Literal::Binary(b) => Scalar::Bytes(b.clone()),
        }
    }

    /// Compares two values of the same type (Iceberg's order: signed numbers, floats with
    /// -0.0 < 0.0, strings and binaries byte-wise unsigned); `None` across types or with
    /// a NaN.
    pub(crate) fn compare(&self, other: &Literal) -> Option<Ordering> {
        use Literal as L;
        match (self, other) {
            (L::Boolean(a), L::Boolean(b)) => Some(a.cmp(b)),
            (L::Int(a), L::Int(b)) | (L::Date(a), L::Date(b)) => Some(a.cmp(b)),
            (L::Long(a), L::Long(b))
            | (L::Time(a), L::Time(b))
            | (L::Timestamp(a), L::Timestamp(b))
            | (L::Timestamptz(a), L::Timestamptz(b)) => Some(a.cmp(b)),
            (L::Float(a), L::Float(b)) if !a.is_nan() && !b.is_nan() => Some(a.total_cmp(b)),
            (L::Double(a), L::Double(b)) if !a.is_nan() && !b.is_nan() => Some(a.total_cmp(b)),
            (L::Decimal(a), L::Decimal(b)) => Some(a.cmp(b)),
            (L::String(a), L::String(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
            (L::Uuid(a), L::Uuid(b)) => Some(a.cmp(b)),
            (L::Fixed(a), L::Fixed(b)) | (L::Binary(a), L::Binary(b)) => Some(a.cmp(b)),
            _ => None,
        }
    }
}

/// A decimal's unscaled value as big-endian two's complement in the fewest bytes (at least
/// one): leading bytes that only repeat the sign are dropped.
pub(crate) fn decimal_bytes(v: i128) -> Vec<u8> {
    let full = v.to_be_bytes();
    let mut start = 0;
    while start < 15 {
        let (b, next) = (full[start], full[start + 1]);
        let redundant = (b == 0 && next & 0x80 == 0) || (b == 0xFF && next & 0x80 != 0);
        if !redundant {
            break;
        }
        start += 1;
    }
    full[start..].to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn decimal_bytes_are_minimal_twos_complement() {
        assert_eq!(decimal_bytes(0), [0]);
        assert_eq!(decimal_bytes(1), [1]);
        assert_eq!(decimal_bytes(-1), [0xFF]);
        assert_eq!(decimal_bytes(127), [0x7F]);
        assert_eq!(decimal_bytes(128), [0x00, 0x80]);
        assert_eq!(decimal_bytes(-128), [0x80]);
        assert_eq!(decimal_bytes(-129), [0xFF, 0x7F]);
        // The spec's example: 1234.56 as decimal(6,2) is 123456 = 0x01E240.
        assert_eq!(decimal_bytes(123_456), [0x01, 0xE2, 0x40]);
    }

    #[test]
    fn widths_and_promotions() {
        assert_eq!(Literal::Int(1).to_bytes(), [1, 0, 0, 0]);
        assert_eq!(Literal::Timestamptz(-1).to_bytes(), [0xFF; 8]);
        assert_eq!(
            Literal::from_bytes(PrimitiveType::Long, &[2, 0, 0, 0]).unwrap(),
            Literal::Long(2)
        );
        assert_eq!(
            Literal::from_bytes(PrimitiveType::Double, &1.5f32.to_le_bytes()).unwrap(),
            Literal::Double(1.5)
        );
        assert!(Literal::from_bytes(PrimitiveType::Int, &[1, 2]).is_err());
        assert!(Literal::from_bytes(PrimitiveType::Boolean, &[2]).is_err());
        assert!(Literal::from_bytes(PrimitiveType::String, &[0xFF]).is_err());
        assert!(Literal::from_bytes(
            PrimitiveType::Decimal {
                precision: 38,
                scale: 0
            },
            &[0; 17]
        )
        .is_err());
    }

    #[test]
    fn scalars_and_order() {
        assert_eq!(Literal::Date(3).to_scalar(), Scalar::Int(3));
        assert_eq!(Literal::Float(1.5).to_scalar(), Scalar::Float(1.5));
        assert_eq!(
            Literal::String("é".into()).to_scalar(),
            Scalar::Bytes("é".as_bytes().to_vec())
        );
        assert_eq!(
            Literal::Double(-0.0).compare(&Literal::Double(0.0)),
            Some(Ordering::Less)
        );
        assert_eq!(
            Literal::Double(f64::NAN).compare(&Literal::Double(0.0)),
            None
        );
        assert_eq!(Literal::Int(1).compare(&Literal::Long(1)), None);
        // strings by UTF-8 bytes: U+FFFF sorts before U+10000 (as in Java's comparator for
        // Iceberg's bounds, not UTF-16 order)
        assert_eq!(
            Literal::String("\u{FFFF}".into()).compare(&Literal::String("\u{10000}".into())),
            Some(Ordering::Less)
        );
    }

    proptest! {
        #[test]
        fn decimal_round_trips(v in any::<i128>()) {
            let ty = PrimitiveType::Decimal { precision: 38, scale: 2 };
            let bytes = decimal_bytes(v);
            prop_assert_eq!(Literal::from_bytes(ty, &bytes).unwrap(), Literal::Decimal(v));
            // minimal: one byte fewer would not hold it
            if bytes.len() > 1 {
                let shorter = &bytes[1..];
                prop_assert_ne!(Literal::from_bytes(ty, shorter).unwrap(), Literal::Decimal(v));
            }
        }

        #[test]
        fn longs_round_trip(v in any::<i64>()) {
            let lit = Literal::Timestamptz(v);
            prop_assert_eq!(Literal::from_bytes(PrimitiveType::Timestamptz, &lit.to_bytes()).unwrap(), lit);
        }
    }
}
