//! The typed writer on helper threads (`WriterOptions::threads`): the file is the same byte
//! for byte whatever the thread count, under options that cut pages and row groups in many
//! ways; errors met on a helper thread are reported with their column; encrypted files read
//! back the same; dropping a writer stops its threads.

use std::collections::BTreeMap;

use parquet_serde::core::column::DataPageVersion;
use parquet_serde::core::encryption::{FileDecryptionProperties, FileEncryptionProperties};
use parquet_serde::core::file::FileReader;
use parquet_serde::{
    from_slice, from_slice_with, to_vec_with, Compression, ErrorKind, ParquetSchema, ReadOptions,
    Writer, WriterOptions,
};
use serde::{Deserialize, Serialize};

mod common;
use common::logs::{flat_rows, nested_rows, Http, LogFlat, Rng, Span};

/// The workload's event, with an optional list of optional booleans besides.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Event {
    ts_micros: i64,
    level: String,
    message: String,
    tags: Vec<String>,
    attrs: BTreeMap<String, String>,
    http: Option<Http>,
    spans: Vec<Span>,
    flags: Option<Vec<Option<bool>>>,
}

fn events(n: usize) -> Vec<Event> {
    let mut r = Rng::new(11);
    nested_rows(n)
        .into_iter()
        .map(|e| Event {
            ts_micros: e.ts_micros,
            level: e.level,
            message: e.message,
            tags: e.tags,
            attrs: e.attrs,
            http: e.http,
            spans: e.spans,
            flags: (r.below(4) != 0).then(|| {
                (0..r.below(3))
                    .map(|_| (r.below(3) != 0).then(|| r.below(2) == 0))
                    .collect()
            }),
        })
        .collect()
}

/// Options that cut pages and row groups in different ways.
fn variants() -> Vec<(&'static str, WriterOptions)> {
    let o = WriterOptions::default();
    vec![
        ("default", o.clone()),
        (
            "v2 zstd small pages",
            o.clone()
                .data_page_version(DataPageVersion::V2)
                .compression(Compression::Zstd(1))
                .page_size(8 << 10),
        ),
        ("row groups by rows", o.clone().row_group_rows(7_000)),
        (
            "row groups by bytes",
            o.clone()
                .row_group_size(300 << 10)
                .compression(Compression::Uncompressed),
        ),
        (
            "auto encoding",
            o.clone().auto_encoding(true).page_row_limit(3_000),
        ),
        (
            "small dictionary",
            o.clone()
                .dictionary_page_size_limit(4_000)
                .compression(Compression::Lz4Raw),
        ),
        ("no dictionary", o.dictionary(false).row_group_rows(9_999)),
    ]
}

/// The file written with `threads`, row by row with the streaming writer.
fn write<T: Serialize + ParquetSchema>(
    rows: &[T],
    options: &WriterOptions,
    threads: usize,
) -> Vec<u8> {
    to_vec_with(rows, options.clone().threads(threads)).unwrap()
}

fn same_bytes_for_every_thread_count<T>(rows: &[T])
where
    T: Serialize + ParquetSchema + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    for (name, options) in variants() {
        let one = write(rows, &options, 1);
        for threads in [2, 4] {
            let many = write(rows, &options, threads);
            assert!(many == one, "{name}: {threads} threads write another file");
        }
        let back: Vec<T> = from_slice(&one).unwrap();
        assert!(back == rows, "{name}: rows differ");
    }
}

#[test]
fn flat_rows_same_bytes() {
    let rows = flat_rows(30_000);
    same_bytes_for_every_thread_count(&rows);
    // Row groups are cut where the size estimate says, whatever the threads.
    let options = WriterOptions::default().row_group_size(300 << 10);
    let reader = FileReader::new(write(&rows, &options, 2)).unwrap();
    assert!(reader.num_row_groups() > 2, "{}", reader.num_row_groups());
}

#[test]
fn nested_rows_same_bytes() {
    same_bytes_for_every_thread_count(&events(20_000));
}

#[test]
fn streaming_with_flushes_and_refused_rows() {
    let rows = events(25_000);
    let run = |threads: usize| {
        let options = WriterOptions::default()
            .row_group_rows(6_000)
            .threads(threads);
        let mut w = Writer::<_, Event>::new(Vec::new(), options).unwrap();
        let mut peak = 0;
        for (i, row) in rows.iter().enumerate() {
            w.write(row).unwrap();
            if i % 7_777 == 0 {
                w.flush_row_group().unwrap();
            }
            if i % 1_000 == 0 {
                peak = peak.max(w.buffered_bytes());
            }
        }
        w.flush_row_group().unwrap();
        w.flush_row_group().unwrap();
        (w.num_row_groups(), peak, w.into_inner().unwrap())
    };
    let (groups, peak, one) = run(1);
    assert!(groups >= 6, "{groups}");
    assert!(peak > 0 && peak < 8 << 20, "peak {peak}");
    for threads in [2, 4] {
        let (g, peak, many) = run(threads);
        assert_eq!(g, groups);
        assert!(peak > 0 && peak < 8 << 20, "peak {peak}");
        assert!(many == one, "{threads} threads write another file");
    }
    let back: Vec<Event> = from_slice(&one).unwrap();
    assert_eq!(back, rows);

    // A refused row (a value that does not fit) leaves the writer usable on any thread count.
    #[derive(Serialize, ParquetSchema)]
    struct Small {
        // DECIMAL(38, 0): u128::MAX does not fit.
        a: u128,
        s: String,
    }
    let refused = |threads: usize| {
        let options = WriterOptions::default()
            .row_group_rows(1_000)
            .threads(threads);
        let mut w = Writer::<_, Small>::new(Vec::new(), options).unwrap();
        for i in 0..12_000u32 {
            let s = format!("s{}", i % 97);
            w.write(&Small { a: i.into(), s }).unwrap();
        }
        let e = w
            .write(&Small {
                a: u128::MAX,
                s: "no".into(),
            })
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Data);
        assert_eq!(e.location().row, Some(12_000));
        let s = "after".to_string();
        w.write(&Small { a: 7, s }).unwrap();
        w.into_inner().unwrap()
    };
    let one = refused(1);
    assert!(refused(2) == one);
    assert!(refused(4) == one);
}

