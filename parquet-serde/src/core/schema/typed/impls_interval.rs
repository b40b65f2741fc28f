//! [`ParquetSchema`] for [`Interval`](crate::core::values::Interval).

use crate::core::schema::SchemaNode;
use crate::core::values::Interval;

use super::attrs::FieldAttrs;
use super::nodes;
use super::ParquetSchema;

/// `FIXED_LEN_BYTE_ARRAY(12)` with the converted type INTERVAL.
impl ParquetSchema for Interval {
    fn parquet_node(name: &str, _attrs: &FieldAttrs) -> SchemaNode {
        nodes::interval(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::format::{ConvertedType, Type};
    use crate::core::schema::NodeKind;

    #[test]
    fn interval_is_fixed_12() {
        let n = Interval::parquet_node("iv", &FieldAttrs::new());
        assert_eq!(n.converted_type, Some(ConvertedType::Interval));
        assert_eq!(n.logical_type, None);
        assert!(matches!(
            n.kind,
            NodeKind::Primitive {
                physical_type: Type::FixedLenByteArray,
                type_length: 12,
                ..
            }
        ));
    }
}
