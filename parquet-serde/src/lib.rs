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
//! | read rows of my struct with the least work per field | `#[parquet(assemble)]` on the derived struct (owned or borrowing): the derive writes its `Deserialize`, whose fields are read straight from the columns (see [`core::schema::typed`]) |
//! | read rows whose `&str`, `&[u8]` and `Cow` fields borrow from the decoded pages (no allocation per value) | [`Reader::batches`] and [`Batch::rows`] (below; with [`Reader::filter`], or [`dataset::DatasetReader::next_batch`]); fastest over large row groups with [`ReadOptions::batch_rows`] (batches of a bounded number of rows, such as 65,536) |
//! | read all rows of a `Send` type fastest: row groups assembled on several threads | [`Reader::read_all_par`] |
//! | read every file of a folder or glob (hive `date=…/hour=…` partitions), pruned by a predicate | [`dataset::Dataset`] |
//! | filter with SQL-like text (`level = 'ERROR' and ts >= '2026-11-24T13:00:00Z'`) | [`Predicate::parse`] |
//! | read a file whose schema I do not know | read into [`Value`] (or `serde_json::Value`) |
//! | keep application logs: rolling files, durable flushes, crash recovery, a `tracing` layer | [`logs`] (feature `logs`) |
//! | make a log folder (or a store prefix) a Delta Lake table other engines query | [`delta::DeltaTable`] (feature `delta`) |
//! | make a log folder (or a store prefix) an Apache Iceberg table other engines query | [`iceberg::IcebergTable`] (feature `iceberg`) |
//! | write rows whose shape is known only at run time (`Value`s, JSON lines), infer a schema from samples | [`record::ValueWriter`], [`record::SchemaInferrer`] |
//! | store any serde value in one column (VARIANT), encode/decode Variant bytes | a [`variant::Variant`] field or `#[parquet(variant)]`; [`variant::to_variant_bytes`], [`variant::Variant::decode`] (the [`variant`] table) |
//! | store any serde value as a JSON column | `#[serde(with = "parquet_serde::json")]` ([`json`]) |
//! | see or build a schema, read metadata, indexes, pages, column chunks | [`core`] |
//!
//! Rows that borrow: name the borrowing type in the [`Reader`], take its row groups (or,
//! with [`ReadOptions::batch_rows`], windows of a bounded number of rows) as [`Batch`]es,
//! and read each batch's rows with `T: Deserialize<'batch>`, as
//! `serde_arrow::from_record_batch` reads a `RecordBatch`. Only the columns the type reads
//! are decoded; [`Value`] rows stay owned.
//!
//! ```
//! use std::borrow::Cow;
//! # #[derive(serde::Serialize, parquet_serde::ParquetSchema)]
//! # struct Log { level: String, message: String, tags: Vec<String> }
//! # let bytes = parquet_serde::to_vec(&[Log { level: "INFO".into(), message: "up".into(), tags: vec!["db".into()] }])?;
//!
//! #[derive(serde::Deserialize)]
//! struct LogRef<'a> {
//!     message: &'a str,
//!     #[serde(borrow)]
//!     level: Cow<'a, str>,
//!     #[serde(borrow)]
//!     tags: Vec<&'a str>,
//! }
//! for batch in parquet_serde::Reader::<_, LogRef>::new(&bytes[..])?.batches() {
//!     let batch = batch?;
//!     for row in batch.rows::<LogRef>()? {
//!         assert_eq!((row.message, &*row.level, row.tags), ("up", "INFO", vec!["db"]));
//!     }
//! }
//! # Ok::<(), parquet_serde::Error>(())
//! ```
//!
//! One dynamic type per job:
//!
//! - [`Value`] is the row type: any file read without a Rust type, rows written with
//!   [`record::ValueWriter`], and the JSON form of `parquet-serde cat`
//!   ([`Value::write_json`]).
//! - [`variant::Variant`] is the value of one VARIANT column only (semi-structured data
//!   whose shape varies per row); in a `Value` row it is [`Value::Variant`].
//! - A hive folder name's value (`hour=13`) is a `Value` too
//!   ([`dataset::DataFile::partition`]); rows read from a dataset carry it in their fields
//!   as any other value.
//! - Predicates take plain Rust literals (`col("status").ge(500)`), not a value type.
//!
//! The Rust type decides the schema when writing ([`ParquetSchema`], usually derived) and the
//! projection when reading: a struct with fewer fields than the file decodes only their
//! columns. Which Rust type maps to which Parquet type, and the `#[parquet(...)]` field
//! options, are tabled in [the type table](core::schema::typed#the-type-table) and the
//! [`ParquetSchema`] derive.
//!
//! ## Reading into a Rust type
//!
//! The Rust type decides what is read; the file's schema decides how:
//!
//! - Struct fields are matched to the group's fields by name (serde's names, after
//!   `rename`; an `alias` matches too). Fields the file lacks are `None` for an `Option`, or
//!   serde's `default`, else opening fails with an error naming the field. Columns the type
//!   does not name are ignored and never decoded (projection).
//! - A row type that is not a struct (an integer, a `Vec`, a map, an `Option`) reads the
//!   file's single top-level field (the `value` of
//!   [`ParquetSchema::parquet_root`]).
//! - `Option<T>` reads an `optional` node (null is `None`); on a `required` node it is
//!   always `Some`. A non-`Option` field reads an `optional` node too, and fails only on a
//!   row where the value is actually null, naming the field and the row.
//! - Sequences (`Vec`, sets, arrays, tuples of a LIST) read LISTs in every form of the
//!   LogicalTypes.md backward-compatibility rules (3-level, 2-level, `array` / `_tuple`
//!   elements) and bare `repeated` fields; a struct whose only field is repeated reads as
//!   that list. A MAP reads as a sequence of `(key, value)` tuples too.
//! - Maps read MAP (and MAP_KEY_VALUE) groups; a map without a value column gives `None` /
//!   `()` values. A map type on a plain group reads its fields by name
//!   (`BTreeMap<String, Value>`, `#[serde(flatten)]`).
//! - Unit-only enums read BYTE_ARRAY (ENUM or STRING) values by variant name. Enums with
//!   data read the group with one optional field per variant (exactly one set per row).
//! - Integers are handed over at the column's width and checked against the target's
//!   range by serde (an INT32 read into a `u8` fails on 300; INT32 widens into `i64`, FLOAT
//!   into `f64`). Unsigned columns (`INTEGER(_, false)`, `UINT_*`) go to unsigned targets.
//!   `i128` / `u128` read 16-byte (or shorter) big-endian decimals and UUIDs. Floats read
//!   decimals scaled; integer targets read the unscaled value.
//! - Text targets (`String`, `&str` visitors, chrono's types) read STRING and plain
//!   BYTE_ARRAY values (checked to be UTF-8), and logical values in their text forms: DATE as
//!   `YYYY-MM-DD`, TIME as `HH:MM:SS.ffffff`, TIMESTAMP as `YYYY-MM-DDTHH:MM:SS.ffffff`
//!   with `Z` when adjusted to UTC, INT96 as a UTC timestamp with nanoseconds, DECIMAL as a
//!   decimal number, UUID hyphenated.
//! - Byte targets (`serde_bytes`, `Vec<u8>` as a sequence, `[u8; N]`) read BYTE_ARRAY and
//!   FIXED_LEN_BYTE_ARRAY values.
//! - Types that borrow (`&'a str`, `&'a [u8]` with `serde_bytes`, `Cow<'a, str>` with
//!   `#[serde(borrow)]`) read from a [`Batch`] ([`Batch::rows`]): text and bytes stored as
//!   they are read borrow from the batch; text made from another value (a DATE, a
//!   DECIMAL, a UUID) cannot, and a `&str` of it fails when the reader opens, naming the
//!   column (a `Cow` or a `String` takes it). The other entry points take owned types
//!   (`DeserializeOwned`).
//! - `SystemTime` reads TIMESTAMP (any unit) and INT96 columns; integer targets read a
//!   TIMESTAMP's raw count of its unit.
//! - `deserialize_any` (self-describing targets such as `serde_json::Value`) sees groups as
//!   maps, lists as sequences, MAPs as maps, nulls as `None`, and leaves as their physical
//!   value, with DECIMAL and UUID as text and INT96 as nanoseconds: the same mapping as
//!   [`Value`]'s `Serialize`.
//! - The deserializer is not human-readable (`is_human_readable` is `false`).
//! - A VARIANT group (unshredded or shredded per VariantShredding.md) is reconstructed
//!   into one [`variant::Variant`] and read by the target's `Deserialize` through
//!   [`variant::from_variant`]'s mapping (a [`variant::Variant`] target gets it exactly;
//!   [`Value`] gets [`Value::Variant`]). Naming any column of a VARIANT group in a
//!   projection reads the whole group.
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
//! An error about a file read by path (`from_path`, `Reader::from_path`, a dataset's files)
//! names the file at the start of its message; a folder given where a file is expected is
//! an [`ErrorKind::InvalidArgument`] that points to [`dataset::Dataset`]. A type that cannot
//! be read from a column is an [`ErrorKind::Schema`] error naming the column, its Parquet
//! type and what the Rust type expects: found when the reader opens (before any row), it
//! quotes no value; found in a row, it names the row and quotes the file's value.
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
//! | `half` | `ParquetSchema` for `half::f16` (`FIXED_LEN_BYTE_ARRAY(2)` FLOAT16) |
//! | `rust_decimal`, `bigdecimal` | `ParquetSchema` for `rust_decimal::Decimal` and `bigdecimal::BigDecimal` (DECIMAL, exact; `BigDecimal` beyond 38 digits) |
//! | `time`, `jiff` | `ParquetSchema` for the `time` crate's `Date`, `Time`, `PrimitiveDateTime`, `OffsetDateTime` and jiff's `civil::{Date, Time, DateTime}`, `Timestamp`, `Zoned` (read back in UTC through [`zoned_utc`]) |
//! | `bson` | [`bson`](mod@bson): any BSON document type (`bson::Document`, a struct) in a BSON column, with `#[serde(with = "parquet_serde::bson")]` |
//! | `bytes` | `ParquetSchema` for `bytes::Bytes`/`BytesMut`, and `ChunkReader` for `Bytes` |
//! | `geo-types` | GEOMETRY/GEOGRAPHY columns of `geo_types` geometries as WKB (`ParquetSchema`, `core::geo::WkbGeometry`, `core::geo::serde_wkb`) |
//! | `logs` | [`logs`]: application logs as rolling Parquet files, durable flushes, crash recovery |
//! | `tracing` | [`logs::TracingLayer`](logs): `tracing` events written as Parquet rows (implies `logs`) |
//! | `keytools` | `core::keytools`: envelope encryption with a KMS (key material, wrapped keys, caches) |
//! | `cli` | the `parquet-serde` command-line tool (`cat`, `tail`, `schema`, `meta`, `pages`, `check`, `rewrite`, `recover`, `from-jsonl`, `from-csv`, `concat`; implies `logs`) |
//! | `object_store` | [`store`]: read from any `object_store::ObjectStore` (S3, GCS, Azure, ...) by ranged GETs of only what a read needs; write with a multipart upload; with `logs`, `store::Shipper` uploads a log folder's finished files |
//! | `delta` | [`delta`]: Delta Lake tables without Arrow: commits of final files with their statistics, exactly once, concurrent writers, Parquet checkpoints, removals and vacuum (with `object_store`, tables in a store committed by `store::Shipper`) |
//! | `iceberg` | [`iceberg`]: Apache Iceberg tables (format v2) without Arrow: append snapshots of final files with field ids, metrics and partitions (identity on Hive folders, day or hour), Avro manifests, a file-system catalog with atomic commits, exactly once, concurrent writers (with `object_store`, tables in a store committed by `store::Shipper`) |
//! | `tokio` | [`stream`]: rows as a `futures::Stream` from an `AsyncRead + AsyncSeek` (or, with `object_store`, from a store), assembled off the executor |
//!
//! ## Threads
//!
//! Reads and writes use up to [`ReadOptions::threads`] / [`WriterOptions::threads`] threads
//! (by default the machine's parallelism, at most 4). Rows are built and serialized on the
//! calling thread only, so `T` need not be `Send`; files are the same byte for byte whatever
//! the thread count.

