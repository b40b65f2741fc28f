//! Assembler tests on small files written by the low-level writer: projection chosen by the
//! probe, row numbers and realignment after failed rows, and the less common serde shapes.

use std::collections::{BTreeMap, HashMap};

use serde::Deserialize;

use crate::core::column::ColumnBatch;
use crate::core::file::{FileWriter, WriterOptions};
use crate::core::values::{ByteArrays, ColumnValues};
use crate::value::Value;
use crate::ErrorKind;

use super::{from_slice, Reader};

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

fn write(schema: &str, groups: Vec<Vec<ColumnBatch>>) -> Vec<u8> {
    let mut w = FileWriter::new(
        Vec::new(),
        schema.parse().unwrap(),
        WriterOptions::default(),
    )
    .unwrap();
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

const SCHEMA: &str = "message m {
  required int32 id;
  optional group point { required double x; required double y; }
  required group names (LIST) { repeated group list { optional binary element (STRING); } }
  required group kind { optional boolean Empty; optional int32 Count; }
}";

/// Two row groups of 2 rows:
/// 0: id 1, point (1, 2), names ["a", null], kind Empty
/// 1: id 2, point null,   names [],          kind Count(7)
/// 2: id 3, point (3, 4), names ["b"],       kind Count(-1)
/// 3: id 4, point null,   names [null, "c"], kind Empty
fn file() -> Vec<u8> {
    write(
        SCHEMA,
        vec![
            vec![
                batch(ColumnValues::Int32(vec![1, 2]), &[], &[]),
                batch(ColumnValues::Double(vec![1.0]), &[1, 0], &[]),
                batch(ColumnValues::Double(vec![2.0]), &[1, 0], &[]),
                batch(strs(&["a"]), &[2, 1, 0], &[0, 1, 0]),
                batch(ColumnValues::Boolean(vec![true]), &[1, 0], &[]),
                batch(ColumnValues::Int32(vec![7]), &[0, 1], &[]),
            ],
            vec![
                batch(ColumnValues::Int32(vec![3, 4]), &[], &[]),
                batch(ColumnValues::Double(vec![3.0]), &[1, 0], &[]),
                batch(ColumnValues::Double(vec![4.0]), &[1, 0], &[]),
                batch(strs(&["b", "c"]), &[2, 1, 2], &[0, 0, 1]),
                batch(ColumnValues::Boolean(vec![true]), &[0, 1], &[]),
                batch(ColumnValues::Int32(vec![-1]), &[1, 0], &[]),
            ],
        ],
    )
}

#[derive(Deserialize, Debug, PartialEq)]
struct Point {
    x: f64,
    y: f64,
}

#[derive(Deserialize, Debug, PartialEq)]
enum Kind {
    Empty,
    Count(i32),
}

#[derive(Deserialize, Debug, PartialEq)]
struct Row {
    id: i32,
    point: Option<Point>,
    names: Vec<Option<String>>,
    kind: Kind,
}

fn projected<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Vec<usize> {
    Reader::<_, T>::new(bytes)
        .unwrap()
        .projected_columns()
        .to_vec()
}

#[test]
fn full_rows() {
    let rows: Vec<Row> = from_slice(&file()).unwrap();
    assert_eq!(
        rows,
        vec![
            Row {
                id: 1,
                point: Some(Point { x: 1.0, y: 2.0 }),
                names: vec![Some("a".into()), None],
                kind: Kind::Empty
            },
            Row {
                id: 2,
                point: None,
                names: vec![],
                kind: Kind::Count(7)
            },
            Row {
                id: 3,
                point: Some(Point { x: 3.0, y: 4.0 }),
                names: vec![Some("b".into())],
                kind: Kind::Count(-1)
            },
            Row {
                id: 4,
                point: None,
                names: vec![None, Some("c".into())],
                kind: Kind::Empty
            },
        ]
    );
}

#[test]
fn the_probe_projects_what_the_type_reads() {
    let bytes = file();
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Y {
        point: Option<YOnly>,
    }
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct YOnly {
        y: f64,
    }
    assert_eq!(projected::<Y>(&bytes), vec![2]);
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Names {
        names: Vec<Option<String>>,
    }
    assert_eq!(projected::<Names>(&bytes), vec![3]);
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct NameCount {
        names: Vec<serde::de::IgnoredAny>,
    }
    // Elements ignored: the list still needs one column for its lengths.
    assert_eq!(projected::<NameCount>(&bytes), vec![3]);
    let counts: Vec<NameCount> = from_slice(&bytes).unwrap();
    assert_eq!(
        counts.iter().map(|r| r.names.len()).collect::<Vec<_>>(),
        vec![2, 0, 1, 2]
    );
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct K {
        kind: Kind,
    }
    // An enum's variant depends on the data: all of its columns.
    assert_eq!(projected::<K>(&bytes), vec![4, 5]);
    // Types that ask for everything.
    assert_eq!(projected::<Value>(&bytes), vec![0, 1, 2, 3, 4, 5]);
    assert_eq!(
        projected::<HashMap<String, Value>>(&bytes),
        vec![0, 1, 2, 3, 4, 5]
    );
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Flat {
        id: i32,
        #[serde(flatten)]
        rest: BTreeMap<String, Value>,
    }
    assert_eq!(projected::<Flat>(&bytes), vec![0, 1, 2, 3, 4, 5]);
    let flat: Vec<Flat> = from_slice(&bytes).unwrap();
    assert_eq!(flat[1].id, 2);
    assert_eq!(flat[1].rest["point"], Value::Null);
    assert_eq!(
        flat[1].rest["kind"],
        Value::Group(vec![
            ("Empty".into(), Value::Null),
            ("Count".into(), Value::Int(7))
        ])
    );
}

