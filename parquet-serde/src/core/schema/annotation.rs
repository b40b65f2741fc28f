//! Logical and converted type annotations: the mapping between the two (LogicalTypes.md,
//! "Compatibility" sections) and the rules saying which physical type each may annotate.

use crate::core::format::{ConvertedType, LogicalType, TimeUnit, Type};

/// The legacy [`ConvertedType`] a writer sets next to a [`LogicalType`] (forward
/// compatibility table of LogicalTypes.md); `None` when the logical type has no legacy
/// counterpart (TIME/TIMESTAMP in NANOS, UUID, FLOAT16, UNKNOWN, VARIANT, GEOMETRY,
/// GEOGRAPHY, VECTOR, unknown members, integers of a width other than 8/16/32/64).
pub fn converted_type_for(logical: &LogicalType) -> Option<ConvertedType> {
    Some(match logical {
        LogicalType::String => ConvertedType::Utf8,
        LogicalType::Map => ConvertedType::Map,
        LogicalType::List => ConvertedType::List,
        LogicalType::Enum => ConvertedType::Enum,
        LogicalType::Decimal { .. } => ConvertedType::Decimal,
        LogicalType::Date => ConvertedType::Date,
        LogicalType::Time { unit, .. } => match unit {
            TimeUnit::Millis => ConvertedType::TimeMillis,
            TimeUnit::Micros => ConvertedType::TimeMicros,
            _ => return None,
        },
        LogicalType::Timestamp { unit, .. } => match unit {
            TimeUnit::Millis => ConvertedType::TimestampMillis,
            TimeUnit::Micros => ConvertedType::TimestampMicros,
            _ => return None,
        },
        LogicalType::Integer {
            bit_width,
            is_signed,
        } => match (bit_width, is_signed) {
            (8, true) => ConvertedType::Int8,
            (16, true) => ConvertedType::Int16,
            (32, true) => ConvertedType::Int32,
            (64, true) => ConvertedType::Int64,
            (8, false) => ConvertedType::Uint8,
            (16, false) => ConvertedType::Uint16,
            (32, false) => ConvertedType::Uint32,
            (64, false) => ConvertedType::Uint64,
            _ => return None,
        },
        LogicalType::Json => ConvertedType::Json,
        LogicalType::Bson => ConvertedType::Bson,
        LogicalType::Null
        | LogicalType::Uuid
        | LogicalType::Float16
        | LogicalType::Variant { .. }
        | LogicalType::Geometry { .. }
        | LogicalType::Geography { .. }
        | LogicalType::Vector
        | LogicalType::Unknown(_) => return None,
    })
}

/// The [`LogicalType`] a reader uses for a legacy [`ConvertedType`] when the element has no
/// logical type (backward compatibility table of LogicalTypes.md). `precision` and `scale`
/// are the schema element's, used for DECIMAL. `MAP_KEY_VALUE` reads as MAP (the spec's
/// rule for a MAP_KEY_VALUE group outside a MAP). `None` for INTERVAL (no logical
/// counterpart) and unknown values.
pub fn logical_type_for(
    converted: ConvertedType,
    precision: i32,
    scale: i32,
) -> Option<LogicalType> {
    let int = |bit_width: i8, is_signed: bool| LogicalType::Integer {
        bit_width,
        is_signed,
    };
    Some(match converted {
        ConvertedType::Utf8 => LogicalType::String,
        ConvertedType::Map | ConvertedType::MapKeyValue => LogicalType::Map,
        ConvertedType::List => LogicalType::List,
        ConvertedType::Enum => LogicalType::Enum,
        ConvertedType::Decimal => LogicalType::Decimal { scale, precision },
        ConvertedType::Date => LogicalType::Date,
        ConvertedType::TimeMillis => LogicalType::Time {
            is_adjusted_to_utc: true,
            unit: TimeUnit::Millis,
        },
        ConvertedType::TimeMicros => LogicalType::Time {
            is_adjusted_to_utc: true,
            unit: TimeUnit::Micros,
        },
        ConvertedType::TimestampMillis => LogicalType::Timestamp {
            is_adjusted_to_utc: true,
            unit: TimeUnit::Millis,
        },
        ConvertedType::TimestampMicros => LogicalType::Timestamp {
            is_adjusted_to_utc: true,
            unit: TimeUnit::Micros,
        },
        ConvertedType::Uint8 => int(8, false),
        ConvertedType::Uint16 => int(16, false),
        ConvertedType::Uint32 => int(32, false),
        ConvertedType::Uint64 => int(64, false),
        ConvertedType::Int8 => int(8, true),
        ConvertedType::Int16 => int(16, true),
        ConvertedType::Int32 => int(32, true),
        ConvertedType::Int64 => int(64, true),
        ConvertedType::Json => LogicalType::Json,
        ConvertedType::Bson => LogicalType::Bson,
        ConvertedType::Interval | ConvertedType::Unknown(_) => return None,
    })
}

