//! One shredded VARIANT path, read and filtered alone.
//!
//! - Predicates (`col("attrs").field("status")`): row groups are pruned by the statistics
//!   of the field's `typed_value` column, and the rows selected are those whose field holds
//!   a matching value of the shredded type.
//! - Reading (`select_columns(&["attrs.typed_value.status"])`): only that path's columns
//!   are decoded (with the metadata when its `value` column is read), and each row's
//!   variant holds that field alone.

use parquet_serde::filter::{col, FilterOptions, Predicate};
use parquet_serde::record::Value;
use parquet_serde::variant::Variant;
use parquet_serde::{ParquetSchema, Reader, WriterOptions};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as J};

/// The shredding schema of `attrs`.
#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq)]
struct Attrs {
    status: i32,
    region: String,
    http: Http,
}

#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq)]
struct Http {
    method: String,
}

#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq)]
struct Row {
    id: i64,
    #[parquet(variant(shred = "Attrs"))]
    attrs: J,
    #[parquet(variant)]
    raw: J,
}

const GROUP: usize = 500;

/// Four row groups: status 200 only; 404 only; 200 and 500; 200 and the string "500" (not
/// of the shredded type: it stays in the field's `value` column). Some rows lack the field.
fn rows() -> Vec<Row> {
    (0..4 * GROUP)
        .map(|i| {
            let g = i / GROUP;
            let status = match (g, i % 10) {
                (_, 9) => None,
                (0, _) => Some(json!(200)),
                (1, _) => Some(json!(404)),
                (2, 0..=2) => Some(json!(500)),
                (3, 0..=2) => Some(json!("500")),
                _ => Some(json!(200)),
            };
            let mut attrs = json!({
                "region": if i % 2 == 0 { "eu" } else { "us" },
                "http": {"method": if i % 3 == 0 { "POST" } else { "GET" }},
                "extra": i,
            });
            if let Some(s) = status {
                attrs["status"] = s;
            }
            Row {
                id: i as i64,
                attrs,
                raw: json!({"x": i}),
            }
        })
        .collect()
}

fn read(bytes: &[u8], p: &Predicate, options: FilterOptions) -> (Vec<Row>, usize) {
    let mut r = Reader::<_, Row>::new(bytes)
        .unwrap()
        .filter_with_options(p.clone(), options)
        .unwrap();
    let pruned = r.filter_report().unwrap().pruned_by_statistics;
    (r.by_ref().map(Result::unwrap).collect(), pruned)
}

#[test]
fn shredded_paths_prune_by_their_typed_statistics() {
    let rows = rows();
    let options = WriterOptions::default().row_group_rows(GROUP);
    let bytes = parquet_serde::to_vec_with(&rows, options).unwrap();
    let status = |r: &Row| r.attrs.get("status").and_then(J::as_i64);
    type Test = Box<dyn Fn(&Row) -> bool>;
    let cases: Vec<(Predicate, Test, usize)> = vec![
        // Only group 2 holds an int 500; group 3's "500" is a string.
        (
            col("attrs").field("status").eq(500),
            Box::new(move |r| status(r) == Some(500)),
            3,
        ),
        (
            col("attrs").field("status").gt(300),
            Box::new(move |r| status(r).is_some_and(|s| s > 300)),
            2,
        ),
        (
            col("attrs").field("status").between(400, 410),
            // Group 2's 200..500 range may hold 404: only groups 0 and 3 go.
            Box::new(move |r| status(r).is_some_and(|s| (400..=410).contains(&s))),
            2,
        ),
        // Missing, or of another type: null for the typed column.
        (
            col("attrs").field("status").is_null(),
            Box::new(move |r| status(r).is_none()),
            0,
        ),
        (
            col("attrs")
                .field("http")
                .field("method")
                .eq("POST")
                .and(col("attrs").field("region").eq("eu")),
            Box::new(|r| r.attrs["http"]["method"] == "POST" && r.attrs["region"] == "eu"),
            0,
        ),
    ];
    for (p, test, pruned) in cases {
        let want: Vec<Row> = rows.iter().filter(|r| test(r)).cloned().collect();
        assert!(!want.is_empty(), "{p}");
        let (got, n) = read(&bytes, &p, FilterOptions::default());
        assert_eq!(n, pruned, "{p}");
        assert_eq!(got, want, "{p}");
        // The exact test alone gives the same rows.
        let (got, n) = read(&bytes, &p, FilterOptions::none());
        assert_eq!(n, 0);
        assert_eq!(got, want, "{p}");
    }
}

/// A field of a plain column is refused. A field that a shredded column does not shred
/// (held in the residual `value` object) and a field of an unshredded column (`raw`) are
/// decoded row by row instead.
#[test]
fn paths_that_are_not_shredded_are_errors() {
    let bytes = parquet_serde::to_vec(&rows()[..3]).unwrap();
    let p = col("id").field("x").eq(1);
    assert!(Reader::<_, Row>::new(&bytes[..])
        .unwrap()
        .filter(p)
        .is_err());
    let p = col("raw").field("x").eq(1);
    assert!(Reader::<_, Row>::new(&bytes[..]).unwrap().filter(p).is_ok());
    let p = col("attrs").field("extra").eq(1);
    let got: Vec<Row> = Reader::<_, Row>::new(&bytes[..])
        .unwrap()
        .filter(p)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].attrs["extra"], json!(1));
}

