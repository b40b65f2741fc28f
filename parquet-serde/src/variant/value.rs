//! [`Variant`]: an owned Variant value (VariantEncoding.md), every primitive type kept.

use std::collections::BTreeMap;

/// An owned Variant value.
///
/// Every primitive type of the encoding is its own variant, so a value read from bytes
/// encodes back to the same type. Objects keep their fields sorted by name (unsigned byte
/// order, as the encoding lists them), so two objects with the same fields are equal
/// whatever order they were built in. Short strings and long strings are one `String`
/// (the encoding says they are the same value).
///
/// ```
/// use parquet_serde::variant::Variant;
/// let v = Variant::object([("level", Variant::from("warn")), ("code", Variant::Int16(503))]);
/// assert_eq!(v.get("code"), Some(&Variant::Int16(503)));
/// let (metadata, value) = v.encode();
/// assert_eq!(Variant::decode(&metadata, &value)?, v);
/// # Ok::<(), parquet_serde::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Variant {
    /// null (primitive type 0).
    #[default]
    Null,
    /// boolean (types 1 and 2).
    Bool(bool),
    /// int8 (type 3).
    Int8(i8),
    /// int16 (type 4).
    Int16(i16),
    /// int32 (type 5).
    Int32(i32),
    /// int64 (type 6).
    Int64(i64),
    /// float (type 14).
    Float(f32),
    /// double (type 7).
    Double(f64),
    /// decimal4 (type 8): at most 9 digits.
    Decimal4 {
        /// Unscaled value.
        unscaled: i32,
        /// Digits after the point, 0 to 38.
        scale: u8,
    },
    /// decimal8 (type 9): at most 18 digits.
    Decimal8 {
        /// Unscaled value.
        unscaled: i64,
        /// Digits after the point, 0 to 38.
        scale: u8,
    },
    /// decimal16 (type 10): at most 38 digits.
    Decimal16 {
        /// Unscaled value.
        unscaled: i128,
        /// Digits after the point, 0 to 38.
        scale: u8,
    },
    /// date (type 11): days since 1970-01-01.
    Date(i32),
    /// time without time zone (type 17): microseconds since midnight.
    Time(i64),
    /// timestamp with time zone in microseconds (type 12): an instant, UTC.
    TimestampMicros(i64),
    /// timestamp without time zone in microseconds (type 13): a local date-time.
    TimestampNtzMicros(i64),
    /// timestamp with time zone in nanoseconds (type 18).
    TimestampNanos(i64),
    /// timestamp without time zone in nanoseconds (type 19).
    TimestampNtzNanos(i64),
    /// binary (type 15).
    Binary(Vec<u8>),
    /// string (type 16, or a short string).
    String(String),
    /// uuid (type 20): the 16 bytes in big-endian (RFC 4122) order.
    Uuid([u8; 16]),
    /// array: an ordered sequence of values.
    Array(Vec<Variant>),
    /// object: fields sorted by name, names unique.
    Object(BTreeMap<String, Variant>),
}

impl Variant {
    /// An object of `fields` (a later field replaces an earlier one of the same name).
    pub fn object<K: Into<String>>(fields: impl IntoIterator<Item = (K, Variant)>) -> Variant {
        Variant::Object(fields.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// Whether this is `Null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Variant::Null)
    }

    /// The field `name` of an object.
    pub fn get(&self, name: &str) -> Option<&Variant> {
        match self {
            Variant::Object(fields) => fields.get(name),
            _ => None,
        }
    }

    /// The string of a string value.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Variant::String(s) => Some(s),
            _ => None,
        }
    }

    /// The value of an exact numeric type without fraction (int8 to int64, a decimal whose
    /// value is whole) as an `i64`, when it fits.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Variant::Int8(x) => Some(x.into()),
            Variant::Int16(x) => Some(x.into()),
            Variant::Int32(x) => Some(x.into()),
            Variant::Int64(x) => Some(x),
            Variant::Decimal4 { unscaled, scale } => whole(unscaled.into(), scale),
            Variant::Decimal8 { unscaled, scale } => whole(unscaled.into(), scale),
            Variant::Decimal16 { unscaled, scale } => whole(unscaled, scale),
            _ => None,
        }
    }

    /// The value of a numeric type as an `f64` (rounded when the type is wider).
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Variant::Float(x) => Some(x.into()),
            Variant::Double(x) => Some(x),
            Variant::Decimal4 { unscaled, scale } => Some(decimal_f64(unscaled.into(), scale)),
            Variant::Decimal8 { unscaled, scale } => Some(decimal_f64(unscaled.into(), scale)),
            Variant::Decimal16 { unscaled, scale } => Some(decimal_f64(unscaled, scale)),
            _ => self.as_i64().map(|x| x as f64),
        }
    }

    /// The unscaled value and scale of a decimal of any width.
    pub fn as_decimal(&self) -> Option<(i128, u8)> {
        match *self {
            Variant::Decimal4 { unscaled, scale } => Some((unscaled.into(), scale)),
            Variant::Decimal8 { unscaled, scale } => Some((unscaled.into(), scale)),
            Variant::Decimal16 { unscaled, scale } => Some((unscaled, scale)),
            _ => None,
        }
    }

    /// The name of this value's type, as VariantEncoding.md spells it.
    pub fn type_name(&self) -> &'static str {
        match self {
            Variant::Null => "null",
            Variant::Bool(_) => "boolean",
            Variant::Int8(_) => "int8",
            Variant::Int16(_) => "int16",
            Variant::Int32(_) => "int32",
            Variant::Int64(_) => "int64",
            Variant::Float(_) => "float",
            Variant::Double(_) => "double",
            Variant::Decimal4 { .. } => "decimal4",
            Variant::Decimal8 { .. } => "decimal8",
            Variant::Decimal16 { .. } => "decimal16",
            Variant::Date(_) => "date",
            Variant::Time(_) => "time",
            Variant::TimestampMicros(_) => "timestamp",
            Variant::TimestampNtzMicros(_) => "timestamp without time zone",
            Variant::TimestampNanos(_) => "timestamp with time zone (nanos)",
            Variant::TimestampNtzNanos(_) => "timestamp without time zone (nanos)",
            Variant::Binary(_) => "binary",
            Variant::String(_) => "string",
            Variant::Uuid(_) => "uuid",
            Variant::Array(_) => "array",
            Variant::Object(_) => "object",
        }
    }

    /// The smallest integer type holding `x` (how JSON numbers become Variant integers).
    pub fn int(x: i64) -> Variant {
        if let Ok(v) = i8::try_from(x) {
            Variant::Int8(v)
        } else if let Ok(v) = i16::try_from(x) {
            Variant::Int16(v)
        } else if let Ok(v) = i32::try_from(x) {
            Variant::Int32(v)
        } else {
            Variant::Int64(x)
        }
    }

    /// The narrowest decimal type holding `unscaled × 10^-scale`; `None` when the
    /// scale is above 38 or the value has more than 38 digits.
    pub fn decimal(unscaled: i128, scale: u8) -> Option<Variant> {
        if scale > MAX_DECIMAL_DIGITS || unscaled.unsigned_abs() > MAX_DECIMAL16 {
            return None;
        }
        let abs = unscaled.unsigned_abs();
        Some(if abs <= 999_999_999 {
            Variant::Decimal4 {
                unscaled: unscaled as i32,
                scale,
            }
        } else if abs <= 999_999_999_999_999_999 {
            Variant::Decimal8 {
                unscaled: unscaled as i64,
                scale,
            }
        } else {
            Variant::Decimal16 { unscaled, scale }
        })
    }
}

