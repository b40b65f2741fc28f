//! Rows that borrow their text and bytes from a [`Batch`]: the same rows as the owned
//! path (random rows of a struct with `&str`, `&[u8]`, `Cow`, options, nested structs and
//! lists), with a filter, over a dataset, and the errors of values that cannot borrow.

use std::borrow::Cow;
use std::collections::BTreeMap;

use parquet_serde::filter::col;
use parquet_serde::{
    from_slice, from_slice_with, to_vec_with, Batch, ErrorKind, ParquetSchema, ReadOptions, Reader,
    WriterOptions,
};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Inner {
    name: String,
    n: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Owned {
    id: i64,
    text: String,
    #[serde(with = "serde_bytes")]
    blob: Vec<u8>,
    cow: String,
    maybe: Option<String>,
    inner: Inner,
    tags: Vec<String>,
    spans: Option<Vec<Inner>>,
    attrs: BTreeMap<String, String>,
}

#[derive(Debug, Deserialize)]
struct InnerRef<'a> {
    name: &'a str,
    n: i64,
}

#[derive(Debug, Deserialize)]
struct Borrowed<'a> {
    id: i64,
    text: &'a str,
    #[serde(with = "serde_bytes")]
    blob: &'a [u8],
    #[serde(borrow)]
    cow: Cow<'a, str>,
    #[serde(borrow)]
    maybe: Option<&'a str>,
    #[serde(borrow)]
    inner: InnerRef<'a>,
    #[serde(borrow)]
    tags: Vec<&'a str>,
    #[serde(borrow)]
    spans: Option<Vec<InnerRef<'a>>>,
    #[serde(borrow)]
    attrs: BTreeMap<&'a str, Cow<'a, str>>,
}

impl Borrowed<'_> {
    fn to_owned(&self) -> Owned {
        let inner = |i: &InnerRef| Inner {
            name: i.name.to_owned(),
            n: i.n,
        };
        Owned {
            id: self.id,
            text: self.text.to_owned(),
            blob: self.blob.to_vec(),
            cow: self.cow.clone().into_owned(),
            maybe: self.maybe.map(str::to_owned),
            inner: inner(&self.inner),
            tags: self.tags.iter().map(|t| t.to_string()).collect(),
            spans: self.spans.as_ref().map(|s| s.iter().map(inner).collect()),
            attrs: self
                .attrs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    /// Whether the `Cow` field borrows (was not copied). (A `Cow` inside a map is owned:
    /// serde borrows only a field that is itself a `Cow`, with `#[serde(borrow)]`.)
    fn all_borrowed(&self) -> bool {
        matches!(self.cow, Cow::Borrowed(_))
    }
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), "[a-z]{1,8}", "\\PC{0,12}"]
}

fn inner() -> impl Strategy<Value = Inner> {
    (text(), any::<i64>()).prop_map(|(name, n)| Inner { name, n })
}

fn owned_row() -> impl Strategy<Value = Owned> {
    (
        any::<i64>(),
        text(),
        proptest::collection::vec(any::<u8>(), 0..12),
        text(),
        proptest::option::of(text()),
        inner(),
        proptest::collection::vec(text(), 0..4),
        proptest::option::of(proptest::collection::vec(inner(), 0..3)),
        proptest::collection::btree_map(text(), text(), 0..3),
    )
        .prop_map(
            |(id, text, blob, cow, maybe, inner, tags, spans, attrs)| Owned {
                id,
                text,
                blob,
                cow,
                maybe,
                inner,
                tags,
                spans,
                attrs,
            },
        )
}

/// Every row of `bytes` through batches of `Borrowed`, made owned, and whether every `Cow`
/// borrowed.
fn borrowed_rows(
    reader: Reader<&[u8], Borrowed<'static>>,
) -> parquet_serde::Result<(Vec<Owned>, bool)> {
    let mut out = Vec::new();
    let mut borrowed = true;
    for batch in reader.batches() {
        let batch: Batch = batch?;
        let rows: Vec<Borrowed> = batch.rows()?;
        assert_eq!(rows.len(), batch.num_rows());
        borrowed &= rows.iter().all(Borrowed::all_borrowed);
        out.extend(rows.iter().map(Borrowed::to_owned));
    }
    Ok((out, borrowed))
}

