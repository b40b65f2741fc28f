//! The deprecated LZ4 codec (id 5), for reading only.
//!
//! Writers disagreed on what "LZ4" means, so a page is tried in this order, the way Arrow C++
//! and arrow-rs decide:
//!
//! 1. Hadoop framing (parquet-java, Arrow C++ since 2020): one or more frames, each a 4-byte
//!    big-endian uncompressed length, a 4-byte big-endian compressed length and a raw LZ4
//!    block of that length. The framing fits only if every frame is complete, every block
//!    inflates to its stated length, the frames cover the whole input, and their lengths add
//!    up to the page's uncompressed size.
//! 2. The LZ4 frame format (magic `04 22 4D 18`), which older arrow-rs wrote.
//! 3. A single raw LZ4 block (older parquet-cpp, e.g. `non_hadoop_lz4_compressed.parquet`).

use super::lz4_raw::decompress_block;
use super::read_exact_size;
use crate::error::{Error, Result};

/// Length of a Hadoop frame header: uncompressed and compressed lengths, both u32 big endian.
const FRAME_HEADER_LEN: usize = 8;

/// Magic number that starts an LZ4 frame (little endian 0x184D2204).
const LZ4_FRAME_MAGIC: [u8; 4] = [0x04, 0x22, 0x4D, 0x18];

/// Appends exactly `uncompressed_size` bytes decoded from a deprecated-LZ4 page.
pub(super) fn decompress(
    input: &[u8],
    uncompressed_size: usize,
    output: &mut Vec<u8>,
) -> Result<()> {
    let start = output.len();
    if decompress_hadoop(input, uncompressed_size, output) {
        return Ok(());
    }
    output.truncate(start);
    if input.starts_with(&LZ4_FRAME_MAGIC) {
        let reserve = uncompressed_size.min(input.len().saturating_mul(255));
        let decoder = lz4_flex::frame::FrameDecoder::new(input);
        if read_exact_size("LZ4", decoder, uncompressed_size, reserve, output).is_ok() {
            return Ok(());
        }
        output.truncate(start);
    }
    decompress_block("LZ4", input, uncompressed_size, output, start).map_err(|e| {
        Error::compression(format!(
            "LZ4 page is neither Hadoop-framed nor an LZ4 frame, and as a raw block: {}",
            e.message()
        ))
    })
}

/// Decodes Hadoop-framed LZ4; false (with `output` possibly extended) when the framing does
/// not fit the input.
fn decompress_hadoop(input: &[u8], uncompressed_size: usize, output: &mut Vec<u8>) -> bool {
    let mut rest = input;
    let mut total = 0usize;
    while let Some((header, after)) = rest.split_first_chunk::<FRAME_HEADER_LEN>() {
        let frame_len = u32::from_be_bytes([header[0], header[1], header[2], header[3]]) as usize;
        let block_len = u32::from_be_bytes([header[4], header[5], header[6], header[7]]) as usize;
        let Some(block) = after.get(..block_len) else {
            return false;
        };
        if frame_len > uncompressed_size - total {
            return false;
        }
        // An empty frame (Hadoop's end marker is 0, 0) inflates to nothing.
        if frame_len > 0 || !block.is_empty() {
            if decompress_block("LZ4", block, frame_len, output, output.len()).is_err() {
                return false;
            }
            total += frame_len;
        }
        rest = &after[block_len..];
    }
    rest.is_empty() && total == uncompressed_size
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds Hadoop frames by hand: each chunk becomes one frame.
    fn hadoop_frames(chunks: &[&[u8]]) -> Vec<u8> {
        let mut out = Vec::new();
        for chunk in chunks {
            let block = lz4_flex::block::compress(chunk);
            out.extend_from_slice(&(chunk.len() as u32).to_be_bytes());
            out.extend_from_slice(&(block.len() as u32).to_be_bytes());
            out.extend_from_slice(&block);
        }
        out
    }

    fn sample(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i % 251) as u8 ^ (i / 1000) as u8).collect()
    }

    #[test]
    fn one_hadoop_frame() {
        let data = sample(5000);
        let framed = hadoop_frames(&[&data]);
        let mut out = vec![9];
        decompress(&framed, data.len(), &mut out).unwrap();
        assert_eq!(out[0], 9);
        assert_eq!(&out[1..], &data[..]);
    }

    #[test]
    fn several_hadoop_frames_and_end_marker() {
        let data = sample(20_000);
        let mut framed = hadoop_frames(&[&data[..7000], &data[7000..7001], &data[7001..]]);
        let mut out = Vec::new();
        decompress(&framed, data.len(), &mut out).unwrap();
        assert_eq!(out, data);
        // Hadoop's stream end marker: a frame of two zero lengths.
        framed.extend_from_slice(&[0; 8]);
        out.clear();
        decompress(&framed, data.len(), &mut out).unwrap();
        assert_eq!(out, data);
    }

    #[test]
    fn raw_block_fallback() {
        let data = sample(3000);
        let block = lz4_flex::block::compress(&data);
        let mut out = Vec::new();
        decompress(&block, data.len(), &mut out).unwrap();
        assert_eq!(out, data);
    }

    #[test]
    fn frame_format_fallback() {
        use std::io::Write;
        let data = sample(70_000);
        let mut enc = lz4_flex::frame::FrameEncoder::new(Vec::new());
        enc.write_all(&data).unwrap();
        let framed = enc.finish().unwrap();
        let mut out = Vec::new();
        decompress(&framed, data.len(), &mut out).unwrap();
        assert_eq!(out, data);
        out.clear();
        assert!(decompress(&framed, data.len() - 1, &mut out).is_err());
        assert!(out.is_empty());
    }

    #[test]
    fn hadoop_frames_with_wrong_total_fail() {
        let data = sample(4000);
        let framed = hadoop_frames(&[&data[..2000], &data[2000..]]);
        let mut out = Vec::new();
        assert!(decompress(&framed, data.len() + 1, &mut out).is_err());
        assert!(decompress(&framed, data.len() - 1, &mut out).is_err());
        assert!(out.is_empty());
    }

    #[test]
    fn every_truncation_of_hadoop_frames_fails() {
        let data = sample(600);
        let framed = hadoop_frames(&[&data[..300], &data[300..]]);
        for len in 0..framed.len() {
            let mut out = Vec::new();
            assert!(
                decompress(&framed[..len], data.len(), &mut out).is_err(),
                "length {len}"
            );
            assert!(out.is_empty());
        }
    }

    #[test]
    fn empty_page() {
        let mut out = Vec::new();
        decompress(&[], 0, &mut out).unwrap();
        decompress(&[0; 8], 0, &mut out).unwrap();
        assert!(out.is_empty());
        assert!(decompress(&[], 1, &mut out).is_err());
    }

    #[test]
    fn huge_frame_lengths_do_not_allocate() {
        let framed = [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 4, 0x40, 1, 2, 3];
        let mut out = Vec::new();
        assert!(decompress(&framed, u32::MAX as usize, &mut out).is_err());
        assert_eq!(out.capacity(), 0);
    }
}
