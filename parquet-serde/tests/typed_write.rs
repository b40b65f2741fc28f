//! Typed writing: rows of derived types written with `to_vec` / `Writer` and read back with
//! the row reader as `Value`s (`Reader::from_file_reader`), value for value; every type of the type
//! table; errors naming the column and the row; streaming with bounded memory; column
//! options from field attributes.

#![allow(clippy::type_complexity)]
// `is_multiple_of` is newer than the crate's minimum Rust version.
#![allow(unknown_lints, clippy::manual_is_multiple_of)]

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::marker::PhantomData;
use std::num::{NonZeroU32, Wrapping};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use parquet_serde::core::file::{FileReader, StatisticsLevel};
use parquet_serde::core::page::PageType;
use parquet_serde::core::schema::typed::FieldAttrs;
use parquet_serde::core::schema::{LogicalType, PhysicalType as Type, TimeUnit};
use parquet_serde::core::schema::{Repetition, SchemaNode};
use parquet_serde::record::Value;
use parquet_serde::{Compression, ErrorKind, ParquetSchema, Writer, WriterOptions};
use serde::Serialize;

// ---------------------------------------------------------------------------------------------
// Helpers

fn read_back(bytes: Vec<u8>) -> Vec<Value> {
    let reader = FileReader::new(bytes).expect("our reader opens the file");
    parquet_serde::Reader::<_, Value>::from_file_reader(reader)
        .expect("our reader opens the rows")
        .collect::<Result<Vec<Value>, _>>()
        .expect("our reader reads the rows")
}

