//! [`ChunkReader`]: positioned reads of byte ranges, so readers fetch only what they need.

use std::borrow::Cow;
use std::fs::File;
#[cfg(any(test, feature = "internals"))]
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::error::{Error, Result};

/// A source of Parquet bytes that can read any range: an in-memory buffer or a file.
///
/// Implemented for `[u8]`, `Vec<u8>`, `Arc<[u8]>`, [`std::fs::File`] (positioned reads, no
/// shared cursor), `bytes::Bytes` (feature `bytes`), and references of
/// those. In-memory sources hand out borrowed slices; files read into fresh buffers.
///
/// ```
/// use parquet_serde::core::file::ChunkReader;
/// let data = b"PAR1....PAR1".to_vec();
/// assert_eq!(data.len_bytes(), 12);
/// assert_eq!(&*data.read_range(8, 4).unwrap(), b"PAR1");
/// assert!(data.read_range(10, 4).is_err());
/// ```
pub trait ChunkReader: Send + Sync {
    /// Total length in bytes.
    fn len_bytes(&self) -> u64;

    /// Reads `len` bytes starting at `start`; a range past the end is an error.
    fn read_range(&self, start: u64, len: usize) -> Result<Cow<'_, [u8]>>;
}

pub(crate) fn check_range(total: u64, start: u64, len: usize) -> Result<()> {
    match start.checked_add(len as u64) {
        Some(end) if end <= total => Ok(()),
        _ => Err(Error::corrupt(format!(
            "byte range {start}..{} is outside the file of {total} bytes",
            start as u128 + len as u128
        ))
        .with_offset(start)),
    }
}

impl ChunkReader for [u8] {
    fn len_bytes(&self) -> u64 {
        self.len() as u64
    }

    fn read_range(&self, start: u64, len: usize) -> Result<Cow<'_, [u8]>> {
        check_range(self.len() as u64, start, len)?;
        // In range: checked above, so the casts and the slice cannot fail.
        Ok(Cow::Borrowed(&self[start as usize..start as usize + len]))
    }
}

impl ChunkReader for Vec<u8> {
    fn len_bytes(&self) -> u64 {
        self.as_slice().len_bytes()
    }

    fn read_range(&self, start: u64, len: usize) -> Result<Cow<'_, [u8]>> {
        self.as_slice().read_range(start, len)
    }
}

impl ChunkReader for Arc<[u8]> {
    fn len_bytes(&self) -> u64 {
        (**self).len_bytes()
    }

    fn read_range(&self, start: u64, len: usize) -> Result<Cow<'_, [u8]>> {
        (**self).read_range(start, len)
    }
}

#[cfg(feature = "bytes")]
impl ChunkReader for bytes::Bytes {
    fn len_bytes(&self) -> u64 {
        self.len() as u64
    }

    fn read_range(&self, start: u64, len: usize) -> Result<Cow<'_, [u8]>> {
        self.as_ref().read_range(start, len)
    }
}

impl<T: ChunkReader + ?Sized> ChunkReader for &T {
    fn len_bytes(&self) -> u64 {
        (**self).len_bytes()
    }

    fn read_range(&self, start: u64, len: usize) -> Result<Cow<'_, [u8]>> {
        (**self).read_range(start, len)
    }
}

impl<T: ChunkReader + ?Sized> ChunkReader for Box<T> {
    fn len_bytes(&self) -> u64 {
        (**self).len_bytes()
    }

    fn read_range(&self, start: u64, len: usize) -> Result<Cow<'_, [u8]>> {
        (**self).read_range(start, len)
    }
}

impl ChunkReader for File {
    fn len_bytes(&self) -> u64 {
        self.metadata().map(|m| m.len()).unwrap_or(0)
    }

    fn read_range(&self, start: u64, len: usize) -> Result<Cow<'_, [u8]>> {
        check_range(self.len_bytes(), start, len)?;
        let mut buf = vec![0u8; len];
        read_exact_at(self, &mut buf, start)?;
        Ok(Cow::Owned(buf))
    }
}

/// The error for a folder given where a Parquet file is expected.
pub(crate) fn not_a_file() -> Error {
    Error::invalid_argument(
        "this is a folder, not a Parquet file: read the files of a folder with \
         `Dataset::open(dir)` (parquet_serde::dataset)",
    )
}

/// A failed read at `offset`; reading a folder (opened as a file) says so.
#[cold]
fn read_error(e: std::io::Error, offset: u64) -> Error {
    if e.kind() == std::io::ErrorKind::IsADirectory {
        return not_a_file();
    }
    Error::from(e).with_offset(offset)
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> Result<()> {
    use std::os::unix::fs::FileExt;
    file.read_exact_at(buf, offset)
        .map_err(|e| read_error(e, offset))
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, offset) {
            Ok(0) => {
                return Err(Error::corrupt("unexpected end of file").with_offset(offset));
            }
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(read_error(e, offset)),
        }
    }
    Ok(())
}

/// A [`ChunkReader`] that counts the bytes and the reads it serves, to show how much of a
/// file a query touched (the unit tests, and the integration tests through `__internals`).
#[cfg(any(test, feature = "internals"))]
#[derive(Debug)]
pub struct CountingReader<R> {
    inner: R,
    bytes: AtomicU64,
    reads: AtomicU64,
}

#[cfg(any(test, feature = "internals"))]
#[allow(dead_code)]
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

    /// The wrapped reader.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

#[cfg(any(test, feature = "internals"))]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_reads_ranges() {
        use std::io::Write;
        let mut tmp = tempfile::tempfile().unwrap();
        tmp.write_all(b"0123456789").unwrap();
        assert_eq!(tmp.len_bytes(), 10);
        assert_eq!(&*tmp.read_range(3, 4).unwrap(), b"3456");
        assert!(tmp.read_range(8, 3).is_err());
        assert!(tmp.read_range(u64::MAX, 2).is_err());
    }

    #[test]
    fn slices_check_ranges() {
        let data: &[u8] = b"abc";
        assert_eq!(&*data.read_range(0, 3).unwrap(), b"abc");
        assert_eq!(&*data.read_range(3, 0).unwrap(), b"");
        assert!(data.read_range(4, 0).is_err());
    }
}
