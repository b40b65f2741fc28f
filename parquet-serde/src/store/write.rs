//! Writing to an object store: [`StoreWriter`], [`UploadOptions`].

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use object_store::path::Path;
use object_store::ObjectStore;
use serde::Serialize;
use tokio::runtime::Handle;

use crate::core::file::ParquetMetaData;
use crate::core::file::WriterOptions;
use crate::core::schema::ParquetSchema;
use crate::error::{Error, Result};
use crate::remote::Runtime;
use crate::Writer;

use super::upload::{Upload, MIN_PART_SIZE};

/// How a [`StoreWriter`] uploads: the part size (at least 5 MiB, the smallest part S3
/// accepts; every part but the last has this size), how many parts may be in flight at
/// once, and the runtime the requests run on.
///
/// ```
/// use parquet_serde::store::UploadOptions;
/// let options = UploadOptions::default().part_size(16 << 20).parts_in_flight(4);
/// assert_eq!(options.get_part_size(), 16 << 20);
/// ```
#[derive(Debug, Clone)]
pub struct UploadOptions {
    part_size: usize,
    parts_in_flight: usize,
    runtime: Option<Handle>,
}

impl Default for UploadOptions {
    /// Parts of 8 MiB, two in flight, a runtime of the writer's own.
    fn default() -> Self {
        UploadOptions {
            part_size: 8 << 20,
            parts_in_flight: 2,
            runtime: None,
        }
    }
}

impl UploadOptions {
    /// Bytes of each part but the last; below 5 MiB the writer refuses to start.
    pub fn part_size(mut self, bytes: usize) -> Self {
        self.part_size = bytes;
        self
    }

    /// Parts uploading at once (at least 1) while rows go on being written; memory holds
    /// that many parts besides the one filling.
    pub fn parts_in_flight(mut self, parts: usize) -> Self {
        self.parts_in_flight = parts.max(1);
        self
    }

    /// Runs the uploads on this runtime (a multi-thread one, or any runtime when the
    /// writer is used outside async code) instead of one of the writer's own.
    pub fn runtime(mut self, handle: Handle) -> Self {
        self.runtime = Some(handle);
        self
    }

    /// The part size.
    pub fn get_part_size(&self) -> usize {
        self.part_size
    }

    /// Parts in flight at most.
    pub fn get_parts_in_flight(&self) -> usize {
        self.parts_in_flight
    }

    /// The runtime given, if any.
    #[cfg(feature = "logs")]
    pub(crate) fn get_runtime(&self) -> Option<Handle> {
        self.runtime.clone()
    }
}

/// Writes rows of `T` as a Parquet object of an [`ObjectStore`] with a multipart upload,
/// streaming: memory holds one row group (as [`Writer`] does), the part being filled and
/// the parts in flight ([`UploadOptions`]). Row groups are uploaded as parts fill;
/// [`close`](Self::close) writes the footer, sends the last part and completes the
/// upload. Nothing is visible at the path until then: a writer dropped without closing,
/// or one whose upload fails, aborts the upload (the parts sent are discarded). A file
/// smaller than one part is sent in one request at `close`.
///
/// ```no_run
/// use std::sync::Arc;
/// use object_store::memory::InMemory;
/// use parquet_serde::store::StoreWriter;
/// use parquet_serde::{ParquetSchema, WriterOptions};
///
/// #[derive(serde::Serialize, ParquetSchema)]
/// struct Event { ts: i64, message: String }
///
/// let store = Arc::new(InMemory::new());
/// let mut writer = StoreWriter::new(store, "logs/today.parquet", WriterOptions::default())?;
/// for ts in 0..1_000_000 {
///     writer.write(&Event { ts, message: format!("event {ts}") })?;
/// }
/// writer.close()?; // the object appears now
/// # Ok::<(), parquet_serde::Error>(())
/// ```
pub struct StoreWriter<T> {
    writer: Writer<Upload, T>,
    parts: Arc<AtomicUsize>,
}

impl<T> std::fmt::Debug for StoreWriter<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoreWriter")
            .field("writer", &self.writer)
            .finish()
    }
}

impl<T: Serialize + ParquetSchema> StoreWriter<T> {
    /// A writer of the object at `path` of `store`, uploading with default
    /// [`UploadOptions`].
    pub fn new(
        store: Arc<dyn ObjectStore>,
        path: impl Into<Path>,
        options: WriterOptions,
    ) -> Result<Self> {
        Self::with_upload_options(store, path, options, UploadOptions::default())
    }

    /// A writer with upload options. Fails on a part size below 5 MiB.
    pub fn with_upload_options(
        store: Arc<dyn ObjectStore>,
        path: impl Into<Path>,
        options: WriterOptions,
        upload: UploadOptions,
    ) -> Result<Self> {
        if upload.part_size < MIN_PART_SIZE {
            return Err(Error::invalid_argument(format!(
                "part size {} is below the 5 MiB stores accept",
                upload.part_size
            )));
        }
        let runtime = Runtime::given_or_owned(upload.runtime)?;
        let sink = Upload::new(
            store,
            path.into(),
            runtime,
            upload.part_size,
            upload.parts_in_flight,
        );
        let parts = sink.parts();
        Ok(StoreWriter {
            writer: Writer::new(sink, options)?,
            parts,
        })
    }

    /// Writes one row (see [`Writer::write`]).
    pub fn write(&mut self, row: &T) -> Result<()> {
        self.writer.write(row)
    }

    /// Writes rows in order (see [`Writer::write_all`]).
    pub fn write_all(&mut self, rows: &[T]) -> Result<()> {
        self.writer.write_all(rows)
    }

    /// Ends the current row group and sends its bytes on (see
    /// [`Writer::flush_row_group`]).
    pub fn flush_row_group(&mut self) -> Result<()> {
        self.writer.flush_row_group()
    }

    /// Rows written so far.
    pub fn num_rows(&self) -> u64 {
        self.writer.num_rows()
    }

    /// Bytes of the file written so far (uploaded, in flight or in the part buffer).
    pub fn bytes_written(&self) -> u64 {
        self.writer.bytes_written()
    }

    /// Parts sent so far.
    pub fn parts_sent(&self) -> usize {
        self.parts.load(Ordering::Relaxed)
    }

    /// Writes the last row group and the footer, and completes the upload: the object
    /// appears at its path, whole. On an error the upload is aborted.
    pub fn close(self) -> Result<ParquetMetaData> {
        let (mut upload, metadata) = self.writer.close()?;
        upload.finish()?;
        Ok(metadata)
    }
}
