//! Schemas produced by `#[derive(ParquetSchema)]` and the std implementations, compared with
//! hand-built trees and with a compact text form.

#![allow(dead_code)]

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::marker::PhantomData;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use parquet_serde::core::column::Encoding;
use parquet_serde::core::compression::Compression;
use parquet_serde::core::schema::typed::{ColumnOptions, FieldAttrs};
use parquet_serde::core::schema::{ConvertedType, LogicalType, PhysicalType as Type, TimeUnit};
use parquet_serde::core::schema::{NodeKind, ParquetSchema, Repetition, SchemaNode};
use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------------------------------------
// Hand-built nodes

fn prim(name: &str, rep: Repetition, ty: Type) -> SchemaNode {
    SchemaNode {
        name: name.into(),
        repetition: rep,
        field_id: None,
        logical_type: None,
        converted_type: None,
        kind: NodeKind::Primitive {
            physical_type: ty,
            type_length: 0,
            precision: 0,
            scale: 0,
        },
    }
}

fn ann(mut n: SchemaNode, logical: LogicalType, converted: Option<ConvertedType>) -> SchemaNode {
    n.logical_type = Some(logical);
    n.converted_type = converted;
    n
}

fn grp(name: &str, rep: Repetition, fields: Vec<SchemaNode>) -> SchemaNode {
    SchemaNode {
        name: name.into(),
        repetition: rep,
        field_id: None,
        logical_type: None,
        converted_type: None,
        kind: NodeKind::Group { fields },
    }
}

fn string(name: &str, rep: Repetition) -> SchemaNode {
    ann(
        prim(name, rep, Type::ByteArray),
        LogicalType::String,
        Some(ConvertedType::Utf8),
    )
}

fn int(name: &str, rep: Repetition, bits: i8, signed: bool, ct: ConvertedType) -> SchemaNode {
    let ty = if bits == 64 { Type::Int64 } else { Type::Int32 };
    ann(
        prim(name, rep, ty),
        LogicalType::Integer {
            bit_width: bits,
            is_signed: signed,
        },
        Some(ct),
    )
}

fn list(name: &str, rep: Repetition, element: SchemaNode) -> SchemaNode {
    ann(
        grp(
            name,
            rep,
            vec![grp("list", Repetition::Repeated, vec![element])],
        ),
        LogicalType::List,
        Some(ConvertedType::List),
    )
}

fn map(name: &str, rep: Repetition, key: SchemaNode, value: SchemaNode) -> SchemaNode {
    ann(
        grp(
            name,
            rep,
            vec![grp("key_value", Repetition::Repeated, vec![key, value])],
        ),
        LogicalType::Map,
        Some(ConvertedType::Map),
    )
}

const OPT: Repetition = Repetition::Optional;
const REQ: Repetition = Repetition::Required;

// ---------------------------------------------------------------------------------------------
// Compact text form: one line per node, `rep TYPE name LOGICAL/CONVERTED`, groups in braces.

fn unit_text(u: &TimeUnit) -> &'static str {
    match u {
        TimeUnit::Millis => "MILLIS",
        TimeUnit::Micros => "MICROS",
        TimeUnit::Nanos => "NANOS",
        _ => "?",
    }
}

fn logical_text(l: &LogicalType) -> String {
    match l {
        LogicalType::String => "STRING".into(),
        LogicalType::Map => "MAP".into(),
        LogicalType::List => "LIST".into(),
        LogicalType::Enum => "ENUM".into(),
        LogicalType::Decimal { scale, precision } => format!("DECIMAL({precision},{scale})"),
        LogicalType::Date => "DATE".into(),
        LogicalType::Time {
            is_adjusted_to_utc,
            unit,
        } => format!("TIME({},{is_adjusted_to_utc})", unit_text(unit)),
        LogicalType::Timestamp {
            is_adjusted_to_utc,
            unit,
        } => format!("TIMESTAMP({},{is_adjusted_to_utc})", unit_text(unit)),
        LogicalType::Integer {
            bit_width,
            is_signed,
        } => format!("INT({bit_width},{is_signed})"),
        LogicalType::Json => "JSON".into(),
        LogicalType::Uuid => "UUID".into(),
        other => format!("{other:?}"),
    }
}

fn render(n: &SchemaNode) -> String {
    let rep = match n.repetition {
        Repetition::Required => "required",
        Repetition::Optional => "optional",
        Repetition::Repeated => "repeated",
        _ => "?",
    };
    let mut out = String::new();
    match &n.kind {
        NodeKind::Primitive {
            physical_type,
            type_length,
            precision,
            scale,
        } => {
            let ty = match physical_type {
                Type::Boolean => "BOOLEAN".to_string(),
                Type::Int32 => "INT32".into(),
                Type::Int64 => "INT64".into(),
                Type::Float => "FLOAT".into(),
                Type::Double => "DOUBLE".into(),
                Type::ByteArray => "BYTE_ARRAY".into(),
                Type::FixedLenByteArray => format!("FLBA({type_length})"),
                other => format!("{other:?}"),
            };
            out += &format!("{rep} {ty} {}", n.name);
            if *precision != 0 || *scale != 0 {
                out += &format!(" p={precision},s={scale}");
            }
        }
        NodeKind::Group { .. } => out += &format!("{rep} group {}", n.name),
    }
    if let Some(id) = n.field_id {
        out += &format!(" ={id}");
    }
    if let Some(l) = &n.logical_type {
        out += &format!(" {}", logical_text(l));
    }
    if let Some(c) = &n.converted_type {
        out += &format!("/{c:?}");
    }
    if let NodeKind::Group { fields } = &n.kind {
        out += " {";
        for f in fields {
            out += " ";
            out += &render(f);
            out += ";";
        }
        out += " }";
    }
    out
}

