//! Page compression codecs: pure functions over byte slices, one file per codec.
//!
//! Writers pick a [`Compression`] (codec and level; it prints and parses as `zstd(3)`, see
//! its `FromStr`) and call [`Compression::compress`];
//! readers (the page reader) call the crate's `decompress` with the codec id from the
//! column metadata and the uncompressed size from the page header.
//!
//! Every decoder treats its input as hostile: it appends exactly the announced number of
//! bytes or returns an error, never inflates much beyond that size (streaming codecs read
//! at most one byte more than announced), never pre-allocates more than the codec could
//! produce from the input it was given, and never panics.
//!
//! | codec | writing | reading |
//! |---|---|---|
//! | UNCOMPRESSED | yes | yes |
//! | SNAPPY | raw Snappy block | yes |
//! | GZIP | one gzip member, level 0 to 9 | any number of concatenated members |
//! | BROTLI | quality 0 to 11, window 2^22 | yes |
//! | ZSTD | levels of the zstd library (0 = its default) | any number of frames |
//! | LZ4_RAW | raw LZ4 block | yes |
//! | LZ4 (deprecated) | no | Hadoop framing, else an LZ4 frame, else a raw LZ4 block |
//! | LZO | no | no: [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported) |

mod brotli;
mod gzip;
mod lz4_hadoop;
mod lz4_raw;
mod names;
mod snappy;
mod zstd;

use crate::core::format::CompressionCodec;
use crate::error::{Error, Result};

/// A codec with its level, as chosen by a writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Compression {
    /// No compression.
    Uncompressed,
    /// Snappy (the default: fast, and read by every engine).
    #[default]
    Snappy,
    /// Gzip with a level from 0 to 9.
    Gzip(u32),
    /// Brotli with a quality from 0 to 11.
    Brotli(u32),
    /// Zstandard with a level from 1 to 22 (negative levels are the fast modes).
    Zstd(i32),
    /// Raw LZ4 block.
    Lz4Raw,
}

impl Compression {
    /// Gzip at its usual default level (6).
    pub const GZIP_DEFAULT: Compression = Compression::Gzip(gzip::DEFAULT_LEVEL);
    /// Brotli at the quality most engines default to (1 is fast, 11 is smallest).
    pub const BROTLI_DEFAULT: Compression = Compression::Brotli(brotli::DEFAULT_QUALITY);
    /// Zstandard at its default level (3).
    pub const ZSTD_DEFAULT: Compression = Compression::Zstd(zstd::DEFAULT_LEVEL);

    /// The codec id written in the column metadata.
    pub(crate) fn codec(self) -> CompressionCodec {
        match self {
            Compression::Uncompressed => CompressionCodec::Uncompressed,
            Compression::Snappy => CompressionCodec::Snappy,
            Compression::Gzip(_) => CompressionCodec::Gzip,
            Compression::Brotli(_) => CompressionCodec::Brotli,
            Compression::Zstd(_) => CompressionCodec::Zstd,
            Compression::Lz4Raw => CompressionCodec::Lz4Raw,
        }
    }

    /// Checks the level: Gzip 0 to 9, Brotli 0 to 11, Zstd in the range of the zstd library
    /// (-131072 to 22; 0 means its default level). Writers can call this when options are
    /// set; [`compress`](Self::compress) checks again.
    pub fn validate(self) -> Result<()> {
        match self {
            Compression::Gzip(level) => gzip::check_level(level),
            Compression::Brotli(quality) => brotli::check_quality(quality),
            Compression::Zstd(level) => zstd::check_level(level),
            Compression::Uncompressed | Compression::Snappy | Compression::Lz4Raw => Ok(()),
        }
    }

    /// Compresses `input`, appending to `output`.
    ///
    /// Fails with [`ErrorKind::InvalidArgument`](crate::ErrorKind::InvalidArgument) for a level
    /// out of range (see [`validate`](Self::validate)), and with
    /// [`ErrorKind::Compression`](crate::ErrorKind::Compression) when the codec cannot take the
    /// input (Snappy and LZ4 stop at 4 GiB).
    pub fn compress(self, input: &[u8], output: &mut Vec<u8>) -> Result<()> {
        match self {
            Compression::Uncompressed => {
                output.extend_from_slice(input);
                Ok(())
            }
            Compression::Snappy | Compression::Lz4Raw => {
                let start = output.len();
                let end = self
                    .compress_reusing(input, output, start)
                    .inspect_err(|_| output.truncate(start))?;
                output.truncate(end);
                Ok(())
            }
            Compression::Gzip(level) => gzip::compress(input, level, output),
            Compression::Brotli(quality) => brotli::compress(input, quality, output),
            Compression::Zstd(level) => zstd::compress(input, level, output),
        }
    }

