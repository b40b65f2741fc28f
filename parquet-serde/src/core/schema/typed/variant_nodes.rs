//! Schema nodes of VARIANT groups: the unshredded layout, and the shredded layout derived
//! from a Rust type's schema (VariantShredding.md).

use crate::core::format::{LogicalType, TimeUnit, Type};
use crate::core::schema::{NodeKind, Repetition, SchemaNode};

use super::nodes::{integer, leaf};

/// An optional VARIANT group with required `metadata` and `value` binary leaves (the
/// unshredded layout of VariantEncoding.md).
pub(crate) fn variant(name: &str) -> SchemaNode {
    SchemaNode::group(
        name,
        Repetition::Optional,
        vec![
            leaf("metadata", Type::ByteArray),
            leaf("value", Type::ByteArray),
        ],
    )
    .with_logical_type(LogicalType::Variant {
        specification_version: Some(1),
    })
}

/// An optional VARIANT group shredding `typed` (a schema node of a Rust type, named
/// `typed_value`) per VariantShredding.md.
pub(crate) fn variant_shredded(name: &str, typed: SchemaNode) -> SchemaNode {
    let mut value = leaf("value", Type::ByteArray);
    value.repetition = Repetition::Optional;
    let mut fields = vec![leaf("metadata", Type::ByteArray), value];
    fields.extend(shred_typed(typed));
    SchemaNode::group(name, Repetition::Optional, fields).with_logical_type(LogicalType::Variant {
        specification_version: Some(1),
    })
}

/// `root` with the unshredded VARIANT group at the dotted `path` (below the root) shredded
/// by `typed` (see [`variant_shredded`]), keeping its name, repetition and field id.
pub(crate) fn shred_variant_at(
    mut root: SchemaNode,
    path: &str,
    typed: SchemaNode,
) -> crate::error::Result<SchemaNode> {
    let refuse = |why: &str| {
        crate::error::Error::invalid_argument(format!("cannot shred `{path}` as a VARIANT: {why}"))
    };
    let mut node = &mut root;
    for part in path.split('.') {
        let NodeKind::Group { fields } = &mut node.kind else {
            return Err(refuse("no such field"));
        };
        node = fields
            .iter_mut()
            .find(|f| f.name == part)
            .ok_or_else(|| refuse("no such field"))?;
    }
    if !matches!(node.logical_type, Some(LogicalType::Variant { .. })) {
        return Err(refuse("the field is not a VARIANT group"));
    }
    let names: Vec<&str> = node.fields().iter().map(|f| f.name.as_str()).collect();
    if names != ["metadata", "value"] {
        return Err(refuse("the VARIANT group is shredded already"));
    }
    let mut shredded = variant_shredded(&node.name, typed);
    shredded.repetition = node.repetition;
    shredded.field_id = node.field_id;
    *node = shredded;
    Ok(root)
}

/// `node` as an optional `typed_value`: a struct's fields and a list's elements become
/// required groups of `value` and `typed_value`; `None` for what cannot be shredded (a
/// MAP, an annotation VariantShredding.md has no row for), which then lives in `value`.
fn shred_typed(mut node: SchemaNode) -> Option<SchemaNode> {
    node.name = "typed_value".into();
    node.repetition = Repetition::Optional;
    node.field_id = None;
    if let Some(LogicalType::Integer {
        bit_width,
        is_signed: false,
    }) = node.logical_type
    {
        // Variant integers are signed: an unsigned one shreds as the next wider signed type.
        if bit_width >= 64 {
            return None;
        }
        let mut wider = integer("typed_value", bit_width * 2, true);
        wider.repetition = Repetition::Optional;
        return Some(wider);
    }
    match node.kind {
        NodeKind::Primitive { .. } => shreddable_leaf(&node).then_some(node),
        NodeKind::Group { ref mut fields } => match node.logical_type {
            Some(LogicalType::List) => {
                // 3-level list: list.element.
                let list = fields.first_mut()?;
                let NodeKind::Group { fields: inner } = &mut list.kind else {
                    return None;
                };
                let element = inner.pop()?;
                let element = shredded_slot("element", element);
                inner.clear();
                inner.push(element);
                Some(node)
            }
            None => {
                let taken = std::mem::take(fields);
                *fields = taken
                    .into_iter()
                    .map(|f| {
                        let name = f.name.clone();
                        shredded_slot(&name, f)
                    })
                    .collect();
                Some(node)
            }
            _ => None,
        },
    }
}

/// A required group `name { optional binary value; typed_value }`.
fn shredded_slot(name: &str, typed: SchemaNode) -> SchemaNode {
    let mut value = leaf("value", Type::ByteArray);
    value.repetition = Repetition::Optional;
    let mut fields = vec![value];
    fields.extend(shred_typed(typed));
    SchemaNode::group(name, Repetition::Required, fields)
}

/// Whether a leaf's type is one VariantShredding.md lists for `typed_value`.
fn shreddable_leaf(node: &SchemaNode) -> bool {
    let NodeKind::Primitive { physical_type, .. } = node.kind else {
        return false;
    };
    match (&node.logical_type, physical_type) {
        (
            None,
            Type::Boolean
            | Type::Int32
            | Type::Int64
            | Type::Float
            | Type::Double
            | Type::ByteArray,
        ) => true,
        (
            Some(LogicalType::Integer {
                is_signed: true, ..
            }),
            Type::Int32 | Type::Int64,
        ) => true,
        (Some(LogicalType::String) | Some(LogicalType::Decimal { .. }), _) => true,
        (Some(LogicalType::Date), Type::Int32) => true,
        (Some(LogicalType::Uuid), Type::FixedLenByteArray) => true,
        (Some(LogicalType::Timestamp { unit, .. }), Type::Int64) => {
            matches!(unit, TimeUnit::Micros | TimeUnit::Nanos)
        }
        (Some(LogicalType::Time { unit, .. }), Type::Int64) => *unit == TimeUnit::Micros,
        _ => false,
    }
}
