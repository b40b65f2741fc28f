//! Typed rows with VARIANT columns: a `Variant` field, and any serde type marked
//! `#[parquet(variant)]`, are written as VARIANT groups and read back into their types.

use std::collections::HashMap;

use parquet_serde::variant::Variant;
use parquet_serde::{ParquetSchema, Value};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Attrs {
    status: u16,
    path: String,
    tags: Vec<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Outcome {
    Ok,
    Failed { code: i32, reason: String },
}

#[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq, Clone)]
struct Row {
    id: i64,
    raw: Variant,
    maybe: Option<Variant>,
    #[parquet(variant)]
    json: serde_json::Value,
    #[parquet(variant)]
    counts: HashMap<String, i64>,
    #[parquet(variant)]
    attrs: Attrs,
    #[parquet(variant)]
    outcome: Outcome,
    #[parquet(variant)]
    optional: Option<Attrs>,
}

fn rows() -> Vec<Row> {
    vec![
        Row {
            id: 1,
            raw: Variant::object([
                ("d", Variant::Date(19_000)),
                ("ts", Variant::TimestampNanos(5)),
                (
                    "dec",
                    Variant::Decimal16 {
                        unscaled: 12345678901234567890123,
                        scale: 3,
                    },
                ),
            ]),
            maybe: None,
            json: serde_json::json!({"a": [1, 2.5, null, "x"], "b": {"c": true}}),
            counts: [("x".to_string(), 1), ("y".to_string(), -2)].into(),
            attrs: Attrs {
                status: 500,
                path: "/api".into(),
                tags: vec!["a".into()],
            },
            outcome: Outcome::Ok,
            optional: None,
        },
        Row {
            id: 2,
            raw: Variant::Null,
            maybe: Some(Variant::Array(vec![
                Variant::Uuid([1; 16]),
                Variant::Binary(vec![9]),
            ])),
            json: serde_json::Value::Null,
            counts: HashMap::new(),
            attrs: Attrs {
                status: 200,
                path: String::new(),
                tags: vec![],
            },
            outcome: Outcome::Failed {
                code: -1,
                reason: "boom".into(),
            },
            optional: Some(Attrs {
                status: 1,
                path: "p".into(),
                tags: vec!["t".into(), "u".into()],
            }),
        },
    ]
}

#[test]
fn typed_rows_round_trip() {
    let rows = rows();
    let bytes = parquet_serde::to_vec(&rows).unwrap();
    let back: Vec<Row> = parquet_serde::from_slice(&bytes).unwrap();
    assert_eq!(back, rows);
}

#[test]
fn the_schema_is_a_variant_group() {
    use parquet_serde::core::schema::LogicalType;
    use parquet_serde::core::schema::NodeKind;
    let root = Row::parquet_root();
    let NodeKind::Group { fields } = &root.kind else {
        panic!("{root:?}")
    };
    for name in [
        "raw", "maybe", "json", "counts", "attrs", "outcome", "optional",
    ] {
        let f = fields.iter().find(|f| f.name == name).expect(name);
        assert!(
            matches!(f.logical_type, Some(LogicalType::Variant { .. })),
            "{f:?}"
        );
        let NodeKind::Group { fields: parts } = &f.kind else {
            panic!("{f:?}")
        };
        let names: Vec<&str> = parts.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["metadata", "value"]);
    }
}

#[test]
fn dynamic_rows_read_variants() {
    let bytes = parquet_serde::to_vec(&rows()).unwrap();
    let values: Vec<Value> = parquet_serde::from_slice(&bytes).unwrap();
    let attrs = values[0].get("attrs").unwrap();
    let Value::Variant(v) = attrs else {
        panic!("{attrs:?}")
    };
    assert_eq!(v.get("status"), Some(&Variant::Int16(500)));
    assert_eq!(values[0].get("maybe"), Some(&Value::Null));
    assert_eq!(values[1].get("json"), Some(&Value::Variant(Variant::Null)));
    let mut json = String::new();
    values[1].write_json(&mut json);
    assert!(
        json.contains(r#""outcome":{"Failed":{"code":-1,"reason":"boom"}}"#),
        "{json}"
    );
    // A projection to one variant column reads it whole.
    let only = parquet_serde::Reader::<_, parquet_serde::Value>::new(&bytes[..])
        .unwrap()
        .select_columns(&["counts.value"])
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let Some(Value::Variant(c)) = only[0].get("counts") else {
        panic!("{:?}", only[0])
    };
    assert_eq!(c.get("y"), Some(&Variant::Int8(-2)));
}

#[test]
fn other_types_read_the_same_variant_groups() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Small {
        id: i64,
        attrs: Attrs,
    }
    let bytes = parquet_serde::to_vec(&rows()).unwrap();
    let back: Vec<Small> = parquet_serde::from_slice(&bytes).unwrap();
    assert_eq!(back[1].attrs, rows()[1].attrs);
    // A JSON value or a map reads the same group.
    #[derive(Deserialize, Debug)]
    struct AsJson {
        attrs: serde_json::Value,
        counts: HashMap<String, i64>,
    }
    let back: Vec<AsJson> = parquet_serde::from_slice(&bytes).unwrap();
    assert_eq!(back[0].attrs["tags"], serde_json::json!(["a"]));
    assert_eq!(back[0].counts["x"], 1);
}

