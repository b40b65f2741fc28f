//! Golden test: the Document example of the Dremel paper (Melnik et al., "Dremel: Interactive
//! Analysis of Web-Scale Datasets", VLDB 2010, figures 2 and 3), shredded by the typed
//! serializer. Rust's `Option` / `Vec` give the paper's optional / repeated fields (a `Vec`
//! is a 3-level LIST whose required wrappers add no levels), so every column has exactly the
//! paper's (value, r, d) stream.

use parquet_serde::core::column::ColumnBatch;
use parquet_serde::core::values::ColumnValues;
use parquet_serde::ParquetSchema;
use serde::Serialize;

#[derive(Serialize, ParquetSchema)]
#[allow(non_snake_case)]
struct Document {
    DocId: i64,
    Links: Option<Links>,
    Name: Vec<Name>,
}

#[derive(Serialize, ParquetSchema)]
#[allow(non_snake_case)]
struct Links {
    Backward: Vec<i64>,
    Forward: Vec<i64>,
}

#[derive(Serialize, ParquetSchema)]
#[allow(non_snake_case)]
struct Name {
    Language: Vec<Language>,
    Url: Option<String>,
}

#[derive(Serialize, ParquetSchema)]
#[allow(non_snake_case)]
struct Language {
    Code: String,
    Country: Option<String>,
}

fn lang(code: &str, country: Option<&str>) -> Language {
    Language {
        Code: code.into(),
        Country: country.map(Into::into),
    }
}

/// The paper's records r1 and r2.
fn records() -> Vec<Document> {
    vec![
        Document {
            DocId: 10,
            Links: Some(Links {
                Backward: vec![],
                Forward: vec![20, 40, 60],
            }),
            Name: vec![
                Name {
                    Language: vec![lang("en-us", Some("us")), lang("en", None)],
                    Url: Some("http://A".into()),
                },
                Name {
                    Language: vec![],
                    Url: Some("http://B".into()),
                },
                Name {
                    Language: vec![lang("en-gb", Some("gb"))],
                    Url: None,
                },
            ],
        },
        Document {
            DocId: 20,
            Links: Some(Links {
                Backward: vec![10, 30],
                Forward: vec![80],
            }),
            Name: vec![Name {
                Language: vec![],
                Url: Some("http://C".into()),
            }],
        },
    ]
}

/// A column as (value, r, d) triples, `None` for NULL; values as text.
fn stream(batch: &ColumnBatch, max_def: i16) -> Vec<(Option<String>, i16, i16)> {
    let values: Vec<String> = match &batch.values {
        ColumnValues::Int64(v) => v.iter().map(|x| x.to_string()).collect(),
        ColumnValues::ByteArray(v) => v
            .iter()
            .map(|b| String::from_utf8(b.to_vec()).unwrap())
            .collect(),
        other => panic!("unexpected values {other:?}"),
    };
    let n = batch.num_levels();
    let mut values = values.into_iter();
    (0..n)
        .map(|i| {
            let d = batch.def_levels.get(i).copied().unwrap_or(0);
            let r = batch.rep_levels.get(i).copied().unwrap_or(0);
            let v = if d == max_def { values.next() } else { None };
            (v, r, d)
        })
        .collect()
}

fn s(v: &str) -> Option<String> {
    Some(v.to_string())
}

#[test]
fn document_columns_match_the_paper() {
    let (schema, batches) = parquet_serde::shred(&records()).unwrap();
    let columns: Vec<(String, i16, i16)> = schema
        .columns()
        .iter()
        .map(|c| (c.path.to_string(), c.max_rep_level, c.max_def_level))
        .collect();
    assert_eq!(
        columns,
        [
            ("DocId".to_string(), 0, 0),
            ("Links.Backward.list.element".to_string(), 1, 2),
            ("Links.Forward.list.element".to_string(), 1, 2),
            (
                "Name.list.element.Language.list.element.Code".to_string(),
                2,
                2
            ),
            (
                "Name.list.element.Language.list.element.Country".to_string(),
                2,
                3
            ),
            ("Name.list.element.Url".to_string(), 1, 2),
        ]
    );
    let streams: Vec<_> = batches
        .iter()
        .zip(&columns)
        .map(|(b, c)| stream(b, c.2))
        .collect();

    // DocId
    assert_eq!(streams[0], [(s("10"), 0, 0), (s("20"), 0, 0)]);
    // Links.Backward
    assert_eq!(streams[1], [(None, 0, 1), (s("10"), 0, 2), (s("30"), 1, 2)]);
    // Links.Forward
    assert_eq!(
        streams[2],
        [
            (s("20"), 0, 2),
            (s("40"), 1, 2),
            (s("60"), 1, 2),
            (s("80"), 0, 2)
        ]
    );
    // Name.Language.Code
    assert_eq!(
        streams[3],
        [
            (s("en-us"), 0, 2),
            (s("en"), 2, 2),
            (None, 1, 1),
            (s("en-gb"), 1, 2),
            (None, 0, 1)
        ]
    );
    // Name.Language.Country
    assert_eq!(
        streams[4],
        [
            (s("us"), 0, 3),
            (None, 2, 2),
            (None, 1, 1),
            (s("gb"), 1, 3),
            (None, 0, 1)
        ]
    );
    // Name.Url
    assert_eq!(
        streams[5],
        [
            (s("http://A"), 0, 2),
            (s("http://B"), 1, 2),
            (None, 1, 1),
            (s("http://C"), 0, 2)
        ]
    );
}

/// The same records written to a file and read back as rows by the low-level reader.
#[test]
fn document_round_trips_through_a_file() {
    let bytes = parquet_serde::to_vec(&records()).unwrap();
    let rows: Vec<parquet_serde::Value> = parquet_serde::from_slice(&bytes).unwrap();
    let json: Vec<String> = rows
        .iter()
        .map(|r| {
            let mut out = String::new();
            r.write_json(&mut out);
            out
        })
        .collect();
    assert_eq!(
        json,
        [
            r#"{"DocId":10,"Links":{"Backward":[],"Forward":[20,40,60]},"Name":[{"Language":[{"Code":"en-us","Country":"us"},{"Code":"en","Country":null}],"Url":"http://A"},{"Language":[],"Url":"http://B"},{"Language":[{"Code":"en-gb","Country":"gb"}],"Url":null}]}"#,
            r#"{"DocId":20,"Links":{"Backward":[10,30],"Forward":[80]},"Name":[{"Language":[],"Url":"http://C"}]}"#,
        ]
    );
}

/// A record with `Links: None` nulls both Links columns at definition level 0.
#[test]
fn missing_optional_group() {
    let doc = Document {
        DocId: 1,
        Links: None,
        Name: vec![],
    };
    let (schema, batches) = parquet_serde::shred(&[doc]).unwrap();
    for (c, b) in schema.columns().iter().zip(&batches) {
        let want_def = if c.max_def_level == 0 {
            vec![]
        } else {
            vec![0]
        };
        let want_rep = if c.max_rep_level == 0 {
            vec![]
        } else {
            vec![0]
        };
        assert_eq!(
            (&b.def_levels, &b.rep_levels),
            (&want_def, &want_rep),
            "{}",
            c.path
        );
    }
}
