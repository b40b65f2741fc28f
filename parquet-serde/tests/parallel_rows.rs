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