/// The text of a field of type `T` named `f` with default options.
fn text_of<T: ParquetSchema + ?Sized>() -> String {
    render(&T::parquet_node("f", &FieldAttrs::new()))
}

/// The text of a field of type `T` named `f` with `attrs`.
fn text_with<T: ParquetSchema + ?Sized>(attrs: FieldAttrs) -> String {
    render(&T::parquet_node("f", &attrs))
}

// ---------------------------------------------------------------------------------------------
// The log record

#[derive(Serialize, Deserialize, parquet_serde::ParquetSchema)]
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

#[derive(Serialize, Deserialize, parquet_serde::ParquetSchema)]
#[serde(rename_all = "UPPERCASE")]
enum Level {
    Trace,
    Debug,
    Info,
    Warn,
    Error,
}

#[derive(Serialize, Deserialize, parquet_serde::ParquetSchema)]
struct Http {
    method: String,
    path: String,
    status: u16,
    latency_ms: Option<f64>,
}

#[derive(Serialize, Deserialize, parquet_serde::ParquetSchema)]
struct Span {
    name: String,
    #[parquet(timestamp = "nanos", utc = false)]
    start: i64,
    duration_us: u64,
    parent: Option<u32>,
}

#[test]
fn log_record_tree() {
    let expected = grp(
        "LogRecord",
        REQ,
        vec![
            ann(
                prim("ts", REQ, Type::Int64),
                LogicalType::Timestamp {
                    is_adjusted_to_utc: true,
                    unit: TimeUnit::Micros,
                },
                Some(ConvertedType::TimestampMicros),
            ),
            ann(
                prim("level", REQ, Type::ByteArray),
                LogicalType::String,
                Some(ConvertedType::Utf8),
            ),
            string("target", REQ),
            string("message", REQ),
            int("user_id", OPT, 64, false, ConvertedType::Uint64),
            list("tags", REQ, string("element", REQ)),
            map("attrs", REQ, string("key", REQ), string("value", REQ)),
            grp(
                "http",
                OPT,
                vec![
                    string("method", REQ),
                    string("path", REQ),
                    int("status", REQ, 16, false, ConvertedType::Uint16),
                    prim("latency_ms", OPT, Type::Double),
                ],
            ),
            list(
                "spans",
                REQ,
                grp(
                    "element",
                    REQ,
                    vec![
                        string("name", REQ),
                        // Nanosecond timestamps have no legacy converted type.
                        ann(
                            prim("start", REQ, Type::Int64),
                            LogicalType::Timestamp {
                                is_adjusted_to_utc: false,
                                unit: TimeUnit::Nanos,
                            },
                            None,
                        ),
                        int("duration_us", REQ, 64, false, ConvertedType::Uint64),
                        int("parent", OPT, 32, false, ConvertedType::Uint32),
                    ],
                ),
            ),
        ],
    );
    assert_eq!(LogRecord::parquet_root(), expected);
    assert_eq!(LogRecord::PARQUET_MESSAGE_NAME, "LogRecord");
    // As a field, the same group under the field's name.
    let mut as_field = expected.clone();
    as_field.name = "rec".into();
    assert_eq!(LogRecord::parquet_node("rec", &FieldAttrs::new()), as_field);
    assert!(LogRecord::parquet_column_options().is_empty());
}

// ---------------------------------------------------------------------------------------------
// The std type table

#[test]
fn std_scalars() {
    let cases: Vec<(String, &str)> = vec![
        (text_of::<bool>(), "required BOOLEAN f"),
        (text_of::<i8>(), "required INT32 f INT(8,true)/Int8"),
        (text_of::<i16>(), "required INT32 f INT(16,true)/Int16"),
        (text_of::<i32>(), "required INT32 f INT(32,true)/Int32"),
        (text_of::<i64>(), "required INT64 f INT(64,true)/Int64"),
        (text_of::<isize>(), "required INT64 f INT(64,true)/Int64"),
        (text_of::<u8>(), "required INT32 f INT(8,false)/Uint8"),
        (text_of::<u16>(), "required INT32 f INT(16,false)/Uint16"),
        (text_of::<u32>(), "required INT32 f INT(32,false)/Uint32"),
        (text_of::<u64>(), "required INT64 f INT(64,false)/Uint64"),
        (text_of::<usize>(), "required INT64 f INT(64,false)/Uint64"),
        (
            text_of::<i128>(),
            "required FLBA(16) f p=38,s=0 DECIMAL(38,0)/Decimal",
        ),
        (
            text_of::<u128>(),
            "required FLBA(16) f p=38,s=0 DECIMAL(38,0)/Decimal",
        ),
        (text_of::<f32>(), "required FLOAT f"),
        (text_of::<f64>(), "required DOUBLE f"),
        (
            text_of::<std::num::NonZeroU32>(),
            "required INT32 f INT(32,false)/Uint32",
        ),
        (text_of::<char>(), "required BYTE_ARRAY f STRING/Utf8"),
        (text_of::<str>(), "required BYTE_ARRAY f STRING/Utf8"),
        (text_of::<String>(), "required BYTE_ARRAY f STRING/Utf8"),
        (text_of::<&str>(), "required BYTE_ARRAY f STRING/Utf8"),
        (text_of::<Box<str>>(), "required BYTE_ARRAY f STRING/Utf8"),
        (text_of::<Arc<str>>(), "required BYTE_ARRAY f STRING/Utf8"),
        (text_of::<Rc<str>>(), "required BYTE_ARRAY f STRING/Utf8"),
        (
            text_of::<Cow<'static, str>>(),
            "required BYTE_ARRAY f STRING/Utf8",
        ),
        (
            text_of::<std::path::PathBuf>(),
            "required BYTE_ARRAY f STRING/Utf8",
        ),
        (text_of::<()>(), "required BOOLEAN f"),
        (text_of::<PhantomData<String>>(), "required BOOLEAN f"),
        (text_of::<Option<()>>(), "optional BOOLEAN f"),
        (
            text_of::<SystemTime>(),
            "required INT64 f TIMESTAMP(MICROS,true)/TimestampMicros",
        ),
        (
            text_of::<Duration>(),
            "required group f { required INT64 secs INT(64,false)/Uint64; \
             required INT32 nanos INT(32,false)/Uint32; }",
        ),
        (text_of::<Box<u8>>(), "required INT32 f INT(8,false)/Uint8"),
        (
            text_of::<std::cell::RefCell<i16>>(),
            "required INT32 f INT(16,true)/Int16",
        ),
        (
            text_of::<std::num::Wrapping<u16>>(),
            "required INT32 f INT(16,false)/Uint16",
        ),
    ];
    for (got, want) in cases {
        assert_eq!(got, want);
    }
}

