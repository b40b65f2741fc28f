//! Row groups read a window of rows at a time (`ReadOptions::batch_rows`): batches of at
//! most that many rows, in order, never across row groups, holding exactly the rows of
//! whole row groups (random rows, row group, page, window and dictionary sizes; pages cut
//! inside the windows; text lent from dictionaries or copied out after a fallback); the row iterator over windows; files read from a path (chunks held owned) and
//! encrypted files; every file of the interop corpus; and the errors of chunks that end
//! early or hold entries past their row group.

mod common;

use std::collections::BTreeMap;

use parquet_serde::__internals::format::{self, FileMetaData};
use parquet_serde::core::encryption::{FileDecryptionProperties, FileEncryptionProperties};
use parquet_serde::filter::col;
use parquet_serde::{
    from_slice, to_vec_with, ErrorKind, ParquetSchema, ReadOptions, Reader, Value, WriterOptions,
};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Span {
    name: String,
    n: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Owned {
    id: i64,
    text: String,
    level: String,
    maybe: Option<String>,
    tags: Vec<String>,
    spans: Option<Vec<Span>>,
    attrs: BTreeMap<String, i32>,
}

#[derive(Debug, Deserialize)]
struct SpanRef<'a> {
    name: &'a str,
    n: i64,
}

#[derive(Debug, Deserialize)]
struct Borrowed<'a> {
    id: i64,
    text: &'a str,
    level: &'a str,
    #[serde(borrow)]
    maybe: Option<&'a str>,
    #[serde(borrow)]
    tags: Vec<&'a str>,
    #[serde(borrow)]
    spans: Option<Vec<SpanRef<'a>>>,
    #[serde(borrow)]
    attrs: BTreeMap<&'a str, i32>,
}

impl Borrowed<'_> {
    fn to_owned(&self) -> Owned {
        Owned {
            id: self.id,
            text: self.text.to_owned(),
            level: self.level.to_owned(),
            maybe: self.maybe.map(str::to_owned),
            tags: self.tags.iter().map(|t| t.to_string()).collect(),
            spans: self.spans.as_ref().map(|s| {
                s.iter()
                    .map(|s| Span {
                        name: s.name.to_owned(),
                        n: s.n,
                    })
                    .collect()
            }),
            attrs: self
                .attrs
                .iter()
                .map(|(k, v)| (k.to_string(), *v))
                .collect(),
        }
    }
}

fn owned_row() -> impl Strategy<Value = Owned> {
    let text = || prop_oneof![Just(String::new()), "[a-z]{1,8}", "\\PC{0,12}"];
    (
        any::<i64>(),
        text(),
        prop_oneof![Just("INFO"), Just("WARN"), Just("ERROR")],
        proptest::option::of(text()),
        proptest::collection::vec(text(), 0..4),
        proptest::option::of(proptest::collection::vec(
            (text(), any::<i64>()).prop_map(|(name, n)| Span { name, n }),
            0..3,
        )),
        proptest::collection::btree_map(text(), any::<i32>(), 0..3),
    )
        .prop_map(|(id, text, level, maybe, tags, spans, attrs)| Owned {
            id,
            text,
            level: level.to_owned(),
            maybe,
            tags,
            spans,
            attrs,
        })
}

fn write(rows: &[Owned], group_rows: usize, page_rows: usize) -> Vec<u8> {
    write_with(rows, group_rows, page_rows, 1 << 20)
}

/// [`write`] with dictionaries of at most `dictionary_bytes` (a chunk whose dictionary
/// outgrows it goes on in plain pages).
fn write_with(
    rows: &[Owned],
    group_rows: usize,
    page_rows: usize,
    dictionary_bytes: usize,
) -> Vec<u8> {
    let options = WriterOptions::default()
        .row_group_rows(group_rows)
        .page_row_limit(page_rows)
        .dictionary_page_size_limit(dictionary_bytes);
    to_vec_with(rows, options).unwrap()
}

