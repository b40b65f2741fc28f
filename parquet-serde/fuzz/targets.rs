//! The bodies of the fuzz targets, shared by the AFL binaries (`fuzz/src/bin/*.rs`) and the
//! replay of the checked-in corpus in the normal test suite (`tests/fuzz_corpus.rs`), so
//! that the test runs exactly what the fuzzer ran. Each takes arbitrary bytes and must
//! return (with an error or with data): a panic, an abort or a hang is a finding.
//!
//! Only the public API of `parquet_serde` is used.
#![allow(dead_code)]

use parquet_serde::core::column::ColumnChunkReader;
use parquet_serde::core::encryption::FileDecryptionProperties;
use parquet_serde::core::file::{FileReader, ReadOptions};
use parquet_serde::core::format::{
    self, BloomFilterHeader, ColumnIndex, CompressionCodec, DataPageHeader, DataPageHeaderV2,
    DictionaryPageHeader, Encoding, FileMetaData, OffsetIndex, PageHeader, PageType, Type,
};
use parquet_serde::core::page::{PageReader, PageReaderOptions};
use parquet_serde::filter::{col, not, Predicate};
use parquet_serde::{Reader, Value};

/// A target's body.
pub type Target = fn(&[u8]);

/// Every target, by the name of its binary and corpus directory.
pub const TARGETS: &[(&str, Target)] = &[
    ("footer", footer),
    ("page", page),
    ("read_1", read_1),
    ("read_2", read_2),
    ("filter", filter),
    ("encrypted", encrypted),
    ("variant", variant),
    ("wkb", wkb),
];

/// The footer and the other Thrift structures: `data` as a whole file (magic, footer
/// length, FileMetaData, schema), and as each Thrift structure on its own.
pub fn footer(data: &[u8]) {
    if let Ok(reader) = FileReader::new(data) {
        let _ = reader.schema().to_string();
        for rg in 0..reader.num_row_groups() {
            for c in 0..reader.schema().num_columns() {
                let _ = reader.metadata().column_statistics(rg, c);
            }
        }
    }
    let _ = format::decode::<FileMetaData>(data);
    let _ = format::decode::<PageHeader>(data);
    let _ = format::decode::<ColumnIndex>(data);
    let _ = format::decode::<OffsetIndex>(data);
    let _ = format::decode::<BloomFilterHeader>(data);
}

/// The encodings a page of `physical` may use, for the page target's selector byte.
const ENCODINGS: [Encoding; 9] = [
    Encoding::Plain,
    Encoding::PlainDictionary,
    Encoding::Rle,
    Encoding::BitPacked,
    Encoding::DeltaBinaryPacked,
    Encoding::DeltaLengthByteArray,
    Encoding::DeltaByteArray,
    Encoding::RleDictionary,
    Encoding::ByteStreamSplit,
];

/// One column chunk made of a data page whose body is `data` (after 4 selector bytes):
/// byte 0 picks the physical type and the values' encoding, byte 1 the number of values,
/// byte 2 the levels (max definition 0-2, max repetition 0-1), the page version and
/// whether a PLAIN dictionary page comes first (its body the first `byte 3` bytes).
pub fn page(data: &[u8]) {
    let [sel, count, shape, split, body @ ..] = data else {
        return;
    };
    let physical = Type::from_i32(i32::from(sel % 8));
    let encoding = ENCODINGS[usize::from(sel / 8) % ENCODINGS.len()];
    let type_length = match physical {
        Type::FixedLenByteArray => i32::from(sel / 72 % 4) * 3 + 1,
        _ => 0,
    };
    let max_def = i16::from(shape % 3);
    let max_rep = i16::from(shape / 3 % 2).min(max_def);
    let v2 = shape & 0x40 != 0;
    let with_dictionary = shape & 0x80 != 0;
    let num_values = i32::from(*count);
    let (dict, body) = match with_dictionary {
        true => body.split_at(usize::from(*split).min(body.len())),
        false => (&body[..0], body),
    };
    let mut chunk = Vec::new();
    if with_dictionary {
        let header = PageHeader {
            r#type: PageType::DictionaryPage,
            uncompressed_page_size: dict.len() as i32,
            compressed_page_size: dict.len() as i32,
            crc: None,
            data_page_header: None,
            index_page_header: None,
            dictionary_page_header: Some(DictionaryPageHeader {
                num_values: i32::from(*split / 2),
                encoding: Encoding::Plain,
                is_sorted: None,
            }),
            data_page_header_v2: None,
        };
        format::encode(&header, &mut chunk);
        chunk.extend_from_slice(dict);
    }
    let mut header = PageHeader {
        r#type: PageType::DataPage,
        uncompressed_page_size: body.len() as i32,
        compressed_page_size: body.len() as i32,
        crc: None,
        data_page_header: None,
        index_page_header: None,
        dictionary_page_header: None,
        data_page_header_v2: None,
    };
    if v2 {
        // Level lengths from the body's first bytes, clamped to it.
        let rep = if max_rep > 0 {
            body.len().min(usize::from(*split % 16))
        } else {
            0
        };
        let def = if max_def > 0 {
            (body.len() - rep).min(usize::from(*split / 16))
        } else {
            0
        };
        header.r#type = PageType::DataPageV2;
        header.data_page_header_v2 = Some(DataPageHeaderV2 {
            num_values,
            num_nulls: 0,
            num_rows: num_values,
            encoding,
            definition_levels_byte_length: def as i32,
            repetition_levels_byte_length: rep as i32,
            is_compressed: Some(false),
            statistics: None,
        });
    } else {
        header.data_page_header = Some(DataPageHeader {
            num_values,
            encoding,
            definition_level_encoding: Encoding::Rle,
            repetition_level_encoding: Encoding::Rle,
            statistics: None,
        });
    }
    format::encode(&header, &mut chunk);
    chunk.extend_from_slice(body);
    let pages = PageReader::new(
        &chunk,
        0,
        CompressionCodec::Uncompressed,
        i64::from(num_values),
        PageReaderOptions::default(),
    );
    let _ = ColumnChunkReader::new(pages, physical, type_length, max_def, max_rep).read_all();
}

