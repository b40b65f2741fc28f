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

thrift_struct_codec! {
    SchemaElement {
        1: optional r#type: Type,
        2: optional type_length: i32,
        3: optional repetition_type: FieldRepetitionType,
        4: required name: String,
        5: optional num_children: i32,
        6: optional converted_type: ConvertedType,
        7: optional scale: i32,
        8: optional precision: i32,
        9: optional field_id: i32,
        10: optional logical_type: LogicalType,
        11: optional vector_length: i32,
    }
}