fn group(fields: Vec<(&str, Value)>) -> Value {
    Value::Group(
        fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

fn string(s: &str) -> Value {
    Value::String(s.to_string())
}

fn list(v: Vec<Value>) -> Value {
    Value::List(v)
}

fn ts(value: i64, unit: TimeUnit, utc: bool) -> Value {
    Value::Timestamp { value, unit, utc }
}

// ---------------------------------------------------------------------------------------------
// LogRecord

#[derive(Debug, Clone, Serialize, ParquetSchema)]
struct LogRecord {
    #[parquet(timestamp = "micros")]
    ts: i64,
    level: Level,
    target: String,
    message: String,
    user_id: Option<u64>,
    tags: Vec<String>,
    attrs: BTreeMap<String, String>,
    http: Option<Http>,
    spans: Vec<Span>,
}

#[derive(Debug, Clone, Copy, Serialize, ParquetSchema)]
#[serde(rename_all = "lowercase")]
enum Level {
    Debug,
    Info,
    Warn,
    Error,
}

#[derive(Debug, Clone, Serialize, ParquetSchema)]
struct Http {
    method: String,
    status: u16,
    latency_ms: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    route: Option<String>,
}

#[derive(Debug, Clone, Serialize, ParquetSchema)]
struct Span {
    name: String,
    dur_us: i64,
    parent: Option<u32>,
}

const LEVELS: [(Level, &str); 4] = [
    (Level::Debug, "debug"),
    (Level::Info, "info"),
    (Level::Warn, "warn"),
    (Level::Error, "error"),
];

fn log(i: usize) -> LogRecord {
    LogRecord {
        ts: 1_700_000_000_000_000 + i as i64 * 1_001,
        level: LEVELS[i % 4].0,
        target: format!("app::mod{}", i % 7),
        message: format!("request {i} handled {}", "é".repeat(i % 3)),
        user_id: (i % 5 != 0).then(|| {
            if i % 11 == 0 {
                u64::MAX - i as u64
            } else {
                i as u64 * 31
            }
        }),
        tags: (0..i % 4).map(|k| format!("t{}", (i + k) % 9)).collect(),
        attrs: (0..i % 3)
            .map(|k| (format!("k{k}"), format!("v{}", i * k)))
            .collect(),
        http: (i % 3 != 1).then(|| Http {
            method: ["GET", "POST"][i % 2].to_string(),
            status: [200, 404, 503][i % 3],
            latency_ms: i as f64 / 8.0,
            route: (i % 2 == 0).then(|| format!("/r/{i}")),
        }),
        spans: (0..i % 3)
            .map(|k| Span {
                name: format!("s{k}"),
                dur_us: (i * 100 + k) as i64,
                parent: (k > 0).then(|| k as u32 - 1),
            })
            .collect(),
    }
}

fn log_value(r: &LogRecord) -> Value {
    let level = LEVELS
        .iter()
        .find(|(l, _)| *l as u8 == r.level as u8)
        .unwrap()
        .1;
    group(vec![
        ("ts", ts(r.ts, TimeUnit::Micros, true)),
        ("level", string(level)),
        ("target", string(&r.target)),
        ("message", string(&r.message)),
        ("user_id", r.user_id.map_or(Value::Null, Value::UInt)),
        ("tags", list(r.tags.iter().map(|t| string(t)).collect())),
        (
            "attrs",
            Value::Map(
                r.attrs
                    .iter()
                    .map(|(k, v)| (string(k), string(v)))
                    .collect(),
            ),
        ),
        (
            "http",
            r.http.as_ref().map_or(Value::Null, |h| {
                group(vec![
                    ("method", string(&h.method)),
                    ("status", Value::UInt(h.status as u64)),
                    ("latency_ms", Value::Double(h.latency_ms)),
                    ("route", h.route.as_deref().map_or(Value::Null, string)),
                ])
            }),
        ),
        (
            "spans",
            list(
                r.spans
                    .iter()
                    .map(|s| {
                        group(vec![
                            ("name", string(&s.name)),
                            ("dur_us", Value::Int(s.dur_us)),
                            (
                                "parent",
                                s.parent.map_or(Value::Null, |p| Value::UInt(p as u64)),
                            ),
                        ])
                    })
                    .collect(),
            ),
        ),
    ])
}

#[test]
fn log_records_round_trip() {
    let rows: Vec<LogRecord> = (0..5_000).map(log).collect();
    let bytes = parquet_serde::to_vec(&rows).unwrap();
    let back = read_back(bytes);
    assert_eq!(back.len(), rows.len());
    for (i, (got, row)) in back.iter().zip(&rows).enumerate() {
        assert_eq!(got, &log_value(row), "row {i}");
    }
}

#[test]
fn log_records_with_every_codec_and_page_version() {
    let rows: Vec<LogRecord> = (0..700).map(log).collect();
    let want: Vec<Value> = rows.iter().map(log_value).collect();
    let codecs = [
        Compression::Uncompressed,
        Compression::Snappy,
        Compression::Gzip(6),
        Compression::Brotli(3),
        Compression::Zstd(1),
        Compression::Lz4Raw,
    ];
    for codec in codecs {
        for version in [
            parquet_serde::core::column::DataPageVersion::V1,
            parquet_serde::core::column::DataPageVersion::V2,
        ] {
            for dictionary in [true, false] {
                let options = WriterOptions::default()
                    .compression(codec)
                    .data_page_version(version)
                    .dictionary(dictionary)
                    .page_size(1024)
                    .row_group_rows(300);
                let bytes = parquet_serde::to_vec_with(&rows, options).unwrap();
                assert_eq!(
                    read_back(bytes),
                    want,
                    "{codec:?} {version:?} dictionary {dictionary}"
                );
            }
        }
    }
}

#[test]
fn log_record_schema_and_metadata() {
    let rows: Vec<LogRecord> = (0..10).map(log).collect();
    let options = WriterOptions::default().key_value_metadata("origin", "typed_write");
    let bytes = parquet_serde::to_vec_with(&rows, options).unwrap();
    let reader = FileReader::new(bytes).unwrap();
    let schema = reader.schema();
    assert_eq!(schema.name(), "LogRecord");
    let paths: Vec<String> = schema
        .columns()
        .iter()
        .map(|c| c.path.to_string())
        .collect();
    assert_eq!(
        paths,
        [
            "ts",
            "level",
            "target",
            "message",
            "user_id",
            "tags.list.element",
            "attrs.key_value.key",
            "attrs.key_value.value",
            "http.method",
            "http.status",
            "http.latency_ms",
            "http.route",
            "spans.list.element.name",
            "spans.list.element.dur_us",
            "spans.list.element.parent",
        ]
    );
    let md = reader.metadata();
    assert_eq!(md.num_rows(), 10);
    let kv: Vec<_> = md.key_values().collect();
    assert_eq!(kv[0], ("origin", Some("typed_write")));
}

// ---------------------------------------------------------------------------------------------
// Every type of the type table

#[derive(Serialize, ParquetSchema)]
struct UnitStruct;

#[derive(Serialize, ParquetSchema)]
struct Pair(i16, String);

#[derive(Serialize, ParquetSchema)]
struct Meters(f64);

#[derive(Serialize, ParquetSchema)]
enum Shape {
    Empty,
    Circle(f64),
    Rect(u32, u32),
    Poly { n: u8, closed: bool },
}

#[derive(Serialize, ParquetSchema)]
struct AllTypes {
    b: bool,
    i8_: i8,
    i16_: i16,
    i32_: i32,
    i64_: i64,
    isize_: isize,
    u8_: u8,
    u16_: u16,
    u32_: u32,
    u64_: u64,
    usize_: usize,
    i128_: i128,
    u128_: u128,
    f32_: f32,
    f64_: f64,
    nz: NonZeroU32,
    c: char,
    s: String,
    p: PathBuf,
    raw: Vec<u8>,
    #[parquet(bytes)]
    bytes: Vec<u8>,
    #[serde(with = "serde_bytes")]
    sb: Vec<u8>,
    fixed: [u8; 4],
    #[parquet(uuid)]
    id: [u8; 16],
    #[parquet(uuid)]
    id_u128: u128,
    #[parquet(uuid)]
    id_text: String,
    opt: Option<i32>,
    boxed: Box<i32>,
    cow: Cow<'static, str>,
    cell: Cell<i8>,
    refcell: RefCell<u32>,
    mutex: Mutex<bool>,
    wrapping: Wrapping<u64>,
    reverse: Reverse<i64>,
    vd: VecDeque<i32>,
    ll: LinkedList<u8>,
    heap: BinaryHeap<i32>,
    bset: BTreeSet<String>,
    hset: HashSet<u32>,
    arr: [i32; 3],
    opt_list: Option<Vec<Option<i64>>>,
    bmap: BTreeMap<u8, Option<String>>,
    hmap: HashMap<String, Vec<i32>>,
    tuple: (u8, String, Option<bool>),
    unit: (),
    phantom: PhantomData<u8>,
    unit_struct: UnitStruct,
    opt_unit: Option<()>,
    at: SystemTime,
    took: Duration,
    pair: Pair,
    meters: Meters,
    level: Level,
    shapes: Vec<Shape>,
    shape: Option<Shape>,
    #[parquet(decimal(precision = 9, scale = 2))]
    d32: i32,
    #[parquet(decimal(precision = 18, scale = 4))]
    d64: i64,
    #[parquet(decimal(precision = 30, scale = 0))]
    d128: i128,
    #[parquet(decimal(precision = 10, scale = 3))]
    dtext: String,
    #[parquet(timestamp = "millis")]
    ts_ms: i64,
    #[parquet(timestamp = "nanos", utc = false)]
    ts_ns: i64,
    #[parquet(date)]
    date: i32,
    #[parquet(time = "millis")]
    t_ms: i32,
    #[parquet(time = "micros")]
    t_us: i64,
    #[parquet(json)]
    json: String,
    #[parquet(timestamp = "millis")]
    st_ms: SystemTime,
}

const UUID: [u8; 16] = [
    0x67, 0xe5, 0x50, 0x44, 0x10, 0xb1, 0x42, 0x6f, 0x92, 0x47, 0xbb, 0x68, 0x0e, 0x5f, 0xe0, 0xc8,
];

fn all_types(first: bool) -> AllTypes {
    AllTypes {
        b: first,
        i8_: if first { -8 } else { i8::MAX },
        i16_: -1600,
        i32_: if first { i32::MIN } else { 320_000 },
        i64_: if first { i64::MIN } else { i64::MAX },
        isize_: -5,
        u8_: 255,
        u16_: 65_535,
        u32_: u32::MAX,
        u64_: if first { u64::MAX } else { 0 },
        usize_: 7,
        i128_: if first {
            -12_345_678_901_234_567_890_123_456_789_012_345_678
        } else {
            1
        },
        u128_: 10u128.pow(37),
        f32_: 1.5,
        f64_: -2.25,
        nz: NonZeroU32::new(5).unwrap(),
        c: 'é',
        s: "hello".into(),
        p: PathBuf::from("/tmp/x"),
        raw: if first { vec![1, 2] } else { vec![] },
        bytes: vec![0, 255],
        sb: vec![9],
        fixed: [1, 2, 3, 4],
        id: UUID,
        id_u128: u128::from_be_bytes(UUID),
        id_text: "67e55044-10b1-426f-9247-bb680e5fe0c8".into(),
        opt: first.then_some(3),
        boxed: Box::new(4),
        cow: Cow::Borrowed("cow"),
        cell: Cell::new(-1),
        refcell: RefCell::new(9),
        mutex: Mutex::new(true),
        wrapping: Wrapping(11),
        reverse: Reverse(-12),
        vd: [1, 2].into(),
        ll: [3].into(),
        heap: [5].into(),
        bset: ["a".to_string(), "b".to_string()].into(),
        hset: [7].into(),
        arr: [1, 2, 3],
        opt_list: if first {
            Some(vec![Some(1), None])
        } else {
            None
        },
        bmap: if first {
            [(1, Some("x".to_string())), (2, None)].into()
        } else {
            BTreeMap::new()
        },
        hmap: [("k".to_string(), vec![1])].into(),
        tuple: (1, "t".into(), if first { None } else { Some(false) }),
        unit: (),
        phantom: PhantomData,
        unit_struct: UnitStruct,
        opt_unit: first.then_some(()),
        at: UNIX_EPOCH + Duration::from_millis(1_500),
        took: Duration::new(2, 5),
        pair: Pair(-3, "p".into()),
        meters: Meters(2.5),
        level: Level::Warn,
        shapes: if first {
            vec![
                Shape::Empty,
                Shape::Circle(1.0),
                Shape::Rect(2, 3),
                Shape::Poly { n: 5, closed: true },
            ]
        } else {
            vec![]
        },
        shape: if first { None } else { Some(Shape::Rect(0, 1)) },
        d32: 12_345,
        d64: -98_765,
        d128: 10i128.pow(29),
        dtext: "-1234.5".into(),
        ts_ms: 1_700_000_000_123,
        ts_ns: 5,
        date: 19_782,
        t_ms: 45_296_789,
        t_us: 1,
        json: r#"{"a":1}"#.into(),
        st_ms: UNIX_EPOCH + Duration::from_micros(1_500_999),
    }
}

fn shape_value(
    empty: bool,
    circle: Option<f64>,
    rect: Option<(u32, u32)>,
    poly: Option<(u8, bool)>,
) -> Value {
    group(vec![
        (
            "Empty",
            if empty {
                Value::Bool(true)
            } else {
                Value::Null
            },
        ),
        ("Circle", circle.map_or(Value::Null, Value::Double)),
        (
            "Rect",
            rect.map_or(Value::Null, |(a, b)| {
                group(vec![
                    ("_0", Value::UInt(a as u64)),
                    ("_1", Value::UInt(b as u64)),
                ])
            }),
        ),
        (
            "Poly",
            poly.map_or(Value::Null, |(n, c)| {
                group(vec![
                    ("n", Value::UInt(n as u64)),
                    ("closed", Value::Bool(c)),
                ])
            }),
        ),
    ])
}

fn all_types_value(first: bool) -> Value {
    let dec = |unscaled: Vec<u8>, scale| Value::Decimal { unscaled, scale };
    group(vec![
        ("b", Value::Bool(first)),
        ("i8_", Value::Int(if first { -8 } else { 127 })),
        ("i16_", Value::Int(-1600)),
        (
            "i32_",
            Value::Int(if first { i32::MIN as i64 } else { 320_000 }),
        ),
        ("i64_", Value::Int(if first { i64::MIN } else { i64::MAX })),
        ("isize_", Value::Int(-5)),
        ("u8_", Value::UInt(255)),
        ("u16_", Value::UInt(65_535)),
        ("u32_", Value::UInt(u32::MAX as u64)),
        ("u64_", Value::UInt(if first { u64::MAX } else { 0 })),
        ("usize_", Value::UInt(7)),
        (
            "i128_",
            dec(
                (if first {
                    -12_345_678_901_234_567_890_123_456_789_012_345_678i128
                } else {
                    1
                })
                .to_be_bytes()
                .to_vec(),
                0,
            ),
        ),
        ("u128_", dec(10i128.pow(37).to_be_bytes().to_vec(), 0)),
        ("f32_", Value::Float(1.5)),
        ("f64_", Value::Double(-2.25)),
        ("nz", Value::UInt(5)),
        ("c", string("é")),
        ("s", string("hello")),
        ("p", string("/tmp/x")),
        (
            "raw",
            list(if first {
                vec![Value::UInt(1), Value::UInt(2)]
            } else {
                vec![]
            }),
        ),
        ("bytes", Value::Bytes(vec![0, 255])),
        ("sb", Value::Bytes(vec![9])),
        ("fixed", Value::Bytes(vec![1, 2, 3, 4])),
        ("id", Value::Uuid(UUID)),
        ("id_u128", Value::Uuid(UUID)),
        ("id_text", Value::Uuid(UUID)),
        ("opt", if first { Value::Int(3) } else { Value::Null }),
        ("boxed", Value::Int(4)),
        ("cow", string("cow")),
        ("cell", Value::Int(-1)),
        ("refcell", Value::UInt(9)),
        ("mutex", Value::Bool(true)),
        ("wrapping", Value::UInt(11)),
        ("reverse", Value::Int(-12)),
        ("vd", list(vec![Value::Int(1), Value::Int(2)])),
        ("ll", list(vec![Value::UInt(3)])),
        ("heap", list(vec![Value::Int(5)])),
        ("bset", list(vec![string("a"), string("b")])),
        ("hset", list(vec![Value::UInt(7)])),
        (
            "arr",
            list(vec![Value::Int(1), Value::Int(2), Value::Int(3)]),
        ),
        (
            "opt_list",
            if first {
                list(vec![Value::Int(1), Value::Null])
            } else {
                Value::Null
            },
        ),
        (
            "bmap",
            Value::Map(if first {
                vec![(Value::UInt(1), string("x")), (Value::UInt(2), Value::Null)]
            } else {
                vec![]
            }),
        ),
        (
            "hmap",
            Value::Map(vec![(string("k"), list(vec![Value::Int(1)]))]),
        ),
        (
            "tuple",
            group(vec![
                ("_0", Value::UInt(1)),
                ("_1", string("t")),
                (
                    "_2",
                    if first {
                        Value::Null
                    } else {
                        Value::Bool(false)
                    },
                ),
            ]),
        ),
        ("unit", Value::Bool(true)),
        ("phantom", Value::Bool(true)),
        ("unit_struct", Value::Bool(true)),
        (
            "opt_unit",
            if first {
                Value::Bool(true)
            } else {
                Value::Null
            },
        ),
        ("at", ts(1_500_000, TimeUnit::Micros, true)),
        (
            "took",
            group(vec![("secs", Value::UInt(2)), ("nanos", Value::UInt(5))]),
        ),
        (
            "pair",
            group(vec![("_0", Value::Int(-3)), ("_1", string("p"))]),
        ),
        ("meters", Value::Double(2.5)),
        ("level", string("warn")),
        (
            "shapes",
            list(if first {
                vec![
                    shape_value(true, None, None, None),
                    shape_value(false, Some(1.0), None, None),
                    shape_value(false, None, Some((2, 3)), None),
                    shape_value(false, None, None, Some((5, true))),
                ]
            } else {
                vec![]
            }),
        ),
        (
            "shape",
            if first {
                Value::Null
            } else {
                shape_value(false, None, Some((0, 1)), None)
            },
        ),
        ("d32", dec(12_345i32.to_be_bytes().to_vec(), 2)),
        ("d64", dec((-98_765i64).to_be_bytes().to_vec(), 4)),
        ("d128", dec(10i128.pow(29).to_be_bytes()[3..].to_vec(), 0)),
        ("dtext", dec((-1_234_500i64).to_be_bytes()[3..].to_vec(), 3)),
        ("ts_ms", ts(1_700_000_000_123, TimeUnit::Millis, true)),
        ("ts_ns", ts(5, TimeUnit::Nanos, false)),
        ("date", Value::Date(19_782)),
        (
            "t_ms",
            Value::Time {
                value: 45_296_789,
                unit: TimeUnit::Millis,
            },
        ),
        (
            "t_us",
            Value::Time {
                value: 1,
                unit: TimeUnit::Micros,
            },
        ),
        ("json", string(r#"{"a":1}"#)),
        ("st_ms", ts(1_500, TimeUnit::Millis, true)),
    ])
}

#[test]
fn every_type_round_trips() {
    let rows = [all_types(true), all_types(false)];
    let back = read_back(parquet_serde::to_vec(&rows).unwrap());
    let want = [all_types_value(true), all_types_value(false)];
    for (got, want) in back.iter().zip(&want) {
        let (Value::Group(g), Value::Group(w)) = (got, want) else {
            panic!("rows are groups")
        };
        assert_eq!(g.len(), w.len());
        for (g, w) in g.iter().zip(w) {
            assert_eq!(g, w, "field {}", w.0);
        }
    }
    assert_eq!(back.len(), 2);
}

/// Row types that are not structs are the single field `value` of the message.
#[test]
fn non_struct_rows() {
    let back = read_back(parquet_serde::to_vec(&[Some(1u32), None]).unwrap());
    assert_eq!(
        back,
        [
            group(vec![("value", Value::UInt(1))]),
            group(vec![("value", Value::Null)])
        ]
    );
    let back = read_back(parquet_serde::to_vec(&[vec!["a".to_string()], vec![]]).unwrap());
    assert_eq!(
        back,
        [
            group(vec![("value", list(vec![string("a")]))]),
            group(vec![("value", list(vec![]))])
        ]
    );
    let back = read_back(parquet_serde::to_vec(&[(1i8, 'x')]).unwrap());
    assert_eq!(
        back,
        [group(vec![("_0", Value::Int(1)), ("_1", string("x"))])]
    );
    let back = read_back(parquet_serde::to_vec(&[Shape::Circle(0.5)]).unwrap());
    assert_eq!(back, [shape_value(false, Some(0.5), None, None)]);
    let back = read_back(parquet_serde::to_vec::<LogRecord>(&[]).unwrap());
    assert!(back.is_empty());
}

/// A struct with a flattened field arrives as a map keyed by field name.
#[derive(Serialize, ParquetSchema)]
struct Envelope {
    id: u32,
    #[serde(flatten)]
    meta: Meta,
    tail: Option<String>,
}

#[derive(Serialize, ParquetSchema)]
struct Meta {
    #[serde(rename = "source-name")]
    source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    host: Option<String>,
}

#[test]
fn flattened_structs() {
    let rows = [
        Envelope {
            id: 1,
            meta: Meta {
                source: "a".into(),
                host: None,
            },
            tail: Some("t".into()),
        },
        Envelope {
            id: 2,
            meta: Meta {
                source: "b".into(),
                host: Some("h".into()),
            },
            tail: None,
        },
    ];
    let back = read_back(parquet_serde::to_vec(&rows).unwrap());
    assert_eq!(
        back,
        [
            group(vec![
                ("id", Value::UInt(1)),
                ("source-name", string("a")),
                ("host", Value::Null),
                ("tail", string("t"))
            ]),
            group(vec![
                ("id", Value::UInt(2)),
                ("source-name", string("b")),
                ("host", string("h")),
                ("tail", Value::Null)
            ]),
        ]
    );
}

/// A hand-written `Serialize` that writes fields out of order, skips an optional one and
/// the struct is still shredded right.
struct OutOfOrder(u8);

impl Serialize for OutOfOrder {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("OutOfOrder", 2)?;
        st.serialize_field("c", &format!("c{}", self.0))?;
        st.serialize_field("a", &self.0)?;
        st.end()
    }
}

impl ParquetSchema for OutOfOrder {
    fn parquet_node(name: &str, _: &FieldAttrs) -> SchemaNode {
        SchemaNode::group(
            name,
            Repetition::Required,
            vec![
                u8::parquet_node("a", &FieldAttrs::new()),
                <Option<i32>>::parquet_node("b", &FieldAttrs::new()),
                String::parquet_node("c", &FieldAttrs::new()),
            ],
        )
    }
}

#[test]
fn fields_out_of_order() {
    let back = read_back(parquet_serde::to_vec(&[OutOfOrder(1), OutOfOrder(2)]).unwrap());
    assert_eq!(
        back,
        [
            group(vec![
                ("a", Value::UInt(1)),
                ("b", Value::Null),
                ("c", string("c1"))
            ]),
            group(vec![
                ("a", Value::UInt(2)),
                ("b", Value::Null),
                ("c", string("c2"))
            ]),
        ]
    );
}

// Text forms of TIMESTAMP, DATE and TIME leaves (what chrono writes), through types with
// hand-written schemas.

macro_rules! text_type {
    ($name:ident, $physical:expr, $logical:expr) => {
        #[derive(Serialize)]
        struct $name(&'static str);
        impl ParquetSchema for $name {
            fn parquet_node(name: &str, _: &FieldAttrs) -> SchemaNode {
                SchemaNode::primitive(name, Repetition::Required, $physical)
                    .with_logical_type($logical)
            }
        }
    };
}

text_type!(
    IsoInstant,
    Type::Int64,
    LogicalType::Timestamp {
        is_adjusted_to_utc: true,
        unit: TimeUnit::Micros
    }
);
text_type!(
    IsoLocalMillis,
    Type::Int64,
    LogicalType::Timestamp {
        is_adjusted_to_utc: false,
        unit: TimeUnit::Millis
    }
);
text_type!(IsoDate, Type::Int32, LogicalType::Date);
text_type!(
    IsoTimeNanos,
    Type::Int64,
    LogicalType::Time {
        is_adjusted_to_utc: false,
        unit: TimeUnit::Nanos
    }
);

#[derive(Serialize, ParquetSchema)]
struct Texts {
    instant: IsoInstant,
    local: IsoLocalMillis,
    date: IsoDate,
    time: IsoTimeNanos,
}

#[test]
fn date_and_time_text() {
    let rows = [Texts {
        instant: IsoInstant("2023-11-14T23:13:20.000001+01:00"),
        local: IsoLocalMillis("1969-12-31T23:59:59.9995"),
        date: IsoDate("2024-02-29"),
        time: IsoTimeNanos("12:34:56.789012345"),
    }];
    let back = read_back(parquet_serde::to_vec(&rows).unwrap());
    assert_eq!(
        back,
        [group(vec![
            ("instant", ts(1_700_000_000_000_001, TimeUnit::Micros, true)),
            ("local", ts(-1, TimeUnit::Millis, false)),
            ("date", Value::Date(19_782)),
            (
                "time",
                Value::Time {
                    value: 45_296_789_012_345,
                    unit: TimeUnit::Nanos
                }
            ),
        ])]
    );
    let bad = [Texts {
        date: IsoDate("2023-02-29"),
        ..rows[0].clone_texts()
    }];
    let e = parquet_serde::to_vec(&bad).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Data);
    assert!(
        e.to_string().contains("2023-02-29") && e.to_string().contains("column date"),
        "{e}"
    );
}

impl Texts {
    fn clone_texts(&self) -> Texts {
        Texts {
            instant: IsoInstant(self.instant.0),
            local: IsoLocalMillis(self.local.0),
            date: IsoDate(self.date.0),
            time: IsoTimeNanos(self.time.0),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Errors

#[derive(Serialize, ParquetSchema)]
struct NullInRequired {
    id: u32,
    #[parquet(as_type = "String")]
    name: Option<String>,
}

#[derive(Serialize, ParquetSchema)]
struct NullKey {
    #[parquet(as_type = "BTreeMap<String, i32>")]
    m: BTreeMap<Option<String>, i32>,
}

#[derive(Serialize, ParquetSchema)]
struct SeqForStruct {
    #[parquet(as_type = "Meters")]
    v: Vec<f64>,
}

#[derive(Serialize, ParquetSchema)]
struct WrongType {
    #[parquet(as_type = "i64")]
    s: String,
}

#[derive(Serialize, ParquetSchema)]
struct Ranges {
    #[parquet(as_type = "u8")]
    small: i32,
    #[parquet(as_type = "u32")]
    unsigned: i64,
    #[parquet(decimal(precision = 4, scale = 2))]
    dec: i32,
    wide: i128,
}

fn data_error<T: Serialize + ParquetSchema>(rows: &[T]) -> parquet_serde::Error {
    let e = parquet_serde::to_vec(rows).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Data, "{e}");
    e
}

#[test]
fn null_in_required_field() {
    let rows = [
        NullInRequired {
            id: 1,
            name: Some("a".into()),
        },
        NullInRequired {
            id: 2,
            name: Some("b".into()),
        },
        NullInRequired { id: 3, name: None },
    ];
    let e = data_error(&rows);
    assert_eq!(e.location().column.as_deref(), Some("name"));
    assert_eq!(e.location().row, Some(2));
    assert!(e.to_string().contains("required"), "{e}");
}

#[test]
fn null_map_key() {
    let e = data_error(&[NullKey {
        m: [(Some("k".to_string()), 1), (None, 2)]
            .into_iter()
            .collect(),
    }]);
    assert_eq!(e.location().column.as_deref(), Some("m.key_value.key"));
    assert_eq!(e.location().row, Some(0));
    assert!(
        e.to_string().contains("map key, which cannot be null"),
        "{e}"
    );
}

#[test]
fn sequence_where_a_struct_is_expected() {
    // Meters is a newtype: its node is the DOUBLE leaf; use a real struct too.
    let e = data_error(&[SeqForStruct { v: vec![1.0] }]);
    assert_eq!(e.location().column.as_deref(), Some("v"));
    assert!(e.to_string().contains("sequence"), "{e}");

    #[derive(Serialize, ParquetSchema)]
    struct VecForStruct {
        #[parquet(as_type = "Http")]
        v: Vec<u8>,
    }
    let e = data_error(&[VecForStruct { v: vec![1] }]);
    assert!(
        e.to_string()
            .contains("found a sequence where a struct is expected"),
        "{e}"
    );
    assert_eq!(e.location().column.as_deref(), Some("v"));
}

#[test]
fn wrong_types_and_ranges() {
    let e = data_error(&[WrongType { s: "x".into() }]);
    assert!(
        e.to_string()
            .contains("found a string where an integer is expected"),
        "{e}"
    );
    assert_eq!(e.location().column.as_deref(), Some("s"));

    let ok = Ranges {
        small: 255,
        unsigned: u32::MAX as i64,
        dec: -9999,
        wide: 10i128.pow(38) - 1,
    };
    parquet_serde::to_vec(&[ok]).unwrap();
    let cases: [(Ranges, &str); 5] = [
        (
            Ranges {
                small: 256,
                unsigned: 0,
                dec: 0,
                wide: 0,
            },
            "small",
        ),
        (
            Ranges {
                small: -1,
                unsigned: 0,
                dec: 0,
                wide: 0,
            },
            "small",
        ),
        (
            Ranges {
                small: 0,
                unsigned: -1,
                dec: 0,
                wide: 0,
            },
            "unsigned",
        ),
        (
            Ranges {
                small: 0,
                unsigned: 0,
                dec: 10_000,
                wide: 0,
            },
            "dec",
        ),
        (
            Ranges {
                small: 0,
                unsigned: 0,
                dec: 0,
                wide: -(10i128.pow(38)),
            },
            "wide",
        ),
    ];
    for (row, column) in cases {
        let e = data_error(&[row]);
        assert_eq!(e.location().column.as_deref(), Some(column), "{e}");
    }
}

#[test]
fn custom_serialize_errors_are_data_errors_with_the_column() {
    struct Fails;
    impl Serialize for Fails {
        fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("no way"))
        }
    }
    impl ParquetSchema for Fails {
        fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
            i32::parquet_node(name, attrs)
        }
    }
    #[derive(Serialize, ParquetSchema)]
    struct Row {
        inner: Vec<Fails>,
    }
    let e = data_error(&[Row { inner: vec![Fails] }]);
    assert_eq!(e.message(), "no way");
    assert_eq!(e.location().column.as_deref(), Some("inner.list.element"));
    // SystemTime before the epoch fails in serde itself.
    #[derive(Serialize, ParquetSchema)]
    struct Before {
        at: SystemTime,
    }
    let e = data_error(&[Before {
        at: UNIX_EPOCH - Duration::from_secs(1),
    }]);
    assert_eq!(e.location().column.as_deref(), Some("at"));
}

#[test]
fn failed_row_is_rolled_back_in_the_writer() {
    let mut writer = Writer::new(Vec::new(), WriterOptions::default().row_group_rows(3)).unwrap();
    let mut kept = Vec::new();
    for i in 0..10u32 {
        let row = NullInRequired {
            id: i,
            name: (i % 4 != 3).then(|| format!("n{i}")),
        };
        match writer.write(&row) {
            Ok(()) => kept.push(i),
            Err(e) => {
                assert_eq!(e.kind(), ErrorKind::Data);
                assert_eq!(e.location().row, Some(kept.len() as u64));
            }
        }
    }
    assert_eq!(kept, [0, 1, 2, 4, 5, 6, 8, 9]);
    assert_eq!(writer.num_rows(), 8);
    let back = read_back(writer.into_inner().unwrap());
    let want: Vec<Value> = kept
        .iter()
        .map(|&i| {
            group(vec![
                ("id", Value::UInt(i as u64)),
                ("name", string(&format!("n{i}"))),
            ])
        })
        .collect();
    assert_eq!(back, want);
}

/// A failure deep inside nested lists leaves no trace either.
#[test]
fn nested_failure_is_rolled_back() {
    #[derive(Serialize, ParquetSchema)]
    struct Inner {
        a: Vec<i32>,
        #[parquet(as_type = "Vec<u8>")]
        b: Vec<i32>,
    }
    #[derive(Serialize, ParquetSchema)]
    struct Outer {
        x: Vec<Inner>,
        y: String,
    }
    let good = |i: i32| Outer {
        x: vec![
            Inner {
                a: vec![i, i],
                b: vec![1],
            },
            Inner {
                a: vec![],
                b: vec![],
            },
        ],
        y: i.to_string(),
    };
    let mut writer = Writer::new(Vec::new(), WriterOptions::default()).unwrap();
    writer.write(&good(1)).unwrap();
    let bad = Outer {
        x: vec![Inner {
            a: vec![7; 5],
            b: vec![2, 300],
        }],
        y: "bad".into(),
    };
    let e = writer.write(&bad).unwrap_err();
    assert_eq!(
        e.location().column.as_deref(),
        Some("x.list.element.b.list.element")
    );
    writer.write(&good(2)).unwrap();
    let back = read_back(writer.into_inner().unwrap());
    let row = |i: i64| {
        group(vec![
            (
                "x",
                list(vec![
                    group(vec![
                        ("a", list(vec![Value::Int(i), Value::Int(i)])),
                        ("b", list(vec![Value::UInt(1)])),
                    ]),
                    group(vec![("a", list(vec![])), ("b", list(vec![]))]),
                ]),
            ),
            ("y", string(&i.to_string())),
        ])
    };
    assert_eq!(back, [row(1), row(2)]);
}

#[test]
fn to_path_is_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.parquet");
    let rows: Vec<LogRecord> = (0..100).map(log).collect();
    parquet_serde::to_path(&path, &rows).unwrap();
    let good = std::fs::read(&path).unwrap();
    assert_eq!(read_back(good.clone()).len(), 100);
    // A failing write leaves the previous file as it was, and no temporary file.
    let bad = [NullInRequired { id: 1, name: None }];
    let e = parquet_serde::to_path(&path, &bad).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Data);
    assert_eq!(std::fs::read(&path).unwrap(), good);
    let fresh = dir.path().join("fresh.parquet");
    parquet_serde::to_path(&fresh, &bad).unwrap_err();
    assert!(!fresh.exists());
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["out.parquet"]);
    // A writer dropped before close leaves nothing either.
    let mut w = Writer::from_path(&fresh, WriterOptions::default()).unwrap();
    w.write(&log(1)).unwrap();
    drop(w);
    assert!(!fresh.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    // to_writer returns the sink.
    let sink = parquet_serde::to_writer(Vec::new(), &rows).unwrap();
    assert_eq!(read_back(sink).len(), 100);
    // A directory that does not exist is an I/O error.
    let e = parquet_serde::to_path(dir.path().join("missing/x.parquet"), &rows).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Io);
}