fn write(rows: &[Owned], group_rows: usize) -> Vec<u8> {
    to_vec_with(rows, WriterOptions::default().row_group_rows(group_rows)).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Borrowed rows equal owned rows, whatever the rows and row group size; every `Cow`
    /// borrows.
    #[test]
    fn borrowed_rows_equal_owned_rows(
        rows in proptest::collection::vec(owned_row(), 0..40),
        group_rows in 1usize..16,
    ) {
        let bytes = write(&rows, group_rows);
        let owned: Vec<Owned> = from_slice(&bytes).unwrap();
        prop_assert_eq!(&owned, &rows);
        let (borrowed, all_borrowed) = borrowed_rows(Reader::new(&bytes[..]).unwrap()).unwrap();
        prop_assert_eq!(&borrowed, &rows);
        prop_assert!(all_borrowed);
    }
}

fn rows(n: i64) -> Vec<Owned> {
    (0..n)
        .map(|i| Owned {
            id: i,
            text: format!("text {i}"),
            blob: i.to_le_bytes().to_vec(),
            cow: format!("cow {}", i % 7),
            maybe: (i % 3 != 0).then(|| format!("maybe {i}")),
            inner: Inner {
                name: format!("inner {i}"),
                n: -i,
            },
            tags: (0..i % 4).map(|t| format!("t{t}")).collect(),
            spans: (i % 5 != 0).then(|| {
                (0..i % 3)
                    .map(|s| Inner {
                        name: format!("s{s}"),
                        n: s,
                    })
                    .collect()
            }),
            attrs: (0..i % 3)
                .map(|a| (format!("k{a}"), format!("v{i}")))
                .collect(),
        })
        .collect()
}

#[test]
fn borrowed_rows_with_a_filter_are_the_filtered_owned_rows() {
    let all = rows(5000);
    let bytes = write(&all, 700);
    let predicate = || col("id").between(1234, 3456).and(col("cow").eq("cow 3"));
    let owned: Vec<Owned> = Reader::new(&bytes[..])
        .unwrap()
        .filter(predicate())
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(owned.len() > 100);
    let reader = Reader::<_, Borrowed>::new(&bytes[..])
        .unwrap()
        .filter(predicate())
        .unwrap();
    let (borrowed, all_borrowed) = borrowed_rows(reader).unwrap();
    assert_eq!(borrowed, owned);
    assert!(all_borrowed);
    // Each batch names its row group and its first selected row.
    let mut reader = Reader::<_, Borrowed>::new(&bytes[..])
        .unwrap()
        .filter(predicate())
        .unwrap();
    let batch = reader.next_batch().unwrap().unwrap();
    let first: Vec<Borrowed> = batch.rows().unwrap();
    assert_eq!(batch.row_group(), 1);
    assert_eq!(batch.first_row(), first[0].id as u64);
}