/// Largest scale and number of digits of a Variant decimal.
pub(crate) const MAX_DECIMAL_DIGITS: u8 = 38;
/// 10^38 - 1.
pub(crate) const MAX_DECIMAL16: u128 = 99_999_999_999_999_999_999_999_999_999_999_999_999;

fn whole(unscaled: i128, scale: u8) -> Option<i64> {
    let p = 10i128.checked_pow(scale.into())?;
    (unscaled % p == 0)
        .then(|| i64::try_from(unscaled / p).ok())
        .flatten()
}

fn decimal_f64(unscaled: i128, scale: u8) -> f64 {
    crate::core::values::text::decimal_f64(unscaled, scale.into())
}

impl From<bool> for Variant {
    fn from(v: bool) -> Variant {
        Variant::Bool(v)
    }
}

macro_rules! from_int {
    ($($t:ty => $v:ident),*) => {$(
        impl From<$t> for Variant {
            fn from(v: $t) -> Variant {
                Variant::$v(v.into())
            }
        }
    )*};
}

from_int!(i8 => Int8, i16 => Int16, i32 => Int32, i64 => Int64, u8 => Int16, u16 => Int32, u32 => Int64, f32 => Float, f64 => Double);

impl From<&str> for Variant {
    fn from(v: &str) -> Variant {
        Variant::String(v.to_owned())
    }
}

impl From<String> for Variant {
    fn from(v: String) -> Variant {
        Variant::String(v)
    }
}

impl From<Vec<u8>> for Variant {
    fn from(v: Vec<u8>) -> Variant {
        Variant::Binary(v)
    }
}

impl From<Vec<Variant>> for Variant {
    fn from(v: Vec<Variant>) -> Variant {
        Variant::Array(v)
    }
}

impl<T: Into<Variant>> From<Option<T>> for Variant {
    fn from(v: Option<T>) -> Variant {
        v.map_or(Variant::Null, Into::into)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrowest_types() {
        assert_eq!(Variant::int(5), Variant::Int8(5));
        assert_eq!(Variant::int(-300), Variant::Int16(-300));
        assert_eq!(Variant::int(1 << 20), Variant::Int32(1 << 20));
        assert_eq!(Variant::int(1 << 40), Variant::Int64(1 << 40));
        assert_eq!(
            Variant::decimal(12345, 2),
            Some(Variant::Decimal4 {
                unscaled: 12345,
                scale: 2
            })
        );
        assert!(matches!(
            Variant::decimal(10_000_000_000, 0),
            Some(Variant::Decimal8 { .. })
        ));
        assert!(matches!(
            Variant::decimal(i64::MAX as i128 * 10, 0),
            Some(Variant::Decimal16 { .. })
        ));
        assert_eq!(Variant::decimal(1, 39), None);
        assert_eq!(Variant::decimal(i128::MAX, 0), None);
    }

    #[test]
    fn numeric_views() {
        assert_eq!(
            Variant::Decimal8 {
                unscaled: 1200,
                scale: 2
            }
            .as_i64(),
            Some(12)
        );
        assert_eq!(
            Variant::Decimal8 {
                unscaled: 1201,
                scale: 2
            }
            .as_i64(),
            None
        );
        assert_eq!(Variant::Int8(3).as_f64(), Some(3.0));
        assert_eq!(Variant::from("x").as_i64(), None);
    }
}