// ---------------------------------------------------------------------------------------------
// Streaming

#[test]
fn streaming_writer_cuts_row_groups_and_bounds_memory() {
    // Dictionary-then-PLAIN: with auto encoding these regular rows compress far below one
    // row group's buffers, and the file would no longer be the yardstick for memory.
    let options = WriterOptions::default()
        .auto_encoding(false)
        .row_group_rows(25_000);
    let mut writer = Writer::new(Vec::new(), options).unwrap();
    // Peak buffered bytes over the first and the second half of the rows.
    let mut peaks = [0usize; 2];
    for i in 0..200_000 {
        writer.write(&log(i)).unwrap();
        if i % 997 == 0 {
            peaks[i / 100_000] = peaks[i / 100_000].max(writer.buffered_bytes());
        }
    }
    let peak = peaks[0].max(peaks[1]);
    // The 200,000th row fills the eighth group, which is cut at once.
    assert_eq!(writer.num_row_groups(), 8);
    let written = writer.bytes_written();
    let bytes = writer.into_inner().unwrap();
    let reader = FileReader::new(bytes.clone()).unwrap();
    assert_eq!(reader.num_row_groups(), 8);
    for rg in reader.metadata().row_groups() {
        assert_eq!(rg.num_rows(), 25_000);
    }
    // Memory does not grow with the rows written: it stays within one row group's
    // buffers, well below the file.
    assert!(peaks[1] <= peaks[0] + peaks[0] / 4, "peaks {peaks:?}");
    assert!(written > 2 * peak as u64, "peak {peak} written {written}");
    assert!(peak < 4 << 20, "peak {peak}");
    println!("peak buffered {peak} bytes, file {written} bytes");
    let back = read_back(bytes);
    assert_eq!(back.len(), 200_000);
    for i in [0, 1, 24_999, 25_000, 123_456, 199_999] {
        assert_eq!(back[i], log_value(&log(i)), "row {i}");
    }
}

