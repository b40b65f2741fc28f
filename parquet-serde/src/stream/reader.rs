//! [`AsyncReader`], and the async reads of a
//! [`StoreReader`](crate::store::StoreReader).

use std::sync::Arc;

use futures::TryStreamExt;
use serde::de::DeserializeOwned;
use tokio::io::{AsyncRead, AsyncSeek};

use crate::core::file::ReadOptions;
use crate::error::Result;
use crate::filter::{FilterOptions, Predicate};
use crate::remote::{ReadRequest, RemoteOptions};

use super::rows::{stream_rows, RowStream};
use super::source::AsyncSource;

/// Reads a Parquet file from an `AsyncRead + AsyncSeek` (a `tokio::fs::File`, a cursor,
/// ...) by ranges: the footer, then what the projection (the fields of `T`) and the
/// [`filter`](Self::filter) need, a row group ahead, as
/// [`StoreReader`](crate::store::StoreReader) plans it. The rows are assembled on a
/// blocking thread and come as a [`RowStream`]. Must be used inside a tokio runtime.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> parquet_serde::Result<()> {
/// use futures::StreamExt;
/// use parquet_serde::filter::col;
/// use parquet_serde::stream::AsyncReader;
///
/// #[derive(serde::Serialize, serde::Deserialize, parquet_serde::ParquetSchema)]
/// struct Row { id: i64 }
///
/// let bytes = parquet_serde::to_vec(&(0..1000).map(|id| Row { id }).collect::<Vec<_>>())?;
/// let mut rows = AsyncReader::new(std::io::Cursor::new(bytes))
///     .filter(col("id").between(10, 12))?
///     .stream::<Row>()
///     .await?;
/// let mut ids = Vec::new();
/// while let Some(row) = rows.next().await {
///     ids.push(row?.id);
/// }
/// assert_eq!(ids, [10, 11, 12]);
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct AsyncReader<R> {
    source: R,
    request: ReadRequest,
}

impl<R: AsyncRead + AsyncSeek + Unpin + Send + 'static> AsyncReader<R> {
    /// A reader of the file in `source`, with default options.
    pub fn new(source: R) -> Self {
        AsyncReader {
            source,
            request: ReadRequest::default(),
        }
    }

    /// Reader options (decryption keys, checksums, threads).
    pub fn options(mut self, options: ReadOptions) -> Self {
        self.request.options = options;
        self
    }

    /// How the file is fetched (footer request, coalescing, prefetch).
    pub fn remote_options(mut self, options: RemoteOptions) -> Self {
        self.request.remote = options;
        self
    }

    /// Reads only the rows where `predicate` holds (as [`Reader::filter`](crate::Reader::filter)).
    ///
    /// Returns a `Result` as every reader's `filter` does; the predicate is bound to the
    /// file's schema when the file is opened, and a column it names that the file lacks
    /// fails there.
    pub fn filter(self, predicate: Predicate) -> Result<Self> {
        self.filter_with_options(predicate, FilterOptions::default())
    }

    /// [`filter`](Self::filter), choosing which metadata is used to skip data.
    pub fn filter_with_options(
        mut self,
        predicate: Predicate,
        options: FilterOptions,
    ) -> Result<Self> {
        self.request.filter = Some(match self.request.filter.take() {
            Some((old, _)) => (old.and(predicate), options),
            None => (predicate, options),
        });
        Ok(self)
    }

    /// Opens the file (the footer is fetched and checked, the predicate bound) and
    /// streams its rows.
    pub async fn stream<T: DeserializeOwned + Send + 'static>(self) -> Result<RowStream<T>> {
        stream_rows(Arc::new(AsyncSource::new(self.source)), self.request).await
    }

    /// Reads every row, stopping at the first error.
    pub async fn read<T: DeserializeOwned + Send + 'static>(self) -> Result<Vec<T>> {
        self.stream::<T>().await?.try_collect().await
    }
}

#[cfg(feature = "object_store")]
impl crate::store::StoreReader {
    /// Opens the object (the footer is fetched and checked, the predicate bound) and
    /// streams its rows: fetched by tasks of the current tokio runtime, assembled on a
    /// blocking thread (the async counterpart of [`open`](Self::open)).
    pub async fn stream<T: DeserializeOwned + Send + 'static>(self) -> Result<RowStream<T>> {
        let (source, request) = self.into_parts();
        stream_rows(Arc::new(source), request).await
    }

    /// Reads every row, stopping at the first error (the async counterpart of
    /// [`read`](Self::read)).
    pub async fn read_async<T: DeserializeOwned + Send + 'static>(self) -> Result<Vec<T>> {
        self.stream::<T>().await?.try_collect().await
    }
}