#[test]
fn borrowed_rows_over_a_dataset_with_partition_values() {
    #[derive(Debug, Deserialize)]
    struct Part<'a> {
        text: &'a str,
        #[serde(borrow)]
        day: Cow<'a, str>,
    }
    let dir = tempfile::tempdir().unwrap();
    let all = rows(300);
    for (d, chunk) in all.chunks(100).enumerate() {
        let folder = dir.path().join(format!("day=d{d}"));
        std::fs::create_dir_all(&folder).unwrap();
        let bytes = write(chunk, 40);
        std::fs::write(folder.join("part.parquet"), bytes).unwrap();
    }
    let dataset = parquet_serde::dataset::Dataset::open(dir.path()).unwrap();
    let mut reader = dataset.rows::<Part>();
    let mut got = Vec::new();
    let mut batches = 0;
    while let Some(batch) = reader.next_batch() {
        let batch = batch.unwrap();
        batches += 1;
        for row in batch.rows::<Part>().unwrap() {
            got.push((row.day.into_owned(), row.text.to_owned()));
        }
    }
    assert_eq!(batches, 9);
    let mut want: Vec<(String, String)> = all
        .iter()
        .enumerate()
        .map(|(i, r)| (format!("d{}", i / 100), r.text.clone()))
        .collect();
    got.sort();
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn a_value_that_cannot_borrow_is_an_error_at_its_column_and_row() {
    use parquet_serde::core::column::ColumnBatch;
    use parquet_serde::core::file::{FileWriter, WriterOptions};
    use parquet_serde::core::values::ColumnValues;

    // A DATE column read as `&str` needs its text made: it cannot borrow.
    let schema = "message m { required int32 day (DATE); }".parse().unwrap();
    let mut writer = FileWriter::new(Vec::new(), schema, WriterOptions::default()).unwrap();
    let mut day = writer.column_writer(0).unwrap();
    day.write(&ColumnBatch {
        values: ColumnValues::Int32(vec![19000, 19001]),
        def_levels: vec![],
        rep_levels: vec![],
    })
    .unwrap();
    writer.write_row_group(vec![day.close().unwrap()]).unwrap();
    let (bytes, _) = writer.close().unwrap();

    #[derive(Debug, Deserialize)]
    struct Day<'a> {
        #[allow(dead_code)]
        day: &'a str,
    }
    #[derive(Debug, Deserialize)]
    struct DayCow<'a> {
        #[serde(borrow)]
        day: Cow<'a, str>,
    }
    // Found when the reader opens (the schema probe reads a stand-in value).
    let e = Reader::<_, Day>::new(&bytes[..]).unwrap_err();
    let message = e.to_string();
    assert_eq!(e.kind(), ErrorKind::Schema, "{message}");
    assert!(message.contains("borrowed string"), "{message}");
    assert_eq!(e.location().column.as_deref(), Some("day"), "{message}");
    // Found at the row, when the batch was decoded for another type.
    let mut reader = Reader::<_, DayCow>::new(&bytes[..]).unwrap();
    let batch = reader.next_batch().unwrap().unwrap();
    let e = batch.rows::<Day>().unwrap_err();
    let message = e.to_string();
    assert!(message.contains("borrowed string"), "{message}");
    assert_eq!(e.location().column.as_deref(), Some("day"), "{message}");
    assert_eq!(e.location().row, Some(0), "{message}");
    assert_eq!(e.location().row_group, Some(0), "{message}");
    // A `Cow` (or a `String`) takes the text made.
    let days: Vec<DayCow> = batch.rows().unwrap();
    assert_eq!(days[1].day, "2022-01-09");
    assert!(matches!(days[1].day, Cow::Owned(_)));
}

#[test]
fn a_bad_value_in_a_middle_row_group_names_its_row_group_and_row() {
    #[derive(Debug, Deserialize)]
    struct Small<'a> {
        #[allow(dead_code)]
        text: &'a str,
        #[allow(dead_code)]
        id: u8, // row 300 does not fit
    }
    let bytes = write(&rows(1000), 100);
    let mut reader = Reader::<_, Small>::new(&bytes[..]).unwrap();
    let mut errors = Vec::new();
    while let Some(batch) = reader.next_batch() {
        if let Err(e) = batch.unwrap().rows::<Small>() {
            errors.push(e);
        }
    }
    // Row groups 2.. fail (ids 256 and on do not fit a u8), the first at row 256.
    assert_eq!(errors.len(), 8);
    let e = &errors[0];
    assert_eq!(e.location().row_group, Some(2), "{e}");
    assert_eq!(e.location().row, Some(256), "{e}");
    assert_eq!(e.location().column.as_deref(), Some("id"), "{e}");
    assert_eq!(e.kind(), ErrorKind::Data, "{e}");
}

#[test]
fn a_batch_is_a_whole_row_group() {
    let bytes = write(&rows(10), 4);
    let mut reader = Reader::<_, Owned>::new(&bytes[..]).unwrap();
    let first = reader.next().unwrap().unwrap();
    assert_eq!(first.id, 0);
    let e = reader.next_batch().unwrap().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{e}");
    // Rows read one by one up to the end of the row group, then batches.
    for _ in 0..3 {
        reader.next().unwrap().unwrap();
    }
    let batch = reader.next_batch().unwrap().unwrap();
    let rows: Vec<Borrowed> = batch.rows().unwrap();
    assert_eq!(rows.iter().map(|r| r.id).collect::<Vec<_>>(), [4, 5, 6, 7]);
    // Reading again starts again from the first row.
    let again: Vec<Borrowed> = batch.rows().unwrap();
    assert_eq!(again.len(), 4);
    assert_eq!(
        from_slice_with::<Owned>(&bytes, ReadOptions::default())
            .unwrap()
            .len(),
        10
    );
}

