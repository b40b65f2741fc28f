//! Round-trip properties of the typed API: for generated values of nested derived types,
//! `from_slice(to_vec_with(rows, options)) == rows` under writer options that force many
//! pages and row groups, both data page versions, dictionary on and off, and every codec.

#![allow(clippy::type_complexity)]

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use parquet_serde::core::column::DataPageVersion;
use parquet_serde::core::file::StatisticsLevel;
use parquet_serde::{
    from_slice, from_slice_with, to_vec_with, Compression, ParquetSchema, ReadOptions, Writer,
    WriterOptions,
};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------------------------------------
// Types

/// `f32` compared by bits, so NaN payloads and the sign of zero must survive.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ParquetSchema)]
struct F32(f32);

impl PartialEq for F32 {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

/// `f64` compared by bits.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ParquetSchema)]
struct F64(f64);

impl PartialEq for F64 {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Point {
    x: i32,
    label: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Ints {
    a: i8,
    b: i16,
    c: i32,
    d: i64,
    e: u8,
    f: u16,
    g: u32,
    h: u64,
    i: i128,
    j: u128,
    k: Option<i128>,
    l: Option<u128>,
    m: isize,
    n: usize,
    o: bool,
    p: Option<bool>,
    q: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Floats {
    a: F32,
    b: F64,
    c: Option<F64>,
    d: Vec<F32>,
    e: Option<Vec<Option<F64>>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Inner {
    a: Option<i64>,
    b: Option<Point>,
    c: Vec<Option<String>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Nested {
    a: Option<Vec<Option<Point>>>,
    b: BTreeMap<String, Vec<Point>>,
    c: Vec<Vec<Option<i64>>>,
    d: Option<Inner>,
    e: HashMap<i32, Option<Vec<String>>>,
    f: Option<BTreeMap<u8, Option<Inner>>>,
    g: Vec<Option<Vec<Option<Vec<u16>>>>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
#[serde(rename_all = "lowercase")]
enum Level {
    Debug,
    Info,
    Warn,
    Error,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
enum Shape {
    Empty,
    Circle(i64),
    Rect(u32, Option<u32>),
    Poly {
        points: Vec<Point>,
        name: Option<String>,
    },
    At(Point),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Misc {
    shape: Shape,
    shapes: Vec<Shape>,
    maybe_shape: Option<Shape>,
    level: Level,
    levels: Vec<Option<Level>>,
    pair: (i32, String),
    triple: Option<(u8, Option<i64>, Vec<bool>)>,
    text: String,
    texts: Vec<String>,
    #[parquet(bytes)]
    blob: Vec<u8>,
    #[parquet(bytes)]
    maybe_blob: Option<Vec<u8>>,
    #[serde(with = "serde_bytes")]
    serde_blob: Vec<u8>,
    fixed: [u8; 4],
    fixed16: Option<[u8; 16]>,
    unit: (),
    maybe_unit: Option<()>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Times {
    #[parquet(timestamp = "millis")]
    ms: i64,
    #[parquet(timestamp = "micros")]
    us: Option<i64>,
    #[parquet(timestamp = "nanos", utc = false)]
    ns: i64,
    #[parquet(timestamp = "micros")]
    many: Vec<i64>,
    #[parquet(date)]
    day: i32,
    #[parquet(date)]
    maybe_day: Option<i32>,
    #[parquet(time = "millis")]
    tod_ms: i32,
    #[parquet(time = "micros")]
    tod_us: i64,
    #[parquet(time = "nanos")]
    tod_ns: Option<i64>,
    at: SystemTime,
    maybe_at: Option<SystemTime>,
    took: Duration,
}

/// Everything at once, each part also optional.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Row {
    id: u64,
    ints: Ints,
    floats: Option<Floats>,
    nested: Nested,
    misc: Misc,
    times: Option<Times>,
}

// ---------------------------------------------------------------------------------------------
// Strategies

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "[a-z]{0,6}",
        "\\PC{0,8}",
        Just("日本語 ✓ é 🦀".to_string()),
    ]
}

fn bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..=max)
}

/// Every `i128` with at most 38 digits (the DECIMAL(38, 0) column's range).
fn i128_38() -> impl Strategy<Value = i128> {
    const MAX: i128 = 10i128.pow(38) - 1;
    prop_oneof![
        Just(0i128),
        Just(MAX),
        Just(-MAX),
        -1000i128..1000,
        -MAX..=MAX,
    ]
}

/// Every `u128` with at most 38 digits (`u128` is also a DECIMAL(38, 0) column).
fn u128_fits() -> impl Strategy<Value = u128> {
    const MAX: u128 = 10u128.pow(38) - 1;
    prop_oneof![Just(0u128), Just(MAX), 0u128..1000, 0u128..=MAX,]
}

fn point() -> impl Strategy<Value = Point> {
    (any::<i32>(), prop::option::of(text())).prop_map(|(x, label)| Point { x, label })
}

fn ints() -> impl Strategy<Value = Ints> {
    (
        (
            any::<i8>(),
            any::<i16>(),
            any::<i32>(),
            any::<i64>(),
            any::<u8>(),
            any::<u16>(),
            any::<u32>(),
            any::<u64>(),
        ),
        (
            i128_38(),
            u128_fits(),
            prop::option::of(i128_38()),
            prop::option::of(u128_fits()),
            any::<isize>(),
            // `usize` is stored as INT64 (unsigned): every value fits on 64-bit targets.
            any::<usize>(),
            any::<bool>(),
            prop::option::of(any::<bool>()),
            prop::option::of(any::<u64>()),
        ),
    )
        .prop_map(
            |((a, b, c, d, e, f, g, h), (i, j, k, l, m, n, o, p, q))| Ints {
                a,
                b,
                c,
                d,
                e,
                f,
                g,
                h,
                i,
                j,
                k,
                l,
                m,
                n,
                o,
                p,
                q,
            },
        )
}

fn floats() -> impl Strategy<Value = Floats> {
    let f32s = any::<f32>().prop_map(F32);
    let f64s = || any::<f64>().prop_map(F64);
    (
        f32s.clone(),
        f64s(),
        prop::option::of(f64s()),
        prop::collection::vec(f32s, 0..4),
        prop::option::of(prop::collection::vec(prop::option::of(f64s()), 0..4)),
    )
        .prop_map(|(a, b, c, d, e)| Floats { a, b, c, d, e })
}

fn inner() -> impl Strategy<Value = Inner> {
    (
        prop::option::of(any::<i64>()),
        prop::option::of(point()),
        prop::collection::vec(prop::option::of(text()), 0..3),
    )
        .prop_map(|(a, b, c)| Inner { a, b, c })
}

fn nested() -> impl Strategy<Value = Nested> {
    (
        prop::option::of(prop::collection::vec(prop::option::of(point()), 0..4)),
        prop::collection::btree_map(text(), prop::collection::vec(point(), 0..3), 0..3),
        prop::collection::vec(
            prop::collection::vec(prop::option::of(any::<i64>()), 0..3),
            0..3,
        ),
        prop::option::of(inner()),
        prop::collection::hash_map(
            any::<i32>(),
            prop::option::of(prop::collection::vec(text(), 0..3)),
            0..3,
        ),
        prop::option::of(prop::collection::btree_map(
            any::<u8>(),
            prop::option::of(inner()),
            0..3,
        )),
        prop::collection::vec(
            prop::option::of(prop::collection::vec(
                prop::option::of(prop::collection::vec(any::<u16>(), 0..3)),
                0..3,
            )),
            0..3,
        ),
    )
        .prop_map(|(a, b, c, d, e, f, g)| Nested {
            a,
            b,
            c,
            d,
            e,
            f,
            g,
        })
}

fn level() -> impl Strategy<Value = Level> {
    prop_oneof![
        Just(Level::Debug),
        Just(Level::Info),
        Just(Level::Warn),
        Just(Level::Error),
    ]
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        Just(Shape::Empty),
        any::<i64>().prop_map(Shape::Circle),
        (any::<u32>(), prop::option::of(any::<u32>())).prop_map(|(w, h)| Shape::Rect(w, h)),
        (
            prop::collection::vec(point(), 0..3),
            prop::option::of(text())
        )
            .prop_map(|(points, name)| Shape::Poly { points, name }),
        point().prop_map(Shape::At),
    ]
}

fn misc() -> impl Strategy<Value = Misc> {
    (
        (
            shape(),
            prop::collection::vec(shape(), 0..3),
            prop::option::of(shape()),
            level(),
            prop::collection::vec(prop::option::of(level()), 0..3),
            (any::<i32>(), text()),
            prop::option::of((
                any::<u8>(),
                prop::option::of(any::<i64>()),
                prop::collection::vec(any::<bool>(), 0..4),
            )),
            text(),
        ),
        (
            prop::collection::vec(text(), 0..4),
            bytes(12),
            prop::option::of(bytes(5)),
            bytes(8),
            any::<[u8; 4]>(),
            prop::option::of(any::<[u8; 16]>()),
            prop::option::of(Just(())),
        ),
    )
        .prop_map(
            |(
                (shape, shapes, maybe_shape, level, levels, pair, triple, text),
                (texts, blob, maybe_blob, serde_blob, fixed, fixed16, maybe_unit),
            )| Misc {
                shape,
                shapes,
                maybe_shape,
                level,
                levels,
                pair,
                triple,
                text,
                texts,
                blob,
                maybe_blob,
                serde_blob,
                fixed,
                fixed16,
                unit: (),
                maybe_unit,
            },
        )
}

/// A `SystemTime` after the epoch with whole microseconds (the column's unit).
fn system_time() -> impl Strategy<Value = SystemTime> {
    (0u64..4_000_000_000_000_000).prop_map(|us| UNIX_EPOCH + Duration::from_micros(us))
}

fn times() -> impl Strategy<Value = Times> {
    const DAY_MS: i32 = 86_400_000;
    const DAY_US: i64 = 86_400_000_000;
    (
        (
            any::<i64>(),
            prop::option::of(any::<i64>()),
            any::<i64>(),
            prop::collection::vec(any::<i64>(), 0..3),
            any::<i32>(),
            prop::option::of(-1_000_000i32..1_000_000),
        ),
        (
            0..DAY_MS,
            0..DAY_US,
            prop::option::of(0..DAY_US * 1000),
            system_time(),
            prop::option::of(system_time()),
            (any::<u64>(), 0u32..1_000_000_000),
        ),
    )
        .prop_map(
            |((ms, us, ns, many, day, maybe_day), (tod_ms, tod_us, tod_ns, at, maybe_at, took))| {
                Times {
                    ms,
                    us,
                    ns,
                    many,
                    day,
                    maybe_day,
                    tod_ms,
                    tod_us,
                    tod_ns,
                    at,
                    maybe_at,
                    took: Duration::new(took.0, took.1),
                }
            },
        )
}

fn row() -> impl Strategy<Value = Row> {
    (
        any::<u64>(),
        ints(),
        prop::option::of(floats()),
        nested(),
        misc(),
        prop::option::of(times()),
    )
        .prop_map(|(id, ints, floats, nested, misc, times)| Row {
            id,
            ints,
            floats,
            nested,
            misc,
            times,
        })
}

/// Writer options that stress the layout: both page versions, dictionary on and off, tiny
/// pages and row groups, every codec, statistics and page indexes.
fn options() -> impl Strategy<Value = (usize, WriterOptions)> {
    (0usize..7).prop_map(|k| {
        let o = WriterOptions::default();
        let o = match k {
            0 => o,
            1 => o
                .data_page_version(DataPageVersion::V2)
                .dictionary(false)
                .page_size(64)
                .row_group_rows(3)
                .compression(Compression::Uncompressed),
            2 => o
                .dictionary(true)
                .page_size(1)
                .page_row_limit(2)
                .row_group_rows(5)
                .compression(Compression::Gzip(1)),
            3 => o
                .data_page_version(DataPageVersion::V2)
                .page_row_limit(1)
                .row_group_rows(1)
                .compression(Compression::Zstd(1)),
            4 => o
                .compression(Compression::Brotli(1))
                .auto_encoding(true)
                .page_size(128),
            5 => o
                .compression(Compression::Lz4Raw)
                .data_page_version(DataPageVersion::V2)
                .dictionary_page_size_limit(16)
                .page_size(256)
                .row_group_rows(7),
            _ => o
                .statistics(StatisticsLevel::Page)
                .page_index(true)
                .auto_encoding(true)
                .row_group_size(512),
        };
        (k, o)
    })
}

fn check<T>(rows: &[T], options: &WriterOptions) -> Result<(), TestCaseError>
where
    T: Serialize + ParquetSchema + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let write = |threads: usize| {
        to_vec_with(rows, options.clone().threads(threads))
            .map_err(|e| TestCaseError::fail(format!("write ({threads} threads): {e}")))
    };
    let bytes = write(1)?;
    // The same file whatever the threads (helper threads start once rows move to the
    // column writers, which the options with small row groups make happen).
    for threads in [2, 4] {
        prop_assert!(
            write(threads)? == bytes,
            "{} threads write another file",
            threads
        );
    }
    // The calling thread alone, and with decoding threads (the pipelined reader).
    for threads in [1, 3] {
        let read = ReadOptions::default().threads(threads);
        let back: Vec<T> = from_slice_with(&bytes, read)
            .map_err(|e| TestCaseError::fail(format!("read ({threads} threads): {e}")))?;
        prop_assert_eq!(back.len(), rows.len());
        for (i, (got, want)) in back.iter().zip(rows).enumerate() {
            prop_assert_eq!(got, want, "row {} ({} threads)", i, threads);
        }
    }
    // The row iterator, its row groups' columns decoded on two threads.
    let read = ReadOptions::default().threads(2);
    let iterated = parquet_serde::Reader::<_, T>::with_options(&bytes[..], read)
        .map_err(|e| TestCaseError::fail(format!("open: {e}")))?
        .collect::<Result<Vec<T>, _>>()
        .map_err(|e| TestCaseError::fail(format!("iterate (2 threads): {e}")))?;
    prop_assert_eq!(iterated.len(), rows.len());
    for (i, (got, want)) in iterated.iter().zip(rows).enumerate() {
        prop_assert_eq!(got, want, "row {} (iterator)", i);
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Properties

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn ints_round_trip(rows in prop::collection::vec(ints(), 0..40), (_k, o) in options()) {
        check(&rows, &o)?;
    }

    #[test]
    fn floats_round_trip(rows in prop::collection::vec(floats(), 0..40), (_k, o) in options()) {
        check(&rows, &o)?;
    }

    #[test]
    fn nested_round_trip(rows in prop::collection::vec(nested(), 0..30), (_k, o) in options()) {
        check(&rows, &o)?;
    }

    #[test]
    fn misc_round_trip(rows in prop::collection::vec(misc(), 0..30), (_k, o) in options()) {
        check(&rows, &o)?;
    }

    #[test]
    fn times_round_trip(rows in prop::collection::vec(times(), 0..30), (_k, o) in options()) {
        check(&rows, &o)?;
    }

    #[test]
    fn rows_round_trip(rows in prop::collection::vec(row(), 0..20), (_k, o) in options()) {
        check(&rows, &o)?;
    }

    #[test]
    fn options_at_top_level(
        rows in prop::collection::vec(prop::option::of(nested()), 0..20),
        (_k, o) in options(),
    ) {
        // A row that is not a struct: the schema wraps it in one field.
        check(&rows, &o)?;
    }

    /// The streaming writer with explicit row-group flushes reads back the same rows.
    #[test]
    fn streaming_writer_round_trip(
        rows in prop::collection::vec(row(), 0..20),
        flushes in prop::collection::vec(any::<bool>(), 20),
        (_k, o) in options(),
    ) {
        let write = |threads: usize| {
            let mut w = Writer::<_, Row>::new(Vec::new(), o.clone().threads(threads)).unwrap();
            for (row, flush) in rows.iter().zip(&flushes) {
                w.write(row).unwrap();
                if *flush {
                    w.flush_row_group().unwrap();
                }
            }
            w.into_inner().unwrap()
        };
        let bytes = write(1);
        prop_assert!(write(2) == bytes);
        prop_assert!(write(4) == bytes);
        let back: Vec<Row> = from_slice(&bytes).unwrap();
        prop_assert_eq!(back, rows);
    }
}