    /// Compresses `input` into `buf` from `start` on and returns where the compressed bytes
    /// end (they are `buf[start..end]`). `buf`'s bytes past `start` are overwritten and may
    /// be left past `end`: the Snappy and LZ4 encoders write into initialized memory only,
    /// and a buffer that keeps its length between pages is zero-filled once instead of once
    /// per page. Errors as [`compress`](Self::compress).
    pub(crate) fn compress_reusing(
        self,
        input: &[u8],
        buf: &mut Vec<u8>,
        start: usize,
    ) -> Result<usize> {
        match self {
            Compression::Snappy => snappy::compress_at(input, buf, start),
            Compression::Lz4Raw => lz4_raw::compress_at(input, buf, start),
            _ => {
                buf.truncate(start);
                self.compress(input, buf)?;
                Ok(buf.len())
            }
        }
    }
}

/// Decompresses a page compressed with `codec`, appending exactly `uncompressed_size` bytes to
/// `output`; any other size is an error.
///
/// An empty `input` with `uncompressed_size == 0` is accepted for every supported codec
/// (some writers emit empty v2 pages without any codec bytes).
///
/// On error `output` is left as it was. Errors: [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported)
/// for LZO and unknown codec ids, [`ErrorKind::Compression`](crate::ErrorKind::Compression)
/// for bytes the codec rejects or that inflate to another size.
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
pub(crate) fn decompress(
    codec: CompressionCodec,
    input: &[u8],
    uncompressed_size: usize,
    output: &mut Vec<u8>,
) -> Result<()> {
    let start = output.len();
    decompress_at(codec, input, uncompressed_size, output, start)
}

/// `decompress` into a buffer whose old contents are not needed: on success `buf` holds
/// exactly the `uncompressed_size` decoded bytes, on error it is empty. A page buffer
/// handed back for the next page is overwritten in place by the codecs that write into
/// initialized memory (Snappy, LZ4_RAW) instead of being zero-filled first.
pub(crate) fn decompress_reusing(
    codec: CompressionCodec,
    input: &[u8],
    uncompressed_size: usize,
    buf: &mut Vec<u8>,
) -> Result<()> {
    decompress_at(codec, input, uncompressed_size, buf, 0)
}

/// Decodes into `buf[start..]`: on success `buf` is `start + uncompressed_size` long, on
/// error it is cut back to `start`. Snappy and LZ4_RAW overwrite the bytes `buf` held past
/// `start`; the other codecs append after cutting `buf` back to `start`.
fn decompress_at(
    codec: CompressionCodec,
    input: &[u8],
    uncompressed_size: usize,
    buf: &mut Vec<u8>,
    start: usize,
) -> Result<()> {
    let result = match codec {
        CompressionCodec::Lzo => Err(Error::unsupported(
            "LZO codec is not supported (no maintained pure implementation; rewrite the file with another codec)",
        )),
        CompressionCodec::Unknown(id) => Err(Error::unsupported(format!(
            "unknown compression codec id {id}"
        ))),
        _ if input.is_empty() && uncompressed_size == 0 => {
            buf.truncate(start);
            Ok(())
        }
        CompressionCodec::Snappy => snappy::decompress_at(input, uncompressed_size, buf, start),
        CompressionCodec::Lz4Raw => {
            lz4_raw::decompress_block("LZ4_RAW", input, uncompressed_size, buf, start)
        }
        CompressionCodec::Uncompressed => append_at(buf, start, |b| {
            if input.len() == uncompressed_size {
                b.extend_from_slice(input);
                Ok(())
            } else {
                Err(size_mismatch("UNCOMPRESSED", uncompressed_size, input.len()))
            }
        }),
        CompressionCodec::Gzip => {
            append_at(buf, start, |b| gzip::decompress(input, uncompressed_size, b))
        }
        CompressionCodec::Brotli => {
            append_at(buf, start, |b| brotli::decompress(input, uncompressed_size, b))
        }
        CompressionCodec::Zstd => {
            append_at(buf, start, |b| zstd::decompress(input, uncompressed_size, b))
        }
        CompressionCodec::Lz4 => {
            append_at(buf, start, |b| lz4_hadoop::decompress(input, uncompressed_size, b))
        }
    };
    match result {
        Ok(()) if buf.len().checked_sub(start) == Some(uncompressed_size) => Ok(()),
        Ok(()) => {
            // Each codec checks the size itself; this is a second line of defence.
            let got = buf.len().saturating_sub(start);
            buf.truncate(start);
            Err(size_mismatch(&codec.to_string(), uncompressed_size, got))
        }
        Err(e) => {
            buf.truncate(start);
            Err(e)
        }
    }
}

