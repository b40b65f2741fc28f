//! [`Upload`]: the bytes of a file sent to an object store in parts of a fixed size as they
//! are written; nothing is visible at the path until [`finish`](Upload::finish).

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use object_store::path::Path;
use object_store::{MultipartUpload, ObjectStore, ObjectStoreExt, PutPayload};
use tokio::runtime::{Handle, RuntimeFlavor};
use tokio::task::JoinHandle;

use crate::error::{Error, ErrorKind, Result};
use crate::remote::{wait, Runtime};

use super::source::store_error;

/// The smallest part S3 (and most stores) accept, the last part excepted.
pub(crate) const MIN_PART_SIZE: usize = 5 << 20;

/// How long dropping an unfinished upload waits for its abort request.
const ABORT_WAIT: Duration = Duration::from_secs(30);

/// A multipart upload being written: a part buffer, the parts in flight.
pub(crate) struct Upload {
    store: Arc<dyn ObjectStore>,
    path: Path,
    runtime: Runtime,
    part_size: usize,
    max_in_flight: usize,
    /// Bytes of the next part.
    buf: Vec<u8>,
    /// The multipart upload, started with the first full part.
    upload: Option<Box<dyn MultipartUpload>>,
    in_flight: VecDeque<JoinHandle<object_store::Result<()>>>,
    /// Parts sent, shared with the writer that reports it.
    parts: Arc<AtomicUsize>,
    finished: bool,
}

impl std::fmt::Debug for Upload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upload")
            .field("path", &self.path)
            .field("parts", &self.parts)
            .field("buffered", &self.buf.len())
            .finish_non_exhaustive()
    }
}

impl Upload {
    pub fn new(
        store: Arc<dyn ObjectStore>,
        path: Path,
        runtime: Runtime,
        part_size: usize,
        max_in_flight: usize,
    ) -> Upload {
        Upload {
            store,
            path,
            runtime,
            part_size,
            max_in_flight: max_in_flight.max(1),
            buf: Vec::new(),
            upload: None,
            in_flight: VecDeque::new(),
            parts: Arc::new(AtomicUsize::new(0)),
            finished: false,
        }
    }

    /// The count of parts sent, updated as they are.
    pub fn parts(&self) -> Arc<AtomicUsize> {
        Arc::clone(&self.parts)
    }

    fn error(&self, e: object_store::Error) -> Error {
        store_error(e, &self.path)
    }

    /// Sends `part`, starting the multipart upload first if needed; waits for the oldest
    /// part when too many are in flight.
    fn send(&mut self, part: Vec<u8>) -> Result<()> {
        if self.upload.is_none() {
            let (store, path) = (Arc::clone(&self.store), self.path.clone());
            let started = wait(&self.runtime, async move {
                store
                    .put_multipart(&path)
                    .await
                    .map_err(|e| store_error(e, &path))
            })?;
            self.upload = Some(started);
        }
        // At most `max_in_flight` parts uploading, this one included: memory holds them
        // and the part being filled, no more.
        while self.in_flight.len() >= self.max_in_flight {
            self.wait_oldest()?;
        }
        let Some(upload) = self.upload.as_mut() else {
            return Err(Error::new(ErrorKind::Internal, "no multipart upload"));
        };
        let put = upload.put_part(PutPayload::from(part));
        self.in_flight.push_back(self.runtime.handle().spawn(put));
        self.parts.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    fn wait_oldest(&mut self) -> Result<()> {
        let Some(task) = self.in_flight.pop_front() else {
            return Ok(());
        };
        let result = wait(&self.runtime, async move {
            task.await.map_err(|e| {
                Error::new(ErrorKind::Io, format!("part upload stopped: {e}")).with_source(e)
            })
        })?;
        result.map_err(|e| self.error(e).context("uploading a part"))
    }

    /// Sends the last part and completes the upload (or puts a file smaller than a part
    /// in one request): the object appears at its path now, whole.
    pub fn finish(&mut self) -> Result<()> {
        let rest = std::mem::take(&mut self.buf);
        match self.upload.take() {
            None => {
                let (store, path) = (Arc::clone(&self.store), self.path.clone());
                wait(&self.runtime, async move {
                    store
                        .put(&path, PutPayload::from(rest))
                        .await
                        .map_err(|e| store_error(e, &path))
                })?;
            }
            Some(upload) => {
                self.upload = Some(upload);
                if !rest.is_empty() {
                    self.send(rest)?;
                }
                while !self.in_flight.is_empty() {
                    self.wait_oldest()?;
                }
                let Some(mut upload) = self.upload.take() else {
                    return Err(Error::new(ErrorKind::Internal, "no multipart upload"));
                };
                let path = self.path.clone();
                let done = wait(&self.runtime, async move {
                    match upload.complete().await {
                        Ok(_) => Ok(None),
                        Err(e) => Ok(Some((upload, store_error(e, &path)))),
                    }
                })?;
                if let Some((upload, e)) = done {
                    self.upload = Some(upload);
                    return Err(e.context("completing the multipart upload"));
                }
            }
        }
        self.finished = true;
        Ok(())
    }
}

impl Write for Upload {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if self.finished {
            return Err(io::Error::other("the upload is finished"));
        }
        let mut data = data;
        let written = data.len();
        while !data.is_empty() {
            let room = self.part_size - self.buf.len();
            let (now, later) = data.split_at(room.min(data.len()));
            self.buf.extend_from_slice(now);
            data = later;
            if self.buf.len() == self.part_size {
                let part = std::mem::replace(&mut self.buf, Vec::with_capacity(self.part_size));
                self.send(part).map_err(io::Error::from)?;
            }
        }
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for Upload {
    /// An upload dropped before it finished is aborted: the parts sent are deleted and
    /// nothing appears at the path.
    fn drop(&mut self) {
        if self.finished {
            return;
        }
        for task in self.in_flight.drain(..) {
            task.abort();
        }
        let Some(mut upload) = self.upload.take() else {
            return;
        };
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.runtime.handle().spawn(async move {
            let _ = tx.send(upload.abort().await);
        });
        // Best effort: a store that cannot abort leaves the parts to its lifecycle rules,
        // still invisible at the path. A current-thread runtime could only run the abort
        // once this thread returns to it: no waiting there.
        let blocked = Handle::try_current().is_ok()
            && self.runtime.handle().runtime_flavor() == RuntimeFlavor::CurrentThread;
        if !blocked {
            let _ = rx.recv_timeout(ABORT_WAIT);
        }
    }
}