#[test]
fn std_bytes() {
    let mut bytes = FieldAttrs::new();
    bytes.bytes = true;
    let list_u8 = "required group f LIST/List { repeated group list { \
                   required INT32 element INT(8,false)/Uint8; }; }";
    assert_eq!(text_of::<Vec<u8>>(), list_u8);
    assert_eq!(text_of::<[u8]>(), list_u8);
    assert_eq!(text_of::<Box<[u8]>>(), list_u8);
    assert_eq!(text_with::<Vec<u8>>(bytes), "required BYTE_ARRAY f");
    assert_eq!(text_with::<&[u8]>(bytes), "required BYTE_ARRAY f");
    assert_eq!(text_with::<Box<[u8]>>(bytes), "required BYTE_ARRAY f");
    assert_eq!(text_with::<Option<Vec<u8>>>(bytes), "optional BYTE_ARRAY f");
    assert_eq!(text_of::<[u8; 4]>(), "required FLBA(4) f");
    assert_eq!(text_of::<[u8; 0]>(), "required BYTE_ARRAY f");
    // `bytes` reaches through lists to a list of byte strings.
    assert_eq!(
        text_with::<Vec<Vec<u8>>>(bytes),
        "required group f LIST/List { repeated group list { required BYTE_ARRAY element; }; }"
    );
    // ...but does not turn a list of i8 into bytes.
    assert_eq!(
        text_with::<Vec<i8>>(bytes),
        "required group f LIST/List { repeated group list { \
         required INT32 element INT(8,true)/Int8; }; }"
    );
}

#[test]
fn std_collections() {
    let of_str = "required group f LIST/List { repeated group list { \
                  required BYTE_ARRAY element STRING/Utf8; }; }";
    assert_eq!(text_of::<Vec<String>>(), of_str);
    assert_eq!(text_of::<VecDeque<String>>(), of_str);
    assert_eq!(text_of::<HashSet<String>>(), of_str);
    assert_eq!(text_of::<BTreeSet<String>>(), of_str);
    assert_eq!(text_of::<Box<[String]>>(), of_str);
    assert_eq!(text_of::<[String; 3]>(), of_str);
    assert_eq!(text_of::<std::collections::LinkedList<String>>(), of_str);
    assert_eq!(
        text_of::<Vec<Option<i32>>>(),
        "required group f LIST/List { repeated group list { \
         optional INT32 element INT(32,true)/Int32; }; }"
    );
    assert_eq!(
        text_of::<Option<Vec<Vec<bool>>>>(),
        "optional group f LIST/List { repeated group list { \
         required group element LIST/List { repeated group list { \
         required BOOLEAN element; }; }; }; }"
    );
    let map_text = "required group f MAP/Map { repeated group key_value { \
                    required BYTE_ARRAY key STRING/Utf8; optional INT64 value INT(64,true)/Int64; }; }";
    assert_eq!(text_of::<HashMap<String, Option<i64>>>(), map_text);
    assert_eq!(text_of::<BTreeMap<String, Option<i64>>>(), map_text);
    assert_eq!(
        text_of::<(u8, String, Option<f32>)>(),
        "required group f { required INT32 _0 INT(8,false)/Uint8; \
         required BYTE_ARRAY _1 STRING/Utf8; optional FLOAT _2; }"
    );
    assert_eq!(
        text_of::<(bool,)>(),
        "required group f { required BOOLEAN _0; }"
    );
}

