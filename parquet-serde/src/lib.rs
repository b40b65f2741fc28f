//! # parquet-serde
//!
//! Apache Parquet as easy as serde_json: derive a schema for a struct, write a `Vec<T>`, read
//! rows back into typed structs. Underneath is a complete Parquet implementation written in
//! this crate (Thrift metadata, every encoding and codec, data pages v1 and v2, statistics,
//! page index, Bloom filters, checksums, modular encryption), in [`core`].
//!
//! ## Quickstart
//!
//! ```
//! use parquet_serde::ParquetSchema;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
//! struct LogRecord {
//!     #[parquet(timestamp = "micros")]
//!     ts: i64,
//!     level: Level,
//!     message: String,
//!     user_id: Option<u64>,
//!     tags: Vec<String>,
//! }
//!
//! #[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
//! enum Level { Info, Warn, Error }
//!
//! let rows = vec![
//!     LogRecord { ts: 1, level: Level::Info, message: "up".into(), user_id: None, tags: vec![] },
//!     LogRecord { ts: 2, level: Level::Error, message: "down".into(), user_id: Some(7), tags: vec!["db".into()] },
//! ];
//! let bytes = parquet_serde::to_vec(&rows)?;
//! let back: Vec<LogRecord> = parquet_serde::from_slice(&bytes)?;
//! assert_eq!(back, rows);
//!
//! // Any file, no Rust type needed:
//! let values: Vec<parquet_serde::Value> = parquet_serde::from_slice(&bytes)?;
//! assert_eq!(values[1].get("message"), Some(&parquet_serde::Value::String("down".into())));
//! # Ok::<(), parquet_serde::Error>(())
//! ```
//!
//! ## Which API do I use?
//!
//! | I want to | use |
//! |---|---|
//! | write a slice of rows to memory, a `Write`, a file | [`to_vec`], [`to_writer`], [`to_path`] (atomic: a failed write leaves no file) |
//! | ... with compression, row group size, statistics, encryption | the `_with` forms and [`WriterOptions`] |
//! | write rows as they come, one row group buffered at a time | [`Writer`] |
//! | read all rows from memory, a `Read` or a file | [`from_slice`], [`from_reader`], [`from_path`] (and `_with` + [`ReadOptions`]) |
//! | read rows one at a time, or only the rows a predicate may match | [`Reader`], [`Reader::filter`] with [`col`] predicates |
//! | read a file whose schema I do not know | read into [`Value`] (or `serde_json::Value`) |
//! | see or build a schema, read metadata, indexes, pages, column chunks | [`core`] |
//!
//! The Rust type decides the schema when writing ([`ParquetSchema`], usually derived) and the
//! projection when reading: a struct with fewer fields than the file decodes only their
//! columns. Which Rust type maps to which Parquet type, and the `#[parquet(...)]` field
//! options, are tabled in [the type table](core::schema::typed#the-type-table) and the
//! [`ParquetSchema`] derive.
//!
//! ## Errors
//!
//! Every fallible function returns [`Result<T>`](Result) with one [`Error`] type, a single
//! pointer wide. An error has a category ([`ErrorKind`]: I/O, corrupt file, checksum,
//! unsupported feature, schema, data, codec, crypto, invalid argument, internal) and a
//! [`Location`]: the column path, row group, page, byte offset and row where it happened, as
//! far as they are known. No input file makes the library panic, hang or allocate without a
//! bound: every length and count read from a file is checked first.
//!
//! ```
//! let err = parquet_serde::from_slice::<parquet_serde::Value>(b"not parquet").unwrap_err();
//! assert_eq!(err.kind(), parquet_serde::ErrorKind::Corrupt);
//! ```
//!
//! ## Feature flags
//!
//! | feature | what it adds |
//! |---|---|
//! | `chrono` | `ParquetSchema` for chrono's `DateTime`, `NaiveDateTime`, `NaiveDate`, `NaiveTime` |
//! | `uuid` | `ParquetSchema` for `uuid::Uuid` (`FIXED_LEN_BYTE_ARRAY(16)` UUID) |
//! | `bytes` | `ParquetSchema` for `bytes::Bytes`/`BytesMut`, and `ChunkReader` for `Bytes` |
//! | `cli` | the `parquet-serde` command-line tool (`cat`, `schema`, `meta`, `pages`, `check`, `rewrite`) |
//!
//! ## Threads
//!
//! Reads and writes use up to [`ReadOptions::threads`] / [`WriterOptions::threads`] threads
//! (by default the machine's parallelism, at most 4). Rows are built and serialized on the
//! calling thread only, so `T` need not be `Send`; files are the same byte for byte whatever
//! the thread count.

#![deny(missing_docs)]
#![deny(unsafe_code)]

pub mod core;
mod de;
mod error;
mod exec;
pub mod filter;
pub mod record;
mod ser;
#[cfg(test)]
mod test_support;

// The core's modules under their short names, for the crate's own code (`crate::file::...`).
use crate::core::{
    bloom, column, compression, encoding, encryption, file, format, page, schema, values,
};

pub use crate::core::compression::Compression;
pub use crate::core::file::{ReadOptions, WriterOptions};
pub use crate::core::schema::ParquetSchema;
pub use de::{
    from_path, from_path_with, from_reader, from_reader_with, from_slice, from_slice_with,
    IntoChunkReader, ReadAll, Reader,
};
pub use error::{Error, ErrorKind, Location, Result};
pub use filter::{col, not, CmpOp, Column, Predicate};
pub use parquet_derive::ParquetSchema;
pub use record::Value;
pub use ser::{to_path, to_path_with, to_vec, to_vec_with, to_writer, to_writer_with, Writer};

/// The value types that [`WriterOptions`] and [`ReadOptions`] take, in one place.
pub mod options {
    pub use crate::core::bloom::BloomFilterOptions;
    pub use crate::core::compression::Compression;
    pub use crate::core::encryption::{FileDecryptionProperties, FileEncryptionProperties};
    pub use crate::core::file::{
        ColumnOverrides, DataPageVersion, ReadOptions, SortKey, StatisticsLevel, WriterOptions,
    };
    pub use crate::core::format::Encoding;
}

/// Items the derive's expansion calls. Not public API.
#[doc(hidden)]
pub use crate::core::schema::typed::__private;
