//! Async reads (feature `tokio`): the rows of a Parquet file from an
//! `AsyncRead + AsyncSeek` ([`AsyncReader`]), or from an object
//! store with the `object_store` feature ([`StoreReader::stream`](crate::store::StoreReader::stream)),
//! as a [`futures::Stream`] ([`RowStream`]).
//!
//! The bytes are fetched asynchronously, by ranges: the footer, then what the projection
//! and the predicate need (as [`StoreReader`](crate::store::StoreReader) plans it). The
//! rows are assembled off the async executor, on a blocking thread, by the crate's
//! synchronous reader; dropping the stream stops the reading.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> parquet_serde::Result<()> {
//! use futures::TryStreamExt;
//! use parquet_serde::stream::AsyncReader;
//! use parquet_serde::ParquetSchema;
//!
//! #[derive(serde::Serialize, serde::Deserialize, ParquetSchema, Debug, PartialEq)]
//! struct Row { id: i64, name: String }
//!
//! let rows: Vec<Row> = (0..100).map(|id| Row { id, name: format!("n{id}") }).collect();
//! let bytes = parquet_serde::to_vec(&rows)?;
//! // Any AsyncRead + AsyncSeek: a tokio::fs::File, a cursor...
//! let source = std::io::Cursor::new(bytes);
//! let back: Vec<Row> = AsyncReader::new(source).stream().await?.try_collect().await?;
//! assert_eq!(back, rows);
//! # Ok(())
//! # }
//! ```

mod reader;
mod rows;
mod source;

#[cfg(not(feature = "object_store"))]
pub use crate::remote::{FetchStats, RemoteFile, RemoteOptions};
/// The remote types have one home: [`store`](crate::store) when it is built.
#[cfg(feature = "object_store")]
#[doc(no_inline)]
pub use crate::store::{FetchStats, RemoteFile, RemoteOptions};
pub use reader::AsyncReader;
pub use rows::RowStream;