// ---------------------------------------------------------------------------------------------
// Attributes

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct Attrs {
    #[parquet(timestamp = "millis")]
    ts_ms: i64,
    #[parquet(timestamp = "micros", utc = false)]
    ts_local: i64,
    #[parquet(timestamp = "nanos")]
    ts_ns: i64,
    #[parquet(timestamp = "millis")]
    sys_ms: SystemTime,
    #[parquet(date)]
    day: i32,
    #[parquet(time = "millis")]
    t_ms: i32,
    #[parquet(time = "micros", utc = false)]
    t_us: i64,
    #[parquet(time = "nanos")]
    t_ns: i64,
    #[parquet(decimal(precision = 9, scale = 2))]
    d32: i32,
    #[parquet(decimal(precision = 12, scale = 3))]
    d32_wide: i32,
    #[parquet(decimal(precision = 18))]
    d64: i64,
    #[parquet(decimal(precision = 20, scale = 4))]
    d64_wide: i64,
    #[parquet(decimal(precision = 38, scale = 10))]
    d128: i128,
    #[parquet(decimal(precision = 7, scale = 2))]
    d128_small: i128,
    #[parquet(decimal(precision = 5, scale = 5))]
    dtext: String,
    #[parquet(uuid)]
    u_bytes: [u8; 16],
    #[parquet(uuid)]
    u_int: u128,
    #[parquet(uuid)]
    u_text: String,
    #[parquet(json)]
    doc: String,
    #[parquet(bytes)]
    blob: Vec<u8>,
    #[serde(with = "serde_bytes")]
    blob2: Vec<u8>,
    #[serde(with = "serde_bytes")]
    blob3: Option<Vec<u8>>,
    #[parquet(name = "Renamed", field_id = 42)]
    renamed: u8,
    #[parquet(timestamp = "millis")]
    ts_list: Option<Vec<Option<i64>>>,
    #[parquet(date)]
    day_map: BTreeMap<String, i32>,
}