#[test]
fn row_group_size_in_bytes() {
    let options = WriterOptions::default()
        .row_group_size(256 << 10)
        .compression(Compression::Uncompressed);
    let mut writer = Writer::new(Vec::new(), options).unwrap();
    let mut peak = 0;
    for i in 0..60_000 {
        writer.write(&log(i)).unwrap();
        peak = peak.max(writer.buffered_bytes());
    }
    writer.flush_row_group().unwrap();
    writer.flush_row_group().unwrap();
    let groups = writer.num_row_groups();
    assert!(groups > 3, "{groups} row groups");
    assert!(peak < 1 << 20, "peak {peak}");
    let (_, metadata) = writer.close().unwrap();
    assert_eq!(metadata.num_row_groups(), groups);
    assert_eq!(metadata.num_rows(), 60_000);
}

// ---------------------------------------------------------------------------------------------
// Column options

#[derive(Serialize, ParquetSchema)]
struct WithOptions {
    #[parquet(compression = "zstd(5)", dictionary = false)]
    a: String,
    #[parquet(dictionary = false)]
    b: Vec<String>,
    #[parquet(encoding = "plain")]
    c: String,
    d: String,
}

/// (path, codec name as parquet.thrift spells it, has a dictionary page) of each chunk.
fn chunk_facts(bytes: Vec<u8>) -> Vec<(String, String, bool)> {
    let reader = FileReader::new(bytes).unwrap();
    let rg = reader.metadata().row_group(0).unwrap();
    rg.columns()
        .map(|md| {
            let dict = md
                .encoding_stats()
                .unwrap()
                .iter()
                .any(|s| s.0 == PageType::DictionaryPage);
            (md.path().to_string(), md.codec_name().unwrap(), dict)
        })
        .collect()
}

