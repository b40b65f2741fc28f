//! parquet-serde: Apache Parquet as easy as serde_json.

#![warn(missing_docs)]

pub mod bloom;
pub mod column;
pub mod compression;
pub mod encoding;
mod error;
pub mod file;
pub mod filter;
pub mod format;
pub mod page;
pub mod record;
pub mod schema;
pub mod values;

pub use compression::Compression;
pub use error::{Error, ErrorKind, Location, Result};
pub use file::{ReadOptions, WriterOptions};
pub use parquet_derive::ParquetSchema;
pub use schema::ParquetSchema;