/// Largest decimal precision a FIXED_LEN_BYTE_ARRAY of `length` bytes holds:
/// `floor(log10(2^(8 * length - 1) - 1))`. `None` for lengths below 1.
pub fn max_decimal_precision(length: i32) -> Option<i32> {
    if length < 1 {
        return None;
    }
    // log10(2^(8n-1) - 1) is within 1e-9 of (8n-1) * log10(2) and never lands on an
    // integer for n >= 1 (a power of two is not a power of ten), so flooring the product
    // is exact. f64 holds 8n-1 exactly for every i32 n.
    let bits = 8.0 * f64::from(length) - 1.0;
    Some(
        (bits * std::f64::consts::LOG10_2)
            .floor()
            .min(f64::from(i32::MAX)) as i32,
    )
}

/// Primitive properties an annotation is checked against.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Leaf {
    pub physical_type: Type,
    pub type_length: i32,
    pub precision: i32,
    pub scale: i32,
}

/// Checks that a decimal's precision and scale are allowed on the leaf's physical type.
fn check_decimal(leaf: &Leaf, precision: i32, scale: i32) -> Result<(), String> {
    if precision < 1 {
        return Err(format!("DECIMAL precision {precision} must be at least 1"));
    }
    if scale < 0 || scale > precision {
        return Err(format!(
            "DECIMAL scale {scale} must be between 0 and the precision {precision}"
        ));
    }
    let max = match leaf.physical_type {
        Type::Int32 => 9,
        Type::Int64 => 18,
        Type::FixedLenByteArray => max_decimal_precision(leaf.type_length).unwrap_or(0),
        Type::ByteArray => return Ok(()),
        other => return Err(format!("DECIMAL cannot annotate {}", type_name(other))),
    };
    if precision > max {
        return Err(format!(
            "DECIMAL precision {precision} does not fit {} (at most {max})",
            type_desc(leaf)
        ));
    }
    Ok(())
}

/// Checks that `logical` may annotate a primitive leaf.
pub(crate) fn check_logical_on_leaf(logical: &LogicalType, leaf: &Leaf) -> Result<(), String> {
    let t = leaf.physical_type;
    let ok = match logical {
        LogicalType::String
        | LogicalType::Enum
        | LogicalType::Json
        | LogicalType::Bson
        | LogicalType::Geometry { .. }
        | LogicalType::Geography { .. } => t == Type::ByteArray,
        LogicalType::Uuid => t == Type::FixedLenByteArray && leaf.type_length == 16,
        LogicalType::Float16 => t == Type::FixedLenByteArray && leaf.type_length == 2,
        LogicalType::Decimal { scale, precision } => {
            return check_decimal(leaf, *precision, *scale)
        }
        LogicalType::Date => t == Type::Int32,
        LogicalType::Time { unit, .. } => match unit {
            TimeUnit::Millis => t == Type::Int32,
            TimeUnit::Micros | TimeUnit::Nanos => t == Type::Int64,
            // An unknown unit is an unsupported feature, not an error in the schema: the
            // column reads as its physical type.
            TimeUnit::Unknown(_) => t == Type::Int32 || t == Type::Int64,
        },
        LogicalType::Timestamp { .. } => t == Type::Int64,
        LogicalType::Integer {
            bit_width,
            is_signed: _,
        } => match bit_width {
            8 | 16 | 32 => t == Type::Int32,
            64 => t == Type::Int64,
            other => return Err(format!("INTEGER bit width {other} is not 8, 16, 32 or 64")),
        },
        LogicalType::Null | LogicalType::Unknown(_) => true,
        LogicalType::Map
        | LogicalType::List
        | LogicalType::Variant { .. }
        | LogicalType::Vector => {
            return Err(format!(
                "{} annotates groups, not {}",
                logical_name(logical),
                type_desc(leaf)
            ))
        }
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{} cannot annotate {}",
            logical_name(logical),
            type_desc(leaf)
        ))
    }
}

