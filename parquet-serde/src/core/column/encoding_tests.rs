//! The writer's value encodings: every encoding on every type it fits, through
//! ColumnChunkWriter and ColumnChunkReader, alone and after a dictionary fallback; the
//! errors for encodings that do not fit; what `Auto` picks; page sizes.

use proptest::prelude::*;

use super::*;
use crate::core::compression::Compression;
use crate::core::encoding::alp;
use crate::core::format::{Encoding, PageType, Type};
use crate::core::page::{PageReader, PageReaderOptions};
use crate::core::values::{ByteArrays, ColumnValues, FixedLenByteArrays};

fn options(encoding: Option<Encoding>, dictionary: bool) -> ColumnWriterOptions {
    ColumnWriterOptions {
        compression: Compression::Zstd(1),
        dictionary,
        dictionary_page_size_limit: 256,
        data_page_size: 1024,
        data_page_row_limit: 500,
        encoding,
        ..Default::default()
    }
}

fn writer(
    physical: Type,
    max_def: i16,
    options: ColumnWriterOptions,
) -> crate::Result<ColumnChunkWriter> {
    ColumnChunkWriter::new(
        vec!["c".into()],
        physical,
        4,
        max_def,
        0,
        SortOrder::Signed,
        options,
    )
}

/// Writes `batch`, reads it back; returns the batch read and the data page encodings.
fn round_trip(
    batch: &ColumnBatch,
    physical: Type,
    max_def: i16,
    options: ColumnWriterOptions,
) -> (ColumnBatch, Vec<(PageType, Encoding)>, WrittenColumnChunk) {
    let mut w = writer(physical, max_def, options).unwrap();
    // Two writes, to cross page and dictionary limits inside a chunk.
    let half = batch.def_levels.len() / 2;
    let values_half = batch.def_levels[..half]
        .iter()
        .filter(|&&d| d == max_def)
        .count();
    let (a, b) = split(batch, half, values_half);
    w.write(&a).unwrap();
    w.write(&b).unwrap();
    let chunk = w.close().unwrap();
    let data = chunk.to_bytes();
    let md = &chunk.metadata;
    let mut pages = PageReader::new(
        &data,
        0,
        md.codec,
        md.num_values,
        PageReaderOptions::default(),
    );
    let mut kinds = Vec::new();
    while let Some(p) = pages.next_raw().unwrap() {
        let e = match (&p.header.data_page_header, &p.header.data_page_header_v2) {
            (Some(d), _) => d.encoding,
            (_, Some(d)) => d.encoding,
            _ => p.header.dictionary_page_header.as_ref().unwrap().encoding,
        };
        kinds.push((p.header.r#type, e));
    }
    let pages = PageReader::new(
        &data,
        0,
        md.codec,
        md.num_values,
        PageReaderOptions::default(),
    );
    let back = ColumnChunkReader::new(pages, physical, 4, max_def, 0)
        .read_all()
        .unwrap();
    (back, kinds, chunk)
}

fn split(b: &ColumnBatch, levels: usize, values: usize) -> (ColumnBatch, ColumnBatch) {
    let mut first = ColumnBatch::new(type_of(&b.values), 4);
    let mut second = ColumnBatch::new(type_of(&b.values), 4);
    super::batch::extend_values(&mut first.values, &b.values, 0..values);
    super::batch::extend_values(&mut second.values, &b.values, values..b.values.len());
    first.def_levels = b.def_levels[..levels].to_vec();
    second.def_levels = b.def_levels[levels..].to_vec();
    (first, second)
}

fn type_of(v: &ColumnValues) -> Type {
    match v {
        ColumnValues::Boolean(_) => Type::Boolean,
        ColumnValues::Int32(_) => Type::Int32,
        ColumnValues::Int64(_) => Type::Int64,
        ColumnValues::Int96(_) => Type::Int96,
        ColumnValues::Float(_) => Type::Float,
        ColumnValues::Double(_) => Type::Double,
        ColumnValues::ByteArray(_) => Type::ByteArray,
        ColumnValues::FixedLenByteArray(_) => Type::FixedLenByteArray,
    }
}

/// `n` values of `physical` with about `distinct` distinct ones, edge values included.
fn values(physical: Type, n: usize, distinct: usize) -> ColumnValues {
    let k = |i: usize| (i * 7919) % distinct.max(1);
    match physical {
        Type::Boolean => ColumnValues::Boolean((0..n).map(|i| k(i) % 3 == 0).collect()),
        Type::Int32 => ColumnValues::Int32(
            (0..n)
                .map(|i| match i % 97 {
                    0 => i32::MIN,
                    1 => i32::MAX,
                    _ => k(i) as i32 * 1000 + i as i32,
                })
                .collect(),
        ),
        Type::Int64 => ColumnValues::Int64(
            (0..n)
                .map(|i| match i % 89 {
                    0 => i64::MIN,
                    1 => i64::MAX,
                    _ => 1_700_000_000_000_000 + (k(i) * 1_000_003) as i64,
                })
                .collect(),
        ),
        Type::Float => ColumnValues::Float(
            (0..n)
                .map(|i| match i % 31 {
                    0 => f32::NAN,
                    1 => -0.0,
                    _ => k(i) as f32 / 8.0,
                })
                .collect(),
        ),
        Type::Double => ColumnValues::Double(
            (0..n)
                .map(|i| match i % 31 {
                    0 => f64::NAN,
                    1 => -0.0,
                    2 => f64::INFINITY,
                    _ => k(i) as f64 / 100.0,
                })
                .collect(),
        ),
        Type::ByteArray => {
            let mut b = ByteArrays::new();
            for i in 0..n {
                let s = match k(i) % 5 {
                    0 => String::new(),
                    1 => format!("{}{}", "shared-prefix/".repeat(10), k(i)),
                    _ => format!("v{}", k(i)),
                };
                b.push(s.as_bytes());
            }
            ColumnValues::ByteArray(b)
        }
        _ => {
            let mut b = FixedLenByteArrays::new(4);
            for i in 0..n {
                b.push(&(k(i) as u32).to_be_bytes());
            }
            ColumnValues::FixedLenByteArray(b)
        }
    }
}

fn same(a: &ColumnValues, b: &ColumnValues) -> bool {
    match (a, b) {
        (ColumnValues::Float(x), ColumnValues::Float(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.to_bits() == q.to_bits())
        }
        (ColumnValues::Double(x), ColumnValues::Double(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.to_bits() == q.to_bits())
        }
        _ => a == b,
    }
}

const ENCODINGS: [Encoding; 8] = [
    Encoding::Plain,
    Encoding::Rle,
    Encoding::DeltaBinaryPacked,
    Encoding::DeltaLengthByteArray,
    Encoding::DeltaByteArray,
    Encoding::ByteStreamSplit,
    alp::ALP,
    crate::core::encoding::group_var_int::GROUP_VAR_INT,
];

const TYPES: [Type; 7] = [
    Type::Boolean,
    Type::Int32,
    Type::Int64,
    Type::Float,
    Type::Double,
    Type::ByteArray,
    Type::FixedLenByteArray,
];

#[test]
fn every_encoding_on_every_type_it_fits() {
    let mut fitted = 0;
    for encoding in ENCODINGS {
        for physical in TYPES {
            let fits = check_encoding(encoding, physical).is_ok();
            if !fits {
                let err = writer(physical, 1, options(Some(encoding), false)).unwrap_err();
                assert_eq!(err.kind(), crate::ErrorKind::InvalidArgument);
                assert!(
                    err.to_string().contains("does not fit physical type"),
                    "{err}"
                );
                assert_eq!(err.location().column.as_deref(), Some("c"));
                continue;
            }
            fitted += 1;
            for version in [DataPageVersion::V1, DataPageVersion::V2] {
                for dictionary in [false, true] {
                    // Optional column: a run of 600 nulls makes pages without values.
                    let n = 3000;
                    let def: Vec<i16> = (0..n)
                        .map(|i| i16::from(i % 4 != 0 && !(1000..1600).contains(&i)))
                        .collect();
                    let nn = def.iter().filter(|&&d| d == 1).count();
                    let batch = ColumnBatch {
                        values: values(physical, nn, 2000),
                        def_levels: def,
                        rep_levels: vec![],
                    };
                    let mut o = options(Some(encoding), dictionary);
                    o.data_page_version = version;
                    let (back, kinds, _) = round_trip(&batch, physical, 1, o);
                    let what = format!("{encoding:?} {physical:?} {version:?} dict={dictionary}");
                    assert!(same(&back.values, &batch.values), "{what}");
                    assert_eq!(back.def_levels, batch.def_levels, "{what}");
                    let data: Vec<Encoding> = kinds
                        .iter()
                        .filter(|(t, _)| *t != PageType::DictionaryPage)
                        .map(|&(_, e)| e)
                        .collect();
                    assert!(data.contains(&encoding), "{what}: {kinds:?}");
                    if dictionary && physical != Type::Boolean {
                        // Dictionary pages first, then the fallback encoding.
                        assert_eq!(kinds[0].0, PageType::DictionaryPage, "{what}");
                        let first_fallback = data.iter().position(|&e| e == encoding).unwrap();
                        assert!(first_fallback > 0, "{what}: {kinds:?}");
                        assert!(
                            data[..first_fallback]
                                .iter()
                                .all(|&e| e == Encoding::RleDictionary),
                            "{what}: {kinds:?}"
                        );
                        assert!(
                            data[first_fallback..].iter().all(|&e| e == encoding),
                            "{what}"
                        );
                    } else {
                        assert!(data.iter().all(|&e| e == encoding), "{what}: {kinds:?}");
                    }
                }
            }
        }
    }
    assert_eq!(fitted, 1 + 1 + 7 + 2 + 2 + 5 + 2 + 2);
}

#[test]
fn dictionary_encoding_names_turn_the_dictionary_on() {
    let batch = ColumnBatch {
        values: values(Type::Int64, 100, 3),
        def_levels: vec![],
        rep_levels: vec![],
    };
    let mut w = ColumnChunkWriter::new(
        vec!["c".into()],
        Type::Int64,
        0,
        0,
        0,
        SortOrder::Signed,
        options(Some(Encoding::RleDictionary), false),
    )
    .unwrap();
    w.write(&batch).unwrap();
    let chunk = w.close().unwrap();
    assert_eq!(chunk.metadata.dictionary_page_offset, Some(0));
    assert!(chunk.metadata.encodings.contains(&Encoding::RleDictionary));
}

fn auto(
    physical: Type,
    batch: &ColumnBatch,
    compression: Compression,
) -> (ColumnBatch, Vec<(PageType, Encoding)>) {
    let o = ColumnWriterOptions {
        compression,
        auto_encoding: true,
        data_page_row_limit: 20_000,
        ..Default::default()
    };
    let (back, kinds, _) = round_trip(batch, physical, 1, o);
    assert!(same(&back.values, &batch.values));
    (back, kinds)
}

fn flat(values: ColumnValues) -> ColumnBatch {
    ColumnBatch {
        def_levels: vec![1; values.len()],
        values,
        rep_levels: vec![],
    }
}

#[test]
fn auto_keeps_the_dictionary_while_it_pays() {
    // Few distinct strings: dictionary only.
    let mut levels = ByteArrays::new();
    for i in 0..30_000 {
        levels.push(["INFO", "WARN", "ERROR", "DEBUG"][i % 7 % 4].as_bytes());
    }
    let (_, kinds) = auto(
        Type::ByteArray,
        &flat(ColumnValues::ByteArray(levels)),
        Compression::Snappy,
    );
    assert_eq!(kinds[0], (PageType::DictionaryPage, Encoding::Plain));
    assert!(
        kinds[1..]
            .iter()
            .all(|&(_, e)| e == Encoding::RleDictionary),
        "{kinds:?}"
    );

    // Sorted timestamps: the dictionary never pays; no dictionary page at all.
    let ts: Vec<i64> = (0..30_000)
        .map(|i| 1_700_000_000_000_000 + i * 1_003)
        .collect();
    let (_, kinds) = auto(
        Type::Int64,
        &flat(ColumnValues::Int64(ts)),
        Compression::Snappy,
    );
    assert!(
        kinds
            .iter()
            .all(|&k| k == (PageType::DataPage, Encoding::DeltaBinaryPacked)),
        "{kinds:?}"
    );

    // Doubles without repeats, compressed: BYTE_STREAM_SPLIT; uncompressed: PLAIN.
    let d: Vec<f64> = (0..5_000).map(|i| (i as f64).sqrt()).collect();
    let (_, kinds) = auto(
        Type::Double,
        &flat(ColumnValues::Double(d.clone())),
        Compression::Zstd(1),
    );
    assert!(
        kinds.iter().all(|&(_, e)| e == Encoding::ByteStreamSplit),
        "{kinds:?}"
    );
    let (_, kinds) = auto(
        Type::Double,
        &flat(ColumnValues::Double(d)),
        Compression::Uncompressed,
    );
    assert!(
        kinds.iter().all(|&(_, e)| e == Encoding::Plain),
        "{kinds:?}"
    );

    // Unique URLs: DELTA_BYTE_ARRAY; unique unrelated strings: DELTA_LENGTH_BYTE_ARRAY.
    let mut urls = ByteArrays::new();
    let mut words = ByteArrays::new();
    for i in 0..5_000u64 {
        urls.push(format!("https://example.com/api/v2/items/{i}").as_bytes());
        words.push(format!("{:x}", i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).as_bytes());
    }
    let (_, kinds) = auto(
        Type::ByteArray,
        &flat(ColumnValues::ByteArray(urls)),
        Compression::Snappy,
    );
    assert!(
        kinds.iter().all(|&(_, e)| e == Encoding::DeltaByteArray),
        "{kinds:?}"
    );
    let (_, kinds) = auto(
        Type::ByteArray,
        &flat(ColumnValues::ByteArray(words)),
        Compression::Snappy,
    );
    assert!(
        kinds
            .iter()
            .all(|&(_, e)| e == Encoding::DeltaLengthByteArray),
        "{kinds:?}"
    );

    // Booleans: RLE.
    let b: Vec<bool> = (0..5_000).map(|i| i % 100 < 50).collect();
    let (_, kinds) = auto(
        Type::Boolean,
        &flat(ColumnValues::Boolean(b)),
        Compression::Snappy,
    );
    assert!(kinds.iter().all(|&(_, e)| e == Encoding::Rle), "{kinds:?}");
}

#[test]
fn auto_falls_back_when_cardinality_grows() {
    // 20,000 values from 50 distinct, then unique ones: dictionary pages, then delta pages.
    let v: Vec<i64> = (0..60_000)
        .map(|i| {
            if i < 20_000 {
                (i % 50) * 1_000_000
            } else {
                i * 7919
            }
        })
        .collect();
    let (_, kinds) = auto(
        Type::Int64,
        &flat(ColumnValues::Int64(v)),
        Compression::Snappy,
    );
    assert_eq!(kinds[0].0, PageType::DictionaryPage);
    assert!(
        kinds.contains(&(PageType::DataPage, Encoding::RleDictionary)),
        "{kinds:?}"
    );
    assert!(
        kinds.contains(&(PageType::DataPage, Encoding::DeltaBinaryPacked)),
        "{kinds:?}"
    );
}

#[test]
fn page_sizes_stay_near_the_target() {
    // Pages are cut by their PLAIN size, an upper bound of every encoding but ALP's
    // exceptions: none of them overshoots the target by much.
    for (encoding, physical) in [
        (Encoding::DeltaBinaryPacked, Type::Int64),
        (Encoding::DeltaByteArray, Type::ByteArray),
        (Encoding::ByteStreamSplit, Type::Double),
        (alp::ALP, Type::Double),
        (
            crate::core::encoding::group_var_int::GROUP_VAR_INT,
            Type::Int64,
        ),
    ] {
        let n = 20_000;
        let batch = flat(values(physical, n, 20_000));
        let mut o = options(Some(encoding), false);
        o.compression = Compression::Uncompressed;
        o.data_page_size = 8192;
        o.data_page_row_limit = usize::MAX;
        let (_, kinds, chunk) = round_trip(&batch, physical, 1, o);
        let pages = kinds.len();
        let average = chunk.len() / pages;
        assert!(
            average <= 8192 * 5 / 4,
            "{encoding:?}: {pages} pages of {average} bytes"
        );
        assert!(pages >= 2, "{encoding:?}: {pages} pages");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random values with random nulls in a random encoding that fits.
    #[test]
    fn random_round_trips(
        t in 0usize..7,
        e in 0usize..7,
        v2 in any::<bool>(),
        dictionary in any::<bool>(),
        seeds in proptest::collection::vec(any::<u64>(), 0..600),
        nulls in any::<u64>(),
    ) {
        let physical = TYPES[t];
        let encoding = ENCODINGS[e];
        prop_assume!(check_encoding(encoding, physical).is_ok());
        let def: Vec<i16> = (0..seeds.len()).map(|i| i16::from(nulls.rotate_left(i as u32) & 1 == 0)).collect();
        let nn = def.iter().filter(|&&d| d == 1).count();
        let s = &seeds[..nn];
        let values = match physical {
            Type::Boolean => ColumnValues::Boolean(s.iter().map(|x| x & 1 == 1).collect()),
            Type::Int32 => ColumnValues::Int32(s.iter().map(|&x| x as i32).collect()),
            Type::Int64 => ColumnValues::Int64(s.iter().map(|&x| x as i64).collect()),
            Type::Float => ColumnValues::Float(s.iter().map(|&x| f32::from_bits(x as u32)).collect()),
            Type::Double => ColumnValues::Double(s.iter().map(|&x| f64::from_bits(x)).collect()),
            Type::ByteArray => {
                let mut b = ByteArrays::new();
                for &x in s {
                    b.push(&x.to_le_bytes()[..(x % 9) as usize]);
                }
                ColumnValues::ByteArray(b)
            }
            _ => {
                let mut b = FixedLenByteArrays::new(4);
                for &x in s {
                    b.push(&(x as u32 % 7).to_le_bytes());
                }
                ColumnValues::FixedLenByteArray(b)
            }
        };
        let batch = ColumnBatch { values, def_levels: def, rep_levels: vec![] };
        let mut o = options(Some(encoding), dictionary);
        o.data_page_size = 256;
        o.data_page_version = if v2 { DataPageVersion::V2 } else { DataPageVersion::V1 };
        let (back, _, _) = round_trip(&batch, physical, 1, o);
        prop_assert!(same(&back.values, &batch.values));
        prop_assert_eq!(back.def_levels, batch.def_levels);
    }
}