#[test]
fn a_batch_may_go_to_another_thread() {
    fn send<T: Send>(_: &T) {}
    let bytes = write(&rows(100), 30);
    let mut reader = Reader::<_, Borrowed>::new(&bytes[..]).unwrap();
    let batch = reader.next_batch().unwrap().unwrap();
    send(&batch);
    let ids = std::thread::spawn(move || {
        let rows: Vec<Borrowed> = batch.rows().unwrap();
        rows.iter().map(|r| r.id).collect::<Vec<_>>()
    })
    .join()
    .unwrap();
    assert_eq!(ids, (0..30).collect::<Vec<_>>());
}

/// Every row of `bytes` through batches of `Borrowed` read a slice of rows at a time: the
/// slices' lengths come from `cuts`, and each slice after `skip` slices is first read out
/// of order (the slice after it), so that both the in-order and the seeking path run.
fn sliced_rows(bytes: &[u8], cuts: &[usize], skip: usize) -> parquet_serde::Result<Vec<Owned>> {
    let mut out = Vec::new();
    for batch in Reader::<_, Borrowed>::new(bytes)?.batches() {
        let batch = batch?;
        let (mut start, mut k) = (0, 0);
        while start < batch.num_rows() {
            let len = cuts.get(k % cuts.len().max(1)).copied().unwrap_or(1).max(1);
            let end = (start + len).min(batch.num_rows());
            if k == skip && end < batch.num_rows() {
                // Out of order: a later slice, then back.
                let later: Vec<Borrowed> = batch.rows_in(end..batch.num_rows())?;
                assert_eq!(later.len(), batch.num_rows() - end);
            }
            let rows: Vec<Borrowed> = batch.rows_in(start..end)?;
            assert_eq!(rows.len(), end - start);
            out.extend(rows.iter().map(Borrowed::to_owned));
            start = end;
            k += 1;
        }
    }
    Ok(out)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A batch's rows read in slices (in order, and after a slice read out of order) are
    /// its rows read at once.
    #[test]
    fn rows_read_in_slices_are_the_rows(
        rows in proptest::collection::vec(owned_row(), 0..40),
        group_rows in 1usize..16,
        cuts in proptest::collection::vec(1usize..7, 1..4),
        skip in 0usize..4,
    ) {
        let bytes = write(&rows, group_rows);
        prop_assert_eq!(&sliced_rows(&bytes, &cuts, skip).unwrap(), &rows);
    }
}

#[test]
fn an_error_in_a_slice_names_the_row_rows_names() {
    #[derive(Debug, Deserialize)]
    struct Small<'a> {
        #[allow(dead_code)]
        text: &'a str,
        #[allow(dead_code)]
        id: u8, // row 256 does not fit
    }
    let bytes = write(&rows(1000), 1000);
    let mut reader = Reader::<_, Small>::new(&bytes[..]).unwrap();
    let batch = reader.next_batch().unwrap().unwrap();
    let whole = batch.rows::<Small>().unwrap_err();
    assert!(batch.rows_in::<Small>(0..256).is_ok());
    let sliced = batch.rows_in::<Small>(256..512).unwrap_err();
    assert_eq!(sliced.to_string(), whole.to_string());
    assert_eq!(sliced.location().row, Some(256), "{sliced}");
    assert_eq!(sliced.location().column.as_deref(), Some("id"), "{sliced}");
    // After the failed slice, slices read from where they ask.
    assert_eq!(batch.rows_in::<Small>(100..200).unwrap().len(), 100);
    let e = batch.rows_in::<Small>(999..1001).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{e}");
    #[allow(clippy::reversed_empty_ranges)]
    let e = batch.rows_in::<Small>(5..4).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{e}");
    assert!(batch.rows_in::<Small>(7..7).unwrap().is_empty());
}
