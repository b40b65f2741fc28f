//! Row groups assembled in parallel (`Reader::read_all_par`): the rows of the sequential
//! read, in order, whatever the threads; the first error in file order, located; the rows
//! really built on several threads.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use parquet_serde::{
    from_slice_with, to_vec_with, ErrorKind, ParquetSchema, ReadOptions, Reader, WriterOptions,
};
use serde::{Deserialize, Deserializer, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Span {
    name: String,
    dur: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Event {
    ts: i64,
    message: String,
    user: Option<String>,
    tags: Vec<String>,
    attrs: BTreeMap<String, String>,
    spans: Vec<Span>,
}

fn events(n: i64) -> Vec<Event> {
    (0..n)
        .map(|i| Event {
            ts: i,
            message: format!("event {i}"),
            user: (i % 3 == 0).then(|| format!("u{}", i % 17)),
            tags: (0..i % 4).map(|t| format!("t{t}")).collect(),
            attrs: (0..i % 3)
                .map(|a| (format!("k{a}"), format!("v{i}")))
                .collect(),
            spans: (0..i % 2)
                .map(|s| Span {
                    name: format!("s{s}"),
                    dur: i * s,
                })
                .collect(),
        })
        .collect()
}

fn write(rows: &[Event], group_rows: usize) -> Vec<u8> {
    to_vec_with(rows, WriterOptions::default().row_group_rows(group_rows)).unwrap()
}

#[test]
fn parallel_rows_are_the_sequential_rows_in_order() {
    let all = events(5000);
    for group_rows in [1000, 333, 5000] {
        let bytes = write(&all, group_rows);
        let sequential: Vec<Event> =
            from_slice_with(&bytes, ReadOptions::default().threads(1)).unwrap();
        assert_eq!(sequential, all);
        for threads in [1, 2, 3, 4] {
            let options = ReadOptions::default().threads(threads);
            let rows: Vec<Event> = Reader::with_options(&bytes[..], options)
                .unwrap()
                .read_all_par()
                .unwrap();
            assert_eq!(rows, all, "{group_rows} rows a group, {threads} threads");
        }
    }
}

#[test]
fn an_error_in_a_middle_row_group_is_the_sequential_error_with_its_place() {
    #[derive(Debug, Deserialize)]
    struct Narrow {
        #[allow(dead_code)]
        message: String,
        #[allow(dead_code)]
        ts: u16, // 65536 and on do not fit: row group 6 of 10
    }
    let all = events(100_000);
    let bytes = write(&all, 10_000);
    let options = ReadOptions::default().threads(3);
    let e = Reader::<_, Narrow>::with_options(&bytes[..], options.clone())
        .unwrap()
        .read_all_par()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Data, "{e}");
    assert_eq!(e.location().row_group, Some(6), "{e}");
    assert_eq!(e.location().row, Some(65536), "{e}");
    assert_eq!(e.location().column.as_deref(), Some("ts"), "{e}");
    let sequential = from_slice_with::<Narrow>(&bytes, options).unwrap_err();
    assert_eq!(e.to_string(), sequential.to_string());
}

/// Names of the threads `Tracked` rows were built on.
static BUILT_ON: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// A row that records the thread that builds it.
#[derive(Debug)]
struct Tracked(#[allow(dead_code)] Event);

impl<'de> Deserialize<'de> for Tracked {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = std::thread::current().name().unwrap_or("").to_string();
        BUILT_ON.lock().unwrap().insert(name);
        Event::deserialize(d).map(Tracked)
    }
}

#[test]
fn rows_are_built_on_several_threads() {
    let bytes = write(&events(40_000), 1000);
    let options = ReadOptions::default().threads(2);
    let rows: Vec<Tracked> = Reader::with_options(&bytes[..], options)
        .unwrap()
        .read_all_par()
        .unwrap();
    assert_eq!(rows.len(), 40_000);
    let names = BUILT_ON.lock().unwrap().clone();
    assert!(
        names.iter().any(|n| n.starts_with("parquet-serde-rows")),
        "{names:?}"
    );
    assert!(names.len() >= 2, "{names:?}");
}

/// Rows of one large row group (cut into runs of rows, one per thread, when the offset
/// index locates its pages) in pages of `page_rows` rows.
fn write_one_group(rows: &[Event], page_rows: usize) -> Vec<u8> {
    let options = WriterOptions::default()
        .row_group_rows(rows.len().max(1))
        .page_row_limit(page_rows);
    to_vec_with(rows, options).unwrap()
}

/// Names of the threads `TrackedOne` rows were built on.
static ONE_BUILT_ON: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// A row that records the thread that builds it (for the test of one row group alone).
#[derive(Debug)]
struct TrackedOne(#[allow(dead_code)] Event);

impl<'de> Deserialize<'de> for TrackedOne {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = std::thread::current().name().unwrap_or("").to_string();
        ONE_BUILT_ON.lock().unwrap().insert(name);
        Event::deserialize(d).map(TrackedOne)
    }
}

#[test]
fn one_large_row_group_is_assembled_on_several_threads() {
    let bytes = write_one_group(&events(40_000), 1000);
    assert_eq!(
        Reader::<_, Event>::new(&bytes[..])
            .unwrap()
            .num_row_groups(),
        1
    );
    let rows: Vec<TrackedOne> = Reader::with_options(&bytes[..], ReadOptions::default().threads(2))
        .unwrap()
        .read_all_par()
        .unwrap();
    assert_eq!(rows.len(), 40_000);
    let names = ONE_BUILT_ON.lock().unwrap().clone();
    assert!(
        names.iter().any(|n| n.starts_with("parquet-serde-rows")),
        "{names:?}"
    );
}

#[test]
fn errors_in_a_split_row_group_are_the_sequential_errors() {
    #[derive(Debug, Deserialize)]
    struct Narrow<T> {
        #[allow(dead_code)]
        message: String,
        #[allow(dead_code)]
        ts: T,
    }
    fn check<T: serde::de::DeserializeOwned + Send + std::fmt::Debug>(bytes: &[u8], row: u64) {
        for threads in [2, 3] {
            let options = ReadOptions::default().threads(threads);
            let e = Reader::<_, Narrow<T>>::with_options(bytes, options.clone())
                .unwrap()
                .read_all_par()
                .unwrap_err();
            assert_eq!(e.location().row, Some(row), "{e}");
            assert_eq!(e.location().row_group, Some(0), "{e}");
            let sequential = from_slice_with::<Narrow<T>>(bytes, options).unwrap_err();
            assert_eq!(e.to_string(), sequential.to_string());
        }
    }
    let bytes = write_one_group(&events(100_000), 777);
    check::<u16>(&bytes, 65536); // in a later run
    check::<u8>(&bytes, 256); // in the first run
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(6))]
    /// Random rows in one large row group, random page sizes: the split read gives the
    /// sequential rows, in order, whatever the threads.
    #[test]
    fn split_row_groups_give_the_sequential_rows(
        seed in 0u64..1_000_000,
        n in 16_384usize..30_000,
        page_rows in 50usize..5000,
    ) {
        let mut all = events(n as i64);
        // Random values: a simple generator seeded per case.
        let mut x = seed | 1;
        let mut next = move || { x ^= x << 13; x ^= x >> 7; x ^= x << 17; x };
        for e in &mut all {
            e.ts = next() as i64;
            if next() % 5 == 0 { e.user = None; }
            if next() % 7 == 0 { e.tags.clear(); }
            e.message = format!("m{}", next() % 1000);
        }
        let bytes = write_one_group(&all, page_rows);
        for threads in [2, 3, 4] {
            let options = ReadOptions::default().threads(threads);
            let rows: Vec<Event> = Reader::with_options(&bytes[..], options)
                .unwrap()
                .read_all_par()
                .unwrap();
            proptest::prop_assert!(rows == all, "{} threads", threads);
        }
    }
}

/// Names of the threads `TrackedSmall` rows were built on.
static SMALL_BUILT_ON: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// A row that records the thread that builds it (for the test of a small row group).
#[derive(Debug)]
struct TrackedSmall(#[allow(dead_code)] Event);

impl<'de> Deserialize<'de> for TrackedSmall {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = std::thread::current().name().unwrap_or("").to_string();
        SMALL_BUILT_ON.lock().unwrap().insert(name);
        Event::deserialize(d).map(TrackedSmall)
    }
}

#[test]
fn a_row_group_under_16384_rows_is_not_cut() {
    let bytes = write_one_group(&events(16_383), 1000);
    let rows: Vec<TrackedSmall> =
        Reader::with_options(&bytes[..], ReadOptions::default().threads(2))
            .unwrap()
            .read_all_par()
            .unwrap();
    assert_eq!(rows.len(), 16_383);
    let names = SMALL_BUILT_ON.lock().unwrap().clone();
    assert!(
        !names.iter().any(|n| n.starts_with("parquet-serde-rows")),
        "{names:?}"
    );
}
