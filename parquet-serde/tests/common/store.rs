//! An `ObjectStore` wrapper for the store tests: counts the GET requests and bytes a read
//! makes and the objects written, can fail a multipart upload after some parts (an upload
//! that breaks half-way) and fail the next uploads outright. Included by path by the store
//! tests of both packages.

use std::fmt;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use async_trait::async_trait;
use futures::stream::BoxStream;
use object_store::path::Path;
use object_store::{
    CopyOptions, GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore,
    PutMultipartOptions, PutOptions, PutPayload, PutResult, Result, UploadPart,
};

/// Counts GETs and their bytes; fails `put_part` once `fail_after_parts` parts were sent.
#[derive(Debug)]
pub struct CountingStore {
    inner: Arc<dyn ObjectStore>,
    gets: AtomicU64,
    get_bytes: AtomicU64,
    parts: Arc<AtomicUsize>,
    fail_after_parts: Option<usize>,
    /// Objects written whole (single puts and completed multipart uploads).
    puts: Arc<AtomicU64>,
    /// Uploads still to refuse.
    fail_puts: AtomicUsize,
}

impl CountingStore {
    pub fn new(inner: Arc<dyn ObjectStore>) -> Self {
        CountingStore {
            inner,
            gets: AtomicU64::new(0),
            get_bytes: AtomicU64::new(0),
            parts: Arc::new(AtomicUsize::new(0)),
            fail_after_parts: None,
            puts: Arc::new(AtomicU64::new(0)),
            fail_puts: AtomicUsize::new(0),
        }
    }

    /// A store whose multipart uploads fail at part `parts + 1`.
    pub fn failing_after(inner: Arc<dyn ObjectStore>, parts: usize) -> Self {
        CountingStore {
            fail_after_parts: Some(parts),
            ..CountingStore::new(inner)
        }
    }

    /// Refuses the next `n` uploads (single puts and multipart starts).
    #[allow(dead_code)]
    pub fn fail_next_puts(&self, n: usize) {
        self.fail_puts.store(n, Ordering::SeqCst);
    }

    /// Objects written whole so far.
    #[allow(dead_code)]
    pub fn puts(&self) -> u64 {
        self.puts.load(Ordering::SeqCst)
    }

    /// Takes one refusal, if any are left.
    fn refuse(&self) -> Result<()> {
        let left = self
            .fail_puts
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
        match left {
            Ok(_) => Err(object_store::Error::Generic {
                store: "CountingStore",
                source: "injected upload failure".into(),
            }),
            Err(_) => Ok(()),
        }
    }

    /// GET requests so far.
    pub fn gets(&self) -> u64 {
        self.gets.load(Ordering::SeqCst)
    }

    /// Bytes the GETs returned so far.
    pub fn get_bytes(&self) -> u64 {
        self.get_bytes.load(Ordering::SeqCst)
    }

    /// Parts the uploads sent (successfully) so far.
    pub fn parts(&self) -> usize {
        self.parts.load(Ordering::SeqCst)
    }

    pub fn reset(&self) {
        self.gets.store(0, Ordering::SeqCst);
        self.get_bytes.store(0, Ordering::SeqCst);
    }
}

impl fmt::Display for CountingStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Counting({})", self.inner)
    }
}

#[derive(Debug)]
struct FailingUpload {
    inner: Box<dyn MultipartUpload>,
    sent: Arc<AtomicUsize>,
    started: usize,
    fail_after: Option<usize>,
    puts: Arc<AtomicU64>,
}

#[async_trait]
impl MultipartUpload for FailingUpload {
    fn put_part(&mut self, data: PutPayload) -> UploadPart {
        self.started += 1;
        if self.fail_after.is_some_and(|n| self.started > n) {
            return Box::pin(async {
                Err(object_store::Error::Generic {
                    store: "CountingStore",
                    source: "injected part failure".into(),
                })
            });
        }
        let put = self.inner.put_part(data);
        let sent = Arc::clone(&self.sent);
        Box::pin(async move {
            put.await?;
            sent.fetch_add(1, Ordering::SeqCst);
            Ok(())
        })
    }

    async fn complete(&mut self) -> Result<PutResult> {
        let done = self.inner.complete().await?;
        self.puts.fetch_add(1, Ordering::SeqCst);
        Ok(done)
    }

    async fn abort(&mut self) -> Result<()> {
        self.inner.abort().await
    }
}

#[async_trait]
impl ObjectStore for CountingStore {
    async fn put_opts(
        &self,
        path: &Path,
        payload: PutPayload,
        opts: PutOptions,
    ) -> Result<PutResult> {
        self.refuse()?;
        let done = self.inner.put_opts(path, payload, opts).await?;
        self.puts.fetch_add(1, Ordering::SeqCst);
        Ok(done)
    }

    async fn put_multipart_opts(
        &self,
        path: &Path,
        opts: PutMultipartOptions,
    ) -> Result<Box<dyn MultipartUpload>> {
        self.refuse()?;
        let inner = self.inner.put_multipart_opts(path, opts).await?;
        Ok(Box::new(FailingUpload {
            inner,
            sent: Arc::clone(&self.parts),
            started: 0,
            fail_after: self.fail_after_parts,
            puts: Arc::clone(&self.puts),
        }))
    }

    async fn get_opts(&self, path: &Path, options: GetOptions) -> Result<GetResult> {
        let head = options.head;
        let got = self.inner.get_opts(path, options).await?;
        if !head {
            self.gets.fetch_add(1, Ordering::SeqCst);
            self.get_bytes
                .fetch_add(got.range.end - got.range.start, Ordering::SeqCst);
        }
        Ok(got)
    }

    fn delete_stream(
        &self,
        locations: BoxStream<'static, Result<Path>>,
    ) -> BoxStream<'static, Result<Path>> {
        self.inner.delete_stream(locations)
    }

    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, Result<ObjectMeta>> {
        self.inner.list(prefix)
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> Result<ListResult> {
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy_opts(&self, from: &Path, to: &Path, options: CopyOptions) -> Result<()> {
        self.inner.copy_opts(from, to, options).await
    }
}