/// Cuts `buf` back to `start` and has `append` write after it (codecs that only append).
fn append_at(
    buf: &mut Vec<u8>,
    start: usize,
    append: impl FnOnce(&mut Vec<u8>) -> Result<()>,
) -> Result<()> {
    buf.truncate(start);
    append(buf)
}

/// The error for a page that inflates to another size than its header says.
fn size_mismatch(codec: &str, expected: usize, got: usize) -> Error {
    Error::compression(format!(
        "{codec} page decompressed to {got} bytes, the page header says {expected}"
    ))
}

/// Wraps a codec library error, kept as the error's `source()`.
fn codec_error(
    codec: &str,
    what: &str,
    err: impl std::error::Error + Send + Sync + 'static,
) -> Error {
    Error::compression(format!("{codec} {what} failed: {err}")).with_source(err)
}

/// A codec failure the codec library reports only as a name (zstd's error codes).
fn codec_failure(codec: &str, what: &str, name: &str) -> Error {
    Error::compression(format!("{codec} {what} failed: {name}"))
}

/// Rejects an uncompressed size that `input_len` bytes of a codec cannot produce, before
/// anything is allocated for it. `max_ratio` is the codec's worst-case expansion per input
/// byte and `slack` a constant allowance.
fn check_plausible(
    codec: &str,
    input_len: usize,
    uncompressed_size: usize,
    max_ratio: usize,
    slack: usize,
) -> Result<()> {
    let limit = input_len.saturating_mul(max_ratio).saturating_add(slack);
    if uncompressed_size > limit {
        return Err(Error::compression(format!(
            "{codec} page of {input_len} bytes cannot decompress to {uncompressed_size} bytes as its header says"
        )));
    }
    Ok(())
}

/// Reads a streaming decoder into `output`, at most `uncompressed_size + 1` bytes, and checks
/// that exactly `uncompressed_size` came out. `reserve` is how much to allocate up front
/// (already capped by the caller to what the input could plausibly produce).
fn read_exact_size(
    codec: &str,
    reader: impl std::io::Read,
    uncompressed_size: usize,
    reserve: usize,
    output: &mut Vec<u8>,
) -> Result<()> {
    use std::io::Read;
    let start = output.len();
    output.reserve(reserve);
    let limit = (uncompressed_size as u64).saturating_add(1);
    let mut limited = reader.take(limit);
    if let Err(e) = limited.read_to_end(output) {
        output.truncate(start);
        return Err(codec_error(codec, "decompression", e));
    }
    let got = output.len() - start;
    if got != uncompressed_size {
        output.truncate(start);
        let got_text = if got > uncompressed_size {
            format!("more than {uncompressed_size}")
        } else {
            got.to_string()
        };
        return Err(Error::compression(format!(
            "{codec} page decompressed to {got_text} bytes, the page header says {uncompressed_size}"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests;

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn compress_reusing_example() -> crate::Result<()> {
        use crate::core::compression::{decompress_reusing, Compression};
        let page = b"one page of text, one page of text, one page of text".repeat(100);
        let (mut packed, mut plain) = (Vec::new(), Vec::new());
        for _ in 0..3 {
            // The same two buffers serve every page.
            let end = Compression::Snappy.compress_reusing(&page, &mut packed, 0)?;
            let codec = Compression::Snappy.codec();
            decompress_reusing(codec, &packed[..end], page.len(), &mut plain)?;
            assert_eq!(plain, page);
        }
        Ok(())
    }
}
