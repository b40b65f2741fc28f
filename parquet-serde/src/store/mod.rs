//! Parquet files in object storage (feature `object_store`): read from and write to any
//! [`object_store::ObjectStore`] (S3 and its compatibles, GCS, Azure, local files, memory).
//!
//! Reading fetches by ranged GETs only what a read needs ([`StoreReader`]):
//! the footer, then the column chunks of the projection, or with a
//! [filter](crate::filter) the page indexes, Bloom filters and dictionaries it prunes with
//! and the pages holding candidate rows; nearby ranges are coalesced and a row group is
//! fetched ahead. Writing ([`StoreWriter`]) is a multipart upload with one
//! row group in memory; the object appears at its path only when the upload completes.
//!
//! [`Shipper`] uploads the final files of a [`LogWriter`](crate::logs::LogWriter) folder
//! to a store as they become final, keeping the partition folders in the keys.
//!
//! The blocking calls here run their requests on a tokio runtime of their own unless given
//! one; with the `tokio` feature, [`StoreReader::stream`] reads rows from async code.
//!
//! ```
//! use std::sync::Arc;
//! use object_store::memory::InMemory;
//! use parquet_serde::filter::col;
//! use parquet_serde::store::{StoreReader, StoreWriter};
//! use parquet_serde::{ParquetSchema, WriterOptions};
//!
//! #[derive(serde::Serialize, serde::Deserialize, ParquetSchema, Debug, PartialEq)]
//! struct Event {
//!     ts: i64,
//!     level: String,
//! }
//!
//! let store = Arc::new(InMemory::new());
//! let mut writer = StoreWriter::new(store.clone(), "events.parquet", WriterOptions::default())?;
//! for ts in 0..1000 {
//!     let level = if ts % 100 == 0 { "ERROR" } else { "INFO" };
//!     writer.write(&Event { ts, level: level.into() })?;
//! }
//! writer.close()?;
//!
//! let errors: Vec<Event> = StoreReader::new(store, "events.parquet")
//!     .filter(col("level").eq("ERROR"))?
//!     .read()?;
//! assert_eq!(errors.len(), 10);
//! # Ok::<(), parquet_serde::Error>(())
//! ```

mod read;
#[cfg(feature = "logs")]
mod ship;
mod source;
mod upload;
mod write;

pub use crate::remote::{FetchStats, RemoteFile, RemoteOptions};
pub use read::StoreReader;
#[cfg(feature = "logs")]
pub use ship::{ShipStats, Shipper, ShipperBuilder};
pub use write::{StoreWriter, UploadOptions};