#[test]
fn column_options_from_attributes() {
    let rows: Vec<WithOptions> = (0..50)
        .map(|i| WithOptions {
            a: "x".repeat(i % 3),
            b: vec!["y".into()],
            c: "z".into(),
            d: "w".into(),
        })
        .collect();
    let facts = chunk_facts(parquet_serde::to_vec(&rows).unwrap());
    assert_eq!(
        facts,
        [
            ("a".to_string(), "ZSTD".to_string(), false),
            ("b.list.element".to_string(), "SNAPPY".to_string(), false),
            // An explicit encoding turns the dictionary off for its column.
            ("c".to_string(), "SNAPPY".to_string(), false),
            ("d".to_string(), "SNAPPY".to_string(), true),
        ]
    );
    // WriterOptions win where they set the same column.
    let options = WriterOptions::default()
        .column_compression("a", Compression::Gzip(1))
        .column_dictionary("b.list.element", true)
        .column_statistics("d", StatisticsLevel::None);
    let bytes = parquet_serde::to_vec_with(&rows, options).unwrap();
    let facts = chunk_facts(bytes.clone());
    assert_eq!(facts[0], ("a".to_string(), "GZIP".to_string(), false));
    assert_eq!(
        facts[1],
        ("b.list.element".to_string(), "SNAPPY".to_string(), true)
    );
    let reader = FileReader::new(bytes).unwrap();
    let rg = reader.metadata().row_group(0).unwrap();
    let cols: Vec<_> = rg.columns().collect();
    assert!(cols[3].has_metadata() && cols[2].has_metadata());
    assert!(cols[3].raw_statistics().is_none());
    assert!(cols[2].raw_statistics().is_some());
}

