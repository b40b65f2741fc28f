//! The pipelined reader (decoding threads feeding the calling thread) and the row iterator
//! (a row group's columns decoded on several threads) against the sequential reader: the
//! same rows, the same errors, no hang when reading stops early.

use std::borrow::Cow;
use std::collections::BTreeMap;

use parquet_serde::{
    from_slice_with, to_vec_with, Compression, ErrorKind, ParquetSchema, ReadOptions, Reader,
    WriterOptions,
};
use serde::{Deserialize, Serialize};

mod common;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
enum Level {
    Debug,
    Info,
    Warn,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Span {
    name: String,
    dur: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Event {
    ts: i64,
    level: Level,
    message: String,
    user: Option<String>,
    tags: Vec<String>,
    attrs: BTreeMap<String, String>,
    spans: Vec<Span>,
    note: Option<Box<str>>,
    code: Option<u32>,
}

fn events(n: usize) -> Vec<Event> {
    (0..n)
        .map(|i| Event {
            ts: 1_700_000_000_000 + i as i64 * 37,
            level: [Level::Debug, Level::Info, Level::Warn][i % 3].clone(),
            message: format!("event {i} {}", "x".repeat(i % 11)),
            user: (i % 4 != 0).then(|| format!("user{}", i % 97)),
            tags: (0..i % 4).map(|k| format!("t{}", (i + k) % 13)).collect(),
            attrs: (0..i % 3)
                .map(|k| (format!("k{k}"), format!("v{}", i * k)))
                .collect(),
            spans: (0..i % 3)
                .map(|k| Span {
                    name: format!("s{}", k + i % 5),
                    dur: (i * k) as i64,
                })
                .collect(),
            note: (i % 5 == 1).then(|| format!("note ü{i}").into_boxed_str()),
            code: (i % 2 == 0).then_some(i as u32),
        })
        .collect()
}

fn read<T: serde::de::DeserializeOwned>(
    bytes: &[u8],
    threads: usize,
) -> parquet_serde::Result<Vec<T>> {
    from_slice_with(bytes, ReadOptions::default().threads(threads))
}

/// Stored bytes of the smallest row group: the iterator decodes a row group's columns on
/// several threads from 64 KiB on.
fn smallest_row_group(bytes: &[u8]) -> i64 {
    let file = parquet_serde::core::file::FileReader::new(bytes.to_vec()).unwrap();
    file.metadata()
        .row_groups()
        .map(|g| {
            g.columns()
                .filter(|c| c.has_metadata())
                .map(|m| m.compressed_size())
                .sum::<i64>()
        })
        .min()
        .unwrap()
}

/// Flips a byte in the middle of the stored chunk of `column` in row group `rg`.
fn damage(bytes: &mut [u8], rg: usize, column: &str) {
    let meta = parquet_serde::core::file::FileReader::new(bytes.to_vec()).unwrap();
    let col = meta
        .schema()
        .columns()
        .iter()
        .position(|c| c.path.to_string() == column)
        .unwrap_or_else(|| panic!("no column {column}"));
    let chunk = meta.metadata().row_group(rg).unwrap().column(col).unwrap();
    assert!(chunk.has_metadata());
    let start = chunk
        .dictionary_page_offset()
        .unwrap_or(chunk.data_page_offset());
    bytes[(start + chunk.compressed_size() / 2) as usize] ^= 0x5a;
}

/// An error as the tests compare it: kind, text, row group and column.
type Found = (ErrorKind, String, Option<usize>, Option<String>);

/// An error as the tests compare it.
fn found(e: parquet_serde::Error) -> Found {
    let at = e.location();
    (e.kind(), e.to_string(), at.row_group, at.column.clone())
}

/// Every item of the row iterator: rows, or errors with their location.
fn iterate<T: serde::de::DeserializeOwned>(bytes: &[u8], threads: usize) -> Vec<Result<T, Found>> {
    Reader::<_, T>::with_options(bytes, ReadOptions::default().threads(threads))
        .unwrap()
        .map(|r| r.map_err(found))
        .collect()
}

#[test]
fn every_thread_count_reads_the_same_rows() {
    let rows = events(5_000);
    let layouts = [
        WriterOptions::default(),
        // Many small pages and row groups: runs end everywhere.
        WriterOptions::default()
            .page_size(256)
            .page_row_limit(37)
            .row_group_rows(1_111)
            .compression(Compression::Zstd(1)),
        WriterOptions::default()
            .dictionary(false)
            .data_page_version(parquet_serde::core::column::DataPageVersion::V2)
            .page_size(1024),
    ];
    for options in layouts {
        let bytes = to_vec_with(&rows, options).unwrap();
        for threads in [1, 2, 3, 8] {
            let back: Vec<Event> = read(&bytes, threads).unwrap();
            assert_eq!(back, rows, "{threads} threads");
            let iterated: Vec<Event> = iterate(&bytes, threads)
                .into_iter()
                .collect::<Result<_, _>>()
                .unwrap();
            assert_eq!(iterated, rows, "iterator, {threads} threads");
        }
    }
}

/// Text columns read by `&str` visitors (an enum by name), by `String`s, `Cow<str>` and
/// `Option<String>` in one type: owned values built ahead must not be lost or duplicated.
#[test]
fn strings_borrowed_and_owned_in_one_type() {
    #[derive(Debug, Deserialize, PartialEq)]
    struct Mixed {
        level: Level,
        message: Cow<'static, str>,
        user: Option<String>,
        tags: Vec<String>,
        note: Option<String>,
    }
    let rows = events(3_000);
    let want: Vec<Mixed> = rows
        .iter()
        .map(|e| Mixed {
            level: e.level.clone(),
            message: Cow::Owned(e.message.clone()),
            user: e.user.clone(),
            tags: e.tags.clone(),
            note: e.note.as_deref().map(str::to_owned),
        })
        .collect();
    // Dictionary-then-PLAIN, so that row groups stay above 64 KiB (auto encoding shrinks them).
    let options = WriterOptions::default().page_size(512).auto_encoding(false);
    let bytes = to_vec_with(&rows, options).unwrap();
    assert!(smallest_row_group(&bytes) >= 64 << 10);
    for threads in [1, 2] {
        let back: Vec<Mixed> = read(&bytes, threads).unwrap();
        assert_eq!(back, want, "{threads} threads");
        let iterated: Vec<Mixed> = iterate(&bytes, threads)
            .into_iter()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(iterated, want, "iterator, {threads} threads");
    }
}

#[test]
fn a_bad_row_stops_the_read_with_the_same_error() {
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Strict {
        ts: i64,
        user: String, // null in every fourth row, from row 0 of each 4
    }
    let rows = events(50_000);
    let bytes = to_vec_with(&rows, WriterOptions::default().row_group_rows(10_000)).unwrap();
    assert!(smallest_row_group(&bytes) >= 64 << 10);
    let one = read::<Strict>(&bytes, 1).unwrap_err();
    let two = read::<Strict>(&bytes, 2).unwrap_err();
    assert_eq!(one.kind(), ErrorKind::Data);
    assert_eq!(one.to_string(), two.to_string());
    assert_eq!(two.location().row, Some(0));
    // The iterator goes on after a bad row: the same items whatever the threads.
    let one = iterate::<Strict>(&bytes, 1);
    assert_eq!(one.len(), rows.len());
    assert_eq!(one.iter().filter(|r| r.is_err()).count(), rows.len() / 4);
    let two = iterate::<Strict>(&bytes, 2);
    assert!(one
        .iter()
        .zip(&two)
        .all(|(a, b)| a.as_ref().err() == b.as_ref().err()));
}

#[test]
fn a_corrupt_page_in_a_later_row_group_is_an_error_not_a_hang() {
    let rows = events(20_000);
    let options = WriterOptions::default()
        .row_group_rows(5_000)
        .compression(Compression::Uncompressed);
    let mut bytes = to_vec_with(&rows, options).unwrap();
    assert!(smallest_row_group(&bytes) >= 64 << 10);
    // Flip a byte inside the `message` column chunk of the third row group.
    damage(&mut bytes, 2, "message");
    for threads in [1, 2, 4] {
        let err = read::<Event>(&bytes, threads).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Checksum, "{threads} threads: {err}");
        assert_eq!(
            err.location().row_group,
            Some(2),
            "{threads} threads: {err}"
        );
        assert_eq!(err.location().column.as_deref(), Some("message"));
        // The iterator reports the row group once, and reads the others.
        let items = iterate::<Event>(&bytes, threads);
        let errors: Vec<_> = items.iter().filter_map(|r| r.as_ref().err()).collect();
        assert_eq!(errors.len(), 1, "{threads} threads: {errors:?}");
        assert_eq!(errors[0].0, ErrorKind::Checksum);
        assert_eq!(errors[0].2, Some(2));
        assert_eq!(errors[0].3.as_deref(), Some("message"));
        assert_eq!(items.iter().filter(|r| r.is_ok()).count(), 15_000);
    }
}

/// Stopping part way through a file whose next row group is being decoded ahead: the
/// reader drops at once, and a new one reads the same rows.
#[test]
fn an_iterator_dropped_part_way_reads_again() {
    let rows = events(40_000);
    let bytes = to_vec_with(&rows, WriterOptions::default().row_group_rows(10_000)).unwrap();
    assert!(smallest_row_group(&bytes) >= 64 << 10);
    for stop in [1, 10_001, 25_000] {
        let options = ReadOptions::default().threads(2);
        let reader = Reader::<_, Event>::with_options(&bytes[..], options).unwrap();
        let first: Vec<Event> = reader.take(stop).map(Result::unwrap).collect();
        assert_eq!(first, rows[..stop]);
    }
    let all: Vec<Event> = iterate(&bytes, 2).into_iter().map(Result::unwrap).collect();
    assert_eq!(all, rows);
}

/// Damage in two column chunks of one row group: whichever threads decode them, the
/// error is the first column's in schema order, as the sequential reader reports it.
#[test]
fn the_first_broken_column_is_reported_whatever_the_threads() {
    let rows = events(8_000);
    let options = WriterOptions::default()
        .row_group_rows(4_000)
        .compression(Compression::Uncompressed);
    let mut bytes = to_vec_with(&rows, options).unwrap();
    assert!(smallest_row_group(&bytes) >= 64 << 10);
    for name in ["message", "spans.list.element.name"] {
        damage(&mut bytes, 1, name);
    }
    // Both chunks are broken: read alone, `spans` fails too.
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Spans {
        spans: Vec<Span>,
    }
    let err = read::<Spans>(&bytes, 1).unwrap_err();
    assert_eq!(err.location().row_group, Some(1));
    assert_eq!(
        err.location().column.as_deref(),
        Some("spans.list.element.name")
    );
    for threads in [1, 2, 3, 8] {
        let items = iterate::<Event>(&bytes, threads);
        let errors: Vec<_> = items.iter().filter_map(|r| r.as_ref().err()).collect();
        assert_eq!(errors.len(), 1, "{threads} threads: {errors:?}");
        assert_eq!(errors[0].2, Some(1), "{threads} threads");
        assert_eq!(errors[0].3.as_deref(), Some("message"), "{threads} threads");
        let err = read::<Event>(&bytes, threads).unwrap_err();
        assert_eq!(err.location().column.as_deref(), Some("message"));
    }
}

/// The filtered row iterator: every row group's projected columns are shared out among the
/// threads, for the selected rows only. Same rows whatever the threads; with two broken
/// chunks, the error is the first column's in schema order.
#[test]
fn filtered_reads_agree_whatever_the_threads() {
    use parquet_serde::filter::col;
    let rows = events(8_000);
    let options = WriterOptions::default()
        .row_group_rows(4_000)
        .page_row_limit(500)
        .compression(Compression::Uncompressed);
    let mut bytes = to_vec_with(&rows, options).unwrap();
    assert!(smallest_row_group(&bytes) >= 64 << 10);
    let filtered = |bytes: &[u8], threads: usize| -> Vec<Result<Event, Found>> {
        Reader::<_, Event>::with_options(bytes, ReadOptions::default().threads(threads))
            .unwrap()
            .filter(
                col("code")
                    .is_not_null()
                    .and(col("ts").lt(1_700_000_000_000i64 + 7_000 * 37)),
            )
            .unwrap()
            .map(|r| r.map_err(found))
            .collect()
    };
    let want: Vec<Event> = rows
        .iter()
        .filter(|e| e.code.is_some() && e.ts < 1_700_000_000_000 + 7_000 * 37)
        .cloned()
        .collect();
    assert_eq!(want.len(), 3_500);
    for threads in [1, 2, 3, 8] {
        let got: Vec<Event> = filtered(&bytes, threads)
            .into_iter()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(got, want, "{threads} threads");
    }
    for name in ["message", "spans.list.element.name"] {
        damage(&mut bytes, 1, name);
    }
    for threads in [1, 2, 3, 8] {
        let items = filtered(&bytes, threads);
        let errors: Vec<_> = items.iter().filter_map(|r| r.as_ref().err()).collect();
        assert_eq!(errors.len(), 1, "{threads} threads: {errors:?}");
        assert_eq!(errors[0].2, Some(1), "{threads} threads");
        assert_eq!(errors[0].3.as_deref(), Some("message"), "{threads} threads");
        let ok: Vec<&Event> = items.iter().filter_map(|r| r.as_ref().ok()).collect();
        assert_eq!(
            ok.len(),
            2_000,
            "{threads} threads: row group 0's selected rows"
        );
    }
}

/// A row whose `Deserialize` panics on one value (a bug in user code).
#[derive(Debug, Serialize, Deserialize, ParquetSchema)]
struct Fragile {
    id: i64,
    #[serde(deserialize_with = "panic_at_150_999")]
    value: i64,
    pad: [i64; 6],
}

fn panic_at_150_999<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    let v = i64::deserialize(d)?;
    assert_ne!(v, 150_999, "user code panics");
    Ok(v)
}

#[test]
fn a_panicking_deserialize_unwinds_without_hanging() {
    // Enough rows (64 bytes each) for the result's memory to be prefaulted by a helper.
    let rows: Vec<Fragile> = (0..200_000)
        .map(|i| Fragile {
            id: i,
            value: 150_000 + i,
            pad: [i; 6],
        })
        .collect();
    let bytes = to_vec_with(&rows, WriterOptions::default().page_row_limit(5000)).unwrap();
    let panicked =
        common::panicked_without_hanging("the read after a panic in Deserialize", move || {
            from_slice_with::<Fragile>(&bytes, ReadOptions::default().threads(2))
        });
    assert!(panicked, "the panic reaches the caller");
}
