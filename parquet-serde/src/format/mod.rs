//! The Thrift compact protocol and the structures of `parquet.thrift`.
//!
//! This is the only module that knows Thrift. Decoding borrows from a `&[u8]`, skips unknown
//! fields, keeps unknown enum and union values as `Unknown(n)`, and caps nesting depth and
//! list/string sizes, so a malformed structure is an `Err`, never a panic.

mod enums;
mod logical_type;
mod schema_element;

pub use enums::*;
pub use logical_type::{LogicalType, TimeUnit};
pub use schema_element::SchemaElement;