#[test]
fn every_attribute() {
    let root = Attrs::parquet_root();
    let NodeKind::Group { fields } = &root.kind else {
        panic!("root is a group")
    };
    let got: Vec<String> = fields.iter().map(render).collect();
    let want = [
        "required INT64 ts_ms TIMESTAMP(MILLIS,true)/TimestampMillis",
        "required INT64 ts_local TIMESTAMP(MICROS,false)/TimestampMicros",
        "required INT64 ts_ns TIMESTAMP(NANOS,true)",
        "required INT64 sys_ms TIMESTAMP(MILLIS,true)/TimestampMillis",
        "required INT32 day DATE/Date",
        "required INT32 t_ms TIME(MILLIS,true)/TimeMillis",
        "required INT64 t_us TIME(MICROS,false)/TimeMicros",
        "required INT64 t_ns TIME(NANOS,true)",
        "required INT32 d32 p=9,s=2 DECIMAL(9,2)/Decimal",
        "required INT64 d32_wide p=12,s=3 DECIMAL(12,3)/Decimal",
        "required INT64 d64 p=18,s=0 DECIMAL(18,0)/Decimal",
        "required FLBA(9) d64_wide p=20,s=4 DECIMAL(20,4)/Decimal",
        "required FLBA(16) d128 p=38,s=10 DECIMAL(38,10)/Decimal",
        "required FLBA(4) d128_small p=7,s=2 DECIMAL(7,2)/Decimal",
        "required FLBA(3) dtext p=5,s=5 DECIMAL(5,5)/Decimal",
        "required FLBA(16) u_bytes UUID",
        "required FLBA(16) u_int UUID",
        "required FLBA(16) u_text UUID",
        "required BYTE_ARRAY doc JSON/Json",
        "required BYTE_ARRAY blob",
        "required BYTE_ARRAY blob2",
        "optional BYTE_ARRAY blob3",
        "required INT32 Renamed =42 INT(8,false)/Uint8",
        "optional group ts_list LIST/List { repeated group list { \
         optional INT64 element TIMESTAMP(MILLIS,true)/TimestampMillis; }; }",
        "required group day_map MAP/Map { repeated group key_value { \
         required BYTE_ARRAY key STRING/Utf8; required INT32 value DATE/Date; }; }",
    ];
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g, w);
    }
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct ColumnOpts {
    #[parquet(
        encoding = "delta_binary_packed",
        compression = "zstd(7)",
        dictionary = false
    )]
    a: i64,
    #[parquet(encoding = "DELTA-BYTE-ARRAY", compression = "gzip")]
    b: Vec<String>,
    c: Vec<Inner>,
    #[parquet(compression = "snappy", field_id = 3)]
    d: Id,
    e: String,
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct Inner {
    #[parquet(dictionary)]
    x: String,
    #[parquet(compression = "brotli(9)", encoding = "byte_stream_split")]
    y: f64,
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct Id(#[parquet(compression = "lz4_raw", dictionary = true, field_id = 9)] u64);

#[test]
fn column_options() {
    let p = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let opts = ColumnOpts::parquet_column_options();
    let co = |path: &[&str], enc, comp, dict| ColumnOptions {
        path: p(path),
        encoding: enc,
        compression: comp,
        dictionary: dict,
        bloom_filter: None,
    };
    assert_eq!(
        opts,
        vec![
            co(
                &["a"],
                Some(Encoding::DeltaBinaryPacked),
                Some(Compression::Zstd(7)),
                Some(false)
            ),
            co(
                &["b"],
                Some(Encoding::DeltaByteArray),
                Some(Compression::Gzip(6)),
                None
            ),
            co(&["c", "list", "element", "x"], None, None, Some(true)),
            co(
                &["c", "list", "element", "y"],
                Some(Encoding::ByteStreamSplit),
                Some(Compression::Brotli(9)),
                None
            ),
            co(&["d"], None, Some(Compression::Snappy), None),
            co(&["d"], None, Some(Compression::Lz4Raw), Some(true)),
        ]
    );
    // The field holding the newtype wins over the newtype's own options.
    let d = ColumnOptions::resolve(&opts, &p(&["d"]));
    assert_eq!(d.compression, Some(Compression::Snappy));
    assert_eq!(d.dictionary, Some(true));
    let e = ColumnOptions::resolve(&opts, &p(&["e"]));
    assert_eq!(
        (e.encoding, e.compression, e.dictionary),
        (None, None, None)
    );
    // The outer field id wins over the newtype's inner one.
    let root = ColumnOpts::parquet_root();
    let NodeKind::Group { fields } = &root.kind else {
        panic!("root is a group")
    };
    assert_eq!(
        render(&fields[3]),
        "required INT64 d =3 INT(64,false)/Uint64"
    );
    assert_eq!(
        render(&Id::parquet_node("id", &FieldAttrs::new())),
        "required INT64 id =9 INT(64,false)/Uint64"
    );
}

// ---------------------------------------------------------------------------------------------
// serde names

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[serde(rename_all = "camelCase")]
struct Camel {
    user_id: u8,
    #[serde(rename = "X-Y")]
    renamed: u8,
    #[serde(skip)]
    skipped: NotASchema,
    #[serde(skip_serializing, skip_deserializing)]
    skipped_too: NotASchema,
    #[serde(skip_serializing_if = "Option::is_none")]
    maybe_value: Option<u8>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    many_values: Vec<u8>,
    r#type: u8,
    #[serde(rename(serialize = "ser_name", deserialize = "de_name"))]
    both: u8,
    #[serde(alias = "other", default)]
    aliased: u8,
}

/// A type with no schema: only ever in skipped fields.
#[derive(Default)]
struct NotASchema;

#[test]
fn serde_renames_and_skips() {
    let root = Camel::parquet_root();
    assert_eq!(
        render(&root),
        "required group Camel { required INT32 userId INT(8,false)/Uint8; \
         required INT32 X-Y INT(8,false)/Uint8; \
         optional INT32 maybeValue INT(8,false)/Uint8; \
         optional group manyValues LIST/List { repeated group list { \
         required INT32 element INT(8,false)/Uint8; }; }; \
         required INT32 type INT(8,false)/Uint8; \
         required INT32 ser_name INT(8,false)/Uint8; \
         required INT32 aliased INT(8,false)/Uint8; }"
    );
}

fn first_field_name<T: ParquetSchema>() -> String {
    match T::parquet_root().kind {
        NodeKind::Group { fields } => fields[0].name.clone(),
        NodeKind::Primitive { .. } => unreachable!("root is a group"),
    }
}

mod rename_rules {
    use super::*;

    macro_rules! case {
        ($s:ident, $e:ident, $rule:literal, $field:literal, $variant:literal) => {
            #[derive(Serialize, parquet_serde::ParquetSchema)]
            #[serde(rename_all = $rule)]
            pub struct $s {
                http_status_code: u8,
            }

            #[derive(Serialize, parquet_serde::ParquetSchema)]
            #[serde(rename_all = $rule)]
            pub enum $e {
                HttpStatusCode(u8),
            }

            #[test]
            #[allow(non_snake_case)]
            fn $s() {
                assert_eq!(first_field_name::<$s>(), $field);
                assert_eq!(first_field_name::<$e>(), $variant);
            }
        };
    }

    case!(
        Lower,
        LowerE,
        "lowercase",
        "http_status_code",
        "httpstatuscode"
    );
    case!(
        Upper,
        UpperE,
        "UPPERCASE",
        "HTTP_STATUS_CODE",
        "HTTPSTATUSCODE"
    );
    case!(
        Pascal,
        PascalE,
        "PascalCase",
        "HttpStatusCode",
        "HttpStatusCode"
    );
    case!(
        Camel,
        CamelE,
        "camelCase",
        "httpStatusCode",
        "httpStatusCode"
    );
    case!(
        Snake,
        SnakeE,
        "snake_case",
        "http_status_code",
        "http_status_code"
    );
    case!(
        ScreamingSnake,
        ScreamingSnakeE,
        "SCREAMING_SNAKE_CASE",
        "HTTP_STATUS_CODE",
        "HTTP_STATUS_CODE"
    );
    case!(
        Kebab,
        KebabE,
        "kebab-case",
        "http-status-code",
        "http-status-code"
    );
    case!(
        ScreamingKebab,
        ScreamingKebabE,
        "SCREAMING-KEBAB-CASE",
        "HTTP-STATUS-CODE",
        "HTTP-STATUS-CODE"
    );
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[serde(rename = "event")]
struct RenamedContainer {
    a: bool,
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[serde(rename = "event")]
#[parquet(name = "Message")]
struct NamedContainer {
    a: bool,
}

#[test]
fn message_names() {
    assert_eq!(RenamedContainer::parquet_root().name, "event");
    assert_eq!(NamedContainer::parquet_root().name, "Message");
    assert_eq!(i32::parquet_root().name, "schema");
}

// ---------------------------------------------------------------------------------------------
// Nesting

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct Point {
    x: f32,
    y: f32,
}

// (serde implements Serialize for Arc/Rc only with its "rc" feature.)
#[derive(parquet_serde::ParquetSchema)]
struct Nested {
    deep: Option<Vec<Option<Point>>>,
    by_name: HashMap<String, Vec<Point>>,
    boxed: Box<Point>,
    shared: Arc<Vec<Rc<Point>>>,
    pair: (Point, Option<String>),
}

#[test]
fn nested_composition() {
    let point = |name: &str, rep| {
        grp(
            name,
            rep,
            vec![prim("x", REQ, Type::Float), prim("y", REQ, Type::Float)],
        )
    };
    let expected = grp(
        "Nested",
        REQ,
        vec![
            list("deep", OPT, point("element", OPT)),
            map(
                "by_name",
                REQ,
                string("key", REQ),
                list("value", REQ, point("element", REQ)),
            ),
            point("boxed", REQ),
            list("shared", REQ, point("element", REQ)),
            grp("pair", REQ, vec![point("_0", REQ), string("_1", OPT)]),
        ],
    );
    assert_eq!(Nested::parquet_root(), expected);
}

#[test]
fn non_struct_roots_are_wrapped() {
    assert_eq!(
        render(&Vec::<Point>::parquet_root()),
        "required group schema { required group value LIST/List { repeated group list { \
         required group element { required FLOAT x; required FLOAT y; }; }; }; }"
    );
    assert_eq!(
        render(&Option::<Point>::parquet_root()),
        "required group schema { optional group value { required FLOAT x; required FLOAT y; }; }"
    );
    assert_eq!(
        render(&<(u8, bool)>::parquet_root()),
        "required group schema { required INT32 _0 INT(8,false)/Uint8; required BOOLEAN _1; }"
    );
}

// ---------------------------------------------------------------------------------------------
// Struct shapes

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct Tuple(u8, #[serde(skip)] NotASchema, String);

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct UserId(u64);

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct Millis(#[parquet(timestamp = "millis")] i64);

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[serde(transparent)]
struct Transparent {
    value: String,
    #[serde(skip)]
    _cache: NotASchema,
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct Marker;

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct Shapes {
    tuple: Tuple,
    id: UserId,
    when: Millis,
    maybe_when: Option<Millis>,
    text: Transparent,
    marker: Marker,
    maybe_marker: Option<Marker>,
}

#[test]
fn struct_shapes() {
    assert_eq!(
        render(&Shapes::parquet_root()),
        "required group Shapes { \
         required group tuple { required INT32 _0 INT(8,false)/Uint8; \
         required BYTE_ARRAY _2 STRING/Utf8; }; \
         required INT64 id INT(64,false)/Uint64; \
         required INT64 when TIMESTAMP(MILLIS,true)/TimestampMillis; \
         optional INT64 maybe_when TIMESTAMP(MILLIS,true)/TimestampMillis; \
         required BYTE_ARRAY text STRING/Utf8; \
         required BOOLEAN marker; \
         optional BOOLEAN maybe_marker; }"
    );
    // A newtype row type is wrapped, under its own name.
    assert_eq!(
        render(&UserId::parquet_root()),
        "required group UserId { required INT64 value INT(64,false)/Uint64; }"
    );
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct Base {
    id: u32,
    #[serde(rename = "nm")]
    name: String,
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct Extended {
    before: bool,
    #[serde(flatten)]
    base: Base,
    #[serde(flatten)]
    more: More,
    after: bool,
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct More {
    #[parquet(dictionary = true)]
    tag: String,
    #[serde(flatten)]
    deeper: Base2,
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct Base2 {
    z: i8,
}

#[test]
fn flatten_splices_fields() {
    assert_eq!(
        render(&Extended::parquet_root()),
        "required group Extended { required BOOLEAN before; \
         required INT32 id INT(32,false)/Uint32; required BYTE_ARRAY nm STRING/Utf8; \
         required BYTE_ARRAY tag STRING/Utf8; required INT32 z INT(8,true)/Int8; \
         required BOOLEAN after; }"
    );
    assert_eq!(
        Extended::parquet_column_options(),
        vec![ColumnOptions {
            path: vec!["tag".into()],
            encoding: None,
            compression: None,
            dictionary: Some(true),
            bloom_filter: None,
        }]
    );
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[serde(into = "String")]
#[derive(Clone)]
struct Email {
    user: String,
    domain: String,
}

impl From<Email> for String {
    fn from(e: Email) -> String {
        format!("{}@{}", e.user, e.domain)
    }
}

/// Serialized by a custom function as seconds; the schema is told with `as_type`.
#[derive(Serialize, parquet_serde::ParquetSchema)]
struct Custom {
    email: Email,
    #[serde(serialize_with = "as_secs")]
    #[parquet(as_type = "i64", timestamp = "millis")]
    at: Duration,
}

fn as_secs<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_i64(d.as_millis() as i64)
}

#[test]
fn into_and_as_type() {
    assert_eq!(
        render(&Custom::parquet_root()),
        "required group Custom { required BYTE_ARRAY email STRING/Utf8; \
         required INT64 at TIMESTAMP(MILLIS,true)/TimestampMillis; }"
    );
}

// ---------------------------------------------------------------------------------------------
// Enums

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[serde(rename_all = "snake_case")]
enum Shape {
    Empty,
    Circle(f64),
    Rect(f64, f64),
    #[serde(rename_all = "camelCase")]
    Polygon {
        point_list: Vec<Point>,
        #[parquet(field_id = 7)]
        closed_flag: Option<bool>,
    },
    #[serde(skip)]
    Internal(NotASchema),
    #[serde(rename = "txt")]
    Text(#[parquet(json)] String),
}

#[test]
fn enum_with_data() {
    assert_eq!(
        render(&Shape::parquet_node("shape", &FieldAttrs::new())),
        "required group shape { optional BOOLEAN empty; optional DOUBLE circle; \
         optional group rect { required DOUBLE _0; required DOUBLE _1; }; \
         optional group polygon { required group pointList LIST/List { repeated group list { \
         required group element { required FLOAT x; required FLOAT y; }; }; }; \
         optional BOOLEAN closedFlag =7; }; \
         optional BYTE_ARRAY txt JSON/Json; }"
    );
    // Options of an enum field (e.g. a list of shapes) compose.
    assert!(
        render(&Option::<Vec<Shape>>::parquet_node("s", &FieldAttrs::new())).starts_with(
            "optional group s LIST/List { repeated group list { \
             required group element { optional BOOLEAN empty;"
        )
    );
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[serde(rename_all_fields = "PascalCase")]
enum AllFields {
    A {
        first_field: u8,
    },
    #[serde(rename_all = "kebab-case")]
    B {
        second_field: u8,
    },
}

#[test]
fn rename_all_fields() {
    assert_eq!(
        render(&AllFields::parquet_root()),
        "required group AllFields { optional group A { required INT32 FirstField INT(8,false)/Uint8; }; \
         optional group B { required INT32 second-field INT(8,false)/Uint8; }; }"
    );
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
enum Status {
    Active,
    #[serde(rename = "gone")]
    Deleted,
    #[serde(skip)]
    Hidden,
}

/// The same enum annotated ENUM.
#[derive(Serialize, parquet_serde::ParquetSchema)]
#[parquet(enum)]
enum StatusEnum {
    Active,
    #[serde(rename = "gone")]
    Deleted,
}

#[test]
fn unit_enum() {
    // STRING by default, which every reader reads as text; ENUM with `#[parquet(enum)]`.
    assert_eq!(text_of::<Status>(), "required BYTE_ARRAY f STRING/Utf8");
    assert_eq!(
        text_of::<Vec<Option<Status>>>(),
        "required group f LIST/List { repeated group list { optional BYTE_ARRAY element STRING/Utf8; }; }"
    );
    assert_eq!(text_of::<StatusEnum>(), "required BYTE_ARRAY f ENUM/Enum");
    assert_eq!(
        text_of::<Option<StatusEnum>>(),
        "optional BYTE_ARRAY f ENUM/Enum"
    );
}

// ---------------------------------------------------------------------------------------------
// Generics

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct Page<T, M> {
    items: Vec<T>,
    meta: Option<M>,
    #[serde(skip)]
    _unused: PhantomData<fn() -> NotASchema>,
}

// (serde implements Serialize for arrays of up to 32 elements, not for `[T; N]`.)
#[derive(parquet_serde::ParquetSchema)]
struct Wrapper<'a, T: Clone, const N: usize> {
    label: Cow<'a, str>,
    fixed: [u8; N],
    value: T,
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
enum Either<L, R> {
    Left(L),
    Right(R),
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct Stamped<T> {
    #[parquet(timestamp = "millis")]
    at: T,
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[parquet(bound = "T: ParquetSchema + Clone")]
struct Bounded<T> {
    v: T,
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct FlattenGeneric<T> {
    #[serde(flatten)]
    inner: T,
    extra: u8,
}

#[test]
fn generics() {
    assert_eq!(
        render(&Page::<Point, String>::parquet_root()),
        "required group Page { required group items LIST/List { repeated group list { \
         required group element { required FLOAT x; required FLOAT y; }; }; }; \
         optional BYTE_ARRAY meta STRING/Utf8; }"
    );
    assert_eq!(
        render(&Wrapper::<'static, u8, 3>::parquet_root()),
        "required group Wrapper { required BYTE_ARRAY label STRING/Utf8; \
         required FLBA(3) fixed; required INT32 value INT(8,false)/Uint8; }"
    );
    assert_eq!(
        render(&Either::<u8, Vec<bool>>::parquet_root()),
        "required group Either { optional INT32 Left INT(8,false)/Uint8; \
         optional group Right LIST/List { repeated group list { required BOOLEAN element; }; }; }"
    );
    assert_eq!(
        render(&Stamped::<Option<i64>>::parquet_root()),
        "required group Stamped { optional INT64 at TIMESTAMP(MILLIS,true)/TimestampMillis; }"
    );
    assert_eq!(
        render(&Bounded::<u8>::parquet_root()),
        "required group Bounded { required INT32 v INT(8,false)/Uint8; }"
    );
    assert_eq!(
        render(&FlattenGeneric::<Point>::parquet_root()),
        "required group FlattenGeneric { required FLOAT x; required FLOAT y; \
         required INT32 extra INT(8,false)/Uint8; }"
    );
}

// ---------------------------------------------------------------------------------------------
// Recursive types and optional features

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct Tree {
    value: u8,
    children: Vec<Tree>,
}

#[test]
#[should_panic(expected = "recursive type has no Parquet schema")]
fn recursive_type_is_reported() {
    let _ = Tree::parquet_root();
}

#[test]
fn depth_is_restored_after_a_recursive_type() {
    let caught = std::panic::catch_unwind(Tree::parquet_root);
    assert!(caught.is_err());
    // A deep but finite schema still builds on the same thread.
    assert_eq!(
        render(&Nested::parquet_root()),
        render(&Nested::parquet_root())
    );
    assert!(Nested::parquet_column_options().is_empty());
}

#[cfg(feature = "chrono")]
#[derive(parquet_serde::ParquetSchema)]
struct Chrono {
    at: chrono::DateTime<chrono::Utc>,
    #[parquet(timestamp = "millis")]
    at_ms: Option<chrono::DateTime<chrono::FixedOffset>>,
    local: chrono::NaiveDateTime,
    #[parquet(timestamp = "nanos", utc = true)]
    local_ns: chrono::NaiveDateTime,
    day: chrono::NaiveDate,
    time: chrono::NaiveTime,
    #[parquet(time = "millis")]
    time_ms: chrono::NaiveTime,
}

#[cfg(feature = "chrono")]
#[test]
fn chrono_types() {
    assert_eq!(
        render(&Chrono::parquet_root()),
        "required group Chrono { \
         required INT64 at TIMESTAMP(MICROS,true)/TimestampMicros; \
         optional INT64 at_ms TIMESTAMP(MILLIS,true)/TimestampMillis; \
         required INT64 local TIMESTAMP(MICROS,false)/TimestampMicros; \
         required INT64 local_ns TIMESTAMP(NANOS,true); \
         required INT32 day DATE/Date; \
         required INT64 time TIME(MICROS,false)/TimeMicros; \
         required INT32 time_ms TIME(MILLIS,false)/TimeMillis; }"
    );
}

#[cfg(feature = "uuid")]
#[derive(parquet_serde::ParquetSchema)]
struct WithUuid {
    id: uuid::Uuid,
    others: Vec<uuid::Uuid>,
}

#[cfg(feature = "uuid")]
#[test]
fn uuid_type() {
    assert_eq!(
        render(&WithUuid::parquet_root()),
        "required group WithUuid { required FLBA(16) id UUID; \
         required group others LIST/List { repeated group list { \
         required FLBA(16) element UUID; }; }; }"
    );
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct Blooms {
    #[parquet(bloom_filter)]
    plain: String,
    #[parquet(bloom_filter(ndv = 1000, fpp = 0.001), dictionary = false)]
    sized: String,
    #[parquet(bloom_filter(fpp = 0.05))]
    only_fpp: Vec<i64>,
}

#[test]
fn bloom_filter_options() {
    use parquet_serde::core::bloom::BloomFilterOptions;
    let opts = Blooms::parquet_column_options();
    let bloom: Vec<_> = opts
        .iter()
        .map(|o| (o.path.join("."), o.bloom_filter))
        .collect();
    assert_eq!(
        bloom,
        vec![
            ("plain".to_string(), Some(BloomFilterOptions::DEFAULT)),
            (
                "sized".to_string(),
                Some(BloomFilterOptions {
                    ndv: Some(1000),
                    fpp: 0.001
                })
            ),
            (
                "only_fpp".to_string(),
                Some(BloomFilterOptions {
                    ndv: None,
                    fpp: 0.05
                })
            ),
        ]
    );
    // The typed writer writes them, unless the options set the column.
    let rows = vec![Blooms {
        plain: "a".into(),
        sized: "b".into(),
        only_fpp: vec![1, 2],
    }];
    let bytes = parquet_serde::to_vec(&rows).unwrap();
    let r = parquet_serde::core::file::FileReader::new(bytes).unwrap();
    for c in 0..3 {
        assert!(r.bloom_filter(0, c).unwrap().is_some(), "column {c}");
    }
    let options = parquet_serde::WriterOptions::default()
        .bloom_filter("sized", BloomFilterOptions::new(64, 0.5));
    let small = parquet_serde::to_vec_with(&rows, options).unwrap();
    let s = parquet_serde::core::file::FileReader::new(small).unwrap();
    let size = |r: &parquet_serde::core::file::FileReader<Vec<u8>>| {
        let chunk = r.metadata().row_group(0).unwrap().column(1).unwrap();
        assert!(chunk.has_metadata());
        chunk.bloom_filter_length()
    };
    assert!(size(&s) < size(&r), "{:?} {:?}", size(&s), size(&r));
}

/// Each spelling gives the attribute the value `FromStr` gives (the derive cannot call the
/// library, so it keeps its own table; this keeps the two in step).
macro_rules! attribute_agrees {
    ($key:ident: $($name:literal),* $(,)?) => {{
        let mut checked = Vec::<&str>::new();
        $({
            #[derive(Serialize, parquet_serde::ParquetSchema)]
            struct One {
                #[parquet($key = $name)]
                x: f64,
            }
            let opts = One::parquet_column_options();
            assert_eq!(opts.len(), 1, "{}", $name);
            assert_eq!(opts[0].$key, Some($name.parse().unwrap()), "{}", $name);
            checked.push($name);
        })*
        checked
    }};
}

#[test]
fn attribute_names_agree_with_from_str() {
    let encodings = attribute_agrees!(encoding:
        "plain", "PLAIN", "rle", "delta_binary_packed", "Delta-Length-Byte-Array",
        "delta_byte_array", "byte_stream_split", "alp", "GROUP_VAR_INT", " plain ",
    );
    // Every value encoding the library names is covered (the others are refused by the
    // derive: tests/ui/bad_codec.rs).
    for v in 0..=10 {
        let e = Encoding::from_i32(v);
        let Ok(_) = e.to_string().parse::<Encoding>() else {
            continue;
        };
        let value_encoding = !matches!(
            e,
            Encoding::PlainDictionary | Encoding::RleDictionary | Encoding::BitPacked
        );
        let named = encodings
            .iter()
            .any(|n| n.trim().to_lowercase().replace('-', "_") == e.to_string().to_lowercase());
        assert_eq!(named, value_encoding, "{e}");
    }
    let codecs = attribute_agrees!(compression:
        "uncompressed", "none", "snappy", "SNAPPY", "gzip", "gzip(0)", "gzip:9", "brotli",
        "brotli(11)", "zstd", "zstd(-7)", "zstd:22", "Zstd( 4 )", "lz4_raw", "lz4", "lz4raw",
        "LZ4-RAW",
    );
    // Every codec's canonical form is covered.
    for c in [
        Compression::Uncompressed,
        Compression::Snappy,
        Compression::Lz4Raw,
        Compression::GZIP_DEFAULT,
        Compression::BROTLI_DEFAULT,
        Compression::ZSTD_DEFAULT,
    ] {
        let name = c.to_string();
        let name = name.split('(').next().unwrap_or_default();
        assert!(codecs.contains(&name), "{name}");
    }
}
