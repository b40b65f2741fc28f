//! Tests of every codec: round trips, size checks, garbage, and pages of the interop corpus.

use super::*;
use crate::ErrorKind;

const ALL: [Compression; 12] = [
    Compression::Uncompressed,
    Compression::Snappy,
    Compression::Gzip(0),
    Compression::Gzip(1),
    Compression::Gzip(9),
    Compression::Brotli(0),
    Compression::Brotli(5),
    Compression::Brotli(11),
    Compression::Zstd(-5),
    Compression::Zstd(0),
    Compression::Zstd(19),
    Compression::Lz4Raw,
];

fn inputs() -> Vec<Vec<u8>> {
    let text: Vec<u8> = (0..2000)
        .flat_map(|i| {
            format!("2024-05-01T12:00:{:02} INFO request id={i} ok\n", i % 60).into_bytes()
        })
        .collect();
    let mut noise = Vec::with_capacity(10_000);
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..10_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        noise.push(x as u8);
    }
    vec![
        Vec::new(),
        vec![7],
        b"hello parquet".to_vec(),
        vec![0; 100_000],
        text,
        noise,
    ]
}

#[test]
fn codec_ids() {
    assert_eq!(
        Compression::Uncompressed.codec(),
        CompressionCodec::Uncompressed
    );
    assert_eq!(Compression::Snappy.codec(), CompressionCodec::Snappy);
    assert_eq!(Compression::Gzip(6).codec(), CompressionCodec::Gzip);
    assert_eq!(Compression::Brotli(1).codec(), CompressionCodec::Brotli);
    assert_eq!(Compression::Zstd(3).codec(), CompressionCodec::Zstd);
    assert_eq!(Compression::Lz4Raw.codec(), CompressionCodec::Lz4Raw);
    assert_eq!(Compression::default(), Compression::Snappy);
}

#[test]
fn round_trip_every_codec() {
    for input in inputs() {
        for c in ALL {
            let mut compressed = vec![1, 2, 3];
            c.compress(&input, &mut compressed).unwrap();
            assert_eq!(&compressed[..3], &[1, 2, 3], "{c:?} must append");
            let mut out = vec![42];
            decompress(c.codec(), &compressed[3..], input.len(), &mut out)
                .unwrap_or_else(|e| panic!("{c:?} on {} bytes: {e}", input.len()));
            assert_eq!(out[0], 42);
            assert_eq!(&out[1..], &input[..], "{c:?}");
        }
    }
}

#[test]
fn reused_buffers_give_the_same_bytes() {
    // One buffer for every page, as the page writer and reader keep them: whatever it
    // held before (longer, shorter, other bytes), the result is what the appending
    // functions give.
    for c in ALL {
        let mut packed = vec![7u8; 3];
        let mut inflated = vec![9u8; 50_000];
        for input in inputs().iter().chain(inputs().iter().rev()) {
            let mut want = Vec::new();
            c.compress(input, &mut want).unwrap();
            let end = c.compress_reusing(input, &mut packed, 2).unwrap();
            assert_eq!(&packed[..2], &[7, 7], "{c:?} keeps the bytes before start");
            assert_eq!(&packed[2..end], &want[..], "{c:?} on {} bytes", input.len());
            decompress_reusing(c.codec(), &packed[2..end], input.len(), &mut inflated)
                .unwrap_or_else(|e| panic!("{c:?} on {} bytes: {e}", input.len()));
            assert_eq!(inflated, *input, "{c:?}");
            // A wrong size is an error and leaves the buffer empty.
            if !input.is_empty() {
                let bad =
                    decompress_reusing(c.codec(), &packed[2..end], input.len() + 1, &mut inflated);
                assert!(bad.is_err(), "{c:?}");
                assert!(inflated.is_empty(), "{c:?}");
                inflated.resize(70_000, 3);
            }
        }
    }
}

#[test]
fn compression_actually_compresses() {
    let text = &inputs()[4];
    for c in ALL {
        if c == Compression::Uncompressed || c == Compression::Gzip(0) {
            continue;
        }
        let mut out = Vec::new();
        c.compress(text, &mut out).unwrap();
        assert!(
            out.len() < text.len() / 3,
            "{c:?}: {} of {}",
            out.len(),
            text.len()
        );
    }
}

#[test]
fn a_codec_error_is_the_source() {
    fn source<E: std::error::Error + 'static>(e: &Error) -> &E {
        let s = std::error::Error::source(e).unwrap_or_else(|| panic!("no source: {e}"));
        s.downcast_ref::<E>()
            .unwrap_or_else(|| panic!("not the codec's error: {e}"))
    }
    // A Snappy block whose length varint never ends.
    let bad = [0xff; 6];
    let e = decompress(CompressionCodec::Snappy, &bad, 10, &mut Vec::new()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Compression);
    assert!(
        e.message().starts_with("SNAPPY decompression failed: "),
        "{e}"
    );
    source::<snap::Error>(&e);
    // GZIP reports through std::io::Error.
    let e = decompress(CompressionCodec::Gzip, &[1, 2, 3, 4], 10, &mut Vec::new()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Compression);
    source::<std::io::Error>(&e);
    // LZ4_RAW: an LZ4 block error.
    let e = decompress(CompressionCodec::Lz4Raw, &[0xf0, 1], 10, &mut Vec::new()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Compression);
    source::<lz4_flex::block::DecompressError>(&e);
}

