//! Writing rows with no Rust type: `record::Value` trees, JSON text and `serde_json::Value`s
//! against a schema given at run time, and schema inference from sample rows.

use parquet_serde::core::schema::{PhysicalType as Type, TimeUnit};
use parquet_serde::core::schema::{Repetition, Schema};
use parquet_serde::core::values::Int96;
use parquet_serde::record::{InferOptions, SchemaInferrer, Value, ValueWriter};
use parquet_serde::{ErrorKind, WriterOptions};

fn group(fields: Vec<(&str, Value)>) -> Value {
    Value::Group(
        fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

fn s(text: &str) -> Value {
    Value::String(text.to_string())
}

fn read(bytes: &[u8]) -> Vec<Value> {
    parquet_serde::from_slice(bytes).unwrap()
}

fn write(schema: &str, rows: &[Value]) -> parquet_serde::Result<Vec<u8>> {
    let mut writer = ValueWriter::new(
        Vec::new(),
        schema.parse().unwrap(),
        WriterOptions::default(),
    )?;
    writer.write_all(rows)?;
    writer.into_inner()
}

const EVERY_TYPE: &str = "message m {
  required boolean b;
  required int32 i8 (INTEGER(8,true));
  required int64 i;
  optional int64 u (INTEGER(64,false));
  required float f;
  required double d;
  optional binary s (STRING);
  optional binary raw;
  required int32 day (DATE);
  required int64 t (TIME(MICROS,false));
  required int64 ts (TIMESTAMP(MICROS,true));
  required int64 local (TIMESTAMP(NANOS,false));
  required fixed_len_byte_array(16) id (UUID);
  required fixed_len_byte_array(8) dec (DECIMAL(12,3));
  optional binary j (JSON);
  optional group l (LIST) { repeated group list { optional int64 element; } }
  optional group m (MAP) { repeated group key_value { required binary key (STRING); optional group value { required double x; } } }
  optional group g { required binary name (STRING); optional group inner { optional int32 n; } }
}";

fn every_type_row(k: i64) -> Value {
    group(vec![
        ("b", Value::Bool(k % 2 == 0)),
        ("i8", Value::Int(-k)),
        ("i", Value::Int(k * 1_000_000_007)),
        ("u", Value::UInt(u64::MAX - k as u64)),
        ("f", Value::Float(k as f32 + 0.5)),
        ("d", Value::Double(k as f64 * 1.25)),
        ("s", s(&format!("row {k} \u{e9}"))),
        ("raw", Value::Bytes(vec![k as u8, 0, 255])),
        ("day", Value::Date(19_000 + k as i32)),
        (
            "t",
            Value::Time {
                value: k * 1_000_000,
                unit: TimeUnit::Micros,
            },
        ),
        (
            "ts",
            Value::Timestamp {
                value: 1_700_000_000_000_000 + k,
                unit: TimeUnit::Micros,
                utc: true,
            },
        ),
        (
            "local",
            Value::Timestamp {
                value: 1_700_000_000_000_000_000 + k,
                unit: TimeUnit::Nanos,
                utc: false,
            },
        ),
        ("id", Value::Uuid([k as u8; 16])),
        (
            "dec",
            Value::Decimal {
                unscaled: (k * 1001 - 5000).to_be_bytes().to_vec(),
                scale: 3,
            },
        ),
        ("j", s(&format!("{{\"k\":{k}}}"))),
        (
            "l",
            Value::List((0..k % 3).map(|x| Value::Int(x * k)).collect()),
        ),
        (
            "m",
            Value::Map(vec![(s("a"), group(vec![("x", Value::Double(k as f64))]))]),
        ),
        (
            "g",
            group(vec![
                ("name", s("n")),
                ("inner", group(vec![("n", Value::Int(k))])),
            ]),
        ),
    ])
}

#[test]
fn value_rows_of_every_type_read_back_equal() {
    let mut rows: Vec<Value> = (0..50).map(every_type_row).collect();
    // Nulls at every optional level, empty containers.
    rows.push(group(vec![
        ("b", Value::Bool(true)),
        ("i8", Value::Int(127)),
        ("i", Value::Int(i64::MIN)),
        ("u", Value::Null),
        ("f", Value::Float(f32::INFINITY)),
        ("d", Value::Double(-0.0)),
        ("s", Value::Null),
        ("raw", Value::Null),
        ("day", Value::Date(-1)),
        (
            "t",
            Value::Time {
                value: 0,
                unit: TimeUnit::Micros,
            },
        ),
        (
            "ts",
            Value::Timestamp {
                value: -1,
                unit: TimeUnit::Micros,
                utc: true,
            },
        ),
        (
            "local",
            Value::Timestamp {
                value: 0,
                unit: TimeUnit::Nanos,
                utc: false,
            },
        ),
        ("id", Value::Uuid([0; 16])),
        (
            "dec",
            Value::Decimal {
                unscaled: (-999_999_999_999i64).to_be_bytes().to_vec(),
                scale: 3,
            },
        ),
        ("j", Value::Null),
        ("l", Value::List(vec![Value::Null, Value::Int(1)])),
        ("m", Value::Map(vec![(s("k"), Value::Null)])),
        ("g", group(vec![("name", s("")), ("inner", Value::Null)])),
    ]));
    rows.push(group(vec![
        ("b", Value::Bool(false)),
        ("i8", Value::Int(-128)),
        ("i", Value::Int(0)),
        ("f", Value::Float(0.0)),
        ("d", Value::Double(0.0)),
        ("day", Value::Date(0)),
        (
            "t",
            Value::Time {
                value: 1,
                unit: TimeUnit::Micros,
            },
        ),
        (
            "ts",
            Value::Timestamp {
                value: 0,
                unit: TimeUnit::Micros,
                utc: true,
            },
        ),
        (
            "local",
            Value::Timestamp {
                value: 0,
                unit: TimeUnit::Nanos,
                utc: false,
            },
        ),
        ("id", Value::Uuid([9; 16])),
        (
            "dec",
            Value::Decimal {
                unscaled: vec![1],
                scale: 3,
            },
        ),
        ("l", Value::List(vec![])),
        ("m", Value::Map(vec![])),
        ("g", group(vec![("inner", group(vec![])), ("name", s("x"))])),
    ]));
    let bytes = write(EVERY_TYPE, &rows).unwrap();
    let back = read(&bytes);
    assert_eq!(back.len(), rows.len());
    for (i, (got, want)) in back.iter().zip(&rows).enumerate().take(51) {
        assert_eq!(got, want, "row {i}");
    }
    // The last row: absent optional fields read as nulls, fields given out of order land
    // by name, the decimal's 8 bytes come back in the column's width.
    let last = &back[51];
    assert_eq!(last.get("u"), Some(&Value::Null));
    assert_eq!(last.get("j"), Some(&Value::Null));
    assert_eq!(last.get("l"), Some(&Value::List(vec![])));
    assert_eq!(last.get("m"), Some(&Value::Map(vec![])));
    assert_eq!(
        last.get("g"),
        Some(&group(vec![
            ("name", s("x")),
            ("inner", group(vec![("n", Value::Null)]))
        ]))
    );
    assert_eq!(
        last.get("dec"),
        Some(&Value::Decimal {
            unscaled: vec![0, 0, 0, 0, 0, 0, 0, 1],
            scale: 3
        })
    );
}

#[test]
fn logical_values_convert_to_the_column_unit_and_scale() {
    let schema = "message m {
      optional int64 ts (TIMESTAMP(MICROS,true));
      optional int32 ms (TIME(MILLIS,false));
      optional int64 d (DECIMAL(10,2));
      optional double x;
    }";
    let rows = [
        group(vec![
            (
                "ts",
                Value::Timestamp {
                    value: 1_500,
                    unit: TimeUnit::Millis,
                    utc: true,
                },
            ),
            (
                "ms",
                Value::Time {
                    value: 2_000_000_000,
                    unit: TimeUnit::Nanos,
                },
            ),
            (
                "d",
                Value::Decimal {
                    unscaled: vec![0x04, 0xd2],
                    scale: 1,
                },
            ),
            ("x", Value::Int(7)),
        ]),
        group(vec![
            ("ts", Value::Int96(Int96::from_nanos(3_000))),
            ("ts", Value::Null),
        ]),
        group(vec![
            ("ts", s("2026-11-24T10:00:00.000001Z")),
            ("d", s("-1.5")),
        ]),
    ];
    // A field given twice is refused; the row before it is kept.
    let mut writer = ValueWriter::new(
        Vec::new(),
        schema.parse().unwrap(),
        WriterOptions::default(),
    )
    .unwrap();
    writer.write(&rows[0]).unwrap();
    let err = writer.write(&rows[1]).unwrap_err();
    assert!(err.to_string().contains("twice"), "{err}");
    assert_eq!(err.location().row, Some(1));
    writer.write(&rows[2]).unwrap();
    let back = read(&writer.into_inner().unwrap());
    assert_eq!(
        back[0].get("ts"),
        Some(&Value::Timestamp {
            value: 1_500_000,
            unit: TimeUnit::Micros,
            utc: true
        })
    );
    assert_eq!(
        back[0].get("ms"),
        Some(&Value::Time {
            value: 2_000,
            unit: TimeUnit::Millis
        })
    );
    // 123.4 at scale 2.
    assert_eq!(
        back[0].get("d"),
        Some(&Value::Decimal {
            unscaled: 12_340i64.to_be_bytes().to_vec(),
            scale: 2
        })
    );
    assert_eq!(back[0].get("x"), Some(&Value::Double(7.0)));
    assert_eq!(
        back[1].get("ts"),
        Some(&Value::Timestamp {
            value: 1_795_514_400_000_001,
            unit: TimeUnit::Micros,
            utc: true
        })
    );
    assert_eq!(
        back[1].get("d"),
        Some(&Value::Decimal {
            unscaled: (-150i64).to_be_bytes().to_vec(),
            scale: 2
        })
    );
    // Digits the column's scale would lose are refused.
    let err = write(
        schema,
        &[group(vec![(
            "d",
            Value::Decimal {
                unscaled: vec![1],
                scale: 3,
            },
        )])],
    )
    .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Data);
    assert_eq!(err.location().column.as_deref(), Some("d"), "{err}");
}