/// Checks that `converted` may annotate a primitive leaf.
pub(crate) fn check_converted_on_leaf(converted: ConvertedType, leaf: &Leaf) -> Result<(), String> {
    use ConvertedType as C;
    let t = leaf.physical_type;
    let ok = match converted {
        C::Utf8 | C::Enum | C::Json | C::Bson => t == Type::ByteArray,
        C::Decimal => return check_decimal(leaf, leaf.precision, leaf.scale),
        C::Date
        | C::TimeMillis
        | C::Int8
        | C::Int16
        | C::Int32
        | C::Uint8
        | C::Uint16
        | C::Uint32 => t == Type::Int32,
        C::TimeMicros | C::TimestampMillis | C::TimestampMicros | C::Int64 | C::Uint64 => {
            t == Type::Int64
        }
        C::Interval => t == Type::FixedLenByteArray && leaf.type_length == 12,
        C::Unknown(_) => true,
        C::Map | C::MapKeyValue | C::List => {
            return Err(format!(
                "{} annotates groups, not {}",
                converted_name(converted),
                type_desc(leaf)
            ))
        }
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{} cannot annotate {}",
            converted_name(converted),
            type_desc(leaf)
        ))
    }
}

/// Checks that `logical` may annotate a group.
pub(crate) fn check_logical_on_group(logical: &LogicalType) -> Result<(), String> {
    match logical {
        LogicalType::Map
        | LogicalType::List
        | LogicalType::Variant { .. }
        | LogicalType::Vector
        | LogicalType::Unknown(_) => Ok(()),
        other => Err(format!("{} cannot annotate a group", logical_name(other))),
    }
}

/// Checks that `converted` may annotate a group.
pub(crate) fn check_converted_on_group(converted: ConvertedType) -> Result<(), String> {
    match converted {
        ConvertedType::Map | ConvertedType::MapKeyValue | ConvertedType::List => Ok(()),
        ConvertedType::Unknown(_) => Ok(()),
        other => Err(format!("{} cannot annotate a group", converted_name(other))),
    }
}

/// The lower-case name of a physical type as the message-type text writes it.
pub(crate) fn type_name(t: Type) -> String {
    match t {
        Type::Boolean => "boolean".into(),
        Type::Int32 => "int32".into(),
        Type::Int64 => "int64".into(),
        Type::Int96 => "int96".into(),
        Type::Float => "float".into(),
        Type::Double => "double".into(),
        Type::ByteArray => "binary".into(),
        Type::FixedLenByteArray => "fixed_len_byte_array".into(),
        Type::Unknown(n) => format!("physical type {n}"),
    }
}

fn type_desc(leaf: &Leaf) -> String {
    match leaf.physical_type {
        Type::FixedLenByteArray => format!("fixed_len_byte_array({})", leaf.type_length),
        other => type_name(other),
    }
}

/// The upper-case name of a logical type, without parameters (`TIMESTAMP`, `INTEGER`, ...).
pub(crate) fn logical_name(logical: &LogicalType) -> String {
    match logical {
        LogicalType::String => "STRING".into(),
        LogicalType::Map => "MAP".into(),
        LogicalType::List => "LIST".into(),
        LogicalType::Enum => "ENUM".into(),
        LogicalType::Decimal { .. } => "DECIMAL".into(),
        LogicalType::Date => "DATE".into(),
        LogicalType::Time { .. } => "TIME".into(),
        LogicalType::Timestamp { .. } => "TIMESTAMP".into(),
        LogicalType::Integer { .. } => "INTEGER".into(),
        LogicalType::Null => "UNKNOWN".into(),
        LogicalType::Json => "JSON".into(),
        LogicalType::Bson => "BSON".into(),
        LogicalType::Uuid => "UUID".into(),
        LogicalType::Float16 => "FLOAT16".into(),
        LogicalType::Variant { .. } => "VARIANT".into(),
        LogicalType::Geometry { .. } => "GEOMETRY".into(),
        LogicalType::Geography { .. } => "GEOGRAPHY".into(),
        LogicalType::Vector => "VECTOR".into(),
        LogicalType::Unknown(id) => format!("logical type {id}"),
    }
}