#[test]
fn encodings_from_attributes_and_misfits() {
    #[derive(Serialize, serde::Deserialize, ParquetSchema, Debug, PartialEq)]
    struct Delta {
        #[parquet(encoding = "delta_binary_packed")]
        x: i64,
        #[parquet(encoding = "byte_stream_split")]
        y: f64,
    }
    let rows: Vec<Delta> = (0..1000)
        .map(|i| Delta {
            x: i * 3,
            y: i as f64 / 7.0,
        })
        .collect();
    let bytes = parquet_serde::to_vec(&rows).unwrap();
    let reader = FileReader::new(bytes.clone()).unwrap();
    let rg = reader.metadata().row_group(0).unwrap();
    let encodings = |i: usize| {
        let c = rg.column(i).unwrap();
        assert!(c.has_metadata());
        c.encodings().to_vec()
    };
    assert!(encodings(0).contains(&parquet_serde::core::column::Encoding::DeltaBinaryPacked));
    assert!(encodings(1).contains(&parquet_serde::core::column::Encoding::ByteStreamSplit));
    assert_eq!(parquet_serde::from_slice::<Delta>(&bytes).unwrap(), rows);

    // An encoding that does not fit the column's type is refused up front, naming it.
    let options = WriterOptions::default().column_encoding(
        "a",
        parquet_serde::core::column::Encoding::DeltaBinaryPacked,
    );
    let e = parquet_serde::to_vec_with::<WithOptions>(&[], options).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument);
    assert_eq!(e.location().column.as_deref(), Some("a"));
    assert!(
        e.to_string()
            .contains("does not fit physical type BYTE_ARRAY"),
        "{e}"
    );
}