#[test]
fn values_that_do_not_fit_name_the_field_and_the_row() {
    let schema = "message m {
      required int64 id;
      optional group http { required int32 status; optional group tags (LIST) { repeated group list { required binary element (STRING); } } }
    }";
    let ok = |id: i64| group(vec![("id", Value::Int(id))]);
    let cases: Vec<(Value, &str, &str)> = vec![
        (group(vec![("id", s("x"))]), "id", "found a string"),
        (group(vec![]), "id", "required field is missing"),
        (group(vec![("id", Value::Null)]), "id", "null"),
        (
            group(vec![
                ("id", Value::Int(1)),
                ("http", group(vec![("status", Value::Int(1 << 40))])),
            ]),
            "http.status",
            "out of the column's range",
        ),
        (
            group(vec![
                ("id", Value::Int(1)),
                (
                    "http",
                    group(vec![
                        ("status", Value::Int(200)),
                        ("tags", Value::List(vec![s("a"), Value::Null])),
                    ]),
                ),
            ]),
            "http.tags.list.element",
            "null",
        ),
        (
            group(vec![("id", Value::Int(1)), ("nope", Value::Int(1))]),
            "",
            "no field `nope`",
        ),
        (
            group(vec![("id", Value::Int(1)), ("http", Value::List(vec![]))]),
            "http",
            "found a list",
        ),
    ];
    for (bad, path, message) in cases {
        let mut writer = ValueWriter::new(
            Vec::new(),
            schema.parse().unwrap(),
            WriterOptions::default(),
        )
        .unwrap();
        writer.write_all(&[ok(1), ok(2)]).unwrap();
        let err = writer.write(&bad).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Data, "{err}");
        assert_eq!(err.location().row, Some(2), "{err}");
        assert!(err.to_string().contains(message), "{message}: {err}");
        if !path.is_empty() {
            assert_eq!(err.location().column.as_deref(), Some(path), "{err}");
        }
        // Nothing of the bad row was kept; the writer goes on.
        writer.write(&ok(3)).unwrap();
        let back = read(&writer.into_inner().unwrap());
        let ids: Vec<_> = back.iter().map(|r| r.get("id").cloned()).collect();
        assert_eq!(ids, [1, 2, 3].map(|i| Some(Value::Int(i))));
    }
}

