//! Typed reading: rows of files written by pyarrow and by the low-level writer read into
//! Rust types with exact expected values; projection; schema evolution; errors.

#![allow(clippy::manual_is_multiple_of, clippy::type_complexity)]

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use common::{corpus_file, python_file};

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime};

use parquet_serde::__internals::CountingReader;
use parquet_serde::core::column::ColumnBatch;
use parquet_serde::core::file::{FileWriter, WriterOptions};
use parquet_serde::core::schema::Schema;
use parquet_serde::core::values::{ByteArrays, ColumnValues, FixedLenByteArrays};
use parquet_serde::record::Value;
use parquet_serde::Reader;
use parquet_serde::{from_path, from_reader, from_slice, ErrorKind};
use serde::Deserialize;

// ---------------------------------------------------------------------------------------------
// Helpers

fn batch(values: ColumnValues, def: &[i16], rep: &[i16]) -> ColumnBatch {
    ColumnBatch {
        values,
        def_levels: def.to_vec(),
        rep_levels: rep.to_vec(),
    }
}

fn strs(v: &[&str]) -> ColumnValues {
    let mut b = ByteArrays::new();
    for s in v {
        b.push(s.as_bytes());
    }
    ColumnValues::ByteArray(b)
}

/// A file of `schema` with one row group per entry of `groups` (one batch per leaf).
fn write_file(schema: &str, groups: Vec<Vec<ColumnBatch>>) -> Vec<u8> {
    let schema: Schema = schema.parse().unwrap();
    let mut w = FileWriter::new(Vec::new(), schema, WriterOptions::default()).unwrap();
    for group in groups {
        let mut chunks = Vec::new();
        for (i, b) in group.iter().enumerate() {
            let mut cw = w.column_writer(i).unwrap();
            cw.write(b).unwrap();
            chunks.push(cw.close().unwrap());
        }
        w.write_row_group(chunks).unwrap();
    }
    w.close().unwrap().0
}

// ---------------------------------------------------------------------------------------------
// A log record written by pyarrow