#![deny(missing_docs)]
#![deny(unsafe_code)]

/// Kernels for the benches and the fuzz targets (feature `internals`): not API, no semver
/// promise. See `internals.rs`.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod __internals {
    pub use crate::internals::*;
}
#[cfg(feature = "bson")]
pub mod bson;
pub mod core;
pub mod dataset;
mod de;
#[cfg(feature = "delta")]
pub mod delta;
mod error;
mod exec;
pub mod filter;
#[cfg(feature = "iceberg")]
pub mod iceberg;
#[cfg(feature = "internals")]
mod internals;
pub mod json;
#[cfg(feature = "logs")]
pub mod logs;
pub mod record;
mod reject;
#[cfg(any(feature = "object_store", feature = "tokio"))]
mod remote;
mod ser;
#[cfg(feature = "object_store")]
pub mod store;
#[cfg(feature = "tokio")]
pub mod stream;
#[cfg(any(feature = "delta", feature = "iceberg"))]
pub mod table;
#[cfg(test)]
mod test_support;
mod value;
pub mod variant;
#[cfg(feature = "jiff")]
pub mod zoned_utc;

pub use crate::core::compression::Compression;
pub use crate::core::file::{ReadOptions, WriterOptions};
pub use crate::core::schema::ParquetSchema;
pub use crate::core::values::Interval;
pub use de::{
    from_path, from_path_with, from_reader, from_reader_with, from_slice, from_slice_with, Batch,
    Reader,
};
pub use error::{Error, ErrorKind, Location, Result};
pub use filter::{col, CmpOp, Column, Predicate};
pub use parquet_derive::ParquetSchema;
pub use record::Value;
pub use ser::{
    shred, to_path, to_path_with, to_vec, to_vec_with, to_writer, to_writer_with, Writer,
};

/// The value types that [`WriterOptions`] and [`ReadOptions`] take, in one place.
pub mod options {
    pub use crate::core::bloom::BloomFilterOptions;
    pub use crate::core::column::{DataPageVersion, Encoding};
    pub use crate::core::compression::Compression;
    pub use crate::core::encryption::{FileDecryptionProperties, FileEncryptionProperties};
    pub use crate::core::file::{
        ColumnOverrides, ReadOptions, SortKey, StatisticsLevel, WriterOptions,
    };
}

/// Items the derive's expansion calls. Not public API.
#[doc(hidden)]
pub use crate::core::schema::typed::__private;

/// Items the `Deserialize` that `#[parquet(assemble)]` writes calls. Not public API.
#[doc(hidden)]
pub mod __assemble {
    pub use crate::de::assemble::{missing_field, register, FieldIndex};
    pub use crate::de::fast::{done, Assembled, Fast, Read, ReadFast, ReadSerde};
    pub use crate::de::DeError;
}
