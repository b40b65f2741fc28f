//! parquet-serde: Apache Parquet as easy as serde_json.

#![warn(missing_docs)]

pub mod compression;
pub mod encoding;
mod error;
pub mod format;
pub mod schema;
pub mod values;

pub use error::{Error, ErrorKind, Location, Result};
pub use parquet_derive::ParquetSchema;