/// The upper-case name of a converted type as the message-type text writes it
/// (`UTF8`, `TIMESTAMP_MILLIS`, `INT_8`, ...).
pub(crate) fn converted_name(converted: ConvertedType) -> String {
    use ConvertedType as C;
    let name = match converted {
        C::Utf8 => "UTF8",
        C::Map => "MAP",
        C::MapKeyValue => "MAP_KEY_VALUE",
        C::List => "LIST",
        C::Enum => "ENUM",
        C::Decimal => "DECIMAL",
        C::Date => "DATE",
        C::TimeMillis => "TIME_MILLIS",
        C::TimeMicros => "TIME_MICROS",
        C::TimestampMillis => "TIMESTAMP_MILLIS",
        C::TimestampMicros => "TIMESTAMP_MICROS",
        C::Uint8 => "UINT_8",
        C::Uint16 => "UINT_16",
        C::Uint32 => "UINT_32",
        C::Uint64 => "UINT_64",
        C::Int8 => "INT_8",
        C::Int16 => "INT_16",
        C::Int32 => "INT_32",
        C::Int64 => "INT_64",
        C::Json => "JSON",
        C::Bson => "BSON",
        C::Interval => "INTERVAL",
        C::Unknown(n) => return format!("converted type {n}"),
    };
    name.into()
}

