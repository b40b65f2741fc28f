//! Tamper evidence of encrypted files written by parquet-serde: every changed byte, every
//! moved or swapped module, an altered footer or signature and a file read under another AAD
//! prefix is an error naming the module, never wrong data. Page bodies under AES-CTR are not
//! authenticated (the specification says so); their CRC still catches accidental changes.

use parquet_serde::core::bloom::BloomFilterOptions;
use parquet_serde::core::encryption::{
    Algorithm, FileDecryptionProperties, FileEncryptionProperties,
};
use parquet_serde::core::file::{FileReader, ReadOptions, WriterOptions};
use parquet_serde::{ErrorKind, ParquetSchema};
use serde::{Deserialize, Serialize};

const FOOTER_KEY: &[u8] = b"0123456789012345";
const ID_KEY: &[u8] = b"1234567890123450";
const NAME_KEY: &[u8] = b"123456789012345678901234";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Row {
    id: i64,
    name: String,
    score: Option<f64>,
    tags: Vec<i32>,
}

fn rows(n: usize) -> Vec<Row> {
    (0..n)
        .map(|i| Row {
            id: i as i64 * 7,
            name: format!("name{}", i % 3),
            score: (i % 4 != 0).then_some(i as f64 / 2.0),
            tags: (0..i % 3).map(|t| t as i32).collect(),
        })
        .collect()
}

fn writer_options(encryption: FileEncryptionProperties) -> WriterOptions {
    WriterOptions::default()
        .row_group_rows(20)
        .page_row_limit(10)
        .bloom_filter("id", BloomFilterOptions::default())
        .encryption(encryption)
}

fn uniform() -> FileEncryptionProperties {
    FileEncryptionProperties::builder(FOOTER_KEY.to_vec())
        .build()
        .unwrap()
}

fn column_keys(plaintext_footer: bool) -> FileEncryptionProperties {
    FileEncryptionProperties::builder(FOOTER_KEY.to_vec())
        .column_key("id", ID_KEY.to_vec(), Some(b"kc1".to_vec()))
        .column_key("name", NAME_KEY.to_vec(), Some(b"kc2".to_vec()))
        .column_with_footer_key("score")
        .column_with_footer_key("tags.list.element")
        .plaintext_footer(plaintext_footer)
        .build()
        .unwrap()
}

fn all_keys() -> ReadOptions {
    ReadOptions::default().decryption(
        FileDecryptionProperties::builder()
            .footer_key(FOOTER_KEY.to_vec())
            .column_key("id", ID_KEY.to_vec())
            .column_key("name", NAME_KEY.to_vec())
            .build()
            .unwrap(),
    )
}

/// Reads everything a file holds: rows of every column, column and offset indexes, Bloom
/// filters. The first error, if any.
fn read_everything(bytes: &[u8], options: &ReadOptions) -> parquet_serde::Result<Vec<Row>> {
    let reader = FileReader::with_options(bytes, options.clone())?;
    for rg in 0..reader.num_row_groups() {
        for col in 0..reader.schema().num_columns() {
            parquet_serde::__internals::column_index(&reader, rg, col)?;
            parquet_serde::__internals::offset_index(&reader, rg, col)?;
            reader.bloom_filter(rg, col)?;
            reader.read_column(rg, col)?;
        }
    }
    parquet_serde::from_slice_with(bytes, options.clone())
}

#[test]
fn files_read_back_in_every_configuration() {
    let data = rows(40);
    for props in [uniform(), column_keys(false), column_keys(true)] {
        let bytes = parquet_serde::to_vec_with(&data, writer_options(props.clone())).unwrap();
        assert_eq!(
            read_everything(&bytes, &all_keys()).unwrap(),
            data,
            "{props:?}"
        );
    }
}

#[test]
fn every_flipped_byte_is_an_error() {
    let data = rows(40);
    for props in [uniform(), column_keys(false)] {
        let bytes = parquet_serde::to_vec_with(&data, writer_options(props.clone())).unwrap();
        let options = all_keys();
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x01;
            match read_everything(&bad, &options) {
                Err(_) => {}
                Ok(back) => panic!(
                    "{props:?}: byte {i} of {} flipped and the file still read ({} rows, equal: {})",
                    bytes.len(),
                    back.len(),
                    back == data
                ),
            }
        }
    }
}

#[test]
fn every_truncation_is_an_error() {
    let data = rows(40);
    for props in [uniform(), column_keys(true)] {
        let bytes = parquet_serde::to_vec_with(&data, writer_options(props.clone())).unwrap();
        for cut in 0..bytes.len() {
            assert!(
                read_everything(&bytes[..cut], &all_keys()).is_err(),
                "{props:?}: {cut} of {} bytes read without error",
                bytes.len()
            );
        }
    }
}