#[test]
fn errors_name_the_file_row_and_the_reader_goes_on() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Strict {
        names: Vec<String>,
        id: i32,
    }
    let results: Vec<_> = Reader::<_, Strict>::new(&file()[..]).unwrap().collect();
    assert_eq!(results.len(), 4);
    for (i, row) in [(0usize, 0u64), (3, 3)] {
        let err = results[i].as_ref().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Data);
        assert_eq!(err.location().row, Some(row));
        assert_eq!(err.location().row_group, Some(i / 2));
        assert_eq!(err.location().column.as_deref(), Some("names.list.element"));
    }
    assert_eq!(
        results[1].as_ref().unwrap(),
        &Strict {
            names: vec![],
            id: 2
        }
    );
    assert_eq!(
        results[2].as_ref().unwrap(),
        &Strict {
            names: vec!["b".into()],
            id: 3
        }
    );
}

#[test]
fn tuples_units_and_maps_of_fields() {
    let bytes = file();
    // A tuple reads a group's fields in order; a shorter one leaves the rest unread.
    #[derive(Deserialize, Debug, PartialEq)]
    struct P {
        point: Option<(f64, f64)>,
        kind: (Option<bool>, Option<i32>),
    }
    let rows: Vec<P> = from_slice(&bytes).unwrap();
    assert_eq!(
        rows[0],
        P {
            point: Some((1.0, 2.0)),
            kind: (Some(true), None)
        }
    );
    assert_eq!(
        rows[1],
        P {
            point: None,
            kind: (None, Some(7))
        }
    );
    #[derive(Deserialize, Debug, PartialEq)]
    struct Short {
        point: Option<(f64,)>,
        id: i32,
    }
    let rows: Vec<Short> = from_slice(&bytes).unwrap();
    assert_eq!(
        rows[2],
        Short {
            point: Some((3.0,)),
            id: 3
        }
    );
    // Units consume their value.
    #[derive(Deserialize, Debug, PartialEq)]
    struct Unit {
        point: Option<()>,
        id: (),
    }
    let rows: Vec<Unit> = from_slice(&bytes).unwrap();
    assert_eq!(
        rows[1],
        Unit {
            point: None,
            id: ()
        }
    );
    assert_eq!(
        rows[2],
        Unit {
            point: Some(()),
            id: ()
        }
    );
    // A map of a group's fields.
    #[derive(Deserialize, Debug, PartialEq)]
    struct M {
        point: Option<BTreeMap<String, f64>>,
    }
    let rows: Vec<M> = from_slice(&bytes).unwrap();
    assert_eq!(
        rows[2].point,
        Some([("x".to_string(), 3.0), ("y".to_string(), 4.0)].into())
    );
}

#[test]
fn untagged_and_internally_buffered_types() {
    // serde buffers untagged enums through deserialize_any.
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(untagged)]
    enum Name {
        Text(String),
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Row {
        names: Vec<Option<Name>>,
    }
    let rows: Vec<Row> = from_slice(&file()).unwrap();
    assert_eq!(rows[3].names, vec![None, Some(Name::Text("c".into()))]);
    let json: Vec<serde_json::Value> = from_slice(&file()).unwrap();
    assert_eq!(
        json[0],
        serde_json::json!({"id": 1, "point": {"x": 1.0, "y": 2.0}, "names": ["a", null], "kind": {"Empty": true, "Count": null}})
    );
}

#[test]
fn root_values() {
    let bytes = write(
        "message m { required group value (LIST) { repeated group list { required int64 element; } } }",
        vec![vec![batch(ColumnValues::Int64(vec![1, 2, 3]), &[1, 1, 0, 1], &[0, 1, 0, 0])]],
    );
    assert_eq!(
        from_slice::<Vec<i64>>(&bytes).unwrap(),
        vec![vec![1, 2], vec![], vec![3]]
    );
    assert_eq!(
        from_slice::<Value>(&bytes).unwrap()[0],
        Value::Group(vec![(
            "value".into(),
            Value::List(vec![Value::Int(1), Value::Int(2)])
        )])
    );
    // A row type of one value on a file of several fields.
    let err = from_slice::<i32>(&file()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Schema);
}
