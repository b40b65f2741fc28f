//! The schema tree: groups and primitive leaves.

use crate::format::{ConvertedType, FieldRepetitionType, LogicalType, Type};

/// Repetition of a field (the Thrift enum, re-exported under the schema's name).
pub type Repetition = FieldRepetitionType;

/// One node of the schema tree.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaNode {
    /// Field name.
    pub name: String,
    /// Repetition (the root is `Required`).
    pub repetition: Repetition,
    /// Field id, if the schema carries ids.
    pub field_id: Option<i32>,
    /// Logical type annotation.
    pub logical_type: Option<LogicalType>,
    /// Legacy converted type annotation.
    pub converted_type: Option<ConvertedType>,
    /// Group or primitive.
    pub kind: NodeKind,
}

/// What a [`SchemaNode`] is.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    /// A leaf column.
    Primitive {
        /// Physical type.
        physical_type: Type,
        /// Byte length for FIXED_LEN_BYTE_ARRAY (0 otherwise, unless the file set it).
        type_length: i32,
        /// Decimal precision (0 when not a decimal).
        precision: i32,
        /// Decimal scale (0 when not a decimal).
        scale: i32,
    },
    /// A group of fields.
    Group {
        /// Child fields in order.
        fields: Vec<SchemaNode>,
    },
}
