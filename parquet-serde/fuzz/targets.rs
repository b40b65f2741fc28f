//! The bodies of the fuzz targets, shared by the AFL binaries (`fuzz/src/bin/*.rs`) and the
//! replay of the checked-in corpus in the normal test suite (`tests/fuzz_corpus.rs`), so
//! that the test runs exactly what the fuzzer ran. Each takes arbitrary bytes and must
//! return (with an error or with data): a panic, an abort or a hang is a finding.
//!
//! The public API of `parquet_serde` is used, and `parquet_serde::__internals` (feature
//! `internals`, not API) for the kernels with no public entry (WKB scanning) and the borrowed,
//! checked Variant view (`VariantRef`).
#![allow(dead_code)]

use parquet_serde::__internals::format;
use parquet_serde::__internals::format::{
    BloomFilterHeader, ColumnIndex, CompressionCodec, DataPageHeader, DataPageHeaderV2,
    DictionaryPageHeader, FileMetaData, OffsetIndex, PageHeader,
};
use parquet_serde::core::column::ColumnChunkReader;
use parquet_serde::core::column::Encoding;
use parquet_serde::core::encryption::FileDecryptionProperties;
use parquet_serde::core::file::{FileReader, ReadOptions};
use parquet_serde::core::page::PageType;
use parquet_serde::core::schema::PhysicalType as Type;
use parquet_serde::filter::{col, Predicate};
use parquet_serde::{Reader, Value};
use std::collections::BTreeMap;

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
    ("typed", typed),
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
    let pages = parquet_serde::__internals::page_reader(
        &chunk,
        0,
        CompressionCodec::Uncompressed,
        i64::from(num_values),
        &ReadOptions::default(),
    );
    let _ = ColumnChunkReader::new(pages, physical, type_length, max_def, max_rep).read_all();
}

/// Every row of `data` as [`Value`]s with `threads` threads (1: on the calling thread; 2:
/// the pipelined read with a decoding helper).
fn read_values(data: &[u8], threads: usize) {
    let options = ReadOptions::default().threads(threads);
    let _ = parquet_serde::from_slice_with::<Value>(data, options);
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
        (!col(path).eq(0)).or(col(path).is_null()),
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
            let _ = parquet_serde::from_slice_with::<Value>(data, options);
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
    use parquet_serde::__internals::variant::VariantRef;
    use parquet_serde::variant::Variant;
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
    use parquet_serde::__internals::geo::{wkb, GeoStatisticsBuilder};
    let _ = wkb::peek_type(data);
    let _ = wkb::scan(data);
    let mut stats = GeoStatisticsBuilder::new();
    stats.add(data);
    let _ = stats.finish(true);
}

/// A part of [`TypedRow`]: a struct in a struct, with a list of optional strings.
#[derive(
    Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, parquet_serde::ParquetSchema,
)]
pub struct TypedInner {
    pub a: Option<i32>,
    pub b: Vec<Option<String>>,
}

/// A unit-variant enum (a string column).
#[derive(
    Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, parquet_serde::ParquetSchema,
)]
pub enum TypedLevel {
    Debug,
    Info,
    Warn,
}

/// An enum with data (a union of optional parts).
#[derive(
    Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, parquet_serde::ParquetSchema,
)]
pub enum TypedShape {
    Empty,
    Circle(i64),
    Rect(u32, Option<u32>),
    Named {
        name: Option<String>,
        points: Vec<i16>,
    },
}

/// The typed target's row: most kinds of field the derive maps (narrow integers whose range
/// the reader checks, enums, tuples, bytes, lists of lists, maps, optional structs,
/// timestamps, 128-bit decimals).
#[derive(
    Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, parquet_serde::ParquetSchema,
)]
pub struct TypedRow {
    pub id: i64,
    pub small: u8,
    pub signed: Option<i16>,
    pub wide: u64,
    pub big: Option<i128>,
    pub score: Option<f64>,
    pub flag: bool,
    pub level: TypedLevel,
    pub shape: Option<TypedShape>,
    pub name: Option<String>,
    pub pair: (i32, String),
    #[parquet(bytes)]
    pub blob: Option<Vec<u8>>,
    pub fixed: [u8; 4],
    #[parquet(timestamp = "micros")]
    pub at: Option<i64>,
    #[parquet(date)]
    pub day: i32,
    pub tags: Vec<String>,
    pub grid: Vec<Vec<Option<i32>>>,
    pub attrs: BTreeMap<String, Option<i64>>,
    pub inner: Option<TypedInner>,
    pub inners: Vec<TypedInner>,
}

/// Only two columns of [`TypedRow`]: the projected read of the typed target.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
pub struct TypedProjection {
    pub name: Option<String>,
    pub attrs: BTreeMap<String, Option<i64>>,
}

