//! [`ParquetSchema`] for `rust_decimal::Decimal` (feature `rust_decimal`) and
//! `bigdecimal::BigDecimal` (feature `bigdecimal`).
//!
//! Both serialize as decimal text (`BigDecimal` sometimes in exponent form); the serializer
//! parses the text into the column's unscaled integer, refusing a value with more digits than
//! the precision or with non-zero digits beyond the scale, and the deserializer gives the
//! column's value back as decimal text.
//!
//! Without `#[parquet(decimal(precision = P, scale = S))]` the column is `DECIMAL(38, 18)`
//! (the default of Spark and Hive for arbitrary decimals). The physical type follows the
//! precision: `INT32` up to 9 digits, `INT64` up to 18, `FIXED_LEN_BYTE_ARRAY` of the least
//! length up to 38, and for a `BigDecimal` (or decimal text) above 38 `BYTE_ARRAY`.
//! `rust_decimal::Decimal` holds at most 28 digits: a wider column reads into it only where
//! the value fits.

use crate::core::schema::SchemaNode;

use super::attrs::{DecimalSpec, FieldAttrs};
use super::markers;
use super::nodes::{self, DecimalStorage};
use super::ParquetSchema;

/// The column of a decimal field without `#[parquet(decimal(..))]`: `DECIMAL(38, 18)`.
pub(crate) const DEFAULT_DECIMAL: DecimalSpec = match DecimalSpec::new(38, 18) {
    Some(spec) => spec,
    None => panic!("38, 18 is a valid decimal"),
};

/// The node of a decimal field: the field's spec or [`DEFAULT_DECIMAL`], in the least
/// physical type that holds the precision.
fn decimal_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
    nodes::decimal(
        name,
        attrs.decimal.unwrap_or(DEFAULT_DECIMAL),
        DecimalStorage::Int32,
    )
}

/// DECIMAL (`DECIMAL(38, 18)` unless the field says otherwise).
#[cfg(feature = "rust_decimal")]
impl ParquetSchema for rust_decimal::Decimal {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        decimal_node(name, attrs)
    }
}

#[cfg(feature = "rust_decimal")]
impl markers::SupportsDecimal for rust_decimal::Decimal {}

/// DECIMAL (`DECIMAL(38, 18)` unless the field says otherwise, up to 1000 digits).
#[cfg(feature = "bigdecimal")]
impl ParquetSchema for bigdecimal::BigDecimal {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        decimal_node(name, attrs)
    }
}

#[cfg(feature = "bigdecimal")]
impl markers::SupportsDecimal for bigdecimal::BigDecimal {}
#[cfg(feature = "bigdecimal")]
impl markers::SupportsWideDecimal for bigdecimal::BigDecimal {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::format::Type;
    use crate::core::schema::NodeKind;

    fn physical(n: &SchemaNode) -> (Type, i32, i32, i32) {
        match n.kind {
            NodeKind::Primitive {
                physical_type,
                type_length,
                precision,
                scale,
            } => (physical_type, type_length, precision, scale),
            NodeKind::Group { .. } => unreachable!("a decimal is a leaf"),
        }
    }

    #[test]
    fn storage_follows_the_precision() {
        let mut a = FieldAttrs::new();
        assert_eq!(
            physical(&decimal_node("d", &a)),
            (Type::FixedLenByteArray, 16, 38, 18)
        );
        for (p, want) in [
            (9, Type::Int32),
            (18, Type::Int64),
            (19, Type::FixedLenByteArray),
            (39, Type::ByteArray),
        ] {
            a.decimal = DecimalSpec::new_wide(p, 2);
            assert_eq!(physical(&decimal_node("d", &a)).0, want, "precision {p}");
        }
    }
}
