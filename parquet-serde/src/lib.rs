//! parquet-serde: Apache Parquet as easy as serde_json.

#![warn(missing_docs)]
#![deny(unsafe_code)]

pub mod bloom;
pub mod column;
pub mod compression;
pub mod de;
pub mod encoding;
pub mod encryption;
mod error;
mod exec;
pub mod file;
pub mod filter;
pub mod format;
pub mod keytools;
pub mod page;
pub mod record;
pub mod schema;
pub mod ser;
#[cfg(test)]
mod test_support;
pub mod values;

pub use compression::Compression;
pub use de::{
    from_path, from_path_with, from_reader, from_reader_with, from_slice, from_slice_with, Reader,
};
pub use error::{Error, ErrorKind, Location, Result};
pub use file::{ReadOptions, WriterOptions};
pub use parquet_derive::ParquetSchema;
pub use schema::ParquetSchema;
pub use ser::{to_path, to_path_with, to_vec, to_vec_with, to_writer, to_writer_with, Writer};