/// Every known converted type, for lookups by name.
pub(crate) const ALL_CONVERTED: [ConvertedType; 22] = [
    ConvertedType::Utf8,
    ConvertedType::Map,
    ConvertedType::MapKeyValue,
    ConvertedType::List,
    ConvertedType::Enum,
    ConvertedType::Decimal,
    ConvertedType::Date,
    ConvertedType::TimeMillis,
    ConvertedType::TimeMicros,
    ConvertedType::TimestampMillis,
    ConvertedType::TimestampMicros,
    ConvertedType::Uint8,
    ConvertedType::Uint16,
    ConvertedType::Uint32,
    ConvertedType::Uint64,
    ConvertedType::Int8,
    ConvertedType::Int16,
    ConvertedType::Int32,
    ConvertedType::Int64,
    ConvertedType::Json,
    ConvertedType::Bson,
    ConvertedType::Interval,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flba_decimal_precision_table() {
        // Values from the spec's formula floor(log10(2^(8n-1) - 1)).
        let expected = [
            (1, 2),
            (2, 4),
            (3, 6),
            (4, 9),
            (5, 11),
            (8, 18),
            (12, 28),
            (16, 38),
        ];
        for (n, p) in expected {
            assert_eq!(max_decimal_precision(n), Some(p), "length {n}");
        }
        assert_eq!(max_decimal_precision(0), None);
        assert_eq!(max_decimal_precision(-3), None);
        assert!(max_decimal_precision(i32::MAX).is_some());
    }

    #[test]
    fn converted_logical_round_trip() {
        for c in ALL_CONVERTED {
            match logical_type_for(c, 5, 2) {
                Some(l) => {
                    let back = converted_type_for(&l).unwrap();
                    if c == ConvertedType::MapKeyValue {
                        assert_eq!(back, ConvertedType::Map);
                    } else {
                        assert_eq!(back, c);
                    }
                }
                None => assert_eq!(c, ConvertedType::Interval),
            }
        }
        let nanos = LogicalType::Timestamp {
            is_adjusted_to_utc: false,
            unit: TimeUnit::Nanos,
        };
        assert_eq!(converted_type_for(&nanos), None);
        // Local timestamps also get the legacy annotation (LogicalTypes.md).
        let local_ms = LogicalType::Timestamp {
            is_adjusted_to_utc: false,
            unit: TimeUnit::Millis,
        };
        assert_eq!(
            converted_type_for(&local_ms),
            Some(ConvertedType::TimestampMillis)
        );
        assert_eq!(converted_type_for(&LogicalType::Uuid), None);
        assert_eq!(converted_type_for(&LogicalType::Float16), None);
    }

    #[test]
    fn leaf_rules() {
        let leaf = |physical_type, type_length| Leaf {
            physical_type,
            type_length,
            precision: 0,
            scale: 0,
        };
        let dec = |precision, scale| LogicalType::Decimal { scale, precision };
        assert!(check_logical_on_leaf(&LogicalType::String, &leaf(Type::ByteArray, 0)).is_ok());
        assert!(check_logical_on_leaf(&LogicalType::String, &leaf(Type::Int32, 0)).is_err());
        assert!(
            check_logical_on_leaf(&LogicalType::Uuid, &leaf(Type::FixedLenByteArray, 16)).is_ok()
        );
        assert!(
            check_logical_on_leaf(&LogicalType::Uuid, &leaf(Type::FixedLenByteArray, 15)).is_err()
        );
        assert!(
            check_logical_on_leaf(&LogicalType::Float16, &leaf(Type::FixedLenByteArray, 2)).is_ok()
        );
        assert!(check_logical_on_leaf(&dec(9, 2), &leaf(Type::Int32, 0)).is_ok());
        assert!(check_logical_on_leaf(&dec(10, 2), &leaf(Type::Int32, 0)).is_err());
        assert!(check_logical_on_leaf(&dec(18, 0), &leaf(Type::Int64, 0)).is_ok());
        assert!(check_logical_on_leaf(&dec(19, 0), &leaf(Type::Int64, 0)).is_err());
        assert!(check_logical_on_leaf(&dec(38, 10), &leaf(Type::FixedLenByteArray, 16)).is_ok());
        assert!(check_logical_on_leaf(&dec(39, 10), &leaf(Type::FixedLenByteArray, 16)).is_err());
        assert!(check_logical_on_leaf(&dec(100, 10), &leaf(Type::ByteArray, 0)).is_ok());
        assert!(check_logical_on_leaf(&dec(0, 0), &leaf(Type::ByteArray, 0)).is_err());
        assert!(check_logical_on_leaf(&dec(3, 4), &leaf(Type::ByteArray, 0)).is_err());
        assert!(check_logical_on_leaf(&dec(3, -1), &leaf(Type::ByteArray, 0)).is_err());
        assert!(check_logical_on_leaf(&dec(3, 1), &leaf(Type::Double, 0)).is_err());
        let int = |bit_width, is_signed| LogicalType::Integer {
            bit_width,
            is_signed,
        };
        assert!(check_logical_on_leaf(&int(8, true), &leaf(Type::Int32, 0)).is_ok());
        assert!(check_logical_on_leaf(&int(64, false), &leaf(Type::Int64, 0)).is_ok());
        assert!(check_logical_on_leaf(&int(64, false), &leaf(Type::Int32, 0)).is_err());
        assert!(check_logical_on_leaf(&int(12, true), &leaf(Type::Int32, 0)).is_err());
        assert!(check_logical_on_leaf(&LogicalType::List, &leaf(Type::Int32, 0)).is_err());
        assert!(check_logical_on_leaf(&LogicalType::Null, &leaf(Type::Boolean, 0)).is_ok());
        assert!(check_logical_on_leaf(&LogicalType::Unknown(99), &leaf(Type::Int96, 0)).is_ok());
        assert!(check_converted_on_leaf(
            ConvertedType::Interval,
            &leaf(Type::FixedLenByteArray, 12)
        )
        .is_ok());
        assert!(check_converted_on_leaf(
            ConvertedType::Interval,
            &leaf(Type::FixedLenByteArray, 8)
        )
        .is_err());
        assert!(check_converted_on_leaf(ConvertedType::Uint64, &leaf(Type::Int64, 0)).is_ok());
        assert!(check_converted_on_leaf(ConvertedType::TimeMillis, &leaf(Type::Int64, 0)).is_err());
        assert!(check_converted_on_group(ConvertedType::MapKeyValue).is_ok());
        assert!(check_converted_on_group(ConvertedType::Utf8).is_err());
        assert!(check_logical_on_group(&LogicalType::String).is_err());
    }
}
