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

/// Parts per row group of a store writer left at the default row group size.
const ROW_GROUP_PARTS: usize = 4;

/// The options of a store writer: the default row group size (128 MiB before
/// compression, which would keep a whole object of most log files in memory until
/// `close`) becomes [`ROW_GROUP_PARTS`] parts' worth, so that parts go out while rows
/// are written, and the default page row limit becomes [`STORE_PAGE_ROWS`], so that a
/// ranged read fetches less around the rows it wants; what the caller chose stays.
fn for_store(mut options: WriterOptions, part_size: usize) -> WriterOptions {
    let default = WriterOptions::default();
    if options.page_row_limit == default.page_row_limit {
        // Pages of fewer rows: a ranged read of a few rows fetches less around them.
        options = options.page_row_limit(STORE_PAGE_ROWS);
    }
    if options.row_group_size != default.row_group_size {
        return options;
    }
    let bytes = part_size.saturating_mul(ROW_GROUP_PARTS);
    options.row_group_size(bytes)
}

/// The page row limit of a store writer left at the default (20,000 rows): a read of
/// rows clustered in runs of a thousand fetches one or two pages of 2,500 rows per
/// column and run (with 5,000, 11% of a log object for 1% of its rows in 10 runs; with
/// 2,500, 6.5%), and pages stay large enough to compress as well.
const STORE_PAGE_ROWS: usize = 2_500;

/// Writes rows of `T` as a Parquet object of an [`ObjectStore`] with a multipart upload,
/// streaming: memory holds one row group (as [`Writer`] does), the part being filled and
/// the parts in flight ([`UploadOptions`]). Left at its default (128 MiB), the row group
/// size becomes four parts' worth before compression (32 MiB with the default 8 MiB
/// parts): row groups, hence parts, go out as rows are written whatever the object's
/// size, and memory stays near one row group and the parts in flight. Left at its
/// default (20,000), the page row limit becomes 2,500, so that a ranged read of a few
/// rows fetches less around them. A row group size or page row limit set in the
/// [`WriterOptions`] is kept. Row groups are uploaded as parts fill;
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
        let options = for_store(options, upload.part_size);
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

    /// The options the writer writes with (the row group size of a store's, see
    /// [`StoreWriter`]).
    pub fn options(&self) -> &WriterOptions {
        self.writer.options()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_writer_cuts_row_groups_by_parts_unless_told_otherwise() {
        let default = for_store(WriterOptions::default(), 8 << 20);
        assert_eq!(default.row_group_size, 32 << 20);
        assert_eq!(default.page_row_limit, 2_500);
        let chosen = for_store(
            WriterOptions::default()
                .row_group_size(1 << 30)
                .page_row_limit(7),
            8 << 20,
        );
        assert_eq!((chosen.row_group_size, chosen.page_row_limit), (1 << 30, 7));
    }
}