/// `data` read into [`TypedRow`] with 1 and 2 threads, and into [`TypedProjection`]: the
/// matching of a Rust type to the file's schema and the typed assembly of rows (range
/// checks, enums, tuples, maps), beyond what reading [`Value`]s exercises.
pub fn typed(data: &[u8]) {
    for threads in [1, 2] {
        let options = ReadOptions::default().threads(threads);
        let _ = parquet_serde::from_slice_with::<TypedRow>(data, options);
    }
    let _ = parquet_serde::from_slice::<TypedProjection>(data);
}

/// `n` deterministic [`TypedRow`]s with nulls, empty lists and maps, and text of several
/// lengths (row `i` differs from row `i - 1` in most fields).
pub fn typed_rows(n: usize) -> Vec<TypedRow> {
    (0..n)
        .map(|i| {
            let k = i as i64;
            TypedRow {
                id: k * 7 - 3,
                small: (i * 37 % 256) as u8,
                signed: (i % 3 != 0).then_some((k * 1000 - 500) as i16),
                wide: u64::MAX - i as u64,
                big: (i % 4 != 1).then_some(i128::from(k) * 1_000_000_007 - 12),
                score: (i % 5 != 2).then_some(k as f64 / 3.0),
                flag: i % 2 == 0,
                level: [TypedLevel::Debug, TypedLevel::Info, TypedLevel::Warn][i % 3].clone(),
                shape: match i % 5 {
                    0 => None,
                    1 => Some(TypedShape::Empty),
                    2 => Some(TypedShape::Circle(k)),
                    3 => Some(TypedShape::Rect(i as u32, (i % 2 == 0).then_some(7))),
                    _ => Some(TypedShape::Named {
                        name: (i % 3 == 0).then(|| format!("shape {i}")),
                        points: (0..i % 4).map(|p| p as i16 - 1).collect(),
                    }),
                },
                name: (i % 6 != 5).then(|| "név ✓ ".repeat(i % 4) + &i.to_string()),
                pair: (-(k as i32), "p".repeat(i % 3)),
                blob: (i % 2 == 1).then(|| (0..i % 9).map(|b| b as u8 ^ 0xA5).collect()),
                fixed: [i as u8, 1, 2, (i * 3) as u8],
                at: (i % 7 != 0).then_some(1_700_000_000_000_000 + k * 1_000_003),
                day: 19_000 + i as i32,
                tags: (0..i % 3).map(|t| format!("tag{}", (i + t) % 5)).collect(),
                grid: (0..i % 3)
                    .map(|r| {
                        (0..(i + r) % 4)
                            .map(|c| (c != 1).then_some((r * c) as i32))
                            .collect()
                    })
                    .collect(),
                attrs: (0..i % 4)
                    .map(|a| (format!("key{a}"), (a != 2).then_some(k + a as i64)))
                    .collect(),
                inner: (i % 3 != 1).then(|| TypedInner {
                    a: (i % 2 == 0).then_some(i as i32),
                    b: (0..i % 3)
                        .map(|b| (b != 0).then(|| format!("b{b}")))
                        .collect(),
                }),
                inners: (0..i % 2)
                    .map(|_| TypedInner {
                        a: None,
                        b: vec![Some(String::new())],
                    })
                    .collect(),
            }
        })
        .collect()
}

/// Seeds for the typed target, by file name: [`typed_rows`] written with several codecs,
/// page versions, encodings and page and row-group sizes (each a few kilobytes).
pub fn typed_seeds() -> Vec<(String, Vec<u8>)> {
    use parquet_serde::options::{Compression, DataPageVersion, StatisticsLevel, WriterOptions};
    let rows = typed_rows(40);
    let base = WriterOptions::default();
    let variants = [
        ("typed_snappy_v1.parquet", base.clone()),
        (
            "typed_plain_uncompressed.parquet",
            base.clone()
                .dictionary(false)
                .auto_encoding(false)
                .compression(Compression::Uncompressed),
        ),
        (
            "typed_zstd_v2_small_pages.parquet",
            base.clone()
                .compression(Compression::Zstd(1))
                .data_page_version(DataPageVersion::V2)
                .page_row_limit(7)
                .row_group_rows(16),
        ),
        (
            "typed_gzip_no_stats.parquet",
            base.clone()
                .compression(Compression::Gzip(1))
                .statistics(StatisticsLevel::None)
                .page_index(false)
                .checksums(false)
                .row_group_rows(25),
        ),
    ];
    variants
        .into_iter()
        .map(|(name, options)| {
            let bytes = parquet_serde::to_vec_with(&rows, options).expect("typed seed rows write");
            (name.to_string(), bytes)
        })
        .collect()
}
