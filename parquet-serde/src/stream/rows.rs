//! [`RowStream`]: rows assembled on a blocking thread, handed to async code in batches.

use std::collections::VecDeque;
use std::fmt;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use futures::Stream;
use serde::de::DeserializeOwned;
use tokio::sync::{mpsc, oneshot};

use crate::error::{Error, ErrorKind, Result};
use crate::remote::{open, RangeSource, ReadRequest, Runtime};

/// Rows sent to the stream at once.
const BATCH: usize = 1024;
/// Batches assembled ahead of the stream's consumer.
const BATCHES_AHEAD: usize = 2;

/// The rows of a Parquet file as a [`futures::Stream`] of `Result<T>`, one item per row
/// (after an error in a row the next rows follow, as [`Reader`](crate::Reader)'s items
/// do).
///
/// The bytes are fetched by tasks of the tokio runtime; the rows are assembled on a
/// blocking thread ([`tokio::task::spawn_blocking`]) by the crate's synchronous reader,
/// a batch ahead of the consumer. Dropping the stream stops the work: the blocking thread
/// finds the stream gone at its next batch, drops the reader, and the fetches under way
/// are cancelled.
pub struct RowStream<T> {
    rx: mpsc::Receiver<Vec<Result<T>>>,
    batch: VecDeque<Result<T>>,
}

impl<T> fmt::Debug for RowStream<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RowStream")
            .field("buffered", &self.batch.len())
            .finish_non_exhaustive()
    }
}

impl<T> Stream for RowStream<T> {
    type Item = Result<T>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<T>>> {
        loop {
            if let Some(row) = self.batch.pop_front() {
                return Poll::Ready(Some(row));
            }
            match self.rx.poll_recv(cx) {
                Poll::Ready(Some(batch)) => self.batch = batch.into(),
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

impl<T> Unpin for RowStream<T> {}

/// Opens `source` on a blocking thread and streams its rows: fails when opening fails
/// (footer, schema, predicate), else the rows follow. Must be called inside a tokio
/// runtime, which runs the fetches.
pub(crate) async fn stream_rows<T: DeserializeOwned + Send + 'static>(
    source: Arc<dyn RangeSource>,
    request: ReadRequest,
) -> Result<RowStream<T>> {
    let handle = tokio::runtime::Handle::try_current()
        .map_err(|_| Error::invalid_argument("an async read must run inside a tokio runtime"))?;
    let runtime = Runtime::from_handle(handle.clone());
    let (opened_tx, opened_rx) = oneshot::channel::<Result<()>>();
    let (tx, rx) = mpsc::channel(BATCHES_AHEAD);
    crate::exec::blocking(&handle, move || {
        let reader = match open::<T>(source, runtime, request) {
            Ok(reader) => {
                let _ = opened_tx.send(Ok(()));
                reader
            }
            Err(e) => {
                let _ = opened_tx.send(Err(e));
                return;
            }
        };
        let mut batch = Vec::with_capacity(BATCH);
        for row in reader {
            batch.push(row);
            if batch.len() == BATCH {
                let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                if tx.blocking_send(full).is_err() {
                    return; // the stream was dropped
                }
            }
        }
        if !batch.is_empty() {
            let _ = tx.blocking_send(batch);
        }
    });
    match opened_rx.await {
        Ok(Ok(())) => Ok(RowStream {
            rx,
            batch: VecDeque::new(),
        }),
        Ok(Err(e)) => Err(e),
        Err(_) => Err(Error::new(
            ErrorKind::Internal,
            "the reading thread stopped before opening the file",
        )),
    }
}
