//! [`ParquetSchema`] for `bytes::Bytes` and `BytesMut` (feature `bytes`).

use crate::core::format::Type;
use crate::core::schema::SchemaNode;

use super::attrs::FieldAttrs;
use super::markers;
use super::nodes;
use super::ParquetSchema;

/// One BYTE_ARRAY value.
impl ParquetSchema for bytes::Bytes {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        if attrs.bson {
            nodes::bson(name)
        } else {
            match attrs.geo {
                Some(geo) => nodes::geo(name, geo),
                None => nodes::leaf(name, Type::ByteArray),
            }
        }
    }
}

/// One BYTE_ARRAY value.
impl ParquetSchema for bytes::BytesMut {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        if attrs.bson {
            nodes::bson(name)
        } else {
            match attrs.geo {
                Some(geo) => nodes::geo(name, geo),
                None => nodes::leaf(name, Type::ByteArray),
            }
        }
    }
}

impl markers::SupportsBytes for bytes::Bytes {}
impl markers::SupportsBytes for bytes::BytesMut {}
impl markers::SupportsBson for bytes::Bytes {}
impl markers::SupportsBson for bytes::BytesMut {}
impl markers::SupportsGeo for bytes::Bytes {}
impl markers::SupportsGeo for bytes::BytesMut {}
