//! Small constructors for schema nodes, used by the trait implementations and the derive.
//!
//! These build [`SchemaNode`]s through their public fields, always setting the legacy
//! converted type that matches the logical type (as LogicalTypes.md asks of writers).

use crate::core::format::{LogicalType, TimeUnit, Type};
use crate::core::schema::{NodeKind, Repetition, SchemaNode};

use super::attrs::{DecimalSpec, GeoSpec};

/// A required leaf with no annotation.
pub(crate) fn leaf(name: &str, physical_type: Type) -> SchemaNode {
    SchemaNode::primitive(name, Repetition::Required, physical_type)
}

/// A required `FIXED_LEN_BYTE_ARRAY(len)` leaf with no annotation.
pub(crate) fn fixed_leaf(name: &str, len: i32) -> SchemaNode {
    leaf(name, Type::FixedLenByteArray).with_type_length(len)
}

/// A required group with no annotation.
pub(crate) fn group(name: &str, fields: Vec<SchemaNode>) -> SchemaNode {
    SchemaNode::group(name, Repetition::Required, fields)
}

/// `node` with `logical` as its logical type and the matching converted type; a DECIMAL also
/// sets the node's precision and scale.
pub(crate) fn annotate(node: SchemaNode, logical: LogicalType) -> SchemaNode {
    node.with_logical_type(logical)
}

/// An integer leaf: `INT32` up to 32 bits, `INT64` for 64, with INTEGER(bits, signed).
pub(crate) fn integer(name: &str, bit_width: i8, is_signed: bool) -> SchemaNode {
    let physical = if bit_width <= 32 {
        Type::Int32
    } else {
        Type::Int64
    };
    annotate(
        leaf(name, physical),
        LogicalType::Integer {
            bit_width,
            is_signed,
        },
    )
}

/// A `BYTE_ARRAY` STRING leaf.
pub(crate) fn string(name: &str) -> SchemaNode {
    annotate(leaf(name, Type::ByteArray), LogicalType::String)
}

/// A `BYTE_ARRAY` JSON leaf.
pub(crate) fn json(name: &str) -> SchemaNode {
    annotate(leaf(name, Type::ByteArray), LogicalType::Json)
}

/// A `BYTE_ARRAY` GEOMETRY or GEOGRAPHY leaf (WKB values); no converted type exists.
pub(crate) fn geo(name: &str, spec: GeoSpec) -> SchemaNode {
    annotate(leaf(name, Type::ByteArray), spec.logical_type())
}

/// A `BYTE_ARRAY` ENUM leaf.
pub(crate) fn enum_leaf(name: &str) -> SchemaNode {
    annotate(leaf(name, Type::ByteArray), LogicalType::Enum)
}

/// A 16-byte `FIXED_LEN_BYTE_ARRAY` UUID leaf.
pub(crate) fn uuid(name: &str) -> SchemaNode {
    annotate(fixed_leaf(name, 16), LogicalType::Uuid)
}

/// A 2-byte `FIXED_LEN_BYTE_ARRAY` FLOAT16 leaf.
#[cfg_attr(not(feature = "half"), allow(dead_code))]
pub(crate) fn float16(name: &str) -> SchemaNode {
    annotate(fixed_leaf(name, 2), LogicalType::Float16)
}

/// A 12-byte `FIXED_LEN_BYTE_ARRAY` leaf with the converted type INTERVAL (which has no
/// logical type).
pub(crate) fn interval(name: &str) -> SchemaNode {
    fixed_leaf(name, 12).with_converted_type(crate::core::format::ConvertedType::Interval)
}

/// A `BYTE_ARRAY` BSON leaf: the BSON logical type without its legacy converted type, which
/// DuckDB 2.0 refuses with the whole file ("Unsupported converted type (20)") while it reads
/// the logical type alone as a BLOB.
pub(crate) fn bson(name: &str) -> SchemaNode {
    let mut node = annotate(leaf(name, Type::ByteArray), LogicalType::Bson);
    node.converted_type = None;
    node
}

/// An `INT64` TIMESTAMP leaf.
pub(crate) fn timestamp(name: &str, unit: TimeUnit, is_adjusted_to_utc: bool) -> SchemaNode {
    annotate(
        leaf(name, Type::Int64),
        LogicalType::Timestamp {
            is_adjusted_to_utc,
            unit,
        },
    )
}