// ---------------------------------------------------------------------------------------------
// Rollback, randomized: a writer fed good and bad rows writes the same bytes as one fed only
// the good rows.

#[derive(Debug, Clone, Serialize, ParquetSchema)]
struct Random {
    id: i64,
    #[parquet(as_type = "Vec<Option<Vec<u8>>>")]
    grid: Vec<Option<Vec<i32>>>,
    attrs: BTreeMap<String, Option<Vec<String>>>,
    inner: Option<RandomInner>,
    #[parquet(as_type = "u8")]
    last: i32,
}

#[derive(Debug, Clone, Serialize, ParquetSchema)]
struct RandomInner {
    name: String,
    #[parquet(as_type = "Option<u8>")]
    small: Option<i32>,
}

fn random_row() -> impl proptest::strategy::Strategy<Value = Random> {
    use proptest::prelude::*;
    // Values up to 300 in u8 columns: some rows fail, at different leaves.
    let small = 0i32..300;
    (
        any::<i64>(),
        proptest::collection::vec(
            proptest::option::of(proptest::collection::vec(small.clone(), 0..4)),
            0..4,
        ),
        proptest::collection::btree_map(
            "[a-c]{1,2}",
            proptest::option::of(proptest::collection::vec("[x-z]{0,3}", 0..3)),
            0..3,
        ),
        proptest::option::of(("[a-z]{0,5}", proptest::option::of(small.clone()))),
        small,
    )
        .prop_map(|(id, grid, attrs, inner, last)| Random {
            id,
            grid,
            attrs,
            inner: inner.map(|(name, small)| RandomInner { name, small }),
            last,
        })
}