fn windows(window: usize, threads: usize) -> ReadOptions {
    ReadOptions::default().batch_rows(window).threads(threads)
}

/// A batch as its row group, first row and number of rows.
type BatchShape = (usize, u64, usize);

/// The rows of every batch of `reader` (made owned), with each batch's shape.
fn batched<R: parquet_serde::core::file::ChunkReader>(
    reader: Reader<R, Borrowed<'static>>,
) -> parquet_serde::Result<(Vec<Owned>, Vec<BatchShape>)> {
    let (mut rows, mut batches) = (Vec::new(), Vec::new());
    for batch in reader.batches() {
        let batch = batch?;
        let got: Vec<Borrowed> = batch.rows()?;
        assert_eq!(got.len(), batch.num_rows());
        batches.push((batch.row_group(), batch.first_row(), batch.num_rows()));
        rows.extend(got.iter().map(Borrowed::to_owned));
    }
    Ok((rows, batches))
}

/// The batches windows of `window` rows over row groups of `group_rows` rows (the last
/// one shorter) make of `n` rows: (row group, first row, rows).
fn expected_batches(n: usize, group_rows: usize, window: usize) -> Vec<BatchShape> {
    let mut out = Vec::new();
    for (rg, start) in (0..n).step_by(group_rows).enumerate() {
        let end = (start + group_rows).min(n);
        for first in (start..end).step_by(window) {
            out.push((rg, first as u64, window.min(end - first)));
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Windows of any size hold the rows of whole row groups, in order, as batches that
    /// never cross a row group; the row iterator over windows gives the same rows.
    #[test]
    fn windows_hold_the_rows_of_whole_row_groups(
        rows in proptest::collection::vec(owned_row(), 0..60),
        group_rows in 1usize..25,
        page_rows in 1usize..6,
        window in 1usize..30,
        threads in 1usize..3,
        dictionary_bytes in prop_oneof![Just(1usize << 20), 8usize..200],
    ) {
        // Text columns lent from their dictionary, or copied out after a fallback to
        // plain pages part-way through a chunk (a small dictionary limit).
        let bytes = write_with(&rows, group_rows, page_rows, dictionary_bytes);
        let reader = Reader::with_options(&bytes[..], windows(window, threads)).unwrap();
        let (got, batches) = batched(reader).unwrap();
        prop_assert_eq!(&got, &rows);
        prop_assert_eq!(batches, expected_batches(rows.len(), group_rows, window));
        let iterated: Vec<Owned> = Reader::with_options(&bytes[..], windows(window, threads))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        prop_assert_eq!(&iterated, &rows);
    }
}

fn rows(n: usize) -> Vec<Owned> {
    (0..n)
        .map(|i| Owned {
            id: i as i64,
            text: format!("text {i}"),
            level: ["INFO", "WARN", "ERROR"][i % 3].to_owned(),
            maybe: (i % 3 != 0).then(|| format!("maybe {i}")),
            tags: (0..i % 4).map(|t| format!("t{t}")).collect(),
            spans: (i % 5 != 0).then(|| {
                (0..i % 3)
                    .map(|s| Span {
                        name: format!("s{s}"),
                        n: s as i64,
                    })
                    .collect()
            }),
            attrs: (0..i % 3).map(|a| (format!("k{a}"), a as i32)).collect(),
        })
        .collect()
}

#[test]
fn large_row_groups_read_in_windows_on_several_threads() {
    // Enough stored bytes per window for its columns to be shared out among threads.
    let all = rows(120_000);
    let bytes = write(&all, 100_000, 20_000);
    for threads in [1, 2, 4] {
        let reader = Reader::with_options(&bytes[..], windows(8192, threads)).unwrap();
        let (got, batches) = batched(reader).unwrap();
        assert!(got == all, "{threads} threads");
        assert_eq!(batches, expected_batches(all.len(), 100_000, 8192));
    }
    // Row groups no larger than a window are batches whole (the next one decoded ahead).
    let bytes = write(&all, 20_000, 5_000);
    for threads in [1, 2] {
        let reader = Reader::with_options(&bytes[..], windows(65_536, threads)).unwrap();
        let (got, batches) = batched(reader).unwrap();
        assert!(got == all, "{threads} threads");
        assert_eq!(batches, expected_batches(all.len(), 20_000, 65_536));
    }
}

#[test]
fn windows_read_a_file_from_its_path() {
    // A file's chunks come read (owned), and are kept between the windows.
    let all = rows(1000);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rows.parquet");
    std::fs::write(&path, write(&all, 300, 64)).unwrap();
    let reader = Reader::from_path_with_options(&path, windows(100, 1)).unwrap();
    let (got, batches) = batched(reader).unwrap();
    assert!(got == all);
    assert_eq!(batches, expected_batches(1000, 300, 100));
}

#[test]
fn windows_read_an_encrypted_file() {
    let all = rows(500);
    let encryption = FileEncryptionProperties::builder(b"0123456789012345".to_vec())
        .column_key("text", b"1234567890123450".to_vec(), Some(b"k1".to_vec()))
        .build()
        .unwrap();
    let options = WriterOptions::default()
        .row_group_rows(200)
        .page_row_limit(30)
        .encryption(encryption);
    let bytes = to_vec_with(&all, options).unwrap();
    let keys = FileDecryptionProperties::builder()
        .footer_key(b"0123456789012345".to_vec())
        .column_key("text", b"1234567890123450".to_vec())
        .build()
        .unwrap();
    let options = windows(45, 1).decryption(keys);
    let (got, _) = batched(Reader::with_options(&bytes[..], options).unwrap()).unwrap();
    assert!(got == all);
}

#[test]
fn a_filtered_reader_reads_the_selected_rows_of_each_row_group_at_once() {
    let all = rows(1000);
    let bytes = write(&all, 400, 50);
    let reader = Reader::with_options(&bytes[..], windows(10, 1))
        .unwrap()
        .filter(col("id").ge(350))
        .unwrap();
    let (got, batches) = batched(reader).unwrap();
    assert!(got == all[350..]);
    let sizes: Vec<usize> = batches.iter().map(|b| b.2).collect();
    assert_eq!(sizes, [50, 400, 200]);
}

/// Rows of `bytes` as `Value`s through the row iterator with `options`: the rows before
/// the first error, and whether there was one.
fn values(bytes: &[u8], options: ReadOptions) -> (Vec<Value>, bool) {
    let Ok(reader) = Reader::<_, Value>::with_options(bytes, options) else {
        return (Vec::new(), true);
    };
    let mut out = Vec::new();
    for row in reader {
        match row {
            Ok(row) => out.push(row),
            Err(_) => return (out, true),
        }
    }
    (out, false)
}

#[test]
fn every_corpus_file_reads_the_same_in_windows() {
    // Files of other writers: pages that cut rows, dictionaries falling back to plain,
    // v1 and v2 pages, every codec the corpus has.
    let mut compared = 0;
    for path in common::files_below(&common::corpus().join("data")) {
        if path.extension().is_none_or(|e| e != "parquet") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let (whole, failed) = values(&bytes, ReadOptions::default().threads(1));
        for window in [1, 5, 1000] {
            let (got, failed_too) = values(&bytes, windows(window, 2));
            let name = path.display();
            if failed {
                assert!(
                    failed_too,
                    "{name}: fails whole, but not in windows of {window}"
                );
            } else {
                assert!(!failed_too, "{name}: fails in windows of {window} only");
                // Compared as text: NaN values are rows too.
                let text = |rows: &[Value]| format!("{rows:?}");
                assert!(
                    text(&got) == text(&whole),
                    "{name}: windows of {window} read other rows"
                );
            }
        }
        compared += 1;
    }
    assert!(compared > 50, "only {compared} corpus files");
}

/// `bytes` with its footer changed by `edit`.
fn with_footer(bytes: &[u8], edit: impl Fn(&mut FileMetaData)) -> Vec<u8> {
    let len = u32::from_le_bytes(bytes[bytes.len() - 8..bytes.len() - 4].try_into().unwrap());
    let start = bytes.len() - 8 - len as usize;
    let (mut meta, _) = format::decode::<FileMetaData>(&bytes[start..bytes.len() - 8]).unwrap();
    edit(&mut meta);
    let mut out = bytes[..start].to_vec();
    format::encode(&meta, &mut out);
    let footer_len = (out.len() - start) as u32;
    out.extend_from_slice(&footer_len.to_le_bytes());
    out.extend_from_slice(b"PAR1");
    out
}

#[test]
fn a_row_group_that_claims_other_rows_than_its_chunks_is_an_error() {
    let all = rows(100);
    let bytes = write(&all, 100, 30);
    // Fewer rows claimed: every chunk holds entries past the row group's last row.
    let fewer = with_footer(&bytes, |m| m.row_groups[0].num_rows = 90);
    let e = batched(Reader::with_options(&fewer[..], windows(40, 1)).unwrap()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Corrupt, "{e}");
    assert!(e.to_string().contains("past the last row"), "{e}");
    assert!(e.to_string().contains("row group 0"), "{e}");
    // More rows claimed: the chunks end inside the last window.
    let more = with_footer(&bytes, |m| m.row_groups[0].num_rows = 110);
    let mut reader = Reader::<_, Borrowed>::with_options(&more[..], windows(40, 1)).unwrap();
    let first = reader.next_batch().unwrap().unwrap();
    assert_eq!(first.num_rows(), 40);
    let second = reader.next_batch().unwrap().unwrap();
    assert_eq!(second.first_row(), 40);
    let e = reader.next_batch().unwrap().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Corrupt, "{e}");
    assert!(
        e.to_string().contains("ended 20 rows into a window of 30"),
        "{e}"
    );
    assert!(reader.next_batch().is_none());
}

#[test]
fn windows_are_bounded_by_rows_not_by_the_row_group() {
    // One row group of 10,000 rows read 1,000 at a time: no batch holds more.
    let all = rows(10_000);
    let bytes = write(&all, 10_000, 10_000);
    let reader = Reader::with_options(&bytes[..], windows(1000, 1)).unwrap();
    let (got, batches) = batched(reader).unwrap();
    assert!(got == all);
    assert_eq!(batches.len(), 10);
    assert!(batches.iter().all(|b| b.0 == 0 && b.2 == 1000));
    let owned: Vec<Owned> = from_slice(&bytes).unwrap();
    assert!(owned == all);
}

#[test]
fn rows_read_one_by_one_then_batches_meet_at_a_window_start() {
    let all = rows(10);
    let bytes = write(&all, 10, 3);
    let mut reader = Reader::<_, Owned>::with_options(&bytes[..], windows(4, 1)).unwrap();
    assert_eq!(reader.next().unwrap().unwrap(), all[0]);
    let e = reader.next_batch().unwrap().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{e}");
    assert!(e.to_string().contains("3 are left"), "{e}");
    for row in &all[1..4] {
        assert_eq!(&reader.next().unwrap().unwrap(), row);
    }
    let batch = reader.next_batch().unwrap().unwrap();
    assert_eq!((batch.first_row(), batch.num_rows()), (4, 4));
    let got: Vec<Borrowed> = batch.rows().unwrap();
    assert_eq!(got.iter().map(|r| r.id).collect::<Vec<_>>(), [4, 5, 6, 7]);
    let rest: Vec<Owned> = reader.collect::<Result<_, _>>().unwrap();
    assert_eq!(rest, all[8..]);
}
