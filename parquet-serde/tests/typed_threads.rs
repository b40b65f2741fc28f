//! The pipelined reader (decoding threads feeding the calling thread) against the
//! sequential one: the same rows, the same errors, no hang when reading stops early.

use std::borrow::Cow;
use std::collections::BTreeMap;

use parquet_serde::{
    from_slice_with, to_vec_with, Compression, ErrorKind, ParquetSchema, ReadOptions, WriterOptions,
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
    from_slice_with(bytes, &ReadOptions::default().threads(threads))
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
            .data_page_version(parquet_serde::file::DataPageVersion::V2)
            .page_size(1024),
    ];
    for options in layouts {
        let bytes = to_vec_with(&rows, &options).unwrap();
        for threads in [1, 2, 3, 8] {
            let back: Vec<Event> = read(&bytes, threads).unwrap();
            assert_eq!(back, rows, "{threads} threads");
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
    let bytes = to_vec_with(&rows, &WriterOptions::default().page_size(512)).unwrap();
    for threads in [1, 2] {
        let back: Vec<Mixed> = read(&bytes, threads).unwrap();
        assert_eq!(back, want, "{threads} threads");
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
    let bytes = to_vec_with(&rows, &WriterOptions::default().row_group_rows(10_000)).unwrap();
    let one = read::<Strict>(&bytes, 1).unwrap_err();
    let two = read::<Strict>(&bytes, 2).unwrap_err();
    assert_eq!(one.kind(), ErrorKind::Data);
    assert_eq!(one.to_string(), two.to_string());
    assert_eq!(two.location().row, Some(0));
}

#[test]
fn a_corrupt_page_in_a_later_row_group_is_an_error_not_a_hang() {
    let rows = events(20_000);
    let options = WriterOptions::default()
        .row_group_rows(5_000)
        .compression(Compression::Uncompressed);
    let mut bytes = to_vec_with(&rows, &options).unwrap();
    // Flip a byte inside the `message` column chunk of the third row group.
    let meta = parquet_serde::file::FileReader::new(bytes.clone()).unwrap();
    let col = meta
        .schema()
        .columns()
        .iter()
        .position(|c| c.path.to_string() == "message")
        .unwrap();
    let chunk = meta.metadata().file.row_groups[2].columns[col]
        .meta_data
        .clone()
        .unwrap();
    let start = chunk
        .dictionary_page_offset
        .unwrap_or(chunk.data_page_offset);
    let at = (start + chunk.total_compressed_size / 2) as usize;
    bytes[at] ^= 0x5a;
    for threads in [1, 2, 4] {
        let err = read::<Event>(&bytes, threads).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Checksum, "{threads} threads: {err}");
        assert_eq!(
            err.location().row_group,
            Some(2),
            "{threads} threads: {err}"
        );
        assert_eq!(err.location().column.as_deref(), Some("message"));
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
    let bytes = to_vec_with(&rows, &WriterOptions::default().page_row_limit(5000)).unwrap();
    let panicked =
        common::panicked_without_hanging("the read after a panic in Deserialize", move || {
            from_slice_with::<Fragile>(&bytes, &ReadOptions::default().threads(2))
        });
    assert!(panicked, "the panic reaches the caller");
}