fn fits(r: &Random) -> bool {
    let ok = |v: i32| v <= 255;
    r.grid.iter().flatten().flatten().all(|&v| ok(v))
        && !matches!(r.inner.as_ref().and_then(|i| i.small), Some(v) if !ok(v))
        && ok(r.last)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    #[test]
    fn failed_rows_leave_no_trace(rows in proptest::collection::vec(random_row(), 0..40), group in 1usize..10) {
        let options = WriterOptions::default().row_group_rows(group).page_size(64);
        let mut writer = Writer::new(Vec::new(), options.clone()).unwrap();
        let mut good = Vec::new();
        for row in &rows {
            let result = writer.write(row);
            proptest::prop_assert_eq!(result.is_ok(), fits(row), "{:?}", result);
            if fits(row) {
                good.push(row.clone());
            }
        }
        let streamed = writer.into_inner().unwrap();
        let direct = parquet_serde::to_vec_with(&good, options).unwrap();
        proptest::prop_assert!(streamed == direct);
        proptest::prop_assert_eq!(read_back(direct).len(), good.len());
    }
}

/// The `_with` functions take their options by value or by reference, with the same result.
#[test]
fn with_functions_take_options_by_value_or_by_reference() {
    #[derive(
        serde::Serialize, serde::Deserialize, parquet_serde::ParquetSchema, Debug, PartialEq,
    )]
    struct Row {
        id: i64,
        name: String,
    }
    let rows = vec![
        Row {
            id: 1,
            name: "a".into(),
        },
        Row {
            id: 2,
            name: "b".into(),
        },
    ];
    let options = parquet_serde::WriterOptions::default()
        .compression(parquet_serde::Compression::Zstd(3))
        .row_group_rows(1);
    let by_ref = parquet_serde::to_vec_with(&rows, &options).unwrap();
    let by_value = parquet_serde::to_vec_with(&rows, options.clone()).unwrap();
    assert_eq!(by_ref, by_value);
    let read = parquet_serde::ReadOptions::default();
    let a: Vec<Row> = parquet_serde::from_slice_with(&by_ref, &read).unwrap();
    let b: Vec<Row> = parquet_serde::from_slice_with(&by_ref, read).unwrap();
    assert_eq!(a, rows);
    assert_eq!(b, rows);
}