/// The variant of each row's `attrs` when `columns` are selected, and the names of the leaf
/// columns decoded.
fn read_path(bytes: &[u8], columns: &[&str]) -> (Vec<Variant>, Vec<String>) {
    let reader = Reader::<_, Value>::new(bytes)
        .unwrap()
        .select_columns(columns)
        .unwrap();
    let decoded = reader
        .projected_columns()
        .iter()
        .map(|&c| reader.schema().columns()[c].path.to_string())
        .collect();
    let attrs = reader
        .map(|row| match row.unwrap() {
            Value::Group(fields) => match fields.as_slice() {
                [(name, Value::Variant(v))] if name == "attrs" => v.clone(),
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        })
        .collect();
    (attrs, decoded)
}

#[test]
fn one_shredded_path_decodes_only_its_columns() {
    let rows = rows();
    let bytes = parquet_serde::to_vec(&rows).unwrap();
    // Compared as JSON: a shredded int32 reads back as int32 whatever width was written
    // (the encoding's exact numeric types are one class).
    let json = |v: &Variant| J::from(v);
    let field = |r: &Row, name: &str| r.attrs.get(name).cloned();
    let only = |v: Option<J>, name: &str| {
        J::Object(v.map(|v| (name.to_string(), v)).into_iter().collect())
    };

    // The field's group: its typed and value columns, and the metadata the value needs.
    let (got, decoded) = read_path(&bytes, &["attrs.typed_value.status"]);
    assert_eq!(
        decoded,
        [
            "attrs.metadata",
            "attrs.typed_value.status.value",
            "attrs.typed_value.status.typed_value",
        ]
    );
    for (v, r) in got.iter().zip(&rows) {
        assert_eq!(json(v), only(field(r, "status"), "status"), "row {}", r.id);
    }
    assert_eq!(got.len(), rows.len());

    // The typed column alone: values of the shredded type (the string "500" is not).
    let (got, decoded) = read_path(&bytes, &["attrs.typed_value.status.typed_value"]);
    assert_eq!(decoded, ["attrs.typed_value.status.typed_value"]);
    for (v, r) in got.iter().zip(&rows) {
        let typed = field(r, "status").filter(J::is_i64);
        assert_eq!(json(v), only(typed, "status"), "row {}", r.id);
    }

    // A nested path: its columns and the metadata.
    let (got, decoded) = read_path(&bytes, &["attrs.typed_value.http.typed_value.method"]);
    assert_eq!(
        decoded,
        [
            "attrs.metadata",
            "attrs.typed_value.http.typed_value.method.value",
            "attrs.typed_value.http.typed_value.method.typed_value",
        ]
    );
    for (v, r) in got.iter().zip(&rows) {
        let method = json!({"http": {"method": r.attrs["http"]["method"]}});
        assert_eq!(json(v), method, "row {}", r.id);
    }

    // The whole column: every value as written.
    let (got, _) = read_path(&bytes, &["attrs"]);
    for (v, r) in got.iter().zip(&rows) {
        assert_eq!(json(v), r.attrs, "row {}", r.id);
    }
}

/// Dotted paths (`attrs.status`) find each row's value in the typed column or the `value`
/// bytes and cast it as DuckDB does (the string "500" equals 500); row groups are skipped by
/// the typed column's statistics only where the field's `value` column is all null.
#[test]
fn dotted_paths_cast_every_value_and_prune_where_all_are_typed() {
    let rows = rows();
    let options = WriterOptions::default().row_group_rows(GROUP);
    let bytes = parquet_serde::to_vec_with(&rows, options).unwrap();
    let status = |r: &Row| match r.attrs.get("status") {
        Some(J::String(s)) => s.parse::<i64>().ok(),
        other => other.and_then(J::as_i64),
    };
    type Test = Box<dyn Fn(&Row) -> bool>;
    let cases: Vec<(&str, Test, usize)> = vec![
        // Groups 0 and 1 hold typed 200 / 404 only; group 3's strings keep it.
        (
            "attrs.status = 500",
            Box::new(move |r| status(r) == Some(500)),
            2,
        ),
        (
            "attrs.status > 300",
            Box::new(move |r| status(r).is_some_and(|s| s > 300)),
            1,
        ),
        (
            "not attrs.status <= 300",
            Box::new(move |r| status(r).is_some_and(|s| s > 300)),
            1,
        ),
        // Text against the INT32 column: compared as text, no pruning.
        (
            "attrs.status = '500'",
            Box::new(move |r| status(r) == Some(500)),
            0,
        ),
        ("attrs.extra = 7", Box::new(|r| r.attrs["extra"] == 7), 0),
        (
            "attrs.http.method = 'POST'",
            Box::new(|r| r.attrs["http"]["method"] == "POST"),
            0,
        ),
    ];
    for (text, test, pruned) in cases {
        let p = Predicate::parse(text).unwrap();
        let want: Vec<Row> = rows.iter().filter(|r| test(r)).cloned().collect();
        assert!(!want.is_empty(), "{p}");
        let (got, n) = read(&bytes, &p, FilterOptions::default());
        assert_eq!(n, pruned, "{p}");
        assert_eq!(got, want, "{p}");
        let (got, n) = read(&bytes, &p, FilterOptions::none());
        assert_eq!(n, 0);
        assert_eq!(got, want, "{p}");
    }
}
