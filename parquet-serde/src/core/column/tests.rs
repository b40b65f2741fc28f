//! Round trips through ColumnChunkWriter and ColumnChunkReader: every physical type, page
//! versions, dictionary on/off and fallback, nulls and repetition, page cuts.

use proptest::prelude::*;

use super::*;
use crate::core::compression::Compression;
use crate::core::format::{Encoding, PageType, Type};
use crate::core::page::{PageReader, PageReaderOptions};
use crate::core::values::{ByteArrays, ColumnValues, FixedLenByteArrays, Int96};

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
    let back = read_back(&chunk, physical, type_length, max_def, max_rep);
    (back, chunk)
}

/// Every level and value of a written chunk, read back. Read with the buffers sized from
/// the chunk's claims, and with dictionary-encoded byte arrays lent, it reads the same.
fn read_back(
    chunk: &WrittenColumnChunk,
    physical: Type,
    type_length: i32,
    max_def: i16,
    max_rep: i16,
) -> ColumnBatch {
    let data = chunk.to_bytes();
    let reader = || {
        let md = &chunk.metadata;
        let pages = PageReader::new(
            &data,
            0,
            md.codec,
            md.num_values,
            PageReaderOptions::default(),
        );
        ColumnChunkReader::new(pages, physical, type_length, max_def, max_rep)
    };
    let plain = reader().read_all().unwrap();
    let hint = size_hint(chunk, data.len());
    assert_eq!(reader().read_all_sized(hint).unwrap(), plain, "sized");
    assert_eq!(
        gathered(reader().read_all_lent(hint).unwrap()),
        plain,
        "lent"
    );
    plain
}

/// What a written chunk claims it decodes to.
fn size_hint(chunk: &WrittenColumnChunk, stored: usize) -> SizeHint {
    let md = &chunk.metadata;
    SizeHint {
        values: md.num_values as usize,
        value_bytes: md
            .size_statistics
            .as_ref()
            .and_then(|s| s.unencoded_byte_array_data_bytes)
            .unwrap_or(0) as usize,
        stored,
    }
}

/// A batch with its lent values (if any) copied out of their dictionary.
fn gathered((mut batch, lent): (ColumnBatch, Option<LentValues>)) -> ColumnBatch {
    if let Some(lent) = lent {
        assert!(batch.values.is_empty(), "values both decoded and lent");
        let mut values = ByteArrays::new();
        for &k in &lent.indices {
            values.push(lent.dictionary.get(k as usize));
        }
        batch.values = ColumnValues::ByteArray(values);
    }
    batch
}