#[test]
fn wrong_size_is_an_error() {
    let input = &inputs()[4];
    for c in ALL {
        let mut compressed = Vec::new();
        c.compress(input, &mut compressed).unwrap();
        for size in [0, 1, input.len() - 1, input.len() + 1, input.len() * 2] {
            let mut out = vec![5];
            let err = decompress(c.codec(), &compressed, size, &mut out).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::Compression, "{c:?} {size}: {err}");
            assert_eq!(out, vec![5], "{c:?}: output restored on error");
        }
    }
}

#[test]
fn empty_page_with_no_bytes() {
    for codec in [
        CompressionCodec::Uncompressed,
        CompressionCodec::Snappy,
        CompressionCodec::Gzip,
        CompressionCodec::Brotli,
        CompressionCodec::Zstd,
        CompressionCodec::Lz4,
        CompressionCodec::Lz4Raw,
    ] {
        let mut out = Vec::new();
        decompress(codec, &[], 0, &mut out).unwrap();
        assert!(out.is_empty());
        assert!(decompress(codec, &[], 10, &mut out).is_err(), "{codec:?}");
    }
}

#[test]
fn garbage_is_an_error_never_a_panic() {
    let mut garbage: Vec<Vec<u8>> = vec![
        vec![0xFF; 64],
        vec![0; 64],
        b"definitely not compressed data, not at all".to_vec(),
        (0..=255).collect(),
    ];
    // Corrupt real streams: flip bytes, cut them short.
    let input = &inputs()[4];
    for c in ALL {
        let mut compressed = Vec::new();
        c.compress(input, &mut compressed).unwrap();
        let n = compressed.len();
        garbage.push(compressed[..n / 2].to_vec());
        let mut flipped = compressed.clone();
        flipped[n / 2] ^= 0x55;
        garbage.push(flipped);
    }
    for g in &garbage {
        for codec in [
            CompressionCodec::Snappy,
            CompressionCodec::Gzip,
            CompressionCodec::Brotli,
            CompressionCodec::Zstd,
            CompressionCodec::Lz4,
            CompressionCodec::Lz4Raw,
        ] {
            for size in [0, 1, 64, input.len()] {
                let mut out = Vec::new();
                if decompress(codec, g, size, &mut out).is_ok() {
                    // Only possible when the bytes really inflate to that size.
                    assert_eq!(out.len(), size);
                } else {
                    assert!(out.is_empty());
                }
                // The same over a page buffer that still holds an earlier page.
                let mut kept = vec![0xA5; 300];
                match decompress_reusing(codec, g, size, &mut kept) {
                    Ok(()) => assert_eq!(kept, out, "{codec:?}"),
                    Err(_) => assert!(kept.is_empty(), "{codec:?}"),
                }
            }
        }
    }
}

#[test]
fn every_truncation_fails() {
    let input = &inputs()[2];
    for c in ALL {
        if c == Compression::Uncompressed {
            continue;
        }
        let mut compressed = Vec::new();
        c.compress(input, &mut compressed).unwrap();
        for len in 0..compressed.len() {
            let mut out = Vec::new();
            assert!(
                decompress(c.codec(), &compressed[..len], input.len(), &mut out).is_err(),
                "{c:?} cut to {len}"
            );
        }
    }
}

#[test]
fn concatenated_gzip_members() {
    let a = b"first member ".repeat(100);
    let b = b"second member".repeat(70);
    let mut stream = Vec::new();
    Compression::Gzip(6).compress(&a, &mut stream).unwrap();
    Compression::Gzip(1).compress(&b, &mut stream).unwrap();
    let mut out = Vec::new();
    decompress(CompressionCodec::Gzip, &stream, a.len() + b.len(), &mut out).unwrap();
    assert_eq!(out, [a.clone(), b.clone()].concat());
    // Only the first member's worth is an error too.
    out.clear();
    assert!(decompress(CompressionCodec::Gzip, &stream, a.len(), &mut out).is_err());
}

#[test]
fn bomb_is_bounded() {
    // 10 MB of zeros announced as 1 KB: reading stops at 1 KB + 1 byte.
    let zeros = vec![0u8; 10 << 20];
    for c in [
        Compression::Gzip(9),
        Compression::Brotli(5),
        Compression::Zstd(3),
    ] {
        let mut compressed = Vec::new();
        c.compress(&zeros, &mut compressed).unwrap();
        let mut out = Vec::new();
        assert!(decompress(c.codec(), &compressed, 1024, &mut out).is_err());
        assert!(
            out.capacity() < 1 << 20,
            "{c:?}: capacity {}",
            out.capacity()
        );
    }
}

