//! An `AsyncRead + AsyncSeek` as a [`RangeSource`]: seek, then read exactly.

use std::io::SeekFrom;
use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncSeek, AsyncSeekExt};
use tokio::sync::Mutex;

use crate::error::{Error, Result};
use crate::remote::{BoxFuture, RangeSource};

/// A seekable async reader, one request at a time.
#[derive(Debug)]
pub(crate) struct AsyncSource<R> {
    inner: Arc<Mutex<R>>,
}

impl<R> AsyncSource<R> {
    pub fn new(reader: R) -> Self {
        AsyncSource {
            inner: Arc::new(Mutex::new(reader)),
        }
    }
}

fn io_at(e: std::io::Error, offset: u64) -> Error {
    Error::from(e).with_offset(offset).context("async reader")
}

impl<R: AsyncRead + AsyncSeek + Unpin + Send + 'static> RangeSource for AsyncSource<R> {
    fn tail(&self, n: u64) -> BoxFuture<Result<(Bytes, u64)>> {
        let inner = Arc::clone(&self.inner);
        Box::pin(async move {
            let mut r = inner.lock().await;
            let len = r.seek(SeekFrom::End(0)).await.map_err(|e| io_at(e, 0))?;
            let start = len - n.min(len);
            r.seek(SeekFrom::Start(start))
                .await
                .map_err(|e| io_at(e, start))?;
            let mut buf = vec![0u8; (len - start) as usize];
            r.read_exact(&mut buf).await.map_err(|e| io_at(e, start))?;
            Ok((Bytes::from(buf), len))
        })
    }

    fn range(&self, range: Range<u64>) -> BoxFuture<Result<Bytes>> {
        let inner = Arc::clone(&self.inner);
        Box::pin(async move {
            let len = usize::try_from(range.end - range.start)
                .map_err(|_| Error::corrupt("range larger than memory"))?;
            let mut r = inner.lock().await;
            r.seek(SeekFrom::Start(range.start))
                .await
                .map_err(|e| io_at(e, range.start))?;
            let mut buf = vec![0u8; len];
            r.read_exact(&mut buf)
                .await
                .map_err(|e| io_at(e, range.start))?;
            Ok(Bytes::from(buf))
        })
    }

    fn describe(&self) -> String {
        "async reader".into()
    }
}