#[derive(Deserialize, Debug, PartialEq, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Level {
    Debug,
    Info,
    Warn,
    Error,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Http {
    method: String,
    status: u16,
    path: String,
    latency_ms: Option<f64>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Span {
    name: String,
    start_us: i64,
    duration_us: u32,
}

#[derive(Deserialize, Debug, PartialEq)]
struct LogRecord {
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

const LOG_ROWS: usize = 1000;

const LOG_SCRIPT: &str = r#"
import sys
import pyarrow as pa, pyarrow.parquet as pq
rows = []
for i in range(1000):
    ts = 1_700_000_000_000_000 + i * 1000
    rows.append({
        "ts": ts,
        "level": ["debug", "info", "warn", "error"][i % 4],
        "target": f"svc::mod{i % 7}",
        "message": f"message {i} \u00e9\u4e16",
        "user_id": None if i % 5 == 0 else (2**64 - 1 - i if i % 11 == 0 else i * 1_000_003),
        "tags": [f"t{j}" for j in range(i % 3)],
        "attrs": [(f"k{j}", f"v{i + j}") for j in range(i % 4)],
        "http": None if i % 3 == 0 else {
            "method": "GET" if i % 2 else "POST",
            "status": 200 + i % 5,
            "path": f"/p/{i}",
            "latency_ms": None if i % 7 == 0 else i * 0.5,
        },
        "spans": [{"name": f"s{j}", "start_us": ts + j, "duration_us": j * 10 + i % 10} for j in range(i % 4)],
    })
schema = pa.schema([
    ("ts", pa.timestamp("us", tz="UTC")),
    ("level", pa.string()),
    ("target", pa.string()),
    ("message", pa.string()),
    ("user_id", pa.uint64()),
    ("tags", pa.list_(pa.string())),
    ("attrs", pa.map_(pa.string(), pa.string())),
    ("http", pa.struct([("method", pa.string()), ("status", pa.uint16()), ("path", pa.string()), ("latency_ms", pa.float64())])),
    ("spans", pa.list_(pa.struct([("name", pa.string()), ("start_us", pa.int64()), ("duration_us", pa.uint32())]))),
])
pq.write_table(pa.Table.from_pylist(rows, schema=schema), sys.argv[1], row_group_size=300)
"#;

fn expected_log(i: usize) -> LogRecord {
    let ts = 1_700_000_000_000_000 + i as i64 * 1000;
    LogRecord {
        ts,
        level: [Level::Debug, Level::Info, Level::Warn, Level::Error][i % 4],
        target: format!("svc::mod{}", i % 7),
        message: format!("message {i} \u{e9}\u{4e16}"),
        user_id: if i % 5 == 0 {
            None
        } else if i % 11 == 0 {
            Some(u64::MAX - i as u64)
        } else {
            Some(i as u64 * 1_000_003)
        },
        tags: (0..i % 3).map(|j| format!("t{j}")).collect(),
        attrs: (0..i % 4)
            .map(|j| (format!("k{j}"), format!("v{}", i + j)))
            .collect(),
        http: (i % 3 != 0).then(|| Http {
            method: if i % 2 == 1 { "GET" } else { "POST" }.into(),
            status: 200 + (i % 5) as u16,
            path: format!("/p/{i}"),
            latency_ms: (i % 7 != 0).then_some(i as f64 * 0.5),
        }),
        spans: (0..i % 4)
            .map(|j| Span {
                name: format!("s{j}"),
                start_us: ts + j as i64,
                duration_us: (j * 10 + i % 10) as u32,
            })
            .collect(),
    }
}

#[test]
fn log_records_from_pyarrow() {
    let bytes = python_file(LOG_SCRIPT);
    let reader = Reader::<_, LogRecord>::new(&bytes[..]).unwrap();
    assert_eq!(reader.num_rows(), LOG_ROWS as u64);
    assert_eq!(reader.num_row_groups(), 4);
    let rows: Vec<LogRecord> = reader.collect::<Result<_, _>>().unwrap();
    assert_eq!(rows.len(), LOG_ROWS);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row, &expected_log(i), "row {i}");
    }
    // The same through from_slice, from_reader (stream and slice) and from_path.
    assert_eq!(from_slice::<LogRecord>(&bytes).unwrap(), rows);
    assert_eq!(
        from_reader::<LogRecord, _>(std::io::BufReader::new(&bytes[..])).unwrap(),
        rows
    );
    assert_eq!(
        from_reader::<LogRecord, _>(std::io::Cursor::new(&bytes)).unwrap(),
        rows
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("logs.parquet");
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(from_path::<LogRecord>(&path).unwrap(), rows);
    assert_eq!(
        from_reader::<LogRecord, _>(std::fs::File::open(&path).unwrap()).unwrap(),
        rows
    );
    let by_path: Vec<LogRecord> = Reader::from_path(&path)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(by_path, rows);
}

#[test]
fn log_records_in_other_shapes() {
    let bytes = python_file(LOG_SCRIPT);

    // Timestamps as text and as SystemTime; the level as a plain string; attrs as pairs.
    #[derive(Deserialize)]
    struct Other {
        #[serde(rename = "ts")]
        ts_text: String,
        level: String,
        attrs: Vec<(String, String)>,
        http: Option<BTreeMap<String, Value>>,
    }
    let rows: Vec<Other> = from_slice(&bytes).unwrap();
    assert_eq!(rows[1].ts_text, "2023-11-14T22:13:20.001000Z");
    assert_eq!(rows[2].level, "warn");
    assert_eq!(
        rows[3].attrs,
        vec![
            ("k0".to_string(), "v3".to_string()),
            ("k1".into(), "v4".into()),
            ("k2".into(), "v5".into())
        ]
    );
    assert!(rows[0].http.is_none());
    let http = rows[1].http.as_ref().unwrap();
    assert_eq!(http["status"], Value::UInt(201));
    assert_eq!(http["latency_ms"], Value::Double(0.5));

    #[derive(Deserialize)]
    struct Times {
        ts: SystemTime,
    }
    let rows: Vec<Times> = from_slice(&bytes).unwrap();
    assert_eq!(
        rows[7].ts,
        SystemTime::UNIX_EPOCH + Duration::from_micros(1_700_000_000_007_000)
    );

    // Projection: only `target` is decoded.
    #[derive(Deserialize)]
    struct Target {
        target: String,
    }
    let counting = CountingReader::new(&bytes[..]);
    let reader = Reader::<_, Target>::new(&counting).unwrap();
    assert_eq!(reader.projected_columns(), &[2]);
    let rows: Vec<Target> = reader.collect::<Result<_, _>>().unwrap();
    assert_eq!(rows[8].target, "svc::mod1");
    assert!(
        counting.bytes_read() * 4 < bytes.len() as u64,
        "{} of {}",
        counting.bytes_read(),
        bytes.len()
    );
}

// ---------------------------------------------------------------------------------------------
// parquet-testing files

#[test]
fn alltypes_plain_into_a_struct() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct AllTypes {
        id: i32,
        bool_col: bool,
        tinyint_col: i8,
        smallint_col: i16,
        int_col: i32,
        bigint_col: i64,
        float_col: f32,
        double_col: f64,
        date_string_col: String,
        #[serde(with = "serde_bytes")]
        string_col: Vec<u8>,
        timestamp_col: SystemTime,
    }
    let rows: Vec<AllTypes> = from_slice(&corpus_file("alltypes_plain.parquet")).unwrap();
    let ids: Vec<i32> = rows.iter().map(|r| r.id).collect();
    assert_eq!(ids, vec![4, 5, 6, 7, 2, 3, 0, 1]);
    let day = |y_m: (i32, u32), minute: u64| {
        // 2009-01-01 is day 14245.
        let days = [14_245u64, 14_276, 14_304, 14_335][(y_m.1 - 1) as usize];
        SystemTime::UNIX_EPOCH + Duration::from_secs(days * 86_400 + minute * 60)
    };
    assert_eq!(
        rows[1],
        AllTypes {
            id: 5,
            bool_col: false,
            tinyint_col: 1,
            smallint_col: 1,
            int_col: 1,
            bigint_col: 10,
            float_col: 1.1,
            double_col: 10.1,
            date_string_col: "03/01/09".into(),
            string_col: b"1".to_vec(),
            timestamp_col: day((2009, 3), 1),
        }
    );
    assert_eq!(rows[6].timestamp_col, day((2009, 1), 0));
    assert_eq!(rows[6].date_string_col, "01/01/09");
    assert_eq!(rows[6].string_col, b"0");

    // string_col as a sequence of u8 (no serde_bytes) and timestamps as i64 nanoseconds.
    #[derive(Deserialize)]
    struct Other {
        string_col: Vec<u8>,
        timestamp_col: i64,
    }
    let rows: Vec<Other> = from_slice(&corpus_file("alltypes_plain.parquet")).unwrap();
    assert_eq!(rows[1].string_col, b"1");
    assert_eq!(rows[6].timestamp_col, 1_230_768_000_000_000_000);
}

#[test]
fn nested_lists() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Row {
        a: Option<Vec<Option<Vec<Option<Vec<Option<String>>>>>>>,
        b: i32,
    }
    let rows: Vec<Row> = from_slice(&corpus_file("nested_lists.snappy.parquet")).unwrap();
    let s = |v: &[&str]| Some(v.iter().map(|x| Some(x.to_string())).collect::<Vec<_>>());
    assert_eq!(rows.len(), 3);
    assert_eq!(
        rows[0],
        Row {
            a: Some(vec![
                Some(vec![s(&["a", "b"]), s(&["c"])]),
                Some(vec![None, s(&["d"])])
            ]),
            b: 1
        }
    );
    assert_eq!(
        rows[2].a,
        Some(vec![
            Some(vec![s(&["a", "b"]), s(&["c", "d"]), s(&["e"])]),
            Some(vec![None, s(&["f"])])
        ])
    );
}