/// Every row of `data` as [`Value`]s with `threads` threads (1: on the calling thread; 2:
/// the pipelined read with a decoding helper).
fn read_values(data: &[u8], threads: usize) {
    let options = ReadOptions::default().threads(threads);
    let _ = parquet_serde::from_slice_with::<Value>(data, &options);
}

/// [`read_values`] with 1 thread.
pub fn read_1(data: &[u8]) {
    read_values(data, 1);
}

/// [`read_values`] with 2 threads.
pub fn read_2(data: &[u8]) {
    read_values(data, 2);
}

/// The fixed predicates of the filter target over the leaf column `path`: null tests,
/// comparisons with an integer, a float and a string literal (most bind to only some
/// column types; the others are errors), and their combinations.
pub fn predicates(path: &str) -> Vec<Predicate> {
    vec![
        col(path).is_null(),
        col(path).is_not_null(),
        col(path).gt(0),
        col(path).eq(1.5),
        col(path).lt("m"),
        col(path).between(-5, 5),
        col(path).in_list([1, 2, 3]),
        not(col(path).eq(0)).or(col(path).is_null()),
    ]
}

/// `Reader::filter` with each of the [`predicates`] on the first and the last leaf column
/// of `data`, reading the selected rows and the filter's report.
pub fn filter(data: &[u8]) {
    let Ok(file) = FileReader::new(data) else {
        return;
    };
    let columns = file.schema().columns();
    let mut paths: Vec<String> = columns.iter().map(|c| c.path.to_string()).collect();
    paths.dedup();
    if paths.len() > 1 {
        paths = vec![paths[0].clone(), paths[paths.len() - 1].clone()];
    }
    for path in &paths {
        for p in predicates(path) {
            let Ok(reader) = Reader::<_, Value>::new(data).and_then(|r| r.filter(p)) else {
                continue;
            };
            let _ = reader.filter_report().map(|r| format!("{r:?}"));
            for row in reader {
                if row.is_err() {
                    break;
                }
            }
        }
    }
}

/// The 128-bit keys of parquet-testing's `*.parquet.encrypted` files (footer `kf`, columns
/// `double_field` and `float_field`), with the AAD prefix `tester` when `prefix`.
fn keys(prefix: bool) -> Option<FileDecryptionProperties> {
    let mut b = FileDecryptionProperties::builder()
        .footer_key(b"0123456789012345".to_vec())
        .column_key("double_field", b"1234567890123450".to_vec())
        .column_key("float_field", b"1234567890123451".to_vec());
    if prefix {
        b = b.aad_prefix(b"tester".to_vec());
    }
    b.build().ok()
}

/// An encrypted file read with the known keys (with and without the AAD prefix), as
/// [`Value`] rows with 1 and 2 threads, and its column chunks' Bloom filters.
pub fn encrypted(data: &[u8]) {
    for prefix in [false, true] {
        let Some(props) = keys(prefix) else { return };
        for threads in [1, 2] {
            let options = ReadOptions::default()
                .decryption(props.clone())
                .threads(threads);
            let _ = parquet_serde::from_slice_with::<Value>(data, &options);
        }
        let options = ReadOptions::default().decryption(props);
        if let Ok(file) = FileReader::with_options(data, options) {
            for rg in 0..file.num_row_groups() {
                for c in 0..file.schema().num_columns() {
                    let _ = file.bloom_filter(rg, c);
                    let _ = file.page_index(rg, c);
                }
            }
        }
    }
}

/// Variant bytes: `data` as metadata then value concatenated (the layout of the
/// shredded_variant corpus), decoded whole, encoded again and decoded back; and split at its
/// first byte into metadata and value for the lazy view, walked by path and to JSON.
pub fn variant(data: &[u8]) {
    use parquet_serde::variant::{Variant, VariantRef};
    if let Ok(v) = Variant::decode_concatenated(data) {
        let (metadata, value) = v.encode();
        // What we encoded must decode (values are not compared: a NaN is not equal to itself).
        Variant::decode(&metadata, &value).expect("a Variant we encoded decodes");
        let _ = v.to_json();
    }
    if let Some((&n, rest)) = data.split_first() {
        let n = (n as usize).min(rest.len());
        let (metadata, value) = rest.split_at(n);
        if let Ok(view) = VariantRef::new(metadata, value) {
            let _ = view.to_json();
            let _ = view.get("a");
            let _ = view.index(0);
            let _ = view.to_variant();
        }
    }
}

/// WKB: `data` scanned for its type, dimensions and bounding box, and fed to the geospatial
/// statistics builder of the column writer.
pub fn wkb(data: &[u8]) {
    use parquet_serde::core::geo::{wkb, GeoStatisticsBuilder};
    let _ = wkb::peek_type(data);
    let _ = wkb::scan(data);
    let mut stats = GeoStatisticsBuilder::new();
    stats.add(data);
    let _ = stats.finish(true);
}
