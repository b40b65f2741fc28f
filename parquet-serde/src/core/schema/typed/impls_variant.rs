//! [`Variant`]: a VARIANT group.

use crate::core::schema::SchemaNode;
use crate::variant::Variant;

use super::attrs::FieldAttrs;
use super::variant_nodes;
use super::ParquetSchema;

/// An optional VARIANT group of `metadata` and `value` (a null group reads as
/// [`Variant::Null`] into a `Variant`, as `None` into an `Option<Variant>`).
impl ParquetSchema for Variant {
    fn parquet_node(name: &str, _attrs: &FieldAttrs) -> SchemaNode {
        variant_nodes::variant(name)
    }
}
