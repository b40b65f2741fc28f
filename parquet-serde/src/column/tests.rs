//! Round trips through ColumnChunkWriter and ColumnChunkReader: every physical type, page
//! versions, dictionary on/off and fallback, nulls and repetition, page cuts.

use proptest::prelude::*;

use super::*;
use crate::compression::Compression;
use crate::format::{Encoding, PageType, Type};
use crate::page::{PageReader, PageReaderOptions};
use crate::values::{ByteArrays, ColumnValues, FixedLenByteArrays, Int96};

fn options(version: DataPageVersion, dictionary: bool, page_size: usize) -> ColumnWriterOptions {
    ColumnWriterOptions {
        compression: Compression::Snappy,
        dictionary,
        dictionary_page_size_limit: 256,
        data_page_size: page_size,
        data_page_row_limit: 1000,
        data_page_version: version,
        statistics: true,
        checksums: true,
        ..Default::default()
    }
}

fn round_trip(
    batch: &ColumnBatch,
    physical: Type,
    type_length: i32,
    max_def: i16,
    max_rep: i16,
    options: ColumnWriterOptions,
) -> (ColumnBatch, WrittenColumnChunk) {
    let mut w = ColumnChunkWriter::new(
        vec!["c".into()],
        physical,
        type_length,
        max_def,
        max_rep,
        SortOrder::Signed,
        options,
    )
    .unwrap();
    w.write(batch).unwrap();
    let chunk = w.close().unwrap();
    let data = chunk.to_bytes();
    let md = &chunk.metadata;
    let pages = PageReader::new(
        &data,
        0,
        md.codec,
        md.num_values,
        PageReaderOptions::default(),
    );
    let back = ColumnChunkReader::new(pages, physical, type_length, max_def, max_rep)
        .read_all()
        .unwrap();
    (back, chunk)
}

fn values_of(physical: Type, n: usize, distinct: usize) -> ColumnValues {
    let k = |i: usize| (i * 7919) % distinct.max(1);
    match physical {
        Type::Boolean => ColumnValues::Boolean((0..n).map(|i| k(i) % 2 == 0).collect()),
        Type::Int32 => ColumnValues::Int32((0..n).map(|i| k(i) as i32 - 5).collect()),
        Type::Int64 => ColumnValues::Int64((0..n).map(|i| (k(i) as i64) << 40).collect()),
        Type::Int96 => {
            ColumnValues::Int96((0..n).map(|i| Int96([k(i) as u32, 1, 2_440_588])).collect())
        }
        Type::Float => ColumnValues::Float((0..n).map(|i| k(i) as f32 * 0.5).collect()),
        Type::Double => ColumnValues::Double((0..n).map(|i| -(k(i) as f64) / 3.0).collect()),
        Type::ByteArray => {
            let mut b = ByteArrays::new();
            for i in 0..n {
                b.push(format!("v{}", k(i)).repeat(k(i) % 4).as_bytes());
            }
            ColumnValues::ByteArray(b)
        }
        _ => {
            let mut b = FixedLenByteArrays::new(3);
            for i in 0..n {
                b.push(&(k(i) as u32).to_le_bytes()[..3]);
            }
            ColumnValues::FixedLenByteArray(b)
        }
    }
}

const TYPES: [Type; 8] = [
    Type::Boolean,
    Type::Int32,
    Type::Int64,
    Type::Int96,
    Type::Float,
    Type::Double,
    Type::ByteArray,
    Type::FixedLenByteArray,
];

#[test]
fn every_type_version_and_dictionary_mode() {
    for physical in TYPES {
        for version in [DataPageVersion::V1, DataPageVersion::V2] {
            for dictionary in [false, true] {
                for distinct in [1, 10, 5000] {
                    // optional column: every third value null
                    let n = 3000;
                    let def: Vec<i16> = (0..n).map(|i| (i % 3 != 0) as i16).collect();
                    let nn = def.iter().filter(|&&d| d == 1).count();
                    let batch = ColumnBatch {
                        values: values_of(physical, nn, distinct),
                        def_levels: def,
                        rep_levels: vec![],
                    };
                    let (back, chunk) =
                        round_trip(&batch, physical, 3, 1, 0, options(version, dictionary, 512));
                    assert_eq!(
                        back, batch,
                        "{physical:?} {version:?} dict={dictionary} distinct={distinct}"
                    );
                    let md = &chunk.metadata;
                    assert_eq!(md.num_values, n as i64);
                    assert_eq!(md.statistics.as_ref().unwrap().null_count, Some(1000));
                    let stats = md.encoding_stats.as_ref().unwrap();
                    let data_pages: i32 = stats
                        .iter()
                        .filter(|s| s.page_type != PageType::DictionaryPage)
                        .map(|s| s.count)
                        .sum();
                    assert!(data_pages > 1, "pages were cut: {stats:?}");
                    if dictionary && physical != Type::Boolean && distinct == 1 {
                        assert!(
                            md.encodings.contains(&Encoding::RleDictionary),
                            "{:?}",
                            md.encodings
                        );
                        assert_eq!(md.dictionary_page_offset, Some(0));
                    }
                    if !dictionary {
                        assert!(!md.encodings.contains(&Encoding::RleDictionary));
                    }
                }
            }
        }
    }
}