/// Whether a written chunk's values are lent when read back.
fn lends(chunk: &WrittenColumnChunk, physical: Type, max_def: i16, max_rep: i16) -> bool {
    let data = chunk.to_bytes();
    let md = &chunk.metadata;
    let pages = PageReader::new(&data, 0, md.codec, md.num_values, Default::default());
    let reader = ColumnChunkReader::new(pages, physical, 0, max_def, max_rep);
    let hint = size_hint(chunk, data.len());
    reader.read_all_lent(hint).unwrap().1.is_some()
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
                    if physical == Type::ByteArray {
                        // Lent when every data page is dictionary-encoded: 10 distinct
                        // values fit the 256-byte dictionary, 5000 make it fall back.
                        let lent = lends(&chunk, physical, 1, 0);
                        assert_eq!(
                            lent,
                            dictionary && distinct < 5000,
                            "{version:?} {distinct}"
                        );
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

/// A column for the comparison of page statistics from dictionary entries and from every
/// value: physical type, type length and sort order.
const ENTRY_COLUMNS: [(Type, i32, SortOrder); 11] = [
    (Type::ByteArray, 0, SortOrder::Unsigned),
    // Decimals as bytes: values of different lengths compare equal.
    (Type::ByteArray, 0, SortOrder::Signed),
    (Type::Int32, 0, SortOrder::Signed),
    (Type::Int32, 0, SortOrder::Unsigned),
    (Type::Int64, 0, SortOrder::Signed),
    (Type::FixedLenByteArray, 3, SortOrder::Unsigned),
    (Type::FixedLenByteArray, 3, SortOrder::Signed),
    (Type::FixedLenByteArray, 2, SortOrder::Float16),
    (Type::Int96, 0, SortOrder::Undefined),
    (Type::Float, 0, SortOrder::Signed),
    (Type::Double, 0, SortOrder::Signed),
];

/// How a chunk of the comparison is written: the values drawn, their levels and batches, and
/// the writer's options.
#[derive(Debug, Clone)]
struct EntryCase {
    column: usize,
    seed: u64,
    slots: usize,
    distinct: usize,
    /// Percent of null slots (optional columns), or of empty lists (repeated ones).
    nulls: u64,
    /// Null slots in a run this long in the middle: whole pages of nulls.
    null_run: usize,
    repeated: bool,
    optional: bool,
    batch: usize,
    page_size: usize,
    row_limit: usize,
    dict_limit: usize,
    v2: bool,
    page_index: bool,
    auto_encoding: bool,
    truncate: Option<usize>,
}

/// Value `k` (of `distinct`) of a column of `physical` type in `order`.
fn entry_value(order: SortOrder, width: i32, k: usize, out: &mut ColumnValues) {
    let signed_bytes = |v: i64, long: bool| {
        // Two's complement, big-endian, shortest or one byte longer (same decimal value).
        let b = v.to_be_bytes();
        let skip = (0..7)
            .take_while(|&i| (b[i] == 0 && b[i + 1] < 0x80) || (b[i] == 0xff && b[i + 1] >= 0x80))
            .count();
        b[skip.saturating_sub(long as usize)..].to_vec()
    };
    let x = (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40;
    match out {
        ColumnValues::Int32(v) => v.push(x as i32 - (1 << 22)),
        ColumnValues::Int64(v) => v.push(((x as i64) << 40) - (k as i64)),
        ColumnValues::Int96(v) => v.push(Int96([x as u32, k as u32, 2_440_588])),
        ColumnValues::Float(v) => v.push(match k % 7 {
            0 => f32::NAN,
            1 => 0.0,
            2 => -0.0,
            _ => x as f32 / 7.0 - 1000.0,
        }),
        ColumnValues::Double(v) => v.push(match k % 7 {
            0 => f64::NAN,
            1 => -0.0,
            2 => 0.0,
            _ => x as f64 / 3.0 - 5e6,
        }),
        ColumnValues::ByteArray(v) if order == SortOrder::Signed => {
            v.push(&signed_bytes((k / 2) as i64 - 40, k % 2 == 1))
        }
        ColumnValues::ByteArray(v) => {
            // Shared 8-byte prefixes, prefixes of each other, non-ASCII bytes.
            let s = match k % 4 {
                0 => format!("abcdefgh{x}"),
                1 => format!("abcdefgh{}", x % 10),
                2 => format!("é{x:x}"),
                _ => "ab".repeat(k % 5),
            };
            v.push(s.as_bytes());
        }
        ColumnValues::FixedLenByteArray(v) => {
            let bytes = match order {
                SortOrder::Float16 => match k % 5 {
                    0 => vec![0x00, 0x7e],
                    1 => vec![0x00, 0x80],
                    2 => vec![0x00, 0x00],
                    _ => (x as u16 & 0x7bff).to_le_bytes().to_vec(),
                },
                _ => (x as u32).to_be_bytes()[4 - width as usize..].to_vec(),
            };
            v.push(&bytes);
        }
        ColumnValues::Boolean(v) => v.push(k & 1 == 0),
    }
}

/// The batches of a case: levels and values drawn from its seed.
fn entry_batches(case: &EntryCase) -> Vec<ColumnBatch> {
    let (physical, width, order) = ENTRY_COLUMNS[case.column];
    let mut state = case.seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (max_def, max_rep) = (
        case.optional as i16 + case.repeated as i16,
        case.repeated as i16,
    );
    let (mut def, mut rep) = (Vec::new(), Vec::new());
    let mut values = empty_values(physical, width);
    let run = case.slots / 3..case.slots / 3 + case.null_run;
    let mut slot = 0;
    while slot < case.slots {
        let null = next() % 100 < case.nulls || run.contains(&slot);
        let len = if case.repeated {
            1 + next() as usize % 4
        } else {
            1
        };
        for j in 0..len {
            if case.repeated {
                rep.push((j > 0) as i16);
            }
            let value_null = null || case.optional && case.repeated && next() % 5 == 0;
            if max_def > 0 {
                def.push(if value_null {
                    (null as i16 ^ 1) * (max_def - 1)
                } else {
                    max_def
                });
            }
            if !value_null {
                // Skewed: low entries more often, as in log columns.
                let k = (next() as usize % case.distinct).min(next() as usize % case.distinct);
                entry_value(order, width, k, &mut values);
            }
            if null && case.repeated {
                break;
            }
        }
        slot += 1;
    }
    let n = def.len().max(rep.len()).max(values.len());
    let mut batches = Vec::new();
    let (mut level, mut value) = (0, 0);
    while level < n {
        let end = n.min(level + case.batch);
        let count = if max_def > 0 {
            def[level..end].iter().filter(|&&d| d == max_def).count()
        } else {
            end - level
        };
        let mut part = empty_values(physical, width);
        extend_values(&mut part, &values, value..value + count);
        batches.push(ColumnBatch {
            values: part,
            def_levels: if max_def > 0 {
                def[level..end].to_vec()
            } else {
                vec![]
            },
            rep_levels: if max_rep > 0 {
                rep[level..end].to_vec()
            } else {
                vec![]
            },
        });
        (level, value) = (end, value + count);
    }
    batches
}

/// Writes a case with page min/max from dictionary entries, and again from every value:
/// the chunks must be the same bytes with the same metadata and page index.
fn check_entry_statistics(case: &EntryCase) -> WrittenColumnChunk {
    let (physical, width, order) = ENTRY_COLUMNS[case.column];
    let options = ColumnWriterOptions {
        compression: Compression::Uncompressed,
        dictionary: true,
        dictionary_page_size_limit: case.dict_limit,
        data_page_size: case.page_size,
        data_page_row_limit: case.row_limit,
        data_page_version: if case.v2 {
            DataPageVersion::V2
        } else {
            DataPageVersion::V1
        },
        page_index: case.page_index,
        auto_encoding: case.auto_encoding,
        statistics_truncate_length: case.truncate,
        ..Default::default()
    };
    let batches = entry_batches(case);
    let write = |every_value: bool| {
        let (max_def, max_rep) = (
            case.optional as i16 + case.repeated as i16,
            case.repeated as i16,
        );
        let mut w = ColumnChunkWriter::new(
            vec!["c".into()],
            physical,
            width,
            max_def,
            max_rep,
            order,
            options.clone(),
        )
        .unwrap();
        if every_value {
            w.fold_every_value();
        }
        for b in &batches {
            w.write(b).unwrap();
        }
        w.close().unwrap()
    };
    let (entries, every) = (write(false), write(true));
    assert_eq!(entries.to_bytes(), every.to_bytes(), "{case:?}");
    assert_eq!(entries.metadata, every.metadata, "{case:?}");
    assert_eq!(entries.column_index, every.column_index, "{case:?}");
    assert_eq!(entries.offset_index, every.offset_index, "{case:?}");
    entries
}

fn entry_case(column: usize) -> EntryCase {
    EntryCase {
        column,
        seed: 7,
        slots: 3000,
        distinct: 5,
        nulls: 0,
        null_run: 0,
        repeated: false,
        optional: false,
        batch: 700,
        page_size: 256,
        row_limit: 100,
        dict_limit: 1 << 20,
        v2: false,
        page_index: true,
        auto_encoding: false,
        truncate: Some(64),
    }
}

#[test]
fn page_statistics_from_dictionary_entries_match_every_value() {
    for column in 0..ENTRY_COLUMNS.len() {
        let base = entry_case(column);
        let cases = [
            // Few distinct values, many pages.
            base.clone(),
            // Many distinct values: the dictionary falls back mid-chunk (and mid-batch).
            EntryCase {
                distinct: 2000,
                dict_limit: 400,
                ..base.clone()
            },
            // Optional values, a run of null pages; statistics in the page headers.
            EntryCase {
                optional: true,
                nulls: 20,
                null_run: 500,
                page_index: false,
                v2: true,
                ..base.clone()
            },
            // Lists split across batches (a row continues after a fallback), short bounds.
            EntryCase {
                repeated: true,
                optional: true,
                nulls: 10,
                distinct: 300,
                dict_limit: 300,
                batch: 37,
                truncate: Some(4),
                ..base.clone()
            },
            // `Auto` may drop the dictionary after the first page.
            EntryCase {
                auto_encoding: true,
                distinct: 1500,
                ..base.clone()
            },
        ];
        for case in &cases {
            let chunk = check_entry_statistics(case);
            let encodings = &chunk.metadata.encodings;
            if case.distinct == 5 {
                assert!(encodings.contains(&Encoding::RleDictionary), "{case:?}");
            }
            if case.dict_limit == 400 {
                assert!(encodings.contains(&Encoding::Plain), "{case:?}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random columns, levels, batches and options: page statistics from the dictionary
    /// entries a page uses give the bytes of statistics from every value.
    #[test]
    fn random_page_statistics_from_dictionary_entries(
        column in 0..ENTRY_COLUMNS.len(),
        seed in any::<u64>(),
        slots in 0usize..1500,
        distinct in prop_oneof![1usize..8, 8usize..100, 100usize..3000],
        nulls in prop_oneof![Just(0u64), 1u64..100],
        null_run in prop_oneof![Just(0usize), 1usize..400],
        shape in 0u8..4,
        batch in prop_oneof![1usize..20, 20usize..2000],
        page_size in prop_oneof![Just(64usize), 65usize..2048, Just(1 << 20)],
        row_limit in prop_oneof![1usize..50, Just(20_000)],
        dict_limit in prop_oneof![8usize..512, Just(1 << 20)],
        flags in 0u8..8,
        truncate in prop_oneof![Just(None), (1usize..12).prop_map(Some)],
    ) {
        check_entry_statistics(&EntryCase {
            column,
            seed,
            slots,
            distinct,
            nulls,
            null_run,
            repeated: shape & 1 == 1,
            optional: shape & 2 == 2,
            batch,
            page_size,
            row_limit,
            dict_limit,
            v2: flags & 1 == 1,
            page_index: flags & 2 == 2,
            auto_encoding: flags & 4 == 4,
            truncate,
        });
    }
}

#[test]
fn dictionary_fallback_inside_a_row_keeps_the_rest_of_the_row() {
    // A LIST column whose every row comes in two batches: the second continues the row of
    // the first. The dictionary (limit 256 bytes) falls back during a first half, so the
    // page cannot end before the row does; the second half must still go into that page
    // as dictionary indices (it once went into the plain buffer beside them, and the page
    // was written with the indices alone: those values read back as 0).
    for version in [DataPageVersion::V1, DataPageVersion::V2] {
        let mut w = ColumnChunkWriter::new(
            vec!["c".into()],
            Type::Int64,
            0,
            1,
            1,
            SortOrder::Signed,
            options(version, true, 1 << 20),
        )
        .unwrap();
        let mut all = ColumnBatch {
            values: ColumnValues::Int64(vec![]),
            def_levels: vec![],
            rep_levels: vec![],
        };
        for r in 0..20i64 {
            for half in 0..2 {
                let values: Vec<i64> = (0..5).map(|j| r * 100 + half * 10 + j).collect();
                let rep: Vec<i16> = (0..5).map(|j| i16::from(half > 0 || j > 0)).collect();
                let batch = ColumnBatch {
                    values: ColumnValues::Int64(values),
                    def_levels: vec![1; 5],
                    rep_levels: rep,
                };
                extend_batch(&mut all, &batch);
                w.write(&batch).unwrap();
            }
        }
        let chunk = w.close().unwrap();
        assert_eq!(read_back(&chunk, Type::Int64, 0, 1, 1), all, "{version:?}");
        let md = &chunk.metadata;
        // The dictionary was used, then given up.
        let data_pages: Vec<Encoding> = md
            .encoding_stats
            .iter()
            .flatten()
            .filter(|s| s.page_type != PageType::DictionaryPage)
            .map(|s| s.encoding)
            .collect();
        assert!(
            data_pages.contains(&Encoding::RleDictionary),
            "{data_pages:?}"
        );
        assert!(
            data_pages.iter().any(|&e| e != Encoding::RleDictionary),
            "{data_pages:?}"
        );
    }
}

/// Appends `b`'s levels and values to `all`.
fn extend_batch(all: &mut ColumnBatch, b: &ColumnBatch) {
    if let (ColumnValues::Int64(a), ColumnValues::Int64(v)) = (&mut all.values, &b.values) {
        a.extend_from_slice(v);
    }
    all.def_levels.extend_from_slice(&b.def_levels);
    all.rep_levels.extend_from_slice(&b.rep_levels);
}
