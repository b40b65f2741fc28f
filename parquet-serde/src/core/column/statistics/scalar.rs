//! [`Scalar`]: one typed value of a column, as statistics hold it and predicates name it.

use std::cmp::Ordering;
use std::fmt;

use super::decimal::Decimal;
use super::order::{compare_f64, f16_to_f64, SortOrder};
use crate::core::format::Type;

/// A typed value: a statistics bound read from a file, or a literal of a predicate.
///
/// Values live in four domains that compare naturally: every integer (signed, unsigned
/// and DECIMAL unscaled values) is an `Int`, every floating point number (FLOAT, DOUBLE,
/// FLOAT16) a `Float`, byte strings (strings, binary, UUID) `Bytes`, and booleans. Integers
/// and floats compare with each other by value. A predicate's decimal literal is a
/// `Decimal`, kept exactly as written; it compares exactly with integers and decimals.
///
/// ```
/// use parquet_serde::core::column::Scalar;
/// assert_eq!(Scalar::from("ERROR"), Scalar::Bytes(b"ERROR".to_vec()));
/// assert_eq!(Scalar::from(7u32), Scalar::Int(7));
/// assert!(Scalar::from(2) < Scalar::from(2.5));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Scalar {
    /// BOOLEAN.
    Bool(bool),
    /// Any integer: INT32, INT64 (signed or unsigned), DECIMAL unscaled values.
    Int(i128),
    /// FLOAT, DOUBLE and FLOAT16.
    Float(f64),
    /// BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY values other than DECIMAL and FLOAT16.
    Bytes(Vec<u8>),
    /// An exact decimal number as a predicate's text wrote it (`90000.00`): compares
    /// exactly with integers and other decimals, with floats as its nearest `f64`.
    /// Statistics never hold one.
    Decimal(Decimal),
}

impl Scalar {
    /// Decodes a statistics value (PLAIN encoded, byte arrays without their length) of a
    /// column of `physical_type` compared in `order`. `None` when the bytes do not fit the
    /// type, the order is undefined, or a DECIMAL does not fit 128 bits.
    pub fn decode(bytes: &[u8], physical_type: Type, order: SortOrder) -> Option<Scalar> {
        if !order.is_defined() {
            return None;
        }
        let unsigned = order == SortOrder::Unsigned;
        Some(match physical_type {
            Type::Boolean => match bytes {
                [b] => Scalar::Bool(*b != 0),
                _ => return None,
            },
            Type::Int32 => {
                let v = i32::from_le_bytes(bytes.try_into().ok()?);
                Scalar::Int(if unsigned {
                    v as u32 as i128
                } else {
                    v as i128
                })
            }
            Type::Int64 => {
                let v = i64::from_le_bytes(bytes.try_into().ok()?);
                Scalar::Int(if unsigned {
                    v as u64 as i128
                } else {
                    v as i128
                })
            }
            Type::Float => Scalar::Float(f32::from_le_bytes(bytes.try_into().ok()?) as f64),
            Type::Double => Scalar::Float(f64::from_le_bytes(bytes.try_into().ok()?)),
            Type::ByteArray | Type::FixedLenByteArray => match order {
                SortOrder::Float16 => {
                    Scalar::Float(f16_to_f64(u16::from_le_bytes(bytes.try_into().ok()?)))
                }
                SortOrder::Signed => Scalar::Int(decimal_to_i128(bytes)?),
                _ => Scalar::Bytes(bytes.to_vec()),
            },
            Type::Int96 | Type::Unknown(_) => return None,
        })
    }

    /// Compares two values of the same domain (integers and floats compare with each
    /// other); `None` across domains. Floats order NaN above everything and -0.0 equal
    /// to +0.0.
    pub fn compare(&self, other: &Scalar) -> Option<Ordering> {
        Some(match (self, other) {
            (Scalar::Bool(a), Scalar::Bool(b)) => a.cmp(b),
            (Scalar::Int(a), Scalar::Int(b)) => a.cmp(b),
            (Scalar::Float(a), Scalar::Float(b)) => compare_f64(*a, *b),
            (Scalar::Int(a), Scalar::Float(b)) => compare_int_float(*a, *b),
            (Scalar::Float(a), Scalar::Int(b)) => compare_int_float(*b, *a).reverse(),
            (Scalar::Bytes(a), Scalar::Bytes(b)) => a.as_slice().cmp(b.as_slice()),
            (Scalar::Decimal(a), Scalar::Decimal(b)) => a.cmp(b),
            (Scalar::Decimal(a), Scalar::Int(b)) => a.cmp_int(*b),
            (Scalar::Int(a), Scalar::Decimal(b)) => b.cmp_int(*a).reverse(),
            (Scalar::Decimal(a), Scalar::Float(b)) => compare_f64(a.to_f64(), *b),
            (Scalar::Float(a), Scalar::Decimal(b)) => compare_f64(*a, b.to_f64()),
            _ => return None,
        })
    }

