//! [`IntoChunkReader`]: what [`from_reader`](super::from_reader) accepts. Anything that is
//! already a [`ChunkReader`] (a `File` read by positioned reads, slices, vectors) is used as
//! it is; a stream (`std::io::Read` that cannot seek) is read into memory first. The trait
//! is public (it bounds `from_reader`) but not nameable: users pass a source, never name it.

use std::io::{BufReader, Cursor, Read, Stdin, StdinLock};

use crate::core::file::ChunkReader;
use crate::error::Result;

/// A source of a Parquet file: a [`ChunkReader`], or a stream read to its end.
///
/// Implemented for every [`ChunkReader`] (`File`, `&File`, `&[u8]`, `Vec<u8>`, ...) and for
/// the standard streams [`Stdin`], [`StdinLock`], [`BufReader`] (which wraps any other
/// `Read`) and [`Cursor`].
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

fn read_all(mut r: impl Read) -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    r.read_to_end(&mut buf)?;
    Ok(buf)
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

#[cfg(test)]
mod tests {
    use super::IntoChunkReader;
    use std::io::BufReader;

    #[test]
    fn a_stream_is_read_to_its_end() {
        let stream = BufReader::new(&b"PAR1"[..]);
        assert_eq!(stream.into_chunk_reader().unwrap(), b"PAR1".to_vec());
    }
}