#[test]
fn dictionary_falls_back_to_plain_mid_chunk() {
    let n = 4000;
    let batch = ColumnBatch {
        values: values_of(Type::Int64, n, n),
        def_levels: vec![],
        rep_levels: vec![],
    };
    // 256-byte dictionary limit: 32 distinct i64 fit, then PLAIN pages follow.
    let (back, chunk) = round_trip(
        &batch,
        Type::Int64,
        0,
        0,
        0,
        options(DataPageVersion::V1, true, 1024),
    );
    assert_eq!(back, batch);
    let stats = chunk.metadata.encoding_stats.unwrap();
    let has = |t: PageType, e: Encoding| stats.iter().any(|s| s.page_type == t && s.encoding == e);
    assert!(has(PageType::DictionaryPage, Encoding::Plain), "{stats:?}");
    assert!(
        has(PageType::DataPage, Encoding::RleDictionary),
        "{stats:?}"
    );
    assert!(has(PageType::DataPage, Encoding::Plain), "{stats:?}");
}

#[test]
fn repeated_pages_start_at_row_boundaries() {
    // list<int32>: row r has r % 50 elements (0 elements = empty list, def 0).
    let (mut def, mut rep, mut vals) = (vec![], vec![], vec![]);
    for r in 0..2000i32 {
        let len = r % 50;
        if len == 0 {
            def.push(0);
            rep.push(0);
        }
        for j in 0..len {
            def.push(1);
            rep.push((j > 0) as i16);
            vals.push(r * 100 + j);
        }
    }
    let batch = ColumnBatch {
        values: ColumnValues::Int32(vals),
        def_levels: def,
        rep_levels: rep,
    };
    for version in [DataPageVersion::V1, DataPageVersion::V2] {
        let (back, chunk) = round_trip(&batch, Type::Int32, 0, 1, 1, options(version, false, 256));
        assert_eq!(back, batch);
        assert_eq!(chunk.num_rows, 2000);
        // Every data page begins with repetition level 0.
        let md = &chunk.metadata;
        let data = chunk.to_bytes();
        let mut pages = PageReader::new(
            &data,
            0,
            md.codec,
            md.num_values,
            PageReaderOptions::default(),
        );
        let mut count = 0;
        while let Some(raw) = pages.next_raw().unwrap() {
            if let Some(h) = &raw.header.data_page_header_v2 {
                assert!(h.num_rows > 0);
            }
            // The first repetition level of each data page is 0: decode the page alone.
            let one_page =
                &data[raw.offset as usize..raw.offset as usize + raw.header_len + raw.data.len()];
            let values = match (
                &raw.header.data_page_header,
                &raw.header.data_page_header_v2,
            ) {
                (Some(h), _) => h.num_values,
                (_, Some(h)) => h.num_values,
                _ => panic!("only data pages in this chunk"),
            };
            let alone = PageReader::new(
                one_page,
                0,
                md.codec,
                values as i64,
                PageReaderOptions::default(),
            );
            let b = ColumnChunkReader::new(alone, Type::Int32, 0, 1, 1)
                .read_all()
                .unwrap();
            assert_eq!(b.rep_levels.first(), Some(&0));
            count += 1;
        }
        assert!(count > 10, "{count} pages");
    }
}

#[test]
fn writer_rejects_inconsistent_batches() {
    let mut w = ColumnChunkWriter::new(
        vec!["a".into(), "b".into()],
        Type::Int32,
        0,
        1,
        0,
        SortOrder::Signed,
        ColumnWriterOptions::default(),
    )
    .unwrap();
    let e = w
        .write(&ColumnBatch {
            values: ColumnValues::Int32(vec![1, 2]),
            def_levels: vec![1, 0],
            rep_levels: vec![],
        })
        .unwrap_err();
    assert!(
        e.to_string().contains("2 values for 1 non-null slots"),
        "{e}"
    );
    assert_eq!(e.location().column.as_deref(), Some("a.b"));
    let e = w
        .write(&ColumnBatch {
            values: ColumnValues::Int64(vec![1]),
            def_levels: vec![1],
            rep_levels: vec![],
        })
        .unwrap_err();
    assert!(e.to_string().contains("physical type"), "{e}");
    let e = w
        .write(&ColumnBatch {
            values: ColumnValues::Int32(vec![1]),
            def_levels: vec![2],
            rep_levels: vec![],
        })
        .unwrap_err();
    assert!(e.to_string().contains("definition level 2"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random nullable lists of random strings survive a round trip in every mode.
    #[test]
    fn random_lists_round_trip(
        rows in proptest::collection::vec(
            proptest::option::of(proptest::collection::vec(proptest::option::of("[a-c]{0,3}"), 0..6)),
            1..300,
        ),
        v2 in any::<bool>(),
        dictionary in any::<bool>(),
        page_size in 16usize..2048,
    ) {
        // optional group (LIST) { repeated group list { optional binary element } }: max def 3, rep 1
        let (mut def, mut rep, mut vals) = (vec![], vec![], ByteArrays::new());
        for row in &rows {
            match row {
                None => { def.push(0); rep.push(0); }
                Some(items) if items.is_empty() => { def.push(1); rep.push(0); }
                Some(items) => for (j, item) in items.iter().enumerate() {
                    rep.push((j > 0) as i16);
                    match item {
                        None => def.push(2),
                        Some(s) => { def.push(3); vals.push(s.as_bytes()); }
                    }
                },
            }
        }
        let batch = ColumnBatch { values: ColumnValues::ByteArray(vals), def_levels: def, rep_levels: rep };
        let version = if v2 { DataPageVersion::V2 } else { DataPageVersion::V1 };
        let (back, chunk) = round_trip(&batch, Type::ByteArray, 0, 3, 1, options(version, dictionary, page_size));
        prop_assert_eq!(back, batch);
        prop_assert_eq!(chunk.num_rows, rows.len() as u64);
    }
}