    /// Whether this is a floating point NaN.
    pub fn is_nan(&self) -> bool {
        matches!(self, Scalar::Float(f) if f.is_nan())
    }

    /// The integer, if this is one that fits an `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Scalar::Int(v) => i64::try_from(*v).ok(),
            _ => None,
        }
    }

    /// The number as an `f64` (integers converted, maybe rounded).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Scalar::Int(v) => Some(*v as f64),
            Scalar::Float(v) => Some(*v),
            Scalar::Decimal(d) => Some(d.to_f64()),
            _ => None,
        }
    }

    /// The bytes of a `Bytes` value.
    pub fn as_bytes(&self) -> Option<&[u8]> {
        match self {
            Scalar::Bytes(b) => Some(b),
            _ => None,
        }
    }

    /// The bytes of a `Bytes` value as UTF-8, if they are.
    pub fn as_str(&self) -> Option<&str> {
        self.as_bytes().and_then(|b| std::str::from_utf8(b).ok())
    }

    /// The boolean of a `Bool` value.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Scalar::Bool(b) => Some(*b),
            _ => None,
        }
    }
}

/// Compares an integer with a float by value (NaN above everything).
fn compare_int_float(i: i128, f: f64) -> Ordering {
    if f.is_nan() {
        return Ordering::Less;
    }
    // i128 -> f64 rounds; settle ties with the exact integer part of the float.
    match (i as f64).partial_cmp(&f) {
        Some(Ordering::Equal) | None => {
            let limit = 2f64.powi(127);
            if f >= limit {
                Ordering::Less
            } else if f < -limit {
                Ordering::Greater
            } else {
                let t = f.trunc();
                match i.cmp(&(t as i128)) {
                    Ordering::Equal if f > t => Ordering::Less,
                    Ordering::Equal if f < t => Ordering::Greater,
                    o => o,
                }
            }
        }
        Some(o) => o,
    }
}

/// A big-endian two's complement integer of up to 16 significant bytes.
pub(crate) fn decimal_to_i128(bytes: &[u8]) -> Option<i128> {
    let neg = bytes.first().is_some_and(|&b| b & 0x80 != 0);
    let ext = if neg { 0xff } else { 0 };
    // Leading bytes beyond 16 must be pure sign extension.
    let (head, tail) = bytes.split_at(bytes.len().saturating_sub(16));
    if head.iter().any(|&b| b != ext) {
        return None;
    }
    if tail.first().is_some_and(|&b| (b & 0x80 != 0) != neg) && !head.is_empty() {
        return None;
    }
    let mut buf = [ext; 16];
    buf[16 - tail.len()..].copy_from_slice(tail);
    Some(i128::from_be_bytes(buf))
}

impl PartialEq for Scalar {
    fn eq(&self, other: &Self) -> bool {
        self.compare(other) == Some(Ordering::Equal)
    }
}

impl PartialOrd for Scalar {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.compare(other)
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::Bool(b) => write!(f, "{b}"),
            Scalar::Int(v) => write!(f, "{v}"),
            Scalar::Float(v) => write!(f, "{v:?}"),
            Scalar::Decimal(d) => write!(f, "{d}"),
            Scalar::Bytes(b) => match std::str::from_utf8(b) {
                Ok(s) if !s.chars().any(char::is_control) => write!(f, "{s:?}"),
                _ => {
                    f.write_str("0x")?;
                    b.iter().try_for_each(|x| write!(f, "{x:02x}"))
                }
            },
        }
    }
}

macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Scalar {
            fn from(v: $t) -> Self {
                Scalar::Int(v as i128)
            }
        }
    )*};
}
from_int!(i8, i16, i32, i64, i128, u8, u16, u32, u64, isize, usize);

impl From<bool> for Scalar {
    fn from(v: bool) -> Self {
        Scalar::Bool(v)
    }
}

impl From<f32> for Scalar {
    fn from(v: f32) -> Self {
        Scalar::Float(v as f64)
    }
}

impl From<f64> for Scalar {
    fn from(v: f64) -> Self {
        Scalar::Float(v)
    }
}

impl From<Decimal> for Scalar {
    fn from(v: Decimal) -> Self {
        Scalar::Decimal(v)
    }
}

impl From<&str> for Scalar {
    fn from(v: &str) -> Self {
        Scalar::Bytes(v.as_bytes().to_vec())
    }
}

