//! [`SortOrder`]: how the values of a column compare, from its physical and logical type.

use std::cmp::Ordering;

use crate::core::format::{ConvertedType, LogicalType, Type};
use crate::core::schema::ColumnDescriptor;

/// How values of a column compare for statistics, the page index and predicates, from
/// its physical and logical type (the `TYPE_ORDER` of `parquet.thrift`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortOrder {
    /// Signed comparison: two's complement integers, floating point by value (NaN left out
    /// of statistics), `false < true`; for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY it is the
    /// DECIMAL order: big-endian two's complement integers by value.
    Signed,
    /// Unsigned comparison: unsigned integers; byte strings compared byte by byte as
    /// unsigned, a prefix first (strings, binary, UUID, ENUM, JSON, BSON).
    Unsigned,
    /// FLOAT16 stored as FIXED_LEN_BYTE_ARRAY(2): compared by the number it represents,
    /// NaN left out of statistics.
    Float16,
    /// No defined order (INT96, INTERVAL, unknown logical types, geospatial and variant
    /// values): min/max are neither written nor used.
    Undefined,
}

impl SortOrder {
    /// The order of a leaf column, from its logical type (else converted type, else
    /// physical type), as the `ColumnOrder` documentation of `parquet.thrift` lists them.
    pub fn for_column(descr: &ColumnDescriptor) -> SortOrder {
        let bytes = matches!(
            descr.physical_type,
            Type::ByteArray | Type::FixedLenByteArray
        );
        let ints = matches!(descr.physical_type, Type::Int32 | Type::Int64);
        if let Some(lt) = &descr.logical_type {
            return match lt {
                LogicalType::Integer { is_signed, .. } if ints => {
                    if *is_signed {
                        SortOrder::Signed
                    } else {
                        SortOrder::Unsigned
                    }
                }
                LogicalType::Decimal { .. } if ints || bytes => SortOrder::Signed,
                LogicalType::Float16 => {
                    if descr.physical_type == Type::FixedLenByteArray && descr.type_length == 2 {
                        SortOrder::Float16
                    } else {
                        SortOrder::Undefined
                    }
                }
                LogicalType::String
                | LogicalType::Enum
                | LogicalType::Json
                | LogicalType::Bson
                | LogicalType::Uuid
                    if bytes =>
                {
                    SortOrder::Unsigned
                }
                LogicalType::Date | LogicalType::Time { .. } | LogicalType::Timestamp { .. }
                    if ints =>
                {
                    SortOrder::Signed
                }
                // NULL annotates all-null columns: the physical order is harmless.
                LogicalType::Null => Self::physical(descr.physical_type),
                _ => SortOrder::Undefined,
            };
        }
        match descr.converted_type {
            Some(
                ConvertedType::Uint8
                | ConvertedType::Uint16
                | ConvertedType::Uint32
                | ConvertedType::Uint64,
            ) if ints => SortOrder::Unsigned,
            Some(ConvertedType::Decimal) if ints || bytes => SortOrder::Signed,
            Some(ConvertedType::Interval) => SortOrder::Undefined,
            Some(ConvertedType::Map | ConvertedType::MapKeyValue | ConvertedType::List) => {
                SortOrder::Undefined
            }
            _ => Self::physical(descr.physical_type),
        }
    }

    /// The order of a physical type without annotation.
    pub fn physical(physical_type: Type) -> SortOrder {
        match physical_type {
            Type::Boolean | Type::Int32 | Type::Int64 | Type::Float | Type::Double => {
                SortOrder::Signed
            }
            Type::ByteArray | Type::FixedLenByteArray => SortOrder::Unsigned,
            Type::Int96 | Type::Unknown(_) => SortOrder::Undefined,
        }
    }

    /// Whether values in this order can be compared at all.
    pub fn is_defined(self) -> bool {
        self != SortOrder::Undefined
    }
}

