//! Reading from an object store: [`StoreReader`].

use std::sync::Arc;

use object_store::path::Path;
use object_store::ObjectStore;
use serde::de::DeserializeOwned;
use tokio::runtime::Handle;

use crate::core::file::ReadOptions;
use crate::error::Result;
use crate::filter::{FilterOptions, Predicate};
use crate::remote::{open, ReadRequest, RemoteFile, RemoteOptions, Runtime};
use crate::Reader;

use super::source::ObjectSource;

/// Reads a Parquet object of an [`ObjectStore`] by ranged GETs: the footer first (one
/// request from the end of the object; a second only when the footer is longer than
/// [`RemoteOptions::footer_hint`]), then only what the projection (the fields of `T`) and
/// the [`filter`](Self::filter) need: the page indexes, Bloom filters and dictionaries it
/// prunes with, then per row group left the column chunks, or with a page index only the
/// pages holding selected rows. Nothing is fetched twice: what lies in the footer request
/// (page indexes, often) or in metadata already fetched (dictionaries) is read from
/// memory. Ranges a small gap apart are fetched as one request (see
/// [`RemoteOptions::coalesce_gap`]); a row group's requests are sent together, the next
/// row group's while this one is read. Rows are assembled by the crate's synchronous
/// [`Reader`] over a [`RemoteFile`].
///
/// The blocking methods ([`open`](Self::open), [`read`](Self::read)) run the fetches on
/// the runtime given with [`runtime`](Self::runtime), else on one of their own (one worker
/// thread). With the `tokio` feature, [`stream`](Self::stream) reads from async code.
///
/// ```no_run
/// use std::sync::Arc;
/// use object_store::memory::InMemory;
/// use parquet_serde::filter::col;
/// use parquet_serde::store::StoreReader;
///
/// #[derive(serde::Deserialize)]
/// struct Message { message: String }
///
/// let store = Arc::new(InMemory::new());
/// let reader = StoreReader::new(store, "logs/today.parquet")
///     .filter(col("level").eq("ERROR"))?
///     .open::<Message>()?;
/// for row in reader {
///     println!("{}", row?.message);
/// }
/// # Ok::<(), parquet_serde::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct StoreReader {
    source: ObjectSource,
    request: ReadRequest,
    runtime: Option<Handle>,
}

impl StoreReader {
    /// A reader of the object at `path` of `store`, with default options.
    pub fn new(store: Arc<dyn ObjectStore>, path: impl Into<Path>) -> Self {
        StoreReader {
            source: ObjectSource {
                store,
                path: path.into(),
            },
            request: ReadRequest::default(),
            runtime: None,
        }
    }

    /// Reader options (decryption keys, checksums, threads).
    pub fn options(mut self, options: ReadOptions) -> Self {
        self.request.options = options;
        self
    }

    /// How the object is fetched (footer request, coalescing, prefetch).
    pub fn remote_options(mut self, options: RemoteOptions) -> Self {
        self.request.remote = options;
        self
    }

    /// Reads only the rows where `predicate` holds (as [`Reader::filter`]); calling it
    /// again requires both predicates.
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
        let predicate = match self.request.filter.take() {
            Some((old, _)) => old.and(predicate),
            None => predicate,
        };
        self.request.filter = Some((predicate, options));
        Ok(self)
    }

    /// Runs the fetches of the blocking methods on this runtime (a multi-thread one, or
    /// any runtime when they are called outside async code) instead of one of their own.
    pub fn runtime(mut self, handle: Handle) -> Self {
        self.runtime = Some(handle);
        self
    }

    /// Fetches the footer and opens the object for rows of `T`: the rows are the
    /// returned [`Reader`]'s items. Blocks.
    pub fn open<T: DeserializeOwned>(self) -> Result<Reader<RemoteFile, T>> {
        let runtime = Runtime::given_or_owned(self.runtime)?;
        open(Arc::new(self.source), runtime, self.request)
    }

    /// Reads every row (stopping at the first error). Without a filter, helper threads
    /// decode the columns while this thread assembles the rows, as
    /// [`from_reader`](crate::from_reader) does. Blocks.
    pub fn read<T: DeserializeOwned>(self) -> Result<Vec<T>> {
        crate::de::collect(self.open::<T>()?)
    }

    /// The parts of an async read.
    #[cfg(feature = "tokio")]
    pub(crate) fn into_parts(self) -> (ObjectSource, ReadRequest) {
        (self.source, self.request)
    }
}