/// Byte ranges of the modules of one column chunk, from the decrypted metadata.
struct ChunkModules {
    /// (header start, body start, body end) of each page, dictionary page first.
    pages: Vec<(usize, usize, usize)>,
    column_index: Option<usize>,
    offset_index: Option<usize>,
    bloom: Option<usize>,
}

fn chunk_modules(bytes: &[u8], rg: usize, col: usize) -> ChunkModules {
    let reader = FileReader::with_options(bytes, all_keys()).unwrap();
    let md = reader
        .metadata()
        .row_group(rg)
        .unwrap()
        .column(col)
        .unwrap();
    assert!(md.has_metadata(), "metadata decrypted with the column key");
    let start = md
        .dictionary_page_offset()
        .filter(|&d| d > 0)
        .unwrap_or(md.data_page_offset()) as usize;
    let end = start + md.compressed_size() as usize;
    let mut pages = Vec::new();
    let mut at = start;
    while at < end {
        let header_len = module_len(&bytes[at..]);
        let body = at + header_len;
        let body_len = module_len(&bytes[body..]);
        pages.push((at, body, body + body_len));
        at = body + body_len;
    }
    assert_eq!(at, end, "pages tile the chunk");
    ChunkModules {
        pages,
        column_index: md.column_index_range().map(|(o, _)| o as usize),
        offset_index: md.offset_index_range().map(|(o, _)| o as usize),
        bloom: md.bloom_filter_offset().map(|o| o as usize),
    }
}

fn expect_module_error(bytes: &[u8], module: &str, what: &str) {
    let e = read_everything(bytes, &all_keys()).expect_err(what);
    assert_eq!(e.kind(), ErrorKind::Crypto, "{what}: {e}");
    let text = e.to_string();
    assert!(
        text.contains(module),
        "{what}: error should name the {module}: {text}"
    );
}

#[test]
fn a_flipped_byte_in_each_module_names_it() {
    let bytes = parquet_serde::to_vec_with(&rows(40), writer_options(column_keys(false))).unwrap();
    let flip = |at: usize| {
        let mut bad = bytes.clone();
        bad[at] ^= 0x80;
        bad
    };
    // Column 1 is `name`: a dictionary page, data pages, indexes.
    let name = chunk_modules(&bytes, 1, 1);
    let (dh, db, _) = name.pages[0];
    expect_module_error(
        &flip(dh + 20),
        "dictionary page header",
        "dictionary header",
    );
    expect_module_error(&flip(db + 20), "dictionary page", "dictionary body");
    let (ph, pb, _) = name.pages[1];
    expect_module_error(&flip(ph + 20), "data page header", "data page header");
    expect_module_error(&flip(pb + 20), "data page", "data page body");
    expect_module_error(
        &flip(name.column_index.unwrap() + 20),
        "column index",
        "column index",
    );
    expect_module_error(
        &flip(name.offset_index.unwrap() + 20),
        "offset index",
        "offset index",
    );
    // Column 0 is `id`, with a Bloom filter: header module then bitset module.
    let id = chunk_modules(&bytes, 0, 0);
    let bloom = id.bloom.unwrap();
    expect_module_error(&flip(bloom + 20), "bloom filter header", "bloom header");
    let bitset = bloom + module_len(&bytes[bloom..]);
    expect_module_error(&flip(bitset + 20), "bloom filter bitset", "bloom bitset");
    // The footer: the last module before the length and magic.
    let n = bytes.len();
    expect_module_error(&flip(n - 8 - 20), "footer", "footer");
}

#[test]
fn swapped_or_moved_pages_are_errors() {
    // `id` is plain-encoded, uncompressed int64 without nulls and without CRCs (whose varint
    // size varies): its pages in both row groups have one size, so modules can be swapped
    // without moving anything else.
    let options = WriterOptions::default()
        .compression(parquet_serde::Compression::Uncompressed)
        .checksums(false)
        .row_group_rows(20)
        .page_row_limit(10)
        .column_encoding("id", parquet_serde::core::column::Encoding::Plain)
        .encryption(column_keys(false));
    let bytes = parquet_serde::to_vec_with(&rows(40), options).unwrap();
    let a = chunk_modules(&bytes, 0, 0);
    let b = chunk_modules(&bytes, 1, 0);
    let swap = |x: (usize, usize), y: (usize, usize)| {
        assert_eq!(x.1 - x.0, y.1 - y.0, "same-size modules");
        let mut bad = bytes.clone();
        let tmp = bad[x.0..x.1].to_vec();
        bad.copy_within(y.0..y.1, x.0);
        bad[y.0..y.1].copy_from_slice(&tmp);
        bad
    };
    // Whole page (header + body) swapped with the same column's page of row group 1.
    let bad = swap((a.pages[0].0, a.pages[0].2), (b.pages[0].0, b.pages[0].2));
    expect_module_error(&bad, "data page header", "page swapped across row groups");
    // Only the bodies swapped.
    let bad = swap((a.pages[0].1, a.pages[0].2), (b.pages[0].1, b.pages[0].2));
    expect_module_error(&bad, "data page", "page body swapped across row groups");
    // Pages 0 and 1 of one chunk exchanged: headers now carry the wrong page ordinal.
    let bad = swap((a.pages[0].0, a.pages[0].2), (a.pages[1].0, a.pages[1].2));
    expect_module_error(&bad, "data page header", "page header moved");
}