/// A TIME leaf: `INT32` for milliseconds, `INT64` for finer units.
pub(crate) fn time(name: &str, unit: TimeUnit, is_adjusted_to_utc: bool) -> SchemaNode {
    let physical = if unit == TimeUnit::Millis {
        Type::Int32
    } else {
        Type::Int64
    };
    annotate(
        leaf(name, physical),
        LogicalType::Time {
            is_adjusted_to_utc,
            unit,
        },
    )
}

/// An `INT32` DATE leaf.
pub(crate) fn date(name: &str) -> SchemaNode {
    annotate(leaf(name, Type::Int32), LogicalType::Date)
}

/// Smallest `FIXED_LEN_BYTE_ARRAY` length whose two's complement range holds `precision`
/// decimal digits: the least `n` with `floor(log10(2^(8n-1) - 1)) >= precision`. `None` above
/// 38 digits (more than 16 bytes).
pub(crate) fn decimal_bytes(precision: u32) -> Option<i32> {
    let mut n = 1u32;
    while n <= 16 {
        // 2^(8n-1) - 1 fits a u128 for n <= 16.
        let max = (1u128 << (8 * n - 1)) - 1;
        // Digits the range always holds: one less than the digit count of its largest value.
        let digits = max.ilog10();
        if digits >= precision {
            return Some(n as i32);
        }
        n += 1;
    }
    None
}

/// Physical storage of a DECIMAL leaf.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DecimalStorage {
    /// `INT32` (precision up to 9).
    Int32,
    /// `INT64` (precision up to 18).
    Int64,
    /// `FIXED_LEN_BYTE_ARRAY` of the least length for the precision.
    Fixed,
}

/// A DECIMAL leaf stored as `storage`, widened when the precision does not fit it (`INT32`
/// above 9 digits becomes `INT64`, `INT64` above 18 becomes a fixed array).
pub(crate) fn decimal(name: &str, spec: DecimalSpec, storage: DecimalStorage) -> SchemaNode {
    let p = spec.precision();
    let storage = match storage {
        DecimalStorage::Int32 if p > 9 => DecimalStorage::Int64,
        other => other,
    };
    let storage = match storage {
        DecimalStorage::Int64 if p > 18 => DecimalStorage::Fixed,
        other => other,
    };
    let base = match storage {
        DecimalStorage::Int32 => leaf(name, Type::Int32),
        DecimalStorage::Int64 => leaf(name, Type::Int64),
        DecimalStorage::Fixed => match decimal_bytes(p) {
            Some(len) => fixed_leaf(name, len),
            // DecimalSpec caps the precision at 38, which 16 bytes hold; a BYTE_ARRAY
            // decimal has no precision limit, so it is the safe answer all the same.
            None => leaf(name, Type::ByteArray),
        },
    };
    annotate(
        base,
        LogicalType::Decimal {
            scale: spec.scale() as i32,
            precision: p as i32,
        },
    )
}

/// The required 3-level LIST: `name (LIST) { repeated group list { element } }`.
pub(crate) fn list(name: &str, element: SchemaNode) -> SchemaNode {
    SchemaNode::list(name, Repetition::Required, element)
}

/// The required MAP: `name (MAP) { repeated group key_value { required key; value } }`.
pub(crate) fn map(name: &str, key: SchemaNode, value: SchemaNode) -> SchemaNode {
    SchemaNode::map(name, Repetition::Required, key, value)
}

/// The node of a value that carries no data (`()`, unit structs, unit variants): a BOOLEAN
/// that is `true` when present.
pub(crate) fn unit(name: &str) -> SchemaNode {
    leaf(name, Type::Boolean)
}

/// Whether `node` is a plain group: a required group with no annotation (a struct's node).
pub(crate) fn is_plain_group(node: &SchemaNode) -> bool {
    matches!(node.kind, NodeKind::Group { .. })
        && node.repetition == Repetition::Required
        && node.logical_type.is_none()
        && node.converted_type.is_none()
}