/// Compares big-endian two's complement integers of any length (DECIMAL byte arrays) by
/// value. The empty array is zero.
pub fn compare_decimal_bytes(a: &[u8], b: &[u8]) -> Ordering {
    let neg_a = a.first().is_some_and(|&x| x & 0x80 != 0);
    let neg_b = b.first().is_some_and(|&x| x & 0x80 != 0);
    if neg_a != neg_b {
        return if neg_a {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    // Same sign: sign-extend the shorter one and compare byte by byte as unsigned.
    let ext = if neg_a { 0xffu8 } else { 0 };
    let n = a.len().max(b.len());
    let byte = |v: &[u8], i: usize| {
        let pad = n - v.len();
        if i < pad {
            ext
        } else {
            v[i - pad]
        }
    };
    for i in 0..n {
        match byte(a, i).cmp(&byte(b, i)) {
            Ordering::Equal => {}
            o => return o,
        }
    }
    Ordering::Equal
}

/// The number an IEEE 754 half-precision value represents.
pub fn f16_to_f64(bits: u16) -> f64 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = ((bits >> 10) & 0x1f) as i32;
    let frac = (bits & 0x3ff) as f64;
    let magnitude = match exp {
        0 => frac * 2f64.powi(-24),
        31 => {
            if frac == 0.0 {
                f64::INFINITY
            } else {
                f64::NAN
            }
        }
        e => (1.0 + frac / 1024.0) * 2f64.powi(e - 15),
    };
    sign * magnitude
}

/// The half-precision bits of a value that came from a half (so the conversion is exact).
pub(crate) fn f64_to_f16_exact(x: f64) -> u16 {
    let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
    let a = x.abs();
    if a == 0.0 {
        return sign;
    }
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    if a < 2f64.powi(-14) {
        // Subnormal: a = frac * 2^-24.
        return sign | (a / 2f64.powi(-24)).round() as u16;
    }
    let exp = a.log2().floor() as i32;
    let frac = ((a / 2f64.powi(exp) - 1.0) * 1024.0).round() as u16;
    sign | (((exp + 15) as u16) << 10) | (frac & 0x3ff)
}

/// Compares two floating point values by value with NaN above everything (NaNs equal to
/// each other) and -0.0 equal to +0.0: the order predicates use.
#[inline]
pub fn compare_f64(a: f64, b: f64) -> Ordering {
    match a.partial_cmp(&b) {
        Some(o) => o,
        None => a.is_nan().cmp(&b.is_nan()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::schema::Schema;

    fn orders(text: &str) -> Vec<SortOrder> {
        let schema: Schema = text.parse().unwrap();
        schema.columns().iter().map(SortOrder::for_column).collect()
    }

    #[test]
    fn orders_of_types() {
        let o = orders(
            "message m {
              required int32 a; required int32 b (INTEGER(8,false)); required int64 c (UINT_64);
              required binary d (STRING); required binary e; required fixed_len_byte_array(16) f (UUID);
              required fixed_len_byte_array(9) g (DECIMAL(20,2)); required binary h (DECIMAL(10,2));
              required int64 i (DECIMAL(10,2)); required fixed_len_byte_array(2) j (FLOAT16);
              required fixed_len_byte_array(12) k (INTERVAL); required int96 l; required boolean m;
              required double n; required int64 o (TIMESTAMP(MICROS,true)); required int32 p (DATE);
              required binary q (JSON); required binary r (ENUM);
            }",
        );
        use SortOrder::*;
        assert_eq!(
            o,
            [
                Signed, Unsigned, Unsigned, Unsigned, Unsigned, Unsigned, Signed, Signed, Signed,
                Float16, Undefined, Undefined, Signed, Signed, Signed, Signed, Unsigned, Unsigned
            ]
        );
    }

    #[test]
    fn decimal_bytes_compare_by_value() {
        assert_eq!(compare_decimal_bytes(&[0xff], &[0x00]), Ordering::Less); // -1 < 0
        assert_eq!(
            compare_decimal_bytes(&[0xff, 0xff], &[0xff]),
            Ordering::Equal
        ); // -1 == -1
        assert_eq!(
            compare_decimal_bytes(&[0x01, 0x00], &[0x7f]),
            Ordering::Greater
        ); // 256 > 127
        assert_eq!(
            compare_decimal_bytes(&[0x80], &[0xff, 0x00]),
            Ordering::Greater
        ); // -128 > -256
        assert_eq!(compare_decimal_bytes(&[], &[0x00, 0x00]), Ordering::Equal);
        assert_eq!(compare_decimal_bytes(&[], &[0x80]), Ordering::Greater);
    }

    #[test]
    fn half_floats() {
        assert_eq!(f16_to_f64(0x3c00), 1.0);
        assert_eq!(f16_to_f64(0xc000), -2.0);
        assert_eq!(f16_to_f64(0x0001), 2f64.powi(-24));
        assert_eq!(f16_to_f64(0x7bff), 65504.0);
        assert!(f16_to_f64(0x7e00).is_nan());
        assert_eq!(f16_to_f64(0xfc00), f64::NEG_INFINITY);
        assert!(f16_to_f64(0x8000).is_sign_negative());
    }

    #[test]
    fn float_order_puts_nan_last() {
        assert_eq!(compare_f64(f64::NAN, f64::INFINITY), Ordering::Greater);
        assert_eq!(compare_f64(f64::NAN, f64::NAN), Ordering::Equal);
        assert_eq!(compare_f64(-0.0, 0.0), Ordering::Equal);
        assert_eq!(compare_f64(1.0, f64::NAN), Ordering::Less);
    }
}
