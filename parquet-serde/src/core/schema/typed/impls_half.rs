//! [`ParquetSchema`] for `half::f16` (feature `half`).
//!
//! `f16` serializes as a newtype of its `u16` bits; a FLOAT16 leaf takes those bits (and
//! `f32`/`f64` values a half float holds exactly), and gives the value back as an `f32`,
//! or as its bits to the integer that `f16`'s `Deserialize` asks for.

use crate::core::schema::SchemaNode;

use super::attrs::FieldAttrs;
use super::nodes;
use super::ParquetSchema;

/// `FIXED_LEN_BYTE_ARRAY(2)` FLOAT16 (little-endian IEEE 754 binary16).
impl ParquetSchema for half::f16 {
    fn parquet_node(name: &str, _attrs: &FieldAttrs) -> SchemaNode {
        nodes::float16(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::format::LogicalType;

    #[test]
    fn f16_is_float16() {
        let n = half::f16::parquet_node("h", &FieldAttrs::new());
        assert_eq!(n.logical_type, Some(LogicalType::Float16));
        assert_eq!(n.converted_type, None);
    }
}