#[test]
fn plaintext_footer_and_signature_are_checked() {
    let bytes = parquet_serde::to_vec_with(&rows(40), writer_options(column_keys(true))).unwrap();
    assert_eq!(&bytes[bytes.len() - 4..], b"PAR1");
    let footer_len =
        u32::from_le_bytes(bytes[bytes.len() - 8..bytes.len() - 4].try_into().unwrap());
    let footer_start = bytes.len() - 8 - footer_len as usize;
    let signature_start = bytes.len() - 8 - 28;
    // A byte of the footer's key-value metadata or schema names, then a signature byte.
    for at in [
        footer_start + footer_len as usize / 2,
        signature_start + 3,
        signature_start + 20,
    ] {
        let mut bad = bytes.clone();
        bad[at] ^= 0x01;
        let e = read_everything(&bad, &all_keys()).expect_err("altered footer");
        assert!(
            matches!(e.kind(), ErrorKind::Crypto | ErrorKind::Corrupt),
            "byte {at}: {e}"
        );
    }
    // The plaintext columns read without keys; the encrypted ones fail naming the column.
    let no_keys = ReadOptions::default();
    let reader = FileReader::with_options(&bytes[..], no_keys).unwrap();
    let e = reader.read_column(0, 0).expect_err("id needs its key");
    assert_eq!(e.kind(), ErrorKind::Crypto);
    assert!(e.to_string().contains("id"), "{e}");
}

#[test]
fn a_file_read_under_another_aad_prefix_fails() {
    let data = rows(40);
    for store in [true, false] {
        let props = FileEncryptionProperties::builder(FOOTER_KEY.to_vec())
            .aad_prefix(b"logs/2026-11-22/part-0".to_vec())
            .store_aad_prefix(store)
            .build()
            .unwrap();
        let bytes = parquet_serde::to_vec_with(&data, writer_options(props)).unwrap();
        let with = |prefix: Option<&[u8]>| {
            let mut p = FileDecryptionProperties::builder().footer_key(FOOTER_KEY.to_vec());
            if let Some(prefix) = prefix {
                p = p.aad_prefix(prefix.to_vec());
            }
            ReadOptions::default().decryption(p.build().unwrap())
        };
        assert_eq!(
            read_everything(&bytes, &with(Some(b"logs/2026-11-22/part-0"))).unwrap(),
            data
        );
        let e = read_everything(&bytes, &with(Some(b"logs/2026-11-22/part-1"))).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Crypto, "{e}");
        let missing = read_everything(&bytes, &with(None));
        if store {
            assert_eq!(
                missing.unwrap(),
                data,
                "a stored prefix needs no caller prefix"
            );
        } else {
            let e = missing.unwrap_err();
            assert!(e.to_string().to_lowercase().contains("aad prefix"), "{e}");
        }
    }
}

#[test]
fn ctr_page_bodies_are_unauthenticated_but_headers_are() {
    let props = FileEncryptionProperties::builder(FOOTER_KEY.to_vec())
        .algorithm(Algorithm::AesGcmCtrV1)
        .build()
        .unwrap();
    let data = rows(40);
    let bytes = parquet_serde::to_vec_with(&data, writer_options(props)).unwrap();
    assert_eq!(read_everything(&bytes, &all_keys()).unwrap(), data);
    let name = chunk_modules(&bytes, 0, 1);
    let (h, b, _) = name.pages[1];
    let mut bad = bytes.clone();
    bad[h + 20] ^= 1;
    expect_module_error(&bad, "data page header", "CTR file, header flipped");
    // A flipped body byte decrypts to a changed plaintext: the page CRC (on by default)
    // catches it; with checksums off it may decode to different values, as the spec warns.
    let mut bad = bytes.clone();
    bad[b + 20] ^= 1;
    let e = read_everything(&bad, &all_keys()).expect_err("CRC catches a CTR body change");
    assert!(
        matches!(
            e.kind(),
            ErrorKind::Checksum | ErrorKind::Corrupt | ErrorKind::Data
        ),
        "{e}"
    );
}

/// The length of the encrypted module at the start of `bytes`, its 4-byte little-endian
/// length prefix included (the framing of every module, Encryption.md).
fn module_len(bytes: &[u8]) -> usize {
    let prefix: [u8; 4] = bytes[..4].try_into().unwrap();
    4 + u32::from_le_bytes(prefix) as usize
}
