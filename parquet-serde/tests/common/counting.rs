//! [`CountingReader`]: a `ChunkReader` that counts the bytes and the reads it serves, to show
//! how much of a file a query touched.

use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering};

use parquet_serde::core::file::ChunkReader;
use parquet_serde::Result;

/// Wraps a reader and counts what it serves.
#[derive(Debug)]
pub struct CountingReader<R> {
    inner: R,
    bytes: AtomicU64,
    reads: AtomicU64,
}

impl<R: ChunkReader> CountingReader<R> {
    /// Wraps a reader.
    pub fn new(inner: R) -> Self {
        CountingReader {
            inner,
            bytes: AtomicU64::new(0),
            reads: AtomicU64::new(0),
        }
    }

    /// Bytes served so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Reads served so far.
    pub fn reads(&self) -> u64 {
        self.reads.load(Ordering::Relaxed)
    }
}

impl<R: ChunkReader> ChunkReader for CountingReader<R> {
    fn len_bytes(&self) -> u64 {
        self.inner.len_bytes()
    }

    fn read_range(&self, start: u64, len: usize) -> Result<Cow<'_, [u8]>> {
        let out = self.inner.read_range(start, len)?;
        self.bytes.fetch_add(len as u64, Ordering::Relaxed);
        self.reads.fetch_add(1, Ordering::Relaxed);
        Ok(out)
    }
}
