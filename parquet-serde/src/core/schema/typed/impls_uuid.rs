//! [`ParquetSchema`] for `uuid::Uuid` (feature `uuid`).
//!
//! `Uuid` serializes as 16 bytes when the serializer is not human-readable and as hyphenated
//! text otherwise; the serializer accepts both at a UUID leaf.

use crate::core::schema::SchemaNode;

use super::attrs::FieldAttrs;
use super::markers;
use super::nodes;
use super::ParquetSchema;

/// FIXED_LEN_BYTE_ARRAY(16) UUID.
impl ParquetSchema for uuid::Uuid {
    fn parquet_node(name: &str, _attrs: &FieldAttrs) -> SchemaNode {
        nodes::uuid(name)
    }
}

impl markers::SupportsUuid for uuid::Uuid {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::format::LogicalType;

    #[test]
    fn uuid_is_fixed_16() {
        let n = uuid::Uuid::parquet_node("id", &FieldAttrs::new());
        assert_eq!(n, nodes::uuid("id"));
        assert_eq!(n.logical_type, Some(LogicalType::Uuid));
        assert_eq!(n.converted_type, None);
    }
}