#[test]
fn encrypted_files_read_back_the_same() {
    let key = b"0123456789012345".to_vec();
    let rows = flat_rows(20_000);
    let props = FileEncryptionProperties::builder(key.clone())
        .build()
        .unwrap();
    let options = WriterOptions::default()
        .encryption(props)
        .row_group_rows(8_000);
    let one = write(&rows, &options, 1);
    let read = ReadOptions::default().decryption(
        FileDecryptionProperties::builder()
            .footer_key(key)
            .build()
            .unwrap(),
    );
    for threads in [2, 4] {
        let many = write(&rows, &options, threads);
        // Nonces are random (and the CRCs of encrypted pages with them): other bytes, about
        // the same size.
        assert!(many.len().abs_diff(one.len()) < 1_000);
        let back: Vec<LogFlat> = from_slice_with(&many, read.clone()).unwrap();
        assert!(back == rows);
    }
    let back: Vec<LogFlat> = from_slice_with(&one, read.clone()).unwrap();
    assert!(back == rows);
    // The row iterator: the first row group's columns shared out among threads, the next
    // row groups decrypted and decoded ahead on a background thread.
    let iterated = parquet_serde::Reader::<_, LogFlat>::with_options(&one[..], read.threads(2))
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    assert!(iterated == rows);
}

#[test]
fn an_error_on_a_helper_thread_is_reported_with_its_column() {
    // Encrypted pages carry their ordinal in 16 bits: one row per page runs out of them.
    // The page that fails is stored on a helper thread; a later call reports it.
    let key = b"0123456789012345".to_vec();
    let props = FileEncryptionProperties::builder(key).build().unwrap();
    #[derive(Serialize, ParquetSchema)]
    struct One {
        id: i64,
    }
    for threads in [1, 2, 4] {
        let options = WriterOptions::default()
            .encryption(props.clone())
            .page_row_limit(1)
            .dictionary(false)
            .threads(threads);
        let mut w = Writer::<_, One>::new(Vec::new(), options).unwrap();
        let mut error = None;
        for id in 0..40_000 {
            if let Err(e) = w.write(&One { id }) {
                error = Some(e);
                break;
            }
        }
        let e = match error {
            Some(e) => e,
            None => w.close().unwrap_err(),
        };
        assert_eq!(e.kind(), ErrorKind::Crypto, "{threads} threads: {e}");
        assert_eq!(e.location().column.as_deref(), Some("id"), "{e}");
    }
}

#[test]
fn failed_writers_stay_failed_and_drops_do_not_hang() {
    let key = b"0123456789012345".to_vec();
    let props = FileEncryptionProperties::builder(key).build().unwrap();
    #[derive(Serialize, ParquetSchema)]
    struct One {
        id: i64,
    }
    let options = WriterOptions::default()
        .encryption(props)
        .page_row_limit(1)
        .dictionary(false)
        .threads(2);
    let mut w = Writer::<_, One>::new(Vec::new(), options).unwrap();
    let mut failed = false;
    for id in 0..40_000 {
        if w.write(&One { id }).is_err() {
            failed = true;
            break;
        }
    }
    if failed {
        // Every later call fails at once.
        assert!(w.write(&One { id: 1 }).is_err());
        assert!(w.flush_row_group().is_err());
    }
    assert!(w.close().is_err());

    // Dropping writers with work in flight stops their threads.
    for threads in [2, 4] {
        let options = WriterOptions::default().threads(threads).page_size(4096);
        let mut w = Writer::<_, LogFlat>::new(Vec::new(), options).unwrap();
        for row in flat_rows(20_000) {
            w.write(&row).unwrap();
        }
        drop(w);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dropped.parquet");
    let mut w =
        Writer::<_, LogFlat>::from_path(&path, WriterOptions::default().threads(2)).unwrap();
    for row in flat_rows(10_000) {
        w.write(&row).unwrap();
    }
    drop(w);
    assert!(!path.exists());
}

/// A row whose `Serialize` panics on one value (a bug in user code).
#[derive(Debug, serde::Serialize, parquet_serde::ParquetSchema)]
struct FragileRow {
    id: i64,
    #[serde(serialize_with = "panic_at_150_999")]
    #[parquet(as_type = "i64")]
    value: i64,
    text: String,
}

fn panic_at_150_999<S: serde::Serializer>(v: &i64, s: S) -> Result<S::Ok, S::Error> {
    assert_ne!(*v, 150_999, "user code panics");
    s.serialize_i64(*v)
}

#[test]
fn a_panicking_serialize_unwinds_without_hanging() {
    let rows: Vec<FragileRow> = (0..200_000)
        .map(|i| FragileRow {
            id: i,
            value: 150_000 + i,
            text: format!("row {i}"),
        })
        .collect();
    let options = WriterOptions::default().threads(2).page_row_limit(1000);
    let panicked =
        common::panicked_without_hanging("the write after a panic in Serialize", move || {
            to_vec_with(&rows, options)
        });
    assert!(panicked, "the panic reaches the caller");
}