/// The shredding schema of `ShreddedRow::attrs`.
#[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq, Clone)]
struct Shape {
    status: i64,
    path: String,
    tags: Vec<String>,
    latency: f64,
    http: Http,
    code: u16,
}

#[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq, Clone)]
struct Http {
    method: String,
}

#[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq, Clone)]
struct ShreddedRow {
    id: i64,
    #[parquet(variant(shred = "Shape"))]
    attrs: Option<serde_json::Value>,
}

fn shredded_rows() -> Vec<ShreddedRow> {
    use serde_json::json;
    [
        Some(json!({"status": 500, "path": "/a", "tags": ["x", "y"], "latency": 1.5, "http": {"method": "GET"}, "code": 7})),
        Some(json!({"status": 200, "path": "/b", "extra": {"deep": [1, 2]}, "more": null})),
        Some(json!({"status": "not a number", "tags": ["x", 3, null], "http": "flat", "latency": 2})),
        Some(json!({"path": null, "http": {"method": "PUT", "body": "{}"}})),
        Some(json!({})),
        Some(json!("not an object")),
        Some(json!([1, 2, 3])),
        Some(serde_json::Value::Null),
        None,
    ]
    .into_iter()
    .enumerate()
    .map(|(i, attrs)| ShreddedRow { id: i as i64, attrs })
    .collect()
}

#[test]
fn shredded_rows_round_trip() {
    let rows = shredded_rows();
    let bytes = parquet_serde::to_vec(&rows).unwrap();
    let back: Vec<ShreddedRow> = parquet_serde::from_slice(&bytes).unwrap();
    assert_eq!(back, rows);
    // The typed columns exist and hold the shredded values.
    let file = parquet_serde::core::file::FileReader::new(&bytes[..]).unwrap();
    let paths: Vec<String> = file
        .schema()
        .columns()
        .iter()
        .map(|c| c.path.to_string())
        .collect();
    for p in [
        "attrs.metadata",
        "attrs.value",
        "attrs.typed_value.status.value",
        "attrs.typed_value.status.typed_value",
        "attrs.typed_value.tags.typed_value.list.element.typed_value",
        "attrs.typed_value.http.typed_value.method.typed_value",
        "attrs.typed_value.code.typed_value",
    ] {
        assert!(paths.iter().any(|x| x == p), "{p} not in {paths:?}");
    }
}

/// `ShreddedRow` without the shredding attribute: shredded by `WriterOptions` instead.
#[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq, Clone)]
struct PlainRow {
    id: i64,
    #[parquet(variant)]
    attrs: Option<serde_json::Value>,
}

#[test]
fn shredding_by_writer_options_writes_what_the_attribute_writes() {
    let rows = shredded_rows();
    let plain: Vec<PlainRow> = rows
        .iter()
        .map(|r| PlainRow {
            id: r.id,
            attrs: r.attrs.clone(),
        })
        .collect();
    let options = parquet_serde::WriterOptions::default().shred_variant_as::<Shape>("attrs");
    let by_options = parquet_serde::to_vec_with(&plain, options.clone()).unwrap();
    let by_attribute = parquet_serde::to_vec(&rows).unwrap();
    // The same schema (but for the message's name) and the same rows.
    let schema = |b: &[u8]| {
        parquet_serde::core::file::FileReader::new(b)
            .unwrap()
            .schema()
            .to_string()
    };
    assert_eq!(
        schema(&by_options).replace("PlainRow", "ShreddedRow"),
        schema(&by_attribute)
    );
    let back: Vec<PlainRow> = parquet_serde::from_slice(&by_options).unwrap();
    assert_eq!(back, plain);

    // Only an unshredded VARIANT group can be shredded.
    let err = |path: &str| {
        let o = parquet_serde::WriterOptions::default().shred_variant_as::<Shape>(path);
        parquet_serde::to_vec_with(&plain, o)
            .unwrap_err()
            .to_string()
    };
    assert!(err("id").contains("not a VARIANT group"), "{}", err("id"));
    assert!(err("nope").contains("no such field"), "{}", err("nope"));
    assert!(
        err("attrs.value").contains("not a VARIANT group"),
        "{}",
        err("attrs.value")
    );
    let twice = parquet_serde::to_vec_with(&rows, options)
        .unwrap_err()
        .to_string();
    assert!(twice.contains("shredded already"), "{twice}");
}