#[test]
fn nullable_impala() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct E {
        #[serde(rename = "E")]
        e: Option<i32>,
        #[serde(rename = "F")]
        f: Option<String>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct C {
        d: Option<Vec<Option<Vec<Option<E>>>>>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct H {
        i: Option<Vec<Option<f64>>>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct G {
        #[serde(rename = "H")]
        h: Option<H>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Nested {
        #[serde(rename = "A")]
        a: Option<i32>,
        b: Option<Vec<Option<i32>>>,
        #[serde(rename = "C")]
        c: Option<C>,
        g: Option<BTreeMap<String, Option<G>>>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Row {
        id: i64,
        int_array: Option<Vec<Option<i32>>>,
        #[serde(rename = "int_array_Array")]
        int_array_array: Option<Vec<Option<Vec<Option<i32>>>>>,
        int_map: Option<BTreeMap<String, Option<i32>>>,
        #[serde(rename = "int_Map_Array")]
        int_map_array: Option<Vec<Option<Vec<(String, Option<i32>)>>>>,
        nested_struct: Option<Nested>,
    }
    let rows: Vec<Row> = from_slice(&corpus_file("nullable.impala.parquet")).unwrap();
    assert_eq!(rows.len(), 7);
    let e = |e: Option<i32>, f: Option<&str>| {
        Some(E {
            e,
            f: f.map(Into::into),
        })
    };
    assert_eq!(
        rows[0],
        Row {
            id: 1,
            int_array: Some(vec![Some(1), Some(2), Some(3)]),
            int_array_array: Some(vec![
                Some(vec![Some(1), Some(2)]),
                Some(vec![Some(3), Some(4)])
            ]),
            int_map: Some([("k1".into(), Some(1)), ("k2".into(), Some(100))].into()),
            int_map_array: Some(vec![Some(vec![("k1".into(), Some(1))])]),
            nested_struct: Some(Nested {
                a: Some(1),
                b: Some(vec![Some(1)]),
                c: Some(C {
                    d: Some(vec![
                        Some(vec![e(Some(10), Some("aaa")), e(Some(-10), Some("bbb"))]),
                        Some(vec![e(Some(11), Some("c"))])
                    ])
                }),
                g: Some(
                    [(
                        "foo".into(),
                        Some(G {
                            h: Some(H {
                                i: Some(vec![Some(1.1)])
                            })
                        })
                    )]
                    .into()
                ),
            }),
        }
    );
    let r1 = &rows[1];
    assert_eq!(
        r1.int_array,
        Some(vec![None, Some(1), Some(2), None, Some(3), None])
    );
    assert_eq!(
        r1.int_array_array,
        Some(vec![
            Some(vec![None, Some(1), Some(2), None]),
            Some(vec![Some(3), None, Some(4)]),
            Some(vec![]),
            None
        ])
    );
    assert_eq!(
        r1.int_map_array,
        Some(vec![
            Some(vec![("k3".into(), None), ("k1".into(), Some(1))]),
            None,
            Some(vec![])
        ])
    );
    let n1 = r1.nested_struct.as_ref().unwrap();
    assert_eq!(n1.b, Some(vec![None]));
    let g = n1.g.as_ref().unwrap();
    assert_eq!(
        g["g1"],
        Some(G {
            h: Some(H {
                i: Some(vec![Some(2.2), None])
            })
        })
    );
    assert_eq!(g["g3"], None);
    assert_eq!(
        g["g4"],
        Some(G {
            h: Some(H { i: None })
        })
    );
    assert_eq!(g["g5"], Some(G { h: None }));
    let d = n1.c.as_ref().unwrap().d.as_ref().unwrap();
    assert_eq!(d[0].as_ref().unwrap()[0], e(None, None));
    assert_eq!(d[1].as_ref().unwrap()[1], None);
    assert_eq!((d[2].as_ref().map(Vec::len), &d[3]), (Some(0), &None));
    assert_eq!(rows[5].nested_struct, None);
    assert_eq!(rows[3].int_array_array, Some(vec![]));
    assert_eq!(
        rows[6].int_array_array,
        Some(vec![None, Some(vec![Some(5), Some(6)])])
    );
}

#[test]
fn legacy_lists_and_maps() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Old {
        a: Vec<Vec<i32>>,
    }
    assert_eq!(
        from_slice::<Old>(&corpus_file("old_list_structure.parquet")).unwrap(),
        vec![Old {
            a: vec![vec![1, 2], vec![3, 4]]
        }]
    );

    #[derive(Deserialize, Debug, PartialEq)]
    struct Phone {
        number: i64,
        kind: Option<String>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Phones {
        phone: Vec<Phone>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct User {
        id: i32,
        #[serde(rename = "phoneNumbers")]
        phone_numbers: Option<Phones>,
    }
    let users: Vec<User> = from_slice(&corpus_file("repeated_no_annotation.parquet")).unwrap();
    assert_eq!(users.len(), 6);
    assert_eq!(users[0].phone_numbers, None);
    assert_eq!(users[2].phone_numbers, Some(Phones { phone: vec![] }));
    assert_eq!(
        users[3].phone_numbers.as_ref().unwrap().phone,
        vec![Phone {
            number: 5_555_555_555,
            kind: None
        }]
    );
    let six = &users[5].phone_numbers.as_ref().unwrap().phone;
    assert_eq!(
        six.iter().map(|p| p.number).collect::<Vec<_>>(),
        vec![1_111_111_111, 2_222_222_222, 3_333_333_333]
    );
    assert_eq!(six[2].kind.as_deref(), Some("mobile"));
    // The group whose only field is repeated reads as that list.
    #[derive(Deserialize, Debug, PartialEq)]
    struct Flat {
        #[serde(rename = "phoneNumbers")]
        phone_numbers: Option<Vec<Phone>>,
    }
    let flat: Vec<Flat> = from_slice(&corpus_file("repeated_no_annotation.parquet")).unwrap();
    assert_eq!(
        flat[4].phone_numbers,
        Some(vec![Phone {
            number: 1_111_111_111,
            kind: Some("home".into())
        }])
    );

    #[derive(Deserialize, Debug, PartialEq)]
    struct Bare {
        #[serde(rename = "Int32_list")]
        ints: Vec<i32>,
        #[serde(rename = "String_list")]
        strings: Vec<String>,
        group_of_lists: BTreeMap<String, Vec<Value>>,
    }
    let bare: Vec<Bare> = from_slice(&corpus_file("repeated_primitive_no_list.parquet")).unwrap();
    assert_eq!(bare[0].ints, vec![0, 1, 2, 3]);
    assert_eq!(bare[1].ints, Vec::<i32>::new());
    assert_eq!(bare[3].strings, vec!["five", "six", "seven", "eight"]);
    assert_eq!(
        bare[2].group_of_lists["String_list_in_group"],
        vec![Value::String("four".into())]
    );

    #[derive(Deserialize, Debug, PartialEq)]
    struct NoValue {
        my_map: BTreeMap<i32, Option<i32>>,
        my_map_no_v: Vec<i32>,
        my_list: Vec<i32>,
    }
    let maps: Vec<NoValue> = from_slice(&corpus_file("map_no_value.parquet")).unwrap();
    assert_eq!(maps.len(), 3);
    assert_eq!(maps[1].my_map, [(4, None), (5, None), (6, None)].into());
    assert_eq!(maps[1].my_map_no_v, vec![4, 5, 6]);
    assert_eq!(maps[2].my_list, vec![7, 8, 9]);
    #[derive(Deserialize, Debug, PartialEq)]
    struct KeysOnly {
        my_map_no_v: BTreeMap<i32, ()>,
    }
    let keys: Vec<KeysOnly> = from_slice(&corpus_file("map_no_value.parquet")).unwrap();
    assert_eq!(keys[0].my_map_no_v, [(1, ()), (2, ()), (3, ())].into());

    #[derive(Deserialize, Debug, PartialEq)]
    struct NestedMaps {
        a: Option<BTreeMap<String, Option<BTreeMap<i32, bool>>>>,
        b: i32,
        c: f64,
    }
    let nm: Vec<NestedMaps> = from_slice(&corpus_file("nested_maps.snappy.parquet")).unwrap();
    assert_eq!(
        nm[0].a,
        Some([("a".to_string(), Some([(1, true), (2, false)].into()))].into())
    );
    assert_eq!(nm[2].a, Some([("c".to_string(), None)].into()));
    assert_eq!(
        nm[3].a,
        Some([("d".to_string(), Some(BTreeMap::new()))].into())
    );
    assert_eq!((nm[5].b, nm[5].c), (1, 1.0));
}

#[test]
fn decimals() {
    #[derive(Deserialize)]
    struct AsFloat {
        value: f64,
    }
    #[derive(Deserialize)]
    struct AsText {
        value: String,
    }
    #[derive(Deserialize)]
    struct AsInt {
        value: i128,
    }
    for file in [
        "byte_array_decimal.parquet",
        "fixed_length_decimal.parquet",
        "int32_decimal.parquet",
        "int64_decimal.parquet",
    ] {
        let bytes = corpus_file(file);
        let f: Vec<AsFloat> = from_slice(&bytes).unwrap();
        assert_eq!(
            f.iter().take(4).map(|r| r.value).collect::<Vec<_>>(),
            vec![1.0, 2.0, 3.0, 4.0],
            "{file}"
        );
        let t: Vec<AsText> = from_slice(&bytes).unwrap();
        assert_eq!(t[2].value, "3.00", "{file}");
        let i: Vec<AsInt> = from_slice(&bytes).unwrap();
        assert_eq!(i[3].value, 400, "{file}");
    }
}

// ---------------------------------------------------------------------------------------------
// Projection

const WIDE: &str = "message wide {
  required int64 a;
  required binary b (STRING);
  optional int32 c;
  required double d;
  required binary e;
}";

fn wide_file(rows: usize) -> Vec<u8> {
    let mut groups = Vec::new();
    for g in 0..2 {
        let r = (g * rows / 2)..((g + 1) * rows / 2);
        let text: Vec<String> = r
            .clone()
            .map(|i| format!("text value {i} {}", "x".repeat(i % 40)))
            .collect();
        let text_refs: Vec<&str> = text.iter().map(String::as_str).collect();
        let c_def: Vec<i16> = r.clone().map(|i| (i % 4 != 0) as i16).collect();
        groups.push(vec![
            batch(
                ColumnValues::Int64(r.clone().map(|i| i as i64 * 3).collect()),
                &[],
                &[],
            ),
            batch(strs(&text_refs), &[], &[]),
            batch(
                ColumnValues::Int32(r.clone().filter(|i| i % 4 != 0).map(|i| i as i32).collect()),
                &c_def,
                &[],
            ),
            batch(
                ColumnValues::Double(r.clone().map(|i| i as f64 / 8.0).collect()),
                &[],
                &[],
            ),
            batch(strs(&text_refs), &[], &[]),
        ]);
    }
    write_file(WIDE, groups)
}

#[test]
fn projection_decodes_only_named_columns() {
    let bytes = wide_file(4000);
    #[derive(Deserialize, Debug, PartialEq)]
    struct OnlyC {
        c: Option<i32>,
    }
    let counting = CountingReader::new(bytes.clone());
    let reader = Reader::<_, OnlyC>::new(&counting).unwrap();
    assert_eq!(reader.projected_columns(), &[2]);
    let footer_bytes = counting.bytes_read();
    let rows: Vec<OnlyC> = reader.collect::<Result<_, _>>().unwrap();
    assert_eq!(rows.len(), 4000);
    assert_eq!(rows[0], OnlyC { c: None });
    assert_eq!(rows[3001], OnlyC { c: Some(3001) });
    let data_bytes = counting.bytes_read() - footer_bytes;
    // Exactly the chunks of column `c`.
    let metadata = parquet_serde::core::file::ParquetMetaData::parse(&bytes[..]).unwrap();
    let c_bytes: i64 = metadata
        .row_groups()
        .map(|rg| {
            let chunk = rg.column(2).unwrap();
            assert!(chunk.has_metadata());
            chunk.compressed_size()
        })
        .sum();
    assert_eq!(data_bytes, c_bytes as u64);
    assert!(
        data_bytes * 5 < bytes.len() as u64,
        "read {data_bytes} of {} bytes",
        bytes.len()
    );
    // Two row groups, one chunk each.
    assert_eq!(counting.reads(), 3 + 2);

    // All columns: everything is read.
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct All {
        a: i64,
        b: String,
        c: Option<i32>,
        d: f64,
        #[serde(with = "serde_bytes")]
        e: Vec<u8>,
    }
    let counting = CountingReader::new(bytes.clone());
    let reader = Reader::<_, All>::new(&counting).unwrap();
    assert_eq!(reader.projected_columns(), &[0, 1, 2, 3, 4]);
    assert_eq!(reader.count(), 4000);
    assert!(counting.bytes_read() * 10 > bytes.len() as u64 * 9);

    // An empty struct reads no column at all, but still one value per row.
    #[derive(Deserialize)]
    struct Nothing {}
    let reader = Reader::<_, Nothing>::new(&bytes[..]).unwrap();
    assert!(reader.projected_columns().is_empty());
    assert_eq!(reader.count(), 4000);
}

#[test]
fn projection_inside_nested_groups() {
    let schema = "message m {
      required int32 id;
      optional group inner { required int32 x; required binary big; optional int32 y; }
      required group list (LIST) { repeated group list { required group element { required int32 p; required binary q; } } }
    }";
    let b = |n: usize| {
        let mut v = ByteArrays::new();
        for i in 0..n {
            v.push(format!("{i:0>64}").as_bytes());
        }
        ColumnValues::ByteArray(v)
    };
    let bytes = write_file(
        schema,
        vec![vec![
            batch(ColumnValues::Int32(vec![1, 2, 3]), &[], &[]),
            batch(ColumnValues::Int32(vec![10, 30]), &[1, 0, 1], &[]),
            batch(b(2), &[1, 0, 1], &[]),
            batch(ColumnValues::Int32(vec![31]), &[1, 0, 2], &[]),
            batch(
                ColumnValues::Int32(vec![5, 6, 7]),
                &[1, 1, 0, 1],
                &[0, 1, 0, 0],
            ),
            batch(b(3), &[1, 1, 0, 1], &[0, 1, 0, 0]),
        ]],
    );
    #[derive(Deserialize, Debug, PartialEq)]
    struct Inner {
        y: Option<i32>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct P {
        p: i32,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Row {
        inner: Option<Inner>,
        list: Vec<P>,
    }
    let reader = Reader::<_, Row>::new(&bytes[..]).unwrap();
    assert_eq!(reader.projected_columns(), &[3, 4]);
    let rows: Vec<Row> = reader.collect::<Result<_, _>>().unwrap();
    assert_eq!(
        rows,
        vec![
            Row {
                inner: Some(Inner { y: None }),
                list: vec![P { p: 5 }, P { p: 6 }]
            },
            Row {
                inner: None,
                list: vec![]
            },
            Row {
                inner: Some(Inner { y: Some(31) }),
                list: vec![P { p: 7 }]
            },
        ]
    );
    // An empty struct in an optional group still tells None from Some (one column decoded).
    #[derive(Deserialize, Debug, PartialEq)]
    struct Empty {}
    #[derive(Deserialize, Debug, PartialEq)]
    struct Presence {
        inner: Option<Empty>,
    }
    let reader = Reader::<_, Presence>::new(&bytes[..]).unwrap();
    assert_eq!(reader.projected_columns(), &[1]);
    let rows: Vec<Presence> = reader.collect::<Result<_, _>>().unwrap();
    assert_eq!(
        rows,
        vec![
            Presence {
                inner: Some(Empty {})
            },
            Presence { inner: None },
            Presence {
                inner: Some(Empty {})
            }
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Schema evolution and errors

const EVOLVE: &str = "message m {
  required int32 a;
  optional int64 b;
  optional binary s (STRING);
  required float f;
  required int32 small;
}";

fn evolve_file() -> Vec<u8> {
    write_file(
        EVOLVE,
        vec![vec![
            batch(ColumnValues::Int32(vec![1, 2, 3]), &[], &[]),
            batch(ColumnValues::Int64(vec![10, 30]), &[1, 0, 1], &[]),
            batch(strs(&["x", "z"]), &[1, 0, 1], &[]),
            batch(ColumnValues::Float(vec![0.5, 1.5, 2.5]), &[], &[]),
            batch(ColumnValues::Int32(vec![1, 300, 2]), &[], &[]),
        ]],
    )
}

#[test]
fn evolution_widening_defaults_and_missing_options() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Evolved {
        a: i64,
        f: f64,
        #[serde(default)]
        added: u32,
        missing: Option<String>,
        #[serde(default = "seven")]
        custom: i32,
        s: Option<String>,
    }
    fn seven() -> i32 {
        7
    }
    let rows: Vec<Evolved> = from_slice(&evolve_file()).unwrap();
    assert_eq!(
        rows,
        vec![
            Evolved {
                a: 1,
                f: 0.5,
                added: 0,
                missing: None,
                custom: 7,
                s: Some("x".into())
            },
            Evolved {
                a: 2,
                f: 1.5,
                added: 0,
                missing: None,
                custom: 7,
                s: None
            },
            Evolved {
                a: 3,
                f: 2.5,
                added: 0,
                missing: None,
                custom: 7,
                s: Some("z".into())
            },
        ]
    );
    // Required columns read into Options.
    #[derive(Deserialize, Debug, PartialEq)]
    struct Optional {
        a: Option<i32>,
        small: Option<u16>,
    }
    let rows: Vec<Optional> = from_slice(&evolve_file()).unwrap();
    assert_eq!(
        rows[1],
        Optional {
            a: Some(2),
            small: Some(300)
        }
    );
    // serde aliases match old column names.
    #[derive(Deserialize, Debug, PartialEq)]
    struct Renamed {
        #[serde(alias = "a")]
        alpha: i32,
    }
    assert_eq!(
        from_slice::<Renamed>(&evolve_file()).unwrap()[2],
        Renamed { alpha: 3 }
    );
}

#[test]
fn nulls_in_non_option_fields_fail_only_where_they_occur() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Strict {
        a: i32,
        b: i64,
    }
    let mut reader = Reader::<_, Strict>::new(evolve_file()).unwrap();
    assert_eq!(reader.next().unwrap().unwrap(), Strict { a: 1, b: 10 });
    let err = reader.next().unwrap().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Data);
    assert_eq!(err.location().column.as_deref(), Some("b"));
    assert_eq!(err.location().row, Some(1));
    assert_eq!(err.location().row_group, Some(0));
    assert!(err.to_string().contains("null"), "{err}");
    // The reader realigns and goes on with the next row.
    assert_eq!(reader.next().unwrap().unwrap(), Strict { a: 3, b: 30 });
    assert!(reader.next().is_none());
    // from_slice stops at the first error.
    assert!(from_slice::<Strict>(&evolve_file()).is_err());
}

#[test]
fn integer_ranges_are_checked() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Small {
        small: u8,
    }
    let results: Vec<_> = Reader::<_, Small>::new(&evolve_file()[..])
        .unwrap()
        .collect();
    assert_eq!(results[0].as_ref().unwrap(), &Small { small: 1 });
    let err = results[1].as_ref().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Data);
    assert_eq!(err.location().column.as_deref(), Some("small"));
    assert_eq!(err.location().row, Some(1));
    assert!(err.to_string().contains("300"), "{err}");
    assert_eq!(results[2].as_ref().unwrap(), &Small { small: 2 });
    #[derive(Deserialize, Debug, PartialEq)]
    struct Signed {
        small: i8,
    }
    assert!(from_slice::<Signed>(&evolve_file()).is_err());
}

#[test]
fn schema_mismatches_fail_at_open() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Missing {
        a: i32,
        nope: i32,
    }
    let err = Reader::<_, Missing>::new(&evolve_file()[..]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Schema);
    assert_eq!(err.location().column.as_deref(), Some("nope"));
    assert!(err.to_string().contains("`nope`"), "{err}");

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct WrongType {
        s: i32,
    }
    let err = Reader::<_, WrongType>::new(&evolve_file()[..]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Schema);
    assert_eq!(err.location().column.as_deref(), Some("s"));

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct NotAList {
        a: Vec<i32>,
    }
    let err = Reader::<_, NotAList>::new(&evolve_file()[..]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Schema);
    assert!(err.to_string().contains("sequence"), "{err}");

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Nested {
        a: Inner,
    }
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Inner {
        x: i32,
    }
    let err = Reader::<_, Nested>::new(&evolve_file()[..]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Schema);
    assert_eq!(err.location().column.as_deref(), Some("a"));

    // A missing field inside a nested struct is named by its path.
    let bytes = write_file(
        "message m { required group g { required int32 x; } }",
        vec![vec![batch(ColumnValues::Int32(vec![1]), &[], &[])]],
    );
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct G {
        x: i32,
        y: i32,
    }
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Outer {
        g: G,
    }
    let err = Reader::<_, Outer>::new(&bytes[..]).unwrap_err();
    assert_eq!(err.location().column.as_deref(), Some("g.y"));
}

// ---------------------------------------------------------------------------------------------
// Enums

#[derive(Deserialize, Debug, PartialEq)]
enum Shape {
    Circle(f64),
    Rect { w: f64, h: f64 },
    Empty,
    Pair(i32, i32),
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Color {
    Red,
    Blue,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Drawing {
    shape: Shape,
    color: Option<Color>,
}

fn enum_file(extra_variant: bool) -> Vec<u8> {
    let schema = "message m {
      required group shape {
        optional double Circle;
        optional group Rect { required double w; required double h; }
        optional boolean Empty;
        optional group Pair { required int32 _0; required int32 _1; }
      }
      optional binary color (ENUM);
    }";
    let empty_def: &[i16] = if extra_variant {
        &[0, 0, 1, 1]
    } else {
        &[0, 0, 1, 0]
    };
    write_file(
        schema,
        vec![vec![
            batch(ColumnValues::Double(vec![1.5]), &[1, 0, 0, 0], &[]),
            batch(ColumnValues::Double(vec![2.0]), &[0, 1, 0, 0], &[]),
            batch(ColumnValues::Double(vec![3.0]), &[0, 1, 0, 0], &[]),
            batch(
                ColumnValues::Boolean(vec![true; empty_def.iter().filter(|&&d| d == 1).count()]),
                empty_def,
                &[],
            ),
            batch(ColumnValues::Int32(vec![4]), &[0, 0, 0, 1], &[]),
            batch(ColumnValues::Int32(vec![5]), &[0, 0, 0, 1], &[]),
            batch(strs(&["red", "blue", "green"]), &[1, 0, 1, 1], &[]),
        ]],
    )
}

#[test]
fn enums_with_and_without_data() {
    let results: Vec<_> = Reader::<_, Drawing>::new(&enum_file(false)[..])
        .unwrap()
        .collect();
    assert_eq!(
        results[0].as_ref().unwrap(),
        &Drawing {
            shape: Shape::Circle(1.5),
            color: Some(Color::Red)
        }
    );
    assert_eq!(
        results[1].as_ref().unwrap(),
        &Drawing {
            shape: Shape::Rect { w: 2.0, h: 3.0 },
            color: None
        }
    );
    assert_eq!(
        results[2].as_ref().unwrap(),
        &Drawing {
            shape: Shape::Empty,
            color: Some(Color::Blue)
        }
    );
    // "green" is not a variant: a data error on that row only.
    let err = results[3].as_ref().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Data);
    assert_eq!(err.location().column.as_deref(), Some("color"));
    assert_eq!(err.location().row, Some(3));

    #[derive(Deserialize, Debug, PartialEq)]
    struct ShapeOnly {
        shape: Shape,
    }
    let shapes: Vec<ShapeOnly> = from_slice(&enum_file(false)).unwrap();
    assert_eq!(shapes[3].shape, Shape::Pair(4, 5));
    // Two variant fields set in one row.
    let results: Vec<_> = Reader::<_, ShapeOnly>::new(&enum_file(true)[..])
        .unwrap()
        .collect();
    assert!(results[2].is_ok());
    let err = results[3].as_ref().unwrap_err();
    assert!(err.to_string().contains("more than one variant"), "{err}");
    assert_eq!(err.location().column.as_deref(), Some("shape"));
}

// ---------------------------------------------------------------------------------------------
// Row types that are not structs, bytes, 128-bit integers, times

#[test]
fn non_struct_rows() {
    let ints = write_file(
        "message m { required int64 value; }",
        vec![vec![batch(ColumnValues::Int64(vec![3, -4]), &[], &[])]],
    );
    assert_eq!(from_slice::<i64>(&ints).unwrap(), vec![3, -4]);
    assert_eq!(
        from_slice::<Option<i64>>(&ints).unwrap(),
        vec![Some(3), Some(-4)]
    );
    let opt = write_file(
        "message m { optional int32 value; }",
        vec![vec![batch(ColumnValues::Int32(vec![3]), &[0, 1], &[])]],
    );
    assert_eq!(
        from_slice::<Option<i16>>(&opt).unwrap(),
        vec![None, Some(3)]
    );

    let tuples = write_file(
        "message m { required int32 _0; required binary _1 (STRING); }",
        vec![vec![
            batch(ColumnValues::Int32(vec![1, 2]), &[], &[]),
            batch(strs(&["one", "two"]), &[], &[]),
        ]],
    );
    assert_eq!(
        from_slice::<(i32, String)>(&tuples).unwrap(),
        vec![(1, "one".into()), (2, "two".into())]
    );

    let map = write_file(
        "message m { required group value (MAP) { repeated group key_value { required binary key (STRING); required int32 value; } } }",
        vec![vec![
            batch(strs(&["a", "b", "c"]), &[1, 1, 1], &[0, 1, 0]),
            batch(ColumnValues::Int32(vec![1, 2, 3]), &[1, 1, 1], &[0, 1, 0]),
        ]],
    );
    let maps: Vec<BTreeMap<String, i32>> = from_slice(&map).unwrap();
    assert_eq!(
        maps,
        vec![
            [("a".into(), 1), ("b".into(), 2)].into(),
            [("c".into(), 3)].into()
        ]
    );
    let pairs: Vec<Vec<(String, i32)>> = from_slice(&map).unwrap();
    assert_eq!(pairs[0], vec![("a".to_string(), 1), ("b".to_string(), 2)]);

    let list = write_file(
        "message m { required group value (LIST) { repeated group list { required int32 element; } } }",
        vec![vec![batch(ColumnValues::Int32(vec![1, 2, 3, 4, 5]), &[1, 1, 1, 1, 1, 0], &[0, 1, 1, 0, 1, 0])]],
    );
    assert_eq!(
        from_slice::<Vec<u8>>(&list).unwrap(),
        vec![vec![1, 2, 3], vec![4, 5], vec![]]
    );
    let err = from_slice::<[u8; 3]>(&list).unwrap_err();
    assert_eq!(err.location().row, Some(1));
}

#[test]
fn bytes_wide_integers_and_times() {
    let schema = "message m {
      required fixed_len_byte_array(4) fixed;
      required fixed_len_byte_array(16) dec (DECIMAL(38,0));
      required fixed_len_byte_array(16) id (UUID);
      required int64 ms (TIMESTAMP(MILLIS,false));
      required int32 day (DATE);
      required int64 tod (TIME(MICROS,false));
      required int32 u32col (INTEGER(32,false));
    }";
    let mut fixed = FixedLenByteArrays::new(4);
    fixed.push(b"abcd");
    let mut dec = FixedLenByteArrays::new(16);
    dec.push(&(-170_141_183_460_469_231_731_687_303_715_884_105_000i128).to_be_bytes());
    let mut id = FixedLenByteArrays::new(16);
    id.push(&0x0011_2233_4455_6677_8899_aabb_ccdd_eeffu128.to_be_bytes());
    let bytes = write_file(
        schema,
        vec![vec![
            batch(ColumnValues::FixedLenByteArray(fixed), &[], &[]),
            batch(ColumnValues::FixedLenByteArray(dec), &[], &[]),
            batch(ColumnValues::FixedLenByteArray(id), &[], &[]),
            batch(ColumnValues::Int64(vec![-1]), &[], &[]),
            batch(ColumnValues::Int32(vec![19_723]), &[], &[]),
            batch(ColumnValues::Int64(vec![3_723_000_042]), &[], &[]),
            batch(ColumnValues::Int32(vec![-1]), &[], &[]),
        ]],
    );
    #[derive(Deserialize, Debug, PartialEq)]
    struct Row {
        fixed: [u8; 4],
        dec: i128,
        id: u128,
        ms: i64,
        day: i32,
        tod: i64,
        u32col: u32,
    }
    assert_eq!(
        from_slice::<Row>(&bytes).unwrap(),
        vec![Row {
            fixed: *b"abcd",
            dec: -170_141_183_460_469_231_731_687_303_715_884_105_000,
            id: 0x0011_2233_4455_6677_8899_aabb_ccdd_eeff,
            ms: -1,
            day: 19_723,
            tod: 3_723_000_042,
            u32col: u32::MAX,
        }]
    );
    #[derive(Deserialize, Debug, PartialEq)]
    struct Text {
        fixed: serde_bytes::ByteBuf,
        dec: String,
        id: String,
        ms: String,
        day: String,
        tod: String,
    }
    assert_eq!(
        from_slice::<Text>(&bytes).unwrap(),
        vec![Text {
            fixed: serde_bytes::ByteBuf::from(b"abcd".to_vec()),
            dec: "-170141183460469231731687303715884105000".into(),
            id: "00112233-4455-6677-8899-aabbccddeeff".into(),
            ms: "1969-12-31T23:59:59.999".into(),
            day: "2024-01-01".into(),
            tod: "01:02:03.000042".into(),
        }]
    );
    // A u32 column does not fit an i32 at u32::MAX.
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Narrow {
        u32col: i32,
    }
    assert_eq!(
        from_slice::<Narrow>(&bytes).unwrap_err().kind(),
        ErrorKind::Data
    );
    // Values in full fidelity.
    let values: Vec<Value> = from_slice(&bytes).unwrap();
    let row = &values[0];
    assert_eq!(
        row.get("ms"),
        Some(&Value::Timestamp {
            value: -1,
            unit: parquet_serde::core::schema::TimeUnit::Millis,
            utc: false
        })
    );
    assert_eq!(row.get("day"), Some(&Value::Date(19_723)));
    assert_eq!(row.get("u32col"), Some(&Value::UInt(u32::MAX as u64)));
    assert_eq!(
        row.get("id"),
        Some(&Value::Uuid(
            0x0011_2233_4455_6677_8899_aabb_ccdd_eeffu128.to_be_bytes()
        ))
    );
    assert!(matches!(
        row.get("dec"),
        Some(Value::Decimal { scale: 0, .. })
    ));
    // And to JSON.
    let json = serde_json::to_value(row).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "fixed": [97, 98, 99, 100],
            "dec": "-170141183460469231731687303715884105000",
            "id": "00112233-4455-6677-8899-aabbccddeeff",
            "ms": -1,
            "day": 19723,
            "tod": 3_723_000_042i64,
            "u32col": 4294967295u64,
        })
    );
    // deserialize_any (a serde_json::Value target) sees the same mapping.
    #[derive(Deserialize)]
    struct Any {
        dec: serde_json::Value,
        id: serde_json::Value,
        ms: serde_json::Value,
        day: serde_json::Value,
        u32col: serde_json::Value,
    }
    let any: Vec<Any> = from_slice(&bytes).unwrap();
    assert_eq!(
        [
            &any[0].dec,
            &any[0].id,
            &any[0].ms,
            &any[0].day,
            &any[0].u32col
        ],
        [
            &json["dec"],
            &json["id"],
            &json["ms"],
            &json["day"],
            &json["u32col"]
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Value

#[test]
fn value_rows_and_json() {
    let bytes = evolve_file();
    let rows: Vec<Value> = from_slice(&bytes).unwrap();
    assert_eq!(
        rows[1],
        Value::Group(vec![
            ("a".into(), Value::Int(2)),
            ("b".into(), Value::Null),
            ("s".into(), Value::Null),
            ("f".into(), Value::Float(1.5)),
            ("small".into(), Value::Int(300)),
        ])
    );
    let json = serde_json::to_string(&rows[0]).unwrap();
    assert_eq!(json, r#"{"a":1,"b":10,"s":"x","f":0.5,"small":1}"#);
    let back: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        back,
        Value::Group(vec![
            ("a".into(), Value::UInt(1)),
            ("b".into(), Value::UInt(10)),
            ("s".into(), Value::String("x".into())),
            ("f".into(), Value::Double(0.5)),
            ("small".into(), Value::UInt(1)),
        ])
    );
    let nested: Value = serde_json::from_str(r#"[null, true, -3, 1.5, {"k": [1]}]"#).unwrap();
    assert_eq!(
        nested,
        Value::List(vec![
            Value::Null,
            Value::Bool(true),
            Value::Int(-3),
            Value::Double(1.5),
            Value::Group(vec![("k".into(), Value::List(vec![Value::UInt(1)]))]),
        ])
    );
    // Values nest inside typed rows.
    #[derive(Deserialize)]
    struct Mixed {
        a: i32,
        s: Value,
    }
    let mixed: Vec<Mixed> = from_slice(&bytes).unwrap();
    assert_eq!((mixed[2].a, &mixed[2].s), (3, &Value::String("z".into())));
    // Maps keep their non-string keys.
    let maps: Vec<Value> = from_slice(&corpus_file("map_no_value.parquet")).unwrap();
    assert_eq!(
        maps[0].get("my_map"),
        Some(&Value::Map(vec![
            (Value::Int(1), Value::Null),
            (Value::Int(2), Value::Null),
            (Value::Int(3), Value::Null)
        ]))
    );
    // A map without a value column reads as the list of its keys, as pyarrow reads it.
    assert_eq!(
        maps[1].get("my_map_no_v"),
        Some(&Value::List(vec![
            Value::Int(4),
            Value::Int(5),
            Value::Int(6)
        ]))
    );
}

// ---------------------------------------------------------------------------------------------
// Row groups, Send, hostile bytes

#[test]
fn many_row_groups_in_order_and_send() {
    let groups = (0..5)
        .map(|g| {
            vec![batch(
                ColumnValues::Int64((g * 10..g * 10 + 10).collect()),
                &[],
                &[],
            )]
        })
        .collect();
    let bytes = write_file("message m { required int64 value; }", groups);
    let reader = Reader::<_, i64>::new(bytes).unwrap();
    fn assert_send<T: Send>(t: T) -> T {
        t
    }
    let reader = assert_send(reader);
    let handle = std::thread::spawn(move || reader.collect::<Result<Vec<i64>, _>>().unwrap());
    assert_eq!(handle.join().unwrap(), (0..50).collect::<Vec<i64>>());
}

#[test]
fn hostile_bytes_never_panic() {
    let bytes = evolve_file();
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Row {
        a: i32,
        b: Option<i64>,
        s: Option<String>,
    }
    for len in 0..bytes.len() {
        assert!(
            from_slice::<Row>(&bytes[..len]).is_err(),
            "truncated to {len}"
        );
    }
    // Flipped bytes: any result but a panic.
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..2000 {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let mut copy = bytes.clone();
        let at = (seed >> 33) as usize % copy.len();
        copy[at] ^= (seed >> 8) as u8 | 1;
        let options = parquet_serde::ReadOptions::default().verify_checksums(false);
        if let Ok(reader) = Reader::<_, Row>::with_options(&copy[..], options) {
            for row in reader {
                let _ = row;
            }
        }
        let _ = from_slice::<Value>(&copy);
    }
}