impl From<String> for Scalar {
    fn from(v: String) -> Self {
        Scalar::Bytes(v.into_bytes())
    }
}

impl From<&String> for Scalar {
    fn from(v: &String) -> Self {
        Scalar::Bytes(v.as_bytes().to_vec())
    }
}

impl From<&[u8]> for Scalar {
    fn from(v: &[u8]) -> Self {
        Scalar::Bytes(v.to_vec())
    }
}

impl From<Vec<u8>> for Scalar {
    fn from(v: Vec<u8>) -> Self {
        Scalar::Bytes(v)
    }
}

impl<const N: usize> From<[u8; N]> for Scalar {
    fn from(v: [u8; N]) -> Self {
        Scalar::Bytes(v.to_vec())
    }
}

impl<const N: usize> From<&[u8; N]> for Scalar {
    fn from(v: &[u8; N]) -> Self {
        Scalar::Bytes(v.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_by_type_and_order() {
        let d = Scalar::decode;
        assert_eq!(
            d(&(-1i32).to_le_bytes(), Type::Int32, SortOrder::Signed),
            Some(Scalar::Int(-1))
        );
        assert_eq!(
            d(&(-1i32).to_le_bytes(), Type::Int32, SortOrder::Unsigned),
            Some(Scalar::Int(u32::MAX as i128))
        );
        assert_eq!(
            d(&(-1i64).to_le_bytes(), Type::Int64, SortOrder::Unsigned),
            Some(Scalar::Int(u64::MAX as i128))
        );
        assert_eq!(d(&[1, 2, 3], Type::Int32, SortOrder::Signed), None);
        assert_eq!(
            d(&[0x00, 0xc0], Type::FixedLenByteArray, SortOrder::Float16),
            Some(Scalar::Float(-2.0))
        );
        assert_eq!(
            d(&[0xff, 0x38], Type::FixedLenByteArray, SortOrder::Signed),
            Some(Scalar::Int(-200))
        );
        assert_eq!(
            d(b"abc", Type::ByteArray, SortOrder::Unsigned),
            Some(Scalar::Bytes(b"abc".to_vec()))
        );
        assert_eq!(
            d(&[1], Type::Boolean, SortOrder::Signed),
            Some(Scalar::Bool(true))
        );
        assert_eq!(d(&[0; 12], Type::Int96, SortOrder::Signed), None);
        assert_eq!(d(b"abc", Type::ByteArray, SortOrder::Undefined), None);
    }

    #[test]
    fn wide_decimals() {
        let mut v = vec![0xffu8; 4];
        v.extend_from_slice(&(-5i128).to_be_bytes());
        assert_eq!(decimal_to_i128(&v), Some(-5));
        let mut w = vec![0x00u8; 3];
        w.extend_from_slice(&i128::MAX.to_be_bytes());
        assert_eq!(decimal_to_i128(&w), Some(i128::MAX));
        w[0] = 1;
        assert_eq!(decimal_to_i128(&w), None);
        // 17 bytes whose sign byte disagrees with the 16-byte tail: out of range.
        let mut x = vec![0x00u8];
        x.extend_from_slice(&(-1i128).to_be_bytes());
        assert_eq!(decimal_to_i128(&x), None);
        assert_eq!(decimal_to_i128(&[]), Some(0));
    }

    #[test]
    fn compares_across_numeric_domains() {
        assert!(Scalar::Int(2) < Scalar::Float(2.5));
        assert!(Scalar::Int(3) > Scalar::Float(2.5));
        assert_eq!(Scalar::Int(2), Scalar::Float(2.0));
        assert!(Scalar::Int(i128::MAX) < Scalar::Float(f64::INFINITY));
        assert!(Scalar::Int(i128::MIN) > Scalar::Float(f64::NEG_INFINITY));
        assert!(Scalar::Int(5) < Scalar::Float(f64::NAN));
        assert!(Scalar::Float(-2.5) < Scalar::Int(-2));
        assert!(Scalar::Float(-2.5) > Scalar::Int(-3));
        assert_eq!(Scalar::Bytes(vec![1]).compare(&Scalar::Int(1)), None);
        assert!(Scalar::from("a") < Scalar::from(&[0xffu8][..]));
    }

    #[test]
    fn displays() {
        assert_eq!(Scalar::from("hi").to_string(), "\"hi\"");
        assert_eq!(Scalar::Bytes(vec![0, 255]).to_string(), "0x00ff");
        assert_eq!(Scalar::Float(1.0).to_string(), "1.0");
        assert_eq!(Scalar::Int(-3).to_string(), "-3");
    }
}