#[test]
fn absurd_sizes_are_rejected_before_allocating() {
    let mut small = Vec::new();
    Compression::Snappy.compress(b"abc", &mut small).unwrap();
    for codec in [
        CompressionCodec::Snappy,
        CompressionCodec::Gzip,
        CompressionCodec::Zstd,
        CompressionCodec::Lz4,
        CompressionCodec::Lz4Raw,
    ] {
        let mut out = Vec::new();
        assert!(decompress(codec, &small, usize::MAX / 2, &mut out).is_err());
        assert_eq!(out.capacity(), 0, "{codec:?}");
        let mut kept = Vec::new();
        assert!(decompress_reusing(codec, &small, usize::MAX / 2, &mut kept).is_err());
        assert_eq!(kept.capacity(), 0, "{codec:?}");
    }
}

#[test]
fn invalid_levels() {
    let mut out = Vec::new();
    for c in [
        Compression::Gzip(10),
        Compression::Brotli(12),
        Compression::Zstd(23),
        Compression::Zstd(i32::MIN),
    ] {
        let err = c.compress(b"x", &mut out).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidArgument, "{c:?}");
        assert_eq!(c.validate().unwrap_err().kind(), ErrorKind::InvalidArgument);
    }
    assert!(out.is_empty());
    for c in ALL {
        c.validate().unwrap();
    }
    Compression::GZIP_DEFAULT.validate().unwrap();
    Compression::BROTLI_DEFAULT.validate().unwrap();
    Compression::ZSTD_DEFAULT.validate().unwrap();
}

#[test]
fn unsupported_codecs() {
    let mut out = Vec::new();
    let err = decompress(CompressionCodec::Lzo, b"x", 1, &mut out).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
    assert!(err.message().contains("LZO"));
    let err = decompress(CompressionCodec::Unknown(42), b"x", 1, &mut out).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
    assert!(err.message().contains("42"));
}

/// Pages of files written by other implementations decompress to their announced size.
mod corpus {
    use super::*;
    use crate::core::file::FileReader;
    use crate::core::page::PageReaderOptions;
    use crate::test_support::corpus_file;

    /// Decompresses every page of every column chunk of `file` with `codec` (found through
    /// the footer); returns the number of pages.
    fn check_file(file: &str, codec: CompressionCodec) -> usize {
        let reader = FileReader::new(corpus_file(&format!("data/{file}"))).unwrap();
        let mut pages = 0;
        for rg in 0..reader.num_row_groups() {
            for c in 0..reader.schema().num_columns() {
                let chunk = reader.column_chunk(rg, c).unwrap();
                assert_eq!(chunk.codec, codec, "{file}");
                let mut walk = chunk.page_reader(PageReaderOptions::default());
                while let Some(raw) = walk.next_raw().unwrap() {
                    let h = &raw.header;
                    let uncompressed = h.uncompressed_page_size as usize;
                    let (levels, compressed) = match &h.data_page_header_v2 {
                        Some(v2) => (
                            (v2.definition_levels_byte_length + v2.repetition_levels_byte_length)
                                as usize,
                            v2.values_compressed(),
                        ),
                        None => (0, true),
                    };
                    let (level_bytes, values) = raw.data.split_at(levels);
                    let mut out = level_bytes.to_vec();
                    if compressed {
                        decompress(codec, values, uncompressed - levels, &mut out).unwrap_or_else(
                            |e| panic!("{file} page {pages} at {}: {e}", raw.offset),
                        );
                    } else {
                        out.extend_from_slice(values);
                    }
                    assert_eq!(out.len(), uncompressed, "{file} page at {}", raw.offset);
                    pages += 1;
                }
            }
        }
        assert!(pages > 0, "{file}");
        pages
    }

    #[test]
    fn deprecated_lz4_hadoop_and_raw() {
        check_file("hadoop_lz4_compressed.parquet", CompressionCodec::Lz4);
        check_file(
            "hadoop_lz4_compressed_larger.parquet",
            CompressionCodec::Lz4,
        );
        check_file("non_hadoop_lz4_compressed.parquet", CompressionCodec::Lz4);
    }

    #[test]
    fn lz4_raw() {
        check_file("lz4_raw_compressed.parquet", CompressionCodec::Lz4Raw);
        check_file(
            "lz4_raw_compressed_larger.parquet",
            CompressionCodec::Lz4Raw,
        );
    }

    #[test]
    fn gzip_concatenated_members() {
        check_file("concatenated_gzip_members.parquet", CompressionCodec::Gzip);
        check_file(
            "byte_stream_split_extended.gzip.parquet",
            CompressionCodec::Gzip,
        );
    }

    #[test]
    fn snappy_and_zstd() {
        check_file("alltypes_plain.snappy.parquet", CompressionCodec::Snappy);
        check_file("datapage_v2.snappy.parquet", CompressionCodec::Snappy);
        check_file(
            "datapage_v2_empty_datapage.snappy.parquet",
            CompressionCodec::Snappy,
        );
        check_file("byte_stream_split.zstd.parquet", CompressionCodec::Zstd);
        check_file("page_v2_empty_compressed.parquet", CompressionCodec::Zstd);
    }
}
