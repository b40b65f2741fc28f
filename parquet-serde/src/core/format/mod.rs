//! The Thrift compact protocol and the structures of `parquet.thrift`.
//!
//! This is the only module that knows Thrift. Decoding borrows from a `&[u8]`, skips unknown
//! fields, keeps unknown enum and union values as `Unknown(n)`, and caps nesting depth and
//! list/string sizes, so a malformed structure is an `Err`, never a panic.
//!
//! Every struct and union of `parquet.thrift` is here under its Thrift name; fields are the
//! Thrift names in snake_case (`type` is `r#type`), required fields are plain, optional ones
//! `Option`. Read one with [`decode`], write one with [`encode`]:
//!
//! ```
//! use parquet_serde::__internals::format::{decode, encode, KeyValue};
//! let kv = KeyValue { key: "k".into(), value: Some("v".into()) };
//! let mut bytes = Vec::new();
//! encode(&kv, &mut bytes);
//! assert_eq!(bytes, [0x18, 1, b'k', 0x18, 1, b'v', 0]);
//! let (back, used) = decode::<KeyValue>(&bytes).unwrap();
//! assert_eq!((back, used), (kv, 7));
//! ```
// Without the `internals` feature (benches, fuzzing, the tests that craft files) part of the
// wire vocabulary is not named by the crate: every structure stays, so the format is whole.
#![cfg_attr(not(feature = "internals"), allow(unused_imports, dead_code))]

#[macro_use]
mod macros;

mod bloom_filter;
mod codec;
mod compact;
mod encryption;
mod enums;
mod file_metadata;
mod logical_type;
mod page_header;
mod page_index;
mod schema_element;
mod statistics;
#[cfg(test)]
mod tests;

pub use bloom_filter::{
    BloomFilterAlgorithm, BloomFilterCompression, BloomFilterHash, BloomFilterHeader,
};
pub use codec::{decode, decode_with_limits, encode, ThriftDecode, ThriftEncode};
pub use compact::{CompactReader, CompactWriter, DecodeLimits, WireType};
pub use encryption::{
    AesGcmCtrV1, AesGcmV1, ColumnCryptoMetaData, EncryptionAlgorithm, EncryptionWithColumnKey,
    FileCryptoMetaData,
};
pub use enums::*;
pub use file_metadata::{
    ColumnChunk, ColumnMetaData, ColumnOrder, FileMetaData, KeyValue, PageEncodingStats, RowGroup,
    SortingColumn,
};
pub use logical_type::{
    DecimalType, GeographyType, GeometryType, IntType, LogicalType, TimeType, TimeUnit,
    TimestampType, VariantType,
};
pub use page_header::{
    DataPageHeader, DataPageHeaderV2, DictionaryPageHeader, IndexPageHeader, PageHeader,
};
pub use page_index::{ColumnIndex, OffsetIndex, PageLocation};
pub use schema_element::SchemaElement;
pub use statistics::{BoundingBox, GeospatialStatistics, SizeStatistics, Statistics};
