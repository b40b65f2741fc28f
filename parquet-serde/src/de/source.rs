//! [`IntoChunkReader`]: what [`from_reader`](super::from_reader) accepts. Anything that is
//! already a [`ChunkReader`] (a `File` read by positioned reads, slices, vectors) is used as
//! it is; a stream (`std::io::Read` that cannot seek) is read into memory first.

use std::io::{BufReader, Cursor, Read, Stdin, StdinLock};

use crate::core::file::ChunkReader;
use crate::error::Result;

/// A source of a Parquet file: a [`ChunkReader`], or a stream read to its end.
///
/// Implemented for every [`ChunkReader`] (`File`, `&File`, `&[u8]`, `Vec<u8>`, ...), for
/// the standard streams [`Stdin`], [`StdinLock`], [`BufReader`] and [`Cursor`], and for
/// [`ReadAll`], which wraps any other `Read`.
///
/// ```
/// use parquet_serde::{IntoChunkReader, ReadAll};
/// let stream = ReadAll(&b"PAR1"[..]);
/// assert_eq!(stream.into_chunk_reader().unwrap(), b"PAR1".to_vec());
/// ```
pub trait IntoChunkReader {
    /// The reader this source becomes.
    type Reader: ChunkReader;

    /// Converts the source (reading a stream to its end).
    fn into_chunk_reader(self) -> Result<Self::Reader>;
}

impl<R: ChunkReader> IntoChunkReader for R {
    type Reader = R;

    fn into_chunk_reader(self) -> Result<R> {
        Ok(self)
    }
}

/// Any `std::io::Read` as a source: read to its end into memory.
#[derive(Debug)]
pub struct ReadAll<R>(pub R);

fn read_all(mut r: impl Read) -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    r.read_to_end(&mut buf)?;
    Ok(buf)
}

impl<R: Read> IntoChunkReader for ReadAll<R> {
    type Reader = Vec<u8>;

    fn into_chunk_reader(self) -> Result<Vec<u8>> {
        read_all(self.0)
    }
}

impl IntoChunkReader for Stdin {
    type Reader = Vec<u8>;

    fn into_chunk_reader(self) -> Result<Vec<u8>> {
        read_all(self)
    }
}

impl IntoChunkReader for StdinLock<'_> {
    type Reader = Vec<u8>;

    fn into_chunk_reader(self) -> Result<Vec<u8>> {
        read_all(self)
    }
}

impl<R: Read> IntoChunkReader for BufReader<R> {
    type Reader = Vec<u8>;

    fn into_chunk_reader(self) -> Result<Vec<u8>> {
        read_all(self)
    }
}

/// Reads from the cursor's position to the end.
impl<T: AsRef<[u8]>> IntoChunkReader for Cursor<T> {
    type Reader = Vec<u8>;

    fn into_chunk_reader(self) -> Result<Vec<u8>> {
        read_all(self)
    }
}
