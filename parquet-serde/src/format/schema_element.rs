//! `SchemaElement`: one node of the flattened schema in the footer.

use super::{ConvertedType, FieldRepetitionType, LogicalType, Type};

/// One element of the depth-first flattened schema (`SchemaElement` in parquet.thrift).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SchemaElement {
    /// Physical type; set for leaves only.
    pub r#type: Option<Type>,
    /// Byte length of FIXED_LEN_BYTE_ARRAY values.
    pub type_length: Option<i32>,
    /// Repetition; unset on the root.
    pub repetition_type: Option<FieldRepetitionType>,
    /// Field name.
    pub name: String,
    /// Number of children; set for groups only.
    pub num_children: Option<i32>,
    /// Deprecated converted type.
    pub converted_type: Option<ConvertedType>,
    /// Deprecated decimal scale.
    pub scale: Option<i32>,
    /// Deprecated decimal precision.
    pub precision: Option<i32>,
    /// Field id of the original schema.
    pub field_id: Option<i32>,
    /// Logical type.
    pub logical_type: Option<LogicalType>,
    /// Slots per parent occurrence, for VECTOR repetition.
    pub vector_length: Option<i32>,
}