/// The message (root) for a row type whose node is `node`: a plain group becomes the root
/// itself, renamed `message`; anything else is wrapped as the root's single field `value`.
/// Returns the root and whether it wrapped.
pub(crate) fn root(message: &str, mut node: SchemaNode) -> (SchemaNode, bool) {
    node.field_id = None;
    if is_plain_group(&node) {
        message.clone_into(&mut node.name);
        (node, false)
    } else {
        "value".clone_into(&mut node.name);
        (group(message, vec![node]), true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::format::ConvertedType;
    use crate::core::schema::converted_type_for;

    #[test]
    fn decimal_bytes_follow_the_spec_formula() {
        // floor(log10(2^(8n-1) - 1)) for n = 1..=16.
        let digits_per_len = [2, 4, 6, 9, 11, 14, 16, 18, 21, 23, 26, 28, 31, 33, 35, 38];
        for (i, &digits) in digits_per_len.iter().enumerate() {
            let n = i as i32 + 1;
            assert_eq!(decimal_bytes(digits), Some(n), "precision {digits}");
            assert_eq!(
                decimal_bytes(digits + 1),
                if n == 16 { None } else { Some(n + 1) }
            );
        }
        assert_eq!(decimal_bytes(1), Some(1));
        assert_eq!(decimal_bytes(0), Some(1));
    }

    #[test]
    fn decimal_storage_widens() {
        let spec = |p, s| DecimalSpec::new(p, s).unwrap();
        let phys = |n: &SchemaNode| match n.kind {
            NodeKind::Primitive {
                physical_type,
                type_length,
                precision,
                scale,
            } => (physical_type, type_length, precision, scale),
            NodeKind::Group { .. } => unreachable!("decimal is a leaf"),
        };
        assert_eq!(
            phys(&decimal("d", spec(9, 2), DecimalStorage::Int32)),
            (Type::Int32, 0, 9, 2)
        );
        assert_eq!(
            phys(&decimal("d", spec(10, 2), DecimalStorage::Int32)),
            (Type::Int64, 0, 10, 2)
        );
        assert_eq!(
            phys(&decimal("d", spec(19, 0), DecimalStorage::Int32)),
            (Type::FixedLenByteArray, 9, 19, 0)
        );
        assert_eq!(
            phys(&decimal("d", spec(5, 5), DecimalStorage::Int64)),
            (Type::Int64, 0, 5, 5)
        );
        assert_eq!(
            phys(&decimal("d", spec(38, 10), DecimalStorage::Fixed)),
            (Type::FixedLenByteArray, 16, 38, 10)
        );
        let node = decimal("d", spec(3, 1), DecimalStorage::Fixed);
        assert_eq!(phys(&node), (Type::FixedLenByteArray, 2, 3, 1));
        assert_eq!(node.converted_type, Some(ConvertedType::Decimal));
    }

    #[test]
    fn converted_types_follow_logical_types_md() {
        let ts = |unit, utc| LogicalType::Timestamp {
            is_adjusted_to_utc: utc,
            unit,
        };
        assert_eq!(
            converted_type_for(&ts(TimeUnit::Millis, false)),
            Some(ConvertedType::TimestampMillis)
        );
        assert_eq!(
            converted_type_for(&ts(TimeUnit::Micros, true)),
            Some(ConvertedType::TimestampMicros)
        );
        assert_eq!(converted_type_for(&ts(TimeUnit::Nanos, true)), None);
        assert_eq!(converted_type_for(&LogicalType::Uuid), None);
        assert_eq!(converted_type_for(&LogicalType::Float16), None);
        assert_eq!(
            converted_type_for(&LogicalType::Integer {
                bit_width: 16,
                is_signed: false
            }),
            Some(ConvertedType::Uint16)
        );
        assert_eq!(
            converted_type_for(&LogicalType::Integer {
                bit_width: 7,
                is_signed: false
            }),
            None
        );
    }

    #[test]
    fn root_wraps_non_groups() {
        let (r, wrapped) = root("m", integer("x", 64, true));
        assert!(wrapped);
        assert_eq!(r.name, "m");
        let NodeKind::Group { fields } = &r.kind else {
            unreachable!("root is a group")
        };
        assert_eq!(fields[0].name, "value");

        let (r, wrapped) = root("m", group("S", vec![string("a")]));
        assert!(!wrapped);
        assert_eq!(r.name, "m");

        let (r, wrapped) = root("m", list("l", string("e")));
        assert!(wrapped);
        assert_eq!(r.repetition, Repetition::Required);
    }
}