#[test]
fn json_columns_take_any_value_as_its_text() {
    let schema: Schema = "message m { optional binary j (JSON); optional int64 n; }"
        .parse()
        .unwrap();
    let mut writer = ValueWriter::new(Vec::new(), schema, WriterOptions::default()).unwrap();
    writer
        .write_json_slice(br#"{"j": {"a": [1, 2.5, "x"], "b": null}, "n": 1}"#)
        .unwrap();
    writer
        .write_json_slice(br#"{"j": "text", "n": 2}"#)
        .unwrap();
    writer.write_json_slice(br#"  {"j": null}  "#).unwrap();
    writer
        .write_json_value(&serde_json::json!({"n": 4, "j": [true]}))
        .unwrap();
    writer
        .write(&group(vec![(
            "j",
            Value::List(vec![Value::Int(1), Value::Null]),
        )]))
        .unwrap();
    writer.write(&group(vec![("j", s("[\"raw\"]"))])).unwrap();
    let err = writer
        .write_json_slice(br#"{"n": 1} trailing"#)
        .unwrap_err();
    assert!(err.to_string().contains("invalid JSON"), "{err}");
    let err = writer.write_json_slice(br#"{"n": 1.5}"#).unwrap_err();
    assert_eq!(err.location().column.as_deref(), Some("n"), "{err}");
    let back = read(&writer.into_inner().unwrap());
    let j: Vec<_> = back.iter().map(|r| r.get("j").cloned().unwrap()).collect();
    assert_eq!(
        j,
        [
            s(r#"{"a": [1, 2.5, "x"], "b": null}"#),
            s("\"text\""),
            Value::Null,
            s("[true]"),
            s("[1,null]"),
            s("[\"raw\"]"),
        ]
    );
    assert_eq!(back[3].get("n"), Some(&Value::Int(4)));
}

#[test]
fn json_text_fills_maps_lists_and_logical_columns() {
    let schema: Schema = "message m {
      optional group attrs (MAP) { repeated group key_value { required binary key (STRING); optional int64 value; } }
      optional group pts (LIST) { repeated group list { optional group element { required double x; optional double y; } } }
      optional int64 ts (TIMESTAMP(MILLIS,true));
      optional int32 day (DATE);
      optional fixed_len_byte_array(16) id (UUID);
    }"
    .parse()
    .unwrap();
    let mut writer = ValueWriter::new(Vec::new(), schema, WriterOptions::default()).unwrap();
    writer
        .write_json_slice(
            br#"{"attrs": {"a": 1, "b": null}, "pts": [{"y": 2, "x": 1}, null, {"x": 0.5}],
                 "ts": "2026-01-02T03:04:05.678+01:00", "day": "2026-01-02",
                 "id": "00112233-4455-6677-8899-aabbccddeeff"}"#,
        )
        .unwrap();
    writer
        .write_json_slice(br#"{"attrs": {}, "pts": [], "ts": 5}"#)
        .unwrap();
    let back = read(&writer.into_inner().unwrap());
    assert_eq!(
        back[0].get("attrs"),
        Some(&Value::Map(vec![
            (s("a"), Value::Int(1)),
            (s("b"), Value::Null)
        ]))
    );
    assert_eq!(
        back[0].get("pts"),
        Some(&Value::List(vec![
            group(vec![("x", Value::Double(1.0)), ("y", Value::Double(2.0))]),
            Value::Null,
            group(vec![("x", Value::Double(0.5)), ("y", Value::Null)]),
        ]))
    );
    assert_eq!(
        back[0].get("ts"),
        Some(&Value::Timestamp {
            value: 1_767_319_445_678,
            unit: TimeUnit::Millis,
            utc: true
        })
    );
    assert_eq!(back[0].get("day"), Some(&Value::Date(20_455)));
    let mut id = [0u8; 16];
    for (i, b) in id.iter_mut().enumerate() {
        *b = (i as u8) * 0x11;
    }
    assert_eq!(back[0].get("id"), Some(&Value::Uuid(id)));
    assert_eq!(back[1].get("attrs"), Some(&Value::Map(vec![])));
    assert_eq!(back[1].get("pts"), Some(&Value::List(vec![])));
    assert_eq!(back[1].get("id"), Some(&Value::Null));
}

fn inferred(lines: &[&str], options: InferOptions) -> parquet_serde::Result<String> {
    let mut inferrer = SchemaInferrer::new(options);
    for line in lines {
        inferrer.add_json_slice(line.as_bytes())?;
    }
    Ok(inferrer.schema()?.to_string())
}

#[test]
fn inference_widens_across_the_sample() {
    let text = inferred(
        &[
            r#"{"a": 1, "b": 1, "c": "x", "d": [1], "e": {"x": 1}, "f": null, "g": true, "h": {}}"#,
            r#"{"a": 2, "b": 2.5, "c": 3, "d": [null, 2.5], "e": {"y": "z"}, "f": null, "g": false, "i": [[1], []]}"#,
            r#"{"a": 3, "b": 3, "c": null, "d": [], "e": null, "g": true, "h": {}, "i": [[2.5]]}"#,
        ],
        InferOptions::default().mixed_as_json(true),
    )
    .unwrap();
    let want = "message schema {
  required int64 a;
  required double b;
  optional binary c (JSON);
  required group d (LIST) {
    repeated group list {
      optional double element;
    }
  }
  optional group e {
    optional int64 x;
    optional binary y (STRING);
  }
  optional binary f (JSON);
  required boolean g;
  optional binary h (JSON);
  optional group i (LIST) {
    repeated group list {
      required group element (LIST) {
        repeated group list {
          required double element;
        }
      }
    }
  }
}";
    assert_eq!(text, want);
    // By default the mixed, empty and null-only values become VARIANT groups.
    let lines = [
        r#"{"a": 1, "b": 1, "c": "x", "d": [1], "e": {"x": 1}, "f": null, "g": true, "h": {}}"#,
        r#"{"a": 2, "b": 2.5, "c": 3, "d": [null, 2.5], "e": {"y": "z"}, "f": null, "g": false, "i": [[1], []]}"#,
        r#"{"a": 3, "b": 3, "c": null, "d": [], "e": null, "g": true, "h": {}, "i": [[2.5]]}"#,
    ];
    let text = inferred(&lines, InferOptions::default()).unwrap();
    let variant = |name: &str| {
        format!(
            "  optional group {name} (VARIANT(1)) {{
    required binary metadata;
    required binary value;
  }}"
        )
    };
    let want = want
        .replace("  optional binary c (JSON);", &variant("c"))
        .replace("  optional binary f (JSON);", &variant("f"))
        .replace("  optional binary h (JSON);", &variant("h"));
    assert_eq!(text, want);
    // Nullable makes everything optional.
    let text = inferred(&[r#"{"a": [1]}"#], InferOptions::default().nullable(true)).unwrap();
    assert!(text.contains("optional group a (LIST)"), "{text}");
    assert!(text.contains("optional int64 element"), "{text}");
}

#[test]
fn inference_of_big_integers_timestamps_and_bad_rows() {
    let big = [r#"{"n": 1, "o": {"m": 18446744073709551615}}"#];
    let text = inferred(&big, InferOptions::default()).unwrap();
    assert!(text.contains("required double m;"), "{text}");
    let err = inferred(&big, InferOptions::default().big_integers_error(true)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Data);
    assert_eq!(err.location().column.as_deref(), Some("o.m"), "{err}");
    assert!(err.to_string().contains("18446744073709551615"), "{err}");
    // Beyond u64, serde_json gives a float: still a big integer.
    let err = inferred(
        &[r#"{"l": [1, 100000000000000000000000]}"#],
        InferOptions::default().big_integers_error(true),
    )
    .unwrap_err();
    assert_eq!(err.location().column.as_deref(), Some("l.element"), "{err}");

    let ts = [
        r#"{"t": "2026-11-24T10:00:00Z", "u": "2026-11-24T10:00:00Z"}"#,
        r#"{"t": "2026-11-24 10:00:00.5+02:00", "u": "soon"}"#,
    ];
    let text = inferred(&ts, InferOptions::default()).unwrap();
    assert!(text.contains("required binary t (STRING);"), "{text}");
    let text = inferred(&ts, InferOptions::default().timestamps(true)).unwrap();
    assert!(
        text.contains("required int64 t (TIMESTAMP(MICROS,true));"),
        "{text}"
    );
    assert!(text.contains("required binary u (STRING);"), "{text}");

    let mut inferrer = SchemaInferrer::new(InferOptions::default());
    for bad in ["[1]", "3", "{\"a\": }", "{\"a\": 1} {}"] {
        let err = inferrer.add_json_slice(bad.as_bytes()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Data, "{bad}: {err}");
    }
    assert_eq!(inferrer.rows(), 0);
    assert_eq!(
        inferrer.schema().unwrap_err().kind(),
        ErrorKind::InvalidArgument
    );

    let rows = vec![
        serde_json::json!({"b": 1, "a": "x"}),
        serde_json::json!({"b": 2.5}),
    ];
    let mut inferrer = SchemaInferrer::new(InferOptions::default());
    for row in &rows {
        inferrer.add(row).unwrap();
    }
    let schema = inferrer.schema().unwrap();
    let fields = schema.root().fields();
    assert_eq!(fields[0].name, "a");
    assert_eq!(fields[0].repetition, Repetition::Optional);
    assert_eq!(fields[1].physical_type(), Some(Type::Double));
}

/// Inference then writing: every sample row fits the inferred schema and reads back as the
/// JSON it came from.
#[test]
fn inferred_schema_takes_its_sample() {
    let lines = [
        r#"{"id": 1, "v": 2, "tags": ["a"], "o": {"p": 1}}"#,
        r#"{"id": 2, "v": 0.5, "tags": [], "o": null, "mixed": 1}"#,
        r#"{"v": 3, "tags": [null], "mixed": {"k": [1]}, "o": {"q": "s"}}"#,
    ];
    let mut inferrer = SchemaInferrer::new(InferOptions::default().mixed_as_json(true));
    for l in lines {
        inferrer.add_json_slice(l.as_bytes()).unwrap();
    }
    let mut writer =
        ValueWriter::new(Vec::new(), inferrer.schema().unwrap(), Default::default()).unwrap();
    for l in lines {
        writer.write_json_slice(l.as_bytes()).unwrap();
    }
    let back = read(&writer.into_inner().unwrap());
    let want = [
        group(vec![
            ("id", Value::Int(1)),
            ("v", Value::Double(2.0)),
            ("tags", Value::List(vec![s("a")])),
            ("o", group(vec![("p", Value::Int(1)), ("q", Value::Null)])),
            ("mixed", Value::Null),
        ]),
        group(vec![
            ("id", Value::Int(2)),
            ("v", Value::Double(0.5)),
            ("tags", Value::List(vec![])),
            ("o", Value::Null),
            ("mixed", s("1")),
        ]),
        group(vec![
            ("id", Value::Null),
            ("v", Value::Double(3.0)),
            ("tags", Value::List(vec![Value::Null])),
            ("o", group(vec![("p", Value::Null), ("q", s("s"))])),
            ("mixed", s(r#"{"k": [1]}"#)),
        ]),
    ];
    assert_eq!(back, want);
}

/// Mixed values inferred as VARIANT keep their types: written from JSON text and from
/// `serde_json::Value`s, they read back as the Variants of the JSON they came from; `null`
/// and a missing field are a null group.
#[test]
fn inferred_mixed_values_are_variants() {
    use parquet_serde::variant::Variant;
    let lines = [
        r#"{"id": 1, "attrs": 7}"#,
        r#"{"id": 2, "attrs": "seven"}"#,
        r#"{"id": 3, "attrs": {"status": 500, "ok": false, "tags": ["a", 1.5, null]}}"#,
        r#"{"id": 4, "attrs": null}"#,
        r#"{"id": 5}"#,
        r#"{"id": 6, "attrs": [{"k": 18446744073709551615}]}"#,
    ];
    let mut inferrer = SchemaInferrer::new(InferOptions::default());
    for l in lines {
        inferrer.add_json_slice(l.as_bytes()).unwrap();
    }
    let schema = inferrer.schema().unwrap();
    assert!(
        schema
            .to_string()
            .contains("optional group attrs (VARIANT(1))"),
        "{schema}"
    );
    let expected: Vec<Value> = lines
        .iter()
        .map(|l| {
            let json: serde_json::Value = serde_json::from_str(l).unwrap();
            let attrs = match json.get("attrs") {
                None | Some(serde_json::Value::Null) => Value::Null,
                Some(v) => Value::Variant(Variant::from(v)),
            };
            group(vec![
                ("id", Value::Int(json["id"].as_i64().unwrap())),
                ("attrs", attrs),
            ])
        })
        .collect();
    // From JSON text, straight from the parser.
    let mut writer = ValueWriter::new(Vec::new(), schema.clone(), Default::default()).unwrap();
    for l in lines {
        writer.write_json_slice(l.as_bytes()).unwrap();
    }
    assert_eq!(read(&writer.into_inner().unwrap()), expected);
    // From serde_json::Values.
    let mut writer = ValueWriter::new(Vec::new(), schema, Default::default()).unwrap();
    for l in lines {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        writer.write_json_value(&v).unwrap();
    }
    let back = read(&writer.into_inner().unwrap());
    assert_eq!(back, expected);
    let Value::Group(row) = &back[2] else {
        panic!("{:?}", back[2])
    };
    let Value::Variant(v) = &row[1].1 else {
        panic!("{row:?}")
    };
    assert_eq!(
        serde_json::Value::from(v.clone()),
        serde_json::json!({"status": 500, "ok": false, "tags": ["a", 1.5, null]})
    );
}

/// `serde_json::Map` must keep keys sorted in every build, `--all-features` included:
/// inference orders fields and the JSON tests compare text by it. A dependency that turns
/// on serde_json's `preserve_order` (bson 2 did) changes that for the whole build.
#[test]
fn serde_json_maps_are_sorted_in_this_build() {
    let map: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(r#"{"b": 1, "a": 2}"#).unwrap();
    assert_eq!(
        map.keys().next().map(String::as_str),
        Some("a"),
        "serde_json's `preserve_order` is on: some dependency enables it (`cargo tree -e features -i serde_json`)"
    );
}
